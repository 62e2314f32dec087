#include "dcn-port-device.h"

#include "dcn-fast-path.h"
#include "dcn-queue-disc.h"

#include "ns3/boolean.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/error-model.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/pointer.h"
#include "ns3/ppp-header.h"
#include "ns3/simulator.h"
#include "ns3/traffic-control-layer.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnPortDevice");
NS_OBJECT_ENSURE_REGISTERED(DcnPortQueue);
NS_OBJECT_ENSURE_REGISTERED(DcnPortDevice);

// ---------------------------------------------------------------- DcnPortQueue
// (no NS_LOG here: Queue<Packet> declares its own private g_log; the device logs)

TypeId
DcnPortQueue::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DcnPortQueue")
                            .SetParent<Queue<Packet>>()
                            .SetGroupName("DcnLb")
                            .AddConstructor<DcnPortQueue>();
    return tid;
}

DcnPortQueue::DcnPortQueue()
{
    // what it stands for: the IPv4 mode's one-packet device queue (the staged slot)
    SetMaxSize(QueueSize("1p"));
}

DcnPortQueue::~DcnPortQueue()
{
}

bool
DcnPortQueue::Enqueue(Ptr<Packet> item)
{
    NS_ABORT_MSG_IF(!m_dev, "DcnPortQueue: not attached to a DcnPortDevice");
    m_dev->Pushed(item);
    return true;
}

Ptr<Packet>
DcnPortQueue::Dequeue()
{
    return m_dev ? m_dev->NextForLine() : nullptr;
}

Ptr<Packet>
DcnPortQueue::Remove()
{
    return Dequeue();
}

Ptr<const Packet>
DcnPortQueue::Peek() const
{
    return nullptr; // nothing is stored here (the device's staged packet is not removable)
}

// --------------------------------------------------------------- DcnPortDevice

TypeId
DcnPortDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcnPortDevice")
            .SetParent<PointToPointNetDevice>()
            .SetGroupName("DcnLb")
            .AddConstructor<DcnPortDevice>()
            .AddAttribute("OwnTransmit",
                          "true: the port's own transmit machine puts packets on the line and "
                          "schedules their reception at the peer (same timing and event order "
                          "as PointToPointNetDevice + PointToPointChannel, fewer instructions); "
                          "its trace sources are PortTxBegin / PortTxEnd, and "
                          "PointToPointNetDevice's transmit-side sources (MacTx, Sniffer and "
                          "PromiscSniffer on transmit, PhyTxBegin, PhyTxEnd) and the channel's "
                          "TxRxPointToPoint do not fire.  false: PointToPointNetDevice's own "
                          "transmit machine and channel, with all of their trace sources. "
                          "The channel's Delay and the InterframeGap are read when the port "
                          "first transmits or receives. "
                          "Receive-side sources fire in both.  Our choice (issue 13, "
                          "doc/fabric.rst \"Fast fabric mode\").",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DcnPortDevice::m_ownTx),
                          MakeBooleanChecker())
            .AddTraceSource("PortTxBegin",
                            "A packet (PPP header included) starts on the line "
                            "(OwnTransmit=true; PhyTxBegin otherwise).",
                            MakeTraceSourceAccessor(&DcnPortDevice::m_portTxBegin),
                            "ns3::DcnPortDevice::PortTxTracedCallback")
            .AddTraceSource("PortTxEnd",
                            "A packet's last bit left the port (OwnTransmit=true; "
                            "PhyTxEnd otherwise).",
                            MakeTraceSourceAccessor(&DcnPortDevice::m_portTxEnd),
                            "ns3::DcnPortDevice::PortTxTracedCallback")
            .AddTraceSource("PortRx",
                            "A packet (PPP header included) received from a peer on its own "
                            "transmit machine (PointToPointNetDevice's Sniffer, "
                            "PromiscSniffer, PhyRxEnd and MacRx otherwise).",
                            MakeTraceSourceAccessor(&DcnPortDevice::m_portRx),
                            "ns3::DcnPortDevice::PortTxTracedCallback")
            .AddTraceSource("PortRxDrop",
                            "A packet from a peer on its own transmit machine dropped by "
                            "the receive error model (PhyRxDrop otherwise).",
                            MakeTraceSourceAccessor(&DcnPortDevice::m_portRxDrop),
                            "ns3::DcnPortDevice::PortTxTracedCallback");
    return tid;
}

