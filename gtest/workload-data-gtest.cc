/*
 * GoogleTest: the shipped workload CDFs (data/workloads/*.txt) load through the
 * same parser the simulator uses (FlowSizeCdf), are monotone and complete, and
 * have the means documented in data/workloads/README.md (linear interpolation
 * between points, FlowSizeCdf::Mean).  Pure logic, no simulator run.
 */
#include "ns3/flow-size-cdf.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <string>
#include <utility>
#include <vector>

namespace
{

ns3::FlowSizeCdf
LoadShipped(const std::string& name)
{
    ns3::FlowSizeCdf cdf;
    const std::string err = ns3::FlowSizeCdf::TryLoad(name, &cdf);
    EXPECT_EQ(err, "") << name;
    return cdf;
}

TEST(WorkloadData, BuiltinNamesAreShipped)
{
    const std::vector<std::string> names = ns3::FlowSizeCdf::BuiltinNames();
    for (const char* name : {"websearch", "datamining", "hadoop", "rpc", "storage"})
    {
        EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
    }
}

TEST(WorkloadData, MeansMatchReadme)
{
    const std::vector<std::pair<std::string, double>> expected = {{"websearch", 1711250},
                                                                  {"datamining", 12658199},
                                                                  {"hadoop", 120421},
                                                                  {"rpc", 2892},
                                                                  {"storage", 40870}};
    for (const auto& [name, mean] : expected)
    {
        ns3::FlowSizeCdf cdf = LoadShipped(name);
        ASSERT_GT(cdf.GetPoints().size(), 2u) << name;
        EXPECT_NEAR(cdf.Mean(), mean, 1.0) << name;
    }
}

TEST(WorkloadData, CdfsAreMonotoneAndComplete)
{
    for (const char* name : {"websearch", "datamining", "hadoop", "rpc", "storage"})
    {
        ns3::FlowSizeCdf cdf = LoadShipped(name);
        const auto& pts = cdf.GetPoints();
        ASSERT_FALSE(pts.empty()) << name;
        EXPECT_EQ(ns3::FlowSizeCdf::Validate(pts), "") << name;
        for (size_t i = 1; i < pts.size(); ++i)
        {
            EXPECT_GE(pts[i].bytes, pts[i - 1].bytes) << name;
            EXPECT_GE(pts[i].percent, pts[i - 1].percent) << name;
        }
        EXPECT_DOUBLE_EQ(pts.back().percent, 100.0) << name;
    }
}

} // namespace
