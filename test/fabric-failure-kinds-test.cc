/*
 * dcn-lb-fabric-failure-kinds (issue 10): data-only black hole in one
 * direction for a time window, per-direction degrade with scaled queue and
 * ECN thresholds, names and specs, and the DropArrivalOrLast overflow policy.
 */
#include "ns3/core-module.h"
#include "ns3/dcn-failure-spec-parse.h"
#include "ns3/dcn-header.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-queue-disc.h"
#include "ns3/dcn-tcp-shim-header.h"
#include "ns3/failure-helper.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/internet-module.h"
#include "ns3/test.h"
#include "ns3/traffic-control-module.h"

#include <sstream>

using namespace ns3;

namespace
{

/** 2 ToRs x 2 hosts, 1 uplink each: every inter-ToR packet crosses tor{0,1}-spine0. */
class KindsFixture
{
  public:
    Ptr<FatTreeHelper> ft;
    Ptr<FailureHelper> fh;
    uint32_t rx[4][4][2]{}; //!< [src][dst][0 data, 1 not data]
    std::vector<Ptr<Socket>> socks;

    KindsFixture()
    {
        ft = CreateObject<FatTreeHelper>();
        ft->SetAttribute("NumTors", UintegerValue(2));
        ft->SetAttribute("HostsPerTor", UintegerValue(2));
        ft->SetAttribute("UplinksPerTor", UintegerValue(1));
        ft->Build();
        ft->AssignStreams(1);
        fh = CreateObject<FailureHelper>(ft);
        for (uint32_t i = 0; i < 4; ++i)
        {
            Ptr<Socket> s =
                Socket::CreateSocket(ft->GetHosts().Get(i), UdpSocketFactory::GetTypeId());
            s->Bind(InetSocketAddress(Ipv4Address::GetAny(), DcnHeader::UDP_PORT));
            s->SetRecvCallback(MakeCallback(&KindsFixture::Recv, this).Bind(i));
            socks.push_back(s);
        }
    }

    void Recv(uint32_t dst, Ptr<Socket> s)
    {
        Address from;
        Ptr<Packet> p;
        while ((p = s->RecvFrom(from)))
        {
            uint8_t op = 0xff;
            p->CopyData(&op, 1);
            uint32_t src = ft->GetHostIndex(InetSocketAddress::ConvertFrom(from).GetIpv4());
            rx[src][dst][op == DcnHeader::DATA ? 0 : 1]++;
        }
    }

    /** n transport packets (real DcnHeader bytes) of \p opcode, 100 ns apart from t. */
    void Send(uint32_t src, uint32_t dst, uint8_t opcode, uint32_t n, Time t)
    {
        Ptr<Node> node = ft->GetHosts().Get(src);
        Ipv4Address sa = ft->GetHostAddress(src);
        Ipv4Address da = ft->GetHostAddress(dst);
        for (uint32_t i = 0; i < n; ++i)
        {
            Simulator::Schedule(t + NanoSeconds(100 * i), [node, sa, da, i, opcode]() {
                Ptr<Packet> p = Create<Packet>(opcode == DcnHeader::DATA ? 1000 : 0);
                DcnHeader d;
                d.opcode = opcode;
                d.psn = i;
                p->AddHeader(d);
                UdpHeader u;
                u.SetSourcePort(static_cast<uint16_t>(20000 + i));
                u.SetDestinationPort(DcnHeader::UDP_PORT);
                p->AddHeader(u);
                node->GetObject<Ipv4L3Protocol>()->Send(p, sa, da, 17, nullptr);
            });
        }
    }

    ~KindsFixture()
    {
        Simulator::Destroy();
    }
};

class BlackholeDataDirTest : public TestCase
{
  public:
    BlackholeDataDirTest()
        : TestCase("blackhole data=only dir=up: only data packets going up are lost, only in the "
                   "window")
    {
    }