/** DcnPortDevice's end-of-transmission event (reused, see m_txDoneEvent). */
class DcnPortDevice::TxDoneEvent : public EventImpl
{
  public:
    explicit TxDoneEvent(DcnPortDevice* dev)
        : m_dev(dev)
    {
    }

  protected:
    void Notify() override
    {
        m_dev->TxDone();
    }

  private:
    DcnPortDevice* m_dev;
};

DcnPortDevice::DcnPortDevice()
{
    NS_LOG_FUNCTION(this);
    m_pppTx.SetProtocol(0x0021);
    m_txDoneEvent = Create<TxDoneEvent>(this);
    m_txq = CreateObject<DcnPortQueue>();
    m_txq->SetDevice(this);
    SetQueue(m_txq);
}

DcnPortDevice::~DcnPortDevice()
{
    NS_LOG_FUNCTION(this);
    // PointToPointNetDevice::DoDispose is private (not chainable): the queue
    // disc is disposed by its topology (DcnTopologyBase::DoDispose) and
    // released here.
    if (m_qdisc)
    {
        m_qdisc->SetKickCallback(Callback<void>());
    }
    if (m_txq)
    {
        m_txq->SetDevice(nullptr);
    }
}

void
DcnPortDevice::DoInitialize()
{
    NS_LOG_FUNCTION(this);
    if (m_qdisc)
    {
        m_qdisc->Initialize();
    }
    PointToPointNetDevice::DoInitialize();
}

void
DcnPortDevice::SetQueueDisc(Ptr<DcnQueueDisc> q)
{
    NS_LOG_FUNCTION(this << q);
    m_qdisc = q;
    if (q)
    {
        q->SetKickCallback(MakeCallback(&DcnPortDevice::Kick, this));
    }
}

Ptr<DcnQueueDisc>
DcnPortDevice::GetQueueDisc() const
{
    return m_qdisc;
}

void
DcnPortDevice::SetDataRate(DataRate rate)
{
    NS_LOG_FUNCTION(this << rate);
    PointToPointNetDevice::SetDataRate(rate);
    m_rate = rate;
}

DataRate
DcnPortDevice::GetDataRate() const
{
    return m_rate;
}

namespace
{
/**
 * Connect cb to PointToPointNetDevice's source p2pName and, on a DcnPortDevice,
 * to its own-machine twin portName: only the machine in use fires.
 */
bool
ConnectBoth(Ptr<NetDevice> dev, const char* p2pName, const char* portName, const CallbackBase& cb)
{
    bool ok = dev->TraceConnectWithoutContext(p2pName, cb);
    if (DynamicCast<DcnPortDevice>(dev))
    {
        ok = dev->TraceConnectWithoutContext(portName, cb) && ok;
    }
    return ok;
}
} // namespace

bool
DcnPortDevice::ConnectTxEnd(Ptr<NetDevice> dev, const CallbackBase& cb)
{
    return ConnectBoth(dev, "PhyTxEnd", "PortTxEnd", cb);
}

bool
DcnPortDevice::ConnectTxBegin(Ptr<NetDevice> dev, const CallbackBase& cb)
{
    return ConnectBoth(dev, "PhyTxBegin", "PortTxBegin", cb);
}

Ptr<DcnQueueDisc>
DcnPortDevice::GetEgressQueueDisc(Ptr<NetDevice> dev)
{
    Ptr<DcnPortDevice> port = DynamicCast<DcnPortDevice>(dev);
    if (port)
    {
        return port->GetQueueDisc();
    }
    Ptr<Node> n = dev ? dev->GetNode() : nullptr;
    Ptr<TrafficControlLayer> tc = n ? n->GetObject<TrafficControlLayer>() : nullptr;
    return tc ? DynamicCast<DcnQueueDisc>(tc->GetRootQueueDiscOnDevice(dev)) : nullptr;
}

