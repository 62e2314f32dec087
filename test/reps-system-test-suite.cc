/*
 * Small integration tests of REPS on a fat tree with the DcnTransport
 * (specs/reps.md section 6, scaled-down versions of tests 24 and 29).
 *
 * 2-tier fat tree: 4 ToRs x 4 hosts, 4 uplinks per ToR, 100 Gbps links.
 *  - loaded shift permutation (host i -> host i + 4): REPS's max FCT is no
 *    worse than OPS's (+5%) and better than ECMP's;
 *  - a silent failure of one ToR uplink (FailureHelper::FailLinkSilent: both
 *    directions drop everything, no routing update): REPS loses far fewer
 *    packets on it than OPS, under load (max-RTT heuristic: no freeze) and for
 *    a single flow (the RTO after low RTTs freezes).
 */
#include "ns3/dcn-connection.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-transport-helper.h"
#include "ns3/dcn-transport.h"
#include "ns3/dctcp-cc.h"
#include "ns3/failure-helper.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/path-selector.h"
#include "ns3/reps-path-selector.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <string>

using namespace ns3;

namespace
{

struct RunResult
{
    Time maxFct{0};
    uint32_t completed{0};
    uint32_t expected{0};
    uint64_t injectedDrops{0};
    uint64_t freezes{0};
    uint64_t timeouts{0};
};

RunResult
RunScenario(const std::string& lb, uint64_t bytes, bool fail, uint32_t senders = 0)
{
    RngSeedManager::SetSeed(42);
    RngSeedManager::SetRun(1);
    RunResult res;

    Ptr<FatTreeHelper> ft = FatTreeHelper::TwoTier(4, 4, 4);
    ft->SetAttribute("HostLinkRate", DataRateValue(DataRate("100Gbps")));
    ft->SetAttribute("FabricLinkRate", DataRateValue(DataRate("100Gbps")));
    ft->Build();
    int64_t stream = 1000;
    stream += ft->AssignStreams(stream);

    DcnTransportHelper th;
    th.Install(ft->GetHosts());

    Ptr<FailureHelper> fh;
    if (fail)
    {
        fh = CreateObject<FailureHelper>(ft);
        stream += fh->AssignStreams(stream);
        fh->FailLinkSilent(ft->GetTorUplink(0, 0), MicroSeconds(20)); // until the end
    }

    const uint32_t n = ft->GetNHosts();
    const uint32_t shift = 4; // next ToR: every flow crosses the spine layer
    std::vector<Ptr<PathSelector>> selectors;
    const uint32_t nSenders = senders == 0 ? n : senders;
    for (uint32_t i = 0; i < nSenders; ++i)
    {
        const uint32_t dst = (i + shift) % n;
        Ptr<DcnTransport> t = DcnTransportHelper::Get(ft->GetHosts().Get(i));
        Ptr<PathSelector> ps = PathSelectorRegistry::Create(lb);
        stream += ps->AssignStreams(stream);
        selectors.push_back(ps);
        DcnConnectionParams p;
        p.baseRtt = ft->GetBaseRtt(i, dst, t->GetMtu());
        p.lineRate = ft->GetHostLinkRate();
        Ptr<DcnConnection> c = t->Connect(ft->GetHostAddress(dst), ps, CreateObject<DctcpCc>(), p);
        res.expected++;
        c->SendMessage(bytes, DcnConnection::CompletionCallback([&res](const DcnMessageRecord& r) {
                           res.completed++;
                           res.maxFct = std::max(res.maxFct, r.finish - r.start);
                       }));
    }
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    if (fh)
    {
        res.injectedDrops = fh->GetInjectedDrops();
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        res.timeouts += DcnTransportHelper::Get(ft->GetHosts().Get(i))->GetStats().timeouts;
    }
    for (auto& ps : selectors)
    {
        Ptr<RepsPathSelector> r = DynamicCast<RepsPathSelector>(ps);
        if (r)
        {
            res.freezes += r->GetFreezeCount();
        }
    }
    Simulator::Destroy();
    return res;
}

} // namespace

