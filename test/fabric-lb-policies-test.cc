/*
 * dcn-lb-fabric-lb-policies (issue 14): switch-side baselines on the
 * forwarding-policy seam - LetFlow flowlets, DRILL shortest queue, CONGA
 * feedback in real header bytes and congestion-aware flowlets; registration
 * by short name.
 */
#include "fabric-policy-test-net.h"

#include "ns3/conga-forwarding-policy.h"
#include "ns3/core-module.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-queue-disc.h"
#include "ns3/dcn-scheme.h"
#include "ns3/failure-helper.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/flowlet-drill-policies.h"
#include "ns3/graph-topology-helper.h"
#include "ns3/internet-module.h"
#include "ns3/test.h"
#include "ns3/traffic-control-module.h"

using namespace ns3;

namespace
{

/** IP payload (UDP header, 100 B) of a packet with source port \p ev. */
Ptr<Packet>
UdpPayload(uint16_t ev, uint32_t bytes = 100)
{
    Ptr<Packet> p = Create<Packet>(bytes);
    UdpHeader u;
    u.SetSourcePort(ev);
    u.SetDestinationPort(9);
    p->AddHeader(u);
    return p;
}

class LetflowTest : public TestCase
{
  public:
    LetflowTest()
        : TestCase("LetFlow keeps the port within a flowlet and re-picks only after a gap > "
                   "FlowletTimeout")
    {
    }

    void DoRun() override
    {
        Ptr<LetflowForwardingPolicy> pol = CreateObject<LetflowForwardingPolicy>();
        pol->SetAttribute("FlowletTimeout", TimeValue(MicroSeconds(50)));
        pol->AssignStreams(3);
        static const uint32_t cands[8] = {11, 12, 13, 14, 15, 16, 17, 18};
        Ptr<Packet> p = UdpPayload(777);
        Ipv4Header h;
        h.SetSource(Ipv4Address("10.0.0.1"));
        h.SetDestination(Ipv4Address("10.0.0.9"));
        h.SetProtocol(17);
        std::vector<std::pair<Time, uint32_t>> out;
        auto send = [&]() {
            DcnForwardingContext ctx(p, h, 1, nullptr);
            ctx.minimal = cands;
            ctx.nMinimal = 8;
            out.emplace_back(Simulator::Now(), pol->Select(ctx));
        };
        // 20 flowlets: 10 packets 10 us apart (inside the timeout), then a gap of
        // exactly 50 us (not a new flowlet), 9 more, then a gap of 51 us.
        Time t = MicroSeconds(1);
        for (int f = 0; f < 20; ++f)
        {
            for (int i = 0; i < 10; ++i)
            {
                Simulator::Schedule(t, send);
                t += MicroSeconds(10);
            }
            t += MicroSeconds(40); // 10 + 40 = 50 us gap: same flowlet
            for (int i = 0; i < 9; ++i)
            {
                Simulator::Schedule(t, send);
                t += MicroSeconds(10);
            }
            t += MicroSeconds(41); // 10 + 41 = 51 us gap: new flowlet
        }
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(out.size(), 20u * 19, "all packets");
        uint32_t changes = 0;
        bool within = true;
        for (size_t i = 1; i < out.size(); ++i)
        {
            bool newFlowlet = (i % 19) == 0;
            if (!newFlowlet)
            {
                within = within && out[i].second == out[i - 1].second;
            }
            else if (out[i].second != out[i - 1].second)
            {
                ++changes;
            }
        }
        NS_TEST_EXPECT_MSG_EQ(within, true, "same port within a flowlet (gap <= timeout)");
        NS_TEST_EXPECT_MSG_EQ(pol->GetFlowlets(), 20, "one flowlet per gap > timeout");
        NS_TEST_EXPECT_MSG_GT(changes, 10, "new flowlets re-pick at random among 8 ports");
    }
};

class DrillTest : public TestCase
{
  public:
    DrillTest()
        : TestCase("DRILL sends every packet to the shorter of two egress queues (crafted)")
    {
    }

