#include "dcn-connection.h"

#include "../lb/ev-util.h"
#include "dcn-transport.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnConnection");
NS_OBJECT_ENSURE_REGISTERED(DcnConnection);

TypeId
DcnConnection::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DcnConnection").SetParent<Object>().SetGroupName("DcnLb");
    return tid;
}

DcnConnection::DcnConnection()
{
    NS_LOG_FUNCTION(this);
}

DcnConnection::~DcnConnection() = default;

void
DcnConnection::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_rtoEvent.Cancel();
    m_paceEvent.Cancel();
    m_paceAt = INT64_MAX;
    m_ps = nullptr;
    m_cc = nullptr;
    m_params.topology = nullptr;
    m_transport = nullptr;
    m_msgs.clear();
    Object::DoDispose();
}

void
DcnConnection::Init(DcnTransport* t,
                    uint32_t connId,
                    Ipv4Address src,
                    Ipv4Address dst,
                    uint32_t dstNode,
                    Ptr<PathSelector> ps,
                    Ptr<CongestionControl> cc,
                    const DcnConnectionParams& params)
{
    NS_LOG_FUNCTION(this << connId << src << dst << dstNode);
    m_transport = t;
    m_connId = connId;
    m_src = src;
    m_dst = dst;
    m_dstNode = dstNode;
    m_ps = ps;
    m_cc = cc;
    m_params = params;
    m_mtu = t->m_mtu;
    m_rto = t->m_rto;
    if (t->m_rtoBaseRtts > 0)
    {
        m_rto = std::max(m_rto, params.baseRtt * int64x64_t(t->m_rtoBaseRtts));
    }
    m_rtoFloor = m_rto;
    m_rtoAdaptive = t->m_rtoAdaptive;
    m_paceFromLastSend = t->m_paceFromLastSend;
    m_recovery = t->GetMode() == DcnTransport::IN_ORDER ? DcnLossRecovery::GO_BACK_N
                                                        : DcnLossRecovery::SELECTIVE_REPEAT;
    // selective repeat ignores RtoStart: it times each packet from its send
    m_rtoFromLastAck = m_recovery == DcnLossRecovery::GO_BACK_N &&
                       t->m_rtoStart == DcnTransport::RTO_FROM_LAST_ACK;
    m_ignoreStaleNacks = t->m_ignoreStaleNacks;

    uint64_t bdp = params.bdpBytes;
    if (bdp == 0)
    {
        bdp =
            static_cast<uint64_t>(params.lineRate.GetBitRate() / 8.0 * params.baseRtt.GetSeconds());
    }
    CcSetup ccs;
    ccs.mtu = m_mtu;
    ccs.bdpBytes = bdp;
    ccs.lineRate = params.lineRate;
    ccs.baseRtt = params.baseRtt;
    ccs.wakeup = MakeCallback(&DcnConnection::Wakeup, this);
    ccs.pathSelector = ps;
    m_cc->Setup(ccs);
    m_intSlots = (t->m_intRequest || m_cc->WantsInt())
                     ? static_cast<uint8_t>(std::min<uint32_t>(t->m_intMaxHops, DcnHeader::MAX_INT))
                     : 0;

    PathSelectorSetup pss;
    pss.mtu = m_mtu;
    pss.bdpPackets = static_cast<uint32_t>(std::max<uint64_t>(1, (bdp + m_mtu - 1) / m_mtu));
    pss.baseRtt = params.baseRtt;
    pss.rto = m_rto;
    pss.trimming = t->m_trimming;
    pss.flowHash = dcnev::Mix32(src.Get() ^ dcnev::Mix32(dst.Get() ^ dcnev::Mix32(connId + 1)));
    pss.srcHost = params.srcHost;
    pss.dstHost = params.dstHost;
    pss.srcSwitch = params.srcSwitch;
    pss.dstSwitch = params.dstSwitch;
    pss.paths = params.paths;
    pss.topology = params.topology;
    pss.shared = t->GetSharedState();
    pss.sendProbe = MakeCallback(&DcnConnection::SendProbe, this);
    pss.declareLost = MakeCallback(&DcnConnection::DeclareLost, this);
    m_ps->Setup(pss);
}

