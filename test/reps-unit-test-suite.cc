/*
 * Over 600 lines on purpose: one suite per spec test list (reps.md section 6).
 * Unit tests of RepsPathSelector driven through the PathSelector interface by
 * a mock feedback driver (events scheduled at chosen simulated times; no
 * network).  Numbers refer to specs/reps.md section 6.
 */
#include "ns3/boolean.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/path-selector.h"
#include "ns3/reps-path-selector.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <map>
#include <vector>

using namespace ns3;

namespace
{

/** Records what the REPS trace sources report. */
struct TraceRecorder
{
    std::vector<uint16_t> explored;
    std::vector<uint16_t> recycled;
    std::vector<Time> entered;
    std::vector<Time> exited;

    void Explored(uint16_t ev)
    {
        explored.push_back(ev);
    }

    void Recycled(uint16_t ev)
    {
        recycled.push_back(ev);
    }

    void Entered(Time t)
    {
        entered.push_back(t);
    }

    void Exited(Time t)
    {
        exited.push_back(t);
    }

    void Connect(Ptr<RepsPathSelector> s)
    {
        s->TraceConnectWithoutContext("EvExplored", MakeCallback(&TraceRecorder::Explored, this));
        s->TraceConnectWithoutContext("EvRecycled", MakeCallback(&TraceRecorder::Recycled, this));
        s->TraceConnectWithoutContext("FreezeEntered", MakeCallback(&TraceRecorder::Entered, this));
        s->TraceConnectWithoutContext("FreezeExited", MakeCallback(&TraceRecorder::Exited, this));
    }
};

PathSelectorSetup
MakeSetup(bool trimming = false, uint32_t bdpPackets = 20)
{
    PathSelectorSetup s;
    s.mtu = 4096;
    s.bdpPackets = bdpPackets;
    s.baseRtt = MicroSeconds(10);
    s.rto = MicroSeconds(70);
    s.trimming = trimming;
    return s;
}

Ptr<RepsPathSelector>
MakeReps(bool trimming = false, uint32_t bdpPackets = 20)
{
    Ptr<RepsPathSelector> s = CreateObject<RepsPathSelector>();
    s->SetAttribute("FreezingTimeout", TimeValue(MicroSeconds(100)));
    s->AssignStreams(7);
    s->Setup(MakeSetup(trimming, bdpPackets));
    return s;
}

void
Feedback(Ptr<PathSelector> s, FeedbackSignal sig, uint16_t ev, Time rtt = MicroSeconds(11))
{
    PathFeedback fb;
    fb.signal = sig;
    fb.path.ev = ev;
    fb.rtt = sig == FeedbackSignal::TIMEOUT ? Time(0) : rtt;
    fb.ackedBytes = 4096;
    s->OnFeedback(fb);
}

uint16_t
Send(Ptr<PathSelector> s, bool retx = false)
{
    SendContext ctx;
    ctx.retransmission = retx;
    return s->Choose(ctx).ev;
}

} // namespace

/** Registry, defaults, state size and attribute validation. */
class RepsRegistryAttributesTest : public TestCase
{
  public:
    RepsRegistryAttributesTest()
        : TestCase("REPS registry entry, attribute defaults and validation, state size")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(PathSelectorRegistry::Has("reps"), true, "reps not registered");
        Ptr<PathSelector> ps = PathSelectorRegistry::Create("reps");
        NS_TEST_ASSERT_MSG_EQ(ps->Name(), "reps", "name");
        Ptr<RepsPathSelector> r = DynamicCast<RepsPathSelector>(ps);
        NS_TEST_ASSERT_MSG_NE(r, nullptr, "registry must create a RepsPathSelector");

