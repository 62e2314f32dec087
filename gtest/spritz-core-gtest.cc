// GoogleTest: Spritz-Scout / Spritz-Spray endpoint logic (spritz spec 3, paper Algorithms 1-3;
// spec 6.4 cases 16-23) on lbcore::SpritzCore with deterministic uniforms.
#include "ns3/spritz-core.h"

#include <gtest/gtest.h>
#include <random>
#include <vector>

using namespace ns3::lbcore;

namespace
{
constexpr int64_t kMs = 1000000;

SpritzCore
Make(SpritzMode mode, std::vector<double> w, uint32_t ecnWindow = 0)
{
    SpritzConfig c;
    c.mode = mode;
    c.ecnWindow = ecnWindow; // 0: no ECN-rate estimate (tests drive ApplyEcnRate)
    c.resetNs = 1 * kMs;
    SpritzCore core;
    core.Configure(c, w.data(), static_cast<uint32_t>(w.size()));
    return core;
}
} // namespace

TEST(SpritzCore, ExplorationPeriodIs46)
{
    // case 16: a non-empty buffer, no feedback: 45 x front, 1 x gen(w), repeated.
    SpritzCore s = Make(SpritzMode::SCOUT, {1, 1, 1, 1});
    s.OnAck(2, false, 0);
    for (int cycle = 0; cycle < 3; ++cycle)
    {
        for (int k = 0; k < 45; ++k)
        {
            bool ex = true;
            EXPECT_EQ(s.NextIndex(0.0, 0, &ex), 2u) << "cycle " << cycle << " send " << k;
            EXPECT_FALSE(ex);
        }
        bool ex = false;
        EXPECT_EQ(s.NextIndex(0.0, 0, &ex), 0u); // gen(w) with u = 0 -> index 0
        EXPECT_TRUE(ex);
        EXPECT_EQ(s.BufferSize(), 1u); // exploration leaves the buffer alone
    }
    EXPECT_EQ(s.Explorations(), 3u);
}

TEST(SpritzCore, ScoutCachesGoodPathAndLeavesMarkedOne)
{
    // cases 17 and 19: after a clean ACK for e every normal send is e; 8 ECN ACKs keep
    // it, the 9th removes it and resets the counter.
    SpritzCore s = Make(SpritzMode::SCOUT, {1, 1, 1, 1, 1});
    s.OnAck(3, false, 0);
    for (int k = 0; k < 40; ++k)
    {
        EXPECT_EQ(s.NextIndex(0.99, 0), 3u);
    }
    for (int k = 0; k < 8; ++k)
    {
        s.OnAck(3, true, 0);
    }
    EXPECT_TRUE(s.Contains(3));
    EXPECT_EQ(s.EcnCount(3), 8u);
    s.OnAck(3, true, 0);
    EXPECT_FALSE(s.Contains(3));
    EXPECT_EQ(s.EcnCount(3), 0u);
    EXPECT_EQ(s.BufferSize(), 0u);
    EXPECT_EQ(s.NextIndex(0.99, 0), 4u); // empty buffer: gen(w)
    // a NACK removes at once and leaves the weights alone
    s.OnAck(1, false, 0);
    s.OnNack(1);
    EXPECT_FALSE(s.Contains(1));
    EXPECT_DOUBLE_EQ(s.Weight(1), 1.0);
}

