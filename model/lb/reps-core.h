/*
 * REPS (Recycled Entropy Packet Spraying) sender state machine, free of any
 * ns-3 simulator dependency so that it can be unit tested directly.
 *
 * Reference: Bonato et al., "REPS: Recycled Entropy Packet Spraying for
 * Adaptive Load Balancing and Failure Mitigation", EuroSys '26, Alg. 1 and 2,
 * and /work/shared/specs/reps.md sections 1.2-1.5 (spec resolutions A1-A11).
 *
 * RepsState<Cap> holds exactly the per-connection fields of the paper's
 * Table 1 (plus the two implementation helpers numPopulated / frzIdx of spec
 * resolution A5 and a per-slot remaining-use counter that generalises the
 * valid bit for the "Reuse EVs" ACK coalescing variant).  RepsCore<Cap> adds
 * the configuration and the algorithm.  Cap is the compile-time capacity; the
 * configured buffer size N may be anything in [1, Cap].
 *
 * All operations are O(1) (except Clear / InvalidateValid, which are O(N) and
 * only run on freeze exit / after idle periods) and never allocate.
 */
#ifndef DCN_REPS_CORE_H
#define DCN_REPS_CORE_H

#include <cstdint>

namespace ns3
{
namespace reps
{

/** Post-freeze exploration policy (spec resolution A1). */
enum class ExploreMode : uint8_t
{
    EVERY_NTH,  //!< default: every N-th packet gets a forced random EV, the others use the normal
                //!< path
    ALL_RANDOM, //!< [A]: every packet random while exploring; the buffer is cleared on freeze exit
};

/** Order of the cached EVs used while frozen (issue 10). */
enum class FrozenOrder : uint8_t
{
    OLDEST_VALID, //!< default ([L] Alg. 2 GETNEXTEV, spec 1.9 A5): oldest valid entry first,
                  //!< then cycle over all entries once none is valid
    ROUND_ROBIN,  //!< [A] (REPS artifact): a separate frozen read pointer cycles over every
                  //!< populated entry, valid or not; valid bits are not consumed
};

/** Static configuration of one REPS sender (not part of the per-connection state). */
struct RepsConfig
{
    uint8_t bufferSize{8};    //!< N, 1..Cap
    uint8_t pktsPerCwnd{100}; //!< PKTS_PER_CWND, exploration length after freezing
    uint8_t evReuseCount{1};  //!< uses per cached EV (Reuse coalescing variant)
    ExploreMode exploreMode{ExploreMode::EVERY_NTH};
    bool resetBufferOnFreezeExit{false};   //!< A7
    bool freezingEnabled{true};            //!< App. C.4
    int64_t freezingTimeoutNs{10'000'000}; //!< A3: FREEZING_TIMEOUT
    FrozenOrder frozenOrder{FrozenOrder::OLDEST_VALID};
};

/**
 * Per-connection REPS state (paper Table 1).  Cap = buffer capacity.
 * For Cap = 8 this is 40 bytes (the logical state is 193 bits; see
 * RepsLogicalStateBits()).  It does not depend on the EV set size or the
 * topology.
 */
template <uint16_t Cap>
struct RepsState
{
    static_assert(Cap >= 1 && Cap <= 255, "REPS buffer capacity must be in [1, 255]");
    uint16_t ev[Cap];       //!< cached EVs
    uint8_t usesLeft[Cap];  //!< remaining reuses; valid bit == (usesLeft > 0)
    int64_t exitFreezeTime; //!< earliest time (ns) freezing may end
    uint8_t head;           //!< write slot; read pointer while cycling frozen over a full buffer
    uint8_t numValid;       //!< number of valid entries
    uint8_t numPopulated;   //!< helper (A5): slots ever written, saturating at N
    uint8_t frzIdx;         //!< helper (A5): frozen read index over a partly filled buffer
    uint8_t exploreCounter; //!< packets left in post-freeze exploration
    bool freezing;          //!< in freezing mode
};

/** Logical state size in bits of a REPS sender with buffer size n ([L] Table 1):
 *  16 n (EVs) + n (valid bits) + 8 (head) + 8 (numValid) + 32 (exitFreezeTime)
 *  + 1 (freezing) + 8 (exploreCounter).  193 bits for n = 8, 74 bits for n = 1. */
constexpr uint32_t
RepsLogicalStateBits(uint32_t n)
{
    return 16 * n + n + 8 + 8 + 32 + 1 + 8;
}

/** Result of a send-path decision. */
struct RepsEvChoice
{
    uint16_t ev{0};
    bool random{false}; //!< true: freshly drawn (explored) EV; false: recycled from the buffer
};

template <uint16_t Cap>
class RepsCore
{
  public:
    RepsCore()
    {
        Configure(RepsConfig{});
    }

    explicit RepsCore(const RepsConfig& cfg)
    {
        Configure(cfg);
    }

