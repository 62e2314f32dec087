// The preset registry (issue 11): one place naming every switch-graph preset.
#include "dcn-topo-builders.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>

namespace dcn
{

namespace
{

using Overrides = std::map<std::string, std::string>;

/**
 * A number as --topoParams writes it, strictly (as the typed option parsers): decimal
 * digits with an optional fraction and exponent ("400000000000", "4e11", "0.5",
 * "25.5"); no sign, no spaces, no hexadecimal, no "inf"/"nan".  False if not one.
 */
bool
ParseReal(const std::string& v, double* out)
{
    size_t i = 0;
    auto digits = [&] {
        const size_t b = i;
        while (i < v.size() && std::isdigit(static_cast<unsigned char>(v[i])))
        {
            ++i;
        }
        return i - b;
    };
    size_t n = digits();
    if (i < v.size() && v[i] == '.')
    {
        ++i;
        n += digits();
    }
    if (n == 0)
    {
        return false;
    }
    if (i < v.size() && (v[i] == 'e' || v[i] == 'E'))
    {
        ++i;
        if (i < v.size() && (v[i] == '+' || v[i] == '-'))
        {
            ++i;
        }
        if (digits() == 0)
        {
            return false;
        }
    }
    if (i != v.size())
    {
        return false;
    }
    const double d = std::strtod(v.c_str(), nullptr);
    if (!std::isfinite(d))
    {
        return false;
    }
    *out = d;
    return true;
}

/**
 * One key's setter: stores the value's text in the parameter struct and returns ""
 * or what is allowed for this key (the error line names the key and the value).
 */
template <typename P>
using Setter = std::function<std::string(P&, const std::string&)>;

/**
 * Apply key=value overrides to a parameter struct through a table of
 * (key, setter); unknown keys and malformed or out-of-range values give a one-line error.
 */
template <typename P>
GraphResult
ApplyTable(P& p,
           const Overrides& ov,
           const std::string& name,
           const std::vector<std::pair<std::string, Setter<P>>>& keys,
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
        const std::string allowed = it->second(p, v);
        if (!allowed.empty())
        {
            GraphResult r;
            r.error = "topology '" + name + "': " + k + "=" + v +
                      " is not a valid value; allowed: " + allowed;
            return r;
        }
    }
    return build(p, name);
}

/** Count setter: decimal digits only (no sign, fraction or exponent), at most 2^32-1. */
template <typename P>
Setter<P>
U32(uint32_t P::*m)
{
    return [m](P& p, const std::string& v) {
        const std::string allowed = "a count, an integer 0..4294967295 written in digits";
        if (v.empty() || v.size() > 10 || !std::all_of(v.begin(), v.end(), [](char c) {
                return std::isdigit(static_cast<unsigned char>(c));
            }))
        {
            return allowed;
        }
        const uint64_t u = std::stoull(v); // <= 10 digits: no overflow
        if (u > UINT32_MAX)
        {
            return allowed;
        }
        p.*m = static_cast<uint32_t>(u);
        return std::string();
    };
}

/** Largest rate (bit/s) or delay (ns) a preset takes: 1 Pb/s, 11.6 days. */
constexpr double REAL_MAX = 1e15;

/** A number setter: \p check returns "" or what is allowed for a parsed number. */
template <typename P>
Setter<P>
Number(std::function<std::string(P&, double)> check)
{
    return [check](P& p, const std::string& v) {
        double d = 0;
        if (!ParseReal(v, &d))
        {
            const std::string what = check(p, -1); // the key's allowed text
            return "a decimal number (digits, optional fraction and exponent), " + what;
        }
        return check(p, d);
    };
}

/** Delay setter (ns): in [0, REAL_MAX], a whole number of picoseconds (ns-3's links). */
template <typename P>
Setter<P>
Delay(double P::*m)
{
    return Number<P>([m](P& p, double d) {
        const double ps = d * 1000.0;
        if (!(d >= 0 && d <= REAL_MAX) || std::abs(ps - std::round(ps)) > 1e-6 * std::max(1.0, ps))
        {
            return std::string("a delay in ns, 0..1e15, a whole number of ps (e.g. 25, 0.5)");
        }
        p.*m = d;
        return std::string();
    });
}

/** Plain real setter: in [0, REAL_MAX] (fractions). */
template <typename P>
Setter<P>
Real(double P::*m)
{
    return Number<P>([m](P& p, double d) {
        if (!(d >= 0 && d <= REAL_MAX))
        {
            return std::string("a number in [0, 1e15]");
        }
        p.*m = d;
        return std::string();
    });
}

/**
 * Rate setter (bit/s): 0 (the builder refuses it, or takes its default where 0 means
 * one) or a whole number of bit/s in [1, REAL_MAX]; a fraction of a bit/s would be
 * rounded away by the link's integer rate.
 */
template <typename P>
Setter<P>
Rate(double P::*m)
{
    return Number<P>([m](P& p, double d) {
        if (!(d == 0 || (d >= 1 && d <= REAL_MAX && d == std::floor(d))))
        {
            return std::string("a rate in whole bit/s, 0 or 1..1e15 (e.g. 400000000000 or 4e11)");
        }
        p.*m = d;
        return std::string();
    });
}

GraphResult
Apply(DragonflyParams& p, const Overrides& ov, const std::string& n)
{
    return ApplyTable<DragonflyParams>(
        p,
        ov,
        n,
        {{"p", U32(&DragonflyParams::p)},
         {"a", U32(&DragonflyParams::a)},
         {"h", U32(&DragonflyParams::h)},
         {"g", U32(&DragonflyParams::g)},
         {"rate", Rate(&DragonflyParams::rateBps)},
         {"hostDelay", Delay(&DragonflyParams::hostDelayNs)},
         {"localDelay", Delay(&DragonflyParams::localDelayNs)},
         {"globalDelay", Delay(&DragonflyParams::globalDelayNs)},
         {"switchLatency", Delay(&DragonflyParams::switchLatencyNs)}},
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
                                      {"hostDelay", Delay(&SlimFlyParams::hostDelayNs)},
                                      {"localDelay", Delay(&SlimFlyParams::localDelayNs)},
                                      {"globalDelay", Delay(&SlimFlyParams::globalDelayNs)},
                                      {"switchLatency", Delay(&SlimFlyParams::switchLatencyNs)}},
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
                                   {"delay", Delay(&RailParams::delayNs)},
                                   {"switchLatency", Delay(&RailParams::switchLatencyNs)}},
                                  &BuildRail);
}

