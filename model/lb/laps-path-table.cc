#include "laps-path-table.h"

#include "ev-util.h"

#include "ns3/dcn-graph-routing.h"
#include "ns3/dcn-options.h"
#include "ns3/dcn-path-choice.h"
#include "ns3/dcn-topology-base.h"
#include "ns3/graph-topology-helper.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnLapsPathTable");
NS_OBJECT_ENSURE_REGISTERED(LapsHostTable);

TypeId
LapsHostTable::GetTypeId()
{
    static TypeId tid = TypeId("ns3::LapsHostTable")
                            .SetParent<Object>()
                            .SetGroupName("DcnLb")
                            .AddConstructor<LapsHostTable>();
    return tid;
}

LapsHostTable::LapsHostTable()
{
    NS_LOG_FUNCTION(this);
}

LapsHostTable::~LapsHostTable() = default;

void
LapsHostTable::DoDispose()
{
    if (m_topo)
    {
        m_topo->TraceDisconnectWithoutContext("LinkRouted",
                                              MakeCallback(&LapsHostTable::OnLinkRouted, this));
    }
    m_topo = nullptr;
    Object::DoDispose();
}

void
LapsHostTable::OnLinkRouted(uint32_t linkId, bool /* routed */)
{
    NS_LOG_FUNCTION(this << linkId);
    // spec 1.2 [P]: "a path is marked invalid when one of its links fails"; valid again
    // when every link of it is routed (two failures on one path need two restores)
    for (size_t pid = 0; pid < m_info.size(); ++pid)
    {
        const auto& l = m_info[pid].links;
        if (std::find(l.begin(), l.end(), linkId) == l.end())
        {
            continue;
        }
        bool valid = true;
        for (uint32_t x : l)
        {
            valid = valid && m_topo->IsLinkRouted(x);
        }
        m_pit[pid].valid = valid;
    }
}

void
LapsHostTable::Init(Ptr<DcnTopology> topology,
                    uint32_t srcHost,
                    double frameBytes,
                    double marginPackets,
                    bool minimalOnly)
{
    NS_LOG_FUNCTION(this << srcHost << frameBytes << marginPackets << minimalOnly);
    if (m_topo || !topology)
    {
        return;
    }
    m_topo = topology;
    m_topo->TraceConnectWithoutContext("LinkRouted",
                                       MakeCallback(&LapsHostTable::OnLinkRouted, this));
    m_src = srcHost;
    m_frame = frameBytes;
    m_margin = marginPackets;
    m_minimalOnly = minimalOnly;
    m_first.assign(topology->GetNHosts(), 0);
    m_count.assign(topology->GetNHosts(), 0);
}

uint32_t
LapsHostTable::PstSize() const
{
    return static_cast<uint32_t>(
        std::count_if(m_count.begin(), m_count.end(), [](uint32_t c) { return c > 0; }));
}

