/*
 * dcn-lb-fabric-policy: the forwarding seam.  DcnForwardingContext carries
 * the table's minimal and non-minimal candidates, the ingress, hops from the
 * TTL, egress queue occupancy and a writable packet/header.  Two small
 * policies defined here prove it suffices: one stamps real bytes (DSCP of the
 * IPv4 header and a field of our transport header, INT/CONGA style), one picks
 * the candidate with the shortest egress queue (DRILL/UGAL-L style).
 */
#include "ns3/core-module.h"
#include "ns3/dcn-addressing.h"
#include "ns3/dcn-header.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-queue-disc.h"
#include "ns3/dcn-switch-routing.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/forwarding-policy.h"
#include "ns3/internet-module.h"
#include "ns3/test.h"
#include "ns3/traffic-control-module.h"

using namespace ns3;

namespace ns3
{

/** Records the context it sees and returns a configurable choice. */
class DcnTestRecordPolicy : public ForwardingPolicy
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::DcnTestRecordPolicy")
                                .SetParent<ForwardingPolicy>()
                                .SetGroupName("DcnLb")
                                .AddConstructor<DcnTestRecordPolicy>();
        return tid;
    }

    uint32_t Select(DcnForwardingContext& ctx) override
    {
        last.inIf = ctx.inIf;
        last.dstHost = ctx.dstHost;
        last.dstKey = ctx.dstKey;
        last.hops = ctx.hops;
        last.minimal.assign(ctx.minimal, ctx.minimal + ctx.nMinimal);
        last.nonMinimal.assign(ctx.nonMinimal, ctx.nonMinimal + ctx.nNonMinimal);
        ++calls;
        if (preferNonMinimal && ctx.nNonMinimal > 0)
        {
            return ctx.nonMinimal[0];
        }
        return ctx.nMinimal > 0 ? ctx.minimal[0] : DcnForwardingContext::DROP;
    }

    const char* Name() const override
    {
        return "test-record";
    }

    struct Seen
    {
        uint32_t inIf{0};
        uint32_t dstHost{0};
        uint32_t dstKey{0};
        uint32_t hops{0};
        std::vector<uint32_t> minimal;
        std::vector<uint32_t> nonMinimal;
    };

    Seen last;
    uint32_t calls{0};
    bool preferNonMinimal{false};
};

/**
 * INT-style stamping: every switch adds 1 to the transport header's
 * timestampNs field (real bytes, through MutablePacket) and writes
 * hops + 1 (switches crossed including this one) into the DSCP (through
 * MutableHeader); it forwards on the first minimal candidate.
 */
class DcnTestStampPolicy : public ForwardingPolicy
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::DcnTestStampPolicy")
                                .SetParent<ForwardingPolicy>()
                                .SetGroupName("DcnLb")
                                .AddConstructor<DcnTestStampPolicy>();
        return tid;
    }

    uint32_t Select(DcnForwardingContext& ctx) override
    {
        Ptr<Packet> p = ctx.MutablePacket();
        UdpHeader u;
        DcnHeader d;
        p->RemoveHeader(u);
        p->RemoveHeader(d);
        d.timestampNs += 1;
        p->AddHeader(d);
        p->AddHeader(u);
        ctx.MutableHeader().SetDscp(static_cast<Ipv4Header::DscpType>(ctx.hops + 1));
        return ctx.minimal[0];
    }

    const char* Name() const override
    {
        return "test-stamp";
    }
};

/** Least-loaded egress: the minimal candidate with the fewest queued bytes. */
class DcnTestShortestQueuePolicy : public ForwardingPolicy
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::DcnTestShortestQueuePolicy")
                                .SetParent<ForwardingPolicy>()
                                .SetGroupName("DcnLb")
                                .AddConstructor<DcnTestShortestQueuePolicy>();
        return tid;
    }

    uint32_t Select(DcnForwardingContext& ctx) override
    {
        uint32_t best = ctx.minimal[0];
        uint32_t bestBytes = ctx.QueueBytes(best);
        for (uint32_t i = 1; i < ctx.nMinimal; ++i)
        {
            uint32_t b = ctx.QueueBytes(ctx.minimal[i]);
            if (b < bestBytes)
            {
                best = ctx.minimal[i];
                bestBytes = b;
            }
        }
        return best;
    }

    const char* Name() const override
    {
        return "test-shortest-queue";
    }
};

