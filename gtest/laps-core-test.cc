/*
 * GoogleTest tests of the LAPS sender core (model/lb/core/laps-core.h), laps
 * spec section 7 unit tests 4 (baseVal), 5 (softmax), 6 (invalid paths),
 * 7 (staleness / probes), 8-10 (AIMD), 11-12 (loss inference and timeout).
 * Randomness: a seeded std::mt19937.
 */
#include "ns3/laps-core.h"

#include <cmath>
#include <cstring>
#include <deque>
#include <gtest/gtest.h>
#include <limits>
#include <random>
#include <vector>

using namespace ns3::lapscore;

namespace
{

std::vector<LapsPathEntry*>
Ptrs(std::vector<LapsPathEntry>& v)
{
    std::vector<LapsPathEntry*> p;
    for (auto& e : v)
    {
        p.push_back(&e);
    }
    return p;
}

std::vector<uint64_t>
Draw(std::vector<LapsPathEntry>& v, double beta, uint32_t n, uint32_t seed)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> U(0.0, 1.0);
    auto p = Ptrs(v);
    std::vector<double> w(v.size());
    std::vector<uint64_t> c(v.size(), 0);
    for (uint32_t i = 0; i < n; ++i)
    {
        double sum = LapsWeights(p.data(), static_cast<uint32_t>(p.size()), beta, w.data());
        int k = LapsSample(w.data(), static_cast<uint32_t>(w.size()), sum, U(rng));
        EXPECT_GE(k, 0);
        c[k]++;
    }
    return c;
}

// spec 7.4: 2 links, 1 switch, 100G, 1 us, 1048 B -> 2586.88 ns
TEST(LapsCore, BaseValFollowsTheSpecFormula)
{
    const double prop[2] = {1000, 1000};
    const double rate[2] = {100e9, 100e9};
    EXPECT_NEAR(LapsBaseValNs(prop, rate, 2, 1048, 5), 2586.88, 1e-6);
    // no margin: propagation + serialisation only
    EXPECT_NEAR(LapsBaseValNs(prop, rate, 2, 1048, 0), 2167.68, 1e-6);
}

// spec 7.5: beta = 0 is uniform (chi-square, 10^6 draws)
TEST(LapsCore, ZeroTemperatureIsUniform)
{
    std::vector<LapsPathEntry> v(8);
    for (uint32_t i = 0; i < v.size(); ++i)
    {
        v[i].realNs = 1000 * (i + 1); // different delays: ignored at beta 0
    }
    const uint32_t n = 1000000;
    auto c = Draw(v, 0.0, n, 1);
    double chi2 = 0;
    const double e = double(n) / v.size();
    for (auto x : c)
    {
        chi2 += (x - e) * (x - e) / e;
    }
    EXPECT_LT(chi2, 24.3); // 7 degrees of freedom, p = 0.001
}

// spec 7.5: two paths d1 < d2: count ratio ~ exp(beta (d2 - d1)) within 2 %
TEST(LapsCore, CountRatioFollowsTheSoftmax)
{
    std::vector<LapsPathEntry> v(2);
    v[0].realNs = 3000;
    v[1].realNs = 4000;
    const double T = 5000;
    for (double alpha : {0.5, 1.0, 2.0, 5.0})
    {
        const double beta = alpha / T;
        auto c = Draw(v, beta, 1000000, 7);
        const double expect = std::exp(beta * 1000);
        EXPECT_NEAR(double(c[0]) / c[1], expect, 0.02 * expect) << "alpha " << alpha;
        EXPECT_GT(c[0], c[1]); // lower measured delay, more packets
    }
}

