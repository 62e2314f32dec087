// GoogleTest: structure of the ns-3-free switch graphs (issue 11): Dragonfly, Slim Fly
// over GF(q), Rail-optimized, leaf-spine, the preset registry and bad input.
#include "topology-gtest-util.h"

#include "ns3/dcn-galois-field.h"
#include "ns3/dcn-switch-graph.h"
#include "ns3/dcn-topo-builders.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <set>

using namespace dcn;

namespace
{
using dcntest::Preset;

void
ExpectOneLineError(const GraphResult& r, const std::string& needle)
{
    ASSERT_FALSE(r.Ok());
    EXPECT_EQ(r.error.find('\n'), std::string::npos) << r.error;
    EXPECT_NE(r.error.find(needle), std::string::npos) << r.error;
}

/** Dragonfly structure for any (p, a, h, g): counts, radix, one mesh per group, diameter. */
void
CheckDragonfly(const SwitchGraph& g, uint32_t p, uint32_t a, uint32_t h, uint32_t groups)
{
    SCOPED_TRACE(g.name + " p=" + std::to_string(p) + " a=" + std::to_string(a) +
                 " h=" + std::to_string(h) + " g=" + std::to_string(groups));
    EXPECT_EQ(g.NSwitches(), a * groups);
    EXPECT_EQ(g.NHosts(), p * a * groups);
    EXPECT_EQ(g.CountLinks(LinkKind::LOCAL), groups * a * (a - 1) / 2);
    EXPECT_EQ(g.CountLinks(LinkKind::GLOBAL), groups * a * h / 2);
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> pairLinks;
    for (uint32_t s = 0; s < g.NSwitches(); ++s)
    {
        EXPECT_EQ(g.Radix(s), p + a - 1 + h);
        uint32_t nLocal = 0;
        uint32_t nGlobal = 0;
        for (const Port& port : g.Ports(s))
        {
            const auto& l = g.links[port.link];
            if (l.kind == LinkKind::LOCAL)
            {
                ++nLocal;
                EXPECT_EQ(g.switches[port.nbr].group, g.switches[s].group);
            }
            else
            {
                ++nGlobal;
                EXPECT_NE(g.switches[port.nbr].group, g.switches[s].group);
            }
        }
        EXPECT_EQ(nLocal, a - 1);
        EXPECT_EQ(nGlobal, h);
    }
    for (const auto& l : g.links)
    {
        if (l.kind == LinkKind::GLOBAL)
        {
            pairLinks[{g.switches[l.a].group, g.switches[l.b].group}]++;
        }
    }
    EXPECT_EQ(pairLinks.size(), groups * (groups - 1) / 2); // every group pair is linked
    for (const auto& [k, n] : pairLinks)
    {
        EXPECT_EQ(n, a * h / (groups - 1));
    }
    GraphStats st = Analyze(g);
    EXPECT_TRUE(st.connected);
    if (groups == a * h + 1 && a > 1)
    {
        EXPECT_EQ(st.diameter, 3u); // balanced
    }
    else
    {
        // Parallel global links (or a = 1) can shorten it: g=3 with a*h/(g-1)=4 links per pair
        // gives every switch a global link to every group (diameter 2).
        EXPECT_LE(st.diameter, 3u);
        EXPECT_GE(st.diameter, 1u);
    }
}
} // namespace

TEST(TopoPresets, RegistryBuildsEveryPreset)
{
    std::set<std::string> names;
    for (const auto& p : ListPresets())
    {
        EXPECT_TRUE(names.insert(p.name).second) << p.name;
        EXPECT_FALSE(p.description.empty());
        EXPECT_EQ(p.description.find('\n'), std::string::npos);
        GraphResult r = BuildPreset(p.name);
        ASSERT_TRUE(r.Ok()) << p.name << ": " << r.error;
        EXPECT_EQ(r.graph.name, p.name);
        EXPECT_EQ(r.graph.Check(), "");
        EXPECT_TRUE(Analyze(r.graph).connected) << p.name;
    }
    for (const char* n :
         {"spritz-df", "spritz-sf", "laps-df", "laps-rail", "hermes-sim", "hermes-testbed"})
    {
        EXPECT_EQ(names.count(n), 1u) << n;
    }
    GraphResult bad = BuildPreset("torus");
    ExpectOneLineError(bad, "'torus'");
    EXPECT_NE(bad.error.find("spritz-df"), std::string::npos);
}

