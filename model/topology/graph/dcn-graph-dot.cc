#include "dcn-graph-dot.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

namespace dcn
{

std::string
RateLabel(double bps)
{
    const char* unit = "";
    double v = bps;
    if (bps >= 1e12)
    {
        v = bps / 1e12;
        unit = "T";
    }
    else if (bps >= 1e9)
    {
        v = bps / 1e9;
        unit = "G";
    }
    else if (bps >= 1e6)
    {
        v = bps / 1e6;
        unit = "M";
    }
    else if (bps >= 1e3)
    {
        v = bps / 1e3;
        unit = "k";
    }
    std::ostringstream os;
    os << std::round(v * 100) / 100 << unit;
    return os.str();
}

namespace
{
const char*
Shape(SwitchRole r)
{
    switch (r)
    {
    case SwitchRole::SPINE:
    case SwitchRole::RAIL:
        return "box3d";
    case SwitchRole::NVLINK:
        return "hexagon";
    default:
        return "box";
    }
}

const char*
Colour(SwitchRole r)
{
    switch (r)
    {
    case SwitchRole::ROUTER:
        return "lightblue";
    case SwitchRole::LEAF:
    case SwitchRole::NIC:
        return "palegreen";
    case SwitchRole::SPINE:
    case SwitchRole::RAIL:
        return "gold";
    case SwitchRole::NVLINK:
        return "plum";
    }
    return "white";
}
} // namespace

std::string
ToDot(const SwitchGraph& g, const DotOptions& o)
{
    std::ostringstream os;
    os << "graph \"" << g.name << "\" {\n";
    os << "  graph [overlap=false, splines=true, label=\"" << g.name << " (" << g.fam.family
       << "): " << g.NSwitches() << " switches, " << g.NHosts() << " hosts\"];\n";
    os << "  node [style=filled, fontsize=10];\n";
    const bool grouped = o.clusters && (g.fam.family == "dragonfly" || g.fam.family == "slimfly" ||
                                        g.fam.family == "rail");
    // Switches (and their hosts), clustered by group where it means something.
    std::map<uint32_t, std::vector<uint32_t>> groups;
    for (uint32_t s = 0; s < g.NSwitches(); ++s)
    {
        const bool inCluster =
            grouped && !(g.fam.family == "rail" && g.switches[s].role == SwitchRole::RAIL);
        groups[inCluster ? g.switches[s].group : ~0u].push_back(s);
    }
    const std::vector<bool> hostFailed = [&] {
        std::vector<bool> v(g.NHosts(), false);
        for (uint32_t h : o.failedHosts)
        {
            if (h < v.size())
            {
                v[h] = true;
            }
        }
        return v;
    }();
    for (const auto& [grp, members] : groups)
    {
        const bool cluster = grp != ~0u;
        const std::string ind = cluster ? "    " : "  ";
        if (cluster)
        {
            os << "  subgraph cluster_" << grp << " {\n    label=\"group " << grp << "\";\n";
        }
        for (uint32_t s : members)
        {
            const auto& sw = g.switches[s];
            os << ind << "\"" << sw.name << "\" [shape=" << Shape(sw.role)
               << ", fillcolor=" << Colour(sw.role) << "];\n";
            if (!o.hosts)
            {
                continue;
            }
            for (uint32_t i = 0; i < sw.nHosts; ++i)
            {
                const uint32_t h = g.FirstHost(s) + i;
                os << ind << "\"h" << h << "\" [shape=circle, width=0.3, fixedsize=true, "
                   << "fontsize=7, fillcolor=white];\n";
                os << ind << "\"h" << h << "\" -- \"" << sw.name << "\"";
                std::string attrs;
                if (o.rateLabels)
                {
                    attrs = "label=\"" + RateLabel(sw.hostRateBps) + "\", fontsize=7";
                }
                if (hostFailed[h])
                {
                    attrs += std::string(attrs.empty() ? "" : ", ") +
                             "style=dashed, color=red, xlabel=\"failed\"";
                }
                os << (attrs.empty() ? "" : " [" + attrs + "]") << ";\n";
            }
        }
        if (cluster)
        {
            os << "  }\n";
        }
    }
    for (const auto& l : g.links)
    {
        os << "  \"" << g.switches[l.a].name << "\" -- \"" << g.switches[l.b].name << "\"";
        std::string attrs = "tooltip=\"" + l.name + " " + ToString(l.kind) + "\"";
        if (o.rateLabels)
        {
            attrs += ", label=\"" + RateLabel(l.rateBps) + "\", fontsize=8";
        }
        if (l.kind == LinkKind::GLOBAL)
        {
            attrs += ", penwidth=1.5";
        }
        if (l.id < o.failedLinks.size() && o.failedLinks[l.id])
        {
            attrs += ", style=dashed, color=red, xlabel=\"failed\"";
        }
        os << " [" << attrs << "];\n";
    }
    os << "}\n";
    return os.str();
}

} // namespace dcn
