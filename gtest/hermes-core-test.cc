/*
 * GoogleTest tests of the Hermes core (model/lb/core/hermes-core.h), the spec's section 9
 * unit list: Algorithm 1 classification on crafted ECN/RTT sequences, failure detection
 * (timeouts, retransmission windows), DRE, staleness, Algorithm 2 decisions on a mocked path
 * table, and the probe choice.
 */
#include "ns3/hermes-core.h"

#include <array>
#include <gtest/gtest.h>
#include <random>
#include <set>
#include <vector>

using namespace ns3::hermes;

namespace
{
constexpr int64_t kUs = 1000;
constexpr int64_t kMs = 1000000;

/** Simulation thresholds of spec test 15: T_RTT_low 60 us, high 180 us, dRTT 80 us, dECN 5%. */
Params
SimParams()
{
    Params p;
    p.tRttLowNs = 60 * kUs;
    p.tRttHighNs = 180 * kUs;
    p.dRttNs = 80 * kUs;
    p.dEcn = 0.05;
    return p;
}

/** Signals with an exact ECN fraction and RTT (fresh at now). */
PathSignals
Sig(double ecn, int64_t rttNs, int64_t now = 0)
{
    PathSignals s;
    s.fEcn = ecn;
    s.rttNs = static_cast<double>(rttNs);
    s.seen = true;
    s.lastNs = now;
    return s;
}

struct Fixed
{
    uint32_t v{0};

