// GoogleTest: Graphviz DOT export of the switch graphs (issue 11 item 8).
#include "ns3/dcn-graph-dot.h"
#include "ns3/dcn-topo-builders.h"

#include <gtest/gtest.h>
#include <sstream>

using namespace dcn;

namespace
{
uint32_t
CountLines(const std::string& s, const std::string& needle)
{
    std::istringstream in(s);
    std::string line;
    uint32_t n = 0;
    while (std::getline(in, line))
    {
        n += line.find(needle) != std::string::npos;
    }
    return n;
}
} // namespace

TEST(GraphDot, RateLabels)
{
    EXPECT_EQ(RateLabel(400e9), "400G");
    EXPECT_EQ(RateLabel(2.5e9), "2.5G");
    EXPECT_EQ(RateLabel(1e8), "100M");
    EXPECT_EQ(RateLabel(1.6e12), "1.6T");
}

TEST(GraphDot, EveryNodeAndLinkOnceFailedMarked)
{
    GraphResult r = BuildPreset("hermes-testbed");
    ASSERT_TRUE(r.Ok());
    const SwitchGraph& g = r.graph;
    DotOptions o;
    o.failedLinks.assign(g.NLinks(), false);
    o.failedLinks[g.FindLink("leaf0-spine1/1")] = true;
    o.failedHosts = {3};
    const std::string dot = ToDot(g, o);
    EXPECT_EQ(dot.rfind("graph \"hermes-testbed\" {", 0), 0u);
    EXPECT_EQ(dot.back(), '\n');
    EXPECT_EQ(CountLines(dot, " -- "), g.NLinks() + g.NHosts());
    EXPECT_EQ(CountLines(dot, "failed"), 2u);
    EXPECT_EQ(CountLines(dot, "\"leaf0\" -- \"spine1\""), 2u); // two parallel links
    EXPECT_EQ(CountLines(dot, "label=\"1G\""), g.NLinks() + g.NHosts());
    EXPECT_EQ(CountLines(dot, "[shape=box"), 4u); // 2 leaves (box) + 2 spines (box3d)

    DotOptions noHosts;
    noHosts.hosts = false;
    noHosts.rateLabels = false;
    const std::string bare = ToDot(g, noHosts);
    EXPECT_EQ(CountLines(bare, " -- "), g.NLinks());
    EXPECT_EQ(CountLines(bare, "label=\"1G\""), 0u);
}

TEST(GraphDot, DragonflyGroupsAreClusters)
{
    GraphResult r = BuildPreset("laps-df");
    ASSERT_TRUE(r.Ok());
    const std::string dot = ToDot(r.graph);
    EXPECT_EQ(CountLines(dot, "subgraph cluster_"), 9u);
    EXPECT_EQ(CountLines(dot, "penwidth=1.5"), 36u); // global links
    EXPECT_EQ(CountLines(dot, " -- "), r.graph.NLinks() + r.graph.NHosts());
}
