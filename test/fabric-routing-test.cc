/*
 * dcn-lb-fabric-routing: reachability, path lengths, ECMP hashing quality,
 * salts vs polarisation, and equivalence with ns-3's global routing.
 */
#include "ns3/config.h"
#include "ns3/core-module.h"
#include "ns3/dcn-header.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/forwarding-policy.h"
#include "ns3/internet-module.h"
#include "ns3/test.h"

#include <map>
#include <set>

using namespace ns3;

namespace
{

/** Follow the routing decisions hop by hop; returns links traversed (99 = loop/drop). */
uint32_t
WalkPath(Ptr<FatTreeHelper> ft,
         uint32_t s,
         uint32_t d,
         uint16_t sport,
         std::vector<Ptr<Node>>* nodes)
{
    Ptr<Packet> p = Create<Packet>(64);
    UdpHeader u;
    u.SetSourcePort(sport);
    u.SetDestinationPort(4791);
    p->AddHeader(u);
    Ipv4Header h;
    h.SetSource(ft->GetHostAddress(s));
    h.SetDestination(ft->GetHostAddress(d));
    h.SetProtocol(17);
    Ptr<Node> n = ft->GetHosts().Get(s);
    uint32_t inIf = 0;
    for (uint32_t hops = 0; hops < 16; ++hops)
    {
        if (nodes)
        {
            nodes->push_back(n);
        }
        uint32_t out = ft->GetRouting(n)->Lookup(p, h, inIf);
        if (out == 0)
        {
            return n == ft->GetHosts().Get(d) ? hops : 99;
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
    }
    return 99;
}

/** Every pair reachable over a shortest path, for many EVs; every path is one of GetPathLinks. */
class ReachabilityTest : public TestCase
{
  public:
    ReachabilityTest()
        : TestCase("every host pair reachable over shortest paths, no loops (2 and 3 tiers)")
    {
    }

    void Check(Ptr<FatTreeHelper> ft, const std::string& name)
    {
        ft->Build();
        ft->AssignStreams(1);
        uint32_t n = ft->GetNHosts();
        uint32_t bad = 0;
        for (uint32_t s = 0; s < n; ++s)
        {
            for (uint32_t d = 0; d < n; ++d)
            {
                if (s == d)
                {
                    continue;
                }
                std::set<Ptr<Node>> tiers1;
                for (uint16_t ev = 1000; ev < 1008; ++ev)
                {
                    uint32_t hops = WalkPath(ft, s, d, ev, nullptr);
                    if (hops != ft->GetHopCount(s, d))
                    {
                        ++bad;
                    }
                }
            }
        }
        NS_TEST_EXPECT_MSG_EQ(bad, 0, name << ": walks with wrong length or loops");
        // Path-set sanity: hop counts and path counts.
        NS_TEST_EXPECT_MSG_EQ(ft->GetPathLinks(0, n - 1).size(), ft->CountPaths(0, n - 1), name);
        Simulator::Destroy();
    }

    void DoRun() override
    {
        Check(FatTreeHelper::TwoTier(4, 2, 2), "2-tier 4x2, 2 spines");
        Check(FatTreeHelper::TwoTier(3, 4, 2), "2-tier 3x4, 2:1 oversubscribed");
        Check(FatTreeHelper::ThreeTier(4, 2, 2, 2, 2), "3-tier k=4");
        Check(FatTreeHelper::ThreeTier(3, 2, 4, 2, 1), "3-tier oversubscribed 2:1 and 2:1");
        Ptr<FatTreeHelper> big = FatTreeHelper::RepsPaper128ThreeTier();
        big->Build();
        NS_TEST_EXPECT_MSG_EQ(big->GetNHosts(), 128, "REPS 128 3-tier hosts");
        NS_TEST_EXPECT_MSG_EQ(big->GetSwitches(2).GetN(), 16, "REPS 128 3-tier cores");
        NS_TEST_EXPECT_MSG_EQ(WalkPath(big, 0, 127, 7, nullptr), 6, "cross-pod path");
        NS_TEST_EXPECT_MSG_EQ(WalkPath(big, 0, 5, 7, nullptr), 4, "intra-pod path");
        NS_TEST_EXPECT_MSG_EQ(WalkPath(big, 0, 3, 7, nullptr), 2, "same-ToR path");
        NS_TEST_EXPECT_MSG_EQ(big->CountPaths(0, 127), 16, "cross-pod path count");
        Simulator::Destroy();
    }
};

/** ECMP: uniform over EVs (chi-square), deterministic, source port alone changes path. */
class EcmpSpreadTest : public TestCase
{
  public:
    EcmpSpreadTest()
        : TestCase("ECMP spread uniform over EVs; only the source port changes the path")
    {
    }

    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
        Ptr<FatTreeHelper> ft = FatTreeHelper::TwoTier(2, 1, 8);
        ft->Build();
        ft->AssignStreams(7);
        Ptr<Node> tor = ft->GetSwitches(0).Get(0);
        Ptr<DcnSwitchRouting> r = ft->GetRouting(tor);
        std::map<uint32_t, uint32_t> count;
        const uint32_t N = 80000;
        Ipv4Header h;
        h.SetSource(ft->GetHostAddress(0));
        h.SetDestination(ft->GetHostAddress(1));
        h.SetProtocol(17);
        uint32_t changed = 0;
        uint32_t prev = 0;
        for (uint32_t ev = 0; ev < N; ++ev)
        {
            Ptr<Packet> p = Create<Packet>(10);
            UdpHeader u;
            u.SetSourcePort(static_cast<uint16_t>(ev));
            u.SetDestinationPort(4791);
            p->AddHeader(u);
            uint32_t out = r->Lookup(p, h, 1);
            uint32_t again = r->Lookup(p, h, 1);
            NS_TEST_ASSERT_MSG_EQ(out, again, "ECMP must be deterministic per 5-tuple");
            count[out]++;
            if (ev > 0 && out != prev)
            {
                ++changed;
            }
            prev = out;
        }
        NS_TEST_ASSERT_MSG_EQ(count.size(), 8, "all 8 uplinks used");
        double chi = 0;
        double e = N / 8.0;
        for (auto& kv : count)
        {
            chi += (kv.second - e) * (kv.second - e) / e;
        }
        // 7 degrees of freedom, p = 0.001 critical value 24.32
        NS_TEST_EXPECT_MSG_LT(chi, 24.32, "chi-square of ECMP spread over EVs");
        // Adjacent source ports pick a different uplink with probability 7/8.
        NS_TEST_EXPECT_MSG_GT(changed, 0.85 * N, "changing only the source port changes the path");
        NS_TEST_EXPECT_MSG_LT(changed, 0.90 * N, "changing only the source port changes the path");
        Simulator::Destroy();
    }
};

/** Per-switch salts: a ToR's choice says nothing about the aggregation switch's choice. */
class PolarisationTest : public TestCase
{
  public:
    PolarisationTest()
        : TestCase("per-switch salts prevent polarisation across tiers")
    {
    }