TEST(Dragonfly, SpritzPreset)
{
    SwitchGraph g = Preset("spritz-df");
    CheckDragonfly(g, 4, 8, 4, 33);
    EXPECT_EQ(g.NLinks(), 1452u);
    EXPECT_EQ(g.switches[3 * 8 + 2].name, "g3s2");
    EXPECT_DOUBLE_EQ(g.switchLatencyNs, 500);
    for (const auto& l : g.links)
    {
        EXPECT_DOUBLE_EQ(l.rateBps, 400e9);
        EXPECT_DOUBLE_EQ(l.delayNs, l.kind == LinkKind::LOCAL ? 25 : 500);
        EXPECT_EQ(l.name, g.switches[l.a].name + "-" + g.switches[l.b].name);
    }
    EXPECT_DOUBLE_EQ(g.switches[0].hostDelayNs, 25);
    // Spec 1.1: the link of G1 < G2 joins G1*a + (G2-1)/h and G2*a + G1/h.
    for (uint32_t g1 = 0; g1 < 33; ++g1)
    {
        for (uint32_t g2 = g1 + 1; g2 < 33; ++g2)
        {
            const std::string nm = "g" + std::to_string(g1) + "s" + std::to_string((g2 - 1) / 4) +
                                   "-g" + std::to_string(g2) + "s" + std::to_string(g1 / 4);
            const uint32_t id = g.FindLink(nm);
            ASSERT_NE(id, NONE) << nm;
            EXPECT_EQ(g.links[id].kind, LinkKind::GLOBAL);
        }
    }
}

TEST(Dragonfly, SmallSpecCase)
{
    // spritz spec 6.1 case 1: DF(a=4, h=2, p=2).
    SwitchGraph g = Preset("df-small");
    CheckDragonfly(g, 2, 4, 2, 9);
    EXPECT_EQ(g.CountLinks(LinkKind::LOCAL), 54u);
    EXPECT_EQ(g.CountLinks(LinkKind::GLOBAL), 36u);
    std::set<std::pair<uint32_t, uint32_t>> group0;
    for (const auto& l : g.links)
    {
        if (l.kind == LinkKind::GLOBAL && (l.a < 4 || l.b < 4))
        {
            group0.insert({l.a, l.b});
        }
    }
    std::set<std::pair<uint32_t, uint32_t>> want =
        {{0, 4}, {0, 8}, {1, 12}, {1, 16}, {2, 20}, {2, 24}, {3, 28}, {3, 32}};
    EXPECT_EQ(group0, want);
    EXPECT_NE(g.FindLink("g1s0-g2s0"), NONE); // (4, 8)
    std::set<uint32_t> nbr4;
    for (const Port& p : g.Ports(4))
    {
        if (g.links[p.link].kind == LinkKind::GLOBAL)
        {
            nbr4.insert(p.nbr);
        }
    }
    EXPECT_EQ(nbr4, (std::set<uint32_t>{0, 8}));
}

