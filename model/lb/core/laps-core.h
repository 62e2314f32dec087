/*
 * LAPS sender logic, free of ns-3 (laps spec section 2; Wan et al., "LAPS:
 * Latency Aware Packet Spraying on Unequal-cost Multi-path Data Center
 * Networks", IEEE/ACM ToN).  Times in nanoseconds, rates in bit/s.
 *
 *  - LapsPathEntry: one PIT entry (valid, time, baseVal, realVal; spec 1.5).
 *  - LapsBaseValNs: the spec 2.1 baseVal formula.
 *  - LapsCheckStale: active-probing staleness (spec 2.2, Alg. 1 lines 4-6).
 *  - LapsSpray: latency-weighted softmax spraying (spec 2.3, Alg. 1).
 *  - LapsRateCore: delay-driven AIMD rate control (spec 2.4, Alg. 2, [R] 2.7).
 *  - LapsLossCore: per-path loss inference and timers (spec 2.5, Alg. 3).
 *
 * Every function is O(paths of the destination) or O(1) amortised; no
 * allocation on the per-packet path beyond the deques' chunk growth.
 */
#ifndef DCN_LAPS_CORE_H
#define DCN_LAPS_CORE_H

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <vector>

namespace ns3
{
namespace lapscore
{

/** One Path Information Table entry (spec 1.5; widths: valid 1 b, the rest 48 b ns). */
struct LapsPathEntry
{
    bool valid{true};
    int64_t timeNs{0}; //!< last update (install time, ACK, probe)
    int64_t baseNs{0}; //!< baseVal: unloaded delay plus the queuing margin
    int64_t realNs{0}; //!< realVal: latest one-way delay (doubled when stale)
};

/**
 * baseVal of a path (spec 2.1): sum over its links of (prop + S*8/C) plus
 * margin x sum over its switches of S*8/C_out(s).  links: n propagation
 * delays and rates in path order (host link first); the switches' egress
 * links are links 1..n-1.
 */
inline double
LapsBaseValNs(const double* propNs,
              const double* rateBps,
              uint32_t n,
              double frameBytes,
              double marginPackets)
{
    double sum = 0;
    double out = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        const double ser = frameBytes * 8.0 / rateBps[i] * 1e9;
        sum += propNs[i] + ser;
        if (i > 0)
        {
            out += ser;
        }
    }
    return sum + marginPackets * out;
}

/**
 * Staleness (spec 2.2): a valid entry not updated for more than 2 x realVal is
 * probed: realVal doubles and time = now.  \return true if a probe is due.
 */
inline bool
LapsCheckStale(LapsPathEntry& e, int64_t nowNs)
{
    if (e.valid && nowNs - e.timeNs > 2 * e.realNs)
    {
        e.realNs = std::max<int64_t>(1, 2 * e.realNs);
        e.timeNs = nowNs;
        return true;
    }
    return false;
}

/**
 * Softmax weights (spec 2.3): w = exp(-beta (realVal - min valid realVal)) for
 * valid entries, 0 for invalid ones; beta = alpha / T (spec 2.1: weight =
 * exp(-alpha realVal / T)); alpha = infinity picks the minimum only.
 * \return the sum of the weights (0: every path invalid).
 */
inline double
LapsWeights(LapsPathEntry* const* p, uint32_t n, double beta, double* w)
{
    int64_t minReal = std::numeric_limits<int64_t>::max();
    for (uint32_t i = 0; i < n; ++i)
    {
        if (p[i]->valid)
        {
            minReal = std::min(minReal, p[i]->realNs);
        }
    }
    double sum = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        w[i] = 0;
        if (!p[i]->valid)
        {
            continue;
        }
        const double d = static_cast<double>(p[i]->realNs - minReal);
        if (std::isinf(beta))
        {
            w[i] = d == 0 ? 1.0 : 0.0;
        }
        else
        {
            w[i] = std::exp(-beta * d);
        }
        sum += w[i];
    }
    return sum;
}

/**
 * What LapsWeightsCached last computed each weight from: entry i's realVal and validity, the
 * least valid realVal and beta.  Sized to the path count once (Reset), no allocation after.
 */
struct LapsWeightCache
{
    std::vector<int64_t> real;
    std::vector<uint8_t> valid;
    int64_t minReal{0};
    double beta{0};
    bool filled{false};

    void Reset(uint32_t n)
    {
        real.assign(n, 0);
        valid.assign(n, 0);
        filled = false;
    }
};