    /** Set the configuration and reset the state to the initial (empty) state.
     *  Returns false if the configuration is out of range (state left reset with N clamped). */
    bool Configure(const RepsConfig& cfg)
    {
        m_cfg = cfg;
        bool ok = true;
        if (m_cfg.bufferSize < 1 || m_cfg.bufferSize > Cap)
        {
            m_cfg.bufferSize = m_cfg.bufferSize < 1 ? 1 : static_cast<uint8_t>(Cap);
            ok = false;
        }
        if (m_cfg.evReuseCount < 1)
        {
            m_cfg.evReuseCount = 1;
            ok = false;
        }
        Reset();
        return ok;
    }

    /** Back to the initial state of a new connection. */
    void Reset()
    {
        for (uint16_t i = 0; i < Cap; ++i)
        {
            m_st.ev[i] = 0;
            m_st.usesLeft[i] = 0;
        }
        m_st.exitFreezeTime = 0;
        m_st.head = 0;
        m_st.numValid = 0;
        m_st.numPopulated = 0;
        m_st.frzIdx = 0;
        m_st.exploreCounter = 0;
        m_st.freezing = false;
    }

    /**
     * ACK processing ([L] Alg. 1 ONACK), called once per EV carried by an ACK.
     * \param ev the echoed EV
     * \param ecn whether the acknowledged packet was CE-marked
     * \param nowNs current time in ns
     * \return true if this ACK ended freezing mode
     */
    bool OnAck(uint16_t ev, bool ecn, int64_t nowNs)
    {
        if (ecn)
        {
            return false; // discard the EV; no exit check either
        }
        const uint8_t n = m_cfg.bufferSize;
        if (m_st.usesLeft[m_st.head] == 0)
        {
            m_st.numValid++;
        } // else: buffer full of valid entries, the oldest is overwritten
        m_st.ev[m_st.head] = ev;
        m_st.usesLeft[m_st.head] = m_cfg.evReuseCount;
        m_st.head = static_cast<uint8_t>((m_st.head + 1) % n);
        if (m_st.numPopulated < n)
        {
            m_st.numPopulated++;
        }
        if (m_st.freezing && nowNs > m_st.exitFreezeTime)
        {
            m_st.freezing = false;
            m_st.exploreCounter = m_cfg.pktsPerCwnd;
            if (m_cfg.resetBufferOnFreezeExit || m_cfg.exploreMode == ExploreMode::ALL_RANDOM)
            {
                Clear();
            }
            return true;
        }
        return false;
    }

    /**
     * Failure hook ([L] Alg. 1 ONFAILUREDETECTION).  The caller decides whether
     * an RTO counts as a failure (RepsFailureDetector).
     * \return true if freezing mode was entered
     */
    bool OnFailureDetected(int64_t nowNs)
    {
        if (!m_cfg.freezingEnabled)
        {
            return false;
        }
        if (!m_st.freezing && m_st.exploreCounter == 0)
        {
            m_st.freezing = true;
            m_st.exitFreezeTime = nowNs + m_cfg.freezingTimeoutNs;
            return true;
        }
        return false;
    }

    /**
     * Send path ([L] Alg. 2 ONSEND), for new data and retransmissions alike (A11).
     * \param rng callable returning a uniformly random EV in [0, EVS); called
     *        only when the EV is explored
     */
    template <class Rng>
    RepsEvChoice NextEv(Rng&& rng)
    {
        if (m_st.exploreCounter > 0)
        {
            m_st.exploreCounter--;
            if (m_cfg.exploreMode == ExploreMode::ALL_RANDOM ||
                m_st.exploreCounter % m_cfg.bufferSize == 0)
            {
                return RepsEvChoice{static_cast<uint16_t>(rng()), true};
            }
            // EVERY_NTH, not a multiple of N: fall through to the normal path (A1)
        }
        if (m_st.numPopulated == 0 || (m_st.numValid == 0 && !m_st.freezing))
        {
            return RepsEvChoice{static_cast<uint16_t>(rng()), true};
        }
        return RepsEvChoice{NextCachedEv(), false};
    }

    /** Drop every valid bit (A8, idle connections); cached values stay for freezing. */
    void InvalidateValid()
    {
        for (uint16_t i = 0; i < m_cfg.bufferSize; ++i)
        {
            m_st.usesLeft[i] = 0;
        }
        m_st.numValid = 0;
    }

    /** Empty the buffer completely (A7 / AllRandom exploration). */
    void Clear()
    {
        for (uint16_t i = 0; i < m_cfg.bufferSize; ++i)
        {
            m_st.usesLeft[i] = 0;
        }
        m_st.numValid = 0;
        m_st.numPopulated = 0;
        m_st.head = 0;
        m_st.frzIdx = 0;
    }

