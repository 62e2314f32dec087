/*
 * Hermes (SIGCOMM'17) decision logic, ns-3-free and header-only (issue 17; spec
 * /work/shared/specs/hermes.md, doc/hermes.rst).  Times are int64 nanoseconds, rates bit/s.
 *
 *  - PathSignals: congestion signals of one path (per host or rack): EWMA ECN fraction and RTT,
 *    time of the last sample (spec 2.1 [NP] smoothing and ageing).
 *  - PathFailure: failure evidence of one (destination host, path) at one sender: timeouts
 *    since the last ACK, retransmission fraction per tau window, the sticky FAILED flag and
 *    its clearing rule (spec 2.3).
 *  - Dre: CONGA's discounting rate estimator (spec 2.1 "Rates"), decayed lazily.
 *  - Classify: Algorithm 1 (spec 2.2).
 *  - Decide: Algorithm 2 (spec 3).
 *  - ChooseProbes / ChooseProbesRoundRobin: 2 random (or round-robin) paths plus the
 *    previous best (spec 2.4).
 *
 * Randomness: the caller passes draw(n), a uniform integer in [0, n) (lb-core-common.h).
 */
#ifndef DCN_HERMES_CORE_H
#define DCN_HERMES_CORE_H

#include <cmath>
#include <cstdint>

namespace ns3
{
namespace hermes
{

constexpr uint16_t kMaxPaths = 64;

enum class PathType : uint8_t
{
    GOOD = 0,
    GRAY = 1,
    CONGESTED = 2,
    FAILED = 3,
};

inline const char*
PathTypeName(PathType t)
{
    switch (t)
    {
    case PathType::GOOD:
        return "good";
    case PathType::GRAY:
        return "gray";
    case PathType::CONGESTED:
        return "congested";
    default:
        return "failed";
    }
}

/** Parameters (defaults: the paper's simulation values, Table 4 / Sec. 3.3; spec 2.5). */
struct Params
{
    double tEcn{0.40};          //!< T_ECN
    int64_t tRttLowNs{60000};   //!< T_RTT_low (base + 20 us; the selector sets it per pair)
    int64_t tRttHighNs{180000}; //!< T_RTT_high
    int64_t dRttNs{80000};      //!< delta RTT
    double dEcn{0.05};          //!< delta ECN
    double rBps{3e9};           //!< R (30% of a 10G edge link)
    uint64_t sBytes{600000};    //!< S
    uint32_t nTimeout{3};       //!< N_TO (>= N_TO timeouts, no ACK -> FAILED)
    double tRetx{0.01};         //!< T_RETX
    int64_t tauNs{10000000};    //!< tau, retransmission window
    int64_t staleNs{2000000};   //!< StaleTime: no sample this long -> GRAY
    double ecnGain{1.0 / 8};    //!< EWMA gain of f_ECN per sample
    double rttGain{0.5};        //!< EWMA gain of t_RTT per sample
    /** Restart the EWMAs on the first sample after StaleTime without one (our choice). */
    bool restartStale{true};
    int64_t dreTNs{30000}; //!< T_dre
    double dreAlpha{0.2};  //!< DRE alpha
    bool excludeCurrentOnTimeout{false};
    bool reroute{true}; //!< Algorithm 2 lines 13-23 (off: breakdown "no rerouting")
    /** Lines 15 / 19 move a flow only to a path with a fresh sample (CandidateNeedsSample):
     *  an unsampled or stale path's RTT / ECN are no measurement of "notably better". */
    bool betterNeedsSample{true};
};

/** Congestion signals of one path (per host, or per rack: SignalKeying). */
struct PathSignals
{
    double fEcn{0};
    double rttNs{0};
    bool seen{false};
    int64_t lastNs{-1};

