/*
 * dcn-lb-reps-fidelity (issue 10): the host NIC and the wire formats.
 *
 *  - wire formats: exact byte counts of DATA (24) and control (29 + 2 x EVs)
 *    headers, 4150-byte data frames and 59-byte ACKs on the wire, padding to a
 *    configured size (64-byte control packets) that round-trips every field, and
 *    the 32-bit timestamps restored to full ns values;
 *  - host NIC: on a 16-host permutation at line rate (every host sends data and
 *    ACKs on its uplink) the host queue stays below a few packets, and a
 *    leaky-bucket check of the bytes handed to the host NIC (data + ACKs) at the
 *    link rate never exceeds two frames, read from port statistics and the
 *    queue disc's Enqueue trace;
 *  - REPS frozen-mode order: OldestValid vs RoundRobin on the core.
 */
#include "ns3/boolean.h"
#include "ns3/dcn-header.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-queue-disc.h"
#include "ns3/dcn-transport-helper.h"
#include "ns3/dcn-transport.h"
#include "ns3/dctcp-cc.h"
#include "ns3/enum.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/path-selector.h"
#include "ns3/port-stats-helper.h"
#include "ns3/queue-disc.h"
#include "ns3/reps-core.h"
#include "ns3/reps-profile.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{
namespace
{

class WireFormatTestCase : public TestCase
{
  public:
    WireFormatTestCase()
        : TestCase("DcnHeader: DATA 24 B, ACK 29 B (+2 per EV), padding, 32-bit timestamps")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(DcnHeader::DATA_SIZE, 24u, "DATA header bytes");
        NS_TEST_ASSERT_MSG_EQ(DcnHeader::CTRL_BASE_SIZE, 29u, "control header bytes");
        NS_TEST_ASSERT_MSG_EQ(DcnHeader::WIRE_BELOW, 30u, "PPP + IPv4 + UDP");

        DcnHeader d;
        d.opcode = DcnHeader::DATA;
        d.flags = DcnHeader::FLAG_LAST;
        d.connId = 3;
        d.psn = 70000;
        d.msgId = 9;
        d.msgOffset = 123 * 4096;
        d.payloadSize = 4096;
        d.timestampNs = -5000; // <= now (0): restored exactly
        d.cumAck = 77;         // not on a DATA header
        NS_TEST_ASSERT_MSG_EQ(d.GetSerializedSize(), 24u, "DATA header");
        NS_TEST_ASSERT_MSG_EQ(DcnHeader::WIRE_BELOW + d.GetSerializedSize() + 4096,
                              4150u,
                              "a full data frame is 4150 B on the wire (REPS artifact)");
        Ptr<Packet> p = Create<Packet>(4096);
        p->AddHeader(d);
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 4096u + 24u, "DATA bytes on the packet");
        DcnHeader r;
        p->RemoveHeader(r);
        NS_TEST_ASSERT_MSG_EQ(r.psn, 70000u, "psn");
        NS_TEST_ASSERT_MSG_EQ(r.msgId, 9u, "msgId");
        NS_TEST_ASSERT_MSG_EQ(r.msgOffset, 123u * 4096u, "msgOffset");
        NS_TEST_ASSERT_MSG_EQ(r.payloadSize, 4096u, "payloadSize");
        NS_TEST_ASSERT_MSG_EQ(r.timestampNs, -5000, "timestamp");
        NS_TEST_ASSERT_MSG_EQ(r.cumAck, 0u, "DATA carries no cumAck");
        NS_TEST_ASSERT_MSG_EQ(r.HasFlag(DcnHeader::FLAG_LAST), true, "flags");

