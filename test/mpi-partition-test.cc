/*
 * TestSuite "dcn-lb-mpi-partition": what a distributed (MPI) run relies on, checked
 * in any build (no MPI needed; README "Distributed runs (MPI)", doc/speed.rst):
 *  - FatTreeHelper::SystemCount creates every node with the system id of its
 *    partition (GetSystemId), in the same order (same node ids) as a sequential
 *    build; which links cross ranks (2 and 3 tiers);
 *  - WorkloadHelper::PerHostSelectorStreams: a host's path selectors draw the same
 *    random numbers whether or not other hosts opened connections first (each MPI
 *    rank opens only its own hosts' connections); the global counter does not.
 */
#include "ns3/boolean.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-mpi.h"
#include "ns3/dcn-options.h"
#include "ns3/dcn-transport-helper.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/path-selector.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"
#include "ns3/workload-helper.h"

#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

Ptr<FatTreeHelper>
SmallTree(uint32_t tiers, uint32_t systemCount)
{
    Ptr<FatTreeHelper> ft = CreateObject<FatTreeHelper>();
    ft->SetAttribute("Tiers", UintegerValue(tiers));
    ft->SetAttribute("HostsPerTor", UintegerValue(2));
    ft->SetAttribute("UplinksPerTor", UintegerValue(2));
    if (tiers == 2)
    {
        ft->SetAttribute("NumTors", UintegerValue(4));
    }
    else
    {
        ft->SetAttribute("TorsPerPod", UintegerValue(2));
        ft->SetAttribute("NumPods", UintegerValue(4));
        ft->SetAttribute("AggUplinks", UintegerValue(2));
    }
    ft->SetAttribute("SystemCount", UintegerValue(systemCount));
    ft->Build();
    return ft;
}

/** Every node: (id - first id, tier, system id), in creation order. */
std::vector<std::tuple<uint32_t, int32_t, uint32_t>>
Layout(Ptr<FatTreeHelper> ft)
{
    NodeContainer all;
    all.Add(ft->GetHosts());
    all.Add(ft->GetAllSwitches());
    std::vector<std::tuple<uint32_t, int32_t, uint32_t>> out;
    const uint32_t first = ft->GetHosts().Get(0)->GetId();
    for (uint32_t i = 0; i < all.GetN(); ++i)
    {
        Ptr<Node> n = all.Get(i);
        out.emplace_back(n->GetId() - first, ft->GetTierOfNode(n), n->GetSystemId());
    }
    return out;
}

/** A workload whose steps wait for other hosts cannot run on several ranks. */
class DependenciesAcrossRanksTestCase : public TestCase
{
  public:
    DependenciesAcrossRanksTestCase()
        : TestCase("ring and butterfly on a partitioned fabric are refused in one line (a rank "
                   "never sees another rank's completions: a step would never start)")
    {
    }

    /** The refusal of Install for `workload` on `systemCount` ranks ("" = accepted). */
    static std::string Refusal(const std::string& workload, uint32_t systemCount)
    {
        Ptr<FatTreeHelper> ft = SmallTree(2, systemCount);
        ft->AssignStreams(1);
        DcnTransportHelper th;
        th.Install(ft->GetHosts());
        Ptr<WorkloadHelper> wl = CreateObject<WorkloadHelper>();
        wl->SetAttribute("Workload", StringValue(workload));
        wl->SetAttribute("MessageSize", UintegerValue(64 * 1024));
        wl->AssignStreams(100);
        std::string err;
        try
        {
            wl->Install(ft);
        }
        catch (const DcnOptionError& e)
        {
            err = e.what();
        }
        wl->Dispose();
        Simulator::Destroy();
        return err;
    }

    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_NE(Refusal("ring", 2).find("workload ring has steps"),
                              std::string::npos,
                              "ring on 2 ranks refused");
        NS_TEST_EXPECT_MSG_NE(Refusal("butterfly", 2), "", "butterfly on 2 ranks refused");
        NS_TEST_EXPECT_MSG_EQ(Refusal("permutation", 2), "", "no dependencies: accepted");
        NS_TEST_EXPECT_MSG_EQ(Refusal("ring", 1), "", "one rank: accepted");
    }
};

class PartitionTestCase : public TestCase
{
  public:
    PartitionTestCase()
        : TestCase("SystemCount: nodes created with GetSystemId's rank, same ids and order; "
                   "cross-rank links")
    {
    }

