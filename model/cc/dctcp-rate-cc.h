/*
 * Rate-based DCTCP, as the LAPS authors' simulator ([A], wany16/Laps-ns3, the
 * HPCC-derived ns-3.33 simulator) runs it for its PLB baseline: RdmaHw's
 * "Dctcp" congestion-control mode (rdma-hw.cc PLBHandleAckDctcp / HandleAckDctcp,
 * RdmaQueuePair's dctcp state), which [A] forces for lbsName plb
 * (userdefinedfunction.cc load_default_configures).  Short name "dctcp-rate"
 * (CongestionControlRegistry).  No paper of its own: the rules and the defaults
 * are [A]'s (research notes: doc/laps.rst "The authors' simulator").
 *
 * Per acknowledgement (every ACK, and every go-back-N NACK when
 * NackIsCongestion: [A]'s receiver flags the NACK of an out-of-sequence packet
 * with the CNP bit), with cum = the ACK's cumulative acknowledgement and
 * nxt = the sender's next new PSN:
 *   marked = the ACK echoed CE (or is such a NACK);  ecnCount += marked
 *   round end when cum > lastUpdate ("full RTT feedback"):
 *     first one:  lastUpdate = nxt, batch = nxt + 1 (packets; alpha unchanged)
 *     later ones: frac = min(1, ecnCount / batch), alpha = (1 - g) alpha + g frac,
 *                 lastUpdate = nxt, ecnCount = 0, batch = nxt - cum + 1
 *   CWR exit when cum > highSeq
 *   marked and not in CWR: rate = max(MinRate, rate (1 - alpha / 2)), enter CWR,
 *                          highSeq = nxt  (at most one cut per window of data)
 *   not in CWR at a round end: rate = min(line rate, rate + RateAi)
 * Initial rate = the line rate, alpha = InitialAlpha (1).  A NACK's "next PSN"
 * is its cumAck: [A] rewinds snd_nxt to snd_una before its handler runs.
 * Timeouts leave the rate unchanged ([A] HandleTimeout).  The transport paces at
 * GetRate(); Window (bytes, 0 = none) caps the unacknowledged bytes as [A]'s
 * enableWindow / enableUnifiedWindow does for every flow.
 */
#ifndef DCN_DCTCP_RATE_CC_H
#define DCN_DCTCP_RATE_CC_H

#include "ns3/congestion-control.h"
#include "ns3/traced-callback.h"

namespace ns3
{

class DctcpRateCc : public CongestionControl
{
  public:
    static TypeId GetTypeId();
    DctcpRateCc();
    ~DctcpRateCc() override;

    void Setup(const CcSetup& setup) override;
    void OnAck(const CcAckSample& s) override;
    void OnNack() override;
    void OnTimeout() override;
    DataRate GetRate() const override;
    uint64_t GetCwnd() const override;
    std::string Name() const override;
    std::string Validate() const override;

    /** Current rate in bit/s. */
    double GetRateBps() const
    {
        return m_rate;
    }

    double GetAlpha() const
    {
        return m_alpha;
    }

    /** In congestion window reduction (no cut, no increase until cum > highSeq). */
    bool InCwr() const
    {
        return m_cwr;
    }

    uint64_t GetCuts() const
    {
        return m_cuts;
    }

    uint64_t GetRounds() const
    {
        return m_rounds;
    }

    typedef void (*RateTracedCallback)(double oldBps, double newBps);

  private:
    /** One acknowledgement of [A]'s handler: cumulative ack, sender's next PSN, marked. */
    void Process(uint32_t cum, uint32_t nxt, bool marked);

    double m_g;
    DataRate m_rateAi;
    DataRate m_minRate;
    double m_initialAlpha;
    uint64_t m_window;
    bool m_nackIsCongestion;

    double m_line{0};
    double m_rate{0};
    double m_alpha{1};
    bool m_started{false};
    uint32_t m_lastUpdate{0};
    uint32_t m_batch{0};
    uint32_t m_ecnCount{0};
    bool m_cwr{false};
    uint32_t m_highSeq{0};
    uint32_t m_lastCum{0};
    bool m_nackSeen{false};   //!< the last OnAck was a NACK: its OnNack() is the same event
    int64_t m_nackSeenNs{-1}; //!< when (the transport calls OnNack() at the same instant)
    uint64_t m_cuts{0};
    uint64_t m_rounds{0};
    TracedCallback<double, double> m_rateTrace;
};

} // namespace ns3

#endif // DCN_DCTCP_RATE_CC_H
