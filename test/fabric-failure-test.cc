/*
 * dcn-lb-fabric-failure: every failure type with real UDP traffic.
 */
#include "ns3/core-module.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-queue-disc.h"
#include "ns3/error-model.h"
#include "ns3/failure-helper.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/internet-module.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/test.h"

using namespace ns3;

namespace
{

/** Small leaf-spine with a UDP receiver (port 9) on every host and a packet blaster. */
class FailureFixture
{
  public:
    Ptr<FatTreeHelper> ft;
    Ptr<FailureHelper> fh;
    std::vector<std::vector<uint32_t>> rx; //!< [src][dst]
    std::vector<Ptr<Socket>> socks;

    explicit FailureFixture(uint32_t tors = 2, uint32_t hpt = 2, uint32_t up = 2)
    {
        ft = CreateObject<FatTreeHelper>();
        ft->SetAttribute("NumTors", UintegerValue(tors));
        ft->SetAttribute("HostsPerTor", UintegerValue(hpt));
        ft->SetAttribute("UplinksPerTor", UintegerValue(up));
        ft->Build();
        ft->AssignStreams(1);
        fh = CreateObject<FailureHelper>(ft);
        uint32_t n = ft->GetNHosts();
        rx.assign(n, std::vector<uint32_t>(n, 0));
        for (uint32_t i = 0; i < n; ++i)
        {
            Ptr<Socket> s =
                Socket::CreateSocket(ft->GetHosts().Get(i), UdpSocketFactory::GetTypeId());
            s->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
            s->SetRecvCallback(MakeCallback(&FailureFixture::Recv, this).Bind(i));
            socks.push_back(s);
        }
    }

    void Recv(uint32_t dst, Ptr<Socket> s)
    {
        Address from;
        Ptr<Packet> p;
        while ((p = s->RecvFrom(from)))
        {
            rx[ft->GetHostIndex(InetSocketAddress::ConvertFrom(from).GetIpv4())][dst]++;
        }
    }

    /** n packets src->dst starting at t, 100 ns apart, UDP source port varying (EV). */
    void Blast(uint32_t src, uint32_t dst, uint32_t n, Time t)
    {
        Ptr<Node> node = ft->GetHosts().Get(src);
        Ipv4Address sa = ft->GetHostAddress(src);
        Ipv4Address da = ft->GetHostAddress(dst);
        for (uint32_t i = 0; i < n; ++i)
        {
            Simulator::Schedule(t + NanoSeconds(100 * i), [node, sa, da, i]() {
                Ptr<Packet> p = Create<Packet>(200);
                UdpHeader u;
                u.SetSourcePort(static_cast<uint16_t>(10000 + i));
                u.SetDestinationPort(9);
                p->AddHeader(u);
                node->GetObject<Ipv4L3Protocol>()->Send(p, sa, da, 17, nullptr);
            });
        }
    }

    uint64_t CongestionDrops() const
    {
        uint64_t d = 0;
        for (auto& l : ft->GetLinks())
        {
            d += ft->GetQueueDisc(l.devA)->GetNDropped() + ft->GetQueueDisc(l.devB)->GetNDropped();
        }
        return d;
    }

    void Run(Time stop)
    {
        Simulator::Stop(stop);
        Simulator::Run();
    }

    ~FailureFixture()
    {
        Simulator::Destroy();
    }
};

class SilentLinkTest : public TestCase
{
  public:
    SilentLinkTest()
        : TestCase(
              "silent link failure: losses on paths over the link, routes unchanged, interval ends")
    {
    }

    void DoRun() override
    {
        FailureFixture f;
        uint32_t link = f.ft->GetTorUplink(0, 0);
        f.fh->FailLinkSilent(link, MicroSeconds(10), MicroSeconds(200));
        f.Blast(0, 2, 400, MicroSeconds(20));  // during the failure
        f.Blast(1, 2, 400, MicroSeconds(300)); // after it
        f.Run(MilliSeconds(1));
        uint32_t lost = 400 - f.rx[0][2];
        NS_TEST_EXPECT_MSG_GT(lost, 120, "about half the EVs cross the failed uplink");
        NS_TEST_EXPECT_MSG_LT(lost, 280, "about half the EVs cross the failed uplink");
        NS_TEST_EXPECT_MSG_EQ(f.fh->GetInjectedDrops(), lost, "every loss counted as injected");
        NS_TEST_EXPECT_MSG_EQ(f.fh->GetInjectedDrops(DcnFailureErrorModel::LINK_DOWN),
                              lost,
                              "reason");
        NS_TEST_EXPECT_MSG_EQ(f.CongestionDrops(), 0, "no congestion drops");
        NS_TEST_EXPECT_MSG_EQ(f.rx[1][2], 400, "all delivered after the interval");
        NS_TEST_EXPECT_MSG_EQ(f.fh->GetUnroutableDrops(), 0, "routes unchanged");
    }
};

class WithdrawTest : public TestCase
{
  public:
    WithdrawTest()
        : TestCase("link failure with route withdrawal after a delay")
    {
    }

