// GoogleTest: the static network checks of dcn-graph-checks.h (no simulation): the
// channel dependency graph (CDG) cycle check and the uniform all-to-all load profile.
// Expected numbers are derived here from first principles (comments), not copied
// from the code's output.
#include "topology-gtest-util.h"

#include "ns3/dcn-graph-checks.h"
#include "ns3/dcn-graph-routing.h"
#include "ns3/dcn-topo-builders.h"

#include <gtest/gtest.h>
#include <set>
#include <tuple>

using namespace dcn;

namespace
{
using dcntest::Preset;

SwitchGraph
LeafSpine(uint32_t leaves,
          uint32_t spines,
          uint32_t hosts,
          double hostRate,
          double uplinkRate,
          uint32_t linksPerPair = 1)
{
    LeafSpineParams p;
    p.leaves = leaves;
    p.spines = spines;
    p.hostsPerLeaf = hosts;
    p.hostRateBps = hostRate;
    p.uplinkRateBps = uplinkRate;
    p.linksPerPair = linksPerPair;
    GraphResult r = BuildLeafSpine(p);
    EXPECT_TRUE(r.Ok()) << r.error;
    return r.graph;
}

/** A ring of n switches, one host each, every link 100 Gb/s. */
SwitchGraph
Ring(uint32_t n)
{
    SwitchGraph g;
    g.name = "ring";
    g.fam.family = "ring";
    for (uint32_t s = 0; s < n; ++s)
    {
        g.AddSwitch({"r" + std::to_string(s), 0, SwitchRole::ROUTER, 1, 100e9, 0});
    }
    for (uint32_t s = 0; s < n; ++s)
    {
        g.AddLink(s, (s + 1) % n, LinkKind::LOCAL, 100e9, 0);
    }
    g.Finalize();
    EXPECT_EQ(g.Check(), "");
    return g;
}

/** A dependency as the path shows it: (from switch, link, via switch, link, to switch). */
using Dep = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, uint32_t>;

/** Every dependency of a path set, read straight off the paths (not via ChannelId). */
std::set<Dep>
DepsOf(const MinimalRouting& mr, PathSet set)
{
    const SwitchGraph& g = mr.Graph();
    std::set<Dep> deps;
    for (uint32_t s = 0; s < g.NSwitches(); ++s)
    {
        for (uint32_t d = 0; d < g.NSwitches(); ++d)
        {
            if (s == d || g.switches[s].nHosts == 0 || g.switches[d].nHosts == 0)
            {
                continue;
            }
            const auto ps = set == PathSet::LAPS ? mr.LapsPaths(s, d) : mr.MinimalPaths(s, d);
            for (const GraphPath& p : ps)
            {
                for (size_t i = 1; i < p.links.size(); ++i)
                {
                    deps.insert({p.switches[i - 1],
                                 p.links[i - 1],
                                 p.switches[i],
                                 p.links[i],
                                 p.switches[i + 1]});
                }
            }
        }
    }
    return deps;
}

/** The reported cycle is a closed walk of channels whose every step is a dependency. */
void
ExpectRealCycle(const MinimalRouting& mr, PathSet set, const CdgResult& r)
{
    const SwitchGraph& g = mr.Graph();
    ASSERT_TRUE(r.cyclic);
    ASSERT_GE(r.cycle.size(), 3u);
    ASSERT_EQ(r.witnesses.size(), r.cycle.size());
    const std::set<Dep> deps = DepsOf(mr, set);
    EXPECT_EQ(deps.size(), r.dependencies);
    const size_t k = r.cycle.size();
    std::set<uint32_t> distinct(r.cycle.begin(), r.cycle.end());
    EXPECT_EQ(distinct.size(), k);
    for (size_t i = 0; i < k; ++i)
    {
        const uint32_t c1 = r.cycle[i];
        const uint32_t c2 = r.cycle[(i + 1) % k];
        const uint32_t l1 = c1 / 2;
        const uint32_t l2 = c2 / 2;
        // the channel endpoints are those of its link
        const uint32_t a = ChannelFrom(g, c1);
        const uint32_t b = ChannelTo(g, c1);
        EXPECT_TRUE((g.links[l1].a == a && g.links[l1].b == b) ||
                    (g.links[l1].a == b && g.links[l1].b == a));
        EXPECT_EQ(ChannelFrom(g, c2), b) << "cycle step " << i << " is not a walk";
        const Dep dep{a, l1, b, l2, ChannelTo(g, c2)};
        EXPECT_TRUE(deps.count(dep) == 1)
            << ChannelName(g, c1) << " then " << ChannelName(g, c2) << " is on no path";
        // the witness path uses c1 then c2
        const GraphPath& w = r.witnesses[i];
        bool found = false;
        for (size_t j = 1; j < w.links.size(); ++j)
        {
            found = found || (w.switches[j - 1] == a && w.links[j - 1] == l1 &&
                              w.switches[j] == b && w.links[j] == l2);
        }
        EXPECT_TRUE(found) << "witness of step " << i;
    }
}

/** Utilisation of the directed link "from->to" (switch or host names). */
double
Util(const LoadProfile& p, const std::string& name)
{
    for (const auto& l : p.links)
    {
        if (l.name == name)
        {
            return l.util;
        }
    }
    ADD_FAILURE() << "no link " << name;
    return -1;
}

const ClassLoad&
Class(const LoadProfile& p, const std::string& cls)
{
    for (const auto& c : p.classes)
    {
        if (c.cls == cls)
        {
            return c;
        }
    }
    ADD_FAILURE() << "no class " << cls;
    static ClassLoad none;
    return none;
}

/** Every directed link of a class has utilisation u. */
void
ExpectClassUtil(const LoadProfile& p, const std::string& cls, double u)
{
    SCOPED_TRACE(cls);
    uint32_t n = 0;
    for (const auto& l : p.links)
    {
        if (l.cls == cls)
        {
            EXPECT_NEAR(l.util, u, 1e-9) << l.name;
            ++n;
        }
    }
    EXPECT_GT(n, 0u);
}

} // namespace

