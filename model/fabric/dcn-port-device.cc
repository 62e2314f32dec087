#include "dcn-port-device.h"

#include "dcn-fast-path.h"
#include "dcn-queue-disc.h"

#include "ns3/ipv4-header.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/ppp-header.h"
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
    static TypeId tid = TypeId("ns3::DcnPortDevice")
                            .SetParent<PointToPointNetDevice>()
                            .SetGroupName("DcnLb")
                            .AddConstructor<DcnPortDevice>();
    return tid;
}

DcnPortDevice::DcnPortDevice()
{
    NS_LOG_FUNCTION(this);
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
    EnqueueItem(Create<Ipv4QueueDiscItem>(packet, dest, protocolNumber, h));
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
    PppHeader ppp;
    ppp.SetProtocol(0x0021); // IPv4 (as PointToPointNetDevice::AddHeader writes it)
    p->AddHeader(ppp);
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
    if (!m_busy)
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
