// GoogleTest: preset overrides of the graph registry (dcn::BuildPreset(name, overrides)).
#include "ns3/dcn-switch-graph.h"
#include "ns3/dcn-topo-builders.h"

#include <gtest/gtest.h>

using namespace dcn;

namespace
{

void
ExpectOneLine(const GraphResult& r, const std::string& needle)
{
    ASSERT_FALSE(r.Ok());
    EXPECT_EQ(r.error.find('\n'), std::string::npos) << r.error;
    EXPECT_NE(r.error.find(needle), std::string::npos) << r.error;
}

} // namespace

TEST(TopologyPresetOverrides, NoOverridesEqualsPlainPreset)
{
    for (const auto& p : ListPresets())
    {
        if (p.name == "spritz-df" || p.name == "spritz-sf")
        {
            continue; // same code path, only slower
        }
        GraphResult a = BuildPreset(p.name);
        GraphResult b = BuildPreset(p.name, {});
        ASSERT_TRUE(a.Ok() && b.Ok()) << p.name;
        EXPECT_EQ(a.graph.NSwitches(), b.graph.NSwitches());
        EXPECT_EQ(a.graph.NLinks(), b.graph.NLinks());
        EXPECT_EQ(a.graph.NHosts(), b.graph.NHosts());
    }
}

TEST(TopologyPresetOverrides, SizesChange)
{
    GraphResult df = BuildPreset("df-small", {{"p", "3"}, {"g", "5"}});
    ASSERT_TRUE(df.Ok()) << df.error;
    EXPECT_EQ(df.graph.NSwitches(), 5u * 4u); // a = 4 kept
    EXPECT_EQ(df.graph.NHosts(), 5u * 4u * 3u);
    GraphResult sf = BuildPreset("sf-small", {{"q", "7"}, {"p", "2"}});
    ASSERT_TRUE(sf.Ok()) << sf.error;
    EXPECT_EQ(sf.graph.NSwitches(), 2u * 7u * 7u);
    EXPECT_EQ(sf.graph.NHosts(), 2u * 7u * 7u * 2u);
    GraphResult rail = BuildPreset("laps-rail", {{"clusters", "2"}, {"rails", "4"}});
    ASSERT_TRUE(rail.Ok()) << rail.error;
    EXPECT_EQ(rail.graph.NHosts(), 8u);
    GraphResult ls = BuildPreset("hermes-sim", {{"leaves", "3"}, {"spines", "2"}});
    ASSERT_TRUE(ls.Ok()) << ls.error;
    EXPECT_EQ(ls.graph.NSwitches(), 5u);
    EXPECT_EQ(ls.graph.NHosts(), 3u * 16u);
    GraphResult delay = BuildPreset("df-small", {{"globalDelay", "700"}});
    ASSERT_TRUE(delay.Ok()) << delay.error;
    for (const auto& l : delay.graph.links)
    {
        EXPECT_EQ(l.delayNs, l.kind == LinkKind::GLOBAL ? 700.0 : 25.0);
    }
}

TEST(TopologyPresetOverrides, BadInputOneLine)
{
    ExpectOneLine(BuildPreset("df-small", {{"q", "5"}}), "'q' unknown");
    ExpectOneLine(BuildPreset("df-small", {{"p", "1.5"}}), "p=1.5");
    ExpectOneLine(BuildPreset("df-small", {{"p", "-1"}}), "p=-1");
    ExpectOneLine(BuildPreset("df-small", {{"rate", "fast"}}), "rate=fast");
    ExpectOneLine(BuildPreset("sf-small", {{"q", "9"}, {"p", "x"}}), "p=x");
    ExpectOneLine(BuildPreset("sf-small", {{"q", "15"}}), "q");
    ExpectOneLine(BuildPreset("hermes-sim", {{"oversubscription", "-2"}}), "oversubscription");
    ExpectOneLine(BuildPreset("nope", {{"p", "1"}}), "unknown");
}
