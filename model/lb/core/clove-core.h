/*
 * CLOVE-ECN sender edge (hypervisor vSwitch).  Katta et al., "Clove:
 * Congestion-Aware Load Balancing at the Virtual Edge", CoNEXT'17, Sec. 3.2:
 * flowlets are detected at the edge; each new flowlet takes the next path by
 * weighted round robin over the path weights; when ECN is relayed back for a
 * path, that path's weight is cut by a third and the removed weight is
 * spread equally over the other paths.  Flowlet timeout: Hermes (SIGCOMM'17
 * Sec. 5) simulated CLOVE-ECN at 150 us (its testbed used 800 us).
 *
 * Choices where the description is short (doc/baselines.rst): a per-path
 * minimum interval between two cuts (default 0 = every relayed ECN cuts; the
 * wrapper may set one RTT so one congestion episode counts once), an optional
 * reset of the weights to equal after a quiet period (default off), and a
 * weight floor so a path is never starved for good.
 */
#ifndef DCN_CLOVE_CORE_H
#define DCN_CLOVE_CORE_H

#include "lb-core-common.h"

namespace ns3
{
namespace lbcore
{

struct CloveConfig
{
    uint16_t numPaths{1};              //!< 1..kMaxPaths
    int64_t flowletTimeoutNs{150'000}; //!< Hermes Sec. 5 (150 us); CLOVE testbed: 800 us
    double ecnCutFraction{1.0 / 3.0};  //!< CoNEXT'17 Sec. 3.2: cut by a third
    int64_t minCutIntervalNs{0};       //!< our choice: 0 = no rate limit per path
    int64_t weightResetNs{0};          //!< our choice: 0 = never reset to equal weights
    double minWeightShare{0.01};       //!< our choice: floor = share / numPaths
};

class CloveCore
{
  public:
    bool Configure(const CloveConfig& cfg)
    {
        m_cfg = cfg;
        bool ok = true;
        if (m_cfg.numPaths < 1 || m_cfg.numPaths > kMaxPaths)
        {
            m_cfg.numPaths = m_cfg.numPaths < 1 ? 1 : kMaxPaths;
            ok = false;
        }
        if (!(m_cfg.ecnCutFraction > 0 && m_cfg.ecnCutFraction < 1))
        {
            m_cfg.ecnCutFraction = 1.0 / 3.0;
            ok = false;
        }
        if (m_cfg.flowletTimeoutNs < 0 || m_cfg.minCutIntervalNs < 0 || m_cfg.weightResetNs < 0)
        {
            ok = false;
        }
        ResetWeights();
        m_wrr.Reset(m_cfg.numPaths);
        m_flowlet.Reset();
        m_path = 0;
        m_lastEcn = 0;
        return ok;
    }

    void ResetWeights()
    {
        for (uint16_t i = 0; i < kMaxPaths; ++i)
        {
            m_w[i] = i < m_cfg.numPaths ? 1.0 / m_cfg.numPaths : 0;
            m_lastCut[i] = -1;
        }
    }

    /** Path of a packet sent at nowNs: unchanged within a flowlet, next WRR
     *  pick on a new flowlet. O(1) within a flowlet, O(paths) per flowlet. */
    uint16_t OnSend(int64_t nowNs)
    {
        if (m_flowlet.OnPacket(nowNs, m_cfg.flowletTimeoutNs))
        {
            m_path = NextPath(nowNs);
        }
        return m_path;
    }

    /** The path of a new flowlet (next weighted round-robin pick) at nowNs; the
     *  caller keeps its own flowlet clock when several flows share these weights
     *  (CLOVE keeps them per destination). O(paths). */
    uint16_t NextPath(int64_t nowNs)
    {
        if (m_cfg.weightResetNs > 0 && nowNs - m_lastEcn > m_cfg.weightResetNs)
        {
            ResetWeights();
        }
        ++m_flowlets;
        return m_wrr.Next(m_w);
    }

    const CloveConfig& GetConfig() const
    {
        return m_cfg;
    }

    /** ECN relayed for `path`: lower its weight.  \return true if a cut happened. */
    bool OnEcn(uint16_t path, int64_t nowNs)
    {
        if (path >= m_cfg.numPaths || m_cfg.numPaths == 1)
        {
            return false;
        }
        m_lastEcn = nowNs; // ECN was seen, whether or not it cuts (weight reset clock)
        if (m_lastCut[path] >= 0 && nowNs - m_lastCut[path] < m_cfg.minCutIntervalNs)
        {
            return false;
        }
        const double floor = m_cfg.minWeightShare / m_cfg.numPaths;
        double cut = m_w[path] * m_cfg.ecnCutFraction;
        if (m_w[path] - cut < floor)
        {
            cut = m_w[path] > floor ? m_w[path] - floor : 0;
        }
        if (cut <= 0)
        {
            return false;
        }
        m_w[path] -= cut;
        const double share = cut / (m_cfg.numPaths - 1);
        for (uint16_t i = 0; i < m_cfg.numPaths; ++i)
        {
            if (i != path)
            {
                m_w[i] += share;
            }
        }
        m_lastCut[path] = nowNs;
        return true;
    }

    double GetWeight(uint16_t path) const
    {
        return path < kMaxPaths ? m_w[path] : 0;
    }

    uint16_t GetCurrentPath() const
    {
        return m_path;
    }

    uint64_t GetFlowletCount() const
    {
        return m_flowlets;
    }

  private:
    CloveConfig m_cfg;
    double m_w[kMaxPaths]{};
    int64_t m_lastCut[kMaxPaths]{};
    SmoothWrr m_wrr;
    FlowletClock m_flowlet;
    int64_t m_lastEcn{0};
    uint64_t m_flowlets{0};
    uint16_t m_path{0};
};

} // namespace lbcore
} // namespace ns3

#endif // DCN_CLOVE_CORE_H
