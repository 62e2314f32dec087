/*
 * dcn-lb-spritz: Spritz source-guided routing on the real switches (spritz
 * spec 6.3), without a simulation: a packet's bytes (UDP source port = EV,
 * DcnHeader opcode, IPv4 TTL and ToS) are walked hop by hop through every
 * switch's DcnSwitchRouting table and DcnSpritzForwardingPolicy.
 *  - replay: for every entry of the endpoint EV list of sampled switch pairs on
 *    df-small and sf-small, the packet with that EV visits exactly the switches
 *    the enumeration predicts (and the worked example of spec 6.2 case 6);
 *  - ACK / NACK packets take the default (minimal) route whatever their EV;
 *  - coarse mode: a tagged packet leaves untagged, an untagged one is minimal;
 *  - the path selector: the EV it writes belongs to the pair's list, and Scout /
 *    Spray react to ACK / timeout feedback through the real EV mapping.
 */
#include "graph-topology-walk.h"

#include "ns3/config.h"
#include "ns3/dcn-graph-routing.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-spritz-info.h"
#include "ns3/flicr-path-selector.h"
#include "ns3/graph-topology-helper.h"
#include "ns3/path-selector.h"
#include "ns3/spritz-forwarding-policy.h"
#include "ns3/spritz-path-selector.h"
#include "ns3/string.h"
#include "ns3/test.h"

#include <map>
#include <set>

namespace ns3
{
namespace dcntest
{

namespace
{
/** UDP + DcnHeader opcode byte: DATA (0), ACK (1) or NACK (2). */
Ptr<Packet>
SpritzPacket(uint16_t ev, uint8_t opcode)
{
    std::vector<uint8_t> b(8 + 32, 0);
    b[0] = ev >> 8;
    b[1] = ev & 0xff;
    b[2] = 4791 >> 8;
    b[3] = 4791 & 0xff;
    b[8] = opcode;
    return Create<Packet>(b.data(), static_cast<uint32_t>(b.size()));
}
} // namespace

class SpritzReplayTestCase : public TestCase
{
  public:
    explicit SpritzReplayTestCase(std::string preset)
        : TestCase("spritz EV replay on " + preset),
          m_preset(preset)
    {
    }

