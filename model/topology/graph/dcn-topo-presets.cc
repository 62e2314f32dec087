// The preset registry (issue 11): one place naming every switch-graph preset.
#include "dcn-topo-builders.h"

#include <algorithm>
#include <functional>
#include <map>
#include <sstream>

namespace dcn
{

namespace
{

using Overrides = std::map<std::string, std::string>;

/** Parse one override value (a number); false if it is not one. */
bool
ParseNum(const std::string& v, double* out)
{
    std::istringstream is(v);
    double d;
    if (!(is >> d) || !is.eof())
    {
        return false;
    }
    *out = d;
    return true;
}

/**
 * Apply key=value overrides to a parameter struct through a table of
 * (key, setter); unknown keys and non-numbers give a one-line error.
 */
template <typename P>
GraphResult
ApplyTable(P& p,
           const Overrides& ov,
           const std::string& name,
           const std::vector<std::pair<std::string, std::function<bool(P&, double)>>>& keys,
           GraphResult (*build)(const P&, const std::string&))
{
    for (const auto& [k, v] : ov)
    {
        auto it =
            std::find_if(keys.begin(), keys.end(), [&](const auto& e) { return e.first == k; });
        if (it == keys.end())
        {
            std::string allowed;
            for (const auto& e : keys)
            {
                allowed += (allowed.empty() ? "" : ", ") + e.first;
            }
            GraphResult r;
            r.error = "topology '" + name + "': parameter '" + k + "' unknown; allowed: " + allowed;
            return r;
        }
        double d = 0;
        if (!ParseNum(v, &d) || !it->second(p, d))
        {
            GraphResult r;
            r.error = "topology '" + name + "': " + k + "=" + v +
                      " is not a valid value (counts: integers >= 0; rates: 0 or 1..1e15 "
                      "bit/s; delays: 0..1e15 ns)";
            return r;
        }
    }
    return build(p, name);
}

/** Integer setter helper: d must be a non-negative integer. */
template <typename P>
std::function<bool(P&, double)>
U32(uint32_t P::*m)
{
    return [m](P& p, double d) {
        if (d < 0 || d != static_cast<double>(static_cast<uint32_t>(d)))
        {
            return false;
        }
        p.*m = static_cast<uint32_t>(d);
        return true;
    };
}

/** Largest rate (bit/s) or delay (ns) a preset takes: 1 Pb/s, 11.6 days. */
constexpr double REAL_MAX = 1e15;

/** Real setter helper: d must be in [0, REAL_MAX] (rates in bit/s, delays in ns). */
template <typename P>
std::function<bool(P&, double)>
Real(double P::*m)
{
    return [m](P& p, double d) {
        if (!(d >= 0 && d <= REAL_MAX))
        {
            return false;
        }
        p.*m = d;
        return true;
    };
}

/**
 * Rate setter helper (bit/s): 0 (the builder refuses it, or takes its default where
 * 0 means one) or in [1, REAL_MAX]; a fraction of a bit/s would become a 0 bit/s link.
 */
template <typename P>
std::function<bool(P&, double)>
Rate(double P::*m)
{
    return [m](P& p, double d) {
        if (!(d == 0 || (d >= 1 && d <= REAL_MAX)))
        {
            return false;
        }
        p.*m = d;
        return true;
    };
}

GraphResult
Apply(DragonflyParams& p, const Overrides& ov, const std::string& n)
{
    return ApplyTable<DragonflyParams>(p,
                                       ov,
                                       n,
                                       {{"p", U32(&DragonflyParams::p)},
                                        {"a", U32(&DragonflyParams::a)},
                                        {"h", U32(&DragonflyParams::h)},
                                        {"g", U32(&DragonflyParams::g)},
                                        {"rate", Rate(&DragonflyParams::rateBps)},
                                        {"hostDelay", Real(&DragonflyParams::hostDelayNs)},
                                        {"localDelay", Real(&DragonflyParams::localDelayNs)},
                                        {"globalDelay", Real(&DragonflyParams::globalDelayNs)},
                                        {"switchLatency", Real(&DragonflyParams::switchLatencyNs)}},
                                       &BuildDragonfly);
}

GraphResult
Apply(SlimFlyParams& p, const Overrides& ov, const std::string& n)
{
    return ApplyTable<SlimFlyParams>(p,
                                     ov,
                                     n,
                                     {{"q", U32(&SlimFlyParams::q)},
                                      {"p", U32(&SlimFlyParams::p)},
                                      {"rate", Rate(&SlimFlyParams::rateBps)},
                                      {"hostDelay", Real(&SlimFlyParams::hostDelayNs)},
                                      {"localDelay", Real(&SlimFlyParams::localDelayNs)},
                                      {"globalDelay", Real(&SlimFlyParams::globalDelayNs)},
                                      {"switchLatency", Real(&SlimFlyParams::switchLatencyNs)}},
                                     &BuildSlimFly);
}

GraphResult
Apply(RailParams& p, const Overrides& ov, const std::string& n)
{
    return ApplyTable<RailParams>(p,
                                  ov,
                                  n,
                                  {{"clusters", U32(&RailParams::clusters)},
                                   {"rails", U32(&RailParams::rails)},
                                   {"gpuRate", Rate(&RailParams::gpuRateBps)},
                                   {"fabricRate", Rate(&RailParams::fabricRateBps)},
                                   {"nvlinkRate", Rate(&RailParams::nvlinkRateBps)},
                                   {"nvlinkFirst", U32(&RailParams::nvlinkFirst)},
                                   {"delay", Real(&RailParams::delayNs)},
                                   {"switchLatency", Real(&RailParams::switchLatencyNs)}},
                                  &BuildRail);
}

GraphResult
Apply(LeafSpineParams& p, const Overrides& ov, const std::string& n)
{
    using L = LeafSpineParams;
    return ApplyTable<L>(p,
                         ov,
                         n,
                         {{"leaves", U32(&L::leaves)},
                          {"spines", U32(&L::spines)},
                          {"hostsPerLeaf", U32(&L::hostsPerLeaf)},
                          {"linksPerPair", U32(&L::linksPerPair)},
                          {"hostRate", Rate(&L::hostRateBps)},
                          {"uplinkRate",
                           [](L& q, double d) {
                               q.uplinkRateBps = d;
                               q.oversubscription.reset();
                               return d == 0 || (d >= 1 && d <= REAL_MAX);
                           }},
                          {"oversubscription",
                           [](L& q, double d) {
                               q.oversubscription = d;
                               q.uplinkRateBps.reset();
                               return true; // the builder refuses <= 0 with its own line
                           }},
                          {"hostDelay", Real(&L::hostDelayNs)},
                          {"linkDelay", Real(&L::linkDelayNs)},
                          {"switchLatency", Real(&L::switchLatencyNs)},
                          {"slowFraction", Real(&L::slowFraction)},
                          {"slowRate", Rate(&L::slowRateBps)}},
                         &BuildLeafSpine);
}

struct PresetDef
{
    TopoPreset info;
    std::function<GraphResult(const std::string&, const Overrides&)> build;
};

const std::vector<PresetDef>&
Registry()
{
    static const std::vector<PresetDef> defs = {
        {{"spritz-df",
          "Dragonfly p=4 a=8 h=4 g=33 (264 switches, 1056 hosts), absolute arrangement, 400 Gb/s, "
          "25 ns local/host, 500 ns global links, 500 ns switch latency (spritz spec 4.1)"},
         [](const std::string& n, const Overrides& ov) {
             DragonflyParams p;
             return Apply(p, ov, n);
         }},
        {{"spritz-sf",
          "Slim Fly MMS q=9 p=7 (162 switches, 1134 hosts, network radix 13) over GF(9), 400 Gb/s, "
          "25 ns local/host, 500 ns global links, 500 ns switch latency (spritz spec 4.1)"},
         [](const std::string& n, const Overrides& ov) {
             SlimFlyParams p;
             p.q = 9;
             p.p = 7;
             return Apply(p, ov, n);
         }},
        {{"laps-df",
          "Dragonfly 9 groups x 4 switches x 4 hosts (36 switches, 144 hosts), h=2, LAPS authors' "
          "wiring, 100 Gb/s, 1 us per link, no switch latency (laps spec 4.1)"},
         [](const std::string& n, const Overrides& ov) {
             DragonflyParams p;
             p.p = 4;
             p.a = 4;
             p.h = 2;
             p.arrangement = DfArrangement::LAPS;
             p.rateBps = 100e9;
             p.hostDelayNs = p.localDelayNs = p.globalDelayNs = 1000;
             p.switchLatencyNs = 0;
             return Apply(p, ov, n);
         }},
        {{"laps-rail",
          "Rail-optimized 8 clusters x 8 GPUs: 64 NIC switches, 8 NVLink + 8 rail switches (80 "
          "switches, 64 hosts), GPU links 200 Gb/s, fabric 100 Gb/s, 1 us per link (laps spec "
          "4.1)"},
         [](const std::string& n, const Overrides& ov) {
             RailParams p;
             return Apply(p, ov, n);
         }},
        {{"hermes-sim",
          "leaf-spine 8 leaves x 8 spines, 16 hosts per leaf (128 hosts), 10 Gb/s, 2:1 "
          "oversubscription, 1 us per link (hermes spec 5; delay [R])"},
         [](const std::string& n, const Overrides& ov) {
             LeafSpineParams p;
             p.oversubscription = 2.0;
             return Apply(p, ov, n);
         }},
        {{"hermes-testbed",
          "leaf-spine 2 leaves x 2 spines, 6 hosts per leaf, 1 Gb/s, 2 links per leaf-spine pair "
          "(3:2 oversubscription), 1 us per link (hermes spec 5; delay [R])"},
         [](const std::string& n, const Overrides& ov) {
             LeafSpineParams p;
             p.leaves = 2;
             p.spines = 2;
             p.hostsPerLeaf = 6;
             p.linksPerPair = 2;
             p.hostRateBps = 1e9;
             return Apply(p, ov, n);
         }},
        {{"df-small",
          "small Dragonfly for tests: p=2 a=4 h=2 g=9 (36 switches, 72 hosts), spritz link "
          "parameters (spritz spec 6.1 case 1)"},
         [](const std::string& n, const Overrides& ov) {
             DragonflyParams p;
             p.p = 2;
             p.a = 4;
             p.h = 2;
             return Apply(p, ov, n);
         }},
        {{"sf-small",
          "small Slim Fly for tests: q=5 (50 switches, Hoffman-Singleton graph), p=4 (200 hosts), "
          "spritz link parameters"},
         [](const std::string& n, const Overrides& ov) {
             SlimFlyParams p;
             p.q = 5;
             return Apply(p, ov, n);
         }},
    };
    return defs;
}
} // namespace

std::string
CheckTopologySize(uint64_t hosts, uint64_t switchLinks)
{
    if (hosts > MAX_TOPOLOGY_HOSTS)
    {
        return "gives " + std::to_string(hosts) + " hosts; allowed: at most " +
               std::to_string(MAX_TOPOLOGY_HOSTS) + " hosts";
    }
    if (hosts + switchLinks > MAX_TOPOLOGY_LINKS)
    {
        return "gives " + std::to_string(hosts + switchLinks) + " links (" + std::to_string(hosts) +
               " host links + " + std::to_string(switchLinks) +
               " switch links); allowed: at most " + std::to_string(MAX_TOPOLOGY_LINKS) +
               " links in all (an ns-3 link with its nodes takes about 18 kB: 2.3 GB at the limit)";
    }
    return "";
}

const std::vector<TopoPreset>&
ListPresets()
{
    static const std::vector<TopoPreset> list = [] {
        std::vector<TopoPreset> v;
        for (const auto& d : Registry())
        {
            v.push_back(d.info);
        }
        return v;
    }();
    return list;
}

GraphResult
BuildPreset(const std::string& name)
{
    return BuildPreset(name, {});
}

GraphResult
BuildPreset(const std::string& name, const std::map<std::string, std::string>& overrides)
{
    std::string known;
    for (const auto& d : Registry())
    {
        if (d.info.name == name)
        {
            return d.build(name, overrides);
        }
        known += (known.empty() ? "" : ", ") + d.info.name;
    }
    GraphResult r;
    r.error = "topology preset '" + name + "' unknown; allowed: " + known;
    return r;
}

} // namespace dcn
