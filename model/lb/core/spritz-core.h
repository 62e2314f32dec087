/*
 * Spritz-Scout and Spritz-Spray endpoint logic (spritz spec 3.1-3.5, paper
 * Algorithms 1-3), ns-3 free.  One object per connection; the caller owns the
 * EV list of the destination switch (index 0 = the shortest path, sorted by
 * latency, spec 2.6) and passes the initial weights (Eq. 1, spec 2.7).
 *
 *  - NextIndex (Algorithm 1): every explore_threshold + 1 sends one forced
 *    exploration gen(w) (the buffer is untouched); otherwise the buffer front
 *    (Scout reuses it, Spray pops it) or gen(w) if the buffer is empty.
 *    OPS mode: gen(w) for every packet; ECMP mode: one fixed index.
 *  - Scout feedback (Algorithm 2): a clean ACK inserts the path into the
 *    buffer kept sorted by latency (= index) without duplicates; ECN ACKs
 *    count per path and more than ecn_threshold remove it; a NACK removes it;
 *    a timeout removes it and blocks it (w = 0) for T_reset.
 *  - Spray feedback (Algorithm 3): a clean ACK appends the path (duplicates
 *    allowed) while the buffer has room; ECN and NACK leave the path state
 *    unchanged; a timeout blocks the path for T_reset.
 *  - Both: the ECN rate (marked fraction of the last `ecnWindow` ACKs, spec 3.5
 *    [A]) above 0.90 sets w[0] = min_bias_factor (default: the sum of the other
 *    weights, so P(minimal) ~ 0.5, spec 3.5 [A]); at or below it w[0] returns
 *    to its initial value.
 *  - gen(w) samples i with probability w_i / sum(w) by a binary search over
 *    cumulative weights (O(log n) per draw; the sums are rebuilt only when a
 *    weight changes).  If every weight is 0 all are restored (spec 3.1 [A]).
 * Randomness: the caller passes a uniform u in [0, 1) (lb-core-common.h
 * convention).  Time: the caller passes now in ns (blocked weights come back
 * lazily at the first call at or after their reset time).
 */