GraphResult
Apply(LeafSpineParams& p, const Overrides& ov, const std::string& n)
{
    using L = LeafSpineParams;
    // uplinkRate and oversubscription set the same rate: one given replaces the preset's
    // other; both given are kept, and the builder refuses them if they disagree
    if (ov.count("uplinkRate") && !ov.count("oversubscription"))
    {
        p.oversubscription.reset();
    }
    if (ov.count("oversubscription") && !ov.count("uplinkRate"))
    {
        p.uplinkRateBps.reset();
    }
    return ApplyTable<L>(p,
                         ov,
                         n,
                         {{"leaves", U32(&L::leaves)},
                          {"spines", U32(&L::spines)},
                          {"hostsPerLeaf", U32(&L::hostsPerLeaf)},
                          {"linksPerPair", U32(&L::linksPerPair)},
                          {"hostRate", Rate(&L::hostRateBps)},
                          {"uplinkRate", Number<L>([](L& q, double d) {
                               if (!(d == 0 || (d >= 1 && d <= REAL_MAX && d == std::floor(d))))
                               {
                                   return std::string("a rate in whole bit/s, 0 or 1..1e15");
                               }
                               q.uplinkRateBps = d;
                               return std::string();
                           })},
                          {"oversubscription", Number<L>([](L& q, double d) {
                               if (d < 0)
                               {
                                   return std::string("a ratio > 0 (e.g. 2 for 2:1)");
                               }
                               q.oversubscription = d;
                               return std::string(); // the builder refuses 0 with its own line
                           })},
                          {"hostDelay", Delay(&L::hostDelayNs)},
                          {"linkDelay", Delay(&L::linkDelayNs)},
                          {"switchLatency", Delay(&L::switchLatencyNs)},
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
