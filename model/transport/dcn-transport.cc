#include "dcn-transport.h"

#include "../dcn-lb-compat.h"
#include "../lb/ev-util.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/dcn-addressing.h"
#include "ns3/dcn-options.h"
#include "ns3/dcn-port-device.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/log.h"
#include "ns3/net-device.h"
#include "ns3/node-list.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/udp-header.h"
#include "ns3/udp-l4-protocol.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnTransport");
NS_OBJECT_ENSURE_REGISTERED(DcnTransport);

TypeId
DcnTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcnTransport")
            .SetParent<DcnMessageTransport>()
            .SetGroupName("DcnLb")
            .AddConstructor<DcnTransport>()
            .AddAttribute("Mode",
                          "Reliability mode: OutOfOrder (selective ACK/retransmission, UET/REPS "
                          "style, REPS spec 2.3) or InOrder (go-back-N, classic RoCE: the receiver "
                          "accepts only the expected PSN and NACKs the first out-of-sequence "
                          "packet with it; doc/transport.rst)",
                          EnumValue(DcnTransport::OUT_OF_ORDER),
                          DCNLB_ENUM_ACCESSOR(DcnTransport::Mode, &DcnTransport::m_mode),
                          MakeEnumChecker(DcnTransport::OUT_OF_ORDER,
                                          "OutOfOrder",
                                          DcnTransport::IN_ORDER,
                                          "InOrder"))
            .AddAttribute("StackBypass",
                          "When the host's port is a DcnPortDevice (FabricMode=fast), send and "
                          "receive this transport's packets with the NIC directly, writing and "
                          "reading the same IPv4/UDP headers, without Ipv4L3Protocol and the UDP "
                          "socket (issue 13, our choice; doc/fabric.rst). false: through ns-3's "
                          "IPv4 stack (needed by FlowMonitor, which hooks Ipv4L3Protocol)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DcnTransport::m_stackBypass),
                          MakeBooleanChecker())
            .AddAttribute("Cnp",
                          "DCQCN notification point (SIGCOMM'15 Sec. 3.2): CNPs for CE-marked "
                          "data. Auto = on in InOrder (RoCE) mode only, On, Off",
                          EnumValue(DcnTransport::CNP_AUTO),
                          DCNLB_ENUM_ACCESSOR(DcnTransport::CnpMode, &DcnTransport::m_cnpMode),
                          MakeEnumChecker(DcnTransport::CNP_AUTO,
                                          "Auto",
                                          DcnTransport::CNP_ON,
                                          "On",
                                          DcnTransport::CNP_OFF,
                                          "Off"))
            .AddAttribute("CnpInterval",
                          "At most one CNP per flow per interval (DCQCN SIGCOMM'15 Sec. 3.2: "
                          "N = 50us)",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&DcnTransport::m_cnpInterval),
                          MakeTimeChecker(Seconds(0), Seconds(1)))
            .AddAttribute("Mtu",
                          "Payload bytes per data packet (REPS spec 2.4: 4096)",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&DcnTransport::m_mtu),
                          MakeUintegerChecker<uint32_t>(1, 65000))
            .AddAttribute("Rto",
                          "Retransmission timeout (REPS paper [L] Sec. 4.1: 70us)",
                          TimeValue(MicroSeconds(70)),
                          MakeTimeAccessor(&DcnTransport::m_rto),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("RtoBaseRtts",
                          "Per connection the retransmission timeout is at least this many "
                          "unloaded RTTs of the connection (DcnConnectionParams::baseRtt): "
                          "max(Rto, RtoBaseRtts x baseRtt); 0 = Rto alone (the default: the "
                          "REPS paper's fixed 70 us).  Not in a paper (our resolution): REPS's "
                          "70 us is 9.5 base RTTs of its 2-tier 400 Gb/s fat tree (7.3 us) and "
                          "6 of the 3-tier one (11.5 us), but below one RTT of an MTU packet on "
                          "the 1 Gb/s hermes-testbed, where every packet would time out; "
                          "dcn-lb-compare and dcn-transport-bench use 5 unless Rto or this is "
                          "given (every REPS fat-tree preset keeps 70 us).  Allowed 0..1000",
                          DoubleValue(0),
                          MakeDoubleAccessor(&DcnTransport::m_rtoBaseRtts),
                          MakeDoubleChecker<double>(0, 1000))
            .AddAttribute("RtoAdaptive",
                          "Per connection the retransmission timeout follows the RTT: "
                          "max(floor, SRTT + 4 RTTVAR), RFC 6298 Sec. 2's estimator (gains 1/8 "
                          "and 1/4) fed by every ACK's RTT (the echoed send time, so a "
                          "retransmission's ACK is a valid sample); floor = Rto, or the "
                          "RtoBaseRtts floor.  No backoff: a timeout keeps the estimate (the "
                          "spraying schemes detect failed paths by their timeouts).  Not in a "
                          "paper (false, the default: the REPS paper's fixed Rto); for slow or "
                          "deep-buffered fabrics where queueing exceeds a fixed timeout",
                          BooleanValue(false),
                          MakeBooleanAccessor(&DcnTransport::m_rtoAdaptive),
                          MakeBooleanChecker())
            .AddAttribute(
                "RtoStart",
                "Where the retransmission timer of a go-back-N connection (Mode="
                "InOrder) counts from: Send = Rto after the send of the oldest "
                "unacknowledged packet, re-armed after a timeout (our default: "
                "RFC 6298-style timing of the oldest outstanding packet; the tables of "
                "doc/ were taken with it); LastAck = the LAPS authors' "
                "simulator ([A] rdma-hw.cc RdmaHw::ReceiveAck): every ACK or NACK that "
                "leaves packets in flight restarts the timer at Rto from now; it is "
                "never armed by a send nor re-armed by its own expiry, so a connection "
                "that never gets an ACK (its whole first window lost) or whose "
                "go-back after a timeout is lost entirely has no timer and stalls, "
                "as in [A]; once every message is acknowledged the timer is "
                "cancelled ([A]: a finished queue pair).  Selective-repeat "
                "connections (Mode=OutOfOrder) ignore it and time each packet from "
                "its send (doc/transport.rst)",
                EnumValue(DcnTransport::RTO_FROM_SEND),
                DCNLB_ENUM_ACCESSOR(DcnTransport::RtoStartMode, &DcnTransport::m_rtoStart),
                MakeEnumChecker(DcnTransport::RTO_FROM_SEND,
                                "Send",
                                DcnTransport::RTO_FROM_LAST_ACK,
                                "LastAck"))
            .AddAttribute("IgnoreStaleNacks",
                          "Go-back-N sender (Mode=InOrder): true = a NACK below the first "
                          "unacknowledged PSN, or one triggered by a packet sent before the "
                          "latest go-back that already covered its expected PSN, is stale and "
                          "ignored (staleNacks; our default: the go-back in progress resends "
                          "that PSN anyway); false = the LAPS authors' simulator ([A] rdma-hw.cc "
                          "RdmaHw::ReceiveAck: Acknowledge(seq) then RecoverQueue, snd_nxt = "
                          "snd_una): every NACK goes back to the later of the first "
                          "unacknowledged PSN and its expected PSN",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DcnTransport::m_ignoreStaleNacks),
                          MakeBooleanChecker())
            .AddAttribute(
                "NackRepeatInterval",
                "Go-back-N receiver (Mode=InOrder): NACK the same expected PSN again "
                "when an out-of-sequence packet arrives at least this long after the "
                "previous NACK of it; 0 = never (our default: one NACK per expected "
                "PSN, as an InfiniBand RC responder's NAK-sequence-error, not repeated "
                "until the expected packet arrives).  The LAPS authors' simulator ([A] rdma-hw.cc "
                "RdmaHw::ReceiverCheckSeq, attribute NACKInterval: 500 us, never "
                "overridden) NACKs when Now >= nackTimer or the expected PSN changed, "
                "then sets nackTimer = Now + 500 us.  Allowed 0..1 s",
                TimeValue(Seconds(0)),
                MakeTimeAccessor(&DcnTransport::m_nackRepeat),
                MakeTimeChecker(Seconds(0), Seconds(1)))
            .AddAttribute("PaceFromLastSend",
                          "Pacing of rate-based congestion control (DCQCN, HPCC, LAPS): false = "
                          "the gap to the next data packet is fixed at the rate of the last "
                          "send (a rate change acts from the packet after); true = the next "
                          "packet leaves one gap at the current rate after the last one, so a "
                          "rate change also moves an already waiting send (the HPCC / ConWeave "
                          "/ LAPS authors' simulator, RdmaHw::ChangeRate; our choice: false, "
                          "the tables of doc/ were taken with it; doc/transport.rst)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&DcnTransport::m_paceFromLastSend),
                          MakeBooleanChecker())
            .AddAttribute("AckRatio",
                          "Data packets per ACK, 1..255 (REPS spec 1.6: 1, no coalescing)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&DcnTransport::m_ackRatio),
                          MakeUintegerChecker<uint32_t>(1, 255))
            .AddAttribute("AckDelay",
                          "Delayed-ACK timer of coalesced ACKs (AckRatio > 1): a pending ACK "
                          "leaves at most this long after the data packet that started it; 0 = "
                          "off (REPS spec 1.6 acks every packet; spec resolution: off)",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&DcnTransport::m_ackDelay),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("AckEvMode",
                          "EVs echoed by coalesced ACKs (REPS spec 1.6): Standard (EV and CE of "
                          "the triggering packet) or Carry (every unmarked EV since the previous "
                          "ACK). Reuse is a path-selector option.",
                          EnumValue(DcnTransport::ACK_EV_STANDARD),
                          DCNLB_ENUM_ACCESSOR(DcnTransport::AckEvMode, &DcnTransport::m_ackEvMode),
                          MakeEnumChecker(DcnTransport::ACK_EV_STANDARD,
                                          "Standard",
                                          DcnTransport::ACK_EV_CARRY,
                                          "Carry"))
            .AddAttribute("NicRate",
                          "Rate of the host NIC scheduler that serves ready connections "
                          "round-robin and also counts the ACKs/NACKs this host sends, which go "
                          "first (high-priority class), so data never backs up in the host queue "
                          "(0 = the DataRate of the host's device, else the lineRate of the first "
                          "connection; spec resolution, issue 10)",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&DcnTransport::m_nicRate),
                          MakeDataRateChecker())
            .AddAttribute("DataFrameSize",
                          "Pad DATA headers so that a packet with a full Mtu payload is this many "
                          "bytes on the wire (PPP 2 + IPv4 20 + UDP 8 + DcnHeader + payload); 0 = "
                          "no padding. Natural size with Mtu 4096: 4150 (REPS artifact [A]: 4150 B "
                          "per data packet, spec 2.4). Values below the natural size leave the "
                          "header unpadded; at most 256 bytes of padding.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&DcnTransport::m_dataFrameSize),
                          MakeUintegerChecker<uint32_t>(0, 70000))
            .AddAttribute("ControlFrameSize",
                          "Pad ACK/NACK/probe headers to this many bytes on the wire (PPP + IPv4 + "
                          "UDP + DcnHeader); 0 = no padding (an ACK is then 59 bytes). REPS "
                          "artifact [A]: 64-byte ACKs and NACKs.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&DcnTransport::m_ctrlFrameSize),
                          MakeUintegerChecker<uint32_t>(0, 1000))
            .AddAttribute("WireOverhead",
                          "Link-layer bytes per packet beyond the IP packet, used by the NIC "
                          "scheduler (point-to-point PPP header: 2)",
                          UintegerValue(2),
                          MakeUintegerAccessor(&DcnTransport::m_wireOverhead),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Trimming",
                          "Whether the fabric trims packets (told to path selectors; REPS paper "
                          "[L] App. A: off in the main results)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&DcnTransport::m_trimming),
                          MakeBooleanChecker())
            .AddAttribute("IntRequest",
                          "Ask switches for INT on every data packet (DcnHeader EXT_INT with "
                          "IntMaxHops reserved records; issue 12). A congestion control that "
                          "needs INT (HPCC) asks for it on its own; our choice: off",
                          BooleanValue(false),
                          MakeBooleanAccessor(&DcnTransport::m_intRequest),
                          MakeBooleanChecker())
            .AddAttribute("IntMaxHops",
                          "INT records reserved in a data packet that asks for INT, 1..8 "
                          "(28 bytes each + 2): switches beyond them do not stamp (HPCC "
                          "authors' code reserves 5 hops; our choice: 5, enough for a 3-tier "
                          "fat-tree)",
                          UintegerValue(5),
                          MakeUintegerAccessor(&DcnTransport::m_intMaxHops),
                          MakeUintegerChecker<uint32_t>(1, DcnHeader::MAX_INT))
            .AddTraceSource("Tx",
                            "A data packet was sent (packet with UDP and DcnHeader)",
                            MakeTraceSourceAccessor(&DcnTransport::m_txTrace),
                            "ns3::DcnTransport::PacketTracedCallback")
            .AddTraceSource(
                "Rx",
                "A data packet was received (payload, header, source address, duplicate?)",
                MakeTraceSourceAccessor(&DcnTransport::m_rxTrace),
                "ns3::DcnTransport::RxTracedCallback")
            .AddTraceSource("Ack",
                            "The sender received an ACK",
                            MakeTraceSourceAccessor(&DcnTransport::m_ackTrace),
                            "ns3::DcnTransport::PacketTracedCallback")
            .AddTraceSource("Nack",
                            "The sender received a NACK (trimmed packet)",
                            MakeTraceSourceAccessor(&DcnTransport::m_nackTrace),
                            "ns3::DcnTransport::PacketTracedCallback")
            .AddTraceSource(
                "Timeout",
                "Retransmission timeout of a packet (connId, psn, ev); with RtoStart=LastAck an "
                "expiry with nothing unacknowledged reports the next psn and the "
                "EV of the latest packet sent",
                MakeTraceSourceAccessor(&DcnTransport::m_timeoutTrace),
                "ns3::DcnTransport::TimeoutTracedCallback")
            .AddTraceSource("MessageComplete",
                            "Every byte of a message was acknowledged",
                            MakeTraceSourceAccessor(&DcnTransport::m_msgCompleteTrace),
                            "ns3::DcnTransport::MessageTracedCallback")
            .AddTraceSource("PathChosen",
                            "EV chosen for a data packet (connId, psn, ev)",
                            MakeTraceSourceAccessor(&DcnTransport::m_pathChosenTrace),
                            "ns3::DcnTransport::PathChosenTracedCallback")
            .AddTraceSource("CnpSent",
                            "The notification point sent a CNP (data sender, connId)",
                            MakeTraceSourceAccessor(&DcnTransport::m_cnpTrace),
                            "ns3::DcnTransport::CnpTracedCallback");
    return tid;
}