// spec 7.5: beta -> infinity uses only the fastest path; spec 7.6 invalid paths
TEST(LapsCore, InfiniteTemperatureAndInvalidPaths)
{
    std::vector<LapsPathEntry> v(3);
    v[0].realNs = 5000;
    v[1].realNs = 2000;
    v[2].realNs = 1000;
    v[2].valid = false; // fastest but invalid: never chosen
    auto c = Draw(v, std::numeric_limits<double>::infinity(), 10000, 3);
    EXPECT_EQ(c[0], 0u);
    EXPECT_EQ(c[1], 10000u);
    EXPECT_EQ(c[2], 0u);
    c = Draw(v, 1.0 / 5000, 100000, 4);
    EXPECT_EQ(c[2], 0u);
    EXPECT_GT(c[1], c[0]);
    // every path invalid: nothing can be sent
    for (auto& e : v)
    {
        e.valid = false;
    }
    auto p = Ptrs(v);
    double w[3];
    double sum = LapsWeights(p.data(), 3, 1.0, w);
    EXPECT_EQ(sum, 0.0);
    EXPECT_EQ(LapsSample(w, 3, sum, 0.5), -1);
}

// the cached softmax gives LapsWeights's weights and sum bit for bit over a random sequence
// of realVal changes, validity flips, new minima and beta changes (also infinite), and
// evaluates exp only for what changed
TEST(LapsCore, CachedWeightsEqualTheUncachedBitForBit)
{
    const uint32_t n = 8;
    std::vector<LapsPathEntry> v(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        v[i].realNs = 2000 + 300 * i;
    }
    auto p = Ptrs(v);
    LapsWeightCache cache;
    cache.Reset(n);
    std::mt19937 g(7);
    double beta = 1.0 / 4000;
    double w[n];
    double wc[n];
    uint32_t sameInputs = 0;
    for (int step = 0; step < 20000; ++step)
    {
        const uint32_t what = g() % 10;
        const uint32_t i = g() % n;
        if (what < 5)
        {
            v[i].realNs = 1000 + static_cast<int64_t>(g() % 20000);
        }
        else if (what == 5)
        {
            v[i].valid = !v[i].valid;
        }
        else if (what == 6)
        {
            beta = (g() % 4 == 0) ? std::numeric_limits<double>::infinity()
                                  : 1.0 / (1000 + g() % 9000);
        }
        else
        {
            ++sameInputs; // nothing changed: the cache alone answers
        }
        const double sum = LapsWeights(p.data(), n, beta, w);
        const double sumc = LapsWeightsCached(p.data(), n, beta, wc, cache);
        ASSERT_EQ(std::memcmp(&sum, &sumc, sizeof sum), 0) << "step " << step;
        for (uint32_t k = 0; k < n; ++k)
        {
            ASSERT_EQ(std::memcmp(&w[k], &wc[k], sizeof w[k]), 0) << "step " << step << " k " << k;
        }
    }
    EXPECT_GT(sameInputs, 1000u);
    // a change the cache missed would show: overwrite a cached weight, change nothing, and
    // the cached call keeps the stale value (it does not recompute unchanged entries)
    wc[0] = -1;
    LapsWeightsCached(p.data(), n, beta, wc, cache);
    EXPECT_EQ(wc[0], -1);
}

