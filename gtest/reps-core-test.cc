/*
 * Over 600 lines on purpose: one file per spec test list (reps.md section 6), kept
 * together so the numbering can be followed top to bottom.
 * GoogleTest unit tests of the pure REPS state machine (model/lb/reps-core.h).
 * Numbers refer to the test list in specs/reps.md section 6.
 */
#include "ns3/reps-core.h"

#include <cmath>
#include <cstring>
#include <gtest/gtest.h>
#include <map>
#include <random>
#include <vector>

using namespace ns3::reps;

namespace
{

constexpr uint32_t kEvs = 65536;
constexpr int64_t kUs = 1000;
constexpr int64_t kMs = 1000 * 1000;

/** Mock feedback driver: a core, a clock and a seeded RNG that counts its calls. */
template <uint16_t Cap = 8>
struct Driver
{
    explicit Driver(RepsConfig cfg = RepsConfig{}, uint32_t evs = kEvs, uint32_t seed = 1)
        : core(cfg),
          gen(seed),
          dist(0, evs - 1)
    {
    }

    RepsEvChoice Send()
    {
        RepsEvChoice c = core.NextEv([this]() {
            rngCalls++;
            return static_cast<uint16_t>(dist(gen));
        });
        EXPECT_TRUE(core.CheckInvariant());
        return c;
    }

    bool Ack(uint16_t ev, bool ecn = false)
    {
        bool r = core.OnAck(ev, ecn, now);
        EXPECT_TRUE(core.CheckInvariant());
        return r;
    }

    bool Rto()
    {
        return core.OnFailureDetected(now);
    }

    /** Fill all slots with 100..100+N-1 and consume them, leaving numValid = 0. */
    void FillAndDrain()
    {
        const uint8_t n = core.GetConfig().bufferSize;
        for (uint16_t i = 0; i < n; ++i)
        {
            Ack(100 + i);
        }
        for (uint16_t i = 0; i < n * core.GetConfig().evReuseCount; ++i)
        {
            RepsEvChoice c = Send();
            EXPECT_FALSE(c.random);
        }
        EXPECT_EQ(core.GetNumValid(), 0);
        EXPECT_EQ(core.GetNumPopulated(), n);
    }

    RepsCore<Cap> core;
    std::mt19937 gen;
    std::uniform_int_distribution<uint32_t> dist;
    uint64_t rngCalls{0};
    int64_t now{0};
};

RepsConfig
Cfg(uint8_t n = 8, uint8_t pkts = 101)
{
    RepsConfig c;
    c.bufferSize = n;
    c.pktsPerCwnd = pkts;
    c.freezingTimeoutNs = 10 * kMs;
    return c;
}

} // namespace

// ---- state size (test 31) ----

TEST(RepsCoreState, LogicalStateBits)
{
    EXPECT_EQ(RepsLogicalStateBits(8), 193u);
    EXPECT_EQ(RepsLogicalStateBits(1), 74u);
    // about 25 bytes for N = 8 ([L] Table 1)
    EXPECT_EQ((RepsLogicalStateBits(8) + 7) / 8, 25u);
}

TEST(RepsCoreState, StateStructIsSmallAndIndependentOfEvs)
{
    // The state struct holds only Table 1 fields (+ A5 helpers and the reuse counters).
    EXPECT_LE(sizeof(RepsState<8>), 40u);
    EXPECT_LE(sizeof(RepsState<1>), 24u);
    // The EV set size is a property of the RNG passed to NextEv, not of the state:
    Driver<8> small(Cfg(), 16);
    Driver<8> large(Cfg(), 65536);
    EXPECT_EQ(sizeof(small.core), sizeof(large.core));
    EXPECT_LE(sizeof(RepsCore<8>), 40u + sizeof(RepsConfig));
}

TEST(RepsCoreState, ConfigureRejectsOutOfRange)
{
    RepsCore<8> c;
    RepsConfig cfg;
    cfg.bufferSize = 9;
    EXPECT_FALSE(c.Configure(cfg));
    EXPECT_EQ(c.GetConfig().bufferSize, 8);
    cfg.bufferSize = 0;
    EXPECT_FALSE(c.Configure(cfg));
    EXPECT_EQ(c.GetConfig().bufferSize, 1);
    cfg.bufferSize = 8;
    EXPECT_TRUE(c.Configure(cfg));
}

// ---- buffer and send path ----

