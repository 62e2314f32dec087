/*
 * GoogleTest tests of the switch-side baseline cores in model/lb/core/
 * (LetFlow, DRILL, CONGA).  Queue states and random draws are crafted.
 */
#include "ns3/conga-core.h"
#include "ns3/drill-core.h"
#include "ns3/letflow-core.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <random>
#include <vector>

using namespace ns3::lbcore;

namespace
{
constexpr int64_t kUs = 1000;

/** Scripted draw: returns the queued values in order (modulo n). */
struct Script
{
    std::vector<uint32_t> v;
    size_t i{0};
    uint32_t calls{0};

    uint32_t operator()(uint32_t n)
    {
        ++calls;
        const uint32_t x = v.empty() ? 0 : v[i++ % v.size()];
        return x % n;
    }
};

/** A CONGA leaf of a two-leaf fabric with `uplinks` uplinks and the default config. */
bool
ConfigureTwoLeafCongaLeaf(CongaLeafCore& leaf, uint16_t uplinks)
{
    CongaConfig cfg;
    cfg.numLeaves = 2;
    cfg.numUplinks = uplinks;
    return leaf.Configure(cfg, nullptr);
}

// ---------------------------------------------------------------- LetFlow
TEST(LetflowCore, KeepsPortWithinFlowletChangesOnlyAfterGap)
{
    LetflowCore lf;
    ASSERT_TRUE(lf.Configure(LetflowConfig::Laps()));
    EXPECT_EQ(lf.GetConfig().timeoutNs, 50 * kUs);
    Script draw{{3, 1, 2}};
    const uint32_t h = 0xdeadbeef;
    int64_t t = 0;
    LetflowChoice c = lf.Choose(h, 4, t, draw);
    EXPECT_TRUE(c.newFlowlet);
    EXPECT_EQ(c.port, 3);
    for (int i = 0; i < 50; ++i)
    {
        t += 50 * kUs; // gap == timeout: same flowlet
        c = lf.Choose(h, 4, t, draw);
        EXPECT_FALSE(c.newFlowlet);
        EXPECT_EQ(c.port, 3);
    }
    EXPECT_EQ(draw.calls, 1u);
    t += 50 * kUs + 1; // gap > timeout
    c = lf.Choose(h, 4, t, draw);
    EXPECT_TRUE(c.newFlowlet);
    EXPECT_EQ(c.port, 1);
    EXPECT_EQ(draw.calls, 2u);
}

TEST(LetflowCore, HermesPresetAndIndependentFlows)
{
    LetflowCore lf;
    ASSERT_TRUE(lf.Configure(LetflowConfig::Hermes()));
    EXPECT_EQ(lf.GetConfig().timeoutNs, 150 * kUs);
    Script draw{{0, 2}};
    EXPECT_EQ(lf.Choose(1, 3, 0, draw).port, 0);
    EXPECT_EQ(lf.Choose(2, 3, 10 * kUs, draw).port, 2);
    EXPECT_EQ(lf.Choose(1, 3, 150 * kUs, draw).port, 0); // 150 us gap: same flowlet
    EXPECT_EQ(lf.Choose(2, 3, 160 * kUs, draw).port, 2);
    // candidate set shrank below the cached port: re-choose
    LetflowChoice c = lf.Choose(2, 2, 170 * kUs, draw);
    EXPECT_TRUE(c.newFlowlet);
    EXPECT_LT(c.port, 2);
}

TEST(LetflowCore, RandomChoiceIsUniform)
{
    LetflowCore lf;
    ASSERT_TRUE(lf.Configure(LetflowConfig{}));
    std::mt19937 gen(1);
    auto draw = [&](uint32_t n) { return gen() % n; };
    int count[4] = {0, 0, 0, 0};
    for (int i = 0; i < 8000; ++i)
    {
        count[lf.Choose(7, 4, i * 200 * kUs, draw).port]++; // every packet a new flowlet
    }
    for (int c : count)
    {
        EXPECT_NEAR(c, 2000, 200);
    }
}

// ---------------------------------------------------------------- DRILL
TEST(DrillCore, ShorterOfTwoSampledQueues)
{
    DrillCore d;
    ASSERT_TRUE(d.Configure(DrillConfig{2, 0}));
    const uint64_t q[4] = {500, 100, 900, 0};
    auto qlen = [&](uint16_t i) { return q[i]; };
    // samples 0 and 2 (draw 0 of 4, draw 1 of 3 -> skips 0 -> 2? no: 1 -> index 1)
    Script s1{{0, 1}}; // first 0; second: 1st unsampled of {1,2,3} at offset 1 -> 2
    EXPECT_EQ(d.Choose(4, qlen, s1), 0); // {0:500, 2:900} -> 0
    Script s2{{2, 0}};                   // 2, then offset 0 of {0,1,3} -> 0
    EXPECT_EQ(d.Choose(4, qlen, s2), 0);
    Script s3{{1, 2}}; // 1, then offset 2 of {0,2,3} -> 3
    EXPECT_EQ(d.Choose(4, qlen, s3), 3);
}

TEST(DrillCore, SamplesAreDistinct)
{
    DrillCore d;
    ASSERT_TRUE(d.Configure(DrillConfig{2, 0}));
    std::mt19937 gen(2);
    for (int i = 0; i < 1000; ++i)
    {
        std::vector<uint16_t> seen;
        auto qlen = [&](uint16_t p) {
            seen.push_back(p);
            return uint64_t{0};
        };
        auto draw = [&](uint32_t n) { return gen() % n; };
        d.Choose(3, qlen, draw);
        ASSERT_EQ(seen.size(), 2u);
        EXPECT_NE(seen[0], seen[1]);
    }
}

TEST(DrillCore, MemoryKeepsBestPortAcrossPackets)
{
    DrillCore d;
    ASSERT_TRUE(d.Configure(DrillConfig{})); // d = 2, m = 1
    uint64_t q[8] = {50, 60, 70, 80, 90, 5, 100, 110};
    auto qlen = [&](uint16_t i) { return q[i]; };
    Script s{{5, 0}}; // samples 5 and 0 -> 5 (load 5)
    EXPECT_EQ(d.Choose(8, qlen, s), 5);
    EXPECT_EQ(d.GetMemoryCount(), 1);
    EXPECT_EQ(d.GetMemory(0), 5);
    // next packet samples 1 and 2 only, but the remembered port 5 is still shortest
    Script s2{{1, 1}};
    EXPECT_EQ(d.Choose(8, qlen, s2), 5);
    // port 5 fills up: a sampled port wins and becomes the memory
    q[5] = 1000;
    Script s3{{3, 0}};
    EXPECT_EQ(d.Choose(8, qlen, s3), 0);
    EXPECT_EQ(d.GetMemory(0), 0);
}

// ---------------------------------------------------------------- CONGA
TEST(CongaCore, DreTracksUtilisationAndQuantises)
{
    CongaDre dre;
    dre.Configure(16 * kUs, 0.1, 10e9, 3); // tau = 160 us
    // send at 50% of 10 Gb/s for 2 ms: 625 bytes every 1 us
    int64_t t = 0;
    for (; t < 2000 * kUs; t += kUs)
    {
        dre.OnPacket(625, t);
    }
    // X saw-tooths between 0.9 and 1.0 of R tau (decay right after a period)
    EXPECT_GE(dre.Utilisation(t), 0.44);
    EXPECT_LE(dre.Utilisation(t), 0.51);
    EXPECT_GE(dre.Metric(t), 3); // floor(0.45..0.5 x 8)
    EXPECT_LE(dre.Metric(t), 4);
    // at 90% load the metric is 7 (saturated top level) or 6
    CongaDre busy;
    busy.Configure(16 * kUs, 0.1, 10e9, 3);
    for (int64_t s = 0; s < 2000 * kUs; s += kUs)
    {
        busy.OnPacket(1125, s);
    }
    EXPECT_GE(busy.Metric(2000 * kUs), 6);
    // idle: decays by (1 - alpha) per T_dre
    const double u0 = dre.Utilisation(t);
    EXPECT_NEAR(dre.Utilisation(t + 16 * kUs), u0 * 0.9, 1e-9);
    EXPECT_EQ(dre.Metric(t + 5000 * kUs), 0);
}

TEST(CongaCore, TagPacksIntoRealBytes)
{
    CongaTag t;
    t.lbTag = 11;
    t.ce = 5;
    t.fbLbTag = 7;
    t.fbMetric = 6;
    t.fbValid = true;
    const CongaTag u = CongaTag::Unpack(t.Pack());
    EXPECT_EQ(u.lbTag, 11);
    EXPECT_EQ(u.ce, 5);
    EXPECT_EQ(u.fbLbTag, 7);
    EXPECT_EQ(u.fbMetric, 6);
    EXPECT_TRUE(u.fbValid);
    CongaTag h;
    h.UpdateCe(3);
    h.UpdateCe(2);
    EXPECT_EQ(h.ce, 3); // max along the path
}

/** Two leaves, 4 uplinks each (one per spine); spine 2 congested. */
TEST(CongaCore, FeedbackReachesSourceAndNewFlowletsAvoidCongestedPath)
{
    CongaConfig cfg;
    cfg.numLeaves = 2;
    cfg.numUplinks = 4;
    const double bps[4] = {10e9, 10e9, 10e9, 10e9};
    CongaLeafCore leaf0;
    CongaLeafCore leaf1;
    ASSERT_TRUE(leaf0.Configure(cfg, bps));
    ASSERT_TRUE(leaf1.Configure(cfg, bps));
    std::mt19937 gen(4);
    auto draw = [&](uint32_t n) { return gen() % n; };
    int64_t t = 0;
    // leaf0 -> leaf1 traffic over all 4 uplinks; the spine-2 hop reports CE 6
    for (int i = 0; i < 64; ++i, t += kUs)
    {
        CongaTag tag;
        tag.lbTag = static_cast<uint8_t>(i % 4);
        tag.UpdateCe(leaf0.OnUplinkTx(tag.lbTag, 100, t)); // light local load
        tag.UpdateCe(tag.lbTag == 2 ? 6 : 1);              // spine egress metric
        const uint16_t wire = tag.Pack();                  // real bytes on the wire
        leaf1.OnArrival(0, CongaTag::Unpack(wire), t);
    }
    EXPECT_EQ(leaf1.GetCongestionFromLeaf(0, 2), 6);
    EXPECT_EQ(leaf1.GetCongestionFromLeaf(0, 1), 1);
    // reverse traffic leaf1 -> leaf0 carries the feedback, round robin
    for (int i = 0; i < 8; ++i, t += kUs)
    {
        CongaTag back;
        back.lbTag = 0;
        leaf1.FillFeedback(0, back, t);
        ASSERT_TRUE(back.fbValid);
        leaf0.OnArrival(1, CongaTag::Unpack(back.Pack()), t);
    }
    EXPECT_EQ(leaf0.GetCongestionToLeaf(1, 2, t), 6);
    EXPECT_EQ(leaf0.GetCongestionToLeaf(1, 0, t), 1);
    // new flowlets from leaf0 to leaf1 avoid uplink 2
    int count[4] = {0, 0, 0, 0};
    for (uint32_t f = 0; f < 400; ++f)
    {
        CongaChoice c = leaf0.ChooseUplink(f * 2654435761u, 1, t, draw);
        EXPECT_TRUE(c.newFlowlet);
        count[c.uplink]++;
    }
    EXPECT_EQ(count[2], 0);
    EXPECT_GT(count[0], 50);
    EXPECT_GT(count[1], 50);
    EXPECT_GT(count[3], 50);
    // an aged-out metric no longer repels
    EXPECT_EQ(leaf0.GetCongestionToLeaf(1, 2, t + cfg.agingNs + 1), 0);
}

TEST(CongaCore, FeedbackPrefersChangedEntriesThenRoundRobin)
{
    CongaConfig cfg;
    cfg.numLeaves = 2;
    cfg.numUplinks = 4;
    CongaLeafCore leaf;
    ASSERT_TRUE(leaf.Configure(cfg, nullptr));
    for (uint8_t u = 0; u < 4; ++u)
    {
        CongaTag a;
        a.lbTag = u;
        a.ce = u;
        leaf.OnArrival(0, a, 0);
    }
    std::vector<int> order;
    for (int i = 0; i < 4; ++i)
    {
        CongaTag b;
        leaf.FillFeedback(0, b, 1);
        order.push_back(b.fbLbTag);
    }
    EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3}));
    // uplink 1's metric changes: it is sent next, out of turn
    CongaTag a;
    a.lbTag = 1;
    a.ce = 7;
    leaf.OnArrival(0, a, 1);
    CongaTag b;
    leaf.FillFeedback(0, b, 2);
    EXPECT_EQ(b.fbLbTag, 1);
    EXPECT_EQ(b.fbMetric, 7);
    leaf.FillFeedback(0, b, 3); // nothing changed: round robin continues after 1
    EXPECT_EQ(b.fbLbTag, 2);
}