    void DoRun() override
    {
        Ptr<FatTreeHelper> ft = BuildPolicyLeafSpine("drill", 2, 2, 2);
        Ptr<DcnSwitchRouting> r = ft->GetRouting(ft->GetSwitches(0).Get(0));
        NS_TEST_ASSERT_MSG_NE(DynamicCast<DrillForwardingPolicy>(r->GetForwardingPolicy()),
                              nullptr,
                              "short name 'drill' installs DcnDrillForwardingPolicy");
        const DcnLinkInfo& u0 = ft->GetLink(ft->GetTorUplink(0, 0));
        const DcnLinkInfo& u1 = ft->GetLink(ft->GetTorUplink(0, 1));
        Ptr<DcnQueueDisc> q0 = ft->GetQueueDisc(u0.devA);
        Ptr<DcnQueueDisc> q1 = ft->GetQueueDisc(u1.devA);
        q0->Initialize(); // (no simulation runs: the queues are filled by hand)
        q1->Initialize();
        const uint32_t inIf = ft->GetLink(0).ifB; // host 0's port at ToR 0
        Ipv4Header h = PolicyTestIpHeader(ft, 0, 2);
        for (int phase = 0; phase < 2; ++phase)
        {
            Ptr<DcnQueueDisc> fill = phase == 0 ? q0 : q1;
            for (int i = 0; i < 5 + 10 * phase; ++i)
            {
                Ipv4Header ih = h;
                ih.SetPayloadSize(1000);
                fill->Enqueue(Create<Ipv4QueueDiscItem>(UdpPayload(1, 1000), Address(), 0x800, ih));
            }
            const uint32_t want = phase == 0 ? u1.ifA : u0.ifA;
            uint32_t ok = 0;
            for (uint16_t ev = 0; ev < 200; ++ev)
            {
                ok += r->Lookup(UdpPayload(ev), h, inIf) == want ? 1 : 0;
            }
            NS_TEST_EXPECT_MSG_EQ(ok, 200, "phase " << phase << ": the shorter queue always");
        }
        Simulator::Destroy();
    }
};

/** CONGA on a 2-leaf, 2-spine fabric whose spine0 - leaf1 link is a 10 Gb/s link. */
class CongaTest : public TestCase
{
  public:
    CongaTest()
        : TestCase("CONGA: feedback reaches the source leaf in IPv4 header bytes; new flowlets "
                   "avoid the congested spine path")
    {
    }

    uint32_t m_overlayFb{0}; //!< packets at host 0 carrying feedback bits
    uint32_t m_fbBadPath{0}; //!< ... about uplink 0 with a high metric
    Ptr<FatTreeHelper> m_ft;

    void HostRx(Ptr<const Packet> p, Ptr<Ipv4> ipv4, uint32_t iface)
    {
        Ipv4Header h;
        p->PeekHeader(h);
        uint16_t id = h.GetIdentification();
        if ((id & CongaForwardingPolicy::OVERLAY_BIT) == 0)
        {
            return;
        }
        lbcore::CongaTag t = lbcore::CongaTag::Unpack(id);
        if (t.fbValid)
        {
            ++m_overlayFb;
            m_fbBadPath += (t.fbLbTag == 0 && t.fbMetric >= 4) ? 1 : 0;
        }
    }

