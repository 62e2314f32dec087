/*
 * FatTreeHelper, part 2: switch tables (installation linear in ports, route
 * withdrawal with valley-free reachability), structural path helpers and the
 * MPI partition.  Split from fat-tree-helper.cc to keep files short.
 */
#include "fat-tree-helper.h"

#include "ns3/dcn-header.h"
#include "ns3/dcn-route-info.h"
#include "ns3/ipv4-global-routing-helper.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FatTreeRouting");

bool
FatTreeHelper::LookupForwardingPolicy(const std::string& value, TypeId* tid)
{
    std::string name = value;
    if (!DcnForwardingPolicyTypeName(name).empty())
    {
        name = DcnForwardingPolicyTypeName(name); // short name: "letflow", "conga", ...
    }
    if (!TypeId::LookupByNameFailSafe(name, tid) && name.rfind("ns3::", 0) == 0 &&
        name.rfind("ns3::Dcn", 0) != 0)
    {
        name = "ns3::Dcn" + name.substr(5); // names before the ns3::Dcn prefix
    }
    return TypeId::LookupByNameFailSafe(name, tid) && tid->IsChildOf(ForwardingPolicy::GetTypeId());
}

void
FatTreeHelper::InstallRoutes()
{
    NS_LOG_FUNCTION(this);
    ObjectFactory pf;
    TypeId ptid;
    // Validate() refuses an unknown name with one line before Build() gets here
    NS_ABORT_MSG_IF(!LookupForwardingPolicy(m_policyType, &ptid),
                    "FatTreeHelper: ForwardingPolicy='"
                        << m_policyType
                        << "' is not a registered ns3::DcnForwardingPolicy subclass (e.g. "
                           "ns3::DcnEcmpForwardingPolicy, ns3::DcnSprayForwardingPolicy) nor a "
                           "short name (ecmp, spray, letflow, drill, conga, conweave)");
    pf.SetTypeId(ptid);

    for (uint32_t i = 0; i < m_hosts.GetN(); ++i)
    {
        GetRouting(m_hosts.Get(i))->SetHostMode(m_links[i].ifA);
    }
    for (uint32_t t = 0; t < m_tiers; ++t)
    {
        m_swRouting[t].resize(m_sw[t].GetN());
        for (uint32_t i = 0; i < m_sw[t].GetN(); ++i)
        {
            Ptr<DcnSwitchRouting> r = GetRouting(m_sw[t].Get(i));
            Ptr<ForwardingPolicy> pol = pf.Create<ForwardingPolicy>();
            pol->Attach(m_sw[t].Get(i));
            r->SetForwardingPolicy(pol);
            m_swRouting[t][i] = r;
        }
    }
    InstallTables();
    AttachPolicies();
}

