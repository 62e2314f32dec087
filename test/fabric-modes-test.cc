/*
 * dcn-lb-fabric-modes: FabricMode=fast (DcnPortDevice ports, switch fast path;
 * issue 13, doc/fabric.rst) against FabricMode=ipv4 on the same runs.
 *
 *  - 16-host fat-tree permutation of 1 MiB messages with ecmp, ops and reps:
 *    the same messages complete with the same FCTs (within 0.5%), the same
 *    transport counters, drops, marks and packet hops; the fast mode executes
 *    fewer simulator events per packet-hop (at most 2.5, the IPv4 mode ~3.2);
 *  - 8-to-1 incast with trimming: the same trims, NACKs, retransmissions and FCTs;
 *  - the building blocks: every port of a fast fabric is a DcnPortDevice
 *    owning a DcnQueueDisc (none left in the traffic-control layer), every
 *    switch runs the fast path, and FabricMode=fast with Routing=global or a
 *    bad FabricMode value is refused with one line.
 */
#include "transport-test-net.h"

#include "ns3/config.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-options.h"
#include "ns3/dcn-port-device.h"
#include "ns3/dcn-queue-disc.h"
#include "ns3/dcn-switch-routing.h"
#include "ns3/dcn-transport-helper.h"
#include "ns3/dcn-transport.h"
#include "ns3/dctcp-cc.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/ipv4-header.h"
#include "ns3/object-factory.h"
#include "ns3/packet-hops.h"
#include "ns3/path-selector.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/traffic-control-layer.h"

#include <algorithm>
#include <cstdlib>
#include <map>

