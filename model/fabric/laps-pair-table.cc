#include "laps-pair-table.h"

#include "ns3/dcn-graph-routing.h"
#include "ns3/dcn-options.h"
#include "ns3/graph-topology-helper.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnLapsPairTable");

std::string
DcnLapsPairTable::Check(const DcnTopology& t, const std::string& what, bool scanPairs)
{
    const auto* g = dynamic_cast<const DcnGraphTopology*>(&t);
    if (!g)
    {
        return what +
               "needs a graph topology (presets laps-rail, laps-df, df-*, sf-*, "
               "spritz-*: the LAPS path set is theirs); topology '" +
               t.GetTopologyName() + "' is not one";
    }
    if (!scanPairs)
    {
        return "";
    }
    std::vector<bool> isLeaf(t.GetAllSwitches().GetN(), false);
    for (uint32_t h = 0; h < t.GetNHosts(); ++h)
    {
        isLeaf[t.GetSwitchOfHost(h)] = true;
    }
    const dcn::MinimalRouting& mr = g->GetMinimalRouting();
    for (uint32_t s = 0; s < isLeaf.size(); ++s)
    {
        for (uint32_t d = 0; d < isLeaf.size() && isLeaf[s]; ++d)
        {
            if (!isLeaf[d] || d == s)
            {
                continue;
            }
            const size_t n = mr.LapsPaths(s, d).size();
            if (n > MAX_PATHS)
            {
                return what + "numbers a leaf pair's LAPS paths in 4 bits; topology '" +
                       t.GetTopologyName() + "' has " + std::to_string(n) + " from switch " +
                       std::to_string(s) + " to switch " + std::to_string(d) + " (at most " +
                       std::to_string(MAX_PATHS) + ")";
            }
        }
    }
    return "";
}

void
DcnLapsPairTable::Attach(const DcnTopology& t,
                         uint32_t self,
                         const std::vector<bool>& isLeaf,
                         const std::vector<uint16_t>& ifUplink)
{
    NS_LOG_FUNCTION(this << self);
    Clear();
    m_mr = &dynamic_cast<const DcnGraphTopology&>(t).GetMinimalRouting();
    m_topo = &t;
    m_self = self;
    m_selfNode = PeekPointer(t.GetAllSwitches().Get(self));
    m_leafSwitch.clear();
    for (uint32_t i = 0; i < isLeaf.size(); ++i)
    {
        if (isLeaf[i])
        {
            m_leafSwitch.push_back(i);
        }
    }
    m_nLeaves = static_cast<uint16_t>(m_leafSwitch.size());
    m_ifUplink = ifUplink;
    m_off.assign(static_cast<size_t>(m_nLeaves) * m_nLeaves, NO_IF);
    m_pairs.clear();
    m_links.clear();
    // the topology lives through the run; held while listening (released by Clear)
    m_traced = Ptr<DcnTopology>(const_cast<DcnTopology*>(&t));
    m_traced->TraceConnectWithoutContext("LinkRouted",
                                         MakeCallback(&DcnLapsPairTable::OnLinkRouted, this));
}

void
DcnLapsPairTable::Clear()
{
    if (m_traced)
    {
        m_traced->TraceDisconnectWithoutContext(
            "LinkRouted",
            MakeCallback(&DcnLapsPairTable::OnLinkRouted, this));
        m_traced = nullptr;
    }
    m_mr = nullptr;
    m_topo = nullptr;
    m_selfNode = nullptr;
    m_pairs.clear();
    m_off.clear();
    m_links.clear();
}

bool
DcnLapsPairTable::AllRouted(const Pair& p, uint16_t k) const
{
    for (uint32_t i = p.linkBegin[k]; i < p.linkBegin[k + 1]; ++i)
    {
        if (!m_topo->IsLinkRouted(m_links[i]))
        {
            return false;
        }
    }
    return true;
}

