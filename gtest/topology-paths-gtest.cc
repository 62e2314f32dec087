// GoogleTest: minimal routing, Valiant / LAPS waypoint paths and the Spritz tables and
// path enumeration on the ns-3-free switch graphs (issue 11; spritz spec 1.3, 2.2-2.7, 6.2-6.3;
// laps spec 1.2, 1.5, 4.1).
#include "topology-gtest-util.h"

#include "ns3/dcn-graph-routing.h"
#include "ns3/dcn-spritz-tables.h"
#include "ns3/dcn-topo-builders.h"

#include <gtest/gtest.h>
#include <map>
#include <set>

using namespace dcn;

namespace
{
using dcntest::Preset;

bool
Simple(const std::vector<uint32_t>& s)
{
    std::set<uint32_t> u(s.begin(), s.end());
    return u.size() == s.size();
}

/** The path is a connected walk along its links from s to d. */
void
ExpectWellFormed(const SwitchGraph& g, const GraphPath& p, uint32_t s, uint32_t d)
{
    ASSERT_FALSE(p.Empty());
    EXPECT_EQ(p.switches.front(), s);
    EXPECT_EQ(p.switches.back(), d);
    ASSERT_EQ(p.links.size() + 1, p.switches.size());
    for (size_t i = 0; i < p.links.size(); ++i)
    {
        const auto& l = g.links[p.links[i]];
        EXPECT_TRUE((l.a == p.switches[i] && l.b == p.switches[i + 1]) ||
                    (l.b == p.switches[i] && l.a == p.switches[i + 1]));
    }
    EXPECT_TRUE(Simple(p.switches));
}

} // namespace

TEST(MinimalRouting, DragonflyGatewayRules)
{
    SwitchGraph g = Preset("spritz-df");
    MinimalRouting mr(g);
    const uint32_t a = 8;
    const uint32_t h = 4;
    for (uint32_t g1 = 0; g1 < 33; ++g1)
    {
        for (uint32_t g2 = 0; g2 < 33; ++g2)
        {
            if (g1 < g2)
            {
                EXPECT_EQ(mr.Gateway(g1, g2), g1 * a + (g2 - 1) / h);
                EXPECT_EQ(mr.Gateway(g2, g1), g2 * a + g1 / h);
            }
            EXPECT_EQ(mr.GlobalLinks(g1, g2).size(), g1 == g2 ? 0u : 1u);
        }
    }
    uint32_t maxDist = 0;
    for (uint32_t x = 0; x < g.NSwitches(); ++x)
    {
        for (uint32_t d = 0; d < g.NSwitches(); ++d)
        {
            const uint32_t gx = x / a;
            const uint32_t gd = d / a;
            std::vector<uint32_t> route = mr.DefaultRoute(x, d);
            std::vector<GraphPath> mins = mr.MinimalPaths(x, d);
            ASSERT_EQ(mins.size(), 1u); // one global link per group pair
            EXPECT_EQ(mins[0].switches, route);
            EXPECT_EQ(mins[0].Hops(), mr.Dist(x, d));
            maxDist = std::max(maxDist, mr.Dist(x, d));
            if (x == d)
            {
                continue;
            }
            // spec 1.1: same group -> d; not the gateway -> gw(Gx,Gd); else -> gw(Gd,Gx).
            const uint32_t next = route[1];
            if (gx == gd)
            {
                EXPECT_EQ(next, d);
            }
            else if (x != mr.Gateway(gx, gd))
            {
                EXPECT_EQ(next, mr.Gateway(gx, gd));
            }
            else
            {
                EXPECT_EQ(next, mr.Gateway(gd, gx));
            }
            EXPECT_EQ(mins[0].global, gx == gd ? 0u : 1u);
            EXPECT_TRUE(mins[0].minimal);
        }
    }
    EXPECT_EQ(maxDist, 3u);
}

TEST(MinimalRouting, SlimFlyTiesAndDistances)
{
    // spritz spec 6.2 case 8: 2106 adjacent ordered pairs; of the 23,976 at distance 2,
    // 648 have two minimal paths.
    SwitchGraph g = Preset("spritz-sf");
    MinimalRouting mr(g);
    uint32_t adjacent = 0;
    uint32_t dist2 = 0;
    uint32_t twoPaths = 0;
    std::vector<uint32_t> nh;
    for (uint32_t x = 0; x < g.NSwitches(); ++x)
    {
        for (uint32_t d = 0; d < g.NSwitches(); ++d)
        {
            if (x == d)
            {
                continue;
            }
            const uint32_t dist = mr.Dist(x, d);
            std::vector<GraphPath> mins = mr.MinimalPaths(x, d);
            ASSERT_GE(mins.size(), 1u);
            for (const auto& p : mins)
            {
                ExpectWellFormed(g, p, x, d);
                EXPECT_EQ(p.Hops(), dist);
                EXPECT_TRUE(p.minimal);
            }
            // The default route takes the lowest-id minimal next hop.
            mr.NextHops(x, d, &nh);
            ASSERT_FALSE(nh.empty());
            EXPECT_EQ(mr.DefaultPort(x, d), nh.front());
            adjacent += dist == 1;
            dist2 += dist == 2;
            twoPaths += dist == 2 && mins.size() == 2;
            EXPECT_LE(mins.size(), 2u);
        }
    }
    EXPECT_EQ(adjacent, 2106u);
    EXPECT_EQ(dist2, 23976u);
    EXPECT_EQ(twoPaths, 648u);
}

