/*
 * GoogleTest tests of the host-side baseline selector cores in
 * model/lb/core/ (DRB, Presto*, CLOVE-ECN, PLB, MPRDMA, BitMap, Flicr).
 * Randomness comes from fixed sequences or a seeded std::mt19937.
 */
#include "ns3/bitmap-core.h"
#include "ns3/clove-core.h"
#include "ns3/drb-core.h"
#include "ns3/flicr-core.h"
#include "ns3/mprdma-core.h"
#include "ns3/plb-core.h"
#include "ns3/presto-core.h"

#include <gtest/gtest.h>
#include <random>
#include <set>
#include <vector>

using namespace ns3::lbcore;

namespace
{
constexpr int64_t kUs = 1000;

// ---------------------------------------------------------------- common
TEST(LbCoreCommon, WeightedPickFollowsCumulativeWeights)
{
    const double w[3] = {1, 2, 1};
    EXPECT_EQ(WeightedPick(w, 3, 0.0), 0);
    EXPECT_EQ(WeightedPick(w, 3, 0.24), 0);
    EXPECT_EQ(WeightedPick(w, 3, 0.26), 1);
    EXPECT_EQ(WeightedPick(w, 3, 0.74), 1);
    EXPECT_EQ(WeightedPick(w, 3, 0.76), 2);
    EXPECT_EQ(WeightedPick(w, 3, 0.9999), 2);
    // excluding index 1 leaves {0, 2} with equal weight
    EXPECT_EQ(WeightedPick(w, 3, 0.49, 1), 0);
    EXPECT_EQ(WeightedPick(w, 3, 0.51, 1), 2);
}

TEST(LbCoreCommon, SmoothWrrExactSharesPerCycle)
{
    SmoothWrr wrr;
    wrr.Reset(3);
    const double w[3] = {3, 1, 2};
    int count[3] = {0, 0, 0};
    int maxRun = 0;
    int run = 0;
    int prev = -1;
    for (int i = 0; i < 6 * 10; ++i)
    {
        const int p = wrr.Next(w);
        count[p]++;
        run = p == prev ? run + 1 : 1;
        prev = p;
        maxRun = std::max(maxRun, run);
    }
    EXPECT_EQ(count[0], 30);
    EXPECT_EQ(count[1], 10);
    EXPECT_EQ(count[2], 20);
    EXPECT_LE(maxRun, 2); // smooth: path 0 (half the weight) never thrice in a row
}

// ---------------------------------------------------------------- DRB
TEST(DrbCore, CyclesThroughAllPaths)
{
    for (uint16_t n : {1, 2, 5, 8, 64})
    {
        for (uint16_t start : {0, 3})
        {
            DrbCore drb;
            EXPECT_TRUE(drb.Configure(DrbConfig{n, true}, start));
            std::vector<int> seen(n, 0);
            uint16_t prev = drb.Next();
            seen[prev]++;
            EXPECT_EQ(prev, start % n);
            for (int i = 1; i < 3 * n; ++i)
            {
                const uint16_t p = drb.Next();
                ASSERT_LT(p, n);
                EXPECT_EQ(p, (prev + 1) % n); // strict round robin
                seen[p]++;
                prev = p;
            }
            for (int c : seen)
            {
                EXPECT_EQ(c, 3); // every path exactly once per cycle
            }
        }
    }
}

TEST(DrbCore, RefusesZeroPaths)
{
    DrbCore drb;
    EXPECT_FALSE(drb.Configure(DrbConfig{0, false}));
    EXPECT_EQ(drb.Next(), 0);
}

// ---------------------------------------------------------------- Presto*
TEST(PrestoCore, FlowcellsOf64KbRotateOverPaths)
{
    PrestoConfig cfg;
    cfg.numPaths = 4;
    PrestoCore p;
    ASSERT_TRUE(p.Configure(cfg, 0));
    EXPECT_EQ(cfg.flowcellBytes, 65536u);
    // 1000-byte segments: 65 fit in a 64 KB cell, the 66th starts a new one
    std::vector<uint16_t> cellPath;
    uint16_t cur = p.OnSend(1000);
    cellPath.push_back(cur);
    uint32_t inCell = 1;
    for (int i = 1; i < 65 * 8; ++i)
    {
        const uint16_t path = p.OnSend(1000);
        if (p.GetFlowcellId() + 1 != cellPath.size())
        {
            EXPECT_EQ(inCell, 65u) << "a flowcell holds floor(65536/1000) segments";
            cellPath.push_back(path);
            inCell = 0;
        }
        else
        {
            EXPECT_EQ(path, cellPath.back()) << "path constant within a flowcell";
        }
        inCell++;
    }
    ASSERT_EQ(cellPath.size(), 8u);
    for (size_t i = 0; i < cellPath.size(); ++i)
    {
        EXPECT_EQ(cellPath[i], i % 4) << "round robin over the 4 paths";
    }
}

TEST(PrestoCore, StaticWeightsFollowAsymmetry)
{
    PrestoConfig cfg;
    cfg.numPaths = 3;
    cfg.weights[0] = 5; // e.g. a 10G path
    cfg.weights[1] = 1; // a 2G path (Hermes asymmetric setting)
    cfg.weights[2] = 5;
    cfg.flowcellBytes = 1500; // per-packet cells, as Hermes' Presto*
    PrestoCore p;
    ASSERT_TRUE(p.Configure(cfg, 2));
    int count[3] = {0, 0, 0};
    for (int i = 0; i < 11 * 100; ++i)
    {
        count[p.OnSend(1500)]++;
    }
    EXPECT_EQ(count[0], 500);
    EXPECT_EQ(count[1], 100);
    EXPECT_EQ(count[2], 500);
}

TEST(PrestoCore, ZeroWeightPathUnused)
{
    PrestoConfig cfg;
    cfg.numPaths = 3;
    cfg.weights[1] = 0;
    PrestoCore p;
    ASSERT_TRUE(p.Configure(cfg, 1));
    for (int i = 0; i < 1000; ++i)
    {
        EXPECT_NE(p.OnSend(9000), 1);
    }
}

// ---------------------------------------------------------------- CLOVE-ECN
TEST(CloveCore, KeepsPathWithinFlowletAndMovesAfterGap)
{
    CloveConfig cfg;
    cfg.numPaths = 4;
    CloveCore c;
    ASSERT_TRUE(c.Configure(cfg));
    EXPECT_EQ(cfg.flowletTimeoutNs, 150 * kUs);
    int64_t t = 0;
    const uint16_t p0 = c.OnSend(t);
    for (int i = 0; i < 100; ++i)
    {
        t += 150 * kUs; // gap == timeout: same flowlet
        EXPECT_EQ(c.OnSend(t), p0);
    }
    t += 150 * kUs + 1; // gap > timeout
    const uint16_t p1 = c.OnSend(t);
    EXPECT_NE(p1, p0); // equal weights: WRR moves on
    EXPECT_EQ(c.GetFlowletCount(), 2u);
}

TEST(CloveCore, EcnLowersPathWeightAndShiftsFlowlets)
{
    CloveConfig cfg;
    cfg.numPaths = 3;
    CloveCore c;
    ASSERT_TRUE(c.Configure(cfg));
    EXPECT_TRUE(c.OnEcn(1, 0));
    EXPECT_NEAR(c.GetWeight(1), (1.0 / 3) * (2.0 / 3), 1e-12); // cut by a third
    EXPECT_NEAR(c.GetWeight(0), 1.0 / 3 + 1.0 / 18, 1e-12);    // spread equally
    EXPECT_NEAR(c.GetWeight(0) + c.GetWeight(1) + c.GetWeight(2), 1.0, 1e-12);
    EXPECT_LT(c.GetWeight(1), c.GetWeight(0));
    // more ECN on path 1: its share of new flowlets falls below the others'
    for (int i = 0; i < 3; ++i)
    {
        c.OnEcn(1, (i + 1) * kUs);
    }
    int count[3] = {0, 0, 0};
    int64_t t = 0;
    for (int i = 0; i < 3000; ++i)
    {
        t += 200 * kUs; // every packet a new flowlet
        count[c.OnSend(t)]++;
    }
    EXPECT_LT(count[1] * 3, count[0]);
    EXPECT_LT(count[1] * 3, count[2]);
    EXPECT_GT(count[1], 0);
}

TEST(CloveCore, CutRateLimitPerPath)
{
    CloveConfig cfg;
    cfg.numPaths = 2;
    cfg.minCutIntervalNs = 10 * kUs;
    CloveCore c;
    ASSERT_TRUE(c.Configure(cfg));
    EXPECT_TRUE(c.OnEcn(0, 100 * kUs));
    const double w = c.GetWeight(0);
    EXPECT_FALSE(c.OnEcn(0, 105 * kUs));
    EXPECT_DOUBLE_EQ(c.GetWeight(0), w);
    EXPECT_TRUE(c.OnEcn(0, 110 * kUs));
    EXPECT_LT(c.GetWeight(0), w);
}

// ---------------------------------------------------------------- PLB
/** Drives PLB with PSN-based rounds: each round = `perRound` ACKs, the last
 *  one covering the round's end PSN. */
struct PlbDriver
{
    PlbCore plb;
    uint64_t psn{0};
    int64_t now{0};

