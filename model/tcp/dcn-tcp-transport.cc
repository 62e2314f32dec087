#include "dcn-tcp-transport.h"

#include "ns3/boolean.h"
#include "ns3/dcn-options.h"
#include "ns3/dcn-tcp-shim-header.h"
#include "ns3/ev-util.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/tcp-socket-base.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnTcpTransport");
NS_OBJECT_ENSURE_REGISTERED(DcnTcpTransport);

TypeId
DcnTcpTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcnTcpTransport")
            .SetParent<DcnMessageTransport>()
            .SetGroupName("DcnLb")
            .AddConstructor<DcnTcpTransport>()
            .AddAttribute("CongestionOps",
                          "TCP congestion control TypeId of every socket (Hermes spec 4: DCTCP, "
                          "ns3::TcpDctcp; ns3::TcpNewReno for the TCP runs)",
                          StringValue("ns3::TcpDctcp"),
                          MakeStringAccessor(&DcnTcpTransport::m_congestionOps),
                          MakeStringChecker())
            .AddAttribute("Port",
                          "TCP port every host listens on; allowed 1..65535",
                          UintegerValue(5001),
                          MakeUintegerAccessor(&DcnTcpTransport::m_port),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("SegmentSize",
                          "TCP MSS, bytes (Hermes spec 4: paper silent, [ART] 1400 B); "
                          "allowed 64..8960",
                          UintegerValue(1400),
                          MakeUintegerAccessor(&DcnTcpTransport::m_segmentSize),
                          MakeUintegerChecker<uint32_t>(64, 8960))
            .AddAttribute("MinRto",
                          "Minimum RTO (Hermes spec 4: 10 ms); allowed > 0",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&DcnTcpTransport::m_minRto),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("ConnTimeout",
                          "SYN retransmission timeout (Hermes spec 4: 10 ms; ns-3's 3 s "
                          "stalls blackholed SYNs); allowed > 0",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&DcnTcpTransport::m_connTimeout),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("InitialCwnd",
                          "Initial window, segments (Hermes spec 4: 10); allowed 1..1000",
                          UintegerValue(10),
                          MakeUintegerAccessor(&DcnTcpTransport::m_initialCwnd),
                          MakeUintegerChecker<uint32_t>(1, 1000))
            .AddAttribute("DataRetries",
                          "Data retransmissions before TCP aborts (Hermes spec 4: raised so "
                          "flows are not silently aborted; unfinished flows are a metric)",
                          UintegerValue(1000),
                          MakeUintegerAccessor(&DcnTcpTransport::m_dataRetries),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("SynRetries",
                          "SYN retransmissions before a connect fails (ConnCount; our choice: "
                          "as DataRetries)",
                          UintegerValue(1000),
                          MakeUintegerAccessor(&DcnTcpTransport::m_synRetries),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("DelAckCount",
                          "Segments per ACK (Hermes spec 2.1 [NP]: delayed ACKs off, 1)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&DcnTcpTransport::m_delAckCount),
                          MakeUintegerChecker<uint32_t>(1, 64))
            .AddAttribute("UseEcn",
                          "ECN on every socket (TcpSocketBase::SetUseEcn On; DCTCP sets it "
                          "anyway; needed for NewReno with ECN on the fabric)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DcnTcpTransport::m_useEcn),
                          MakeBooleanChecker())
            .AddAttribute("CloseWhenIdle",
                          "Close a connection's socket when its messages are done; a later "
                          "message opens a new socket (one socket per flow)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DcnTcpTransport::m_closeWhenIdle),
                          MakeBooleanChecker())
            .AddAttribute("BufferSize",
                          "Socket send and receive buffers, bytes",
                          UintegerValue(4u << 20),
                          MakeUintegerAccessor(&DcnTcpTransport::m_bufSize),
                          MakeUintegerChecker<uint32_t>(4096))
            .AddAttribute("PathShim",
                          "Send TCP through the DcnTcpShim path shim (UDP encapsulation, the "
                          "connection's path selector picks each segment's EV, probes); false: "
                          "plain ns-3 TCP straight to IPv4, for switches that route plain "
                          "IPv4/TCP (Routing=global, or ours hashing the TCP 5-tuple) and "
                          "--lb=ecmp only (measures the shim's cost, bench/tcp-shim.sh)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DcnTcpTransport::m_pathShim),
                          MakeBooleanChecker());
    return tid;
}

DcnTcpTransport::DcnTcpTransport()
{
    NS_LOG_FUNCTION(this);
}

DcnTcpTransport::~DcnTcpTransport() = default;

void
DcnTcpTransport::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& c : m_conns)
    {
        if (c->sock)
        {
            c->sock->SetConnectCallback(MakeNullCallback<void, Ptr<Socket>>(),
                                        MakeNullCallback<void, Ptr<Socket>>());
            c->sock->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
            c->sock->TraceDisconnectWithoutContext("HighestRxAck",
                                                   MakeCallback(&Conn::OnHighestRxAck, c.get()));
        }
        c->sock = nullptr;
        c->ps = nullptr;
    }
    m_conns.clear();
    m_accepted.clear();
    m_listen = nullptr;
    m_shim = nullptr;
    m_shared = nullptr;
    m_node = nullptr;
    DcnMessageTransport::DoDispose();
}

