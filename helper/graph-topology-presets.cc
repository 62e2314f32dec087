// Registries of DcnGraphTopology: routing policy names and topology presets
// (split from graph-topology-helper.cc to keep files short).
#include "graph-topology-helper.h"

#include "ns3/dcn-options.h"
#include "ns3/dcn-topo-builders.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

namespace ns3
{

// ---- registries ----

const std::vector<std::string>&
DcnRoutingPolicies::Names()
{
    static const std::vector<std::string> n =
        {"minimal", "ecmp", "spray", "valiant", "valiant-t", "ugal-l", "source", "spritz"};
    return n;
}

std::string
DcnRoutingPolicies::TypeIdName(const std::string& name)
{
    static const std::map<std::string, std::string> m = {
        {"minimal", "ns3::DcnMinimalForwardingPolicy"},
        {"ecmp", "ns3::DcnEcmpForwardingPolicy"},
        {"spray", "ns3::DcnSprayForwardingPolicy"},
        {"valiant", "ns3::DcnValiantForwardingPolicy"},
        {"valiant-t", "ns3::DcnValiantTablesForwardingPolicy"},
        {"ugal-l", "ns3::DcnUgalForwardingPolicy"},
        {"source", "ns3::DcnSourceRouteForwardingPolicy"},
        {"spritz", "ns3::DcnSpritzForwardingPolicy"},
    };
    auto it = m.find(name);
    if (it == m.end())
    {
        std::string all;
        for (const auto& n : Names())
        {
            all += (all.empty() ? "" : ", ") + n;
        }
        throw DcnOptionError("option --routing: '" + name + "' unknown; allowed: " + all);
    }
    return it->second;
}

std::vector<std::string>
DcnTopologyPresets::Names()
{
    std::vector<std::string> v;
    for (const auto& p : dcn::ListPresets())
    {
        v.push_back(p.name);
    }
    return v;
}

std::map<std::string, std::string>
DcnTopologyPresets::ParseOverrides(const std::string& text, const std::string& option)
{
    std::map<std::string, std::string> ov;
    size_t pos = 0;
    while (pos < text.size())
    {
        size_t end = text.find(',', pos);
        std::string item = text.substr(pos, end == std::string::npos ? end : end - pos);
        size_t eq = item.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
        {
            throw DcnOptionError("option " + option + ": '" + item +
                                 "' is not key=value; allowed e.g. p=2,a=4,h=2");
        }
        if (!ov.emplace(item.substr(0, eq), item.substr(eq + 1)).second)
        {
            throw DcnOptionError("option " + option + ": key '" + item.substr(0, eq) +
                                 "' given twice");
        }
        if (end == std::string::npos)
        {
            break;
        }
        pos = end + 1;
        if (pos == text.size())
        {
            throw DcnOptionError("option " + option + ": value '" + text +
                                 "' ends with ','; allowed: key=value items separated by ',' "
                                 "(no empty item)");
        }
    }
    return ov;
}

dcn::SwitchGraph
DcnTopologyPresets::Graph(const std::string& name,
                          const std::map<std::string, std::string>& overrides)
{
    dcn::GraphResult r = dcn::BuildPreset(name, overrides);
    if (!r.Ok())
    {
        // the preset's own values build: the fault is in the overrides
        const bool overridesFault = !overrides.empty() && dcn::BuildPreset(name, {}).Ok();
        throw DcnOptionError((overridesFault ? "option --topoParams: " : "option --topo: ") +
                             r.error);
    }
    return std::move(r.graph);
}

Ptr<DcnGraphTopology>
DcnTopologyPresets::Create(const std::string& name,
                           const std::map<std::string, std::string>& overrides,
                           const std::string& routing,
                           uint32_t nonMinimalSlack)
{
    return Create(Graph(name, overrides), routing, nonMinimalSlack);
}

Ptr<DcnGraphTopology>
DcnTopologyPresets::Create(const dcn::SwitchGraph& g,
                           const std::string& routing,
                           uint32_t nonMinimalSlack)
{
    // "global": ns-3's Ipv4GlobalRouting instead of our switches (comparisons)
    const bool global = routing == "global";
    std::string tid = DcnRoutingPolicies::TypeIdName(global ? "minimal" : routing);
    if (nonMinimalSlack > 8)
    {
        throw DcnOptionError("NonMinimalSlack=" + std::to_string(nonMinimalSlack) +
                             "; allowed [0, 8]");
    }
    if (routing == "spritz" && g.fam.family != "dragonfly" && g.fam.family != "slimfly")
    {
        throw DcnOptionError(
            "option --routing: 'spritz' needs a Dragonfly or Slim Fly topology; '" + g.name +
            "' is " + g.fam.family);
    }
    Ptr<DcnGraphTopology> t = CreateObject<DcnGraphTopology>();
    t->SetAttribute("ForwardingPolicy", StringValue(tid));
    if (global)
    {
        t->SetAttribute("Routing", StringValue("global"));
    }
    t->SetAttribute("NonMinimalSlack", UintegerValue(nonMinimalSlack));
    t->SetGraph(g);
    t->Build();
    return t;
}

} // namespace ns3
