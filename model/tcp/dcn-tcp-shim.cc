#include "dcn-tcp-shim.h"

#include "dcn-tcp-shim-header.h"

#include "ns3/ev-util.h"
#include "ns3/ipv4-interface.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4-route.h"
#include "ns3/ipv6-header.h"
#include "ns3/ipv6-interface.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/udp-header.h"
#include "ns3/udp-l4-protocol.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnTcpShim");
NS_OBJECT_ENSURE_REGISTERED(DcnTcpShim);

/**
 * Protocol 17 in front of UdpL4Protocol: UDP port 4792 goes to the shim, everything else
 * (DcnTransport's port 4791, applications) to the original UDP, unchanged.
 */
class DcnTcpShimDemux : public IpL4Protocol
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::DcnTcpShimDemux").SetParent<IpL4Protocol>().SetGroupName("DcnLb");
        return tid;
    }

    DcnTcpShimDemux(Ptr<IpL4Protocol> udp, DcnTcpShim* shim)
        : m_udp(udp),
          m_shim(shim)
    {
    }

    int GetProtocolNumber() const override
    {
        return UdpL4Protocol::PROT_NUMBER;
    }

    RxStatus Receive(Ptr<Packet> p, const Ipv4Header& h, Ptr<Ipv4Interface> iface) override
    {
        uint8_t b[4];
        if (m_shim && p->GetSize() >= 8 + DcnTcpShimHeader::SIZE && p->CopyData(b, 4) == 4 &&
            ((uint16_t(b[2]) << 8) | b[3]) == DcnTcpShimHeader::UDP_PORT)
        {
            return m_shim->Receive(p, h, iface);
        }
        return m_udp->Receive(p, h, iface);
    }

    RxStatus Receive(Ptr<Packet> p, const Ipv6Header& h, Ptr<Ipv6Interface> iface) override
    {
        return m_udp->Receive(p, h, iface);
    }

    void ReceiveIcmp(Ipv4Address icmpSource,
                     uint8_t icmpTtl,
                     uint8_t icmpType,
                     uint8_t icmpCode,
                     uint32_t icmpInfo,
                     Ipv4Address payloadSource,
                     Ipv4Address payloadDestination,
                     const uint8_t payload[8]) override
    {
        m_udp->ReceiveIcmp(icmpSource,
                           icmpTtl,
                           icmpType,
                           icmpCode,
                           icmpInfo,
                           payloadSource,
                           payloadDestination,
                           payload);
    }

    void SetDownTarget(DownTargetCallback cb) override
    {
        m_udp->SetDownTarget(cb);
    }

    void SetDownTarget6(DownTargetCallback6 cb) override
    {
        m_udp->SetDownTarget6(cb);
    }

    DownTargetCallback GetDownTarget() const override
    {
        return m_udp->GetDownTarget();
    }

    DownTargetCallback6 GetDownTarget6() const override
    {
        return m_udp->GetDownTarget6();
    }

    void Detach()
    {
        m_shim = nullptr;
        m_udp = nullptr;
    }

  private:
    Ptr<IpL4Protocol> m_udp;
    DcnTcpShim* m_shim;
};

