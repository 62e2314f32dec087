/*
 * dcn-lb-topology: the topology seam (DcnTopology / DcnTopologyBase) on small
 * fat trees: Boost.Graph path enumeration against the structural counts,
 * base RTT over slow links, link lookup by name, and FailureHelper /
 * PortStatsHelper driven through Ptr<DcnTopology>.
 */
#include "ns3/core-module.h"
#include "ns3/dcn-addressing.h"
#include "ns3/dcn-example-args.h"
#include "ns3/dcn-header.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/failure-helper.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/graph-topology-helper.h"
#include "ns3/internet-module.h"
#include "ns3/port-stats-helper.h"
#include "ns3/test.h"

#include <algorithm>
#include <set>

using namespace ns3;

namespace
{

/** Minimal path sets from Boost.Graph equal the fat tree's structural enumeration. */
class PathCountTest : public TestCase
{
  public:
    PathCountTest()
        : TestCase("GetPaths: minimal counts and links equal the structure (2 and 3 tiers); "
                   "non-minimal counts with a slack")
    {
    }

    /** Check one path set's consistency (links join the switch sequence, simple, latency). */
    void CheckPathSet(Ptr<DcnTopology> topo, const DcnPathSet& ps, const char* what)
    {
        NodeContainer sw = topo->GetAllSwitches();
        for (const DcnPath& p : ps.paths)
        {
            NS_TEST_EXPECT_MSG_EQ(p.links.size() + 1,
                                  p.switches.size(),
                                  what << ": one link between consecutive switches");
            std::set<uint32_t> seen(p.switches.begin(), p.switches.end());
            NS_TEST_EXPECT_MSG_EQ(seen.size(), p.switches.size(), what << ": simple path");
            Time lat(0);
            for (size_t i = 0; i < p.links.size(); ++i)
            {
                const DcnLinkInfo& l = topo->GetLink(p.links[i]);
                Ptr<Node> a = sw.Get(p.switches[i]);
                Ptr<Node> b = sw.Get(p.switches[i + 1]);
                bool joins = (l.a == a && l.b == b) || (l.a == b && l.b == a);
                NS_TEST_EXPECT_MSG_EQ(joins, true, what << ": link joins");
                lat += l.delay;
            }
            NS_TEST_EXPECT_MSG_EQ(p.latency, lat, what << ": latency");
        }
    }

    void Compare(Ptr<FatTreeHelper> ft, uint32_t s, uint32_t d, uint32_t expectPaths)
    {
        const DcnPathSet& ps = ft->GetPaths(ft->GetSwitchOfHost(s), ft->GetSwitchOfHost(d));
        NS_TEST_EXPECT_MSG_EQ(ps.nMinimal, expectPaths, "minimal paths " << s << "->" << d);
        NS_TEST_EXPECT_MSG_EQ(ps.nMinimal, ft->CountPaths(s, d), "structural count");
        NS_TEST_EXPECT_MSG_EQ(ps.paths.size(), ps.nMinimal, "no slack: minimal only");
        // Same link sets as the structural enumeration (without the two host links).
        std::set<std::vector<uint32_t>> structural;
        for (auto links : ft->GetPathLinks(s, d))
        {
            structural.insert(std::vector<uint32_t>(links.begin() + 1, links.end() - 1));
        }
        std::set<std::vector<uint32_t>> enumerated;
        for (const DcnPath& p : ps.paths)
        {
            NS_TEST_EXPECT_MSG_EQ((p.cls == DcnPathClass::MINIMAL), true, "class");
            enumerated.insert(p.links);
        }
        NS_TEST_EXPECT_MSG_EQ((structural == enumerated), true, "same paths " << s << "->" << d);
        CheckPathSet(ft, ps, "minimal");
        NS_TEST_EXPECT_MSG_EQ(&ft->GetPaths(ps.srcSwitch, ps.dstSwitch), &ps, "cached");
    }