        DcnHeader a;
        a.opcode = DcnHeader::ACK;
        a.evEcho = 0xABCD;
        a.connId = 3;
        a.psn = 70000;
        a.cumAck = 69990;
        a.sackBitmap = 0x8000000000000001ULL;
        a.timestampNs = 5000;
        a.msgId = 9; // not on an ACK
        NS_TEST_ASSERT_MSG_EQ(a.GetSerializedSize(), 29u, "ACK header");
        NS_TEST_ASSERT_MSG_EQ(DcnHeader::WIRE_BELOW + a.GetSerializedSize(),
                              59u,
                              "an ACK is 59 B on the wire");
        a.evs = {1, 2, 3};
        NS_TEST_ASSERT_MSG_EQ(a.GetSerializedSize(), 35u, "ACK with 3 carried EVs");
        a.evs.clear();
        // padded to a 64-byte control packet
        a.padTo = 64 - DcnHeader::WIRE_BELOW;
        NS_TEST_ASSERT_MSG_EQ(a.GetSerializedSize(), 34u, "padded ACK header");
        p = Create<Packet>(0);
        p->AddHeader(a);
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 34u, "padded bytes on the packet");
        uint8_t b[64];
        p->CopyData(b, sizeof(b));
        const bool padFlag = (b[1] & DcnHeader::FLAG_PAD) != 0;
        NS_TEST_ASSERT_MSG_EQ(padFlag, true, "FLAG_PAD on the wire");
        NS_TEST_ASSERT_MSG_EQ(uint32_t(b[29]), 4u, "padLen after the fixed part");
        DcnHeader ra;
        p->RemoveHeader(ra);
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 0u, "padding fully consumed");
        NS_TEST_ASSERT_MSG_EQ(ra.evEcho, 0xABCD, "evEcho");
        NS_TEST_ASSERT_MSG_EQ(ra.cumAck, 69990u, "cumAck");
        NS_TEST_ASSERT_MSG_EQ(ra.sackBitmap, 0x8000000000000001ULL, "sack");
        NS_TEST_ASSERT_MSG_EQ(ra.msgId, 0u, "ACK carries no msgId");
        NS_TEST_ASSERT_MSG_EQ(ra.padTo, 34u, "padTo read back (kept on re-serialisation)");

        // padding after the extension: the route reader's offset is unchanged
        DcnHeader e = d;
        e.extMask = DcnHeader::EXT_ROUTE;
        e.routeLen = 2;
        e.route = {11, 12};
        e.padTo = 40;
        NS_TEST_ASSERT_MSG_EQ(e.GetNaturalSize(), 24u + 1 + 2 + 4, "DATA + route");
        NS_TEST_ASSERT_MSG_EQ(e.GetSerializedSize(), 40u, "padded DATA + route");
        p = Create<Packet>(10);
        p->AddHeader(e);
        p->CopyData(b, sizeof(b));
        NS_TEST_ASSERT_MSG_EQ(DcnHeader::ExtensionOffset(b), 24u, "DATA extension offset");
        NS_TEST_ASSERT_MSG_EQ(uint32_t(b[24]), uint32_t(DcnHeader::EXT_ROUTE), "mask");
        DcnHeader re;
        p->RemoveHeader(re);
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 10u, "payload intact after padding");
        NS_TEST_ASSERT_MSG_EQ(re.route[1], 12, "route");

        // 32-bit timestamps: restored as the latest time <= now with those low bits
        Simulator::Schedule(Seconds(10), [this]() {
            DcnHeader t;
            t.opcode = DcnHeader::ACK;
            t.timestampNs = Seconds(10).GetNanoSeconds() - 12345;
            Ptr<Packet> q = Create<Packet>(0);
            q->AddHeader(t);
            DcnHeader u;
            q->RemoveHeader(u);
            NS_TEST_EXPECT_MSG_EQ(u.timestampNs,
                                  Seconds(10).GetNanoSeconds() - 12345,
                                  "timestamp beyond 2^32 ns restored");
        });
        Simulator::Run();
        Simulator::Destroy();
    }
};

/** Leaky bucket at the link rate over the bytes handed to one host NIC. */
struct OfferedBucket
{
    DataRate rate;
    double bucket{0}; //!< bytes above the link rate
    double maxBucket{0};
    Time last{0};

    void Enqueue(Ptr<const QueueDiscItem> item)
    {
        const Time now = Simulator::Now();
        bucket = std::max(0.0, bucket - rate.GetBitRate() / 8.0 * (now - last).GetSeconds());
        last = now;
        bucket += item->GetSize() + 2; // + PPP
        maxBucket = std::max(maxBucket, bucket);
    }
};