void
FatTreeHelper::InstallTables()
{
    NS_LOG_FUNCTION(this << m_nWithdrawn);
    const uint32_t nTors = GetNTors();
    const uint32_t H = m_hostsPerTor;
    const uint32_t U = m_uplinksPerTor;
    const uint32_t P = m_torsPerPod;
    const uint32_t K = m_aggUplinks;
    const bool three = m_tiers == 3;
    // Without withdrawals the tables are aggregated (O(ports) per switch); after a
    // withdrawal every switch gets one entry per destination ToR (valley-free reach).
    const bool perTor = m_nWithdrawn > 0;
    const uint32_t NO = DcnSwitchRouting::NO_PORT;
    auto lower = [this](uint32_t lid) { return m_links[lid].ifA; };
    auto upper = [this](uint32_t lid) { return m_links[lid].ifB; };
    auto downEntry = [this](uint32_t lid) {
        return m_routed[lid] ? std::vector<uint32_t>{m_links[lid].ifB} : std::vector<uint32_t>{};
    };
    // ToRs: local hosts; up = the uplinks.
    for (uint32_t t = 0; t < nTors; ++t)
    {
        Ptr<DcnSwitchRouting> r = m_swRouting[0][t];
        std::vector<uint32_t> local(H), up(U);
        for (uint32_t h = 0; h < H; ++h)
        {
            local[h] = m_routed[t * H + h] ? upper(t * H + h) : NO;
        }
        for (uint32_t u = 0; u < U; ++u)
        {
            up[u] = lower(m_torUp[t][u]);
        }
        r->SetLocalHosts(t * H, local);
        if (!perTor)
        {
            r->ResetTable(1, 0, 0);
            r->SetDefaultEntry(up);
            continue;
        }
        r->ResetTable(H, 0, nTors);
        for (uint32_t d = 0; d < nTors; ++d)
        {
            std::vector<uint32_t> g;
            for (uint32_t u = 0; u < U; ++u)
            {
                uint32_t lid = m_torUp[t][u];
                uint32_t t1 = three ? (t / P) * U + u : u;
                if (m_routed[lid] && Reach(1, t1, d))
                {
                    g.push_back(lower(lid));
                }
            }
            r->SetEntry(d, g);
        }
    }
    if (!three)
    {
        // Spines: one entry per ToR.
        for (uint32_t s = 0; s < U; ++s)
        {
            Ptr<DcnSwitchRouting> r = m_swRouting[1][s];
            r->SetLocalHosts(0, {});
            r->ResetTable(H, 0, nTors);
            for (uint32_t t = 0; t < nTors; ++t)
            {
                r->SetEntry(t, downEntry(m_torUp[t][s]));
            }
        }
        return;
    }
    // Aggregation: one entry per ToR of the pod, default = the uplinks.
    for (uint32_t g = 0; g < m_sw[1].GetN(); ++g)
    {
        Ptr<DcnSwitchRouting> r = m_swRouting[1][g];
        const uint32_t pod = g / U;
        const uint32_t a = g % U;
        r->SetLocalHosts(0, {});
        if (!perTor)
        {
            std::vector<uint32_t> up(K);
            for (uint32_t k = 0; k < K; ++k)
            {
                up[k] = lower(m_aggUp[g][k]);
            }
            r->ResetTable(H, pod * P, P);
            for (uint32_t j = 0; j < P; ++j)
            {
                r->SetEntry(j, downEntry(m_torUp[pod * P + j][a]));
            }
            r->SetDefaultEntry(up);
            continue;
        }
        r->ResetTable(H, 0, nTors);
        for (uint32_t d = 0; d < nTors; ++d)
        {
            if (d / P == pod)
            {
                r->SetEntry(d, downEntry(m_torUp[d][a]));
                continue;
            }
            std::vector<uint32_t> grp;
            for (uint32_t k = 0; k < K; ++k)
            {
                uint32_t c = a * K + k;
                if (m_routed[m_aggUp[g][k]] && DownReach(2, c, d))
                {
                    grp.push_back(lower(m_aggUp[g][k]));
                }
            }
            r->SetEntry(d, grp);
        }
    }
    // Cores: one entry per pod.
    for (uint32_t c = 0; c < m_sw[2].GetN(); ++c)
    {
        Ptr<DcnSwitchRouting> r = m_swRouting[2][c];
        const uint32_t a = c / K;
        const uint32_t k = c % K;
        r->SetLocalHosts(0, {});
        r->ResetTable(H * P, 0, m_numPods);
        for (uint32_t p = 0; p < m_numPods; ++p)
        {
            r->SetEntry(p, downEntry(m_aggUp[p * U + a][k]));
        }
    }
}

bool
FatTreeHelper::DownReach(int32_t tier, uint32_t idx, uint32_t tor) const
{
    if (tier == 0)
    {
        return idx == tor;
    }
    const uint32_t U = m_uplinksPerTor;
    if (tier == 1)
    {
        if (m_tiers == 2)
        {
            return m_routed[m_torUp[tor][idx]];
        }
        uint32_t pod = idx / U;
        return tor / m_torsPerPod == pod && m_routed[m_torUp[tor][idx % U]];
    }
    // core
    uint32_t a = idx / m_aggUplinks;
    uint32_t k = idx % m_aggUplinks;
    uint32_t g = (tor / m_torsPerPod) * U + a;
    return m_routed[m_aggUp[g][k]] && DownReach(1, g, tor);
}

