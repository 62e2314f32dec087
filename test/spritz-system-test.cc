/*
 * dcn-lb-spritz-system: Spritz on a running network (spritz spec 6.5), df-small
 * with the paper's link parameters, trimming and DCTCP + QuickAdapt + FastIncrease:
 *  - single failed global link (spec 6.5 case 25): one Spritz-Spray / Spritz-Scout
 *    flow whose EV list has paths over the link: it completes, and every EV whose
 *    path crosses the failed link is sent for at most one RTO (+ slack) after its
 *    first use (the timeout blocks it; T_reset is beyond the run), so the packets
 *    lost are bounded by the packets sent on those EVs before their first timeout;
 *    OPS (w) under the same failure keeps sending on them;
 *  - comparison (issue 15 item 6, robust orderings only, fixed seeds): adversarial
 *    traffic group i -> i+1 on df-small with Minimal, UGAL-L and Spritz-Spray switch
 *    routing / load balancing; Minimal (one global link per group pair) is the
 *    slowest, Spritz-Spray beats it by a wide margin.  ns-3's Ipv4GlobalRouting is not
 *    in this comparison: DcnGraphTopology has no global-routing mode (doc/spritz.rst);
 *  - collectives (spec 4.3.5, issue 15 item 4): ring Allreduce among 8 random endpoints
 *    of df-small with a background permutation, Spritz-Spray: every message completes,
 *    each endpoint's 2(n-1) steps go to its ring successor, each step starts only after
 *    the endpoint's previous step and the predecessor's previous step completed;
 *  - web search (spec 4.3.6): a short Poisson run of web-search sizes completes;
 *  - spritz-paper's setup (spec 2.4, 4.1): ACKs on the default (minimal) table except in
 *    the failure experiment (by the echoed EV); every connection's window 1.5 x 88
 *    packets on spritz-df (and on df-small, not the pair's minimal-path BDP), base RTT
 *    88 packets' serialisation (~7.3 us).
 */
#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/dcn-header.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-options.h"
#include "ns3/dcn-spritz-info.h"
#include "ns3/dcn-switch-routing.h"
#include "ns3/dcn-transport-helper.h"
#include "ns3/flow-size-cdf.h"
#include "ns3/graph-topology-helper.h"
#include "ns3/simulator.h"
#include "ns3/spritz-experiment.h"
#include "ns3/spritz-forwarding-policy.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/workload-helper.h"

#include <algorithm>
#include <map>
#include <set>

namespace ns3
{
namespace dcntest
{

namespace
{
struct EvLog
{
    std::map<uint16_t, std::vector<int64_t>> sends; //!< EV -> send times (ns)

    void OnTx(Ptr<const Packet> p, const DcnHeader& h)
    {
        uint8_t b[2];
        p->CopyData(b, 2);
        sends[static_cast<uint16_t>((b[0] << 8) | b[1])].push_back(
            Simulator::Now().GetNanoSeconds());
    }
};

uint32_t
FindLink(const dcn::SwitchGraph& g, uint32_t a, uint32_t b)
{
    for (const auto& l : g.links)
    {
        if ((l.a == a && l.b == b) || (l.a == b && l.b == a))
        {
            return l.id;
        }
    }
    return dcn::NONE;
}
} // namespace

class SpritzFailedLinkTestCase : public TestCase
{
  public:
    explicit SpritzFailedLinkTestCase(std::string scheme)
        : TestCase("single failed global link: " + scheme),
          m_scheme(scheme)
    {
    }

