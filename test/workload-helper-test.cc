/*
 * TestSuite "dcn-lb-workload-sim": the WorkloadHelper on a small fat tree
 * (fabric + transport), fixed seed, a few milliseconds of simulated time.
 */
#include "ns3/boolean.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-transport-helper.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"
#include "ns3/workload-helper.h"

using namespace ns3;

namespace
{

struct SimOutcome
{
    FctSummary summary;
    uint32_t messages{0};
    double minSlowdown{1e9};
};

SimOutcome
RunSmall(const std::string& workload, const std::string& lb, uint64_t msgSize)
{
    Ptr<FatTreeHelper> ft = CreateObject<FatTreeHelper>();
    ft->SetAttribute("NumTors", UintegerValue(2));
    ft->SetAttribute("HostsPerTor", UintegerValue(4));
    ft->SetAttribute("UplinksPerTor", UintegerValue(4));
    ft->Build();
    ft->AssignStreams(1);
    DcnTransportHelper th;
    th.Install(ft->GetHosts());
    Ptr<WorkloadHelper> wl = CreateObject<WorkloadHelper>();
    wl->SetAttribute("Workload", StringValue(workload));
    wl->SetAttribute("MessageSize", UintegerValue(msgSize));
    wl->SetAttribute("LoadBalancer", StringValue(lb));
    wl->SetAttribute("Parallel", UintegerValue(2));
    wl->SetAttribute("IncastDegree", UintegerValue(4));
    wl->AssignStreams(100);
    wl->Install(ft);
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    wl->Finalize();
    SimOutcome o;
    o.summary = wl->GetStats().Summarize();
    o.messages = wl->GetPlan().messages.size();
    for (const auto& r : wl->GetStats().GetRecords())
    {
        if (r.completed)
        {
            o.minSlowdown = std::min(o.minSlowdown, r.Slowdown());
        }
    }
    wl->Dispose();
    Simulator::Destroy();
    return o;
}

class WorkloadSimTestCase : public TestCase
{
  public:
    WorkloadSimTestCase()
        : TestCase("workloads complete on an 8-host fat tree; FCT never below the ideal FCT")
    {
    }

    void DoRun() override
    {
        for (const std::string w :
             {"permutation", "tornado", "alltoall", "ring", "butterfly", "incast"})
        {
            SimOutcome o = RunSmall(w, "ecmp", 64 * 1024);
            NS_TEST_ASSERT_MSG_EQ(o.summary.unfinished, 0, w << ": every message completes");
            NS_TEST_ASSERT_MSG_EQ(o.summary.count, o.messages, w << ": one record per message");
            // Ideal FCT is a lower bound (1 ns tolerance for time rounding).
            NS_TEST_ASSERT_MSG_GT_OR_EQ(o.minSlowdown, 0.999, w << ": FCT >= ideal FCT");
        }
        // Same seed, same result.
        SimOutcome a = RunSmall("permutation", "ops", 256 * 1024);
        SimOutcome b = RunSmall("permutation", "ops", 256 * 1024);
        NS_TEST_ASSERT_MSG_EQ(a.summary.maxUs, b.summary.maxUs, "reproducible");
    }
};

class WorkloadSimTestSuite : public TestSuite
{
  public:
    WorkloadSimTestSuite()
        : TestSuite("dcn-lb-workload-sim", DCNLB_TEST_SYSTEM)
    {
        AddTestCase(new WorkloadSimTestCase, DCNLB_TEST_QUICK);
    }
};

static WorkloadSimTestSuite g_workloadSimTestSuite;

} // namespace