bool
FatTreeHelper::Reach(int32_t tier, uint32_t idx, uint32_t tor) const
{
    // Valley-free reachability of ToR 'tor' from switch (tier, idx) over routed links.
    if (tier == 2 || (tier == 1 && m_tiers == 2))
    {
        return DownReach(tier, idx, tor);
    }
    if (tier == 1) // aggregation switch
    {
        uint32_t pod = idx / m_uplinksPerTor;
        if (tor / m_torsPerPod == pod)
        {
            return DownReach(1, idx, tor);
        }
        for (uint32_t k = 0; k < m_aggUplinks; ++k)
        {
            uint32_t c = (idx % m_uplinksPerTor) * m_aggUplinks + k;
            if (m_routed[m_aggUp[idx][k]] && DownReach(2, c, tor))
            {
                return true;
            }
        }
        return false;
    }
    return idx == tor;
}

void
FatTreeHelper::UpdateRoutes()
{
    NS_LOG_FUNCTION(this);
    if (m_routing != "dcn")
    {
        Ipv4GlobalRoutingHelper::RecomputeRoutingTables();
        return;
    }
    InstallTables();
}

void
FatTreeHelper::SetLinkRouted(uint32_t linkId, bool routed)
{
    NS_LOG_FUNCTION(this << linkId << routed);
    NS_ABORT_MSG_IF(!m_built, "FatTreeHelper::SetLinkRouted before Build()");
    NS_ABORT_MSG_IF(linkId >= m_links.size(),
                    "FatTreeHelper::SetLinkRouted: linkId=" << linkId << "; allowed [0,"
                                                            << m_links.size() << ")");
    if (m_routed[linkId] == routed)
    {
        return;
    }
    NS_LOG_LOGIC("link " << linkId << " (" << m_links[linkId].name << ") "
                         << (routed ? "restored" : "withdrawn"));
    m_routed[linkId] = routed;
    m_nWithdrawn += routed ? -1 : 1;
    m_linkRouted(linkId, routed);
    if (m_routing != "dcn")
    {
        const DcnLinkInfo& l = m_links[linkId];
        if (routed)
        {
            l.a->GetObject<Ipv4>()->SetUp(l.ifA);
            l.b->GetObject<Ipv4>()->SetUp(l.ifB);
        }
        else
        {
            l.a->GetObject<Ipv4>()->SetDown(l.ifA);
            l.b->GetObject<Ipv4>()->SetDown(l.ifB);
        }
    }
    UpdateRoutes();
    // Valiant / UGAL-L / source-routing policies share this (built on demand)
    Ptr<DcnRouteInfo> info = GetObject<DcnRouteInfo>();
    if (info)
    {
        info->Rebuild(*this);
    }
}

uint32_t
FatTreeHelper::GetHopCount(uint32_t s, uint32_t d) const
{
    NS_LOG_FUNCTION(this << s << d);
    if (m_built)
    {
        return DcnTopologyBase::GetHopCount(s, d);
    }
    uint32_t ts = GetTorOfHost(s);
    uint32_t td = GetTorOfHost(d);
    if (s == d)
    {
        return 0;
    }
    if (ts == td)
    {
        return 2;
    }
    return (m_tiers == 2 || GetPodOfTor(ts) == GetPodOfTor(td)) ? 4 : 6;
}

Time
FatTreeHelper::GetBaseRtt(uint32_t s, uint32_t d, uint32_t payloadBytes) const
{
    NS_LOG_FUNCTION(this << s << d << payloadBytes);
    if (m_built)
    {
        return DcnTopologyBase::GetBaseRtt(s, d, payloadBytes);
    }
    // Before Build(): nominal rates (slow links are chosen at Build()).
    const uint32_t ovh = 2 + 20 + 8 + DcnHeader::BASE_SIZE;
    const uint32_t dataBytes = payloadBytes + ovh;
    const uint32_t ackBytes = DcnHeader::WIRE_BELOW + DcnHeader::CTRL_BASE_SIZE;
    const uint32_t hops = GetHopCount(s, d);
    const Time hostDelay = m_linkDelay + m_switchLatency / 2;
    const Time fabricDelay = m_linkDelay + m_switchLatency;
    Time rtt(0);
    for (uint32_t i = 0; i < hops; ++i)
    {
        bool hostLink = (i == 0 || i + 1 == hops);
        bool coreLink = (hops == 6 && (i == 2 || i == 3));
        DataRate r = hostLink ? m_hostRate : (coreLink ? m_coreRate : m_fabricRate);
        Time delay = hostLink ? hostDelay : fabricDelay;
        rtt += r.CalculateBytesTxTime(dataBytes) + r.CalculateBytesTxTime(ackBytes) + 2 * delay;
    }
    return rtt;
}