TypeId
DcnTcpShim::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcnTcpShim")
            .SetParent<Object>()
            .SetGroupName("DcnLb")
            .AddConstructor<DcnTcpShim>()
            .AddAttribute("ReorderTimeout",
                          "Longest time the receiver reorder buffer (Presto*, FLAG_RESEQ) holds "
                          "segments above a gap before handing them to TCP (Hermes SIGCOMM'17 "
                          "Sec. 5 names no value; 50 us is the out-of-order limit of the Hermes "
                          "authors' ns-3 resequence buffer); allowed 1 ns..1 s",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&DcnTcpShim::m_reseqTimeout),
                          MakeTimeChecker(NanoSeconds(1), Seconds(1)))
            .AddAttribute("ReorderCapacity",
                          "Segments the receiver reorder buffer holds per connection before it "
                          "flushes them all (our choice: 256, about 370 KB of 1448-byte "
                          "segments); allowed 1..65535",
                          UintegerValue(256),
                          MakeUintegerAccessor(&DcnTcpShim::m_reseqCapacity),
                          MakeUintegerChecker<uint32_t>(1, 65535))
            .AddAttribute("AckRepathIdle",
                          "A connection nobody steers (the passive side, per-flow ECMP) moves "
                          "its EV when a segment it already acknowledged arrives after the "
                          "connection received nothing for at least this long (the sender timed "
                          "out: our ACKs are lost).  Our choice: 1 ms, far above any path's "
                          "queueing delay, below the 10 ms minimum RTO; allowed 1 us..1 s",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&DcnTcpShim::m_ackRepathIdle),
                          MakeTimeChecker(MicroSeconds(1), Seconds(1)))
            .AddTraceSource("Timeout",
                            "TCP's retransmission timer fired on a connection (remote address, "
                            "remote port, EV of its last segment)",
                            MakeTraceSourceAccessor(&DcnTcpShim::m_timeoutTrace),
                            "ns3::DcnTcpShim::TimeoutTracedCallback");
    return tid;
}

DcnTcpShim::DcnTcpShim()
{
    NS_LOG_FUNCTION(this);
}

DcnTcpShim::~DcnTcpShim() = default;

void
DcnTcpShim::DoDispose()
{
    NS_LOG_FUNCTION(this);
    if (m_demux)
    {
        static_cast<DcnTcpShimDemux*>(PeekPointer(m_demux))->Detach();
    }
    m_flows.clear();
    m_demux = nullptr;
    m_tcp = nullptr;
    m_ipv4 = nullptr;
    m_node = nullptr;
    m_probeReply = ProbeReplyCallback();
    Object::DoDispose();
}

Ptr<DcnTcpShim>
DcnTcpShim::Get(Ptr<Node> node)
{
    return node->GetObject<DcnTcpShim>();
}

void
DcnTcpShim::Install(Ptr<Node> node)
{
    NS_LOG_FUNCTION(this << node->GetId());
    NS_ABORT_MSG_IF(m_node, "DcnTcpShim::Install called twice");
    m_node = node;
    m_ipv4 = node->GetObject<Ipv4L3Protocol>();
    m_tcp = node->GetObject<TcpL4Protocol>();
    Ptr<IpL4Protocol> udp = node->GetObject<UdpL4Protocol>();
    NS_ABORT_MSG_IF(!m_ipv4 || !m_tcp || !udp,
                    "DcnTcpShim::Install: node "
                        << node->GetId() << " needs IPv4, TCP and UDP (InternetStackHelper)");
    NS_ABORT_MSG_IF(m_ipv4->GetNInterfaces() < 2,
                    "DcnTcpShim::Install: node " << node->GetId() << " has no address");
    m_local = m_ipv4->GetAddress(1, 0).GetLocal();
    m_tcp->SetDownTarget(MakeCallback(&DcnTcpShim::Send, this));
    m_demux = CreateObject<DcnTcpShimDemux>(udp, this);
    // the demux replaces UDP as protocol 17 on receive; UDP keeps sending by itself
    m_ipv4->Remove(udp);
    m_ipv4->Insert(m_demux);
}

void
DcnTcpShim::RegisterFlow(uint16_t localPort,
                         Ipv4Address remote,
                         uint16_t remotePort,
                         Ptr<PathSelector> ps)
{
    NS_LOG_FUNCTION(this << localPort << remote << remotePort);
    // a fresh entry: the 4-tuple may be an ephemeral port reused after an older connection
    m_flows.erase(Key(localPort, remote, remotePort));
    Flow& f = GetFlow(Key(localPort, remote, remotePort), localPort, remote, remotePort);
    f.ps = ps;
    f.reseqTx = ps && ps->ReceiverResequencing();
    f.nicStampTx = ps && ps->PathOnlySensing();
    f.ceNoSampleTx = f.nicStampTx && ps->HostCeNoSample();
}