  private:
    void DoRun() override
    {
        const dcn::SwitchGraph g = DcnTopologyPresets::Graph("df-small");
        const uint32_t failed = FindLink(g, 0, 8); // global, group 0 -> group 2
        NS_TEST_ASSERT_MSG_NE(failed, dcn::NONE, "link 0-8 exists");
        const uint32_t src = g.FirstHost(0);
        const uint32_t dst = g.FirstHost(12);
        SpritzExperimentConfig c;
        c.topo = "df-small";
        c.scheme = m_scheme;
        c.failedLinks = {failed};
        c.resetTime = Seconds(10);  // no restore within the run
        c.controlRoute = "default"; // ACKs on 12 -> 0's minimal route, which avoids 0-8
        c.rto = MicroSeconds(100);
        c.stop = MilliSeconds(50);
        c.plan.nHosts = g.NHosts();
        WorkloadMessage m;
        m.src = src;
        m.dst = dst;
        m.bytes = 2 << 20;
        c.plan.messages.push_back(m);
        EvLog log;
        std::set<uint16_t> crossing;
        c.onBuilt = [&](Ptr<DcnGraphTopology> t) {
            DcnTransportHelper::Get(t->GetHosts().Get(src))
                ->TraceConnectWithoutContext("Tx", MakeCallback(&EvLog::OnTx, &log));
            Ptr<DcnSpritzInfo> info = DcnSpritzInfo::Get(*t);
            const DcnSpritzPairPaths& pp = info->Paths(0, 12);
            for (uint16_t ev : pp.evs)
            {
                for (uint32_t l : info->Tables().Replay(0, 12, ev).links)
                {
                    if (l == failed)
                    {
                        crossing.insert(ev);
                    }
                }
            }
        };
        SpritzExperimentResult r = RunSpritzExperiment(c);
        NS_TEST_ASSERT_MSG_GT(crossing.size(), 0u, "some paths cross the failed link");
        NS_TEST_ASSERT_MSG_EQ(r.completed, 1u, "the flow completes");
        uint64_t sentCrossing = 0;
        uint64_t lateSends = 0;
        for (uint16_t ev : crossing)
        {
            auto it = log.sends.find(ev);
            if (it == log.sends.end())
            {
                continue;
            }
            sentCrossing += it->second.size();
            const int64_t first = it->second.front();
            for (int64_t t : it->second)
            {
                lateSends += t > first + 3 * c.rto.GetNanoSeconds() / 2;
            }
        }
        NS_TEST_ASSERT_MSG_GT(sentCrossing, 0u, "the failed paths were tried");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(r.injectedDrops, sentCrossing, "losses only on those sends");
        NS_TEST_ASSERT_MSG_GT(r.injectedDrops, 0u, "the failure dropped packets");
        if (m_scheme == "ops-w")
        {
            NS_TEST_ASSERT_MSG_GT(lateSends, 0u, "OPS keeps using the failed paths");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(lateSends, 0u, "no use of a failed path after its timeout");
            NS_TEST_ASSERT_MSG_GT(r.blockedPaths, 0u, "paths blocked");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(r.blockedPaths,
                                        crossing.size(),
                                        "only failed paths blocked");
        }
    }

    std::string m_scheme;
};

class SpritzComparisonTestCase : public TestCase
{
  public:
    SpritzComparisonTestCase()
        : TestCase("df-small adversarial: minimal vs ugal-l vs spritz-spray")
    {
    }