        UintegerValue u;
        r->GetAttribute("BufferSize", u);
        NS_TEST_EXPECT_MSG_EQ(u.Get(), 8, "BufferSize default");
        r->GetAttribute("EvSetSize", u);
        NS_TEST_EXPECT_MSG_EQ(u.Get(), 65536, "EvSetSize default");
        r->GetAttribute("EvReuseCount", u);
        NS_TEST_EXPECT_MSG_EQ(u.Get(), 1, "EvReuseCount default");
        r->GetAttribute("ExplorePackets", u);
        NS_TEST_EXPECT_MSG_EQ(u.Get(), 0, "ExplorePackets default (from BDP)");
        TimeValue t;
        r->GetAttribute("FreezingTimeout", t);
        NS_TEST_EXPECT_MSG_EQ(t.Get(), MilliSeconds(10), "FreezingTimeout default (A3)");
        r->GetAttribute("IdleInvalidateTime", t);
        NS_TEST_EXPECT_MSG_EQ(t.Get(), Time(0), "IdleInvalidateTime default off");
        BooleanValue b;
        r->GetAttribute("FreezingEnabled", b);
        NS_TEST_EXPECT_MSG_EQ(b.Get(), true, "FreezingEnabled default");
        r->GetAttribute("ResetBufferOnFreezeExit", b);
        NS_TEST_EXPECT_MSG_EQ(b.Get(), false, "ResetBufferOnFreezeExit default (A7)");
        DoubleValue d;
        r->GetAttribute("FreezeRttThreshold", d);
        NS_TEST_EXPECT_MSG_EQ_TOL(d.Get(), 1.65, 1e-12, "FreezeRttThreshold default (A4)");
        r->GetAttribute("RttWindowRtoMultiplier", d);
        NS_TEST_EXPECT_MSG_EQ_TOL(d.Get(), 2.0, 1e-12, "RttWindowRtoMultiplier default (A4)");
        NS_TEST_EXPECT_MSG_EQ(r->SetAttributeFailSafe("ExploreMode", StringValue("AllRandom")),
                              true,
                              "ExploreMode accepts AllRandom");
        // The accepted names are exactly the two modes.  (Setting an unknown name is not
        // tried: ns-3 builds with asserts enabled abort on it instead of failing softly.)
        {
            TypeId::AttributeInformation info;
            bool found = RepsPathSelector::GetTypeId().LookupAttributeByName("ExploreMode", &info);
            NS_TEST_ASSERT_MSG_EQ(found, true, "ExploreMode attribute exists");
            std::string names = info.checker->GetUnderlyingTypeInformation();
            bool exactlyTwo = names == "EveryNth|AllRandom" || names == "AllRandom|EveryNth";
            NS_TEST_EXPECT_MSG_EQ(exactlyTwo,
                                  true,
                                  "ExploreMode accepts exactly EveryNth and AllRandom: " << names);
        }

        NS_TEST_EXPECT_MSG_EQ(r->ConfigError(), "", "defaults are valid");

        struct Bad
        {
            const char* name;
            uint32_t value;
        };

        for (Bad bad : {Bad{"EvSetSize", 15},
                        Bad{"EvSetSize", 65537},
                        Bad{"BufferSize", 0},
                        Bad{"BufferSize", 256},
                        Bad{"EvReuseCount", 0},
                        Bad{"EvReuseCount", 256}})
        {
            // the bounded attribute checker refuses the value (it never reaches Run)
            Ptr<RepsPathSelector> x = CreateObject<RepsPathSelector>();
            NS_TEST_EXPECT_MSG_EQ(x->SetAttributeFailSafe(bad.name, UintegerValue(bad.value)),
                                  false,
                                  "checker of " << bad.name << " must refuse " << bad.value);
            NS_TEST_EXPECT_MSG_EQ(x->Validate(), "", "a refused value leaves the default");
        }
        for (auto good : {std::pair<const char*, uint32_t>{"EvSetSize", 16},
                          {"EvSetSize", 65536},
                          {"BufferSize", 1},
                          {"BufferSize", 255},
                          {"EvReuseCount", 255}})
        {
            Ptr<RepsPathSelector> x = CreateObject<RepsPathSelector>();
            x->SetAttribute(good.first, UintegerValue(good.second));
            NS_TEST_EXPECT_MSG_EQ(x->ConfigError(), "", good.first << "=" << good.second);
        }
        Ptr<RepsPathSelector> neg = CreateObject<RepsPathSelector>();
        neg->SetAttribute("FreezingTimeout", TimeValue(MicroSeconds(-1)));
        NS_TEST_EXPECT_MSG_NE(neg->ConfigError().find("FreezingTimeout"),
                              std::string::npos,
                              "negative FreezingTimeout rejected");