Ptr<DcnLbSharedState>
DcnTcpTransport::GetSharedState()
{
    if (!m_shared)
    {
        m_shared = CreateObject<DcnLbSharedState>();
    }
    return m_shared;
}

void
DcnTcpTransport::SetSharedState(Ptr<DcnLbSharedState> s)
{
    m_shared = s;
}

void
DcnTcpTransport::ApplySocketAttributes(Ptr<Socket> s) const
{
    s->SetAttribute("SegmentSize", UintegerValue(m_segmentSize));
    s->SetAttribute("InitialCwnd", UintegerValue(m_initialCwnd));
    s->SetAttribute("ConnTimeout", TimeValue(m_connTimeout));
    s->SetAttribute("ConnCount", UintegerValue(m_synRetries));
    s->SetAttribute("DataRetries", UintegerValue(m_dataRetries));
    s->SetAttribute("DelAckCount", UintegerValue(m_delAckCount));
    s->SetAttribute("SndBufSize", UintegerValue(m_bufSize));
    s->SetAttribute("RcvBufSize", UintegerValue(m_bufSize));
    s->SetAttribute("MinRto", TimeValue(m_minRto));
    Ptr<TcpSocketBase> b = DynamicCast<TcpSocketBase>(s);
    if (b && m_useEcn)
    {
        b->SetUseEcn(TcpSocketState::On);
    }
}

void
DcnTcpTransport::Install(Ptr<Node> node)
{
    NS_LOG_FUNCTION(this << node->GetId());
    NS_ABORT_MSG_IF(m_node, "DcnTcpTransport::Install called twice");
    m_node = node;
    TypeId tid;
    NS_ABORT_MSG_IF(!TypeId::LookupByNameFailSafe(m_congestionOps, &tid),
                    "DcnTcpTransport::CongestionOps: unknown TypeId '" << m_congestionOps << "'");
    m_ccTid = tid;
    m_shim = m_pathShim ? node->GetObject<DcnTcpShim>() : nullptr;
    NS_ABORT_MSG_IF(!m_pathShim && node->GetObject<DcnTcpShim>(),
                    "DcnTcpTransport: PathShim=false on node " << node->GetId()
                                                               << ", which has a shim");
    if (m_pathShim && !m_shim)
    {
        m_shim = CreateObject<DcnTcpShim>();
        node->AggregateObject(m_shim);
        m_shim->Install(node);
    }
    Ptr<TcpL4Protocol> tcp = node->GetObject<TcpL4Protocol>();
    m_listen = tcp->CreateSocket(m_ccTid);
    ApplySocketAttributes(m_listen);
    NS_ABORT_MSG_IF(m_listen->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port)) != 0,
                    "DcnTcpTransport: cannot bind TCP port " << m_port << " on node "
                                                             << node->GetId());
    m_listen->Listen();
    m_listen->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                MakeCallback(&DcnTcpTransport::OnAccept, this));
}

void
DcnTcpTransport::OnAccept(Ptr<Socket> s, const Address& from)
{
    NS_LOG_FUNCTION(this << s);
    s->SetRecvCallback(MakeCallback(&DcnTcpTransport::OnRecv, this));
    s->SetCloseCallbacks(MakeCallback(&DcnTcpTransport::OnPeerClose, this),
                         MakeCallback(&DcnTcpTransport::OnPeerClose, this));
    m_accepted.push_back(s);
}

