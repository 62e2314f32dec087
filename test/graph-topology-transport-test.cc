/*
 * dcn-lb-graph-topology-transport: the message transport (DcnTransport with
 * OPS / REPS / ECMP path selection) over the graph topologies with the switch
 * routing policies, simulated:
 *  - a permutation of 256 KiB messages on df-small (72 hosts, 400 Gb/s) with
 *    (ops, minimal), (reps, valiant), (reps, ugal-l), (ecmp, minimal) and on
 *    sf-small (q=5, 200 hosts; (ops, valiant)): every message completes, every
 *    byte exactly once, PortStatsHelper sees the switch traffic;
 *  - failures: 5 % of the switch-switch links (FailureHelper::FailRandomLinks,
 *    withdrawn at once) plus one link by name and one whole switch (its hosts
 *    excluded from the workload): every other message completes, no packet is
 *    unroutable after the withdrawal; same seed -> same FCTs (deterministic).
 */
#include "transport-test-net.h"

#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-transport-helper.h"
#include "ns3/dcn-transport.h"
#include "ns3/dctcp-cc.h"
#include "ns3/failure-helper.h"
#include "ns3/graph-topology-helper.h"
#include "ns3/path-selector.h"
#include "ns3/port-stats-helper.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/test.h"

namespace ns3
{
namespace dcntest
{

struct GraphRunConfig
{
    std::string preset{"df-small"};
    std::string lb{"ops"};
    std::string routing{"minimal"};
    bool failures{false};
    uint64_t msgBytes{256 * 1024};
};

struct GraphRunResult
{
    uint32_t expected{0};
    uint32_t completed{0};
    bool allOnce{true};
    uint64_t switchTxBytes{0};
    uint64_t unroutable{0};
    uint32_t failedLinks{0};
    std::vector<int64_t> fctNs;
};

inline GraphRunResult
RunGraph(const GraphRunConfig& cfg)
{
    RngSeedManager::SetSeed(5);
    RngSeedManager::SetRun(1);
    GraphRunResult res;
    Ptr<DcnGraphTopology> t = DcnTopologyPresets::Create(cfg.preset, {}, cfg.routing);
    int64_t stream = 10;
    stream += t->AssignStreams(stream);
    const uint32_t n = t->GetNHosts();
    std::vector<bool> excluded(n, false);
    Ptr<FailureHelper> fh = CreateObject<FailureHelper>(t);
    if (cfg.failures)
    {
        Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
        rng->SetStream(stream++);
        res.failedLinks = fh->FailRandomLinks(0.05, rng, Time(0), Time(0)).size();
        uint32_t byName = fh->GetLinkId("g0s1-g0s2");
        fh->FailLink(byName, Time(0), Time(0));
        const uint32_t dead = 7; // a whole switch, its hosts leave the workload
        fh->FailSwitch(t->GetAllSwitches().Get(dead), Time(0), Time(0), true, Time(0));
        for (uint32_t h = 0; h < n; ++h)
        {
            excluded[h] = t->GetSwitchOfHost(h) == dead;
        }
        stream += fh->AssignStreams(stream);
    }
    Ptr<PortStatsHelper> stats = CreateObject<PortStatsHelper>();
    stats->Install(t, Time(0), MilliSeconds(20));

    DcnTransportHelper th;
    th.Install(t->GetHosts());
    DeliveryChecker checker;
    for (uint32_t i = 0; i < n; ++i)
    {
        DcnTransportHelper::Get(t->GetHosts().Get(i))
            ->TraceConnectWithoutContext("Rx", MakeCallback(&DeliveryChecker::Rx, &checker));
    }
    std::vector<DcnMessageRecord> recs;
    const uint32_t mtu = DcnTransportHelper::Get(t->GetHosts().Get(0))->GetMtu();
    for (uint32_t s = 0; s < n; ++s)
    {
        uint32_t d = (s * 5 + 7) % n; // gcd(5, n) = 1 for 72 and 200: a bijection
        if (s == d || excluded[s] || excluded[d])
        {
            continue;
        }
        Ptr<DcnTransport> tr = DcnTransportHelper::Get(t->GetHosts().Get(s));
        Ptr<PathSelector> ps = PathSelectorRegistry::Create(cfg.lb);
        stream += ps->AssignStreams(stream);
        DcnConnectionParams p;
        p.lineRate = t->GetHostLinkRate();
        p.baseRtt = t->GetBaseRtt(s, d, mtu);
        Ptr<DcnConnection> c = tr->Connect(t->GetHostAddress(d), ps, CreateObject<DctcpCc>(), p);
        uint64_t bytes = cfg.msgBytes;
        Simulator::Schedule(MicroSeconds(1), [c, bytes, &recs]() {
            c->SendMessage(bytes,
                           DcnConnection::CompletionCallback(
                               [&recs](const DcnMessageRecord& r) { recs.push_back(r); }));
        });
        res.expected++;
    }
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    for (auto& r : recs)
    {
        res.allOnce &= checker.ExactlyOnce(r.src, r.connId, r.msgId, r.bytes);
        res.fctNs.push_back((r.finish - r.start).GetNanoSeconds());
    }
    res.completed = static_cast<uint32_t>(recs.size());
    for (uint32_t i = 0; i < stats->GetPorts().size(); ++i)
    {
        if (stats->GetPorts()[i].tier >= 0)
        {
            res.switchTxBytes += stats->GetTxBytes(i);
        }
    }
    res.unroutable = fh->GetUnroutableDrops();
    Simulator::Destroy();
    return res;
}

class GraphPermutationTestCase : public TestCase
{
  public:
    explicit GraphPermutationTestCase(GraphRunConfig cfg)
        : TestCase("permutation on " + cfg.preset + " lb=" + cfg.lb + " routing=" + cfg.routing +
                   (cfg.failures ? " with failures" : "")),
          m_cfg(cfg)
    {
    }