uint32_t
DcnConnection::SendMessage(uint64_t bytes, CompletionCallback onComplete, uint64_t userTag)
{
    NS_LOG_FUNCTION(this << bytes << userTag);
    NS_ABORT_MSG_IF(bytes == 0, "DcnConnection::SendMessage: bytes = 0 is invalid; allowed >= 1");
    NS_ABORT_MSG_IF(m_transport == nullptr, "DcnConnection::SendMessage on a closed connection");
    MsgState m;
    m.msgId = m_nextMsgId++;
    m.bytes = bytes;
    m.start = Simulator::Now();
    m.cb = onComplete;
    m.userTag = userTag;
    m_msgs.push_back(m);
    m_openMsgs++;
    MaybeReady();
    return m.msgId;
}

DcnConnection::MsgState*
DcnConnection::FindMsg(uint32_t msgId)
{
    if (m_msgs.empty())
    {
        return nullptr;
    }
    uint32_t idx = msgId - m_msgs.front().msgId;
    if (idx >= m_msgs.size())
    {
        return nullptr;
    }
    return &m_msgs[idx];
}

bool
DcnConnection::CanSend()
{
    if (m_transport == nullptr)
    {
        return false;
    }
    uint32_t size;
    uint32_t lost;
    if (PeekLost(lost))
    {
        size = m_tx[lost - m_psnBase].size;
    }
    else if (m_sendMsgIdx < m_msgs.size())
    {
        const MsgState& m = m_msgs[m_sendMsgIdx];
        size = static_cast<uint32_t>(std::min<uint64_t>(m_mtu, m.bytes - m.queuedBytes));
    }
    else
    {
        return false;
    }
    if (m_inflight > 0 && m_inflight + size > m_cc->GetCwnd())
    {
        return false;
    }
    Time now = Simulator::Now();
    const Time next = NextSendTime();
    if (now < next)
    {
        // with PaceFromLastSend a rate increase can move the send before a waiting wakeup;
        // m_paceAt mirrors the pending wakeup (no EventId query, no Cancel of a past event)
        if (m_paceAt > next.GetTimeStep())
        {
            if (m_paceAt != INT64_MAX)
            {
                m_paceEvent.Cancel();
            }
            m_paceEvent = Simulator::Schedule(next - now, &DcnConnection::PaceWakeup, this);
            m_paceAt = next.GetTimeStep();
        }
        return false;
    }
    return true;
}

Time
DcnConnection::NextSendTime() const
{
    if (!m_paceFromLastSend)
    {
        return m_nextSendTime;
    }
    const DataRate rate = m_cc->GetRate();
    return rate.GetBitRate() > 0 && m_lastWire > 0
               ? m_lastSendTime + m_txTime.Get(rate, m_lastWire + 20)
               : Time(0);
}

bool
DcnConnection::PeekLost(uint32_t& psn)
{
    auto stale = [this](uint32_t p) { return p < m_psnBase || m_tx[p - m_psnBase].state != LOST; };
    while (!m_retxQueue.empty() && stale(m_retxQueue.front()))
    {
        m_retxQueue.pop_front();
    }
    while (!m_selectorLost.empty() && stale(m_selectorLost.front()))
    {
        std::pop_heap(m_selectorLost.begin(), m_selectorLost.end(), std::greater<>());
        m_selectorLost.pop_back();
    }
    if (m_selectorLost.empty())
    {
        if (m_retxQueue.empty())
        {
            return false;
        }
        psn = m_retxQueue.front();
        return true;
    }
    psn = m_retxQueue.empty() ? m_selectorLost.front()
                              : std::min(m_retxQueue.front(), m_selectorLost.front());
    return true;
}