DcnTransport::DcnTransport()
{
    NS_LOG_FUNCTION(this);
}

DcnTransport::~DcnTransport() = default;

Ptr<DcnLbSharedState>
DcnTransport::GetSharedState()
{
    if (!m_shared)
    {
        m_shared = CreateObject<DcnLbSharedState>();
    }
    return m_shared;
}

void
DcnTransport::SetSharedState(Ptr<DcnLbSharedState> s)
{
    NS_LOG_FUNCTION(this << s);
    m_shared = s;
}

std::string
DcnTransport::Validate() const
{
    std::ostringstream os;
    if (m_ackRatio < 1 || m_ackRatio > 255)
    {
        os << "DcnTransport::AckRatio=" << m_ackRatio << " is invalid; allowed 1..255";
    }
    else if (m_rto.IsStrictlyNegative() || m_rto.IsZero())
    {
        os << "DcnTransport::Rto=" << m_rto.As(Time::US) << " is invalid; allowed > 0";
    }
    return os.str();
}

void
DcnTransport::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_nicEvent.Cancel();
    for (auto& rc : m_rx)
    {
        rc.ackTimer.Cancel();
    }
    m_shared = nullptr;
    for (auto& c : m_conns)
    {
        c->Dispose();
    }
    m_conns.clear();
    m_ready.clear();
    if (m_socket)
    {
        m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        m_socket->Close();
        m_socket = nullptr;
    }
    m_ipv4 = nullptr;
    m_node = nullptr;
    m_tc = nullptr; // aggregated to the same node: a cycle otherwise (fast NIC)
    m_port = nullptr;
    DcnMessageTransport::DoDispose();
}