/**
 * LapsWeights, bit for bit (each w[i] the same function of the same inputs, summed in the
 * same order), with exp evaluated only for the entries whose realVal or validity changed
 * since the last call, or for all of them when the least valid realVal or beta changed:
 * between two feedbacks a flow's sends reuse the weights.  c was Reset(n).  minReal: the
 * least realVal of the valid entries (max if none), as LapsWeights computes it.
 */
inline double
LapsWeightsCachedMin(LapsPathEntry* const* p,
                     uint32_t n,
                     double beta,
                     double* w,
                     LapsWeightCache& c,
                     int64_t minReal)
{
    const bool all = !c.filled || minReal != c.minReal || beta != c.beta;
    c.filled = true;
    c.minReal = minReal;
    c.beta = beta;
    double sum = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        const uint8_t v = p[i]->valid ? 1 : 0;
        if (all || v != c.valid[i] || p[i]->realNs != c.real[i])
        {
            c.valid[i] = v;
            c.real[i] = p[i]->realNs;
            if (!v)
            {
                w[i] = 0;
            }
            else
            {
                const double d = static_cast<double>(p[i]->realNs - minReal);
                w[i] = std::isinf(beta) ? (d == 0 ? 1.0 : 0.0) : std::exp(-beta * d);
            }
        }
        sum += w[i];
    }
    return sum;
}

/**
 * LapsWeightsCached: LapsWeightsCachedMin with the least valid realVal computed here, as
 * LapsWeights computes it.
 */
inline double
LapsWeightsCached(LapsPathEntry* const* p, uint32_t n, double beta, double* w, LapsWeightCache& c)
{
    int64_t minReal = std::numeric_limits<int64_t>::max();
    for (uint32_t i = 0; i < n; ++i)
    {
        if (p[i]->valid)
        {
            minReal = std::min(minReal, p[i]->realNs);
        }
    }
    return LapsWeightsCachedMin(p, n, beta, w, c, minReal);
}

/**
 * Alg. 1 lines 3-4 and the softmax's minimum in one pass over the entries (session 50): the
 * indices of the stale entries (valid and not updated for more than 2 x realVal, as
 * LapsCheckStale tests) are appended to stale, in index order, and the least valid realVal
 * (max if none is valid) is returned, as LapsWeights computes it before any entry is
 * changed.  With no stale entry nothing changes before the softmax, so that minimum is the
 * softmax's own (LapsWeightsCachedMin).
 */
inline int64_t
LapsScanStale(LapsPathEntry* const* p, uint32_t n, int64_t nowNs, std::vector<uint32_t>& stale)
{
    int64_t minReal = std::numeric_limits<int64_t>::max();
    for (uint32_t i = 0; i < n; ++i)
    {
        const LapsPathEntry& e = *p[i];
        if (e.valid)
        {
            minReal = std::min(minReal, e.realNs);
            if (nowNs - e.timeNs > 2 * e.realNs)
            {
                stale.push_back(i);
            }
        }
    }
    return minReal;
}

/** Index drawn with probability w[i] / sum for a uniform u in [0, 1); -1 if sum == 0. */
inline int
LapsSample(const double* w, uint32_t n, double sum, double u)
{
    if (!(sum > 0))
    {
        return -1;
    }
    double x = u * sum;
    int last = -1;
    for (uint32_t i = 0; i < n; ++i)
    {
        if (w[i] <= 0)
        {
            continue;
        }
        last = static_cast<int>(i);
        if (x < w[i])
        {
            return last;
        }
        x -= w[i];
    }
    return last; // rounding
}

/** Guard length of Alg. 2 (spec 2.7 item 2). */
enum class LapsGuardMode : uint8_t
{
    TWO_SMALL_T, //!< 2 t, t = min realVal (Alg. 2; default)
    TWO_BIG_T,   //!< 2 T, T = max baseVal (text, "once within 2T")
    ARTIFACT     //!< [A]: decreases 2 x max realVal, increases 2 T
};

/** Rate-control parameters (spec 2.1). */
struct LapsRateConfig
{
    double lineRateBps{100e9}; //!< NIC maximum = initial curRate = expRate [P]
    double minRateBps{1e9};    //!< floor [A]/[R]
    uint32_t stages{5};        //!< N: increases before expRate doubles [P]
    LapsGuardMode guard{LapsGuardMode::TWO_SMALL_T};
    double incStepBps{0}; //!< least increase per step (0 = Alg. 2's recurrence only; [A] 1e9)
};

