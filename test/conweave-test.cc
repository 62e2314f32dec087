/*
 * TestSuite "dcn-lb-conweave" (issue 14): ConWeave on the forwarding-policy
 * seam.  Crafted packets driven through the leaves' DcnSwitchRouting (the
 * IPv4 forward callback is the test's): the destination leaf holds REROUTED
 * packets that overtake the TAIL and releases them in order right after it,
 * or when the resume timer fires if the TAIL is lost, and answers
 * RTT_REQUEST / TAIL with real control packets; the source leaf marks the
 * packet after a missed reply deadline as TAIL, moves the flow to another
 * uplink (REROUTED packets), and consumes a CLEAR.  End to end on a 2-leaf
 * fabric with one slow spine link (300 of 400 Gb/s) under go-back-N
 * (Mode=InOrder, DCQCN):
 * flows on the slow path are rerouted, every flow completes, and reordering
 * at the destination leaf leaves fewer go-back-N retransmissions than the
 * same run without it.  A short --lb=conweave tornado on a 2-tier fat tree
 * through WorkloadHelper completes every flow.
 */
#include "fabric-policy-test-net.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/conweave-forwarding-policy.h"
#include "ns3/dcn-header.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-scheme.h"
#include "ns3/dcn-switch-routing.h"
#include "ns3/dcn-transport-helper.h"
#include "ns3/dcn-transport.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/ipv4-route.h"
#include "ns3/ipv4.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"
#include "ns3/workload-helper.h"

#include <set>
#include <vector>

using namespace ns3;

namespace
{

using lbcore::ConWeaveTag;
using lbcore::CwFlag;

/** A 2-leaf, 2-spine, 2-hosts-per-leaf fabric running --lb=conweave policies.  The
 *  cases drive DcnSwitchRouting::RouteInput with their own forward callback (the IPv4
 *  mode's interface), also under DCNLB_FABRIC=fast. */
Ptr<FatTreeHelper>
Fabric()
{
    return BuildPolicyLeafSpine("conweave", 2, 2, 2, "", "ipv4");
}

Ptr<ConWeaveForwardingPolicy>
PolicyOf(Ptr<FatTreeHelper> ft, uint32_t sw)
{
    return DynamicCast<ConWeaveForwardingPolicy>(
        ft->GetRouting(ft->GetAllSwitches().Get(sw))->GetForwardingPolicy());
}

/** A data packet of our transport: UDP(sport -> 4791) + DATA opcode; byte 20 = seq. */
Ptr<Packet>
DataPacket(uint16_t sport, uint8_t seq)
{
    uint8_t b[64] = {0};
    b[0] = static_cast<uint8_t>(sport >> 8);
    b[1] = static_cast<uint8_t>(sport);
    b[2] = static_cast<uint8_t>(DcnHeader::UDP_PORT >> 8);
    b[3] = static_cast<uint8_t>(DcnHeader::UDP_PORT & 0xff);
    b[5] = 64;
    b[8] = DcnHeader::DATA;
    b[20] = seq;
    return Create<Packet>(b, 64);
}

/** Records what a switch forwards (the test's IPv4 forward callback). */
struct Capture
{
    struct Out
    {
        uint32_t dev;
        Ipv4Header h;
        uint8_t b[21];
        uint32_t size;
    };

    std::vector<Out> out;

    void Forward(Ptr<Ipv4Route> r, Ptr<const Packet> p, const Ipv4Header& h)
    {
        Out o;
        o.dev = r->GetOutputDevice()->GetIfIndex();
        o.h = h;
        o.size = p->GetSize();
        std::fill(o.b, o.b + 21, 0);
        p->CopyData(o.b, 21);
        out.push_back(o);
    }

    /** Sequence numbers of forwarded data packets, in order. */
    std::vector<int> DataSeqs() const
    {
        std::vector<int> v;
        for (const Out& o : out)
        {
            if (o.b[8] == DcnHeader::DATA && o.size == 64)
            {
                v.push_back(o.b[20]);
            }
        }
        return v;
    }