TEST(MinimalRouting, LeafSpineParallelLinksAreDistinctNextHops)
{
    SwitchGraph g = Preset("hermes-testbed");
    MinimalRouting mr(g);
    EXPECT_EQ(mr.MinimalPaths(0, 1).size(), 8u); // 2 spines x 2 up x 2 down
    std::vector<uint32_t> nh;
    mr.NextHops(0, 1, &nh);
    EXPECT_EQ(nh.size(), 4u);
    EXPECT_EQ(mr.Dist(0, 1), 2u);

    LeafSpineParams p;
    p.leaves = 2;
    p.spines = 2;
    p.hostsPerLeaf = 6;
    p.linksPerPair = 2;
    p.hostRateBps = 1e9;
    p.cutLinks = {"leaf0-spine1/0"};
    GraphResult cut = BuildLeafSpine(p);
    ASSERT_TRUE(cut.Ok());
    MinimalRouting mc(cut.graph);
    EXPECT_EQ(mc.MinimalPaths(0, 1).size(), 6u);
}

TEST(Valiant, PathsThroughEveryIntermediate)
{
    for (const char* name : {"df-small", "sf-small", "laps-rail", "hermes-sim"})
    {
        SCOPED_TRACE(name);
        SwitchGraph g = Preset(name);
        MinimalRouting mr(g);
        const uint32_t diam = Analyze(g).diameter;
        for (uint32_t s = 0; s < g.NSwitches(); s += 3)
        {
            for (uint32_t d = 0; d < g.NSwitches(); d += 5)
            {
                if (s == d)
                {
                    continue;
                }
                for (uint32_t via : mr.ValiantIntermediates(s, d))
                {
                    GraphPath p = mr.ValiantPath(s, via, d);
                    if (p.Empty())
                    {
                        continue; // the concatenation revisits a switch
                    }
                    ExpectWellFormed(g, p, s, d);
                    EXPECT_LE(p.Hops(), 2 * diam); // Valiant <= twice the diameter
                    if (g.fam.family == "dragonfly" && g.switches[s].group != g.switches[d].group)
                    {
                        EXPECT_EQ(p.global, 2u);
                        EXPECT_LE(p.local, 3u);
                        EXPECT_FALSE(p.minimal);
                        EXPECT_EQ(p.via, via);
                        bool visits = false;
                        for (uint32_t x : p.switches)
                        {
                            visits = visits || g.switches[x].group == via;
                        }
                        EXPECT_TRUE(visits);
                    }
                    else if (!p.minimal)
                    {
                        EXPECT_NE(std::find(p.switches.begin(), p.switches.end(), via),
                                  p.switches.end());
                    }
                }
            }
        }
    }
}

TEST(LapsPaths, DragonflyTableSizes)
{
    // laps spec 1.5 / 7.1: per host 143 PST entries (3 x 1 path, 12 x 3, 128 x 8), 1063 PIT.
    SwitchGraph g = Preset("laps-df");
    MinimalRouting mr(g);
    for (uint32_t s = 0; s < g.NSwitches(); ++s)
    {
        uint32_t pst = 0;
        uint32_t pit = 0;
        std::map<uint32_t, uint32_t> pathsPerDst;
        for (uint32_t d = 0; d < g.NSwitches(); ++d)
        {
            std::vector<GraphPath> ps = mr.LapsPaths(s, d);
            const uint32_t hosts = g.switches[d].nHosts - (d == s ? 1 : 0);
            pst += hosts;
            pit += hosts * static_cast<uint32_t>(ps.size());
            pathsPerDst[static_cast<uint32_t>(ps.size())] += hosts;
            std::set<uint32_t> vias;
            uint32_t nMin = 0;
            for (const auto& p : ps)
            {
                ExpectWellFormed(g, p, s, d);
                nMin += p.minimal;
                if (!p.minimal)
                {
                    vias.insert(p.via);
                    if (g.switches[s].group != g.switches[d].group)
                    {
                        EXPECT_EQ(p.global, 2u);
                    }
                }
            }
            EXPECT_EQ(nMin, 1u);
            EXPECT_EQ(vias.size(), ps.size() - 1); // one anchor each, all distinct
        }
        EXPECT_EQ(pst, 143u);
        EXPECT_EQ(pit, 1063u);
        EXPECT_EQ(pathsPerDst[1], 3u);
        EXPECT_EQ(pathsPerDst[3], 12u);
        EXPECT_EQ(pathsPerDst[8], 128u);
    }
}