    void DoRun() override
    {
        RngSeedManager::SetSeed(5);
        // tor1-spine0 built at 10 Gb/s (DREs are normalised by the built link rate).
        m_ft = BuildPolicyLeafSpine("conga", 2, 2, 2, "10Gbps");
        Ptr<FatTreeHelper> ft = m_ft;
        Ptr<CongaForwardingPolicy> tor0 = DynamicCast<CongaForwardingPolicy>(
            ft->GetRouting(ft->GetSwitches(0).Get(0))->GetForwardingPolicy());
        NS_TEST_ASSERT_MSG_NE(tor0, nullptr, "short name 'conga' installs it");
        NS_TEST_EXPECT_MSG_EQ(int(tor0->GetRole()), int(CongaForwardingPolicy::LEAF), "leaf");
        const uint32_t up0 = ft->GetLink(ft->GetTorUplink(0, 0)).ifA;
        const uint32_t up1 = ft->GetLink(ft->GetTorUplink(0, 1)).ifA;
        NS_TEST_EXPECT_MSG_EQ(tor0->GetUplinkOfIf(up1), 1, "uplink order = spine order");
        ft->GetHosts().Get(0)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "Rx",
            MakeCallback(&CongaTest::HostRx, this));
        // 16 flows host0 -> host2 (1000 B every 1.6 us each: 80 Gb/s), reverse 64 B; at 200 us
        // (DRE of the 10G port near 0.7 after 12 periods) 100 new flowlets are looked up.
        auto send = [ft](uint32_t s, uint32_t d, uint16_t ev, uint32_t bytes) {
            Ptr<Node> n = ft->GetHosts().Get(s);
            n->GetObject<Ipv4L3Protocol>()->Send(UdpPayload(ev, bytes),
                                                 ft->GetHostAddress(s),
                                                 ft->GetHostAddress(d),
                                                 17,
                                                 nullptr);
        };
        for (Time t = MicroSeconds(1); t < MicroSeconds(250); t += NanoSeconds(100))
        {
            uint32_t k = static_cast<uint32_t>(t.GetNanoSeconds() / 100) % 16;
            Simulator::Schedule(t,
                                [send, k]() { send(0, 2, static_cast<uint16_t>(5000 + k), 1000); });
            if (k % 10 == 0)
            {
                Simulator::Schedule(t, [send, k]() {
                    send(2, 0, static_cast<uint16_t>(6000 + k), 64);
                });
            }
        }
        uint32_t toSpine1 = 0;
        uint8_t bad = 0;
        uint8_t good = 0;
        Simulator::Schedule(MicroSeconds(200), [&]() {
            int64_t now = Simulator::Now().GetNanoSeconds();
            bad = tor0->GetCore().GetCongestionToLeaf(1, 0, now);
            good = tor0->GetCore().GetCongestionToLeaf(1, 1, now);
            Ptr<DcnSwitchRouting> r = ft->GetRouting(ft->GetSwitches(0).Get(0));
            Ipv4Header h = PolicyTestIpHeader(ft, 1, 3);
            for (uint16_t ev = 0; ev < 100; ++ev) // 100 new flowlets host1 -> host3
            {
                uint32_t o = r->Lookup(UdpPayload(30000 + ev), h, ft->GetLink(1).ifB);
                toSpine1 += o == up1 ? 1 : 0;
                NS_ASSERT(o == up0 || o == up1);
            }
        });
        Simulator::Stop(MicroSeconds(260));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_GT(tor0->GetFeedbackReceived(), 0, "feedback read at the source leaf");
        NS_TEST_EXPECT_MSG_GT(m_overlayFb, 0, "feedback bits in the IPv4 header on the wire");
        NS_TEST_EXPECT_MSG_GT(m_fbBadPath, 0, "feedback names uplink 0 as congested");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(uint32_t(bad), 4, "Congestion-To-Leaf[leaf1][spine0] high");
        NS_TEST_EXPECT_MSG_LT(uint32_t(good), uint32_t(bad), "spine1 path less congested");
        NS_TEST_EXPECT_MSG_EQ(toSpine1, 100, "every new flowlet avoids the congested path");
        Simulator::Destroy();
    }
};

/**
 * CONGA generalised (AnyTopology=true) on a 4-host Rail (2 clusters x 2 rails):
 * nic0_0 reaches host 3 (nic1_1) over nvl0 -> nic0_1 -> rail1 or over rail0 ->
 * nic1_0 -> nvl1.  Host 1 loads rail1 (host 1 -> host 3 at 80 Gb/s); the feedback of
 * nic1_1 must steer host 0's new flowlets to rail0.
 */
class CongaAnyTopologyTest : public TestCase
{
  public:
    CongaAnyTopologyTest()
        : TestCase("CONGA AnyTopology on a 4-host Rail: refused without it; roles; new flowlets "
                   "avoid the loaded rail through feedback from the destination's switch")
    {
    }