namespace ns3
{
namespace dcntest
{

struct ModeRunConfig
{
    std::string mode{"ipv4"};
    std::string lb{"ops"};
    bool incast{false};
    bool trim{false};
    uint64_t msgBytes{1 << 20};
    bool ownTransmit{true};                     //!< DcnPortDevice::OwnTransmit (fast mode)
    std::string scheduler{"ns3::MapScheduler"}; //!< event scheduler TypeId
};

struct ModeRunResult
{
    std::map<std::pair<uint32_t, uint64_t>, double> fctUs; //!< (src, msgId) -> FCT
    uint32_t expected{0};
    DcnTransportStats total;
    uint64_t trimmed{0};
    uint64_t dropped{0};
    uint64_t marked{0};
    uint64_t hops{0};
    uint64_t events{0};
    uint32_t portDevices{0};
    uint32_t tcRootQueues{0};
    uint32_t fastSwitches{0};
    uint64_t ipv4Delivered{0}; //!< Ipv4L3Protocol LocalDeliver on any node
    uint64_t ipv4Forwarded{0}; //!< Ipv4L3Protocol UnicastForward on any node
};

void
CountIpv4(uint64_t* n, const Ipv4Header&, Ptr<const Packet>, uint32_t)
{
    ++*n;
}

ModeRunResult
RunMode(const ModeRunConfig& cfg)
{
    RngSeedManager::SetSeed(11);
    RngSeedManager::SetRun(1);
    Config::SetDefault("ns3::DcnPortDevice::OwnTransmit", BooleanValue(cfg.ownTransmit));
    ObjectFactory sched;
    sched.SetTypeId(cfg.scheduler);
    Simulator::SetScheduler(sched);
    ModeRunResult res;
    Ptr<FatTreeHelper> ft = CreateObject<FatTreeHelper>();
    ft->SetAttribute("FabricMode", StringValue(cfg.mode));
    ft->SetAttribute("NumTors", UintegerValue(4));
    ft->SetAttribute("HostsPerTor", UintegerValue(4));
    ft->SetAttribute("UplinksPerTor", UintegerValue(4));
    ft->SetAttribute("HostLinkRate", DataRateValue(DataRate("100Gbps")));
    ft->SetAttribute("FabricLinkRate", DataRateValue(DataRate("100Gbps")));
    ft->SetAttribute("TrimEnabled", BooleanValue(cfg.trim));
    if (cfg.incast)
    {
        ft->SetAttribute("QueueLimit", QueueSizeValue(QueueSize("100000B")));
    }
    ft->Build();
    int64_t stream = 10;
    stream += ft->AssignStreams(stream);
    const uint32_t n = ft->GetNHosts();
    DcnPacketHopCounter hops;
    hops.InstallAll();
    Config::ConnectWithoutContext("/NodeList/*/$ns3::Ipv4L3Protocol/LocalDeliver",
                                  MakeBoundCallback(&CountIpv4, &res.ipv4Delivered));
    Config::ConnectWithoutContext("/NodeList/*/$ns3::Ipv4L3Protocol/UnicastForward",
                                  MakeBoundCallback(&CountIpv4, &res.ipv4Forwarded));

    DcnTransportHelper th;
    th.SetTransportAttribute("Trimming", BooleanValue(cfg.trim));
    th.Install(ft->GetHosts());
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    for (uint32_t i = 0; i < (cfg.incast ? 8u : n); ++i)
    {
        pairs.emplace_back(cfg.incast ? n - 1 - i : i, cfg.incast ? 0 : (i * 5 + 3) % n);
    }
    const uint32_t mtu = DcnTransportHelper::Get(ft->GetHosts().Get(0))->GetMtu();
    for (auto& pr : pairs)
    {
        Ptr<DcnTransport> t = DcnTransportHelper::Get(ft->GetHosts().Get(pr.first));
        Ptr<PathSelector> ps = PathSelectorRegistry::Create(cfg.lb);
        stream += ps->AssignStreams(stream);
        DcnConnectionParams p;
        p.lineRate = ft->GetHostLinkRate();
        p.baseRtt = ft->GetBaseRtt(pr.first, pr.second, mtu);
        Ptr<DcnConnection> c =
            t->Connect(ft->GetHostAddress(pr.second), ps, CreateObject<DctcpCc>(), p);
        c->SendMessage(
            cfg.msgBytes,
            DcnConnection::CompletionCallback([&res](const DcnMessageRecord& r) {
                res.fctUs[{r.src.Get(), r.msgId}] = (r.finish - r.start).GetSeconds() * 1e6;
            }));
        res.expected++;
    }
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    res.events = Simulator::GetEventCount();
    res.hops = hops.Get();
    for (uint32_t i = 0; i < n; ++i)
    {
        const DcnTransportStats& s = DcnTransportHelper::Get(ft->GetHosts().Get(i))->GetStats();
        res.total.dataPacketsSent += s.dataPacketsSent;
        res.total.retransmissions += s.retransmissions;
        res.total.timeouts += s.timeouts;
        res.total.nacksSent += s.nacksSent;
        res.total.trimmedReceived += s.trimmedReceived;
        res.total.uniqueBytesDelivered += s.uniqueBytesDelivered;
        res.total.messagesCompleted += s.messagesCompleted;
    }
    for (const DcnLinkInfo& li : ft->GetLinks())
    {
        for (Ptr<NetDevice> d : {Ptr<NetDevice>(li.devA), Ptr<NetDevice>(li.devB)})
        {
            Ptr<DcnQueueDisc> q = ft->GetQueueDisc(d);
            if (q)
            {
                res.trimmed += q->GetNTrimmed();
                res.dropped += q->GetNDropped();
                res.marked += q->GetNMarked();
            }
            res.portDevices += DynamicCast<DcnPortDevice>(d) ? 1 : 0;
            Ptr<TrafficControlLayer> tc = d->GetNode()->GetObject<TrafficControlLayer>();
            res.tcRootQueues += tc->GetRootQueueDiscOnDevice(d) ? 1 : 0;
        }
    }
    NodeContainer sw = ft->GetAllSwitches();
    for (uint32_t i = 0; i < sw.GetN(); ++i)
    {
        res.fastSwitches += ft->GetRouting(sw.Get(i))->IsFastPath() ? 1 : 0;
    }
    Simulator::Destroy();
    Config::SetDefault("ns3::DcnPortDevice::OwnTransmit", BooleanValue(true));
    return res;
}

/** Both modes on one configuration: equal results, fewer events in the fast mode. */
class FabricModesEqualTestCase : public TestCase
{
  public:
    FabricModesEqualTestCase(const std::string& lb, bool incast)
        : TestCase(std::string(incast ? "8-to-1 incast with trimming" : "16-host permutation") +
                   ", lb=" + lb + ": FabricMode=fast equals FabricMode=ipv4"),
          m_lb(lb),
          m_incast(incast)
    {
    }

