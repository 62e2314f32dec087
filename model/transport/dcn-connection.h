/*
 * Sender side of one connection of the dcn-lb message transport
 * (DESIGN.md 3.3; REPS spec 2.3): per-packet PSNs, selective ACKs, NACKs for
 * trimmed packets, a retransmission timeout and a loss-recovery strategy:
 * selective repeat (Mode=OutOfOrder) or go-back-N (Mode=InOrder, classic RoCE:
 * a NACK carrying the receiver's expected PSN, or a timeout, resends every
 * unacknowledged packet from that PSN on; dcn-connection-recovery.cc).
 */
#ifndef DCN_CONNECTION_H
#define DCN_CONNECTION_H

#include "dcn-header.h"

#include "ns3/callback.h"
#include "ns3/congestion-control.h"
#include "ns3/data-rate.h"
#include "ns3/dcn-fast-path.h"
#include "ns3/dcn-path-choice.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/path-selector.h"

#include <cstdint>
#include <deque>

namespace ns3
{

class DcnTransport;

/** Static facts about a connection, given at DcnTransport::Connect(). */
struct DcnConnectionParams
{
    Time baseRtt{0};              //!< unloaded RTT of one data packet and its ACK
    uint64_t bdpBytes{0};         //!< BDP in bytes (0: lineRate x baseRtt)
    DataRate lineRate{"400Gbps"}; //!< sender's line rate
    // the connection in the topology (given to the path selector's Setup); the
    // workload driver fills them from the DcnTopology, UINT32_MAX = unknown
    uint32_t srcHost{UINT32_MAX};
    uint32_t dstHost{UINT32_MAX};
    uint32_t srcSwitch{UINT32_MAX};
    uint32_t dstSwitch{UINT32_MAX};
    const DcnPathSet* paths{nullptr}; //!< topology paths srcSwitch -> dstSwitch (or lazily:)
    Ptr<DcnTopology> topology;        //!< topology the selector may ask for the pair's paths
    uint32_t dstNode{UINT32_MAX};     //!< ns-3 node id of dst (UINT32_MAX: looked up)
};

/** Result of one message, given to the completion callback and MessageComplete trace. */
struct DcnMessageRecord
{
    uint32_t srcNode{0};
    uint32_t dstNode{0};
    Ipv4Address src;
    Ipv4Address dst;
    uint32_t connId{0};
    uint32_t msgId{0};
    uint64_t bytes{0};
    Time start{0};
    Time finish{0};
    uint32_t retransmissions{0}; //!< data packets of this message sent more than once
    uint32_t outOfOrder{0};      //!< packets the receiver saw out of order (echoed in ACKs)
    uint32_t timeouts{0};        //!< retransmission timeouts of this message's packets (and,
                                 //!< RtoStart=LastAck, expiries while it was being sent)
    uint32_t trimmed{0};         //!< NACKs (trimmed packets) of this message
    uint64_t userTag{0};         //!< caller's tag given to SendMessage (like RDMA's wr_id)
    uint64_t bytesAcked{0};      //!< payload bytes acknowledged (progress of an unfinished message)
};

/** Per-connection sender counters. */
struct DcnConnectionStats
{
    uint64_t dataPacketsSent{0};
    uint64_t retransmissions{0};
    uint64_t acksReceived{0};
    uint64_t nacksReceived{0};
    uint64_t timeouts{0};
    uint64_t spuriousRetransmissions{0}; //!< ACKs for a packet that had been declared lost
    uint64_t bytesAcked{0};
    uint64_t messagesCompleted{0};
    uint64_t goBacks{0};      //!< go-back-N events (NACK with the expected PSN or timeout)
    uint64_t staleNacks{0};   //!< go-back NACKs ignored (already went back past them)
    uint64_t cnpsReceived{0}; //!< DCQCN CNPs given to the congestion control
};

/** Loss recovery of a connection (chosen by DcnTransport::Mode). */
enum class DcnLossRecovery : uint8_t
{
    SELECTIVE_REPEAT, //!< resend exactly the packets declared lost (OutOfOrder)
    GO_BACK_N         //!< resend everything from the receiver's expected PSN (InOrder)
};

class DcnConnection : public Object
{
  public:
    using CompletionCallback = Callback<void, const DcnMessageRecord&>;

    static TypeId GetTypeId();
    DcnConnection();
    ~DcnConnection() override;

    /**
     * Queue a message of `bytes` bytes (> 0).  Messages of a connection are sent
     * in FIFO order and share its window.  `onComplete` (may be null) is called
     * when every byte has been acknowledged; its record carries `userTag` back
     * (like an RDMA work request id), so one member-function callback can serve
     * many messages.  Returns the message id.
     */
    uint32_t SendMessage(uint64_t bytes, CompletionCallback onComplete, uint64_t userTag = 0);

    uint32_t GetConnId() const
    {
        return m_connId;
    }

    Ipv4Address GetDestination() const
    {
        return m_dst;
    }

    Ptr<PathSelector> GetPathSelector() const
    {
        return m_ps;
    }