TEST(ChannelDependencies, LeafSpineUpDownIsAcyclic)
{
    // Minimal up-down routing: every dependency is leaf->spine then spine->leaf, so no
    // channel of the second kind ever depends on one of the first.
    for (uint32_t links : {1u, 2u})
    {
        SwitchGraph g = LeafSpine(4, 3, 2, 10e9, 10e9, links);
        MinimalRouting mr(g);
        CdgResult r = CheckChannelDependencies(mr, PathSet::MINIMAL);
        EXPECT_FALSE(r.cyclic);
        EXPECT_TRUE(r.cycle.empty());
        EXPECT_EQ(r.channelsOnCycles, 0u);
        EXPECT_EQ(r.pairs, 4u * 3u);
        EXPECT_EQ(r.paths, 4u * 3u * 3u * links * links);
        // leaf l -> spine s (one channel per link) depends on spine s -> every other leaf
        EXPECT_EQ(r.dependencies, uint64_t{4} * 3 * links * 3 * links);
    }
    SwitchGraph hs = Preset("hermes-sim");
    MinimalRouting mr(hs);
    EXPECT_FALSE(CheckChannelDependencies(mr, PathSet::MINIMAL).cyclic);
    EXPECT_FALSE(CheckChannelDependencies(mr, PathSet::LAPS).cyclic);
}

TEST(ChannelDependencies, RailMinimalIsCyclicThroughNicRelays)
{
    SwitchGraph g = Preset("laps-rail");
    MinimalRouting mr(g);
    for (PathSet set : {PathSet::MINIMAL, PathSet::LAPS})
    {
        SCOPED_TRACE(ToString(set));
        CdgResult r = CheckChannelDependencies(mr, set);
        ExpectRealCycle(mr, set, r);
        // A cycle needs a NIC switch relaying NVLink -> rail AND one relaying rail ->
        // NVLink (with only one relay direction a path could never come back).
        bool nvlToRail = false;
        bool railToNvl = false;
        for (size_t i = 0; i < r.cycle.size(); ++i)
        {
            const auto& in = g.links[r.cycle[i] / 2];
            const auto& out = g.links[r.cycle[(i + 1) % r.cycle.size()] / 2];
            if (g.switches[ChannelTo(g, r.cycle[i])].role == SwitchRole::NIC)
            {
                nvlToRail |= in.kind == LinkKind::NVLINK && out.kind == LinkKind::RAIL;
                railToNvl |= in.kind == LinkKind::RAIL && out.kind == LinkKind::NVLINK;
            }
        }
        EXPECT_TRUE(nvlToRail);
        EXPECT_TRUE(railToNvl);
        // every channel is on a cycle; 8 channels: NIC->NVLink->NIC->rail->NIC->NVLink->
        // NIC->rail->(start) is the shortest closed walk alternating the two relays
        EXPECT_EQ(r.channelsOnCycles, 2 * g.NLinks());
        EXPECT_EQ(r.cycle.size(), 8u);
    }
}

