/*
 * dcn-lb-laps-authors: the pieces of laps-paper --setup=authors (doc/laps.rst "The
 * authors' set-up"; review s44 L3, L4, L8), each alone:
 *  - absolute per-port-rate ECN thresholds (DcnQueueDisc EcnKminPerGbps /
 *    EcnKmaxPerGbps / EcnPmax, LapsApplyAuthorsEcn): every switch port of
 *    laps-rail marks from 4000 B per Gb/s of its link rate (400 KB at 100G, 800 KB
 *    at 200G) to 16000 (1600 / 3200 KB) with probability 0.8 at Kmax, whatever the
 *    150-KB DataLimit; host NIC queues keep the fractions;
 *  - the switch buffer (DcnSwitchBuffer BufferPerPort): 1 MiB x (ports + 2) on every
 *    switch of laps-rail and laps-df;
 *  - the baselines over the LAPS path set (DcnLapsPathsSelector, scheme
 *    ecmp-laps-paths): ECMP connections from one Rail cluster to others put every
 *    packet (data and ACKs) on the links of the LAPS path the selector chose and on
 *    no other link, and some of those paths are not minimal; the chosen path is
 *    Mix32(EV) mod paths, and PLB's repath (a new EV) moves the connection to that
 *    EV's path; LetFlow's flowlets (letflow-laps-paths) use more than one path;
 *  - a buffer below the PFC headroom is refused with the least allowed value, exactly;
 *  - RunLapsExperiment with lapsPathBaselines: ECMP, LetFlow and PLB incasts from
 *    other clusters complete and cross more links than on the minimal paths.
 */
#include "ns3/boolean.h"
#include "ns3/cc-registry.h"
#include "ns3/config.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-pfc-helper.h"
#include "ns3/dcn-queue-disc.h"
#include "ns3/dcn-scheme.h"
#include "ns3/dcn-transport-helper.h"
#include "ns3/dcn-transport.h"
#include "ns3/ev-util.h"
#include "ns3/graph-topology-helper.h"
#include "ns3/laps-experiment.h"
#include "ns3/laps-paths-selector.h"
#include "ns3/plb-path-selector.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"
#include "ns3/workload-helper.h"

#include <set>
#include <vector>

namespace ns3
{
namespace dcntest
{
namespace
{

/** [A]'s ecnParaMap on laps-rail's ports (LapsApplyAuthorsEcn). */
class AuthorsEcnTestCase : public TestCase
{
  public:
    AuthorsEcnTestCase()
        : TestCase("absolute per-rate ECN thresholds on switch ports, fractions on hosts")
    {
    }

