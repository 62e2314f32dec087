/*
 * HPCC as a window + pacing congestion control (Li et al., "HPCC: High
 * Precision Congestion Control", SIGCOMM'19, Sec. 3, Algorithm 1), the ns-3
 * wrapper of cccore::HpccCore (model/cc/core/hpcc-core.h).  Short name "hpcc"
 * (CongestionControlRegistry).  doc/int-hpcc.rst.
 *
 * HPCC needs INT: WantsInt() is true, so every data packet of the connection
 * reserves DcnTransport::IntMaxHops INT records (DcnHeader EXT_INT) that the
 * switch egresses fill (DcnQueueDisc, dcn-int-stamper.h); the receiver echoes
 * them in the ACK and OnAck() hands them to the core:
 *   per hop u' = min(qlen, qlen_prev) / (B T) + txRate / B,  U = EWMA(max u'),
 *   W = Wc / (U / eta) + W_AI  (U >= eta or incStage >= maxStage), else Wc + W_AI,
 *   Wc updated once per RTT (first ACK beyond the PSN sent at the last update).
 * The window limits the bytes in flight (GetCwnd) and the transport paces at
 * R = W / T (GetRate), both as in the paper.  T is the connection's base RTT
 * (CcSetup::baseRtt, from the topology: DcnTopology::GetBaseRtt), unless
 * BaseRtt is set; B_NIC is CcSetup::lineRate; W_init = B_NIC x T.
 * ACKs without INT records (none stamped) leave the window unchanged; NACKs
 * and timeouts too (the paper's HPCC reacts to INT only; our choice).
 * Works with both transport modes (the ACK's PSN is the sequence of Alg. 1).
 */
#ifndef DCN_HPCC_CC_H
#define DCN_HPCC_CC_H

#include "ns3/congestion-control.h"
#include "ns3/hpcc-core.h"
#include "ns3/traced-callback.h"

namespace ns3
{

class HpccCc : public CongestionControl
{
  public:
    static TypeId GetTypeId();
    HpccCc();
    ~HpccCc() override;

    void Setup(const CcSetup& setup) override;
    void OnAck(const CcAckSample& s) override;
    void OnNack() override;
    void OnTimeout() override;
    bool WantsInt() const override;
    uint64_t GetCwnd() const override;
    DataRate GetRate() const override;
    std::string Name() const override;
    std::string Validate() const override;

    /** Current window W in bytes. */
    double GetWindow() const
    {
        return m_core.GetWindow();
    }

    /** Normalised inflight bytes U (EWMA). */
    double GetU() const
    {
        return m_core.GetU();
    }

    /** Additive increase W_AI in bytes. */
    double GetWai() const
    {
        return m_core.GetWai();
    }

    /** ACKs that carried INT records. */
    uint64_t GetNIntAcks() const
    {
        return m_nIntAcks;
    }

    /** Signature of the "Window" trace: old and new window in bytes. */
    typedef void (*WindowTracedCallback)(double oldBytes, double newBytes);

  private:
    double m_eta;
    uint32_t m_maxStage;
    uint32_t m_expectedFlows;
    double m_waiBytes;
    Time m_baseRttOverride;
    uint32_t m_minWindowBytes;

    cccore::HpccCore<8> m_core;
    double m_tSec{1e-5};
    uint64_t m_nIntAcks{0};
    TracedCallback<double, double> m_windowTrace;
};

} // namespace ns3

#endif // DCN_HPCC_CC_H