  private:
    void DoRun() override
    {
        ModeRunConfig cfg;
        cfg.lb = m_lb;
        cfg.incast = m_incast;
        cfg.trim = m_incast;
        cfg.msgBytes = m_incast ? 512 * 1024 : 1 << 20;
        ModeRunResult a = RunMode(cfg);
        cfg.mode = "fast";
        ModeRunResult b = RunMode(cfg);

        NS_TEST_ASSERT_MSG_EQ(a.portDevices, 0u, "ipv4 mode: PointToPointNetDevices");
        NS_TEST_ASSERT_MSG_EQ(b.portDevices, 2u * 32, "fast mode: every port a DcnPortDevice");
        NS_TEST_ASSERT_MSG_EQ(b.tcRootQueues, 0u, "fast mode: no queue disc in the TC layer");
        NS_TEST_ASSERT_MSG_EQ(a.fastSwitches, 0u, "ipv4 mode: no switch fast path");
        NS_TEST_ASSERT_MSG_EQ(b.fastSwitches, 8u, "fast mode: every switch on the fast path");
        NS_TEST_ASSERT_MSG_GT(a.ipv4Forwarded, 0u, "ipv4 mode: switches forward through IPv4");
        NS_TEST_ASSERT_MSG_GT(a.ipv4Delivered, 0u, "ipv4 mode: hosts receive through IPv4");
        NS_TEST_ASSERT_MSG_EQ(b.ipv4Forwarded, 0u, "fast mode: no IPv4 forwarding in switches");
        NS_TEST_ASSERT_MSG_EQ(b.ipv4Delivered, 0u, "fast mode: the transport bypasses IPv4");

        NS_TEST_ASSERT_MSG_EQ(a.fctUs.size(), a.expected, "ipv4: every message completes");
        NS_TEST_ASSERT_MSG_EQ(b.fctUs.size(), b.expected, "fast: every message completes");
        for (const auto& e : a.fctUs)
        {
            auto it = b.fctUs.find(e.first);
            NS_TEST_ASSERT_MSG_EQ((it != b.fctUs.end()), true, "same message completes");
            NS_TEST_EXPECT_MSG_EQ_TOL(it->second,
                                      e.second,
                                      e.second * 0.005,
                                      "FCT within 0.5% (src " << e.first.first << ")");
        }
        NS_TEST_EXPECT_MSG_EQ(b.total.messagesCompleted, a.total.messagesCompleted, "completed");
        NS_TEST_EXPECT_MSG_EQ(b.total.uniqueBytesDelivered, a.total.uniqueBytesDelivered, "bytes");
        NS_TEST_EXPECT_MSG_EQ(b.total.dataPacketsSent, a.total.dataPacketsSent, "data packets");
        NS_TEST_EXPECT_MSG_EQ(b.total.retransmissions, a.total.retransmissions, "retx");
        NS_TEST_EXPECT_MSG_EQ(b.total.timeouts, a.total.timeouts, "timeouts");
        NS_TEST_EXPECT_MSG_EQ(b.total.nacksSent, a.total.nacksSent, "NACKs");
        NS_TEST_EXPECT_MSG_EQ(b.trimmed, a.trimmed, "trims");
        NS_TEST_EXPECT_MSG_EQ(b.dropped, a.dropped, "drops");
        NS_TEST_EXPECT_MSG_EQ(b.marked, a.marked, "ECN marks");
        NS_TEST_EXPECT_MSG_EQ(b.hops, a.hops, "packet hops");
        if (m_incast)
        {
            NS_TEST_EXPECT_MSG_GT(b.trimmed, 0u, "the incast trims (the case is exercised)");
        }
        const double epA = double(a.events) / a.hops;
        const double epB = double(b.events) / b.hops;
        std::cout << "  lb=" << m_lb << (m_incast ? " incast" : " permutation")
                  << ": events/hop ipv4 " << epA << " fast " << epB << ", hops " << b.hops
                  << ", trims " << b.trimmed << ", marks " << b.marked << "\n";
        NS_TEST_EXPECT_MSG_LT(epB, 2.5, "fast mode: at most 2.5 events per packet-hop");
        NS_TEST_EXPECT_MSG_LT(epB, epA * 0.8, "fast mode: fewer events per packet-hop");
    }