  private:
    void DoRun() override
    {
        // laps-paper's 150-KB per-interface limit (spec 4.1)
        Config::SetDefault("ns3::DcnGraphTopology::QueueLimit",
                           QueueSizeValue(QueueSize("150000B")));
        Ptr<DcnGraphTopology> t = DcnTopologyPresets::Create("laps-rail", {}, "minimal");
        Config::Reset();
        LapsApplyAuthorsEcn(t);
        std::set<uint64_t> rates;
        uint32_t switchPorts = 0;
        uint32_t hostPorts = 0;
        for (const DcnLinkInfo& l : t->GetLinks())
        {
            for (int side = 0; side < 2; ++side)
            {
                Ptr<DcnQueueDisc> q = t->GetQueueDisc(side == 0 ? l.devA : l.devB);
                NS_TEST_ASSERT_MSG_NE(q, nullptr, "every port has a DcnQueueDisc");
                const bool host = (side == 0 ? l.tierA : l.tierB) < 0;
                const double limit = q->GetDataLimit().GetValue();
                if (host)
                {
                    ++hostPorts;
                    NS_TEST_EXPECT_MSG_EQ_TOL(q->GetKmin(), 0.2 * limit, 1e-6, "host: fraction");
                    NS_TEST_EXPECT_MSG_EQ_TOL(q->GetKmax(), 0.8 * limit, 1e-6, "host: fraction");
                    continue;
                }
                ++switchPorts;
                const double gbps = l.rate.GetBitRate() / 1e9;
                rates.insert(l.rate.GetBitRate());
                NS_TEST_EXPECT_MSG_EQ_TOL(q->GetKmin(), 4000 * gbps, 1e-6, "Kmin at " << gbps);
                NS_TEST_EXPECT_MSG_EQ_TOL(q->GetKmax(), 16000 * gbps, 1e-6, "Kmax at " << gbps);
                NS_TEST_EXPECT_MSG_GT(q->GetKmin(), limit, "above the 150-KB per-queue limit");
                const double mid = (q->GetKmin() + q->GetKmax()) / 2;
                NS_TEST_EXPECT_MSG_EQ_TOL(q->MarkProbability(static_cast<uint32_t>(mid)),
                                          0.4,
                                          1e-5,
                                          "half-way: Pmax / 2");
                NS_TEST_EXPECT_MSG_EQ(q->MarkProbability(static_cast<uint32_t>(q->GetKmin())),
                                      0.0,
                                      "none at Kmin");
                NS_TEST_EXPECT_MSG_EQ(q->MarkProbability(static_cast<uint32_t>(q->GetKmax()) + 1),
                                      1.0,
                                      "every packet above Kmax");
                if (gbps == 100)
                {
                    NS_TEST_EXPECT_MSG_EQ_TOL(q->GetKmin(), 400000, 1e-6, "[A]: 400 KB at 100G");
                    NS_TEST_EXPECT_MSG_EQ_TOL(q->GetKmax(), 1600000, 1e-6, "[A]: 1600 KB");
                }
                if (gbps == 200)
                {
                    NS_TEST_EXPECT_MSG_EQ_TOL(q->GetKmin(), 800000, 1e-6, "[A]: 800 KB at 200G");
                    NS_TEST_EXPECT_MSG_EQ_TOL(q->GetKmax(), 3200000, 1e-6, "[A]: 3200 KB");
                }
            }
        }
        NS_TEST_EXPECT_MSG_EQ(rates.count(100000000000ULL), 1u, "laps-rail has 100G ports");
        NS_TEST_EXPECT_MSG_EQ(rates.count(200000000000ULL), 1u, "and 200G ports");
        NS_TEST_EXPECT_MSG_EQ(hostPorts, t->GetNHosts(), "one NIC per host");
        NS_TEST_EXPECT_MSG_GT(switchPorts, hostPorts, "switch ports");
        Simulator::Destroy();
    }
};

/** DcnSwitchBuffer BufferPerPort: 1 MiB x (ports + 2) per switch ([A] config_switch_mmu). */
class AuthorsBufferTestCase : public TestCase
{
  public:
    AuthorsBufferTestCase()
        : TestCase("switch buffer 1 MiB x (ports + 2) on laps-rail and laps-df")
    {
    }

  private:
    void DoRun() override
    {
        for (const char* preset : {"laps-rail", "laps-df"})
        {
            for (bool authors : {false, true})
            {
                Ptr<DcnGraphTopology> t = DcnTopologyPresets::Create(preset, {}, "minimal");
                DcnPfcHelper pfc;
                if (authors)
                {
                    pfc.SetBufferAttribute("BufferPerPort",
                                           UintegerValue(LapsAuthorsValues::BUFFER_PER_PORT));
                }
                NS_TEST_ASSERT_MSG_EQ(pfc.Install(t), "", "installs");
                NodeContainer sw = t->GetAllSwitches();
                std::set<uint64_t> sizes;
                for (uint32_t i = 0; i < sw.GetN(); ++i)
                {
                    Ptr<DcnSwitchBuffer> b = DcnPfcHelper::GetBuffer(sw.Get(i));
                    NS_TEST_ASSERT_MSG_NE(b, nullptr, "every switch has a buffer");
                    const uint64_t ports = t->GetLinksOfNode(sw.Get(i)).size();
                    const uint64_t want = authors ? (1ULL << 20) * (ports + 2) : 32ULL << 20;
                    NS_TEST_EXPECT_MSG_EQ(b->GetBufferBytes(),
                                          want,
                                          preset << " switch " << i << ", " << ports << " ports");
                    sizes.insert(b->GetBufferBytes());
                }
                if (authors)
                {
                    if (std::string(preset) == "laps-rail")
                    {
                        NS_TEST_EXPECT_MSG_GT(sizes.size(),
                                              1u,
                                              "Rail: sizes follow the port counts");
                    }
                    NS_TEST_EXPECT_MSG_LT(*sizes.rbegin(), 32ULL << 20, "below the spec's 32 MiB");
                }
                Simulator::Destroy();
            }
        }
    }
};

/** laps-rail with the scheme's switch policy, transports and per-link enqueue counts. */
struct PathsNet
{
    Ptr<DcnGraphTopology> t;
    int64_t stream{100};
    std::vector<uint64_t> perLink; //!< enqueues at both ends of each link
    uint32_t done{0};

