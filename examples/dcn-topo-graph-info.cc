/*
 * dcn-topo-graph-info: builds one switch-graph preset of the ns-3-free topology layer
 * (model/topology/graph/) and prints its structure, its minimal-routing state and the
 * size and build time of its path tables (Spritz per-source tables for Dragonfly and
 * Slim Fly, LAPS waypoint paths otherwise).  No simulation is run; the BENCH line
 * reports zero events so that bench/run.sh can time the build (wall time, peak RSS).
 *
 *   ./build/dcn-topo-graph-info --topo=spritz-df
 *   ./build/dcn-topo-graph-info --list
 *   ./build/dcn-topo-graph-info --topo=laps-df --dot=laps-df.dot && dot -Tpng laps-df.dot -o x.png
 *   ./build/dcn-topo-graph-info --topo=spritz-df --topoParams=p=10,a=20,h=10 --sources=1
 *       (one endpoint's Spritz table at ~40k endpoints: spritz spec 1.3 / 6.2 case 9)
 *   ./build/dcn-topo-graph-info --topo=laps-rail --tables=0 --cdg=minimal --uniformLoad=minimal
 *       (static checks, dcn-graph-checks.h: channel dependency cycle = PFC deadlock
 *       risk; all-to-all utilisation per unit load and the saturation load)
 */
#include "ns3/dcn-example-args.h"
#include "ns3/dcn-graph-checks.h"
#include "ns3/dcn-graph-dot.h"
#include "ns3/dcn-graph-routing.h"
#include "ns3/dcn-options.h"
#include "ns3/dcn-spritz-tables.h"
#include "ns3/dcn-topo-builders.h"
#include "ns3/graph-topology-helper.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>

using namespace dcn;

namespace
{
double
Since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string
PathText(const SwitchGraph& g, const GraphPath& p)
{
    std::string s;
    for (uint32_t x : p.switches)
    {
        s += (s.empty() ? "" : " ") + g.switches[x].name;
    }
    return s;
}

/** "n path" or "n paths". */
std::string
Paths(uint64_t n)
{
    return std::to_string(n) + (n == 1 ? " path" : " paths");
}

/** "; LapsPaths = all minimal paths on <family>" where LapsPaths has no waypoint set. */
std::string
SetNote(const SwitchGraph& g, PathSet set)
{
    const bool waypoints = g.fam.family == "dragonfly" || g.fam.family == "rail";
    return set == PathSet::LAPS && !waypoints ? "; LapsPaths = all minimal paths on " + g.fam.family
                                              : "";
}

void
PrintCdg(const MinimalRouting& mr, PathSet set)
{
    const SwitchGraph& g = mr.Graph();
    const auto t0 = std::chrono::steady_clock::now();
    const CdgResult r = CheckChannelDependencies(mr, set);
    std::cout << "cdg (" << ToString(set) << " paths" << SetNote(g, set) << "): " << r.pairs
              << " host-switch pairs, " << Paths(r.paths) << ", " << r.usedChannels << " of "
              << r.channels << " switch channels used, " << r.dependencies << " dependencies: ";
    if (!r.cyclic)
    {
        std::cout << "ACYCLIC (no PFC deadlock from this path set)";
    }
    else
    {
        std::cout << "CYCLIC (" << r.channelsOnCycles
                  << " channels on cycles: PFC deadlock possible with one lossless class)";
    }
    std::cout << ", " << Since(t0) << " s\n";
    if (!r.cyclic)
    {
        return;
    }
    std::cout << "  cycle of " << r.cycle.size() << " channels: " << CycleText(g, r.cycle)
              << " => (back to the first)\n";
    for (size_t i = 0; i < r.cycle.size(); ++i)
    {
        const uint32_t c2 = r.cycle[(i + 1) % r.cycle.size()];
        std::cout << "    " << ChannelName(g, r.cycle[i]) << " then " << ChannelName(g, c2)
                  << ": path " << PathText(g, r.witnesses[i]) << "\n";
    }
}

void
PrintUniformLoad(const MinimalRouting& mr, PathSet set)
{
    const auto t0 = std::chrono::steady_clock::now();
    const LoadProfile r = UniformLoad(mr, set);
    std::cout << "uniform all-to-all load (" << ToString(set) << " paths"
              << SetNote(mr.Graph(), set) << ", " << r.split
              << "), utilisation per unit host load:";
    if (r.maxIndex == NONE)
    {
        std::cout << " no links\n";
        return;
    }
    const LinkLoad& m = r.links[r.maxIndex];
    std::cout << " max " << std::setprecision(4) << r.maxUtil << " on " << m.name << " (" << m.cls
              << "); saturation load " << r.saturation << ", " << Since(t0) << " s\n";
    size_t w = 5;
    for (const auto& c : r.classes)
    {
        w = std::max(w, c.cls.size());
    }
    std::cout << "  " << std::left << std::setw(w) << "class" << std::right << std::setw(7)
              << "links" << std::setw(10) << "max" << std::setw(10) << "mean" << std::setw(12)
              << "saturation"
              << "\n";
    for (const auto& c : r.classes)
    {
        std::cout << "  " << std::left << std::setw(w) << c.cls << std::right << std::setw(7)
                  << c.links << std::setw(10) << c.maxUtil << std::setw(10) << c.meanUtil
                  << std::setw(12) << (c.maxUtil > 0 ? 1.0 / c.maxUtil : 0.0) << "\n";
    }
    std::cout << std::setprecision(6);
}
} // namespace