  private:
    void DoRun() override
    {
        // ACKs on the static minimal table (spec 2.4 [A, ref-code]); the default is ev
        Config::SetDefault("ns3::DcnSpritzForwardingPolicy::ControlRoute", StringValue("default"));
        Ptr<DcnGraphTopology> t = DcnTopologyPresets::Create(m_preset, {}, "spritz");
        Config::SetDefault("ns3::DcnSpritzForwardingPolicy::ControlRoute", StringValue("ev"));
        t->AssignStreams(3);
        Ptr<DcnSpritzInfo> info = DcnSpritzInfo::Get(*t);
        NS_TEST_ASSERT_MSG_NE(info, nullptr, "spritz info");
        const dcn::SwitchGraph& g = t->GetGraph();
        const dcn::MinimalRouting& mr = t->GetMinimalRouting();
        TopologyWalker w(t);
        uint32_t checked = 0;
        for (uint32_t s = 0; s < g.NSwitches(); s += 5)
        {
            for (uint32_t d = 1; d < g.NSwitches(); d += 7)
            {
                if (s == d)
                {
                    continue;
                }
                const uint32_t hs = g.FirstHost(s);
                const uint32_t hd = g.FirstHost(d) + g.switches[d].nHosts - 1;
                const DcnSpritzPairPaths& pp = info->Paths(s, d);
                NS_TEST_ASSERT_MSG_GT(pp.Size(), 0u, "pair has paths");
                for (uint32_t i = 0; i < pp.Size(); ++i)
                {
                    dcn::GraphPath want = info->Tables().Replay(s, d, pp.evs[i]);
                    PacketWalk pw = w.Walk(hs, hd, SpritzPacket(pp.evs[i], 0));
                    NS_TEST_ASSERT_MSG_EQ(pw.delivered, true, "delivered");
                    NS_TEST_ASSERT_MSG_EQ((pw.switches == want.switches),
                                          true,
                                          "EV " << pp.evs[i] << " " << s << "->" << d
                                                << " took the enumerated path");
                    NS_TEST_ASSERT_MSG_EQ(
                        (pw.switches.size() - 1 <= (g.fam.family == "dragonfly" ? 5u : 4u)),
                        true,
                        "hop bound");
                    // the replay's classification is the list's (latency order)
                    NS_TEST_ASSERT_MSG_EQ(
                        static_cast<uint32_t>(std::llround(want.latencyNs * 1000)),
                        pp.latencyPs[i],
                        "latency");
                    ++checked;
                }
                // with ControlRoute=default, ACKs and NACKs with any EV take the default route
                for (uint8_t op : {uint8_t(1), uint8_t(2)})
                {
                    PacketWalk ack = w.Walk(hs, hd, SpritzPacket(pp.evs[pp.Size() - 1], op));
                    NS_TEST_ASSERT_MSG_EQ((ack.switches == mr.DefaultRoute(s, d)),
                                          true,
                                          "control packet on the default route");
                }
            }
        }
        NS_TEST_ASSERT_MSG_GT(checked, 100u, "entries replayed");
        if (m_preset == "df-small")
        {
            // spec 6.2 case 6: (EV1, EV2) -> switch path, from host 0 (switch 0) to switch 12
            struct Want
            {
                uint16_t ev;
                std::vector<uint32_t> path;
            };

            for (const Want& x : {Want{0x0000, {0, 1, 12}},
                                  Want{0x0300, {0, 4, 5, 12}},
                                  Want{0x0400, {0, 8, 9, 13, 12}},
                                  Want{0x0001, {0, 1, 16, 17, 13, 12}}})
            {
                PacketWalk pw = w.Walk(0, g.FirstHost(12), SpritzPacket(x.ev, 0));
                NS_TEST_ASSERT_MSG_EQ((pw.switches == x.path), true, "worked example EV " << x.ev);
            }
            // EV1 = 13 at an ECMP1 switch with |T1| = 5 (df-small inter-group): T1[3] -> 4
            PacketWalk pw = w.Walk(0, g.FirstHost(12), SpritzPacket(13 << 8, 0));
            NS_TEST_ASSERT_MSG_EQ(pw.switches[1], 4u, "EV1 modulo |T1|");
        }
    }

    std::string m_preset;
};

class SpritzControlEvTestCase : public TestCase
{
  public:
    SpritzControlEvTestCase()
        : TestCase("spritz ControlRoute=ev (the default): ACKs steered by the echoed EV from "
                   "the receiver")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<DcnGraphTopology> t = DcnTopologyPresets::Create("df-small", {}, "spritz");
        Ptr<DcnSpritzInfo> info = DcnSpritzInfo::Get(*t);
        const dcn::SwitchGraph& g = t->GetGraph();
        TopologyWalker w(t);
        uint32_t differs = 0;
        for (uint16_t ev = 0; ev < 0x0800; ev += 0x101)
        {
            // an ACK from a host of switch 12 back to host 0: EV routing from switch 12
            PacketWalk ack = w.Walk(g.FirstHost(12), 0, SpritzPacket(ev, 1));
            const dcn::GraphPath want = info->Tables().Replay(12, 0, ev);
            NS_TEST_ASSERT_MSG_EQ((ack.switches == want.switches), true, "ACK follows its EV");
            differs += ack.switches != t->GetMinimalRouting().DefaultRoute(12, 0);
        }
        NS_TEST_ASSERT_MSG_GT(differs, 0u, "not only the default route");
    }
};

/** valiant-t (spritz spec 4.2 Valiant; review s43 S5): per packet a uniform next hop over
 *  T1 at the source switch and T2 at the second, then minimal: every path walked is one of
 *  the pair's Spritz list, every T1 candidate is used about equally, and the minimal path
 *  is among them; "valiant" (one intermediate group uniformly) never takes the minimal
 *  path and uses the source switch's own global links less often. */
class ValiantTablesTestCase : public TestCase
{
  public:
    ValiantTablesTestCase()
        : TestCase("valiant-t: uniform over T1 / T2 per packet, then minimal")
    {
    }