void
DcnConnection::PaceWakeup()
{
    m_paceAt = INT64_MAX; // this event is no longer pending
    MaybeReady();
}

void
DcnConnection::MaybeReady()
{
    if (!m_inReadyList && CanSend())
    {
        m_transport->NotifyReady(this);
    }
}

uint32_t
DcnConnection::SendOne()
{
    if (!CanSend())
    {
        return 0;
    }
    Time now = Simulator::Now();
    bool retx = false;
    uint32_t psn;
    TxEntry* e;
    const MsgState* msg;
    if (PeekLost(psn))
    {
        if (!m_selectorLost.empty() && m_selectorLost.front() == psn)
        {
            std::pop_heap(m_selectorLost.begin(), m_selectorLost.end(), std::greater<>());
            m_selectorLost.pop_back();
        }
        else
        {
            m_retxQueue.pop_front();
        }
        e = &m_tx[psn - m_psnBase];
        retx = true;
        if (e->sends < 255)
        {
            e->sends++;
        }
        MsgState* m = FindMsg(e->msgId);
        NS_ASSERT(m != nullptr);
        m->retx++;
        msg = m;
        m_stats.retransmissions++;
        m_transport->MutableStats().retransmissions++;
    }
    else
    {
        MsgState& m = m_msgs[m_sendMsgIdx];
        uint32_t size = static_cast<uint32_t>(std::min<uint64_t>(m_mtu, m.bytes - m.queuedBytes));
        psn = m_nextPsn++;
        m_tx.push_back(TxEntry{m.msgId, size, m.queuedBytes, now, 0, -1, LOST, 1});
        e = &m_tx.back();
        m.queuedBytes += size;
        if (m.queuedBytes == m.bytes)
        {
            m_sendMsgIdx++;
        }
        msg = &m;
    }
    SendContext ctx;
    ctx.psn = psn;
    ctx.retransmission = retx;
    ctx.bytesInFlight = static_cast<uint32_t>(std::min<uint64_t>(m_inflight, UINT32_MAX));
    m_inSendOne = true;
    PathChoice pc = m_ps->Choose(ctx);
    m_inSendOne = false;
    e->ev = pc.ev;
    e->pathId = pc.pathId;
    m_lastSentEv = pc.ev;
    m_lastSentPathId = pc.pathId;
    e->lastSend = now;
    e->state = IN_FLIGHT;
    m_inflight += e->size;

    m_hdr.opcode = DcnHeader::DATA;
    m_hdr.flags = 0;
    if (e->offset + e->size == msg->bytes)
    {
        m_hdr.flags |= DcnHeader::FLAG_LAST;
    }
    if (retx)
    {
        m_hdr.flags |= DcnHeader::FLAG_RETX;
    }
    m_hdr.evEcho = pc.ev;
    m_hdr.connId = m_connId;
    m_hdr.psn = psn;
    m_hdr.msgId = e->msgId;
    m_hdr.msgOffset = e->offset;
    m_hdr.payloadSize = e->size;
    m_hdr.timestampNs = now.GetNanoSeconds();
    m_hdr.cumAck = 0;
    m_hdr.sackBitmap = 0;
    m_hdr.evs.clear();
    WritePathOptions(m_hdr, pc, m_hdr.timestampNs);
    if (m_intSlots > 0)
    {
        // INT request (issue 12): reserved records, filled in place by switch egresses
        m_hdr.extMask |= DcnHeader::EXT_INT;
        m_hdr.intCount = 0;
        m_hdr.intSlots = m_intSlots;
    }
    m_stats.dataPacketsSent++;
    NS_LOG_LOGIC("conn " << m_connId << " psn " << psn << (retx ? " retx" : "") << " ev " << pc.ev
                         << " path " << pc.pathId);
    m_transport->m_pathChosenTrace(m_connId, psn, pc.ev);
    uint32_t wire = 0;
    {
        Ptr<Packet> p = Create<Packet>(e->size);
        wire = p->GetSize() + m_hdr.GetSerializedSize() + 8;
        m_transport->SendPacket(p, m_hdr, dcnev::ToUdpPort(pc.ev), m_dst, true);
    }
    if (!m_rtoFromLastAck)
    {
        m_timerQueue.emplace_back(psn, now);
        ArmRto();
    }
    CcSendSample ss;
    ss.psn = psn;
    ss.bytes = e->size;
    ss.retransmission = retx;
    ss.bytesInFlight = m_inflight;
    ss.now = now;
    m_cc->OnSend(ss);
    m_lastSendTime = now;
    m_lastWire = wire;
    DataRate rate = m_cc->GetRate();
    if (rate.GetBitRate() > 0)
    {
        m_nextSendTime = now + m_txTime.Get(rate, wire + 20);
    }
    return wire;
}