    Ptr<CongestionControl> GetCongestionControl() const
    {
        return m_cc;
    }

    /** Current retransmission timeout (DcnTransport Rto, RtoBaseRtts, RtoAdaptive). */
    Time GetRto() const
    {
        return m_rto;
    }

    const DcnConnectionStats& GetStats() const
    {
        return m_stats;
    }

    /** Payload bytes sent but neither acknowledged nor declared lost. */
    uint64_t GetBytesInFlight() const
    {
        return m_inflight;
    }

    /** Messages queued or in progress (0 already inside the last one's completion callback). */
    uint32_t GetPendingMessages() const
    {
        return m_openMsgs;
    }

    /**
     * Progress of the not yet completed message posted with userTag (O(messages);
     * for end-of-run reports).  \return false if there is none.
     */
    bool GetMessageProgress(uint64_t userTag, DcnMessageRecord& out) const
    {
        for (const auto& m : m_msgs)
        {
            if (!m.done && m.userTag == userTag)
            {
                out.connId = m_connId;
                out.msgId = m.msgId;
                out.bytes = m.bytes;
                out.start = m.start;
                out.userTag = m.userTag;
                out.retransmissions = m.retx;
                out.outOfOrder = m.ooo;
                out.timeouts = m.timeouts;
                out.trimmed = m.trimmed;
                out.bytesAcked = m.ackedBytes;
                return true;
            }
        }
        return false;
    }

    // ---- used by DcnTransport ----
    /** @internal */
    void Init(DcnTransport* t,
              uint32_t connId,
              Ipv4Address src,
              Ipv4Address dst,
              uint32_t dstNode,
              Ptr<PathSelector> ps,
              Ptr<CongestionControl> cc,
              const DcnConnectionParams& params);
    /** @internal True if a packet may leave now (work + window + pacing). */
    bool CanSend();
    /**
     * Drop resent or acknowledged psns from the heads of the two loss queues and
     * return the psn to resend next: the smaller head (the selector's losses are
     * kept in sequence order, LAPS spec 2.5), or false when none is LOST.
     */
    bool PeekLost(uint32_t& psn);
    /** @internal Send one packet (the NIC gave us a slot). Returns its wire size (0 = none). */
    uint32_t SendOne();
    /** @internal An ACK or NACK for this connection. */
    void ReceiveAck(const DcnHeader& h);
    /** @internal A DCQCN congestion notification packet for this connection. */
    void ReceiveCnp();

    DcnLossRecovery GetLossRecovery() const
    {
        return m_recovery;
    }

    /** @internal A reply to one of this connection's probes. */
    void ReceiveProbeAck(const DcnHeader& h);

    /**
     * Send a probe packet (opcode PROBE, no payload) on path pc now; the
     * receiver's reply comes back to the path selector as PROBE_REPLY feedback
     * with the RTT.  Probes bypass the window and the NIC scheduler.
     */
    void SendProbe(const PathChoice& pc);
    /** Declare packet psn lost (if in flight): it is retransmitted and the CC gets OnNack(). */
    void DeclareLost(uint32_t psn);
    /** @internal Mark whether the connection is in the transport's ready list. */
    bool m_inReadyList{false};

  protected:
    void DoDispose() override;

  private:
    enum TxState : uint8_t
    {
        IN_FLIGHT,
        LOST,
        ACKED
    };

    struct TxEntry
    {
        uint32_t msgId;
        uint32_t size;
        uint64_t offset;
        Time lastSend;
        uint16_t ev;
        int32_t pathId; //!< path id the packet was sent on (-1 = none)
        uint8_t state;
        uint8_t sends;
    };

    struct MsgState
    {
        uint32_t msgId;
        uint64_t bytes;
        uint64_t queuedBytes{0}; //!< bytes already packetised
        uint64_t ackedBytes{0};
        Time start;
        CompletionCallback cb;
        uint64_t userTag{0};
        uint32_t retx{0};
        uint32_t ooo{0};
        uint32_t timeouts{0};
        uint32_t trimmed{0};
        bool done{false};
    };

