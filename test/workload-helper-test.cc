/*
 * TestSuite "dcn-lb-workload-sim": the WorkloadHelper on a small fat tree
 * (fabric + transport), fixed seed, a few milliseconds of simulated time.
 */
#include "ns3/boolean.h"
#include "ns3/cc-registry.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-transport-helper.h"
#include "ns3/double.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"
#include "ns3/workload-helper.h"

#include <algorithm>

using namespace ns3;

namespace
{

struct SimOutcome
{
    FctSummary summary;
    uint32_t messages{0};
    double minSlowdown{1e9};
    uint32_t connections{0}; //!< opened by every host's transport
};

/** An 8-host two-tier fat tree with the message transport on every host. */
Ptr<FatTreeHelper>
SmallTree()
{
    Ptr<FatTreeHelper> ft = FatTreeHelper::TwoTier(2, 4, 4);
    ft->Build();
    ft->AssignStreams(1);
    DcnTransportHelper th;
    th.Install(ft->GetHosts());
    return ft;
}

SimOutcome
RunSmall(const std::string& workload, const std::string& lb, uint64_t msgSize)
{
    Ptr<FatTreeHelper> ft = SmallTree();
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
    for (uint32_t h = 0; h < ft->GetNHosts(); ++h)
    {
        o.connections += DcnTransportHelper::Get(ft->GetHosts().Get(h))->GetNConnections();
    }
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
        // ReuseIdle (the default): a step posted from the previous step's completion
        // callback reuses that connection (ring: one per host; butterfly: one per partner)
        NS_TEST_ASSERT_MSG_EQ(RunSmall("ring", "ecmp", 64 * 1024).connections,
                              8,
                              "ring: one connection per host");
        NS_TEST_ASSERT_MSG_EQ(RunSmall("butterfly", "ecmp", 64 * 1024).connections,
                              8 * 3,
                              "butterfly: one connection per partner");
        // Same seed, same result.
        SimOutcome a = RunSmall("permutation", "ops", 256 * 1024);
        SimOutcome b = RunSmall("permutation", "ops", 256 * 1024);
        NS_TEST_ASSERT_MSG_EQ(a.summary.maxUs, b.summary.maxUs, "reproducible");
    }
};

/** MeasureFrom (warm-up): a cdf workload's records are exactly the planned messages
 *  released at or after it, with the same FCTs as without the warm-up (the run itself is
 *  unchanged). */
class WorkloadWarmupTestCase : public TestCase
{
  public:
    WorkloadWarmupTestCase()
        : TestCase("MeasureFrom leaves the warm-up's flows out, and only them")
    {
    }

  private:
    static std::vector<FctRecord> Run(Time measureFrom, std::vector<Time>* releases)
    {
        Ptr<FatTreeHelper> ft = SmallTree();
        Ptr<WorkloadHelper> wl = CreateObject<WorkloadHelper>();
        wl->SetAttribute("Workload", StringValue("cdf"));
        wl->SetAttribute("Cdf", StringValue("websearch"));
        wl->SetAttribute("Load", DoubleValue(0.5));
        wl->SetAttribute("Duration", TimeValue(MicroSeconds(400)));
        wl->SetAttribute("MeasureFrom", TimeValue(measureFrom));
        wl->AssignStreams(100);
        wl->Install(ft);
        Simulator::Stop(MilliSeconds(50));
        Simulator::Run();
        wl->Finalize();
        std::vector<FctRecord> out = wl->GetStats().GetRecords();
        if (releases)
        {
            for (const auto& m : wl->GetPlan().messages)
            {
                releases->push_back(m.release);
            }
        }
        wl->Dispose();
        Simulator::Destroy();
        return out;
    }

    static bool Same(const FctRecord& a, const FctRecord& b)
    {
        return a.src == b.src && a.dst == b.dst && a.bytes == b.bytes && a.start == b.start &&
               a.finish == b.finish && a.completed == b.completed;
    }

