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

// Review s41 F18: override values are read as strictly as the typed options.
TEST(TopologyPresetOverrides, StrictNumbers)
{
    for (const char* v : {"5e0", "+5", " 5", "5 ", "5.0", "0x5", "", "5,", "inf"})
    {
        ExpectOneLine(BuildPreset("df-small", {{"g", v}}), "digits");
    }
    ASSERT_TRUE(BuildPreset("df-small", {{"g", "5"}}).Ok());
    // rates: whole bit/s, with or without an exponent
    ExpectOneLine(BuildPreset("df-small", {{"rate", "1.5"}}), "whole bit/s");
    ExpectOneLine(BuildPreset("df-small", {{"rate", "nan"}}), "rate=nan");
    ExpectOneLine(BuildPreset("df-small", {{"rate", "-4e11"}}), "rate=-4e11");
    GraphResult r = BuildPreset("df-small", {{"rate", "1e11"}});
    ASSERT_TRUE(r.Ok()) << r.error;
    EXPECT_EQ(r.graph.links[0].rateBps, 1e11);
    // delays: ns in whole ps (ns-3 links are built in ps)
    ExpectOneLine(BuildPreset("df-small", {{"hostDelay", "0.0004"}}), "whole number of ps");
    GraphResult d = BuildPreset("df-small", {{"hostDelay", "25.5"}, {"localDelay", "2.5e1"}});
    ASSERT_TRUE(d.Ok()) << d.error;
    EXPECT_EQ(d.graph.switches[0].hostDelayNs, 25.5);
}

// Review s41 F11: uplinkRate and oversubscription set the same rate.
TEST(TopologyPresetOverrides, UplinkRateAndOversubscription)
{
    auto uplinkBps = [](const GraphResult& r) {
        for (const auto& l : r.graph.links)
        {
            if (l.kind == LinkKind::LEAF_SPINE)
            {
                return l.rateBps;
            }
        }
        return 0.0;
    };
    // hermes-sim: 16 x 10G hosts over 8 uplinks per leaf at 2:1 -> 10 Gb/s uplinks
    GraphResult base = BuildPreset("hermes-sim", {});
    ASSERT_TRUE(base.Ok()) << base.error;
    EXPECT_EQ(uplinkBps(base), 10e9);
    // one of them replaces the preset's 2:1
    GraphResult over = BuildPreset("hermes-sim", {{"oversubscription", "4"}});
    ASSERT_TRUE(over.Ok()) << over.error;
    EXPECT_EQ(uplinkBps(over), 5e9);
    GraphResult rate = BuildPreset("hermes-sim", {{"uplinkRate", "40000000000"}});
    ASSERT_TRUE(rate.Ok()) << rate.error;
    EXPECT_EQ(uplinkBps(rate), 40e9);
    // both: kept when they agree, refused when they do not (was: one silently dropped)
    GraphResult agree =
        BuildPreset("hermes-sim", {{"oversubscription", "4"}, {"uplinkRate", "5e9"}});
    ASSERT_TRUE(agree.Ok()) << agree.error;
    EXPECT_EQ(uplinkBps(agree), 5e9);
    ExpectOneLine(BuildPreset("hermes-sim", {{"oversubscription", "4"}, {"uplinkRate", "1e10"}}),
                  "contradicts");
}
