/*
 * dcn-lb-graph-topology: the generic ns-3 builder of switch graphs
 * (DcnGraphTopology, DcnTopologyPresets), without simulation:
 *  - structure per preset: nodes, links, ports per switch (= radix), tiers,
 *    link names/rates/delays (switch latency folded in), host map; the paper-size
 *    presets built (not simulated) with radix and MPI partition;
 *  - base RTT for mixed delays; path classes (minimal, Valiant) and DOT;
 *  - bad input: one line (DcnOptionError).
 * Routing policies: graph-routing-policy-test.cc (dcn-lb-graph-routing).
 */
#include "graph-topology-walk.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/dcn-graph-routing.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-options.h"
#include "ns3/dcn-queue-disc.h"
#include "ns3/dcn-routing-policies.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/graph-topology-helper.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/ipv4.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cmath>

namespace ns3
{
namespace dcntest
{

/** Structure of every small preset (big ones: graph only, see the bench). */
class GraphStructureTestCase : public TestCase
{
  public:
    GraphStructureTestCase()
        : TestCase("structure of the presets as ns-3 networks")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string name :
             {"df-small", "sf-small", "laps-df", "laps-rail", "hermes-sim", "hermes-testbed"})
        {
            dcn::SwitchGraph g = DcnTopologyPresets::Graph(name);
            Ptr<DcnGraphTopology> t = DcnTopologyPresets::Create(name);
            NS_TEST_ASSERT_MSG_EQ(t->GetNHosts(), g.NHosts(), name);
            NS_TEST_ASSERT_MSG_EQ(t->GetNSwitches(), g.NSwitches(), name);
            NS_TEST_ASSERT_MSG_EQ(t->GetLinks().size(), g.NLinks() + g.NHosts(), name);
            for (uint32_t s = 0; s < g.NSwitches(); ++s)
            {
                Ptr<Node> n = t->GetAllSwitches().Get(s);
                // interfaces = loopback + radix
                NS_TEST_ASSERT_MSG_EQ(n->GetObject<Ipv4>()->GetNInterfaces(),
                                      1 + g.Radix(s),
                                      name << " switch " << s);
                NS_TEST_ASSERT_MSG_EQ(t->GetTierOfNode(n), dcn::TierOf(g.switches[s].role), name);
            }
            for (uint32_t l = 0; l < g.NLinks(); ++l)
            {
                const DcnLinkInfo& li = t->GetLink(l);
                NS_TEST_ASSERT_MSG_EQ(li.name, g.links[l].name, name);
                NS_TEST_ASSERT_MSG_EQ(t->FindLink(li.name), l, name);
                NS_TEST_ASSERT_MSG_EQ(li.rate.GetBitRate(), uint64_t(g.links[l].rateBps), name);
                NS_TEST_ASSERT_MSG_EQ(li.delay,
                                      NanoSeconds(int64_t(g.links[l].delayNs + g.switchLatencyNs)),
                                      name);
            }
            for (uint32_t h = 0; h < g.NHosts(); ++h)
            {
                NS_TEST_ASSERT_MSG_EQ(t->GetSwitchOfHost(h), g.SwitchOfHost(h), name);
            }
        }
        Simulator::Destroy();
    }
};

/** The paper-size presets are built (not simulated): counts, radix, MPI partition. */
class GraphBigPresetsTestCase : public TestCase
{
  public:
    GraphBigPresetsTestCase()
        : TestCase("spritz-df and spritz-sf build as ns-3 networks")
    {
    }