        // Test 31: logical state 193 bits (~25 B) for N = 8, 74 bits for N = 1
        NS_TEST_EXPECT_MSG_EQ(RepsPathSelector::LogicalStateBits(8), 193, "N = 8");
        NS_TEST_EXPECT_MSG_EQ(RepsPathSelector::LogicalStateBits(1), 74, "N = 1");
        NS_TEST_EXPECT_MSG_EQ((sizeof(reps::RepsState<8>) <= 40), true, "state struct small");
    }
};

/** Test 1 and EV set bounds through Choose() with the ns-3 RNG. */
class RepsRandomEvTest : public TestCase
{
  public:
    RepsRandomEvTest()
        : TestCase("REPS explores uniformly over [0, EvSetSize) with the ns-3 RNG")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
        Ptr<RepsPathSelector> s = MakeReps();
        TraceRecorder rec;
        rec.Connect(s);
        const uint32_t draws = 100000;
        const uint32_t bins = 256;
        std::vector<uint32_t> hist(bins, 0);
        for (uint32_t i = 0; i < draws; ++i)
        {
            hist[Send(s) / 256]++;
        }
        NS_TEST_ASSERT_MSG_EQ(rec.explored.size(), draws, "empty buffer: every send explores");
        NS_TEST_ASSERT_MSG_EQ(rec.recycled.size(), 0, "nothing recycled");
        const double expected = double(draws) / bins;
        double chi2 = 0;
        for (uint32_t h : hist)
        {
            chi2 += (h - expected) * (h - expected) / expected;
        }
        // 255 degrees of freedom, p = 0.001 critical values 190 (lower) and 330.5 (upper)
        NS_TEST_EXPECT_MSG_LT(chi2, 330.5, "chi-square too large: not uniform");
        NS_TEST_EXPECT_MSG_GT(chi2, 190.0, "chi-square too small: suspiciously regular");

        for (uint32_t evs : {16u, 32u, 65536u})
        {
            Ptr<RepsPathSelector> x = CreateObject<RepsPathSelector>();
            x->SetAttribute("EvSetSize", UintegerValue(evs));
            x->AssignStreams(3);
            x->Setup(MakeSetup());
            std::vector<bool> seen(evs, false);
            uint32_t maxEv = 0;
            for (int i = 0; i < 4000; ++i)
            {
                uint16_t ev = Send(x);
                NS_TEST_ASSERT_MSG_LT(uint32_t(ev), evs, "EV outside the EV set");
                seen[ev] = true;
                maxEv = std::max<uint32_t>(maxEv, ev);
            }
            if (evs <= 32)
            {
                for (uint32_t e = 0; e < evs; ++e)
                {
                    NS_TEST_EXPECT_MSG_EQ(seen[e], true, "EV " << e << " never drawn");
                }
            }
            else
            {
                NS_TEST_EXPECT_MSG_GT(maxEv, 60000, "large EVs are drawn");
            }
        }

        // AssignStreams makes the sequence reproducible
        Ptr<RepsPathSelector> a = MakeReps();
        Ptr<RepsPathSelector> b = MakeReps();
        for (int i = 0; i < 100; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(Send(a), Send(b), "same stream, same EVs");
        }
        Simulator::Destroy();
    }
};

/** Tests 2-5, 8, 9 through OnFeedback / Choose, with the EV traces. */
class RepsFeedbackMappingTest : public TestCase
{
  public:
    RepsFeedbackMappingTest()
        : TestCase(
              "REPS feedback mapping: ACK cached, ECN_ACK and NACK not, retransmissions recycle")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RepsPathSelector> s = MakeReps();
        TraceRecorder rec;
        rec.Connect(s);