TEST(ChannelDependencies, RailNvlinkFirstIsAcyclic)
{
    // nvlinkFirst=1 (PXN order): a NIC switch never relays rail -> NVLink, so the minimal
    // paths' dependencies are acyclic; one minimal path per pair of NIC switches, each
    // inter-cluster one over the destination's rail; the LAPS set is unchanged (cyclic).
    GraphResult gr = BuildPreset("laps-rail", {{"nvlinkFirst", "1"}});
    ASSERT_TRUE(gr.Ok()) << gr.error;
    const SwitchGraph& g = gr.graph;
    MinimalRouting mr(g);
    CdgResult r = CheckChannelDependencies(mr, PathSet::MINIMAL);
    EXPECT_FALSE(r.cyclic);
    EXPECT_TRUE(r.cycle.empty());
    EXPECT_EQ(r.paths, static_cast<uint64_t>(r.pairs));
    const uint32_t rails = g.fam.h;
    for (uint32_t s = 0; s < 64; ++s)
    {
        for (uint32_t d = 0; d < 64; ++d)
        {
            if (s == d)
            {
                continue;
            }
            std::vector<GraphPath> ps = mr.MinimalPaths(s, d);
            ASSERT_EQ(ps.size(), 1u) << s << "->" << d;
            for (size_t i = 0; i + 1 < ps[0].switches.size(); ++i)
            {
                const uint32_t x = ps[0].switches[i];
                const uint32_t y = ps[0].switches[i + 1];
                // never rail -> NIC switch -> NVLink switch
                if (g.switches[x].role == SwitchRole::RAIL && i + 2 < ps[0].switches.size())
                {
                    EXPECT_NE(g.switches[ps[0].switches[i + 2]].role, SwitchRole::NVLINK);
                }
                if (g.switches[y].role == SwitchRole::RAIL)
                {
                    const uint32_t rail0 = g.fam.a * rails + g.fam.a; // after NICs, NVLinks
                    EXPECT_EQ(y - rail0, d % rails) << "the destination's rail";
                }
            }
        }
    }
    CdgResult laps = CheckChannelDependencies(mr, PathSet::LAPS);
    EXPECT_TRUE(laps.cyclic);
    // the default (0) is the cyclic one
    GraphResult g0 = BuildPreset("laps-rail", {{"nvlinkFirst", "0"}});
    ASSERT_TRUE(g0.Ok());
    EXPECT_TRUE(CheckChannelDependencies(MinimalRouting(g0.graph), PathSet::MINIMAL).cyclic);
    EXPECT_FALSE(BuildPreset("laps-rail", {{"nvlinkFirst", "2"}}).Ok());
}

TEST(ChannelDependencies, DragonflyMinimalIsCyclic)
{
    // global -> local (landing) and local -> global (to the gateway) on the same local
    // channel: minimal Dragonfly routing needs virtual channels to be deadlock free.
    for (const char* name : {"laps-df", "df-small"})
    {
        SwitchGraph g = Preset(name);
        MinimalRouting mr(g);
        for (PathSet set : {PathSet::MINIMAL, PathSet::LAPS})
        {
            SCOPED_TRACE(std::string(name) + " " + ToString(set));
            ExpectRealCycle(mr, set, CheckChannelDependencies(mr, set));
        }
    }
}

