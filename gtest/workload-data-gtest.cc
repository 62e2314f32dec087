/*
 * GoogleTest: the shipped workload CDFs (data/workloads/*.txt) have the means
 * documented in data/workloads/README.md (linear interpolation between points).
 * Pure logic, no simulator.
 */
#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace
{

std::vector<std::pair<double, double>>
LoadCdf(const std::string& name)
{
    std::ifstream in(std::string(DCNLB_DATA_DIR) + "/workloads/" + name + ".txt");
    std::vector<std::pair<double, double>> pts;
    std::string line;
    while (std::getline(in, line))
    {
        if (line.empty() || line[0] == '#')
        {
            continue;
        }
        std::istringstream ls(line);
        double s = 0;
        double p = 0;
        if (ls >> s >> p)
        {
            pts.emplace_back(s, p);
        }
    }
    return pts;
}

double
MeanOf(const std::vector<std::pair<double, double>>& pts)
{
    double mean = 0;
    for (size_t i = 1; i < pts.size(); ++i)
    {
        const double w = (pts[i].second - pts[i - 1].second) / 100.0;
        mean += w * (pts[i].first + pts[i - 1].first) / 2.0;
    }
    return mean;
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
        auto pts = LoadCdf(name);
        ASSERT_GT(pts.size(), 2u) << name;
        EXPECT_NEAR(MeanOf(pts), mean, 1.0) << name;
    }
}

TEST(WorkloadData, CdfsAreMonotoneAndComplete)
{
    for (const char* name : {"websearch", "datamining", "hadoop", "rpc", "storage"})
    {
        auto pts = LoadCdf(name);
        ASSERT_FALSE(pts.empty()) << name;
        for (size_t i = 1; i < pts.size(); ++i)
        {
            EXPECT_GE(pts[i].first, pts[i - 1].first) << name;
            EXPECT_GE(pts[i].second, pts[i - 1].second) << name;
        }
        EXPECT_DOUBLE_EQ(pts.back().second, 100.0) << name;
    }
}

} // namespace