bool
DcnTcpShim::GetFlowCounters(uint16_t localPort,
                            Ipv4Address remote,
                            uint16_t remotePort,
                            uint32_t& retransmissions,
                            uint32_t& timeouts) const
{
    auto it = m_flows.find(Key(localPort, remote, remotePort));
    if (it == m_flows.end())
    {
        return false;
    }
    retransmissions = it->second.retx;
    timeouts = it->second.timeouts;
    return true;
}

void
DcnTcpShim::UnregisterFlow(uint16_t localPort, Ipv4Address remote, uint16_t remotePort)
{
    NS_LOG_FUNCTION(this << localPort << remote << remotePort);
    m_flows.erase(Key(localPort, remote, remotePort));
}

void
DcnTcpShim::SetProbeReplyCallback(ProbeReplyCallback cb)
{
    m_probeReply = cb;
}

DcnTcpShim::Flow&
DcnTcpShim::GetFlow(uint64_t key, uint16_t localPort, Ipv4Address remote, uint16_t remotePort)
{
    auto it = m_flows.find(key);
    if (it != m_flows.end())
    {
        return it->second;
    }
    Flow& f = m_flows[key];
    // per-flow ECMP for connections nobody registered (the passive side): a fixed EV from the
    // 4-tuple, as seen from either end (so both directions of a connection hash alike)
    uint32_t a = m_local.Get();
    uint32_t b = remote.Get();
    uint32_t h = dcnev::Mix32(std::min(a, b) ^ dcnev::Mix32(std::max(a, b)) ^
                              dcnev::Mix32((uint32_t(std::min(localPort, remotePort)) << 16) |
                                           std::max(localPort, remotePort)));
    f.ecmpEv = static_cast<uint16_t>(h);
    return f;
}

namespace
{
/** a < b in 32-bit sequence space */
inline bool
SeqLess(uint32_t a, uint32_t b)
{
    return static_cast<int32_t>(a - b) < 0;
}

/**
 * The fields of a TCP header the shim needs, read from the segment's first 20 bytes.
 * TcpHeader::PeekHeader would also create one TcpOption object per option (timestamps on
 * every segment) and check the sum: a third of the shim's cost per segment (perf,
 * bench/tcp-shim.sh).  hdrLen is the data offset; ns-3 pads its options to it, so it equals
 * TcpHeader::GetSerializedSize() of every segment ns-3 TCP sends.
 */
struct TcpFields
{
    uint16_t srcPort{0};
    uint16_t dstPort{0};
    uint32_t seq{0};
    uint32_t ack{0};
    uint8_t flags{0};
    uint32_t hdrLen{20};

    /** false if p is shorter than 20 bytes */
    bool Read(Ptr<const Packet> p)
    {
        uint8_t b[20];
        if (p->GetSize() < 20 || p->CopyData(b, 20) < 20)
        {
            return false;
        }
        srcPort = static_cast<uint16_t>((b[0] << 8) | b[1]);
        dstPort = static_cast<uint16_t>((b[2] << 8) | b[3]);
        seq = (uint32_t(b[4]) << 24) | (uint32_t(b[5]) << 16) | (uint32_t(b[6]) << 8) | b[7];
        ack = (uint32_t(b[8]) << 24) | (uint32_t(b[9]) << 16) | (uint32_t(b[10]) << 8) | b[11];
        hdrLen = (b[12] >> 4) * 4u;
        flags = b[13];
        return true;
    }
};
} // namespace

