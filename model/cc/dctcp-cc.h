/*
 * MPRDMA-style DCTCP with per-ACK window updates (REPS spec 2.3, [A]
 * updateCwndOnAck_MPRDMA).  Tolerant of reordering: every ACK updates the
 * window independently; there is no duplicate-ACK logic.
 *
 *   clean ACK:      cwnd += acked * MTU / cwnd
 *   ECN ACK:        cwnd -= acked / 4            (floor 1 MTU)
 *   NACK or loss:   cwnd -= 1 MTU                (floor 1 MTU)
 *   initial = max = 1.5 x BDP
 *
 * Variant "Alpha" (DCTCP EWMA): alpha <- (1-g) alpha + g * ecn per ACK, and an
 * ECN ACK removes acked * alpha / 2 instead of acked / 4.
 *
 * Optional SMaRTT extensions (Spritz Sec. IV-C / V: "DCTCP + QuickAdapt +
 * FastIncrease"; both off by default so earlier results are unchanged; the
 * Spritz paper gives no parameters, our reading of SMaRTT, spritz spec 4.1):
 *   QuickAdapt:   on a NACK or timeout, at most once per base RTT, the window
 *                 becomes the bytes acknowledged during the last base RTT (the
 *                 rate the path actually delivered), floor 1 MTU; further
 *                 NACK/timeout decreases within that RTT are skipped.
 *   FastIncrease: after one full window of consecutive clean ACKs whose RTT is
 *                 below FastIncreaseRttFactor x base RTT, every clean ACK adds
 *                 its acked bytes (the window doubles per RTT) until an ECN mark,
 *                 a NACK or a timeout.
 */
#ifndef DCN_DCTCP_CC_H
#define DCN_DCTCP_CC_H

#include "ns3/congestion-control.h"

namespace ns3
{

class DctcpCc : public CongestionControl
{
  public:
    enum Variant
    {
        MPRDMA, //!< REPS spec 2.3 rule (default)
        ALPHA   //!< DCTCP alpha EWMA
    };

    static TypeId GetTypeId();
    DctcpCc();
    ~DctcpCc() override;

    void Setup(const CcSetup& setup) override;
    void OnAck(const CcAckSample& s) override;
    void OnNack() override;
    void OnTimeout() override;
    uint64_t GetCwnd() const override;
    std::string Name() const override;
    std::string Validate() const override;

    double GetAlpha() const
    {
        return m_alpha;
    }

    uint64_t GetMaxCwnd() const
    {
        return static_cast<uint64_t>(m_maxCwnd);
    }

    bool InFastIncrease() const
    {
        return m_fast;
    }

    uint64_t GetQuickAdapts() const
    {
        return m_quickAdapts;
    }

  private:
    void Decrease(double bytes);
    /** QuickAdapt on a loss signal; true if it handled the decrease. */
    bool QuickAdaptOnLoss();
    void CountAcked(uint32_t bytes, Time now);

    double m_initBdp;
    double m_maxBdp;
    Variant m_variant;
    double m_g;
    double m_cwnd{0};
    double m_maxCwnd{0};
    double m_alpha{1.0};
    bool m_quickAdapt{false};
    bool m_fastIncrease{false};
    double m_fiRttFactor{1.25};
    // QuickAdapt: bytes acked in the current and the last base-RTT period
    Time m_periodStart{0};
    double m_periodBytes{0};
    double m_lastPeriodBytes{-1};
    Time m_qaHoldUntil{0};
    uint64_t m_quickAdapts{0};
    // FastIncrease: clean bytes in a row
    double m_cleanBytes{0};
    bool m_fast{false};
};

} // namespace ns3

#endif // DCN_DCTCP_CC_H
