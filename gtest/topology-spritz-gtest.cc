// GoogleTest: Spritz ECMP tables, switch roles and the endpoint path enumeration (spritz spec
// 1.3, 2.2-2.7, 6.2-6.3) on the ns-3-free switch graphs (issue 11).
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

using TypeCounts = std::map<std::pair<int, int>, uint64_t>;

/** Enumerate every ordered pair, check bounds and replay; return the (L,G) type counts. */
TypeCounts
EnumerateAll(const SpritzTables& t, uint32_t* minCount, uint32_t* maxCount, uint32_t replayEvery)
{
    const SwitchGraph& g = t.Routing().Graph();
    const PathBound bound = SpritzBound(g, 0);
    TypeCounts types;
    *minCount = ~0u;
    *maxCount = 0;
    for (uint32_t s = 0; s < g.NSwitches(); ++s)
    {
        SpritzSourceTable tab(t, s);
        EXPECT_EQ(tab.Count(s), 0u);
        for (uint32_t d = 0; d < g.NSwitches(); ++d)
        {
            if (d == s)
            {
                continue;
            }
            const uint32_t n = tab.Count(d);
            *minCount = std::min(*minCount, n);
            *maxCount = std::max(*maxCount, n);
            const SpritzEntry* e = tab.Begin(d);
            for (uint32_t i = 0; i < n; ++i)
            {
                types[{e[i].local, e[i].global}]++;
                if (i > 0)
                {
                    EXPECT_LE(e[i - 1].latencyPs, e[i].latencyPs); // sorted, index 0 shortest
                }
                if ((s * 31 + d + i) % replayEvery == 0)
                {
                    // The switches' forwarding, fed the entry's EV, takes exactly this path.
                    GraphPath p = t.Replay(s, d, e[i].Ev());
                    ExpectWellFormed(g, p, s, d);
                    EXPECT_TRUE(bound.Admits(p));
                    EXPECT_EQ(p.local, e[i].local);
                    EXPECT_EQ(p.global, e[i].global);
                    EXPECT_EQ(p.minimal, e[i].minimal == 1);
                    EXPECT_NEAR(p.latencyNs, e[i].LatencyNs(), 1e-6);
                }
            }
        }
    }
    return types;
}
} // namespace

TEST(SpritzTables, TablesOrderedByNeighbour)
{
    SwitchGraph g = Preset("spritz-df");
    MinimalRouting mr(g);
    SpritzTables t(mr);
    ASSERT_EQ(t.Error(), "");
    for (uint32_t s = 0; s < g.NSwitches(); ++s)
    {
        EXPECT_EQ(t.T1Inter(s).size(), 11u);
        EXPECT_EQ(t.T1Intra(s).size(), 7u);
        EXPECT_EQ(t.T2(s).size(), 4u);
        for (const auto* tab : {&t.T1Inter(s), &t.T1Intra(s), &t.T2(s)})
        {
            for (size_t i = 1; i < tab->size(); ++i)
            {
                EXPECT_LT(g.Ports(s)[(*tab)[i - 1]].nbr, g.Ports(s)[(*tab)[i]].nbr);
            }
        }
        for (uint32_t pi : t.T2(s))
        {
            EXPECT_EQ(g.links[g.Ports(s)[pi].link].kind, LinkKind::GLOBAL);
        }
        for (uint32_t pi : t.T1Intra(s))
        {
            EXPECT_EQ(g.links[g.Ports(s)[pi].link].kind, LinkKind::LOCAL);
        }
    }
    SwitchGraph sf = Preset("spritz-sf");
    MinimalRouting msf(sf);
    SpritzTables tsf(msf);
    for (uint32_t s = 0; s < sf.NSwitches(); ++s)
    {
        EXPECT_EQ(tsf.T1Inter(s).size(), 13u);
        EXPECT_EQ(tsf.T2(s).size(), 13u);
    }
    SwitchGraph ls = Preset("hermes-sim");
    MinimalRouting mls(ls);
    SpritzTables tls(mls);
    EXPECT_NE(tls.Error().find("leaf-spine"), std::string::npos);
}

