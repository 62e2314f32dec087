/*
 * dcn-lb-graph-routing: the switch routing policies (Minimal, Valiant, UGAL-L,
 * source routing) on graph topologies and a fat tree, without simulation:
 *  - reachability host-to-host with every policy by walking the real tables and
 *    policies: delivered, no loop, minimal = MinimalRouting's hop count,
 *    Valiant <= 2 x diameter (df-small, sf-small, a small rail, leaf-spine);
 *  - Minimal hash spreads uniformly over equal next hops (chi-squared);
 *  - UGAL-L detours when the minimal ports' queues are long (crafted), never
 *    when queues are empty;
 *  - a source-routed packet follows exactly its anchor list.
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
#include "ns3/laps-source-route-policy.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cmath>

namespace ns3
{
namespace dcntest
{

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
        Config::SetDefault("ns3::DcnValiantForwardingPolicy::PerPacket", BooleanValue(true));
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
            Ptr<FatTreeHelper> ft = FatTreeHelper::TwoTier(4, 2, 3);
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
        // a later hop (TTL 63): source-switch-only UGAL-L stays minimal; EveryHop detours
        uint32_t later = 0;
        for (uint16_t ev = 0; ev < 50; ++ev)
        {
            PacketWalk pw = w.Walk(0, dst, UdpPacket(ev), 32, 63);
            later += pw.switches.size() - 1 > dist ? 1 : 0;
        }
        NS_TEST_ASSERT_MSG_EQ(later, 0u, "EveryHop=false: no decision after hop 0");
        auto pol0 = DynamicCast<DcnUgalForwardingPolicy>(r->GetForwardingPolicy());
        pol0->SetAttribute("EveryHop", BooleanValue(true));
        for (uint16_t ev = 0; ev < 50; ++ev)
        {
            PacketWalk pw = w.Walk(0, dst, UdpPacket(ev), 32, 63);
            NS_TEST_ASSERT_MSG_EQ(pw.delivered, true, "delivered");
            later += pw.switches.size() - 1 > dist ? 1 : 0;
        }
        NS_TEST_ASSERT_MSG_GT(later, 25u, "EveryHop=true: detours at a later hop");
        pol0->SetAttribute("EveryHop", BooleanValue(false));
        auto pol = DynamicCast<DcnUgalForwardingPolicy>(r->GetForwardingPolicy());
        NS_TEST_ASSERT_MSG_EQ(pol->GetDetours(), detours + later, "detour counter");
        // Bias: the same long queues stay minimal once the bias exceeds q_min * h_min
        pol->SetAttribute("Bias", UintegerValue(uint64_t(1) << 30));
        uint32_t biased = 0;
        for (uint16_t ev = 0; ev < 100; ++ev)
        {
            PacketWalk pw = w.Walk(0, dst, UdpPacket(ev));
            biased += pw.switches.size() - 1 > dist ? 1 : 0;
        }
        NS_TEST_ASSERT_MSG_EQ(biased, 0u, "Bias above q_min * h_min: minimal");
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

/**
 * laps-source on routes that list every switch (LAPS): the switch at anchor h after
 * h hops heads to anchor h + 1 without walking the route (2026-11-30); the packet
 * still visits exactly the route, as under the walk, and a route with real anchors
 * (not every switch) still takes the walk.
 */