    /** One ACKed data packet or probe reply: CE echoed?, RTT sample (< 0: none).  With
     *  p.restartStale the first sample after more than StaleTime without one restarts the
     *  averages (f_ECN = this sample's mark, t_RTT = this sample): the old values describe
     *  a past load (the paper counts f_ECN per window, Sec. 3.1.1 / Table 3).  ecnSample
     *  false: an RTT sample only (the packet's CE bit says nothing of the path,
     *  HostCeSample=none): f_ECN keeps its value, 0 on a path never seen and on a
     *  restart (the stale f_ECN describes a past load and nothing new says otherwise, so
     *  a path made fresh by an RTT-only sample does not carry it; review s46 H8). */
    void OnSample(bool ce, int64_t sampleNs, int64_t now, const Params& p, bool ecnSample = true)
    {
        const double m = ce ? 1.0 : 0.0;
        if (!seen)
        {
            fEcn = ecnSample ? m : 0.0;
            rttNs = static_cast<double>(sampleNs < 0 ? 0 : sampleNs);
            seen = true;
        }
        else if (p.restartStale && now - lastNs > p.staleNs)
        {
            fEcn = ecnSample ? m : 0.0;
            if (sampleNs >= 0)
            {
                rttNs = static_cast<double>(sampleNs);
            }
        }
        else
        {
            if (ecnSample)
            {
                fEcn += p.ecnGain * (m - fEcn);
            }
            if (sampleNs >= 0)
            {
                rttNs += p.rttGain * (static_cast<double>(sampleNs) - rttNs);
            }
        }
        lastNs = now;
    }

    bool Fresh(int64_t now, const Params& p) const
    {
        return seen && now - lastNs <= p.staleNs;
    }
};

/** Failure evidence of one (destination host, path) at one sender (spec 2.3). */
struct PathFailure
{
    uint32_t nTimeout{0};    //!< timeouts since the last ACK
    uint64_t sent{0};        //!< data packets sent in the current window
    uint64_t retx{0};        //!< of which retransmissions
    bool ackInWindow{false}; //!< an ACK arrived in the current window
    bool toInWindow{false};  //!< a timeout happened in the current window
    int64_t winStartNs{0};
    double lastRetxFrac{0}; //!< retransmission fraction of the last closed window
    bool failed{false};
    int64_t failedAtNs{-1};
    uint32_t timeoutFailures{0};       //!< times N_TO timeouts made the record FAILED (statistics)
    int64_t firstTimeoutFailureNs{-1}; //!< when they first did (statistics; -1: never)
    uint32_t retxFailures{0};          //!< windows whose fraction rose above T_RETX (statistics)
    int64_t firstRetxFailureNs{-1};    //!< when one first did (statistics; -1: never)

    void Roll(int64_t now, const Params& p)
    {
        if (now - winStartNs < p.tauNs)
        {
            return;
        }
        // an idle window proves nothing: the last fraction holds until a window with data
        // (spec 2.3 [NP]: a failure holds until later evidence is clean)
        if (sent > 0)
        {
            const bool wasAbove = lastRetxFrac > p.tRetx;
            lastRetxFrac = static_cast<double>(retx) / static_cast<double>(sent);
            if (!wasAbove && lastRetxFrac > p.tRetx)
            {
                ++retxFailures;
                firstRetxFailureNs = firstRetxFailureNs < 0 ? now : firstRetxFailureNs;
            }
        }
        // clear a failure only after at least tau and a clean window: data sent, an ACK, no
        // timeout, retransmissions <= T_RETX (spec 2.3 [NP]; an idle window proves nothing)
        if (failed && now - failedAtNs >= p.tauNs && sent > 0 && ackInWindow && !toInWindow &&
            lastRetxFrac <= p.tRetx)
        {
            failed = false;
        }
        sent = 0;
        retx = 0;
        ackInWindow = false;
        toInWindow = false;
        // windows are aligned to the first event after the previous window
        winStartNs = now;
    }

    void Fail(int64_t now)
    {
        if (!failed)
        {
            failed = true;
            failedAtNs = now;
        }
    }

    void OnSend(bool retransmission, int64_t now, const Params& p)
    {
        Roll(now, p);
        ++sent;
        if (retransmission)
        {
            ++retx;
        }
    }

    void OnTimeout(int64_t now, const Params& p)
    {
        Roll(now, p);
        toInWindow = true;
        if (++nTimeout >= p.nTimeout)
        {
            if (!failed)
            {
                ++timeoutFailures;
                firstTimeoutFailureNs = firstTimeoutFailureNs < 0 ? now : firstTimeoutFailureNs;
            }
            Fail(now); // N_TO timeouts and no ACK since the first (the counter resets on ACK)
        }
    }

    /** A timeout seen by a retransmission-only record (RetxPerRack): blocks clearing. */
    void NoteTimeout(int64_t now, const Params& p)
    {
        Roll(now, p);
        toInWindow = true;
    }

    void OnAck(int64_t now, const Params& p)
    {
        Roll(now, p);
        nTimeout = 0;
        ackInWindow = true;
    }
};

/** CONGA DRE: X += bytes per send; X *= (1 - alpha) every T_dre; rate = X alpha / T_dre. */
struct Dre
{
    double x{0};
    int64_t lastNs{0};