    void DoRun() override
    {
        for (uint32_t tiers : {2u, 3u})
        {
            Ptr<FatTreeHelper> seq = SmallTree(tiers, 1);
            Ptr<FatTreeHelper> par = SmallTree(tiers, 2);
            NS_TEST_ASSERT_MSG_EQ(par->GetMaxSystemCount(), 4u, tiers << " tiers: 4 ToRs/pods");
            auto a = Layout(seq);
            auto b = Layout(par);
            NS_TEST_ASSERT_MSG_EQ(a.size(), b.size(), "same node count");
            uint32_t onRank1 = 0;
            for (size_t i = 0; i < a.size(); ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(std::get<0>(a[i]), std::get<0>(b[i]), "same node id");
                NS_TEST_ASSERT_MSG_EQ(std::get<1>(a[i]), std::get<1>(b[i]), "same tier");
                NS_TEST_ASSERT_MSG_EQ(std::get<2>(a[i]), 0u, "sequential: all on system 0");
                onRank1 += std::get<2>(b[i]);
            }
            NodeContainer all;
            all.Add(par->GetHosts());
            all.Add(par->GetAllSwitches());
            for (uint32_t i = 0; i < all.GetN(); ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(all.Get(i)->GetSystemId(),
                                      par->GetSystemId(all.Get(i), 2),
                                      "node " << i << " created with GetSystemId's rank");
            }
            NS_TEST_ASSERT_MSG_EQ(onRank1, a.size() / 2, tiers << " tiers: half the nodes on 1");
            uint32_t cross = 0;
            uint32_t fabric = 0;
            for (const DcnLinkInfo& l : par->GetLinks())
            {
                const bool c = l.a->GetSystemId() != l.b->GetSystemId();
                if (l.tierA < 0 || l.tierB < 0)
                {
                    NS_TEST_ASSERT_MSG_EQ(c, false, "a host is on its ToR's rank");
                    continue;
                }
                ++fabric;
                cross += c ? 1 : 0;
            }
            // 2 tiers: ToRs {0,1} and spines {0} on rank 0: 4 of 8 ToR-spine links cross.
            // 3 tiers: pods {0,1} with their aggregation switches and cores {0,1} on rank
            // 0: ToR-agg links never cross; of the 16 agg-core links, aggregation switch
            // 1 of pods 0,1 and 0 of pods 2,3 reach the other rank's cores: 8 cross.
            const uint32_t expected = tiers == 2 ? 4u : 8u;
            NS_TEST_ASSERT_MSG_EQ(cross,
                                  expected,
                                  tiers << " tiers: cross-rank links of " << fabric);
        }
        Simulator::Destroy();
    }
};

std::vector<uint16_t>
Draws(Ptr<WorkloadHelper> wl, const std::vector<uint32_t>& openFirst, uint32_t host)
{
    for (uint32_t h : openFirst)
    {
        wl->CreateConnectionParts(h);
    }
    Ptr<PathSelector> ps = wl->CreateConnectionParts(host).first;
    std::vector<uint16_t> evs;
    for (uint32_t i = 0; i < 16; ++i)
    {
        SendContext ctx;
        ctx.psn = i;
        evs.push_back(ps->Choose(ctx).ev);
    }
    return evs;
}

class PerHostStreamsTestCase : public TestCase
{
  public:
    PerHostStreamsTestCase()
        : TestCase("PerHostSelectorStreams: a host's draws do not depend on other hosts' "
                   "connections (the global counter's do)")
    {
    }

    void DoRun() override
    {
        Ptr<FatTreeHelper> ft = SmallTree(2, 1);
        ft->AssignStreams(1);
        DcnTransportHelper th;
        th.Install(ft->GetHosts());
        std::vector<uint16_t> draws[2][2]; // [perHost][other hosts opened first]
        for (bool perHost : {false, true})
        {
            for (bool othersFirst : {false, true})
            {
                Ptr<WorkloadHelper> wl = CreateObject<WorkloadHelper>();
                wl->SetAttribute("LoadBalancer", StringValue("ops"));
                wl->SetAttribute("PerHostSelectorStreams", BooleanValue(perHost));
                wl->AssignStreams(100);
                wl->Install(ft);
                draws[perHost][othersFirst] =
                    Draws(wl,
                          othersFirst ? std::vector<uint32_t>{0, 1, 2} : std::vector<uint32_t>{},
                          5);
                wl->Dispose();
            }
        }
        NS_TEST_ASSERT_MSG_EQ((draws[1][0] == draws[1][1]),
                              true,
                              "per-host streams: host 5 draws the same EVs");
        NS_TEST_ASSERT_MSG_EQ((draws[0][0] == draws[0][1]),
                              false,
                              "global counter: host 5's EVs depend on the others (so the "
                              "check above could fail)");
        NS_TEST_ASSERT_MSG_EQ((draws[1][0] == draws[0][0]),
                              false,
                              "host 5's per-host block differs from the global counter's start");
        Simulator::Destroy();
    }
};

class MpiGlueTestCase : public TestCase
{
  public:
    MpiGlueTestCase()
        : TestCase("DcnMpi without Enable: one rank; records pass through; refusal without MPI")
    {
    }

    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(DcnMpi::IsEnabled(), false, "not enabled");
        NS_TEST_ASSERT_MSG_EQ(DcnMpi::GetRank(), 0u, "rank 0");
        NS_TEST_ASSERT_MSG_EQ(DcnMpi::GetSize(), 1u, "one rank");
        NS_TEST_ASSERT_MSG_EQ(DcnMpi::Sum(uint64_t(7)), 7u, "sum of one rank");
        FctRecord r;
        r.src = 3;
        r.dst = 9;
        r.finish = MicroSeconds(5);
        auto out = DcnMpi::GatherRecords({r, r});
        NS_TEST_ASSERT_MSG_EQ(out.size(), 2u, "records pass through");
        NS_TEST_ASSERT_MSG_EQ(out[1].dst, 9u, "unchanged");
        if (!DcnMpi::Available())
        {
            std::string err = DcnMpi::Enable(nullptr, nullptr, "granted");
            NS_TEST_ASSERT_MSG_EQ(err.find("option --mpi: this build has no MPI support"),
                                  0u,
                                  "one refusal line: " << err);
        }
    }
};

class MpiPartitionTestSuite : public TestSuite
{
  public:
    MpiPartitionTestSuite()
        : TestSuite("dcn-lb-mpi-partition", DCNLB_TEST_UNIT)
    {
        AddTestCase(new PartitionTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new DependenciesAcrossRanksTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new PerHostStreamsTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new MpiGlueTestCase, DCNLB_TEST_QUICK);
    }
};

static MpiPartitionTestSuite g_mpiPartitionTestSuite;

} // namespace