    uint32_t operator()(uint32_t n) const
    {
        return v % n;
    }
};

// ------------------------------------------------------------ Algorithm 1
TEST(HermesClassify, CongestedGoodGray)
{
    const Params p = SimParams();
    PathFailure f;
    EXPECT_EQ(Classify(Sig(0.5, p.tRttHighNs + kUs), f, 0, p), PathType::CONGESTED); // test 1
    EXPECT_EQ(Classify(Sig(0.1, p.tRttLowNs - kUs), f, 0, p), PathType::GOOD);       // test 2
    EXPECT_EQ(Classify(Sig(0.5, p.tRttLowNs - kUs), f, 0, p), PathType::GRAY);       // test 3
    EXPECT_EQ(Classify(Sig(0.05, p.tRttHighNs + kUs), f, 0, p), PathType::GRAY);
    // test 4: exactly T_ECN is neither GOOD nor CONGESTED
    EXPECT_EQ(Classify(Sig(0.4, p.tRttLowNs - kUs), f, 0, p), PathType::GRAY);
    EXPECT_EQ(Classify(Sig(0.4, p.tRttHighNs + kUs), f, 0, p), PathType::GRAY);
}

TEST(HermesClassify, EwmaOfCraftedSequences)
{
    const Params p = SimParams();
    PathSignals s;
    PathFailure f;
    // 40 packets all marked at 300 us: ECN -> 1, RTT -> 300 us: CONGESTED
    for (int i = 0; i < 40; ++i)
    {
        s.OnSample(true, 300 * kUs, i * kUs, p);
    }
    EXPECT_GT(s.fEcn, 0.9);
    EXPECT_EQ(Classify(s, f, 40 * kUs, p), PathType::CONGESTED);
    // then 40 clean packets at 20 us: GOOD again (gain 1/8 on ECN, 1/2 on RTT)
    for (int i = 0; i < 40; ++i)
    {
        s.OnSample(false, 20 * kUs, (40 + i) * kUs, p);
    }
    EXPECT_LT(s.fEcn, 0.01);
    EXPECT_EQ(Classify(s, f, 80 * kUs, p), PathType::GOOD);
}

TEST(HermesClassify, NeverSeenAndStalePathsAreGray)
{
    const Params p = SimParams(); // StaleTime 2 ms = 4 x 500 us
    PathFailure f;
    PathSignals never;
    EXPECT_EQ(Classify(never, f, 0, p), PathType::GRAY);
    PathSignals s = Sig(0.0, 10 * kUs, 0);
    EXPECT_EQ(Classify(s, f, 2 * kMs, p), PathType::GOOD);
    EXPECT_EQ(Classify(s, f, 2 * kMs + 1, p), PathType::GRAY); // test 10
    // probed once every 2 probe intervals (1 ms): never stale
    for (int64_t t = 0; t < 20 * kMs; t += kMs)
    {
        s.OnSample(false, 10 * kUs, t, p);
        EXPECT_EQ(Classify(s, f, t + kMs - 1, p), PathType::GOOD);
    }
}

// HostCeSample=none: an RTT-only sample moves t_RTT and freshness, never f_ECN
TEST(HermesClassify, RttOnlySampleLeavesEcnFraction)
{
    Params p = SimParams();
    PathSignals s;
    s.OnSample(true, 100 * kUs, 0, p, false); // first sample, no ECN information
    EXPECT_EQ(s.fEcn, 0.0);
    EXPECT_EQ(s.rttNs, 100.0 * kUs);
    s.OnSample(true, 300 * kUs, kUs, p); // a marked ECN sample
    EXPECT_DOUBLE_EQ(s.fEcn, p.ecnGain);
    const double f = s.fEcn;
    for (int i = 0; i < 10; ++i)
    {
        s.OnSample(true, 10 * kUs, (2 + i) * kUs, p, false);
        s.OnSample(false, 10 * kUs, (2 + i) * kUs, p, false);
    }
    EXPECT_EQ(s.fEcn, f);
    EXPECT_NEAR(s.rttNs, 10.0 * kUs, 0.01 * kUs);
    EXPECT_EQ(s.lastNs, 11 * kUs);
    // after StaleTime it restarts t_RTT and drops the stale f_ECN (nothing new on it)
    EXPECT_GT(f, 0.0);
    s.OnSample(false, 50 * kUs, 11 * kUs + p.staleNs + 1, p, false);
    EXPECT_EQ(s.rttNs, 50.0 * kUs);
    EXPECT_EQ(s.fEcn, 0.0);
    // without restartStale the stale f_ECN is kept (no restart at all)
    Params keep = p;
    keep.restartStale = false;
    PathSignals k;
    k.OnSample(true, 100 * kUs, 0, keep);
    k.OnSample(false, 50 * kUs, keep.staleNs + 1, keep, false);
    EXPECT_EQ(k.fEcn, 1.0);
}

TEST(HermesClassify, StalePathRestartsOnFirstSample)
{
    // a path 90% marked at 300 us, then no sample for more than StaleTime, then one clean
    // probe reply at 10 us: with restartStale (default) the averages restart and the path
    // is GOOD at once; without, f_ECN blends 1/8 towards 0 and stays above T_ECN
    for (bool restart : {true, false})
    {
        Params p = SimParams();
        p.restartStale = restart;
        PathSignals s;
        PathFailure f;
        for (int i = 0; i < 40; ++i)
        {
            s.OnSample(i % 10 != 0, 300 * kUs, i * kUs, p);
        }
        ASSERT_EQ(Classify(s, f, 40 * kUs, p), PathType::CONGESTED);
        const int64_t t = 40 * kUs + p.staleNs + 1;
        EXPECT_EQ(Classify(s, f, t, p), PathType::GRAY); // stale
        s.OnSample(false, 10 * kUs, t, p);
        if (restart)
        {
            EXPECT_EQ(s.fEcn, 0.0);
            EXPECT_EQ(s.rttNs, 10.0 * kUs);
            EXPECT_EQ(Classify(s, f, t, p), PathType::GOOD);
        }
        else
        {
            EXPECT_GT(s.fEcn, p.tEcn);
            EXPECT_NE(Classify(s, f, t, p), PathType::GOOD);
        }
    }
    // not stale (exactly StaleTime since the last sample): the EWMA continues
    Params p = SimParams();
    PathSignals s = Sig(1.0, 300 * kUs, 0);
    s.OnSample(false, 10 * kUs, p.staleNs, p);
    EXPECT_DOUBLE_EQ(s.fEcn, 1.0 - p.ecnGain);
}

// ------------------------------------------------------------ failures (spec 2.3)
TEST(HermesFailure, ThirdTimeoutWithoutAckFails)
{
    const Params p = SimParams();
    PathSignals s = Sig(0, 10 * kUs);
    PathFailure f;
    f.OnTimeout(0, p);
    f.OnTimeout(10 * kMs, p);
    EXPECT_NE(Classify(s, f, 10 * kMs, p), PathType::FAILED); // two: not failed
    EXPECT_EQ(f.timeoutFailures, 0u);
    f.OnTimeout(30 * kMs, p);
    EXPECT_TRUE(f.failed);
    EXPECT_EQ(Classify(s, f, 30 * kMs, p), PathType::FAILED); // third: failed
    EXPECT_EQ(f.timeoutFailures, 1u);                         // counted once
    EXPECT_EQ(f.firstTimeoutFailureNs, 30 * kMs);
    f.OnTimeout(40 * kMs, p);
    EXPECT_EQ(f.timeoutFailures, 1u); // a fourth timeout while FAILED is no new detection
    EXPECT_EQ(f.retxFailures, 0u);
}

TEST(HermesFailure, AckBetweenTimeoutsResetsCounter)
{
    const Params p = SimParams();
    PathFailure f;
    f.OnTimeout(0, p);
    f.OnTimeout(kMs, p);
    f.OnAck(2 * kMs, p);
    EXPECT_EQ(f.nTimeout, 0u);
    f.OnTimeout(3 * kMs, p);
    EXPECT_FALSE(f.failed);
    EXPECT_EQ(Classify(Sig(0, 10 * kUs, 3 * kMs), f, 3 * kMs, p), PathType::GOOD);
}

TEST(HermesFailure, RetransmissionWindow)
{
    const Params p = SimParams();
    // 2% over a 10 ms window on a GRAY path -> FAILED
    PathFailure f;
    for (int i = 0; i < 100; ++i)
    {
        f.OnSend(i % 50 == 0, i * 50 * kUs, p);
    }
    f.OnAck(p.tauNs + 1, p); // closes the window
    EXPECT_DOUBLE_EQ(f.lastRetxFrac, 0.02);
    EXPECT_EQ(Classify(Sig(0.2, 100 * kUs, p.tauNs), f, p.tauNs + 1, p), PathType::FAILED);
    // the same on a CONGESTED path stays CONGESTED
    EXPECT_EQ(Classify(Sig(0.6, 300 * kUs, p.tauNs), f, p.tauNs + 1, p), PathType::CONGESTED);
    // 0.5% -> not failed
    PathFailure g;
    for (int i = 0; i < 200; ++i)
    {
        g.OnSend(i == 7, i * 50 * kUs, p);
    }
    g.OnAck(p.tauNs + 1, p);
    EXPECT_DOUBLE_EQ(g.lastRetxFrac, 0.005);
    EXPECT_EQ(Classify(Sig(0.2, 100 * kUs, p.tauNs), g, p.tauNs + 1, p), PathType::GRAY);
}

TEST(HermesFailure, RetransmissionFailureHoldsThroughIdleWindows)
{
    const Params p = SimParams();
    PathFailure f;
    for (int i = 0; i < 100; ++i)
    {
        f.OnSend(i % 25 == 0, i * 50 * kUs, p); // 4%
    }
    f.OnAck(p.tauNs + 1, p);
    EXPECT_EQ(Classify(Sig(0.2, 100 * kUs, p.tauNs), f, p.tauNs + 1, p), PathType::FAILED);
    EXPECT_EQ(f.retxFailures, 1u);                // the window that rose above T_RETX
    EXPECT_EQ(f.firstRetxFailureNs, p.tauNs + 1); // when that window closed
    // nothing is sent on the failed path: late ACKs close idle windows, the failure holds
    f.OnAck(3 * p.tauNs, p);
    f.OnAck(5 * p.tauNs, p);
    EXPECT_EQ(Classify(Sig(0.2, 100 * kUs, 5 * p.tauNs), f, 5 * p.tauNs, p), PathType::FAILED);
    EXPECT_EQ(f.retxFailures, 1u); // idle windows: no new detection
    // a clean window with data clears it
    f.OnSend(false, 5 * p.tauNs + kUs, p);
    f.OnAck(6 * p.tauNs + 2 * kUs, p);
    EXPECT_EQ(Classify(Sig(0.2, 100 * kUs, 6 * p.tauNs), f, 6 * p.tauNs + 2 * kUs, p),
              PathType::GRAY);
    // a lossy window after the clean one is a second episode: the first send closes the
    // window the clean one left open (one new segment, 0 %), the next 99 hold 4 resends
    for (int i = 0; i < 100; ++i)
    {
        f.OnSend(i % 25 == 24, 7 * p.tauNs + i * 50 * kUs, p);
    }
    EXPECT_EQ(f.retxFailures, 1u);
    f.OnAck(9 * p.tauNs, p);
    EXPECT_NEAR(f.lastRetxFrac, 4.0 / 99.0, 1e-12);
    EXPECT_EQ(f.retxFailures, 2u);
    EXPECT_EQ(f.firstRetxFailureNs, p.tauNs + 1); // the first detection's time stays
    EXPECT_EQ(f.timeoutFailures, 0u);
    EXPECT_EQ(f.firstTimeoutFailureNs, -1);
}

TEST(HermesFailure, TimeoutAndRetransmissionEvidenceSeparate)
{
    // RetxPerRack: timeouts per destination host, retransmissions per destination rack
    const Params p = SimParams();
    PathFailure host;
    PathFailure rack;
    for (int i = 0; i < 100; ++i)
    {
        rack.OnSend(i % 50 == 0, i * 50 * kUs, p); // 2%, from flows to other hosts
    }
    rack.OnAck(p.tauNs + 1, p);
    EXPECT_EQ(Classify(Sig(0.2, 100 * kUs, p.tauNs), host, rack, p.tauNs + 1, p), PathType::FAILED);
    EXPECT_EQ(Classify(Sig(0.2, 100 * kUs, p.tauNs), host, host, p.tauNs + 1, p), PathType::GRAY);
    // timeouts on the host record alone fail the path for that destination host only
    PathFailure h2;
    PathFailure r2;
    h2.OnTimeout(0, p);
    h2.OnTimeout(kMs, p);
    h2.OnTimeout(2 * kMs, p);
    r2.NoteTimeout(2 * kMs, p);
    EXPECT_EQ(r2.nTimeout, 0u);
    EXPECT_EQ(Classify(Sig(0.2, 100 * kUs, 2 * kMs), h2, r2, 2 * kMs, p), PathType::FAILED);
    EXPECT_EQ(Classify(Sig(0.2, 10 * kUs, 2 * kMs), r2, r2, 2 * kMs, p), PathType::GOOD);
}

TEST(HermesFailure, FailureHeldAtLeastTauThenClearedByCleanWindow)
{
    const Params p = SimParams();
    PathFailure f;
    f.OnTimeout(0, p);
    f.OnTimeout(kMs, p);
    f.OnTimeout(2 * kMs, p);
    ASSERT_TRUE(f.failed);
    f.OnAck(3 * kMs, p); // resets the counter, but the failure holds
    EXPECT_TRUE(f.failed);
    f.OnSend(false, 13 * kMs, p); // a new window starts (the old had a timeout)
    EXPECT_TRUE(f.failed);
    f.OnAck(14 * kMs, p);
    f.OnSend(false, 15 * kMs, p);
    f.OnSend(false, 24 * kMs, p); // closes a window with an ACK, no timeout, 0% retx
    EXPECT_FALSE(f.failed);
}

// ------------------------------------------------------------ DRE (test 9)
TEST(HermesDre, SettlesAtConstantRate)
{
    Params p;
    Dre d;
    const int64_t tau = static_cast<int64_t>(p.dreTNs / p.dreAlpha); // 150 us
    // 1 Gb/s: 1500 B every 12 us
    // after 5 tau the estimate is the DRE's saw-tooth between (1 - alpha) and 1 times the
    // rate; its mean over the next tau is within 10%
    double sum = 0;
    int samples = 0;
    for (int64_t t = 0; t < 6 * tau; t += 12 * kUs)
    {
        d.Add(1500, t, p);
        if (t >= 5 * tau)
        {
            const double r = d.Rate(t, p);
            EXPECT_GT(r, 0.75e9);
            EXPECT_LT(r, 1.05e9);
            sum += r;
            ++samples;
        }
    }
    EXPECT_NEAR(sum / samples, 1e9, 0.1e9);
}

// ------------------------------------------------------------ Algorithm 2 (tests 11-17)
PathView
View(PathType t, double ecn, int64_t rttNs, double rp)
{
    PathView v;
    v.type = t;
    v.fEcn = ecn;
    v.rttNs = static_cast<double>(rttNs);
    v.rpBps = rp;
    return v;
}

TEST(HermesDecide, NewFlowLeastLoadedGoodThenGrayThenRandom)
{
    const Params p = SimParams();
    FlowView f; // new
    PathView g[3] = {View(PathType::GOOD, 0, 0, 3e9),
                     View(PathType::GOOD, 0, 0, 1e9),
                     View(PathType::GOOD, 0, 0, 2e9)};
    EXPECT_EQ(Decide(f, g, 3, p, Fixed{}), 1);
    PathView y[3] = {View(PathType::GRAY, 0, 0, 3e9),
                     View(PathType::CONGESTED, 0, 0, 0),
                     View(PathType::GRAY, 0, 0, 2e9)};
    EXPECT_EQ(Decide(f, y, 3, p, Fixed{}), 2);
    PathView c[3] = {View(PathType::CONGESTED, 0, 0, 0),
                     View(PathType::FAILED, 0, 0, 0),
                     View(PathType::CONGESTED, 0, 0, 0)};
    std::set<int32_t> seen;
    for (uint32_t k = 0; k < 4; ++k)
    {
        int32_t d = Decide(f, c, 3, p, Fixed{k});
        EXPECT_NE(d, 1);
        seen.insert(d);
    }
    EXPECT_EQ(seen.size(), 2u); // random over the two non-failed paths
}

TEST(HermesDecide, FailedCurrentPathMovesEvenWhenSmall)
{
    const Params p = SimParams();
    FlowView f;
    f.cur = 0;
    f.sentBytes = 1000; // < S
    PathView v[2] = {View(PathType::FAILED, 0, 0, 0), View(PathType::GRAY, 0, 0, 5e9)};
    EXPECT_EQ(Decide(f, v, 2, p, Fixed{}), 1); // test 12
}

TEST(HermesDecide, CongestedStaysUnlessPastSAndBelowR)
{
    const Params p = SimParams();
    PathView v[2] = {View(PathType::CONGESTED, 0.42, 300 * kUs, 1e9),
                     View(PathType::GOOD, 0.0, 10 * kUs, 0)};
    FlowView f;
    f.cur = 0;
    f.rateBps = 1e9;
    f.sentBytes = 599000;
    EXPECT_EQ(Decide(f, v, 2, p, Fixed{}), 0); // test 13: 599 KB
    f.sentBytes = 600000;
    EXPECT_EQ(Decide(f, v, 2, p, Fixed{}), 0); // exactly S: strict
    f.sentBytes = 600001;
    EXPECT_EQ(Decide(f, v, 2, p, Fixed{}), 1);
    f.rateBps = 3e9; // test 14: r_f >= R
    EXPECT_EQ(Decide(f, v, 2, p, Fixed{}), 0);
    Params off = p;
    off.reroute = false;
    f.rateBps = 1e9;
    EXPECT_EQ(Decide(f, v, 2, off, Fixed{}), 0); // rerouting disabled
}

TEST(HermesDecide, NotablyBetterRule)
{
    const Params p = SimParams(); // test 15
    FlowView f;
    f.cur = 0;
    f.sentBytes = 1000000;
    f.rateBps = 1e9;
    const PathView cur = View(PathType::CONGESTED, 0.42, 300 * kUs, 1e9);
    auto run = [&](PathView q) {
        PathView v[2] = {cur, q};
        return Decide(f, v, 2, p, Fixed{});
    };
    EXPECT_EQ(run(View(PathType::GOOD, 0.38, 50 * kUs, 0)), 0);  // ECN gap 4% < 5%
    EXPECT_EQ(run(View(PathType::GOOD, 0.30, 50 * kUs, 0)), 1);  // moves
    EXPECT_EQ(run(View(PathType::GRAY, 0.10, 250 * kUs, 0)), 0); // RTT gap 50 us < 80 us
    EXPECT_EQ(run(View(PathType::GRAY, 0.10, 200 * kUs, 0)), 1); // moves
}

TEST(HermesDecide, UnsampledOrStaleGrayPathIsNotNotablyBetter)
{
    // review s53 H1: a GRAY path whose signals are not fresh (never sampled: RTT 0, ECN 0;
    // or stale) is no measurement of "notably better"; CandidateNeedsSample (default)
    Params p = SimParams();
    FlowView f;
    f.cur = 0;
    f.sentBytes = 1000000;
    f.rateBps = 1e9;
    PathView v[2] = {View(PathType::CONGESTED, 0.42, 300 * kUs, 1e9),
                     View(PathType::GRAY, 0.0, 0, 0)};
    v[1].fresh = false;
    EXPECT_EQ(Decide(f, v, 2, p, Fixed{}), 0); // stays
    v[1].fresh = true;                         // the same values, measured: moves
    EXPECT_EQ(Decide(f, v, 2, p, Fixed{}), 1);
    v[1].fresh = false;
    p.betterNeedsSample = false; // before 2026-12-01: the stored values count
    EXPECT_EQ(Decide(f, v, 2, p, Fixed{}), 1);
}

TEST(HermesDecide, BetterGoodBeatsBetterGray)
{
    const Params p = SimParams(); // test 16
    FlowView f;
    f.cur = 0;
    f.sentBytes = 1000000;
    f.rateBps = 1e9;
    PathView v[3] = {View(PathType::CONGESTED, 0.6, 300 * kUs, 1e9),
                     View(PathType::GRAY, 0.1, 100 * kUs, 0),
                     View(PathType::GOOD, 0.1, 40 * kUs, 2e9)};
    EXPECT_EQ(Decide(f, v, 3, p, Fixed{}), 2);
    v[2].type = PathType::CONGESTED;
    EXPECT_EQ(Decide(f, v, 3, p, Fixed{}), 1);
}

TEST(HermesDecide, GoodOrGrayCurrentNeverMoves)
{
    const Params p = SimParams(); // test 17
    FlowView f;
    f.cur = 0;
    f.sentBytes = 10000000;
    for (PathType t : {PathType::GOOD, PathType::GRAY})
    {
        PathView v[2] = {View(t, 0.3, 170 * kUs, 9e9), View(PathType::GOOD, 0, 0, 0)};
        EXPECT_EQ(Decide(f, v, 2, p, Fixed{}), 0);
    }
}

TEST(HermesDecide, TimeoutReplacesLiterallyIncludingCurrent)
{
    Params p = SimParams();
    FlowView f;
    f.cur = 0;
    f.timedOut = true;
    PathView v[2] = {View(PathType::GRAY, 0, 0, 0), View(PathType::GRAY, 0, 0, 1e9)};
    EXPECT_EQ(Decide(f, v, 2, p, Fixed{}), 0); // literal rule: may stay (least r_p)
    p.excludeCurrentOnTimeout = true;
    EXPECT_EQ(Decide(f, v, 2, p, Fixed{}), 1);
}

// ------------------------------------------------------------ probes (test 18)
TEST(HermesProbes, PreviousBestPlusTwoDistinctRandom)
{
    std::mt19937 g(7);
    auto draw = [&](uint32_t n) { return static_cast<uint32_t>(g() % n); };
    std::set<uint16_t> randomSeen;
    for (int round = 0; round < 200; ++round)
    {
        uint16_t out[3];
        uint16_t k = ChooseProbes(5, 8, draw, out);
        ASSERT_EQ(k, 3);
        EXPECT_EQ(out[0], 5);
        EXPECT_NE(out[1], out[2]);
        EXPECT_NE(out[1], 5);
        EXPECT_NE(out[2], 5);
        randomSeen.insert(out[1]);
        randomSeen.insert(out[2]);
    }
    EXPECT_EQ(randomSeen.size(), 7u); // every other path gets probed
    uint16_t out[3];
    EXPECT_EQ(ChooseProbes(-1, 8, draw, out), 3);
    EXPECT_EQ(ChooseProbes(0, 2, draw, out), 2);
    // Table 6 setup (100 x 100 leaf-spine, 10G, 64 B probes every 500 us): an agent sends
    // 3 probes to each of 99 other racks per interval, about 3% of its 10G edge link
    const double perAgentBps = 3.0 * 99 * 64 * 8 / 500e-6;
    EXPECT_NEAR(perAgentBps / 10e9, 0.03, 0.002);
}

// ProbeChoice=roundrobin (review s44 H3): at n = 8 with a fixed previous best, any
// ceil(7 / 2) = 4 consecutive rounds probe every other path; random picks miss one in 4
// rounds with p = (5/7)^4 = 26%, so over 200 windows some window misses a path

/** Windows of `window` consecutive rounds that do not probe all n paths. */
uint32_t
WindowsMissingAPath(const std::vector<std::array<uint16_t, 3>>& rounds, size_t window, size_t n)
{
    uint32_t missed = 0;
    for (size_t w = 0; w + window <= rounds.size(); ++w)
    {
        std::set<uint16_t> seen;
        for (size_t r = w; r < w + window; ++r)
        {
            seen.insert(rounds[r].begin(), rounds[r].end());
        }
        missed += seen.size() < n ? 1 : 0;
    }
    return missed;
}

TEST(HermesProbes, RoundRobinCoversEveryPathWithinCeilHalfIntervals)
{
    const uint16_t n = 8;
    const int32_t best = 5;
    const uint16_t window = (n - 1 + 1) / 2; // ceil((n - 1) / 2)
    ASSERT_EQ(window, 4);
    for (uint16_t start = 0; start < n; ++start)
    {
        uint16_t cursor = start;
        std::vector<std::array<uint16_t, 3>> rounds;
        for (int r = 0; r < 40; ++r)
        {
            std::array<uint16_t, 3> out{};
            ASSERT_EQ(ChooseProbesRoundRobin(best, n, cursor, out.data()), 3);
            EXPECT_EQ(out[0], best);
            EXPECT_NE(out[1], out[2]);
            EXPECT_NE(out[1], best);
            EXPECT_NE(out[2], best);
            rounds.push_back(out);
        }
        EXPECT_EQ(WindowsMissingAPath(rounds, window, n), 0u) << "start " << start;
    }
    // the random choice does not guarantee it
    std::mt19937 g(3);
    auto draw = [&](uint32_t k) { return static_cast<uint32_t>(g() % k); };
    std::vector<std::array<uint16_t, 3>> rnd;
    for (int r = 0; r < 200; ++r)
    {
        std::array<uint16_t, 3> out{};
        ChooseProbes(best, n, draw, out.data());
        rnd.push_back(out);
    }
    EXPECT_GT(WindowsMissingAPath(rnd, window, n), 0u);
    // no previous best: 3 in turn; n <= 3: every path
    uint16_t cursor = 6;
    uint16_t out[3];
    ASSERT_EQ(ChooseProbesRoundRobin(-1, n, cursor, out), 3);
    EXPECT_EQ(out[0], 6);
    EXPECT_EQ(out[1], 7);
    EXPECT_EQ(out[2], 0);
    EXPECT_EQ(cursor, 1);
    cursor = 0;
    EXPECT_EQ(ChooseProbesRoundRobin(1, 2, cursor, out), 2);
    EXPECT_EQ(out[0], 1);
    EXPECT_EQ(out[1], 0);
}

TEST(HermesProbes, BestPathByTypeThenRtt)
{
    PathView v[3] = {View(PathType::GRAY, 0, 10 * kUs, 0),
                     View(PathType::GOOD, 0, 50 * kUs, 0),
                     View(PathType::GOOD, 0, 20 * kUs, 0)};
    EXPECT_EQ(BestPath(v, 3), 2);
}

} // namespace