// Test 1: empty buffer -> random; chi-square over [0, EVS)
TEST(RepsCoreBuffer, EmptyBufferIsRandomAndUniform)
{
    Driver<> d(Cfg(), kEvs, 12345);
    const uint32_t draws = 100000;
    const uint32_t bins = 256; // 256 EVs per bin, expected 390.6 per bin
    std::vector<uint32_t> hist(bins, 0);
    for (uint32_t i = 0; i < draws; ++i)
    {
        RepsEvChoice c = d.Send();
        ASSERT_TRUE(c.random);
        hist[c.ev / (kEvs / bins)]++;
    }
    EXPECT_EQ(d.rngCalls, draws);
    const double expected = double(draws) / bins;
    double chi2 = 0;
    for (uint32_t h : hist)
    {
        chi2 += (h - expected) * (h - expected) / expected;
    }
    // 255 degrees of freedom: critical value at p = 0.001 is about 330.5
    EXPECT_LT(chi2, 330.5);
    EXPECT_GT(chi2, 190.0); // suspiciously perfect would also be wrong (p ~ 0.001 lower tail)
}

// Test 2
TEST(RepsCoreBuffer, OneAckOneReuse)
{
    Driver<> d(Cfg());
    EXPECT_EQ(d.core.GetNumValid(), 0);
    d.Ack(4242);
    EXPECT_EQ(d.core.GetNumValid(), 1);
    RepsEvChoice c = d.Send();
    EXPECT_FALSE(c.random);
    EXPECT_EQ(c.ev, 4242);
    EXPECT_EQ(d.core.GetNumValid(), 0);
    EXPECT_EQ(d.rngCalls, 0u);
    c = d.Send();
    EXPECT_TRUE(c.random);
    EXPECT_EQ(d.rngCalls, 1u);
}

// Test 3
TEST(RepsCoreBuffer, EcnAckChangesNothing)
{
    Driver<> d(Cfg());
    d.Ack(1);
    d.Ack(2);
    RepsState<8> before;
    std::memcpy(&before, &d.core.GetState(), sizeof(before));
    EXPECT_FALSE(d.Ack(777, true));
    EXPECT_EQ(0, std::memcmp(&before, &d.core.GetState(), sizeof(before)));
    // and from an empty buffer the next send stays random
    Driver<> e(Cfg());
    e.Ack(777, true);
    EXPECT_EQ(e.core.GetHead(), 0);
    EXPECT_EQ(e.core.GetNumValid(), 0);
    EXPECT_EQ(e.core.GetNumPopulated(), 0);
    EXPECT_FALSE(e.core.IsFreezing());
    EXPECT_TRUE(e.Send().random);
}

// Test 4
TEST(RepsCoreBuffer, ThreeAcksFourSends)
{
    Driver<> d(Cfg());
    d.Ack(11);
    d.Ack(22);
    d.Ack(33);
    EXPECT_EQ(d.Send().ev, 11);
    EXPECT_EQ(d.Send().ev, 22);
    EXPECT_EQ(d.Send().ev, 33);
    EXPECT_EQ(d.rngCalls, 0u);
    EXPECT_TRUE(d.Send().random);
    EXPECT_EQ(d.rngCalls, 1u);
}

// Test 5
TEST(RepsCoreBuffer, OverflowKeepsNewestInOrder)
{
    Driver<> d(Cfg());
    for (uint16_t i = 1; i <= 20; ++i)
    {
        d.Ack(1000 + i);
    }
    EXPECT_EQ(d.core.GetNumValid(), 8);
    EXPECT_EQ(d.core.GetNumPopulated(), 8);
    for (uint16_t i = 13; i <= 20; ++i)
    {
        RepsEvChoice c = d.Send();
        EXPECT_FALSE(c.random);
        EXPECT_EQ(c.ev, 1000 + i);
    }
    EXPECT_TRUE(d.Send().random);
}

TEST(RepsCoreBuffer, ValidBitsTrackSlots)
{
    Driver<> d(Cfg());
    d.Ack(5);
    d.Ack(6);
    EXPECT_TRUE(d.core.IsValid(0));
    EXPECT_TRUE(d.core.IsValid(1));
    EXPECT_FALSE(d.core.IsValid(2));
    EXPECT_EQ(d.core.GetEv(0), 5);
    d.Send();
    EXPECT_FALSE(d.core.IsValid(0));
    EXPECT_TRUE(d.core.IsValid(1));
    EXPECT_EQ(d.core.GetEv(0), 5); // value stays for freezing
}