TEST(LapsPaths, RailTableSizesAndLengths)
{
    // laps spec 1.5 / 4.1: 63 PST and 455 PIT entries per GPU; path lengths 4, 6, 8 links.
    SwitchGraph g = Preset("laps-rail");
    MinimalRouting mr(g);
    for (uint32_t s = 0; s < 64; ++s)
    {
        uint32_t pst = 0;
        uint32_t pit = 0;
        for (uint32_t d = 0; d < 64; ++d)
        {
            if (d == s)
            {
                continue;
            }
            std::vector<GraphPath> ps = mr.LapsPaths(s, d);
            pst++;
            pit += static_cast<uint32_t>(ps.size());
            const bool sameCluster = g.switches[s].group == g.switches[d].group;
            const uint32_t rs = s % 8;
            const uint32_t rd = d % 8;
            ASSERT_EQ(ps.size(), sameCluster ? 1u : 8u);
            std::set<uint32_t> rails;
            for (const auto& p : ps)
            {
                ExpectWellFormed(g, p, s, d);
                const uint32_t links = p.Hops() + 2; // + the two GPU links
                if (sameCluster)
                {
                    EXPECT_EQ(links, 4u);
                    continue;
                }
                const uint32_t rail = p.via - 72; // rail switches are 72..79
                rails.insert(rail);
                EXPECT_EQ(links,
                          rail == rs && rail == rd     ? 4u
                          : (rail == rs || rail == rd) ? 6u
                                                       : 8u);
            }
            EXPECT_EQ(rails.size(), sameCluster ? 0u : 8u);
        }
        EXPECT_EQ(pst, 63u);
        EXPECT_EQ(pit, 455u);
    }
}

TEST(Valiant, IndexedIntermediateMatchesList)
{
    for (const char* name : {"df-small", "sf-small", "laps-rail", "hermes-testbed"})
    {
        SCOPED_TRACE(name);
        SwitchGraph g = Preset(name);
        MinimalRouting mr(g);
        for (uint32_t s = 0; s < g.NSwitches(); ++s)
        {
            for (uint32_t d = 0; d < g.NSwitches(); d += 3)
            {
                if (s == d)
                {
                    continue;
                }
                const std::vector<uint32_t> v = mr.ValiantIntermediates(s, d);
                ASSERT_EQ(mr.ValiantCount(s, d), v.size());
                for (uint32_t k = 0; k < v.size(); ++k)
                {
                    EXPECT_EQ(mr.ValiantIntermediate(s, d, k), v[k]);
                }
            }
        }
    }
}

TEST(BoundedPaths, SimpleWithinBoundAndContainMinimal)
{
    for (const char* name : {"df-small", "sf-small", "laps-rail", "hermes-sim"})
    {
        SCOPED_TRACE(name);
        SwitchGraph g = Preset(name);
        MinimalRouting mr(g);
        const PathBound bound = SpritzBound(g, Analyze(g).diameter);
        for (uint32_t s = 0; s < g.NSwitches(); s += 7)
        {
            for (uint32_t d = 0; d < g.NSwitches(); d += 5)
            {
                if (s == d)
                {
                    continue;
                }
                std::vector<GraphPath> all = mr.BoundedSimplePaths(s, d, bound);
                std::set<std::vector<uint32_t>> seen;
                uint32_t nMin = 0;
                for (const auto& p : all)
                {
                    ExpectWellFormed(g, p, s, d);
                    EXPECT_TRUE(bound.Admits(p));
                    EXPECT_TRUE(seen.insert(p.links).second); // no duplicates
                    nMin += p.minimal;
                }
                std::vector<GraphPath> mins = mr.MinimalPaths(s, d);
                EXPECT_EQ(nMin, mins.size());
                for (const auto& m : mins)
                {
                    EXPECT_EQ(seen.count(m.links), 1u);
                }
            }
        }
    }
    // Exhaustive small case: 2 leaves x 2 spines, 2 parallel links per pair.  leaf0 -> leaf1
    // within 4 hops: only the 2 x 2 x 2 two-hop paths (a longer one would revisit a leaf).
    SwitchGraph t = Preset("hermes-testbed");
    MinimalRouting mt(t);
    PathBound b4;
    b4.maxHops = 4;
    EXPECT_EQ(mt.BoundedSimplePaths(0, 1, b4).size(), 8u);
    // spine0 -> spine1: via leaf0 or leaf1, 2 x 2 links each = 8 paths.
    EXPECT_EQ(mt.BoundedSimplePaths(2, 3, b4).size(), 8u);
}