class HostNicTestCase : public TestCase
{
  public:
    HostNicTestCase()
        : TestCase("host NIC: data + ACKs within the link rate, host queue of a few packets")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(3);
        RngSeedManager::SetRun(1);
        Ptr<FatTreeHelper> ft = FatTreeHelper::TwoTier(4, 4, 4);
        ft->SetAttribute("HostLinkRate", DataRateValue(DataRate("100Gbps")));
        ft->SetAttribute("FabricLinkRate", DataRateValue(DataRate("100Gbps")));
        ft->Build();
        int64_t stream = 20;
        stream += ft->AssignStreams(stream);
        const uint32_t n = ft->GetNHosts();
        DcnTransportHelper th;
        th.SetTransportAttribute("ControlFrameSize", UintegerValue(64));
        th.Install(ft->GetHosts());

        std::vector<OfferedBucket> buckets(n);
        Ptr<PortStatsHelper> ps = CreateObject<PortStatsHelper>();
        ps->SetAttribute("IncludeHosts", BooleanValue(true));
        ps->SetAttribute("Interval", TimeValue(NanoSeconds(500)));
        ps->Install(ft, Seconds(0), MilliSeconds(2));
        uint32_t maxHostQueue = 0;
        uint32_t hostSamples = 0;
        ps->TraceConnectWithoutContext(
            "Sample",
            Callback<void, const DcnPortSample&>([&](const DcnPortSample& s) {
                if (ps->GetPorts()[s.port].tier < 0)
                {
                    maxHostQueue = std::max(maxHostQueue, s.queueBytes);
                    hostSamples++;
                }
            }));
        for (uint32_t i = 0; i < n; ++i)
        {
            Ptr<NetDevice> dev = ft->GetHosts().Get(i)->GetDevice(1);
            buckets[i].rate = ft->GetHostLinkRate();
            ft->GetQueueDisc(dev)->TraceConnectWithoutContext(
                "Enqueue",
                MakeCallback(&OfferedBucket::Enqueue, &buckets[i]));
        }
        const uint32_t mtu = DcnTransportHelper::Get(ft->GetHosts().Get(0))->GetMtu();
        uint32_t done = 0;
        for (uint32_t i = 0; i < n; ++i)
        {
            const uint32_t dst = (i * 5 + 3) % n; // every host sends and receives
            Ptr<PathSelector> sel = PathSelectorRegistry::Create("ops");
            stream += sel->AssignStreams(stream);
            DcnConnectionParams p;
            p.lineRate = ft->GetHostLinkRate();
            p.baseRtt = ft->GetBaseRtt(i, dst, mtu);
            DcnTransportHelper::Get(ft->GetHosts().Get(i))
                ->Connect(ft->GetHostAddress(dst), sel, CreateObject<DctcpCc>(), p)
                ->SendMessage(2u << 20,
                              DcnConnection::CompletionCallback(
                                  [&done](const DcnMessageRecord&) { done++; }));
        }
        Simulator::Stop(MilliSeconds(2));
        Simulator::Run();
        double worst = 0;
        uint64_t ctrl = 0;
        for (uint32_t i = 0; i < n; ++i)
        {
            worst = std::max(worst, buckets[i].maxBucket);
            ctrl += DcnTransportHelper::Get(ft->GetHosts().Get(i))->GetStats().controlBytesCharged;
        }
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(done, n, "every message completes");
        NS_TEST_ASSERT_MSG_GT(ctrl, 0u, "ACK bytes were charged to the host NICs");
        NS_TEST_ASSERT_MSG_GT(hostSamples, 100u, "host ports are sampled by PortStatsHelper");
        // 64-byte ACKs: each host sends ~512 of them while its own data runs at line rate;
        // without charging them the bucket grows to ~512 x 64 B = 32 KB (8 frames).
        NS_TEST_ASSERT_MSG_LT_OR_EQ(worst,
                                    2.0 * 4150,
                                    "data + ACK bytes offered to a host NIC stay within its rate "
                                    "(burst <= 2 frames)");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(maxHostQueue,
                                    2u * 4150u,
                                    "host queue (port stats) stays below two data packets");
    }
};

class FrozenOrderTestCase : public TestCase
{
  public:
    FrozenOrderTestCase()
        : TestCase("REPS frozen order: OldestValid vs RoundRobin over all entries")
    {
    }