        // Test 2: one clean ACK -> one reuse
        Feedback(s, FeedbackSignal::ACK, 4242);
        NS_TEST_EXPECT_MSG_EQ(s->GetNumValid(), 1, "numValid 0 -> 1");
        NS_TEST_EXPECT_MSG_EQ(Send(s), 4242, "cached EV reused");
        NS_TEST_EXPECT_MSG_EQ(s->GetNumValid(), 0, "numValid 1 -> 0");
        NS_TEST_EXPECT_MSG_EQ(rec.recycled.size(), 1, "EvRecycled fired once");
        NS_TEST_EXPECT_MSG_EQ(rec.recycled.back(), 4242, "EvRecycled carries the EV");
        uint16_t ev = Send(s);
        NS_TEST_EXPECT_MSG_EQ(rec.explored.size(), 1, "next send explores");
        NS_TEST_EXPECT_MSG_EQ(rec.explored.back(), ev, "EvExplored carries the EV");

        // Test 3: ECN-marked ACK is not cached
        Feedback(s, FeedbackSignal::ECN_ACK, 1111);
        NS_TEST_EXPECT_MSG_EQ(s->GetNumValid(), 0, "ECN ACK not cached");
        NS_TEST_EXPECT_MSG_EQ(s->GetNumPopulated(), 1, "ECN ACK does not write a slot");
        Send(s);
        NS_TEST_EXPECT_MSG_EQ(rec.explored.size(), 2, "still exploring after ECN ACK");

        // Test 8: NACK neither caches nor freezes
        for (int i = 0; i < 10; ++i)
        {
            Feedback(s, FeedbackSignal::NACK, 2222);
        }
        NS_TEST_EXPECT_MSG_EQ(s->GetNumValid(), 0, "NACK not cached");
        NS_TEST_EXPECT_MSG_EQ(s->IsFreezing(), false, "NACK never freezes");
        NS_TEST_EXPECT_MSG_EQ(rec.entered.size(), 0, "no FreezeEntered");

        // Test 4 / 5: order and overflow
        for (uint16_t i = 1; i <= 20; ++i)
        {
            Feedback(s, FeedbackSignal::ACK, 1000 + i);
        }
        NS_TEST_EXPECT_MSG_EQ(s->GetNumValid(), 8, "numValid saturates at N");
        for (uint16_t i = 13; i <= 20; ++i)
        {
            // Test 9: retransmissions take their EV from the same send path
            NS_TEST_EXPECT_MSG_EQ(Send(s, i % 2 == 0), 1000 + i, "oldest valid first");
        }
        const size_t exploredBefore = rec.explored.size();
        Send(s, true);
        NS_TEST_EXPECT_MSG_EQ(rec.explored.size(), exploredBefore + 1, "9th send explores");
        NS_TEST_EXPECT_MSG_EQ(s->GetRecycledCount(), 9, "recycled counter");
        NS_TEST_EXPECT_MSG_EQ(s->GetExploredCount(), rec.explored.size(), "explored counter");
        Simulator::Destroy();
    }
};