    explicit PathsNet(const std::string& scheme, uint64_t run = 1)
    {
        RngSeedManager::SetSeed(5);
        RngSeedManager::SetRun(run);
        Config::SetDefault("ns3::DcnTransport::Mtu", UintegerValue(1000));
        t = DcnTopologyPresets::Create("laps-rail", {}, "minimal");
        stream += t->AssignStreams(stream);
        int64_t used = 0;
        std::string err = DcnSchemeRegistry::InstallSwitchPolicy(scheme, t, stream, &used);
        NS_ABORT_MSG_IF(!err.empty(), err);
        stream += used;
        DcnTransportHelper th;
        th.Install(t->GetHosts());
        perLink.assign(t->GetLinks().size(), 0);
        for (const DcnLinkInfo& l : t->GetLinks())
        {
            for (const auto& dev : {l.devA, l.devB})
            {
                t->GetQueueDisc(dev)->TraceConnectWithoutContext(
                    "DcnEnqueue",
                    MakeBoundCallback(
                        +[](uint64_t* n, Ptr<const QueueDiscItem>, uint32_t) { ++*n; },
                        &perLink[l.id]));
            }
        }
    }

    ~PathsNet()
    {
        Simulator::Destroy();
        Config::Reset();
    }

    /** A connection s -> d with a DcnLapsPathsSelector of the given inner selector. */
    Ptr<DcnConnection> Open(uint32_t s, uint32_t d, Ptr<DcnLapsPathsSelector> ps)
    {
        stream += ps->AssignStreams(stream);
        const DcnConnectionParams p = MakeConnectionParams(t, s, d, 1000);
        return DcnTransportHelper::Get(t->GetHosts().Get(s))
            ->Connect(t->GetHostAddress(d), ps, CongestionControlRegistry::Create("dctcp"), p);
    }

    void Send(Ptr<DcnConnection> c, uint64_t bytes, Time at)
    {
        Simulator::Schedule(at, [this, c, bytes]() {
            c->SendMessage(
                bytes,
                DcnConnection::CompletionCallback([this](const DcnMessageRecord&) { ++done; }));
        });
    }
};

/**
 * ECMP over the LAPS path set: one connection at a time from host 0 to a host of
 * another Rail cluster; every packet on the chosen path's links, none elsewhere.
 */
/** A buffer too small for the PFC headroom is refused with one line naming the attribute
 *  and the least value that fits, and that value installs (review s45 F8); a
 *  Routing=global topology gets an option line, not a crash. */
class BufferRefusalTestCase : public TestCase
{
  public:
    BufferRefusalTestCase()
        : TestCase("a too-small switch buffer is refused with its least allowed value")
    {
    }

  private:
    static std::string Install(const char* attr, uint64_t value)
    {
        Ptr<DcnGraphTopology> t = DcnTopologyPresets::Create("laps-rail", {}, "minimal");
        DcnPfcHelper pfc;
        pfc.SetBufferAttribute(attr, UintegerValue(value));
        std::string err = pfc.Install(t);
        Simulator::Destroy();
        return err;
    }

    static uint64_t Allowed(const std::string& err)
    {
        const size_t at = err.find("allowed: >= ");
        return at == std::string::npos ? 0 : std::stoull(err.substr(at + 12));
    }

