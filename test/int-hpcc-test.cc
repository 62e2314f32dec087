/*
 * dcn-lb-int-hpcc: in-band network telemetry stamped by switch egress queues
 * on real header bytes, and HPCC on top of it (issue 12, item 5;
 * doc/int-hpcc.rst).
 *  - idle path: the records of one packet name the three switches of the path
 *    in order, queue lengths are 0, and consecutive egress timestamps differ by
 *    exactly link delay + switch latency + serialisation of the packet;
 *  - hosts never stamp, packets without EXT_INT keep their size;
 *  - incast: the queue length stamped at the congested spine port grows;
 *  - HPCC 2-to-1 incast: mean bottleneck queue small while the bottleneck
 *    stays >= 90% utilised over the steady part.
 */
#include "transport-test-net.h"

#include "ns3/cc-registry.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-queue-disc.h"
#include "ns3/dcn-transport-helper.h"
#include "ns3/dcn-transport.h"
#include "ns3/dctcp-cc.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/hpcc-cc.h"
#include "ns3/log.h"
#include "ns3/path-selector.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/test.h"

#include <functional>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnIntHpccTest");

namespace dcntest
{
namespace
{

/** A small 2-tier fat-tree: nTors ToRs with hostsPerTor hosts, one spine, 100 Gb/s. */
Ptr<FatTreeHelper>
SmallFabric(uint32_t nTors, uint32_t hostsPerTor, Time linkDelay, Time switchLatency)
{
    RngSeedManager::SetSeed(7);
    RngSeedManager::SetRun(1);
    Ptr<FatTreeHelper> ft = FatTreeHelper::TwoTier(nTors, hostsPerTor, 1);
    ft->SetAttribute("HostLinkRate", DataRateValue(DataRate("100Gbps")));
    ft->SetAttribute("FabricLinkRate", DataRateValue(DataRate("100Gbps")));
    ft->SetAttribute("LinkDelay", TimeValue(linkDelay));
    ft->SetAttribute("SwitchLatency", TimeValue(switchLatency));
    ft->Build();
    ft->AssignStreams(10);
    return ft;
}

struct RxRecord
{
    uint32_t wireBytes{0}; //!< PPP + IPv4 + UDP + DcnHeader + payload
    uint8_t count{0};
    std::array<DcnHeader::IntRecord, DcnHeader::MAX_INT> recs;
};

class IntIdlePathCase : public TestCase
{
  public:
    IntIdlePathCase()
        : TestCase("INT on an idle path: switch ids in order, queue 0, timestamps differ by "
                   "link + switch delay + serialisation; hosts do not stamp")
    {
    }