    void DoRun() override
    {
        RngSeedManager::SetSeed(5);
        const std::map<std::string, std::string> small{{"clusters", "2"}, {"rails", "2"}};
        Ptr<DcnGraphTopology> t = DcnTopologyPresets::Create("laps-rail", small);
        // the check the examples run before their first simulation says the same
        const std::string before = DcnSchemeRegistry::CheckSwitchPolicy("conga", *t);
        NS_TEST_EXPECT_MSG_EQ(DcnSchemeRegistry::HasSwitchPolicy("conga"), true, "own policy");
        NS_TEST_EXPECT_MSG_EQ(DcnSchemeRegistry::HasSwitchPolicy("ops"), false, "host-side");
        NS_TEST_EXPECT_MSG_EQ(DcnSchemeRegistry::CheckSwitchPolicy("ops", *t), "", "own routing");
        std::string err = DcnSchemeRegistry::InstallSwitchPolicy("conga", t, 100);
        std::clog << "refusal: " << err << "\n";
        NS_TEST_EXPECT_MSG_EQ(before, err, "CheckSwitchPolicy = InstallSwitchPolicy's refusal");
        NS_TEST_EXPECT_MSG_NE(err.find("AnyTopology=true"), std::string::npos, err);
        NS_TEST_EXPECT_MSG_EQ(err.find('\n'), std::string::npos, "one line");
        Simulator::Destroy();

        Config::SetDefault("ns3::DcnCongaForwardingPolicy::AnyTopology", BooleanValue(true));
        Ptr<DcnGraphTopology> df = DcnTopologyPresets::Create("laps-df");
        NS_TEST_EXPECT_MSG_EQ(CreateObject<CongaForwardingPolicy>()->CheckTopology(*df),
                              "",
                              "a Dragonfly accepted");
        Simulator::Destroy();
        t = DcnTopologyPresets::Create("laps-rail", small);
        err = DcnSchemeRegistry::InstallSwitchPolicy("conga", t, 100);
        Config::SetDefault("ns3::DcnCongaForwardingPolicy::AnyTopology", BooleanValue(false));
        NS_TEST_ASSERT_MSG_EQ(err, "", "installed");
        // links 0 nic0_0-nvl0, 1 nic0_0-rail0, 3 nic0_1-rail1, 7 nic1_1-rail1, 8 h0-nic0_0
        NS_TEST_ASSERT_MSG_EQ(t->GetLink(1).name, "nic0_0-rail0", "link order");
        Ptr<Node> nic00 = t->GetLink(0).a;
        auto pol = [&t](Ptr<Node> n) {
            return DynamicCast<CongaForwardingPolicy>(t->GetRouting(n)->GetForwardingPolicy());
        };
        Ptr<CongaForwardingPolicy> src = pol(nic00);
        NS_TEST_ASSERT_MSG_NE(src, nullptr, "conga on nic0_0");
        NS_TEST_EXPECT_MSG_EQ(int(src->GetRole()), int(CongaForwardingPolicy::LEAF), "NIC: leaf");
        NS_TEST_EXPECT_MSG_EQ(int(pol(t->GetLink(0).b)->GetRole()),
                              int(CongaForwardingPolicy::SPINE),
                              "NVLink switch: transit");
        NS_TEST_EXPECT_MSG_EQ(int(pol(t->GetLink(1).b)->GetRole()),
                              int(CongaForwardingPolicy::SPINE),
                              "rail switch: transit");
        const uint32_t toNvl = t->GetLink(0).ifA;
        const uint32_t toRail = t->GetLink(1).ifA;
        const uint32_t fromHost = t->GetLink(8).ifB;
        NS_TEST_EXPECT_MSG_EQ(src->GetUplinkOfIf(fromHost), 0xffff, "host port: no uplink");

        auto send = [t](uint32_t s, uint32_t d, uint16_t ev, uint32_t bytes) {
            Ptr<Node> n = t->GetHosts().Get(s);
            n->GetObject<Ipv4L3Protocol>()->Send(UdpPayload(ev, bytes),
                                                 t->GetHostAddress(s),
                                                 t->GetHostAddress(d),
                                                 17,
                                                 nullptr);
        };
        for (Time x = MicroSeconds(1); x < MicroSeconds(250); x += NanoSeconds(100))
        {
            const uint32_t k = static_cast<uint32_t>(x.GetNanoSeconds() / 100);
            // host 1 -> host 3 over rail1: 1000 B every 100 ns (80 Gb/s)
            Simulator::Schedule(x, [send, k]() { send(1, 3, uint16_t(7000 + k % 8), 1000); });
            if (k % 40 == 0) // host 0 -> host 3: 16 flows on both paths, 2 Gb/s (local DREs 0)
            {
                Simulator::Schedule(x, [send, k]() {
                    send(0, 3, uint16_t(5000 + k / 40 % 16), 1000);
                });
            }
            if (k % 10 == 0) // host 3 -> host 0: carries nic1_1's feedback
            {
                Simulator::Schedule(x, [send, k]() { send(3, 0, uint16_t(6000 + k % 16), 64); });
            }
        }
        uint32_t viaRail0 = 0;
        uint32_t other = 0;
        uint8_t viaNvlMetric = 0;
        uint8_t viaRailMetric = 0;
        Simulator::Schedule(MicroSeconds(200), [&]() {
            const int64_t now = Simulator::Now().GetNanoSeconds();
            const uint16_t dstLeaf = pol(t->GetLink(7).a)->GetLeafIndex(); // nic1_1
            viaNvlMetric =
                src->GetCore().GetCongestionToLeaf(dstLeaf, src->GetUplinkOfIf(toNvl), now);
            viaRailMetric =
                src->GetCore().GetCongestionToLeaf(dstLeaf, src->GetUplinkOfIf(toRail), now);
            Ptr<DcnSwitchRouting> r = t->GetRouting(nic00);
            Ipv4Header h;
            h.SetSource(t->GetHostAddress(0));
            h.SetDestination(t->GetHostAddress(3));
            h.SetProtocol(17);
            h.SetTtl(63);
            for (uint16_t ev = 0; ev < 100; ++ev) // 100 new flowlets host 0 -> host 3
            {
                const uint32_t o = r->Lookup(UdpPayload(30000 + ev), h, fromHost);
                viaRail0 += o == toRail ? 1 : 0;
                other += (o != toRail && o != toNvl) ? 1 : 0;
            }
        });
        Simulator::Stop(MicroSeconds(260));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_GT(src->GetFeedbackReceived(), 0, "feedback read at nic0_0");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(uint32_t(viaNvlMetric), 4, "the rail1 path reads congested");
        NS_TEST_EXPECT_MSG_LT(uint32_t(viaRailMetric), uint32_t(viaNvlMetric), "rail0 path less");
        NS_TEST_EXPECT_MSG_EQ(other, 0, "only the two minimal next hops");
        NS_TEST_EXPECT_MSG_EQ(viaRail0, 100, "every new flowlet avoids the loaded rail1 path");
        Simulator::Destroy();
    }
};