    void Decay(int64_t now, const Params& p)
    {
        if (now <= lastNs)
        {
            return;
        }
        const int64_t k = (now - lastNs) / p.dreTNs;
        if (k > 0)
        {
            x *= k > 200 ? 0.0 : std::pow(1.0 - p.dreAlpha, static_cast<double>(k));
            lastNs += k * p.dreTNs;
        }
    }

    void Add(double bytes, int64_t now, const Params& p)
    {
        Decay(now, p);
        x += bytes;
    }

    /** Rate in bit/s. */
    double Rate(int64_t now, const Params& p)
    {
        Decay(now, p);
        return x * 8.0 * p.dreAlpha / (static_cast<double>(p.dreTNs) * 1e-9);
    }
};

/**
 * Algorithm 1 (spec 2.2); a path with no fresh sample is GRAY (spec 2.1 [NP]).  Timeout
 * evidence comes from `f` (per destination host), retransmission evidence from `r` (per
 * destination rack or the same record as `f`).
 */
inline PathType
Classify(const PathSignals& s,
         const PathFailure& f,
         const PathFailure& r,
         int64_t now,
         const Params& p)
{
    PathType t = PathType::GRAY;
    if (s.Fresh(now, p))
    {
        if (s.fEcn < p.tEcn && s.rttNs < static_cast<double>(p.tRttLowNs))
        {
            t = PathType::GOOD;
        }
        else if (s.fEcn > p.tEcn && s.rttNs > static_cast<double>(p.tRttHighNs))
        {
            t = PathType::CONGESTED;
        }
    }
    if (f.failed || f.nTimeout >= p.nTimeout ||
        (r.lastRetxFrac > p.tRetx && t != PathType::CONGESTED))
    {
        t = PathType::FAILED;
    }
    return t;
}

/** Algorithm 1 with timeout and retransmission evidence in one record. */
inline PathType
Classify(const PathSignals& s, const PathFailure& f, int64_t now, const Params& p)
{
    return Classify(s, f, f, now, p);
}

/** What Algorithm 2 needs to know about one path. */
struct PathView
{
    PathType type{PathType::GRAY};
    double fEcn{0};
    double rttNs{0};
    double rpBps{0};  //!< r_p: this host's DRE rate on the path
    bool fresh{true}; //!< fEcn / rttNs measured within StaleTime (PathSignals::Fresh)
};

/** What Algorithm 2 needs to know about the flow. */
struct FlowView
{
    int32_t cur{-1};      //!< current path (-1: new flow)
    bool timedOut{false}; //!< i_timeout
    uint64_t sentBytes{0};
    double rateBps{0}; //!< r_f
};

/** argmin r_p over paths with pred(i) true, ties at random; -1 if none. */
template <class Pred, class Draw>
int32_t
ArgminRp(const PathView* v, uint16_t n, Pred pred, Draw&& draw)
{
    double best = 0;
    uint16_t ties = 0;
    int32_t pick = -1;
    for (uint16_t i = 0; i < n; ++i)
    {
        if (!pred(i))
        {
            continue;
        }
        if (pick < 0 || v[i].rpBps < best)
        {
            best = v[i].rpBps;
            pick = i;
            ties = 1;
        }
        else if (v[i].rpBps == best)
        {
            // reservoir sampling over the tied paths
            ++ties;
            if (draw(ties) == 0)
            {
                pick = i;
            }
        }
    }
    return pick;
}

/** Algorithm 2 (spec 3): the path of the flow's next packet. */
template <class Draw>
int32_t
Decide(const FlowView& f, const PathView* v, uint16_t n, const Params& p, Draw&& draw)
{
    if (n == 0)
    {
        return -1;
    }
    const int32_t cur = f.cur;
    if (cur < 0 || cur >= n || f.timedOut || v[cur].type == PathType::FAILED)
    {
        const bool excl = p.excludeCurrentOnTimeout && cur >= 0 && cur < n && f.timedOut;
        auto ok = [&](uint16_t i) { return !(excl && static_cast<int32_t>(i) == cur); };
        int32_t g = ArgminRp(
            v,
            n,
            [&](uint16_t i) { return ok(i) && v[i].type == PathType::GOOD; },
            draw);
        if (g >= 0)
        {
            return g;
        }
        g = ArgminRp(
            v,
            n,
            [&](uint16_t i) { return ok(i) && v[i].type == PathType::GRAY; },
            draw);
        if (g >= 0)
        {
            return g;
        }
        // uniform over the non-failed paths; all failed: uniform over all ([NP])
        uint16_t cnt = 0;
        for (uint16_t i = 0; i < n; ++i)
        {
            cnt += (v[i].type != PathType::FAILED && ok(i)) ? 1 : 0;
        }
        if (cnt == 0)
        {
            return static_cast<int32_t>(draw(n));
        }
        uint32_t k = draw(cnt);
        for (uint16_t i = 0; i < n; ++i)
        {
            if (v[i].type != PathType::FAILED && ok(i) && k-- == 0)
            {
                return i;
            }
        }
        return cur; // not reached
    }
    if (p.reroute && v[cur].type == PathType::CONGESTED)
    {
        if (f.sentBytes > p.sBytes && f.rateBps < p.rBps)
        {
            const PathView& c = v[cur];
            auto better = [&](uint16_t i) {
                return (v[i].fresh || !p.betterNeedsSample) &&
                       c.rttNs - v[i].rttNs > static_cast<double>(p.dRttNs) &&
                       c.fEcn - v[i].fEcn > p.dEcn;
            };
            int32_t g = ArgminRp(
                v,
                n,
                [&](uint16_t i) { return v[i].type == PathType::GOOD && better(i); },
                draw);
            if (g >= 0)
            {
                return g;
            }
            g = ArgminRp(
                v,
                n,
                [&](uint16_t i) { return v[i].type == PathType::GRAY && better(i); },
                draw);
            return g >= 0 ? g : cur;
        }
    }
    return cur; // GOOD or GRAY (or not eligible): stay
}

/**
 * Paths to probe this interval (spec 2.4): the previous best plus 2 distinct random other
 * paths (no previous best: 3 distinct random paths); min(3, n) distinct indices written to
 * out; returns how many.
 */
template <class Draw>
uint16_t
ChooseProbes(int32_t prevBest, uint16_t n, Draw&& draw, uint16_t* out)
{
    const uint16_t want = n < 3 ? n : 3;
    uint16_t k = 0;
    if (prevBest >= 0 && prevBest < n && want > 0)
    {
        out[k++] = static_cast<uint16_t>(prevBest);
    }
    // distinct random picks among the paths not chosen yet (k <= 2, so O(1) retries per pick)
    while (k < want)
    {
        uint16_t c = static_cast<uint16_t>(draw(n - k));
        // map c to the c-th path not in out[0..k)
        for (uint16_t i = 0; i < n; ++i)
        {
            bool used = false;
            for (uint16_t j = 0; j < k; ++j)
            {
                used = used || out[j] == i;
            }
            if (!used && c-- == 0)
            {
                out[k++] = i;
                break;
            }
        }
    }
    return k;
}

/**
 * Paths to probe this interval with ProbeChoice=roundrobin (our resolution of Sec. 3.1.3's
 * "2 random + previously best", review s44 H3): the previous best plus the next 2 other
 * paths in cyclic order from `cursor`, which moves past them; the caller starts the cursor
 * at a random path.  With a fixed previous best every other path is probed once in every
 * ceil((n - 1) / 2) intervals (random picks: each misses a round with p = 1 - 2 / (n - 1)).
 * min(3, n) distinct indices written to out; returns how many.
 */
inline uint16_t
ChooseProbesRoundRobin(int32_t prevBest, uint16_t n, uint16_t& cursor, uint16_t* out)
{
    const uint16_t want = n < 3 ? n : 3;
    uint16_t k = 0;
    if (prevBest >= 0 && prevBest < n && want > 0)
    {
        out[k++] = static_cast<uint16_t>(prevBest);
    }
    for (uint16_t step = 0; step < n && k < want; ++step)
    {
        const uint16_t c = static_cast<uint16_t>(cursor % n);
        cursor = static_cast<uint16_t>((c + 1) % n);
        if (static_cast<int32_t>(c) != prevBest)
        {
            out[k++] = c;
        }
    }
    return k;
}

/** Best path for the next probe round: lowest type, then lowest RTT; -1 if n == 0. */
inline int32_t
BestPath(const PathView* v, uint16_t n)
{
    int32_t b = -1;
    for (uint16_t i = 0; i < n; ++i)
    {
        if (b < 0 || v[i].type < v[b].type || (v[i].type == v[b].type && v[i].rttNs < v[b].rttNs))
        {
            b = i;
        }
    }
    return b;
}

} // namespace hermes
} // namespace ns3

#endif // DCN_HERMES_CORE_H