TEST(RepsCoreBuffer, BufferSizeOneKeepsLastGoodEv)
{
    Driver<1> d(Cfg(1));
    d.Ack(3);
    d.Ack(4); // overwrites 3
    EXPECT_EQ(d.core.GetNumValid(), 1);
    EXPECT_EQ(d.Send().ev, 4);
    EXPECT_TRUE(d.Send().random);
}

// Tests 6 and 7: random interleaving, several buffer sizes and reuse counts
TEST(RepsCoreBuffer, InvariantUnderRandomInterleaving)
{
    for (uint8_t n : {1, 2, 3, 8})
    {
        for (uint8_t reuse : {1, 4})
        {
            for (bool freezing : {false, true})
            {
                RepsConfig cfg = Cfg(n, 20);
                cfg.evReuseCount = reuse;
                cfg.freezingEnabled = freezing;
                cfg.freezingTimeoutNs = 50 * kUs;
                Driver<8> d(cfg, kEvs, 7 + n + reuse);
                std::mt19937 ops(99 + n * 3 + reuse + freezing);
                std::map<uint16_t, int64_t> credit; // cached uses minus non-frozen uses
                uint16_t nextEv = 1;
                for (int step = 0; step < 20000; ++step)
                {
                    d.now += ops() % 3000; // up to 3 us per step
                    const uint32_t op = ops() % 10;
                    if (op < 4)
                    {
                        const bool ecn = (ops() % 4) == 0;
                        const uint16_t ev = nextEv++;
                        if (!ecn)
                        {
                            credit[ev] += reuse;
                        }
                        d.Ack(ev, ecn);
                    }
                    else if (op < 9)
                    {
                        const bool frozen = d.core.IsFreezing();
                        RepsEvChoice c = d.Send();
                        if (!c.random && !frozen)
                        {
                            // Test 7: outside freezing never used more than cached
                            ASSERT_GT(credit[c.ev], 0) << "ev " << c.ev << " n " << int(n);
                            credit[c.ev]--;
                        }
                    }
                    else
                    {
                        d.Rto();
                    }
                    // Test 6: contiguous valid run ending before head; numValid == #valid bits
                    ASSERT_TRUE(d.core.CheckInvariant());
                    if (!freezing)
                    {
                        ASSERT_FALSE(d.core.IsFreezing());
                    }
                }
            }
        }
    }
}

TEST(RepsCoreBuffer, OutsideFreezingUsesNeverExceedCaches)
{
    // Test 7, strict form with freezing disabled: total recycled sends <= clean ACKs.
    RepsConfig cfg = Cfg();
    cfg.freezingEnabled = false;
    Driver<> d(cfg, kEvs, 3);
    std::mt19937 ops(5);
    std::map<uint16_t, int> cached;
    std::map<uint16_t, int> used;
    for (int i = 0; i < 50000; ++i)
    {
        if (ops() % 2)
        {
            uint16_t ev = static_cast<uint16_t>(ops() % 64); // repeated EVs on purpose
            bool ecn = ops() % 3 == 0;
            if (!ecn)
            {
                cached[ev]++;
            }
            d.Ack(ev, ecn);
        }
        else
        {
            RepsEvChoice c = d.Send();
            if (!c.random)
            {
                used[c.ev]++;
                ASSERT_LE(used[c.ev], cached[c.ev]);
            }
        }
    }
}

// ---- freezing ----

// Test 10 (failure detector) and 11
TEST(RepsCoreFreezing, FailureDetectorMaxRttHeuristic)
{
    const int64_t base = 10 * kUs;
    const int64_t rto = 70 * kUs;
    RepsFailureDetector det;
    det.Configure(base, rto, 1.65, 2.0, false);
    EXPECT_TRUE(det.IsFailure()); // no samples: nothing suggests congestion
    det.OnRttSample(12 * kUs, 0);
    EXPECT_EQ(det.GetWindowEnd(), 140 * kUs);
    EXPECT_TRUE(det.IsFailure());     // 12 < 16.5
    det.OnRttSample(16500, 10 * kUs); // == 1.65 x base: not below
    EXPECT_FALSE(det.IsFailure());
    det.OnRttSample(11 * kUs, 100 * kUs); // same window, max stays
    EXPECT_FALSE(det.IsFailure());
    EXPECT_EQ(det.GetMaxRtt(), 16500);
    det.OnRttSample(11 * kUs, 141 * kUs); // first sample after windowEnd restarts the window
    EXPECT_EQ(det.GetMaxRtt(), 11 * kUs);
    EXPECT_EQ(det.GetWindowEnd(), 281 * kUs);
    EXPECT_TRUE(det.IsFailure());

    RepsFailureDetector trim;
    trim.Configure(base, rto, 1.65, 2.0, true);
    trim.OnRttSample(100 * kUs, 0);
    EXPECT_TRUE(trim.IsFailure()); // with trimming every RTO freezes
}