  private:
    void DoRun() override
    {
        GraphRunResult r = RunGraph(m_cfg);
        NS_TEST_ASSERT_MSG_GT(r.expected, 0u, "messages");
        NS_TEST_ASSERT_MSG_EQ(r.completed, r.expected, "every message completes");
        NS_TEST_ASSERT_MSG_EQ(r.allOnce, true, "every byte exactly once");
        NS_TEST_ASSERT_MSG_GT(r.switchTxBytes,
                              uint64_t(r.expected) * m_cfg.msgBytes,
                              "switch ports carried the traffic (PortStatsHelper)");
        if (m_cfg.failures)
        {
            NS_TEST_ASSERT_MSG_GT(r.failedLinks, 0u, "random links failed");
            NS_TEST_ASSERT_MSG_EQ(r.unroutable, 0u, "withdrawn before traffic: all routable");
            GraphRunResult again = RunGraph(m_cfg);
            bool same = again.fctNs == r.fctNs;
            NS_TEST_ASSERT_MSG_EQ(same, true, "same seed, same FCTs");
        }
    }

    GraphRunConfig m_cfg;
};

class GraphTransportTestSuite : public TestSuite
{
  public:
    GraphTransportTestSuite()
        : TestSuite("dcn-lb-graph-topology-transport", DCNLB_TEST_SYSTEM)
    {
        auto add = [this](std::string preset, std::string lb, std::string routing, bool f) {
            GraphRunConfig c;
            c.preset = preset;
            c.lb = lb;
            c.routing = routing;
            c.failures = f;
            AddTestCase(new GraphPermutationTestCase(c), DCNLB_TEST_QUICK);
        };
        add("df-small", "ops", "minimal", false);
        add("df-small", "ecmp", "minimal", false);
        add("df-small", "reps", "valiant", false);
        add("df-small", "reps", "ugal-l", false);
        add("sf-small", "ops", "valiant", false);
        add("df-small", "reps", "valiant", true);
    }
};

static GraphTransportTestSuite g_graphTransportTestSuite;

} // namespace dcntest
} // namespace ns3
