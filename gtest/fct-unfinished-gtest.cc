// GoogleTest: honest reports of unfinished flows in FctStats (issue 9).
#include "ns3/fct-stats.h"

#include <gtest/gtest.h>
#include <sstream>

using namespace ns3;

namespace
{

FctRecord
Done(uint32_t src, uint64_t bytes, double startUs, double fctUs, double idealUs, uint32_t retx = 0)
{
    FctRecord r;
    r.src = src;
    r.dst = src + 1;
    r.bytes = bytes;
    r.start = MicroSeconds(startUs);
    r.finish = MicroSeconds(startUs + fctUs);
    r.ideal = MicroSeconds(idealUs);
    r.retransmissions = retx;
    return r;
}

FctProgress
Progress(uint64_t acked, uint32_t retx, uint32_t timeouts)
{
    FctProgress p;
    p.bytesAcked = acked;
    p.retransmissions = retx;
    p.timeouts = timeouts;
    p.outOfOrder = 2;
    p.trimmed = 1;
    return p;
}

} // namespace

TEST(FctUnfinished, RecordCarriesTheConnectionsProgress)
{
    FctRecord r = FctStats::Unfinished(3,
                                       4,
                                       1000000,
                                       MicroSeconds(5),
                                       MicroSeconds(30),
                                       Progress(400000, 488, 17));
    EXPECT_FALSE(r.completed);
    EXPECT_EQ(r.src, 3u);
    EXPECT_EQ(r.dst, 4u);
    EXPECT_EQ(r.finish, r.start);
    EXPECT_EQ(r.bytesAcked, 400000u);
    EXPECT_EQ(r.retransmissions, 488u);
    EXPECT_EQ(r.timeouts, 17u);
    EXPECT_EQ(r.outOfOrder, 2u);
    EXPECT_EQ(r.trimmed, 1u);
    EXPECT_EQ(r.ideal, MicroSeconds(30));
}

TEST(FctUnfinished, AllFinishedPredicate)
{
    FctStats st;
    EXPECT_TRUE(st.AllFinished()); // no flows: nothing unfinished
    st.Add(Done(0, 1000, 0, 10, 5));
    EXPECT_TRUE(st.AllFinished());
    EXPECT_EQ(st.CountUnfinished(), 0u);
    st.Add(FctStats::Unfinished(1, 2, 1000, MicroSeconds(0), MicroSeconds(5), Progress(0, 0, 3)));
    EXPECT_FALSE(st.AllFinished());
    EXPECT_EQ(st.CountUnfinished(), 1u);
    ASSERT_EQ(st.GetUnfinished().size(), 1u);
    EXPECT_EQ(st.GetUnfinished()[0].src, 1u);
}

TEST(FctUnfinished, SummaryCountsThemSeparatelyWithRealCounters)
{
    FctStats st;
    st.Add(Done(0, 2000, 0, 40, 20, 5));
    st.Add(Done(1, 2000, 10, 100, 20, 1));
    st.Add(FctStats::Unfinished(2,
                                3,
                                3000,
                                MicroSeconds(2),
                                MicroSeconds(25),
                                Progress(1000, 9000, 40)));
    st.Add(FctStats::Unfinished(4, 5, 5000, MicroSeconds(4), MicroSeconds(25), Progress(0, 56, 8)));
    FctSummary s = st.Summarize();
    EXPECT_EQ(s.count, 2u);
    EXPECT_EQ(s.unfinished, 2u);
    EXPECT_EQ(s.bytes, 4000u); // completed only
    EXPECT_EQ(s.unfinishedBytes, 8000u);
    EXPECT_EQ(s.unfinishedBytesAcked, 1000u);
    EXPECT_EQ(s.retransmissions, 5u + 1u + 9000u + 56u); // everything that happened
    EXPECT_EQ(s.unfinishedRetransmissions, 9056u);
    EXPECT_EQ(s.timeouts, 48u);
    EXPECT_EQ(s.unfinishedTimeouts, 48u);
    EXPECT_DOUBLE_EQ(s.maxUs, 100);
    // Without a recorded run end: completion over the finished flows, no run end.
    EXPECT_DOUBLE_EQ(s.completionUs, 110);
    EXPECT_FALSE(s.completionLowerBound);
    EXPECT_DOUBLE_EQ(s.runEndUs, 0);

    st.SetRunEnd(MilliSeconds(90));
    s = st.Summarize();
    EXPECT_DOUBLE_EQ(s.runEndUs, 90000);
    EXPECT_TRUE(s.completionLowerBound);
    EXPECT_DOUBLE_EQ(s.completionUs, 90000); // run end - first start (0)
    EXPECT_EQ(st.GetRunEnd(), MilliSeconds(90));
}

