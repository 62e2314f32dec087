/*
 * TestSuite "dcn-lb-stats": FCT statistics against hand-computed values.
 */
#include "ns3/dcn-lb-compat.h"
#include "ns3/fct-stats.h"
#include "ns3/test.h"

#include <algorithm>
#include <sstream>

using namespace ns3;

namespace
{

FctRecord
Rec(uint64_t bytes, double startUs, double fctUs, double idealUs)
{
    FctRecord r;
    r.src = 1;
    r.dst = 2;
    r.bytes = bytes;
    r.start = MicroSeconds(startUs);
    r.finish = MicroSeconds(startUs + fctUs);
    r.ideal = MicroSeconds(idealUs);
    return r;
}

class PercentileTestCase : public TestCase
{
  public:
    PercentileTestCase()
        : TestCase("nearest-rank percentiles on a hand-computed case")
    {
    }

    void DoRun() override
    {
        // Values 15, 20, 35, 40, 50 (given unsorted).  Rank = ceil(p/100 * 5).
        std::vector<double> v{40, 15, 50, 35, 20};
        NS_TEST_ASSERT_MSG_EQ(FctStats::Percentile(v, 0), 15, "p0 = smallest");
        NS_TEST_ASSERT_MSG_EQ(FctStats::Percentile(v, 5), 15, "rank ceil(0.25) = 1");
        NS_TEST_ASSERT_MSG_EQ(FctStats::Percentile(v, 30), 20, "rank ceil(1.5) = 2");
        NS_TEST_ASSERT_MSG_EQ(FctStats::Percentile(v, 40), 20, "rank 2 exactly");
        NS_TEST_ASSERT_MSG_EQ(FctStats::Percentile(v, 50), 35, "rank ceil(2.5) = 3");
        NS_TEST_ASSERT_MSG_EQ(FctStats::Percentile(v, 99), 50, "rank ceil(4.95) = 5");
        NS_TEST_ASSERT_MSG_EQ(FctStats::Percentile(v, 100), 50, "p100 = largest");
        std::vector<double> h;
        for (int i = 1; i <= 100; ++i)
        {
            h.push_back(i);
        }
        NS_TEST_ASSERT_MSG_EQ(FctStats::Percentile(h, 99), 99, "rank 99 of 100 (no FP round-up)");
        NS_TEST_ASSERT_MSG_EQ(FctStats::Percentile(h, 50), 50, "rank 50 of 100");
        NS_TEST_ASSERT_MSG_EQ(FctStats::Percentile({}, 50), 0, "empty -> 0");
    }
};

class IdealFctTestCase : public TestCase
{
  public:
    IdealFctTestCase()
        : TestCase("ideal FCT = baseRtt(first packet) + remaining wire bytes at line rate")
    {
    }

    void DoRun() override
    {
        DataRate r("400Gbps");
        // 10000 B, MTU 4096, 64 B headers: packets 4096 + 4096 + 1808.
        // wire = 10000 + 3*64 = 10192; first packet 4160 B (in the base RTT);
        // packet 2: 4160 B = 33280 bit at 400 Gb/s = 83.2 ns -> 83 ns (1 ns resolution);
        // packet 3: 1872 B = 14976 bit = 37.44 ns -> 37 ns.  ideal = 5 us + 120 ns
        // (continuous formula: 5.12064 us).
        NS_TEST_ASSERT_MSG_EQ(FctStats::WireBytes(10000, 4096, 64), 10192, "wire bytes");
        NS_TEST_ASSERT_MSG_EQ(FctStats::FirstPacketPayload(10000, 4096), 4096, "first payload");
        Time i1 = FctStats::IdealFct(MicroSeconds(5), 10000, 4096, 64, r);
        NS_TEST_ASSERT_MSG_EQ(i1, NanoSeconds(5120), "hand-computed ideal");
        NS_TEST_ASSERT_MSG_EQ_TOL(i1.GetSeconds(), 5.12064e-6, 2.01e-9, "continuous formula");
        // A message of one packet: exactly the base RTT of that packet.
        Time i2 = FctStats::IdealFct(NanoSeconds(4321), 1000, 4096, 64, r);
        NS_TEST_ASSERT_MSG_EQ(i2, NanoSeconds(4321), "single packet = base RTT");
        // Exactly two full packets: base + one full packet (4160 B -> 83 ns).
        Time i4 = FctStats::IdealFct(MicroSeconds(5), 8192, 4096, 64, r);
        NS_TEST_ASSERT_MSG_EQ(i4, NanoSeconds(5083), "two packets");
        // 2 MiB at 100 Gb/s, MTU 4096, 71 B headers: 512 full packets; 511 after the
        // first, each 4167 B = 33336 bit = 333.36 ns -> 333 ns: 511 * 333 = 170163 ns.
        Time i3 = FctStats::IdealFct(MicroSeconds(10), 2097152, 4096, 71, DataRate("100Gbps"));
        NS_TEST_ASSERT_MSG_EQ(i3, NanoSeconds(180163), "2 MiB at 100G");
    }
};

class SummaryTestCase : public TestCase
{
  public:
    SummaryTestCase()
        : TestCase("summary (count, mean, p50, p99, max, slowdown), size bins, CSV, JSON, table")
    {
    }