/** Tests 10, 15, 16 with simulated timers, and the freeze traces. */
class RepsFreezingTimersTest : public TestCase
{
  public:
    RepsFreezingTimersTest(bool trimming)
        : TestCase(std::string("REPS freezing entry and exit at simulated times, trimming=") +
                   (trimming ? "on" : "off")),
          m_trimming(trimming)
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RepsPathSelector> s = MakeReps(m_trimming, 20);
        TraceRecorder rec;
        rec.Connect(s);
        // base RTT 10us, threshold 16.5us, RTO 70us, window 140us, FreezingTimeout 100us
        Simulator::Schedule(MicroSeconds(1), [s]() {
            for (uint16_t i = 0; i < 8; ++i)
            {
                Feedback(s, FeedbackSignal::ACK, 100 + i, MicroSeconds(30)); // congested RTTs
            }
        });
        // congestion-looking RTO: freezes only with trimming
        Simulator::Schedule(MicroSeconds(50), [this, s]() {
            Feedback(s, FeedbackSignal::TIMEOUT, 100);
            NS_TEST_EXPECT_MSG_EQ(s->IsFreezing(), m_trimming, "high maxRtt RTO");
        });
        // a new window (first ACK after 1us + 140us) with low RTTs
        Simulator::Schedule(MicroSeconds(200), [s]() {
            for (uint16_t i = 0; i < 8; ++i)
            {
                Feedback(s, FeedbackSignal::ACK, 200 + i, MicroSeconds(12));
            }
        });
        Simulator::Schedule(MicroSeconds(300), [this, s]() {
            if (!m_trimming)
            {
                Feedback(s, FeedbackSignal::TIMEOUT, 200);
                NS_TEST_EXPECT_MSG_EQ(s->IsFreezing(), true, "low maxRtt RTO freezes");
                NS_TEST_EXPECT_MSG_EQ(s->GetExitFreezeTime(),
                                      MicroSeconds(400),
                                      "exit = now + FreezingTimeout");
            }
            else
            {
                return; // with trimming the rest of the timeline was covered at 50us/200us
            }
            for (int i = 0; i < 16; ++i)
            {
                Send(s);
            }
            NS_TEST_EXPECT_MSG_EQ(s->GetExploredCount(), 0, "frozen: only cached EVs");
        });
        // Test 15/16: early clean ACK cached, stays frozen; late ECN ACK stays frozen
        Simulator::Schedule(MicroSeconds(350), [this, s]() {
            if (m_trimming)
            {
                return;
            }
            Feedback(s, FeedbackSignal::ACK, 300);
            NS_TEST_EXPECT_MSG_EQ(s->IsFreezing(), true, "early clean ACK keeps freezing");
            NS_TEST_EXPECT_MSG_EQ(s->GetNumValid(), 1, "clean ACK cached while frozen");
        });
        Simulator::Schedule(MicroSeconds(450), [this, s]() {
            if (m_trimming)
            {
                return;
            }
            const Time exitAt = s->GetExitFreezeTime();
            Feedback(s, FeedbackSignal::ECN_ACK, 301);
            NS_TEST_EXPECT_MSG_EQ(s->IsFreezing(), true, "late ECN ACK keeps freezing");
            NS_TEST_EXPECT_MSG_EQ((Simulator::Now() > exitAt), true, "past exit time");
        });
        Simulator::Schedule(MicroSeconds(460), [this, s]() {
            if (m_trimming)
            {
                return;
            }
            Feedback(s, FeedbackSignal::ACK, 302);
            NS_TEST_EXPECT_MSG_EQ(s->IsFreezing(), false, "late clean ACK exits");
            NS_TEST_EXPECT_MSG_EQ(s->GetExploreCounter(), 20, "explores PKTS_PER_CWND = BDP");
            // RTO during exploration: ignored (test 11)
            Feedback(s, FeedbackSignal::TIMEOUT, 302);
            NS_TEST_EXPECT_MSG_EQ(s->IsFreezing(), false, "RTO while exploring ignored");
        });
        Simulator::Run();
        const Time enteredAt = m_trimming ? MicroSeconds(50) : MicroSeconds(300);
        NS_TEST_ASSERT_MSG_EQ(rec.entered.size(), 1, "FreezeEntered once");
        NS_TEST_EXPECT_MSG_EQ(rec.entered[0], enteredAt, "FreezeEntered time");
        NS_TEST_ASSERT_MSG_EQ(rec.exited.size(), 1, "FreezeExited once");
        // with trimming, exit time is 150us but the first clean ACK after it is at 200us
        NS_TEST_EXPECT_MSG_EQ(rec.exited[0],
                              m_trimming ? MicroSeconds(200) : MicroSeconds(460),
                              "FreezeExited time = first clean ACK after exitFreezeTime");
        NS_TEST_EXPECT_MSG_EQ(s->GetFreezeCount(), 1, "freeze counter");
        Simulator::Destroy();
    }

    bool m_trimming;
};