    double Run(bool sameSalt)
    {
        Ptr<FatTreeHelper> ft = FatTreeHelper::ThreeTier(2, 1, 1, 4, 4);
        ft->Build();
        ft->AssignStreams(3);
        if (sameSalt)
        {
            for (uint32_t t = 0; t < 2; ++t)
            {
                NodeContainer sw = ft->GetSwitches(t);
                for (uint32_t i = 0; i < sw.GetN(); ++i)
                {
                    DynamicCast<EcmpForwardingPolicy>(
                        ft->GetRouting(sw.Get(i))->GetForwardingPolicy())
                        ->SetSalt(42);
                }
            }
        }
        // Host 0 (pod 0) -> host 1 (pod 1): 4 aggs x 4 cores.
        std::vector<uint32_t> cell(16, 0);
        const uint32_t N = 32000;
        for (uint32_t ev = 0; ev < N; ++ev)
        {
            std::vector<Ptr<Node>> nodes;
            uint32_t hops = WalkPath(ft, 0, 1, static_cast<uint16_t>(ev), &nodes);
            NS_ASSERT(hops == 6);
            // nodes: host, tor, agg, core, agg, tor, host
            uint32_t agg = 0;
            uint32_t core = 0;
            NodeContainer aggs = ft->GetSwitches(1);
            NodeContainer cores = ft->GetSwitches(2);
            for (uint32_t i = 0; i < aggs.GetN(); ++i)
            {
                if (aggs.Get(i) == nodes[2])
                {
                    agg = i % 4;
                }
            }
            for (uint32_t i = 0; i < cores.GetN(); ++i)
            {
                if (cores.Get(i) == nodes[3])
                {
                    core = i % 4;
                }
            }
            cell[agg * 4 + core]++;
        }
        double e = N / 16.0;
        double chi = 0;
        for (uint32_t c : cell)
        {
            chi += (c - e) * (c - e) / e;
        }
        Simulator::Destroy();
        return chi;
    }

    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
        // 15 degrees of freedom, p = 0.001 critical value 37.70
        NS_TEST_EXPECT_MSG_LT(Run(false), 37.70, "joint (ToR, agg) choice must be uniform");
        // Control: identical salts at both tiers polarise (the test can fail).
        NS_TEST_EXPECT_MSG_GT(Run(true), 1000.0, "identical salts should polarise");
    }
};

