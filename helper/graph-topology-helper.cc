#include "graph-topology-helper.h"

#include "fat-tree-helper.h" // DcnSwitchRoutingHelper

#include "ns3/boolean.h"
#include "ns3/dcn-graph-dot.h"
#include "ns3/dcn-graph-routing.h"
#include "ns3/dcn-options.h"
#include "ns3/dcn-queue-disc.h"
#include "ns3/dcn-route-info.h"
#include "ns3/dcn-switch-routing.h"
#include "ns3/dcn-topo-builders.h"
#include "ns3/double.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-global-routing-helper.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/string.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnGraphTopology");
NS_OBJECT_ENSURE_REGISTERED(DcnGraphTopology);

TypeId
DcnGraphTopology::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcnGraphTopology")
            .SetParent<DcnTopologyBase>()
            .SetGroupName("DcnLb")
            .AddConstructor<DcnGraphTopology>()
            .AddAttribute("Mtu",
                          "Device (IP) MTU in bytes (spec resolution as the fat tree: 4500 "
                          "carries a 4096 B payload)",
                          UintegerValue(4500),
                          MakeUintegerAccessor(&DcnGraphTopology::m_mtu),
                          MakeUintegerChecker<uint32_t>(576, 65535))
            .AddAttribute("QueueLimit",
                          "Switch port data-queue limit (spec resolution as the fat tree: "
                          "415000 B ~ 100 packets)",
                          QueueSizeValue(QueueSize("415000B")),
                          MakeQueueSizeAccessor(&DcnGraphTopology::m_queueLimit),
                          MakeQueueSizeChecker())
            .AddAttribute("HostQueueLimit",
                          "Host NIC queue limit (spec resolution: large, hosts do not drop)",
                          QueueSizeValue(QueueSize("100000000B")),
                          MakeQueueSizeAccessor(&DcnGraphTopology::m_hostQueueLimit),
                          MakeQueueSizeChecker())
            .AddAttribute("KminFraction",
                          "ECN Kmin as a fraction of the queue limit (REPS spec 3.1: 20%)",
                          DoubleValue(0.2),
                          MakeDoubleAccessor(&DcnGraphTopology::m_kmin),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("KmaxFraction",
                          "ECN Kmax as a fraction of the queue limit (REPS spec 3.1: 80%)",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&DcnGraphTopology::m_kmax),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("TrimEnabled",
                          "Packet trimming at switch ports (off; spritz spec 4.1 trims: enable)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&DcnGraphTopology::m_trim),
                          MakeBooleanChecker())
            .AddAttribute("MarkAtDequeue",
                          "ECN decision at dequeue (REPS spec 2.1: dequeue)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DcnGraphTopology::m_markAtDequeue),
                          MakeBooleanChecker())
            .AddAttribute("HostEcn",
                          "ECN marking at host NIC queues (off)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&DcnGraphTopology::m_hostEcn),
                          MakeBooleanChecker())
            .AddAttribute("ForwardingPolicy",
                          "Switch routing policy: a DcnRoutingPolicies name (minimal, ecmp, "
                          "spray, valiant, ugal-l, source) or a TypeId name",
                          StringValue("minimal"),
                          MakeStringAccessor(&DcnGraphTopology::m_policyType),
                          MakeStringChecker())
            .AddAttribute("Routing",
                          "'dcn' (DcnSwitchRouting: tables from the structure, ForwardingPolicy) "
                          "or 'global' (ns-3 Ipv4GlobalRouting on every node, for comparison; "
                          "its RandomEcmpRouting attribute picks per-packet random ECMP, else "
                          "the first route), as FatTreeHelper's Routing",
                          StringValue("dcn"),
                          MakeStringAccessor(&DcnGraphTopology::m_routingMode),
                          MakeStringChecker());
    return tid;
}

DcnGraphTopology::DcnGraphTopology()
{
    NS_LOG_FUNCTION(this);
}

DcnGraphTopology::~DcnGraphTopology()
{
    NS_LOG_FUNCTION(this);
}

void
DcnGraphTopology::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_graphPaths.clear();
    m_minimal.reset();
    m_graph.reset();
    DcnTopologyBase::DoDispose();
}

