/*
 * dcn-lb-graph-topology: the generic ns-3 builder of switch graphs
 * (DcnGraphTopology, DcnTopologyPresets) and the switch routing policies
 * (Minimal, Valiant, UGAL-L, source routing), without simulation:
 *  - structure per preset: nodes, links, ports per switch (= radix), tiers,
 *    link names/rates/delays (switch latency folded in), base RTT for mixed delays;
 *  - reachability host-to-host with every policy by walking the real tables and
 *    policies: delivered, no loop, minimal = MinimalRouting's hop count,
 *    Valiant/UGAL <= 2 x diameter (df-small, sf-small, a small rail, leaf-spine);
 *  - Minimal hash spreads uniformly over equal next hops (chi-squared);
 *  - UGAL-L detours when the minimal ports' queues are long (crafted), never
 *    when queues are empty;
 *  - a source-routed packet follows exactly its anchor list;
 *  - bad input: one line (DcnOptionError).
 */
#include "graph-topology-walk.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/dcn-graph-routing.h"
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

/** Every host pair (one host per switch), every policy: delivered, loop-free, bounded. */
class GraphReachabilityTestCase : public TestCase
{
  public:
    GraphReachabilityTestCase(std::string preset,
                              std::map<std::string, std::string> ov,
                              std::string routing,
                              bool perPacket = false)
        : TestCase("reachability " + preset + " with " + routing +
                   (perPacket ? " per packet" : "")),
          m_preset(preset),
          m_ov(ov),
          m_routing(routing),
          m_perPacket(perPacket)
    {
    }

  private:
    void DoRun() override
    {
        Config::SetDefault("ns3::DcnValiantForwardingPolicy::PerPacket", BooleanValue(m_perPacket));
        Ptr<DcnGraphTopology> t = DcnTopologyPresets::Create(m_preset, m_ov, m_routing);
        Config::SetDefault("ns3::DcnValiantForwardingPolicy::PerPacket", BooleanValue(false));
        t->AssignStreams(7);
        const dcn::SwitchGraph& g = t->GetGraph();
        const dcn::MinimalRouting& mr = t->GetMinimalRouting();
        uint32_t diameter = dcn::Analyze(g).diameter;
        TopologyWalker w(t);
        uint32_t pairs = 0;
        uint32_t longer = 0;
        for (uint32_t a = 0; a < g.NSwitches(); ++a)
        {
            for (uint32_t b = 0; b < g.NSwitches(); ++b)
            {
                if (g.switches[a].nHosts == 0 || g.switches[b].nHosts == 0)
                {
                    continue;
                }
                uint32_t s = g.FirstHost(a);
                uint32_t d = g.FirstHost(b) + (a == b && g.switches[b].nHosts > 1 ? 1 : 0);
                if (s == d)
                {
                    continue;
                }
                PacketWalk pw = w.Walk(s, d, UdpPacket(static_cast<uint16_t>(1000 + a * 31 + b)));
                NS_TEST_ASSERT_MSG_EQ(pw.delivered,
                                      true,
                                      m_preset << " " << m_routing << " " << s << "->" << d);
                NS_TEST_ASSERT_MSG_EQ(int(pw.finalTos & DcnDetourPolicyBase::TOS_VIA),
                                      0,
                                      "mark cleared");
                uint32_t hops = static_cast<uint32_t>(pw.switches.size()) - 1;
                if (m_routing == "minimal" || m_routing == "ugal-l" || m_routing == "source")
                {
                    // empty queues: UGAL-L never detours; no route header: minimal
                    NS_TEST_ASSERT_MSG_EQ(hops, mr.Dist(a, b), m_preset << " " << s << "->" << d);
                }
                else
                {
                    NS_TEST_ASSERT_MSG_LT_OR_EQ(hops, 2 * diameter, m_preset << " valiant bound");
                    longer += hops > mr.Dist(a, b) ? 1 : 0;
                }
                // minimal routes are simple; a Valiant route may cross a switch of its
                // first half again on its second half (bounded above: no loop)
                std::vector<uint32_t> v = pw.switches;
                std::sort(v.begin(), v.end());
                bool unique = std::adjacent_find(v.begin(), v.end()) == v.end();
                if (m_routing != "valiant")
                {
                    NS_TEST_ASSERT_MSG_EQ(unique, true, "switch visited twice");
                }
                ++pairs;
            }
        }
        NS_TEST_ASSERT_MSG_GT(pairs, 0u, "pairs walked");
        if (m_routing == "valiant")
        {
            NS_TEST_ASSERT_MSG_GT(longer, pairs / 8, "Valiant takes non-minimal routes");
        }
        Simulator::Destroy();
    }