    MsgState* FindMsg(uint32_t msgId);
    void AckPsn(uint32_t psn, uint32_t& newlyAcked);
    void MarkLost(uint32_t psn);
    void ArmRto();
    /**
     * RtoStart=LastAck (go-back-N): an ACK or NACK arrived; restart the timer at Rto from now
     * if packets are in flight, cancel it if every message is acknowledged, else keep it.
     */
    void RestartRtoOnAck();
    /** A timeout of psn (sent on ev / pathId): counted per message and connection, traced,
     *  reported to the path selector and (tellCc) the congestion control. */
    void CountTimeout(MsgState* m, uint32_t psn, uint16_t ev, int32_t pathId, bool tellCc = true);
    /** RtoStart=LastAck: the timer expired (go back to the oldest unacknowledged packet). */
    void LastAckRtoExpired();
    /** RtoAdaptive: one RTT sample into the RFC 6298 estimator. */
    void UpdateRto(Time rtt);
    void RtoExpired();
    void PaceWakeup();
    /** Earliest time the next data packet may leave (pacing; 0 without a rate). */
    Time NextSendTime() const;
    void MaybeReady();
    void Complete(MsgState& m);
    void PopFront();
    /** Write the path options of pc into h's extension (path id, route, timestamp). */
    static void WritePathOptions(DcnHeader& h, const PathChoice& pc, int64_t nowNs);
    /** The path a received ACK/NACK/probe reply echoes. */
    static PathChoice EchoedPath(const DcnHeader& h);
    /** Feedback of kind `signal` for psn, with the connection's bytes in flight. */
    PathFeedback MakeFeedback(FeedbackSignal signal, uint32_t psn) const;
    void Wakeup();
    /** Go-back-N: every unacknowledged packet from psn `from` on is resent, in order. */
    void GoBack(uint32_t from);
    /** Go-back-N: a NACK carrying the receiver's expected PSN (cumAck). */
    void ReceiveGoBackNack(const DcnHeader& h);
    /** Cumulative acknowledgement of every psn < cum. */
    void AckCumulative(uint32_t cum, uint32_t& newlyAcked);

    DcnTransport* m_transport{nullptr};
    uint32_t m_connId{0};
    Ipv4Address m_src;
    Ipv4Address m_dst;
    uint32_t m_dstNode{0};
    Ptr<PathSelector> m_ps;
    Ptr<CongestionControl> m_cc;
    DcnConnectionParams m_params;
    uint32_t m_mtu{4096};
    uint8_t m_intSlots{0}; //!< INT records reserved per data packet (0 = no INT)
    Time m_rto;
    Time m_rtoFloor; //!< Rto, or the RtoBaseRtts floor
    bool m_rtoAdaptive{false};
    double m_srttNs{-1};  //!< RtoAdaptive: smoothed RTT (ns), < 0 before the first sample
    double m_rttvarNs{0}; //!< RtoAdaptive: RTT variation (ns)
    DcnLossRecovery m_recovery{DcnLossRecovery::SELECTIVE_REPEAT};
    bool m_rtoFromLastAck{false};  //!< RtoStart=LastAck and go-back-N ([A]'s ACK-armed timer)
    bool m_ignoreStaleNacks{true}; //!< IgnoreStaleNacks (false: [A], every NACK goes back)
    /** LastAck: when the timer expires (ns; -1 = not armed).  Moved by every ACK without an
     *  event: the pending event (at m_rtoEventAt) re-schedules itself up to it. */
    int64_t m_lastAckDeadline{-1};
    bool m_ackFinishedAll{false}; //!< RtoStart=LastAck: the ACK in progress finished every message
    int64_t m_rtoEventAt{INT64_MAX}; //!< LastAck: when m_rtoEvent fires (INT64_MAX: none)
    int64_t m_lastGoBackNs{-1};      //!< time of the latest go-back (stale NACK filter)
    uint16_t m_lastSentEv{0};        //!< EV of the latest data packet sent
    int32_t m_lastSentPathId{-1};    //!< path id of the latest data packet sent
    uint32_t m_lastGoBackPsn{0};

    // messages
    std::deque<MsgState> m_msgs; //!< in msgId order; front = oldest not yet popped
    uint32_t m_nextMsgId{0};
    uint32_t m_openMsgs{0}; //!< posted and not completed (m_msgs keeps done ones until popped)
    size_t m_sendMsgIdx{0}; //!< index in m_msgs of the message being packetised

    // packets
    std::deque<TxEntry> m_tx; //!< psn m_psnBase + i
    uint32_t m_psnBase{0};
    uint32_t m_nextPsn{0};
    uint32_t m_sackCum{0};                //!< cumAck of the last ACK whose bitmap was applied
    uint64_t m_sackBits{0};               //!< that bitmap: its psns are ACKED (a final state)
    std::deque<uint32_t> m_retxQueue;     //!< psns lost (NACK, RTO, go-back)
    std::vector<uint32_t> m_selectorLost; //!< psns the path selector declared lost (min-heap)
    std::deque<std::pair<uint32_t, Time>> m_timerQueue; //!< (psn, send time) in send order
    EventId m_rtoEvent;
    uint64_t m_inflight{0};

    // pacing
    mutable dcnfast::TxTimeMemo m_txTime; //!< pacing gaps: a rate changes less often than a send
    Time m_nextSendTime{0};               //!< PaceFromLastSend=false: fixed at the last send
    Time m_lastSendTime{0}; //!< PaceFromLastSend=true: start of the last data send ...
    uint32_t m_lastWire{0}; //!< ... and its wire bytes; the gap follows the current rate
    bool m_paceFromLastSend{false};
    EventId m_paceEvent;
    int64_t m_paceAt{INT64_MAX}; //!< when m_paceEvent fires (time steps); INT64_MAX: none pending

    DcnConnectionStats m_stats;
    DcnHeader m_hdr; //!< reused when building packets
    uint32_t m_nextProbe{0};
    bool m_inSendOne{false}; //!< inside the selector's Choose() of SendOne
};

} // namespace ns3

#endif // DCN_CONNECTION_H