// session 50: Choose's one pass (LapsScanStale) finds the same stale entries as LapsCheckStale
// and the same least valid realVal as LapsWeights; with that minimum LapsWeightsCachedMin gives
// LapsWeightsCached's weights and sum bit for bit
TEST(LapsCore, ScanStaleMatchesCheckStaleAndTheSoftmaxMinimum)
{
    const uint32_t n = 8;
    std::vector<LapsPathEntry> v(n);
    auto p = Ptrs(v);
    LapsWeightCache cache;
    LapsWeightCache cache2;
    cache.Reset(n);
    cache2.Reset(n);
    std::mt19937 g(11);
    const double beta = 1.0 / 3000;
    double w[n];
    double w2[n];
    std::vector<uint32_t> stale;
    uint32_t staleSeen = 0;
    uint32_t noneValid = 0;
    for (int step = 0; step < 20000; ++step)
    {
        const int64_t now = 100000 + step * 50;
        for (uint32_t i = 0; i < n; ++i)
        {
            if (g() % 4 == 0)
            {
                v[i].realNs = 500 + static_cast<int64_t>(g() % 8000);
                v[i].timeNs = now - static_cast<int64_t>(g() % 20000);
            }
            if (g() % 16 == 0)
            {
                v[i].valid = !v[i].valid;
            }
        }
        stale.clear();
        const int64_t minReal = LapsScanStale(p.data(), n, now, stale);
        std::vector<uint32_t> expect;
        int64_t expectMin = std::numeric_limits<int64_t>::max();
        for (uint32_t i = 0; i < n; ++i)
        {
            LapsPathEntry copy = v[i];
            if (LapsCheckStale(copy, now))
            {
                expect.push_back(i);
            }
            if (v[i].valid)
            {
                expectMin = std::min(expectMin, v[i].realNs);
            }
        }
        ASSERT_EQ(stale, expect) << "step " << step;
        ASSERT_EQ(minReal, expectMin) << "step " << step;
        staleSeen += stale.empty() ? 0 : 1;
        noneValid += minReal == std::numeric_limits<int64_t>::max() ? 1 : 0;
        const double sum = LapsWeightsCached(p.data(), n, beta, w, cache);
        const double sum2 = LapsWeightsCachedMin(p.data(), n, beta, w2, cache2, minReal);
        ASSERT_EQ(std::memcmp(&sum, &sum2, sizeof sum), 0) << "step " << step;
        ASSERT_EQ(std::memcmp(w, w2, sizeof w), 0) << "step " << step;
    }
    EXPECT_GT(staleSeen, 1000u);
    // a wrong minimum shows: the weights are relative to it
    stale.clear();
    const int64_t m = LapsScanStale(p.data(), n, 0, stale);
    if (m != std::numeric_limits<int64_t>::max())
    {
        LapsWeightsCachedMin(p.data(), n, beta, w2, cache2, m - 1000);
        const double s1 = LapsWeightsCached(p.data(), n, beta, w, cache);
        double s2 = 0;
        for (uint32_t k = 0; k < n; ++k)
        {
            s2 += w2[k];
        }
        EXPECT_NE(s1, s2);
    }
}

// session 50: LapsLossCore's ring buffer behaves as the std::deque it replaced, through
// growth, wrap-around at both ends and clears
TEST(LapsCore, RingBehavesAsADeque)
{
    LapsRing<int64_t> r;
    std::deque<int64_t> d;
    std::mt19937 g(5);
    for (int step = 0; step < 200000; ++step)
    {
        const uint32_t what = g() % 100;
        const int64_t v = static_cast<int64_t>(g());
        if (what < 40)
        {
            r.push_back(v);
            d.push_back(v);
        }
        else if (what < 50)
        {
            r.push_front(v);
            d.push_front(v);
        }
        else if (what < 88)
        {
            if (!d.empty())
            {
                ASSERT_EQ(r.front(), d.front()) << "step " << step;
                r.pop_front();
                d.pop_front();
            }
        }
        else if (what < 96)
        {
            const size_t n = d.size() + g() % 5;
            r.resize(n, v);
            d.resize(n, v);
        }
        else if (what < 97 && g() % 8 == 0)
        {
            r.clear();
            d.clear();
        }
        else if (!d.empty())
        {
            const size_t i = g() % d.size();
            r[i] = v;
            d[i] = v;
        }
        ASSERT_EQ(r.size(), d.size()) << "step " << step;
        ASSERT_EQ(r.empty(), d.empty()) << "step " << step;
        if (step % 97 == 0)
        {
            for (size_t i = 0; i < d.size(); ++i)
            {
                ASSERT_EQ(r[i], d[i]) << "step " << step << " i " << i;
            }
        }
    }
}

// session 50: LossOnSend appends the next new sequence with push_back instead of resize; the
// bookkeeping is the same as before (gaps, retransmissions older than the base, resends)
TEST(LapsCore, LossOnSendAppendsAndFillsGapsAlike)
{
    LapsLossCore c;
    c.Init(2);
    c.OnSend(0, 10, 1);
    c.OnSend(1, 11, 2); // next new sequence
    c.OnSend(0, 14, 3); // a gap (12, 13 not sent)
    c.OnSend(1, 8, 4);  // older than the base
    c.OnSend(1, 12, 5); // fills the gap
    EXPECT_EQ(c.Outstanding(0), (std::vector<uint32_t>{10, 14}));
    EXPECT_EQ(c.Outstanding(1), (std::vector<uint32_t>{11, 8, 12}));
    std::vector<uint32_t> lost;
    EXPECT_TRUE(c.OnAck(1, 12, lost, 5));
    EXPECT_EQ(lost, (std::vector<uint32_t>{11, 8}));
    lost.clear();
    EXPECT_FALSE(c.OnAck(1, 13, lost, 6)); // never sent
    EXPECT_TRUE(c.OnAck(0, 14, lost, 3));
    EXPECT_EQ(lost, (std::vector<uint32_t>{10}));
    EXPECT_EQ(c.Live(0) + c.Live(1), 0u);
    c.OnSend(0, 15, 7); // after everything resolved: a new base
    EXPECT_EQ(c.Outstanding(0), (std::vector<uint32_t>{15}));
}