  private:
    struct Mix
    {
        std::map<uint32_t, uint32_t> firstHop; //!< second switch of the path -> packets
        uint32_t minimal{0};
        uint32_t listed{0};
    };

    static Mix Walk(const std::string& routing, uint32_t packets)
    {
        Ptr<DcnGraphTopology> t = DcnTopologyPresets::Create("df-small", {}, routing);
        t->AssignStreams(3);
        Ptr<DcnSpritzInfo> info = DcnSpritzInfo::Get(*t);
        const dcn::SwitchGraph& g = t->GetGraph();
        const DcnSpritzPairPaths& pp = info->Paths(0, 12);
        std::set<std::vector<uint32_t>> listed;
        for (uint16_t ev : pp.evs)
        {
            listed.insert(info->Tables().Replay(0, 12, ev).switches);
        }
        TopologyWalker w(t);
        Mix m;
        for (uint32_t i = 0; i < packets; ++i)
        {
            PacketWalk pw = w.Walk(0, g.FirstHost(12), SpritzPacket(0, 0));
            if (!pw.delivered || pw.switches.size() < 2)
            {
                continue;
            }
            m.firstHop[pw.switches[1]]++;
            m.minimal += pw.switches == t->GetMinimalRouting().DefaultRoute(0, 12) ? 1 : 0;
            m.listed += listed.count(pw.switches) ? 1 : 0;
        }
        return m;
    }

    void DoRun() override
    {
        const uint32_t n = 6000;
        const Mix vt = Walk("valiant-t", n);
        Ptr<DcnGraphTopology> t = DcnTopologyPresets::Create("df-small", {}, "spritz");
        const std::vector<uint32_t>& t1 = DcnSpritzInfo::Get(*t)->Tables().T1(0, 12);
        NS_TEST_ASSERT_MSG_EQ(vt.listed, n, "every path is one of the pair's Spritz list");
        NS_TEST_ASSERT_MSG_EQ(vt.firstHop.size(), t1.size(), "every T1 candidate is used");
        for (const auto& [sw, count] : vt.firstHop)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(count * double(t1.size()) / n,
                                      1.0,
                                      0.15,
                                      "first hop to switch " << sw << " about 1 / |T1|");
        }
        NS_TEST_EXPECT_MSG_GT(vt.minimal, 0u, "the minimal path can be drawn");
        const Mix groups = Walk("valiant", n);
        NS_TEST_EXPECT_MSG_EQ(groups.minimal, 0u, "valiant (groups) always detours");
        NS_TEST_EXPECT_MSG_NE((groups.firstHop == vt.firstHop), true, "another mix");
    }
};

class SpritzCoarseTestCase : public TestCase
{
  public:
    SpritzCoarseTestCase()
        : TestCase("spritz coarse mode: the tag selects the table and is cleared")
    {
    }