class CongaRefusalTest : public TestCase
{
  public:
    CongaRefusalTest()
        : TestCase("CONGA refuses a 3-tier fat tree with one line; short names resolve")
    {
    }

    void DoRun() override
    {
        Ptr<FatTreeHelper> ft = FatTreeHelper::ThreeTier(2, 2, 1, 2, 1);
        ft->Build();
        std::string e = CreateObject<CongaForwardingPolicy>()->CheckTopology(*ft);
        NS_TEST_EXPECT_MSG_NE(e.find("2-tier"), std::string::npos, e);
        NS_TEST_EXPECT_MSG_NE(e.find("3 switch tiers"), std::string::npos, e);
        NS_TEST_EXPECT_MSG_EQ(e.find('\n'), std::string::npos, "one line");
        Ptr<FatTreeHelper> two = BuildPolicyLeafSpine("ecmp", 2, 1, 2);
        NS_TEST_EXPECT_MSG_EQ(CreateObject<CongaForwardingPolicy>()->CheckTopology(*two),
                              "",
                              "leaf-spine accepted");
        for (const auto& n : DcnForwardingPolicyShortNames())
        {
            TypeId tid;
            NS_TEST_EXPECT_MSG_EQ(
                TypeId::LookupByNameFailSafe(DcnForwardingPolicyTypeName(n), &tid),
                true,
                n << " registered");
        }
        NS_TEST_EXPECT_MSG_EQ(DcnForwardingPolicyTypeName("nope"), "", "unknown name");
        Simulator::Destroy();
    }
};