    /** Control packets of a type forwarded. */
    uint32_t Control(uint8_t type) const
    {
        uint32_t n = 0;
        for (const Out& o : out)
        {
            n += (o.b[8] == ConWeaveForwardingPolicy::CONTROL_OPCODE && o.b[9] == type) ? 1 : 0;
        }
        return n;
    }
};

/** Feeds crafted packets into one switch's RouteInput. */
struct Injector
{
    Ptr<DcnSwitchRouting> r;
    Ptr<const NetDevice> idev;
    Capture* cap;

    void Inject(Ptr<Packet> p, Ipv4Header h)
    {
        h.SetPayloadSize(p->GetSize());
        r->RouteInput(p,
                      h,
                      idev,
                      MakeCallback(&Capture::Forward, cap),
                      Ipv4RoutingProtocol::MulticastForwardCallback(),
                      Ipv4RoutingProtocol::LocalDeliverCallback(),
                      Ipv4RoutingProtocol::ErrorCallback());
    }
};

uint16_t
Tag(CwFlag f, bool rerouted, uint8_t epoch, uint8_t path = 0)
{
    ConWeaveTag t;
    t.flag = f;
    t.rerouted = rerouted;
    t.epoch = epoch;
    t.path = path;
    return t.Pack();
}

/** Destination leaf: hold REROUTED packets until the TAIL, or the resume timeout. */
class ReorderQueueTestCase : public TestCase
{
  public:
    ReorderQueueTestCase()
        : TestCase("destination leaf holds REROUTED packets that overtake the TAIL, releases "
                   "them in order right after it, or at theta_resume when the TAIL is lost; "
                   "RTT_REPLY and CLEAR are real packets")
    {
    }

