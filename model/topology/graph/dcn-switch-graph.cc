#include "dcn-switch-graph.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/connected_components.hpp>
#include <boost/graph/visitors.hpp>
#include <unordered_set>

namespace dcn
{

const char*
ToString(SwitchRole r)
{
    switch (r)
    {
    case SwitchRole::ROUTER:
        return "router";
    case SwitchRole::LEAF:
        return "leaf";
    case SwitchRole::SPINE:
        return "spine";
    case SwitchRole::NIC:
        return "nic";
    case SwitchRole::NVLINK:
        return "nvlink";
    case SwitchRole::RAIL:
        return "rail";
    }
    return "?";
}

const char*
ToString(LinkKind k)
{
    switch (k)
    {
    case LinkKind::LOCAL:
        return "local";
    case LinkKind::GLOBAL:
        return "global";
    case LinkKind::LEAF_SPINE:
        return "leaf-spine";
    case LinkKind::NVLINK:
        return "nvlink";
    case LinkKind::RAIL:
        return "rail";
    }
    return "?";
}

int32_t
TierOf(SwitchRole r)
{
    switch (r)
    {
    case SwitchRole::ROUTER:
    case SwitchRole::LEAF:
    case SwitchRole::NIC:
        return 0;
    default:
        return 1;
    }
}

uint32_t
SwitchGraph::AddSwitch(SwitchInfo s)
{
    switches.push_back(std::move(s));
    return NSwitches() - 1;
}

uint32_t
SwitchGraph::AddLink(uint32_t a,
                     uint32_t b,
                     LinkKind kind,
                     double rateBps,
                     double delayNs,
                     const std::string& name)
{
    SwitchLink l;
    l.id = NLinks();
    l.a = std::min(a, b);
    l.b = std::max(a, b);
    l.kind = kind;
    l.rateBps = rateBps;
    l.delayNs = delayNs;
    l.name = name.empty() ? switches[l.a].name + "-" + switches[l.b].name : name;
    links.push_back(std::move(l));
    return links.back().id;
}

void
SwitchGraph::Finalize()
{
    const uint32_t n = NSwitches();
    m_ports.assign(n, {});
    for (const auto& l : links)
    {
        m_ports[l.a].push_back({l.b, l.id});
        m_ports[l.b].push_back({l.a, l.id});
    }
    for (auto& ps : m_ports)
    {
        std::sort(ps.begin(), ps.end(), [](const Port& x, const Port& y) {
            return x.nbr != y.nbr ? x.nbr < y.nbr : x.link < y.link;
        });
    }
    m_firstHost.assign(n, 0);
    m_hostSwitch.clear();
    m_nHosts = 0;
    for (uint32_t s = 0; s < n; ++s)
    {
        m_firstHost[s] = m_nHosts;
        m_nHosts += switches[s].nHosts;
        m_hostSwitch.insert(m_hostSwitch.end(), switches[s].nHosts, s);
    }
}

std::string
SwitchGraph::Check() const
{
    if (m_ports.size() != switches.size())
    {
        return "graph " + name + ": Finalize() not called";
    }
    std::unordered_set<std::string> names;
    for (const auto& s : switches)
    {
        if (!names.insert(s.name).second)
        {
            return "graph " + name + ": duplicate switch name " + s.name;
        }
        if (s.nHosts > 0 && !(s.hostRateBps > 0))
        {
            return "graph " + name + ": switch " + s.name + " has hosts but no host link rate";
        }
    }
    names.clear();
    for (const auto& l : links)
    {
        if (l.a == l.b || l.b >= NSwitches())
        {
            return "graph " + name + ": link " + l.name + " has bad endpoints";
        }
        if (!(l.rateBps > 0) || l.delayNs < 0)
        {
            return "graph " + name + ": link " + l.name + " needs rate > 0 and delay >= 0";
        }
        if (!names.insert(l.name).second)
        {
            return "graph " + name + ": duplicate link name " + l.name;
        }
    }
    return "";
}

uint32_t
SwitchGraph::FindSwitch(const std::string& n) const
{
    for (uint32_t s = 0; s < NSwitches(); ++s)
    {
        if (switches[s].name == n)
        {
            return s;
        }
    }
    return NONE;
}

uint32_t
SwitchGraph::FindLink(const std::string& n) const
{
    for (const auto& l : links)
    {
        if (l.name == n)
        {
            return l.id;
        }
    }
    return NONE;
}

uint32_t
SwitchGraph::CountLinks(LinkKind k) const
{
    return static_cast<uint32_t>(std::count_if(links.begin(),
                                               links.end(),
                                               [k](const SwitchLink& l) { return l.kind == k; }));
}

namespace
{
using BGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;

BGraph
ToBoost(const SwitchGraph& g, const std::vector<bool>& skip)
{
    BGraph bg(g.NSwitches());
    for (const auto& l : g.links)
    {
        if (skip.empty() || !skip[l.id])
        {
            boost::add_edge(l.a, l.b, bg);
        }
    }
    return bg;
}
} // namespace

DistanceMatrix::DistanceMatrix(const SwitchGraph& g)
    : m_n(g.NSwitches()),
      m_d(static_cast<size_t>(m_n) * m_n, UNREACHABLE)
{
    BGraph bg = ToBoost(g, {});
    std::vector<uint32_t> dist(m_n);
    std::vector<boost::default_color_type> color(m_n);
    for (uint32_t s = 0; s < m_n; ++s)
    {
        std::fill(dist.begin(), dist.end(), std::numeric_limits<uint32_t>::max());
        dist[s] = 0;
        boost::breadth_first_search(
            bg,
            s,
            boost::visitor(boost::make_bfs_visitor(
                               boost::record_distances(dist.data(), boost::on_tree_edge())))
                .color_map(boost::make_iterator_property_map(color.begin(),
                                                             boost::get(boost::vertex_index, bg))));
        uint8_t* row = &m_d[static_cast<size_t>(s) * m_n];
        for (uint32_t t = 0; t < m_n; ++t)
        {
            row[t] = dist[t] < UNREACHABLE ? static_cast<uint8_t>(dist[t]) : UNREACHABLE;
        }
    }
}

uint32_t
CountComponents(const SwitchGraph& g, const std::vector<bool>& skip)
{
    if (g.NSwitches() == 0)
    {
        return 0;
    }
    BGraph bg = ToBoost(g, skip);
    std::vector<uint32_t> comp(g.NSwitches());
    return static_cast<uint32_t>(boost::connected_components(bg, comp.data()));
}

GraphStats
Analyze(const SwitchGraph& g)
{
    GraphStats st;
    const uint32_t n = g.NSwitches();
    if (n == 0)
    {
        return st;
    }
    st.connected = CountComponents(g) == 1;
    DistanceMatrix dm(g);
    for (uint32_t a = 0; a < n; ++a)
    {
        for (uint32_t b = 0; b < n; ++b)
        {
            if (dm(a, b) != DistanceMatrix::UNREACHABLE)
            {
                st.diameter = std::max<uint32_t>(st.diameter, dm(a, b));
            }
        }
    }
    st.minDegree = st.minRadix = std::numeric_limits<uint32_t>::max();
    for (uint32_t s = 0; s < n; ++s)
    {
        const auto deg = static_cast<uint32_t>(g.Ports(s).size());
        st.minDegree = std::min(st.minDegree, deg);
        st.maxDegree = std::max(st.maxDegree, deg);
        st.minRadix = std::min(st.minRadix, g.Radix(s));
        st.maxRadix = std::max(st.maxRadix, g.Radix(s));
    }
    return st;
}

} // namespace dcn
