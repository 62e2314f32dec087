/*
 * Flicr (w), a.k.a. Flier (Kabbani & Sharif, INFOCOM'17), as the Spritz paper
 * ran it (spec spritz.md 4.2): a coarse-grained sender-based scheme that keeps
 * ONE weighted-random path per flow and moves it on congestion feedback: a
 * high ECN fraction over an RTT, a NACK or a timeout.  The paper gives no
 * parameters ([A]); our choices, documented in doc/baselines.rst:
 *   - ECN threshold 0.5 per RTT round (the PLB value), fraction >= threshold;
 *   - a repath draws among the OTHER paths (weights renormalised), so a
 *     congestion signal always moves the flow when there is another path;
 *   - optional flowlet (gap > flowletTimeoutNs) and flowcell (bytes) boundaries
 *     at which a fresh weighted-random path is drawn; both off by default.
 * Weights: the Spritz path weights ("(w)", e.g. Eq. 1 of spritz.md 2.7),
 * supplied by the wrapper; equal by default.
 */
#ifndef DCN_FLICR_CORE_H
#define DCN_FLICR_CORE_H

#include "lb-core-common.h"

namespace ns3
{
namespace lbcore
{

struct FlicrConfig
{
    uint16_t numPaths{1};
    double ecnThreshold{0.5};    //!< our choice (paper silent): PLB's 0.5
    bool repathOnNack{true};     //!< spritz.md 4.2
    bool repathOnTimeout{true};  //!< spritz.md 4.2
    int64_t flowletTimeoutNs{0}; //!< 0 = off (our choice)
    uint64_t flowcellBytes{0};   //!< 0 = off (our choice)
};

enum class FlicrEvent : uint8_t
{
    NONE,
    ECN_ROUND,
    NACK,
    TIMEOUT,
    FLOWLET,
    FLOWCELL,
};

class FlicrCore
{
  public:
    /** \param u0 uniform in [0, 1): initial weighted-random path. */
    bool Configure(const FlicrConfig& cfg, const double* weights, double u0)
    {
        m_cfg = cfg;
        bool ok = true;
        if (m_cfg.numPaths < 1 || m_cfg.numPaths > kMaxPaths)
        {
            m_cfg.numPaths = m_cfg.numPaths < 1 ? 1 : kMaxPaths;
            ok = false;
        }
        for (uint16_t i = 0; i < kMaxPaths; ++i)
        {
            const double w = weights ? weights[i < m_cfg.numPaths ? i : 0] : 1.0;
            m_w[i] = i < m_cfg.numPaths ? (w >= 0 ? w : 0) : 0;
            ok = ok && (weights == nullptr || i >= m_cfg.numPaths || weights[i] >= 0);
        }
        m_path = WeightedPick(m_w, m_cfg.numPaths, u0);
        m_flowlet.Reset();
        m_cellBytes = 0;
        m_acked = 0;
        m_marked = 0;
        m_roundStart = -1;
        m_repaths = 0;
        m_last = FlicrEvent::NONE;
        return ok;
    }

    /**
     * Path of a packet of `bytes` sent at nowNs.
     * \param u uniform in [0,1), used only when a flowlet/flowcell boundary
     *        draws a new path.
     */
    uint16_t OnSend(int64_t nowNs, uint32_t bytes, double u)
    {
        const bool newFlowlet = m_flowlet.OnPacket(nowNs, m_cfg.flowletTimeoutNs);
        if (m_cfg.flowletTimeoutNs > 0 && newFlowlet && m_sent > 0)
        {
            m_path = WeightedPick(m_w, m_cfg.numPaths, u);
            m_last = FlicrEvent::FLOWLET;
            m_cellBytes = 0;
        }
        else if (m_cfg.flowcellBytes > 0 && m_cellBytes + bytes > m_cfg.flowcellBytes &&
                 m_cellBytes > 0)
        {
            m_path = WeightedPick(m_w, m_cfg.numPaths, u);
            m_last = FlicrEvent::FLOWCELL;
            m_cellBytes = 0;
        }
        m_cellBytes += bytes;
        ++m_sent;
        return m_path;
    }

    /**
     * ACK (ECN-echo or not) at nowNs; rounds last rttNs.  At the end of a
     * round whose ECN fraction >= threshold the path moves.
     * \return true if the path changed
     */
    bool OnAck(bool ecn, int64_t nowNs, int64_t rttNs, double u)
    {
        if (m_roundStart < 0)
        {
            m_roundStart = nowNs;
        }
        ++m_acked;
        m_marked += ecn ? 1 : 0;
        if (nowNs - m_roundStart < rttNs)
        {
            return false;
        }
        const bool high = static_cast<double>(m_marked) >= m_cfg.ecnThreshold * m_acked;
        m_acked = 0;
        m_marked = 0;
        m_roundStart = nowNs;
        return high && Repath(u, FlicrEvent::ECN_ROUND);
    }

    bool OnNack(double u)
    {
        return m_cfg.repathOnNack && Repath(u, FlicrEvent::NACK);
    }

    bool OnTimeout(double u)
    {
        return m_cfg.repathOnTimeout && Repath(u, FlicrEvent::TIMEOUT);
    }

    void SetWeight(uint16_t path, double w)
    {
        if (path < m_cfg.numPaths && w >= 0)
        {
            m_w[path] = w;
        }
    }

    uint16_t GetPath() const
    {
        return m_path;
    }

    uint64_t GetRepaths() const
    {
        return m_repaths;
    }

    FlicrEvent GetLastEvent() const
    {
        return m_last;
    }

  private:
    bool Repath(double u, FlicrEvent why)
    {
        if (m_cfg.numPaths < 2)
        {
            return false;
        }
        bool other = false; // a path of positive weight besides the current one
        for (uint16_t i = 0; i < m_cfg.numPaths; ++i)
        {
            other = other || (i != m_path && m_w[i] > 0);
        }
        if (!other)
        {
            return false; // never onto a path of weight 0 (disabled)
        }
        m_path = WeightedPick(m_w, m_cfg.numPaths, u, m_path);
        m_last = why;
        m_cellBytes = 0;
        m_acked = 0; // the new path starts its own ECN round
        m_marked = 0;
        m_roundStart = -1;
        ++m_repaths;
        return true;
    }

    FlicrConfig m_cfg;
    double m_w[kMaxPaths]{};
    FlowletClock m_flowlet;
    uint64_t m_cellBytes{0};
    uint64_t m_sent{0};
    uint64_t m_repaths{0};
    int64_t m_roundStart{-1};
    uint32_t m_acked{0};
    uint32_t m_marked{0};
    uint16_t m_path{0};
    FlicrEvent m_last{FlicrEvent::NONE};
};

} // namespace lbcore
} // namespace ns3

#endif // DCN_FLICR_CORE_H