TEST(SpritzCore, ScoutBufferSortedNoDuplicatesCapacity8)
{
    // case 18: index order = latency order (the list is sorted, spec 2.6).
    std::vector<double> w(12, 1.0);
    SpritzCore s = Make(SpritzMode::SCOUT, w);
    s.OnAck(7, false, 0); // e.g. 1274.6 ns
    s.OnAck(2, false, 0); // e.g. 799.6 ns
    EXPECT_EQ(s.BufferAt(0), 2u);
    EXPECT_EQ(s.BufferAt(1), 7u);
    s.OnAck(2, false, 0);
    EXPECT_EQ(s.BufferSize(), 2u);
    for (uint32_t i : {9u, 0u, 5u, 4u, 11u, 10u})
    {
        s.OnAck(i, false, 0);
    }
    EXPECT_EQ(s.BufferSize(), 8u);
    s.OnAck(3, false, 0); // a 9th distinct good path is ignored
    EXPECT_EQ(s.BufferSize(), 8u);
    EXPECT_FALSE(s.Contains(3));
    for (uint32_t k = 1; k < 8; ++k)
    {
        EXPECT_LT(s.BufferAt(k - 1), s.BufferAt(k));
    }
    EXPECT_EQ(s.NextIndex(0.5, 0), 0u); // the shortest good path
}

TEST(SpritzCore, SprayUsesEachBufferedEvOnce)
{
    // case 21
    SpritzCore s = Make(SpritzMode::SPRAY, {1, 1, 1, 1, 1});
    s.OnAck(3, false, 0);
    s.OnAck(3, false, 0);
    s.OnAck(1, false, 0);
    EXPECT_EQ(s.NextIndex(0.0, 0), 3u);
    EXPECT_EQ(s.NextIndex(0.0, 0), 3u);
    EXPECT_EQ(s.NextIndex(0.0, 0), 1u);
    EXPECT_EQ(s.BufferSize(), 0u);
    EXPECT_EQ(s.NextIndex(0.99, 0), 4u); // empty: gen(w)
    for (int k = 0; k < 12; ++k)
    {
        s.OnAck(2, false, 0);
    }
    EXPECT_EQ(s.BufferSize(), 8u);
    // ECN and NACK leave the state unchanged
    s.OnAck(2, true, 0);
    s.OnNack(2);
    EXPECT_EQ(s.BufferSize(), 8u);
    // exploration does not pop
    SpritzCore t = Make(SpritzMode::SPRAY, {1, 1});
    for (int k = 0; k < 45; ++k)
    {
        t.NextIndex(0.0, 0);
    }
    t.OnAck(1, false, 0);
    bool ex = false;
    EXPECT_EQ(t.NextIndex(0.0, 0, &ex), 0u);
    EXPECT_TRUE(ex);
    EXPECT_EQ(t.BufferSize(), 1u);
    EXPECT_EQ(t.NextIndex(0.0, 0), 1u);
}

TEST(SpritzCore, TimeoutBlocksThenRestores)
{
    // case 20, both variants; also "Spray's weights shift away from a path that times out".
    for (SpritzMode m : {SpritzMode::SCOUT, SpritzMode::SPRAY})
    {
        SpritzCore s = Make(m, {6.0, 3.5, 3.2, 1.0});
        s.OnAck(1, false, 0);
        s.OnTimeout(1, 5 * kMs);
        EXPECT_DOUBLE_EQ(s.Weight(1), 0.0);
        if (m == SpritzMode::SCOUT)
        {
            EXPECT_FALSE(s.Contains(1));
        }
        std::mt19937 rng(7);
        std::uniform_real_distribution<double> U(0.0, 1.0);
        int hits = 0;
        for (int k = 0; k < 100000; ++k)
        {
            hits += s.Gen(U(rng)) == 1u;
        }
        EXPECT_EQ(hits, 0);
        // still blocked just before T_reset, restored at it
        s.NextIndex(0.5, 6 * kMs - 1);
        EXPECT_DOUBLE_EQ(s.Weight(1), 0.0);
        s.NextIndex(0.5, 6 * kMs);
        EXPECT_DOUBLE_EQ(s.Weight(1), 3.5);
        EXPECT_FALSE(s.Blocked(1));
    }
    // every weight 0: all restored (spec 3.1 [A])
    SpritzCore z = Make(SpritzMode::SPRAY, {1, 1});
    z.OnTimeout(0, 0);
    z.OnTimeout(1, 0);
    EXPECT_LT(z.Gen(0.3), 2u);
    EXPECT_DOUBLE_EQ(z.Weight(0), 1.0);
}