// spec 7.7: a stale entry probes once, doubles realVal, sets time; no second
// probe before 2x the doubled value
TEST(LapsCore, StaleEntriesProbeOnceAndBackOff)
{
    LapsPathEntry e;
    e.realNs = 1000;
    e.timeNs = 0;
    EXPECT_FALSE(LapsCheckStale(e, 2000)); // exactly 2 realVal: not yet stale
    EXPECT_TRUE(LapsCheckStale(e, 2001));
    EXPECT_EQ(e.realNs, 2000);
    EXPECT_EQ(e.timeNs, 2001);
    EXPECT_FALSE(LapsCheckStale(e, 2001 + 4000));
    EXPECT_TRUE(LapsCheckStale(e, 2001 + 4001));
    EXPECT_EQ(e.realNs, 4000);
    // an entry that is used (updated by ACKs) never probes
    LapsPathEntry busy;
    busy.realNs = 1000;
    for (int64_t t = 0; t < 100000; t += 500)
    {
        busy.timeNs = t; // OnAnyAck
        EXPECT_FALSE(LapsCheckStale(busy, t + 1));
    }
    // invalid entries are never probed
    LapsPathEntry dead;
    dead.valid = false;
    dead.realNs = 10;
    EXPECT_FALSE(LapsCheckStale(dead, 1000000));
}

// spec 7.8: decrease halves cur, exp = old cur, incStage = 0; guarded by 2t
TEST(LapsCore, RateDecreaseAndItsGuard)
{
    LapsRateConfig c;
    c.lineRateBps = 100e9;
    LapsRateCore r(c);
    const int64_t T = 10000;
    // a few increases first (at line rate: no change) to raise incStage
    for (int i = 0; i < 3; ++i)
    {
        EXPECT_EQ(r.OnAck(i * 100000, 5000, T), LapsRateCore::INCREASE);
    }
    EXPECT_EQ(r.IncStage(), 3u);
    const int64_t t0 = 1000000;
    const int64_t t = 12000; // every realVal > T
    EXPECT_EQ(r.OnAck(t0, t, T), LapsRateCore::DECREASE);
    EXPECT_DOUBLE_EQ(r.CurRate(), 50e9);
    EXPECT_DOUBLE_EQ(r.ExpRate(), 100e9);
    EXPECT_EQ(r.IncStage(), 0u);
    EXPECT_EQ(r.OnAck(t0 + 2 * t - 1, t, T), LapsRateCore::NONE); // within 2t
    EXPECT_DOUBLE_EQ(r.CurRate(), 50e9);
    EXPECT_EQ(r.OnAck(t0 + 2 * t, t, T), LapsRateCore::DECREASE); // Now() >= nxtDec
    EXPECT_DOUBLE_EQ(r.CurRate(), 25e9);
    EXPECT_DOUBLE_EQ(r.ExpRate(), 50e9);
}