TEST(Dragonfly, LapsWiring)
{
    SwitchGraph g = Preset("laps-df");
    CheckDragonfly(g, 4, 4, 2, 9);
    EXPECT_EQ(g.NHosts(), 144u);
    EXPECT_EQ(g.CountLinks(LinkKind::GLOBAL), 36u);
    // laps spec 4.1: port k of group i sits on switch 4i + k/2 and leads to (i+1+k) mod 9.
    std::multiset<std::pair<uint32_t, uint32_t>> want;
    for (uint32_t i = 0; i < 9; ++i)
    {
        for (uint32_t k = 0; k < 8; ++k)
        {
            want.insert({4 * i + k / 2, (i + 1 + k) % 9});
        }
    }
    std::multiset<std::pair<uint32_t, uint32_t>> got;
    for (const auto& l : g.links)
    {
        if (l.kind == LinkKind::GLOBAL)
        {
            got.insert({l.a, g.switches[l.b].group});
            got.insert({l.b, g.switches[l.a].group});
        }
        EXPECT_DOUBLE_EQ(l.rateBps, 100e9);
        EXPECT_DOUBLE_EQ(l.delayNs, 1000);
    }
    EXPECT_EQ(got, want);
    // The absolute arrangement of the same sizes is a different wiring.
    DragonflyParams p;
    p.p = 4;
    p.a = 4;
    p.h = 2;
    GraphResult abs = BuildDragonfly(p);
    ASSERT_TRUE(abs.Ok());
    EXPECT_NE(abs.graph.FindLink("g0s0-g1s0"), NONE);
    EXPECT_EQ(g.FindLink("g0s0-g1s0"), NONE);
    EXPECT_NE(g.FindLink("g0s0-g1s3"), NONE);
}

TEST(Dragonfly, OtherSizesAndFewerGroups)
{
    struct Case
    {
        uint32_t p, a, h, g;
    };

    for (Case c : {Case{1, 2, 1, 0},
                   Case{3, 3, 2, 0},
                   Case{2, 6, 3, 0},
                   Case{5, 5, 5, 0},
                   Case{2, 4, 2, 5},
                   Case{2, 4, 2, 3},
                   Case{1, 4, 4, 9},
                   Case{2, 6, 2, 7},
                   Case{1, 1, 3, 4}})
    {
        DragonflyParams prm;
        prm.p = c.p;
        prm.a = c.a;
        prm.h = c.h;
        prm.g = c.g;
        GraphResult r = BuildDragonfly(prm);
        ASSERT_TRUE(r.Ok()) << r.error;
        CheckDragonfly(r.graph, c.p, c.a, c.h, c.g == 0 ? c.a * c.h + 1 : c.g);
        if (c.g != 0 && c.g < c.a * c.h + 1)
        {
            // Parallel global links get "/j" names.
            bool suffixed = false;
            for (const auto& l : r.graph.links)
            {
                suffixed = suffixed || l.name.find('/') != std::string::npos;
            }
            EXPECT_TRUE(suffixed);
        }
    }
}

TEST(Dragonfly, BadInput)
{
    DragonflyParams p;
    p.p = 0;
    ExpectOneLineError(BuildDragonfly(p), "p=0");
    p = DragonflyParams{};
    p.a = 0;
    ExpectOneLineError(BuildDragonfly(p), "a=0");
    p = DragonflyParams{};
    p.h = 0;
    ExpectOneLineError(BuildDragonfly(p), "h=0");
    p = DragonflyParams{};
    p.g = 34; // > a*h+1
    ExpectOneLineError(BuildDragonfly(p), "g=34");
    p.g = 1;
    ExpectOneLineError(BuildDragonfly(p), "g=1");
    p.g = 6; // 5 does not divide 32
    ExpectOneLineError(BuildDragonfly(p), "g-1 divides a*h");
    p.g = 17; // 16 divides 32: fine
    EXPECT_TRUE(BuildDragonfly(p).Ok());
    p.arrangement = DfArrangement::LAPS;
    ExpectOneLineError(BuildDragonfly(p), "arrangement=laps");
    p = DragonflyParams{};
    p.rateBps = 0;
    ExpectOneLineError(BuildDragonfly(p), "rate");
}