TEST(SpritzTables, EcmpModuloAndRoles)
{
    // spritz spec 6.3 cases 10-12.
    SwitchGraph g = Preset("spritz-df");
    MinimalRouting mr(g);
    SpritzTables t(mr);
    const uint32_t src = 0;
    const uint32_t dst = 100; // group 12
    EXPECT_EQ(t.Role(src, src, dst, 0), SpritzRole::ECMP1);
    EXPECT_EQ(t.Forward(src, src, dst, 0, 13 << 8), t.T1Inter(src)[2]); // 13 mod 11
    const uint32_t n1 = 3;                                              // same group
    EXPECT_EQ(t.Role(n1, src, dst, 1), SpritzRole::ECMP2);
    for (uint32_t j = 0; j < 12; ++j)
    {
        EXPECT_EQ(t.Forward(n1, src, dst, 1, static_cast<uint16_t>(j)), t.T2(n1)[j % 4]);
    }
    // A switch in a foreign group at hop 1 and any switch at hop >= 2 ignore the EV.
    const uint32_t foreign = 40;
    EXPECT_EQ(t.Role(foreign, src, dst, 1), SpritzRole::DEFAULT);
    std::set<uint32_t> ports;
    for (uint32_t ev = 0; ev < 65536; ++ev)
    {
        ports.insert(t.Forward(foreign, src, dst, 1, static_cast<uint16_t>(ev)));
        ports.insert(t.Forward(n1, src, dst, 2, static_cast<uint16_t>(ev)));
    }
    EXPECT_EQ(ports, (std::set<uint32_t>{mr.DefaultPort(foreign, dst), mr.DefaultPort(n1, dst)}));
    EXPECT_EQ(t.Forward(dst, src, dst, 3, 0), NONE); // deliver
    // Intra-group: the second switch uses the default table, EV2 changes nothing.
    for (uint32_t ev1 = 0; ev1 < 7; ++ev1)
    {
        GraphPath ref = t.Replay(0, 5, static_cast<uint16_t>(ev1 << 8));
        for (uint32_t ev2 = 1; ev2 < 256; ev2 += 17)
        {
            EXPECT_EQ(t.Replay(0, 5, static_cast<uint16_t>(ev1 << 8 | ev2)).switches, ref.switches);
        }
    }
    SwitchGraph sf = Preset("spritz-sf");
    MinimalRouting msf(sf);
    SpritzTables tsf(msf);
    EXPECT_EQ(tsf.Forward(0, 0, 100, 0, 200 << 8), tsf.T1Inter(0)[5]); // 200 mod 13
    EXPECT_EQ(tsf.Role(7, 0, 100, 1), SpritzRole::ECMP2);
    EXPECT_EQ(tsf.Role(7, 0, 100, 2), SpritzRole::DEFAULT);
}

TEST(SpritzPaths, DragonflyEvaluatedSizeMatchesSpec)
{
    // spritz spec 1.3 / 6.2 case 5: DF(8,4,4), all 69,432 ordered switch pairs.
    SwitchGraph g = Preset("spritz-df");
    MinimalRouting mr(g);
    SpritzTables t(mr);
    uint32_t lo = 0;
    uint32_t hi = 0;
    TypeCounts types = EnumerateAll(t, &lo, &hi, 23);
    EXPECT_EQ(lo, 7u);  // intra-group: a-1
    EXPECT_EQ(hi, 32u); // inter-group: a*h = g-1
    const TypeCounts want = {{{1, 0}, 1848},
                             {{2, 0}, 11088},
                             {{0, 1}, 1056},
                             {{1, 1}, 14784},
                             {{2, 1}, 51744},
                             {{0, 2}, 3168},
                             {{1, 2}, 73920},
                             {{2, 2}, 569184},
                             {{3, 2}, 1448832}};
    EXPECT_EQ(types, want);
    // Per pair: inter 1 minimal + 31 through 31 distinct groups; intra 1 one-hop + 6 two-hop.
    for (uint32_t s : {0u, 77u, 263u})
    {
        SpritzSourceTable tab(t, s);
        for (uint32_t d = 0; d < g.NSwitches(); ++d)
        {
            if (d == s)
            {
                continue;
            }
            std::set<uint32_t> vias;
            uint32_t nMin = 0;
            uint32_t oneHop = 0;
            for (uint32_t i = 0; i < tab.Count(d); ++i)
            {
                const SpritzEntry& e = tab.Begin(d)[i];
                nMin += e.minimal;
                oneHop += e.hops == 1;
                if (!e.minimal)
                {
                    vias.insert(e.via);
                }
            }
            if (s / 8 == d / 8)
            {
                EXPECT_EQ(tab.Count(d), 7u);
                EXPECT_EQ(oneHop, 1u);
                EXPECT_EQ(nMin, 1u);
            }
            else
            {
                EXPECT_EQ(tab.Count(d), 32u);
                EXPECT_EQ(nMin, 1u);
                EXPECT_EQ(tab.Begin(d)[0].minimal, 1u); // index 0 is the shortest = minimal
                EXPECT_EQ(vias.size(), 31u);
                EXPECT_EQ(vias.count(s / 8) + vias.count(d / 8), 0u);
            }
        }
        // Memory of one source switch's table stays small (12 B per entry).
        EXPECT_EQ(sizeof(SpritzEntry), 12u);
        EXPECT_LT(tab.MemoryBytes(), 128u * 1024);
    }
}