    void DoRun() override
    {
        for (const char* attr : {"BufferPerPort", "BufferSize"})
        {
            const std::string err = Install(attr, 1000);
            NS_TEST_ASSERT_MSG_EQ(
                err.rfind(std::string("option --ns3::DcnSwitchBuffer::") + attr, 0),
                0u,
                "names the attribute: " << err);
            NS_TEST_EXPECT_MSG_NE(err.find("value '1000'"), std::string::npos, err);
            NS_TEST_EXPECT_MSG_EQ(err.find('\n'), std::string::npos, "one line");
            // the least value is exact for the switch it names: one less is refused again
            // (by that switch or a larger one), the value itself fits that switch
            const uint64_t least = Allowed(err);
            NS_TEST_ASSERT_MSG_GT(least, 1000u, "a least value: " << err);
            const std::string below = Install(attr, least - 1);
            NS_TEST_EXPECT_MSG_NE(below, "", attr << " " << least - 1 << " still refused");
            const std::string at = Install(attr, least);
            NS_TEST_EXPECT_MSG_EQ(at.empty() || Allowed(at) > least,
                                  true,
                                  attr << " " << least
                                       << " fits the switch that was named: " << at);
        }
        Ptr<DcnGraphTopology> g = DcnTopologyPresets::Create("laps-rail", {}, "global");
        DcnPfcHelper pfc;
        const std::string err = pfc.Install(g);
        NS_TEST_EXPECT_MSG_EQ(err.rfind("option --pfc: ", 0), 0u, "Routing=global: " << err);
        Simulator::Destroy();
    }
};

class EcmpLapsPathsTestCase : public TestCase
{
  public:
    EcmpLapsPathsTestCase()
        : TestCase("ecmp-laps-paths: a Rail inter-cluster flow uses exactly its LAPS path's "
                   "links, some paths non-minimal")
    {
    }

  private:
    void DoRun() override
    {
        uint32_t nonMinimal = 0;
        uint32_t flows = 0;
        std::set<uint32_t> pathsUsed;
        for (uint32_t d = 8; d < 64; d += 7) // hosts of clusters 1..7
        {
            PathsNet net("ecmp-laps-paths", d); // a run per flow: independent EV draws
            Ptr<DcnLapsPathsSelector> ps = CreateObject<DcnLapsPathsSelector>();
            ps->SetAttribute("Inner", StringValue("ecmp"));
            Ptr<DcnConnection> c = net.Open(0, d, ps);
            net.Send(c, 50000, MicroSeconds(1));
            Simulator::Stop(MilliSeconds(5));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(net.done, 1u, "delivered to " << d);
            const std::vector<uint64_t>& sent = ps->GetPathSent();
            NS_TEST_ASSERT_MSG_EQ(sent.size(), 8u, "8 LAPS paths between Rail clusters");
            uint32_t k = 0;
            uint32_t used = 0;
            for (uint32_t i = 0; i < sent.size(); ++i)
            {
                if (sent[i] > 0)
                {
                    k = i;
                    ++used;
                }
            }
            NS_TEST_ASSERT_MSG_EQ(used, 1u, "ECMP: one path per connection");
            const LapsHostTable::PathInfo& info = ps->GetHostTable()->Info(ps->GetFirstPid() + k);
            const std::set<uint32_t> on(info.links.begin(), info.links.end());
            for (uint32_t id = 0; id < net.perLink.size(); ++id)
            {
                if (on.count(id))
                {
                    // data one way, ACKs the reverse of the route
                    NS_TEST_EXPECT_MSG_GT_OR_EQ(net.perLink[id], 2 * sent[k], "path link " << id);
                }
                else
                {
                    NS_TEST_EXPECT_MSG_EQ(net.perLink[id], 0u, "off-path link " << id);
                }
            }
            nonMinimal += info.minimal ? 0 : 1;
            pathsUsed.insert(k);
            ++flows;
        }
        NS_TEST_EXPECT_MSG_EQ(flows, 8u, "eight destinations");
        NS_TEST_EXPECT_MSG_GT(nonMinimal, 0u, "some ECMP flow took a non-minimal LAPS path");
        NS_TEST_EXPECT_MSG_GT(pathsUsed.size(), 1u, "flows spread over several paths");
    }
};

/** The EV -> path map and PLB's repath on an RTO; LetFlow's flowlets take several paths. */
class PlbLetflowLapsPathsTestCase : public TestCase
{
  public:
    PlbLetflowLapsPathsTestCase()
        : TestCase("plb-laps-paths moves with its EV; letflow-laps-paths draws a path per flowlet")
    {
    }