    void DoRun() override
    {
        std::vector<Time> releases;
        const std::vector<FctRecord> all = Run(Seconds(0), &releases);
        const Time from = MicroSeconds(200);
        const std::vector<FctRecord> late = Run(from, nullptr);
        const auto expect = static_cast<size_t>(
            std::count_if(releases.begin(), releases.end(), [&](Time t) { return t >= from; }));
        NS_TEST_ASSERT_MSG_EQ(all.size(), releases.size(), "no warm-up: every message");
        NS_TEST_ASSERT_MSG_GT(expect, 0u, "flows after the warm-up");
        NS_TEST_ASSERT_MSG_LT(expect, releases.size(), "and flows in it");
        NS_TEST_ASSERT_MSG_EQ(late.size(), expect, "only messages released after it");
        size_t matched = 0;
        for (const FctRecord& r : late)
        {
            NS_TEST_EXPECT_MSG_GT_OR_EQ(r.start, from, "no record starts in the warm-up");
            matched +=
                std::any_of(all.begin(), all.end(), [&](const FctRecord& a) { return Same(a, r); })
                    ? 1
                    : 0;
        }
        NS_TEST_EXPECT_MSG_EQ(matched, late.size(), "the same FCTs as without the warm-up");
    }
};

/** One flow as both drivers see it. */
struct Flow
{
    uint32_t src;
    uint32_t dst;
    uint64_t bytes;
    int64_t startNs;
    int64_t finishNs;

    bool operator<(const Flow& o) const
    {
        return src < o.src;
    }
};

/** The driver before the per-host Application (the REPS runner's): plan from
 *  stream s, one connection per pair with selector streams from s + 2, every
 *  message posted at the workload start by a plain Simulator::Schedule. */
struct DirectDriver
{
    Ptr<FatTreeHelper> ft;
    WorkloadPlan plan;
    std::vector<Flow> flows;

    void Done(const DcnMessageRecord& r)
    {
        const WorkloadMessage& m = plan.messages[r.userTag];
        flows.push_back(
            Flow{m.src, m.dst, m.bytes, r.start.GetNanoSeconds(), r.finish.GetNanoSeconds()});
    }

    void Start()
    {
        int64_t stream = 102;
        for (uint32_t id = 0; id < plan.messages.size(); ++id)
        {
            const WorkloadMessage& m = plan.messages[id];
            auto parts = CreateSchemeParts("ops", "dctcp");
            stream += parts.first->AssignStreams(stream);
            DcnConnectionParams p = MakeConnectionParams(ft, m.src, m.dst, 4096);
            Ptr<DcnConnection> c =
                DcnTransportHelper::Get(ft->GetHosts().Get(m.src))
                    ->Connect(ft->GetHostAddress(m.dst), parts.first, parts.second, p);
            c->SendMessage(m.bytes, MakeCallback(&DirectDriver::Done, this), id);
        }
    }
};

class WorkloadAppSameFlowsTestCase : public TestCase
{
  public:
    WorkloadAppSameFlowsTestCase()
        : TestCase("per-host workload Application gives the same flows as a direct driver "
                   "(permutation)")
    {
    }