    void DoRun() override
    {
        // 2-tier and 3-tier: fail a fabric link; after the withdrawal nothing is lost.
        {
            FailureFixture f(3, 2, 2);
            uint32_t link = f.ft->GetTorUplink(2, 1); // spine 1 <-> ToR 2
            f.fh->FailLink(link, MicroSeconds(10), MicroSeconds(20));
            f.Blast(0, 4, 100, MicroSeconds(12)); // before the withdrawal: some losses
            f.Blast(0, 5, 400, MicroSeconds(40)); // towards the ToR, after withdrawal
            f.Blast(4, 0, 400, MicroSeconds(40)); // from the ToR
            f.Run(MilliSeconds(1));
            NS_TEST_EXPECT_MSG_LT(f.rx[0][4], 100, "losses before the withdrawal");
            NS_TEST_EXPECT_MSG_EQ(f.rx[0][5], 400, "no losses after withdrawal (towards)");
            NS_TEST_EXPECT_MSG_EQ(f.rx[4][0], 400, "no losses after withdrawal (from)");
            NS_TEST_EXPECT_MSG_EQ(f.ft->IsLinkRouted(link), false, "withdrawn");
        }
        Ptr<FatTreeHelper> ft = FatTreeHelper::ThreeTier(2, 2, 1, 2, 2);
        ft->Build();
        // Withdraw agg(pod 1, a=0) -> core 0: pod 0's agg 0 must avoid core 0 for pod 1.
        ft->SetLinkRouted(ft->GetAggUplink(2, 0), false);
        // Withdraw also ToR 3's uplink 1: pod 0 ToRs must avoid agg 1 for ToR 3.
        ft->SetLinkRouted(ft->GetTorUplink(3, 1), false);
        uint32_t bad = 0;
        for (uint32_t ev = 0; ev < 256; ++ev)
        {
            Ptr<Packet> p = Create<Packet>(10);
            UdpHeader u;
            u.SetSourcePort(ev);
            u.SetDestinationPort(4791);
            p->AddHeader(u);
            Ipv4Header h;
            h.SetSource(ft->GetHostAddress(0));
            h.SetDestination(ft->GetHostAddress(3));
            h.SetProtocol(17);
            // host0 -> ToR0 -> agg -> core -> agg -> ToR3
            Ptr<Node> n = ft->GetHosts().Get(0);
            uint32_t hops = 0;
            while (hops < 10)
            {
                uint32_t out = ft->GetRouting(n)->Lookup(p, h, 1);
                if (out == 0 || out == DcnSwitchRouting::NO_PORT)
                {
                    break;
                }
                Ptr<NetDevice> dev = n->GetObject<Ipv4>()->GetNetDevice(out);
                for (uint32_t l : ft->GetLinksOfNode(n))
                {
                    const DcnLinkInfo& li = ft->GetLink(l);
                    if (li.devA == dev || li.devB == dev)
                    {
                        bad += ft->IsLinkRouted(l) ? 0 : 1;
                    }
                }
                Ptr<Channel> ch = dev->GetChannel();
                Ptr<NetDevice> peer = ch->GetDevice(0) == dev ? ch->GetDevice(1) : ch->GetDevice(0);
                n = peer->GetNode();
                ++hops;
            }
            NS_TEST_EXPECT_MSG_EQ(n, ft->GetHosts().Get(3), "delivered after withdrawals");
            NS_TEST_EXPECT_MSG_EQ(hops, 6, "shortest path kept");
        }
        NS_TEST_EXPECT_MSG_EQ(bad, 0, "no withdrawn link used");
        Simulator::Destroy();
    }
};

class DegradeTest : public TestCase
{
  public:
    DegradeTest()
        : TestCase("degraded link rate on both devices for an interval")
    {
    }