// spec 2.7 item 3: the two congestion predicates.  Alg. 2 (min realVal > max
// baseVal) and the Sec. III-E text (every valid path above its own baseVal) differ
// when the paths' baseVals differ: a short path 2 us above its own baseVal is
// congested per path, not for Alg. 2 while it stays below the long path's baseVal.
TEST(LapsCore, CongestionPredicates)
{
    LapsPathEntry a{true, 0, 5000, 7000};   // short path: 2 us above its baseVal
    LapsPathEntry b{true, 0, 10000, 10500}; // long path: 0.5 us above its baseVal
    LapsPathEntry* p[2] = {&a, &b};
    const int64_t T = 10000;
    const int64_t t = std::min(a.realNs, b.realNs);
    EXPECT_FALSE(t > T);                     // Alg. 2: t = 7 us <= T = 10 us
    EXPECT_TRUE(LapsCongestedPerPath(p, 2)); // Sec. III-E: both above their own baseVal
    b.realNs = 10000;                        // at (not above) its baseVal
    EXPECT_FALSE(LapsCongestedPerPath(p, 2));
    b.valid = false; // invalid paths do not count
    EXPECT_TRUE(LapsCongestedPerPath(p, 2));
    a.valid = false;
    EXPECT_FALSE(LapsCongestedPerPath(p, 2)); // no valid path: not congested
    // the rate core takes the predicate as given; the guard stays 2t
    LapsRateConfig c;
    c.lineRateBps = 100e9;
    LapsRateCore r(c);
    EXPECT_EQ(r.OnAck(1000000, true, 7000, T, 0), LapsRateCore::DECREASE);
    EXPECT_DOUBLE_EQ(r.CurRate(), 50e9);
    EXPECT_EQ(r.OnAck(1000000 + 2 * 7000 - 1, true, 7000, T, 0), LapsRateCore::NONE);
    EXPECT_EQ(r.OnAck(1000000 + 2 * 7000, true, 7000, T, 0), LapsRateCore::DECREASE);
}

// spec 7.9: cur = (exp + cur) / 2; the 6th consecutive increase doubles exp and
// later ones keep doubling; the paper's example; bounds
TEST(LapsCore, RateIncreaseOnACraftedLatencySequence)
{
    const double a = 10e9;
    LapsRateConfig c;
    c.lineRateBps = 1000e9;
    c.minRateBps = 1e9;
    LapsRateCore r(c);
    const int64_t T = 10000;
    int64_t now = 0;
    // the paper's example: a decrease at cur = 3a (line rate 3a, so cur starts there)
    c.lineRateBps = 3 * a;
    r.Reset(c);
    EXPECT_EQ(r.OnAck(now, 20000, T), LapsRateCore::DECREASE); // paper: cur 1.5a, exp 3a
    EXPECT_DOUBLE_EQ(r.CurRate(), 1.5 * a);
    EXPECT_DOUBLE_EQ(r.ExpRate(), 3 * a);
    // crafted sequence: two decreases from 100a, then only uncongested ACKs,
    // each outside the 2t guard (and one inside it, ignored)
    now += 100000;
    c.lineRateBps = 100 * a; // room for HAI
    LapsRateCore q(c);
    double cur = 100 * a;
    double exp = 100 * a;
    const int64_t t = 4000;
    // decrease twice (the second after the 2t guard)
    for (int i = 0; i < 2; ++i)
    {
        EXPECT_EQ(q.OnAck(now, 20000, T), LapsRateCore::DECREASE);
        exp = cur;
        cur /= 2;
        now += 2 * 20000;
    }
    for (uint32_t k = 1; k <= 9; ++k)
    {
        EXPECT_EQ(q.OnAck(now, t, T), LapsRateCore::INCREASE);
        if (k > 5)
        {
            exp = std::min(100 * a, 2 * exp);
        }
        cur = std::min(100 * a, (exp + cur) / 2);
        EXPECT_DOUBLE_EQ(q.CurRate(), cur) << "increase " << k;
        EXPECT_DOUBLE_EQ(q.ExpRate(), exp) << "increase " << k;
        EXPECT_EQ(q.OnAck(now + 2 * t - 1, t, T), LapsRateCore::NONE); // guard 2t
        now += 2 * t;
    }
    // the gap to exp halves each stage before HAI (spec 2.7 item 4: a/2^N)
    EXPECT_GT(q.ExpRate(), 50 * a);
    // bounds: never below minRate, never above line rate
    LapsRateCore m(c);
    for (int i = 0; i < 200; ++i)
    {
        m.OnAck(int64_t(i) * 1000000, 20000, T);
        EXPECT_GE(m.CurRate(), c.minRateBps);
    }
    for (int i = 0; i < 200; ++i)
    {
        m.OnAck(int64_t(300 + i) * 1000000, 1000, T);
        EXPECT_LE(m.CurRate(), c.lineRateBps);
        EXPECT_LE(m.ExpRate(), c.lineRateBps);
    }
    EXPECT_DOUBLE_EQ(m.CurRate(), c.lineRateBps);
}