    void DoRun() override
    {
        Ptr<FatTreeHelper> t2 = FatTreeHelper::TwoTier(4, 2, 3);
        t2->Build();
        Compare(t2, 0, 2, 3);
        Compare(t2, 1, 7, 3);
        NS_TEST_EXPECT_MSG_EQ(t2->GetHopCount(0, 1), 2, "same ToR");
        NS_TEST_EXPECT_MSG_EQ(t2->GetHopCount(0, 7), 4, "across spines");
        NS_TEST_EXPECT_MSG_EQ(t2->GetPaths(0, 0).paths.size(), 0, "same switch: no paths");
        // spine-to-spine: via any of the 4 ToRs
        NS_TEST_EXPECT_MSG_EQ(t2->GetPaths(4, 5).nMinimal, 4, "spine pair via each ToR");
        Simulator::Destroy();

        Ptr<FatTreeHelper> t3 = FatTreeHelper::ThreeTier(3, 2, 2, 2, 2);
        t3->Build();
        Compare(t3, 0, 2, 2);  // same pod: U
        Compare(t3, 0, 11, 4); // other pod: U x K
        NS_TEST_EXPECT_MSG_EQ(t3->GetHopCount(0, 2), 4, "intra-pod");
        NS_TEST_EXPECT_MSG_EQ(t3->GetHopCount(0, 11), 6, "inter-pod");
        Simulator::Destroy();

        // Non-minimal: ToR s -> spine a -> ToR x -> spine b -> ToR d (a != b, x != s,d).
        const uint32_t T = 4;
        const uint32_t U = 3;
        Ptr<FatTreeHelper> nm = FatTreeHelper::TwoTier(T, 1, U);
        nm->SetAttribute("NonMinimalSlack", UintegerValue(2));
        nm->Build();
        const DcnPathSet& ps = nm->GetPaths(0, 1);
        NS_TEST_EXPECT_MSG_EQ(ps.nMinimal, U, "minimal");
        NS_TEST_EXPECT_MSG_EQ(ps.paths.size() - ps.nMinimal,
                              U * (T - 2) * (U - 1),
                              "non-minimal 4-link simple paths");
        for (uint32_t i = ps.nMinimal; i < ps.paths.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(ps.paths[i].Hops(), 4, "length");
            NS_TEST_EXPECT_MSG_EQ((ps.paths[i].cls == DcnPathClass::NONMINIMAL), true, "class");
            NS_TEST_EXPECT_MSG_EQ(ps.paths[i].id, i, "id = index");
        }
        CheckPathSet(nm, ps, "non-minimal");
        Simulator::Destroy();

        // The cap keeps minimal paths first.
        Ptr<FatTreeHelper> cap = FatTreeHelper::TwoTier(T, 1, U);
        cap->SetAttribute("NonMinimalSlack", UintegerValue(2));
        cap->SetAttribute("MaxPathsPerPair", UintegerValue(5));
        cap->Build();
        NS_TEST_EXPECT_MSG_EQ(cap->GetPaths(0, 1).paths.size(), 5, "capped");
        NS_TEST_EXPECT_MSG_EQ(cap->GetPaths(0, 1).nMinimal, U, "minimal kept");
        Simulator::Destroy();
    }
};

/** A slow link on the only path raises the base RTT by its extra serialisation. */
class SlowLinkRttTest : public TestCase
{
  public:
    SlowLinkRttTest()
        : TestCase("GetBaseRtt and GetPathRtt include slow links")
    {
    }

