/*
 * DcnConnection, part 3: the go-back-N loss-recovery strategy of the in-order
 * (classic RoCE) mode, cumulative acknowledgement and DCQCN CNP reception.
 * (Split from dcn-connection.cc to keep files short; same class.)
 *
 * Go-back-N (DcnTransport::Mode = InOrder): the receiver accepts only its
 * expected PSN and answers the first out-of-sequence packet with a NACK whose
 * cumAck is the expected PSN.  The sender acknowledges every psn below it and
 * resends every unacknowledged packet from it on, in PSN order, before any new
 * data.  A retransmission timeout goes back to the oldest unacknowledged packet.
 * A NACK triggered by a packet sent before the latest go-back, which already
 * covered its expected PSN, is stale and ignored (counted in staleNacks).
 * RtoStart=LastAck (the LAPS authors' simulator [A]): the timer is armed by
 * ACKs and NACKs only, Rto after the latest one, and not re-armed by its expiry.
 */
#include "dcn-connection.h"
#include "dcn-transport.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnConnectionRecovery");

void
DcnConnection::AckCumulative(uint32_t cumAck, uint32_t& newlyAcked)
{
    uint32_t cum = std::min(cumAck, m_nextPsn);
    for (uint32_t p = m_psnBase; p < cum; ++p)
    {
        AckPsn(p, newlyAcked);
    }
}

void
DcnConnection::GoBack(uint32_t from)
{
    NS_LOG_FUNCTION(this << from);
    from = std::max(from, m_psnBase);
    m_retxQueue.clear();
    m_selectorLost.clear();
    for (uint32_t p = from; p < m_nextPsn; ++p)
    {
        TxEntry& e = m_tx[p - m_psnBase];
        if (e.state == ACKED)
        {
            continue;
        }
        if (e.state == IN_FLIGHT)
        {
            e.state = LOST;
            m_inflight -= e.size;
        }
        m_retxQueue.push_back(p);
    }
    // LOST packets below `from` (none in go-back-N: everything below is acknowledged)
    m_lastGoBackNs = Simulator::Now().GetNanoSeconds();
    m_lastGoBackPsn = from;
    m_stats.goBacks++;
    m_transport->MutableStats().goBacks++;
    NS_LOG_LOGIC("conn " << m_connId << " go back to psn " << from << ", " << m_retxQueue.size()
                         << " packets to resend");
}

void
DcnConnection::ReceiveGoBackNack(const DcnHeader& h)
{
    NS_LOG_FUNCTION(this << h.cumAck << h.timestampNs);
    if (h.HasFlag(DcnHeader::FLAG_TRIMMED) && h.psn >= m_psnBase && h.psn < m_nextPsn &&
        m_tx[h.psn - m_psnBase].lastSend.GetNanoSeconds() == h.timestampNs)
    {
        // the NACK of a trimmed packet's latest send: counted per message as out of order
        if (MsgState* m = FindMsg(m_tx[h.psn - m_psnBase].msgId))
        {
            m->trimmed++;
        }
    }
    uint32_t newly = 0;
    AckCumulative(h.cumAck, newly);
    m_stats.bytesAcked += newly;
    PopFront();
    if (m_rtoFromLastAck)
    {
        // [A] RdmaHw::ReceiveAck re-arms after the cumulative part, before going back
        RestartRtoOnAck();
    }
    if (newly > 0)
    {
        CcAckSample s;
        s.ackedBytes = newly;
        s.ecn = h.HasFlag(DcnHeader::FLAG_ECN_ECHO);
        s.rtt = NanoSeconds(Simulator::Now().GetNanoSeconds() - h.timestampNs);
        s.path = EchoedPath(h);
        s.psn = h.psn;
        s.now = Simulator::Now();
        s.header = &h;
        s.nextPsn = m_nextPsn;
        s.cumAck = h.cumAck;
        s.nack = true;
        m_cc->OnAck(s);
    }
    uint32_t expected = h.cumAck;
    if (expected >= m_nextPsn)
    {
        return; // nothing unacknowledged from there on
    }
    if (!m_ignoreStaleNacks)
    {
        // [A] ReceiveAck: snd_una = max(snd_una, seq), then snd_nxt = snd_una
        expected = std::max(expected, m_psnBase);
        if (expected >= m_nextPsn)
        {
            return;
        }
    }
    else if (expected < m_psnBase ||
             (h.timestampNs < m_lastGoBackNs && m_lastGoBackPsn <= expected))
    {
        m_stats.staleNacks++;
        NS_LOG_LOGIC("conn " << m_connId << " stale go-back NACK for psn " << expected);
        return;
    }
    GoBack(expected);
    PathFeedback fb = MakeFeedback(FeedbackSignal::NACK, expected);
    fb.path = EchoedPath(h);
    fb.header = &h;
    m_ps->OnFeedback(fb);
    m_cc->OnNack();
}