TEST(ChannelDependencies, Rings)
{
    // Ring of 3: every pair is adjacent, one-hop paths, no dependency at all.
    {
        SwitchGraph g = Ring(3);
        MinimalRouting mr(g);
        CdgResult r = CheckChannelDependencies(mr, PathSet::MINIMAL);
        EXPECT_FALSE(r.cyclic);
        EXPECT_EQ(r.dependencies, 0u);
    }
    // Ring of 5: two-hop pairs chain each direction's channels into a cycle of 5.
    {
        SwitchGraph g = Ring(5);
        MinimalRouting mr(g);
        CdgResult r = CheckChannelDependencies(mr, PathSet::MINIMAL);
        ExpectRealCycle(mr, PathSet::MINIMAL, r);
        EXPECT_EQ(r.dependencies, 10u); // 5 two-hop paths per direction
        ASSERT_EQ(r.cycle.size(), 5u);
        // one orientation only: all clockwise (r_i -> r_i+1) or all counter-clockwise
        const uint32_t step = (ChannelTo(g, r.cycle[0]) + 5 - ChannelFrom(g, r.cycle[0])) % 5;
        EXPECT_TRUE(step == 1 || step == 4);
        for (uint32_t c : r.cycle)
        {
            EXPECT_EQ((ChannelTo(g, c) + 5 - ChannelFrom(g, c)) % 5, step);
        }
        const std::string text = CycleText(g, r.cycle);
        EXPECT_TRUE(text.find("r0->r1") != std::string::npos ||
                    text.find("r1->r0") != std::string::npos)
            << text;
    }
}

TEST(UniformLoad, NonBlockingLeafSpineSaturatesAtOne)
{
    // 4 leaves x 4 spines x 4 hosts, all links r: H = 16; a host sends 12/15 of its
    // load to other leaves; a leaf's 4 hosts send 4 * 12/15 r over 4 uplinks:
    // 0.8 per uplink (and per downlink by symmetry).  Host links carry exactly 1.
    const double r = 10e9;
    SwitchGraph g = LeafSpine(4, 4, 4, r, r);
    MinimalRouting mr(g);
    for (PathSet set : {PathSet::MINIMAL, PathSet::LAPS})
    {
        LoadProfile p = UniformLoad(mr, set);
        ExpectClassUtil(p, "leaf-spine leaf->spine", 0.8);
        ExpectClassUtil(p, "leaf-spine spine->leaf", 0.8);
        ExpectClassUtil(p, "host host->leaf", 1.0);
        ExpectClassUtil(p, "host leaf->host", 1.0);
        EXPECT_NEAR(p.maxUtil, 1.0, 1e-9);
        EXPECT_NEAR(p.saturation, 1.0, 1e-9);
        EXPECT_EQ(p.links.size(), 2u * g.NLinks() + 2u * g.NHosts());
    }
}

TEST(UniformLoad, OversubscribedLeafSpine)
{
    // 4 leaves x 2 spines x 4 hosts at r.  2:1 (uplinks at r: 4r down, 2r up): the
    // leaf's inter-leaf traffic 4 * 12/15 r = 3.2 r over 2 uplinks of r: 1.6 per unit
    // load, saturation 1/1.6 = 0.625.  Uplinks at r/2 (4:1): 3.2, saturation 0.3125.
    const double r = 10e9;
    for (auto [up, u] : {std::pair{r, 1.6}, std::pair{r / 2, 3.2}})
    {
        SwitchGraph g = LeafSpine(4, 2, 4, r, up);
        MinimalRouting mr(g);
        LoadProfile p = UniformLoad(mr, PathSet::MINIMAL);
        ExpectClassUtil(p, "leaf-spine leaf->spine", u);
        ExpectClassUtil(p, "leaf-spine spine->leaf", u);
        EXPECT_NEAR(p.maxUtil, u, 1e-9);
        EXPECT_NEAR(p.saturation, 1 / u, 1e-9);
        EXPECT_NEAR(Class(p, "leaf-spine leaf->spine").maxUtil, u, 1e-9);
        EXPECT_EQ(p.links[p.maxIndex].cls.rfind("leaf-spine", 0), 0u);
    }
}