void
DcnGraphTopology::SetGraph(const dcn::SwitchGraph& g)
{
    NS_LOG_FUNCTION(this << g.name);
    if (m_built)
    {
        throw DcnOptionError("DcnGraphTopology::SetGraph after Build()");
    }
    std::string why = g.Check();
    if (!why.empty())
    {
        throw DcnOptionError("topology '" + g.name + "': " + why);
    }
    if (g.NHosts() == 0)
    {
        throw DcnOptionError("topology '" + g.name + "': no hosts; allowed >= 1 host");
    }
    // the builders refuse these sizes from their parameters; a graph made by hand too
    const std::string size = dcn::CheckTopologySize(g.NHosts(), g.NLinks());
    if (!size.empty())
    {
        throw DcnOptionError("topology '" + g.name + "' " + size);
    }
    if (dcn::CountComponents(g) != 1)
    {
        throw DcnOptionError("topology '" + g.name + "': the switch graph is not connected");
    }
    m_graph = std::make_shared<dcn::SwitchGraph>(g);
    m_minimal = std::make_shared<dcn::MinimalRouting>(*m_graph);
    m_graphPaths.clear();
    // Contiguous group ids: DF/SF groups, otherwise one per switch.
    const bool grouped = g.fam.family == "dragonfly" || g.fam.family == "slimfly";
    m_groups.assign(g.NSwitches(), 0);
    std::map<uint32_t, uint32_t> ids;
    for (uint32_t s = 0; s < g.NSwitches(); ++s)
    {
        uint32_t key = grouped ? g.switches[s].group : s;
        auto it = ids.emplace(key, static_cast<uint32_t>(ids.size())).first;
        m_groups[s] = it->second;
    }
    m_nGroups = static_cast<uint32_t>(ids.size());
}

const dcn::SwitchGraph&
DcnGraphTopology::GetGraph() const
{
    NS_ABORT_MSG_IF(!m_graph, "DcnGraphTopology: no graph (SetGraph first)");
    return *m_graph;
}

const dcn::MinimalRouting&
DcnGraphTopology::GetMinimalRouting() const
{
    NS_ABORT_MSG_IF(!m_minimal, "DcnGraphTopology: no graph (SetGraph first)");
    return *m_minimal;
}

uint32_t
DcnGraphTopology::GetGroupOfSwitch(uint32_t sw) const
{
    NS_ABORT_MSG_IF(sw >= m_groups.size(),
                    GetTopologyName()
                        << ": switch=" << sw << "; allowed [0," << m_groups.size() << ")");
    return m_groups[sw];
}

std::string
DcnGraphTopology::GetTopologyName() const
{
    return m_graph ? m_graph->name : "graph";
}

DataRate
DcnGraphTopology::GetHostLinkRate() const
{
    NS_ABORT_MSG_IF(!m_graph, "DcnGraphTopology: no graph (SetGraph first)");
    for (const auto& s : m_graph->switches)
    {
        if (s.nHosts > 0)
        {
            return DataRate(static_cast<uint64_t>(s.hostRateBps));
        }
    }
    return DataRate(0);
}