  private:
    void DoRun() override
    {
        for (int mode = 0; mode < 2; ++mode)
        {
            reps::RepsConfig cfg;
            cfg.frozenOrder =
                mode == 0 ? reps::FrozenOrder::OLDEST_VALID : reps::FrozenOrder::ROUND_ROBIN;
            reps::RepsCore<8> core(cfg);
            for (uint16_t ev = 100; ev < 108; ++ev)
            {
                core.OnAck(ev, false, 0); // 8 clean ACKs fill the buffer
            }
            NS_TEST_ASSERT_MSG_EQ(core.OnFailureDetected(0), true, "freezing entered");
            core.OnAck(200, false, 1); // one more valid entry (overwrites the oldest, 100)
            uint16_t first = core.NextEv([]() { return 0; }).ev;
            uint16_t second = core.NextEv([]() { return 0; }).ev;
            if (mode == 0)
            {
                NS_TEST_ASSERT_MSG_EQ(first, 101, "OldestValid: oldest valid entry first");
                NS_TEST_ASSERT_MSG_EQ(second, 102, "then the next oldest");
            }
            else
            {
                NS_TEST_ASSERT_MSG_EQ(first, 200, "RoundRobin: slot 0 first (now 200)");
                NS_TEST_ASSERT_MSG_EQ(second, 101, "then slot 1, in slot order");
                std::vector<uint32_t> uses(8, 0);
                for (int k = 0; k < 800; ++k)
                {
                    uint16_t ev = core.NextEv([]() { return 0; }).ev;
                    uses[ev == 200 ? 0 : ev - 100]++;
                }
                for (uint32_t k = 0; k < 8; ++k)
                {
                    NS_TEST_ASSERT_MSG_EQ(uses[k], 100u, "every entry equally while frozen");
                }
            }
        }
    }
};

class ArtifactProfileTestCase : public TestCase
{
  public:
    ArtifactProfileTestCase()
        : TestCase("--profile=reps-artifact sets the artifact's delays, queues, policy, RTO")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<FatTreeHelper> ft = FatTreeHelper::TwoTier(4, 2, 2);
        RepsArtifactProfile::ApplyFabric(ft, DataRate("400Gbps"));
        ft->Build();
        RepsArtifactProfile::ApplyQueues(ft);
        TimeValue delay;
        ft->GetAttribute("LinkDelay", delay);
        NS_TEST_ASSERT_MSG_EQ(delay.Get(), MicroSeconds(1), "1 us links");
        TimeValue sw;
        ft->GetAttribute("SwitchLatency", sw);
        NS_TEST_ASSERT_MSG_EQ(sw.Get(), Seconds(0), "no switch latency");
        // 2-tier cross-ToR path: 4 links of 1 us each way
        const Time rtt = ft->GetBaseRtt(0, 2, 4096);
        NS_TEST_ASSERT_MSG_EQ((rtt >= MicroSeconds(8) && rtt < MicroSeconds(9)),
                              true,
                              "base RTT = 8 us propagation + serialisation");
        Ptr<DcnQueueDisc> q = ft->GetQueueDisc(ft->GetLink(ft->GetTorUplink(0, 0)).devA);
        NS_TEST_ASSERT_MSG_EQ(q->GetDataLimit().GetValue(), 415000u, "100 x 4150 B at 400G");
        StringValue pol; // EnumValue is a template from ns-3.42 on; the name is portable
        q->GetAttribute("OverflowPolicy", pol);
        NS_TEST_ASSERT_MSG_EQ(pol.Get(), "DropArrivalOrLast", "artifact overflow policy");
        const Time rto = RepsArtifactProfile::Rto(ft, DataRate("400Gbps"));
        // unloaded RTT + 4 x 415000 B x 8 / 400G (8.3 us)
        NS_TEST_ASSERT_MSG_EQ(rto, rtt + NanoSeconds(33200), "artifact RTO formula");
        NS_TEST_ASSERT_MSG_EQ(RepsArtifactProfile::Table().size(), 13u, "documented entries");
        Simulator::Destroy();
    }
};

class RepsFidelityTestSuite : public TestSuite
{
  public:
    RepsFidelityTestSuite()
        : TestSuite("dcn-lb-reps-fidelity", DCNLB_TEST_UNIT)
    {
        AddTestCase(new WireFormatTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new FrozenOrderTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new ArtifactProfileTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new HostNicTestCase, DCNLB_TEST_QUICK);
    }
};

static RepsFidelityTestSuite g_repsFidelityTestSuite;

} // namespace
} // namespace ns3