void
DcnTransport::Install(Ptr<Node> node)
{
    NS_LOG_FUNCTION(this << node->GetId());
    NS_ABORT_MSG_IF(m_node, "DcnTransport::Install called twice");
    const std::string err = Validate();
    DCN_REFUSE_IF(!err.empty(), err);
    m_node = node;
    m_ipv4 = node->GetObject<Ipv4L3Protocol>();
    NS_ABORT_MSG_IF(!m_ipv4,
                    "DcnTransport::Install: node " << node->GetId()
                                                   << " has no IPv4 stack (install "
                                                      "InternetStackHelper first)");
    NS_ABORT_MSG_IF(m_ipv4->GetNInterfaces() < 2,
                    "DcnTransport::Install: node " << node->GetId()
                                                   << " has no IPv4 address besides loopback");
    m_local = m_ipv4->GetAddress(1, 0).GetLocal();
    if (m_nicRate.GetBitRate() == 0)
    {
        // the rate of the host's own link: ACKs are charged to the NIC before any Connect
        DataRateValue rate;
        Ptr<NetDevice> dev = m_ipv4->GetNetDevice(1);
        if (dev && dev->GetAttributeFailSafe("DataRate", rate))
        {
            m_nicRate = rate.Get();
        }
    }
    m_socket = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
    m_socket->SetAttribute("RcvBufSize", UintegerValue(1u << 30));
    NS_ABORT_MSG_IF(m_socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), DcnHeader::UDP_PORT)) !=
                        0,
                    "DcnTransport: cannot bind UDP port " << DcnHeader::UDP_PORT << " on node "
                                                          << node->GetId());
    m_socket->SetIpRecvTos(true);
    m_socket->SetRecvCallback(MakeCallback(&DcnTransport::HandleRead, this));
    Ptr<DcnPortDevice> port = DynamicCast<DcnPortDevice>(m_ipv4->GetNetDevice(1));
    if (port && m_stackBypass && m_ipv4->GetNInterfaces() == 2)
    {
        // FabricMode=fast host NIC: bypass Ipv4L3Protocol and the UDP socket
        m_port = PeekPointer(port);
        m_tc = node->GetObject<TrafficControlLayer>();
        UintegerValue ttl;
        m_ipv4->GetAttribute("DefaultTtl", ttl);
        m_ttl = static_cast<uint8_t>(ttl.Get());
        port->SetReceiveCallback(MakeCallback(&DcnTransport::FastReceive, this));
    }
    // ns-3's UDP stack verifies every UDP checksum; this transport sends none (RFC 768's
    // all-zero field: switches trim its packets and stamp INT into them), which only its
    // own NIC path (FastReceive) accepts
    DCN_REFUSE_IF(Node::ChecksumEnabled() && !m_port,
                  "option --ChecksumEnabled: value 'true' needs DcnTransport's own NIC path "
                  "(--fabric=fast or auto, StackBypass=true): its packets carry no UDP checksum, "
                  "which ns-3's UDP stack refuses; allowed: false, or the fast fabric");
}