TEST(GaloisField, FieldAxioms)
{
    for (uint32_t q : {3u, 5u, 7u, 9u, 11u, 13u, 25u, 49u})
    {
        SCOPED_TRACE("q=" + std::to_string(q));
        GaloisField f;
        ASSERT_EQ(GaloisField::Make(q, &f), "");
        for (uint32_t a = 0; a < q; ++a)
        {
            EXPECT_EQ(f.Add(a, 0), a);
            EXPECT_EQ(f.Mul(a, 1), a);
            EXPECT_EQ(f.Mul(a, 0), 0u);
            EXPECT_EQ(f.Add(a, f.Neg(a)), 0u);
            if (a != 0)
            {
                EXPECT_EQ(f.Mul(a, f.Inv(a)), 1u);
            }
            for (uint32_t b = 0; b < q; ++b)
            {
                EXPECT_EQ(f.Add(a, b), f.Add(b, a));
                EXPECT_EQ(f.Mul(a, b), f.Mul(b, a));
                if (a != 0 && b != 0)
                {
                    EXPECT_NE(f.Mul(a, b), 0u); // no zero divisors
                }
                for (uint32_t c = 0; c < (q <= 13 ? q : 3); ++c)
                {
                    EXPECT_EQ(f.Add(f.Add(a, b), c), f.Add(a, f.Add(b, c)));
                    EXPECT_EQ(f.Mul(f.Mul(a, b), c), f.Mul(a, f.Mul(b, c)));
                    EXPECT_EQ(f.Mul(a, f.Add(b, c)), f.Add(f.Mul(a, b), f.Mul(a, c)));
                }
            }
        }
        EXPECT_EQ(f.OrderOf(f.Primitive()), q - 1);
        EXPECT_EQ(f.Pow(f.Primitive(), q - 1), 1u);
    }
}

TEST(GaloisField, Gf9IsGf3AdjoinI)
{
    GaloisField f;
    ASSERT_EQ(GaloisField::Make(9, &f), "");
    EXPECT_EQ(f.Characteristic(), 3u);
    const uint32_t i = 3; // 0 + 1*i
    EXPECT_EQ(f.Name(i), "i");
    EXPECT_EQ(f.Mul(i, i), f.Neg(1)); // i^2 = -1
    const uint32_t xi = f.Primitive();
    EXPECT_EQ(f.Name(xi), "1+i"); // spritz spec 6.1 case 4
    EXPECT_EQ(f.OrderOf(xi), 8u);
    // Integers mod 9 are not a field: 3*3 = 0 there, but not in GF(9).
    EXPECT_NE(f.Mul(3, 3), 0u);
    std::vector<uint32_t> x;
    std::vector<uint32_t> xp;
    SlimFlyGeneratorSets(f, &x, &xp);
    const std::vector<uint32_t> wantX = {1, 2, 3, 6}; // {1, -1, i, -i} = {1, 2, i, 2i}
    EXPECT_EQ(x, wantX);
    std::vector<uint32_t> wantXp = {4, 5, 7, 8}; // {1+i, 2+i, 1+2i, 2+2i} = {+-(1+i), +-(1-i)}
    EXPECT_EQ(xp, wantXp);
}

TEST(GaloisField, UnsupportedQ)
{
    for (uint32_t q : {0u, 1u, 2u, 4u, 8u, 15u, 16u, 27u, 129u, 169u})
    {
        GaloisField f;
        std::string e = GaloisField::Make(q, &f);
        EXPECT_NE(e.find("q=" + std::to_string(q) + " "), std::string::npos) << e;
        SlimFlyParams p;
        p.q = q;
        ExpectOneLineError(BuildSlimFly(p), "not a supported prime power");
    }
}

TEST(SlimFly, MmsGraphsForSupportedQ)
{
    for (uint32_t q : {3u, 5u, 7u, 9u, 11u, 13u})
    {
        SCOPED_TRACE("q=" + std::to_string(q));
        SlimFlyParams p;
        p.q = q;
        GraphResult r = BuildSlimFly(p);
        ASSERT_TRUE(r.Ok()) << r.error;
        const SwitchGraph& g = r.graph;
        const int delta = SlimFlyDelta(q);
        const uint32_t k = (3 * q - delta) / 2;
        EXPECT_EQ(g.NSwitches(), 2 * q * q);
        EXPECT_EQ(g.NLinks(), g.NSwitches() * k / 2);
        EXPECT_EQ(g.CountLinks(LinkKind::GLOBAL), q * q * q);
        EXPECT_EQ(g.NHosts(), g.NSwitches() * ((k + 1) / 2));
        GraphStats st = Analyze(g);
        EXPECT_TRUE(st.connected);
        EXPECT_EQ(st.diameter, 2u);
        EXPECT_EQ(st.minDegree, k);
        EXPECT_EQ(st.maxDegree, k);
    }
}