void
DcnConnection::ArmRto()
{
    if (m_rtoEvent.IsExpired() && !m_timerQueue.empty())
    {
        Time deadline = m_timerQueue.front().second + m_rto;
        Time now = Simulator::Now();
        m_rtoEvent = Simulator::Schedule(deadline > now ? deadline - now : Time(0),
                                         &DcnConnection::RtoExpired,
                                         this);
    }
}

void
DcnConnection::UpdateRto(Time rtt)
{
    const double r = static_cast<double>(rtt.GetNanoSeconds());
    if (m_srttNs < 0)
    {
        m_srttNs = r;
        m_rttvarNs = r / 2;
    }
    else
    {
        m_rttvarNs = 0.75 * m_rttvarNs + 0.25 * std::abs(m_srttNs - r);
        m_srttNs = 0.875 * m_srttNs + 0.125 * r;
    }
    m_rto = std::max(m_rtoFloor, NanoSeconds(static_cast<int64_t>(m_srttNs + 4 * m_rttvarNs)));
}

void
DcnConnection::RtoExpired()
{
    if (m_rtoFromLastAck)
    {
        LastAckRtoExpired();
        return;
    }
    Time now = Simulator::Now();
    while (!m_timerQueue.empty())
    {
        uint32_t psn = m_timerQueue.front().first;
        Time t = m_timerQueue.front().second;
        if (psn < m_psnBase)
        {
            m_timerQueue.pop_front();
            continue;
        }
        TxEntry& e = m_tx[psn - m_psnBase];
        if (e.state != IN_FLIGHT || e.lastSend != t)
        {
            m_timerQueue.pop_front();
            continue;
        }
        if (t + m_rto > now)
        {
            break;
        }
        m_timerQueue.pop_front();
        NS_LOG_INFO("conn " << m_connId << " RTO psn " << psn << " ev " << e.ev << " path "
                            << e.pathId);
        const uint16_t ev = e.ev;
        const int32_t pathId = e.pathId;
        MsgState* m = FindMsg(e.msgId);
        if (m_recovery == DcnLossRecovery::GO_BACK_N)
        {
            // every unacknowledged packet from the oldest on is resent (e is LOST after this)
            GoBack(m_psnBase);
        }
        else
        {
            e.state = LOST;
            m_inflight -= e.size;
            m_retxQueue.push_back(psn);
        }
        CountTimeout(m, psn, ev, pathId);
    }
    ArmRto();
    MaybeReady();
}

void
DcnConnection::CountTimeout(MsgState* m, uint32_t psn, uint16_t ev, int32_t pathId, bool tellCc)
{
    NS_LOG_FUNCTION(this << psn << ev << pathId);
    if (m != nullptr)
    {
        m->timeouts++;
    }
    m_stats.timeouts++;
    m_transport->MutableStats().timeouts++;
    m_transport->m_timeoutTrace(m_connId, psn, ev);
    PathFeedback fb = MakeFeedback(FeedbackSignal::TIMEOUT, psn);
    fb.path.ev = ev;
    fb.path.pathId = pathId;
    m_ps->OnFeedback(fb);
    if (tellCc)
    {
        m_cc->OnTimeout();
    }
}