    std::string m_lb;
    bool m_incast;
};

/**
 * The port's own transmit machine (OwnTransmit=true) against
 * PointToPointNetDevice's (false): the same events in the same order, hence
 * identical results, event counts included.
 */
/** A test case whose two runs must be identical (trimming incast, event counts included). */
class IdenticalRunsTestCase : public TestCase
{
  public:
    using TestCase::TestCase;

  protected:
    /** The run both cases repeat: REPS, 8-to-1 incast with trimming, fast fabric. */
    static ModeRunConfig FastTrimmingIncast()
    {
        ModeRunConfig cfg;
        cfg.mode = "fast";
        cfg.lb = "reps";
        cfg.incast = true;
        cfg.trim = true;
        cfg.msgBytes = 256 * 1024;
        return cfg;
    }

    void ExpectIdentical(const ModeRunResult& a, const ModeRunResult& b)
    {
        NS_TEST_ASSERT_MSG_EQ(b.fctUs.size(), b.expected, "every message completes");
        NS_TEST_ASSERT_MSG_EQ(a.fctUs.size(), b.fctUs.size(), "same messages complete");
        for (const auto& e : a.fctUs)
        {
            auto it = b.fctUs.find(e.first);
            NS_TEST_ASSERT_MSG_EQ((it != b.fctUs.end()), true, "same message completes");
            NS_TEST_EXPECT_MSG_EQ(it->second, e.second, "identical FCT");
        }
        NS_TEST_EXPECT_MSG_GT(b.trimmed, 0u, "the incast trims (the case is exercised)");
        NS_TEST_EXPECT_MSG_EQ(b.trimmed, a.trimmed, "trims");
        NS_TEST_EXPECT_MSG_EQ(b.dropped, a.dropped, "drops");
        NS_TEST_EXPECT_MSG_EQ(b.marked, a.marked, "ECN marks");
        NS_TEST_EXPECT_MSG_EQ(b.hops, a.hops, "packet hops (PortTxEnd against PhyTxEnd)");
        NS_TEST_EXPECT_MSG_EQ(b.events, a.events, "the same number of events");
        NS_TEST_EXPECT_MSG_EQ(b.total.retransmissions, a.total.retransmissions, "retx");
    }
};

class FabricOwnTransmitTestCase : public IdenticalRunsTestCase
{
  public:
    FabricOwnTransmitTestCase()
        : IdenticalRunsTestCase(
              "fast fabric, incast with trimming: OwnTransmit=true is identical to "
              "PointToPointNetDevice's transmit machine")
    {
    }