TEST(SlimFly, SpritzPresetOverGf9)
{
    SwitchGraph g = Preset("spritz-sf");
    EXPECT_EQ(g.NSwitches(), 162u);
    EXPECT_EQ(g.NHosts(), 1134u);
    EXPECT_EQ(g.CountLinks(LinkKind::LOCAL), 324u);
    EXPECT_EQ(g.CountLinks(LinkKind::GLOBAL), 729u);
    std::map<uint32_t, uint32_t> groupSize;
    for (uint32_t s = 0; s < g.NSwitches(); ++s)
    {
        EXPECT_EQ(g.Radix(s), 20u);
        groupSize[g.switches[s].group]++;
        uint32_t nLocal = 0;
        for (const Port& p : g.Ports(s))
        {
            const bool local = g.links[p.link].kind == LinkKind::LOCAL;
            nLocal += local;
            EXPECT_EQ(local, g.switches[p.nbr].group == g.switches[s].group);
        }
        EXPECT_EQ(nLocal, 4u);
    }
    EXPECT_EQ(groupSize.size(), 18u);
    for (const auto& [grp, n] : groupSize)
    {
        EXPECT_EQ(n, 9u);
    }
    GraphStats st = Analyze(g);
    EXPECT_EQ(st.diameter, 2u);
    EXPECT_EQ(st.minDegree, 13u);
    EXPECT_EQ(st.maxDegree, 13u);
    // Two switches of one group share no neighbour in the other half.
    for (uint32_t a = 0; a < g.NSwitches(); ++a)
    {
        for (uint32_t b = a + 1; b < g.NSwitches() && g.switches[b].group == g.switches[a].group;
             ++b)
        {
            std::set<uint32_t> na;
            for (const Port& p : g.Ports(a))
            {
                if (g.links[p.link].kind == LinkKind::GLOBAL)
                {
                    na.insert(p.nbr);
                }
            }
            for (const Port& p : g.Ports(b))
            {
                if (g.links[p.link].kind == LinkKind::GLOBAL)
                {
                    EXPECT_EQ(na.count(p.nbr), 0u);
                }
            }
        }
    }
}

TEST(SlimFly, IntegersModNineGiveAWrongGraph)
{
    // spritz spec 6.1 case 4 (negative): the MMS rule with Z/9 arithmetic and the GF(9)
    // set sizes (X = {+-1, +-2}, X' = {+-3, +-4}) is not a 13-regular diameter-2 graph.
    const uint32_t q = 9;
    SwitchGraph g;
    g.name = "mod9";
    for (uint32_t s = 0; s < 2 * q * q; ++s)
    {
        g.AddSwitch({"v" + std::to_string(s), 0, SwitchRole::ROUTER, 0, 0, 0});
    }
    auto in = [](uint32_t v, std::set<uint32_t> set) { return set.count(v) > 0; };
    for (uint32_t x = 0; x < q; ++x)
    {
        for (uint32_t y = 0; y < q; ++y)
        {
            for (uint32_t y2 = y + 1; y2 < q; ++y2)
            {
                const uint32_t diff = (y + q - y2) % q;
                if (in(diff, {1, 8, 2, 7}))
                {
                    g.AddLink(x * q + y, x * q + y2, LinkKind::LOCAL, 1, 0);
                }
                if (in(diff, {3, 6, 4, 5}))
                {
                    g.AddLink(q * q + x * q + y, q * q + x * q + y2, LinkKind::LOCAL, 1, 0);
                }
            }
            for (uint32_t m = 0; m < q; ++m)
            {
                const uint32_t c = (y + q * q - m * x) % q;
                g.AddLink(x * q + y, q * q + m * q + c, LinkKind::GLOBAL, 1, 0);
            }
        }
    }
    g.Finalize();
    GraphStats st = Analyze(g);
    EXPECT_TRUE(st.diameter != 2 || st.minDegree != 13 || st.maxDegree != 13);
}