TEST(SpritzPaths, DragonflySmallWorkedExample)
{
    // spritz spec 6.2 cases 6 and 7: DF(4,2,2).
    SwitchGraph g = Preset("df-small");
    MinimalRouting mr(g);
    SpritzTables t(mr);
    std::vector<uint32_t> nbrs;
    for (uint32_t pi : t.T1Inter(0))
    {
        nbrs.push_back(g.Ports(0)[pi].nbr);
    }
    EXPECT_EQ(nbrs, (std::vector<uint32_t>{1, 2, 3, 4, 8}));
    std::vector<SpritzEntry> es = t.Enumerate(0, 12);
    ASSERT_EQ(es.size(), 8u);
    std::vector<double> w = SpritzTables::Weights(es);
    std::map<std::pair<int, int>, size_t> byEv;
    for (size_t i = 0; i < es.size(); ++i)
    {
        byEv[{es[i].e1, es[i].e2}] = i;
    }

    struct Want
    {
        int e1, e2;
        std::vector<uint32_t> path;
        int L, G;
        double lat, w;
    };

    for (const Want& x : {Want{0, 0, {0, 1, 12}, 1, 1, 691.4, 6.469},
                          Want{3, 0, {0, 4, 5, 12}, 1, 2, 1274.6, 3.509},
                          Want{4, 0, {0, 8, 9, 13, 12}, 2, 2, 1382.8, 3.235},
                          Want{0, 1, {0, 1, 16, 17, 13, 12}, 3, 2, 1491.0, 1.0}})
    {
        SCOPED_TRACE(std::to_string(x.e1) + "," + std::to_string(x.e2));
        ASSERT_EQ(byEv.count({x.e1, x.e2}), 1u);
        const size_t i = byEv[{x.e1, x.e2}];
        EXPECT_EQ(t.Replay(0, 12, es[i].Ev()).switches, x.path);
        EXPECT_EQ(es[i].local, x.L);
        EXPECT_EQ(es[i].global, x.G);
        EXPECT_NEAR(es[i].LatencyNs(), x.lat, 1e-9);
        EXPECT_NEAR(w[i], x.w, 5e-4);
    }
    for (auto ev : {std::pair<int, int>{1, 0}, {1, 1}, {2, 0}, {2, 1}})
    {
        const size_t i = byEv.at(ev);
        EXPECT_EQ(es[i].local, 3);
        EXPECT_DOUBLE_EQ(w[i], 1.0);
    }
    EXPECT_EQ(es[0].Ev(), 0u); // index 0 = the shortest

    std::vector<SpritzEntry> e135 = t.Enumerate(1, 35);
    EXPECT_EQ(t.Replay(1, 35, e135[0].Ev()).switches, (std::vector<uint32_t>{1, 3, 32, 35}));
    EXPECT_EQ(e135[0].local, 2);
    EXPECT_EQ(e135[0].global, 1);
    EXPECT_NEAR(e135[0].LatencyNs(), 799.6, 1e-9);
    EXPECT_NEAR(SpritzTables::Weights(e135, 1.0)[0], 1491.0 / 799.6, 1e-9); // 1.865

    std::vector<SpritzEntry> e02 = t.Enumerate(0, 2);
    ASSERT_EQ(e02.size(), 3u);
    EXPECT_EQ(e02[0].hops, 1);
    EXPECT_DOUBLE_EQ(SpritzTables::Weights(e02, 1.0)[0], 2.0);
    EXPECT_DOUBLE_EQ(SpritzTables::Weights(e02)[0], 6.0);
}