  private:
    void DoRun() override
    {
        Config::SetDefault("ns3::DcnSpritzForwardingPolicy::Mode", StringValue("coarse"));
        Ptr<DcnGraphTopology> t = DcnTopologyPresets::Create("df-small", {}, "spritz");
        Config::SetDefault("ns3::DcnSpritzForwardingPolicy::Mode", StringValue("fine"));
        t->AssignStreams(3);
        const dcn::SwitchGraph& g = t->GetGraph();
        const dcn::MinimalRouting& mr = t->GetMinimalRouting();
        TopologyWalker w(t);
        uint32_t nonMinimal = 0;
        for (uint32_t d : {12u, 20u, 35u, 2u})
        {
            for (uint16_t ev = 0; ev < 64; ++ev)
            {
                // untagged: the default route at every hop
                PacketWalk u = w.Walk(0, g.FirstHost(d), SpritzPacket(ev, 0));
                NS_TEST_ASSERT_MSG_EQ((u.switches == mr.DefaultRoute(0, d)), true, "untagged");
            }
        }
        // the walker sends ToS 0: tagged packets go by hand through switch 0's policy
        Ptr<DcnSwitchRouting> r0 = t->GetRouting(t->GetAllSwitches().Get(0));
        for (uint16_t ev = 0; ev < 64; ++ev)
        {
            Ipv4Header h;
            h.SetSource(DcnAddressing::HostAddress(0));
            h.SetDestination(DcnAddressing::HostAddress(g.FirstHost(12)));
            h.SetProtocol(17);
            h.SetTtl(DcnAddressing::INITIAL_TTL);
            h.SetTos(2 << DcnSpritzForwardingPolicy::TOS_CATEGORY_SHIFT);
            Ptr<Packet> p = SpritzPacket(ev, 0);
            DcnForwardingContext ctx(p, h, 1, PeekPointer(r0));
            r0->GetCandidates(ctx.dstHost,
                              ctx.minimal,
                              ctx.nMinimal,
                              ctx.nonMinimal,
                              ctx.nNonMinimal,
                              ctx.dstKey);
            const uint32_t out = r0->GetForwardingPolicy()->Select(ctx);
            NS_TEST_ASSERT_MSG_NE(out, DcnForwardingContext::DROP, "routed");
            nonMinimal += out != ctx.minimal[0];
            // switch 0 -> 12: ECMP1 at 0; the tag is cleared here iff no ECMP2 hop follows
            const bool cleared =
                (ctx.GetHeader().GetTos() & DcnSpritzForwardingPolicy::TOS_CATEGORY_MASK) == 0;
            uint32_t next = dcn::NONE;
            for (uint32_t pi = 0; pi < g.Ports(0).size(); ++pi)
            {
                if (DcnSpritzInfo::Get(*t)->Iface(0, pi) == out)
                {
                    next = g.Ports(0)[pi].nbr;
                }
            }
            NS_TEST_ASSERT_MSG_NE(next, dcn::NONE, "egress is a switch port");
            const bool ecmp2Next =
                next != 12 &&
                DcnSpritzInfo::Get(*t)->Tables().Role(next, 0, 12, 1) == dcn::SpritzRole::ECMP2;
            NS_TEST_ASSERT_MSG_EQ(cleared, !ecmp2Next, "tag cleared at the last ECMP-role switch");
        }
        NS_TEST_ASSERT_MSG_GT(nonMinimal, 0u, "the ECMP table spreads tagged packets");
    }
};

class SpritzSelectorTestCase : public TestCase
{
  public:
    SpritzSelectorTestCase()
        : TestCase("spritz path selector: EVs from the pair's list, feedback by EV")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<DcnGraphTopology> t = DcnTopologyPresets::Create("df-small", {}, "spritz");
        for (const char* mode : {"scout", "spray"})
        {
            Ptr<DcnSpritzPathSelector> ps = CreateObject<DcnSpritzPathSelector>();
            ps->SetAttribute("Mode", StringValue(mode));
            ps->AssignStreams(11);
            PathSelectorSetup s;
            s.topology = t;
            s.srcHost = 0;
            s.dstHost = t->GetGraph().FirstHost(12);
            s.srcSwitch = 0;
            s.dstSwitch = 12;
            s.bdpPackets = 60;
            ps->Setup(s);
            const DcnSpritzPairPaths* pp = ps->GetPaths();
            NS_TEST_ASSERT_MSG_EQ(pp->Size(), 8u, "df-small 0->12 has 8 entries");
            for (int k = 0; k < 200; ++k)
            {
                PathChoice c = ps->Choose(SendContext{});
                NS_TEST_ASSERT_MSG_LT(ps->IndexOfEv(c.ev), pp->Size(), "EV from the list");
            }
            // a clean ACK for entry 2: Scout keeps sending it; Spray sends it once
            PathFeedback fb;
            fb.signal = FeedbackSignal::ACK;
            fb.path.ev = pp->evs[2];
            ps->OnFeedback(fb);
            uint32_t hits = 0;
            for (int k = 0; k < 10; ++k)
            {
                hits += ps->Choose(SendContext{}).ev == pp->evs[2];
            }
            if (std::string(mode) == "scout")
            {
                NS_TEST_ASSERT_MSG_GT(hits, 8u, "Scout reuses the good path");
            }
            // timeout on entry 2: weight 0
            fb.signal = FeedbackSignal::TIMEOUT;
            ps->OnFeedback(fb);
            NS_TEST_ASSERT_MSG_EQ(ps->GetCore().Weight(2), 0.0, "blocked by a timeout");
            NS_TEST_ASSERT_MSG_EQ(ps->GetCore().Contains(2), false, "not buffered");
        }
    }
};