#ifndef DCN_SPRITZ_CORE_H
#define DCN_SPRITZ_CORE_H

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ns3
{
namespace lbcore
{

enum class SpritzMode : uint8_t
{
    SCOUT, //!< Spritz-Scout (Algorithms 1 + 2)
    SPRAY, //!< Spritz-Spray (Algorithms 1 + 3)
    OPS,   //!< per-packet gen(w), no feedback (OPS (u)/(w) on Spritz routing)
    ECMP,  //!< one fixed entry per connection (ECMP baseline, spec 4.2)
};

struct SpritzConfig
{
    SpritzMode mode{SpritzMode::SPRAY};
    uint32_t bufferCapacity{8};    //!< spec 3.5 [P]
    uint32_t exploreThreshold{44}; //!< spec 3.5 [P], strict '>'
    uint32_t ecnThreshold{8};      //!< spec 3.5 [P], Scout only
    double ecnRateTrigger{0.90};   //!< spec 3.5 [P]
    double minBiasFactor{-1};      //!< < 0: sum of the other initial weights (spec 3.5 [A])
    uint32_t ecnWindow{132};       //!< ACKs per ECN-rate estimate (spec 3.5 [A]: ~1 cwnd)
    int64_t resetNs{1000000};      //!< T_reset (spec 3.5 [A]: >= 1 ms)
};

class SpritzCore
{
  public:
    static constexpr uint32_t NONE = 0xffffffffU;

    /**
     * \param w initial weights (n of them, >= 0); \param fixed the ECMP-mode index
     * (taken modulo n).
     */
    void Configure(const SpritzConfig& cfg, const double* w, uint32_t n, uint32_t fixed = 0)
    {
        m_cfg = cfg;
        m_n = n == 0 ? 1 : n;
        m_init.assign(m_n, 1.0);
        for (uint32_t i = 0; i < n; ++i)
        {
            m_init[i] = w != nullptr && w[i] >= 0 ? w[i] : 0;
        }
        m_w = m_init;
        m_cum.assign(m_n, 0);
        m_restoreAt.assign(m_n, -1);
        m_ecn.assign(m_n, 0);
        m_buf.assign(std::max<uint32_t>(1, m_cfg.bufferCapacity), 0);
        m_head = 0;
        m_size = 0;
        m_count = 0;
        m_nextRestore = -1;
        m_dirty = true;
        m_fixed = fixed % m_n;
        m_biased = false;
        m_winAcks = 0;
        m_winMarks = 0;
        m_explorations = 0;
        m_blocks = 0;
        double others = 0;
        for (uint32_t i = 1; i < m_n; ++i)
        {
            others += m_init[i];
        }
        m_bias = m_cfg.minBiasFactor >= 0 ? m_cfg.minBiasFactor : others;
    }

    uint32_t NumPaths() const
    {
        return m_n;
    }

    /**
     * Algorithm 1: index of the next packet's path.  \param u uniform [0,1) used
     * when gen(w) is sampled; \param explored set true for a forced exploration.
     */
    uint32_t NextIndex(double u, int64_t nowNs, bool* explored = nullptr)
    {
        Restore(nowNs);
        if (explored)
        {
            *explored = false;
        }
        if (m_cfg.mode == SpritzMode::ECMP)
        {
            return m_fixed;
        }
        if (m_cfg.mode == SpritzMode::OPS)
        {
            return Gen(u);
        }
        if (m_count > m_cfg.exploreThreshold)
        {
            m_count = 0;
            ++m_explorations;
            if (explored)
            {
                *explored = true;
            }
            return Gen(u);
        }
        ++m_count;
        if (m_size == 0)
        {
            return Gen(u);
        }
        const uint32_t i = m_buf[m_head];
        if (m_cfg.mode == SpritzMode::SPRAY)
        {
            m_head = (m_head + 1) % Cap();
            --m_size;
        }
        return i;
    }

    /** gen(w): i with probability w_i / sum(w) (restores all weights if the sum is 0). */
    uint32_t Gen(double u)
    {
        if (m_dirty)
        {
            Rebuild();
        }
        double total = m_cum[m_n - 1];
        if (total <= 0)
        {
            m_w = m_init;
            std::fill(m_restoreAt.begin(), m_restoreAt.end(), -1);
            m_nextRestore = -1;
            Rebuild();
            total = m_cum[m_n - 1];
            if (total <= 0)
            {
                return 0;
            }
        }
        const double x = u * total;
        auto it = std::upper_bound(m_cum.begin(), m_cum.end(), x);
        uint32_t i = static_cast<uint32_t>(it - m_cum.begin());
        if (i >= m_n)
        {
            i = m_n - 1;
        }
        while (m_w[i] <= 0 && i > 0) // u * total landed on a zero-width edge
        {
            --i;
        }
        return i;
    }

    /** ACK for a packet sent on path i (ecn: the data packet was CE-marked). */
    void OnAck(uint32_t i, bool ecn, int64_t nowNs)
    {
        Restore(nowNs);
        EcnSample(ecn);
        if (i >= m_n)
        {
            return;
        }
        if (m_cfg.mode == SpritzMode::SCOUT)
        {
            if (!ecn)
            {
                if (m_size < Cap() && !Contains(i))
                {
                    InsertSorted(i);
                }
            }
            else if (++m_ecn[i] > m_cfg.ecnThreshold)
            {
                m_ecn[i] = 0;
                Remove(i);
            }
        }
        else if (m_cfg.mode == SpritzMode::SPRAY && !ecn && m_size < Cap())
        {
            m_buf[(m_head + m_size) % Cap()] = i;
            ++m_size;
        }
    }

    /** NACK (trimmed packet) for path i. */
    void OnNack(uint32_t i)
    {
        if (i < m_n && m_cfg.mode == SpritzMode::SCOUT)
        {
            m_ecn[i] = 0;
            Remove(i);
        }
    }

    /** Retransmission timeout of a packet sent on path i: block it for T_reset. */
    void OnTimeout(uint32_t i, int64_t nowNs)
    {
        if (i >= m_n || (m_cfg.mode != SpritzMode::SCOUT && m_cfg.mode != SpritzMode::SPRAY))
        {
            return;
        }
        if (m_cfg.mode == SpritzMode::SCOUT)
        {
            m_ecn[i] = 0;
            Remove(i);
        }
        if (m_restoreAt[i] < 0)
        {
            ++m_blocks;
        }
        m_w[i] = 0;
        m_dirty = true;
        m_restoreAt[i] = nowNs + m_cfg.resetNs;
        if (m_nextRestore < 0 || m_restoreAt[i] < m_nextRestore)
        {
            m_nextRestore = m_restoreAt[i];
        }
    }

    /** Apply an ECN-rate estimate directly (the bias rule of Algorithms 2/3). */
    void ApplyEcnRate(double rate)
    {
        if (m_cfg.mode != SpritzMode::SCOUT && m_cfg.mode != SpritzMode::SPRAY)
        {
            return;
        }
        const bool bias = rate > m_cfg.ecnRateTrigger;
        if (bias == m_biased)
        {
            return;
        }
        m_biased = bias;
        if (m_restoreAt[0] < 0) // a blocked minimal path stays blocked
        {
            m_w[0] = bias ? m_bias : m_init[0];
            m_dirty = true;
        }
    }

    // ---- inspection (tests, traces) ----
    double Weight(uint32_t i) const
    {
        return m_w[i];
    }

    double InitialWeight(uint32_t i) const
    {
        return m_init[i];
    }

    uint32_t BufferSize() const
    {
        return m_size;
    }

    /** k-th buffer entry from the front. */
    uint32_t BufferAt(uint32_t k) const
    {
        return m_buf[(m_head + k) % Cap()];
    }

    bool Contains(uint32_t i) const
    {
        for (uint32_t k = 0; k < m_size; ++k)
        {
            if (BufferAt(k) == i)
            {
                return true;
            }
        }
        return false;
    }

    uint32_t EcnCount(uint32_t i) const
    {
        return m_ecn[i];
    }

    bool Biased() const
    {
        return m_biased;
    }

    bool Blocked(uint32_t i) const
    {
        return m_restoreAt[i] >= 0;
    }

    uint64_t Explorations() const
    {
        return m_explorations;
    }

    uint64_t Blocks() const
    {
        return m_blocks;
    }

    const SpritzConfig& Config() const
    {
        return m_cfg;
    }

  private:
    uint32_t Cap() const
    {
        return static_cast<uint32_t>(m_buf.size());
    }

    void Rebuild()
    {
        double s = 0;
        for (uint32_t i = 0; i < m_n; ++i)
        {
            s += m_w[i];
            m_cum[i] = s;
        }
        m_dirty = false;
    }

    void Restore(int64_t nowNs)
    {
        if (m_nextRestore < 0 || nowNs < m_nextRestore)
        {
            return;
        }
        m_nextRestore = -1;
        for (uint32_t i = 0; i < m_n; ++i)
        {
            if (m_restoreAt[i] < 0)
            {
                continue;
            }
            if (m_restoreAt[i] <= nowNs)
            {
                m_restoreAt[i] = -1;
                m_w[i] = (i == 0 && m_biased) ? m_bias : m_init[i];
                m_dirty = true;
            }
            else if (m_nextRestore < 0 || m_restoreAt[i] < m_nextRestore)
            {
                m_nextRestore = m_restoreAt[i];
            }
        }
    }

    void EcnSample(bool ecn)
    {
        if (m_cfg.ecnWindow == 0)
        {
            return;
        }
        ++m_winAcks;
        m_winMarks += ecn ? 1 : 0;
        if (m_winAcks >= m_cfg.ecnWindow)
        {
            ApplyEcnRate(static_cast<double>(m_winMarks) / m_winAcks);
            m_winAcks = 0;
            m_winMarks = 0;
        }
    }

    /** Insert keeping the buffer sorted by index (= latency, spec 2.6), front = shortest. */
    void InsertSorted(uint32_t i)
    {
        uint32_t k = m_size;
        while (k > 0 && BufferAt(k - 1) > i)
        {
            m_buf[(m_head + k) % Cap()] = BufferAt(k - 1);
            --k;
        }
        m_buf[(m_head + k) % Cap()] = i;
        ++m_size;
    }

    /** Remove every copy of i, keeping the order of the others. */
    void Remove(uint32_t i)
    {
        uint32_t w = 0;
        for (uint32_t k = 0; k < m_size; ++k)
        {
            const uint32_t x = BufferAt(k);
            if (x != i)
            {
                m_buf[(m_head + w) % Cap()] = x;
                ++w;
            }
        }
        m_size = w;
    }

    SpritzConfig m_cfg;
    uint32_t m_n{1};
    std::vector<double> m_init;
    std::vector<double> m_w;
    std::vector<double> m_cum;
    std::vector<int64_t> m_restoreAt;
    std::vector<uint32_t> m_ecn;
    std::vector<uint32_t> m_buf;
    uint32_t m_head{0};
    uint32_t m_size{0};
    uint32_t m_count{0};
    int64_t m_nextRestore{-1};
    bool m_dirty{true};
    uint32_t m_fixed{0};
    bool m_biased{false};
    double m_bias{0};
    uint32_t m_winAcks{0};
    uint32_t m_winMarks{0};
    uint64_t m_explorations{0};
    uint64_t m_blocks{0};
};

} // namespace lbcore
} // namespace ns3

#endif // DCN_SPRITZ_CORE_H
