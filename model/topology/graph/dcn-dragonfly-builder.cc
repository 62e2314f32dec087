// Dragonfly switch graph (spritz spec 1.1, laps spec 4.1).
#include "dcn-topo-builders.h"

namespace dcn
{

namespace
{
std::string
Num(double v)
{
    std::string s = std::to_string(v);
    s.erase(s.find_last_not_of('0') + 1);
    if (!s.empty() && s.back() == '.')
    {
        s.pop_back();
    }
    return s;
}
} // namespace

GraphResult
BuildDragonfly(const DragonflyParams& prm, const std::string& name)
{
    GraphResult res;
    auto fail = [&res](const std::string& e) {
        res.error = "dragonfly: " + e;
        return res;
    };
    if (prm.p == 0)
    {
        return fail("p=0 hosts per switch; allowed: p >= 1");
    }
    if (prm.a == 0 || prm.a > 1024)
    {
        return fail("a=" + std::to_string(prm.a) + " switches per group; allowed: 1..1024");
    }
    if (prm.h == 0 || prm.h > 1024)
    {
        return fail("h=" + std::to_string(prm.h) + " global links per switch; allowed: 1..1024");
    }
    const uint32_t ports = prm.a * prm.h; // global ports per group
    const uint32_t gMax = ports + 1;
    const uint32_t g = prm.g == 0 ? gMax : prm.g;
    if (g < 2 || g > gMax)
    {
        return fail("g=" + std::to_string(g) +
                    " groups cannot be wired with a=" + std::to_string(prm.a) +
                    ", h=" + std::to_string(prm.h) + "; allowed: 2..a*h+1=" + std::to_string(gMax));
    }
    if (prm.arrangement == DfArrangement::ABSOLUTE && ports % (g - 1) != 0)
    {
        return fail("g=" + std::to_string(g) + " groups: the a*h=" + std::to_string(ports) +
                    " global ports of a group do not divide evenly over g-1=" +
                    std::to_string(g - 1) + " other groups; allowed: g-1 divides a*h");
    }
    if (prm.arrangement == DfArrangement::LAPS && g != gMax)
    {
        return fail("arrangement=laps needs the balanced g=a*h+1=" + std::to_string(gMax) +
                    ", got g=" + std::to_string(g));
    }
    if (!(prm.rateBps > 0) || prm.hostDelayNs < 0 || prm.localDelayNs < 0 ||
        prm.globalDelayNs < 0 || prm.switchLatencyNs < 0)
    {
        return fail("rate=" + Num(prm.rateBps) + " must be > 0 and delays >= 0");
    }
    {
        // sizes from the parameters, before anything is allocated
        const uint64_t nSw = uint64_t(g) * prm.a;
        const std::string size =
            CheckTopologySize(nSw * prm.p, nSw * (prm.a - 1) / 2 + uint64_t(g) * ports / 2);
        if (!size.empty())
        {
            return fail("p=" + std::to_string(prm.p) + ", a=" + std::to_string(prm.a) +
                        ", h=" + std::to_string(prm.h) + ", g=" + std::to_string(g) + " " + size);
        }
    }
    SwitchGraph& gr = res.graph;
    gr.name = name;
    gr.fam = {"dragonfly", prm.p, prm.a, prm.h, g, 0};
    gr.switchLatencyNs = prm.switchLatencyNs;
    for (uint32_t G = 0; G < g; ++G)
    {
        for (uint32_t r = 0; r < prm.a; ++r)
        {
            gr.AddSwitch({"g" + std::to_string(G) + "s" + std::to_string(r),
                          G,
                          SwitchRole::ROUTER,
                          prm.p,
                          prm.rateBps,
                          prm.hostDelayNs});
        }
    }
    auto sw = [&prm](uint32_t G, uint32_t r) { return G * prm.a + r; };
    // Local links: full mesh inside each group, in (G, r1 < r2) order.
    for (uint32_t G = 0; G < g; ++G)
    {
        for (uint32_t r1 = 0; r1 < prm.a; ++r1)
        {
            for (uint32_t r2 = r1 + 1; r2 < prm.a; ++r2)
            {
                gr.AddLink(sw(G, r1), sw(G, r2), LinkKind::LOCAL, prm.rateBps, prm.localDelayNs);
            }
        }
    }
    // Global links, in (G1 < G2, j) order.
    const uint32_t m = ports / (g - 1); // parallel links per group pair
    for (uint32_t G1 = 0; G1 < g; ++G1)
    {
        for (uint32_t G2 = G1 + 1; G2 < g; ++G2)
        {
            for (uint32_t j = 0; j < m; ++j)
            {
                uint32_t s1;
                uint32_t s2;
                if (prm.arrangement == DfArrangement::ABSOLUTE)
                {
                    // G2 is the (G2-1)-th other group of G1, G1 the G1-th other group of G2.
                    const uint32_t p1 = (G2 - 1) + j * (g - 1);
                    const uint32_t p2 = G1 + j * (g - 1);
                    s1 = sw(G1, p1 / prm.h);
                    s2 = sw(G2, p2 / prm.h);
                }
                else
                {
                    // Port k of G1 leads to (G1+1+k) mod g; G2's port back is g-2-k.
                    const uint32_t k = G2 - G1 - 1;
                    s1 = sw(G1, k / prm.h);
                    s2 = sw(G2, (g - 2 - k) / prm.h);
                }
                std::string nm = gr.switches[s1].name + "-" + gr.switches[s2].name;
                if (m > 1)
                {
                    nm += "/" + std::to_string(j);
                }
                gr.AddLink(s1, s2, LinkKind::GLOBAL, prm.rateBps, prm.globalDelayNs, nm);
            }
        }
    }
    gr.Finalize();
    res.error = gr.Check();
    return res;
}

} // namespace dcn