TEST(SpritzPaths, SlimFlyMatchesSpec)
{
    // spritz spec 1.3 / 6.2 case 8: SF(9) 132-148 entries per pair, <= 4 hops, 14 types.
    SwitchGraph g = Preset("spritz-sf");
    MinimalRouting mr(g);
    SpritzTables t(mr);
    uint32_t lo = 0;
    uint32_t hi = 0;
    TypeCounts types = EnumerateAll(t, &lo, &hi, 29);
    EXPECT_GE(lo, 132u);
    EXPECT_LE(hi, 148u);
    EXPECT_EQ(lo, 132u);
    EXPECT_EQ(hi, 148u);
    std::set<std::pair<int, int>> got;
    for (const auto& [k, n] : types)
    {
        got.insert(k);
    }
    const std::set<std::pair<int, int>> tableI = {{1, 0},
                                                  {2, 0},
                                                  {0, 1},
                                                  {1, 1},
                                                  {0, 2},
                                                  {3, 0},
                                                  {4, 0},
                                                  {2, 1},
                                                  {3, 1},
                                                  {1, 2},
                                                  {2, 2},
                                                  {0, 3},
                                                  {1, 3},
                                                  {0, 4}};
    EXPECT_EQ(got, tableI);
    SpritzSourceTable tab(t, 0);
    EXPECT_LT(tab.MemoryBytes(), 320u * 1024);
}

TEST(SpritzPaths, SlimFlyQ5HasExactly37)
{
    SwitchGraph g = Preset("sf-small");
    MinimalRouting mr(g);
    SpritzTables t(mr);
    uint32_t lo = 0;
    uint32_t hi = 0;
    EnumerateAll(t, &lo, &hi, 1);
    EXPECT_EQ(lo, 37u);
    EXPECT_EQ(hi, 37u);
}

TEST(SpritzPaths, DragonflyTypesMatchTableI)
{
    SwitchGraph g = Preset("df-small");
    MinimalRouting mr(g);
    SpritzTables t(mr);
    uint32_t lo = 0;
    uint32_t hi = 0;
    TypeCounts types = EnumerateAll(t, &lo, &hi, 1);
    EXPECT_EQ(lo, 3u);
    EXPECT_EQ(hi, 8u);
    std::set<std::pair<int, int>> got;
    for (const auto& [k, n] : types)
    {
        got.insert(k);
    }
    const std::set<std::pair<int, int>> tableI =
        {{1, 0}, {2, 0}, {0, 1}, {1, 1}, {2, 1}, {0, 2}, {1, 2}, {2, 2}, {3, 2}};
    EXPECT_EQ(got, tableI);
}

TEST(SpritzPaths, EntriesAreBoundedSimplePaths)
{
    // Every Spritz entry is one of the bounded simple paths of the graph (spec 1.3).
    for (const char* name : {"df-small", "sf-small"})
    {
        SCOPED_TRACE(name);
        SwitchGraph g = Preset(name);
        MinimalRouting mr(g);
        SpritzTables t(mr);
        const PathBound bound = SpritzBound(g, 0);
        for (uint32_t s = 0; s < g.NSwitches(); s += 5)
        {
            for (uint32_t d = 0; d < g.NSwitches(); d += 3)
            {
                if (s == d)
                {
                    continue;
                }
                std::set<std::vector<uint32_t>> all;
                for (const auto& p : mr.BoundedSimplePaths(s, d, bound))
                {
                    all.insert(p.links);
                }
                std::vector<SpritzEntry> es = t.Enumerate(s, d);
                EXPECT_LE(es.size(), all.size());
                for (const auto& e : es)
                {
                    EXPECT_EQ(all.count(t.Replay(s, d, e.Ev()).links), 1u);
                }
            }
        }
    }
}