    void DoRun() override
    {
        const uint32_t payload = 4096;
        const uint32_t ovh = 2 + 20 + 8 + DcnHeader::BASE_SIZE;
        const uint32_t ack = 2 + 20 + 8 + DcnHeader::CTRL_BASE_SIZE; // ACKs: control header
        const DataRate fast("400Gbps");
        const DataRate slow("100Gbps");
        auto extra = [&]() {
            return (slow.CalculateBytesTxTime(payload + ovh) + slow.CalculateBytesTxTime(ack)) -
                   (fast.CalculateBytesTxTime(payload + ovh) + fast.CalculateBytesTxTime(ack));
        };
        // One uplink per ToR: the slow link is on the only path.
        Ptr<FatTreeHelper> ref = FatTreeHelper::TwoTier(2, 1, 1);
        ref->Build();
        Time base = ref->GetBaseRtt(0, 1, payload);
        Simulator::Destroy();
        Ptr<FatTreeHelper> s1 = FatTreeHelper::TwoTier(2, 1, 1);
        s1->SetAttribute("SlowLinkRate", DataRateValue(slow));
        s1->AddSlowLink(0, 0);
        s1->Build();
        NS_TEST_EXPECT_MSG_EQ(s1->GetBaseRtt(0, 1, payload),
                              base + extra(),
                              "slow link on the only path");
        NS_TEST_EXPECT_MSG_EQ(s1->GetBaseRtt(1, 0, payload), base + extra(), "symmetric");
        Simulator::Destroy();
        // Two uplinks, one slow: base RTT (best minimal path) unchanged, the slow path longer.
        Ptr<FatTreeHelper> s2 = FatTreeHelper::TwoTier(2, 1, 2);
        s2->SetAttribute("SlowLinkRate", DataRateValue(slow));
        s2->AddSlowLink(1, 0);
        s2->Build();
        NS_TEST_EXPECT_MSG_EQ(s2->GetBaseRtt(0, 1, payload), base, "fast path exists");
        const DcnPathSet& ps = s2->GetPaths(0, 1);
        NS_TEST_ASSERT_MSG_EQ(ps.nMinimal, 2, "two paths");
        uint32_t slowLink = s2->GetTorUplink(1, 0);
        for (const DcnPath& p : ps.paths)
        {
            bool viaSlow = std::find(p.links.begin(), p.links.end(), slowLink) != p.links.end();
            NS_TEST_EXPECT_MSG_EQ(s2->GetPathRtt(0, 1, p, payload),
                                  viaSlow ? base + extra() : base,
                                  "path " << p.id);
        }
        Simulator::Destroy();
    }
};

/** Links are found by name; the names follow the builder's convention. */
class FindLinkTest : public TestCase
{
  public:
    FindLinkTest()
        : TestCase("FindLink by name, link ids, IsBuilt and GetNTiers through the interface")
    {
    }

    void DoRun() override
    {
        Ptr<FatTreeHelper> ft = FatTreeHelper::ThreeTier(2, 2, 2, 2, 2);
        Ptr<DcnTopology> topo = ft;
        NS_TEST_EXPECT_MSG_EQ(topo->IsBuilt(), false, "not built yet");
        ft->Build();
        NS_TEST_EXPECT_MSG_EQ(topo->IsBuilt(), true, "built");
        NS_TEST_EXPECT_MSG_EQ(topo->GetNTiers(), 3, "tiers");
        for (const DcnLinkInfo& l : topo->GetLinks())
        {
            NS_TEST_EXPECT_MSG_EQ(topo->FindLink(l.name), l.id, l.name);
        }
        NS_TEST_EXPECT_MSG_EQ(topo->FindLink("host3-tor1"), 3, "host link");
        NS_TEST_EXPECT_MSG_EQ(topo->FindLink("tor1-agg1"), ft->GetTorUplink(1, 1), "ToR uplink");
        NS_TEST_EXPECT_MSG_EQ(topo->FindLink("agg2-core1"), ft->GetAggUplink(2, 1), "agg uplink");
        NS_TEST_EXPECT_MSG_EQ(topo->FindLink("tor0-spine9"), DcnAddressing::NONE, "unknown");
        // The interface's default linear search agrees with the map.
        NS_TEST_EXPECT_MSG_EQ(topo->DcnTopology::FindLink("tor1-agg1"),
                              ft->GetTorUplink(1, 1),
                              "default FindLink");
        Ptr<FailureHelper> fh = CreateObject<FailureHelper>(topo);
        NS_TEST_EXPECT_MSG_EQ(fh->GetLinkId("tor1-agg1"), ft->GetTorUplink(1, 1), "FailureHelper");
        // Addressing plan.
        for (uint32_t h = 0; h < topo->GetNHosts(); ++h)
        {
            NS_TEST_EXPECT_MSG_EQ(topo->GetHostIndex(topo->GetHostAddress(h)), h, "address");
            NS_TEST_EXPECT_MSG_EQ(DcnAddressing::HostIndexOf(topo->GetHostAddress(h)), h, "plan");
        }
        Simulator::Destroy();
    }
};

/** FailureHelper and PortStatsHelper work through Ptr<DcnTopology>. */
class HelpersThroughInterfaceTest : public TestCase
{
  public:
    HelpersThroughInterfaceTest()
        : TestCase("FailureHelper withdraws and PortStatsHelper counts through Ptr<DcnTopology>")
    {
    }