uint32_t
LapsHostTable::EnsureDst(uint32_t d, int64_t nowNs)
{
    NS_LOG_FUNCTION(this << d);
    if (!m_topo || d >= m_count.size() || d == m_src)
    {
        return 0;
    }
    if (m_count[d] > 0)
    {
        return m_count[d];
    }
    const uint32_t s = m_topo->GetSwitchOfHost(m_src);
    const uint32_t t = m_topo->GetSwitchOfHost(d);
    // the switch-level paths: the LAPS waypoint set on graph topologies
    std::vector<std::vector<uint32_t>> sw;
    std::vector<std::vector<uint32_t>> lk;
    std::vector<bool> minimal;
    Ptr<DcnGraphTopology> g = DynamicCast<DcnGraphTopology>(m_topo);
    if (s == t)
    {
        sw.push_back({s});
        lk.emplace_back();
        minimal.push_back(true);
    }
    else if (g)
    {
        for (const auto& gp : g->GetMinimalRouting().LapsPaths(s, t))
        {
            sw.push_back(gp.switches);
            lk.push_back(gp.links); // graph link id == ns-3 link id
            minimal.push_back(gp.minimal);
        }
    }
    else
    {
        for (const DcnPath& p : m_topo->GetPaths(s, t).paths)
        {
            sw.push_back(p.switches);
            lk.push_back(p.links);
            minimal.push_back(p.cls == DcnPathClass::MINIMAL);
        }
    }
    if (m_minimalOnly && std::find(minimal.begin(), minimal.end(), true) != minimal.end())
    {
        // PathSet=Minimal: drop the non-minimal paths (every set holds its minimal path)
        std::vector<std::vector<uint32_t>> keepSw;
        std::vector<std::vector<uint32_t>> keepLk;
        for (size_t i = 0; i < sw.size(); ++i)
        {
            if (minimal[i])
            {
                keepSw.push_back(std::move(sw[i]));
                keepLk.push_back(std::move(lk[i]));
            }
        }
        sw = std::move(keepSw);
        lk = std::move(keepLk);
        minimal.assign(sw.size(), true);
    }
    const uint32_t srcLink = m_topo->GetLinksOfNode(m_topo->GetHosts().Get(m_src)).at(0);
    const uint32_t dstLink = m_topo->GetLinksOfNode(m_topo->GetHosts().Get(d)).at(0);
    m_first[d] = static_cast<uint32_t>(m_pit.size());
    std::vector<double> prop;
    std::vector<double> rate;
    for (size_t i = 0; i < sw.size(); ++i)
    {
        PathInfo info;
        info.dstHost = d;
        info.minimal = minimal[i];
        info.links.push_back(srcLink);
        info.links.insert(info.links.end(), lk[i].begin(), lk[i].end());
        info.links.push_back(dstLink);
        info.hops = static_cast<uint8_t>(info.links.size());
        if (sw[i].size() > PathChoice::MAX_ROUTE)
        {
            // a source route names at most MAX_ROUTE switches: a longer path (non-graph
            // topologies with NonMinimalSlack) could not be followed as written
            UintegerValue slack(0);
            if (Ptr<DcnTopologyBase> b = DynamicCast<DcnTopologyBase>(m_topo))
            {
                b->GetAttribute("NonMinimalSlack", slack);
            }
            size_t shortest = sw[i].size();
            for (const auto& x : sw)
            {
                shortest = std::min(shortest, x.size());
            }
            const size_t most =
                PathChoice::MAX_ROUTE > shortest ? PathChoice::MAX_ROUTE - shortest : 0;
            DCN_REFUSE_IF(true,
                          "option --ns3::DcnTopologyBase::NonMinimalSlack: value '"
                              << slack.Get() << "' gives a LAPS path of " << sw[i].size()
                              << " switches (switch " << s << " to " << t << "), more than the "
                              << unsigned{PathChoice::MAX_ROUTE}
                              << " a source route names; allowed: <= " << most
                              << " here (with --lb=laps also "
                                 "--ns3::LapsPathSelector::PathSet=Minimal)");
        }
        for (uint32_t x : sw[i])
        {
            info.route.push_back(static_cast<uint16_t>(x));
        }
        const uint32_t pid = static_cast<uint32_t>(m_pit.size());
        info.ev = static_cast<uint16_t>(dcnev::Mix32((m_src << 16) ^ pid ^ 0x1a95u));
        prop.clear();
        rate.clear();
        bool valid = true;
        for (uint32_t l : info.links)
        {
            const DcnLinkInfo& li = m_topo->GetLink(l);
            prop.push_back(static_cast<double>(li.delay.GetNanoSeconds()));
            rate.push_back(static_cast<double>(li.rate.GetBitRate()));
            valid = valid && m_topo->IsLinkRouted(l);
        }
        lapscore::LapsPathEntry e;
        e.valid = valid;
        e.baseNs = static_cast<int64_t>(
            std::llround(lapscore::LapsBaseValNs(prop.data(),
                                                 rate.data(),
                                                 static_cast<uint32_t>(prop.size()),
                                                 m_frame,
                                                 m_margin)));
        // [A]'s theoreticalSmallestLatencyInNs (LapsPathSelector SoftmaxNorm /
        // InflightCapBasis = unloaded): the same sum without the queuing margin
        info.unloadedNs = static_cast<int64_t>(
            std::llround(lapscore::LapsBaseValNs(prop.data(),
                                                 rate.data(),
                                                 static_cast<uint32_t>(prop.size()),
                                                 m_frame,
                                                 0.0)));
        e.realNs = e.baseNs; // spec 2.2 [R]: realVal = baseVal, time = install time
        e.timeNs = nowNs;
        m_pit.push_back(e);
        m_info.push_back(std::move(info));
    }
    m_count[d] = static_cast<uint32_t>(sw.size());
    NS_LOG_LOGIC("host " << m_src << " -> " << d << ": " << m_count[d] << " pids from "
                         << m_first[d]);
    return m_count[d];
}

void
LapsHostTable::FillAll(int64_t nowNs)
{
    for (uint32_t d = 0; d < m_count.size(); ++d)
    {
        EnsureDst(d, nowNs);
    }
}

void
LapsHostTable::SetLinkValid(uint32_t linkId, bool valid)
{
    NS_LOG_FUNCTION(this << linkId << valid);
    for (size_t pid = 0; pid < m_info.size(); ++pid)
    {
        const auto& l = m_info[pid].links;
        if (std::find(l.begin(), l.end(), linkId) != l.end())
        {
            m_pit[pid].valid = valid;
        }
    }
}

} // namespace ns3
