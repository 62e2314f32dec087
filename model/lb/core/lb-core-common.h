/*
 * Shared helpers of the ns-3-free load-balancer cores in model/lb/core/:
 * path-count limit, weighted choice from a supplied uniform value, smooth
 * weighted round robin and a flowlet gap detector.  Header-only, no
 * allocation, no ns-3 dependency.
 *
 * Randomness convention of every core in this folder: the caller passes
 * either a callable `draw(n)` returning a uniform integer in [0, n) or a
 * uniform double `u` in [0, 1).  The ns-3 wrappers (phase 2) back these with
 * RandomVariableStreams; the GoogleTest tests with fixed sequences.
 */
#ifndef DCN_LB_CORE_COMMON_H
#define DCN_LB_CORE_COMMON_H

#include <cstdint>

namespace ns3
{
namespace lbcore
{

/** Upper bound on the number of paths (EVs, uplinks) one core instance handles. */
constexpr uint16_t kMaxPaths = 64;

/**
 * Weighted random choice: the index i with cumulative weight interval
 * containing u * (total - w[exclude]).  O(n) in the number of paths; the
 * cores call it per flowlet / flowcell / repath, never per packet.
 * \param w weights (>= 0), n of them
 * \param u uniform in [0, 1)
 * \param exclude index to leave out (a repath that must move), or -1
 * \return chosen index, or 0 if every candidate weight is 0 (then the first
 *         index that is not excluded)
 */
inline uint16_t
WeightedPick(const double* w, uint16_t n, double u, int32_t exclude = -1)
{
    double total = 0;
    for (uint16_t i = 0; i < n; ++i)
    {
        if (static_cast<int32_t>(i) != exclude)
        {
            total += w[i];
        }
    }
    uint16_t last = 0;
    bool any = false;
    if (total > 0)
    {
        double x = u * total;
        for (uint16_t i = 0; i < n; ++i)
        {
            if (static_cast<int32_t>(i) == exclude || w[i] <= 0)
            {
                continue;
            }
            last = i;
            any = true;
            if (x < w[i])
            {
                return i;
            }
            x -= w[i];
        }
        if (any)
        {
            return last; // rounding at the top end
        }
    }
    for (uint16_t i = 0; i < n; ++i)
    {
        if (static_cast<int32_t>(i) != exclude)
        {
            return i;
        }
    }
    return 0;
}

/**
 * Smooth weighted round robin: over any window of sum(w) picks (integer
 * weights) index i is picked exactly w[i] times, interleaved as evenly as
 * possible.  Works with fractional weights too (long-run shares follow w).
 */
class SmoothWrr
{
  public:
    void Reset(uint16_t n)
    {
        m_n = n > kMaxPaths ? kMaxPaths : n;
        for (uint16_t i = 0; i < kMaxPaths; ++i)
        {
            m_cur[i] = 0;
        }
    }

    /** Next index given the current weights w[0..n). O(n). */
    uint16_t Next(const double* w)
    {
        double total = 0;
        uint16_t best = 0;
        bool found = false;
        for (uint16_t i = 0; i < m_n; ++i)
        {
            if (w[i] <= 0)
            {
                continue;
            }
            m_cur[i] += w[i];
            total += w[i];
            if (!found || m_cur[i] > m_cur[best])
            {
                best = i;
                found = true;
            }
        }
        if (found)
        {
            m_cur[best] -= total;
        }
        return best;
    }

    uint16_t Size() const
    {
        return m_n;
    }

  private:
    double m_cur[kMaxPaths]{};
    uint16_t m_n{0};
};

/** Flowlet detector: a packet starts a new flowlet if the gap since the
 *  previous packet of the flow is strictly larger than the timeout. */
class FlowletClock
{
  public:
    /** \return true if this packet (at nowNs) starts a new flowlet. */
    bool OnPacket(int64_t nowNs, int64_t timeoutNs)
    {
        const bool fresh = !m_seen || nowNs - m_last > timeoutNs;
        m_seen = true;
        m_last = nowNs;
        return fresh;
    }

    void Reset()
    {
        m_seen = false;
        m_last = 0;
    }

    int64_t LastSeen() const
    {
        return m_last;
    }

  private:
    int64_t m_last{0};
    bool m_seen{false};
};

} // namespace lbcore
} // namespace ns3

#endif // DCN_LB_CORE_COMMON_H