    void DoRun() override
    {
        KindsFixture f;
        std::string e =
            f.fh->AddFromSpec("failures",
                              "blackhole:link=tor0-spine0:dir=up:data=only:start=20us:end=40us");
        NS_TEST_ASSERT_MSG_EQ(e, "", "spec accepted");
        f.Send(0, 2, DcnHeader::DATA, 50, MicroSeconds(2));  // before: up, data
        f.Send(0, 2, DcnHeader::DATA, 50, MicroSeconds(22)); // in window: up, data
        f.Send(1, 3, DcnHeader::ACK, 50, MicroSeconds(22));  // in window: up, ACKs
        f.Send(2, 0, DcnHeader::DATA, 50, MicroSeconds(22)); // in window: down, data
        f.Send(1, 0, DcnHeader::DATA, 50, MicroSeconds(22)); // in window: same ToR
        f.Send(1, 2, DcnHeader::DATA, 50, MicroSeconds(50)); // after: up, data
        Simulator::Stop(MicroSeconds(200));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(f.rx[0][2][0], 50, "data before the window delivered");
        NS_TEST_EXPECT_MSG_EQ(f.rx[1][3][1], 50, "ACKs in the window delivered");
        NS_TEST_EXPECT_MSG_EQ(f.rx[2][0][0], 50, "data in the other direction delivered");
        NS_TEST_EXPECT_MSG_EQ(f.rx[1][0][0], 50, "data not crossing the link delivered");
        NS_TEST_EXPECT_MSG_EQ(f.rx[1][2][0], 50, "data after the window delivered");
        NS_TEST_EXPECT_MSG_EQ(f.fh->GetBlackholeDrops(), 50, "the 50 data packets going up");
        uint32_t link = f.ft->FindLink("tor0-spine0");
        NS_TEST_EXPECT_MSG_EQ(f.ft->GetQueueDisc(f.ft->GetLink(link).devA)->GetNBlackholed(),
                              50,
                              "dropped at tor0's egress (end a: up)");
        NS_TEST_EXPECT_MSG_EQ(f.ft->GetQueueDisc(f.ft->GetLink(link).devB)->GetNBlackholed(),
                              0,
                              "nothing at spine0's egress (down)");
    }
};

class BlackholeAllSwitchTest : public TestCase
{
  public:
    BlackholeAllSwitchTest()
        : TestCase("blackhole data=all on a whole switch by name; names and refusals")
    {
    }

    void DoRun() override
    {
        KindsFixture f;
        NS_TEST_EXPECT_MSG_EQ(f.fh->GetSwitchName(2), "spine0", "switch names from link names");
        NS_TEST_EXPECT_MSG_EQ(f.fh->FindSwitch("tor1"),
                              f.ft->GetAllSwitches().Get(1),
                              "switch by name");
        NS_TEST_EXPECT_MSG_EQ(f.fh->FindSwitch("2"), f.ft->GetAllSwitches().Get(2), "by index");
        NS_TEST_EXPECT_MSG_EQ(f.fh->FindLinkId("5"), 5, "link by id");
        std::string bad = f.fh->AddFromSpec("failures", "silent:link=tor9-spine0");
        NS_TEST_EXPECT_MSG_EQ(bad.rfind("option --failures link: value 'tor9-spine0'", 0),
                              0,
                              "unknown link name refused with one line: " << bad);
        NS_TEST_EXPECT_MSG_EQ(bad.find('\n'), std::string::npos, "one line");
        bad = f.fh->AddFromSpec("failures", "blackhole:switch=spine7");
        NS_TEST_EXPECT_MSG_EQ(bad.rfind("option --failures switch: value 'spine7'", 0),
                              0,
                              "unknown switch refused: " << bad);
        bad = f.fh->AddFromSpec("failures", "degrade:link=4:dir=sideways");
        NS_TEST_EXPECT_MSG_EQ(bad.rfind("option --failures dir: value 'sideways'", 0),
                              0,
                              "bad dir refused: " << bad);
        NS_TEST_ASSERT_MSG_EQ(
            f.fh->AddFromSpec("failures", "blackhole:switch=spine0:data=all:start=10us:end=30us"),
            "",
            "switch black hole accepted");
        f.Send(0, 2, DcnHeader::ACK, 20, MicroSeconds(12));
        f.Send(3, 1, DcnHeader::DATA, 20, MicroSeconds(12));
        f.Send(0, 3, DcnHeader::ACK, 20, MicroSeconds(40));
        Simulator::Stop(MicroSeconds(100));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(f.rx[0][2][1], 0, "every packet through spine0 lost in the window");
        NS_TEST_EXPECT_MSG_EQ(f.rx[3][1][0], 0, "both directions");
        NS_TEST_EXPECT_MSG_EQ(f.rx[0][3][1], 20, "delivered after the window");
        NS_TEST_EXPECT_MSG_EQ(f.fh->GetBlackholeDrops(), 40, "counted");
        std::ostringstream os;
        FailureHelper::PrintLinks(*f.ft, os);
        NS_TEST_EXPECT_MSG_NE(os.str().find("tor1-spine0"), std::string::npos, "PrintLinks");
        NS_TEST_EXPECT_MSG_NE(os.str().find("400Gbps"), std::string::npos, "PrintLinks rate");
    }
};

class DegradeScaleTest : public TestCase
{
  public:
    DegradeScaleTest()
        : TestCase("degrade dir=up: one direction at the lower rate, its queue and ECN "
                   "thresholds scaled; DegradeScalesQueue=false keeps them")
    {
    }