/** Delay-driven AIMD of one flow (spec 2.4, Alg. 2 with the [R] fixes of 2.7). */
class LapsRateCore
{
  public:
    enum Action : int8_t
    {
        NONE = 0,
        INCREASE = 1,
        DECREASE = -1
    };

    explicit LapsRateCore(const LapsRateConfig& c = LapsRateConfig())
    {
        Reset(c);
    }

    void Reset(const LapsRateConfig& c)
    {
        m_cfg = c;
        m_cur = m_exp = c.lineRateBps;
        m_incStage = 0;
        m_nxtInc = m_nxtDec = std::numeric_limits<int64_t>::min();
    }

    /**
     * One data ACK (after the PIT update).  t = min realVal, T = max baseVal
     * over the valid paths of the destination, maxReal = max realVal (guard
     * ARTIFACT only).  Congested iff t > T (spec 2.7 item 3).
     */
    Action OnAck(int64_t nowNs, int64_t t, int64_t T, int64_t maxReal = 0)
    {
        return OnAck(nowNs, t > T, t, T, maxReal);
    }

    /**
     * The same with the congestion predicate given: Alg. 2's t > T, or the
     * per-path reading of the paper's Sec. III-E text (every valid path above
     * its own baseVal; LapsCongestedPerPath).  The guards still use t and T.
     */
    Action OnAck(int64_t nowNs, bool congested, int64_t t, int64_t T, int64_t maxReal)
    {
        if (congested)
        {
            if (nowNs >= m_nxtDec) // spec 2.7 item 1: Now() >= next
            {
                m_exp = m_cur;
                m_cur = std::max(m_cfg.minRateBps, m_cur / 2);
                m_nxtDec = nowNs + Guard(true, t, T, maxReal);
                m_incStage = 0;
                return DECREASE;
            }
            return NONE;
        }
        if (nowNs >= m_nxtInc)
        {
            m_incStage++;
            if (m_incStage > m_cfg.stages)
            {
                m_exp = std::min(m_cfg.lineRateBps, 2 * m_exp); // HAI; incStage not reset
            }
            // Alg. 2: cur = (exp + cur) / 2; [A] adds at least incStep (its
            // cur = max(cur + 1 Gb/s, (cur + tgt) / 2)), so cur == exp still rises
            m_cur = std::min(m_cfg.lineRateBps,
                             std::max(m_cur + m_cfg.incStepBps, (m_exp + m_cur) / 2));
            m_cur = std::max(m_cur, m_cfg.minRateBps);
            m_nxtInc = nowNs + Guard(false, t, T, maxReal);
            return INCREASE;
        }
        return NONE;
    }

    double CurRate() const
    {
        return m_cur;
    }

    double ExpRate() const
    {
        return m_exp;
    }

    uint32_t IncStage() const
    {
        return m_incStage;
    }

  private:
    int64_t Guard(bool dec, int64_t t, int64_t T, int64_t maxReal) const
    {
        switch (m_cfg.guard)
        {
        case LapsGuardMode::TWO_BIG_T:
            return 2 * T;
        case LapsGuardMode::ARTIFACT:
            return dec ? 2 * std::max(maxReal, t) : 2 * T;
        case LapsGuardMode::TWO_SMALL_T:
        default:
            return 2 * t;
        }
    }

    LapsRateConfig m_cfg;
    double m_cur{0};
    double m_exp{0};
    uint32_t m_incStage{0};
    int64_t m_nxtInc{0};
    int64_t m_nxtDec{0};
};

/**
 * The congestion predicate of the paper's Sec. III-E text (spec 2.7 item 3,
 * not the default): every valid path's realVal exceeds its own baseVal.
 * False if no path is valid.
 */
inline bool
LapsCongestedPerPath(LapsPathEntry* const* p, uint32_t n)
{
    bool any = false;
    for (uint32_t i = 0; i < n; ++i)
    {
        if (!p[i]->valid)
        {
            continue;
        }
        if (p[i]->realNs <= p[i]->baseNs)
        {
            return false;
        }
        any = true;
    }
    return any;
}

/**
 * A double-ended FIFO in one ring buffer (power-of-two capacity, doubled when full): the
 * operations of std::deque that LapsLossCore uses, with an index that is one mask and no
 * chunk walk (session 50).  Order and contents are those of a std::deque given the same calls.
 */
template <typename T>
class LapsRing
{
  public:
    bool empty() const
    {
        return m_count == 0;
    }

    size_t size() const
    {
        return m_count;
    }

    T& operator[](size_t i)
    {
        return m_buf[(m_head + i) & m_mask];
    }