    void DoRun() override
    {
        Ptr<FatTreeHelper> ft = Fabric();
        const uint32_t leaf1 = ft->GetSwitchOfHost(2);
        Ptr<ConWeaveForwardingPolicy> pol = PolicyOf(ft, leaf1);
        NS_TEST_ASSERT_MSG_NE(pol, nullptr, "short name 'conweave' installs the policy");
        NS_TEST_ASSERT_MSG_EQ(int(pol->GetRole()), int(ConWeaveForwardingPolicy::LEAF), "leaf");
        Ptr<Node> node = ft->GetAllSwitches().Get(leaf1);
        Capture cap;
        Injector in{ft->GetRouting(node),
                    node->GetObject<Ipv4>()->GetNetDevice(pol->GetIfOfUplink(0)),
                    &cap};
        auto at = [&](double us, uint16_t sport, uint8_t seq, uint16_t id) {
            Simulator::Schedule(MicroSeconds(us), [=, &in]() {
                in.Inject(DataPacket(sport, seq), PolicyTestIpHeader(ft, 0, 2, id));
            });
        };
        // flow A (sport 1000): sent 0 1 | 2 = TAIL | 3 4 REROUTED; arrives 0 1 3 4 2
        at(1, 1000, 0, Tag(CwFlag::RTT_REQUEST, false, 1));
        at(2, 1000, 1, Tag(CwFlag::DATA, false, 1));
        at(3, 1000, 3, Tag(CwFlag::DATA, true, 1, 1));
        at(4, 1000, 4, Tag(CwFlag::DATA, true, 1, 1));
        std::vector<int> atFive;
        Simulator::Schedule(MicroSeconds(5), [&]() { atFive = cap.DataSeqs(); });
        at(6, 1000, 2, Tag(CwFlag::TAIL, false, 1));
        at(7, 1000, 5, Tag(CwFlag::DATA, true, 1, 1));
        // flow B (sport 2000): 10 = RTT_REQUEST, its TAIL 11 is lost, 12 13 REROUTED
        at(10, 2000, 10, Tag(CwFlag::RTT_REQUEST, false, 1));
        at(11, 2000, 12, Tag(CwFlag::DATA, true, 1, 1));
        at(12, 2000, 13, Tag(CwFlag::DATA, true, 1, 1));
        std::vector<int> before;
        std::vector<int> after;
        Simulator::Schedule(MicroSeconds(11 + 215), [&]() { before = cap.DataSeqs(); });
        Simulator::Schedule(MicroSeconds(11 + 217), [&]() { after = cap.DataSeqs(); });
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ((atFive == std::vector<int>{0, 1}),
                              true,
                              "3 and 4 are held while the TAIL is out");
        const std::vector<int> want{0, 1, 2, 3, 4, 5, 10};
        NS_TEST_EXPECT_MSG_EQ((before == want), true, "flow B's REROUTED packets still held");
        const std::vector<int> wantAfter{0, 1, 2, 3, 4, 5, 10, 12, 13};
        NS_TEST_EXPECT_MSG_EQ((after == wantAfter),
                              true,
                              "released in order at theta_resume = 200 + 16 us");
        const auto& rx = pol->GetRxCore();
        NS_TEST_EXPECT_MSG_EQ(rx.GetHeld(), 4, "four packets held");
        NS_TEST_EXPECT_MSG_EQ(rx.GetReleasedByTail(), 1, "one release by the TAIL");
        NS_TEST_EXPECT_MSG_EQ(rx.GetReleasedByTimeout(), 1, "one release by the timer");
        NS_TEST_EXPECT_MSG_EQ(rx.GetVoqsInUse(), 0, "reorder queues drained");
        NS_TEST_EXPECT_MSG_EQ(cap.Control(ConWeaveForwardingPolicy::RTT_REPLY),
                              2,
                              "an RTT_REPLY per RTT_REQUEST");
        NS_TEST_EXPECT_MSG_EQ(cap.Control(ConWeaveForwardingPolicy::CLEAR), 1, "CLEAR per TAIL");
        for (const Capture::Out& o : cap.out)
        {
            if (o.b[8] == ConWeaveForwardingPolicy::CONTROL_OPCODE)
            {
                NS_TEST_EXPECT_MSG_EQ(o.h.GetDestination(),
                                      ft->GetHostAddress(0),
                                      "control packets go back toward the flow's source");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(ft->GetRouting(node)->GetTaken(),
                              5,
                              "held packets and the TAIL forwarded ahead of them were TAKEN");
        Simulator::Destroy();
    }
};

/** Source leaf: reply timeout -> TAIL on the old path, REROUTED on another; CLEAR consumed. */
class SourceLeafTestCase : public TestCase
{
  public:
    SourceLeafTestCase()
        : TestCase("source leaf: no RTT_REPLY within theta_reply -> the next packet is the TAIL "
                   "on the old uplink, later ones REROUTED on the other; a CLEAR is consumed "
                   "and opens the next epoch")
    {
    }

    void DoRun() override
    {
        Ptr<FatTreeHelper> ft = Fabric();
        const uint32_t leaf0 = ft->GetSwitchOfHost(0);
        Ptr<ConWeaveForwardingPolicy> pol = PolicyOf(ft, leaf0);
        Ptr<Node> node = ft->GetAllSwitches().Get(leaf0);
        Ptr<DcnSwitchRouting> r = ft->GetRouting(node);
        const uint32_t* minimal = nullptr;
        const uint32_t* nonMinimal = nullptr;
        uint32_t nMin = 0;
        uint32_t nNon = 0;
        uint32_t key = 0;
        r->GetCandidates(0, minimal, nMin, nonMinimal, nNon, key);
        NS_TEST_ASSERT_MSG_EQ(nMin, 1, "host port");
        Capture cap;
        Injector host{r, node->GetObject<Ipv4>()->GetNetDevice(minimal[0]), &cap};
        Injector up{r, node->GetObject<Ipv4>()->GetNetDevice(pol->GetIfOfUplink(0)), &cap};
        auto data = [&](double us, uint8_t seq) {
            Simulator::Schedule(MicroSeconds(us), [=, &host]() {
                host.Inject(DataPacket(1000, seq), PolicyTestIpHeader(ft, 0, 2, 0));
            });
        };
        data(1, 0);
        data(2, 1);
        data(60, 2); // > base RTT + 4 us without a reply
        data(61, 3);
        // CLEAR for epoch 1 from the destination leaf (to host 0, from host 2)
        Simulator::Schedule(MicroSeconds(62), [&]() {
            uint8_t b[16] = {0};
            b[0] = 1000 >> 8;
            b[1] = 1000 & 0xff;
            b[2] = DcnHeader::UDP_PORT >> 8;
            b[3] = DcnHeader::UDP_PORT & 0xff;
            b[5] = 16;
            b[8] = ConWeaveForwardingPolicy::CONTROL_OPCODE;
            b[9] = ConWeaveForwardingPolicy::CLEAR;
            b[10] = 1;
            b[12] = DcnHeader::UDP_PORT >> 8;
            b[13] = DcnHeader::UDP_PORT & 0xff;
            up.Inject(Create<Packet>(b, 16), PolicyTestIpHeader(ft, 2, 0, 0));
        });
        data(63, 4);
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(cap.out.size(), 5, "five data packets forwarded, CLEAR consumed");
        std::vector<ConWeaveTag> t;
        for (const Capture::Out& o : cap.out)
        {
            NS_TEST_ASSERT_MSG_EQ(ConWeaveTag::IsTagged(o.h.GetIdentification()),
                                  true,
                                  "tag in the IPv4 Identification");
            t.push_back(ConWeaveTag::Unpack(o.h.GetIdentification()));
        }
        NS_TEST_EXPECT_MSG_EQ(int(t[0].flag), int(CwFlag::RTT_REQUEST), "first packet asks");
        NS_TEST_EXPECT_MSG_EQ(int(t[1].flag), int(CwFlag::DATA), "then data");
        NS_TEST_EXPECT_MSG_EQ(int(t[2].flag), int(CwFlag::TAIL), "reply missed: TAIL");
        NS_TEST_EXPECT_MSG_EQ(t[2].path, t[0].path, "the TAIL leaves on the old path");
        NS_TEST_EXPECT_MSG_EQ(cap.out[2].dev, cap.out[0].dev, "same uplink");
        NS_TEST_EXPECT_MSG_EQ(t[3].rerouted, true, "later packets REROUTED");
        NS_TEST_EXPECT_MSG_NE(t[3].path, t[0].path, "on the other path");
        NS_TEST_EXPECT_MSG_NE(cap.out[3].dev, cap.out[0].dev, "through the other uplink");
        NS_TEST_EXPECT_MSG_EQ(int(t[4].flag), int(CwFlag::RTT_REQUEST), "CLEAR: next epoch");
        NS_TEST_EXPECT_MSG_EQ(int(t[4].epoch), 2, "epoch 2");
        NS_TEST_EXPECT_MSG_EQ(t[4].rerouted, false, "phase 0 again");
        NS_TEST_EXPECT_MSG_EQ(t[4].path, t[3].path, "stays on the new path");
        NS_TEST_EXPECT_MSG_EQ(pol->GetTxCore().GetReroutes(), 1, "one reroute");
        NS_TEST_EXPECT_MSG_EQ(pol->GetTxCore().GetClears(), 1, "CLEAR accepted");
        NS_TEST_EXPECT_MSG_EQ(pol->GetControlReceived(), 1, "control packet consumed");
        Simulator::Destroy();
    }
};

struct E2eResult
{
    uint32_t flows{0};
    uint32_t unfinished{0};
    double meanUs{0};
    double maxUs{0};
    uint64_t retx{0};
    uint64_t goBacks{0};
    uint64_t oosDropped{0};
    uint64_t reroutes{0};
    uint64_t timeoutReroutes{0};
    uint64_t held{0};
    uint64_t releasedByTail{0};
    uint64_t releasedByTimeout{0};
    uint64_t holdDrops{0};
};

/**
 * Tornado of 4 flows (2 per direction) on 2 leaves x 2 spines at 400 Gb/s with the
 * leaf1 - spine0 link at \p slow, InOrder (go-back-N) + DCQCN, no PFC.
 */
E2eResult
RunE2e(bool reorder, uint32_t msgBytes, const std::string& slow = "300Gbps", uint32_t cap = 256)
{
    Config::SetDefault("ns3::DcnTransport::Mode", StringValue("InOrder"));
    Config::SetDefault("ns3::DcnConWeaveForwardingPolicy::Reorder", BooleanValue(reorder));
    Config::SetDefault("ns3::DcnConWeaveForwardingPolicy::ReorderQueueCapacity",
                       UintegerValue(cap));
    E2eResult res;
    Ptr<FatTreeHelper> ft = CreateObject<FatTreeHelper>();
    ft->SetAttribute("SlowLinkRate", DataRateValue(DataRate(slow)));
    ft->AddSlowLink(1, 0); // leaf1 - spine0 slower than the other links
    ft->SetAttribute("NumTors", UintegerValue(2));
    ft->SetAttribute("HostsPerTor", UintegerValue(2));
    ft->SetAttribute("UplinksPerTor", UintegerValue(2));
    ft->Build();
    int64_t stream = 1;
    stream += ft->AssignStreams(stream);
    DcnTransportHelper th;
    th.Install(ft->GetHosts());
    Ptr<WorkloadHelper> wl = CreateObject<WorkloadHelper>();
    wl->AssignStreams(1000);
    wl->SetAttribute("Workload", StringValue("tornado"));
    wl->SetAttribute("MessageSize", UintegerValue(msgBytes));
    wl->SetAttribute("LoadBalancer", StringValue("conweave"));
    wl->SetAttribute("CongestionControl", StringValue("dcqcn"));
    wl->Install(ft);
    std::vector<Ptr<ConWeaveForwardingPolicy>> pols;
    for (uint32_t i = 0; i < ft->GetAllSwitches().GetN(); ++i)
    {
        Ptr<ConWeaveForwardingPolicy> p = PolicyOf(ft, i);
        if (p && p->GetRole() == ConWeaveForwardingPolicy::LEAF)
        {
            pols.push_back(p);
            p->TraceConnectWithoutContext("Reroute",
                                          Callback<void, uint64_t, uint8_t, uint8_t, bool>(
                                              [&res](uint64_t, uint8_t, uint8_t, bool timeout) {
                                                  res.timeoutReroutes += timeout ? 1 : 0;
                                              }));
        }
    }
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    wl->Finalize();
    FctSummary s = wl->GetStats().Summarize();
    res.flows = wl->GetPlan().messages.size();
    res.unfinished = s.unfinished;
    res.meanUs = s.meanUs;
    res.maxUs = s.maxUs;
    res.retx = s.retransmissions;
    for (uint32_t h = 0; h < ft->GetHosts().GetN(); ++h)
    {
        const auto& st = DcnTransportHelper::Get(ft->GetHosts().Get(h))->GetStats();
        res.goBacks += st.goBacks;
        res.oosDropped += st.outOfSequenceDropped;
    }
    for (const auto& p : pols)
    {
        res.reroutes += p->GetTxCore().GetReroutes();
        res.held += p->GetRxCore().GetHeld();
        res.releasedByTail += p->GetRxCore().GetReleasedByTail();
        res.releasedByTimeout += p->GetRxCore().GetReleasedByTimeout();
        res.holdDrops += p->GetRxCore().GetHoldDrops();
    }
    wl->Dispose();
    Simulator::Destroy();
    Config::SetDefault("ns3::DcnTransport::Mode", StringValue("OutOfOrder"));
    Config::SetDefault("ns3::DcnConWeaveForwardingPolicy::Reorder", BooleanValue(true));
    return res;
}

class EndToEndTestCase : public TestCase
{
  public:
    EndToEndTestCase()
        : TestCase("slow spine link, go-back-N + DCQCN: congested flows are rerouted on reply "
                   "timeouts, every flow completes, and reordering at the destination leaf "
                   "leaves fewer go-back-N retransmissions than rerouting without it")
    {
    }

    void DoRun() override
    {
        const E2eResult w = RunE2e(true, 1 << 20);
        const E2eResult wo = RunE2e(false, 1 << 20);
        for (const E2eResult* r : {&w, &wo})
        {
            std::clog << GetName().substr(0, 0) << "conweave reorder=" << (r == &w ? 1 : 0)
                      << ": flows " << r->flows << " unfinished " << r->unfinished << " meanFCT "
                      << r->meanUs << " us maxFCT " << r->maxUs << " us retx " << r->retx
                      << " goBacks " << r->goBacks << " oosDropped " << r->oosDropped
                      << " reroutes " << r->reroutes << " (timeout " << r->timeoutReroutes
                      << ") held " << r->held << " byTail " << r->releasedByTail << " byTimeout "
                      << r->releasedByTimeout << " holdDrops " << r->holdDrops << "\n";
        }
        NS_TEST_ASSERT_MSG_EQ(w.flows, 4, "tornado on 4 hosts");
        NS_TEST_EXPECT_MSG_EQ(w.unfinished, 0, "every flow completes (reorder)");
        NS_TEST_EXPECT_MSG_EQ(wo.unfinished, 0, "every flow completes (no reorder)");
        NS_TEST_EXPECT_MSG_GT(w.timeoutReroutes, 0, "congested flows rerouted on reply timeout");
        NS_TEST_EXPECT_MSG_GT(w.held, 0, "REROUTED packets were held");
        NS_TEST_EXPECT_MSG_GT(w.releasedByTail, 0, "released when the TAIL arrived");
        NS_TEST_EXPECT_MSG_GT(wo.reroutes, 0, "the ablation reroutes too");
        NS_TEST_EXPECT_MSG_LT(w.retx, wo.retx, "fewer go-back-N retransmissions with reordering");
        NS_TEST_EXPECT_MSG_LT(w.oosDropped,
                              wo.oosDropped,
                              "fewer out-of-sequence packets at the receivers");
    }
};

/** The interface of switch \p node that faces host \p host (a host link). */
uint32_t
HostIface(Ptr<FatTreeHelper> ft, Ptr<Node> node, uint32_t host)
{
    Ptr<Node> h = ft->GetHosts().Get(host);
    for (uint32_t l : ft->GetLinksOfNode(node))
    {
        const DcnLinkInfo& li = ft->GetLink(l);
        if (li.a == h || li.b == h)
        {
            return li.a == node ? li.ifA : li.ifB;
        }
    }
    return 0;
}

/**
 * Review B4: with a 1-entry flow table, two live flows from one source leaf must not
 * evict each other (before: every packet a new epoch, an RTT_REQUEST on a random path).
 */
class TableConflictTestCase : public TestCase
{
  public:
    TableConflictTestCase()
        : TestCase("FlowTableSize=1: a live flow keeps its entry; a colliding live flow goes "
                   "untracked (no tag, one ECMP-hashed uplink), counted; the destination leaf "
                   "ignores it")
    {
    }

    void DoRun() override
    {
        Config::SetDefault("ns3::DcnConWeaveForwardingPolicy::FlowTableSize", UintegerValue(1));
        Ptr<FatTreeHelper> ft = Fabric();
        Config::SetDefault("ns3::DcnConWeaveForwardingPolicy::FlowTableSize", UintegerValue(4096));
        const uint32_t leaf0 = ft->GetSwitchOfHost(0);
        Ptr<ConWeaveForwardingPolicy> pol = PolicyOf(ft, leaf0);
        Ptr<Node> node = ft->GetAllSwitches().Get(leaf0);
        Capture cap;
        Injector in{ft->GetRouting(node),
                    node->GetObject<Ipv4>()->GetNetDevice(HostIface(ft, node, 0)),
                    &cap};
        for (int i = 0; i < 100; ++i)
        {
            for (uint16_t sport : {1000, 2000})
            {
                Simulator::Schedule(MicroSeconds(1 + i), [=, &in]() {
                    in.Inject(DataPacket(sport, static_cast<uint8_t>(i)),
                              PolicyTestIpHeader(ft, 0, 2, 0));
                });
            }
        }
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        const auto& tx = pol->GetTxCore();
        NS_TEST_EXPECT_MSG_LT_OR_EQ(tx.GetRequests(), 2, "no RTT_REQUEST storm (was 1 per packet)");
        NS_TEST_EXPECT_MSG_EQ(pol->GetTableConflicts(), 100, "every packet of the newcomer");
        uint32_t tagged = 0;
        uint32_t untracked = 0;
        std::set<uint32_t> untrackedDevs;
        for (const Capture::Out& o : cap.out)
        {
            const uint16_t sport = static_cast<uint16_t>((o.b[0] << 8) | o.b[1]);
            if (ConWeaveTag::IsTagged(o.h.GetIdentification()))
            {
                ++tagged;
                NS_TEST_EXPECT_MSG_EQ(sport, 1000, "only the slot's owner is tagged");
            }
            else
            {
                ++untracked;
                untrackedDevs.insert(o.dev);
            }
        }
        NS_TEST_EXPECT_MSG_EQ(tagged, 100, "the owner's packets");
        NS_TEST_EXPECT_MSG_EQ(untracked, 100, "the newcomer's packets, untagged");
        NS_TEST_EXPECT_MSG_EQ(untrackedDevs.size(), 1, "one hashed uplink, not sprayed");
        Simulator::Destroy();
    }
};

/** Review B6: packets dropped at a full reorder queue count as the policy's drops. */
class HoldDropsCountedTestCase : public TestCase
{
  public:
    HoldDropsCountedTestCase()
        : TestCase("a full reorder queue's drops are the policy's GetDrops() (fabric drops) and "
                   "fire ReorderDrop")
    {
    }

    void DoRun() override
    {
        Config::SetDefault("ns3::DcnConWeaveForwardingPolicy::ReorderQueueCapacity",
                           UintegerValue(1));
        Ptr<FatTreeHelper> ft = Fabric();
        Config::SetDefault("ns3::DcnConWeaveForwardingPolicy::ReorderQueueCapacity",
                           UintegerValue(256));
        const uint32_t leaf1 = ft->GetSwitchOfHost(2);
        Ptr<ConWeaveForwardingPolicy> pol = PolicyOf(ft, leaf1);
        uint32_t traced = 0;
        pol->TraceConnectWithoutContext(
            "ReorderDrop",
            Callback<void, Ptr<const Packet>>([&traced](Ptr<const Packet>) { ++traced; }));
        Ptr<Node> node = ft->GetAllSwitches().Get(leaf1);
        Capture cap;
        Injector in{ft->GetRouting(node),
                    node->GetObject<Ipv4>()->GetNetDevice(pol->GetIfOfUplink(0)),
                    &cap};
        auto at = [&](double us, uint8_t seq, uint16_t id) {
            Simulator::Schedule(MicroSeconds(us), [=, &in]() {
                in.Inject(DataPacket(1000, seq), PolicyTestIpHeader(ft, 0, 2, id));
            });
        };
        at(1, 0, Tag(CwFlag::RTT_REQUEST, false, 1));
        at(2, 2, Tag(CwFlag::DATA, true, 1, 1)); // held
        at(3, 3, Tag(CwFlag::DATA, true, 1, 1)); // queue full: dropped
        at(4, 4, Tag(CwFlag::DATA, true, 1, 1)); // dropped
        at(5, 1, Tag(CwFlag::TAIL, false, 1));
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(pol->GetRxCore().GetHoldDrops(), 2, "two hold drops");
        NS_TEST_EXPECT_MSG_EQ(pol->GetDrops(), 2, "reported as the policy's drops");
        NS_TEST_EXPECT_MSG_EQ(traced, 2, "ReorderDrop fired");
        NS_TEST_EXPECT_MSG_EQ((cap.DataSeqs() == std::vector<int>{0, 1, 2}),
                              true,
                              "the rest is forwarded in order");
        Simulator::Destroy();
    }
};

class SchemeTestCase : public TestCase
{
  public:
    SchemeTestCase()
        : TestCase(
              "--lb=conweave: a 256 KB permutation on an 8-host 2-tier fat tree completes every "
              "flow; refused on a 3-tier fat tree with one line")
    {
    }

    void DoRun() override
    {
        Ptr<FatTreeHelper> ft = FatTreeHelper::TwoTier(2, 4, 4);
        ft->Build();
        int64_t stream = 1;
        stream += ft->AssignStreams(stream);
        DcnTransportHelper th;
        th.Install(ft->GetHosts());
        Ptr<WorkloadHelper> wl = CreateObject<WorkloadHelper>();
        wl->AssignStreams(1000);
        wl->SetAttribute("Workload", StringValue("permutation"));
        wl->SetAttribute("MessageSize", UintegerValue(256 * 1024));
        wl->SetAttribute("LoadBalancer", StringValue("conweave"));
        wl->Install(ft);
        Ptr<ForwardingPolicy> fp =
            ft->GetRouting(ft->GetAllSwitches().Get(0))->GetForwardingPolicy();
        NS_TEST_ASSERT_MSG_EQ(std::string(fp->Name()), "conweave", "switch policy installed");
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        wl->Finalize();
        FctSummary s = wl->GetStats().Summarize();
        NS_TEST_ASSERT_MSG_EQ(wl->GetPlan().messages.size(), 8, "8 flows");
        NS_TEST_EXPECT_MSG_EQ(s.unfinished, 0, "every flow completes");
        wl->Dispose();
        Simulator::Destroy();

        Ptr<FatTreeHelper> three = FatTreeHelper::ThreeTier(2, 2, 2, 2, 4);
        three->Build();
        std::string err = DcnSchemeRegistry::InstallSwitchPolicy("conweave", three, 100);
        NS_TEST_EXPECT_MSG_NE(err.find("--lb=conweave"), std::string::npos, "names the option");
        NS_TEST_EXPECT_MSG_NE(err.find("3 switch tiers"), std::string::npos, "says why");
        NS_TEST_EXPECT_MSG_EQ(err.find('\n'), std::string::npos, "one line");
        NS_TEST_EXPECT_MSG_NE(
            DcnSchemeRegistry::CheckCompatible("conweave", "fat-tree-3tier", "dcn"),
            "",
            "refused by the scheme registry on 3 tiers");
        Simulator::Destroy();
    }
};

class ConWeaveTestSuite : public TestSuite
{
  public:
    ConWeaveTestSuite()
        : TestSuite("dcn-lb-conweave", DCNLB_TEST_UNIT)
    {
        AddTestCase(new ReorderQueueTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new SourceLeafTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new EndToEndTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new SchemeTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new TableConflictTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new HoldDropsCountedTestCase, DCNLB_TEST_QUICK);
    }
};

static ConWeaveTestSuite g_conweaveTestSuite;

} // namespace