void
DcnTcpShim::Send(Ptr<Packet> p,
                 Ipv4Address src,
                 Ipv4Address dst,
                 uint8_t proto,
                 Ptr<Ipv4Route> route)
{
    NS_LOG_FUNCTION(this << p << dst);
    NS_ASSERT(proto == TcpL4Protocol::PROT_NUMBER);
    TcpFields th;
    NS_ABORT_MSG_IF(!th.Read(p), "DcnTcpShim::Send: a TCP segment below 20 bytes");
    const uint16_t lport = th.srcPort;
    const uint16_t rport = th.dstPort;
    Flow& f = GetFlow(Key(lport, dst, rport), lport, dst, rport);
    const uint8_t flags = th.flags;
    const uint32_t payload = p->GetSize() - th.hdrLen;
    const uint32_t seq = th.seq;
    const uint32_t len = payload + ((flags & (TcpHeader::SYN | TcpHeader::FIN)) ? 1 : 0);
    bool retx = false;
    bool timeout = false;
    if (flags & TcpHeader::ACK)
    {
        const uint32_t ack = th.ack;
        if (!f.ackInit || SeqLess(f.ackMax, ack))
        {
            f.ackInit = true;
            f.ackMax = ack;
        }
    }
    if (len > 0)
    {
        if (!f.seqInit)
        {
            f.seqInit = true;
            f.sndMax = seq + len;
        }
        else if (SeqLess(seq, f.sndMax))
        {
            retx = true;
            ++m_stats.retransmissions;
            ++f.retx;
            // TCP sends in the processing of a received segment (or 1 ns later, its
            // SendPendingData event); a retransmission at any other time is its
            // retransmission timer (RTO or SYN timeout)
            const Time now = Simulator::Now();
            if ((f.lastRx.IsNegative() || now > f.lastRx + NanoSeconds(1)) && now != f.lastTimeout)
            {
                timeout = true;
                f.lastTimeout = now;
                ++m_stats.timeouts;
                ++f.timeouts;
                m_timeoutTrace(dst, rport, f.last.ev);
            }
            if (SeqLess(f.sndMax, seq + len))
            {
                f.sndMax = seq + len;
            }
        }
        else
        {
            f.sndMax = seq + len;
        }
    }
    PathChoice c;
    if (f.ps)
    {
        if (timeout)
        {
            PathFeedback fb;
            fb.signal = FeedbackSignal::TIMEOUT;
            fb.path = f.last;
            fb.psn = seq;
            f.ps->OnFeedback(fb);
        }
        SendContext ctx;
        ctx.psn = seq;
        ctx.retransmission = retx;
        ctx.bytesInFlight = payload; // the segment's payload (the selector counts bytes sent)
        c = f.ps->Choose(ctx);
    }
    else
    {
        c.ev = f.ecmpEv;
    }
    f.last = c;
    if (len > 0)
    {
        // a move of the connection's data (a reroute, a new flowlet, a spray step)
        if (f.dataPathSet && (c.ev != f.lastDataEv || c.pathId != f.lastDataPathId))
        {
            ++m_stats.pathChanges;
        }
        f.dataPathSet = true;
        f.lastDataEv = c.ev;
        f.lastDataPathId = c.pathId;
    }

    DcnTcpShimHeader sh;
    sh.flags = (f.reseqTx ? DcnTcpShimHeader::FLAG_RESEQ : 0) |
               (f.nicStampTx ? DcnTcpShimHeader::FLAG_NIC_STAMP : 0) |
               (f.ceNoSampleTx ? DcnTcpShimHeader::FLAG_CE_NO_SAMPLE : 0);
    sh.pathId = c.HasPathId() ? static_cast<uint16_t>(c.pathId) : DcnTcpShimHeader::NO_PATH;
    sh.txTimeNs = Simulator::Now().GetNanoSeconds();
    if (f.echoPending)
    {
        sh.flags |= DcnTcpShimHeader::FLAG_ECHO;
        sh.echoEv = f.echoEv;
        sh.echoPathId = f.echoPathId;
        sh.echoTxTimeNs = f.echoTx;
        sh.echoMarks = f.echoMarks;
        sh.echoPkts = f.echoPkts;
        f.echoPending = false;
        f.echoMarks = 0;
        f.echoPkts = 0;
    }
    p->AddHeader(sh);
    UdpHeader uh;
    uh.SetSourcePort(dcnev::ToUdpPort(c.ev));
    uh.SetDestinationPort(DcnTcpShimHeader::UDP_PORT);
    p->AddHeader(uh);
    ++m_stats.encapsulated;
    m_ipv4->Send(p, src, dst, UdpL4Protocol::PROT_NUMBER, route);
}