NS_OBJECT_ENSURE_REGISTERED(DcnTestRecordPolicy);
NS_OBJECT_ENSURE_REGISTERED(DcnTestStampPolicy);
NS_OBJECT_ENSURE_REGISTERED(DcnTestShortestQueuePolicy);

} // namespace ns3

namespace
{

Ptr<Packet>
UdpPacket(uint16_t sport, uint32_t payload = 64)
{
    Ptr<Packet> p = Create<Packet>(payload);
    DcnHeader d;
    p->AddHeader(d);
    UdpHeader u;
    u.SetSourcePort(sport);
    u.SetDestinationPort(DcnHeader::UDP_PORT);
    p->AddHeader(u);
    return p;
}

Ipv4Header
IpTo(uint32_t srcHost, uint32_t dstHost, uint8_t ttl)
{
    Ipv4Header h;
    h.SetSource(DcnAddressing::HostAddress(srcHost));
    h.SetDestination(DcnAddressing::HostAddress(dstHost));
    h.SetProtocol(17);
    h.SetTtl(ttl);
    return h;
}

/** The generic table: local hosts, keyed entries with non-minimal candidates, default. */
class ContextTableTest : public TestCase
{
  public:
    ContextTableTest()
        : TestCase("context: candidates from the table (minimal, non-minimal), key, hops from TTL")
    {
    }

    void DoRun() override
    {
        Ptr<DcnSwitchRouting> r = CreateObject<DcnSwitchRouting>();
        Ptr<DcnTestRecordPolicy> pol = CreateObject<DcnTestRecordPolicy>();
        r->SetForwardingPolicy(pol);
        r->SetLocalHosts(8, {11, DcnSwitchRouting::NO_PORT}); // hosts 8, 9 (9 withdrawn)
        r->ResetTable(2, 1, 3);                               // key = host / 2 - 1, keys 0..2
        r->SetEntry(0, {5, 6}, {7});                          // hosts 2, 3
        r->SetEntry(2, {}, {3, 4});                           // hosts 6, 7: non-minimal only
        r->SetDefaultEntry({9, 10});
        Ptr<Packet> p = UdpPacket(1000);

        NS_TEST_EXPECT_MSG_EQ(r->Lookup(p, IpTo(0, 3, 62), 4), 5, "key 0: first minimal");
        NS_TEST_EXPECT_MSG_EQ(pol->last.hops, 2, "hops = 64 - TTL");
        NS_TEST_EXPECT_MSG_EQ(pol->last.inIf, 4, "ingress");
        NS_TEST_EXPECT_MSG_EQ(pol->last.dstHost, 3, "destination host");
        NS_TEST_EXPECT_MSG_EQ(pol->last.dstKey, 0, "key");
        NS_TEST_EXPECT_MSG_EQ(pol->last.minimal.size(), 2, "minimal candidates");
        NS_TEST_EXPECT_MSG_EQ(pol->last.minimal[1], 6, "table order");
        NS_TEST_EXPECT_MSG_EQ(pol->last.nonMinimal.size(), 1, "non-minimal candidates");
        NS_TEST_EXPECT_MSG_EQ(pol->last.nonMinimal[0], 7, "non-minimal port");
        pol->preferNonMinimal = true;
        NS_TEST_EXPECT_MSG_EQ(r->Lookup(p, IpTo(0, 2, 64), 4), 7, "policy takes a detour");
        NS_TEST_EXPECT_MSG_EQ(pol->last.hops, 0, "first switch");
        NS_TEST_EXPECT_MSG_EQ(r->Lookup(p, IpTo(0, 7, 64), 4), 3, "non-minimal-only entry");
        NS_TEST_EXPECT_MSG_EQ(pol->last.minimal.size(), 0, "no minimal");
        pol->preferNonMinimal = false;
        uint32_t calls = pol->calls;
        NS_TEST_EXPECT_MSG_EQ(r->Lookup(p, IpTo(0, 5, 64), 4),
                              DcnSwitchRouting::NO_PORT,
                              "key 1 empty: unroutable");
        NS_TEST_EXPECT_MSG_EQ(pol->calls, calls, "policy not asked without candidates");
        NS_TEST_EXPECT_MSG_EQ(r->Lookup(p, IpTo(0, 8, 64), 4), 11, "local host");
        NS_TEST_EXPECT_MSG_EQ(pol->last.minimal.size(), 1, "one candidate");
        NS_TEST_EXPECT_MSG_EQ(r->Lookup(p, IpTo(0, 9, 64), 4),
                              DcnSwitchRouting::NO_PORT,
                              "withdrawn local host");
        NS_TEST_EXPECT_MSG_EQ(r->Lookup(p, IpTo(0, 40, 64), 4), 9, "default entry");
        NS_TEST_EXPECT_MSG_EQ(pol->last.dstKey, DcnSwitchRouting::NO_PORT, "default: no key");
        NS_TEST_EXPECT_MSG_EQ(pol->last.minimal.size(), 2, "default candidates");
        r->SetEntry(0, {12, 13}, {14}); // same shape: rewritten in place
        NS_TEST_EXPECT_MSG_EQ(r->Lookup(p, IpTo(0, 3, 64), 4), 12, "entry replaced");
        r->Dispose();
    }
};

/** A policy rewrites real header bytes; the rewritten packet is what travels on. */
class RewriteTest : public TestCase
{
  public:
    RewriteTest()
        : TestCase("a forwarding policy rewrites the DSCP and a transport-header field en route")
    {
    }