void
DcnPortDevice::SetLinkRate(Ptr<PointToPointNetDevice> dev, DataRate rate)
{
    Ptr<DcnPortDevice> port = DynamicCast<DcnPortDevice>(dev);
    if (port)
    {
        port->SetDataRate(rate);
    }
    else
    {
        dev->SetDataRate(rate);
    }
}

bool
DcnPortDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << protocolNumber);
    NS_ABORT_MSG_IF(!m_qdisc, "DcnPortDevice: no queue disc (FabricMode=fast installs one)");
    NS_ABORT_MSG_IF(protocolNumber != 0x0800,
                    "DcnPortDevice: protocol=0x" << std::hex << protocolNumber
                                                 << "; allowed 0x0800 (IPv4) in FabricMode=fast");
    // The traffic-control layer added the header (no root queue disc): read it
    // back so the queue disc sees an Ipv4QueueDiscItem as in the IPv4 mode.
    Ipv4Header h;
    if (m_csum.Get())
    {
        h.EnableChecksum();
    }
    packet->RemoveHeader(h);
    EnqueueItem(Create<dcnfast::Ipv4Item>(packet, dest, protocolNumber, h));
    return true;
}

bool
DcnPortDevice::SendFrom(Ptr<Packet> packet,
                        const Address& source,
                        const Address& dest,
                        uint16_t protocolNumber)
{
    return Send(packet, dest, protocolNumber);
}

void
DcnPortDevice::EnqueueItem(Ptr<QueueDiscItem> item)
{
    NS_LOG_FUNCTION(this << item);
    m_qdisc->Enqueue(item);
    Kick();
}

Ptr<Packet>
DcnPortDevice::Pull()
{
    Ptr<QueueDiscItem> item = m_qdisc->Dequeue();
    if (!item)
    {
        return nullptr;
    }
    item->AddHeader();
    Ptr<Packet> p = item->GetPacket();
    if (!m_unframed)
    {
        p->AddHeader(m_pppTx); // IPv4 (0x0021, as PointToPointNetDevice::AddHeader writes it)
    }
    return p;
}

void
DcnPortDevice::Kick()
{
    NS_LOG_FUNCTION(this);
    if (m_pumping || !m_qdisc)
    {
        return; // re-entered from the queue disc: the outer call continues
    }
    m_pumping = true;
    if (!m_peerKnown)
    {
        FindPeer();
    }
    if (m_ownTx)
    {
        if (!m_busy)
        {
            Ptr<Packet> p = Pull();
            if (p)
            {
                StartTx(p);
            }
        }
    }
    else if (!m_busy)
    {
        // An idle line starts through PointToPointNetDevice::Send (PPP header,
        // MacTx, transmit machine); DcnPortQueue hands the packet back at once.
        Ptr<QueueDiscItem> item = m_qdisc->Dequeue();
        if (item)
        {
            item->AddHeader();
            m_inSend = true;
            PointToPointNetDevice::Send(item->GetPacket(), dcnfast::Broadcast(), 0x0800);
            m_inSend = false;
            m_pushed = nullptr; // not taken if the link was down
        }
    }
    if (m_busy && !m_staged)
    {
        m_staged = Pull(); // the IPv4 mode's one-packet device queue
    }
    m_pumping = false;
}