    const T& operator[](size_t i) const
    {
        return m_buf[(m_head + i) & m_mask];
    }

    T& front()
    {
        return m_buf[m_head];
    }

    void push_back(const T& v)
    {
        if (m_count == m_buf.size())
        {
            Grow();
        }
        m_buf[(m_head + m_count) & m_mask] = v;
        ++m_count;
    }

    void push_front(const T& v)
    {
        if (m_count == m_buf.size())
        {
            Grow();
        }
        m_head = (m_head + m_mask) & m_mask; // m_head - 1 modulo the capacity
        m_buf[m_head] = v;
        ++m_count;
    }

    void pop_front()
    {
        assert(m_count > 0 && "LapsRing::pop_front on an empty ring");
        m_head = (m_head + 1) & m_mask;
        --m_count;
    }

    /** Grow to n elements, the new ones v (n >= size()). */
    void resize(size_t n, const T& v)
    {
        assert(n >= m_count && "LapsRing::resize never shrinks (unlike std::deque)");
        while (m_count < n)
        {
            push_back(v);
        }
    }

    void clear()
    {
        m_head = 0;
        m_count = 0;
    }

  private:
    void Grow()
    {
        std::vector<T> bigger(m_buf.empty() ? 64 : 2 * m_buf.size());
        for (size_t i = 0; i < m_count; ++i)
        {
            bigger[i] = (*this)[i];
        }
        m_buf.swap(bigger);
        m_head = 0;
        m_mask = m_buf.size() - 1;
    }

    std::vector<T> m_buf; //!< capacity a power of two (or 0)
    size_t m_head{0};
    size_t m_count{0};
    size_t m_mask{0};
};

/**
 * Per-path loss inference of one flow (spec 2.5, Alg. 3).  rBuf[p] is the
 * FIFO of transmissions (sequence number, send time) made on path p and not
 * yet acknowledged or declared lost.  A sequence resent (by a path's loss
 * inference or the transport's own timeout) leaves a stale entry in its old
 * FIFO, skipped silently: owner[seq] / sendNs[seq] name its current send
 * (owner -1: none), so "a in L" is O(1).  An ACK is matched to a
 * transmission, not only to a sequence number (the ACK echoes the send time
 * of the copy it acknowledges): the late ACK of a copy already declared lost
 * is "not in L" (spec 2.5: "duplicate, or already declared lost: return"),
 * even when the sequence was resent on the same path since.  Until
 * 2026-11-30 it matched the sequence number, and such an ACK declared every
 * resend queued before the new copy lost.
 */
class LapsLossCore
{
  public:
    static constexpr int16_t NONE = -1;

    /** One transmission on a path. */
    struct Tx
    {
        uint32_t seq;
        int64_t sendNs; //!< -1: unknown (matched by sequence number only)
    };

    void Init(uint32_t nPaths)
    {
        m_rbuf.assign(nPaths, {});
        m_live.assign(nPaths, 0);
        m_owner.clear();
        m_sendNs.clear();
        m_base = 0;
        m_unknownSend = false;
    }

    uint32_t NPaths() const
    {
        return static_cast<uint32_t>(m_rbuf.size());
    }

    /** LossOnSend: seq left on path p at sendNs (-1: unknown). */
    void OnSend(uint32_t p, uint32_t seq, int64_t sendNs = -1)
    {
        if (m_owner.empty())
        {
            m_base = seq;
        }
        while (seq < m_base) // a retransmission older than every outstanding sequence
        {
            m_owner.push_front(NONE);
            m_sendNs.push_front(-1);
            m_base--;
        }
        if (seq - m_base == m_owner.size())
        {
            // the next new sequence (nearly every send): one slot, as resize by one adds
            m_owner.push_back(NONE);
            m_sendNs.push_back(-1);
        }
        else if (seq - m_base > m_owner.size())
        {
            m_owner.resize(seq - m_base + 1, NONE);
            m_sendNs.resize(seq - m_base + 1, -1);
        }
        int16_t& o = m_owner[seq - m_base];
        if (o != NONE && static_cast<uint32_t>(o) < m_live.size())
        {
            m_live[o]--; // resent while still outstanding: the old entry goes stale
        }
        o = static_cast<int16_t>(p);
        m_sendNs[seq - m_base] = sendNs;
        m_unknownSend = m_unknownSend || sendNs < 0;
        m_rbuf[p].push_back(Tx{seq, sendNs});
        m_live[p]++;
    }

