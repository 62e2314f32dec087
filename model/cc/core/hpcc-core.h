/*
 * HPCC sender window computation from INT, ns-3-free.  Li et al., "HPCC:
 * High Precision Congestion Control", SIGCOMM'19, Sec. 3.2-3.3, Algorithm 1:
 *   per ACK, for every hop i with the previous record L[i]:
 *     txRate = (ack.L[i].txBytes - L[i].txBytes) / (ack.L[i].ts - L[i].ts)
 *     u'     = min(ack.L[i].qlen, L[i].qlen) / (B_i T) + txRate / B_i
 *   u = max_i u' (tau = the time span of that hop, capped at T);
 *   U = (1 - tau/T) U + (tau/T) u                      (EWMA over one RTT)
 *   ComputeWind(U, updateWc):
 *     if U >= eta or incStage >= maxStage: W = Wc / (U / eta) + W_AI;
 *                                          if updateWc: incStage = 0, Wc = W
 *     else:                                W = Wc + W_AI;
 *                                          if updateWc: incStage++, Wc = W
 *   Wc is updated once per RTT (first ACK beyond lastUpdateSeq, which then
 *   becomes snd_nxt); other ACKs compute W from the same Wc.
 *   Rate R = W / T.
 * Paper values: eta = 0.95, maxStage = 5, W_init = B_NIC x T, and
 * W_AI = W_init (1 - eta) / N for N expected concurrent flows (Sec. 3.3).
 * Our choices: N = 100 by default (waiBytes may be set directly), W clamped
 * to [minWindowBytes, W_init], the first ACK (no previous record) only
 * stores the records, a change of hop count restarts the records, and a hop
 * whose egress port (hopId) differs from the stored one is skipped for that
 * ACK (per-packet multipath: txBytes of two ports cannot be subtracted).
 */
#ifndef DCN_HPCC_CORE_H
#define DCN_HPCC_CORE_H

#include <cstdint>

namespace ns3
{
namespace cccore
{

/** One INT record as stamped by a switch egress (spec laps.md 1.4 / issue 12). */
struct IntHop
{
    uint64_t txBytes{0};   //!< cumulative bytes transmitted by the egress port
    int64_t tsNs{0};       //!< egress timestamp
    uint32_t qlenBytes{0}; //!< egress queue length
    double rateBps{0};     //!< link rate B_i
    uint32_t hopId{0};     //!< egress port identity (switch << 16 | port); 0 = unknown
};

struct HpccConfig
{
    double eta{0.95};            //!< SIGCOMM'19: eta = 95%
    uint32_t maxStage{5};        //!< SIGCOMM'19: maxStage = 5
    double lineRateBps{100e9};   //!< NIC rate (W_init = rate x T)
    int64_t baseRttNs{10'000};   //!< T, the base RTT
    uint32_t expectedFlows{100}; //!< N in W_AI = W_init (1 - eta) / N (our default)
    double waiBytes{0};          //!< > 0 overrides the formula
    double minWindowBytes{1000}; //!< our choice: one packet
};

template <uint8_t MaxHops = 8>
class HpccCore
{
  public:
    bool Configure(const HpccConfig& cfg)
    {
        m_cfg = cfg;
        bool ok = true;
        if (!(m_cfg.eta > 0 && m_cfg.eta <= 1))
        {
            m_cfg.eta = 0.95;
            ok = false;
        }
        if (m_cfg.baseRttNs <= 0 || !(m_cfg.lineRateBps > 0) || m_cfg.expectedFlows == 0)
        {
            m_cfg.baseRttNs = m_cfg.baseRttNs > 0 ? m_cfg.baseRttNs : 10'000;
            m_cfg.lineRateBps = m_cfg.lineRateBps > 0 ? m_cfg.lineRateBps : 100e9;
            m_cfg.expectedFlows = m_cfg.expectedFlows ? m_cfg.expectedFlows : 100;
            ok = false;
        }
        m_tSec = static_cast<double>(m_cfg.baseRttNs) * 1e-9;
        m_winit = m_cfg.lineRateBps / 8.0 * m_tSec;
        m_wai =
            m_cfg.waiBytes > 0 ? m_cfg.waiBytes : m_winit * (1 - m_cfg.eta) / m_cfg.expectedFlows;
        m_w = m_winit;
        m_wc = m_winit;
        m_u = 0;
        m_incStage = 0;
        m_lastUpdateSeq = 0;
        m_nHops = 0;
        return ok;
    }