void
DcnTcpTransport::OnRecv(Ptr<Socket> s)
{
    while (Ptr<Packet> p = s->Recv())
    {
        if (p->GetSize() == 0)
        {
            break;
        }
        m_rxBytes += p->GetSize();
    }
}

void
DcnTcpTransport::OnPeerClose(Ptr<Socket> s)
{
    NS_LOG_FUNCTION(this << s);
    s->Close(); // the peer sent FIN: answer with ours
}

uint32_t
DcnTcpTransport::OpenConnection(Ipv4Address dst,
                                Ptr<PathSelector> ps,
                                Ptr<CongestionControl> cc,
                                const DcnConnectionParams& params)
{
    NS_LOG_FUNCTION(this << dst);
    NS_ABORT_MSG_IF(!m_node, "DcnTcpTransport::OpenConnection before Install");
    NS_ABORT_MSG_IF(!ps, "DcnTcpTransport::OpenConnection: null path selector");
    const std::string err = CheckPathShim(m_pathShim, ps->Name());
    if (!err.empty())
    {
        throw DcnOptionError(err);
    }
    auto c = std::make_unique<Conn>();
    c->t = this;
    c->id = static_cast<uint32_t>(m_conns.size());
    c->dst = dst;
    c->ps = ps;
    const Ipv4Address src = m_node->GetObject<Ipv4>()->GetAddress(1, 0).GetLocal();
    PathSelectorSetup pss;
    pss.mtu = m_segmentSize;
    uint64_t bdp = params.bdpBytes;
    if (bdp == 0)
    {
        bdp =
            static_cast<uint64_t>(params.lineRate.GetBitRate() / 8.0 * params.baseRtt.GetSeconds());
    }
    pss.bdpPackets =
        static_cast<uint32_t>(std::max<uint64_t>(1, (bdp + m_segmentSize - 1) / m_segmentSize));
    pss.baseRtt = params.baseRtt;
    pss.rto = m_minRto;
    pss.flowHash = dcnev::Mix32(src.Get() ^ dcnev::Mix32(dst.Get() ^ dcnev::Mix32(c->id + 1)));
    pss.udpDstPort = DcnTcpShimHeader::UDP_PORT;
    pss.srcHost = params.srcHost;
    pss.dstHost = params.dstHost;
    pss.srcSwitch = params.srcSwitch;
    pss.dstSwitch = params.dstSwitch;
    pss.paths = params.paths;
    pss.topology = params.topology;
    pss.shared = GetSharedState();
    pss.sendProbe = MakeCallback(&Conn::SendProbe, c.get());
    pss.declareLost = MakeCallback(&Conn::DeclareLost, c.get());
    ps->Setup(pss);
    m_conns.push_back(std::move(c));
    return m_conns.back()->id;
}

std::string
DcnTcpTransport::CheckPathShim(bool pathShim, const std::string& lb)
{
    if (pathShim || lb == "ecmp")
    {
        return "";
    }
    return "option --ns3::DcnTcpTransport::PathShim: value 'false' (plain TCP, no path shim) "
           "runs only load balancer ecmp (the switches hash the TCP 5-tuple), not '" +
           lb + "'; allowed: true, or --lb=ecmp";
}

bool
DcnTcpTransport::DefaultPathShim()
{
    TypeId::AttributeInformation info;
    NS_ABORT_MSG_IF(!GetTypeId().LookupAttributeByName("PathShim", &info),
                    "DcnTcpTransport: no PathShim attribute");
    Ptr<const BooleanValue> v = DynamicCast<const BooleanValue>(info.initialValue);
    return !v || v->Get();
}

void
DcnTcpTransport::Conn::SendProbe(const PathChoice& pc)
{
    if (!t->m_shim)
    {
        return; // no shim, no probes (only ECMP runs without one; it sends none)
    }
    t->m_shim->SendProbe(dst,
                         pc.ev,
                         pc.HasPathId() ? static_cast<uint16_t>(pc.pathId)
                                        : DcnTcpShimHeader::NO_PATH);
}