void
DcnLapsPairTable::OnLinkRouted(uint32_t linkId, bool routed)
{
    NS_LOG_FUNCTION(this << linkId << routed);
    if (!m_topo)
    {
        return;
    }
    // as LapsHostTable::OnLinkRouted: a path is valid iff every link of it is routed (two
    // failures on one path need two restores); only the paths over linkId change
    for (Pair& p : m_pairs)
    {
        for (uint16_t k = 0; k < p.n; ++k)
        {
            const auto b = m_links.begin() + p.linkBegin[k];
            const auto e = m_links.begin() + p.linkBegin[k + 1];
            if (std::find(b, e, linkId) == e)
            {
                continue;
            }
            const bool v = AllRouted(p, k);
            p.valid = static_cast<uint16_t>(v ? (p.valid | (1U << k)) : (p.valid & ~(1U << k)));
            NS_LOG_LOGIC("laps pair table: switch "
                         << m_self << " link " << linkId << (routed ? " routed" : " withdrawn")
                         << ": path " << k << (v ? " valid" : " invalid") << " (valid mask "
                         << p.valid << ")");
        }
    }
}

const DcnLapsPairTable::Pair&
DcnLapsPairTable::Build(uint16_t srcLeaf, uint16_t dstLeaf)
{
    NS_LOG_FUNCTION(this << srcLeaf << dstLeaf);
    Pair pp;
    const std::vector<dcn::GraphPath> paths =
        m_mr->LapsPaths(m_leafSwitch[srcLeaf], m_leafSwitch[dstLeaf]);
    // Check() refuses more than MAX_PATHS before a run; a program that skipped it is refused
    // here, in one line, rather than run on the first MAX_PATHS (review s47 #5)
    DCN_REFUSE_IF(paths.size() > MAX_PATHS,
                  "option --lb: switches " << m_leafSwitch[srcLeaf] << " -> "
                                           << m_leafSwitch[dstLeaf] << " have " << paths.size()
                                           << " LAPS paths, more than a 4-bit path index "
                                              "numbers; allowed: at most "
                                           << MAX_PATHS << " per leaf pair");
    pp.n = static_cast<uint8_t>(paths.size());
    for (uint16_t k = 0; k < pp.n; ++k)
    {
        const dcn::GraphPath& p = paths[k];
        pp.linkBegin[k] = static_cast<uint32_t>(m_links.size());
        m_links.insert(m_links.end(), p.links.begin(), p.links.end());
        pp.linkBegin[k + 1] = static_cast<uint32_t>(m_links.size());
        pp.valid = static_cast<uint16_t>(pp.valid | (AllRouted(pp, k) ? (1U << k) : 0U));
        pp.egress[k] = NO_IF;
        for (size_t i = 0; i + 1 < p.switches.size() && i < p.links.size(); ++i)
        {
            if (p.switches[i] != m_self)
            {
                continue;
            }
            const DcnLinkInfo& li = m_topo->GetLink(p.links[i]); // graph link id = ns-3 link id
            if (PeekPointer(li.a) == m_selfNode)
            {
                pp.egress[k] = li.ifA;
            }
            else if (PeekPointer(li.b) == m_selfNode)
            {
                pp.egress[k] = li.ifB;
            }
            const uint16_t u =
                pp.egress[k] < m_ifUplink.size() ? m_ifUplink[pp.egress[k]] : uint16_t(0xffff);
            pp.firstUplink[k] = static_cast<uint8_t>(u < MAX_PATHS ? u : 0);
            break; // a simple path crosses a switch once
        }
    }
    NS_LOG_LOGIC("laps pair table: switch " << m_self << " pair " << srcLeaf << " -> " << dstLeaf
                                            << ": " << unsigned{pp.n} << " paths, valid mask "
                                            << pp.valid);
    uint32_t& off = m_off[static_cast<size_t>(srcLeaf) * m_nLeaves + dstLeaf];
    off = static_cast<uint32_t>(m_pairs.size());
    m_pairs.push_back(pp);
    return m_pairs[off];
}

} // namespace ns3