/** Random spraying spreads per packet. */
class SprayTest : public TestCase
{
  public:
    SprayTest()
        : TestCase("random per-packet spray is uniform and ignores the 5-tuple")
    {
    }

    void DoRun() override
    {
        Ptr<FatTreeHelper> ft = FatTreeHelper::TwoTier(2, 1, 4);
        ft->SetAttribute("ForwardingPolicy", StringValue("ns3::SprayForwardingPolicy"));
        ft->Build();
        ft->AssignStreams(11);
        Ptr<DcnSwitchRouting> r = ft->GetRouting(ft->GetSwitches(0).Get(0));
        Ipv4Header h;
        h.SetSource(ft->GetHostAddress(0));
        h.SetDestination(ft->GetHostAddress(1));
        h.SetProtocol(17);
        Ptr<Packet> p = Create<Packet>(10);
        UdpHeader u;
        u.SetSourcePort(5);
        u.SetDestinationPort(4791);
        p->AddHeader(u);
        std::map<uint32_t, uint32_t> count;
        const uint32_t N = 40000;
        for (uint32_t i = 0; i < N; ++i)
        {
            count[r->Lookup(p, h, 1)]++;
        }
        NS_TEST_ASSERT_MSG_EQ(count.size(), 4, "same 5-tuple sprayed on all uplinks");
        double chi = 0;
        double e = N / 4.0;
        for (auto& kv : count)
        {
            chi += (kv.second - e) * (kv.second - e) / e;
        }
        NS_TEST_EXPECT_MSG_LT(chi, 16.27, "chi-square (3 dof, p=0.001)");
        Simulator::Destroy();
    }
};

/** Real UDP traffic between every pair: our routing vs ns-3 global routing (TTL = path length). */
class GlobalEquivalenceTest : public TestCase
{
  public:
    GlobalEquivalenceTest()
        : TestCase("same reachability and path lengths as Ipv4GlobalRouting (with and without "
                   "random ECMP)")
    {
    }

    std::map<std::pair<uint32_t, uint32_t>, uint32_t> m_hops;
    Ptr<FatTreeHelper> m_ft;

    void Recv(uint32_t dst, Ptr<Socket> sock)
    {
        Address from;
        Ptr<Packet> p;
        while ((p = sock->RecvFrom(from)))
        {
            SocketIpTtlTag tag;
            // Not inside NS_ASSERT: asserts compile away in release-profile ns-3 (3.48).
            const bool hasTtl = p->RemovePacketTag(tag);
            NS_ABORT_MSG_IF(!hasTtl, "received packet without SocketIpTtlTag");
            uint32_t src = m_ft->GetHostIndex(InetSocketAddress::ConvertFrom(from).GetIpv4());
            m_hops[{src, dst}] = 64 - tag.GetTtl() + 1;
        }
    }