int
main(int argc, char** argv)
{
    std::string topo = "spritz-df";
    bool list = false;
    bool tables = true;
    std::string dot;
    bool dotHosts = true;
    std::vector<std::string> names;
    for (const auto& p : ListPresets())
    {
        names.push_back(p.name);
    }
    ns3::DcnOptions opts("dcn-topo-graph-info",
                         "Structure, routing state and path-table size of a switch-graph "
                         "preset (no simulation).  Exit status 2: bad input (one line).");
    opts.Choice("topo", "Switch-graph preset (see --list)", topo, names);
    opts.Bool("list", "List the presets and exit", list);
    opts.Bool("tables", "Build every source switch's path table", tables);
    std::string topoParams;
    uint32_t sources = 0;
    opts.Text("topoParams",
              "Preset overrides key=value,... (e.g. p=10,a=20,h=10 for the ~40k-endpoint "
              "Dragonfly of the Spritz paper's Fig. 3); default none",
              topoParams);
    opts.Unsigned("sources",
                  "Build the path tables of the first N source switches only (0 = all); "
                  "1 measures one endpoint's table",
                  sources)
        .Range(0, 1u << 24);
    opts.Text("dot", "Write the topology as Graphviz DOT to this file", dot);
    opts.Bool("dotHosts", "Draw hosts in the DOT file", dotHosts);
    opts.Check([&] { return ns3::dcnargs::CheckOutputPrefix("dot", dot, ""); });
    std::string cdg = "none";
    std::string uniformLoad = "none";
    opts.Choice("cdg",
                "Channel dependency graph cycle check (PFC deadlock risk) of a path set over "
                "every host-switch pair: minimal (all minimal paths: ECMP) or laps (LAPS "
                "waypoint paths)",
                cdg,
                {"none", "minimal", "laps"});
    opts.Choice("uniformLoad",
                "Uniform all-to-all load profile of a path set: link utilisation per unit host "
                "load, saturation load; minimal = per-hop even ECMP split, laps = even over "
                "the LAPS paths",
                uniformLoad,
                {"none", "minimal", "laps"});
    opts.Parse(argc, argv);
    if (list)
    {
        for (const auto& p : ListPresets())
        {
            std::cout << p.name << "  " << p.description << "\n";
        }
        return 0;
    }
    auto t0 = std::chrono::steady_clock::now();
    std::map<std::string, std::string> overrides;
    try
    {
        // the parser of every example: key=value items, a key given twice refused
        overrides = ns3::DcnTopologyPresets::ParseOverrides(topoParams);
    }
    catch (const ns3::DcnOptionError& e)
    {
        ns3::DcnOptions::Exit("dcn-topo-graph-info", e.what());
    }
    GraphResult r = overrides.empty() ? BuildPreset(topo) : BuildPreset(topo, overrides);
    if (!r.Ok())
    {
        ns3::DcnOptions::Exit(
            "dcn-topo-graph-info",
            std::string(overrides.empty() ? "option --topo: " : "option --topoParams: ") + r.error);
    }
    const SwitchGraph& g = r.graph;
    const double tBuild = Since(t0);
    GraphStats st = Analyze(g);
    std::map<std::string, uint32_t> kinds;
    for (const auto& l : g.links)
    {
        kinds[ToString(l.kind)]++;
    }
    std::cout << "topology " << g.name << " (" << g.fam.family << "): " << g.NSwitches()
              << " switches, " << g.NHosts() << " hosts, " << g.NLinks() << " switch links (";
    for (const auto& [k, n] : kinds)
    {
        std::cout << " " << k << "=" << n;
    }
    std::cout << " ), radix " << st.minRadix << ".." << st.maxRadix << ", diameter " << st.diameter
              << (st.connected ? "" : " (DISCONNECTED)") << "\n";
    if (!dot.empty())
    {
        std::ofstream out(dot);
        DotOptions o;
        o.hosts = dotHosts;
        out << ToDot(g, o);
        if (!out)
        {
            std::cerr << "dcn-topo-graph-info: --dot: cannot write '" << dot << "'\n";
            return 1;
        }
        std::cout << "wrote " << dot << "\n";
    }
    t0 = std::chrono::steady_clock::now();
    MinimalRouting mr(g);
    const double tRouting = Since(t0);
    std::cout << "minimal routing: default table " << g.NSwitches() << "^2 ports, built in "
              << tRouting << " s\n";
    t0 = std::chrono::steady_clock::now();
    uint64_t entries = 0;
    uint32_t lo = ~0u;
    uint32_t hi = 0;
    size_t maxBytes = 0;
    if (tables && (g.fam.family == "dragonfly" || g.fam.family == "slimfly"))
    {
        SpritzTables t(mr);
        const uint32_t nSrc = sources > 0 ? std::min(sources, g.NSwitches()) : g.NSwitches();
        size_t maxEntries = 0;
        for (uint32_t s = 0; s < nSrc; ++s)
        {
            SpritzSourceTable tab(t, s);
            entries += tab.TotalEntries();
            maxBytes = std::max(maxBytes, tab.MemoryBytes());
            maxEntries = std::max(maxEntries, tab.TotalEntries());
            for (uint32_t d = 0; d < g.NSwitches(); ++d)
            {
                if (d != s)
                {
                    lo = std::min(lo, tab.Count(d));
                    hi = std::max(hi, tab.Count(d));
                }
            }
        }
        std::cout << "spritz tables (" << nSrc << " of " << g.NSwitches()
                  << " source switches): " << entries << " entries, " << lo << ".." << hi
                  << " per switch pair, <= " << maxBytes << " B per source switch, built in "
                  << Since(t0) << " s\n";
        // one endpoint holds its switch's table (spritz spec 1.3): measured in memory
        // (SpritzEntry, latency and class kept) and as the paper's 3 B per entry
        const double mib = 1024.0 * 1024.0;
        std::cout << "spritz endpoint memory: " << maxEntries << " entries; in memory "
                  << maxBytes / mib << " MiB (" << sizeof(SpritzEntry)
                  << " B per entry + offsets); at 3 B per entry " << maxEntries * 3 / mib
                  << " MiB; paper formula max x 3 B x switches = " << hi << " x 3 x "
                  << g.NSwitches() << " = " << double(hi) * 3 * g.NSwitches() / mib << " MiB\n";
    }
    else if (tables)
    {
        for (uint32_t s = 0; s < g.NSwitches(); ++s)
        {
            for (uint32_t d = 0; d < g.NSwitches(); ++d)
            {
                if (s != d && g.switches[s].nHosts > 0 && g.switches[d].nHosts > 0)
                {
                    const auto n = static_cast<uint32_t>(mr.LapsPaths(s, d).size());
                    entries += n;
                    lo = std::min(lo, n);
                    hi = std::max(hi, n);
                }
            }
        }
        std::cout << "waypoint paths: " << Paths(entries) << ", " << lo << ".." << hi
                  << " per host-switch pair, built in " << Since(t0) << " s\n";
    }
    const auto pathSet = [](const std::string& v) {
        return v == "laps" ? PathSet::LAPS : PathSet::MINIMAL;
    };
    if (cdg != "none")
    {
        PrintCdg(mr, pathSet(cdg));
    }
    if (uniformLoad != "none")
    {
        PrintUniformLoad(mr, pathSet(uniformLoad));
    }
    std::cout << "graph built in " << tBuild << " s\n";
    std::cout << "BENCH events=0 packet_hops=0\n";
    return 0;
}