    int64_t m_stamp{-1};
    int32_t m_tos{-1};

    void OnRecv(Ptr<Socket> s)
    {
        Ptr<Packet> p;
        while ((p = s->Recv()))
        {
            DcnHeader d;
            p->RemoveHeader(d);
            m_stamp = d.timestampNs;
            SocketIpTosTag tos;
            if (p->PeekPacketTag(tos))
            {
                m_tos = tos.GetTos();
            }
        }
    }

    static void SendIp(Ptr<Node> n, Ptr<Packet> p, Ipv4Address src, Ipv4Address dst)
    {
        n->GetObject<Ipv4L3Protocol>()->Send(p, src, dst, 17, nullptr);
    }

    void Run(uint32_t tiers, uint32_t dst, uint32_t expectSwitches)
    {
        m_stamp = -1;
        m_tos = -1;
        Ptr<FatTreeHelper> ft = CreateObject<FatTreeHelper>();
        ft->SetAttribute("Tiers", UintegerValue(tiers));
        ft->SetAttribute("NumTors", UintegerValue(2));
        ft->SetAttribute("HostsPerTor", UintegerValue(2));
        ft->SetAttribute("UplinksPerTor", UintegerValue(2));
        ft->SetAttribute("TorsPerPod", UintegerValue(2));
        ft->SetAttribute("NumPods", UintegerValue(2));
        ft->SetAttribute("AggUplinks", UintegerValue(2));
        ft->SetAttribute("ForwardingPolicy", StringValue("ns3::DcnTestStampPolicy"));
        ft->Build();
        Ptr<Socket> rx =
            Socket::CreateSocket(ft->GetHosts().Get(dst), UdpSocketFactory::GetTypeId());
        rx->Bind(InetSocketAddress(Ipv4Address::GetAny(), DcnHeader::UDP_PORT));
        rx->SetIpRecvTos(true);
        rx->SetRecvCallback(MakeCallback(&RewriteTest::OnRecv, this));
        Ptr<Packet> p = UdpPacket(4242, 100);
        Ptr<Node> n = ft->GetHosts().Get(0);
        Ipv4Address src = ft->GetHostAddress(0);
        Ipv4Address da = ft->GetHostAddress(dst);
        Simulator::Schedule(MicroSeconds(1), &RewriteTest::SendIp, n, p, src, da);
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(m_stamp, int64_t(expectSwitches), "each switch stamped once");
        NS_TEST_EXPECT_MSG_EQ((m_tos >> 2), int32_t(expectSwitches), "last switch wrote DSCP");
        Simulator::Destroy();
    }