  private:
    void DoRun() override
    {
        ModeRunConfig cfg = FastTrimmingIncast();
        cfg.ownTransmit = false;
        ModeRunResult a = RunMode(cfg);
        cfg.ownTransmit = true;
        ModeRunResult b = RunMode(cfg);
        ExpectIdentical(a, b);
    }
};

/**
 * DcnHeapScheduler (the default of every dcn-lb program) against ns-3's
 * MapScheduler: both order events by (time, uid), so a run is identical,
 * event count included.
 */
class FabricHeapSchedulerTestCase : public IdenticalRunsTestCase
{
  public:
    FabricHeapSchedulerTestCase()
        : IdenticalRunsTestCase(
              "fast fabric, incast with trimming: DcnHeapScheduler is identical to "
              "MapScheduler")
    {
    }

  private:
    void DoRun() override
    {
        ModeRunConfig cfg = FastTrimmingIncast();
        ModeRunResult a = RunMode(cfg);
        cfg.scheduler = "ns3::DcnHeapScheduler";
        ModeRunResult b = RunMode(cfg);
        ExpectIdentical(a, b);
    }
};

/** Bad FabricMode / Routing=global with fast: one-line refusals. */
class FabricModesRefusalTestCase : public TestCase
{
  public:
    FabricModesRefusalTestCase()
        : TestCase("FabricMode: bad value and fast with Routing=global are refused")
    {
    }

  private:
    static std::string Build(const std::string& mode, const std::string& routing)
    {
        Ptr<FatTreeHelper> ft = CreateObject<FatTreeHelper>();
        ft->SetAttribute("FabricMode", StringValue(mode));
        ft->SetAttribute("Routing", StringValue(routing));
        ft->SetAttribute("NumTors", UintegerValue(2));
        ft->SetAttribute("HostsPerTor", UintegerValue(2));
        ft->SetAttribute("UplinksPerTor", UintegerValue(2));
        std::string err;
        try
        {
            ft->Build();
        }
        catch (const DcnOptionError& e)
        {
            err = e.what();
        }
        Simulator::Destroy();
        return err;
    }

    void DoRun() override
    {
        // DCNLB_FABRIC=fast lets Routing=global fall back to ipv4: test without it
        const char* env = std::getenv("DCNLB_FABRIC");
        const std::string saved = env ? env : "";
        unsetenv("DCNLB_FABRIC");
        std::string e = Build("quick", "dcn");
        NS_TEST_EXPECT_MSG_NE(e.find("FabricMode='quick'"), std::string::npos, e);
        NS_TEST_EXPECT_MSG_NE(e.find("'ipv4' or 'fast'"), std::string::npos, e);
        e = Build("fast", "global");
        NS_TEST_EXPECT_MSG_NE(e.find("Routing='global'"), std::string::npos, e);
        NS_TEST_EXPECT_MSG_EQ(e.find('\n'), std::string::npos, "one line");
        NS_TEST_EXPECT_MSG_EQ(Build("ipv4", "global"), "", "ipv4 + global is allowed");
        if (env)
        {
            setenv("DCNLB_FABRIC", saved.c_str(), 1);
        }
    }
};

class FabricModesSuite : public TestSuite
{
  public:
    FabricModesSuite()
        : TestSuite("dcn-lb-fabric-modes", DCNLB_TEST_SYSTEM)
    {
        AddTestCase(new FabricModesRefusalTestCase, DCNLB_TEST_QUICK);
        for (const char* lb : {"ecmp", "ops", "reps"})
        {
            AddTestCase(new FabricModesEqualTestCase(lb, false), DCNLB_TEST_QUICK);
        }
        AddTestCase(new FabricModesEqualTestCase("ops", true), DCNLB_TEST_QUICK);
        AddTestCase(new FabricModesEqualTestCase("reps", true), DCNLB_TEST_QUICK);
        AddTestCase(new FabricOwnTransmitTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new FabricHeapSchedulerTestCase, DCNLB_TEST_QUICK);
    }
};

static FabricModesSuite g_fabricModesSuite;

} // namespace dcntest
} // namespace ns3