  private:
    void DoRun() override
    {
        struct Want
        {
            std::string name;
            uint32_t switches;
            uint32_t hosts;
            uint32_t radix;
        };

        for (const Want& w :
             {Want{"spritz-df", 264, 1056, 4 + 7 + 4}, Want{"spritz-sf", 162, 1134, 7 + 13}})
        {
            Ptr<DcnGraphTopology> t = DcnTopologyPresets::Create(w.name);
            NS_TEST_ASSERT_MSG_EQ(t->GetNSwitches(), w.switches, w.name);
            NS_TEST_ASSERT_MSG_EQ(t->GetNHosts(), w.hosts, w.name);
            for (uint32_t s = 0; s < w.switches; ++s)
            {
                NS_TEST_ASSERT_MSG_EQ(
                    t->GetAllSwitches().Get(s)->GetObject<Ipv4>()->GetNInterfaces(),
                    1 + w.radix,
                    w.name << " radix of switch " << s);
            }
            // MPI: contiguous group blocks, hosts with their switch
            const dcn::SwitchGraph& g = t->GetGraph();
            for (uint32_t s = 1; s < w.switches; ++s)
            {
                uint32_t r0 = t->GetSystemId(t->GetAllSwitches().Get(s - 1), 4);
                uint32_t r1 = t->GetSystemId(t->GetAllSwitches().Get(s), 4);
                NS_TEST_ASSERT_MSG_LT_OR_EQ(r0, r1, "contiguous ranks");
                if (g.switches[s].group == g.switches[s - 1].group)
                {
                    NS_TEST_ASSERT_MSG_EQ(r0, r1, "a group stays on one rank");
                }
            }
            NS_TEST_ASSERT_MSG_EQ(t->GetSystemId(t->GetAllSwitches().Get(w.switches - 1), 4),
                                  3u,
                                  "last rank used");
            NS_TEST_ASSERT_MSG_EQ(t->GetSystemId(t->GetHosts().Get(w.hosts - 1), 4),
                                  t->GetSystemId(t->GetAllSwitches().Get(w.switches - 1), 4),
                                  "host with its switch");
            Simulator::Destroy();
        }
    }
};

/** Base RTT = the fastest minimal path with each link's own delay (mixed delays). */
class GraphBaseRttTestCase : public TestCase
{
  public:
    GraphBaseRttTestCase()
        : TestCase("base RTT with mixed local and global delays and switch latency")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<DcnGraphTopology> t = DcnTopologyPresets::Create("df-small");
        const dcn::SwitchGraph& g = t->GetGraph();
        // host 0 (switch 0, group 0) to a host in group 2: local? + global + local?
        uint32_t dst = g.FirstHost(2 * g.fam.a + 3);
        const DcnPathSet& ps = t->GetPaths(0, g.SwitchOfHost(dst));
        NS_TEST_ASSERT_MSG_GT(ps.nMinimal, 0u, "minimal paths");
        Time best = Time::Max();
        for (uint32_t i = 0; i < ps.nMinimal; ++i)
        {
            // propagation only (payload 0 still serialises headers: compare by hand)
            Time prop = 2 * (NanoSeconds(25 + 250) * 2); // two host links, 25 ns + lat/2
            for (uint32_t l : ps.paths[i].links)
            {
                prop += 2 * NanoSeconds(int64_t(g.links[l].delayNs + 500));
            }
            best = std::min(best, prop);
        }
        Time rtt = t->GetBaseRtt(0, dst, 0);
        // serialisation of data+ACK headers (2 x 87 B at 400 Gb/s per link) is < 4 ns/link
        NS_TEST_ASSERT_MSG_GT_OR_EQ(rtt, best, "RTT at least the propagation");
        NS_TEST_ASSERT_MSG_LT(rtt, best + NanoSeconds(30), "RTT = propagation + serialisation");
        // contains exactly one global link (500 ns) per direction
        NS_TEST_ASSERT_MSG_GT(rtt, NanoSeconds(2 * 1000), "global link counted");
        Simulator::Destroy();
    }
};

