/*
 * dcn-lb-laps-vs-global: LAPS against ns-3's built-in routing (issue 16 item 5)
 * on a small Rail (laps-rail with 4 clusters x 4 GPUs: 16 hosts, 4 NVLink + 4
 * rail + 16 NIC switches, GPU links 200 Gb/s, fabric 100 Gb/s, 1 us per link),
 * the same All2all (hadoop-CDF flows between random host pairs, Poisson at 80 %
 * of the host link for 70 us, fixed seed) with the LAPS experiment driver
 * (helper/laps-experiment.h), four ways:
 *  - "ns3-global": ECMP hosts over RoCE (go-back-N + DCQCN) on ns-3's
 *    Ipv4GlobalRouting, first route;
 *  - "ns3-global-ecmp": the same with RandomEcmpRouting (per-packet random over
 *    equal-cost next hops);
 *  - "ecmp": our switches, per-flow ECMP over the minimal paths, RoCE;
 *  - "laps": LAPS over its 4 anchor paths per cluster pair (spec 1.2).
 * The RoCE runs as laps-paper's (LapsPaperDefaults: the LAPS authors' DCQCN values, and
 * their send window, 155,240 B here).
 * PFC is off for all four (ns-3's routing does not read our PFC frames), so
 * every run has the same 150 KB drop-tail queues.  Asserted, robust at this
 * size (the margins are wide, see doc/laps.rst): the same flows in every run,
 * every flow completes, and LAPS's mean FCT is below 0.75x and its p99 below half of
 * those of every ECMP variant (shortest paths only use at most 2 of the 4 rails between two
 * clusters; LAPS sprays over all of them).  Run with --verbose for the table.
 */
#include "ns3/config.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/laps-experiment.h"
#include "ns3/test.h"

#include <iomanip>
#include <iostream>
#include <map>

using namespace ns3;

namespace
{
/** The small Rail All2all of this suite: 16 hosts, Hadoop at 0.8 for 70 us. */
LapsExperimentConfig
SmallRailAll2all(const std::string& scheme, bool pfc)
{
    LapsExperimentConfig c;
    c.experiment = "all2all";
    c.topo = "laps-rail";
    c.topoParams = {{"clusters", "4"}, {"rails", "4"}};
    c.scheme = scheme;
    c.pfc = pfc;
    c.cdf = "hadoop";
    c.load = 0.8;
    c.duration = MicroSeconds(70);
    c.stop = Seconds(1);
    return c;
}
} // namespace

class LapsVsGlobalTestCase : public TestCase
{
  public:
    LapsVsGlobalTestCase()
        : TestCase("small Rail All2all: LAPS vs ns-3 Ipv4GlobalRouting (first route, random "
                   "ECMP) and our ECMP")
    {
    }

  private:
    void DoRun() override
    {
        std::map<std::string, LapsExperimentResult> r;
        const char* schemes[] = {"ns3-global", "ns3-global-ecmp", "ecmp", "laps"};
        LapsPaperDefaults();
        for (const char* s : schemes)
        {
            LapsExperimentConfig c = SmallRailAll2all(s, false);
            c.dcqcnWindow = LapsExperimentConfig::UNIFIED_WINDOW; // laps-paper's default
            r[s] = RunLapsExperiment(c);
        }
        Config::Reset();
        std::clog << std::fixed << std::setprecision(1);
        for (const char* s : schemes)
        {
            const auto& x = r[s];
            std::clog << std::setw(16) << s << " flows " << x.s.count << " unfinished "
                      << x.s.unfinished << " mean " << x.s.meanUs << " us p99 " << x.s.p99Us
                      << " us drops " << x.drops << " wall " << x.wall << " s retx "
                      << x.s.retransmissions << " " << x.note << "\n";
        }
        const uint32_t flows = r["laps"].s.count + r["laps"].s.unfinished;
        NS_TEST_ASSERT_MSG_GT(flows, 100u, "a real workload");
        for (const char* s : schemes)
        {
            NS_TEST_ASSERT_MSG_EQ(r[s].note, "", s << ": ran");
            NS_TEST_ASSERT_MSG_EQ(r[s].s.unfinished, 0u, s << ": every flow completes");
            NS_TEST_ASSERT_MSG_EQ(r[s].s.count, flows, s << ": the same flows (fixed seed)");
        }
        for (const char* s : {"ns3-global", "ns3-global-ecmp", "ecmp"})
        {
            // measured (the LAPS authors' DCQCN, notification point and window, since
            // 2026-11-30): 2.0x (mean) and 3.3x (p99) at least (1.83x and 3.7x with the
            // 50-us notification point and SIGCOMM'15 increase stages); asserted: 1.33x
            // and 2x
            NS_TEST_ASSERT_MSG_LT(r["laps"].s.meanUs,
                                  0.75 * r[s].s.meanUs,
                                  "LAPS mean FCT below 0.75x " << s);
            NS_TEST_ASSERT_MSG_LT(r["laps"].s.p99Us,
                                  0.5 * r[s].s.p99Us,
                                  "LAPS p99 FCT below half of " << s);
        }
    }
};