void
DcnTcpTransport::Conn::DeclareLost(uint32_t psn)
{
    // TCP owns its loss recovery; a selector's loss declaration has no effect here
}

void
DcnTcpTransport::OpenSocket(Conn& c)
{
    NS_LOG_FUNCTION(this << c.id);
    Ptr<TcpL4Protocol> tcp = m_node->GetObject<TcpL4Protocol>();
    c.sock = tcp->CreateSocket(m_ccTid);
    ApplySocketAttributes(c.sock);
    c.sock->Bind();
    Address local;
    c.sock->GetSockName(local);
    c.lport = InetSocketAddress::ConvertFrom(local).GetPort();
    c.base = c.written;
    c.open = true;
    c.connected = false;
    c.retxSeen = 0; // the shim counts per socket
    c.rxAckSeq = 0; // a new socket's sequence numbers start again
    c.rtoSeen = 0;
    if (m_shim)
    {
        m_shim->RegisterFlow(c.lport, c.dst, m_port, c.ps);
    }
    c.sock->SetConnectCallback(MakeCallback(&Conn::OnConnected, &c),
                               MakeCallback(&Conn::OnConnectFailed, &c));
    c.sock->SetSendCallback(MakeCallback(&Conn::OnSendSpace, &c));
    c.sock->SetCloseCallbacks(MakeCallback(&Conn::OnClosed, &c), MakeCallback(&Conn::OnClosed, &c));
    bool ok =
        c.sock->TraceConnectWithoutContext("HighestRxAck", MakeCallback(&Conn::OnHighestRxAck, &c));
    NS_ABORT_MSG_IF(!ok, "DcnTcpTransport: the TCP socket has no HighestRxAck trace");
    c.sock->Connect(InetSocketAddress(c.dst, m_port));
}

void
DcnTcpTransport::Conn::OnConnected(Ptr<Socket> s)
{
    connected = true;
    t->Push(*this);
}

void
DcnTcpTransport::Conn::OnConnectFailed(Ptr<Socket> s)
{
    NS_LOG_INFO("connection " << id << " to " << dst << " failed (SYN retries exhausted)");
    t->m_failedConnects++;
    open = false;
}

void
DcnTcpTransport::Conn::OnClosed(Ptr<Socket> s)
{
    // peer closed or error: nothing to do (our own close is explicit)
}

void
DcnTcpTransport::Conn::OnSendSpace(Ptr<Socket> s, uint32_t avail)
{
    if (connected && open)
    {
        t->Push(*this);
    }
}

void
DcnTcpTransport::Conn::OnHighestRxAck(SequenceNumber32 oldV, SequenceNumber32 newV)
{
    // ISN 0: the SYN takes sequence 0, stream byte k has sequence k + 1; summed as 32-bit
    // differences, so that a socket carrying 4 GiB or more keeps counting after the wrap
    rxAckSeq += static_cast<uint32_t>(newV.GetValue() - oldV.GetValue());
    uint64_t a = rxAckSeq > 0 ? rxAckSeq - 1 : 0;
    uint64_t abs = std::min<uint64_t>(base + a, written);
    if (abs > acked)
    {
        acked = abs;
        t->Acked(*this);
    }
}

void
DcnTcpTransport::Push(Conn& c)
{
    while (c.written < c.posted)
    {
        uint32_t room = c.sock->GetTxAvailable();
        if (room == 0)
        {
            return;
        }
        uint64_t n = std::min<uint64_t>(room, c.posted - c.written);
        n = std::min<uint64_t>(n, 1u << 20);
        int sent = c.sock->Send(Create<Packet>(static_cast<uint32_t>(n)));
        if (sent <= 0)
        {
            return;
        }
        c.written += static_cast<uint64_t>(sent);
    }
}

void
DcnTcpTransport::CloseSocket(Ptr<Socket> s, Conn* c)
{
    NS_LOG_FUNCTION(this << s);
    s->TraceDisconnectWithoutContext("HighestRxAck", MakeCallback(&Conn::OnHighestRxAck, c));
    s->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
    s->SetConnectCallback(MakeNullCallback<void, Ptr<Socket>>(),
                          MakeNullCallback<void, Ptr<Socket>>());
    s->Close();
}