    void DoRun() override
    {
        FctStats st;
        // FCTs 10, 20, 30, 40, 100 us; ideal 10 us each -> slowdowns 1, 2, 3, 4, 10.
        st.Add(Rec(50000, 0, 10, 10));           // <100KB
        st.Add(Rec(500000, 5, 20, 10));          // 100KB-1MB
        st.Add(Rec(5000000, 0, 30, 10));         // 1-10MB
        st.Add(Rec(50000000, 1, 40, 10));        // >10MB
        FctRecord last = Rec(99999, 2, 100, 10); // <100KB
        last.retransmissions = 3;
        last.timeouts = 1;
        last.outOfOrder = 7;
        last.trimmed = 2;
        st.Add(last);
        FctRecord unfinished = Rec(1000, 0, 0, 10);
        unfinished.completed = false;
        unfinished.retransmissions = 1;
        st.Add(unfinished);

        FctSummary s = st.Summarize();
        NS_TEST_ASSERT_MSG_EQ(s.count, 5, "completed flows");
        NS_TEST_ASSERT_MSG_EQ(s.unfinished, 1, "unfinished flows");
        NS_TEST_ASSERT_MSG_EQ_TOL(s.meanUs, 40.0, 1e-9, "(10+20+30+40+100)/5");
        NS_TEST_ASSERT_MSG_EQ_TOL(s.p50Us, 30.0, 1e-9, "rank 3 of 5");
        NS_TEST_ASSERT_MSG_EQ_TOL(s.p99Us, 100.0, 1e-9, "rank 5 of 5");
        NS_TEST_ASSERT_MSG_EQ_TOL(s.maxUs, 100.0, 1e-9, "max");
        NS_TEST_ASSERT_MSG_EQ_TOL(s.completionUs, 102.0, 1e-9, "last finish 102 - first start 0");
        NS_TEST_ASSERT_MSG_EQ_TOL(s.meanSlowdown, 4.0, 1e-9, "(1+2+3+4+10)/5");
        NS_TEST_ASSERT_MSG_EQ_TOL(s.p50Slowdown, 3.0, 1e-9, "median slowdown");
        NS_TEST_ASSERT_MSG_EQ(s.retransmissions, 4, "counters include unfinished flows");
        NS_TEST_ASSERT_MSG_EQ(s.timeouts, 1, "timeouts");
        NS_TEST_ASSERT_MSG_EQ(s.outOfOrder, 7, "ooo");
        NS_TEST_ASSERT_MSG_EQ(s.trimmed, 2, "trimmed");

        auto bins = FctStats::DefaultBins();
        NS_TEST_ASSERT_MSG_EQ(bins.size(), 4, "4 bins");
        FctSummary small = st.Summarize(bins[0].lo, bins[0].hi);
        NS_TEST_ASSERT_MSG_EQ(small.count, 2, "50000 and 99999 B are < 100KB");
        NS_TEST_ASSERT_MSG_EQ_TOL(small.meanUs, 55.0, 1e-9, "(10+100)/2");
        NS_TEST_ASSERT_MSG_EQ(st.Summarize(bins[1].lo, bins[1].hi).count, 1, "100KB-1MB");
        NS_TEST_ASSERT_MSG_EQ(st.Summarize(bins[2].lo, bins[2].hi).count, 1, "1-10MB");
        NS_TEST_ASSERT_MSG_EQ(st.Summarize(bins[3].lo, bins[3].hi).count, 1, ">10MB");

        std::ostringstream csv;
        st.WriteCsv(csv);
        std::string c = csv.str();
        NS_TEST_ASSERT_MSG_EQ(std::count(c.begin(), c.end(), '\n'), 7, "header + 6 flows");
        NS_TEST_ASSERT_MSG_NE(c.find("src,dst,size_bytes,start_us,finish_us,fct_us,ideal_fct_us,"
                                     "slowdown"),
                              std::string::npos,
                              "CSV header");
        NS_TEST_ASSERT_MSG_NE(c.find("1,2,500000,5,25,20,10,2,1,0,0,0,0"),
                              std::string::npos,
                              "CSV line of the second flow:\n"
                                  << c);

        FabricCounters f;
        f.drops = 11;
        f.failureDrops = 5;
        f.marks = 22;
        f.trims = 33;
        f.packetHops = 44;
        std::ostringstream js;
        st.WriteJson(js, "ops", f, true);
        NS_TEST_ASSERT_MSG_NE(js.str().find("\"max_fct_us\":100"), std::string::npos, js.str());
        NS_TEST_ASSERT_MSG_NE(js.str().find("\"drops\":11"), std::string::npos, js.str());

        std::string table = FctStats::FormatComparison({"ecmp", "ops"}, {s, small}, {f, f});
        NS_TEST_ASSERT_MSG_NE(table.find("ecmp"), std::string::npos, table);
        NS_TEST_ASSERT_MSG_NE(table.find("100.00"), std::string::npos, table);
        NS_TEST_ASSERT_MSG_NE(table.find("55.00"), std::string::npos, table);
        std::string line = FctStats::SummaryCsvLine("ops", s, f);
        NS_TEST_ASSERT_MSG_EQ(line,
                              "ops,5,1,40,30,100,100,102,4,10,4,7,1,2,11,5,22,33,44",
                              "summary CSV");
    }
};

class StatsTestSuite : public TestSuite
{
  public:
    StatsTestSuite()
        : TestSuite("dcn-lb-stats", DCNLB_TEST_UNIT)
    {
        AddTestCase(new PercentileTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new IdealFctTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new SummaryTestCase, DCNLB_TEST_QUICK);
    }
};

static StatsTestSuite g_statsTestSuite;

} // namespace