  private:
    void DoRun() override
    {
        const Time link = NanoSeconds(700);
        const Time sw = NanoSeconds(300);
        Ptr<FatTreeHelper> ft = SmallFabric(2, 2, link, sw);
        DcnTransportHelper th;
        th.SetTransportAttribute("IntRequest", BooleanValue(true));
        th.Install(ft->GetHosts());
        std::vector<RxRecord> rx;
        Ptr<DcnTransport> dst = DcnTransportHelper::Get(ft->GetHosts().Get(2));
        dst->TraceConnectWithoutContext("Rx",
                                        MakeCallback(+[](std::vector<RxRecord>* v,
                                                         Ptr<const Packet> p,
                                                         const DcnHeader& h,
                                                         Ipv4Address,
                                                         bool) {
                                            RxRecord r;
                                            r.wireBytes =
                                                p->GetSize() + h.GetSerializedSize() + 8 + 20 + 2;
                                            r.count = h.intCount;
                                            r.recs = h.intRecords;
                                            v->push_back(r);
                                        }).Bind(&rx));
        Ptr<DcnTransport> src = DcnTransportHelper::Get(ft->GetHosts().Get(0));
        DcnConnectionParams prm;
        prm.lineRate = ft->GetHostLinkRate();
        prm.baseRtt = ft->GetBaseRtt(0, 2, 4096);
        Ptr<DcnConnection> c = src->Connect(ft->GetHostAddress(2),
                                            PathSelectorRegistry::Create("ecmp"),
                                            CreateObject<DctcpCc>(),
                                            prm);
        c->SendMessage(1000, DcnConnection::CompletionCallback());
        // a second, later packet: the ports' transmitted bytes have grown by the first one
        Simulator::Schedule(MicroSeconds(50),
                            [c]() { c->SendMessage(2000, DcnConnection::CompletionCallback()); });
        Simulator::Stop(MicroSeconds(200));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(rx.size(), 2u, "two data packets received");
        const RxRecord& r = rx[0];
        NS_TEST_ASSERT_MSG_EQ(uint32_t(r.count), 3u, "ToR, spine, ToR stamped; hosts did not");
        const uint32_t tor0 = ft->GetSwitchIndex(ft->GetSwitches(0).Get(0));
        const uint32_t spine = ft->GetSwitchIndex(ft->GetSwitches(1).Get(0));
        const uint32_t tor1 = ft->GetSwitchIndex(ft->GetSwitches(0).Get(1));
        NS_TEST_ASSERT_MSG_EQ(uint32_t(r.recs[0].switchId), tor0, "hop 0 = source ToR");
        NS_TEST_ASSERT_MSG_EQ(uint32_t(r.recs[1].switchId), spine, "hop 1 = spine");
        NS_TEST_ASSERT_MSG_EQ(uint32_t(r.recs[2].switchId), tor1, "hop 2 = destination ToR");
        // the wire size includes the 5 reserved records: 24 + 1 + 2 + 5 x 28 + 1000 + 30 + 2
        NS_TEST_ASSERT_MSG_EQ(r.wireBytes,
                              DcnHeader::DATA_SIZE + 1 + 2 + 5 * DcnHeader::INT_RECORD_SIZE + 1000 +
                                  DcnHeader::WIRE_BELOW,
                              "reserved INT room on the wire");
        const Time ser = DataRate("100Gbps").CalculateBytesTxTime(r.wireBytes);
        for (uint32_t k = 0; k < 3; ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(r.recs[k].queueBytes, 0u, "idle: queue 0 at hop " << k);
            NS_TEST_ASSERT_MSG_EQ(r.recs[k].rateMbps, 100000u, "link rate at hop " << k);
        }
        for (uint32_t k = 1; k < 3; ++k)
        {
            const int64_t d = r.recs[k].timeNs - r.recs[k - 1].timeNs;
            NS_TEST_ASSERT_MSG_EQ(d,
                                  (link + sw + ser).GetNanoSeconds(),
                                  "hop " << k - 1 << " -> " << k
                                         << ": link + switch delay + serialisation");
        }
        // second packet: same ports, transmitted bytes grew by the first packet's IP size
        const RxRecord& r2 = rx[1];
        NS_TEST_ASSERT_MSG_EQ(uint32_t(r2.count), 3u, "second packet stamped 3 times");
        for (uint32_t k = 0; k < 3; ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(r2.recs[k].port, r.recs[k].port, "same egress port");
            NS_TEST_ASSERT_MSG_EQ(r2.recs[k].txBytes - r.recs[k].txBytes,
                                  uint64_t(r.wireBytes - 2),
                                  "txBytes grew by the first packet at hop " << k);
        }
        // host queues never stamp; switch queues counted 2 stamps on the path
        Ptr<DcnQueueDisc> hq =
            ft->GetQueueDisc(ft->GetHosts().Get(0)->GetDevice(1)); // device 0 = loopback
        NS_TEST_ASSERT_MSG_EQ(hq->GetInt().IsSwitchPort(), false, "host port has no INT identity");
        NS_TEST_ASSERT_MSG_EQ(hq->GetInt().GetNStamped(), 0u, "host port stamped nothing");
        Simulator::Destroy();
    }
};

class IntNotRequestedCase : public TestCase
{
  public:
    IntNotRequestedCase()
        : TestCase("without IntRequest: no EXT_INT, packets keep their base size, no stamps")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<FatTreeHelper> ft = SmallFabric(2, 2, NanoSeconds(500), NanoSeconds(500));
        DcnTransportHelper th;
        th.Install(ft->GetHosts());
        std::vector<uint32_t> sizes;
        DcnTransportHelper::Get(ft->GetHosts().Get(2))
            ->TraceConnectWithoutContext("Rx",
                                         MakeCallback(+[](std::vector<uint32_t>* v,
                                                          Ptr<const Packet> p,
                                                          const DcnHeader& h,
                                                          Ipv4Address,
                                                          bool) {
                                             v->push_back(h.GetSerializedSize() +
                                                          (h.extMask ? 1000 : 0));
                                         }).Bind(&sizes));
        DcnConnectionParams prm;
        prm.lineRate = ft->GetHostLinkRate();
        prm.baseRtt = ft->GetBaseRtt(0, 2, 4096);
        Ptr<DcnConnection> c = DcnTransportHelper::Get(ft->GetHosts().Get(0))
                                   ->Connect(ft->GetHostAddress(2),
                                             PathSelectorRegistry::Create("ecmp"),
                                             CreateObject<DctcpCc>(),
                                             prm);
        c->SendMessage(3 * 4096, DcnConnection::CompletionCallback());
        Simulator::Stop(MicroSeconds(100));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(sizes.size(), 3u, "3 packets");
        for (uint32_t s : sizes)
        {
            NS_TEST_ASSERT_MSG_EQ(s, DcnHeader::DATA_SIZE, "base header, no extension");
        }
        uint64_t stamped = 0;
        for (uint32_t tier = 0; tier < 2; ++tier)
        {
            NodeContainer sws = ft->GetSwitches(tier);
            for (uint32_t i = 0; i < sws.GetN(); ++i)
            {
                Ptr<Node> n = sws.Get(i);
                for (uint32_t d = 1; d < n->GetNDevices(); ++d)
                {
                    stamped += ft->GetQueueDisc(n->GetDevice(d))->GetInt().GetNStamped();
                }
            }
        }
        NS_TEST_ASSERT_MSG_EQ(stamped, 0u, "nothing asked for INT");
        Simulator::Destroy();
    }
};

/** One incast run: nSenders hosts (one per ToR) to the host of the last ToR. */
struct IncastResult
{
    std::array<uint32_t, 3> maxQ{};   //!< largest queue stamped per hop (ToR, spine, ToR)
    std::array<uint32_t, 3> firstQ{}; //!< queue stamped per hop on the first packet
    uint32_t intPackets{0};           //!< data packets received with 3 records
    double meanQueue{0};              //!< bottleneck queue (bytes), sampled every 1 us, steady part
    uint32_t maxQueue{0};             //!< largest sampled bottleneck queue (bytes), steady part
    double utilisation{0};            //!< bottleneck tx bytes / capacity, steady part
    double lastFctUs{0};
    uint64_t intAcks{0};
    uint32_t completed{0};
};

IncastResult
RunIncast(const std::string& cc,
          uint32_t nSenders,
          uint64_t bytes,
          bool intRequest,
          bool inOrder = false)
{
    IncastResult res;
    Ptr<FatTreeHelper> ft = SmallFabric(nSenders + 1, 1, NanoSeconds(500), NanoSeconds(500));
    DcnTransportHelper th;
    th.SetTransportAttribute("IntRequest", BooleanValue(intRequest));
    th.SetTransportAttribute("Cnp", StringValue("On")); // DCQCN's notification point
    th.SetTransportAttribute("Mode", StringValue(inOrder ? "InOrder" : "OutOfOrder"));
    th.Install(ft->GetHosts());
    const uint32_t dstHost = nSenders;
    Ptr<DcnTransport> dst = DcnTransportHelper::Get(ft->GetHosts().Get(dstHost));
    dst->TraceConnectWithoutContext(
        "Rx",
        MakeCallback(
            +[](IncastResult* r, Ptr<const Packet>, const DcnHeader& h, Ipv4Address, bool) {
                if (h.intCount == 3)
                {
                    for (uint32_t k = 0; k < 3; ++k)
                    {
                        if (r->intPackets == 0)
                        {
                            r->firstQ[k] = h.intRecords[k].queueBytes;
                        }
                        r->maxQ[k] = std::max(r->maxQ[k], h.intRecords[k].queueBytes);
                    }
                    r->intPackets++;
                }
            })
            .Bind(&res));
    // bottleneck: the spine's egress toward the destination ToR
    Ptr<DcnQueueDisc> bq;
    Ptr<Node> dstTor = ft->GetSwitches(0).Get(dstHost);
    for (const DcnLinkInfo& l : ft->GetLinks())
    {
        if (l.a == dstTor && l.tierB == 1)
        {
            bq = ft->GetQueueDisc(l.devB);
        }
    }
    NS_ABORT_MSG_IF(!bq, "no bottleneck queue");
    std::vector<Ptr<CongestionControl>> ccs;
    std::vector<double> fcts;
    for (uint32_t s = 0; s < nSenders; ++s)
    {
        DcnConnectionParams prm;
        prm.lineRate = ft->GetHostLinkRate();
        prm.baseRtt = ft->GetBaseRtt(s, dstHost, 4096);
        Ptr<CongestionControl> c = CongestionControlRegistry::Create(cc);
        ccs.push_back(c);
        Ptr<DcnConnection> conn = DcnTransportHelper::Get(ft->GetHosts().Get(s))
                                      ->Connect(ft->GetHostAddress(dstHost),
                                                PathSelectorRegistry::Create("ecmp"),
                                                c,
                                                prm);
        conn->SendMessage(bytes,
                          DcnConnection::CompletionCallback([&fcts](const DcnMessageRecord& r) {
                              fcts.push_back((r.finish - r.start).GetMicroSeconds());
                          }));
    }
    // steady part: from 100 us until the first flow completes
    const Time from = MicroSeconds(100);
    uint64_t samples = 0;
    double qsum = 0;
    uint64_t txAtFrom = 0;
    uint64_t txAtEnd = 0;
    Time end = Time(0);
    std::function<void()> sample;
    sample = [&]() {
        const Time now = Simulator::Now();
        if (!fcts.empty())
        {
            if (end.IsZero())
            {
                end = now;
                txAtEnd = bq->GetInt().GetTxBytes();
            }
            return;
        }
        if (now == from)
        {
            txAtFrom = bq->GetInt().GetTxBytes();
        }
        if (now >= from)
        {
            qsum += bq->GetDataBytes();
            res.maxQueue = std::max(res.maxQueue, bq->GetDataBytes());
            ++samples;
        }
        Simulator::Schedule(MicroSeconds(1), sample);
    };
    Simulator::Schedule(Time(0), sample);
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    res.completed = fcts.size();
    res.meanQueue = samples ? qsum / samples : 0;
    if (end > from)
    {
        res.utilisation = (txAtEnd - txAtFrom) * 8.0 / (100e9 * (end - from).GetSeconds());
    }
    for (double f : fcts)
    {
        res.lastFctUs = std::max(res.lastFctUs, f);
    }
    for (auto& c : ccs)
    {
        Ptr<HpccCc> h = DynamicCast<HpccCc>(c);
        res.intAcks += h ? h->GetNIntAcks() : 0;
    }
    Simulator::Destroy();
    return res;
}

class IntIncastQueueCase : public TestCase
{
  public:
    IntIncastQueueCase()
        : TestCase("INT under a 4-to-1 incast: the queue stamped at the congested spine port grows")
    {
    }