TEST(FctUnfinished, AllFinishedRunKeepsItsCompletionTime)
{
    FctStats st;
    st.Add(Done(0, 2000, 10, 40, 20));
    st.Add(Done(1, 2000, 20, 60, 20));
    st.SetRunEnd(MicroSeconds(500)); // e.g. the stop time
    FctSummary s = st.Summarize();
    EXPECT_DOUBLE_EQ(s.completionUs, 70); // last finish 80 - first start 10
    EXPECT_FALSE(s.completionLowerBound);
    EXPECT_DOUBLE_EQ(s.runEndUs, 500);
}

TEST(FctUnfinished, CsvWritesNoIdealFctOfZero)
{
    FctStats st;
    st.Add(Done(0, 1000, 0, 10, 5));
    st.Add(FctStats::Unfinished(1, 2, 1000, MicroSeconds(3), Time(0), Progress(10, 7, 2)));
    st.Add(FctStats::Unfinished(2, 3, 1000, MicroSeconds(3), MicroSeconds(5), Progress(10, 7, 2)));
    std::ostringstream os;
    st.WriteCsv(os);
    EXPECT_EQ(os.str(),
              "src,dst,size_bytes,start_us,finish_us,fct_us,ideal_fct_us,slowdown,completed,"
              "retransmissions,out_of_order,timeouts,trimmed\n"
              "0,1,1000,0,10,10,5,2,1,0,0,0,0\n"
              "1,2,1000,3,,,,,0,7,2,2,1\n"
              "2,3,1000,3,,,5,,0,7,2,2,1\n");
}

TEST(FctUnfinished, UnfinishedCsvAndListing)
{
    FctStats st;
    st.Add(Done(0, 1000, 0, 10, 5));
    st.Add(FctStats::Unfinished(1, 2, 1000, MicroSeconds(3), MicroSeconds(5), Progress(10, 7, 2)));
    st.Add(FctStats::Unfinished(5, 6, 2000, MicroSeconds(4), MicroSeconds(6), Progress(0, 1, 1)));
    st.SetRunEnd(MicroSeconds(100));
    std::ostringstream csv;
    st.WriteUnfinishedCsv(csv);
    EXPECT_EQ(csv.str(),
              "src,dst,size_bytes,start_us,run_end_us,elapsed_us,ideal_fct_us,acked_bytes,"
              "retransmissions,out_of_order,timeouts,trimmed\n"
              "1,2,1000,3,100,97,5,10,7,2,2,1\n"
              "5,6,2000,4,100,96,6,0,1,2,1,1\n");
    std::ostringstream txt;
    st.PrintUnfinished(txt, 1);
    EXPECT_EQ(txt.str(),
              "unfinished flows: 2 of 3 (run ended at 100.00 us)\n"
              "  1 -> 2: 10 of 1000 bytes acked, 7 retransmissions, 2 timeouts\n"
              "  ... 1 more\n");
    FctStats done;
    done.Add(Done(0, 1000, 0, 10, 5));
    std::ostringstream none;
    done.PrintUnfinished(none, 10);
    EXPECT_EQ(none.str(), "");
}