TEST(SpritzCore, BiasTrigger)
{
    // case 22: ecn_rate 0.95 -> w[0] = min_bias_factor (default: sum of the others); 0.85 -> no
    // change; the ECN-rate window drives it from ACKs as well.
    SpritzCore s = Make(SpritzMode::SPRAY, {5.0, 2.0, 1.0, 1.0});
    s.ApplyEcnRate(0.85);
    EXPECT_DOUBLE_EQ(s.Weight(0), 5.0);
    s.ApplyEcnRate(0.95);
    EXPECT_DOUBLE_EQ(s.Weight(0), 4.0);
    s.ApplyEcnRate(0.5);
    EXPECT_DOUBLE_EQ(s.Weight(0), 5.0);
    SpritzCore a = Make(SpritzMode::SCOUT, {5.0, 2.0, 1.0}, 10);
    for (int k = 0; k < 10; ++k)
    {
        a.OnAck(2, true, 0);
    }
    EXPECT_TRUE(a.Biased());
    EXPECT_DOUBLE_EQ(a.Weight(0), 3.0);
    for (int k = 0; k < 10; ++k)
    {
        a.OnAck(2, k == 0, 0); // 10 % marked
    }
    EXPECT_FALSE(a.Biased());
    EXPECT_DOUBLE_EQ(a.Weight(0), 5.0);
}

TEST(SpritzCore, GenMatchesWeights)
{
    // case 23: chi-square of 60,000 draws against w_i / sum(w) (df = 4; 13.28 is p = 0.01).
    const std::vector<double> w = {6.469, 3.509, 3.235, 1.0, 1.0};
    SpritzCore s = Make(SpritzMode::OPS, w);
    std::mt19937 rng(12345);
    std::uniform_real_distribution<double> U(0.0, 1.0);
    std::vector<double> cnt(w.size(), 0);
    const int n = 60000;
    for (int k = 0; k < n; ++k)
    {
        cnt[s.NextIndex(U(rng), 0)]++;
    }
    double total = 0;
    for (double x : w)
    {
        total += x;
    }
    double chi2 = 0;
    for (size_t i = 0; i < w.size(); ++i)
    {
        const double e = n * w[i] / total;
        chi2 += (cnt[i] - e) * (cnt[i] - e) / e;
    }
    EXPECT_LT(chi2, 13.28);
    // uniform variant
    SpritzCore u = Make(SpritzMode::OPS, std::vector<double>(4, 1.0));
    std::vector<double> c4(4, 0);
    for (int k = 0; k < 40000; ++k)
    {
        c4[u.NextIndex(U(rng), 0)]++;
    }
    double chi = 0;
    for (double c : c4)
    {
        chi += (c - 10000) * (c - 10000) / 10000;
    }
    EXPECT_LT(chi, 11.34); // df = 3, p = 0.01
    // ECMP mode: one fixed index
    SpritzConfig ec;
    ec.mode = SpritzMode::ECMP;
    SpritzCore e;
    e.Configure(ec, w.data(), 5, 13);
    for (int k = 0; k < 10; ++k)
    {
        EXPECT_EQ(e.NextIndex(U(rng), 0), 3u);
    }
}

// ---- audit of Algorithms 1-3 (doc/spritz.rst, Table III: why Scout trails Spray) ----

TEST(SpritzCore, InitialStateIsEmptyBufferAndEq1Weights)
{
    // spec 3.1: empty buffer, packet_count 0, ecn_counts 0, w = Eq. 1; with nothing cached
    // every send is gen(w) and the first forced exploration is the 46th send.
    SpritzCore s = Make(SpritzMode::SCOUT, {5.6, 3.5, 1.0});
    EXPECT_EQ(s.BufferSize(), 0u);
    for (uint32_t i = 0; i < 3; ++i)
    {
        EXPECT_EQ(s.EcnCount(i), 0u);
        EXPECT_DOUBLE_EQ(s.Weight(i), s.InitialWeight(i));
        EXPECT_FALSE(s.Blocked(i));
    }
    for (int k = 0; k < 45; ++k)
    {
        bool ex = true;
        s.NextIndex(0.99, 0, &ex);
        EXPECT_FALSE(ex) << "send " << k;
    }
    bool ex = false;
    s.NextIndex(0.99, 0, &ex);
    EXPECT_TRUE(ex);
}