    void DoRun() override
    {
        FailureFixture f;
        uint32_t link = f.ft->GetTorUplink(0, 1);
        f.fh->DegradeLink(link, DataRate("200Gbps"), MicroSeconds(10), MicroSeconds(10));
        std::vector<uint64_t> seen;
        auto probe = [&f, &seen, link]() {
            DataRateValue a;
            DataRateValue b;
            f.ft->GetLink(link).devA->GetAttribute("DataRate", a);
            f.ft->GetLink(link).devB->GetAttribute("DataRate", b);
            seen.push_back(a.Get().GetBitRate());
            seen.push_back(b.Get().GetBitRate());
        };
        Simulator::Schedule(MicroSeconds(5), probe);
        Simulator::Schedule(MicroSeconds(15), probe);
        Simulator::Schedule(MicroSeconds(25), probe);
        f.Run(MicroSeconds(30));
        NS_TEST_ASSERT_MSG_EQ(seen.size(), 6, "probes ran");
        NS_TEST_EXPECT_MSG_EQ(seen[0], 400000000000ULL, "before");
        NS_TEST_EXPECT_MSG_EQ(seen[2], 200000000000ULL, "during (a)");
        NS_TEST_EXPECT_MSG_EQ(seen[3], 200000000000ULL, "during (b)");
        NS_TEST_EXPECT_MSG_EQ(seen[4], 400000000000ULL, "after");
    }
};

class DropRateTest : public TestCase
{
  public:
    DropRateTest()
        : TestCase("random drop probability on a link and on a switch")
    {
    }

    void DoRun() override
    {
        RngSeedManager::SetSeed(3);
        FailureFixture f;
        f.fh->AssignStreams(100);
        f.fh->SetLinkDropRate(0, 0.3, Seconds(0)); // host 0's link
        f.fh->SetSwitchDropRate(f.ft->GetSwitches(0).Get(1), 0.1, Seconds(0));
        f.Blast(0, 1, 2000, MicroSeconds(1)); // crosses host0 link (0.3), ToR 0 only
        f.Blast(3, 2, 2000, MicroSeconds(1)); // crosses ToR 1 (0.1) only
        f.Run(MilliSeconds(2));
        NS_TEST_EXPECT_MSG_EQ_TOL(1.0 - f.rx[0][1] / 2000.0, 0.3, 0.04, "link loss rate");
        NS_TEST_EXPECT_MSG_EQ_TOL(1.0 - f.rx[3][2] / 2000.0, 0.1, 0.03, "switch loss rate");
        NS_TEST_EXPECT_MSG_EQ(f.fh->GetInjectedDrops(DcnFailureErrorModel::RANDOM),
                              4000 - f.rx[0][1] - f.rx[3][2],
                              "all random losses counted");
    }
};

/**
 * A receive error model set through PointToPointNetDevice's ReceiveErrorModel attribute and
 * removed (SetReceiveErrorModel(nullptr)) while the run goes on applies from the next packet on a
 * DcnPortDevice (FastRx reads the device's member on every packet, session 51).
 */
class ReceiveErrorModelAttributeTest : public TestCase
{
  public:
    ReceiveErrorModelAttributeTest()
        : TestCase("a receive error model set by attribute and removed mid-run (DcnPortDevice)")
    {
    }

    void DoRun() override
    {
        FailureFixture f;
        Ptr<Node> host = f.ft->GetHosts().Get(1);
        // a DcnPortDevice (its FastRx) in the default fabric, ns-3's PointToPointNetDevice
        // in the IPv4 compatibility mode (DCNLB_FABRIC=ipv4): the same attribute either way
        Ptr<PointToPointNetDevice> dev;
        for (uint32_t i = 0; i < host->GetNDevices() && !dev; ++i)
        {
            dev = DynamicCast<PointToPointNetDevice>(host->GetDevice(i));
        }
        NS_TEST_ASSERT_MSG_NE(dev, nullptr, "the host has a point-to-point port");
        if (!dev)
        {
            return; // the runner may continue after a failed assertion
        }
        Ptr<RateErrorModel> all = CreateObject<RateErrorModel>();
        all->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        all->SetAttribute("ErrorRate", DoubleValue(1.0));
        Simulator::Schedule(MicroSeconds(30), [dev, all]() {
            dev->SetAttribute("ReceiveErrorModel", PointerValue(all));
        });
        Simulator::Schedule(MicroSeconds(70), [dev]() {
            dev->SetReceiveErrorModel(nullptr); // none
        });
        f.Blast(0, 1, 200, MicroSeconds(1));  // before: delivered
        f.Blast(2, 1, 200, MicroSeconds(40)); // while set: every packet dropped at host 1
        f.Blast(3, 1, 200, MicroSeconds(80)); // after it is removed (null): delivered
        f.Run(MilliSeconds(1));
        NS_TEST_EXPECT_MSG_EQ(f.rx[0][1], 200, "all delivered before the model is set");
        NS_TEST_EXPECT_MSG_EQ(f.rx[2][1], 0, "all dropped while the model is set");
        NS_TEST_EXPECT_MSG_EQ(f.rx[3][1], 200, "all delivered after it is removed");
    }
};

class BlackholeTest : public TestCase
{
  public:
    BlackholeTest()
        : TestCase("black hole for matching src and dst prefixes at a switch")
    {
    }