    uint32_t m_sent{0};

    /** Egress interface chosen at ToR 0 for a packet to host 2 with EV sport. */
    static uint32_t TorChoice(Ptr<DcnTopology> topo, uint16_t sport)
    {
        Ptr<Packet> p = Create<Packet>(64);
        UdpHeader u;
        u.SetSourcePort(sport);
        u.SetDestinationPort(DcnHeader::UDP_PORT);
        p->AddHeader(u);
        Ipv4Header h;
        h.SetSource(topo->GetHostAddress(0));
        h.SetDestination(topo->GetHostAddress(2));
        h.SetProtocol(17);
        h.SetTtl(DcnAddressing::INITIAL_TTL);
        return topo->GetRouting(topo->GetAllSwitches().Get(0))->Lookup(p, h, 1);
    }

    void Check(Ptr<DcnTopology> topo, uint32_t lid, bool routed)
    {
        NS_TEST_EXPECT_MSG_EQ(topo->IsLinkRouted(lid), routed, "routed state at " << Now());
        const DcnLinkInfo& l = topo->GetLink(lid);
        bool used = false;
        for (uint16_t ev = 1; ev < 200; ++ev)
        {
            used |= TorChoice(topo, ev) == l.ifA;
        }
        NS_TEST_EXPECT_MSG_EQ(used, routed, "withdrawn uplink not chosen at " << Now());
    }

    void Send(Ptr<DcnTopology> topo)
    {
        Ptr<Node> n = topo->GetHosts().Get(0);
        for (uint32_t i = 0; i < 10; ++i)
        {
            Ptr<Packet> p = Create<Packet>(1000);
            UdpHeader u;
            u.SetSourcePort(5);
            u.SetDestinationPort(9);
            p->AddHeader(u);
            n->GetObject<Ipv4L3Protocol>()->Send(p,
                                                 topo->GetHostAddress(0),
                                                 topo->GetHostAddress(1),
                                                 17,
                                                 nullptr);
            ++m_sent;
        }
    }

    void DoRun() override
    {
        Ptr<FatTreeHelper> ft = FatTreeHelper::TwoTier(2, 2, 2);
        ft->Build();
        Ptr<DcnTopology> topo = ft;
        Ptr<FailureHelper> fh = CreateObject<FailureHelper>(topo);
        uint32_t lid = fh->GetLinkId("tor0-spine1");
        fh->FailLink(lid, MicroSeconds(10), MicroSeconds(1), MicroSeconds(20));
        Ptr<PortStatsHelper> ps = CreateObject<PortStatsHelper>();
        ps->SetAttribute("Interval", TimeValue(MicroSeconds(5)));
        ps->Install(topo, Seconds(0), MicroSeconds(50));
        uint32_t port = ps->FindPort("host1-tor0", true); // ToR 0 -> host 1
        NS_TEST_EXPECT_MSG_EQ(ps->GetPorts()[port].linkId, 1, "port of the named link");
        NS_TEST_EXPECT_MSG_EQ(ps->GetPorts()[port].tier, 0, "ToR end");
        Simulator::Schedule(MicroSeconds(5),
                            &HelpersThroughInterfaceTest::Check,
                            this,
                            topo,
                            lid,
                            true);
        Simulator::Schedule(MicroSeconds(15),
                            &HelpersThroughInterfaceTest::Check,
                            this,
                            topo,
                            lid,
                            false);
        Simulator::Schedule(MicroSeconds(35),
                            &HelpersThroughInterfaceTest::Check,
                            this,
                            topo,
                            lid,
                            true);
        Simulator::Schedule(MicroSeconds(2), &HelpersThroughInterfaceTest::Send, this, topo);
        Simulator::Stop(MicroSeconds(51));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(ps->GetTxBytes(port), m_sent * (1000 + 8 + 20 + 2), "port bytes");
        Simulator::Destroy();
    }
};

/** A fat tree whose switches use DcnTopologyBase's generic BFS tables. */
class GenericTablesFatTree : public FatTreeHelper
{
  public:
    void UseGenericTables(uint32_t slack)
    {
        InstallShortestPathTables(slack);
    }
};

/** Generic (BFS) tables route every pair on a shortest path, like the structural ones. */
class GenericTablesTest : public TestCase
{
  public:
    GenericTablesTest()
        : TestCase("InstallShortestPathTables: shortest-path reachability, candidates, slack")
    {
    }

