/*
 * TestSuite "dcn-lb-baselines-system": every baseline of issue 14 (host-side
 * selectors and the switch-side letflow/drill/conga/conweave schemes) completes every
 * flow of a short permutation (256 KB per host) on an 8-host 2-tier fat tree
 * through WorkloadHelper, i.e. the path every example takes for --lb=<name>;
 * the switch-side schemes really install their policy; CONGA is refused on a
 * 3-tier fat tree with one line.
 */
#include "graph-topology-walk.h"

#include "ns3/boolean.h"
#include "ns3/clove-path-selector.h"
#include "ns3/dcn-header.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-scheme.h"
#include "ns3/dcn-switch-routing.h"
#include "ns3/dcn-transport-helper.h"
#include "ns3/drb-path-selector.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/flicr-path-selector.h"
#include "ns3/forwarding-policy.h"
#include "ns3/graph-topology-helper.h"
#include "ns3/packet.h"
#include "ns3/presto-path-selector.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"
#include "ns3/workload-helper.h"

#include <functional>
#include <set>
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

/**
 * The host-side baselines (DRB, Presto*, CLOVE-ECN, Flicr) name path i by an EV that the
 * ECMP fabric forwards on the i-th physical path (PhysicalPaths, default true): on a 2 x 8
 * leaf-spine the 8 paths of a host pair cross 8 different spines (EVs base + i, the former
 * naming, hash onto fewer), checked by walking each
 * EV through the switches' own tables and hash; EV -> path is the inverse.
 */
class PhysicalPathsTestCase : public TestCase
{
  public:
    PhysicalPathsTestCase()
        : TestCase("DRB, Presto*, CLOVE-ECN and Flicr spread their paths over distinct spines")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<DcnGraphTopology> t =
            DcnTopologyPresets::Create("hermes-sim",
                                       {{"leaves", "2"}, {"spines", "8"}, {"hostsPerLeaf", "1"}});
        t->AssignStreams(7);
        dcntest::TopologyWalker walker(t);
        PathSelectorSetup st;
        st.topology = t;
        st.srcHost = 0;
        st.dstHost = 1;
        st.srcSwitch = t->GetSwitchOfHost(0);
        st.dstSwitch = t->GetSwitchOfHost(1);
        st.shared = CreateObject<DcnLbSharedState>();
        auto spines = [&](const std::function<uint16_t(uint16_t)>& ev, uint16_t n) {
            std::set<uint32_t> seen;
            for (uint16_t i = 0; i < n; ++i)
            {
                uint8_t b[36] = {0};
                b[0] = ev(i) >> 8;
                b[1] = ev(i) & 0xff;
                b[2] = DcnHeader::UDP_PORT >> 8;
                b[3] = DcnHeader::UDP_PORT & 0xff;
                dcntest::PacketWalk w = walker.Walk(0, 1, Create<Packet>(b, sizeof(b)));
                NS_TEST_EXPECT_MSG_EQ(w.delivered, true, "EV " << ev(i) << " reaches host 1");
                NS_TEST_EXPECT_MSG_EQ(w.switches.size(), 3u, "leaf, spine, leaf");
                if (w.switches.size() == 3)
                {
                    seen.insert(w.switches[1]);
                }
            }
            return seen.size();
        };
        int64_t stream = 40;
        Ptr<DcnDrbPathSelector> drb = CreateObject<DcnDrbPathSelector>();
        drb->AssignStreams(stream++);
        drb->Setup(st);
        NS_TEST_ASSERT_MSG_EQ(drb->GetNumPaths(), 8, "8 minimal paths");
        NS_TEST_EXPECT_MSG_EQ(spines([&](uint16_t i) { return drb->GetPathEv(i); }, 8),
                              8u,
                              "DRB: 8 spines");
        Ptr<DcnPrestoPathSelector> presto = CreateObject<DcnPrestoPathSelector>();
        presto->AssignStreams(stream++);
        presto->Setup(st);
        NS_TEST_EXPECT_MSG_EQ(spines([&](uint16_t i) { return presto->GetPathEv(i); }, 8),
                              8u,
                              "Presto*: 8 spines");
        Ptr<DcnClovePathSelector> clove = CreateObject<DcnClovePathSelector>();
        clove->AssignStreams(stream++);
        clove->Setup(st);
        NS_TEST_EXPECT_MSG_EQ(spines([&](uint16_t i) { return clove->GetPathEv(i); }, 8),
                              8u,
                              "CLOVE-ECN: 8 spines");
        Ptr<DcnFlicrPathSelector> flicr = CreateObject<DcnFlicrPathSelector>();
        flicr->SetAttribute("Weights", StringValue("equal"));
        flicr->AssignStreams(stream++);
        flicr->Setup(st);
        NS_TEST_EXPECT_MSG_EQ(spines([&](uint16_t i) { return flicr->GetPathEv(i); }, 8),
                              8u,
                              "Flicr: 8 spines");
        Ptr<DcnDrbPathSelector> virt = CreateObject<DcnDrbPathSelector>();
        virt->SetAttribute("PhysicalPaths", BooleanValue(false));
        virt->AssignStreams(stream++);
        virt->Setup(st);
        NS_TEST_EXPECT_MSG_LT(spines([&](uint16_t i) { return virt->GetPathEv(i); }, 8),
                              8u,
                              "EVs base + i share spines");
        for (uint16_t i = 0; i < 8; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(clove->GetPathOfEv(clove->GetPathEv(i)), i, "EV -> path");
            NS_TEST_EXPECT_MSG_EQ(presto->GetPathOfEv(presto->GetPathEv(i)), i, "EV -> path");
        }
        Simulator::Destroy();
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
        AddTestCase(new PhysicalPathsTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new CongaRefusedTestCase, DCNLB_TEST_QUICK);
    }
};

LbBaselinesSystemTestSuite g_lbBaselinesSystemTestSuite;

} // namespace