    /**
     * One ACK with the INT records of its data packet's path.
     * \param ackSeq sequence the ACK covers; \param sndNxt next sequence to send
     * \return the new window in bytes
     */
    double OnAck(uint64_t ackSeq, uint64_t sndNxt, const IntHop* hops, uint8_t nHops)
    {
        if (nHops > MaxHops)
        {
            nHops = MaxHops;
        }
        if (nHops == 0 || nHops != m_nHops)
        {
            Store(hops, nHops);
            return m_w; // nothing to compare with yet
        }
        const double u = MeasureInflight(hops, nHops);
        const bool updateWc = ackSeq > m_lastUpdateSeq;
        m_w = ComputeWind(u, updateWc);
        if (updateWc)
        {
            m_lastUpdateSeq = sndNxt;
        }
        Store(hops, nHops);
        return m_w;
    }

    double GetWindow() const
    {
        return m_w;
    }

    double GetWc() const
    {
        return m_wc;
    }

    double GetU() const
    {
        return m_u;
    }

    uint32_t GetIncStage() const
    {
        return m_incStage;
    }

    double GetWai() const
    {
        return m_wai;
    }

    double GetWinit() const
    {
        return m_winit;
    }

    /** Pacing rate W / T in bit/s. */
    double GetRateBps() const
    {
        return m_w * 8.0 / m_tSec;
    }

  private:
    double MeasureInflight(const IntHop* hops, uint8_t n)
    {
        double u = 0;
        double tau = m_tSec;
        bool any = false;
        for (uint8_t i = 0; i < n; ++i)
        {
            const IntHop& a = hops[i];
            const IntHop& l = m_last[i];
            const int64_t dt = a.tsNs - l.tsNs;
            if (dt <= 0 || a.rateBps <= 0 || a.hopId != l.hopId)
            {
                continue; // no interval, or another egress port than last time (multipath)
            }
            const double dtSec = static_cast<double>(dt) * 1e-9;
            const double bBytes = a.rateBps / 8.0;
            const double txRate = static_cast<double>(a.txBytes - l.txBytes) / dtSec;
            const double q = a.qlenBytes < l.qlenBytes ? a.qlenBytes : l.qlenBytes;
            const double up = q / (bBytes * m_tSec) + txRate / bBytes;
            if (!any || up > u)
            {
                u = up;
                tau = dtSec;
                any = true;
            }
        }
        if (!any)
        {
            return m_u;
        }
        if (tau > m_tSec)
        {
            tau = m_tSec;
        }
        m_u = (1 - tau / m_tSec) * m_u + (tau / m_tSec) * u;
        return m_u;
    }

    double ComputeWind(double u, bool updateWc)
    {
        double w;
        if (u >= m_cfg.eta || m_incStage >= m_cfg.maxStage)
        {
            const double ratio = u > 1e-12 ? u / m_cfg.eta : 1e-12; // U ~ 0: clamp to W_init
            w = m_wc / ratio + m_wai;
            if (updateWc)
            {
                m_incStage = 0;
                m_wc = Clamp(w);
            }
        }
        else
        {
            w = m_wc + m_wai;
            if (updateWc)
            {
                ++m_incStage;
                m_wc = Clamp(w);
            }
        }
        return Clamp(w);
    }

    double Clamp(double w) const
    {
        if (w > m_winit)
        {
            return m_winit;
        }
        return w < m_cfg.minWindowBytes ? m_cfg.minWindowBytes : w;
    }

    void Store(const IntHop* hops, uint8_t n)
    {
        for (uint8_t i = 0; i < n; ++i)
        {
            m_last[i] = hops[i];
        }
        m_nHops = n;
    }

    HpccConfig m_cfg;
    IntHop m_last[MaxHops];
    double m_tSec{1e-5};
    double m_winit{0};
    double m_wai{0};
    double m_w{0};
    double m_wc{0};
    double m_u{0};
    uint64_t m_lastUpdateSeq{0};
    uint32_t m_incStage{0};
    uint8_t m_nHops{0};
};

} // namespace cccore
} // namespace ns3

#endif // DCN_HPCC_CORE_H