    PlbAction Round(uint32_t perRound, uint32_t marked, uint32_t inFlight)
    {
        PlbAction a = PlbAction::NONE;
        const uint64_t end = psn + perRound; // sndNxt at round start
        for (uint32_t i = 0; i < perRound; ++i)
        {
            ++psn;
            now += kUs;
            PlbAction r = plb.OnFeedback(psn, i < marked, end + perRound, inFlight, now);
            if (r != PlbAction::NONE)
            {
                EXPECT_EQ(a, PlbAction::NONE) << "at most one action per round";
                a = r;
            }
        }
        return a;
    }
};

TEST(PlbCore, ForcedRepathAfterExactlyNCongestedRounds)
{
    PlbDriver d;
    ASSERT_TRUE(d.plb.Configure(PlbConfig{}));
    EXPECT_EQ(d.plb.GetConfig().rehashRounds, 12u);
    d.plb.StartRound(10, 0);
    for (int r = 1; r <= 11; ++r)
    {
        EXPECT_EQ(d.Round(10, 5, 5), PlbAction::NONE) << "round " << r; // 50%: congested
        EXPECT_EQ(d.plb.GetConsecutiveCongestedRounds(), static_cast<uint32_t>(r));
    }
    EXPECT_EQ(d.Round(10, 10, 5), PlbAction::FORCED_REPATH); // the 12th
    EXPECT_EQ(d.plb.GetConsecutiveCongestedRounds(), 0u);
    EXPECT_EQ(d.plb.GetRepaths(), 1u);
}

TEST(PlbCore, CleanRoundResetsCounter)
{
    PlbDriver d;
    ASSERT_TRUE(d.plb.Configure(PlbConfig{}));
    d.plb.StartRound(10, 0);
    for (int r = 0; r < 11; ++r)
    {
        EXPECT_EQ(d.Round(10, 6, 5), PlbAction::NONE);
    }
    EXPECT_EQ(d.Round(10, 4, 5), PlbAction::NONE); // 40% < 50%: clean
    EXPECT_EQ(d.plb.GetConsecutiveCongestedRounds(), 0u);
    for (int r = 0; r < 11; ++r)
    {
        EXPECT_EQ(d.Round(10, 5, 5), PlbAction::NONE);
    }
    EXPECT_EQ(d.Round(10, 5, 5), PlbAction::FORCED_REPATH);
}

TEST(PlbCore, IdleRepathOnlyWithNothingInFlight)
{
    PlbDriver d;
    ASSERT_TRUE(d.plb.Configure(PlbConfig{}));
    d.plb.StartRound(10, 0);
    EXPECT_EQ(d.Round(10, 10, 3), PlbAction::NONE);
    EXPECT_EQ(d.Round(10, 10, 3), PlbAction::NONE);
    EXPECT_EQ(d.Round(10, 10, 3), PlbAction::NONE); // 3 rounds but packets in flight
    EXPECT_EQ(d.Round(10, 10, 0), PlbAction::IDLE_REPATH);
    EXPECT_EQ(d.plb.GetConsecutiveCongestedRounds(), 0u);
    // fewer than 3 congested rounds: no idle repath even when idle
    EXPECT_EQ(d.Round(10, 10, 0), PlbAction::NONE);
    EXPECT_EQ(d.Round(10, 10, 0), PlbAction::NONE);
    EXPECT_EQ(d.Round(10, 10, 0), PlbAction::IDLE_REPATH);
}

TEST(PlbCore, RtoSuspendsRepathing)
{
    PlbDriver d;
    PlbConfig cfg;
    cfg.suspendRtoNs = 1000 * kUs;
    ASSERT_TRUE(d.plb.Configure(cfg));
    d.plb.StartRound(10, 0);
    EXPECT_EQ(d.Round(10, 10, 5), PlbAction::NONE);
    EXPECT_EQ(d.plb.GetConsecutiveCongestedRounds(), 1u);
    // Linux: the RTO itself moves the flow (txhash rethink); PLB resets and pauses
    EXPECT_EQ(d.plb.OnRto(d.now, 500 * kUs), PlbAction::RTO_REPATH);
    EXPECT_EQ(d.plb.GetConsecutiveCongestedRounds(), 0u);
    EXPECT_TRUE(d.plb.IsSuspended(d.now));
    for (int r = 0; r < 12; ++r)
    {
        EXPECT_EQ(d.Round(10, 10, 5), PlbAction::NONE); // 120 us < 1.5 ms
    }
    EXPECT_GE(d.plb.GetConsecutiveCongestedRounds(), 12u);
    d.now += 1500 * kUs;
    EXPECT_EQ(d.Round(10, 10, 5), PlbAction::FORCED_REPATH);
}

TEST(PlbCore, RtoWithoutRepathOnlySuspends)
{
    PlbCore plb;
    PlbConfig cfg;
    cfg.repathOnRto = false;
    ASSERT_TRUE(plb.Configure(cfg));
    EXPECT_EQ(plb.OnRto(0, 0), PlbAction::NONE);
    EXPECT_TRUE(plb.IsSuspended(59'000'000'000));
    EXPECT_EQ(plb.GetRepaths(), 0u);
}

TEST(PlbCore, NackIsNoDeliveryUnlessCongestion)
{
    PlbCore plb;
    ASSERT_TRUE(plb.Configure(PlbConfig{}));
    plb.StartRound(1, 0);
    // one marked delivery and three NACKs: fraction 1/1, not 1/4
    for (int i = 0; i < 3; ++i)
    {
        EXPECT_EQ(plb.OnNack(5, 2, 4, 0), PlbAction::NONE);
    }
    EXPECT_EQ(plb.GetRounds(), 0u) << "a NACK ends no round";
    EXPECT_EQ(plb.OnFeedback(1, true, 2, 4, 0), PlbAction::NONE);
    EXPECT_EQ(plb.GetRounds(), 1u);
    EXPECT_EQ(plb.GetConsecutiveCongestedRounds(), 1u);
}

TEST(PlbCore, GoBackNackCoversUpToTheNackedPsnLessOne)
{
    // review s49 L1: a go-back-N NACK names the first PSN not received, so it ends
    // a PSN round only when the PSN before it reaches the round's end
    PlbCore plb;
    PlbConfig cfg;
    cfg.nackIsCongestion = true; // --setup=authors
    ASSERT_TRUE(plb.Configure(cfg));
    plb.StartRound(10, 0);
    EXPECT_EQ(plb.OnNack(10, 20, 0, 1), PlbAction::NONE);
    EXPECT_EQ(plb.GetRounds(), 0u) << "PSN 10 itself was not delivered";
    EXPECT_EQ(plb.OnNack(11, 20, 0, 2), PlbAction::NONE);
    EXPECT_EQ(plb.GetRounds(), 1u) << "PSNs up to 10 delivered: the round ends";
    EXPECT_EQ(plb.GetConsecutiveCongestedRounds(), 1u);
    // a NACK of PSN 0 counts a mark and ends no round
    PlbCore first;
    ASSERT_TRUE(first.Configure(cfg));
    EXPECT_EQ(first.OnNack(0, 8, 0, 0), PlbAction::NONE);
    EXPECT_EQ(first.GetRounds(), 0u);
    EXPECT_EQ(first.OnFeedback(8, false, 16, 0, 1), PlbAction::NONE);
    EXPECT_EQ(first.GetRounds(), 1u);
    EXPECT_EQ(first.GetConsecutiveCongestedRounds(), 1u) << "1 mark of 2: 50 % congested";
}

TEST(PlbCore, NackEndedRoundsWithNothingInFlightRepathAsIdle)
{
    // review s49 L2: the go-back-N sender reports 0 in flight with its NACK ([A]:
    // snd_nxt = snd_una after RecoverQueue), so three NACK-ended congested rounds
    // repath as idle, not after the forced twelve
    PlbCore plb;
    PlbConfig cfg;
    cfg.nackIsCongestion = true;
    ASSERT_TRUE(plb.Configure(cfg));
    uint64_t end = 10;
    plb.StartRound(end, 0);
    EXPECT_EQ(plb.OnNack(end + 1, end + 10, 0, 1), PlbAction::NONE);
    end += 10;
    EXPECT_EQ(plb.OnNack(end + 1, end + 10, 0, 2), PlbAction::NONE);
    end += 10;
    EXPECT_EQ(plb.OnNack(end + 1, end + 10, 0, 3), PlbAction::IDLE_REPATH);
    EXPECT_EQ(plb.GetRepaths(), 1u);
}

TEST(PlbCore, RepsAggressivePreset)
{
    PlbCore plb;
    ASSERT_TRUE(plb.Configure(PlbConfig::RepsAggressive(10 * kUs)));
    // rounds of 10 us; 25% exactly is NOT congested (strictly more than 25%)
    int64_t t = 0;
    auto round = [&](int marked, int total) {
        PlbAction a = PlbAction::NONE;
        for (int i = 0; i < total; ++i)
        {
            t += 10 * kUs / total;
            PlbAction r = plb.OnFeedback(0, i < marked, 0, 4, t);
            a = r != PlbAction::NONE ? r : a;
        }
        return a;
    };
    plb.StartRound(0, 0);
    EXPECT_EQ(round(1, 4), PlbAction::NONE);
    EXPECT_EQ(plb.GetConsecutiveCongestedRounds(), 0u);
    EXPECT_EQ(round(2, 4), PlbAction::NONE); // first congested round
    EXPECT_EQ(plb.GetConsecutiveCongestedRounds(), 1u);
    EXPECT_EQ(round(2, 4), PlbAction::FORCED_REPATH); // more than 1: the second
    // NACKs count as congestion in this preset
    EXPECT_EQ(plb.OnNack(0, 0, 4, t + 10 * kUs), PlbAction::NONE);
    EXPECT_EQ(plb.OnRto(t, 0), PlbAction::RTO_REPATH);
}

// ---------------------------------------------------------------- MPRDMA
TEST(MprdmaCore, PacketReusesTheAckedEv)
{
    MprdmaCore<> m;
    m.Configure(MprdmaConfig{});
    uint16_t next = 1000;
    auto rng = [&]() { return next++; };
    // initial window: fresh EVs
    std::vector<uint16_t> sent;
    for (int i = 0; i < 4; ++i)
    {
        MprdmaChoice c = m.Next(rng);
        EXPECT_FALSE(c.reused);
        sent.push_back(c.ev);
    }
    // ACKs arrive in a different order; each clocks out one packet on its EV
    for (int idx : {2, 0, 3, 1})
    {
        m.OnAck(sent[idx], idx == 3);
        MprdmaChoice c = m.Next(rng);
        EXPECT_TRUE(c.reused);
        EXPECT_EQ(c.ev, sent[idx]);
    }
    // window growth without a pending ACK: a fresh EV
    MprdmaChoice c = m.Next(rng);
    EXPECT_FALSE(c.reused);
    EXPECT_EQ(c.ev, 1004);
}

TEST(MprdmaCore, MarkedEvsSkippedWhenConfigured)
{
    MprdmaCore<4> m;
    m.Configure(MprdmaConfig{false});
    auto rng = []() { return uint16_t{7}; };
    m.OnAck(11, true);
    m.OnAck(12, false);
    EXPECT_EQ(m.Next(rng).ev, 12);
    EXPECT_FALSE(m.Next(rng).reused);
    // ring overflow keeps the newest Cap credits
    for (uint16_t e = 20; e < 26; ++e)
    {
        m.OnAck(e, false);
    }
    EXPECT_EQ(m.GetPendingCredits(), 4);
    EXPECT_EQ(m.Next(rng).ev, 22);
}

// ---------------------------------------------------------------- BitMap
TEST(BitmapCore, UsesAll256EvsPerPassWhenClean)
{
    BitmapCore b;
    ASSERT_TRUE(b.Configure(BitmapConfig{1000}, 0x5a));
    std::mt19937 gen(3);
    auto draw = [&](uint32_t n) { return gen() % n; };
    for (int pass = 0; pass < 3; ++pass)
    {
        std::set<uint16_t> evs;
        for (int i = 0; i < 256; ++i)
        {
            const uint16_t ev = b.Next(draw);
            EXPECT_GE(ev, 1000);
            EXPECT_LT(ev, 1256);
            evs.insert(ev);
        }
        EXPECT_EQ(evs.size(), 256u) << "one pass = a permutation of the 256 EVs";
    }
}

TEST(BitmapCore, SmallEvSpaceUsesEachOfItsEvsOncePerPassAndWraps)
{
    // --evs=16: the set is the 16 EVs of the space, from evBase 10 wrapping at 16.
    BitmapCore b;
    BitmapConfig cfg;
    cfg.evBase = 10;
    cfg.numEvs = 16;
    cfg.evSetSize = 16;
    ASSERT_TRUE(b.Configure(cfg, 0x33));
    std::mt19937 gen(5);
    auto draw = [&](uint32_t n) { return gen() % n; };
    for (int pass = 0; pass < 4; ++pass)
    {
        std::set<uint16_t> evs;
        for (int i = 0; i < 16; ++i)
        {
            const uint16_t ev = b.Next(draw);
            EXPECT_LT(ev, 16);
            evs.insert(ev);
        }
        EXPECT_EQ(evs.size(), 16u) << "one pass = a permutation of the 16 EVs";
    }
    // feedback of a wrapped EV lands on its own penalty; EVs outside the space do not
    b.OnNack(3); // index (3 - 10) mod 16 = 9
    EXPECT_EQ(b.GetPenalty(3), 4);
    b.OnNack(19); // not an EV of a 16-EV space
    EXPECT_EQ(b.GetPenalty(19), 0);
    EXPECT_EQ(b.GetPenalty(3 + 16), 0);
    // invalid sizes are reported and replaced by the paper's
    BitmapConfig bad;
    bad.numEvs = 0;
    EXPECT_FALSE(b.Configure(bad, 0));
}

TEST(BitmapCore, NeverReusesMarkedEvUntilCleared)
{
    BitmapCore b;
    ASSERT_TRUE(b.Configure(BitmapConfig{0}, 0));
    std::mt19937 gen(9);
    auto draw = [&](uint32_t n) { return gen() % n; };
    const uint16_t ecnEv = 17;
    const uint16_t nackEv = 99;
    const uint16_t toEv = 200;
    b.OnAck(ecnEv, true);
    b.OnNack(nackEv);
    b.OnTimeout(toEv);
    b.OnAck(5, false); // clean ACK: no penalty
    EXPECT_EQ(b.GetPenalty(ecnEv), 1);
    EXPECT_EQ(b.GetPenalty(nackEv), 4);
    EXPECT_EQ(b.GetPenalty(toEv), 15);
    EXPECT_EQ(b.GetPenalty(5), 0);
    // Track when each marked EV is first used again: only once its penalty is 0,
    // i.e. after being skipped penalty times (one skip per pass).
    int firstUse[3] = {-1, -1, -1};
    const uint16_t evs[3] = {ecnEv, nackEv, toEv};
    for (int i = 0; i < 256 * 20; ++i)
    {
        uint8_t before[3];
        for (int k = 0; k < 3; ++k)
        {
            before[k] = b.GetPenalty(evs[k]);
        }
        const uint16_t ev = b.Next(draw);
        for (int k = 0; k < 3; ++k)
        {
            if (ev == evs[k])
            {
                EXPECT_EQ(before[k], 0) << "EV " << evs[k] << " used while penalised";
                if (firstUse[k] < 0)
                {
                    firstUse[k] = i / 255; // pass number (255 clean EVs used per pass)
                }
            }
        }
    }
    EXPECT_GE(firstUse[0], 1);  // skipped once
    EXPECT_GE(firstUse[1], 4);  // skipped 4 times
    EXPECT_GE(firstUse[2], 14); // skipped 15 times
    EXPECT_GT(firstUse[2], firstUse[1]);
    EXPECT_GT(firstUse[1], firstUse[0]);
}

TEST(BitmapCore, PenaltiesSaturateAndForeignEvsIgnored)
{
    BitmapCore b;
    ASSERT_TRUE(b.Configure(BitmapConfig{100}, 0));
    for (int i = 0; i < 5; ++i)
    {
        b.OnNack(100);
    }
    EXPECT_EQ(b.GetPenalty(100), 15);
    b.OnNack(99);  // outside the set
    b.OnNack(356); // outside the set
    EXPECT_EQ(b.GetPenalty(99), 0);
}

// ---------------------------------------------------------------- Flicr
TEST(FlicrCore, KeepsOnePathUntilCongestion)
{
    FlicrConfig cfg;
    cfg.numPaths = 4;
    const double w[4] = {1, 1, 1, 1};
    FlicrCore f;
    ASSERT_TRUE(f.Configure(cfg, w, 0.6)); // 0.6 * 4 -> path 2
    EXPECT_EQ(f.GetPath(), 2);
    int64_t t = 0;
    for (int i = 0; i < 1000; ++i)
    {
        t += kUs;
        EXPECT_EQ(f.OnSend(t, 1500, 0.1), 2);
        // 40% marked per 10 us round: below 0.5, no change
        EXPECT_FALSE(f.OnAck(i % 5 < 2, t, 10 * kUs, 0.1));
    }
    EXPECT_EQ(f.GetRepaths(), 0u);
}

TEST(FlicrCore, ChangesOnEcnRoundNackOrTimeout)
{
    FlicrConfig cfg;
    cfg.numPaths = 3;
    const double w[3] = {1, 0, 1}; // path 1 weight 0: never chosen
    FlicrCore f;
    ASSERT_TRUE(f.Configure(cfg, w, 0.0));
    EXPECT_EQ(f.GetPath(), 0);
    int64_t t = 0;
    bool changed = false;
    for (int i = 0; i < 10 && !changed; ++i)
    {
        t += 2 * kUs;
        changed = f.OnAck(true, t, 10 * kUs, 0.3);
    }
    EXPECT_TRUE(changed);
    EXPECT_EQ(f.GetPath(), 2); // the other positive-weight path
    EXPECT_EQ(f.GetLastEvent(), FlicrEvent::ECN_ROUND);
    EXPECT_TRUE(f.OnNack(0.9));
    EXPECT_EQ(f.GetPath(), 0);
    EXPECT_EQ(f.GetLastEvent(), FlicrEvent::NACK);
    EXPECT_TRUE(f.OnTimeout(0.2));
    EXPECT_EQ(f.GetPath(), 2);
    EXPECT_EQ(f.GetLastEvent(), FlicrEvent::TIMEOUT);
    EXPECT_EQ(f.GetRepaths(), 3u);
}

TEST(FlicrCore, NeverMovesOntoAZeroWeightPath)
{
    FlicrConfig cfg;
    cfg.numPaths = 4;
    const double w[4] = {1, 0, 0, 0}; // paths 1-3 disabled
    FlicrCore f;
    ASSERT_TRUE(f.Configure(cfg, w, 0.5));
    EXPECT_EQ(f.GetPath(), 0);
    EXPECT_FALSE(f.OnNack(0.3));
    EXPECT_FALSE(f.OnTimeout(0.9));
    EXPECT_EQ(f.GetPath(), 0);
    EXPECT_EQ(f.GetRepaths(), 0u);
}

TEST(CloveCore, EcnWithoutCutStillDelaysTheWeightReset)
{
    CloveConfig cfg;
    cfg.numPaths = 2;
    cfg.minCutIntervalNs = 100 * kUs;
    cfg.weightResetNs = 50 * kUs;
    cfg.flowletTimeoutNs = 1 * kUs;
    CloveCore c;
    ASSERT_TRUE(c.Configure(cfg));
    EXPECT_TRUE(c.OnEcn(0, 10 * kUs));
    const double w = c.GetWeight(0);
    // ECN keeps coming on path 0 inside the cut interval: no cut, but no quiet period
    for (int64_t t = 30; t <= 90; t += 20)
    {
        EXPECT_FALSE(c.OnEcn(0, t * kUs));
    }
    c.OnSend(100 * kUs); // a new flowlet 10 us after the last ECN: no reset
    EXPECT_DOUBLE_EQ(c.GetWeight(0), w);
    c.OnSend(200 * kUs); // 110 us quiet: reset to equal
    EXPECT_DOUBLE_EQ(c.GetWeight(0), 0.5);
}

TEST(FlicrCore, WeightedChoiceFollowsWeights)
{
    FlicrConfig cfg;
    cfg.numPaths = 2;
    const double w[2] = {3, 1};
    std::mt19937 gen(5);
    std::uniform_real_distribution<double> u(0, 1);
    int count[2] = {0, 0};
    for (int i = 0; i < 4000; ++i)
    {
        FlicrCore f;
        f.Configure(cfg, w, u(gen));
        count[f.GetPath()]++;
    }
    EXPECT_NEAR(count[0] / 4000.0, 0.75, 0.03);
}

TEST(FlicrCore, OptionalFlowletBoundary)
{
    FlicrConfig cfg;
    cfg.numPaths = 4;
    cfg.flowletTimeoutNs = 50 * kUs;
    FlicrCore f;
    ASSERT_TRUE(f.Configure(cfg, nullptr, 0.1));
    EXPECT_EQ(f.OnSend(0, 1000, 0.9), 0);
    EXPECT_EQ(f.OnSend(50 * kUs, 1000, 0.9), 0);  // gap == timeout
    EXPECT_EQ(f.OnSend(101 * kUs, 1000, 0.9), 3); // new flowlet, u = 0.9
    EXPECT_EQ(f.GetLastEvent(), FlicrEvent::FLOWLET);
}

} // namespace