// IncreaseStep ([A]'s cur = max(cur + 1 Gb/s, (exp + cur) / 2)): with cur == exp the
// paper's recurrence stays put until HAI, the artifact's step still adds 1 Gb/s;
// when the half-gap is larger than the step it is the recurrence
TEST(LapsCore, IncreaseStepIsALeastIncrease)
{
    LapsRateConfig c;
    c.lineRateBps = 100e9;
    const int64_t T = 10000;
    const int64_t t = 4000;
    for (double step : {0.0, 1e9})
    {
        c.incStepBps = step;
        LapsRateCore r(c);
        int64_t now = 0;
        EXPECT_EQ(r.OnAck(now, 20000, T), LapsRateCore::DECREASE); // cur 50, exp 100
        now += 40000;
        EXPECT_EQ(r.OnAck(now, 20000, T), LapsRateCore::DECREASE); // cur 25, exp 50
        now += 40000;
        EXPECT_EQ(r.OnAck(now, t, T), LapsRateCore::INCREASE); // half-gap 12.5 > step
        EXPECT_DOUBLE_EQ(r.CurRate(), 37.5e9);
        now += 2 * t;
        // four more increases: 43.75, 46.875, 48.4375, then the half-gap (0.78 Gb/s)
        // falls below the step
        double cur = 37.5e9;
        for (int k = 2; k <= 5; ++k)
        {
            EXPECT_EQ(r.OnAck(now, t, T), LapsRateCore::INCREASE);
            cur = std::min(100e9, std::max(cur + step, (50e9 + cur) / 2));
            EXPECT_DOUBLE_EQ(r.CurRate(), cur) << "step " << step << " increase " << k;
            now += 2 * t;
        }
        // 5th increase: the recurrence's half-gap 0.78 Gb/s, the step's 1 Gb/s
        EXPECT_DOUBLE_EQ(r.CurRate(), step == 0 ? 49.21875e9 : 49.4375e9);
    }
}

// spec 7.10: weight falls with delay while the rate stays (some path <= T)
TEST(LapsCore, WeightFallsWhileRateStays)
{
    LapsRateConfig c;
    LapsRateCore r(c);
    std::vector<LapsPathEntry> v(2);
    v[0].realNs = 3000;
    v[1].realNs = 3000;
    const int64_t T = 8000;
    auto p = Ptrs(v);
    double w[2];
    double prevShare = 0.5;
    for (int i = 1; i <= 10; ++i)
    {
        v[1].realNs = 3000 + i * 1000; // path 1 gets slower, path 0 stays below T
        double sum = LapsWeights(p.data(), 2, 1.0 / T, w);
        double share = w[1] / sum;
        EXPECT_LT(share, prevShare);
        prevShare = share;
        int64_t t = std::min(v[0].realNs, v[1].realNs);
        EXPECT_NE(r.OnAck(int64_t(i) * 100000, t, T), LapsRateCore::DECREASE);
        EXPECT_DOUBLE_EQ(r.CurRate(), c.lineRateBps);
    }
}

// spec 7.11: send 1-5 on p, ACK 3: lost {1, 2}, rBuf {4, 5}; an ACK not in rBuf
// changes nothing
TEST(LapsCore, LossInferenceExactTrigger)
{
    LapsLossCore l;
    l.Init(2);
    for (uint32_t s = 1; s <= 5; ++s)
    {
        l.OnSend(0, s);
    }
    l.OnSend(1, 6);
    std::vector<uint32_t> lost;
    EXPECT_TRUE(l.OnAck(0, 3, lost));
    EXPECT_EQ(lost, (std::vector<uint32_t>{1, 2}));
    EXPECT_EQ(l.Outstanding(0), (std::vector<uint32_t>{4, 5}));
    EXPECT_EQ(l.Live(0), 2u);
    lost.clear();
    EXPECT_FALSE(l.OnAck(0, 3, lost)); // duplicate
    EXPECT_FALSE(l.OnAck(0, 6, lost)); // seq of another path
    EXPECT_FALSE(l.OnAck(0, 1, lost)); // already declared lost
    EXPECT_TRUE(lost.empty());
    EXPECT_EQ(l.Outstanding(0), (std::vector<uint32_t>{4, 5}));
    // the ACK of the newest seq of path 1 infers nothing on path 0
    EXPECT_TRUE(l.OnAck(1, 6, lost));
    EXPECT_TRUE(lost.empty());
    // a lost seq resent on path 1 and acknowledged there
    l.OnSend(1, 1);
    l.OnSend(1, 2);
    EXPECT_TRUE(l.OnAck(1, 2, lost));
    EXPECT_EQ(lost, (std::vector<uint32_t>{1}));
    // in-order ACKs never declare a loss
    lost.clear();
    EXPECT_TRUE(l.OnAck(0, 4, lost));
    EXPECT_TRUE(l.OnAck(0, 5, lost));
    EXPECT_TRUE(lost.empty());
    EXPECT_EQ(l.Live(0), 0u);
}