  private:
    void DoRun() override
    {
        std::map<std::string, SpritzExperimentResult> res;
        for (const std::string s : {"minimal", "ugal-l", "spritz-spray"})
        {
            SpritzExperimentConfig c;
            c.topo = "df-small";
            c.scheme = s;
            c.plan = SpritzAdversarialPlan("df-small", {}, 256 * 1024);
            c.stop = MilliSeconds(100);
            c.seed = 1;
            c.run = 3;
            res[s] = RunSpritzExperiment(c);
            NS_TEST_ASSERT_MSG_EQ(res[s].Finished(), true, s << " finishes");
        }
        const double mn = res["minimal"].summary.completionUs;
        const double ug = res["ugal-l"].summary.completionUs;
        const double sp = res["spritz-spray"].summary.completionUs;
        NS_TEST_ASSERT_MSG_LT(sp * 1.5, mn, "Spritz-Spray at least 1.5x faster than Minimal");
        NS_TEST_ASSERT_MSG_LT(ug, mn, "UGAL-L faster than Minimal");
        NS_TEST_ASSERT_MSG_LT(res["spritz-spray"].summary.p99Us * 1.5,
                              res["minimal"].summary.p99Us,
                              "p99 FCT");
    }
};

class SpritzCollectiveTestCase : public TestCase
{
  public:
    SpritzCollectiveTestCase()
        : TestCase("df-small ring allreduce (8 endpoints) + background, spritz-spray")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 8;
        std::vector<uint32_t> ep;
        SpritzExperimentConfig c;
        c.topo = "df-small";
        c.scheme = "spritz-spray";
        c.plan = SpritzCollectivePlan("df-small", {}, "ring", n, 256 * 1024, 4, 64 * 1024, 2, &ep);
        c.stop = MilliSeconds(50);
        c.run = 2;
        NS_TEST_ASSERT_MSG_EQ(ep.size(), n, "endpoints");
        // spec 4.3.5: the background runs under ECMP (Spritz ECMP: one list entry per flow)
        for (uint32_t h = 0; h < 72; ++h)
        {
            if (!std::binary_search(ep.begin(), ep.end(), h))
            {
                c.backgroundHosts.push_back(h);
            }
        }
        NS_TEST_ASSERT_MSG_EQ(c.plan.messages.size(), 2 * n * (n - 1) + (72 - n), "plan size");
        const SpritzExperimentResult r = RunSpritzExperiment(c);
        NS_TEST_ASSERT_MSG_EQ(r.Finished(), true, "every message (collective + background)");
        // one connection per ring pair (spray) and per background flow (Spritz ECMP)
        NS_TEST_ASSERT_MSG_EQ(r.connections, n + (72 - n), "connections");
        NS_TEST_ASSERT_MSG_EQ(r.spritzEcmpConnections, 72 - n, "background under ECMP only");
        const FctStats cs = SpritzStatsOfSources(r.stats, ep);
        NS_TEST_ASSERT_MSG_EQ(cs.GetRecords().size(), 2 * n * (n - 1), "collective messages");
        const FctSummary sum = cs.Summarize();
        NS_TEST_ASSERT_MSG_GT(sum.completionUs, 0.0, "collective completion time");
        // per rank: its messages in start order = its steps
        std::vector<std::vector<FctRecord>> steps(n);
        for (const auto& rec : cs.GetRecords())
        {
            const auto rank = std::lower_bound(ep.begin(), ep.end(), rec.src) - ep.begin();
            NS_TEST_ASSERT_MSG_EQ(rec.completed, true, "completed");
            NS_TEST_ASSERT_MSG_EQ(rec.dst, ep[(rank + 1) % n], "ring successor");
            steps[rank].push_back(rec);
        }
        for (auto& v : steps)
        {
            std::sort(v.begin(), v.end(), [](const FctRecord& a, const FctRecord& b) {
                return a.start < b.start;
            });
            NS_TEST_ASSERT_MSG_EQ(v.size(), 2 * (n - 1), "steps per rank");
        }
        for (uint32_t i = 0; i < n; ++i)
        {
            const auto& pred = steps[(i + n - 1) % n];
            for (uint32_t k = 1; k < 2 * (n - 1); ++k)
            {
                NS_TEST_ASSERT_MSG_GT_OR_EQ(steps[i][k].start,
                                            steps[i][k - 1].finish,
                                            "rank " << i << " step " << k << " after own step");
                NS_TEST_ASSERT_MSG_GT_OR_EQ(steps[i][k].start,
                                            pred[k - 1].finish,
                                            "rank " << i << " step " << k
                                                    << " after the predecessor's step");
            }
        }
    }
};

class SpritzWebSearchTestCase : public TestCase
{
  public:
    SpritzWebSearchTestCase()
        : TestCase("df-small web search, 10 us of arrivals at load 1.0, spritz-spray")
    {
    }

  private:
    void DoRun() override
    {
        SpritzExperimentConfig c;
        c.topo = "df-small";
        c.scheme = "spritz-spray";
        c.plan = SpritzWebSearchPlan("df-small",
                                     {},
                                     FlowSizeCdf::Load("websearch"),
                                     1.0,
                                     400000000000ULL,
                                     MicroSeconds(10),
                                     1);
        c.stop = MilliSeconds(100);
        c.run = 1;
        NS_TEST_ASSERT_MSG_GT(c.plan.messages.size(), 5u, "some arrivals");
        const SpritzExperimentResult r = RunSpritzExperiment(c);
        NS_TEST_ASSERT_MSG_EQ(r.Finished(), true, "every flow completes");
        NS_TEST_ASSERT_MSG_EQ(r.completed, c.plan.messages.size(), "completed");
        NS_TEST_ASSERT_MSG_GT(r.summary.p50Us, 0.0, "p50");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(r.summary.p99Us, r.summary.p50Us, "p99 >= p50");
    }
};

/**
 * Review s41 F10: the web-search load is of the built topology's host links.  With a
 * host rate of 0 the plan takes the preset's rate (400 Gb/s: the same plan as before)
 * or the --topoParams rate (100 Gb/s: about a quarter of the flows for the same load).
 */
class SpritzWebSearchRateTestCase : public TestCase
{
  public:
    SpritzWebSearchRateTestCase()
        : TestCase("web search plan: load of the topology's host link rate (0 = the graph's)")
    {
    }