// ------------------------------------------------- paper Examples 1 and 2 (tests 21, 22)
// Algorithm 1 + 2 end to end on signals built from echo samples: PathSignals fed with
// (CE, RTT) samples -> Classify -> Decide.  10G, base RTT 40 us, T_RTT_low = 60 us; a
// DCTCP bottleneck hop holds about K = 65 packets = 78 us of queue.

namespace
{

/** Signals after n samples with a CE fraction `ce` (every k-th marked) and RTT rttNs. */
PathSignals
Fed(double ce, int64_t rttNs, int n, int64_t now, const Params& p)
{
    PathSignals s;
    double acc = 0;
    for (int i = 0; i < n; ++i)
    {
        acc += ce;
        const bool mark = acc >= 1.0;
        acc -= mark ? 1.0 : 0.0;
        s.OnSample(mark, rttNs, now - (n - i) * kUs, p);
    }
    return s;
}

PathView
ViewOf(const PathSignals& s, double rp, int64_t now, const Params& p)
{
    PathFailure none;
    PathView v;
    v.type = Classify(s, none, now, p);
    v.fEcn = s.fEcn;
    v.rttNs = s.rttNs;
    v.rpBps = rp;
    return v;
}

} // namespace

TEST(HermesExamples, Example1LargeFlowsRerouteOnlyWhenAllowed)
{
    // 2 leaves x 2 spines; small flows A, B on P1 (index 0); large flows C, D on P2 (1)
    // at ~5 Gb/s each: one DCTCP bottleneck hop on P2 -> RTT ~ 40 + 78 us, ECN ~ 50%
    const int64_t now = 10 * kMs;
    Params p = SimParams();
    FlowView c;
    c.cur = 1;
    c.sentBytes = 5000000;
    c.rateBps = 5e9;
    const PathSignals p2 = Fed(0.5, 125 * kUs, 64, now, p);
    const PathSignals p1Busy = Fed(0.5, 125 * kUs, 64, now, p);  // A and B running
    const PathSignals p1Idle = Fed(0.0, 42 * kUs, 64, now, p);   // A and B done (probes)
    const PathSignals p1WithC = Fed(0.3, 100 * kUs, 64, now, p); // C's echoes arrived
    Fixed draw;
    {
        // defaults: P2 is GRAY (one hop of queue stays below T_RTT_high = 180 us) -> no move
        PathView v[2] = {ViewOf(p1Idle, 0, now, p), ViewOf(p2, 10e9, now, p)};
        EXPECT_EQ(v[1].type, PathType::GRAY);
        EXPECT_EQ(Decide(c, v, 2, p, draw), 1);
    }
    p.tRttHighNs = 100 * kUs; // lowered until P2 is CONGESTED
    {
        // R = 3 Gb/s: C at 5 Gb/s is never rerouted
        PathView v[2] = {ViewOf(p1Idle, 0, now, p), ViewOf(p2, 10e9, now, p)};
        EXPECT_EQ(v[1].type, PathType::CONGESTED);
        EXPECT_EQ(v[0].type, PathType::GOOD);
        EXPECT_EQ(Decide(c, v, 2, p, draw), 1);
    }
    p.rBps = 10e9; // R = 100% of the link
    {
        // while A and B run, P1 is no better: stay
        PathView v[2] = {ViewOf(p1Busy, 1e9, now, p), ViewOf(p2, 10e9, now, p)};
        EXPECT_EQ(Decide(c, v, 2, p, draw), 1);
    }
    {
        // A and B finished: P1 is GOOD and notably better (83 us, 50 points) -> C moves
        PathView v[2] = {ViewOf(p1Idle, 0, now, p), ViewOf(p2, 10e9, now, p)};
        EXPECT_EQ(Decide(c, v, 2, p, draw), 0);
        // D decides after C's echoes raised P1's RTT and ECN: no longer notably better
        FlowView d = c;
        PathView w[2] = {ViewOf(p1WithC, 5e9, now, p), ViewOf(p2, 5e9, now, p)};
        EXPECT_EQ(Decide(d, w, 2, p, draw), 1);
    }
}