  private:
    void DoRun() override
    {
        IncastResult r = RunIncast("dctcp", 4, 400000, true);
        NS_TEST_ASSERT_MSG_EQ(r.completed, 4u, "all flows complete");
        NS_TEST_ASSERT_MSG_GT(r.intPackets, 300u, "data packets carried 3 records");
        // 4 senders at line rate into one 100 Gb/s spine port: the queue builds at the spine
        // (hop 1); the first packet saw an empty fabric
        for (uint32_t k = 0; k < 3; ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(r.firstQ[k], 0u, "first packet: empty queue at hop " << k);
        }
        NS_TEST_ASSERT_MSG_GT(r.maxQ[1], 20 * 4150u, "stamped spine queue grew (> 20 packets)");
        NS_TEST_ASSERT_MSG_GT(r.meanQueue, 5 * 4150.0, "the sampled spine queue agrees");
    }
};

class HpccIncastCase : public TestCase
{
  public:
    HpccIncastCase()
        : TestCase("HPCC 2-to-1 incast: bottleneck queue near zero, utilisation >= 90%")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(CongestionControlRegistry::Has("hpcc"), true, "registered as hpcc");
        IncastResult r = RunIncast("hpcc", 2, 4000000, false);
        NS_TEST_ASSERT_MSG_EQ(r.completed, 2u, "both flows complete");
        NS_TEST_ASSERT_MSG_GT(r.intAcks, 1000u, "HPCC asked for INT and read the echoed records");
        NS_TEST_ASSERT_MSG_GT(r.intPackets, 1000u, "data packets carried 3 records");
        // HPCC targets eta = 95% of the bottleneck with (almost) no queue (SIGCOMM'19 Sec. 3.2)
        NS_TEST_ASSERT_MSG_GT_OR_EQ(r.utilisation, 0.90, "bottleneck utilisation >= 90%");
        NS_TEST_ASSERT_MSG_LT(r.meanQueue, HPCC_QUEUE_BOUND, "mean bottleneck queue small");
        // the same with the in-order (go-back-N RoCE) transport
        IncastResult g = RunIncast("hpcc", 2, 4000000, false, true);
        NS_LOG_INFO("hpcc InOrder: mean queue " << g.meanQueue << " B, max " << g.maxQueue
                                                << " B, utilisation " << g.utilisation
                                                << ", last FCT " << g.lastFctUs << " us");
        NS_TEST_ASSERT_MSG_EQ(g.completed, 2u, "InOrder: both flows complete");
        NS_TEST_ASSERT_MSG_GT(g.intAcks, 1000u, "InOrder: records read");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(g.utilisation, 0.90, "InOrder: utilisation >= 90%");
        NS_TEST_ASSERT_MSG_LT(g.meanQueue, HPCC_QUEUE_BOUND, "InOrder: mean queue small");
    }

