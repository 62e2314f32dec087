/*
 * DRILL switch-local per-packet choice.  Ghorbani et al., "DRILL: Micro Load
 * Balancing for Low-latency Data Center Networks", SIGCOMM'17, Sec. 3.1:
 * for every packet, sample d random candidate ports, add the m ports kept in
 * memory (the least loaded ones of the previous decision), send to the one
 * with the shortest queue and remember it.  DRILL(d = 2, m = 1) is the
 * paper's recommended setting (Sec. 3.1, "power of two choices with memory").
 *
 * Choices: the d samples are distinct when d < number of candidates (drawn
 * without replacement, O(d^2)); ties go to the remembered port first (keeps
 * a flow's packets together), then to the earlier sample; a remembered index
 * outside the current candidate list is ignored.  The wrapper keeps one
 * DrillCore per (switch, candidate set), e.g. per destination group.
 */
#ifndef DCN_DRILL_CORE_H
#define DCN_DRILL_CORE_H

#include <cstdint>

namespace ns3
{
namespace lbcore
{

struct DrillConfig
{
    uint8_t d{2}; //!< SIGCOMM'17 Sec. 3.1: d = 2 random samples
    uint8_t m{1}; //!< SIGCOMM'17 Sec. 3.1: m = 1 remembered port
};

class DrillCore
{
  public:
    static constexpr uint8_t kMaxD = 8;
    static constexpr uint8_t kMaxM = 4;

    bool Configure(const DrillConfig& cfg)
    {
        m_cfg = cfg;
        bool ok = true;
        if (m_cfg.d < 1 || m_cfg.d > kMaxD)
        {
            m_cfg.d = m_cfg.d < 1 ? 1 : kMaxD;
            ok = false;
        }
        if (m_cfg.m > kMaxM)
        {
            m_cfg.m = kMaxM;
            ok = false;
        }
        m_memCount = 0;
        return ok;
    }

    /**
     * \param n number of candidate ports (>= 1)
     * \param qlen callable: queue occupancy (bytes or packets) of candidate i
     * \param draw callable: uniform integer in [0, k)
     * \return the chosen candidate index
     */
    template <class QueueLen, class Draw>
    uint16_t Choose(uint16_t n, QueueLen&& qlen, Draw&& draw)
    {
        if (n <= 1)
        {
            return 0;
        }
        uint16_t cand[kMaxD + kMaxM];
        uint64_t load[kMaxD + kMaxM];
        uint8_t k = 0;
        for (uint8_t j = 0; j < m_memCount; ++j) // remembered first: they win ties
        {
            if (m_mem[j] < n)
            {
                cand[k] = m_mem[j];
                load[k] = qlen(m_mem[j]);
                ++k;
            }
        }
        const uint8_t d = m_cfg.d < n ? m_cfg.d : static_cast<uint8_t>(n);
        uint16_t sampled[kMaxD];
        for (uint8_t i = 0; i < d; ++i)
        {
            // i-th distinct sample: uniform over the n - i ports not yet sampled
            uint16_t s = static_cast<uint16_t>(draw(static_cast<uint32_t>(n - i)));
            // map to the s-th unsampled port (sampled[] kept sorted)
            uint8_t pos = 0;
            while (pos < i && sampled[pos] <= s)
            {
                ++s;
                ++pos;
            }
            for (uint8_t q = i; q > pos; --q)
            {
                sampled[q] = sampled[q - 1];
            }
            sampled[pos] = s;
            cand[k] = s;
            load[k] = qlen(s);
            ++k;
        }
        // pick the least loaded; keep the m least loaded distinct ports as memory
        uint8_t best = 0;
        for (uint8_t i = 1; i < k; ++i)
        {
            if (load[i] < load[best])
            {
                best = i;
            }
        }
        const uint16_t chosen = cand[best];
        UpdateMemory(cand, load, k);
        return chosen;
    }

    uint8_t GetMemoryCount() const
    {
        return m_memCount;
    }

    uint16_t GetMemory(uint8_t j) const
    {
        return m_mem[j];
    }

  private:
    void UpdateMemory(const uint16_t* cand, const uint64_t* load, uint8_t k)
    {
        m_memCount = 0;
        bool used[kMaxD + kMaxM] = {};
        while (m_memCount < m_cfg.m)
        {
            int best = -1;
            for (uint8_t i = 0; i < k; ++i)
            {
                if (used[i])
                {
                    continue;
                }
                bool dup = false;
                for (uint8_t j = 0; j < m_memCount; ++j)
                {
                    dup = dup || m_mem[j] == cand[i];
                }
                if (dup)
                {
                    used[i] = true;
                    continue;
                }
                if (best < 0 || load[i] < load[best])
                {
                    best = i;
                }
            }
            if (best < 0)
            {
                break;
            }
            used[best] = true;
            m_mem[m_memCount++] = cand[best];
        }
    }

    DrillConfig m_cfg;
    uint16_t m_mem[kMaxM]{};
    uint8_t m_memCount{0};
};

} // namespace lbcore
} // namespace ns3

#endif // DCN_DRILL_CORE_H