void
DcnPortDevice::FindPeer()
{
    NS_LOG_FUNCTION(this);
    m_peerKnown = true;
    // Only a plain PointToPointChannel between two point-to-point devices is
    // modelled here (a PointToPointRemoteChannel of an MPI run is not: the
    // fast fabric never builds one); anything else keeps ns-3's machine.
    Ptr<Channel> ch = GetChannel();
    if (!m_ownTx || !ch || ch->GetInstanceTypeId() != PointToPointChannel::GetTypeId() ||
        ch->GetNDevices() != 2)
    {
        m_ownTx = false;
        return;
    }
    for (std::size_t i = 0; i < 2; ++i)
    {
        Ptr<PointToPointNetDevice> d = DynamicCast<PointToPointNetDevice>(ch->GetDevice(i));
        if (d && PeekPointer(d) != this)
        {
            m_peer = PeekPointer(d);
        }
    }
    if (!m_peer || !m_peer->GetNode())
    {
        m_ownTx = false;
        return;
    }
    m_peerPort = dynamic_cast<DcnPortDevice*>(m_peer);
    m_unframed = m_peerPort != nullptr;
    m_remote = m_peer->GetAddress();
    m_peerNode = m_peer->GetNode()->GetId();
    DataRateValue rate;
    GetAttribute("DataRate", rate); // PointToPointNetDevice's, however it was set
    m_rate = rate.Get();
    TimeValue delay;
    ch->GetAttribute("Delay", delay);
    m_delay = delay.Get();
    TimeValue gap;
    GetAttribute("InterframeGap", gap);
    m_gap = gap.Get();
}

void
DcnPortDevice::StartTx(Ptr<Packet> p)
{
    NS_LOG_FUNCTION(this << p);
    // PointToPointNetDevice::TransmitStart + PointToPointChannel::TransmitStart:
    // the same two events, scheduled in the same order.
    m_busy = true;
    // Between two DcnPortDevices the 2-byte PPP header is not carried on the
    // packet (m_unframed): it is counted in the serialisation time, and every
    // observer (PortTxBegin / PortTxEnd, the receive error model, PortRx, pcap)
    // gets the packet with it, as PointToPointNetDevice would show it.
    const uint32_t wireBytes = p->GetSize() + (m_unframed ? PPP_BYTES : 0);
    if (!DCNLB_TRACE_EMPTY(m_portTxBegin) || !DCNLB_TRACE_EMPTY(m_portTxEnd))
    {
        // Sinks may keep the packet; the receiver removes headers from its own.
        m_txPkt = p->Copy();
        if (m_unframed)
        {
            m_txPkt->AddHeader(m_pppTx);
        }
        m_portTxBegin(m_txPkt);
    }
    const Time txTime = m_txTime.Get(m_rate, wireBytes);
    // the same event as Schedule(..., &DcnPortDevice::TxDone, this), without an
    // allocation per packet
    Simulator::Schedule(txTime + m_gap, m_txDoneEvent);
    Ptr<Packet> onWire = p;
    if (m_peerPort)
    {
        Simulator::ScheduleWithContext(m_peerNode,
                                       txTime + m_delay,
                                       &DcnPortDevice::FastRx,
                                       m_peerPort,
                                       onWire);
    }
    else
    {
        Simulator::ScheduleWithContext(m_peerNode,
                                       txTime + m_delay,
                                       &PointToPointNetDevice::Receive,
                                       m_peer,
                                       onWire);
    }
}

void
DcnPortDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_rxCb = cb;
    PointToPointNetDevice::SetReceiveCallback(cb);
}

void
DcnPortDevice::SetPromiscReceiveCallback(PromiscReceiveCallback cb)
{
    m_promisc = !cb.IsNull();
    PointToPointNetDevice::SetPromiscReceiveCallback(cb);
}

