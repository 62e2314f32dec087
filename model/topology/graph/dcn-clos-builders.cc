// Rail-optimized (laps spec 4.1) and leaf-spine (hermes spec 5) switch graphs.
#include "dcn-topo-builders.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>

namespace dcn
{

GraphResult
BuildRail(const RailParams& prm, const std::string& name)
{
    GraphResult res;
    if (prm.clusters < 1 || prm.clusters > 4096)
    {
        res.error = "rail: clusters=" + std::to_string(prm.clusters) + "; allowed: 1..4096";
        return res;
    }
    if (prm.rails < 1 || prm.rails > 4096)
    {
        res.error =
            "rail: rails=" + std::to_string(prm.rails) + " (GPUs per cluster); allowed: 1..4096";
        return res;
    }
    if (!(prm.gpuRateBps > 0) || !(prm.fabricRateBps > 0) || prm.nvlinkRateBps < 0 ||
        prm.delayNs < 0 || prm.switchLatencyNs < 0)
    {
        res.error = "rail: rates must be > 0 (nvlinkRate >= 0, 0 = fabricRate) and delays >= 0";
        return res;
    }
    const uint32_t c = prm.clusters;
    const uint32_t r = prm.rails;
    {
        // sizes from the parameters, before anything is allocated: c*r GPUs, each linked
        // to its cluster's NVLink switch and to its rail switch
        const std::string size = CheckTopologySize(uint64_t(c) * r, 2 * uint64_t(c) * r);
        if (!size.empty())
        {
            res.error =
                "rail: clusters=" + std::to_string(c) + ", rails=" + std::to_string(r) + " " + size;
            return res;
        }
    }
    SwitchGraph& gr = res.graph;
    gr.name = name;
    if (prm.nvlinkFirst > 1)
    {
        res.error = "rail: nvlinkFirst=" + std::to_string(prm.nvlinkFirst) + "; allowed: 0, 1";
        return res;
    }
    gr.fam = {"rail", 1, c, r, 0, 0};
    gr.fam.nvlinkFirst = prm.nvlinkFirst == 1;
    gr.switchLatencyNs = prm.switchLatencyNs;
    // NIC switch of GPU k of cluster i: i*r + k (one GPU each), group = cluster.
    for (uint32_t i = 0; i < c; ++i)
    {
        for (uint32_t k = 0; k < r; ++k)
        {
            gr.AddSwitch({"nic" + std::to_string(i) + "_" + std::to_string(k),
                          i,
                          SwitchRole::NIC,
                          1,
                          prm.gpuRateBps,
                          prm.delayNs});
        }
    }
    const uint32_t nvl0 = c * r;
    for (uint32_t i = 0; i < c; ++i)
    {
        gr.AddSwitch({"nvl" + std::to_string(i), i, SwitchRole::NVLINK, 0, 0, 0});
    }
    const uint32_t rail0 = nvl0 + c;
    for (uint32_t k = 0; k < r; ++k)
    {
        gr.AddSwitch({"rail" + std::to_string(k), k, SwitchRole::RAIL, 0, 0, 0});
    }
    for (uint32_t i = 0; i < c; ++i)
    {
        for (uint32_t k = 0; k < r; ++k)
        {
            gr.AddLink(i * r + k,
                       nvl0 + i,
                       LinkKind::NVLINK,
                       prm.nvlinkRateBps > 0 ? prm.nvlinkRateBps : prm.fabricRateBps,
                       prm.delayNs);
            gr.AddLink(i * r + k, rail0 + k, LinkKind::RAIL, prm.fabricRateBps, prm.delayNs);
        }
    }
    gr.Finalize();
    res.error = gr.Check();
    return res;
}

namespace
{
/** Deterministic k-of-n choice (Fisher-Yates prefix over mt19937_64; no std distributions,
 *  whose output is implementation-defined). */
std::vector<uint32_t>
ChooseK(uint32_t n, uint32_t k, uint64_t seed)
{
    std::vector<uint32_t> v(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        v[i] = i;
    }
    std::mt19937_64 rng(seed);
    for (uint32_t i = 0; i < k && i < n; ++i)
    {
        const uint32_t j = i + static_cast<uint32_t>(rng() % (n - i));
        std::swap(v[i], v[j]);
    }
    v.resize(std::min(k, n));
    std::sort(v.begin(), v.end());
    return v;
}
} // namespace

GraphResult
BuildLeafSpine(const LeafSpineParams& prm, const std::string& name)
{
    GraphResult res;
    auto fail = [&res](const std::string& e) {
        res.error = "leaf-spine: " + e;
        return res;
    };
    if (prm.leaves < 1 || prm.leaves > 4096)
    {
        return fail("leaves=" + std::to_string(prm.leaves) + "; allowed: 1..4096");
    }
    if (prm.spines < 1 || prm.spines > 4096)
    {
        return fail("spines=" + std::to_string(prm.spines) + "; allowed: 1..4096");
    }
    if (prm.hostsPerLeaf < 1)
    {
        return fail("hostsPerLeaf=0; allowed: >= 1");
    }
    if (prm.linksPerPair < 1 || prm.linksPerPair > 64)
    {
        return fail("linksPerPair=" + std::to_string(prm.linksPerPair) + "; allowed: 1..64");
    }
    {
        // sizes from the parameters, before anything is allocated
        const std::string size =
            CheckTopologySize(uint64_t(prm.leaves) * prm.hostsPerLeaf,
                              uint64_t(prm.leaves) * prm.spines * prm.linksPerPair);
        if (!size.empty())
        {
            return fail("leaves=" + std::to_string(prm.leaves) +
                        ", spines=" + std::to_string(prm.spines) +
                        ", hostsPerLeaf=" + std::to_string(prm.hostsPerLeaf) +
                        ", linksPerPair=" + std::to_string(prm.linksPerPair) + " " + size);
        }
    }
    if (!(prm.hostRateBps > 0))
    {
        return fail("hostRate=" + std::to_string(prm.hostRateBps) + " bit/s; allowed: > 0");
    }
    const double up = prm.spines * prm.linksPerPair; // uplinks per leaf
    const double down = prm.hostsPerLeaf * prm.hostRateBps;
    double uplinkRate = prm.uplinkRateBps.value_or(prm.hostRateBps);
    if (prm.oversubscription)
    {
        const double o = *prm.oversubscription;
        if (!(o > 0))
        {
            return fail("oversubscription=" + std::to_string(o) + "; allowed: > 0");
        }
        const double derived = down / (up * o);
        if (prm.uplinkRateBps && std::abs(*prm.uplinkRateBps - derived) > 1e-6 * derived)
        {
            return fail("oversubscription=" + std::to_string(o) + " contradicts uplinkRate=" +
                        std::to_string(*prm.uplinkRateBps) + " bit/s (it implies " +
                        std::to_string(derived) + "); allowed: one of them, or both agreeing");
        }
        uplinkRate = derived;
    }
    if (prm.oversubscription && !(uplinkRate <= 1e15))
    {
        // the rates' cap (1e15 bit/s, as --topoParams rates); an inf or > 2^63 rate
        // would overflow the link's integer rate
        std::ostringstream o;
        o << *prm.oversubscription << " gives an uplink rate of " << uplinkRate
          << " bit/s, above 1e15; allowed: at least " << down / (up * 1e15)
          << " (host bandwidth per leaf over its uplinks at 1e15 bit/s)";
        return fail("oversubscription=" + o.str());
    }
    if (!(uplinkRate >= 1))
    {
        std::ostringstream o;
        o << (prm.oversubscription ? *prm.oversubscription : 0.0);
        return fail(prm.oversubscription
                        ? "oversubscription=" + o.str() +
                              " gives an uplink rate below 1 bit/s; allowed: at most " +
                              std::to_string(static_cast<uint64_t>(down / up)) +
                              " (host bandwidth per leaf over its uplinks)"
                        : "uplinkRate=" + std::to_string(uplinkRate) + " bit/s; allowed: >= 1");
    }
    if (prm.hostDelayNs < 0 || prm.linkDelayNs < 0 || prm.switchLatencyNs < 0)
    {
        return fail("delays must be >= 0");
    }
    if (prm.slowFraction < 0 || prm.slowFraction > 1)
    {
        return fail("slowFraction=" + std::to_string(prm.slowFraction) + "; allowed: 0..1");
    }
    if (!(prm.slowRateBps > 0))
    {
        return fail("slowRate=" + std::to_string(prm.slowRateBps) + " bit/s; allowed: > 0");
    }
    SwitchGraph& gr = res.graph;
    gr.name = name;
    gr.fam = {"leaf-spine", prm.hostsPerLeaf, prm.leaves, prm.spines, 0, 0};
    gr.switchLatencyNs = prm.switchLatencyNs;
    for (uint32_t l = 0; l < prm.leaves; ++l)
    {
        gr.AddSwitch({"leaf" + std::to_string(l),
                      l,
                      SwitchRole::LEAF,
                      prm.hostsPerLeaf,
                      prm.hostRateBps,
                      prm.hostDelayNs});
    }
    for (uint32_t s = 0; s < prm.spines; ++s)
    {
        gr.AddSwitch({"spine" + std::to_string(s), s, SwitchRole::SPINE, 0, 0, 0});
    }
    for (uint32_t l = 0; l < prm.leaves; ++l)
    {
        for (uint32_t s = 0; s < prm.spines; ++s)
        {
            for (uint32_t j = 0; j < prm.linksPerPair; ++j)
            {
                std::string nm = "leaf" + std::to_string(l) + "-spine" + std::to_string(s);
                if (prm.linksPerPair > 1)
                {
                    nm += "/" + std::to_string(j);
                }
                gr.AddLink(l,
                           prm.leaves + s,
                           LinkKind::LEAF_SPINE,
                           uplinkRate,
                           prm.linkDelayNs,
                           nm);
            }
        }
    }
    // Asymmetry: slow links (fraction, then names).
    const uint32_t nl = gr.NLinks();
    const auto nSlow = static_cast<uint32_t>(std::lround(prm.slowFraction * nl));
    for (uint32_t id : ChooseK(nl, nSlow, prm.slowSeed))
    {
        gr.links[id].rateBps = prm.slowRateBps;
    }
    for (const auto& nm : prm.slowLinks)
    {
        const uint32_t id = gr.FindLink(nm);
        if (id == NONE)
        {
            return fail("slowLinks: no link named '" + nm + "' (names look like leaf0-spine1" +
                        std::string(prm.linksPerPair > 1 ? "/0" : "") + ")");
        }
        gr.links[id].rateBps = prm.slowRateBps;
    }
    // Cut links: refuse a cut set that disconnects the network, then rebuild without them.
    std::vector<bool> cut(nl, false);
    for (const auto& nm : prm.cutLinks)
    {
        const uint32_t id = gr.FindLink(nm);
        if (id == NONE)
        {
            return fail("cutLinks: no link named '" + nm + "' (names look like leaf0-spine1" +
                        std::string(prm.linksPerPair > 1 ? "/0" : "") + ")");
        }
        cut[id] = true;
    }
    if (!prm.cutLinks.empty())
    {
        gr.Finalize();
        if (CountComponents(gr, cut) != 1)
        {
            std::string list;
            for (const auto& nm : prm.cutLinks)
            {
                list += (list.empty() ? "" : ",") + nm;
            }
            return fail("cutLinks=" + list +
                        " disconnects the network; allowed: a cut set that leaves every "
                        "switch connected");
        }
        std::vector<SwitchLink> kept;
        for (auto& l : gr.links)
        {
            if (!cut[l.id])
            {
                l.id = static_cast<uint32_t>(kept.size());
                kept.push_back(std::move(l));
            }
        }
        gr.links = std::move(kept);
    }
    gr.Finalize();
    res.error = gr.Check();
    return res;
}

} // namespace dcn