TEST(RepsCoreFreezing, EnterSetsExitTime)
{
    Driver<> d(Cfg());
    d.now = 5 * kUs;
    EXPECT_TRUE(d.Rto());
    EXPECT_TRUE(d.core.IsFreezing());
    EXPECT_EQ(d.core.GetExitFreezeTime(), 5 * kUs + 10 * kMs);
}

TEST(RepsCoreFreezing, RtoWhileFrozenOrExploringIgnored)
{
    Driver<> d(Cfg());
    d.now = 1 * kUs;
    EXPECT_TRUE(d.Rto());
    d.now = 2 * kUs;
    EXPECT_FALSE(d.Rto());
    EXPECT_EQ(d.core.GetExitFreezeTime(), 1 * kUs + 10 * kMs); // not extended
    d.now = 20 * kMs;
    EXPECT_TRUE(d.Ack(9)); // exit -> exploring
    EXPECT_EQ(d.core.GetExploreCounter(), 101);
    EXPECT_FALSE(d.Rto());
    EXPECT_FALSE(d.core.IsFreezing());
    // once exploration is over an RTO freezes again
    for (int i = 0; i < 101; ++i)
    {
        d.Send();
    }
    EXPECT_EQ(d.core.GetExploreCounter(), 0);
    EXPECT_TRUE(d.Rto());
}

// Test 12
TEST(RepsCoreFreezing, FullBufferRoundRobinWithoutRng)
{
    Driver<> d(Cfg());
    d.FillAndDrain();
    ASSERT_TRUE(d.Rto());
    const uint64_t callsBefore = d.rngCalls;
    std::map<uint16_t, int> uses;
    uint16_t prev = 0;
    for (int i = 0; i < 1000; ++i)
    {
        RepsEvChoice c = d.Send();
        ASSERT_FALSE(c.random);
        ASSERT_GE(c.ev, 100);
        ASSERT_LT(c.ev, 108);
        if (i > 0)
        {
            ASSERT_EQ(c.ev, 100 + (prev - 100 + 1) % 8); // round-robin
        }
        prev = c.ev;
        uses[c.ev]++;
    }
    EXPECT_EQ(d.rngCalls, callsBefore);
    ASSERT_EQ(uses.size(), 8u);
    for (const auto& kv : uses)
    {
        EXPECT_EQ(kv.second, 125);
    }
}

// Test 13
TEST(RepsCoreFreezing, ValidFirstOldestFirstThenStale)
{
    Driver<> d(Cfg());
    d.FillAndDrain(); // slots hold 100..107, all stale, head = 0
    ASSERT_TRUE(d.Rto());
    d.Ack(500); // slot 0
    d.Ack(501); // slot 1
    EXPECT_EQ(d.Send().ev, 500);
    EXPECT_EQ(d.Send().ev, 501);
    // then the stale entries in buffer order starting at head (slot 2)
    EXPECT_EQ(d.Send().ev, 102);
    EXPECT_EQ(d.Send().ev, 103);
    EXPECT_EQ(d.rngCalls, 8u * 0); // FillAndDrain used no RNG either
}

// Test 14
TEST(RepsCoreFreezing, PartlyFilledBufferCyclesPopulatedOnly)
{
    Driver<> d(Cfg());
    d.Ack(1);
    d.Ack(2);
    d.Ack(3);
    for (int i = 0; i < 3; ++i)
    {
        d.Send();
    }
    ASSERT_TRUE(d.Rto());
    std::map<uint16_t, int> uses;
    for (int i = 0; i < 300; ++i)
    {
        RepsEvChoice c = d.Send();
        ASSERT_FALSE(c.random);
        uses[c.ev]++;
    }
    EXPECT_EQ(uses.size(), 3u);
    EXPECT_EQ(uses[1], 100);
    EXPECT_EQ(uses[2], 100);
    EXPECT_EQ(uses[3], 100);
    EXPECT_EQ(d.rngCalls, 0u);

    Driver<> e(Cfg());
    ASSERT_TRUE(e.Rto());
    EXPECT_TRUE(e.Send().random); // frozen with an empty buffer: random
    EXPECT_EQ(e.rngCalls, 1u);
}