  private:
    void DoRun() override
    {
        const FlowSizeCdf cdf = FlowSizeCdf::Load("websearch");
        auto plan = [&](const std::map<std::string, std::string>& params, uint64_t bps) {
            return SpritzWebSearchPlan("df-small", params, cdf, 1.0, bps, MilliSeconds(1), 1);
        };
        auto same = [](const WorkloadPlan& a, const WorkloadPlan& b) {
            if (a.messages.size() != b.messages.size())
            {
                return false;
            }
            for (size_t i = 0; i < a.messages.size(); ++i)
            {
                const auto& x = a.messages[i];
                const auto& y = b.messages[i];
                if (x.src != y.src || x.dst != y.dst || x.bytes != y.bytes ||
                    x.release != y.release)
                {
                    return false;
                }
            }
            return true;
        };
        const WorkloadPlan preset = plan({}, 0);
        NS_TEST_ASSERT_MSG_EQ(same(preset, plan({}, 400000000000ULL)),
                              true,
                              "preset rate: the plan of an explicit 400 Gb/s");
        const WorkloadPlan slow = plan({{"rate", "100000000000"}}, 0);
        NS_TEST_ASSERT_MSG_EQ(same(slow, plan({{"rate", "100000000000"}}, 100000000000ULL)),
                              true,
                              "--topoParams=rate: the plan of an explicit 100 Gb/s");
        const double ratio = double(preset.messages.size()) / double(slow.messages.size());
        NS_TEST_EXPECT_MSG_EQ_TOL(ratio, 4.0, 0.8, "a quarter of the flows at a quarter rate");
    }
};

class SpritzPaperSetupTestCase : public TestCase
{
  public:
    SpritzPaperSetupTestCase()
        : TestCase("spritz-paper setup (spec 2.4, 4.1): ACKs on the default route except "
                   "the failure experiment; window 1.5 x 88 packets, base RTT ~7.3 us")
    {
    }

  private:
    struct Probe
    {
        uint64_t ctrlDefault{0}; //!< control packets forwarded on the default table (role 3)
        uint64_t cwnd{0};        //!< the sender's window at 1 ns
        uint64_t mtu{0};
        Time baseRtt;     //!< MakeConnectionParams with the preset's BDP in packets
        Time pairBaseRtt; //!< ... without (the pair's minimal path)
        uint32_t completed{0};
    };

    static void OnSteer(uint64_t* n, uint32_t, uint16_t, uint8_t role, uint32_t)
    {
        *n += role == 3 ? 1 : 0;
    }