    void DoRun() override
    {
        for (bool scale : {true, false})
        {
            KindsFixture f;
            f.fh->SetAttribute("DegradeScalesQueue", BooleanValue(scale));
            NS_TEST_ASSERT_MSG_EQ(
                f.fh->AddFromSpec("failures",
                                  "degrade:link=tor0-spine0:dir=up:rate=200Gbps:start=10us:"
                                  "end=20us"),
                "",
                "accepted");
            const DcnLinkInfo& l = f.ft->GetLink(f.ft->FindLink("tor0-spine0"));
            Ptr<DcnQueueDisc> qa = f.ft->GetQueueDisc(l.devA);
            Ptr<DcnQueueDisc> qb = f.ft->GetQueueDisc(l.devB);

            struct Probe
            {
                uint64_t rateA, rateB;
                uint32_t limA, limB;
                double pA;
            };

            std::vector<Probe> seen;
            auto probe = [&]() {
                DataRateValue a;
                DataRateValue b;
                l.devA->GetAttribute("DataRate", a);
                l.devB->GetAttribute("DataRate", b);
                seen.push_back({a.Get().GetBitRate(),
                                b.Get().GetBitRate(),
                                qa->GetDataLimit().GetValue(),
                                qb->GetDataLimit().GetValue(),
                                qa->MarkProbability(103750)});
            };
            for (int t : {5, 15, 25})
            {
                Simulator::Schedule(MicroSeconds(t), probe);
            }
            Simulator::Stop(MicroSeconds(30));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(seen.size(), 3, "probes ran");
            NS_TEST_EXPECT_MSG_EQ(seen[0].limA, 415000, "before: configured limit");
            NS_TEST_EXPECT_MSG_EQ(seen[1].rateA, 200000000000ULL, "up direction degraded");
            NS_TEST_EXPECT_MSG_EQ(seen[1].rateB, 400000000000ULL, "down direction unchanged");
            NS_TEST_EXPECT_MSG_EQ(seen[1].limB, 415000, "down queue unchanged");
            if (scale)
            {
                NS_TEST_EXPECT_MSG_EQ(seen[1].limA, 207500, "up queue limit halved");
                // Kmin = 20%, Kmax = 80% of the halved limit: 103750 B is mid-line.
                NS_TEST_EXPECT_MSG_EQ_TOL(seen[1].pA, 0.5, 1e-9, "ECN thresholds halved");
            }
            else
            {
                NS_TEST_EXPECT_MSG_EQ(seen[1].limA, 415000, "limit kept");
                NS_TEST_EXPECT_MSG_EQ_TOL(seen[1].pA,
                                          (103750.0 - 83000) / (332000 - 83000),
                                          1e-9,
                                          "thresholds kept");
            }
            NS_TEST_EXPECT_MSG_EQ(seen[2].rateA, 400000000000ULL, "restored rate");
            NS_TEST_EXPECT_MSG_EQ(seen[2].limA, 415000, "restored limit");
        }
    }
};

class DegradeFloorTest : public TestCase
{
  public:
    DegradeFloorTest()
        : TestCase("a port degraded far below its rate keeps two frames of queue and still "
                   "forwards (scaled below one frame it would drop everything)")
    {
    }