namespace
{
/** address -> node id, shared by the transports of one simulation; cleared by
 *  Simulator::Destroy (a later simulation builds new nodes with the same ids). */
std::unordered_map<uint32_t, uint32_t> g_addrCache;
uint32_t g_addrCachedNodes = 0;
bool g_addrCacheCleanupScheduled = false;

void
ClearAddressCache()
{
    g_addrCache.clear();
    g_addrCachedNodes = 0;
    g_addrCacheCleanupScheduled = false;
}
} // namespace

static uint32_t
FindNodeOfAddress(Ipv4Address a)
{
    auto& cache = g_addrCache;
    if (!g_addrCacheCleanupScheduled)
    {
        Simulator::ScheduleDestroy(&ClearAddressCache);
        g_addrCacheCleanupScheduled = true;
    }
    if (g_addrCachedNodes != NodeList::GetNNodes())
    {
        NS_LOG_LOGIC("rebuilding the address -> node cache over " << NodeList::GetNNodes()
                                                                  << " nodes");
        cache.clear();
        for (uint32_t n = 0; n < NodeList::GetNNodes(); ++n)
        {
            Ptr<Ipv4> ip = NodeList::GetNode(n)->GetObject<Ipv4>();
            if (!ip)
            {
                continue;
            }
            for (uint32_t i = 1; i < ip->GetNInterfaces(); ++i)
            {
                for (uint32_t k = 0; k < ip->GetNAddresses(i); ++k)
                {
                    cache.emplace(ip->GetAddress(i, k).GetLocal().Get(), n);
                }
            }
        }
        g_addrCachedNodes = NodeList::GetNNodes();
    }
    auto it = cache.find(a.Get());
    return it == cache.end() ? UINT32_MAX : it->second;
}