    /** One 64 KiB inter-group Spritz-Spray flow under spritz-paper's `experiment` setup. */
    static Probe Run(const std::string& topo, const std::string& experiment)
    {
        const dcn::SwitchGraph g = DcnTopologyPresets::Graph(topo);
        SpritzExperimentConfig c;
        c.topo = topo;
        c.scheme = "spritz-spray";
        c.controlRoute = SpritzPaperControlRoute(experiment);
        c.bdpPackets = SpritzPaperBdpPackets(g.fam.family == "slimfly" ? "sf" : "df");
        c.stop = MilliSeconds(10);
        c.plan.nHosts = g.NHosts();
        WorkloadMessage m;
        m.src = 0;
        m.dst = g.NHosts() - 1;
        m.bytes = 64 * 1024;
        c.plan.messages.push_back(m);
        Probe pr;
        c.onBuilt = [&pr, &c, m](Ptr<DcnGraphTopology> t) {
            for (uint32_t i = 0; i < t->GetAllSwitches().GetN(); ++i)
            {
                Ptr<DcnSpritzForwardingPolicy> pol = DynamicCast<DcnSpritzForwardingPolicy>(
                    t->GetRouting(t->GetAllSwitches().Get(i))->GetForwardingPolicy());
                NS_ABORT_MSG_UNLESS(pol, "spritz switches");
                pol->TraceConnectWithoutContext("Steer",
                                                MakeBoundCallback(&OnSteer, &pr.ctrlDefault));
            }
            const uint32_t hdr = WorkloadHelper::DefaultHeaderBytes();
            pr.baseRtt = MakeConnectionParams(t, m.src, m.dst, 4096, c.bdpPackets, hdr).baseRtt;
            pr.pairBaseRtt = MakeConnectionParams(t, m.src, m.dst, 4096).baseRtt;
            Simulator::Schedule(NanoSeconds(1), [&pr, t]() {
                Ptr<DcnTransport> tr = DcnTransportHelper::Get(t->GetHosts().Get(0));
                pr.mtu = tr->GetMtu();
                pr.cwnd = tr->GetNConnections() > 0
                              ? tr->GetConnection(0)->GetCongestionControl()->GetCwnd()
                              : 0;
            });
        };
        pr.completed = RunSpritzExperiment(c).completed;
        return pr;
    }

    void DoRun() override
    {
        for (const std::string e :
             {"motivational", "permutation", "adversarial", "incast", "collectives", "websearch"})
        {
            NS_TEST_EXPECT_MSG_EQ(SpritzPaperControlRoute(e), "default", e << ": spec 2.4");
        }
        NS_TEST_EXPECT_MSG_EQ(SpritzPaperControlRoute("failures"), "ev", "failures: by the EV");
        NS_TEST_EXPECT_MSG_EQ(SpritzPaperBdpPackets("df"), 88u, "spec 4.1 DF");
        NS_TEST_EXPECT_MSG_EQ(SpritzPaperBdpPackets("sf"), 92u, "spec 4.1 SF");

        const Probe perm = Run("spritz-df", "permutation");
        NS_TEST_EXPECT_MSG_EQ(perm.completed, 1u, "the flow completes");
        NS_TEST_EXPECT_MSG_GT(perm.ctrlDefault, 0u, "ACKs forwarded on the default table");
        NS_TEST_EXPECT_MSG_EQ(perm.mtu, 4096u, "MTU");
        NS_TEST_EXPECT_MSG_EQ(perm.cwnd, 132u * perm.mtu, "window 1.5 x 88 packets");
        // 88 x (4096 + headers) x 8 / 400 Gb/s
        NS_TEST_EXPECT_MSG_GT(perm.baseRtt, NanoSeconds(7250), "base RTT ~7.3 us");
        NS_TEST_EXPECT_MSG_LT(perm.baseRtt, NanoSeconds(7350), "base RTT ~7.3 us");
        NS_TEST_EXPECT_MSG_LT(perm.pairBaseRtt, perm.baseRtt, "the pair's own is shorter");

        const Probe fail = Run("df-small", "failures");
        NS_TEST_EXPECT_MSG_EQ(fail.completed, 1u, "the flow completes");
        NS_TEST_EXPECT_MSG_EQ(fail.ctrlDefault, 0u, "failures: ACKs steered by the echoed EV");
        NS_TEST_EXPECT_MSG_EQ(fail.cwnd, 132u * fail.mtu, "the same window on df-small");
    }
};

/**
 * The defaults RunSpritzExperiment sets (spec 4.1 / 4.2) are put back however it is left,
 * and the ones its caller lists in keepDefaults (spritz-paper: those given on the command
 * line) are left as the caller set them.
 */
class SpritzDefaultsTestCase : public TestCase
{
  public:
    SpritzDefaultsTestCase()
        : TestCase("spritz experiment: keeps the caller's defaults, restores its own")
    {
    }

  private:
    static std::string Default(const std::string& type, const std::string& attr)
    {
        TypeId::AttributeInformation info;
        NS_ABORT_MSG_UNLESS(TypeId::LookupByName(type).LookupAttributeByName(attr, &info), attr);
        return info.initialValue->SerializeToString(info.checker);
    }