    void DoRun() override
    {
        KindsFixture f;
        // 400 Gb/s -> 100 Mb/s: 415,000 B x 2.5e-4 = 104 B, less than one frame.
        NS_TEST_ASSERT_MSG_EQ(
            f.fh->AddFromSpec("failures", "degrade:link=tor0-spine0:dir=up:rate=100Mbps"),
            "",
            "accepted");
        const DcnLinkInfo& l = f.ft->GetLink(f.ft->FindLink("tor0-spine0"));
        Ptr<DcnQueueDisc> qa = f.ft->GetQueueDisc(l.devA);
        uint32_t limit = 0;
        Simulator::Schedule(MicroSeconds(1), [&]() { limit = qa->GetDataLimit().GetValue(); });
        f.Send(0, 2, DcnHeader::DATA, 20, MicroSeconds(2)); // a 2 us burst into the slow port
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(limit, 2 * (l.devA->GetMtu() + 2), "two frames of the port's MTU");
        // The first packet goes straight to the device, the queue holds what fits in two
        // frames (of about 1.1 KB each here): several arrive, the rest of the burst is dropped.
        NS_TEST_EXPECT_MSG_GT(f.rx[0][2][0], 2, "the slow port forwards");
        NS_TEST_EXPECT_MSG_LT(f.rx[0][2][0], 20, "and drops what its short queue cannot hold");
    }
};

class OverlappingWindowsTest : public TestCase
{
  public:
    OverlappingWindowsTest()
        : TestCase("overlapping failure windows nest: a withdrawn link stays withdrawn, drop "
                   "probabilities combine, the slowest degrade holds until its own end")
    {
    }

