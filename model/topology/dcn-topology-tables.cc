/*
 * DcnTopologyBase, generic switch tables: one entry per destination edge
 * switch (or per host), filled from Boost.Graph breadth-first distances over
 * the routed switch links.  For builders without a structural table
 * installer (and as the reference the structural installers are tested
 * against).  Cost: one BFS per edge switch plus nSwitches x nKeys entries.
 */
#include "dcn-topology-base.h"

#include "ns3/dcn-switch-routing.h"
#include "ns3/log.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/visitors.hpp>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnTopologyTables");

void
DcnTopologyBase::InstallShortestPathTables(uint32_t slack)
{
    NS_LOG_FUNCTION(this << slack);
    NS_ABORT_MSG_IF(!m_built, GetTopologyName() << "::InstallShortestPathTables before Build()");
    const uint32_t nS = GetNSwitches();
    const uint32_t nH = GetNHosts();
    NS_ABORT_MSG_IF(nH == 0, GetTopologyName() << ": no hosts");
    // Routed switch links only.
    typedef boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS> G;
    G g(nS);
    for (const DcnLinkInfo& l : m_links)
    {
        if (l.tierA >= 0 && l.tierB >= 0 && m_routed[l.id])
        {
            boost::add_edge(m_nodeIndex[l.a->GetId()], m_nodeIndex[l.b->GetId()], g);
        }
    }
    // Key granularity: hosts of one edge switch in equal contiguous blocks -> one key per
    // block (per destination edge switch); otherwise one key per host.
    std::vector<std::vector<uint32_t>> hostsOf(nS);
    for (uint32_t h = 0; h < nH; ++h)
    {
        hostsOf[m_hostSwitch[h]].push_back(h);
    }
    const uint32_t block = static_cast<uint32_t>(hostsOf[m_hostSwitch[0]].size());
    bool uniform = block > 0 && nH % block == 0;
    for (uint32_t h = 0; uniform && h < nH; ++h)
    {
        uniform = m_hostSwitch[h] == m_hostSwitch[(h / block) * block] &&
                  hostsOf[m_hostSwitch[h]].size() == block;
    }
    const uint32_t divisor = uniform ? block : 1;
    const uint32_t nKeys = nH / divisor;
    NS_LOG_LOGIC("generic tables: " << nKeys << " keys (divisor " << divisor << ")");
    // Distances to each destination edge switch.
    const uint32_t INF = std::numeric_limits<uint32_t>::max() / 2;
    std::vector<std::vector<uint32_t>> dist(nS);
    for (uint32_t k = 0; k < nKeys; ++k)
    {
        uint32_t e = m_hostSwitch[k * divisor];
        if (!dist[e].empty())
        {
            continue;
        }
        dist[e].assign(nS, INF);
        dist[e][e] = 0;
        boost::breadth_first_search(
            g,
            boost::vertex(e, g),
            boost::visitor(boost::make_bfs_visitor(
                boost::record_distances(dist[e].data(), boost::on_tree_edge()))));
    }
    for (uint32_t s = 0; s < nS; ++s)
    {
        Ptr<Node> node = m_switches.Get(s);
        Ptr<DcnSwitchRouting> r = GetRouting(node);
        NS_ABORT_MSG_IF(!r, GetTopologyName() << ": switch " << s << " has no DcnSwitchRouting");
        // (neighbour switch, egress interface) over routed switch links; host ports.
        std::vector<std::pair<uint32_t, uint32_t>> nbr;
        std::vector<uint32_t> hostPort(hostsOf[s].size(), DcnSwitchRouting::NO_PORT);
        for (uint32_t lid : m_nodeLinks[node->GetId()])
        {
            const DcnLinkInfo& l = m_links[lid];
            bool isA = l.a == node;
            Ptr<Node> peer = isA ? l.b : l.a;
            int32_t peerTier = isA ? l.tierB : l.tierA;
            uint32_t iface = isA ? l.ifA : l.ifB;
            if (peerTier < 0)
            {
                uint32_t h = m_nodeIndex[peer->GetId()];
                for (uint32_t i = 0; i < hostsOf[s].size(); ++i)
                {
                    if (hostsOf[s][i] == h && m_routed[lid])
                    {
                        hostPort[i] = iface;
                    }
                }
            }
            else if (m_routed[lid])
            {
                nbr.emplace_back(m_nodeIndex[peer->GetId()], iface);
            }
        }
        bool contiguous =
            !hostsOf[s].empty() && hostsOf[s].back() - hostsOf[s].front() + 1 == hostsOf[s].size();
        r->SetLocalHosts(contiguous ? hostsOf[s].front() : 0,
                         contiguous ? hostPort : std::vector<uint32_t>());
        r->ResetTable(divisor, 0, nKeys);
        for (uint32_t k = 0; k < nKeys; ++k)
        {
            uint32_t e = m_hostSwitch[k * divisor];
            if (e == s)
            {
                if (!contiguous) // per-host keys for this switch's own hosts
                {
                    for (uint32_t i = 0; i < hostsOf[s].size(); ++i)
                    {
                        if (hostsOf[s][i] == k && hostPort[i] != DcnSwitchRouting::NO_PORT)
                        {
                            r->SetEntry(k, {hostPort[i]});
                        }
                    }
                }
                continue;
            }
            const std::vector<uint32_t>& d = dist[e];
            if (d[s] >= INF)
            {
                continue; // unreachable: empty entry
            }
            std::vector<uint32_t> minimal;
            std::vector<uint32_t> nonMinimal;
            for (const auto& [w, iface] : nbr)
            {
                if (d[w] + 1 == d[s])
                {
                    minimal.push_back(iface);
                }
                else if (slack > 0 && d[w] < INF && d[w] + 1 <= d[s] + slack)
                {
                    nonMinimal.push_back(iface);
                }
            }
            r->SetEntry(k, minimal, nonMinimal);
        }
    }
}

} // namespace ns3