/** Interface of switch \p sw facing host \p host. */
uint32_t
HostIfaceOf(Ptr<FatTreeHelper> ft, Ptr<Node> sw, uint32_t host)
{
    Ptr<Node> h = ft->GetHosts().Get(host);
    for (uint32_t l : ft->GetLinksOfNode(sw))
    {
        const DcnLinkInfo& li = ft->GetLink(l);
        if (li.a == h || li.b == h)
        {
            return li.a == sw ? li.ifA : li.ifB;
        }
    }
    return 0;
}

/**
 * Review B2: after tor0-spine0 is withdrawn, CONGA (published mode) chooses only among
 * the remaining uplinks by their metrics; before, the dead uplink (metric 0) won and the
 * flowlet was sent by a hash.
 */
class CongaWithdrawnUplinkTest : public TestCase
{
  public:
    CongaWithdrawnUplinkTest()
        : TestCase("CONGA after a withdrawn uplink: new flowlets take the least congested of the "
                   "remaining uplinks, none is hashed")
    {
    }

    void DoRun() override
    {
        RngSeedManager::SetSeed(5);
        Ptr<FatTreeHelper> ft = BuildPolicyLeafSpine("conga", 2, 2, 3);
        Ptr<Node> sw0 = ft->GetSwitches(0).Get(0);
        Ptr<CongaForwardingPolicy> tor0 =
            DynamicCast<CongaForwardingPolicy>(ft->GetRouting(sw0)->GetForwardingPolicy());
        NS_TEST_ASSERT_MSG_NE(tor0, nullptr, "conga installed");
        Ptr<FailureHelper> fh = CreateObject<FailureHelper>(ft);
        fh->FailLink(ft->GetTorUplink(0, 0), MicroSeconds(1), Time(0));
        const uint32_t up1 = ft->GetLink(ft->GetTorUplink(0, 1)).ifA;
        const uint32_t up2 = ft->GetLink(ft->GetTorUplink(0, 2)).ifA;
        const uint32_t inIf = HostIfaceOf(ft, sw0, 1);
        uint32_t toUp1 = 0;
        uint32_t toUp2 = 0;
        uint32_t other = 0;
        Simulator::Schedule(MicroSeconds(10), [&]() {
            const int64_t now = Simulator::Now().GetNanoSeconds();
            lbcore::CongaTag fb; // leaf1 fed back: uplink 1 at 5, uplink 2 at 3
            fb.fbValid = true;
            fb.fbLbTag = 1;
            fb.fbMetric = 5;
            tor0->GetCore().OnArrival(1, fb, now);
            fb.fbLbTag = 2;
            fb.fbMetric = 3;
            tor0->GetCore().OnArrival(1, fb, now);
            Ptr<DcnSwitchRouting> r = ft->GetRouting(sw0);
            Ipv4Header h = PolicyTestIpHeader(ft, 1, 3);
            for (uint16_t ev = 0; ev < 100; ++ev)
            {
                const uint32_t o = r->Lookup(UdpPayload(30000 + ev), h, inIf);
                toUp1 += o == up1 ? 1 : 0;
                toUp2 += o == up2 ? 1 : 0;
                other += o != up1 && o != up2 ? 1 : 0;
            }
        });
        Simulator::Stop(MicroSeconds(20));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(other, 0, "never the withdrawn uplink");
        NS_TEST_EXPECT_MSG_EQ(toUp2, 100, "every new flowlet takes the less congested live uplink");
        NS_TEST_EXPECT_MSG_EQ(toUp1, 0, "none hashed onto the congested one");
        Simulator::Destroy();
    }
};

/**
 * Review B3: CONGA's transmit hooks (raw `this`) are removed when another switch policy
 * replaces it; before, the replaced policy kept being called at every dequeue.
 */
class CongaHooksRemovedTest : public TestCase
{
  public:
    CongaHooksRemovedTest()
        : TestCase("CONGA replaced by DRILL: its transmit hooks are removed, it is no longer "
                   "called, DRILL forwards")
    {
    }