uint32_t
FatTreeHelper::CountPaths(uint32_t s, uint32_t d) const
{
    uint32_t hops = GetHopCount(s, d);
    if (hops <= 2)
    {
        return 1;
    }
    return hops == 4 ? m_uplinksPerTor : m_uplinksPerTor * m_aggUplinks;
}

std::vector<uint32_t>
FatTreeHelper::LinkPath(uint32_t s, uint32_t d, uint32_t a, uint32_t k) const
{
    uint32_t ts = GetTorOfHost(s);
    uint32_t td = GetTorOfHost(d);
    uint32_t hops = GetHopCount(s, d);
    if (hops == 2)
    {
        return {s, d};
    }
    if (hops == 4)
    {
        return {s, m_torUp[ts][a], m_torUp[td][a], d};
    }
    uint32_t U = m_uplinksPerTor;
    return {s,
            m_torUp[ts][a],
            m_aggUp[GetPodOfTor(ts) * U + a][k],
            m_aggUp[GetPodOfTor(td) * U + a][k],
            m_torUp[td][a],
            d};
}

std::vector<std::vector<uint32_t>>
FatTreeHelper::GetPathLinks(uint32_t s, uint32_t d) const
{
    NS_LOG_FUNCTION(this << s << d);
    NS_ABORT_MSG_IF(!m_built, "FatTreeHelper::GetPathLinks before Build()");
    std::vector<std::vector<uint32_t>> paths;
    uint32_t hops = GetHopCount(s, d);
    if (hops == 0)
    {
        return paths;
    }
    uint32_t na = hops == 2 ? 1 : m_uplinksPerTor;
    uint32_t nk = hops == 6 ? m_aggUplinks : 1;
    for (uint32_t a = 0; a < na; ++a)
    {
        for (uint32_t k = 0; k < nk; ++k)
        {
            paths.push_back(LinkPath(s, d, a, k));
        }
    }
    return paths;
}

uint32_t
FatTreeHelper::GetSystemId(Ptr<Node> n, uint32_t nRanks) const
{
    NS_LOG_FUNCTION(this << n << nRanks);
    NS_ABORT_MSG_IF(nRanks == 0, "FatTreeHelper::GetSystemId: nRanks must be >= 1");
    int32_t tier = GetTierOfNode(n);
    if (tier < 0)
    {
        return SystemIdOf(-1, n->GetId() - m_hosts.Get(0)->GetId(), nRanks);
    }
    return SystemIdOf(tier, n->GetId() - m_sw[tier].Get(0)->GetId(), nRanks);
}

uint32_t
FatTreeHelper::GetMaxSystemCount() const
{
    return m_tiers == 3 ? m_numPods : GetNTors();
}

uint32_t
FatTreeHelper::SystemIdOf(int32_t tier, uint32_t idx, uint32_t nRanks) const
{
    if (tier < 0)
    {
        tier = 0;
        idx /= m_hostsPerTor; // a host goes with its ToR
    }
    if (tier == 0)
    {
        // a block of pods (3 tiers) or ToRs (2 tiers) per rank
        uint32_t units = GetMaxSystemCount();
        uint32_t unit = m_tiers == 3 ? idx / m_torsPerPod : idx;
        return static_cast<uint32_t>(uint64_t(unit) * nRanks / units);
    }
    // spines / aggregation / cores: spread by index (aggregation switches are
    // numbered pod-major, so a pod's aggregation switches share its rank when the
    // pods divide evenly)
    const uint32_t nT1 = m_tiers == 3 ? m_numPods * m_uplinksPerTor : m_uplinksPerTor;
    const uint32_t nTier = tier == 1 ? nT1 : m_uplinksPerTor * m_aggUplinks;
    return static_cast<uint32_t>(uint64_t(idx) * nRanks / nTier);
}

void
FatTreeHelper::CreateNodes(NodeContainer& c, int32_t tier, uint32_t n) const
{
    NS_LOG_FUNCTION(this << tier << n);
    if (m_systemCount <= 1)
    {
        c.Create(n);
        return;
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        c.Add(CreateObject<Node>(SystemIdOf(tier, i, m_systemCount)));
    }
}

} // namespace ns3