    static std::vector<std::string> Defaults()
    {
        return {Default("ns3::DctcpCc", "QuickAdapt"),
                Default("ns3::DctcpCc", "FastIncrease"),
                Default("ns3::DcnValiantForwardingPolicy", "PerPacket"),
                Default("ns3::DcnSpritzForwardingPolicy", "ControlRoute"),
                Default("ns3::Ipv4GlobalRouting", "RandomEcmpRouting")};
    }

    void DoRun() override
    {
        const std::vector<std::string> before = Defaults();
        // left by an exception (not a Dragonfly / Slim Fly for Spritz routing)
        SpritzExperimentConfig bad;
        bad.topo = "hermes-testbed";
        bad.scheme = "spritz-spray";
        bad.controlRoute = "default";
        bad.plan.nHosts = 2;
        bad.plan.messages.push_back(WorkloadMessage{});
        bool threw = false;
        try
        {
            RunSpritzExperiment(bad);
        }
        catch (const DcnOptionError&)
        {
            threw = true;
        }
        NS_TEST_EXPECT_MSG_EQ(threw, true, "refused");
        NS_TEST_EXPECT_MSG_EQ((Defaults() == before), true, "restored after the exception");

        // the caller's QuickAdapt (false) and PerPacket (false) kept, FastIncrease set
        Config::SetDefault("ns3::DcnValiantForwardingPolicy::PerPacket", BooleanValue(false));
        SpritzExperimentConfig c;
        c.topo = "df-small";
        c.scheme = "valiant";
        c.smarttCc = true;
        c.keepDefaults = {"ns3::DctcpCc::QuickAdapt", "ns3::DcnValiantForwardingPolicy::PerPacket"};
        c.stop = MilliSeconds(5);
        c.plan.nHosts = DcnTopologyPresets::Graph("df-small").NHosts();
        WorkloadMessage m;
        m.src = 0;
        m.dst = c.plan.nHosts - 1;
        m.bytes = 8192;
        c.plan.messages.push_back(m);
        std::vector<std::string> during;
        c.onBuilt = [&during](Ptr<DcnGraphTopology>) { during = Defaults(); };
        const uint32_t completed = RunSpritzExperiment(c).completed;
        NS_TEST_EXPECT_MSG_EQ(completed, 1u, "the flow completes");
        NS_TEST_ASSERT_MSG_EQ(during.size(), 5u, "built");
        NS_TEST_EXPECT_MSG_EQ(during[0], before[0], "QuickAdapt: the caller's");
        NS_TEST_EXPECT_MSG_EQ(during[1], "true", "FastIncrease: spec 4.1");
        NS_TEST_EXPECT_MSG_EQ(during[2], "false", "PerPacket: the caller's");
        const std::vector<std::string> after = Defaults();
        NS_TEST_EXPECT_MSG_EQ(after[1], before[1], "FastIncrease restored");
        NS_TEST_EXPECT_MSG_EQ(after[2], "false", "PerPacket as the caller left it");
        Config::SetDefault("ns3::DcnValiantForwardingPolicy::PerPacket", StringValue(before[2]));
        NS_TEST_EXPECT_MSG_EQ((Defaults() == before), true, "all back");
    }
};

class SpritzSystemTestSuite : public TestSuite
{
  public:
    SpritzSystemTestSuite()
        : TestSuite("dcn-lb-spritz-system", DCNLB_TEST_SYSTEM)
    {
        AddTestCase(new SpritzFailedLinkTestCase("spritz-spray"), DCNLB_TEST_QUICK);
        AddTestCase(new SpritzFailedLinkTestCase("spritz-scout"), DCNLB_TEST_QUICK);
        AddTestCase(new SpritzFailedLinkTestCase("ops-w"), DCNLB_TEST_QUICK);
        AddTestCase(new SpritzComparisonTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new SpritzCollectiveTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new SpritzWebSearchTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new SpritzWebSearchRateTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new SpritzPaperSetupTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new SpritzDefaultsTestCase, DCNLB_TEST_QUICK);
    }
};

static SpritzSystemTestSuite g_spritzSystemTestSuite;

} // namespace dcntest
} // namespace ns3