    void DoRun() override
    {
        FailureFixture f;
        Ipv4Mask m32("255.255.255.255");
        f.fh->AddBlackhole(f.ft->GetSwitches(0).Get(0),
                           f.ft->GetHostAddress(0),
                           m32,
                           f.ft->GetHostAddress(2),
                           m32,
                           Seconds(0),
                           MicroSeconds(100));
        f.Blast(0, 2, 100, MicroSeconds(1));
        f.Blast(1, 2, 100, MicroSeconds(1));
        f.Blast(0, 3, 100, MicroSeconds(1));
        f.Blast(0, 2, 100, MicroSeconds(200));
        f.Run(MilliSeconds(1));
        NS_TEST_EXPECT_MSG_EQ(f.rx[0][2], 100, "only the packets after the interval arrive");
        NS_TEST_EXPECT_MSG_EQ(f.rx[1][2], 100, "other source unaffected");
        NS_TEST_EXPECT_MSG_EQ(f.rx[0][3], 100, "other destination unaffected");
        NS_TEST_EXPECT_MSG_EQ(f.fh->GetInjectedDrops(DcnFailureErrorModel::BLACKHOLE),
                              100,
                              "counted");
    }
};

class SwitchFailureTest : public TestCase
{
  public:
    SwitchFailureTest()
        : TestCase("whole-switch failure, silent and with withdrawal")
    {
    }

    void DoRun() override
    {
        {
            FailureFixture f;
            f.fh->FailSwitch(f.ft->GetSwitches(1).Get(0), MicroSeconds(1));
            f.Blast(0, 2, 400, MicroSeconds(5));
            f.Run(MilliSeconds(1));
            uint32_t lost = 400 - f.rx[0][2];
            NS_TEST_EXPECT_MSG_GT(lost, 120, "half the paths dead");
            NS_TEST_EXPECT_MSG_LT(lost, 280, "half the paths dead");
            NS_TEST_EXPECT_MSG_EQ(f.fh->GetInjectedDrops(), lost, "counted");
        }
        {
            FailureFixture f;
            f.fh->FailSwitch(f.ft->GetSwitches(1).Get(0),
                             MicroSeconds(1),
                             Time(0),
                             true,
                             MicroSeconds(2));
            f.Blast(0, 2, 400, MicroSeconds(5));
            f.Blast(3, 1, 400, MicroSeconds(5));
            f.Run(MilliSeconds(1));
            NS_TEST_EXPECT_MSG_EQ(f.rx[0][2], 400, "withdrawn: traffic avoids the dead spine");
            NS_TEST_EXPECT_MSG_EQ(f.rx[3][1], 400, "withdrawn: reverse direction too");
        }
    }
};

class FabricFailureSuite : public TestSuite
{
  public:
    FabricFailureSuite()
        : TestSuite("dcn-lb-fabric-failure", DCNLB_TEST_UNIT)
    {
        AddTestCase(new SilentLinkTest(), DCNLB_TEST_QUICK);
        AddTestCase(new WithdrawTest(), DCNLB_TEST_QUICK);
        AddTestCase(new DegradeTest(), DCNLB_TEST_QUICK);
        AddTestCase(new DropRateTest(), DCNLB_TEST_QUICK);
        AddTestCase(new ReceiveErrorModelAttributeTest(), DCNLB_TEST_QUICK);
        AddTestCase(new BlackholeTest(), DCNLB_TEST_QUICK);
        AddTestCase(new SwitchFailureTest(), DCNLB_TEST_QUICK);
    }
};

FabricFailureSuite g_fabricFailureSuite;

} // namespace