/** Test 12 and 17 through the selector. */
class RepsFrozenCyclingTest : public TestCase
{
  public:
    RepsFrozenCyclingTest()
        : TestCase("REPS frozen round-robin (1000 sends, 125 each, no exploration) and exploration "
                   "modes")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RepsPathSelector> s = MakeReps(true, 101);
        TraceRecorder rec;
        rec.Connect(s);
        for (uint16_t i = 0; i < 8; ++i)
        {
            Feedback(s, FeedbackSignal::ACK, 500 + i);
        }
        for (int i = 0; i < 8; ++i)
        {
            Send(s);
        }
        Feedback(s, FeedbackSignal::TIMEOUT, 500);
        NS_TEST_ASSERT_MSG_EQ(s->IsFreezing(), true, "trimming: RTO freezes");
        std::map<uint16_t, int> uses;
        for (int i = 0; i < 1000; ++i)
        {
            uses[Send(s)]++;
        }
        NS_TEST_EXPECT_MSG_EQ(rec.explored.size(),
                              0,
                              "no random EV while frozen with a full buffer");
        NS_TEST_EXPECT_MSG_EQ(uses.size(), 8, "all 8 cached EVs used");
        for (const auto& kv : uses)
        {
            NS_TEST_EXPECT_MSG_EQ(kv.second, 125, "EV " << kv.first << " used 125 times");
        }

        // Test 17 (EveryNth): exit at t > 100us, 101 packets, 13 forced random
        Simulator::Schedule(MicroSeconds(101), [this, s, &rec]() {
            Feedback(s, FeedbackSignal::ACK, 900);
            NS_TEST_ASSERT_MSG_EQ(s->IsFreezing(), false, "exit");
            NS_TEST_ASSERT_MSG_EQ(s->GetExploreCounter(), 101, "PKTS_PER_CWND = ceil(BDP/MTU)");
            const size_t before = rec.explored.size();
            for (int i = 0; i < 101; ++i)
            {
                Feedback(s, FeedbackSignal::ACK, 1000 + i);
                Send(s);
            }
            NS_TEST_EXPECT_MSG_EQ(rec.explored.size() - before, 13, "13 of 101 forced random");
        });
        Simulator::Run();
        Simulator::Destroy();

        // AllRandom: 101 random and the buffer cleared on exit
        Ptr<RepsPathSelector> a = CreateObject<RepsPathSelector>();
        a->SetAttribute("FreezingTimeout", TimeValue(MicroSeconds(100)));
        a->SetAttribute("ExploreMode", StringValue("AllRandom"));
        a->SetAttribute("ExplorePackets", UintegerValue(101));
        a->Setup(MakeSetup(true, 7)); // ExplorePackets overrides the BDP
        Feedback(a, FeedbackSignal::ACK, 1);
        Feedback(a, FeedbackSignal::TIMEOUT, 1);
        Simulator::Schedule(MicroSeconds(101), [this, a]() {
            Feedback(a, FeedbackSignal::ACK, 2);
            NS_TEST_ASSERT_MSG_EQ(a->GetExploreCounter(), 101, "ExplorePackets attribute");
            NS_TEST_EXPECT_MSG_EQ(a->GetNumPopulated(), 0, "AllRandom clears the buffer");
            const uint64_t before = a->GetExploredCount();
            for (int i = 0; i < 101; ++i)
            {
                Feedback(a, FeedbackSignal::ACK, 1000 + i);
                Send(a);
            }
            NS_TEST_EXPECT_MSG_EQ(a->GetExploredCount() - before, 101, "all 101 random");
        });
        Simulator::Run();
        Simulator::Destroy();
    }
};

/** Test 18, A8 idle invalidation, test 20 (Reuse), large buffers. */
class RepsOptionsTest : public TestCase
{
  public:
    RepsOptionsTest()
        : TestCase(
              "REPS options: FreezingEnabled=false, IdleInvalidateTime, EvReuseCount, BufferSize>8")
    {
    }