TEST(FctUnfinished, ComparisonTableShowsRunEndOnlyWhenSomethingIsUnfinished)
{
    FctStats ok;
    ok.Add(Done(0, 1000, 0, 10, 5));
    ok.SetRunEnd(MicroSeconds(10));
    FctStats bad;
    bad.Add(Done(0, 1000, 0, 10, 5));
    bad.Add(FctStats::Unfinished(1, 2, 1000, MicroSeconds(0), MicroSeconds(5), Progress(10, 7, 2)));
    bad.SetRunEnd(MilliSeconds(90));
    FabricCounters f;
    std::string allDone = FctStats::FormatComparison({"ops"}, {ok.Summarize()}, {f});
    EXPECT_EQ(allDone.find("run end"), std::string::npos);
    EXPECT_EQ(allDone.find(">="), std::string::npos);
    std::string t =
        FctStats::FormatComparison({"ops", "ecmp"}, {ok.Summarize(), bad.Summarize()}, {f, f});
    EXPECT_NE(t.find("run end (us)"), std::string::npos) << t;
    EXPECT_NE(t.find(">=90000.00"), std::string::npos) << t;
    EXPECT_NE(t.find("10/1000"), std::string::npos) << t;
    EXPECT_NE(t.find("unfinished retx"), std::string::npos) << t;
}

TEST(FctUnfinished, ComparisonTableShowsGoBackNDiscardsOnlyWithGoBackN)
{
    FctStats ok;
    ok.Add(Done(0, 1000, 0, 10, 5));
    ok.SetRunEnd(MicroSeconds(10));
    FabricCounters sr; // selective repeat: no row
    EXPECT_EQ(FctStats::FormatComparison({"ops"}, {ok.Summarize()}, {sr}).find("go-back-N"),
              std::string::npos);
    FabricCounters gbn;
    gbn.goBackN = true;
    gbn.outOfSequenceDropped = 4184;
    std::string t =
        FctStats::FormatComparison({"ecmp", "ops"}, {ok.Summarize(), ok.Summarize()}, {sr, gbn});
    const size_t row = t.find("go-back-N discards");
    ASSERT_NE(row, std::string::npos) << t;
    const std::string line = t.substr(row, t.find('\n', row) - row);
    EXPECT_NE(line.find(" 0 "), std::string::npos) << line;
    EXPECT_NE(line.find("4184"), std::string::npos) << line;
}

TEST(FctUnfinished, JsonHasTheNewFields)
{
    FctStats st;
    st.Add(FctStats::Unfinished(1, 2, 1000, MicroSeconds(0), MicroSeconds(5), Progress(10, 7, 2)));
    st.SetRunEnd(MicroSeconds(50));
    std::ostringstream os;
    FctStats::WriteSummaryJson(os, st.Summarize());
    EXPECT_NE(os.str().find("\"run_end_us\":50"), std::string::npos) << os.str();
    EXPECT_NE(os.str().find("\"completion_lower_bound\":true"), std::string::npos);
    EXPECT_NE(os.str().find("\"unfinished_retransmissions\":7"), std::string::npos);
}

TEST(FctUnfinished, ComparisonTableKeepsASpaceBeforeALongCell)
{
    // "unfinished bytes acked" cells such as 15708160/67108864 are wider than a column:
    // they must not run into their neighbours
    FctStats bad;
    bad.Add(FctStats::Unfinished(1,
                                 2,
                                 67108864,
                                 MicroSeconds(0),
                                 MicroSeconds(5),
                                 Progress(15708160, 0, 0)));
    bad.SetRunEnd(MicroSeconds(20));
    FabricCounters f;
    std::string t = FctStats::FormatComparison({"a-very-long-label", "ecmp"},
                                               {bad.Summarize(), bad.Summarize()},
                                               {f, f});
    EXPECT_NE(t.find(" 15708160/67108864 15708160/67108864"), std::string::npos) << t;
    EXPECT_NE(t.find(" a-very-long-label"), std::string::npos) << t;
}