void
DcnConnection::RestartRtoOnAck()
{
    NS_LOG_FUNCTION(this << m_inflight);
    if (m_ackFinishedAll)
    {
        m_ackFinishedAll = false; // this ACK finished every message (Complete): no timer
        return;
    }
    if (m_inflight > 0)
    {
        // the deadline moves with every ACK; one pending event catches up with it (no
        // Cancel + Schedule per ACK)
        const int64_t now = Simulator::Now().GetTimeStep();
        m_lastAckDeadline = now + m_rto.GetTimeStep();
        if (m_rtoEventAt > m_lastAckDeadline) // none pending, or later (RtoAdaptive shrank)
        {
            if (m_rtoEventAt != INT64_MAX)
            {
                m_rtoEvent.Cancel();
            }
            m_rtoEvent = Simulator::Schedule(m_rto, &DcnConnection::RtoExpired, this);
            m_rtoEventAt = m_lastAckDeadline;
        }
    }
    else if (m_openMsgs == 0)
    {
        // every message acknowledged ([A]: the queue pair finished, no timer left)
        m_lastAckDeadline = -1;
    }
    // else ([A]): nothing in flight but more to send; a running timer keeps its deadline
}

void
DcnConnection::LastAckRtoExpired()
{
    NS_LOG_FUNCTION(this);
    m_rtoEventAt = INT64_MAX;
    const int64_t now = Simulator::Now().GetTimeStep();
    if (m_lastAckDeadline < 0)
    {
        return; // not armed (cancelled when every message was acknowledged)
    }
    if (now < m_lastAckDeadline)
    {
        // an ACK moved the deadline since this event was scheduled
        m_rtoEvent = Simulator::Schedule(TimeStep(m_lastAckDeadline - now),
                                         &DcnConnection::RtoExpired,
                                         this);
        m_rtoEventAt = m_lastAckDeadline;
        return;
    }
    // [A] RdmaHw::HandleTimeout: count, go back to the oldest unacknowledged packet; no
    // re-arm (the next ACK or NACK arms the timer again)
    m_lastAckDeadline = -1;
    if (m_openMsgs == 0)
    {
        return; // every message acknowledged ([A]: the queue pair finished)
    }
    if (m_psnBase == m_nextPsn)
    {
        // Nothing unacknowledged but more to send (the timer kept running after an ACK that
        // left nothing in flight, and no packet left since): [A]'s HandleTimeout still
        // counts a timeout and tells its load balancer (PLB: plb_update_state_upon_rto);
        // there is nothing to go back to, and nothing was lost, so the congestion control
        // is not told ([A] changes no rate on a timeout).  Reported on the next PSN and the
        // path of the latest packet sent (review s50 L6).
        MsgState* m = m_sendMsgIdx < m_msgs.size() ? &m_msgs[m_sendMsgIdx] : nullptr;
        NS_LOG_INFO("conn " << m_connId << " RTO (from the last ACK) with nothing in flight, psn "
                            << m_nextPsn);
        CountTimeout(m, m_nextPsn, m_lastSentEv, m_lastSentPathId, false);
        MaybeReady();
        return;
    }
    const uint32_t psn = m_psnBase;
    const TxEntry& e = m_tx.front();
    const uint16_t ev = e.ev;
    const int32_t pathId = e.pathId;
    MsgState* m = FindMsg(e.msgId);
    NS_LOG_INFO("conn " << m_connId << " RTO (from the last ACK) psn " << psn << " ev " << ev
                        << " path " << pathId);
    GoBack(psn);
    CountTimeout(m, psn, ev, pathId);
    MaybeReady();
}

void
DcnConnection::ReceiveCnp()
{
    NS_LOG_FUNCTION(this);
    if (m_cc == nullptr)
    {
        return;
    }
    m_stats.cnpsReceived++;
    m_cc->OnCnp(Simulator::Now());
}

} // namespace ns3