void
DcnGraphTopology::Build()
{
    NS_LOG_FUNCTION(this);
    if (!m_graph)
    {
        throw DcnOptionError("DcnGraphTopology::Build: no graph (SetGraph first)");
    }
    if (m_built)
    {
        throw DcnOptionError("DcnGraphTopology::Build called twice");
    }
    if (m_routingMode != "dcn" && m_routingMode != "global")
    {
        throw DcnOptionError("option --ns3::DcnGraphTopology::Routing: value '" + m_routingMode +
                             "'; allowed: dcn, global");
    }
    CheckFabricMode(m_routingMode);
    const bool global = m_routingMode == "global";
    TypeId ptid;
    std::string pname = m_policyType.rfind("ns3::", 0) == 0
                            ? m_policyType
                            : DcnRoutingPolicies::TypeIdName(m_policyType);
    if (!TypeId::LookupByNameFailSafe(pname, &ptid) ||
        !ptid.IsChildOf(ForwardingPolicy::GetTypeId()))
    {
        throw DcnOptionError("option --ns3::DcnGraphTopology::ForwardingPolicy: value '" +
                             m_policyType +
                             "' is not a routing policy; allowed: minimal, ecmp, spray, valiant, "
                             "ugal-l, source, spritz or a ns3::DcnForwardingPolicy subclass");
    }
    const dcn::SwitchGraph& g = *m_graph;
    const uint32_t nS = g.NSwitches();
    const uint32_t nH = g.NHosts();
    m_hosts.Create(nH);
    NodeContainer tier0;
    NodeContainer tier1;
    std::vector<Ptr<Node>> sw(nS);
    for (uint32_t s = 0; s < nS; ++s)
    {
        sw[s] = CreateObject<Node>();
    }
    // Switch index = graph id: register in graph order as one tier list when all
    // switches share a tier, else tier 0 / tier 1 (graph ids are then remapped).
    bool twoTiers = false;
    for (uint32_t s = 0; s < nS; ++s)
    {
        twoTiers |= dcn::TierOf(g.switches[s].role) > 0;
    }
    std::vector<NodeContainer> tiers(1);
    for (uint32_t s = 0; s < nS; ++s)
    {
        tiers[0].Add(sw[s]);
    }
    NodeContainer all;
    all.Add(m_hosts);
    all.Add(tiers[0]);
    InternetStackHelper stack; // global: ns-3's default list (static + global routing)
    if (!global)
    {
        stack.SetRoutingHelper(DcnSwitchRoutingHelper());
    }
    stack.Install(all);
    RegisterNodes(m_hosts, tiers);
    // Tiers by role (RegisterNodes numbered every switch as tier 0 in graph order).
    for (uint32_t s = 0; s < nS; ++s)
    {
        m_nodeTier[sw[s]->GetId()] = dcn::TierOf(g.switches[s].role);
    }
    m_nTiers = twoTiers ? 2 : 1;

    const double latNs = g.switchLatencyNs;
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("Mtu", UintegerValue(m_mtu));
    p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", QueueSizeValue(QueueSize("1p")));
    auto addLink = [&](Ptr<Node> a,
                       Ptr<Node> b,
                       int32_t ta,
                       int32_t tb,
                       double bps,
                       double delayNs,
                       const std::string& name) {
        DataRate rate(static_cast<uint64_t>(std::llround(bps)));
        Time delay = PicoSeconds(static_cast<int64_t>(std::llround(delayNs * 1000.0)));
        p2p.SetDeviceAttribute("DataRate", DataRateValue(rate));
        p2p.SetChannelAttribute("Delay", TimeValue(delay));
        NetDeviceContainer d = MakeLink(p2p, a, b, rate, delay, m_mtu);
        DcnLinkInfo li;
        li.id = static_cast<uint32_t>(m_links.size());
        li.name = name;
        li.a = a;
        li.b = b;
        li.devA = DynamicCast<PointToPointNetDevice>(d.Get(0));
        li.devB = DynamicCast<PointToPointNetDevice>(d.Get(1));
        li.tierA = ta;
        li.tierB = tb;
        li.rate = rate;
        li.delay = delay;
        RegisterLink(li);
    };
    m_links.reserve(g.NLinks() + nH);
    for (const dcn::SwitchLink& l : g.links)
    {
        addLink(sw[l.a],
                sw[l.b],
                dcn::TierOf(g.switches[l.a].role),
                dcn::TierOf(g.switches[l.b].role),
                l.rateBps,
                l.delayNs + latNs,
                l.name);
    }
    for (uint32_t h = 0; h < nH; ++h)
    {
        uint32_t s = g.SwitchOfHost(h);
        const dcn::SwitchInfo& si = g.switches[s];
        addLink(m_hosts.Get(h),
                sw[s],
                -1,
                dcn::TierOf(si.role),
                si.hostRateBps,
                si.hostDelayNs + latNs / 2,
                "h" + std::to_string(h) + "-" + si.name);
    }
    InstallPortQueuesAndAddresses([&g](const DcnLinkInfo& li) {
        return li.tierA < 0 ? DcnAddressing::HostAddress(li.id - g.NLinks())
                            : DcnAddressing::SwitchLinkAddress(li.id, false);
    });
    m_built = true;
    if (global)
    {
        // ns-3's own shortest-path routing (no policies, no DcnRouteInfo): comparisons only
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();
        return;
    }
    // Policies, host mode, tables.
    ObjectFactory pf;
    pf.SetTypeId(ptid);
    for (uint32_t h = 0; h < nH; ++h)
    {
        GetRouting(m_hosts.Get(h))->SetHostMode(m_links[g.NLinks() + h].ifA);
    }
    for (uint32_t s = 0; s < nS; ++s)
    {
        Ptr<ForwardingPolicy> pol = pf.Create<ForwardingPolicy>();
        pol->Attach(sw[s]);
        GetRouting(sw[s])->SetForwardingPolicy(pol);
    }
    InstallMinimalTables();
    DcnRouteInfo::Get(*this, m_groups); // groups for the Valiant intermediates
    AttachPolicies();
    EnableFastPaths();
}