  private:
    void DoRun() override
    {
        // Test 18
        Ptr<RepsPathSelector> nf = CreateObject<RepsPathSelector>();
        nf->SetAttribute("FreezingEnabled", BooleanValue(false));
        nf->Setup(MakeSetup(true));
        TraceRecorder rec;
        rec.Connect(nf);
        for (int i = 0; i < 50; ++i)
        {
            Feedback(nf, FeedbackSignal::TIMEOUT, 1);
        }
        NS_TEST_EXPECT_MSG_EQ(nf->IsFreezing(), false, "never freezes");
        NS_TEST_EXPECT_MSG_EQ(rec.entered.size(), 0, "no FreezeEntered");

        // A8
        Ptr<RepsPathSelector> idle = CreateObject<RepsPathSelector>();
        idle->SetAttribute("IdleInvalidateTime", TimeValue(MicroSeconds(50)));
        idle->Setup(MakeSetup());
        Simulator::Schedule(MicroSeconds(0), [idle]() {
            Feedback(idle, FeedbackSignal::ACK, 10);
            Feedback(idle, FeedbackSignal::ACK, 11);
        });
        Simulator::Schedule(MicroSeconds(40), [this, idle]() {
            NS_TEST_EXPECT_MSG_EQ(Send(idle), 10, "not idle yet: recycle");
        });
        Simulator::Schedule(MicroSeconds(100), [this, idle]() {
            const uint64_t before = idle->GetExploredCount();
            Send(idle);
            NS_TEST_EXPECT_MSG_EQ(idle->GetExploredCount(), before + 1, "idle: re-explore");
            NS_TEST_EXPECT_MSG_EQ(idle->GetNumValid(), 0, "idle: valid bits cleared");
        });
        Simulator::Run();
        Simulator::Destroy();

        // Test 20, Reuse variant with n = 4
        Ptr<RepsPathSelector> reuse = CreateObject<RepsPathSelector>();
        reuse->SetAttribute("EvReuseCount", UintegerValue(4));
        reuse->Setup(MakeSetup());
        Feedback(reuse, FeedbackSignal::ACK, 77);
        for (int i = 0; i < 4; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(Send(reuse), 77, "EV reused 4 times");
        }
        NS_TEST_EXPECT_MSG_EQ(reuse->GetRecycledCount(), 4, "4 recycled");
        Send(reuse);
        NS_TEST_EXPECT_MSG_EQ(reuse->GetExploredCount(), 1, "5th send explores");

        // BufferSize > 8 uses the large core
        Ptr<RepsPathSelector> big = CreateObject<RepsPathSelector>();
        big->SetAttribute("BufferSize", UintegerValue(16));
        big->Setup(MakeSetup());
        for (uint16_t i = 1; i <= 20; ++i)
        {
            Feedback(big, FeedbackSignal::ACK, i);
        }
        NS_TEST_EXPECT_MSG_EQ(big->GetNumValid(), 16, "N = 16");
        for (uint16_t i = 5; i <= 20; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(Send(big), i, "oldest valid first with N = 16");
        }
        NS_TEST_EXPECT_MSG_EQ(big->GetExploredCount(), 0, "no exploration yet");
        Send(big);
        NS_TEST_EXPECT_MSG_EQ(big->GetExploredCount(), 1, "17th send explores");
    }
};

class RepsUnitTestSuite : public TestSuite
{
  public:
    RepsUnitTestSuite()
        : TestSuite("dcn-lb-reps-unit", DCNLB_TEST_UNIT)
    {
        AddTestCase(new RepsRegistryAttributesTest(), DCNLB_TEST_QUICK);
        AddTestCase(new RepsRandomEvTest(), DCNLB_TEST_QUICK);
        AddTestCase(new RepsFeedbackMappingTest(), DCNLB_TEST_QUICK);
        AddTestCase(new RepsFreezingTimersTest(false), DCNLB_TEST_QUICK);
        AddTestCase(new RepsFreezingTimersTest(true), DCNLB_TEST_QUICK);
        AddTestCase(new RepsFrozenCyclingTest(), DCNLB_TEST_QUICK);
        AddTestCase(new RepsOptionsTest(), DCNLB_TEST_QUICK);
    }
};

static RepsUnitTestSuite g_repsUnitTestSuite;