class LapsHopIndexedRouteTestCase : public TestCase
{
  public:
    LapsHopIndexedRouteTestCase()
        : TestCase("laps-source: a full switch list is followed hop by hop, as the walk")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<DcnGraphTopology> t = DcnTopologyPresets::Create("df-small", {}, "source");
        t->AssignStreams(9);
        const dcn::SwitchGraph& g = t->GetGraph();
        TopologyWalker w(t);
        const uint32_t src = 0;
        const uint32_t dst = g.FirstHost(8 * 4 + 1);
        std::vector<std::vector<uint16_t>> lists = {{13, 22}, {5}, {30, 2, 19}, {0, 35}, {8}, {33}};
        // both policies with the same streams (the same salts for the segments' picks)
        NodeContainer sw = t->GetAllSwitches();
        std::vector<Ptr<DcnSourceRouteForwardingPolicy>> pols;
        auto install = [&](bool laps) {
            pols.clear();
            for (uint32_t i = 0; i < sw.GetN(); ++i)
            {
                Ptr<DcnSourceRouteForwardingPolicy> pol;
                if (laps)
                {
                    pol = CreateObject<LapsSourceRouteForwardingPolicy>();
                }
                else
                {
                    pol = CreateObject<DcnSourceRouteForwardingPolicy>();
                }
                pol->Attach(sw.Get(i));
                t->GetRouting(sw.Get(i))->SetForwardingPolicy(pol);
                pol->AttachTopology(*t, i);
                pol->AssignStreams(100 + 4 * i);
                pols.push_back(pol);
            }
        };
        // hops routed by the anchor shortcut, over all switches
        auto shortcuts = [&]() {
            uint64_t n = 0;
            for (const auto& pol : pols)
            {
                n += pol->GetHopIndexedHops();
            }
            return n;
        };
        // the switch lists the walk of the "source" policy produces
        install(false);
        std::vector<std::vector<uint32_t>> walked;
        for (const auto& anchors : lists)
        {
            PacketWalk pw = w.Walk(src, dst, DcnMakeSourceRoutedPacket(77, anchors, 100));
            NS_TEST_ASSERT_MSG_EQ(pw.delivered, true, "source: delivered");
            walked.push_back(pw.switches);
        }
        // the same switches under laps-source
        install(true);
        uint32_t fullLists = 0;
        for (size_t k = 0; k < lists.size(); ++k)
        {
            // real anchors: the walk
            PacketWalk pw = w.Walk(src, dst, DcnMakeSourceRoutedPacket(77, lists[k], 100));
            NS_TEST_ASSERT_MSG_EQ(pw.delivered, true, "laps-source, anchors: delivered");
            NS_TEST_ASSERT_MSG_EQ((pw.switches == walked[k]), true, "anchors: as the walk");
            if (walked[k].size() > DcnSourceRoute::MAX)
            {
                continue;
            }
            ++fullLists;
            // every switch listed (hop-indexed)
            std::vector<uint16_t> full(walked[k].begin(), walked[k].end());
            const uint64_t before = shortcuts();
            pw = w.Walk(src, dst, DcnMakeSourceRoutedPacket(78, full, 100));
            NS_TEST_ASSERT_MSG_EQ(pw.delivered, true, "laps-source, full list: delivered");
            NS_TEST_ASSERT_MSG_EQ((pw.switches == walked[k]), true, "full list: exactly the route");
            NS_TEST_ASSERT_MSG_EQ(shortcuts() - before,
                                  walked[k].size() - 1,
                                  "full list: every switch but the last takes the shortcut");
        }
        NS_TEST_ASSERT_MSG_GT(fullLists, 1, "full lists of <= 8 switches tested");
        // after a routed failure and its restore (distances rebuilt) the walk decides
        const uint32_t link = t->FindLink("g0s1-g0s2");
        t->SetLinkRouted(link, false);
        t->SetLinkRouted(link, true);
        const uint64_t before = shortcuts();
        for (size_t k = 0; k < lists.size(); ++k)
        {
            if (walked[k].size() <= DcnSourceRoute::MAX)
            {
                std::vector<uint16_t> full(walked[k].begin(), walked[k].end());
                PacketWalk pw = w.Walk(src, dst, DcnMakeSourceRoutedPacket(78, full, 100));
                NS_TEST_ASSERT_MSG_EQ((pw.switches == walked[k]),
                                      true,
                                      "restored, full list: exactly the route");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(shortcuts(), before, "restored: no shortcut, the walk decides");
        Simulator::Destroy();
    }
};

class GraphRoutingTestSuite : public TestSuite
{
  public:
    GraphRoutingTestSuite()
        : TestSuite("dcn-lb-graph-routing", DCNLB_TEST_UNIT)
    {
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
        AddTestCase(new FatTreeValiantTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new GraphHashUniformTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new GraphUgalTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new GraphSourceRouteTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new LapsHopIndexedRouteTestCase, DCNLB_TEST_QUICK);
    }
};

static GraphRoutingTestSuite g_graphRoutingTestSuite;

} // namespace dcntest
} // namespace ns3