TEST(HermesExamples, Example2FlowBehindUdpMovesOnlyWhenCongestedAndPastS)
{
    // 3 x 2 leaf-spine, L0-S1 cut, 9 Gb/s UDP L0 -> L2 through S0; a DCTCP flow L1 -> L2
    // forced onto S0 (index 0) gets ~1 Gb/s behind one DCTCP bottleneck hop: ECN ~ 90%,
    // RTT ~ 40 + 78 us; S1 (index 1) is idle
    const int64_t now = 10 * kMs;
    Params p = SimParams();
    const PathSignals s0 = Fed(0.9, 125 * kUs, 64, now, p);
    const PathSignals s1 = Fed(0.0, 42 * kUs, 64, now, p);
    FlowView f;
    f.cur = 0;
    f.sentBytes = 2 * p.sBytes;
    f.rateBps = 1e9;
    Fixed draw;
    {
        // default thresholds: S0 is GRAY (the literal cautious rule) -> the flow stays
        PathView v[2] = {ViewOf(s0, 1e9, now, p), ViewOf(s1, 0, now, p)};
        EXPECT_EQ(v[0].type, PathType::GRAY);
        EXPECT_EQ(Decide(f, v, 2, p, draw), 0);
    }
    p.tRttHighNs = 100 * kUs; // below base + one hop: S0 turns CONGESTED
    PathView v[2] = {ViewOf(s0, 1e9, now, p), ViewOf(s1, 0, now, p)};
    EXPECT_EQ(v[0].type, PathType::CONGESTED);
    EXPECT_EQ(v[1].type, PathType::GOOD);
    f.sentBytes = p.sBytes; // exactly S: not yet
    EXPECT_EQ(Decide(f, v, 2, p, draw), 0);
    f.sentBytes = p.sBytes + 1400; // past S, r_f = 1 Gb/s < R = 3 Gb/s: moves to S1
    EXPECT_EQ(Decide(f, v, 2, p, draw), 1);
    f.rateBps = 3e9; // at R: stays
    EXPECT_EQ(Decide(f, v, 2, p, draw), 0);
    // delta RTT = one hop delay (Table 4): with exactly one hop of queue (40 + 78 us) the
    // idle path is 76 us faster, not notably better -> stays; the move needs the queue
    // above ~K packets
    f.rateBps = 1e9;
    const PathSignals s0OneHop = Fed(0.9, 118 * kUs, 64, now, p);
    PathView w[2] = {ViewOf(s0OneHop, 1e9, now, p), ViewOf(s1, 0, now, p)};
    EXPECT_EQ(w[0].type, PathType::CONGESTED);
    EXPECT_EQ(Decide(f, w, 2, p, draw), 0);
}