void
DcnTcpShim::SendProbe(Ipv4Address dst, uint16_t ev, uint16_t pathId, bool nicStamp, bool ceNoSample)
{
    NS_LOG_FUNCTION(this << dst << ev << pathId << nicStamp << ceNoSample);
    // 64 B on the wire: PPP 2 + IPv4 20 + UDP 8 + shim 28 + 6 bytes of padding
    Ptr<Packet> p = Create<Packet>(6);
    DcnTcpShimHeader sh;
    sh.flags = DcnTcpShimHeader::FLAG_PROBE | (nicStamp ? DcnTcpShimHeader::FLAG_NIC_STAMP : 0) |
               (nicStamp && ceNoSample ? DcnTcpShimHeader::FLAG_CE_NO_SAMPLE : 0);
    sh.pathId = pathId;
    sh.txTimeNs = Simulator::Now().GetNanoSeconds();
    p->AddHeader(sh);
    UdpHeader uh;
    uh.SetSourcePort(ev);
    uh.SetDestinationPort(DcnTcpShimHeader::UDP_PORT);
    p->AddHeader(uh);
    ++m_stats.probesSent;
    // probes are ECT(0) (Hermes spec 2.4 [NP]): switches mark them like data
    Ptr<Ipv4Route> r = nullptr;
    Ipv4Header h;
    h.SetDestination(dst);
    h.SetProtocol(UdpL4Protocol::PROT_NUMBER);
    Socket::SocketErrno err;
    r = m_ipv4->GetRoutingProtocol()->RouteOutput(p, h, nullptr, err);
    if (!r)
    {
        return;
    }
    SocketIpTosTag tos;
    tos.SetTos(Ipv4Header::ECN_ECT0);
    p->AddPacketTag(tos);
    m_ipv4->Send(p, m_local, dst, UdpL4Protocol::PROT_NUMBER, r);
}