Ptr<DcnConnection>
DcnTransport::Connect(Ipv4Address dst,
                      Ptr<PathSelector> ps,
                      Ptr<CongestionControl> cc,
                      const DcnConnectionParams& p)
{
    NS_LOG_FUNCTION(this << dst);
    NS_ABORT_MSG_IF(!m_node, "DcnTransport::Connect before Install (use DcnTransportHelper)");
    NS_ABORT_MSG_IF(!ps, "DcnTransport::Connect: null path selector");
    NS_ABORT_MSG_IF(!cc, "DcnTransport::Connect: null congestion control");
    NS_ABORT_MSG_IF(p.lineRate.GetBitRate() == 0,
                    "DcnTransport::Connect: lineRate = 0 is invalid; allowed > 0");
    NS_ABORT_MSG_IF(p.baseRtt.IsStrictlyNegative(),
                    "DcnTransport::Connect: baseRtt = " << p.baseRtt
                                                        << " is invalid; allowed >= 0");
    if (m_nicRate.GetBitRate() == 0)
    {
        m_nicRate = p.lineRate;
    }
    Ptr<DcnConnection> c = CreateObject<DcnConnection>();
    uint32_t connId = static_cast<uint32_t>(m_conns.size());
    m_conns.push_back(c);
    uint32_t dstNode = p.dstNode != UINT32_MAX ? p.dstNode : FindNodeOfAddress(dst);
    c->Init(this, connId, m_local, dst, dstNode, ps, cc, p);
    NS_LOG_INFO("node " << m_node->GetId() << " conn " << connId << " to " << dst << " ("
                        << ps->Name() << ", " << cc->Name() << ", base RTT "
                        << p.baseRtt.As(Time::US) << ")");
    return c;
}