TEST(UniformLoad, PerHopEcmpIsNotEvenOverPaths)
{
    // s - a (1 link), s - b (1 link), a = d (2 parallel links), b - d (1 link); one
    // host on s and one on d (H = 2: each sends its whole rate r to the other).
    // Minimal s..d paths: s a d (twice, one per parallel link), s b d.  Per-hop ECMP:
    // s splits 1/2 : 1/2, a splits its half over the parallel links (1/4 each).  Even
    // over paths: s->a carries 2/3.  Back (d to s), d has three minimal next hops (the
    // two parallel links to a and the link to b): 1/3 each, so d->b carries 1/3.
    const double r = 100e9;
    SwitchGraph g;
    g.name = "diamond";
    g.fam.family = "test";
    const uint32_t s = g.AddSwitch({"s", 0, SwitchRole::ROUTER, 1, r, 0});
    const uint32_t a = g.AddSwitch({"a", 0, SwitchRole::ROUTER, 0, 0, 0});
    const uint32_t b = g.AddSwitch({"b", 0, SwitchRole::ROUTER, 0, 0, 0});
    const uint32_t d = g.AddSwitch({"d", 0, SwitchRole::ROUTER, 1, r, 0});
    g.AddLink(s, a, LinkKind::LOCAL, r, 0);
    g.AddLink(s, b, LinkKind::LOCAL, r, 0);
    g.AddLink(a, d, LinkKind::LOCAL, r, 0, "a-d/0");
    g.AddLink(a, d, LinkKind::LOCAL, r, 0, "a-d/1");
    g.AddLink(b, d, LinkKind::LOCAL, r, 0);
    g.Finalize();
    ASSERT_EQ(g.Check(), "");
    MinimalRouting mr(g);
    ASSERT_EQ(mr.MinimalPaths(s, d).size(), 3u);
    LoadProfile hop = UniformLoad(mr, PathSet::MINIMAL);
    EXPECT_NEAR(Util(hop, "s->a"), 0.5, 1e-12);
    EXPECT_NEAR(Util(hop, "s->b"), 0.5, 1e-12);
    EXPECT_NEAR(Util(hop, "a->d/0"), 0.25, 1e-12);
    EXPECT_NEAR(Util(hop, "a->d/1"), 0.25, 1e-12);
    EXPECT_NEAR(Util(hop, "b->d"), 0.5, 1e-12);
    EXPECT_NEAR(Util(hop, "d->b"), 1.0 / 3, 1e-12);
    EXPECT_NEAR(Util(hop, "d->a/0"), 1.0 / 3, 1e-12);
    EXPECT_NEAR(Util(hop, "a->s"), 2.0 / 3, 1e-12);
    EXPECT_NEAR(Util(hop, "h0->s"), 1.0, 1e-12);
    EXPECT_NEAR(Util(hop, "d->h1"), 1.0, 1e-12);
    // LapsPaths on a family other than Dragonfly / Rail = all minimal paths, even split
    LoadProfile even = UniformLoad(mr, PathSet::LAPS);
    EXPECT_NEAR(Util(even, "s->a"), 2.0 / 3, 1e-12);
    EXPECT_NEAR(Util(even, "a->d/1"), 1.0 / 3, 1e-12);
    EXPECT_NEAR(Util(even, "s->b"), 1.0 / 3, 1e-12);
}