/**
 * Review B1: a Congestion-From-Leaf entry that no packet refreshes must stop
 * being fed back after the aging time; otherwise reverse traffic keeps the
 * source's stale Congestion-To-Leaf metric fresh forever.
 */
TEST(CongaCore, StaleFromLeafEntriesAgeOutAndStopRefreshingTheSource)
{
    CongaConfig cfg;
    cfg.numLeaves = 2;
    cfg.numUplinks = 2;
    CongaLeafCore leaf0;
    CongaLeafCore leaf1;
    ASSERT_TRUE(leaf0.Configure(cfg, nullptr));
    ASSERT_TRUE(leaf1.Configure(cfg, nullptr));
    const int64_t t0 = 1000 * kUs;
    CongaTag fwd; // one packet leaf0 -> leaf1 on uplink 0 saw CE 7; none after it
    fwd.lbTag = 0;
    fwd.ce = 7;
    leaf1.OnArrival(0, fwd, t0);
    EXPECT_TRUE(leaf1.IsCongestionFromLeafValid(0, 0, t0 + cfg.agingNs));
    EXPECT_FALSE(leaf1.IsCongestionFromLeafValid(0, 0, t0 + cfg.agingNs + 1));
    // reverse traffic leaf1 -> leaf0 every 10 us for 50 ms
    int64_t t = t0;
    uint32_t fedBackLate = 0;
    for (; t <= t0 + 50'000 * kUs; t += 10 * kUs)
    {
        CongaTag back;
        leaf1.FillFeedback(0, back, t);
        if (back.fbValid && t > t0 + cfg.agingNs)
        {
            ++fedBackLate;
        }
        leaf0.OnArrival(1, CongaTag::Unpack(back.Pack()), t);
    }
    EXPECT_EQ(fedBackLate, 0u);
    EXPECT_EQ(leaf0.GetCongestionToLeaf(1, 0, t), 0);
    EXPECT_FALSE(leaf1.IsCongestionFromLeafValid(0, 0, t));
    // uplink 0 is usable again: ties among both uplinks
    std::mt19937 gen(1);
    auto draw = [&](uint32_t n) { return gen() % n; };
    int count[2] = {0, 0};
    for (uint32_t f = 0; f < 200; ++f)
    {
        count[leaf0.ChooseUplink(f * 2654435761u, 1, t, draw).uplink]++;
    }
    EXPECT_GT(count[0], 50);
    EXPECT_GT(count[1], 50);
    // a fresh packet revives the entry
    fwd.ce = 3;
    leaf1.OnArrival(0, fwd, t);
    CongaTag back;
    leaf1.FillFeedback(0, back, t);
    EXPECT_TRUE(back.fbValid);
    EXPECT_EQ(back.fbLbTag, 0);
    EXPECT_EQ(back.fbMetric, 3);
}

TEST(CongaCore, FlowletKeepsUplinkUntilGap)
{
    CongaConfig cfg;
    cfg.numLeaves = 2;
    cfg.numUplinks = 4;
    CongaLeafCore leaf;
    ASSERT_TRUE(leaf.Configure(cfg, nullptr));
    EXPECT_EQ(cfg.flowletTimeoutNs, 150 * kUs);
    EXPECT_EQ(CongaConfig::CongaPaper().flowletTimeoutNs, 500 * kUs);
    Script draw{{1}};
    CongaChoice c = leaf.ChooseUplink(42, 1, 0, draw);
    EXPECT_TRUE(c.newFlowlet);
    EXPECT_EQ(c.uplink, 1);
    // make uplink 1 look bad remotely: still kept within the flowlet
    CongaTag fb;
    fb.fbValid = true;
    fb.fbLbTag = 1;
    fb.fbMetric = 7;
    leaf.OnArrival(1, fb, 10 * kUs);
    c = leaf.ChooseUplink(42, 1, 100 * kUs, draw);
    EXPECT_FALSE(c.newFlowlet);
    EXPECT_EQ(c.uplink, 1);
    c = leaf.ChooseUplink(42, 1, 251 * kUs, draw); // gap 151 us > 150 us
    EXPECT_TRUE(c.newFlowlet);
    EXPECT_NE(c.uplink, 1);
}

TEST(CongaCore, AllowedMaskLimitsTheChoice)
{
    // the generalised mode (AnyTopology) passes the destination's minimal next hops
    CongaLeafCore leaf;
    ASSERT_TRUE(ConfigureTwoLeafCongaLeaf(leaf, 4));
    Script draw{{0, 1, 2, 3}};
    for (uint32_t f = 0; f < 64; ++f) // all idle: ties drawn among the allowed only
    {
        CongaChoice c = leaf.ChooseUplink(1000 + f, 1, 0, draw, 0b1010u);
        EXPECT_TRUE(c.uplink == 1 || c.uplink == 3) << c.uplink;
    }
    // the least congested allowed uplink wins even if a disallowed one is better
    CongaTag fb;
    fb.fbValid = true;
    for (uint8_t u = 0; u < 4; ++u)
    {
        fb.fbLbTag = u;
        fb.fbMetric = u == 0 ? 0 : (u == 2 ? 3 : 6);
        leaf.OnArrival(1, fb, 10 * kUs);
    }
    EXPECT_EQ(leaf.ChooseUplink(7, 1, 20 * kUs, draw, 0b0110u).uplink, 2);
    // a flowlet whose port is not allowed for this packet picks again
    CongaChoice c = leaf.ChooseUplink(8, 1, 20 * kUs, draw, 0b0001u);
    EXPECT_EQ(c.uplink, 0);
    c = leaf.ChooseUplink(8, 1, 21 * kUs, draw, 0b0100u);
    EXPECT_TRUE(c.newFlowlet);
    EXPECT_EQ(c.uplink, 2);
    // an empty intersection counts as all: the best of the four
    EXPECT_EQ(leaf.ChooseUplink(9, 1, 22 * kUs, draw, 0b10000u).uplink, 0);
}

TEST(CongaCore, ChoosePathIndexesRemoteByPathAndLocalByFirstUplink)
{
    // CONGA over the LAPS path set (issue 16): paths 0..3, paths 0 and 1 share uplink 0
    CongaLeafCore leaf;
    ASSERT_TRUE(ConfigureTwoLeafCongaLeaf(leaf, 16));
    Script draw{{0, 1, 2, 3}};
    const uint8_t first[4] = {0, 0, 1, 2};
    // remote congestion on path 0 only (LBTag 0): path 1, on the same uplink, stays free
    CongaTag fb;
    fb.fbValid = true;
    fb.fbLbTag = 0;
    fb.fbMetric = 7;
    leaf.OnArrival(1, fb, 10 * kUs);
    uint32_t onPath1 = 0;
    for (uint32_t f = 0; f < 32; ++f)
    {
        const CongaChoice c = leaf.ChoosePath(100 + f, 1, 11 * kUs, draw, 4, first);
        EXPECT_TRUE(c.newFlowlet);
        EXPECT_NE(c.uplink, 0) << "path 0 is congested";
        EXPECT_LT(c.uplink, 4);
        onPath1 += c.uplink == 1 ? 1 : 0;
    }
    // path 1 shares path 0's first uplink but not its LBTag: a remote table indexed by
    // uplink would rule it out too (review s47 #3)
    EXPECT_GT(onPath1, 0u) << "path 1 is free: its remote entry is its own";
    // a busy first uplink (local DRE) rules out both paths over it
    for (int i = 0; i < 100; ++i)
    {
        leaf.GetDre(0).OnPacket(100000, 12 * kUs);
    }
    for (uint32_t f = 0; f < 32; ++f)
    {
        const CongaChoice c = leaf.ChoosePath(200 + f, 1, 12 * kUs, draw, 4, first);
        EXPECT_TRUE(c.uplink == 2 || c.uplink == 3) << c.uplink;
    }
    // within a flowlet the path stays, even if it became the worst
    const CongaChoice a = leaf.ChoosePath(300, 1, 13 * kUs, draw, 4, first);
    fb.fbLbTag = a.uplink;
    leaf.OnArrival(1, fb, 13 * kUs);
    const CongaChoice b = leaf.ChoosePath(300, 1, 14 * kUs, draw, 4, first);
    EXPECT_FALSE(b.newFlowlet);
    EXPECT_EQ(b.uplink, a.uplink);
    // a flowlet whose path index is beyond this pair's set picks again
    const CongaChoice c = leaf.ChoosePath(300, 1, 15 * kUs, draw, 2, first);
    EXPECT_TRUE(c.newFlowlet);
    EXPECT_LT(c.uplink, 2);
}

TEST(CongaCore, ChoosePathOnlyAmongAllowedPaths)
{
    // routed failures: the valid paths' mask; a flowlet whose path left it picks again at
    // once; an empty intersection counts as all
    CongaLeafCore leaf;
    ASSERT_TRUE(ConfigureTwoLeafCongaLeaf(leaf, 16));
    Script draw{{0, 1, 2, 3}};
    const uint8_t first[4] = {0, 0, 1, 2};
    for (uint32_t f = 0; f < 32; ++f)
    {
        const CongaChoice c = leaf.ChoosePath(100 + f, 1, 10 * kUs, draw, 4, first, 0b1010U);
        EXPECT_TRUE(c.uplink == 1 || c.uplink == 3) << c.uplink;
    }
    const CongaChoice a = leaf.ChoosePath(300, 1, 11 * kUs, draw, 4, first, 0b0100U);
    EXPECT_EQ(a.uplink, 2);
    const CongaChoice b = leaf.ChoosePath(300, 1, 12 * kUs, draw, 4, first, 0b0100U);
    EXPECT_FALSE(b.newFlowlet);
    EXPECT_EQ(b.uplink, 2);
    const CongaChoice c = leaf.ChoosePath(300, 1, 13 * kUs, draw, 4, first, 0b0001U);
    EXPECT_TRUE(c.newFlowlet) << "its path became invalid within the flowlet";
    EXPECT_EQ(c.uplink, 0);
    const CongaChoice d = leaf.ChoosePath(400, 1, 14 * kUs, draw, 4, first, 0b10000U);
    EXPECT_LT(d.uplink, 4) << "no allowed path of the pair: all";
}

// ---------------------------------------------------------------- CONGA as [A] chooses
// The LAPS authors' simulator [A] (SwitchNode::GetCongaBestPath(key, 4)): 4 consecutive
// paths of the pair's list from a uniform start, ties uniform (CongaConfig::pathSamples,
// tiesPreferCurrent; DcnCongaLapsForwardingPolicy PathSamples / TiesPreferCurrent).

/** mt19937 draws, each call recorded as (n, result). */
struct RecordingDraw
{
    std::mt19937 gen;
    std::vector<std::pair<uint32_t, uint32_t>> calls;

    explicit RecordingDraw(uint32_t seed)
        : gen(seed)
    {
    }

    uint32_t operator()(uint32_t n)
    {
        const uint32_t x = gen() % n;
        calls.emplace_back(n, x);
        return x;
    }
};

/** A two-leaf CONGA leaf over 16 path indices with [A]'s sampling options. */
bool
ConfigureSamplingLeaf(CongaLeafCore& leaf, uint16_t samples, bool tiesPreferCurrent)
{
    CongaConfig cfg;
    cfg.numLeaves = 2;
    cfg.numUplinks = 16;
    cfg.pathSamples = samples;
    cfg.tiesPreferCurrent = tiesPreferCurrent;
    return leaf.Configure(cfg, nullptr);
}

/** Congestion-To-Leaf[1][k] = metric[k] for k < n, fed back at time t. */
void
SetRemoteMetrics(CongaLeafCore& leaf, const uint8_t* metric, uint16_t n, int64_t t)
{
    for (uint16_t k = 0; k < n; ++k)
    {
        CongaTag fb;
        fb.fbValid = true;
        fb.fbLbTag = static_cast<uint8_t>(k);
        fb.fbMetric = metric[k];
        leaf.OnArrival(1, fb, t);
    }
}

TEST(CongaCore, PathSamplesWindowFollowsTheAuthorsDistribution)
{
    // 8 idle paths, PathSamples 4: a window of 4 consecutive paths from a start uniform in
    // [0, 4], then uniform among its (tied) paths: P(k) = windows containing k / 5 x 1/4
    CongaLeafCore leaf;
    ASSERT_TRUE(ConfigureSamplingLeaf(leaf, 4, false));
    const uint8_t first[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    RecordingDraw draw(7);
    const int n = 40000;
    int count[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int64_t t = 0;
    for (int i = 0; i < n; ++i, t += 200 * kUs) // every decision a new flowlet of one flow
    {
        draw.calls.clear();
        const CongaChoice c = leaf.ChoosePath(77, 1, t, draw, 8, first);
        ASSERT_TRUE(c.newFlowlet);
        ASSERT_EQ(draw.calls.size(), 2u) << "the window's start, then the tie";
        ASSERT_EQ(draw.calls[0].first, 5u) << "start uniform in [0, 8 - 4]";
        ASSERT_EQ(draw.calls[1].first, 4u) << "4 tied candidates";
        const uint32_t start = draw.calls[0].second;
        ASSERT_GE(c.uplink, start);
        ASSERT_LT(c.uplink, start + 4) << "a path outside the sampled window";
        ++count[c.uplink];
    }
    const double expected[8] = {1, 2, 3, 4, 4, 3, 2, 1}; // / 20
    for (int k = 0; k < 8; ++k)
    {
        EXPECT_NEAR(count[k] / static_cast<double>(n), expected[k] / 20.0, 0.01) << "path " << k;
    }
}

TEST(CongaCore, PathSamplesTheBestPathOnlyWhenItsWindowIsSampled)
{
    // path 0 free, paths 1..7 congested: path 0 wins only when the window starts at 0 (1/5);
    // else the least congested of the window, never a path outside it
    CongaLeafCore leaf;
    ASSERT_TRUE(ConfigureSamplingLeaf(leaf, 4, false));
    const uint8_t first[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    const uint8_t metric[8] = {0, 5, 6, 6, 6, 6, 6, 6};
    RecordingDraw draw(11);
    const int n = 20000;
    int onBest = 0;
    int64_t t = 10 * kUs;
    for (int i = 0; i < n; ++i, t += 20 * kUs)
    {
        SetRemoteMetrics(leaf, metric, 8, t);
        draw.calls.clear();
        const CongaChoice c = leaf.ChoosePath(1000 + i, 1, t, draw, 8, first);
        ASSERT_FALSE(draw.calls.empty());
        const uint32_t start = draw.calls[0].second;
        ASSERT_GE(c.uplink, start);
        ASSERT_LT(c.uplink, start + 4);
        if (start <= 1)
        {
            EXPECT_EQ(c.uplink, start) << "the window's least congested path";
        }
        onBest += c.uplink == 0 ? 1 : 0;
    }
    EXPECT_NEAR(onBest / static_cast<double>(n), 0.2, 0.015);
}

TEST(CongaCore, TiesPreferCurrentKeepsThePreviousPathOnlyWhenTrue)
{
    // 4 idle paths (all tied), all of them candidates: a flowlet's previous path is kept on
    // every new flowlet with TiesPreferCurrent (CONGA Sec. 3.5), not always without ([A])
    const uint8_t first[4] = {0, 1, 2, 3};
    for (int prefer = 0; prefer < 2; ++prefer)
    {
        CongaLeafCore leaf;
        ASSERT_TRUE(ConfigureSamplingLeaf(leaf, 0, prefer == 1));
        RecordingDraw draw(3);
        uint16_t prev = leaf.ChoosePath(5, 1, 0, draw, 4, first).uplink;
        const size_t drawsBefore = draw.calls.size();
        int kept = 0;
        const int n = 2000;
        int64_t t = 0;
        for (int i = 0; i < n; ++i)
        {
            t += 200 * kUs; // beyond the 150-us flowlet timeout
            const CongaChoice c = leaf.ChoosePath(5, 1, t, draw, 4, first);
            ASSERT_TRUE(c.newFlowlet);
            kept += c.uplink == prev ? 1 : 0;
            prev = c.uplink;
        }
        if (prefer)
        {
            EXPECT_EQ(kept, n) << "ties keep the flowlet's path";
            EXPECT_EQ(draw.calls.size(), drawsBefore) << "no draw when the previous path ties";
        }
        else
        {
            EXPECT_LT(kept, n) << "ties uniform: the previous path is not always kept";
            EXPECT_NEAR(kept / static_cast<double>(n), 0.25, 0.04);
            EXPECT_EQ(draw.calls.size(), drawsBefore + n);
        }
    }
}

TEST(CongaCore, PathSamplesWindowIsOverTheValidPaths)
{
    // 8 paths, path 3 invalid: 7 valid ones, windows start at rank 0..3 of (0 1 2 4 5 6 7)
    CongaLeafCore leaf;
    ASSERT_TRUE(ConfigureSamplingLeaf(leaf, 4, false));
    const uint8_t first[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    const uint32_t valid = 0xFFu & ~(1u << 3);
    // start rank 2, tie 3: window (2 4 5 6) -> 6 (a window of indices 2..5 would give 2, 4, 5)
    Script script{{2, 3}};
    const CongaChoice a = leaf.ChoosePath(9, 1, 0, script, 8, first, valid);
    EXPECT_EQ(script.calls, 2u);
    EXPECT_EQ(a.uplink, 6);
    const uint16_t ranks[7] = {0, 1, 2, 4, 5, 6, 7};
    RecordingDraw draw(5);
    int count[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    const int n = 20000;
    int64_t t = 0;
    for (int i = 0; i < n; ++i)
    {
        t += 200 * kUs;
        draw.calls.clear();
        const CongaChoice c = leaf.ChoosePath(9, 1, t, draw, 8, first, valid);
        ASSERT_EQ(draw.calls.size(), 2u);
        ASSERT_EQ(draw.calls[0].first, 4u) << "start uniform in [0, 7 - 4]";
        const uint32_t r = draw.calls[0].second;
        ASSERT_NE(c.uplink, 3) << "an invalid path";
        ASSERT_GE(c.uplink, ranks[r]);
        ASSERT_LE(c.uplink, ranks[r + 3]);
        ++count[c.uplink];
    }
    // P = windows containing the rank / 4 x 1/4: ranks 0..6 in 1, 2, 3, 4, 3, 2, 1 windows
    const double expected[8] = {1, 2, 3, 0, 4, 3, 2, 1}; // / 16
    for (int k = 0; k < 8; ++k)
    {
        EXPECT_NEAR(count[k] / static_cast<double>(n), expected[k] / 16.0, 0.012) << "path " << k;
    }
    // no more valid paths than samples: all of them, no window draw
    Script one{{1}};
    const CongaChoice b = leaf.ChoosePath(10, 1, t, one, 8, first, 0b10110u);
    EXPECT_EQ(one.calls, 1u) << "only the tie draw";
    EXPECT_EQ(b.uplink, 2);
}

TEST(CongaCore, PathSamplesZeroIsThePaperChoice)
{
    // PathSamples 0 (and PathSamples >= the valid paths) with TiesPreferCurrent: the least
    // congested of all valid paths, the previous one if it ties, else ties[draw(ties)], one
    // draw per contested decision (CONGA Sec. 3.5, the choice before these options)
    const uint8_t first[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    for (uint16_t samples : {uint16_t{0}, uint16_t{8}, uint16_t{16}})
    {
        CongaLeafCore leaf;
        ASSERT_TRUE(ConfigureSamplingLeaf(leaf, samples, true));
        std::mt19937 metrics(21);
        RecordingDraw draw(13);
        int64_t t = 0;
        int64_t prev = -1;
        for (int i = 0; i < 3000; ++i)
        {
            t += 200 * kUs;
            uint8_t metric[8];
            for (uint8_t& m : metric)
            {
                m = static_cast<uint8_t>(metrics() % 3);
            }
            SetRemoteMetrics(leaf, metric, 8, t);
            const uint32_t valid = 0xFFu & ~(1u << (i % 9)); // one path invalid, or none
            uint8_t best = 0xFF;
            for (uint16_t k = 0; k < 8; ++k)
            {
                best = ((valid >> k) & 1u) && metric[k] < best ? metric[k] : best;
            }
            std::vector<uint16_t> ties;
            for (uint16_t k = 0; k < 8; ++k)
            {
                if (((valid >> k) & 1u) && metric[k] == best)
                {
                    ties.push_back(k);
                }
            }
            draw.calls.clear();
            const CongaChoice c = leaf.ChoosePath(3, 1, t, draw, 8, first, valid);
            const bool prevTies =
                prev >= 0 && std::find(ties.begin(), ties.end(), prev) != ties.end();
            if (prevTies || ties.size() == 1)
            {
                EXPECT_TRUE(draw.calls.empty()) << "samples " << samples;
                EXPECT_EQ(c.uplink, prevTies ? prev : ties[0]);
            }
            else
            {
                ASSERT_EQ(draw.calls.size(), 1u) << "samples " << samples;
                EXPECT_EQ(draw.calls[0].first, ties.size());
                EXPECT_EQ(c.uplink, ties[draw.calls[0].second]);
            }
            prev = c.uplink;
        }
    }
}

// ---------------------------------------------------------------- CONGA feedback as [A]
// [A] (SwitchNode::GetCongaEgressPort) piggy-backs on every packet the metric of a path of
// the reverse pair drawn by std::rand() % pathNum; a never-written entry (CONGA_NULL) is
// ignored by the receiver, an aged one reads 0, and the receiver's write refreshes it
// (CongaConfig::feedbackRandom; DcnCongaLapsForwardingPolicy FeedbackChoice Random).

/** A two-leaf CONGA leaf over 16 path indices with FeedbackChoice Random or RoundRobin. */
bool
ConfigureFeedbackLeaf(CongaLeafCore& leaf, bool random)
{
    CongaConfig cfg;
    cfg.numLeaves = 2;
    cfg.numUplinks = 16;
    cfg.feedbackRandom = random;
    return leaf.Configure(cfg, nullptr);
}

TEST(CongaCore, FeedbackRandomIsUniformOverTheReversePairsSetEntries)
{
    // the reverse pair has 8 paths; packets from leaf 0 arrived on paths 0-5 (CE k + 1) and
    // on LBTag 10 (not a path of the pair); paths 6 and 7 never: over 80,000 packets each of
    // 0-5 is fed back in 1/8 of them with its metric, 6, 7 and 10 never (6 and 7 drawn: no
    // feedback, 2/8 of the packets), one draw among 8 per packet
    CongaLeafCore leaf;
    ASSERT_TRUE(ConfigureFeedbackLeaf(leaf, true));
    for (uint8_t k = 0; k < 6; ++k)
    {
        CongaTag a;
        a.lbTag = k;
        a.ce = static_cast<uint8_t>(k + 1);
        leaf.OnArrival(0, a, 0);
    }
    CongaTag off;
    off.lbTag = 10;
    off.ce = 7;
    leaf.OnArrival(0, off, 0);
    RecordingDraw draw(7);
    const uint32_t packets = 80000;
    std::vector<uint32_t> count(16, 0);
    uint32_t none = 0;
    for (uint32_t i = 0; i < packets; ++i)
    {
        CongaTag b;
        b.lbTag = 3; // the packet's own fields stay
        leaf.FillFeedback(0, b, 1 * kUs + i, 8, draw);
        EXPECT_EQ(b.lbTag, 3);
        if (!b.fbValid)
        {
            ++none;
            continue;
        }
        ASSERT_LT(b.fbLbTag, 16);
        ++count[b.fbLbTag];
        EXPECT_EQ(b.fbMetric, b.fbLbTag + 1) << "path " << int(b.fbLbTag);
    }
    ASSERT_EQ(draw.calls.size(), packets) << "one draw per packet";
    for (const auto& [n, x] : draw.calls)
    {
        EXPECT_EQ(n, 8u);
    }
    for (uint16_t k = 0; k < 6; ++k)
    {
        EXPECT_NEAR(count[k] / double(packets), 1.0 / 8, 0.01) << "path " << k;
    }
    for (uint16_t k = 6; k < 16; ++k)
    {
        EXPECT_EQ(count[k], 0u) << "path " << k << ": never arrived, or not of the pair";
    }
    EXPECT_NEAR(none / double(packets), 2.0 / 8, 0.01);
    // the leaf-spine core's round robin is the default: the same leaf without the option
    // sends LBTag 10 in turn (it is a valid entry of the table) and draws nothing
    CongaLeafCore rr;
    ASSERT_TRUE(ConfigureFeedbackLeaf(rr, false));
    rr.OnArrival(0, off, 0);
    RecordingDraw none2(7);
    CongaTag b;
    rr.FillFeedback(0, b, 1 * kUs, 8, none2);
    EXPECT_TRUE(b.fbValid);
    EXPECT_EQ(b.fbLbTag, 10);
    EXPECT_TRUE(none2.calls.empty());
}

TEST(CongaCore, FeedbackRandomAgesToZeroUnlessFedBack)
{
    // one path (no draw): CE 5 at t0; fed back at t0 + aging / 2, which refreshes it (as
    // [A]'s receiver writes value and time back), so still 5 just under an aging time
    // later; 0 once an aging time passed with neither a packet nor a feedback
    CongaLeafCore leaf;
    ASSERT_TRUE(ConfigureFeedbackLeaf(leaf, true));
    const int64_t aging = leaf.GetConfig().agingNs;
    RecordingDraw draw(1);
    CongaTag b;
    leaf.FillFeedback(0, b, 0, 1, draw);
    EXPECT_FALSE(b.fbValid) << "no packet came on the path yet";
    const int64_t t0 = 1000 * kUs;
    CongaTag a;
    a.lbTag = 0;
    a.ce = 5;
    leaf.OnArrival(0, a, t0);
    const int64_t t1 = t0 + aging / 2;
    leaf.FillFeedback(0, b, t1, 1, draw);
    EXPECT_TRUE(b.fbValid);
    EXPECT_EQ(b.fbMetric, 5);
    leaf.FillFeedback(0, b, t1 + aging, 1, draw);
    EXPECT_TRUE(b.fbValid);
    EXPECT_EQ(b.fbMetric, 5) << "refreshed by the feedback at t1";
    const int64_t t2 = t1 + 2 * aging + 1;
    leaf.FillFeedback(0, b, t2, 1, draw);
    EXPECT_TRUE(b.fbValid);
    EXPECT_EQ(b.fbLbTag, 0);
    EXPECT_EQ(b.fbMetric, 0) << "aged: [A]'s AgingEvent zeroes it";
    a.ce = 3;
    leaf.OnArrival(0, a, t2);
    leaf.FillFeedback(0, b, t2, 1, draw);
    EXPECT_EQ(b.fbMetric, 3);
    EXPECT_TRUE(draw.calls.empty()) << "one path: nothing to draw";
    // the destination of that feedback: Congestion-To-Leaf reads it
    CongaLeafCore src;
    ASSERT_TRUE(ConfigureFeedbackLeaf(src, true));
    src.OnArrival(1, CongaTag::Unpack(b.Pack()), t2);
    EXPECT_EQ(src.GetCongestionToLeaf(1, 0, t2), 3);
}

TEST(CongaCore, FeedbackRoundRobinDrawsNothingAndIsUnchanged)
{
    // FeedbackChoice RoundRobin (default): the overload with a draw gives the round robin
    // tag for tag, whatever nEntries, and never draws
    CongaLeafCore a;
    CongaLeafCore b;
    ASSERT_TRUE(ConfigureFeedbackLeaf(a, false));
    ASSERT_TRUE(ConfigureFeedbackLeaf(b, false));
    std::mt19937 gen(3);
    RecordingDraw draw(3);
    for (uint32_t i = 0; i < 2000; ++i)
    {
        const int64_t t = i * 10 * kUs;
        if (gen() % 3 == 0)
        {
            CongaTag arr;
            arr.lbTag = static_cast<uint8_t>(gen() % 16);
            arr.ce = static_cast<uint8_t>(gen() % 8);
            a.OnArrival(0, arr, t);
            b.OnArrival(0, arr, t);
        }
        CongaTag ta;
        CongaTag tb;
        a.FillFeedback(0, ta, t);
        b.FillFeedback(0, tb, t, static_cast<uint16_t>(1 + gen() % 16), draw);
        ASSERT_EQ(ta.Pack(), tb.Pack()) << "packet " << i;
    }
    EXPECT_TRUE(draw.calls.empty());
}

TEST(CongaCore, PathSamplesAlsoBoundsChooseUplink)
{
    // NewFlowlet is shared: a leaf-spine uplink choice honours the window too
    CongaLeafCore leaf;
    ASSERT_TRUE(ConfigureSamplingLeaf(leaf, 2, false));
    Script script{{3, 1}}; // start 3 of [0, 16 - 2], then the second tie
    EXPECT_EQ(leaf.ChooseUplink(1, 1, 0, script).uplink, 4);
    EXPECT_EQ(script.calls, 2u);
}

} // namespace