Ptr<DcnConnection>
DcnTransport::GetConnection(uint32_t connId) const
{
    return connId < m_conns.size() ? m_conns[connId] : nullptr;
}

Time
DcnTransport::TxTime(uint32_t wireBytes) const
{
    return m_txTime.Get(m_nicRate, wireBytes + 20 + m_wireOverhead);
}

void
DcnTransport::NotifyReady(DcnConnection* c)
{
    if (c->m_inReadyList)
    {
        return;
    }
    c->m_inReadyList = true;
    m_ready.push_back(c);
    if (m_nicEvent.IsExpired())
    {
        Time now = Simulator::Now();
        m_nicEvent = Simulator::Schedule(m_nicFreeAt > now ? m_nicFreeAt - now : Time(0),
                                         &DcnTransport::NicTransmit,
                                         this);
    }
}

void
DcnTransport::SetNicPaused(bool paused)
{
    NS_LOG_FUNCTION(this << paused);
    m_nicPaused = paused;
    if (!paused && !m_ready.empty() && m_nicEvent.IsExpired())
    {
        const Time now = Simulator::Now();
        m_nicEvent = Simulator::Schedule(m_nicFreeAt > now ? m_nicFreeAt - now : Time(0),
                                         &DcnTransport::NicTransmit,
                                         this);
    }
}