IpL4Protocol::RxStatus
DcnTcpShim::Receive(Ptr<Packet> p, const Ipv4Header& h, Ptr<Ipv4Interface> iface)
{
    NS_LOG_FUNCTION(this << p << h.GetSource());
    UdpHeader uh;
    p->RemoveHeader(uh);
    DcnTcpShimHeader sh;
    p->RemoveHeader(sh);
    // a CE the sender's own NIC set (FLAG_HOST_CE) is no path mark: not echoed as one (TCP
    // below still gets the outer header's CE)
    const bool hostCe = (sh.flags & DcnTcpShimHeader::FLAG_HOST_CE) != 0;
    const bool ce = h.GetEcn() == Ipv4Header::ECN_CE && !hostCe;
    m_stats.hostCeReceived += hostCe ? 1 : 0;
    // the sender asked for no ECN sample from a packet its own NIC marked
    const bool noSample = hostCe && (sh.flags & DcnTcpShimHeader::FLAG_CE_NO_SAMPLE);
    if (sh.flags & DcnTcpShimHeader::FLAG_PROBE)
    {
        // answer in the high band (no payload beyond the header), echo EV, path, time and CE
        Ptr<Packet> r = Create<Packet>(6);
        DcnTcpShimHeader rh;
        rh.flags = DcnTcpShimHeader::FLAG_PROBE_REPLY | DcnTcpShimHeader::FLAG_ECHO;
        rh.echoEv = uh.GetSourcePort();
        rh.echoPathId = sh.pathId;
        rh.echoTxTimeNs = sh.txTimeNs;
        rh.echoMarks = ce ? 1 : 0;
        rh.echoPkts = noSample ? 0 : 1;
        ++m_stats.probesAnswered;
        rh.txTimeNs = Simulator::Now().GetNanoSeconds();
        r->AddHeader(rh);
        UdpHeader ru;
        ru.SetSourcePort(uh.GetSourcePort());
        ru.SetDestinationPort(DcnTcpShimHeader::UDP_PORT);
        r->AddHeader(ru);
        Ipv4Header rq;
        rq.SetDestination(h.GetSource());
        rq.SetProtocol(UdpL4Protocol::PROT_NUMBER);
        Socket::SocketErrno err;
        Ptr<Ipv4Route> route = m_ipv4->GetRoutingProtocol()->RouteOutput(r, rq, nullptr, err);
        if (route)
        {
            m_ipv4->Send(r, m_local, h.GetSource(), UdpL4Protocol::PROT_NUMBER, route);
        }
        return IpL4Protocol::RX_OK;
    }
    if (sh.flags & DcnTcpShimHeader::FLAG_PROBE_REPLY)
    {
        ++m_stats.probeRepliesReceived;
        if (!m_probeReply.IsNull())
        {
            m_stats.rttOnlyEchoes += sh.echoPkts == 0 ? 1 : 0;
            m_probeReply(h.GetSource(),
                         sh.echoEv,
                         sh.echoPathId,
                         Simulator::Now() - NanoSeconds(sh.echoTxTimeNs),
                         sh.echoMarks > 0,
                         sh.echoPkts > 0);
        }
        return IpL4Protocol::RX_OK;
    }
    TcpFields th;
    if (!th.Read(p))
    {
        return IpL4Protocol::RX_OK; // runt: not a TCP segment
    }
    const uint16_t lport = th.dstPort;
    const uint16_t rport = th.srcPort;
    const uint64_t key = Key(lport, h.GetSource(), rport);
    if ((th.flags & (TcpHeader::SYN | TcpHeader::ACK)) == TcpHeader::SYN)
    {
        auto old = m_flows.find(key);
        if (old != m_flows.end() && !old->second.ps && old->second.rcvInit &&
            old->second.rcvMax != th.seq + 1)
        {
            m_flows.erase(old); // a new connection on a reused 4-tuple (not a SYN retransmission)
        }
    }
    Flow& f = GetFlow(key, lport, h.GetSource(), rport);
    const Time prevRx = f.lastRx;
    f.lastRx = Simulator::Now();
    if ((sh.flags & DcnTcpShimHeader::FLAG_ECHO) && f.ps)
    {
        ++m_stats.echoes;
        m_stats.ceEchoes += sh.echoMarks > 0 ? 1 : 0;
        PathFeedback fb;
        fb.path.ev = sh.echoEv;
        fb.path.pathId =
            sh.echoPathId == DcnTcpShimHeader::NO_PATH ? -1 : static_cast<int32_t>(sh.echoPathId);
        fb.rtt = Simulator::Now() - NanoSeconds(sh.echoTxTimeNs);
        fb.psn = th.ack;
        const int64_t rttNs = fb.rtt.GetNanoSeconds();
        m_stats.echoRttSumNs += rttNs;
        m_stats.echoRttMaxNs = std::max(m_stats.echoRttMaxNs, rttNs);
        // echoPkts 0: every echoed segment asked for no ECN sample (FLAG_CE_NO_SAMPLE), so
        // one RTT sample without an ECN sample; the receiver sets it only then
        const uint32_t n = std::max<uint32_t>(1, sh.echoPkts);
        fb.ecnSample = sh.echoPkts > 0;
        m_stats.rttOnlyEchoes += sh.echoPkts == 0 ? 1 : 0;
        for (uint32_t i = 0; i < n; ++i)
        {
            fb.signal = i < sh.echoMarks ? FeedbackSignal::ECN_ACK : FeedbackSignal::ACK;
            fb.echoIndex = i;
            f.ps->OnFeedback(fb);
        }
    }
    const uint32_t payload = p->GetSize() - th.hdrLen;
    const uint32_t seqLen = payload + ((th.flags & (TcpHeader::SYN | TcpHeader::FIN)) ? 1u : 0u);
    if (seqLen > 0)
    {
        const uint32_t seq = th.seq;
        if (!f.rcvInit)
        {
            f.rcvInit = true;
            f.rcvMax = seq + seqLen;
        }
        else if (SeqLess(f.rcvMax, seq + seqLen))
        {
            f.rcvMax = seq + seqLen;
        }
        if (f.ackInit && !SeqLess(f.ackMax, seq + seqLen) && !prevRx.IsNegative() &&
            Simulator::Now() - prevRx >= m_ackRepathIdle)
        {
            // a data segment (or SYN / FIN) this end has already acknowledged came again after
            // the connection was silent for AckRepathIdle: the sender timed out, so our ACKs
            // (or its data) are lost.  A connection nobody steers moves its ECMP EV, so its
            // ACKs leave a failed path (our choice, doc/hermes.rst "ACK paths").  Neither a
            // retransmission that fills a hole (below the highest sequence received, above
            // the cumulative ACK) nor the duplicates of a go-back-N burst move it: moving
            // while this end's ACKs are still in flight lets a new ACK overtake older ones,
            // and a stale ACK with SACK blocks reaching a sender with nothing outstanding
            // crashes ns-3 3.37's debug TcpTxBuffer::Update (doc/hermes.rst "ns-3 debug
            // builds and reordered ACKs")
            if (!f.ps)
            {
                f.ecmpEv = static_cast<uint16_t>(dcnev::Mix32(f.ecmpEv + 0x9e3779b9U));
                ++m_stats.ackRepaths;
            }
        }
    }
    if (payload > 0)
    {
        // a data segment: echo its path, send time and CE on the next segment back
        if (f.echoPending && (f.echoEv != uh.GetSourcePort() || f.echoPathId != sh.pathId))
        {
            f.echoMarks = 0; // a new path: the echo names only the latest one
            f.echoPkts = 0;
        }
        f.echoPending = true;
        f.echoEv = uh.GetSourcePort();
        f.echoPathId = sh.pathId;
        f.echoTx = sh.txTimeNs;
        if (!noSample)
        {
            f.echoPkts = static_cast<uint8_t>(std::min<uint32_t>(255, f.echoPkts + 1u));
            f.echoMarks =
                static_cast<uint8_t>(std::min<uint32_t>(255, f.echoMarks + (ce ? 1u : 0u)));
        }
    }
    Ipv4Header inner = h;
    inner.SetProtocol(TcpL4Protocol::PROT_NUMBER);
    inner.SetPayloadSize(p->GetSize());
    if ((sh.flags & DcnTcpShimHeader::FLAG_RESEQ) && seqLen > 0)
    {
        // Presto*'s reorder buffer: TCP sees this connection's segments in sequence order
        if (!f.reseq)
        {
            f.reseq = std::make_unique<Reseq>(m_reseqCapacity);
        }
        Reseq& r = *f.reseq;
        auto deliver = [this](HeldSegment&& s) { DeliverTcp(std::move(s)); };
        auto out = r.buf.Offer(th.seq, seqLen, HeldSegment{p, inner, iface}, deliver);
        if (out == lbcore::ReorderBuffer<HeldSegment>::HELD)
        {
            ++m_stats.reseqHeld;
            NS_LOG_LOGIC("reorder buffer holds seq " << th.seq << " (expected " << r.buf.Next()
                                                     << ")");
        }
        else if (out == lbcore::ReorderBuffer<HeldSegment>::OVERFLOW)
        {
            ++m_stats.reseqOverflows;
        }
        if (r.buf.Empty())
        {
            r.timer.Cancel();
        }
        else if (r.timer.IsExpired())
        {
            r.timer = Simulator::Schedule(m_reseqTimeout, &DcnTcpShim::ReseqTimeout, this, key);
        }
        return IpL4Protocol::RX_OK;
    }
    ++m_stats.decapsulated;
    return m_tcp->Receive(p, inner, iface);
}

void
DcnTcpShim::DeliverTcp(HeldSegment&& s)
{
    ++m_stats.decapsulated;
    m_tcp->Receive(s.p, s.h, s.iface);
}

void
DcnTcpShim::ReseqTimeout(uint64_t key)
{
    NS_LOG_FUNCTION(this << key);
    auto it = m_flows.find(key);
    if (it == m_flows.end() || !it->second.reseq)
    {
        return;
    }
    ++m_stats.reseqTimeouts;
    it->second.reseq->buf.Flush([this](HeldSegment&& s) { DeliverTcp(std::move(s)); });
}

} // namespace ns3
