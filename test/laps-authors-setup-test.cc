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
 *  - CONGA over the LAPS path set (conga-laps-paths, issue 16): a flowlet from one Rail
 *    cluster to another has its data on exactly one LAPS path's links (the source leaf's
 *    choice), feedback for that LBTag reaches the source leaf, a path whose link CONGA sees
 *    saturated is left at the next flowlet (and kept without it); a pair of more than 16
 *    paths is refused; ConWeave likewise (conweave-laps-paths): an unrerouted flow's data
 *    on exactly one LAPS path's links, followed by the later switches; a rerouted flow
 *    (reply deadline forced to pass) on exactly its tags' paths' links, >= 2 paths,
 *    reordered by the destination ToR, delivered once and in order, no hold drop;
 *  - a buffer below the PFC headroom is refused with the least allowed value, exactly;
 *  - RunLapsExperiment with lapsPathBaselines: ECMP, LetFlow and PLB incasts from
 *    other clusters complete and cross more links than on the minimal paths;
 *  - staggered incast starts (LapsStaggerStarts, staggerStarts; review s44 L13): in
 *    [0, 10 ms), spread, the same for the same RngRun;
 *  - the load reference (loadScale, WorkloadHelper LoadScale; L7): laps-df's 1.3013 x
 *    gives exactly the flows of a 1.3013 x longer window at the host reference;
 *  - the attribute defaults of --setup=authors (LapsAuthorsDefaults; L2, L11-L13) and
 *    LapsPathSelector SoftmaxNorm / InflightCapBasis = unloaded: the normaliser, the
 *    weights and the in-flight cap as computed from the links.
 */
#include "ns3/boolean.h"
#include "ns3/cc-registry.h"
#include "ns3/config.h"
#include "ns3/conga-forwarding-policy.h"
#include "ns3/conweave-forwarding-policy.h"
#include "ns3/dcn-graph-routing.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-pfc-helper.h"
#include "ns3/dcn-queue-disc.h"
#include "ns3/dcn-scheme.h"
#include "ns3/dcn-switch-routing.h"
#include "ns3/dcn-transport-helper.h"
#include "ns3/dcn-transport.h"
#include "ns3/dcqcn-cc.h"
#include "ns3/enum.h"
#include "ns3/ev-util.h"
#include "ns3/failure-helper.h"
#include "ns3/graph-topology-helper.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/laps-experiment.h"
#include "ns3/laps-path-selector.h"
#include "ns3/laps-paths-selector.h"
#include "ns3/plb-path-selector.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"
#include "ns3/workload-helper.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <set>
#include <tuple>
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

/** The line a switch-side scheme over LAPS path indices gives on a df-small with h = 5
 *  (20 paths per group pair, more than a 4-bit index numbers). */
std::string
PathCountRefusal(const std::string& scheme)
{
    Ptr<DcnGraphTopology> df = DcnTopologyPresets::Create("df-small", {{"h", "5"}}, "minimal");
    return DcnSchemeRegistry::CheckSwitchPolicy(scheme, *df);
}