  public:
    /** Bound on the mean steady queue: 2 packets of 4.2 KB (doc/int-hpcc.rst). */
    static constexpr double HPCC_QUEUE_BOUND = 2 * 4300.0;
};

class HpccVersusEcnCase : public TestCase
{
  public:
    HpccVersusEcnCase()
        : TestCase("same 2-to-1 incast: HPCC's queue is far below DCQCN's and DCTCP's")
    {
    }

  private:
    void DoRun() override
    {
        // the numbers of doc/int-hpcc.rst: NS_LOG=DcnIntHpccTest=info
        double q[3];
        const char* names[3] = {"hpcc", "dcqcn", "dctcp"};
        for (int i = 0; i < 3; ++i)
        {
            IncastResult r = RunIncast(names[i], 2, 4000000, false);
            NS_LOG_INFO(names[i] << ": mean queue " << r.meanQueue << " B, max " << r.maxQueue
                                 << " B, utilisation " << r.utilisation << ", last FCT "
                                 << r.lastFctUs << " us");
            NS_TEST_ASSERT_MSG_EQ(r.completed, 2u, names[i] << ": both flows complete");
            q[i] = r.meanQueue;
        }
        NS_TEST_ASSERT_MSG_LT_OR_EQ(q[0], q[1], "HPCC queue <= DCQCN's");
        NS_TEST_ASSERT_MSG_LT(q[0], 0.5 * q[2], "HPCC queue < half of DCTCP's");
    }
};

class IntHpccSuite : public TestSuite
{
  public:
    IntHpccSuite()
        : TestSuite("dcn-lb-int-hpcc", DCNLB_TEST_SYSTEM)
    {
        AddTestCase(new IntIdlePathCase, DCNLB_TEST_QUICK);
        AddTestCase(new IntNotRequestedCase, DCNLB_TEST_QUICK);
        AddTestCase(new IntIncastQueueCase, DCNLB_TEST_QUICK);
        AddTestCase(new HpccIncastCase, DCNLB_TEST_QUICK);
        AddTestCase(new HpccVersusEcnCase, DCNLB_TEST_QUICK);
    }
};

static IntHpccSuite g_intHpccSuite;

} // namespace
} // namespace dcntest
} // namespace ns3