    /** Checks the spec 1.2 invariant: the valid entries are exactly the slots
     *  head-numValid .. head-1 (mod N), and numValid equals the number of valid bits. */
    bool CheckInvariant() const
    {
        const uint8_t n = m_cfg.bufferSize;
        if (m_st.numValid > n || m_st.numPopulated > n || m_st.head >= n)
        {
            return false;
        }
        if (m_st.numValid > m_st.numPopulated)
        {
            return false;
        }
        uint32_t count = 0;
        for (uint16_t i = 0; i < n; ++i)
        {
            const bool valid = m_st.usesLeft[i] > 0;
            count += valid ? 1 : 0;
            // distance from slot i forward to head, in 1..n
            const uint32_t dist = (m_st.head + n - i - 1) % n + 1;
            const bool inRun = dist <= m_st.numValid;
            if (valid != inRun)
            {
                return false;
            }
        }
        return count == m_st.numValid;
    }

    // ---- accessors (tests, traces) ----
    const RepsState<Cap>& GetState() const
    {
        return m_st;
    }

    const RepsConfig& GetConfig() const
    {
        return m_cfg;
    }

    bool IsFreezing() const
    {
        return m_st.freezing;
    }

    uint8_t GetNumValid() const
    {
        return m_st.numValid;
    }

    uint8_t GetHead() const
    {
        return m_st.head;
    }

    uint8_t GetNumPopulated() const
    {
        return m_st.numPopulated;
    }

    uint8_t GetExploreCounter() const
    {
        return m_st.exploreCounter;
    }

    int64_t GetExitFreezeTime() const
    {
        return m_st.exitFreezeTime;
    }

    bool IsValid(uint8_t slot) const
    {
        return m_st.usesLeft[slot] > 0;
    }

    uint16_t GetEv(uint8_t slot) const
    {
        return m_st.ev[slot];
    }

    /** Test hook: start a post-freeze exploration phase of `count` packets. */
    void SetExploreCounter(uint8_t count)
    {
        m_st.exploreCounter = count;
    }

  private:
    /** [L] Alg. 2 GETNEXTEV with the A5 partly-filled-buffer rule. */
    uint16_t NextCachedEv()
    {
        const uint8_t n = m_cfg.bufferSize;
        uint8_t i;
        if (m_st.freezing && m_cfg.frozenOrder == FrozenOrder::ROUND_ROBIN)
        {
            // [A]: round-robin over every populated entry, valid bits untouched
            i = m_st.frzIdx;
            m_st.frzIdx = static_cast<uint8_t>((m_st.frzIdx + 1) % m_st.numPopulated);
        }
        else if (m_st.numValid > 0)
        {
            // oldest valid entry first
            i = static_cast<uint8_t>((m_st.head + n - m_st.numValid) % n);
            if (--m_st.usesLeft[i] == 0)
            {
                m_st.numValid--;
            }
        }
        else if (m_st.numPopulated == n)
        {
            // only reachable while freezing: cycle over all entries
            i = m_st.head;
            m_st.head = static_cast<uint8_t>((m_st.head + 1) % n);
        }
        else
        {
            // freezing with a partly filled buffer (slots 0..numPopulated-1)
            i = m_st.frzIdx;
            m_st.frzIdx = static_cast<uint8_t>((m_st.frzIdx + 1) % m_st.numPopulated);
        }
        return m_st.ev[i];
    }

    RepsConfig m_cfg;
    RepsState<Cap> m_st;
};

/**
 * Telling failures from congestion on an RTO ([L] Sec. 3.2, App. A; [A]).
 * Without trimming, the maximum RTT of the current window decides: a loss
 * after low RTTs is a failure.  The window restarts on the first RTT sample
 * after windowEnd, and each restart sets windowEnd = now + windowMult * RTO.
 * With trimming every RTO counts as a failure (congestion losses are NACKed).
 */
class RepsFailureDetector
{
  public:
    void Configure(int64_t baseRttNs,
                   int64_t rtoNs,
                   double rttThreshold,
                   double windowRtoMult,
                   bool trimming)
    {
        m_thresholdNs = static_cast<int64_t>(rttThreshold * static_cast<double>(baseRttNs));
        m_windowNs = static_cast<int64_t>(windowRtoMult * static_cast<double>(rtoNs));
        m_trimming = trimming;
        m_maxRtt = 0;
        m_windowEnd = -1;
    }

    /** An RTT sample from a clean or ECN-marked ACK. */
    void OnRttSample(int64_t rttNs, int64_t nowNs)
    {
        if (nowNs > m_windowEnd)
        {
            m_maxRtt = rttNs;
            m_windowEnd = nowNs + m_windowNs;
        }
        else if (rttNs > m_maxRtt)
        {
            m_maxRtt = rttNs;
        }
    }

    /** Whether an RTO now should be treated as a failure. */
    bool IsFailure() const
    {
        return m_trimming || m_maxRtt < m_thresholdNs;
    }

    int64_t GetMaxRtt() const
    {
        return m_maxRtt;
    }

    int64_t GetWindowEnd() const
    {
        return m_windowEnd;
    }

    int64_t GetThreshold() const
    {
        return m_thresholdNs;
    }

  private:
    int64_t m_thresholdNs{0};
    int64_t m_windowNs{0};
    int64_t m_maxRtt{0};
    int64_t m_windowEnd{-1};
    bool m_trimming{false};
};

} // namespace reps
} // namespace ns3

#endif // DCN_REPS_CORE_H