    std::map<std::pair<uint32_t, uint32_t>, uint32_t> Run(Ptr<FatTreeHelper> ft,
                                                          const std::string& routing,
                                                          bool randomEcmp)
    {
        Config::SetDefault("ns3::Ipv4GlobalRouting::RandomEcmpRouting", BooleanValue(randomEcmp));
        m_hops.clear();
        m_ft = ft;
        ft->SetAttribute("Routing", StringValue(routing));
        ft->Build();
        ft->AssignStreams(1);
        uint32_t n = ft->GetNHosts();
        std::vector<Ptr<Socket>> socks;
        for (uint32_t i = 0; i < n; ++i)
        {
            Ptr<Socket> s =
                Socket::CreateSocket(ft->GetHosts().Get(i), UdpSocketFactory::GetTypeId());
            s->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
            s->SetIpRecvTtl(true);
            s->SetRecvCallback(MakeCallback(&GlobalEquivalenceTest::Recv, this).Bind(i));
            socks.push_back(s);
        }
        double t = 0.001;
        for (uint32_t s = 0; s < n; ++s)
        {
            for (uint32_t d = 0; d < n; ++d)
            {
                if (s == d)
                {
                    continue;
                }
                Ptr<Socket> sock = socks[s];
                Ipv4Address dst = ft->GetHostAddress(d);
                Simulator::Schedule(Seconds(t), [sock, dst]() {
                    sock->SendTo(Create<Packet>(100), 0, InetSocketAddress(dst, 9));
                });
                t += 1e-6;
            }
        }
        Simulator::Stop(Seconds(t + 0.01));
        Simulator::Run();
        Simulator::Destroy();
        Config::SetDefault("ns3::Ipv4GlobalRouting::RandomEcmpRouting", BooleanValue(false));
        return m_hops;
    }

    void Compare(std::function<Ptr<FatTreeHelper>()> make, const std::string& name)
    {
        auto ours = Run(make(), "dcn", false);
        auto glob = Run(make(), "global", false);
        auto globRnd = Run(make(), "global", true);
        Ptr<FatTreeHelper> ref = make();
        uint32_t n = ref->GetNHosts();
        NS_TEST_EXPECT_MSG_EQ(ours.size(), n * (n - 1), name << ": dcn delivered every pair");
        NS_TEST_EXPECT_MSG_EQ(glob.size(), n * (n - 1), name << ": global delivered every pair");
        NS_TEST_EXPECT_MSG_EQ(globRnd.size(), n * (n - 1), name << ": global-random every pair");
        uint32_t diff = 0;
        for (auto& kv : ours)
        {
            if (glob[kv.first] != kv.second || globRnd[kv.first] != kv.second ||
                ref->GetHopCount(kv.first.first, kv.first.second) != kv.second)
            {
                ++diff;
            }
        }
        NS_TEST_EXPECT_MSG_EQ(diff, 0, name << ": path lengths differ from global routing");
    }

    void DoRun() override
    {
        Compare([]() { return FatTreeHelper::TwoTier(4, 2, 2); }, "2-tier");
        Compare([]() { return FatTreeHelper::ThreeTier(4, 2, 2, 2, 2); }, "3-tier");
    }
};

/** GetBaseRtt equals a measured unloaded data + ACK round trip (switch latency folded in). */
class BaseRttTest : public TestCase
{
  public:
    BaseRttTest()
        : TestCase("GetBaseRtt matches a measured unloaded RTT (2 and 3 tiers)")
    {
    }

    Time m_rtt;
    Time m_start;
    Ptr<Node> m_nd;
    Ipv4Address m_ad;
    Ipv4Address m_as;

    void OnData(Ptr<Socket> sock)
    {
        while (sock->Recv())
        {
            SendDcn(m_nd, m_ad, m_as, DcnHeader::ACK, 0);
        }
    }

    void OnAck(Ptr<Socket> sock)
    {
        while (sock->Recv())
        {
            m_rtt = Simulator::Now() - m_start;
        }
    }