    /**
     * LossOnAck: an ACK of the transmission of seq sent at sendNs (-1: the
     * current one) arrived on path p.  Transmissions made on p before it and
     * still outstanding are appended to lost.  \return false if it was not
     * outstanding on p (duplicate, already declared lost, or an older copy):
     * nothing changes.
     */
    bool OnAck(uint32_t p, uint32_t seq, std::vector<uint32_t>& lost, int64_t sendNs = -1)
    {
        if (p >= m_rbuf.size() || Owner(seq) != static_cast<int16_t>(p) ||
            (sendNs >= 0 && SendNs(seq) != sendNs))
        {
            return false;
        }
        const int64_t ns = SendNs(seq);
        std::deque<Tx>& L = m_rbuf[p];
        while (!L.empty() && !(L.front().seq == seq && L.front().sendNs == ns))
        {
            const Tx t = L.front();
            L.pop_front();
            if (IsLive(t, p))
            {
                lost.push_back(t.seq);
                Resolve(t.seq, p);
            }
        }
        if (!L.empty())
        {
            L.pop_front();
        }
        Resolve(seq, p);
        Trim();
        return true;
    }

    /** OnTimer: every sequence outstanding on p is lost (appended to lost). */
    void OnTimer(uint32_t p, std::vector<uint32_t>& lost)
    {
        if (p >= m_rbuf.size())
        {
            return;
        }
        for (const Tx& t : m_rbuf[p])
        {
            if (IsLive(t, p))
            {
                lost.push_back(t.seq);
                Resolve(t.seq, p);
            }
        }
        m_rbuf[p].clear();
        Trim();
    }

    /** Sequences outstanding on p (stale entries excluded). */
    uint32_t Live(uint32_t p) const
    {
        return p < m_live.size() ? m_live[p] : 0;
    }

    /** The live sequences of p in FIFO order (tests). */
    std::vector<uint32_t> Outstanding(uint32_t p) const
    {
        std::vector<uint32_t> v;
        for (const Tx& t : m_rbuf[p])
        {
            if (IsLive(t, p))
            {
                v.push_back(t.seq);
            }
        }
        return v;
    }

  private:
    int16_t Owner(uint32_t seq) const
    {
        if (seq < m_base || seq - m_base >= m_owner.size())
        {
            return NONE;
        }
        return m_owner[seq - m_base];
    }

    int64_t SendNs(uint32_t seq) const
    {
        if (seq < m_base || seq - m_base >= m_sendNs.size())
        {
            return -1;
        }
        return m_sendNs[seq - m_base];
    }

    /** t is the current send of its sequence, on p. */
    bool IsLive(const Tx& t, uint32_t p) const
    {
        return Owner(t.seq) == static_cast<int16_t>(p) && SendNs(t.seq) == t.sendNs;
    }

    void Resolve(uint32_t seq, uint32_t p)
    {
        if (seq >= m_base && seq - m_base < m_owner.size() &&
            m_owner[seq - m_base] == static_cast<int16_t>(p))
        {
            m_owner[seq - m_base] = NONE;
            m_live[p]--;
        }
    }

    /**
     * Drop the resolved sequences at the front of owner / sendNs.  With every send
     * time known a path's FIFO keeps its stale entries until OnAck or OnTimer of
     * that path passes them (both skip them: a transmission's (seq, send time) is
     * never current again once superseded); until 2026-11-30 every FIFO's stale
     * front was popped on every ACK and timer (an O(paths) scan per ACK).  Sends of
     * unknown time (-1, matched by sequence only, where a superseded entry can
     * become current again) keep that eager clean-up.
     */
    void Trim()
    {
        while (!m_owner.empty() && m_owner.front() == NONE)
        {
            m_owner.pop_front();
            m_sendNs.pop_front();
            m_base++;
        }
        if (!m_unknownSend)
        {
            return;
        }
        for (uint32_t p = 0; p < m_rbuf.size(); ++p)
        {
            std::deque<Tx>& L = m_rbuf[p];
            while (!L.empty() && !IsLive(L.front(), p))
            {
                L.pop_front();
            }
        }
    }

    std::vector<std::deque<Tx>> m_rbuf;
    std::vector<uint32_t> m_live;
    LapsRing<int16_t> m_owner;  //!< path of the current send of seq m_base + i
    LapsRing<int64_t> m_sendNs; //!< send time of the current send of seq m_base + i
    uint32_t m_base{0};
    bool m_unknownSend{false}; //!< some send had no send time (-1): eager Trim
};

} // namespace lapscore
} // namespace ns3

#endif // DCN_LAPS_CORE_H