    /** Links traversed from host s to host d following the tables (99 = drop or loop). */
    static uint32_t Walk(Ptr<DcnTopology> topo, uint32_t s, uint32_t d, uint16_t ev)
    {
        Ptr<Packet> p = Create<Packet>(16);
        UdpHeader u;
        u.SetSourcePort(ev);
        u.SetDestinationPort(DcnHeader::UDP_PORT);
        p->AddHeader(u);
        Ipv4Header h;
        h.SetSource(topo->GetHostAddress(s));
        h.SetDestination(topo->GetHostAddress(d));
        h.SetProtocol(17);
        Ptr<Node> n = topo->GetHosts().Get(s);
        uint32_t inIf = 0;
        for (uint32_t hops = 0; hops < 16; ++hops)
        {
            uint32_t out = topo->GetRouting(n)->Lookup(p, h, inIf);
            if (out == 0)
            {
                return n == topo->GetHosts().Get(d) ? hops : 99;
            }
            if (out == DcnSwitchRouting::NO_PORT)
            {
                return 99;
            }
            Ptr<NetDevice> dev = n->GetObject<Ipv4>()->GetNetDevice(out);
            Ptr<Channel> ch = dev->GetChannel();
            Ptr<NetDevice> peer = ch->GetDevice(0) == dev ? ch->GetDevice(1) : ch->GetDevice(0);
            n = peer->GetNode();
            inIf = n->GetObject<Ipv4>()->GetInterfaceForDevice(peer);
            h.SetTtl(h.GetTtl() - 1);
        }
        return 99;
    }

    void CheckAll(Ptr<DcnTopology> topo)
    {
        uint32_t bad = 0;
        for (uint32_t s = 0; s < topo->GetNHosts(); ++s)
        {
            for (uint32_t d = 0; d < topo->GetNHosts(); ++d)
            {
                for (uint16_t ev = 1; s != d && ev < 6; ++ev)
                {
                    bad += Walk(topo, s, d, ev) != topo->GetHopCount(s, d);
                }
            }
        }
        NS_TEST_EXPECT_MSG_EQ(bad, 0, "every pair on a shortest path");
    }

    void DoRun() override
    {
        Ptr<GenericTablesFatTree> t2 = CreateObject<GenericTablesFatTree>();
        t2->SetAttribute("NumTors", UintegerValue(4));
        t2->SetAttribute("HostsPerTor", UintegerValue(2));
        t2->SetAttribute("UplinksPerTor", UintegerValue(3));
        t2->Build();
        t2->UseGenericTables(2);
        CheckAll(t2);
        Ptr<DcnSwitchRouting> tor0 = t2->GetRouting(t2->GetAllSwitches().Get(0));
        Ptr<DcnSwitchRouting> spine0 = t2->GetRouting(t2->GetAllSwitches().Get(4));
        const uint32_t* mn;
        const uint32_t* nm;
        uint32_t nMin;
        uint32_t nNon;
        uint32_t key;
        NS_TEST_EXPECT_MSG_EQ(tor0->GetNKeys(), 4, "one key per ToR");
        NS_TEST_EXPECT_MSG_EQ(tor0->GetCandidates(7, mn, nMin, nm, nNon, key), true, "routable");
        NS_TEST_EXPECT_MSG_EQ(nMin, 3, "ToR: every uplink is minimal");
        for (uint32_t u = 0; u < 3; ++u)
        {
            NS_TEST_EXPECT_MSG_EQ(mn[u], t2->GetLink(t2->GetTorUplink(0, u)).ifA, "uplink order");
        }
        NS_TEST_EXPECT_MSG_EQ(key, 3, "key = destination ToR");
        spine0->GetCandidates(7, mn, nMin, nm, nNon, key);
        NS_TEST_EXPECT_MSG_EQ(nMin, 1, "spine: one down port");
        NS_TEST_EXPECT_MSG_EQ(mn[0], t2->GetLink(t2->GetTorUplink(3, 0)).ifB, "to ToR 3");
        NS_TEST_EXPECT_MSG_EQ(nNon, 3, "slack 2: detours via the other 3 ToRs");
        // After a withdrawal the generic tables avoid the link.
        t2->SetLinkRouted(t2->GetTorUplink(0, 1), false);
        t2->UseGenericTables(0);
        tor0->GetCandidates(7, mn, nMin, nm, nNon, key);
        NS_TEST_EXPECT_MSG_EQ(nMin, 2, "withdrawn uplink left out");
        NS_TEST_EXPECT_MSG_EQ(nNon, 0, "no slack");
        CheckAll(t2);
        Simulator::Destroy();

        Ptr<GenericTablesFatTree> t3 = CreateObject<GenericTablesFatTree>();
        t3->SetAttribute("Tiers", UintegerValue(3));
        t3->SetAttribute("HostsPerTor", UintegerValue(2));
        t3->SetAttribute("UplinksPerTor", UintegerValue(2));
        t3->SetAttribute("TorsPerPod", UintegerValue(2));
        t3->SetAttribute("NumPods", UintegerValue(3));
        t3->SetAttribute("AggUplinks", UintegerValue(2));
        t3->Build();
        t3->UseGenericTables(0);
        CheckAll(t3);
        Simulator::Destroy();
    }
};

/** dcn-lb-compare's note on equal columns: pairs of host switches with one minimal path. */
class SinglePathPairsTest : public TestCase
{
  public:
    SinglePathPairsTest()
        : TestCase("CountSinglePathPairs: every sampled pair of a Dragonfly has one minimal "
                   "path, none of a leaf-spine or a fat tree; the sample is bounded")
    {
    }

