/*
 * DCQCN reaction point (RP) and notification point (NP), ns-3-free.
 * Zhu et al., "Congestion Control for Large-Scale RDMA Deployments",
 * SIGCOMM'15, Sec. 3 (algorithm) and its parameter list:
 *  NP: when CE-marked packets of a flow arrive, send at most one CNP per
 *      N = 50 us per flow.
 *  RP on a CNP: target Rt <- Rc; Rc <- Rc (1 - alpha/2);
 *      alpha <- (1 - g) alpha + g; timer and byte counter restart.
 *  RP, no CNP for K = 55 us: alpha <- (1 - g) alpha (alpha timer).
 *  RP increase events: the rate timer (T = 55 us) and the byte counter
 *      (every B = 10 MB sent) each count their events since the last cut
 *      (Tc, Bc, counting this one) and trigger an increase:
 *        max(Tc, Bc) <= F: fast recovery   Rc <- (Rt + Rc) / 2
 *                          (the paper's F successive fast-recovery steps)
 *        min(Tc, Bc) >  F: hyper increase  Rt <- Rt + i R_HAI, i = min - F;
 *                                          Rc <- (Rt + Rc) / 2
 *        otherwise       : additive        Rt <- Rt + R_AI; Rc <- (Rt + Rc)/2
 *      with F = 5, g = 1/256, R_AI = 40 Mb/s (the paper's 40G setting).
 * Not in the paper's list (our choices, doc/baselines.rst): R_HAI = 10 R_AI,
 * a minimum rate of 100 Mb/s (the LAPS authors' value), no spacing between
 * two cuts (rateDecreaseIntervalNs = 0).
 * LapsAuthors(): spec laps.md 3 [A]: rateAI 5 Mb/s, rateHAI 50 Mb/s,
 * g = 1/256, min rate 100 Mb/s, rate-decrease interval 4 us (a CNP within
 * 4 us of the previous cut is ignored), alpha-resume interval 1 us (alpha
 * timer K), rpTimer 300 us (rate timer T); and, as [A]'s HPCC-simulator
 * Dcqcn_mlx reaction point (CONFIG_DCQCN.txt: ccMode Dcqcn_mlx,
 * fastRecoveryTimes 1, ClampTargetRate false; rdma-hw.cc RateIncEventMlx /
 * CheckRateDecreaseMlx), mlxIncrease: no byte counter, the rate timer's stage
 * s = 0, 1, ... since the last cut gives fast recovery for s < F, one additive
 * step at s = F and hyper increase (Rt += R_HAI, once per stage) after, F = 1;
 * and clampTarget = false: a cut sets Rt <- Rc only if an increase event came
 * since the last cut (the first cut keeps Rt at the line rate).  [A]'s first
 * CNP sets alpha to 1: ours starts at 1 and does not decay before the first
 * cut (DcqcnCc), the same.  Alpha in mlxIncrease as [A]'s UpdateAlphaMlx: a CNP
 * leaves alpha alone and every alpha-timer period K (1 us) sets alpha <- (1 - g)
 * alpha + g if a CNP came in it, else (1 - g) alpha (DcqcnCc keeps the per-period
 * CNP flag; its periods restart at each cut, [A]'s run free from the first CNP).
 *
 * The core has no clock: the wrapper schedules the alpha timer (every K,
 * restarted when OnCnp returns true) and the rate timer (every T, restarted
 * likewise), reports bytes sent, and paces packets at GetRate().
 */
#ifndef DCN_DCQCN_CORE_H
#define DCN_DCQCN_CORE_H

#include <cstdint>