    std::string m_preset;
    std::map<std::string, std::string> m_ov;
    std::string m_routing;
    bool m_perPacket;
};

/** The policies are generic: Valiant and UGAL-L on a fat tree (FatTreeHelper). */
class FatTreeValiantTestCase : public TestCase
{
  public:
    FatTreeValiantTestCase()
        : TestCase("valiant and ugal-l on a 2-tier fat tree")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string pol :
             {"ns3::DcnValiantForwardingPolicy", "ns3::DcnUgalForwardingPolicy"})
        {
            Ptr<FatTreeHelper> ft = CreateObject<FatTreeHelper>();
            ft->SetAttribute("NumTors", UintegerValue(4));
            ft->SetAttribute("HostsPerTor", UintegerValue(2));
            ft->SetAttribute("UplinksPerTor", UintegerValue(3));
            ft->SetAttribute("ForwardingPolicy", StringValue(pol));
            ft->Build();
            ft->AssignStreams(1);
            TopologyWalker w(ft);
            uint32_t longer = 0;
            for (uint32_t s = 0; s < 8; ++s)
            {
                for (uint32_t d = 0; d < 8; ++d)
                {
                    if (s == d)
                    {
                        continue;
                    }
                    PacketWalk pw = w.Walk(s, d, UdpPacket(static_cast<uint16_t>(s * 8 + d)));
                    NS_TEST_ASSERT_MSG_EQ(pw.delivered, true, pol << " " << s << "->" << d);
                    NS_TEST_ASSERT_MSG_LT_OR_EQ(pw.switches.size() - 1, 4u, "<= 2 x diameter");
                    longer += pw.switches.size() - 1 > ft->GetHopCount(s, d) - 2 ? 1 : 0;
                }
            }
            if (pol == "ns3::DcnValiantForwardingPolicy")
            {
                NS_TEST_ASSERT_MSG_GT(longer, 10u, "valiant detours");
            }
            else
            {
                NS_TEST_ASSERT_MSG_EQ(longer, 0u, "ugal-l: empty queues, minimal");
            }
            Simulator::Destroy();
        }
    }
};

/** Minimal hash over 8 equal next hops (leaf to leaf via 8 spines): chi-squared. */
class GraphHashUniformTestCase : public TestCase
{
  public:
    GraphHashUniformTestCase()
        : TestCase("minimal: hash of the EV spreads uniformly over equal next hops")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<DcnGraphTopology> t = DcnTopologyPresets::Create("hermes-sim");
        t->AssignStreams(3);
        TopologyWalker w(t);
        std::map<uint32_t, uint32_t> count;
        const uint32_t n = 8000;
        for (uint32_t ev = 0; ev < n; ++ev)
        {
            PacketWalk pw = w.Walk(0, 127, UdpPacket(static_cast<uint16_t>(ev)));
            NS_TEST_ASSERT_MSG_EQ(pw.switches.size(), 3u, "leaf-spine-leaf");
            count[pw.switches[1]]++;
        }
        NS_TEST_ASSERT_MSG_EQ(count.size(), 8u, "all 8 spines used");
        double chi = 0;
        for (auto& [sp, c] : count)
        {
            double e = n / 8.0;
            chi += (c - e) * (c - e) / e;
        }
        // 7 degrees of freedom, p = 0.001: 24.32
        NS_TEST_ASSERT_MSG_LT(chi, 24.32, "chi-squared");
        Simulator::Destroy();
    }
};