namespace
{
/**
 * PointToPointNetDevice's private m_receiveErrorModel: what its ReceiveErrorModel attribute
 * and SetReceiveErrorModel write, read here directly on every packet instead of through the
 * attribute's accessor (session 51: the accessor's dynamic_cast, PointerValue and
 * reference-count round trips were about 420 instructions per packet hop, 4.2 % of a
 * paper-scale Dragonfly AllReduce; the value read is the same member).  C++ lets an explicit
 * instantiation name a private member (C++17 [temp.explicit]: the usual access checking
 * rules do not apply to names in an explicit instantiation); the friend defined in
 * MemberExporter hands the member pointer out.  The member is Ptr<ErrorModel>
 * m_receiveErrorModel in ns-3 3.31 through 3.48 (checked); a rename fails to compile here.
 */
struct RxErrorModelMember
{
    using type = Ptr<ErrorModel> PointToPointNetDevice::*;
    friend type MemberOf(RxErrorModelMember);
};

template <typename Tag, typename Tag::type M>
struct MemberExporter
{
    friend typename Tag::type MemberOf(Tag)
    {
        return M;
    }
};

template struct MemberExporter<RxErrorModelMember, &PointToPointNetDevice::m_receiveErrorModel>;
} // namespace

void
DcnPortDevice::FastRx(Ptr<Packet> p)
{
    NS_LOG_FUNCTION(this << p);
    if (m_promisc)
    {
        p->AddHeader(m_pppTx);
        PointToPointNetDevice::Receive(p);
        return;
    }
    if (!m_peerKnown)
    {
        FindPeer(); // the remote address for the receive callback
    }
    // The error model is read on every packet, as PointToPointNetDevice does:
    // it may be set or replaced at any time (SetReceiveErrorModel, attribute);
    // held by a copy while in use, as the attribute's PointerValue held it.
    const Ptr<ErrorModel> em = this->*MemberOf(RxErrorModelMember());
    if (em)
    {
        // The error model sees the packet as PointToPointNetDevice::Receive
        // would (PPP header included: byte-unit rates, header-reading models).
        p->AddHeader(m_pppTx);
        const bool corrupt = em->IsCorrupt(p);
        if (corrupt)
        {
            m_portRxDrop(p);
            return;
        }
        p->RemoveHeader(m_pppRx);
    }
    if (!DCNLB_TRACE_EMPTY(m_portRx))
    {
        Ptr<Packet> framed = p->Copy(); // sinks may keep it
        framed->AddHeader(m_pppTx);
        m_portRx(framed);
    }
    const uint16_t protocol = 0x0800; // only IPv4 leaves a DcnPortDevice (Send refuses others)
    if (!m_rxCb.IsNull())
    {
        m_rxCb(this, p, protocol, m_remote);
    }
}

void
DcnPortDevice::TxDone()
{
    NS_LOG_FUNCTION(this);
    // PointToPointNetDevice::TransmitComplete with the DcnPortQueue's Dequeue
    // (NextForLine): the staged packet goes on the line, the slot is refilled
    // first.
    ++m_ownTxPackets;
    if (m_txPkt)
    {
        m_portTxEnd(m_txPkt); // the copy StartTx made for connected sinks
        m_txPkt = nullptr;
    }
    Ptr<Packet> next = m_staged;
    m_staged = nullptr;
    m_busy = bool(next);
    if (!next)
    {
        return;
    }
    if (m_qdisc)
    {
        m_pumping = true;
        m_staged = Pull();
        m_pumping = false;
    }
    StartTx(next);
}

void
DcnPortDevice::Pushed(Ptr<Packet> p)
{
    NS_ABORT_MSG_IF(!m_inSend, "DcnPortDevice: a packet reached the transmit queue outside Kick()");
    m_pushed = p;
}

Ptr<Packet>
DcnPortDevice::NextForLine()
{
    Ptr<Packet> p;
    if (m_pushed)
    {
        p = m_pushed;
        m_pushed = nullptr;
    }
    else if (m_staged)
    {
        p = m_staged;
        m_staged = nullptr;
    }
    m_busy = bool(p);
    if (m_busy && !m_inSend && !m_pumping && m_qdisc)
    {
        // Transmission complete, next packet on the line: refill the staged
        // slot now (the IPv4 mode does it in a wake event at the same time:
        // doc/fabric.rst, "Fast fabric mode").
        m_pumping = true;
        m_staged = Pull();
        m_pumping = false;
    }
    return p;
}

} // namespace ns3