void
DcnGraphTopology::InstallMinimalTables()
{
    NS_LOG_FUNCTION(this);
    const dcn::SwitchGraph& g = *m_graph;
    const uint32_t nS = g.NSwitches();
    const uint32_t slack = [this] {
        UintegerValue v;
        GetAttribute("NonMinimalSlack", v);
        return static_cast<uint32_t>(v.Get());
    }();
    // Generic BFS tables give the key layout (one key per destination switch, or
    // per host), local hosts and (slack) non-minimal candidates; while every link
    // is routed the minimal candidates are then replaced by MinimalRouting's.
    InstallShortestPathTables(slack);
    if (m_nWithdrawn > 0)
    {
        return;
    }
    std::vector<uint32_t> ports;
    std::vector<uint32_t> minimal;
    for (uint32_t x = 0; x < nS; ++x)
    {
        Ptr<Node> node = m_switches.Get(x);
        Ptr<DcnSwitchRouting> r = GetRouting(node);
        const uint32_t nKeys = r->GetNKeys();
        const uint32_t block = nKeys > 0 ? g.NHosts() / nKeys : 1;
        for (uint32_t k = 0; k < nKeys; ++k)
        {
            uint32_t d = g.SwitchOfHost(k * block);
            if (d == x)
            {
                continue;
            }
            const uint32_t* mn = nullptr;
            const uint32_t* nm = nullptr;
            uint32_t nMin = 0;
            uint32_t nNon = 0;
            uint32_t key = 0;
            if (!r->GetCandidates(k * block, mn, nMin, nm, nNon, key))
            {
                nNon = 0;
            }
            std::vector<uint32_t> nonMinimal(nm, nm + nNon);
            m_minimal->NextHops(x, d, &ports);
            minimal.clear();
            for (uint32_t pi : ports)
            {
                const DcnLinkInfo& l = m_links[g.Ports(x)[pi].link];
                minimal.push_back(l.a == node ? l.ifA : l.ifB);
            }
            // a port cannot be both
            nonMinimal.erase(std::remove_if(nonMinimal.begin(),
                                            nonMinimal.end(),
                                            [&](uint32_t i) {
                                                return std::find(minimal.begin(),
                                                                 minimal.end(),
                                                                 i) != minimal.end();
                                            }),
                             nonMinimal.end());
            r->SetEntry(k, minimal, nonMinimal);
        }
    }
}

void
DcnGraphTopology::SetLinkRouted(uint32_t linkId, bool routed)
{
    NS_LOG_FUNCTION(this << linkId << routed);
    NS_ABORT_MSG_IF(!m_built, "DcnGraphTopology::SetLinkRouted before Build()");
    NS_ABORT_MSG_IF(linkId >= m_links.size(),
                    GetTopologyName() << "::SetLinkRouted: linkId=" << linkId << "; allowed [0,"
                                      << m_links.size() << ")");
    if (m_routed[linkId] == routed)
    {
        return;
    }
    m_routed[linkId] = routed;
    m_nWithdrawn += routed ? -1 : 1;
    m_linkRouted(linkId, routed);
    if (m_routingMode == "global")
    {
        // ns-3's way: the link's interfaces go down (up), global routing recomputes
        const DcnLinkInfo& l = m_links[linkId];
        for (auto end : {std::make_pair(l.a, l.ifA), std::make_pair(l.b, l.ifB)})
        {
            Ptr<Ipv4> ip = end.first->GetObject<Ipv4>();
            routed ? ip->SetUp(end.second) : ip->SetDown(end.second);
        }
        Ipv4GlobalRoutingHelper::RecomputeRoutingTables();
        return;
    }
    InstallMinimalTables();
    Ptr<DcnRouteInfo> info = GetObject<DcnRouteInfo>();
    if (info)
    {
        info->Rebuild(*this);
    }
}