    static void SendDcn(Ptr<Node> n, Ipv4Address src, Ipv4Address dst, uint8_t op, uint32_t payload)
    {
        Ptr<Packet> p = Create<Packet>(payload);
        DcnHeader d;
        d.opcode = op;
        p->AddHeader(d);
        UdpHeader u;
        u.SetSourcePort(77);
        u.SetDestinationPort(DcnHeader::UDP_PORT);
        p->AddHeader(u);
        n->GetObject<Ipv4L3Protocol>()->Send(p, src, dst, 17, nullptr);
    }

    void Measure(Ptr<FatTreeHelper> ft, uint32_t s, uint32_t d)
    {
        ft->Build();
        Ptr<Node> ns = ft->GetHosts().Get(s);
        Ptr<Node> nd = ft->GetHosts().Get(d);
        Ipv4Address as = ft->GetHostAddress(s);
        Ipv4Address ad = ft->GetHostAddress(d);
        Ptr<Socket> rs = Socket::CreateSocket(ns, UdpSocketFactory::GetTypeId());
        rs->Bind(InetSocketAddress(Ipv4Address::GetAny(), DcnHeader::UDP_PORT));
        Ptr<Socket> rd = Socket::CreateSocket(nd, UdpSocketFactory::GetTypeId());
        rd->Bind(InetSocketAddress(Ipv4Address::GetAny(), DcnHeader::UDP_PORT));
        Time start = MicroSeconds(1);
        m_rtt = Time(0);
        m_start = start;
        m_nd = nd;
        m_ad = ad;
        m_as = as;
        rd->SetRecvCallback(MakeCallback(&BaseRttTest::OnData, this));
        rs->SetRecvCallback(MakeCallback(&BaseRttTest::OnAck, this));
        Simulator::Schedule(start, &BaseRttTest::SendDcn, ns, as, ad, DcnHeader::DATA, 4096);
        Simulator::Run();
        m_nd = nullptr;
        NS_TEST_EXPECT_MSG_EQ_TOL(m_rtt.GetNanoSeconds(),
                                  ft->GetBaseRtt(s, d, 4096).GetNanoSeconds(),
                                  1,
                                  "RTT " << s << "->" << d);
        Simulator::Destroy();
    }

    void DoRun() override
    {
        Measure(FatTreeHelper::TwoTier(2, 2, 2), 0, 1);
        Measure(FatTreeHelper::TwoTier(2, 2, 2), 0, 3);
        Measure(FatTreeHelper::ThreeTier(2, 2, 2, 2, 2), 0, 7);
        // REPS numbers: 4 links, 3 switches -> 2 x (4 x 500 + 3 x 500) ns propagation.
        Ptr<FatTreeHelper> reps = FatTreeHelper::RepsPaper128();
        Time expect =
            NanoSeconds(7000) + DataRate("400Gbps").CalculateBytesTxTime(4 * (4096 + 71 + 71));
        NS_TEST_EXPECT_MSG_EQ_TOL(reps->GetBaseRtt(0, 127, 4096).GetNanoSeconds(),
                                  expect.GetNanoSeconds(),
                                  4, // per-hop serialisation is rounded to 1 ns (Time resolution)
                                  "REPS 2-tier base RTT");
    }
};

/** Bad input is refused (checked without aborting: Validate runs in Build; here only values). */
class FabricRoutingSuite : public TestSuite
{
  public:
    FabricRoutingSuite()
        : TestSuite("dcn-lb-fabric-routing", DCNLB_TEST_UNIT)
    {
        AddTestCase(new ReachabilityTest(), DCNLB_TEST_QUICK);
        AddTestCase(new EcmpSpreadTest(), DCNLB_TEST_QUICK);
        AddTestCase(new PolarisationTest(), DCNLB_TEST_QUICK);
        AddTestCase(new SprayTest(), DCNLB_TEST_QUICK);
        AddTestCase(new GlobalEquivalenceTest(), DCNLB_TEST_QUICK);
        AddTestCase(new BaseRttTest(), DCNLB_TEST_QUICK);
    }
};

FabricRoutingSuite g_fabricRoutingSuite;

} // namespace