class RepsPermutationTest : public TestCase
{
  public:
    RepsPermutationTest()
        : TestCase("REPS vs OPS vs ECMP: loaded permutation on a 16-host fat tree")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t bytes = 2 * 1024 * 1024;
        RunResult reps = RunScenario("reps", bytes, false);
        RunResult ops = RunScenario("ops", bytes, false);
        RunResult ecmp = RunScenario("ecmp", bytes, false);
        NS_TEST_ASSERT_MSG_EQ(reps.completed, reps.expected, "REPS flows complete");
        NS_TEST_ASSERT_MSG_EQ(ops.completed, ops.expected, "OPS flows complete");
        NS_TEST_ASSERT_MSG_EQ(ecmp.completed, ecmp.expected, "ECMP flows complete");
        std::cout << "permutation max FCT: reps " << reps.maxFct.As(Time::US) << " ops "
                  << ops.maxFct.As(Time::US) << " ecmp " << ecmp.maxFct.As(Time::US) << std::endl;
        NS_TEST_EXPECT_MSG_LT_OR_EQ(reps.maxFct.GetSeconds(),
                                    1.05 * ops.maxFct.GetSeconds(),
                                    "REPS max FCT no worse than OPS (+5%)");
        NS_TEST_EXPECT_MSG_LT(reps.maxFct.GetSeconds(),
                              0.9 * ecmp.maxFct.GetSeconds(),
                              "REPS max FCT clearly better than ECMP");
    }
};

class RepsSilentFailureTest : public TestCase
{
  public:
    RepsSilentFailureTest()
        : TestCase("REPS vs OPS: silent ToR uplink failure, packets lost on the dead link")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t bytes = 2 * 1024 * 1024;
        RunResult reps = RunScenario("reps", bytes, true);
        RunResult ops = RunScenario("ops", bytes, true);
        std::cout << "silent failure drops: reps " << reps.injectedDrops << " (freezes "
                  << reps.freezes << ", RTOs " << reps.timeouts << ", max FCT "
                  << reps.maxFct.As(Time::US) << ") ops " << ops.injectedDrops << " (RTOs "
                  << ops.timeouts << ", max FCT " << ops.maxFct.As(Time::US) << ")" << std::endl;
        NS_TEST_ASSERT_MSG_EQ(reps.completed, reps.expected, "REPS flows complete");
        NS_TEST_ASSERT_MSG_EQ(ops.completed, ops.expected, "OPS flows complete");
        NS_TEST_EXPECT_MSG_GT(ops.injectedDrops, 0, "the failure must hit OPS");
        NS_TEST_EXPECT_MSG_LT(reps.injectedDrops * 4, ops.injectedDrops, "REPS drops < 1/4 of OPS");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(reps.maxFct.GetSeconds(),
                                    ops.maxFct.GetSeconds(),
                                    "REPS finishes no later than OPS under failure");
    }
};

class RepsLightFailureTest : public TestCase
{
  public:
    RepsLightFailureTest()
        : TestCase("REPS single flow across a silently failed ToR uplink: freezes after an RTO")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t bytes = 4 * 1024 * 1024;
        RunResult reps = RunScenario("reps", bytes, true, 1);
        RunResult ops = RunScenario("ops", bytes, true, 1);
        std::cout << "single flow, failure drops: reps " << reps.injectedDrops << " (freezes "
                  << reps.freezes << ", RTOs " << reps.timeouts << ", FCT "
                  << reps.maxFct.As(Time::US) << ") ops " << ops.injectedDrops << " (RTOs "
                  << ops.timeouts << ", FCT " << ops.maxFct.As(Time::US) << ")" << std::endl;
        NS_TEST_ASSERT_MSG_EQ(reps.completed, 1, "REPS flow completes");
        NS_TEST_ASSERT_MSG_EQ(ops.completed, 1, "OPS flow completes");
        NS_TEST_EXPECT_MSG_GT(reps.freezes, 0, "low-RTT RTO is taken for a failure: freeze");
        NS_TEST_EXPECT_MSG_LT(reps.injectedDrops * 4, ops.injectedDrops, "REPS drops < 1/4 of OPS");
    }
};

class RepsSystemTestSuite : public TestSuite
{
  public:
    RepsSystemTestSuite()
        : TestSuite("dcn-lb-reps-system", DCNLB_TEST_SYSTEM)
    {
        AddTestCase(new RepsPermutationTest(), DCNLB_TEST_QUICK);
        AddTestCase(new RepsSilentFailureTest(), DCNLB_TEST_QUICK);
        AddTestCase(new RepsLightFailureTest(), DCNLB_TEST_QUICK);
    }
};

static RepsSystemTestSuite g_repsSystemTestSuite;
