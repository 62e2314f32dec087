/*
 * TestSuite "dcn-lb-baselines-system": every baseline of issue 14 (host-side
 * selectors and the switch-side letflow/drill/conga/conweave schemes) completes every
 * flow of a short permutation (256 KB per host) on an 8-host 2-tier fat tree
 * through WorkloadHelper, i.e. the path every example takes for --lb=<name>;
 * the switch-side schemes really install their policy; CONGA is refused on a
 * 3-tier fat tree with one line.
 */
#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-scheme.h"
#include "ns3/dcn-switch-routing.h"
#include "ns3/dcn-transport-helper.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/forwarding-policy.h"
#include "ns3/graph-topology-helper.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"
#include "ns3/workload-helper.h"

#include <string>

using namespace ns3;

namespace
{

class BaselinesCompleteTestCase : public TestCase
{
  public:
    BaselinesCompleteTestCase()
        : TestCase("each baseline completes every flow of a 256 KB permutation on 8 hosts")
    {
    }

    void DoRun() override
    {
        for (const std::string lb : {"drb",
                                     "presto",
                                     "clove",
                                     "plb",
                                     "plb-reps",
                                     "mprdma",
                                     "bitmap",
                                     "flicr",
                                     "letflow",
                                     "drill",
                                     "conga",
                                     "conweave"})
        {
            Ptr<FatTreeHelper> ft = FatTreeHelper::TwoTier(2, 4, 4);
            ft->Build();
            int64_t stream = 1;
            stream += ft->AssignStreams(stream);
            DcnTransportHelper th;
            th.Install(ft->GetHosts());
            Ptr<WorkloadHelper> wl = CreateObject<WorkloadHelper>();
            wl->AssignStreams(1000);
            wl->SetAttribute("Workload", StringValue("permutation"));
            wl->SetAttribute("MessageSize", UintegerValue(256 * 1024));
            wl->SetAttribute("LoadBalancer", StringValue(lb));
            wl->Install(ft);
            const std::string pol = DcnSchemeRegistry::Get(lb).switchPolicy;
            Ptr<ForwardingPolicy> fp =
                ft->GetRouting(ft->GetAllSwitches().Get(0))->GetForwardingPolicy();
            NS_TEST_ASSERT_MSG_EQ(std::string(fp->Name()), pol, lb << ": switch policy installed");
            Simulator::Stop(MilliSeconds(20));
            Simulator::Run();
            wl->Finalize();
            FctSummary s = wl->GetStats().Summarize();
            const uint32_t n = wl->GetPlan().messages.size();
            NS_TEST_ASSERT_MSG_EQ(n, 8, lb << ": 8 flows");
            NS_TEST_ASSERT_MSG_EQ(s.unfinished, 0, lb << ": every flow completes");
            NS_TEST_ASSERT_MSG_EQ(s.count, n, lb << ": one record per flow");
            wl->Dispose();
            Simulator::Destroy();
        }
    }
};

class LeafSpineTestCase : public TestCase
{
  public:
    LeafSpineTestCase()
        : TestCase("on the hermes-testbed leaf-spine preset (12 hosts at 1 Gbps) conga, conweave, "
                   "letflow, drill, clove, presto and plb complete a 128 KB permutation")
    {
    }

    void DoRun() override
    {
        for (const std::string lb :
             {"conga", "conweave", "letflow", "drill", "clove", "presto", "plb"})
        {
            Ptr<DcnGraphTopology> t = DcnTopologyPresets::Create("hermes-testbed");
            int64_t stream = 10;
            stream += t->AssignStreams(stream);
            DcnTransportHelper th;
            th.Install(t->GetHosts());
            Ptr<WorkloadHelper> wl = CreateObject<WorkloadHelper>();
            wl->AssignStreams(1000);
            wl->SetAttribute("Workload", StringValue("permutation"));
            wl->SetAttribute("MessageSize", UintegerValue(128 * 1024));
            wl->SetAttribute("LoadBalancer", StringValue(lb));
            NS_TEST_ASSERT_MSG_EQ(
                DcnSchemeRegistry::CheckCompatible(lb, t->GetTopologyName(), "dcn"),
                "",
                lb << " accepted on " << t->GetTopologyName());
            wl->Install(t);
            // 400 ms: at 1 Gb/s the transport's defaults (tuned for 400G) take hundreds
            // of retransmission timeouts per run (ECMP itself: max FCT ~93 ms), so the
            // bound is generous; the test asserts completion, not speed
            Simulator::Stop(MilliSeconds(400));
            Simulator::Run();
            wl->Finalize();
            FctSummary s = wl->GetStats().Summarize();
            const uint32_t n = wl->GetPlan().messages.size();
            NS_TEST_ASSERT_MSG_EQ(n, 12, lb << ": 12 flows");
            NS_TEST_ASSERT_MSG_EQ(s.unfinished, 0, lb << ": every flow completes");
            NS_TEST_ASSERT_MSG_EQ(s.count, n, lb << ": one record per flow");
            wl->Dispose();
            Simulator::Destroy();
        }
    }
};

class CongaRefusedTestCase : public TestCase
{
  public:
    CongaRefusedTestCase()
        : TestCase("conga is refused on a 3-tier fat tree with one line; drill installs there")
    {
    }

    void DoRun() override
    {
        Ptr<FatTreeHelper> ft = FatTreeHelper::ThreeTier(2, 2, 2, 2, 4);
        ft->Build();
        std::string err = DcnSchemeRegistry::InstallSwitchPolicy("conga", ft, 100);
        NS_TEST_ASSERT_MSG_NE(err, "", "refused");
        NS_TEST_ASSERT_MSG_EQ(err.find('\n'), std::string::npos, "one line");
        NS_TEST_ASSERT_MSG_NE(err.find("--lb=conga"), std::string::npos, "names the option");
        NS_TEST_ASSERT_MSG_EQ(
            std::string(ft->GetRouting(ft->GetAllSwitches().Get(0))->GetForwardingPolicy()->Name()),
            "ecmp",
            "a refused policy leaves the switches unchanged");
        int64_t used = 0;
        NS_TEST_ASSERT_MSG_EQ(DcnSchemeRegistry::InstallSwitchPolicy("drill", ft, 100, &used),
                              "",
                              "drill installs on 3 tiers");
        NS_TEST_ASSERT_MSG_EQ(used,
                              static_cast<int64_t>(ft->GetAllSwitches().GetN()),
                              "one stream per switch");
        NS_TEST_ASSERT_MSG_EQ(DcnSchemeRegistry::InstallSwitchPolicy("reps", ft, 200, &used),
                              "",
                              "an ecmp scheme changes nothing");
        NS_TEST_ASSERT_MSG_EQ(used, 0, "and uses no stream");
        Simulator::Destroy();
    }
};

class LbBaselinesSystemTestSuite : public TestSuite
{
  public:
    LbBaselinesSystemTestSuite()
        : TestSuite("dcn-lb-baselines-system", DCNLB_TEST_SYSTEM)
    {
        AddTestCase(new BaselinesCompleteTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new LeafSpineTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new CongaRefusedTestCase, DCNLB_TEST_QUICK);
    }
};

LbBaselinesSystemTestSuite g_lbBaselinesSystemTestSuite;

} // namespace