/**
 * CONGA and ConWeave generalised to Rail (AnyTopology=true through
 * LapsPaperDefaults(), as laps-paper runs them): the same small All2all as
 * above, RoCE + DCQCN + go-back-N, PFC on, a connection per flow; every flow
 * completes.  Measured (seed 1, the LAPS authors' DCQCN, notification point (a CNP per
 * CE-marked packet) and window, since 2026-11-30): mean FCT ECMP 59.6 us, CONGA 56.0 (its
 * flowlets re-pick the NIC switch's uplink by feedback), ConWeave 55.6 (reroutes on RTT);
 * with one CNP per 50 us and SIGCOMM'15 increase stages (2026-11-29) 33.2, 31.2, 29.5;
 * with SIGCOMM'15 DCQCN and no window (before 2026-11-29) 50.9, 49.6, 39.3.  Asserted: ConWeave
 * below ECMP, CONGA within 5 % of ECMP and not the same run.
 */
class SwitchBaselinesOnRailTestCase : public TestCase
{
  public:
    SwitchBaselinesOnRailTestCase()
        : TestCase("small Rail All2all: CONGA and ConWeave generalised (AnyTopology) complete "
                   "every flow; ConWeave's mean FCT below ECMP's, CONGA's near it")
    {
    }

  private:
    void DoRun() override
    {
        LapsPaperDefaults();
        std::map<std::string, LapsExperimentResult> r;
        const char* schemes[] = {"ecmp", "conga", "conweave"};
        for (const char* s : schemes)
        {
            LapsExperimentConfig c = SmallRailAll2all(s, true);
            c.dcqcnWindow = LapsExperimentConfig::UNIFIED_WINDOW; // laps-paper's default
            r[s] = RunLapsExperiment(c);
            NS_TEST_ASSERT_MSG_EQ(r[s].dcqcnWindow, 155240u, s << ": the authors' window");
            std::clog << std::setw(10) << s << " flows " << r[s].s.count << " unfinished "
                      << r[s].s.unfinished << " mean " << r[s].s.meanUs << " us p99 "
                      << r[s].s.p99Us << " us retx " << r[s].s.retransmissions << " " << r[s].note
                      << "\n";
        }
        Config::Reset();
        const uint32_t flows = r["ecmp"].s.count + r["ecmp"].s.unfinished;
        NS_TEST_ASSERT_MSG_GT(flows, 100u, "a real workload");
        for (const char* s : schemes)
        {
            NS_TEST_ASSERT_MSG_EQ(r[s].note, "", s << ": ran (not skipped)");
            NS_TEST_ASSERT_MSG_EQ(r[s].s.unfinished, 0u, s << ": every flow completes");
            NS_TEST_ASSERT_MSG_EQ(r[s].s.count, flows, s << ": the same flows (fixed seed)");
        }
        NS_TEST_ASSERT_MSG_LT(r["conweave"].s.meanUs,
                              r["ecmp"].s.meanUs,
                              "ConWeave below ECMP's mean");
        NS_TEST_ASSERT_MSG_LT(r["conga"].s.meanUs,
                              1.05 * r["ecmp"].s.meanUs,
                              "CONGA within 5 % of ECMP's mean");
        NS_TEST_ASSERT_MSG_NE(r["conga"].s.meanUs, r["ecmp"].s.meanUs, "CONGA is not ECMP");
    }
};

class LapsVsGlobalTestSuite : public TestSuite
{
  public:
    LapsVsGlobalTestSuite()
        : TestSuite("dcn-lb-laps-vs-global", DCNLB_TEST_SYSTEM)
    {
        AddTestCase(new LapsVsGlobalTestCase(), DCNLB_TEST_QUICK);
        AddTestCase(new SwitchBaselinesOnRailTestCase(), DCNLB_TEST_QUICK);
    }
};

static LapsVsGlobalTestSuite g_lapsVsGlobalTestSuite;
