// GoogleTest unit tests of the pure workload / statistics logic.
#include "ns3/fct-stats.h"
#include "ns3/flow-size-cdf.h"
#include "ns3/workload-plan.h"

#include <gtest/gtest.h>

using namespace ns3;

TEST(WorkloadScheduler, SlidingWindowOfTwo)
{
    WorkloadPlan plan = WorkloadPlanner::AllToAll(4, 10, 2);
    WorkloadScheduler s(&plan);
    auto first = s.Start();
    // Host h's messages are ids 3h, 3h+1, 3h+2; two start at once per host.
    ASSERT_EQ(first.size(), 8u);
    EXPECT_EQ(s.GetActive(0), 2u);
    auto next = s.OnComplete(1); // host 0 finishes its second message
    ASSERT_EQ(next.size(), 1u);
    EXPECT_EQ(next[0], 2u); // its third starts
    EXPECT_TRUE(s.OnComplete(0).empty());
    EXPECT_FALSE(s.AllDone());
}

TEST(WorkloadScheduler, RingStepWaitsForBothDependencies)
{
    WorkloadPlan plan = WorkloadPlanner::RingAllreduce(3, 300);
    WorkloadScheduler s(&plan);
    EXPECT_EQ(s.Start(), (std::vector<uint32_t>{0, 1, 2}));
    // Step 1 of host 1 (id 4) needs host 1's step 0 (id 1) and host 0's step 0 (id 0).
    EXPECT_TRUE(s.OnComplete(1).empty());
    EXPECT_EQ(s.OnComplete(0), (std::vector<uint32_t>{4}));
}

TEST(FctStats, NearestRank)
{
    EXPECT_EQ(FctStats::Percentile({3, 1, 2, 4}, 50), 2);
    EXPECT_EQ(FctStats::Percentile({3, 1, 2, 4}, 51), 3);
    EXPECT_EQ(FctStats::Percentile({3, 1, 2, 4}, 100), 4);
}

TEST(FlowSizeCdf, ValidateRejects)
{
    EXPECT_EQ(FlowSizeCdf::Validate({{0, 0}, {10, 100}}), "");
    EXPECT_NE(FlowSizeCdf::Validate({{0, 0}}), "");
    EXPECT_NE(FlowSizeCdf::Validate({{0, 0}, {10, 90}}).find("end at 100"), std::string::npos);
    EXPECT_NE(FlowSizeCdf::Validate({{0, 50}, {10, 40}, {20, 100}}).find("point 2"),
              std::string::npos);
}