TEST(SpritzCore, ScoutReturnsToShortestPathOnOneCleanAck)
{
    // Alg. 2 lines 2-5 + Alg. 1 line 12 (no pop for Scout): the shortest path that gets one
    // clean ACK goes back to the front even right after it was removed for ECN (lines 9-11),
    // and ecn_counts are not reset by clean ACKs (only by removal, NACK and timeout).
    SpritzCore s = Make(SpritzMode::SCOUT, {5.6, 3.5, 3.2, 1.0});
    s.OnAck(2, false, 0);
    s.OnAck(0, false, 0);
    EXPECT_EQ(s.NextIndex(0.99, 0), 0u);
    for (int k = 0; k < 5; ++k)
    {
        s.OnAck(0, true, 0);
    }
    s.OnAck(0, false, 0); // clean ACK between marks: count kept
    EXPECT_EQ(s.EcnCount(0), 5u);
    for (int k = 0; k < 4; ++k)
    {
        s.OnAck(0, true, 0); // 9th mark > 8: removed, count reset
    }
    EXPECT_FALSE(s.Contains(0));
    EXPECT_EQ(s.EcnCount(0), 0u);
    EXPECT_EQ(s.NextIndex(0.0, 0), 2u); // next cached path
    s.OnAck(0, false, 0);               // one clean ACK from the in-flight window
    EXPECT_EQ(s.BufferAt(0), 0u);
    EXPECT_EQ(s.NextIndex(0.99, 0), 0u); // back on the shortest path
    // marks on a path outside the buffer still count (line 8 has no membership test)
    s.OnAck(3, true, 0);
    s.OnAck(3, true, 0);
    EXPECT_EQ(s.EcnCount(3), 2u);
    s.OnAck(3, false, 0);
    EXPECT_TRUE(s.Contains(3));
    EXPECT_EQ(s.EcnCount(3), 2u);
    // NACK and timeout reset the count (lines 15, 19)
    s.OnNack(3);
    EXPECT_EQ(s.EcnCount(3), 0u);
    s.OnAck(2, true, 0);
    s.OnTimeout(2, 0);
    EXPECT_EQ(s.EcnCount(2), 0u);
    EXPECT_FALSE(s.Contains(2));
}

TEST(SpritzCore, SprayTimeoutOnlyBlocksTheWeight)
{
    // Alg. 3 lines 7-9: a timeout sets w[i] = 0 and nothing else: buffered copies of the path
    // are still sent (each once, Alg. 1 line 14); ECN / NACK change nothing (Sec. IV-B).
    SpritzCore s = Make(SpritzMode::SPRAY, {5.6, 3.5, 1.0});
    s.OnAck(1, false, 0);
    s.OnAck(1, false, 0);
    s.OnTimeout(1, 0);
    EXPECT_TRUE(s.Blocked(1));
    EXPECT_EQ(s.BufferSize(), 2u);
    s.OnAck(1, true, 0);
    s.OnNack(1);
    EXPECT_EQ(s.BufferSize(), 2u);
    EXPECT_EQ(s.NextIndex(0.5, 0), 1u);
    EXPECT_EQ(s.NextIndex(0.5, 0), 1u);
    EXPECT_EQ(s.BufferSize(), 0u);
    for (int k = 0; k < 40; ++k)
    {
        EXPECT_NE(s.NextIndex(k / 40.0, 0), 1u); // gen(w) never draws the blocked path
    }
    // a later clean ACK (a packet sent before the timeout) recycles it again (line 2-5)
    s.OnAck(1, false, 0);
    EXPECT_EQ(s.NextIndex(0.5, 0), 1u);
}