    void DoRun() override
    {
        Ptr<FatTreeHelper> ft = BuildPolicyLeafSpine("conga", 2, 2, 2);
        Ptr<Node> sw0 = ft->GetSwitches(0).Get(0);
        Ptr<CongaForwardingPolicy> old =
            DynamicCast<CongaForwardingPolicy>(ft->GetRouting(sw0)->GetForwardingPolicy());
        NS_TEST_ASSERT_MSG_NE(old, nullptr, "conga installed");
        const uint32_t l0 = ft->GetTorUplink(0, 0);
        Ptr<DcnQueueDisc> q0 = ft->GetQueueDisc(ft->GetLink(l0).devA);
        NS_TEST_ASSERT_MSG_NE(q0, nullptr, "uplink queue disc");
        NS_TEST_EXPECT_MSG_EQ(q0->GetTransmitHook().IsNull(), false, "conga hooked it");
        NS_TEST_ASSERT_MSG_EQ(DcnSchemeRegistry::InstallSwitchPolicy("drill", ft, 100),
                              "",
                              "drill");
        NS_TEST_EXPECT_MSG_EQ(old->GetHookedQueues(), 0, "the replaced policy let go");
        for (const DcnLinkInfo& li : ft->GetLinks())
        {
            for (auto dev : {li.devA, li.devB})
            {
                Ptr<DcnQueueDisc> q = ft->GetQueueDisc(dev);
                NS_TEST_EXPECT_MSG_EQ(q && !q->GetTransmitHook().IsNull(), false, "no hook left");
            }
        }
        // traffic host0 -> host2 and back: the old (still referenced) policy sees nothing
        uint32_t rx = 0;
        ft->GetHosts().Get(2)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "Rx",
            Callback<void, Ptr<const Packet>, Ptr<Ipv4>, uint32_t>(
                [&rx](Ptr<const Packet>, Ptr<Ipv4>, uint32_t) { ++rx; }));
        for (int i = 0; i < 50; ++i)
        {
            Simulator::Schedule(MicroSeconds(1 + i), [ft, i]() {
                ft->GetHosts().Get(0)->GetObject<Ipv4L3Protocol>()->Send(
                    UdpPayload(static_cast<uint16_t>(5000 + i), 1000),
                    ft->GetHostAddress(0),
                    ft->GetHostAddress(2),
                    17,
                    nullptr);
            });
        }
        Simulator::Stop(MicroSeconds(200));
        Simulator::Run();
        const int64_t now = Simulator::Now().GetNanoSeconds();
        NS_TEST_EXPECT_MSG_EQ(rx, 50, "DRILL delivers every packet");
        NS_TEST_EXPECT_MSG_EQ(old->GetCore().GetDre(0).Utilisation(now) +
                                  old->GetCore().GetDre(1).Utilisation(now),
                              0.0,
                              "the replaced CONGA is never called");
        Simulator::Destroy();
    }
};

/** Review B7: a LetFlow TableSize that is not a power of two is rounded up (as ConWeave's). */
class LetflowTableSizeTest : public TestCase
{
  public:
    LetflowTableSizeTest()
        : TestCase("LetFlow TableSize=50000 is rounded up to 65536 instead of aborting")
    {
    }

    void DoRun() override
    {
        Ptr<LetflowForwardingPolicy> pol = CreateObject<LetflowForwardingPolicy>();
        pol->SetAttribute("TableSize", UintegerValue(50000));
        pol->AssignStreams(3);
        static const uint32_t cands[2] = {11, 12};
        Ptr<Packet> p = UdpPayload(777);
        Ipv4Header h;
        h.SetSource(Ipv4Address("10.0.0.1"));
        h.SetDestination(Ipv4Address("10.0.0.9"));
        h.SetProtocol(17);
        DcnForwardingContext ctx(p, h, 1, nullptr);
        ctx.minimal = cands;
        ctx.nMinimal = 2;
        const uint32_t out = pol->Select(ctx);
        NS_TEST_EXPECT_MSG_EQ((out == 11 || out == 12), true, "a candidate");
        NS_TEST_EXPECT_MSG_EQ(pol->GetTableSize(), 65536, "rounded up to a power of two");
        Simulator::Destroy();
    }
};