/** laps-rail with the scheme's switch policy, transports and per-link enqueue counts. */
struct PathsNet
{
    Ptr<DcnGraphTopology> t;
    int64_t stream{100};
    std::vector<uint64_t> perLink;     //!< enqueues at both ends of each link
    std::vector<uint64_t> dataPerLink; //!< of them, items of >= 500 B (data, not ACKs)
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
        dataPerLink.assign(t->GetLinks().size(), 0);
        for (const DcnLinkInfo& l : t->GetLinks())
        {
            for (const auto& dev : {l.devA, l.devB})
            {
                t->GetQueueDisc(dev)->TraceConnectWithoutContext(
                    "DcnEnqueue",
                    MakeBoundCallback(
                        +[](uint64_t* n, Ptr<const QueueDiscItem>, uint32_t) { ++*n; },
                        &perLink[l.id]));
                t->GetQueueDisc(dev)->TraceConnectWithoutContext(
                    "DcnEnqueue",
                    MakeBoundCallback(
                        +[](uint64_t* n, Ptr<const QueueDiscItem> i, uint32_t) {
                            *n += i->GetSize() >= 500 ? 1 : 0;
                        },
                        &dataPerLink[l.id]));
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

    /** A connection s -> d with any path selector (e.g. the hosts' ECMP of conga-laps-paths). */
    Ptr<DcnConnection> OpenWith(uint32_t s, uint32_t d, Ptr<PathSelector> ps)
    {
        stream += ps->AssignStreams(stream);
        const DcnConnectionParams p = MakeConnectionParams(t, s, d, 1000);
        return DcnTransportHelper::Get(t->GetHosts().Get(s))
            ->Connect(t->GetHostAddress(d), ps, CongestionControlRegistry::Create("dctcp"), p);
    }

    /** The CONGA policy of switch sw (conga-laps-paths). */
    Ptr<CongaForwardingPolicy> Conga(uint32_t sw) const
    {
        return DynamicCast<CongaForwardingPolicy>(
            t->GetRouting(t->GetAllSwitches().Get(sw))->GetForwardingPolicy());
    }

    /** The ConWeave policy of switch sw (conweave-laps-paths). */
    Ptr<ConWeaveForwardingPolicy> ConWeave(uint32_t sw) const
    {
        return DynamicCast<ConWeaveForwardingPolicy>(
            t->GetRouting(t->GetAllSwitches().Get(sw))->GetForwardingPolicy());
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
        // PFC off (a lossy shared buffer): the line names that, not --pfc alone (review R10)
        DcnPfcHelper lossy;
        lossy.SetPfc(false);
        const std::string errOff = lossy.Install(g);
        NS_TEST_EXPECT_MSG_EQ(errOff.rfind("option --pfc=false with a shared switch buffer", 0),
                              0u,
                              "Routing=global, PFC off: " << errOff);
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

/**
 * CONGA over the LAPS path set (issue 16, scheme conga-laps-paths): a flowlet from Rail
 * cluster 0 to another cluster puts its data on exactly the links of one LAPS path of its
 * leaf pair (the one the source leaf chose, read from the links crossed), the
 * destination leaf's feedback on that path reaches the source leaf's Congestion-To-Leaf
 * entry, and a path whose link CONGA sees congested is left at the next flowlet (without
 * it every flowlet keeps its path: ties prefer the previous one).
 */
class CongaLapsPathsTestCase : public TestCase
{
  public:
    CongaLapsPathsTestCase()
        : TestCase("conga-laps-paths: a Rail inter-cluster flowlet on exactly one LAPS path of "
                   "its leaf pair, feedback for that path at the source leaf, a congested path "
                   "left; as [A]: PathSamples 4, ties uniform")
    {
    }

  private:
    /** Keep a DRE saturated (the metric of a congested link) until `until`. */
    static void Saturate(lbcore::CongaDre* dre, Time until)
    {
        dre->OnPacket(4000000, Simulator::Now().GetNanoSeconds());
        if (Simulator::Now() < until)
        {
            Simulator::Schedule(MicroSeconds(5), &CongaLapsPathsTestCase::Saturate, dre, until);
        }
    }

    /** Paths chosen per new flowlet from host 0 to d (messages every 300 us, > 150 us
     *  flowlet timeout); congest: saturate the second link of the first flowlet's path;
     *  authorsChoice: PathSamples 4, TiesPreferCurrent false ([A]'s GetCongaBestPath) and
     *  FeedbackChoice Random ([A]'s GetCongaEgressPort). */
    std::vector<uint8_t> Flowlets(uint32_t d,
                                  bool congest,
                                  uint32_t* congestedPath,
                                  bool authorsChoice = false)
    {
        if (authorsChoice)
        {
            Config::SetDefault("ns3::DcnCongaLapsForwardingPolicy::PathSamples", UintegerValue(4));
            Config::SetDefault("ns3::DcnCongaLapsForwardingPolicy::TiesPreferCurrent",
                               BooleanValue(false));
            Config::SetDefault("ns3::DcnCongaLapsForwardingPolicy::FeedbackChoice",
                               StringValue("Random"));
        }
        PathsNet net("conga-laps-paths"); // its destructor: Config::Reset
        Ptr<CongaForwardingPolicy> src = net.Conga(net.t->GetSwitchOfHost(0));
        const lbcore::CongaConfig& cfg = src->GetCore().GetConfig();
        NS_TEST_EXPECT_MSG_EQ(cfg.pathSamples,
                              authorsChoice ? 4 : 0,
                              "PathSamples reaches the core");
        NS_TEST_EXPECT_MSG_EQ(cfg.tiesPreferCurrent,
                              !authorsChoice,
                              "TiesPreferCurrent reaches the core");
        NS_TEST_EXPECT_MSG_EQ(cfg.feedbackRandom, authorsChoice, "FeedbackChoice reaches the core");
        const uint16_t l0 = src->GetLeafOfHost(0);
        const uint16_t ld = src->GetLeafOfHost(d);
        std::vector<uint8_t> chosen;

        struct Ctx
        {
            std::vector<uint8_t>* chosen;
            uint16_t ld;
            bool congest;
            PathsNet* net;
            uint16_t l0;
            uint32_t* congestedPath;
            uint32_t dst;
        } ctx{&chosen, ld, congest, &net, l0, congestedPath, d};

        src->TraceConnectWithoutContext(
            "PathChoice",
            MakeBoundCallback(
                +[](Ctx* c, uint16_t dstLeaf, uint8_t k) {
                    if (dstLeaf != c->ld)
                    {
                        return;
                    }
                    if (c->chosen->empty() && c->congest)
                    {
                        // the path's second switch: its egress on the path, made congested
                        const uint32_t s = c->net->t->GetSwitchOfHost(0);
                        const uint32_t d = c->net->t->GetSwitchOfHost(c->dst);
                        const auto paths = c->net->t->GetMinimalRouting().LapsPaths(s, d);
                        const uint32_t second = paths.at(k).switches.at(1);
                        Ptr<CongaForwardingPolicy> p = c->net->Conga(second);
                        const uint32_t eg = p->GetPairPathEgress(c->l0, c->ld, k);
                        lbcore::CongaDre* dre = p->GetEgressDre(eg);
                        NS_ABORT_MSG_IF(dre == nullptr, "no DRE on the path's second hop");
                        Saturate(dre, MilliSeconds(8));
                        *c->congestedPath = k;
                    }
                    c->chosen->push_back(k);
                },
                &ctx));
        Ptr<DcnConnection> c = net.OpenWith(0, d, PathSelectorRegistry::Create("ecmp"));
        for (uint32_t m = 0; m < 20; ++m)
        {
            net.Send(c, 20000, MicroSeconds(1 + 300 * m));
        }
        Simulator::Stop(MilliSeconds(8));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(net.done, 20u, "delivered");
        return chosen;
    }

    void DoRun() override
    {
        uint32_t nonMinimal = 0;
        std::set<uint32_t> pathsUsed;
        for (uint32_t d = 8; d < 64; d += 7) // hosts of clusters 1..7
        {
            PathsNet net("conga-laps-paths", d); // a run per flow: independent draws
            const uint32_t s0 = net.t->GetSwitchOfHost(0);
            const uint32_t sd = net.t->GetSwitchOfHost(d);
            Ptr<CongaForwardingPolicy> src = net.Conga(s0);
            NS_TEST_ASSERT_MSG_NE(src, nullptr, "the conga-laps policy on the source switch");
            NS_TEST_ASSERT_MSG_EQ(std::string(src->Name()), "conga-laps", "policy");
            const uint16_t l0 = src->GetLeafOfHost(0);
            const uint16_t ld = src->GetLeafOfHost(d);
            std::vector<std::pair<uint16_t, uint8_t>> chosen;
            src->TraceConnectWithoutContext(
                "PathChoice",
                MakeBoundCallback(
                    +[](std::vector<std::pair<uint16_t, uint8_t>>* v, uint16_t l, uint8_t k) {
                        v->emplace_back(l, k);
                    },
                    &chosen));
            std::vector<std::pair<uint16_t, uint8_t>> fb;
            src->TraceConnectWithoutContext("Feedback",
                                            MakeBoundCallback(
                                                +[](std::vector<std::pair<uint16_t, uint8_t>>* v,
                                                    uint16_t l,
                                                    uint8_t tag,
                                                    uint8_t) { v->emplace_back(l, tag); },
                                                &fb));
            Ptr<DcnConnection> c = net.OpenWith(0, d, PathSelectorRegistry::Create("ecmp"));
            net.Send(c, 50000, MicroSeconds(1));
            Simulator::Stop(MilliSeconds(5));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(net.done, 1u, "delivered to " << d);
            const auto paths = net.t->GetMinimalRouting().LapsPaths(s0, sd);
            NS_TEST_ASSERT_MSG_EQ(paths.size(), 8u, "8 LAPS paths between Rail clusters");
            NS_TEST_ASSERT_MSG_EQ(src->GetPairPathCount(l0, ld), 8u, "the policy's pair set");
            NS_TEST_ASSERT_MSG_EQ(chosen.size(), 1u, "one flowlet, one choice");
            NS_TEST_ASSERT_MSG_EQ(chosen[0].first, ld, "to the destination's leaf");
            const uint8_t k = chosen[0].second;
            NS_TEST_ASSERT_MSG_LT(k, 8u, "a path of the pair");
            const std::set<uint32_t> on(paths[k].links.begin(), paths[k].links.end());
            for (const DcnLinkInfo& l : net.t->GetLinks())
            {
                if (l.tierA < 0 || l.tierB < 0)
                {
                    continue; // host links
                }
                if (on.count(l.id))
                {
                    NS_TEST_EXPECT_MSG_GT_OR_EQ(net.dataPerLink[l.id],
                                                50u,
                                                "data on path link " << l.id);
                }
                else
                {
                    NS_TEST_EXPECT_MSG_EQ(net.dataPerLink[l.id], 0u, "no data on link " << l.id);
                }
            }
            NS_TEST_EXPECT_MSG_GT(net.Conga(paths[k].switches.at(1))->GetPathForwarded(),
                                  0u,
                                  "the next switch followed the LBTag's path");
            // the destination leaf fed back that path's congestion to the source leaf
            NS_TEST_EXPECT_MSG_GT(src->GetFeedbackReceived(), 0u, "feedback read");
            const bool fedBack = std::count(fb.begin(), fb.end(), std::make_pair(ld, k)) > 0;
            NS_TEST_EXPECT_MSG_EQ(fedBack,
                                  true,
                                  "feedback for the chosen LBTag from the destination leaf");
            NS_TEST_EXPECT_MSG_EQ(
                src->GetCore().IsCongestionToLeafValid(ld, k, Simulator::Now().GetNanoSeconds()),
                true,
                "Congestion-To-Leaf[dst][path] set");
            nonMinimal += paths[k].minimal ? 0 : 1;
            pathsUsed.insert(k);
        }
        NS_TEST_EXPECT_MSG_GT(nonMinimal, 0u, "some flowlet took a non-minimal LAPS path");
        NS_TEST_EXPECT_MSG_GT(pathsUsed.size(), 1u, "flowlets spread over several paths");

        // a congested path is left at the next flowlet; without congestion ties keep it
        uint32_t k0 = 99;
        const std::vector<uint8_t> calm = Flowlets(40, false, &k0);
        NS_TEST_ASSERT_MSG_EQ(calm.size(), 20u, "a flowlet per message");
        NS_TEST_EXPECT_MSG_EQ(std::count(calm.begin(), calm.end(), calm[0]),
                              20,
                              "uncongested: every flowlet keeps the first path");
        // as [A] (PathSamples 4, ties uniform): uncongested flowlets do not keep their path
        const std::vector<uint8_t> authors = Flowlets(40, false, &k0, true);
        NS_TEST_ASSERT_MSG_EQ(authors.size(), 20u, "a flowlet per message");
        NS_TEST_EXPECT_MSG_LT(std::count(authors.begin(), authors.end(), authors[0]),
                              20,
                              "[A]'s choice: ties uniform, the first path not always kept");
        NS_TEST_EXPECT_MSG_GT(std::set<uint8_t>(authors.begin(), authors.end()).size(),
                              2u,
                              "[A]'s choice: flowlets over several paths");
        const std::vector<uint8_t> hot = Flowlets(40, true, &k0);
        NS_TEST_ASSERT_MSG_EQ(hot.size(), 20u, "a flowlet per message");
        NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(hot[0]), k0, "the first flowlet's path");
        NS_TEST_EXPECT_MSG_EQ(std::count(hot.begin() + 1, hot.end(), hot[0]),
                              0,
                              "congested: no later flowlet takes it");

        // refusals: not a graph topology; a pair with more paths than the 4-bit LBTag
        const std::string err = PathCountRefusal("conga-laps-paths");
        NS_TEST_EXPECT_MSG_NE(err.find("LAPS paths in 4 bits"), std::string::npos, err);
        NS_TEST_EXPECT_MSG_NE(err.find("at most 16"), std::string::npos, err);
        NS_TEST_EXPECT_MSG_EQ(err.find('\n'), std::string::npos, "one line");
        Simulator::Destroy();
    }
};

/**
 * ConWeave over the LAPS path set (issue 16, scheme conweave-laps-paths): a flow from Rail
 * cluster 0 to another cluster, not rerouted, has its data on exactly the links of one
 * LAPS path of its ToR pair, which later switches followed by the tag's path bits; some
 * flows take non-minimal paths; a pair of more than 16 paths is refused.
 */
class ConWeaveLapsPathsTestCase : public TestCase
{
  public:
    ConWeaveLapsPathsTestCase()
        : TestCase("conweave-laps-paths: a Rail inter-cluster flow on exactly one LAPS path of "
                   "its ToR pair, followed by the later switches")
    {
    }

  private:
    void DoRun() override
    {
        uint32_t nonMinimal = 0;
        std::set<uint32_t> pathsUsed;
        for (uint32_t d = 8; d < 64; d += 7) // hosts of clusters 1..7
        {
            PathsNet net("conweave-laps-paths", d);
            const uint32_t s0 = net.t->GetSwitchOfHost(0);
            const uint32_t sd = net.t->GetSwitchOfHost(d);
            Ptr<ConWeaveForwardingPolicy> src = net.ConWeave(s0);
            NS_TEST_ASSERT_MSG_NE(src, nullptr, "the conweave-laps policy on the source ToR");
            NS_TEST_ASSERT_MSG_EQ(std::string(src->Name()), "conweave-laps", "policy");
            uint32_t reroutes = 0;
            src->TraceConnectWithoutContext(
                "Reroute",
                MakeBoundCallback(
                    +[](uint32_t* n, uint64_t, uint8_t, uint8_t, bool) { ++*n; },
                    &reroutes));
            Ptr<DcnConnection> c = net.OpenWith(0, d, PathSelectorRegistry::Create("ecmp"));
            net.Send(c, 50000, MicroSeconds(1));
            Simulator::Stop(MilliSeconds(5));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(net.done, 1u, "delivered to " << d);
            NS_TEST_EXPECT_MSG_EQ(reroutes, 0u, "an idle fabric: no reroute");
            std::set<uint32_t> data;
            for (const DcnLinkInfo& l : net.t->GetLinks())
            {
                if (l.tierA >= 0 && l.tierB >= 0 && net.dataPerLink[l.id] > 0)
                {
                    data.insert(l.id);
                }
            }
            const auto paths = net.t->GetMinimalRouting().LapsPaths(s0, sd);
            NS_TEST_ASSERT_MSG_EQ(paths.size(), 8u, "8 LAPS paths between Rail clusters");
            int k = -1;
            for (uint32_t i = 0; i < paths.size(); ++i)
            {
                if (std::set<uint32_t>(paths[i].links.begin(), paths[i].links.end()) == data)
                {
                    k = static_cast<int>(i);
                }
            }
            NS_TEST_ASSERT_MSG_NE(k, -1, "the data crossed exactly the links of one LAPS path");
            if (k < 0 || paths[k].switches.size() < 2)
            {
                continue;
            }
            NS_TEST_EXPECT_MSG_GT(net.ConWeave(paths[k].switches.at(1))->GetPathForwarded(),
                                  0u,
                                  "the next switch followed the tag's path");
            nonMinimal += paths[k].minimal ? 0 : 1;
            pathsUsed.insert(static_cast<uint32_t>(k));
        }
        NS_TEST_EXPECT_MSG_GT(nonMinimal, 0u, "some flow took a non-minimal LAPS path");
        NS_TEST_EXPECT_MSG_GT(pathsUsed.size(), 1u, "flows spread over several paths");
        const std::string err = PathCountRefusal("conweave-laps-paths");
        NS_TEST_EXPECT_MSG_NE(err.find("LAPS paths in 4 bits"), std::string::npos, err);
        NS_TEST_EXPECT_MSG_EQ(err.find('\n'), std::string::npos, "one line");
        Simulator::Destroy();
    }
};

/**
 * A ConWeave REROUTE among LAPS path indices (conweave-laps-paths): theta_reply made to
 * pass at once (BaseRtt = 1 ns, ReplyDeadlineExtra = 0), so every epoch's second packet
 * is the TAIL on the old path and the rest of the epoch goes REROUTED on another path
 * index of the ToR pair.  For a flow from Rail cluster 0 to each other cluster: the
 * source ToR rerouted (Reroute trace); every data packet on a fabric link carries a path
 * index < the pair's path count and crosses only that path's links, and the links crossed
 * are exactly the union of the link sets of two or more paths (the ones the Reroute trace
 * names), of more than one length over the run; the destination ToR held REROUTED packets
 * that overtook their TAIL and released them after it, with no hold drop, no missing reorder
 * queue and no resume-timeout release; every message completes and the receiver gets each
 * packet once, in PSN order.  The attributes are back to their defaults afterwards.
 */
class ConWeaveLapsRerouteTestCase : public TestCase
{
  public:
    ConWeaveLapsRerouteTestCase()
        : TestCase("conweave-laps-paths reroute: TAIL on the old LAPS path, REROUTED on another, "
                   "exactly their links, reordered by the destination ToR, delivered in order")
    {
    }

  private:
    /** The tagged data packets enqueued on the fabric links of one run. */
    struct Seen
    {
        std::vector<std::set<uint32_t>> pathLinks; //!< the pair's path k -> its links
        std::set<uint32_t> paths;                  //!< path indices in the tags
        std::set<uint32_t> links;                  //!< links with data
        uint64_t tagged{0};
        uint64_t untagged{0}; //!< data on a fabric link without a ConWeave tag
        uint64_t badIndex{0}; //!< a path index >= the pair's path count
        uint64_t offPath{0};  //!< data on a link not on its tag's path
        uint64_t rerouted{0}; //!< of them, REROUTED
        uint64_t tails{0};
    };

    struct LinkCtx
    {
        Seen* seen;
        uint32_t link;
    };

    /** The receiver's delivered PSNs. */
    struct RxOrder
    {
        int64_t last{-1};
        uint64_t delivered{0};
        uint64_t outOfSequence{0}; //!< a delivered psn other than the previous one + 1
        uint64_t duplicates{0};
    };

    void DoRun() override
    {
        uint64_t held = 0;
        uint64_t releasedByTail = 0;
        std::set<size_t> lengths;            // hop counts of the paths data took, over the runs
        for (uint32_t d = 8; d < 64; d += 7) // hosts of clusters 1..7
        {
            // theta_reply = 1 ns: the reply deadline passes before the epoch's second packet
            Config::SetDefault("ns3::DcnConWeaveForwardingPolicy::BaseRtt",
                               TimeValue(NanoSeconds(1)));
            Config::SetDefault("ns3::DcnConWeaveForwardingPolicy::ReplyDeadlineExtra",
                               TimeValue(Time(0)));
            PathsNet net("conweave-laps-paths", d); // its destructor: Config::Reset
            const uint32_t s0 = net.t->GetSwitchOfHost(0);
            const uint32_t sd = net.t->GetSwitchOfHost(d);
            Ptr<ConWeaveForwardingPolicy> src = net.ConWeave(s0);
            Ptr<ConWeaveForwardingPolicy> dst = net.ConWeave(sd);
            NS_TEST_ASSERT_MSG_NE(src, nullptr, "the conweave-laps policy on the source ToR");
            NS_TEST_ASSERT_MSG_NE(dst, nullptr, "and on the destination ToR");
            const auto paths = net.t->GetMinimalRouting().LapsPaths(s0, sd);
            NS_TEST_ASSERT_MSG_EQ(paths.size(), 8u, "8 LAPS paths between Rail clusters");
            NS_TEST_ASSERT_MSG_EQ(src->GetTxCore().GetConfig().replyExtraNs, 0, "attribute");

            Seen seen;
            for (const auto& p : paths)
            {
                seen.pathLinks.emplace_back(p.links.begin(), p.links.end());
            }
            std::vector<std::unique_ptr<LinkCtx>> ctx;
            for (const DcnLinkInfo& l : net.t->GetLinks())
            {
                if (l.tierA < 0 || l.tierB < 0)
                {
                    continue; // host links: untagged from the host, tagged to it
                }
                ctx.push_back(std::make_unique<LinkCtx>(LinkCtx{&seen, l.id}));
                for (const auto& dev : {l.devA, l.devB})
                {
                    net.t->GetQueueDisc(dev)->TraceConnectWithoutContext(
                        "DcnEnqueue",
                        MakeBoundCallback(
                            +[](LinkCtx* c, Ptr<const QueueDiscItem> i, uint32_t) {
                                auto ip = DynamicCast<const Ipv4QueueDiscItem>(i);
                                if (i->GetSize() < 500 || !ip)
                                {
                                    return; // ACKs, ConWeave control
                                }
                                Seen& s = *c->seen;
                                const uint16_t id = ip->GetHeader().GetIdentification();
                                if (!lbcore::ConWeaveTag::IsTagged(id))
                                {
                                    ++s.untagged;
                                    return;
                                }
                                const lbcore::ConWeaveTag tag = lbcore::ConWeaveTag::Unpack(id);
                                ++s.tagged;
                                s.rerouted += tag.rerouted ? 1 : 0;
                                s.tails += tag.flag == lbcore::CwFlag::TAIL ? 1 : 0;
                                s.links.insert(c->link);
                                if (tag.path >= s.pathLinks.size())
                                {
                                    ++s.badIndex;
                                    return;
                                }
                                s.paths.insert(tag.path);
                                s.offPath += s.pathLinks[tag.path].count(c->link) ? 0 : 1;
                            },
                            ctx.back().get()));
                }
            }
            // the source ToR's reroutes: (old path, new path, by reply timeout)
            std::vector<std::tuple<uint32_t, uint32_t, bool>> reroutes;
            src->TraceConnectWithoutContext(
                "Reroute",
                MakeBoundCallback(
                    +[](std::vector<std::tuple<uint32_t, uint32_t, bool>>* v,
                        uint64_t,
                        uint8_t from,
                        uint8_t to,
                        bool timeout) { v->emplace_back(from, to, timeout); },
                    &reroutes));
            RxOrder order;
            Ptr<DcnTransport> rx = DcnTransportHelper::Get(net.t->GetHosts().Get(d));
            rx->TraceConnectWithoutContext(
                "Rx",
                MakeBoundCallback(
                    +[](RxOrder* o, Ptr<const Packet>, const DcnHeader& h, Ipv4Address, bool dup) {
                        if (dup)
                        {
                            ++o->duplicates;
                            return;
                        }
                        o->outOfSequence += static_cast<int64_t>(h.psn) == o->last + 1 ? 0 : 1;
                        o->last = h.psn;
                        ++o->delivered;
                    },
                    &order));
            Ptr<DcnConnection> c = net.OpenWith(0, d, PathSelectorRegistry::Create("ecmp"));
            net.Send(c, 200000, MicroSeconds(1));
            net.Send(c, 100000, MicroSeconds(40)); // queued behind: one flow, no idle gap
            net.Send(c, 100000, MicroSeconds(150));
            Simulator::Stop(MilliSeconds(5));
            Simulator::Run();

            // (1) reroutes at the reply timeout
            NS_TEST_EXPECT_MSG_EQ(net.done, 3u, "every message to host " << d << " completes");
            NS_TEST_ASSERT_MSG_GT(reroutes.size(),
                                  0u,
                                  "the source ToR rerouted (host " << d << ")");
            NS_TEST_EXPECT_MSG_EQ(reroutes.size(),
                                  src->GetTxCore().GetReroutes(),
                                  "one trace per reroute");
            NS_TEST_EXPECT_MSG_GT(src->GetTxCore().GetReplyTimeouts(), 0u, "reply timeouts");
            // the paths named: the first one and every new one (the last new one unused if
            // the flow's last packet was a TAIL)
            std::set<uint32_t> named{std::get<0>(reroutes.front())};
            std::set<uint32_t> namedUsed = named;
            for (size_t i = 0; i < reroutes.size(); ++i)
            {
                const auto& r = reroutes[i];
                NS_TEST_EXPECT_MSG_EQ(std::get<2>(r), true, "rerouted by the reply timeout");
                NS_TEST_EXPECT_MSG_NE(std::get<0>(r), std::get<1>(r), "to another path");
                named.insert(std::get<1>(r));
                if (i + 1 < reroutes.size())
                {
                    namedUsed.insert(std::get<1>(r));
                }
            }
            // (2) the data on exactly the links of the paths of its tags, >= 2 of them
            NS_TEST_EXPECT_MSG_GT(seen.tagged, 0u, "tagged data");
            NS_TEST_EXPECT_MSG_EQ(seen.untagged, 0u, "no untagged data on a fabric link");
            NS_TEST_EXPECT_MSG_EQ(seen.badIndex, 0u, "every path index < the pair's 8");
            NS_TEST_EXPECT_MSG_EQ(seen.offPath, 0u, "every data packet on its tag's path");
            NS_TEST_EXPECT_MSG_GT(seen.rerouted, 0u, "REROUTED packets");
            NS_TEST_EXPECT_MSG_GT(seen.tails, 0u, "TAILs");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(seen.paths.size(), 2u, "two or more paths of the pair");
            NS_TEST_EXPECT_MSG_EQ(
                std::includes(named.begin(), named.end(), seen.paths.begin(), seen.paths.end()) &&
                    std::includes(seen.paths.begin(),
                                  seen.paths.end(),
                                  namedUsed.begin(),
                                  namedUsed.end()),
                true,
                "the paths used are the ones the Reroute trace names");
            std::set<uint32_t> onPaths;
            for (uint32_t k : seen.paths)
            {
                onPaths.insert(paths[k].links.begin(), paths[k].links.end());
                lengths.insert(paths[k].links.size());
            }
            NS_TEST_EXPECT_MSG_EQ((seen.links == onPaths),
                                  true,
                                  "the data crossed exactly the union of those paths' links");
            std::set<uint32_t> dataLinks; // the same from PathsNet's own counters
            for (const DcnLinkInfo& l : net.t->GetLinks())
            {
                if (l.tierA >= 0 && l.tierB >= 0 && net.dataPerLink[l.id] > 0)
                {
                    dataLinks.insert(l.id);
                }
            }
            NS_TEST_EXPECT_MSG_EQ((dataLinks == onPaths), true, "per-link counts agree");
            // (3) reordered at the destination ToR, nothing dropped, in order at the host
            const auto& rxc = dst->GetRxCore();
            held += rxc.GetHeld();
            releasedByTail += rxc.GetReleasedByTail();
            NS_TEST_EXPECT_MSG_EQ(rxc.GetHoldDrops(), 0u, "no reorder-queue drop");
            NS_TEST_EXPECT_MSG_EQ(rxc.GetNoVoq(), 0u, "a reorder queue whenever needed");
            NS_TEST_EXPECT_MSG_EQ(rxc.GetReleasedByTimeout(), 0u, "every hold ended by its TAIL");
            NS_TEST_EXPECT_MSG_EQ(rxc.GetVoqsInUse(), 0u, "no packet left held");
            uint64_t drops = 0;
            for (uint32_t s = 0; s < net.t->GetAllSwitches().GetN(); ++s)
            {
                drops += net.ConWeave(s)->GetDrops();
            }
            NS_TEST_EXPECT_MSG_EQ(drops, 0u, "no ConWeave drop anywhere");
            const DcnTransportStats& rs = rx->GetStats();
            const DcnTransportStats& ss =
                DcnTransportHelper::Get(net.t->GetHosts().Get(0))->GetStats();
            NS_TEST_EXPECT_MSG_EQ(rs.uniqueBytesDelivered, 400000u, "every byte delivered");
            NS_TEST_EXPECT_MSG_GT(order.delivered, 0u, "packets delivered");
            NS_TEST_EXPECT_MSG_EQ(order.outOfSequence, 0u, "in PSN order at host " << d);
            NS_TEST_EXPECT_MSG_EQ(order.duplicates, 0u, "each packet once");
            NS_TEST_EXPECT_MSG_EQ(rs.outOfOrderPackets, 0u, "the receiver saw no reordering");
            NS_TEST_EXPECT_MSG_EQ(ss.retransmissions, 0u, "no retransmission");
            NS_TEST_EXPECT_MSG_EQ(ss.timeouts, 0u, "no timeout");
        }
        NS_TEST_EXPECT_MSG_GT(held, 0u, "REROUTED packets overtook a TAIL and were held");
        NS_TEST_EXPECT_MSG_GT(releasedByTail, 0u, "and were released after their TAIL");
        NS_TEST_EXPECT_MSG_GT(lengths.size(), 1u, "rerouted between paths of different lengths");
        // (4) the defaults are back (PathsNet's Config::Reset)
        Ptr<ConWeaveForwardingPolicy> fresh = CreateObject<DcnConWeaveLapsForwardingPolicy>();
        TimeValue v;
        fresh->GetAttribute("BaseRtt", v);
        NS_TEST_EXPECT_MSG_EQ(v.Get(), Time(0), "BaseRtt restored");
        fresh->GetAttribute("ReplyDeadlineExtra", v);
        NS_TEST_EXPECT_MSG_EQ(v.Get(), MicroSeconds(4), "ReplyDeadlineExtra restored");
        Simulator::Destroy();
    }
};

/**
 * CONGA and ConWeave over the LAPS path set after routed link failures (FailureHelper
 * FailLink, withdrawn after withdrawDelay): each ToR keeps a validity bit per (leaf pair,
 * path), cleared when a link of the path is withdrawn (DcnTopology's LinkRouted, as
 * LapsHostTable's path validity).  For flows from host 0 to other Rail clusters, a link of
 * every path but path 0 of the pair is failed, before the traffic or in the middle of it:
 * while a failed link is withdrawn no data packet is enqueued on it (the source ToR
 * chooses only valid paths; a packet already on an invalid path goes to a minimal next
 * hop), and every message completes.  With the validity ignored (the mutation) data is
 * sent into the withdrawn links.
 */
class LapsPathsFailureTestCase : public TestCase
{
  public:
    explicit LapsPathsFailureTestCase(const std::string& scheme)
        : TestCase(scheme + ": no data onto a withdrawn link of a LAPS path, every message "
                            "completes (failure before and during the traffic)"),
          m_scheme(scheme)
    {
    }

  private:
    /** Paths diverted to a minimal next hop, over every switch. */
    uint64_t Diverted(const PathsNet& net) const
    {
        uint64_t n = 0;
        for (uint32_t s = 0; s < net.t->GetAllSwitches().GetN(); ++s)
        {
            Ptr<ForwardingPolicy> p =
                net.t->GetRouting(net.t->GetAllSwitches().Get(s))->GetForwardingPolicy();
            if (auto c = DynamicCast<CongaForwardingPolicy>(p))
            {
                n += c->GetPathDiverted();
            }
            else if (auto w = DynamicCast<ConWeaveForwardingPolicy>(p))
            {
                n += w->GetPathDiverted();
            }
        }
        return n;
    }

    void DoRun() override
    {
        uint64_t onWithdrawn = 0;
        uint64_t diverted = 0;
        uint32_t hitMidRun = 0;
        for (const bool midRun : {false, true})
        {
            for (uint32_t d = 8; d < 64; d += 14) // hosts of clusters 1, 2, 4, 6
            {
                PathsNet net(m_scheme, d + (midRun ? 100 : 0));
                const uint32_t s0 = net.t->GetSwitchOfHost(0);
                const uint32_t sd = net.t->GetSwitchOfHost(d);
                const auto paths = net.t->GetMinimalRouting().LapsPaths(s0, sd);
                NS_TEST_ASSERT_MSG_EQ(paths.size(), 8u, "8 LAPS paths between Rail clusters");
                // a link of every path but path 0, not on path 0 (the last such, so a
                // packet already on its path meets it after the source ToR)
                const std::set<uint32_t> keep(paths[0].links.begin(), paths[0].links.end());
                std::set<uint32_t> failed;
                for (size_t k = 1; k < paths.size(); ++k)
                {
                    for (size_t i = paths[k].links.size(); i-- > 0;)
                    {
                        if (!keep.count(paths[k].links[i]))
                        {
                            failed.insert(paths[k].links[i]);
                            break;
                        }
                    }
                }
                NS_TEST_ASSERT_MSG_GT(failed.size(), 0u, "links to fail");
                // data enqueued on a link while it is withdrawn
                std::vector<uint64_t> bad(net.t->GetLinks().size(), 0);
                for (uint32_t l : failed)
                {
                    const DcnLinkInfo& li = net.t->GetLink(l);
                    for (const auto& dev : {li.devA, li.devB})
                    {
                        m_ctx.push_back(std::make_unique<Ctx>(Ctx{&bad[l], PeekPointer(net.t), l}));
                        net.t->GetQueueDisc(dev)->TraceConnectWithoutContext(
                            "DcnEnqueue",
                            MakeBoundCallback(
                                +[](Ctx* c, Ptr<const QueueDiscItem> i, uint32_t) {
                                    if (i->GetSize() >= 500 && !c->t->IsLinkRouted(c->link))
                                    {
                                        ++*c->n;
                                    }
                                },
                                m_ctx.back().get()));
                    }
                }
                Ptr<FailureHelper> fh = CreateObject<FailureHelper>(net.t);
                // mid-run: while both 1-MB messages stream (>= 80 us at 100G)
                const Time at = midRun ? MicroSeconds(20) : Time(0);
                const Time withdraw = midRun ? MicroSeconds(5) : Time(0);
                for (uint32_t l : failed)
                {
                    fh->FailLink(l, at, withdraw);
                }
                Ptr<DcnConnection> c = net.OpenWith(0, d, PathSelectorRegistry::Create("ecmp"));
                net.Send(c, 1000000, MicroSeconds(1));
                for (uint32_t m = 1; m <= 5; ++m) // later flowlets
                {
                    net.Send(c, 40000, MicroSeconds(100 * m + 200));
                }
                // the reverse direction (ACKs and data) crosses the failed links too
                Ptr<DcnConnection> r = net.OpenWith(d, 0, PathSelectorRegistry::Create("ecmp"));
                net.Send(r, 1000000, MicroSeconds(1));
                Simulator::Stop(MilliSeconds(40));
                Simulator::Run();
                NS_TEST_EXPECT_MSG_EQ(net.done,
                                      7u,
                                      m_scheme << " to host " << d << (midRun ? " mid-run" : "")
                                               << ": every message completes");
                for (uint32_t l : failed)
                {
                    onWithdrawn += bad[l];
                    NS_TEST_EXPECT_MSG_EQ(bad[l],
                                          0u,
                                          m_scheme << " to host " << d << (midRun ? " mid-run" : "")
                                                   << ": data enqueued on withdrawn link " << l);
                }
                diverted += Diverted(net);
                hitMidRun += midRun && fh->GetInjectedDrops() > 0 ? 1 : 0;
            }
        }
        NS_TEST_EXPECT_MSG_EQ(onWithdrawn, 0u, "no data onto a withdrawn link");
        NS_TEST_EXPECT_MSG_GT(hitMidRun, 0u, "some mid-run failure hit a flow's path");
        NS_TEST_EXPECT_MSG_GT(diverted, 0u, "packets on an invalidated path went minimal");
        m_ctx.clear();
    }

    /** A withdrawn-link data counter's state. */
    struct Ctx
    {
        uint64_t* n;
        DcnTopology* t;
        uint32_t link;
    };

    std::string m_scheme;
    std::vector<std::unique_ptr<Ctx>> m_ctx;
};

/**
 * CONGA and ConWeave over the LAPS path set after a routed failure is restored: every path
 * of the pair but path 0 loses a link at 0 (withdrawn at once) for 300 us; flows started
 * after the restore take the restored paths again (their validity bits set back by
 * DcnTopology's LinkRouted), and every message completes.  Twelve new flows choose among
 * the eight paths (ties at an idle fabric), so none on a restored path has probability
 * 8^-12; a table that never set a path valid again (the mutation) keeps every later
 * flow on path 0.
 */
class LapsPathsRestoreTestCase : public TestCase
{
  public:
    explicit LapsPathsRestoreTestCase(const std::string& scheme)
        : TestCase(scheme + ": flows after a restore use the restored LAPS paths again"),
          m_scheme(scheme)
    {
    }

  private:
    void DoRun() override
    {
        PathsNet net(m_scheme, 7);
        const uint32_t d = 22; // a host of cluster 2
        const auto paths = net.t->GetMinimalRouting().LapsPaths(net.t->GetSwitchOfHost(0),
                                                                net.t->GetSwitchOfHost(d));
        NS_TEST_ASSERT_MSG_EQ(paths.size(), 8u, "8 LAPS paths between Rail clusters");
        const std::set<uint32_t> keep(paths[0].links.begin(), paths[0].links.end());
        std::set<uint32_t> failed;
        for (size_t k = 1; k < paths.size(); ++k)
        {
            for (uint32_t l : paths[k].links)
            {
                if (!keep.count(l))
                {
                    failed.insert(l);
                    break;
                }
            }
        }
        NS_TEST_ASSERT_MSG_GT(failed.size(), 0u, "links to fail");
        Ptr<FailureHelper> fh = CreateObject<FailureHelper>(net.t);
        const Time restore = MicroSeconds(300);
        for (uint32_t l : failed)
        {
            fh->FailLink(l, Time(0), Time(0), restore);
        }
        // before the restore: one flow, on path 0 only (no data onto a failed link)
        Ptr<DcnConnection> first = net.OpenWith(0, d, PathSelectorRegistry::Create("ecmp"));
        net.Send(first, 200000, MicroSeconds(1));
        uint64_t before = 0;
        Simulator::Schedule(restore, [&]() {
            for (uint32_t l : failed)
            {
                before += net.dataPerLink[l];
            }
        });
        // after it: twelve new flows
        const uint32_t nLater = 12;
        for (uint32_t i = 0; i < nLater; ++i)
        {
            Ptr<DcnConnection> c = net.OpenWith(0, d, PathSelectorRegistry::Create("ecmp"));
            net.Send(c, 20000, restore + MicroSeconds(100 + 20 * i));
        }
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        uint64_t after = 0;
        for (uint32_t l : failed)
        {
            after += net.dataPerLink[l];
        }
        after -= before;
        NS_TEST_EXPECT_MSG_EQ(net.done, nLater + 1, m_scheme << ": every message completes");
        NS_TEST_EXPECT_MSG_EQ(before, 0u, m_scheme << ": no data onto a failed link before");
        NS_TEST_EXPECT_MSG_GT(after,
                              0u,
                              m_scheme << ": later flows use the restored paths (data packets "
                                          "on the restored links)");
        for (uint32_t l : failed)
        {
            NS_TEST_EXPECT_MSG_EQ(net.t->IsLinkRouted(l), true, "link " << l << " routed again");
        }
    }

    std::string m_scheme;
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

/** authorsPlb (review s44 L5): PLB as [A] runs it, rate-based DCTCP over go-back-N with the
 *  RoCE window; the spec's PLB (window DCTCP over selective repeat) without it. */
class AuthorsPlbTransportTestCase : public TestCase
{
  public:
    AuthorsPlbTransportTestCase()
        : TestCase("authorsPlb: plb runs dctcp-rate over InOrder (go-back-N) with the unified "
                   "window, PLB NACKs congested; without it dctcp over OutOfOrder")
    {
    }

  private:
    void DoRun() override
    {
        for (const char* scheme : {"plb", "plb-laps-paths"})
        {
            std::string cc;
            std::string mode;
            LapsTransportOf(scheme, cc, mode, true);
            NS_TEST_EXPECT_MSG_EQ(cc, "dctcp-rate", scheme << " (authors): rate DCTCP");
            NS_TEST_EXPECT_MSG_EQ(mode, "InOrder", scheme << " (authors): go-back-N");
            LapsTransportOf(scheme, cc, mode, false);
            NS_TEST_EXPECT_MSG_EQ(cc, "dctcp", scheme << " (spec): window DCTCP");
            NS_TEST_EXPECT_MSG_EQ(mode, "OutOfOrder", scheme << " (spec): selective repeat");
            // the other schemes keep their transport with authorsPlb
            LapsTransportOf("ecmp", cc, mode, true);
            NS_TEST_EXPECT_MSG_EQ(cc + "/" + mode, "dcqcn/InOrder", "ecmp unchanged");
            LapsTransportOf("laps", cc, mode, true);
            NS_TEST_EXPECT_MSG_EQ(cc + "/" + mode, "laps/OutOfOrder", "laps unchanged");
        }
        NS_TEST_EXPECT_MSG_EQ(CongestionControlRegistry::Has("dctcp-rate"), true, "registered");
        for (int authors = 0; authors < 2; ++authors)
        {
            LapsExperimentConfig c;
            c.experiment = "allreduce";
            c.scheme = "plb";
            c.incastReceiver = 0;
            c.incastSenders = {12, 27, 45, 58};
            c.msgBytes = 200000;
            c.stop = MilliSeconds(50);
            c.dcqcnWindow = LapsExperimentConfig::UNIFIED_WINDOW;
            c.authorsPlb = authors == 1;
            if (authors)
            {
                c.baselineRto = MilliSeconds(LapsAuthorsValues::RTO_MS); // as laps-paper sets
            }
            LapsExperimentResult r = RunLapsExperiment(c);
            NS_TEST_EXPECT_MSG_EQ(r.rto, MilliSeconds(authors ? 4 : 1), "baseline timeout");
            NS_TEST_EXPECT_MSG_EQ(r.cc, (authors ? "dctcp-rate" : "dctcp"), "cc of the run");
            NS_TEST_EXPECT_MSG_EQ(r.mode, (authors ? "InOrder" : "OutOfOrder"), "mode of the run");
            // [A]'s unified window (laps-rail: 155,240 B) for PLB's flows too, only with it
            NS_TEST_EXPECT_MSG_EQ(r.dcqcnWindow, (authors ? 155240u : 0u), "window of the run");
            NS_TEST_ASSERT_MSG_EQ(r.s.count, 4u, "four flows");
            NS_TEST_ASSERT_MSG_EQ(r.s.unfinished, 0u, "all finish");
        }
    }
};

/** Staggered starts (review s44 L13): uniform in [0, window), spread, fixed by the stream. */
class StaggerStartsTestCase : public TestCase
{
  public:
    StaggerStartsTestCase()
        : TestCase("staggered incast starts: every start in [0, 10 ms), spread, the same for the "
                   "same RngRun and another for another run")
    {
    }

  private:
    /** Release times of a staggered 8-message plan drawn from stream 7 of run `run`. */
    static std::vector<int64_t> Draw(uint64_t run)
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(run);
        WorkloadPlan plan = WorkloadPlanner::Incast(16, 8, 0, 1000, 0, 0);
        Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
        u->SetStream(7);
        LapsStaggerStarts(plan, MilliSeconds(10), u);
        std::vector<int64_t> v;
        for (const WorkloadMessage& m : plan.messages)
        {
            v.push_back(m.release.GetNanoSeconds());
        }
        return v;
    }

    /** Start times (ns) of a RunLapsExperiment incast with staggerStarts = window. */
    static std::vector<int64_t> RunStarts(Time window, uint64_t run)
    {
        LapsExperimentConfig c;
        c.experiment = "allreduce";
        c.scheme = "laps";
        c.incastReceiver = 0;
        c.incastSenders = {12, 27, 45, 58};
        c.msgBytes = 20000;
        c.staggerStarts = window;
        c.run = run;
        c.stop = MilliSeconds(20);
        LapsExperimentResult r = RunLapsExperiment(c);
        std::vector<int64_t> v;
        for (const FctRecord& f : r.flows)
        {
            v.push_back(f.start.GetNanoSeconds());
        }
        std::sort(v.begin(), v.end());
        return v;
    }

    void DoRun() override
    {
        const std::vector<int64_t> a = Draw(1);
        NS_TEST_ASSERT_MSG_EQ(a.size(), 8u, "one release per message");
        for (int64_t t : a)
        {
            NS_TEST_EXPECT_MSG_GT_OR_EQ(t, 0, "start >= 0");
            NS_TEST_EXPECT_MSG_LT(t, 10000000, "start < 10 ms");
        }
        const auto [lo, hi] = std::minmax_element(a.begin(), a.end());
        NS_TEST_EXPECT_MSG_GT(*hi - *lo, 2000000, "spread over more than 2 ms of the 10");
        NS_TEST_EXPECT_MSG_EQ((Draw(1) == a), true, "the same RngRun: the same starts");
        NS_TEST_EXPECT_MSG_EQ((Draw(2) != a), true, "another RngRun: other starts");

        // through RunLapsExperiment: the workload starts at 1 us, then the draw
        const std::vector<int64_t> s1 = RunStarts(MilliSeconds(10), 1);
        NS_TEST_ASSERT_MSG_EQ(s1.size(), 4u, "four flows");
        for (int64_t t : s1)
        {
            NS_TEST_EXPECT_MSG_GT_OR_EQ(t, 1000, "start >= the workload start");
            NS_TEST_EXPECT_MSG_LT(t, 1000 + 10000000, "start < the workload start + 10 ms");
        }
        NS_TEST_EXPECT_MSG_GT(s1.back() - s1.front(), 1000000, "staggered by more than 1 ms");
        NS_TEST_EXPECT_MSG_EQ((RunStarts(MilliSeconds(10), 1) == s1), true, "deterministic");
        const std::vector<int64_t> s0 = RunStarts(Time(0), 1);
        NS_TEST_EXPECT_MSG_EQ(s0.front(), s0.back(), "staggerStarts 0: all start at once");
    }
};

/** --staggerDraw=poisson ([A]'s generate_LLMA_rdma_flows_on_nodes at 4a4be642): a Poisson
 *  process of rate n / window from 0, its arrivals to the senders in id order, not cut. */
class StaggerPoissonTestCase : public TestCase
{
  public:
    StaggerPoissonTestCase()
        : TestCase("staggered incast starts as [A]: Poisson arrivals at n per 10 ms in "
                   "sender-id order, the n-th at 10 ms on average, not cut at the window")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
        Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
        u->SetStream(7);
        const int64_t window = 10000000;
        const int rounds = 400;
        double lastSum = 0;
        double lastSq = 0;
        double gapSum = 0;
        double gapSq = 0;
        uint64_t gaps = 0;
        int beyond = 0;
        bool ordered = true;
        for (int r = 0; r < rounds; ++r)
        {
            // 63 senders 1..63 -> 0, listed in reverse so that the order comes from the ids
            WorkloadPlan plan;
            for (uint32_t s = 63; s >= 1; --s)
            {
                WorkloadMessage m;
                m.src = s;
                m.dst = 0;
                m.bytes = 1000;
                plan.messages.push_back(m);
            }
            LapsStaggerStarts(plan, NanoSeconds(window), u, true);
            // plan.messages[i] is sender 63 - i: starts must not decrease with the id
            int64_t prev = 0;
            for (size_t i = plan.messages.size(); i-- > 0;)
            {
                const int64_t t = plan.messages[i].release.GetNanoSeconds();
                ordered = ordered && t >= prev;
                const double g = static_cast<double>(t - prev);
                gapSum += g;
                gapSq += g * g;
                ++gaps;
                prev = t;
            }
            lastSum += static_cast<double>(prev);
            lastSq += static_cast<double>(prev) * static_cast<double>(prev);
            beyond += prev >= window ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_EQ(ordered, true, "starts follow the senders' ids");
        // the 63rd arrival is Gamma(63, window / 63): mean 10 ms, sd 1.26 ms (0.063 over 400)
        NS_TEST_EXPECT_MSG_EQ_TOL(lastSum / rounds / window, 1.0, 0.03, "last start ~ window");
        // its spread: sd window / sqrt(63) = 0.126 window (sorted uniform times: 0.015)
        const double lastMean = lastSum / rounds;
        const double lastSd = std::sqrt(lastSq / rounds - lastMean * lastMean);
        NS_TEST_EXPECT_MSG_EQ_TOL(lastSd / window, 0.126, 0.025, "last start's spread");
        // P(Gamma(63, 1/63) > 1) = 0.483: about half the incasts end their starts after it
        NS_TEST_EXPECT_MSG_EQ_TOL(static_cast<double>(beyond) / rounds,
                                  0.483,
                                  0.09,
                                  "not cut at the window");
        // exponential gaps: mean window / 63, coefficient of variation 1
        const double mean = gapSum / static_cast<double>(gaps);
        const double cv = std::sqrt(gapSq / static_cast<double>(gaps) - mean * mean) / mean;
        NS_TEST_EXPECT_MSG_EQ_TOL(mean * 63 / window, 1.0, 0.03, "mean gap window / n");
        NS_TEST_EXPECT_MSG_EQ_TOL(cv, 1.0, 0.05, "exponential gaps");
    }
};

/** --loadRef=artifact (review s44 L7): [A]'s reference scales the Poisson rate exactly. */
class LoadScaleTestCase : public TestCase
{
  public:
    LoadScaleTestCase()
        : TestCase("loadRef artifact: laps-df offers 1.3013 x the host-link load (the flows of "
                   "a window are those of a 1.3013 x longer window at the host reference)")
    {
    }

  private:
    /** (src, dst, bytes) of every planned flow of a laps-df web-search all2all at 0.8. */
    static std::multiset<std::tuple<uint32_t, uint32_t, uint64_t>> Plan(double scale,
                                                                        Time d,
                                                                        uint64_t* bytes)
    {
        LapsExperimentConfig c;
        c.topo = "laps-df";
        c.experiment = "all2all";
        c.scheme = "laps";
        c.load = 0.8;
        c.duration = d;
        c.loadScale = scale;
        c.stop = NanoSeconds(1); // the plan only: every message gets a record
        LapsExperimentResult r = RunLapsExperiment(c);
        std::multiset<std::tuple<uint32_t, uint32_t, uint64_t>> v;
        *bytes = 0;
        for (const FctRecord& f : r.flows)
        {
            v.emplace(f.src, f.dst, f.bytes);
            *bytes += f.bytes;
        }
        return v;
    }

    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ_TOL(LapsAuthorsLoadScale("laps-df"), 1.3013, 1e-12, "143 x 0.0091");
        NS_TEST_EXPECT_MSG_EQ_TOL(LapsAuthorsLoadScale("laps-rail"), 0.9954, 1e-12, "63 x 0.0158");
        const double k = LapsAuthorsLoadScale("laps-df");
        uint64_t scaled = 0;
        uint64_t longer = 0;
        uint64_t host = 0;
        const auto a = Plan(k, MicroSeconds(200), &scaled);
        const auto b = Plan(1.0, NanoSeconds(static_cast<int64_t>(200000 * k)), &longer);
        Plan(1.0, MicroSeconds(200), &host);
        NS_TEST_ASSERT_MSG_GT(a.size(), 50u, "enough flows");
        NS_TEST_EXPECT_MSG_EQ((a == b), true, "the same flows as 1.3013 x the window");
        NS_TEST_EXPECT_MSG_EQ(scaled, longer, "the same bytes as 1.3013 x the window");
        NS_TEST_EXPECT_MSG_GT(scaled, host, "more bytes than at the host reference");
    }
};

/** The attribute defaults of --setup=authors (review s44 L2, L11, L12, L13). */
class AuthorsLapsDefaultsTestCase : public TestCase
{
  public:
    AuthorsLapsDefaultsTestCase()
        : TestCase("authors' defaults: per-path timer 400 realVal, softmax and in-flight cap by "
                   "the unloaded delay, flowlets 10 us; the spec's without them")
    {
    }

  private:
    void DoRun() override
    {
        for (int authors = 0; authors < 2; ++authors)
        {
            if (authors)
            {
                LapsAuthorsDefaults();
            }
            Ptr<LapsPathSelector> ps = CreateObject<LapsPathSelector>();
            DoubleValue f;
            ps->GetAttribute("PathTimeoutFactor", f);
            NS_TEST_EXPECT_MSG_EQ(f.Get(), authors ? 400.0 : 2.0, "per-path timer factor");
            TimeValue fixed;
            ps->GetAttribute("PathTimeout", fixed);
            NS_TEST_EXPECT_MSG_EQ(fixed.Get(), Time(0), "no fixed timer");
            StringValue norm;
            ps->GetAttribute("SoftmaxNorm", norm);
            NS_TEST_EXPECT_MSG_EQ(norm.Get(), authors ? "unloaded" : "baseVal", "SoftmaxNorm");
            StringValue cap;
            ps->GetAttribute("InflightCapBasis", cap);
            NS_TEST_EXPECT_MSG_EQ(cap.Get(), authors ? "unloaded" : "T", "InflightCapBasis");
            DoubleValue alpha;
            ps->GetAttribute("Alpha", alpha);
            NS_TEST_EXPECT_MSG_EQ(alpha.Get(), 1.0, "Alpha unchanged (which [A] version: unknown)");
            for (const char* policy : {"ns3::DcnLetflowForwardingPolicy",
                                       "ns3::DcnCongaForwardingPolicy",
                                       "ns3::DcnLapsPathsSelector"})
            {
                TypeId::AttributeInformation info;
                NS_TEST_ASSERT_MSG_EQ(
                    TypeId::LookupByName(policy).LookupAttributeByName("FlowletTimeout", &info),
                    true,
                    policy);
                Ptr<const TimeValue> v = DynamicCast<const TimeValue>(info.initialValue);
                NS_TEST_ASSERT_MSG_NE(v, nullptr, policy);
                if (authors)
                {
                    NS_TEST_EXPECT_MSG_EQ(v->Get(), MicroSeconds(10), policy << " flowlets");
                }
            }
            // CONGA over the LAPS paths chooses as [A]'s GetCongaBestPath(key, 4): 4
            // consecutive paths from a uniform start, ties uniform (CONGA Sec. 3.5 without)
            Ptr<DcnCongaLapsForwardingPolicy> conga = CreateObject<DcnCongaLapsForwardingPolicy>();
            UintegerValue samples;
            conga->GetAttribute("PathSamples", samples);
            NS_TEST_EXPECT_MSG_EQ(samples.Get(), authors ? 4u : 0u, "CONGA PathSamples");
            BooleanValue ties;
            conga->GetAttribute("TiesPreferCurrent", ties);
            NS_TEST_EXPECT_MSG_EQ(ties.Get(), !authors, "CONGA TiesPreferCurrent");
            // and feeds back as [A]'s GetCongaEgressPort: a uniformly drawn reverse path
            // (CONGA Sec. 3.4: round robin)
            StringValue fbChoice;
            conga->GetAttribute("FeedbackChoice", fbChoice);
            NS_TEST_EXPECT_MSG_EQ(fbChoice.Get(),
                                  authors ? "Random" : "RoundRobin",
                                  "CONGA FeedbackChoice");
            // ... and not the leaf-spine CONGA's (the paper's round robin stays there)
            TypeId::AttributeInformation fbInfo;
            NS_TEST_EXPECT_MSG_EQ(TypeId::LookupByName("ns3::DcnCongaForwardingPolicy")
                                      .LookupAttributeByName("FeedbackChoice", &fbInfo),
                                  false,
                                  "FeedbackChoice only on conga-laps");
            // [A]'s SwitchNode DRE: 200 us x 0.2 (tau 1 ms; CONGA's 160 us by 16 us x 0.1)
            TimeValue tDre;
            conga->GetAttribute("DreInterval", tDre);
            NS_TEST_EXPECT_MSG_EQ(tDre.Get(),
                                  MicroSeconds(authors ? 200 : 16),
                                  "CONGA DreInterval");
            DoubleValue dreAlpha;
            conga->GetAttribute("DreAlpha", dreAlpha);
            NS_TEST_EXPECT_MSG_EQ(dreAlpha.Get(), authors ? 0.2 : 0.1, "CONGA DreAlpha");
            // [A]'s ConWeaveRouting constructor (C00017's commit): 80 ns, 10 us, 4 us, 32 us
            Ptr<ConWeaveForwardingPolicy> cw = CreateObject<ConWeaveForwardingPolicy>();
            const std::vector<std::tuple<const char*, Time, Time>> cwTimers = {
                {"ReplyDeadlineExtra", NanoSeconds(80), MicroSeconds(4)},
                {"InactiveTime", MicroSeconds(10), MicroSeconds(300)},
                {"PathBusyTime", MicroSeconds(4), MicroSeconds(16)},
                {"ResumeExtra", MicroSeconds(32), MicroSeconds(16)},
                {"ResumeTime", MicroSeconds(200), MicroSeconds(200)}};
            for (const auto& [name, inAuthors, inSpec] : cwTimers)
            {
                TimeValue v;
                cw->GetAttribute(name, v);
                NS_TEST_EXPECT_MSG_EQ(v.Get(), authors ? inAuthors : inSpec, "ConWeave " << name);
            }
            // [A]'s PLB counts its go-back-N NACKs (CNP flag) in a round's fraction
            Ptr<DcnPlbPathSelector> plb = CreateObject<DcnPlbPathSelector>();
            BooleanValue nackCong;
            plb->GetAttribute("NackIsCongestion", nackCong);
            NS_TEST_EXPECT_MSG_EQ(nackCong.Get(), (authors == 1), "PLB NackIsCongestion");
            // ... and only suspends after an RTO, keeping its path
            BooleanValue repath;
            plb->GetAttribute("RepathOnRto", repath);
            NS_TEST_EXPECT_MSG_EQ(repath.Get(), (authors == 0), "PLB RepathOnRto");
            // [A]'s DCQCN cuts on the CNP flag of a go-back-N NACK
            Ptr<DcqcnCc> dcqcn = CreateObject<DcqcnCc>();
            BooleanValue nackCnp;
            dcqcn->GetAttribute("NackIsCnp", nackCnp);
            NS_TEST_EXPECT_MSG_EQ(nackCnp.Get(), (authors == 1), "DCQCN NackIsCnp");
            // [A]'s go-back-N: a NACK again every 500 us at most, the timer armed by ACKs
            Ptr<DcnTransport> tr = CreateObject<DcnTransport>();
            TimeValue nackRepeat;
            tr->GetAttribute("NackRepeatInterval", nackRepeat);
            NS_TEST_EXPECT_MSG_EQ(nackRepeat.Get(),
                                  authors ? MicroSeconds(500) : Time(0),
                                  "DcnTransport NackRepeatInterval");
            StringValue rtoStart; // a string: EnumValue is a template from ns-3 3.42
            tr->GetAttribute("RtoStart", rtoStart);
            NS_TEST_EXPECT_MSG_EQ(rtoStart.Get(),
                                  authors ? "LastAck" : "Send",
                                  "DcnTransport RtoStart");
            // ... and goes back on every NACK, stale or not
            BooleanValue ignoreStale;
            tr->GetAttribute("IgnoreStaleNacks", ignoreStale);
            NS_TEST_EXPECT_MSG_EQ(ignoreStale.Get(), (authors == 0), "IgnoreStaleNacks");
            Config::Reset();
        }
    }
};

/** SoftmaxNorm / InflightCapBasis = unloaded (review s44 L11, L12): the weights and the cap. */
class SoftmaxNormTestCase : public TestCase
{
  public:
    SoftmaxNormTestCase()
        : TestCase("SoftmaxNorm=unloaded: beta = Alpha over the largest unloaded delay (no "
                   "margin), sharper weights; InflightCapBasis=unloaded: 2 x it x lineRate")
    {
    }

  private:
    void DoRun() override
    {
        // host 0 -> host 140 of laps-df: another group, 8 paths
        Ptr<DcnGraphTopology> t = DcnTopologyPresets::Create("laps-df", {}, "source");
        Ptr<DcnLbSharedState> shared = CreateObject<DcnLbSharedState>();
        const uint32_t src = 0;
        const uint32_t dst = 140;
        std::vector<double> w[2];
        int64_t norm[2] = {0, 0};
        uint64_t cap[2] = {0, 0};
        Ptr<LapsHostTable> tab;
        for (int unloaded = 0; unloaded < 2; ++unloaded)
        {
            Ptr<LapsPathSelector> ps = CreateObject<LapsPathSelector>();
            ps->SetAttribute("FrameBytes", UintegerValue(1048));
            ps->SetAttribute("SoftmaxNorm", StringValue(unloaded ? "unloaded" : "baseVal"));
            ps->SetAttribute("InflightCapBasis", StringValue(unloaded ? "unloaded" : "T"));
            ps->AssignStreams(11);
            PathSelectorSetup su;
            su.mtu = 1000;
            su.topology = t;
            su.srcHost = src;
            su.dstHost = dst;
            su.srcSwitch = t->GetSwitchOfHost(src);
            su.dstSwitch = t->GetSwitchOfHost(dst);
            su.shared = shared;
            ps->Setup(su);
            tab = ps->GetHostTable();
            const uint32_t n = tab->EnsureDst(dst, 0);
            NS_TEST_ASSERT_MSG_EQ(n, 8u, "eight paths to another group");
            const uint32_t first = tab->FirstPid(dst);
            for (uint32_t k = 0; k < n; ++k)
            {
                // fresh samples 0, 1, ..., 7 us above the path's baseVal (none stale at 0)
                lapscore::LapsPathEntry& e = tab->Entry(first + k);
                e.realNs = e.baseNs + 1000 * k;
                e.timeNs = 0;
            }
            ps->Choose(SendContext());
            norm[unloaded] = ps->GetSoftmaxNormNs();
            cap[unloaded] = ps->GetInflightCap();
            w[unloaded] = ps->GetWeights();
            // the expected normaliser, from the links: the largest sum of propagation and
            // 1048-B serialisation per link (unloaded), or of baseVal (T)
            int64_t maxUnloaded = 0;
            int64_t maxBase = 0;
            int64_t minReal = std::numeric_limits<int64_t>::max();
            for (uint32_t k = 0; k < n; ++k)
            {
                double u = 0;
                for (uint32_t l : tab->Info(first + k).links)
                {
                    const DcnLinkInfo& li = t->GetLink(l);
                    u += li.delay.GetNanoSeconds() +
                         1048 * 8.0 / static_cast<double>(li.rate.GetBitRate()) * 1e9;
                }
                maxUnloaded = std::max<int64_t>(maxUnloaded, std::llround(u));
                maxBase = std::max(maxBase, tab->Entry(first + k).baseNs);
                minReal = std::min(minReal, tab->Entry(first + k).realNs);
            }
            NS_TEST_EXPECT_MSG_LT(maxUnloaded, maxBase, "the margin makes baseVal larger");
            NS_TEST_EXPECT_MSG_EQ(ps->GetMaxUnloaded(), maxUnloaded, "largest unloaded delay");
            NS_TEST_EXPECT_MSG_EQ(ps->GetT(), maxBase, "T = largest baseVal");
            NS_TEST_EXPECT_MSG_EQ(norm[unloaded], unloaded ? maxUnloaded : maxBase, "normaliser");
            const int64_t capDelay = unloaded ? maxUnloaded : maxBase;
            NS_TEST_EXPECT_MSG_EQ(cap[unloaded],
                                  static_cast<uint64_t>(2.0 * capDelay * 1e-9 * 100e9 / 8.0),
                                  "in-flight cap = 2 x delay x 100 Gb/s");
            for (uint32_t k = 0; k < n; ++k)
            {
                const double d = static_cast<double>(tab->Entry(first + k).realNs - minReal);
                NS_TEST_EXPECT_MSG_EQ_TOL(w[unloaded][k],
                                          std::exp(-1.0 * d / static_cast<double>(norm[unloaded])),
                                          1e-12,
                                          "weight of path " << k);
            }
            ps->Dispose();
        }
        NS_TEST_EXPECT_MSG_LT(norm[1], norm[0], "the unloaded normaliser is smaller");
        NS_TEST_EXPECT_MSG_LT(cap[1], cap[0], "the unloaded cap is smaller");
        for (uint32_t k = 1; k < w[0].size(); ++k)
        {
            NS_TEST_EXPECT_MSG_LT(w[1][k], w[0][k], "unloaded: sharper, path " << k);
        }
        Simulator::Destroy();
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
        AddTestCase(new CongaLapsPathsTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new ConWeaveLapsPathsTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new ConWeaveLapsRerouteTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new LapsPathsFailureTestCase("conga-laps-paths"), DCNLB_TEST_QUICK);
        AddTestCase(new LapsPathsFailureTestCase("conweave-laps-paths"), DCNLB_TEST_QUICK);
        AddTestCase(new LapsPathsRestoreTestCase("conga-laps-paths"), DCNLB_TEST_QUICK);
        AddTestCase(new LapsPathsRestoreTestCase("conweave-laps-paths"), DCNLB_TEST_QUICK);
        AddTestCase(new LapsPathBaselinesRunTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new AuthorsPlbTransportTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new StaggerStartsTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new StaggerPoissonTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new LoadScaleTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new AuthorsLapsDefaultsTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new SoftmaxNormTestCase, DCNLB_TEST_QUICK);
    }
};

LapsAuthorsSetupTestSuite g_lapsAuthorsSetupTestSuite;

} // namespace
} // namespace dcntest
} // namespace ns3