/** Path classes from the graph: minimal + one Valiant path per intermediate; DOT. */
class GraphPathsTestCase : public TestCase
{
  public:
    GraphPathsTestCase()
        : TestCase("graph paths as DcnPathSets (minimal and Valiant classes), DOT")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<DcnGraphTopology> t = DcnTopologyPresets::Create("df-small", {}, "minimal", 2);
        const dcn::MinimalRouting& mr = t->GetMinimalRouting();
        for (uint32_t b : {1u, 11u, 35u})
        {
            const DcnPathSet& ps = t->GetPaths(0, b);
            NS_TEST_ASSERT_MSG_EQ(ps.nMinimal, mr.MinimalPaths(0, b).size(), "minimal count");
            NS_TEST_ASSERT_MSG_GT(ps.paths.size(), ps.nMinimal, "Valiant paths");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(ps.paths.size() - ps.nMinimal,
                                        mr.ValiantIntermediates(0, b).size(),
                                        "one per intermediate at most");
            for (const DcnPath& p : ps.paths)
            {
                bool isMin = p.cls == DcnPathClass::MINIMAL;
                bool first = p.id < ps.nMinimal;
                NS_TEST_ASSERT_MSG_EQ(isMin, first, "class");
                NS_TEST_ASSERT_MSG_EQ(p.links.size() + 1, p.switches.size(), "shape");
                Time lat(0);
                for (uint32_t i = 0; i < p.links.size(); ++i)
                {
                    const DcnLinkInfo& l = t->GetLink(p.links[i]);
                    uint32_t x = t->GetSwitchIndex(l.a);
                    uint32_t y = t->GetSwitchIndex(l.b);
                    bool joins = (x == p.switches[i] && y == p.switches[i + 1]) ||
                                 (y == p.switches[i] && x == p.switches[i + 1]);
                    NS_TEST_ASSERT_MSG_EQ(joins, true, "link joins its switches");
                    lat += l.delay;
                }
                NS_TEST_ASSERT_MSG_EQ(p.latency, lat, "latency = sum of delays");
            }
        }
        t->SetLinkRouted(t->FindLink("g0s1-g0s2"), false);
        std::string dot = t->ToDot();
        NS_TEST_ASSERT_MSG_NE(dot.find("failed"), std::string::npos, "withdrawn link marked");
        Simulator::Destroy();
    }
};

/** Bad input: one line each. */
class GraphBadInputTestCase : public TestCase
{
  public:
    GraphBadInputTestCase()
        : TestCase("bad presets, parameters and routing names give one line")
    {
    }

  private:
    void DoRun() override
    {
        struct Case
        {
            std::string name;
            std::map<std::string, std::string> ov;
            std::string routing;
            std::string expect;
        };

        std::vector<Case> cases = {
            {"fat-dragon", {}, "minimal", "unknown"},
            {"df-small", {{"x", "1"}}, "minimal", "'x' unknown"},
            {"df-small", {{"p", "two"}}, "minimal", "p=two"},
            {"df-small", {{"p", "0"}}, "minimal", "p"},
            {"df-small", {{"g", "4"}}, "minimal", "g"},
            {"sf-small", {{"q", "6"}}, "minimal", "q"},
            {"hermes-sim", {{"oversubscription", "0"}}, "minimal", "oversubscription"},
            {"hermes-sim", {{"hostsPerLeaf", "0"}}, "minimal", "hostsPerLeaf"},
            {"df-small", {}, "ospf", "--routing"},
        };
        auto ov = DcnTopologyPresets::ParseOverrides("p=2,g=5");
        NS_TEST_ASSERT_MSG_EQ(ov.size(), 2u, "parsed");
        NS_TEST_ASSERT_MSG_EQ(ov["g"], "5", "parsed");
        for (const std::string bad : {"p", "p=", "=2", "p=2,,a=4", "p=2,p=3"})
        {
            std::string msg;
            try
            {
                DcnTopologyPresets::ParseOverrides(bad);
            }
            catch (const DcnOptionError& e)
            {
                msg = e.what();
            }
            NS_TEST_ASSERT_MSG_NE(msg.find("--topoParams"), std::string::npos, bad);
        }
        for (const auto& c : cases)
        {
            std::string msg;
            try
            {
                DcnTopologyPresets::Create(c.name, c.ov, c.routing);
            }
            catch (const DcnOptionError& e)
            {
                msg = e.what();
            }
            NS_TEST_ASSERT_MSG_EQ(msg.empty(), false, c.name << " refused");
            NS_TEST_ASSERT_MSG_EQ(msg.find('\n'), std::string::npos, "one line: " << msg);
            NS_TEST_ASSERT_MSG_NE(msg.find(c.expect), std::string::npos, msg);
        }
        Simulator::Destroy();
    }
};

class GraphTopologyTestSuite : public TestSuite
{
  public:
    GraphTopologyTestSuite()
        : TestSuite("dcn-lb-graph-topology", DCNLB_TEST_UNIT)
    {
        AddTestCase(new GraphStructureTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new GraphBigPresetsTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new GraphBaseRttTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new GraphPathsTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new GraphBadInputTestCase, DCNLB_TEST_QUICK);
    }
};

static GraphTopologyTestSuite g_graphTopologyTestSuite;

} // namespace dcntest
} // namespace ns3
