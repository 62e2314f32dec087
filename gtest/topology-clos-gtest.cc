// GoogleTest: Rail-optimized and leaf-spine switch graphs (issue 11; laps spec 4.1, hermes spec 5).
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

} // namespace

TEST(Rail, LapsPresetAndGeneralSizes)
{
    SwitchGraph g = Preset("laps-rail");
    EXPECT_EQ(g.NSwitches(), 80u);
    EXPECT_EQ(g.NHosts(), 64u);
    EXPECT_EQ(g.CountLinks(LinkKind::NVLINK), 64u);
    EXPECT_EQ(g.CountLinks(LinkKind::RAIL), 64u);
    std::map<SwitchRole, uint32_t> roles;
    for (uint32_t s = 0; s < g.NSwitches(); ++s)
    {
        const auto& sw = g.switches[s];
        roles[sw.role]++;
        if (sw.role == SwitchRole::NIC)
        {
            EXPECT_EQ(sw.nHosts, 1u);
            EXPECT_DOUBLE_EQ(sw.hostRateBps, 200e9);
            EXPECT_EQ(g.Radix(s), 3u);
        }
        else
        {
            EXPECT_EQ(sw.nHosts, 0u);
            EXPECT_EQ(g.Radix(s), 8u);
        }
    }
    EXPECT_EQ(roles[SwitchRole::NIC], 64u);
    EXPECT_EQ(roles[SwitchRole::NVLINK], 8u);
    EXPECT_EQ(roles[SwitchRole::RAIL], 8u);
    for (const auto& l : g.links)
    {
        EXPECT_DOUBLE_EQ(l.rateBps, 100e9);
        EXPECT_DOUBLE_EQ(l.delayNs, 1000);
    }
    EXPECT_NE(g.FindLink("nic3_5-rail5"), NONE);
    EXPECT_NE(g.FindLink("nic3_5-nvl3"), NONE);
    EXPECT_EQ(Analyze(g).diameter, 4u);

    RailParams p;
    p.clusters = 3;
    p.rails = 5;
    GraphResult r = BuildRail(p);
    ASSERT_TRUE(r.Ok());
    EXPECT_EQ(r.graph.NSwitches(), 3u * 5 + 3 + 5);
    EXPECT_EQ(r.graph.NHosts(), 15u);
    EXPECT_EQ(r.graph.NLinks(), 30u);
    EXPECT_EQ(Analyze(r.graph).diameter, 4u);
    p.clusters = 0;
    ExpectOneLineError(BuildRail(p), "clusters=0");
    p.clusters = 2;
    p.rails = 0;
    ExpectOneLineError(BuildRail(p), "rails=0");
}

TEST(LeafSpine, HermesPresets)
{
    SwitchGraph g = Preset("hermes-sim");
    EXPECT_EQ(g.NSwitches(), 16u);
    EXPECT_EQ(g.NHosts(), 128u);
    EXPECT_EQ(g.NLinks(), 64u);
    double down = 0;
    double up = 0;
    for (uint32_t s = 0; s < 8; ++s)
    {
        down += g.switches[s].nHosts * g.switches[s].hostRateBps;
    }
    for (const auto& l : g.links)
    {
        up += l.rateBps;
        EXPECT_DOUBLE_EQ(l.rateBps, 10e9);
    }
    EXPECT_DOUBLE_EQ(down / up, 2.0);
    EXPECT_EQ(Analyze(g).diameter, 2u);

    SwitchGraph t = Preset("hermes-testbed");
    EXPECT_EQ(t.NSwitches(), 4u);
    EXPECT_EQ(t.NHosts(), 12u);
    EXPECT_EQ(t.NLinks(), 8u);
    EXPECT_NE(t.FindLink("leaf0-spine1/1"), NONE);
    EXPECT_EQ(t.Radix(0), 6u + 4u);
    EXPECT_DOUBLE_EQ(t.links[0].rateBps, 1e9);
}