const DcnPathSet&
DcnGraphTopology::GetPaths(uint32_t s, uint32_t d) const
{
    NS_LOG_FUNCTION(this << s << d);
    NS_ABORT_MSG_IF(!m_built, GetTopologyName() << "::GetPaths before Build()");
    NS_ABORT_MSG_IF(s >= GetNSwitches() || d >= GetNSwitches(),
                    GetTopologyName() << "::GetPaths: src=" << s << " dst=" << d
                                      << "; allowed switch indices [0," << GetNSwitches() << ")");
    uint64_t key = (uint64_t(s) << 32) | d;
    auto it = m_graphPaths.find(key);
    if (it != m_graphPaths.end())
    {
        return it->second;
    }
    DcnPathSet& ps = m_graphPaths[key];
    ps.srcSwitch = s;
    ps.dstSwitch = d;
    if (s == d)
    {
        return ps;
    }
    UintegerValue slack;
    GetAttribute("NonMinimalSlack", slack);
    UintegerValue maxPaths;
    GetAttribute("MaxPathsPerPair", maxPaths);
    auto add = [&](const dcn::GraphPath& gp, DcnPathClass cls) {
        if (gp.Empty() || ps.paths.size() >= maxPaths.Get())
        {
            return;
        }
        DcnPath p;
        p.id = static_cast<uint32_t>(ps.paths.size());
        p.cls = cls;
        p.switches = gp.switches;
        p.links = gp.links; // graph link id == ns-3 link id
        for (uint32_t l : p.links)
        {
            p.latency += m_links[l].delay;
        }
        ps.paths.push_back(std::move(p));
    };
    for (const auto& gp : m_minimal->MinimalPaths(s, d))
    {
        add(gp, DcnPathClass::MINIMAL);
    }
    ps.nMinimal = static_cast<uint32_t>(ps.paths.size());
    if (slack.Get() > 0)
    {
        for (uint32_t via : m_minimal->ValiantIntermediates(s, d))
        {
            add(m_minimal->ValiantPath(s, via, d), DcnPathClass::NONMINIMAL);
        }
    }
    return ps;
}

uint32_t
DcnGraphTopology::GetSystemId(Ptr<Node> n, uint32_t nRanks) const
{
    NS_ABORT_MSG_IF(nRanks == 0, GetTopologyName() << "::GetSystemId: nRanks must be >= 1");
    uint32_t sw = GetSwitchIndex(n);
    if (sw == DcnAddressing::NONE)
    {
        sw = GetSwitchOfHost(GetHostOfNode(n));
    }
    return static_cast<uint32_t>(uint64_t(m_groups[sw]) * nRanks / std::max(1u, m_nGroups));
}

int64_t
DcnGraphTopology::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    int64_t s = stream;
    for (uint32_t i = 0; i < m_switches.GetN(); ++i)
    {
        Ptr<DcnSwitchRouting> r = GetRouting(m_switches.Get(i));
        if (r && r->GetForwardingPolicy())
        {
            s += r->GetForwardingPolicy()->AssignStreams(s);
        }
    }
    for (auto& q : m_qdiscs)
    {
        if (q)
        {
            s += q->AssignStreams(s);
        }
    }
    return s - stream;
}

std::string
DcnGraphTopology::ToDot() const
{
    dcn::DotOptions o;
    if (m_built)
    {
        o.failedLinks.assign(m_graph->NLinks(), false);
        for (uint32_t l = 0; l < m_graph->NLinks(); ++l)
        {
            o.failedLinks[l] = !m_routed[l];
        }
        for (uint32_t h = 0; h < m_graph->NHosts(); ++h)
        {
            if (!m_routed[m_graph->NLinks() + h])
            {
                o.failedHosts.push_back(h);
            }
        }
    }
    return dcn::ToDot(GetGraph(), o);
}

} // namespace ns3