    void DoRun() override
    {
        uint32_t sampled = 0;
        // df-small: 36 switches with hosts, one global link per group pair
        Ptr<DcnTopology> df = DcnTopologyPresets::Create("df-small");
        uint32_t single = dcnargs::CountSinglePathPairs(*df, 256, sampled);
        NS_TEST_EXPECT_MSG_EQ(sampled, 256, "sample capped at 256 of 36 x 35 pairs");
        NS_TEST_EXPECT_MSG_EQ(single, sampled, "Dragonfly: one minimal path per pair");
        single = dcnargs::CountSinglePathPairs(*df, 5000, sampled);
        NS_TEST_EXPECT_MSG_EQ(sampled, 36 * 35, "every ordered pair when the cap is larger");
        NS_TEST_EXPECT_MSG_EQ(single, sampled, "every pair of df-small");
        Simulator::Destroy();
        // hermes-sim: 8 leaves x 8 spines, 8 minimal paths per leaf pair
        Ptr<DcnTopology> ls = DcnTopologyPresets::Create("hermes-sim");
        single = dcnargs::CountSinglePathPairs(*ls, 256, sampled);
        NS_TEST_EXPECT_MSG_EQ(sampled, 8 * 7, "leaf pairs");
        NS_TEST_EXPECT_MSG_EQ(single, 0, "leaf-spine: several minimal paths");
        Simulator::Destroy();
        Ptr<FatTreeHelper> ft = FatTreeHelper::ThreeTier(2, 2, 2, 2, 2);
        ft->Build();
        single = dcnargs::CountSinglePathPairs(*ft, 256, sampled);
        NS_TEST_EXPECT_MSG_GT(sampled, 0, "fat tree sampled");
        NS_TEST_EXPECT_MSG_EQ(single, 0, "3-tier fat tree: several minimal paths");
        Simulator::Destroy();
    }
};

class TopologySuite : public TestSuite
{
  public:
    TopologySuite()
        : TestSuite("dcn-lb-topology", DCNLB_TEST_UNIT)
    {
        AddTestCase(new PathCountTest(), DCNLB_TEST_QUICK);
        AddTestCase(new SlowLinkRttTest(), DCNLB_TEST_QUICK);
        AddTestCase(new FindLinkTest(), DCNLB_TEST_QUICK);
        AddTestCase(new HelpersThroughInterfaceTest(), DCNLB_TEST_QUICK);
        AddTestCase(new GenericTablesTest(), DCNLB_TEST_QUICK);
        AddTestCase(new SinglePathPairsTest(), DCNLB_TEST_QUICK);
    }
};

TopologySuite g_topologySuite;

} // namespace