// Test 15
TEST(RepsCoreFreezing, CleanAcksCachedWhileFrozen)
{
    Driver<> d(Cfg());
    ASSERT_TRUE(d.Rto());
    d.now = 1 * kMs;
    EXPECT_FALSE(d.Ack(42));
    EXPECT_TRUE(d.core.IsFreezing());
    EXPECT_EQ(d.core.GetNumValid(), 1);
    EXPECT_EQ(d.core.GetNumPopulated(), 1);
    EXPECT_EQ(d.Send().ev, 42);
    EXPECT_EQ(d.Send().ev, 42); // stale but only populated entry
}

// Test 16
TEST(RepsCoreFreezing, ExitOnlyOnCleanAckAfterExitTime)
{
    Driver<> d(Cfg());
    d.now = 0;
    ASSERT_TRUE(d.Rto());
    d.now = 5 * kMs;
    EXPECT_FALSE(d.Ack(1)); // clean but early
    EXPECT_TRUE(d.core.IsFreezing());
    d.now = 10 * kMs; // == exitFreezeTime: not yet ("now > exit")
    EXPECT_FALSE(d.Ack(2));
    EXPECT_TRUE(d.core.IsFreezing());
    d.now = 11 * kMs;
    EXPECT_FALSE(d.Ack(3, true)); // late but ECN marked
    EXPECT_TRUE(d.core.IsFreezing());
    EXPECT_EQ(d.core.GetExploreCounter(), 0);
    // no timer: sends alone never exit
    for (int i = 0; i < 10; ++i)
    {
        d.Send();
    }
    EXPECT_TRUE(d.core.IsFreezing());
    EXPECT_TRUE(d.Ack(4));
    EXPECT_FALSE(d.core.IsFreezing());
    EXPECT_EQ(d.core.GetExploreCounter(), 101);
    // buffer kept by default (A7)
    EXPECT_EQ(d.core.GetNumPopulated(), 3); // EVs 1, 2, 4 (3 was ECN-marked)
}

// Test 17, EveryNth: exactly floor(100/8)+1 = 13 of 101 sends forced random
TEST(RepsCoreFreezing, ExplorationEveryNth)
{
    Driver<> d(Cfg(8, 101));
    ASSERT_TRUE(d.Rto());
    d.now = 11 * kMs;
    ASSERT_TRUE(d.Ack(1));
    ASSERT_EQ(d.core.GetExploreCounter(), 101);
    const uint64_t before = d.rngCalls;
    std::vector<int> randomIdx;
    for (int i = 1; i <= 101; ++i)
    {
        d.Ack(static_cast<uint16_t>(1000 + i)); // keep a valid EV available for normal sends
        RepsEvChoice c = d.Send();
        if (c.random)
        {
            randomIdx.push_back(i);
        }
    }
    EXPECT_EQ(randomIdx.size(), 13u);
    EXPECT_EQ(d.rngCalls - before, 13u);
    // counter after the i-th decrement is 101 - i; random iff that is a multiple of 8
    for (int i : randomIdx)
    {
        EXPECT_EQ((101 - i) % 8, 0) << "send " << i;
    }
    EXPECT_EQ(d.core.GetExploreCounter(), 0);
    // afterwards: back to normal recycling
    d.Ack(7);
    RepsEvChoice c = d.Send();
    EXPECT_FALSE(c.random);
}

// Test 17, AllRandom: all 101 random and the buffer cleared on exit
TEST(RepsCoreFreezing, ExplorationAllRandomClearsBuffer)
{
    RepsConfig cfg = Cfg(8, 101);
    cfg.exploreMode = ExploreMode::ALL_RANDOM;
    Driver<> d(cfg);
    d.Ack(1);
    d.Ack(2);
    ASSERT_TRUE(d.Rto());
    d.now = 11 * kMs;
    ASSERT_TRUE(d.Ack(3));
    EXPECT_EQ(d.core.GetNumPopulated(), 0);
    EXPECT_EQ(d.core.GetNumValid(), 0);
    EXPECT_EQ(d.core.GetHead(), 0);
    const uint64_t before = d.rngCalls;
    for (int i = 0; i < 101; ++i)
    {
        d.Ack(static_cast<uint16_t>(2000 + i));
        EXPECT_TRUE(d.Send().random);
    }
    EXPECT_EQ(d.rngCalls - before, 101u);
    EXPECT_FALSE(d.Send().random); // exploration over: recycles again
}