void
DcnTcpTransport::Acked(Conn& c)
{
    while (!c.msgs.empty() && c.acked >= c.msgs.front().end)
    {
        Msg m = c.msgs.front();
        c.msgs.pop_front();
        DcnMessageRecord r;
        r.srcNode = m_node->GetId();
        r.src = m_node->GetObject<Ipv4>()->GetAddress(1, 0).GetLocal();
        r.dst = c.dst;
        r.connId = c.id;
        r.msgId = m.msgId;
        r.bytes = m.bytes;
        r.start = m.start;
        r.finish = Simulator::Now();
        r.userTag = m.userTag;
        r.bytesAcked = m.bytes;
        FillUnseenCounters(c, r);
        c.retxSeen += r.retransmissions; // this message's counts are given
        c.rtoSeen += r.timeouts;
        NS_LOG_INFO("connection " << c.id << " message " << m.msgId << " of " << m.bytes
                                  << " B done in " << (r.finish - r.start).As(Time::US));
        if (c.msgs.empty() && m_closeWhenIdle && c.open)
        {
            c.open = false;
            c.connected = false;
            // not inside TCP's ACK processing (this runs from its HighestRxAck trace)
            Simulator::ScheduleNow(&DcnTcpTransport::CloseSocket, this, c.sock, &c);
        }
        if (!m.cb.IsNull())
        {
            m.cb(r);
        }
    }
}

uint32_t
DcnTcpTransport::PostMessage(uint32_t connId,
                             uint64_t bytes,
                             CompletionCallback onComplete,
                             uint64_t userTag)
{
    NS_LOG_FUNCTION(this << connId << bytes);
    NS_ABORT_MSG_IF(connId >= m_conns.size(),
                    "DcnTcpTransport::PostMessage: unknown connection " << connId);
    NS_ABORT_MSG_IF(bytes == 0, "DcnTcpTransport::PostMessage: bytes = 0; allowed >= 1");
    Conn& c = *m_conns[connId];
    Msg m;
    m.msgId = c.nextMsgId++;
    m.bytes = bytes;
    c.posted += bytes;
    m.end = c.posted;
    m.start = Simulator::Now();
    m.cb = onComplete;
    m.userTag = userTag;
    c.msgs.push_back(m);
    if (!c.open)
    {
        OpenSocket(c);
    }
    else if (c.connected)
    {
        Push(c);
    }
    return m.msgId;
}

uint32_t
DcnTcpTransport::GetPendingMessages(uint32_t connId) const
{
    return connId < m_conns.size() ? static_cast<uint32_t>(m_conns[connId]->msgs.size()) : 0;
}

void
DcnTcpTransport::FillUnseenCounters(const Conn& c, DcnMessageRecord& r) const
{
    uint32_t retx = 0;
    uint32_t rto = 0;
    if (!m_shim || !m_shim->GetFlowCounters(c.lport, c.dst, m_port, retx, rto))
    {
        return;
    }
    r.retransmissions = retx - std::min(retx, c.retxSeen);
    r.timeouts = rto - std::min(rto, c.rtoSeen);
}

uint32_t
DcnTcpTransport::GetMtu() const
{
    return m_segmentSize;
}

Ptr<Socket>
DcnTcpTransport::GetSocket(uint32_t connId) const
{
    return connId < m_conns.size() ? m_conns[connId]->sock : nullptr;
}

bool
DcnTcpTransport::GetMessageProgress(uint64_t userTag, DcnMessageRecord& out) const
{
    for (const auto& c : m_conns)
    {
        uint64_t prevEnd = 0;
        for (const Msg& m : c->msgs)
        {
            const uint64_t begin = m.end - m.bytes;
            (void)prevEnd;
            if (m.userTag == userTag)
            {
                out.connId = c->id;
                out.msgId = m.msgId;
                out.bytes = m.bytes;
                out.start = m.start;
                out.userTag = userTag;
                out.bytesAcked = c->acked > begin ? std::min(m.bytes, c->acked - begin) : 0;
                if (&m == &c->msgs.front() && c->open)
                {
                    // the message in progress: the socket's counts since the last one finished
                    FillUnseenCounters(*c, out);
                }
                return true;
            }
        }
    }
    return false;
}

} // namespace ns3
