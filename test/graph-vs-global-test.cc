/*
 * dcn-lb-graph-vs-global: the Spritz / LAPS style networks routed by ns-3's own
 * Ipv4GlobalRouting (DcnGraphTopology Routing=global: first route, or per-packet
 * random ECMP with RandomEcmpRouting) against our switches, on df-small (9 groups
 * x 4 switches x 2 hosts, 400 Gb/s, one global link per group pair) with the
 * Spritz experiment driver (helper/spritz-experiment.h):
 *  - every message completes under ns-3's routing too (the transport, trimming
 *    and statistics work on nodes routed by ns-3);
 *  - on a uniform permutation our minimal routing with per-flow ECMP is within
 *    a few percent of ns-3's first route (both take shortest paths);
 *  - on the adversarial group shift (group i -> i+1, spec 4.3.3) every flow of a
 *    group crosses the one global link between the groups under shortest-path
 *    routing, ns-3's ECMP included; non-minimal routing (Valiant) and Spritz-Spray
 *    spread it over the other groups and finish clearly faster, UGAL-L detours when
 *    the minimal queue grows and beats ns-3's first route - the orderings the
 *    Spritz paper establishes (Sec. 6, adversarial traffic).
 * Run with --verbose to print the table.
 */
#include "ns3/dcn-lb-compat.h"
#include "ns3/spritz-experiment.h"
#include "ns3/test.h"

#include <iomanip>
#include <iostream>
#include <map>

using namespace ns3;

namespace
{

SpritzExperimentResult
RunScheme(const std::string& scheme, const WorkloadPlan& plan)
{
    SpritzExperimentConfig c;
    c.topo = "df-small";
    c.scheme = scheme;
    c.plan = plan;
    c.stop = MilliSeconds(50);
    return RunSpritzExperiment(c);
}

} // namespace

class GraphVsGlobalTestCase : public TestCase
{
  public:
    GraphVsGlobalTestCase()
        : TestCase("df-small: ns-3 Ipv4GlobalRouting vs our switch routing and Spritz")
    {
    }

  private:
    void DoRun() override
    {
        const WorkloadPlan perm = SpritzPermutationPlan("df-small", {}, 256 * 1024, 1);
        const WorkloadPlan adv = SpritzAdversarialPlan("df-small", {}, 256 * 1024);
        std::map<std::string, SpritzExperimentResult> p;
        std::map<std::string, SpritzExperimentResult> a;
        for (const char* s : {"ns3-global", "ns3-global-ecmp", "minimal"})
        {
            p[s] = RunScheme(s, perm);
        }
        for (const char* s :
             {"ns3-global", "ns3-global-ecmp", "minimal", "ugal-l", "valiant", "spritz-spray"})
        {
            a[s] = RunScheme(s, adv);
        }
        std::clog << std::fixed << std::setprecision(1);
        for (auto* m : {&p, &a})
        {
            for (const auto& kv : *m)
            {
                std::clog << (m == &p ? "permutation " : "adversarial ") << std::setw(16)
                          << kv.first << " done " << kv.second.completed << "/" << kv.second.total
                          << " mean " << kv.second.summary.meanUs << " us max "
                          << kv.second.summary.maxUs << " us drops " << kv.second.congestionDrops
                          << " trims " << kv.second.trims << "\n";
            }
        }
        for (auto* m : {&p, &a})
        {
            for (const auto& kv : *m)
            {
                NS_TEST_ASSERT_MSG_EQ(kv.second.completed,
                                      kv.second.total,
                                      kv.first << ": every message completes");
                NS_TEST_ASSERT_MSG_GT(kv.second.total, 60u, kv.first << ": a real workload");
            }
        }
        // shortest paths both ways: our minimal tables vs ns-3's first route
        const double ours = p["minimal"].summary.maxUs;
        const double ns3 = p["ns3-global"].summary.maxUs;
        NS_TEST_ASSERT_MSG_LT(ours, ns3 * 1.10, "permutation: minimal within 10% of ns-3");
        NS_TEST_ASSERT_MSG_GT(ours, ns3 * 0.90, "permutation: minimal within 10% of ns-3");
        // adversarial: shortest-path routing (ns-3's, with or without ECMP) is stuck on one
        // global link per group pair; Valiant and Spritz-Spray are not
        NS_TEST_ASSERT_MSG_LT(a["ugal-l"].summary.maxUs,
                              0.7 * a["ns3-global"].summary.maxUs,
                              "UGAL-L detours around the busy global link, ns-3's first route "
                              "cannot");
        for (const char* s : {"valiant", "spritz-spray"})
        {
            for (const char* g : {"ns3-global", "ns3-global-ecmp"})
            {
                NS_TEST_ASSERT_MSG_LT(a[s].summary.maxUs,
                                      0.6 * a[g].summary.maxUs,
                                      s << " finishes the group shift clearly before " << g);
            }
        }
    }
};

class GraphVsGlobalTestSuite : public TestSuite
{
  public:
    GraphVsGlobalTestSuite()
        : TestSuite("dcn-lb-graph-vs-global", DCNLB_TEST_SYSTEM)
    {
        AddTestCase(new GraphVsGlobalTestCase(), DCNLB_TEST_QUICK);
    }
};

static GraphVsGlobalTestSuite g_graphVsGlobalTestSuite;
