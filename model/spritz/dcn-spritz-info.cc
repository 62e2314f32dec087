#include "dcn-spritz-info.h"

#include "ns3/dcn-topology.h"
#include "ns3/graph-topology-helper.h"
#include "ns3/log.h"
#include "ns3/node.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnSpritzInfo");
NS_OBJECT_ENSURE_REGISTERED(DcnSpritzInfo);

uint32_t
DcnSpritzPairPaths::Find(uint16_t ev) const
{
    const uint32_t key = uint32_t(ev) << 16;
    auto it = std::lower_bound(evSorted.begin(), evSorted.end(), key);
    if (it != evSorted.end() && (*it >> 16) == ev)
    {
        return *it & 0xffff;
    }
    return 0xffffffffU;
}

TypeId
DcnSpritzInfo::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DcnSpritzInfo").SetParent<Object>().SetGroupName("DcnLb");
    return tid;
}

DcnSpritzInfo::DcnSpritzInfo()
{
    NS_LOG_FUNCTION(this);
}

DcnSpritzInfo::~DcnSpritzInfo()
{
    NS_LOG_FUNCTION(this);
}

Ptr<DcnSpritzInfo>
DcnSpritzInfo::Get(const DcnTopology& topology, std::string* why)
{
    Ptr<DcnSpritzInfo> info = topology.GetObject<DcnSpritzInfo>();
    if (info)
    {
        return info;
    }
    info = CreateObject<DcnSpritzInfo>();
    if (!info->Init(topology, why))
    {
        return nullptr;
    }
    // As DcnRouteInfo: derived state attached by aggregation (topology logically const).
    const_cast<DcnTopology&>(topology).AggregateObject(info);
    return info;
}

const std::vector<std::string>&
DcnSpritzInfo::TopologyFamilies()
{
    static const std::vector<std::string> f = {"spritz", "df-", "sf-", "laps-df"};
    return f;
}

bool
DcnSpritzInfo::Init(const DcnTopology& topology, std::string* why)
{
    NS_LOG_FUNCTION(this);
    const auto* gt = dynamic_cast<const DcnGraphTopology*>(&topology);
    if (gt == nullptr || !topology.IsBuilt())
    {
        if (why)
        {
            *why = "Spritz routing needs a built Dragonfly or Slim Fly graph topology; topology '" +
                   topology.GetTopologyName() + "' is not one";
        }
        return false;
    }
    m_tables = std::make_unique<dcn::SpritzTables>(gt->GetMinimalRouting());
    if (!m_tables->Error().empty())
    {
        if (why)
        {
            *why = m_tables->Error();
        }
        return false;
    }
    const dcn::SwitchGraph& g = gt->GetGraph();
    NodeContainer sw = topology.GetAllSwitches();
    m_first.assign(g.NSwitches() + 1, 0);
    for (uint32_t s = 0; s < g.NSwitches(); ++s)
    {
        m_first[s] = static_cast<uint32_t>(m_iface.size());
        Ptr<Node> node = sw.Get(s);
        for (const dcn::Port& p : g.Ports(s))
        {
            const DcnLinkInfo& l = topology.GetLink(p.link);
            m_iface.push_back(l.a == node ? l.ifA : l.ifB);
        }
    }
    m_first[g.NSwitches()] = static_cast<uint32_t>(m_iface.size());
    m_hostSwitch.resize(topology.GetNHosts());
    for (uint32_t h = 0; h < topology.GetNHosts(); ++h)
    {
        m_hostSwitch[h] = topology.GetSwitchOfHost(h);
    }
    return true;
}

const DcnSpritzPairPaths&
DcnSpritzInfo::Paths(uint32_t src, uint32_t dst, double wScale)
{
    // keyed on the exact scale (a 16-bit fixed-point key let WScale 3 and 259 share an
    // entry: Spritz review s43 S7); looked up once per connection set-up
    const auto key = std::make_tuple(src, dst, wScale);
    auto it = m_pairs.find(key);
    if (it != m_pairs.end())
    {
        return it->second;
    }
    DcnSpritzPairPaths& pp = m_pairs[key];
    std::vector<dcn::SpritzEntry> es = m_tables->Enumerate(src, dst);
    pp.weighted = dcn::SpritzTables::Weights(es, wScale);
    for (uint32_t i = 0; i < es.size(); ++i)
    {
        pp.evs.push_back(es[i].Ev());
        pp.latencyPs.push_back(es[i].latencyPs);
        pp.minimal.push_back(es[i].minimal);
        pp.evSorted.push_back((uint32_t(es[i].Ev()) << 16) | i);
    }
    std::sort(pp.evSorted.begin(), pp.evSorted.end());
    m_maxSeen = std::max(m_maxSeen, pp.Size());
    return pp;
}

} // namespace ns3