void
DcnConnection::AckPsn(uint32_t psn, uint32_t& newlyAcked)
{
    if (psn < m_psnBase || psn >= m_nextPsn)
    {
        return;
    }
    TxEntry& e = m_tx[psn - m_psnBase];
    if (e.state == ACKED)
    {
        return;
    }
    if (e.state == IN_FLIGHT)
    {
        m_inflight -= e.size;
    }
    else
    {
        m_stats.spuriousRetransmissions++;
    }
    e.state = ACKED;
    newlyAcked += e.size;
    MsgState* m = FindMsg(e.msgId);
    NS_ASSERT(m != nullptr);
    m->ackedBytes += e.size;
    if (m->ackedBytes == m->bytes)
    {
        Complete(*m);
    }
}

void
DcnConnection::Complete(MsgState& m)
{
    m.done = true;
    m_openMsgs--; // before the callback: it may post the next message on this connection
    if (m_rtoFromLastAck && m_openMsgs == 0)
    {
        // RtoStart=LastAck: every message acknowledged, the timer is cancelled ([A]: the
        // queue pair finished) before the callback can post the next message, which starts
        // without a timer as a fresh queue pair does: this ACK does not arm it for the
        // next message's packets either, its first own ACK will (review s50 L0)
        m_lastAckDeadline = -1;
        m_ackFinishedAll = true;
    }
    m_stats.messagesCompleted++;
    m_transport->MutableStats().messagesCompleted++;
    DcnMessageRecord r;
    r.srcNode = m_transport->GetNode()->GetId();
    r.dstNode = m_dstNode;
    r.src = m_src;
    r.dst = m_dst;
    r.connId = m_connId;
    r.msgId = m.msgId;
    r.bytes = m.bytes;
    r.start = m.start;
    r.finish = Simulator::Now();
    r.retransmissions = m.retx;
    r.outOfOrder = m.ooo;
    r.timeouts = m.timeouts;
    r.trimmed = m.trimmed;
    r.userTag = m.userTag;
    r.bytesAcked = m.ackedBytes;
    CompletionCallback cb = m.cb;
    m.cb = CompletionCallback();
    m_transport->m_msgCompleteTrace(r);
    if (!cb.IsNull())
    {
        cb(r);
    }
}

void
DcnConnection::PopFront()
{
    while (!m_tx.empty() && m_tx.front().state == ACKED)
    {
        m_tx.pop_front();
        m_psnBase++;
    }
    while (!m_msgs.empty() && m_msgs.front().done)
    {
        m_msgs.pop_front();
        NS_ASSERT(m_sendMsgIdx > 0);
        m_sendMsgIdx--;
    }
}