  private:
    void DoRun() override
    {
        {
            PathsNet net("plb-laps-paths");
            Ptr<DcnLapsPathsSelector> ps = CreateObject<DcnLapsPathsSelector>();
            ps->SetAttribute("Inner", StringValue("plb"));
            net.Open(0, 40, ps);
            Ptr<DcnPlbPathSelector> plb = DynamicCast<DcnPlbPathSelector>(ps->GetInner());
            NS_TEST_ASSERT_MSG_NE(plb, nullptr, "inner PLB");
            std::set<int32_t> pids;
            for (uint32_t i = 0; i < 20; ++i)
            {
                SendContext ctx;
                ctx.psn = i;
                PathChoice pc = ps->Choose(ctx);
                NS_TEST_ASSERT_MSG_EQ(pc.ev, plb->GetEv(), "the inner EV on the wire");
                NS_TEST_ASSERT_MSG_EQ(
                    pc.pathId,
                    static_cast<int32_t>(ps->GetFirstPid() + dcnev::Mix32(pc.ev) % 8),
                    "path = Mix32(EV) mod paths");
                const auto& route = ps->GetHostTable()->Info(pc.pathId).route;
                NS_TEST_ASSERT_MSG_EQ(pc.routeLen, route.size(), "the path's route");
                pids.insert(pc.pathId);
                PathFeedback fb;
                fb.signal = FeedbackSignal::TIMEOUT;
                fb.path = pc;
                fb.psn = i;
                Simulator::Schedule(MicroSeconds(1), [] {});
                Simulator::Run(); // a new time: one repath per RTO
                ps->OnFeedback(fb);
            }
            NS_TEST_EXPECT_MSG_GT(plb->GetRepaths(), 0u, "PLB repathed on RTOs");
            NS_TEST_EXPECT_MSG_GT(pids.size(), 1u, "and its packets moved to other paths");
        }
        {
            PathsNet net("letflow-laps-paths");
            Ptr<DcnLapsPathsSelector> ps = CreateObject<DcnLapsPathsSelector>();
            ps->SetAttribute("Inner", StringValue("ecmp"));
            ps->SetAttribute("Flowlets", BooleanValue(true));
            Ptr<DcnConnection> c = net.Open(0, 40, ps);
            for (uint32_t m = 0; m < 8; ++m)
            {
                net.Send(c, 5000, MicroSeconds(1 + 200 * m)); // idle gaps > 50 us
            }
            Simulator::Stop(MilliSeconds(5));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(net.done, 8u, "delivered");
            uint32_t used = 0;
            for (uint64_t x : ps->GetPathSent())
            {
                used += x > 0 ? 1 : 0;
            }
            NS_TEST_EXPECT_MSG_GT(used, 1u, "new flowlets, other paths");
        }
    }
};

/** RunLapsExperiment with lapsPathBaselines: the routed baselines finish over longer paths. */
class LapsPathBaselinesRunTestCase : public TestCase
{
  public:
    LapsPathBaselinesRunTestCase()
        : TestCase("RunLapsExperiment lapsPathBaselines: ecmp, letflow, plb incasts complete "
                   "over more link hops than on minimal paths")
    {
    }

  private:
    void DoRun() override
    {
        for (const char* scheme : {"ecmp", "letflow", "plb"})
        {
            uint64_t hops[2] = {0, 0};
            for (int authors = 0; authors < 2; ++authors)
            {
                LapsExperimentConfig c;
                c.experiment = "allreduce";
                c.scheme = scheme;
                c.incastReceiver = 0;
                c.incastSenders = {12, 27, 45, 58}; // clusters 1, 3, 5, 7
                c.msgBytes = 200000;
                c.stop = MilliSeconds(50);
                c.lapsPathBaselines = authors == 1;
                LapsExperimentResult r = RunLapsExperiment(c);
                NS_TEST_ASSERT_MSG_EQ(r.s.count, 4u, scheme << ": four flows");
                NS_TEST_ASSERT_MSG_EQ(r.s.unfinished, 0u, scheme << ": all finish");
                hops[authors] = r.packetHops;
            }
            NS_TEST_EXPECT_MSG_GT(hops[1], hops[0], scheme << ": LAPS paths are longer");
        }
    }
};

class LapsAuthorsSetupTestSuite : public TestSuite
{
  public:
    LapsAuthorsSetupTestSuite()
        : TestSuite("dcn-lb-laps-authors", DCNLB_TEST_SYSTEM)
    {
        AddTestCase(new AuthorsEcnTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new AuthorsBufferTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new BufferRefusalTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new EcmpLapsPathsTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new PlbLetflowLapsPathsTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new LapsPathBaselinesRunTestCase, DCNLB_TEST_QUICK);
    }
};

LapsAuthorsSetupTestSuite g_lapsAuthorsSetupTestSuite;

} // namespace
} // namespace dcntest
} // namespace ns3