/** Every policy delivers a UDP permutation on a 4 x 4 x 4 leaf-spine (light load). */
class DeliveryTest : public TestCase
{
  public:
    DeliveryTest()
        : TestCase(
              "letflow, drill and conga deliver every packet of a permutation (every leaf sends "
              "and receives) on a 16-host leaf-spine")
    {
    }

    std::vector<uint32_t> m_rx;

    void Recv(uint32_t dst, Ptr<Socket> s)
    {
        while (s->Recv())
        {
            ++m_rx[dst];
        }
    }

    void DoRun() override
    {
        for (const char* pol : {"letflow", "drill", "conga"})
        {
            Ptr<FatTreeHelper> ft = BuildPolicyLeafSpine(pol, 4, 4, 4);
            const uint32_t n = ft->GetNHosts();
            m_rx.assign(n, 0);
            std::vector<Ptr<Socket>> socks;
            for (uint32_t i = 0; i < n; ++i)
            {
                Ptr<Socket> sk =
                    Socket::CreateSocket(ft->GetHosts().Get(i), UdpSocketFactory::GetTypeId());
                sk->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
                sk->SetRecvCallback(MakeCallback(&DeliveryTest::Recv, this).Bind(i));
                socks.push_back(sk);
            }
            for (uint32_t i = 0; i < n; ++i)
            {
                const uint32_t d = (i + 5) % n; // crosses ToRs
                Ptr<Node> node = ft->GetHosts().Get(i);
                Ipv4Address sa = ft->GetHostAddress(i);
                Ipv4Address da = ft->GetHostAddress(d);
                for (uint32_t k = 0; k < 200; ++k)
                {
                    Simulator::Schedule(NanoSeconds(1000 + 500 * k + 7 * i), [node, sa, da, k]() {
                        node->GetObject<Ipv4L3Protocol>()->Send(
                            UdpPayload(static_cast<uint16_t>(40000 + k % 32), 1000),
                            sa,
                            da,
                            17,
                            nullptr);
                    });
                }
            }
            Simulator::Stop(MicroSeconds(400));
            Simulator::Run();
            uint32_t got = 0;
            for (uint32_t v : m_rx)
            {
                got += v;
            }
            NS_TEST_EXPECT_MSG_EQ(got, 200 * n, pol << ": every packet delivered");
            if (std::string(pol) == "conga")
            {
                uint64_t fb = 0;
                for (uint32_t t = 0; t < 4; ++t)
                {
                    fb += DynamicCast<CongaForwardingPolicy>(
                              ft->GetRouting(ft->GetSwitches(0).Get(t))->GetForwardingPolicy())
                              ->GetFeedbackReceived();
                }
                NS_TEST_EXPECT_MSG_GT(fb, 0, "conga: feedback flows between leaves");
            }
            Simulator::Destroy();
        }
    }
};

class FabricLbPoliciesSuite : public TestSuite
{
  public:
    FabricLbPoliciesSuite()
        : TestSuite("dcn-lb-fabric-lb-policies", DCNLB_TEST_UNIT)
    {
        AddTestCase(new LetflowTest(), DCNLB_TEST_QUICK);
        AddTestCase(new DrillTest(), DCNLB_TEST_QUICK);
        AddTestCase(new CongaTest(), DCNLB_TEST_QUICK);
        AddTestCase(new CongaRefusalTest(), DCNLB_TEST_QUICK);
        AddTestCase(new CongaAnyTopologyTest(), DCNLB_TEST_QUICK);
        AddTestCase(new DeliveryTest(), DCNLB_TEST_QUICK);
        AddTestCase(new CongaWithdrawnUplinkTest(), DCNLB_TEST_QUICK);
        AddTestCase(new CongaHooksRemovedTest(), DCNLB_TEST_QUICK);
        AddTestCase(new LetflowTableSizeTest(), DCNLB_TEST_QUICK);
    }
};

FabricLbPoliciesSuite g_fabricLbPoliciesSuite;

} // namespace