    void DoRun() override
    {
        Run(2, 1, 1); // same ToR
        Run(2, 3, 3); // ToR - spine - ToR
        Run(3, 7, 5); // other pod: ToR agg core agg ToR
    }
};

/** A shortest-queue policy reads the egress queues' occupancy through the context. */
class ShortestQueueTest : public TestCase
{
  public:
    ShortestQueueTest()
        : TestCase("a forwarding policy picks the candidate with the shortest egress queue")
    {
    }

    static Ptr<QueueDiscItem> Item()
    {
        Ipv4Header h = IpTo(0, 3, 64);
        Ptr<Packet> p = UdpPacket(1, 1000);
        h.SetPayloadSize(p->GetSize());
        return Create<Ipv4QueueDiscItem>(p, Address(), 0x0800, h);
    }

    void DoRun() override
    {
        Ptr<FatTreeHelper> ft = FatTreeHelper::TwoTier(2, 2, 3);
        ft->SetAttribute("ForwardingPolicy", StringValue("ns3::DcnTestShortestQueuePolicy"));
        ft->Build();
        Ptr<Node> tor = ft->GetAllSwitches().Get(0);
        Ptr<DcnSwitchRouting> r = ft->GetRouting(tor);
        std::vector<Ptr<DcnQueueDisc>> q;
        std::vector<uint32_t> ifs;
        for (uint32_t u = 0; u < 3; ++u)
        {
            const DcnLinkInfo& l = ft->GetLink(ft->GetTorUplink(0, u));
            q.push_back(ft->GetQueueDisc(l.devA));
            q.back()->Initialize(); // normally at simulation start
            ifs.push_back(l.ifA);
        }
        // Fill the queues directly (no simulation runs: nothing drains them).
        auto fill = [&](uint32_t u, uint32_t n) {
            for (uint32_t i = 0; i < n; ++i)
            {
                q[u]->Enqueue(Item());
            }
        };
        fill(0, 3);
        fill(1, 1);
        fill(2, 2);
        Ptr<Packet> p = UdpPacket(7);
        Ipv4Header h = IpTo(0, 3, 64);
        NS_TEST_EXPECT_MSG_EQ(r->Lookup(p, h, 1), ifs[1], "uplink 1 is the shortest");
        NS_TEST_EXPECT_MSG_EQ(r->GetEgressQueue(ifs[1])->GetNBytes(),
                              q[1]->GetNBytes(),
                              "context sees the port's queue disc");
        fill(1, 3);
        NS_TEST_EXPECT_MSG_EQ(r->Lookup(p, h, 1), ifs[2], "now uplink 2");
        fill(2, 3);
        NS_TEST_EXPECT_MSG_EQ(r->Lookup(p, h, 1), ifs[0], "now uplink 0");
        Simulator::Destroy();
    }
};

class FabricPolicySuite : public TestSuite
{
  public:
    FabricPolicySuite()
        : TestSuite("dcn-lb-fabric-policy", DCNLB_TEST_UNIT)
    {
        AddTestCase(new ContextTableTest(), DCNLB_TEST_QUICK);
        AddTestCase(new RewriteTest(), DCNLB_TEST_QUICK);
        AddTestCase(new ShortestQueueTest(), DCNLB_TEST_QUICK);
    }
};

FabricPolicySuite g_fabricPolicySuite;

} // namespace