/** UGAL-L: long minimal queues -> detour; empty queues -> minimal. */
class GraphUgalTestCase : public TestCase
{
  public:
    GraphUgalTestCase()
        : TestCase("ugal-l: detours only when the minimal port's queue is long")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<DcnGraphTopology> t = DcnTopologyPresets::Create("df-small", {}, "ugal-l");
        t->AssignStreams(5);
        const dcn::SwitchGraph& g = t->GetGraph();
        const uint32_t dst = g.FirstHost(5 * g.fam.a + 2); // group 5
        Ptr<Node> sw0 = t->GetAllSwitches().Get(0);
        Ptr<DcnSwitchRouting> r = t->GetRouting(sw0);
        const uint32_t *mn, *nm;
        uint32_t nMin, nNon, key;
        r->GetCandidates(dst, mn, nMin, nm, nNon, key);
        std::vector<uint32_t> minimal(mn, mn + nMin);
        TopologyWalker w(t);
        const uint32_t dist = t->GetMinimalRouting().Dist(0, g.SwitchOfHost(dst));
        uint32_t detourBefore = 0;
        for (uint16_t ev = 0; ev < 50; ++ev)
        {
            PacketWalk pw = w.Walk(0, dst, UdpPacket(ev));
            detourBefore += pw.switches.size() - 1 > dist ? 1 : 0;
        }
        NS_TEST_ASSERT_MSG_EQ(detourBefore, 0u, "empty queues: minimal");
        // fill every minimal egress queue of switch 0 with 40 x 1000 B
        for (uint32_t iface : minimal)
        {
            Ptr<NetDevice> dev = sw0->GetObject<Ipv4>()->GetNetDevice(iface);
            Ptr<DcnQueueDisc> q = t->GetQueueDisc(dev);
            q->Initialize();
            for (int i = 0; i < 40; ++i)
            {
                Ipv4Header h;
                h.SetProtocol(17);
                h.SetPayloadSize(1000);
                q->Enqueue(Create<Ipv4QueueDiscItem>(Create<Packet>(1000), Address(), 0x0800, h));
            }
            NS_TEST_ASSERT_MSG_GT(q->GetNBytes(), 30000u, "queue filled");
        }
        uint32_t detours = 0;
        for (uint16_t ev = 0; ev < 100; ++ev)
        {
            PacketWalk pw = w.Walk(0, dst, UdpPacket(ev));
            NS_TEST_ASSERT_MSG_EQ(pw.delivered, true, "delivered");
            if (pw.switches.size() - 1 > dist)
            {
                ++detours;
                NS_TEST_ASSERT_MSG_LT_OR_EQ(pw.switches.size() - 1,
                                            2 * dcn::Analyze(g).diameter,
                                            "bounded");
            }
        }
        NS_TEST_ASSERT_MSG_GT(detours, 50u, "long minimal queue: mostly non-minimal");
        auto pol = DynamicCast<DcnUgalForwardingPolicy>(r->GetForwardingPolicy());
        NS_TEST_ASSERT_MSG_EQ(pol->GetDetours(), detours, "detour counter");
        Simulator::Destroy();
    }
};