TEST(LeafSpine, OversubscriptionAndAsymmetry)
{
    LeafSpineParams p;
    p.oversubscription = 4.0;
    GraphResult r = BuildLeafSpine(p);
    ASSERT_TRUE(r.Ok());
    EXPECT_DOUBLE_EQ(r.graph.links[0].rateBps, 16 * 10e9 / (8 * 4.0));
    p.uplinkRateBps = 10e9; // contradicts 4:1
    ExpectOneLineError(BuildLeafSpine(p), "contradicts");

    p = LeafSpineParams{};
    p.slowFraction = 0.2;
    GraphResult a = BuildLeafSpine(p);
    ASSERT_TRUE(a.Ok());
    auto slowSet = [](const SwitchGraph& g) {
        std::set<uint32_t> s;
        for (const auto& l : g.links)
        {
            if (l.rateBps == 2e9)
            {
                s.insert(l.id);
            }
        }
        return s;
    };
    EXPECT_EQ(slowSet(a.graph).size(), 13u);                       // round(0.2 * 64)
    EXPECT_EQ(slowSet(BuildLeafSpine(p).graph), slowSet(a.graph)); // deterministic
    p.slowSeed = 2;
    EXPECT_NE(slowSet(BuildLeafSpine(p).graph), slowSet(a.graph));
    p.slowFraction = 0;
    p.slowLinks = {"leaf2-spine5"};
    GraphResult b = BuildLeafSpine(p);
    ASSERT_TRUE(b.Ok());
    EXPECT_EQ(slowSet(b.graph), (std::set<uint32_t>{b.graph.FindLink("leaf2-spine5")}));
    p.slowLinks = {"leaf9-spine0"};
    ExpectOneLineError(BuildLeafSpine(p), "'leaf9-spine0'");
}

TEST(LeafSpine, CutLinks)
{
    LeafSpineParams p;
    p.leaves = 2;
    p.spines = 2;
    p.hostsPerLeaf = 6;
    p.linksPerPair = 2;
    p.hostRateBps = 1e9;
    p.cutLinks = {"leaf0-spine1/0"};
    GraphResult r = BuildLeafSpine(p);
    ASSERT_TRUE(r.Ok()) << r.error;
    EXPECT_EQ(r.graph.NLinks(), 7u);
    EXPECT_EQ(r.graph.FindLink("leaf0-spine1/0"), NONE);
    for (uint32_t i = 0; i < r.graph.NLinks(); ++i)
    {
        EXPECT_EQ(r.graph.links[i].id, i);
    }
    EXPECT_EQ(r.graph.Radix(0), 6u + 3u);
    // Cutting every uplink of leaf0 disconnects it.
    p.cutLinks = {"leaf0-spine0/0", "leaf0-spine0/1", "leaf0-spine1/0", "leaf0-spine1/1"};
    ExpectOneLineError(BuildLeafSpine(p), "disconnects");
    // An isolated spine also counts as disconnected.
    p.cutLinks = {"leaf0-spine1/0", "leaf0-spine1/1", "leaf1-spine1/0", "leaf1-spine1/1"};
    ExpectOneLineError(BuildLeafSpine(p), "disconnects");
    p.cutLinks = {"leaf0-spine7"};
    ExpectOneLineError(BuildLeafSpine(p), "'leaf0-spine7'");
}

TEST(LeafSpine, BadInput)
{
    LeafSpineParams p;
    p.hostsPerLeaf = 0;
    ExpectOneLineError(BuildLeafSpine(p), "hostsPerLeaf=0");
    p = LeafSpineParams{};
    p.oversubscription = 0.0;
    ExpectOneLineError(BuildLeafSpine(p), "oversubscription=");
    p.oversubscription = -1.0;
    ExpectOneLineError(BuildLeafSpine(p), "allowed: > 0");
    p = LeafSpineParams{};
    p.leaves = 0;
    ExpectOneLineError(BuildLeafSpine(p), "leaves=0");
    p = LeafSpineParams{};
    p.spines = 0;
    ExpectOneLineError(BuildLeafSpine(p), "spines=0");
    p = LeafSpineParams{};
    p.slowFraction = 1.5;
    ExpectOneLineError(BuildLeafSpine(p), "slowFraction");
    p = LeafSpineParams{};
    p.linksPerPair = 0;
    ExpectOneLineError(BuildLeafSpine(p), "linksPerPair=0");
}

