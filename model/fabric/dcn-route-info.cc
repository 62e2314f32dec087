#include "dcn-route-info.h"

#include "ns3/dcn-topology.h"
#include "ns3/log.h"
#include "ns3/node.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/visitors.hpp>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnRouteInfo");
NS_OBJECT_ENSURE_REGISTERED(DcnRouteInfo);

TypeId
DcnRouteInfo::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DcnRouteInfo").SetParent<Object>().SetGroupName("DcnLb");
    return tid;
}

DcnRouteInfo::DcnRouteInfo()
{
    NS_LOG_FUNCTION(this);
}

DcnRouteInfo::~DcnRouteInfo()
{
    NS_LOG_FUNCTION(this);
}

Ptr<DcnRouteInfo>
DcnRouteInfo::Get(const DcnTopology& topology, const std::vector<uint32_t>& groups)
{
    Ptr<DcnRouteInfo> info = topology.GetObject<DcnRouteInfo>();
    if (!info)
    {
        info = CreateObject<DcnRouteInfo>();
        info->Init(topology, groups);
        // Aggregation is how ns-3 attaches shared state to an object; the
        // topology is logically const here (the info is derived from it).
        const_cast<DcnTopology&>(topology).AggregateObject(info);
    }
    return info;
}

void
DcnRouteInfo::Init(const DcnTopology& t, const std::vector<uint32_t>& groups)
{
    NS_LOG_FUNCTION(this);
    NodeContainer sw = t.GetAllSwitches();
    m_n = sw.GetN();
    NS_ABORT_MSG_IF(m_n >= 65536, "DcnRouteInfo: " << m_n << " switches; allowed < 65536");
    uint32_t maxId = 0;
    for (uint32_t i = 0; i < m_n; ++i)
    {
        maxId = std::max(maxId, sw.Get(i)->GetId());
    }
    m_nodeToSwitch.assign(maxId + 1, 0xffffffffU);
    for (uint32_t i = 0; i < m_n; ++i)
    {
        m_nodeToSwitch[sw.Get(i)->GetId()] = i;
    }
    m_hostSwitch.resize(t.GetNHosts());
    for (uint32_t h = 0; h < t.GetNHosts(); ++h)
    {
        m_hostSwitch[h] = t.GetSwitchOfHost(h);
    }
    m_grouped = !groups.empty();
    m_group.resize(m_n);
    m_nGroups = 0;
    for (uint32_t s = 0; s < m_n; ++s)
    {
        m_group[s] = m_grouped ? groups[s] : s;
        m_nGroups = std::max(m_nGroups, m_group[s] + 1);
    }
    m_grouped = m_grouped && m_nGroups < m_n;
    m_members.assign(m_nGroups, {});
    for (uint32_t s = 0; s < m_n; ++s)
    {
        m_members[m_group[s]].push_back(s);
    }
    Rebuild(t);
}

uint32_t
DcnRouteInfo::SwitchIndexOf(const Node& n) const
{
    uint32_t id = n.GetId();
    return id < m_nodeToSwitch.size() ? m_nodeToSwitch[id] : 0xffffffffU;
}