void
DcnConnection::ReceiveAck(const DcnHeader& h)
{
    NS_LOG_FUNCTION(this << uint32_t(h.opcode) << h.psn << h.cumAck);
    Time now = Simulator::Now();
    if (h.opcode == DcnHeader::NACK && m_recovery == DcnLossRecovery::GO_BACK_N)
    {
        m_stats.nacksReceived++;
        ReceiveGoBackNack(h);
        MaybeReady();
        return;
    }
    if (h.opcode == DcnHeader::NACK)
    {
        m_stats.nacksReceived++;
        uint32_t psn = h.psn;
        if (psn >= m_psnBase && psn < m_nextPsn)
        {
            TxEntry& e = m_tx[psn - m_psnBase];
            if (e.state == IN_FLIGHT && e.lastSend.GetNanoSeconds() == h.timestampNs)
            {
                e.state = LOST;
                m_inflight -= e.size;
                m_retxQueue.push_back(psn);
                MsgState* m = FindMsg(e.msgId);
                if (m != nullptr)
                {
                    m->trimmed++;
                }
                PathFeedback fb = MakeFeedback(FeedbackSignal::NACK, psn);
                fb.path = EchoedPath(h);
                fb.header = &h;
                NS_LOG_LOGIC("conn " << m_connId << " NACK psn " << psn << " ev " << h.evEcho);
                m_ps->OnFeedback(fb);
                m_cc->OnNack();
            }
        }
        MaybeReady();
        return;
    }

    m_stats.acksReceived++;
    Time rtt = NanoSeconds(now.GetNanoSeconds() - h.timestampNs);
    if (m_rtoAdaptive)
    {
        UpdateRto(rtt);
    }
    uint32_t newly = 0;
    if (h.HasFlag(DcnHeader::FLAG_OOO))
    {
        // ACKs carry no msgId (dcn-header.h): the message of the acked psn
        MsgState* m = (h.psn >= m_psnBase && h.psn - m_psnBase < m_tx.size())
                          ? FindMsg(m_tx[h.psn - m_psnBase].msgId)
                          : nullptr;
        if (m != nullptr)
        {
            m->ooo++;
        }
    }
    AckPsn(h.psn, newly);
    AckCumulative(h.cumAck, newly);
    // psns of the last applied bitmap are ACKED already (ACKED is final): visit only the
    // bits this ACK adds (the same result as visiting all, without the re-visits)
    uint64_t bits = h.sackBitmap;
    if (h.cumAck >= m_sackCum && h.cumAck - m_sackCum < 64)
    {
        bits &= ~(m_sackBits >> (h.cumAck - m_sackCum));
    }
    m_sackCum = h.cumAck;
    m_sackBits = h.sackBitmap;
    while (bits != 0)
    {
        int i = __builtin_ctzll(bits);
        bits &= bits - 1;
        AckPsn(h.cumAck + static_cast<uint32_t>(i), newly);
    }
    m_stats.bytesAcked += newly;
    PopFront();
    if (m_rtoFromLastAck)
    {
        RestartRtoOnAck();
    }

    bool ecn = h.HasFlag(DcnHeader::FLAG_ECN_ECHO);
    const PathChoice echoed = EchoedPath(h);
    Time owd(-1);
    if (h.extMask & DcnHeader::EXT_TIMESTAMP)
    {
        owd = NanoSeconds(h.extTimestampNs - h.timestampNs);
    }
    if (newly > 0)
    {
        CcAckSample s;
        s.ackedBytes = newly;
        s.ecn = ecn;
        s.rtt = rtt;
        s.oneWayDelay = owd;
        s.path = echoed;
        s.psn = h.psn;
        s.now = now;
        s.header = &h;
        s.nextPsn = m_nextPsn;
        s.cumAck = h.cumAck;
        m_cc->OnAck(s);
    }
    PathFeedback fb = MakeFeedback(FeedbackSignal::ACK, h.psn);
    fb.rtt = rtt;
    fb.header = &h;
    if (!h.evs.empty())
    {
        fb.signal = FeedbackSignal::ACK;
        fb.ackedBytes = newly;
        for (uint16_t ev : h.evs)
        {
            fb.path.ev = ev;
            m_ps->OnFeedback(fb);
            fb.ackedBytes = 0;
        }
        if (ecn)
        {
            fb.signal = FeedbackSignal::ECN_ACK;
            fb.path = echoed;
            fb.oneWayDelay = owd;
            m_ps->OnFeedback(fb);
        }
    }
    else
    {
        fb.signal = ecn ? FeedbackSignal::ECN_ACK : FeedbackSignal::ACK;
        fb.path = echoed;
        fb.oneWayDelay = owd;
        fb.ackedBytes = newly;
        m_ps->OnFeedback(fb);
    }
    MaybeReady();
}

} // namespace ns3