TEST(LeafSpine, OtherSizes)
{
    struct Case
    {
        uint32_t leaves, spines, hosts, k;
    };

    for (Case c : {Case{1, 1, 1, 1}, Case{3, 5, 7, 1}, Case{12, 4, 24, 3}, Case{5, 2, 3, 4}})
    {
        SCOPED_TRACE(std::to_string(c.leaves) + "x" + std::to_string(c.spines));
        LeafSpineParams p;
        p.leaves = c.leaves;
        p.spines = c.spines;
        p.hostsPerLeaf = c.hosts;
        p.linksPerPair = c.k;
        p.oversubscription = 1.0;
        GraphResult r = BuildLeafSpine(p);
        ASSERT_TRUE(r.Ok()) << r.error;
        const SwitchGraph& g = r.graph;
        EXPECT_EQ(g.NSwitches(), c.leaves + c.spines);
        EXPECT_EQ(g.NHosts(), c.leaves * c.hosts);
        EXPECT_EQ(g.NLinks(), c.leaves * c.spines * c.k);
        for (uint32_t s = 0; s < g.NSwitches(); ++s)
        {
            EXPECT_EQ(g.Radix(s), s < c.leaves ? c.hosts + c.spines * c.k : c.leaves * c.k);
            EXPECT_EQ(TierOf(g.switches[s].role), s < c.leaves ? 0 : 1);
        }
        // 1:1 -> the uplink capacity of a leaf equals its host capacity.
        EXPECT_NEAR(g.links[0].rateBps * c.spines * c.k, c.hosts * 10e9, 1e-3);
        GraphStats st = Analyze(g);
        EXPECT_TRUE(st.connected);
        EXPECT_EQ(st.diameter, c.leaves + c.spines == 2 ? 1u : 2u);
    }
}

TEST(Rail, OtherSizes)
{
    for (uint32_t c : {1u, 2u, 5u})
    {
        for (uint32_t r : {1u, 3u, 8u})
        {
            RailParams p;
            p.clusters = c;
            p.rails = r;
            GraphResult res = BuildRail(p);
            ASSERT_TRUE(res.Ok());
            const SwitchGraph& g = res.graph;
            EXPECT_EQ(g.NSwitches(), c * r + c + r);
            EXPECT_EQ(g.NHosts(), c * r);
            EXPECT_EQ(g.NLinks(), 2 * c * r);
            GraphStats st = Analyze(g);
            EXPECT_TRUE(st.connected);
            // Two NVLink (or rail) switches are 4 hops apart as soon as there are two.
            EXPECT_EQ(st.diameter, c * r > 1 ? 4u : 2u);
            // NIC to NIC: 4 hops across cluster and rail, else 2 (same cluster or rail).
            DistanceMatrix dm(g);
            uint32_t nicMax = 0;
            for (uint32_t a = 0; a < c * r; ++a)
            {
                for (uint32_t b = 0; b < c * r; ++b)
                {
                    nicMax = std::max<uint32_t>(nicMax, dm(a, b));
                    if (a != b)
                    {
                        const bool sameCluster = a / r == b / r;
                        const bool sameRail = a % r == b % r;
                        EXPECT_EQ(dm(a, b), sameCluster || sameRail ? 2u : 4u);
                    }
                }
            }
            EXPECT_EQ(nicMax, (c > 1 && r > 1) ? 4u : (c * r > 1 ? 2u : 0u));
        }
    }
}