void
DcnRouteInfo::Rebuild(const DcnTopology& t)
{
    NS_LOG_FUNCTION(this);
    ++m_builds;
    typedef boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS> G;
    G g(m_n);
    // (switch, neighbour, egress interface) over routed switch links
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> nbr(m_n);
    for (const DcnLinkInfo& l : t.GetLinks())
    {
        if (l.tierA < 0 || l.tierB < 0 || !t.IsLinkRouted(l.id))
        {
            continue;
        }
        uint32_t a = SwitchIndexOf(*l.a);
        uint32_t b = SwitchIndexOf(*l.b);
        boost::add_edge(a, b, g);
        nbr[a].emplace_back(b, l.ifA);
        nbr[b].emplace_back(a, l.ifB);
    }
    m_dist.assign(size_t(m_n) * m_n, UNREACHABLE);
    std::vector<uint32_t> d(m_n);
    for (uint32_t s = 0; s < m_n; ++s)
    {
        std::fill(d.begin(), d.end(), 0xffffffffU);
        d[s] = 0;
        boost::breadth_first_search(g,
                                    boost::vertex(s, g),
                                    boost::visitor(boost::make_bfs_visitor(
                                        boost::record_distances(d.data(), boost::on_tree_edge()))));
        for (uint32_t v = 0; v < m_n; ++v)
        {
            m_dist[size_t(s) * m_n + v] = d[v] < UNREACHABLE ? uint8_t(d[v]) : UNREACHABLE;
        }
    }
    m_off.assign(size_t(m_n) * m_n + 1, 0);
    m_pool.clear();
    for (uint32_t x = 0; x < m_n; ++x)
    {
        for (uint32_t tg = 0; tg < m_n; ++tg)
        {
            m_off[size_t(x) * m_n + tg] = static_cast<uint32_t>(m_pool.size());
            uint8_t dx = Dist(x, tg);
            if (x != tg && dx != UNREACHABLE)
            {
                for (const auto& [w, iface] : nbr[x])
                {
                    if (Dist(w, tg) + 1 == dx)
                    {
                        m_pool.push_back(iface);
                    }
                }
            }
        }
    }
    m_off.back() = static_cast<uint32_t>(m_pool.size());
    // nearest switch of every group from every switch (grouped topologies)
    m_nearest.clear();
    if (m_grouped)
    {
        m_nearest.assign(size_t(m_n) * m_nGroups, 0);
        for (uint32_t s = 0; s < m_n; ++s)
        {
            for (uint32_t gi = 0; gi < m_nGroups; ++gi)
            {
                uint32_t best = m_members[gi].front();
                for (uint32_t v : m_members[gi])
                {
                    if (Dist(s, v) < Dist(s, best))
                    {
                        best = v;
                    }
                }
                m_nearest[size_t(s) * m_nGroups + gi] = best;
            }
        }
    }
    NS_LOG_LOGIC("route info: " << m_n << " switches, " << m_pool.size() << " candidates");
}

uint32_t
DcnRouteInfo::ValiantCount(uint32_t s, uint32_t d) const
{
    if (s == d)
    {
        return 0;
    }
    if (m_grouped)
    {
        if (m_group[s] != m_group[d])
        {
            return m_nGroups - 2;
        }
        return static_cast<uint32_t>(m_members[m_group[s]].size()) - 2;
    }
    return m_n - 2;
}

uint32_t
DcnRouteInfo::ValiantIntermediate(uint32_t s, uint32_t d, uint32_t k) const
{
    if (m_grouped && m_group[s] != m_group[d])
    {
        uint32_t lo = std::min(m_group[s], m_group[d]);
        uint32_t hi = std::max(m_group[s], m_group[d]);
        uint32_t gi = k + (k >= lo ? 1 : 0);
        gi += gi >= hi ? 1 : 0;
        return m_nearest[size_t(s) * m_nGroups + gi];
    }
    // k-th element of a sorted list without s and d
    const uint32_t lo = std::min(s, d);
    const uint32_t hi = std::max(s, d);
    if (m_grouped)
    {
        const std::vector<uint32_t>& m = m_members[m_group[s]];
        uint32_t i = k;
        uint32_t plo = static_cast<uint32_t>(std::lower_bound(m.begin(), m.end(), lo) - m.begin());
        uint32_t phi = static_cast<uint32_t>(std::lower_bound(m.begin(), m.end(), hi) - m.begin());
        i += i >= plo ? 1 : 0;
        i += i >= phi ? 1 : 0;
        return m[i];
    }
    uint32_t v = k + (k >= lo ? 1 : 0);
    v += v >= hi ? 1 : 0;
    return v;
}

} // namespace ns3