    void DoRun() override
    {
        KindsFixture f;
        const uint32_t link = f.ft->FindLink("tor0-spine0");
        const DcnLinkInfo& l = f.ft->GetLink(link);
        // down: the switch 1-3 ms, the link 2-12 ms (before: routed again at 3 ms)
        for (const char* spec : {"down:switch=spine0:start=1ms:end=3ms",
                                 "down:link=tor0-spine0:start=2ms:end=12ms",
                                 "drop:link=tor1-spine0:prob=0.05:end=10ms",
                                 "drop:switch=spine0:prob=0.1:start=1ms:end=2ms",
                                 "degrade:link=tor1-spine0:dir=up:rate=100Gbps:end=10ms",
                                 "degrade:link=tor1-spine0:dir=up:rate=200Gbps:start=2ms:end=4ms"})
        {
            NS_TEST_ASSERT_MSG_EQ(f.fh->AddFromSpec("failures", spec), "", spec);
        }
        const DcnLinkInfo& l1 = f.ft->GetLink(f.ft->FindLink("tor1-spine0"));
        Ptr<DcnFailureErrorModel> m1 = f.fh->GetModel(l1.devB); // spine0's end of tor1-spine0
        std::vector<bool> routed;
        std::vector<double> prob;
        std::vector<uint64_t> rate;
        for (double t : {0.5, 1.5, 2.5, 3.5, 5.0, 11.0, 13.0})
        {
            Simulator::Schedule(MicroSeconds(t * 1000), [&]() {
                routed.push_back(f.ft->IsLinkRouted(link));
                prob.push_back(m1->GetDropProbability());
                DataRateValue r;
                l1.devA->GetAttribute("DataRate", r);
                rate.push_back(r.Get().GetBitRate());
            });
        }
        Simulator::Stop(MilliSeconds(14));
        Simulator::Run();
        const std::vector<bool> wantRouted{true, false, false, false, false, false, true};
        for (size_t i = 0; i < wantRouted.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(routed[i], wantRouted[i], "routed, sample " << i);
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(prob[0], 0.05, 1e-12, "one window: its probability");
        NS_TEST_EXPECT_MSG_EQ_TOL(prob[1], 1 - 0.95 * 0.9, 1e-12, "two: independent");
        NS_TEST_EXPECT_MSG_EQ_TOL(prob[2], 0.05, 1e-12, "the link's window outlives the switch's");
        NS_TEST_EXPECT_MSG_EQ_TOL(prob[5], 0.0, 1e-12, "none after both");
        NS_TEST_EXPECT_MSG_EQ(rate[0], 100'000'000'000ULL, "degraded to 100G");
        NS_TEST_EXPECT_MSG_EQ(rate[2], 100'000'000'000ULL, "the slower window holds");
        NS_TEST_EXPECT_MSG_EQ(rate[4], 100'000'000'000ULL, "after the 200G window ended");
        NS_TEST_EXPECT_MSG_EQ(rate[5], l1.rate.GetBitRate(), "built rate after both");
        (void)l;
    }
};

class DegradeRateTest : public TestCase
{
  public:
    DegradeRateTest()
        : TestCase("degrade without a rate halves the link's rate; a rate above it is refused "
                   "with one line")
    {
    }

    void DoRun() override
    {
        KindsFixture f;
        const std::string up =
            f.fh->AddFromSpec("failures", "degrade:link=tor0-spine0:rate=401Gbps");
        NS_TEST_EXPECT_MSG_EQ(up.rfind("option --failures rate: value "
                                       "'degrade:link=tor0-spine0:rate=401Gbps' is not a "
                                       "degradation of link tor0-spine0 (built at 400Gbps)",
                                       0),
                              0,
                              up);
        NS_TEST_EXPECT_MSG_EQ(up.find('\n'), std::string::npos, "one line");
        NS_TEST_ASSERT_MSG_EQ(f.fh->AddFromSpec("failures", "degrade:link=tor0-spine0:dir=up"),
                              "",
                              "no rate: accepted");
        NS_TEST_ASSERT_MSG_EQ(
            f.fh->AddFromSpec("failures", "degrade:link=tor1-spine0:dir=up:rate=400Gbps"),
            "",
            "the built rate itself: accepted");
        const DcnLinkInfo& l = f.ft->GetLink(f.ft->FindLink("tor0-spine0"));
        Simulator::Stop(MicroSeconds(1));
        Simulator::Run();
        DataRateValue a;
        l.devA->GetAttribute("DataRate", a);
        NS_TEST_EXPECT_MSG_EQ(a.Get().GetBitRate(), 200000000000ULL, "half of 400 Gb/s");
    }
};

Ptr<QueueDiscItem>
DataItem(uint32_t psn)
{
    Ptr<Packet> p = Create<Packet>(1000);
    DcnHeader d;
    d.opcode = DcnHeader::DATA;
    d.psn = psn;
    p->AddHeader(d);
    UdpHeader u;
    u.SetDestinationPort(DcnHeader::UDP_PORT);
    p->AddHeader(u);
    Ipv4Header h;
    h.SetProtocol(17);
    h.SetPayloadSize(p->GetSize());
    return Create<Ipv4QueueDiscItem>(p, Address(), 0x0800, h);
}

uint32_t
PsnOf(Ptr<const QueueDiscItem> item)
{
    Ptr<Packet> p = item->GetPacket()->Copy();
    UdpHeader u;
    p->RemoveHeader(u);
    DcnHeader d;
    p->RemoveHeader(d);
    return d.psn;
}

class OverflowPolicyTest : public TestCase
{
  public:
    OverflowPolicyTest()
        : TestCase("OverflowPolicy: DropArrival drops the arrival; DropArrivalOrLast drops the "
                   "arrival or the last enqueued data packet, each about half of the time")
    {
    }

    void DoRun() override
    {
        for (bool artifact : {false, true})
        {
            Ptr<DcnQueueDisc> q = CreateObject<DcnQueueDisc>();
            q->SetAttribute("DataLimit", QueueSizeValue(QueueSize("3p")));
            q->SetAttribute("OverflowPolicy",
                            StringValue(artifact ? "DropArrivalOrLast" : "DropArrival"));
            q->Initialize();
            q->AssignStreams(11);
            std::vector<uint32_t> dropped;
            q->TraceConnectWithoutContext(
                "DcnDrop",
                MakeCallback(+[](std::vector<uint32_t>* v, Ptr<const QueueDiscItem> i) {
                    v->push_back(PsnOf(i));
                }).Bind(&dropped));
            for (uint32_t i = 1; i <= 3; ++i)
            {
                q->Enqueue(DataItem(i));
            }
            // Crafted: the queue is full; arrivals 4..203 each overflow it.
            uint32_t tail = 3;
            uint32_t lastDrops = 0;
            uint32_t arrivalDrops = 0;
            bool ok = true;
            for (uint32_t i = 4; i < 204; ++i)
            {
                q->Enqueue(DataItem(i));
                NS_TEST_ASSERT_MSG_EQ(dropped.size(), i - 3, "one drop per overflow");
                if (dropped.back() == i)
                {
                    ++arrivalDrops;
                }
                else
                {
                    ok = ok && dropped.back() == tail; // the most recently enqueued one
                    tail = i;
                    ++lastDrops;
                }
                ok = ok && q->GetNPackets() == 3;
            }
            NS_TEST_EXPECT_MSG_EQ(ok, true, "the tail (last enqueued) is the one dropped");
            NS_TEST_EXPECT_MSG_EQ(q->GetNLastDropped(), lastDrops, "counted");
            if (!artifact)
            {
                NS_TEST_EXPECT_MSG_EQ(lastDrops, 0, "default: always the arrival");
            }
            else
            {
                NS_TEST_EXPECT_MSG_GT(lastDrops, 70, "about half: last enqueued");
                NS_TEST_EXPECT_MSG_GT(arrivalDrops, 70, "about half: arrival");
            }
            std::vector<uint32_t> order;
            while (Ptr<QueueDiscItem> it = q->Dequeue())
            {
                order.push_back(PsnOf(it));
            }
            NS_TEST_ASSERT_MSG_EQ(order.size(), 3, "3 left");
            NS_TEST_EXPECT_MSG_EQ(order[0], 1, "head untouched");
            NS_TEST_EXPECT_MSG_EQ(order[1], 2, "head untouched");
            NS_TEST_EXPECT_MSG_EQ(order[2], tail, "tail = the last arrival kept");
            const auto& st = q->GetStats();
            NS_TEST_EXPECT_MSG_EQ(st.nTotalReceivedPackets,
                                  st.nTotalDroppedPackets + st.nTotalDequeuedPackets - lastDrops +
                                      q->GetNPackets(),
                                  "queue disc statistics consistent");
        }
    }
};

/** A TCP segment through the shim (UDP 4792 + shim + TCP) with `payload` bytes. */
Ptr<QueueDiscItem>
ShimItem(uint32_t payload, uint8_t shimFlags)
{
    Ptr<Packet> p = Create<Packet>(payload);
    TcpHeader t;
    t.SetFlags(payload > 0 ? TcpHeader::ACK | TcpHeader::PSH : TcpHeader::ACK);
    p->AddHeader(t);
    DcnTcpShimHeader s;
    s.flags = shimFlags;
    p->AddHeader(s);
    UdpHeader u;
    u.SetDestinationPort(DcnTcpShimHeader::UDP_PORT);
    p->AddHeader(u);
    Ipv4Header h;
    h.SetProtocol(17);
    h.SetPayloadSize(p->GetSize());
    return Create<Ipv4QueueDiscItem>(p, Address(), 0x0800, h);
}

class BlackholeDataTcpTest : public TestCase
{
  public:
    BlackholeDataTcpTest()
        : TestCase("data=only knows TCP through the path shim: data segments are data; pure "
                   "ACKs, probes and probe replies are not (a black hole kept them all)")
    {
    }

    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(DcnQueueDisc::IsData(ShimItem(1000, 0)), true, "data segment");
        NS_TEST_EXPECT_MSG_EQ(DcnQueueDisc::IsData(ShimItem(1000, DcnTcpShimHeader::FLAG_ECHO)),
                              true,
                              "data segment carrying echoes");
        NS_TEST_EXPECT_MSG_EQ(DcnQueueDisc::IsData(ShimItem(0, 0)), false, "pure ACK");
        NS_TEST_EXPECT_MSG_EQ(DcnQueueDisc::IsData(ShimItem(0, DcnTcpShimHeader::FLAG_PROBE)),
                              false,
                              "probe");
        NS_TEST_EXPECT_MSG_EQ(DcnQueueDisc::IsData(ShimItem(0, DcnTcpShimHeader::FLAG_PROBE_REPLY)),
                              false,
                              "probe reply");
        NS_TEST_EXPECT_MSG_EQ(DcnQueueDisc::IsData(DataItem(1)), true, "our DATA as before");
    }
};

class FailureSpecNamesTest : public TestCase
{
  public:
    FailureSpecNamesTest()
        : TestCase("failure specs: new kinds and fields parse; misuse refused")
    {
    }

    void DoRun() override
    {
        using namespace dcnopt;
        const std::vector<std::string> k{"silent", "down", "degrade", "drop", "blackhole"};
        auto b = ParseFailureSpec("failures",
                                  "blackhole:link=tor0-spine1:dir=down:data=only:start=1us:end=2us",
                                  100,
                                  k,
                                  true);
        NS_TEST_ASSERT_MSG_EQ(bool(b), true, b.Error());
        NS_TEST_EXPECT_MSG_EQ(b.Value().linkName, "tor0-spine1", "name");
        NS_TEST_EXPECT_MSG_EQ(b.Value().dir, "down", "dir");
        NS_TEST_EXPECT_MSG_EQ(b.Value().dataOnly, true, "data=only");
        NS_TEST_EXPECT_MSG_EQ(bool(ParseFailureSpec("failures", "silent:link=tor0-spine1", 100)),
                              false,
                              "names only where allowed");
        NS_TEST_EXPECT_MSG_EQ(bool(ParseFailureSpec("failures", "silent:switch=3", 100)),
                              true,
                              "switch by index");
        for (const char* s : {"silent:link=1:dir=up",
                              "degrade:switch=1",
                              "drop:link=1:data=only",
                              "silent:link=1:switch=2",
                              "blackhole:switch=1:dir=up"})
        {
            auto r = ParseFailureSpec("failures", s, 100);
            NS_TEST_EXPECT_MSG_EQ(bool(r), false, s);
            NS_TEST_EXPECT_MSG_EQ(r.Error().rfind("option --failures", 0), 0, r.Error());
        }
    }
};

class FabricFailureKindsSuite : public TestSuite
{
  public:
    FabricFailureKindsSuite()
        : TestSuite("dcn-lb-fabric-failure-kinds", DCNLB_TEST_UNIT)
    {
        AddTestCase(new BlackholeDataDirTest(), DCNLB_TEST_QUICK);
        AddTestCase(new BlackholeAllSwitchTest(), DCNLB_TEST_QUICK);
        AddTestCase(new DegradeScaleTest(), DCNLB_TEST_QUICK);
        AddTestCase(new DegradeFloorTest(), DCNLB_TEST_QUICK);
        AddTestCase(new DegradeRateTest(), DCNLB_TEST_QUICK);
        AddTestCase(new OverlappingWindowsTest(), DCNLB_TEST_QUICK);
        AddTestCase(new BlackholeDataTcpTest(), DCNLB_TEST_QUICK);
        AddTestCase(new OverflowPolicyTest(), DCNLB_TEST_QUICK);
        AddTestCase(new FailureSpecNamesTest(), DCNLB_TEST_QUICK);
    }
};

FabricFailureKindsSuite g_fabricFailureKindsSuite;

} // namespace
