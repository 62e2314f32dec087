// The preset registry (issue 11): one place naming every switch-graph preset.
#include "dcn-topo-builders.h"

#include <functional>

namespace dcn
{

namespace
{
struct PresetDef
{
    TopoPreset info;
    std::function<GraphResult(const std::string&)> build;
};

const std::vector<PresetDef>&
Registry()
{
    static const std::vector<PresetDef> defs = {
        {{"spritz-df",
          "Dragonfly p=4 a=8 h=4 g=33 (264 switches, 1056 hosts), absolute arrangement, 400 Gb/s, "
          "25 ns local/host, 500 ns global links, 500 ns switch latency (spritz spec 4.1)"},
         [](const std::string& n) { return BuildDragonfly(DragonflyParams{}, n); }},
        {{"spritz-sf",
          "Slim Fly MMS q=9 p=7 (162 switches, 1134 hosts, network radix 13) over GF(9), 400 Gb/s, "
          "25 ns local/host, 500 ns global links, 500 ns switch latency (spritz spec 4.1)"},
         [](const std::string& n) {
             SlimFlyParams p;
             p.q = 9;
             p.p = 7;
             return BuildSlimFly(p, n);
         }},
        {{"laps-df",
          "Dragonfly 9 groups x 4 switches x 4 hosts (36 switches, 144 hosts), h=2, LAPS authors' "
          "wiring, 100 Gb/s, 1 us per link, no switch latency (laps spec 4.1)"},
         [](const std::string& n) {
             DragonflyParams p;
             p.p = 4;
             p.a = 4;
             p.h = 2;
             p.arrangement = DfArrangement::LAPS;
             p.rateBps = 100e9;
             p.hostDelayNs = p.localDelayNs = p.globalDelayNs = 1000;
             p.switchLatencyNs = 0;
             return BuildDragonfly(p, n);
         }},
        {{"laps-rail",
          "Rail-optimized 8 clusters x 8 GPUs: 64 NIC switches, 8 NVLink + 8 rail switches (80 "
          "switches, 64 hosts), GPU links 200 Gb/s, fabric 100 Gb/s, 1 us per link (laps spec "
          "4.1)"},
         [](const std::string& n) { return BuildRail(RailParams{}, n); }},
        {{"hermes-sim",
          "leaf-spine 8 leaves x 8 spines, 16 hosts per leaf (128 hosts), 10 Gb/s, 2:1 "
          "oversubscription, 1 us per link (hermes spec 5; delay [R])"},
         [](const std::string& n) {
             LeafSpineParams p;
             p.oversubscription = 2.0;
             return BuildLeafSpine(p, n);
         }},
        {{"hermes-testbed",
          "leaf-spine 2 leaves x 2 spines, 6 hosts per leaf, 1 Gb/s, 2 links per leaf-spine pair "
          "(3:2 oversubscription), 1 us per link (hermes spec 5; delay [R])"},
         [](const std::string& n) {
             LeafSpineParams p;
             p.leaves = 2;
             p.spines = 2;
             p.hostsPerLeaf = 6;
             p.linksPerPair = 2;
             p.hostRateBps = 1e9;
             return BuildLeafSpine(p, n);
         }},
        {{"df-small",
          "small Dragonfly for tests: p=2 a=4 h=2 g=9 (36 switches, 72 hosts), spritz link "
          "parameters (spritz spec 6.1 case 1)"},
         [](const std::string& n) {
             DragonflyParams p;
             p.p = 2;
             p.a = 4;
             p.h = 2;
             return BuildDragonfly(p, n);
         }},
        {{"sf-small",
          "small Slim Fly for tests: q=5 (50 switches, Hoffman-Singleton graph), p=4 (200 hosts), "
          "spritz link parameters"},
         [](const std::string& n) {
             SlimFlyParams p;
             p.q = 5;
             return BuildSlimFly(p, n);
         }},
    };
    return defs;
}
} // namespace

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
    std::string known;
    for (const auto& d : Registry())
    {
        if (d.info.name == name)
        {
            return d.build(name);
        }
        known += (known.empty() ? "" : ", ") + d.info.name;
    }
    GraphResult r;
    r.error = "topology preset '" + name + "' unknown; allowed: " + known;
    return r;
}

} // namespace dcn