TEST(RepsCoreFreezing, ResetBufferOnFreezeExit)
{
    RepsConfig cfg = Cfg();
    cfg.resetBufferOnFreezeExit = true;
    Driver<> d(cfg);
    d.Ack(1);
    ASSERT_TRUE(d.Rto());
    d.now = 11 * kMs;
    ASSERT_TRUE(d.Ack(2));
    EXPECT_EQ(d.core.GetNumPopulated(), 0);
    EXPECT_EQ(d.core.GetNumValid(), 0);
    EXPECT_EQ(d.core.GetExploreCounter(), 101);
}

// Test 18
TEST(RepsCoreFreezing, FreezingDisabledNeverFreezes)
{
    RepsConfig cfg = Cfg();
    cfg.freezingEnabled = false;
    Driver<> d(cfg);
    for (int i = 0; i < 100; ++i)
    {
        d.now += 100 * kUs;
        EXPECT_FALSE(d.Rto());
        EXPECT_FALSE(d.core.IsFreezing());
    }
    // and with an empty valid set sends are random, as OPS
    d.Ack(1);
    d.Send();
    EXPECT_TRUE(d.Send().random);
}

TEST(RepsCoreFreezing, InvalidateValidKeepsValuesForFreezing)
{
    Driver<> d(Cfg());
    d.Ack(1);
    d.Ack(2);
    d.core.InvalidateValid();
    EXPECT_EQ(d.core.GetNumValid(), 0);
    EXPECT_TRUE(d.core.CheckInvariant());
    EXPECT_TRUE(d.Send().random);
    ASSERT_TRUE(d.Rto());
    EXPECT_EQ(d.Send().ev, 1);
    EXPECT_EQ(d.Send().ev, 2);
}

// ---- ACK coalescing, Reuse variant (test 20) ----

TEST(RepsCoreCoalescing, ReuseEachEvNTimes)
{
    RepsConfig cfg = Cfg();
    cfg.evReuseCount = 4;
    Driver<> d(cfg);
    d.Ack(10);
    d.Ack(20);
    EXPECT_EQ(d.core.GetNumValid(), 2);
    for (int i = 0; i < 4; ++i)
    {
        EXPECT_EQ(d.Send().ev, 10);
    }
    EXPECT_EQ(d.core.GetNumValid(), 1);
    for (int i = 0; i < 4; ++i)
    {
        EXPECT_EQ(d.Send().ev, 20);
    }
    EXPECT_EQ(d.core.GetNumValid(), 0);
    EXPECT_EQ(d.rngCalls, 0u);
    EXPECT_TRUE(d.Send().random);
}

TEST(RepsCoreCoalescing, ReuseOverwriteRestoresFullLifetime)
{
    RepsConfig cfg = Cfg(2);
    cfg.evReuseCount = 3;
    Driver<> d(cfg);
    d.Ack(1);
    d.Ack(2);
    EXPECT_EQ(d.Send().ev, 1); // slot 0 has 2 uses left
    d.Ack(3);                  // buffer full: overwrites the oldest valid (slot 0)
    EXPECT_EQ(d.core.GetNumValid(), 2);
    for (int i = 0; i < 3; ++i)
    {
        EXPECT_EQ(d.Send().ev, 2);
    }
    for (int i = 0; i < 3; ++i)
    {
        EXPECT_EQ(d.Send().ev, 3);
    }
    EXPECT_TRUE(d.Send().random);
}

// ---- EV set bounds ----

TEST(RepsCoreBuffer, EvSetBoundsRespected)
{
    for (uint32_t evs : {16u, 32u, 256u, 65536u})
    {
        Driver<> d(Cfg(), evs, evs);
        uint32_t maxSeen = 0;
        std::vector<bool> seen(evs, false);
        for (int i = 0; i < 20000; ++i)
        {
            RepsEvChoice c = d.Send();
            ASSERT_LT(c.ev, evs);
            maxSeen = std::max<uint32_t>(maxSeen, c.ev);
            seen[c.ev] = true;
            if (i % 3 == 0)
            {
                d.Ack(c.ev); // recycled EVs stay in the set too
            }
        }
        if (evs <= 256)
        {
            for (uint32_t e = 0; e < evs; ++e)
            {
                EXPECT_TRUE(seen[e]) << "EV " << e << " of " << evs << " never used";
            }
        }
    }
}