TEST(UniformLoad, LapsRail)
{
    // 64 GPUs at 200 Gb/s, H = 63 others; fabric links 100 Gb/s.  A GPU sends
    // 200/63 Gb/s to each other GPU: 7 in its cluster (via NVLink), 7 on its rail in
    // other clusters (via the rail), 49 on neither (two 4-hop minimal paths, NVLink
    // first or rail first; the NIC switch's two next hops get 1/2 each).
    // NIC(c,i) -> rail i carries: 7 same-rail destinations + 49/2 rail-first of its own
    // GPU + 49/2 NVLink-first traffic of the 7 other GPUs of cluster c towards rail i's
    // NIC switches (7 sources x 7 clusters / 2) = 56 x 200/63 Gb/s over 100 Gb/s =
    // 112/63 = 1.778 per unit load; NIC -> NVLink the same by symmetry (7 + 24.5 + 24.5).
    SwitchGraph g = Preset("laps-rail");
    MinimalRouting mr(g);
    LoadProfile m = UniformLoad(mr, PathSet::MINIMAL);
    const double u = 56.0 * 200 / 63 / 100;
    EXPECT_NEAR(u, 112.0 / 63, 1e-12);
    for (const char* cls :
         {"rail nic->rail", "rail rail->nic", "nvlink nic->nvlink", "nvlink nvlink->nic"})
    {
        ExpectClassUtil(m, cls, u);
    }
    ExpectClassUtil(m, "host host->nic", 1.0);
    ExpectClassUtil(m, "host nic->host", 1.0);
    EXPECT_NEAR(m.saturation, 63.0 / 112, 1e-9); // 0.5625
    EXPECT_NEAR(m.saturation, 0.5625, 1e-9);

    // LAPS paths: inter-cluster pairs spread 1/8 over the 8 rails (path k: NVLink to
    // NIC(c,k) unless k = i, rail k, NVLink from NIC(c',k) unless k = i').
    // NIC(c,k) -> rail k: 8 GPUs x 56 destinations x 1/8 = 56 units: 112/63 again.
    // NIC(c,i) -> NVLink: 7 same-cluster + 56 x 7/8 own inter-cluster (paths k != i) +
    // 56 x 7/8 relayed from rail i to the 7 other GPUs of c = 105 units of 200/63 over
    // 100 Gb/s = 10/3; saturation 0.3.
    LoadProfile l = UniformLoad(mr, PathSet::LAPS);
    ExpectClassUtil(l, "rail nic->rail", 112.0 / 63);
    ExpectClassUtil(l, "rail rail->nic", 112.0 / 63);
    ExpectClassUtil(l, "nvlink nic->nvlink", 10.0 / 3);
    ExpectClassUtil(l, "nvlink nvlink->nic", 10.0 / 3);
    EXPECT_NEAR(l.saturation, 0.3, 1e-9);
}

TEST(UniformLoad, LapsDragonfly)
{
    // 9 groups x 4 switches x 4 hosts (H = 144), h = 2, all links 100 Gb/s; the LAPS
    // wiring gives exactly one global link per group pair (a*h = 8 = g-1), so every
    // inter-group minimal path uses that one global link (checked below).
    SwitchGraph g = Preset("laps-df");
    MinimalRouting mr(g);
    for (uint32_t g1 = 0; g1 < 9; ++g1)
    {
        for (uint32_t g2 = 0; g2 < 9; ++g2)
        {
            EXPECT_EQ(mr.GlobalLinks(g1, g2).size(), g1 == g2 ? 0u : 1u);
        }
    }
    for (uint32_t s = 0; s < g.NSwitches(); ++s)
    {
        for (uint32_t d = 0; d < g.NSwitches(); ++d)
        {
            if (g.switches[s].group != g.switches[d].group)
            {
                const auto ps = mr.MinimalPaths(s, d);
                ASSERT_EQ(ps.size(), 1u);
                EXPECT_EQ(ps[0].global, 1u);
            }
        }
    }
    // Global G1 -> G2: all 16 x 16 host pairs, each 100/143 Gb/s: 256/143 = 1.790
    // (= 2 global links per 4-host switch, 128/143 of the traffic inter-group).
    // Local x -> y (same group): intra-group x's 4 hosts -> y's 4 (16), first hop to
    // y's 2 global links (x's 4 hosts x 2 groups x 16 = 128), last hop from x's 2
    // global links to y's 4 hosts (2 groups x 16 x 4 = 128): 272/143 = 1.902, the
    // bottleneck; saturation 143/272 = 0.526.
    LoadProfile m = UniformLoad(mr, PathSet::MINIMAL);
    ExpectClassUtil(m, "global router->router", 256.0 / 143);
    ExpectClassUtil(m, "local router->router", 272.0 / 143);
    EXPECT_NEAR(m.saturation, 143.0 / 272, 1e-9);

    // LAPS paths: an inter-group pair spreads 1/8 over 1 minimal (1 global hop) and 7
    // Valiant paths (2 global hops each): 15/8 global hops; intra-group pairs use none.
    // Mean global utilisation: 144 x 128 host pairs x 100/143 Gb/s x 15/8 over 72
    // directed global channels of 100 Gb/s = 480/143 = 3.357.
    LoadProfile l = UniformLoad(mr, PathSet::LAPS);
    EXPECT_NEAR(Class(l, "global router->router").meanUtil, 480.0 / 143, 1e-9);
    EXPECT_LE(l.saturation, 143.0 / 480 + 1e-12);
}