namespace ns3
{
namespace cccore
{

struct DcqcnConfig
{
    double lineRateBps{100e9};             //!< initial and maximum rate (the NIC's line rate)
    double minRateBps{100e6};              //!< our choice (LAPS [A] value); paper silent
    double g{1.0 / 256};                   //!< SIGCOMM'15: g = 1/256
    double rateAiBps{40e6};                //!< SIGCOMM'15: R_AI = 40 Mb/s
    double rateHaiBps{400e6};              //!< our choice: 10 R_AI (paper gives no number)
    uint32_t fastRecoverySteps{5};         //!< SIGCOMM'15: F = 5
    int64_t alphaTimerNs{55'000};          //!< SIGCOMM'15: K = 55 us
    int64_t rateTimerNs{55'000};           //!< SIGCOMM'15: T = 55 us
    uint64_t byteCounterBytes{10'000'000}; //!< SIGCOMM'15: B = 10 MB
    int64_t rateDecreaseIntervalNs{0};     //!< our choice: every CNP cuts
    double initialAlpha{1.0};              //!< SIGCOMM'15: alpha starts at 1
    bool mlxIncrease{false};               //!< [A]'s Dcqcn_mlx stages and alpha, no byte counter
    bool clampTarget{true};                //!< SIGCOMM'15: every cut sets Rt <- Rc

    /** The LAPS authors' settings (spec laps.md 3, [A]). */
    static DcqcnConfig LapsAuthors(double lineRateBps)
    {
        DcqcnConfig c;
        c.lineRateBps = lineRateBps;
        c.rateAiBps = 5e6;
        c.rateHaiBps = 50e6;
        c.g = 1.0 / 256;
        c.minRateBps = 100e6;
        c.rateDecreaseIntervalNs = 4'000;
        c.alphaTimerNs = 1'000;
        c.rateTimerNs = 300'000;
        // [A] CONFIG_DCQCN.txt: ccMode Dcqcn_mlx (timer-only stages, +R_HAI per hyper
        // stage), fastRecoveryTimes 1, ClampTargetRate false (review s44 L10)
        c.mlxIncrease = true;
        c.fastRecoverySteps = 1;
        c.clampTarget = false;
        return c;
    }
};

enum class DcqcnStage : uint8_t
{
    FAST_RECOVERY,
    ADDITIVE,
    HYPER,
};

class DcqcnRp
{
  public:
    /** \return false if a value is out of range (then replaced by the default). */
    bool Configure(const DcqcnConfig& cfg)
    {
        m_cfg = cfg;
        const DcqcnConfig d;
        bool ok = true;
        if (!(m_cfg.lineRateBps > 0))
        {
            m_cfg.lineRateBps = d.lineRateBps;
            ok = false;
        }
        if (!(m_cfg.minRateBps > 0 && m_cfg.minRateBps <= m_cfg.lineRateBps))
        {
            m_cfg.minRateBps = m_cfg.lineRateBps < d.minRateBps ? m_cfg.lineRateBps : d.minRateBps;
            ok = false;
        }
        if (!(m_cfg.g > 0 && m_cfg.g < 1))
        {
            m_cfg.g = d.g;
            ok = false;
        }
        if (!(m_cfg.initialAlpha >= 0 && m_cfg.initialAlpha <= 1))
        {
            m_cfg.initialAlpha = 1;
            ok = false;
        }
        if (m_cfg.byteCounterBytes == 0 || m_cfg.fastRecoverySteps == 0)
        {
            m_cfg.byteCounterBytes = d.byteCounterBytes;
            m_cfg.fastRecoverySteps = d.fastRecoverySteps;
            ok = false;
        }
        m_rc = m_cfg.lineRateBps;
        m_rt = m_cfg.lineRateBps;
        m_alpha = m_cfg.initialAlpha;
        m_timerCount = 0;
        m_byteCount = 0;
        m_bytes = 0;
        m_lastCut = 0;
        m_cut = false;
        m_cnps = 0;
        return ok;
    }

    /** A CNP arrived. \return true if the rate was cut (restart both timers). */
    bool OnCnp(int64_t nowNs)
    {
        if (m_cut && nowNs - m_lastCut < m_cfg.rateDecreaseIntervalNs)
        {
            return false;
        }
        if (m_cfg.clampTarget || m_timerCount > 0)
        {
            m_rt = m_rc; // [A] ClampTargetRate false: only after an increase event
        }
        m_rc = m_rc * (1 - m_alpha / 2);
        if (m_rc < m_cfg.minRateBps)
        {
            m_rc = m_cfg.minRateBps;
        }
        if (!m_cfg.mlxIncrease)
        {
            m_alpha = (1 - m_cfg.g) * m_alpha + m_cfg.g; // [A]: in the alpha timer instead
        }
        m_timerCount = 0;
        m_byteCount = 0;
        m_bytes = 0;
        m_lastCut = nowNs;
        m_cut = true;
        ++m_cnps;
        return true;
    }

    /** K elapsed without a CNP. */
    void OnAlphaTimer(bool cnpArrived = false)
    {
        m_alpha = (1 - m_cfg.g) * m_alpha + (cnpArrived ? m_cfg.g : 0.0);
    }

    /** The rate-increase timer T fired. */
    DcqcnStage OnRateTimer()
    {
        ++m_timerCount;
        return Increase();
    }

    /** Bytes sent; every B bytes is one byte-counter increase event.
     *  \return number of increase events triggered */
    uint32_t OnBytesSent(uint64_t bytes)
    {
        if (m_cfg.mlxIncrease)
        {
            return 0; // [A]'s Dcqcn_mlx has no byte counter
        }
        m_bytes += bytes;
        uint32_t events = 0;
        while (m_bytes >= m_cfg.byteCounterBytes)
        {
            m_bytes -= m_cfg.byteCounterBytes;
            ++m_byteCount;
            Increase();
            ++events;
        }
        return events;
    }

    double GetRate() const
    {
        return m_rc;
    }

    double GetTargetRate() const
    {
        return m_rt;
    }

    double GetAlpha() const
    {
        return m_alpha;
    }

    uint32_t GetTimerCount() const
    {
        return m_timerCount;
    }

    uint32_t GetByteCount() const
    {
        return m_byteCount;
    }

    uint64_t GetCutCount() const
    {
        return m_cnps;
    }

    /** Pacing gap for a packet of `bytes` at the current rate (ns). */
    int64_t TxTimeNs(uint32_t bytes) const
    {
        return static_cast<int64_t>(static_cast<double>(bytes) * 8e9 / m_rc + 0.5);
    }

    const DcqcnConfig& GetConfig() const
    {
        return m_cfg;
    }

  private:
    DcqcnStage Increase()
    {
        const uint32_t f = m_cfg.fastRecoverySteps;
        DcqcnStage s;
        if (m_cfg.mlxIncrease)
        {
            // [A] RateIncEventMlx: stage = m_timerCount - 1 events before this one
            const uint32_t stage = m_timerCount - 1;
            if (stage < f)
            {
                s = DcqcnStage::FAST_RECOVERY;
            }
            else if (stage == f)
            {
                m_rt += m_cfg.rateAiBps;
                s = DcqcnStage::ADDITIVE;
            }
            else
            {
                m_rt += m_cfg.rateHaiBps;
                s = DcqcnStage::HYPER;
            }
        }
        else
        {
            const uint32_t mx = m_timerCount > m_byteCount ? m_timerCount : m_byteCount;
            const uint32_t mn = m_timerCount < m_byteCount ? m_timerCount : m_byteCount;
            if (mx <= f)
            {
                s = DcqcnStage::FAST_RECOVERY;
            }
            else if (mn > f)
            {
                m_rt += (mn - f) * m_cfg.rateHaiBps;
                s = DcqcnStage::HYPER;
            }
            else
            {
                m_rt += m_cfg.rateAiBps;
                s = DcqcnStage::ADDITIVE;
            }
        }
        if (m_rt > m_cfg.lineRateBps)
        {
            m_rt = m_cfg.lineRateBps;
        }
        m_rc = (m_rt + m_rc) / 2;
        return s;
    }

    DcqcnConfig m_cfg;
    double m_rc{0};
    double m_rt{0};
    double m_alpha{1};
    uint64_t m_bytes{0};
    uint64_t m_cnps{0};
    int64_t m_lastCut{0};
    uint32_t m_timerCount{0};
    uint32_t m_byteCount{0};
    bool m_cut{false};
};

/** Notification point, one per flow: at most one CNP per interval (SIGCOMM'15: N = 50 us). */
class DcqcnNp
{
  public:
    explicit DcqcnNp(int64_t intervalNs = 50'000)
        : m_interval(intervalNs)
    {
    }

    /** A CE-marked packet of this flow arrived. \return true: send a CNP now. */
    bool OnCePacket(int64_t nowNs)
    {
        if (m_sent && nowNs - m_last < m_interval)
        {
            return false;
        }
        m_sent = true;
        m_last = nowNs;
        ++m_cnps;
        return true;
    }

    uint64_t GetCnpCount() const
    {
        return m_cnps;
    }

  private:
    int64_t m_interval;
    int64_t m_last{0};
    uint64_t m_cnps{0};
    bool m_sent{false};
};

} // namespace cccore
} // namespace ns3

#endif // DCN_DCQCN_CORE_H