class SpritzFlicrTestCase : public TestCase
{
  public:
    SpritzFlicrTestCase()
        : TestCase("flicr PathSource=spritz: one entry of the pair's Spritz EV list, moved on NACK")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<DcnGraphTopology> t = DcnTopologyPresets::Create("df-small", {}, "spritz");
        Ptr<DcnSpritzInfo> info = DcnSpritzInfo::Get(*t);
        const DcnSpritzPairPaths& pp = info->Paths(0, 12);
        // the cache keys on the exact WScale (review s43 S7: 3 and 259 shared a 16-bit key)
        const std::vector<double> w3 = pp.weighted;
        const DcnSpritzPairPaths& pp259 = info->Paths(0, 12, 259.0);
        NS_TEST_ASSERT_MSG_NE(&pp259, &pp, "another WScale, another entry");
        NS_TEST_ASSERT_MSG_EQ(pp259.Size(), pp.Size(), "the same EV list");
        NS_TEST_EXPECT_MSG_EQ((pp259.weighted != w3), true, "weighted by its own WScale");
        NS_TEST_EXPECT_MSG_EQ((pp.weighted == w3), true, "the first entry is left as it was");
        NS_TEST_EXPECT_MSG_EQ(&info->Paths(0, 12, 3.0), &pp, "the same scale, the same entry");
        Ptr<DcnFlicrPathSelector> ps = CreateObject<DcnFlicrPathSelector>();
        ps->SetAttribute("PathSource", StringValue("bogus"));
        NS_TEST_ASSERT_MSG_NE(ps->Validate().find("PathSource"),
                              std::string::npos,
                              "unknown PathSource refused");
        ps->SetAttribute("PathSource", StringValue("spritz"));
        NS_TEST_ASSERT_MSG_EQ(ps->Validate(), "", "spritz accepted");
        ps->AssignStreams(5);
        PathSelectorSetup s;
        s.topology = t;
        s.srcHost = 0;
        s.dstHost = t->GetGraph().FirstHost(12);
        s.srcSwitch = 0;
        s.dstSwitch = 12;
        s.bdpPackets = 60;
        ps->Setup(s);
        NS_TEST_ASSERT_MSG_EQ(ps->GetNumPaths(), pp.Size(), "one path per list entry");
        const uint16_t ev = ps->Choose(SendContext{}).ev;
        NS_TEST_ASSERT_MSG_LT(pp.Find(ev), pp.Size(), "EV from the Spritz list");
        for (int k = 0; k < 50; ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(ps->Choose(SendContext{}).ev, ev, "one path until feedback");
        }
        PathFeedback fb;
        fb.signal = FeedbackSignal::NACK;
        fb.path.ev = ev;
        ps->OnFeedback(fb);
        const uint16_t ev2 = ps->Choose(SendContext{}).ev;
        NS_TEST_ASSERT_MSG_NE(ev2, ev, "a NACK moves the flow");
        NS_TEST_ASSERT_MSG_LT(pp.Find(ev2), pp.Size(), "to another entry of the list");
        NS_TEST_ASSERT_MSG_EQ(ps->GetPathOfEv(ev2), static_cast<int32_t>(ps->GetPath()), "map");
    }
};

class SpritzRoutingTestSuite : public TestSuite
{
  public:
    SpritzRoutingTestSuite()
        : TestSuite("dcn-lb-spritz", DCNLB_TEST_UNIT)
    {
        AddTestCase(new SpritzReplayTestCase("df-small"), DCNLB_TEST_QUICK);
        AddTestCase(new SpritzReplayTestCase("sf-small"), DCNLB_TEST_QUICK);
        AddTestCase(new SpritzCoarseTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new SpritzControlEvTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new SpritzSelectorTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new SpritzFlicrTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new ValiantTablesTestCase, DCNLB_TEST_QUICK);
    }
};

static SpritzRoutingTestSuite g_spritzRoutingTestSuite;

} // namespace dcntest
} // namespace ns3