/** A source-routed packet visits its anchors in order along minimal segments. */
class GraphSourceRouteTestCase : public TestCase
{
  public:
    GraphSourceRouteTestCase()
        : TestCase("source routing follows its anchor list exactly")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<DcnGraphTopology> t = DcnTopologyPresets::Create("df-small", {}, "source");
        t->AssignStreams(9);
        const dcn::SwitchGraph& g = t->GetGraph();
        Ptr<DcnRouteInfo> info = DcnRouteInfo::Get(*t);
        TopologyWalker w(t);
        const uint32_t src = 0;                      // switch 0
        const uint32_t dst = g.FirstHost(8 * 4 + 1); // group 8
        std::vector<std::vector<uint16_t>> lists = {{13, 22}, {5}, {30, 2, 19}, {0, 35}};
        for (const auto& anchors : lists)
        {
            DcnSourceRoute rt;
            Ptr<Packet> p = DcnMakeSourceRoutedPacket(77, anchors, 100);
            NS_TEST_ASSERT_MSG_EQ(DcnReadSourceRoute(p, &rt), true, "reader");
            NS_TEST_ASSERT_MSG_EQ(rt.n, anchors.size(), "reader count");
            PacketWalk pw = w.Walk(src, dst, p);
            NS_TEST_ASSERT_MSG_EQ(pw.delivered, true, "delivered");
            // expected: anchor k at position cum_k
            uint32_t pos = 0;
            uint32_t prev = 0;
            for (uint16_t a : anchors)
            {
                pos += info->Dist(prev, a);
                NS_TEST_ASSERT_MSG_LT(pos, pw.switches.size(), "path long enough");
                NS_TEST_ASSERT_MSG_EQ(pw.switches[pos], a, "anchor at its position");
                prev = a;
            }
            uint32_t last = g.SwitchOfHost(dst);
            NS_TEST_ASSERT_MSG_EQ(pw.switches.size() - 1,
                                  pos + t->GetMinimalRouting().Dist(prev, last),
                                  "minimal segments only");
        }
        // an ACK echoing a route is not source-routed
        {
            Ptr<Packet> p = DcnMakeSourceRoutedPacket(77, {13, 22}, 0);
            std::vector<uint8_t> b(p->GetSize());
            p->CopyData(b.data(), b.size());
            b[8] = 1; // opcode ACK
            DcnSourceRoute rt;
            bool read = DcnReadSourceRoute(Create<Packet>(b.data(), b.size()), &rt);
            NS_TEST_ASSERT_MSG_EQ(read, false, "ACK: no source route");
        }
        // without a route header: minimal
        PacketWalk pw = w.Walk(src, dst, UdpPacket(77));
        NS_TEST_ASSERT_MSG_EQ(pw.switches.size() - 1,
                              t->GetMinimalRouting().Dist(0, g.SwitchOfHost(dst)),
                              "no header: minimal");
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
        : TestSuite("dcn-lb-graph-topology", UNIT)
    {
        AddTestCase(new GraphStructureTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new GraphBaseRttTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new GraphPathsTestCase, DCNLB_TEST_QUICK);
        const std::map<std::string, std::string> smallRail = {{"clusters", "3"}, {"rails", "4"}};
        const std::map<std::string, std::string> ls = {{"leaves", "4"},
                                                       {"spines", "3"},
                                                       {"hostsPerLeaf", "2"}};
        for (const std::string r : {"minimal", "valiant", "ugal-l", "source"})
        {
            AddTestCase(new GraphReachabilityTestCase("df-small", {}, r), DCNLB_TEST_QUICK);
            AddTestCase(new GraphReachabilityTestCase("sf-small", {}, r), DCNLB_TEST_QUICK);
            AddTestCase(new GraphReachabilityTestCase("laps-rail", smallRail, r), DCNLB_TEST_QUICK);
            AddTestCase(new GraphReachabilityTestCase("hermes-sim", ls, r), DCNLB_TEST_QUICK);
        }
        AddTestCase(new GraphReachabilityTestCase("df-small", {}, "valiant", true),
                    DCNLB_TEST_QUICK);
        AddTestCase(new GraphReachabilityTestCase("sf-small", {}, "valiant", true),
                    DCNLB_TEST_QUICK);
        AddTestCase(new GraphBigPresetsTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new FatTreeValiantTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new GraphHashUniformTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new GraphUgalTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new GraphSourceRouteTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new GraphBadInputTestCase, DCNLB_TEST_QUICK);
    }
};

static GraphTopologyTestSuite g_graphTopologyTestSuite;

} // namespace dcntest
} // namespace ns3
