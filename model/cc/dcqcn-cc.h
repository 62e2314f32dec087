/*
 * DCQCN reaction point as a rate-based congestion control (Zhu et al.,
 * "Congestion Control for Large-Scale RDMA Deployments", SIGCOMM'15, Sec. 3),
 * the ns-3 wrapper of cccore::DcqcnRp (model/cc/core/dcqcn-core.h).
 *
 * Short name "dcqcn" (CongestionControlRegistry).  No window: GetRate() is the
 * current rate Rc and the connection paces its packets at it.  The CC owns the
 * DCQCN timers: the rate-increase timer T is an ns-3 event started by the
 * first rate cut, restarted by every cut and stopped when the rate is back at
 * the line rate (it calls CcSetup::wakeup when the rate grew); the alpha timer
 * K has no rate effect and is applied lazily (alpha decays (1-g) for every
 * full K since the latest cut, counted when alpha is next read), which is
 * exactly equivalent and needs no events.  The byte counter B counts the
 * payload bytes given to OnSend.  ACKs, NACKs and timeouts do not change the
 * rate (RoCE NICs react to CNPs only).
 *
 * The notification point (CNP at most once per CnpInterval per flow when CE
 * is seen) is DcnTransport's (attributes Cnp, CnpInterval); the congestion
 * point is the queue disc's ECN marking.
 */
#ifndef DCN_DCQCN_CC_H
#define DCN_DCQCN_CC_H

#include "ns3/congestion-control.h"
#include "ns3/dcqcn-core.h"
#include "ns3/event-id.h"
#include "ns3/traced-callback.h"

namespace ns3
{

class DcqcnCc : public CongestionControl
{
  public:
    /** Parameter set. */
    enum Preset
    {
        PAPER,       //!< the attributes below (defaults: SIGCOMM'15 values)
        LAPS_AUTHORS //!< the LAPS authors' settings (spec laps.md 3 [A]); attributes ignored
    };

    static TypeId GetTypeId();
    DcqcnCc();
    ~DcqcnCc() override;

    void Setup(const CcSetup& setup) override;
    void OnAck(const CcAckSample& s) override;
    void OnNack() override;
    void OnTimeout() override;
    void OnSend(const CcSendSample& s) override;
    void OnCnp(Time now) override;
    DataRate GetRate() const override;
    uint64_t GetCwnd() const override;
    std::string Name() const override;
    std::string Validate() const override;

    /** Current rate Rc in bit/s. */
    double GetRateBps() const
    {
        return m_rp.GetRate();
    }

    /** Target rate Rt in bit/s. */
    double GetTargetRateBps() const
    {
        return m_rp.GetTargetRate();
    }

    /** alpha now (alpha-timer decays since the latest cut applied). */
    double GetAlpha() const;

    /** Rate cuts so far (CNPs that were not ignored by the rate-decrease interval). */
    uint64_t GetCuts() const
    {
        return m_rp.GetCutCount();
    }

    /** The configuration in use (after Setup). */
    const cccore::DcqcnConfig& GetConfig() const
    {
        return m_rp.GetConfig();
    }

    typedef void (*RateTracedCallback)(double oldBps, double newBps);

  protected:
    void DoDispose() override;

  private:
    void RateTimer();
    /** Number of alpha-timer expiries since the latest cut that are not yet applied. */
    uint64_t PendingAlphaTicks(int64_t nowNs) const;
    void ApplyAlpha(int64_t nowNs);
    void NotifyRate(double oldBps);

    Preset m_preset;
    double m_g;
    DataRate m_rateAi;
    DataRate m_rateHai;
    DataRate m_minRate;
    uint32_t m_fastRecovery;
    Time m_alphaTimer;
    Time m_rateTimer;
    uint64_t m_byteCounter;
    Time m_rateDecreaseInterval;
    uint64_t m_window{0};    //!< send window in bytes (0 = none)
    bool m_nackIsCnp{false}; //!< a go-back-N NACK cuts as a CNP ([A])

    cccore::DcqcnRp m_rp;
    EventId m_rateEvent;
    int64_t m_lastCutNs{-1};    //!< time of the latest cut (-1: none yet, alpha timer off)
    uint64_t m_alphaApplied{0}; //!< alpha-timer expiries since the latest cut already applied
    bool m_cnpInPeriod{false};  //!< mlxIncrease: a CNP came in the open alpha-timer period
    TracedCallback<double, double> m_rateTrace;
};

} // namespace ns3

#endif // DCN_DCQCN_CC_H
