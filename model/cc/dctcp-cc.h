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

  private:
    void Decrease(double bytes);

    double m_initBdp;
    double m_maxBdp;
    Variant m_variant;
    double m_g;
    double m_cwnd{0};
    double m_maxCwnd{0};
    double m_alpha{1.0};
};

} // namespace ns3

#endif // DCN_DCTCP_CC_H