    void DoRun() override
    {
        const uint64_t bytes = 128 * 1024;
        // 1. the workload driver (one DcnWorkloadApp per host)
        std::vector<Flow> viaApp;
        uint32_t apps = 0;
        uint32_t perHostRecords = 0;
        {
            Ptr<FatTreeHelper> ft = SmallTree();
            Ptr<WorkloadHelper> wl = CreateObject<WorkloadHelper>();
            wl->AssignStreams(100);
            wl->SetAttribute("Workload", StringValue("permutation"));
            wl->SetAttribute("MessageSize", UintegerValue(bytes));
            wl->SetAttribute("LoadBalancer", StringValue("ops"));
            wl->SetAttribute("StartTime", TimeValue(MicroSeconds(1)));
            wl->Install(ft);
            Simulator::Stop(MilliSeconds(20));
            Simulator::Run();
            for (const auto& r : wl->GetStats().GetRecords())
            {
                viaApp.push_back(Flow{r.src,
                                      r.dst,
                                      r.bytes,
                                      r.start.GetNanoSeconds(),
                                      r.finish.GetNanoSeconds()});
            }
            apps = wl->GetApps().size();
            for (const auto& app : wl->GetApps())
            {
                for (const auto& r : app->GetStats().GetRecords())
                {
                    perHostRecords += (r.src == app->GetHost()) ? 1 : 1000;
                }
                NS_TEST_EXPECT_MSG_EQ(app->GetNode()->GetApplication(0), app, "an Application");
            }
            wl->Dispose();
            Simulator::Destroy();
        }
        // 2. the direct driver on the same plan and streams
        DirectDriver d;
        {
            d.ft = SmallTree();
            Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
            u->SetStream(100);
            d.plan = WorkloadPlanner::Permutation(8, bytes, u);
            Simulator::Schedule(MicroSeconds(1), &DirectDriver::Start, &d);
            Simulator::Stop(MilliSeconds(20));
            Simulator::Run();
            d.ft = nullptr;
            Simulator::Destroy();
        }
        NS_TEST_ASSERT_MSG_EQ(apps, 8, "one app per host");
        NS_TEST_ASSERT_MSG_EQ(perHostRecords, 8, "each app records exactly its own flows");
        NS_TEST_ASSERT_MSG_EQ(viaApp.size(), 8, "every flow completes (app)");
        NS_TEST_ASSERT_MSG_EQ(d.flows.size(), 8, "every flow completes (direct)");
        std::sort(viaApp.begin(), viaApp.end());
        std::sort(d.flows.begin(), d.flows.end());
        for (size_t i = 0; i < viaApp.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(viaApp[i].dst, d.flows[i].dst, "same permutation");
            NS_TEST_EXPECT_MSG_EQ(viaApp[i].bytes, d.flows[i].bytes, "same size");
            NS_TEST_EXPECT_MSG_EQ(viaApp[i].startNs, d.flows[i].startNs, "same start");
            NS_TEST_EXPECT_MSG_EQ(viaApp[i].finishNs, d.flows[i].finishNs, "same finish (FCT)");
        }
    }
};

class WorkloadCcAttributeTestCase : public TestCase
{
  public:
    WorkloadCcAttributeTestCase()
        : TestCase("AddCongestionControlAttribute reaches this workload's congestion controls of "
                   "that type only; the attribute's global default is untouched")
    {
    }

    static uint64_t Window(Ptr<CongestionControl> cc)
    {
        UintegerValue v;
        cc->GetAttribute("Window", v);
        return v.Get();
    }

    /** An ECMP workload running `cc`, asked for a 12,345-B DCQCN window. */
    static Ptr<WorkloadHelper> Workload(const std::string& cc)
    {
        Ptr<WorkloadHelper> wl = CreateObject<WorkloadHelper>();
        wl->SetAttribute("LoadBalancer", StringValue("ecmp"));
        wl->SetAttribute("CongestionControl", StringValue(cc));
        wl->AddCongestionControlAttribute("ns3::DcqcnCc", "Window", UintegerValue(12345));
        return wl;
    }

    void DoRun() override
    {
        Ptr<WorkloadHelper> wl = Workload("dcqcn");
        auto parts = wl->CreateConnectionParts();
        NS_TEST_ASSERT_MSG_EQ(parts.second->GetInstanceTypeId().GetName(),
                              "ns3::DcqcnCc",
                              "the workload's congestion control");
        NS_TEST_EXPECT_MSG_EQ(Window(parts.second), 12345, "set on the connection's DCQCN");
        NS_TEST_EXPECT_MSG_EQ(Window(wl->CreateConnectionParts().second),
                              12345,
                              "and on every later connection");
        NS_TEST_EXPECT_MSG_EQ(Window(CongestionControlRegistry::Create("dcqcn")),
                              0,
                              "a DCQCN created elsewhere keeps the default (no window)");
        // a congestion control of another type is left alone (no abort, no attribute)
        Ptr<WorkloadHelper> other = Workload("dctcp");
        auto dctcp = other->CreateConnectionParts();
        NS_TEST_EXPECT_MSG_EQ(dctcp.second->GetInstanceTypeId().GetName(),
                              "ns3::DctcpCc",
                              "DCTCP connection created as usual");
        wl->Dispose();
        other->Dispose();
    }
};

class WorkloadSimTestSuite : public TestSuite
{
  public:
    WorkloadSimTestSuite()
        : TestSuite("dcn-lb-workload-sim", DCNLB_TEST_SYSTEM)
    {
        AddTestCase(new WorkloadSimTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new WorkloadAppSameFlowsTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new WorkloadCcAttributeTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new WorkloadWarmupTestCase, DCNLB_TEST_QUICK);
    }
};

static WorkloadSimTestSuite g_workloadSimTestSuite;

} // namespace