// spec 2.5 "duplicate, or already declared lost: return", per transmission: the late
// ACK of a copy a timer declared lost must not declare the resends queued since lost,
// even when its sequence was resent on the same path
TEST(LapsCore, LateAckOfADeclaredCopyInfersNothing)
{
    LapsLossCore l;
    l.Init(2);
    l.OnSend(0, 1, 100);
    l.OnSend(0, 2, 110);
    std::vector<uint32_t> lost;
    l.OnTimer(0, lost); // spurious: both still in the network
    EXPECT_EQ(lost, (std::vector<uint32_t>{1, 2}));
    lost.clear();
    l.OnSend(0, 2, 500); // resends, 2 before 1, both on path 0 again
    l.OnSend(0, 1, 510);
    l.OnSend(0, 3, 520);
    // the original copy of 1 (sent at 100) is acknowledged late: nothing is lost
    EXPECT_FALSE(l.OnAck(0, 1, lost, 100));
    EXPECT_TRUE(lost.empty());
    EXPECT_EQ(l.Outstanding(0), (std::vector<uint32_t>{2, 1, 3}));
    // the ACK of the resend of 1 (sent at 510) infers the resend of 2 before it
    EXPECT_TRUE(l.OnAck(0, 1, lost, 510));
    EXPECT_EQ(lost, (std::vector<uint32_t>{2}));
    EXPECT_EQ(l.Outstanding(0), (std::vector<uint32_t>{3}));
    // matched by sequence number only, the late ACK of 1 would have declared 2 lost
    LapsLossCore old;
    old.Init(1);
    old.OnSend(0, 1);
    old.OnSend(0, 2);
    std::vector<uint32_t> lost2;
    old.OnTimer(0, lost2);
    lost2.clear();
    old.OnSend(0, 2);
    old.OnSend(0, 1);
    EXPECT_TRUE(old.OnAck(0, 1, lost2));
    EXPECT_EQ(lost2, (std::vector<uint32_t>{2}));
}

// spec 7.12: with no ACK every segment outstanding on p is lost at the timer
TEST(LapsCore, TimerDeclaresEverythingOutstandingOnThePath)
{
    LapsLossCore l;
    l.Init(3);
    for (uint32_t s = 10; s < 20; ++s)
    {
        l.OnSend(s % 3, s);
    }
    std::vector<uint32_t> lost;
    l.OnTimer(1, lost);
    EXPECT_EQ(lost, (std::vector<uint32_t>{10, 13, 16, 19}));
    EXPECT_EQ(l.Live(1), 0u);
    EXPECT_EQ(l.Live(0), 3u);
    EXPECT_EQ(l.Live(2), 3u);
    // a seq resent elsewhere (transport timeout) goes stale in its old FIFO
    l.OnSend(2, 12);
    EXPECT_EQ(l.Live(0), 2u); // 12 was on path 0
    EXPECT_EQ(l.Live(2), 4u);
    lost.clear();
    l.OnTimer(0, lost);
    EXPECT_EQ(lost, (std::vector<uint32_t>{15, 18}));
    EXPECT_EQ(l.Outstanding(2), (std::vector<uint32_t>{11, 14, 17, 12}));
}

} // namespace