void
DcnTransport::NicTransmit()
{
    if (m_nicPaused)
    {
        return; // PFC: SetNicPaused(false) restarts the scheduler
    }
    const Time now = Simulator::Now();
    if (m_nicFreeAt > now)
    {
        // ACKs/NACKs sent since this event was scheduled occupy the link until m_nicFreeAt
        m_nicEvent = Simulator::Schedule(m_nicFreeAt - now, &DcnTransport::NicTransmit, this);
        return;
    }
    while (!m_ready.empty())
    {
        DcnConnection* c = m_ready.front();
        m_ready.pop_front();
        c->m_inReadyList = false;
        uint32_t wire = c->SendOne();
        if (wire == 0)
        {
            continue;
        }
        if (c->CanSend())
        {
            c->m_inReadyList = true;
            m_ready.push_back(c);
        }
        // after any control packet SendOne itself sent (a LAPS probe, charged to
        // m_nicFreeAt by SendPacket; before 2026-11-28 this overwrote that charge)
        m_nicFreeAt = std::max(m_nicFreeAt, now) + TxTime(wire);
        if (!m_ready.empty())
        {
            m_nicEvent = Simulator::Schedule(m_nicFreeAt - now, &DcnTransport::NicTransmit, this);
        }
        return;
    }
}

uint16_t
DcnTransport::PadTarget(bool data) const
{
    if (data)
    {
        const uint32_t below = DcnHeader::WIRE_BELOW + m_mtu;
        return m_dataFrameSize > below
                   ? static_cast<uint16_t>(std::min<uint32_t>(m_dataFrameSize - below, UINT16_MAX))
                   : 0;
    }
    return m_ctrlFrameSize > DcnHeader::WIRE_BELOW
               ? static_cast<uint16_t>(m_ctrlFrameSize - DcnHeader::WIRE_BELOW)
               : 0;
}

void
DcnTransport::SendPacket(Ptr<Packet> p, DcnHeader& h, uint16_t ev, Ipv4Address dst, bool ect)
{
    h.padTo = PadTarget(h.opcode == DcnHeader::DATA);
    p->AddHeader(h);
    UdpHeader udp;
    udp.SetSourcePort(ev);
    udp.SetDestinationPort(DcnHeader::UDP_PORT);
    p->AddHeader(udp);
    if (ect)
    {
        m_stats.dataPacketsSent++;
        m_txTrace(p, h);
    }
    else if (m_nicRate.GetBitRate() > 0)
    {
        // Control packets leave at once in the high-priority class; the data
        // scheduler waits until they have been serialised (issue 10: without
        // this, data paced at line rate plus ACKs built an unbounded backlog).
        const Time now = Simulator::Now();
        m_nicFreeAt = std::max(m_nicFreeAt, now) + TxTime(p->GetSize());
        m_stats.controlBytesCharged += p->GetSize() + 20 + m_wireOverhead;
    }
    const uint32_t dstHost = DcnAddressing::HostIndexOf(dst);
    if (m_port && dstHost != DcnAddressing::NONE && m_ipv4->IsUp(1))
    {
        // What Ipv4L3Protocol::Send builds (BuildHeader: TTL, TOS from the tag,
        // may-fragment, identification counted per destination) and hands to
        // the interface, straight into the NIC's queue disc.
        Ipv4Header ip;
        ip.SetSource(m_local);
        ip.SetDestination(dst);
        ip.SetProtocol(UdpL4Protocol::PROT_NUMBER);
        ip.SetPayloadSize(p->GetSize());
        ip.SetTtl(m_ttl);
        ip.SetTos(ect ? 0x02 : 0); // ECT(0) for data (no tag: no allocation per packet)
        ip.SetMayFragment();
        if (dstHost >= m_ipId.size())
        {
            m_ipId.resize(dstHost + 1, 0);
        }
        ip.SetIdentification(m_ipId[dstHost]++);
        if (m_csum.Get())
        {
            ip.EnableChecksum();
        }
        m_port->EnqueueItem(
            Create<dcnfast::Ipv4Item>(p, dcnfast::Broadcast(), Ipv4L3Protocol::PROT_NUMBER, ip));
        return;
    }
    if (ect)
    {
        SocketIpTosTag tos; // Ipv4L3Protocol::Send takes the TOS from the tag
        tos.SetTos(0x02);   // ECT(0)
        p->AddPacketTag(tos);
    }
    m_ipv4->Send(p, m_local, dst, UdpL4Protocol::PROT_NUMBER, nullptr);
}

} // namespace ns3
