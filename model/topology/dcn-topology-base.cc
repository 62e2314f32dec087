#include "dcn-topology-base.h"

#include "ns3/boolean.h"
#include "ns3/dcn-header.h"
#include "ns3/dcn-options.h"
#include "ns3/dcn-port-device.h"
#include "ns3/dcn-queue-disc.h"
#include "ns3/dcn-switch-routing.h"
#include "ns3/double.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/string.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/visitors.hpp>
#include <cstdlib>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnTopologyBase");
NS_OBJECT_ENSURE_REGISTERED(DcnTopologyBase);

/** Switch graph: vertex = switch index, one edge per switch-to-switch link. */
struct DcnTopologyBase::Graph
{
    struct EdgeProp
    {
        uint32_t link{0};
    };

    typedef boost::
        adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, boost::no_property, EdgeProp>
            Type;
    Type g;
};

TypeId
DcnTopologyBase::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcnTopologyBase")
            .SetParent<DcnTopology>()
            .SetGroupName("DcnLb")
            .AddAttribute("NonMinimalSlack",
                          "GetPaths also enumerates simple paths up to this many links longer "
                          "than the shortest (class NONMINIMAL; 0 = minimal paths only; "
                          "Valiant/UGAL detours on a Dragonfly need 2-3; spec resolution)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&DcnTopologyBase::m_slack),
                          MakeUintegerChecker<uint32_t>(0, 8))
            .AddAttribute("MaxPathsPerPair",
                          "Upper bound on the paths GetPaths returns per switch pair (minimal "
                          "paths first; spec resolution)",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&DcnTopologyBase::m_maxPaths),
                          MakeUintegerChecker<uint32_t>(1, 1000000))
            .AddAttribute("FabricMode",
                          "'ipv4': ports are PointToPointNetDevices behind the traffic-control "
                          "layer and switches forward through ns-3's IPv4 stack (compatibility "
                          "mode, needed by Routing=global and MPI partitions); 'fast': "
                          "DcnPortDevice ports own their DcnQueueDisc and switches forward from "
                          "the port straight to the egress queue with the same decision code "
                          "(issue 13, our choice; doc/fabric.rst); 'auto': fast where the "
                          "configuration allows it, else ipv4. Default 'auto', or $DCNLB_FABRIC",
                          StringValue(DefaultFabricMode()),
                          MakeStringAccessor(&DcnTopologyBase::m_fabricMode),
                          MakeStringChecker());
    return tid;
}

DcnTopologyBase::DcnTopologyBase()
{
    NS_LOG_FUNCTION(this);
}

DcnTopologyBase::~DcnTopologyBase()
{
    NS_LOG_FUNCTION(this);
}

void
DcnTopologyBase::DoDispose()
{
    NS_LOG_FUNCTION(this);
    if (IsFastFabric())
    {
        for (auto& q : m_qdiscs)
        {
            if (q)
            {
                q->Dispose(); // owned by DcnPortDevices, not by a traffic-control layer
            }
        }
    }
    m_links.clear();
    m_qdiscs.clear();
    m_graph.reset();
    m_pathCache.clear();
    DcnTopology::DoDispose();
}

void
DcnTopologyBase::RegisterNodes(const NodeContainer& hosts, const std::vector<NodeContainer>& tiers)
{
    NS_LOG_FUNCTION(this << hosts.GetN() << tiers.size());
    m_hosts = hosts;
    m_switches = NodeContainer();
    for (const auto& t : tiers)
    {
        m_switches.Add(t);
    }
    m_nTiers = static_cast<uint32_t>(tiers.size());
    uint32_t maxId = 0;
    for (uint32_t i = 0; i < hosts.GetN(); ++i)
    {
        maxId = std::max(maxId, hosts.Get(i)->GetId());
    }
    for (uint32_t i = 0; i < m_switches.GetN(); ++i)
    {
        maxId = std::max(maxId, m_switches.Get(i)->GetId());
    }
    m_nodeLinks.assign(maxId + 1, {});
    m_nodeTier.assign(maxId + 1, -2);
    m_nodeIndex.assign(maxId + 1, DcnAddressing::NONE);
    for (uint32_t i = 0; i < hosts.GetN(); ++i)
    {
        m_nodeTier[hosts.Get(i)->GetId()] = -1;
        m_nodeIndex[hosts.Get(i)->GetId()] = i;
    }
    uint32_t idx = 0;
    for (uint32_t t = 0; t < tiers.size(); ++t)
    {
        for (uint32_t i = 0; i < tiers[t].GetN(); ++i)
        {
            m_nodeTier[tiers[t].Get(i)->GetId()] = static_cast<int32_t>(t);
            m_nodeIndex[tiers[t].Get(i)->GetId()] = idx++;
        }
    }
}

uint32_t
DcnTopologyBase::RegisterLink(const DcnLinkInfo& link)
{
    NS_LOG_FUNCTION(this << link.name);
    NS_ABORT_MSG_IF(link.id != m_links.size(),
                    "DcnTopologyBase::RegisterLink: id=" << link.id << "; expected "
                                                         << m_links.size());
    NS_ABORT_MSG_IF(!m_linkByName.emplace(link.name, link.id).second,
                    "DcnTopologyBase::RegisterLink: duplicate link name '" << link.name << "'");
    m_links.push_back(link);
    return link.id;
}

void
DcnTopologyBase::FinishLinks()
{
    NS_LOG_FUNCTION(this);
    m_routed.assign(m_links.size(), true);
    m_nWithdrawn = 0;
    m_hostSwitch.assign(m_hosts.GetN(), DcnAddressing::NONE);
    for (auto& v : m_nodeLinks)
    {
        v.clear();
    }
    for (const DcnLinkInfo& l : m_links)
    {
        m_nodeLinks[l.a->GetId()].push_back(l.id);
        m_nodeLinks[l.b->GetId()].push_back(l.id);
        if (l.tierA < 0 && l.tierB >= 0)
        {
            m_hostSwitch[m_nodeIndex[l.a->GetId()]] = m_nodeIndex[l.b->GetId()];
        }
        else if (l.tierB < 0 && l.tierA >= 0)
        {
            m_hostSwitch[m_nodeIndex[l.b->GetId()]] = m_nodeIndex[l.a->GetId()];
        }
        // INT identity of the switch egress queues (issue 12): switch index, ifIndex, rate
        const size_t qa = 2 * size_t(l.id);
        if (l.tierA >= 0 && qa < m_qdiscs.size() && m_qdiscs[qa])
        {
            m_qdiscs[qa]->SetIntIdentity(static_cast<uint16_t>(m_nodeIndex[l.a->GetId()]),
                                         static_cast<uint16_t>(l.devA->GetIfIndex()),
                                         l.rate);
        }
        if (l.tierB >= 0 && qa + 1 < m_qdiscs.size() && m_qdiscs[qa + 1])
        {
            m_qdiscs[qa + 1]->SetIntIdentity(static_cast<uint16_t>(m_nodeIndex[l.b->GetId()]),
                                             static_cast<uint16_t>(l.devB->GetIfIndex()),
                                             l.rate);
        }
    }
    ClearPathCache();
}

void
DcnTopologyBase::AttachPolicies()
{
    NS_LOG_FUNCTION(this);
    for (uint32_t i = 0; i < m_switches.GetN(); ++i)
    {
        Ptr<DcnSwitchRouting> r = GetRouting(m_switches.Get(i));
        if (r && r->GetForwardingPolicy())
        {
            r->GetForwardingPolicy()->AttachTopology(*this, i);
        }
    }
}

void
DcnTopologyBase::ClearPathCache()
{
    NS_LOG_FUNCTION(this);
    m_graph.reset();
    m_pathCache.clear();
}

// ---- hosts and switches ----

uint32_t
DcnTopologyBase::GetNHosts() const
{
    return m_hosts.GetN();
}

NodeContainer
DcnTopologyBase::GetHosts() const
{
    return m_hosts;
}

Ipv4Address
DcnTopologyBase::GetHostAddress(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= GetNHosts(),
                    GetTopologyName() << ": host=" << i << "; allowed [0," << GetNHosts() << ")");
    return DcnAddressing::HostAddress(i);
}

uint32_t
DcnTopologyBase::GetHostIndex(Ipv4Address a) const
{
    uint32_t i = DcnAddressing::HostIndexOf(a);
    return (i < GetNHosts() && (a.Get() & 3) == 1) ? i : DcnAddressing::NONE;
}

uint32_t
DcnTopologyBase::GetNSwitches() const
{
    return m_switches.GetN();
}

NodeContainer
DcnTopologyBase::GetAllSwitches() const
{
    return m_switches;
}

uint32_t
DcnTopologyBase::GetSwitchOfHost(uint32_t host) const
{
    NS_ABORT_MSG_IF(host >= m_hostSwitch.size(),
                    GetTopologyName()
                        << ": host=" << host << "; allowed [0," << m_hostSwitch.size() << ")");
    return m_hostSwitch[host];
}

Ptr<DcnSwitchRouting>
DcnTopologyBase::GetRouting(Ptr<Node> n) const
{
    return DynamicCast<DcnSwitchRouting>(n->GetObject<Ipv4>()->GetRoutingProtocol());
}

int32_t
DcnTopologyBase::GetTierOfNode(Ptr<Node> n) const
{
    uint32_t id = n->GetId();
    NS_ABORT_MSG_IF(id >= m_nodeTier.size() || m_nodeTier[id] == -2,
                    GetTopologyName() << ": node " << id << " is not part of this topology");
    return m_nodeTier[id];
}

uint32_t
DcnTopologyBase::GetSwitchIndex(Ptr<Node> n) const
{
    uint32_t id = n->GetId();
    return (id < m_nodeTier.size() && m_nodeTier[id] >= 0) ? m_nodeIndex[id] : DcnAddressing::NONE;
}

uint32_t
DcnTopologyBase::GetHostOfNode(Ptr<Node> n) const
{
    uint32_t id = n->GetId();
    return (id < m_nodeTier.size() && m_nodeTier[id] == -1) ? m_nodeIndex[id] : DcnAddressing::NONE;
}

// ---- links ----

const std::vector<DcnLinkInfo>&
DcnTopologyBase::GetLinks() const
{
    return m_links;
}

const DcnLinkInfo&
DcnTopologyBase::GetLink(uint32_t id) const
{
    NS_ABORT_MSG_IF(id >= m_links.size(),
                    GetTopologyName()
                        << ": linkId=" << id << "; allowed [0," << m_links.size() << ")");
    return m_links[id];
}

const std::vector<uint32_t>&
DcnTopologyBase::GetLinksOfNode(Ptr<Node> n) const
{
    GetTierOfNode(n); // validates
    return m_nodeLinks[n->GetId()];
}

std::string
DcnTopologyBase::DefaultFabricMode()
{
    // any other value is kept, so that CheckFabricMode refuses it (not run as auto)
    const char* e = std::getenv("DCNLB_FABRIC");
    return e && *e ? std::string(e) : std::string("auto");
}

bool
DcnTopologyBase::IsFastFabric() const
{
    return m_fabricMode == "fast";
}

void
DcnTopologyBase::CheckFabricMode(const std::string& routing, uint32_t systemCount)
{
    NS_LOG_FUNCTION(this << routing << systemCount);
    if (m_fabricMode != "fast" && m_fabricMode != "ipv4" && m_fabricMode != "auto")
    {
        const char* env = std::getenv("DCNLB_FABRIC");
        const bool fromEnv = env && m_fabricMode == env;
        throw DcnOptionError(GetTopologyName() + ": FabricMode='" + m_fabricMode +
                             "' (option --fabric" +
                             (fromEnv ? std::string(", from $DCNLB_FABRIC") : std::string()) +
                             "); allowed 'auto', 'ipv4' or 'fast'");
    }
    const bool allowed = routing == "dcn" && systemCount <= 1;
    if (m_fabricMode == "auto")
    {
        // fast where the configuration allows it: ns-3's IPv4 routing and MPI
        // partitions (remote channels) keep the IPv4 fabric (doc/fabric.rst)
        m_fabricMode = allowed ? "fast" : "ipv4";
        NS_LOG_LOGIC("FabricMode=auto: " << m_fabricMode);
        return;
    }
    if (m_fabricMode == "fast" && !allowed)
    {
        const char* env = std::getenv("DCNLB_FABRIC");
        if (env && std::string(env) == "fast")
        {
            // DCNLB_FABRIC=fast means "fast where the configuration allows" (as auto)
            NS_LOG_LOGIC("Routing=" << routing << ": FabricMode=ipv4 despite DCNLB_FABRIC=fast");
            m_fabricMode = "ipv4";
            return;
        }
        if (routing != "dcn")
        {
            throw DcnOptionError(GetTopologyName() + ": Routing='" + routing +
                                 "' needs FabricMode=ipv4 (option --fabric=ipv4: ns-3's IPv4 "
                                 "routing forwards through the IPv4 stack); FabricMode=fast "
                                 "allows Routing=dcn only");
        }
        throw DcnOptionError(GetTopologyName() +
                             ": FabricMode=fast with SystemCount=" + std::to_string(systemCount) +
                             " (options --fabric, --mpi): ranks are linked by ns-3's "
                             "PointToPointRemoteChannel, which the fast fabric does not use; "
                             "allowed: FabricMode=ipv4 or auto");
    }
}

NetDeviceContainer
DcnTopologyBase::MakeLink(PointToPointHelper& p2p,
                          Ptr<Node> a,
                          Ptr<Node> b,
                          DataRate rate,
                          Time delay,
                          uint16_t mtu)
{
    NS_LOG_FUNCTION(this << a->GetId() << b->GetId() << rate << delay << mtu);
    if (!IsFastFabric())
    {
        return p2p.Install(a, b);
    }
    NetDeviceContainer d;
    Ptr<PointToPointChannel> ch = CreateObject<PointToPointChannel>();
    ch->SetAttribute("Delay", TimeValue(delay));
    for (Ptr<Node> n : {a, b})
    {
        Ptr<DcnPortDevice> dev = CreateObject<DcnPortDevice>();
        dev->SetAddress(Mac48Address::Allocate());
        dev->SetDataRate(rate);
        dev->SetMtu(mtu);
        n->AddDevice(dev);
        dev->Attach(ch);
        d.Add(dev);
    }
    return d;
}

Ptr<DcnQueueDisc>
DcnTopologyBase::InstallPortQueue(TrafficControlHelper& tch, Ptr<NetDevice> dev)
{
    NS_LOG_FUNCTION(this << dev);
    Ptr<DcnQueueDisc> q = DynamicCast<DcnQueueDisc>(tch.Install(dev).Get(0));
    Ptr<DcnPortDevice> port = DynamicCast<DcnPortDevice>(dev);
    if (port)
    {
        // Made by the same helper (same attributes), then owned by the device.
        dev->GetNode()->GetObject<TrafficControlLayer>()->DeleteRootQueueDiscOnDevice(dev);
        port->SetQueueDisc(q);
    }
    return q;
}

void
DcnTopologyBase::InstallPortQueuesAndAddresses(
    const std::function<Ipv4Address(const DcnLinkInfo&)>& lowerAddress)
{
    NS_LOG_FUNCTION(this);
    const std::string opt = "option --" + GetInstanceTypeId().GetName() + "::";
    DCN_REFUSE_IF(m_queueLimit.GetValue() == 0,
                  opt << "QueueLimit: value '" << m_queueLimit << "'; allowed: > 0");
    DCN_REFUSE_IF(m_hostQueueLimit.GetValue() == 0,
                  opt << "HostQueueLimit: value '" << m_hostQueueLimit << "'; allowed: > 0");
    DCN_REFUSE_IF(m_kmin > m_kmax,
                  opt << "KminFraction: value '" << m_kmin << "' is above KmaxFraction " << m_kmax
                      << "; allowed: KminFraction <= KmaxFraction");
    TrafficControlHelper swTch;
    swTch.SetRootQueueDisc("ns3::DcnQueueDisc",
                           "DataLimit",
                           QueueSizeValue(m_queueLimit),
                           "KminFraction",
                           DoubleValue(m_kmin),
                           "KmaxFraction",
                           DoubleValue(m_kmax),
                           "TrimEnabled",
                           BooleanValue(m_trim),
                           "HostNic",
                           BooleanValue(false), // even if a user set its default
                           "MarkAtDequeue",
                           BooleanValue(m_markAtDequeue));
    TrafficControlHelper hostTch;
    hostTch.SetRootQueueDisc("ns3::DcnQueueDisc",
                             "DataLimit",
                             QueueSizeValue(m_hostQueueLimit),
                             "HighLimit",
                             QueueSizeValue(m_hostQueueLimit),
                             "KminFraction",
                             DoubleValue(m_kmin),
                             "KmaxFraction",
                             DoubleValue(m_kmax),
                             "EcnEnabled",
                             BooleanValue(m_hostEcn),
                             "HostNic",
                             BooleanValue(true),
                             "MarkAtDequeue",
                             BooleanValue(m_markAtDequeue));
    const Ipv4Mask mask("255.255.255.252");
    m_qdiscs.resize(2 * m_links.size());
    for (auto& li : m_links)
    {
        m_qdiscs[2 * li.id] = InstallPortQueue(li.tierA < 0 ? hostTch : swTch, li.devA);
        m_qdiscs[2 * li.id + 1] = InstallPortQueue(swTch, li.devB);
        const Ipv4Address lower = lowerAddress(li);
        Ptr<Ipv4> ia = li.a->GetObject<Ipv4>();
        Ptr<Ipv4> ib = li.b->GetObject<Ipv4>();
        li.ifA = ia->AddInterface(li.devA);
        ia->AddAddress(li.ifA, Ipv4InterfaceAddress(lower, mask));
        ia->SetUp(li.ifA);
        li.ifB = ib->AddInterface(li.devB);
        ib->AddAddress(li.ifB, Ipv4InterfaceAddress(Ipv4Address(lower.Get() + 1), mask));
        ib->SetUp(li.ifB);
    }
    FinishLinks();
}

void
DcnTopologyBase::EnableFastPaths()
{
    NS_LOG_FUNCTION(this);
    if (!IsFastFabric())
    {
        return;
    }
    for (uint32_t i = 0; i < m_switches.GetN(); ++i)
    {
        Ptr<DcnSwitchRouting> r = GetRouting(m_switches.Get(i));
        NS_ABORT_MSG_IF(!r, GetTopologyName() << ": FabricMode=fast needs DcnSwitchRouting");
        r->EnableFastPath();
    }
}

Ptr<DcnQueueDisc>
DcnTopologyBase::GetQueueDisc(Ptr<NetDevice> dev) const
{
    Ptr<DcnPortDevice> port = DynamicCast<DcnPortDevice>(dev);
    if (port)
    {
        return port->GetQueueDisc();
    }
    Ptr<TrafficControlLayer> tc = dev->GetNode()->GetObject<TrafficControlLayer>();
    return tc ? DynamicCast<DcnQueueDisc>(tc->GetRootQueueDiscOnDevice(dev)) : nullptr;
}

uint32_t
DcnTopologyBase::FindLink(const std::string& name) const
{
    NS_LOG_FUNCTION(this << name);
    auto it = m_linkByName.find(name);
    return it == m_linkByName.end() ? DcnAddressing::NONE : it->second;
}

bool
DcnTopologyBase::IsBuilt() const
{
    return m_built;
}

uint32_t
DcnTopologyBase::GetNTiers() const
{
    return m_nTiers;
}

bool
DcnTopologyBase::IsLinkRouted(uint32_t linkId) const
{
    NS_ABORT_MSG_IF(linkId >= m_routed.size(),
                    GetTopologyName() << "::IsLinkRouted: linkId=" << linkId << "; allowed [0,"
                                      << m_routed.size() << ")");
    return m_routed[linkId];
}

uint32_t
DcnTopologyBase::GetSystemId(Ptr<Node> n, uint32_t nRanks) const
{
    NS_ABORT_MSG_IF(nRanks == 0, GetTopologyName() << "::GetSystemId: nRanks must be >= 1");
    uint32_t sw = GetSwitchIndex(n);
    if (sw == DcnAddressing::NONE)
    {
        sw = GetSwitchOfHost(GetHostOfNode(n));
    }
    return static_cast<uint32_t>(uint64_t(sw) * nRanks / std::max(1u, GetNSwitches()));
}

// ---- paths ----

void
DcnTopologyBase::BuildGraph() const
{
    NS_LOG_FUNCTION(this);
    m_graph = std::make_shared<Graph>();
    m_graph->g = Graph::Type(GetNSwitches());
    for (const DcnLinkInfo& l : m_links)
    {
        if (l.tierA >= 0 && l.tierB >= 0)
        {
            boost::add_edge(m_nodeIndex[l.a->GetId()],
                            m_nodeIndex[l.b->GetId()],
                            Graph::EdgeProp{l.id},
                            m_graph->g);
        }
    }
}

void
DcnTopologyBase::Enumerate(uint32_t src, uint32_t dst, DcnPathSet& ps) const
{
    NS_LOG_FUNCTION(this << src << dst);
    const Graph::Type& g = m_graph->g;
    const uint32_t nV = static_cast<uint32_t>(boost::num_vertices(g));
    const uint32_t INF = std::numeric_limits<uint32_t>::max() / 2;
    // Hop distances to dst (undirected: BFS from dst).
    std::vector<uint32_t> dist(nV, INF);
    dist[dst] = 0;
    boost::breadth_first_search(g,
                                boost::vertex(dst, g),
                                boost::visitor(boost::make_bfs_visitor(
                                    boost::record_distances(dist.data(), boost::on_tree_edge()))));
    if (dist[src] >= INF)
    {
        NS_LOG_LOGIC("switches " << src << " and " << dst << " are not connected");
        return;
    }
    const uint32_t shortest = dist[src];
    std::vector<bool> onPath(nV, false);
    std::vector<uint32_t> sw{src};
    std::vector<uint32_t> links;
    // Depth-first walk; pass 0 = minimal paths, pass 1 = longer ones up to the slack.
    for (uint32_t pass = 0; pass < (m_slack > 0 ? 2u : 1u); ++pass)
    {
        const uint32_t bound = pass == 0 ? shortest : shortest + m_slack;
        std::fill(onPath.begin(), onPath.end(), false);
        onPath[src] = true;
        // explicit stack of out-edge iterators
        typedef boost::graph_traits<Graph::Type>::out_edge_iterator It;
        std::vector<std::pair<It, It>> stack;
        stack.push_back(boost::out_edges(src, g));
        while (!stack.empty() && ps.paths.size() < m_maxPaths)
        {
            auto& top = stack.back();
            if (top.first == top.second)
            {
                stack.pop_back();
                onPath[sw.back()] = false;
                sw.pop_back();
                if (!links.empty())
                {
                    links.pop_back();
                }
                continue;
            }
            auto e = *top.first++;
            uint32_t w = static_cast<uint32_t>(boost::target(e, g));
            uint32_t depth = static_cast<uint32_t>(links.size()) + 1;
            if (onPath[w] || depth + dist[w] > bound)
            {
                continue;
            }
            if (w == dst)
            {
                if ((pass == 0) == (depth == shortest))
                {
                    DcnPath p;
                    p.id = static_cast<uint32_t>(ps.paths.size());
                    p.cls = depth == shortest ? DcnPathClass::MINIMAL : DcnPathClass::NONMINIMAL;
                    p.switches = sw;
                    p.switches.push_back(w);
                    p.links = links;
                    p.links.push_back(g[e].link);
                    for (uint32_t l : p.links)
                    {
                        p.latency += m_links[l].delay;
                    }
                    ps.paths.push_back(std::move(p));
                }
                continue;
            }
            onPath[w] = true;
            sw.push_back(w);
            links.push_back(g[e].link);
            stack.push_back(boost::out_edges(w, g));
        }
        // restore the walk state if the cap stopped it early
        sw.assign(1, src);
        links.clear();
        if (pass == 0)
        {
            ps.nMinimal = static_cast<uint32_t>(ps.paths.size());
        }
    }
}

const DcnPathSet&
DcnTopologyBase::GetPaths(uint32_t srcSwitch, uint32_t dstSwitch) const
{
    NS_LOG_FUNCTION(this << srcSwitch << dstSwitch);
    NS_ABORT_MSG_IF(!m_built, GetTopologyName() << "::GetPaths before Build()");
    NS_ABORT_MSG_IF(srcSwitch >= GetNSwitches() || dstSwitch >= GetNSwitches(),
                    GetTopologyName() << "::GetPaths: src=" << srcSwitch << " dst=" << dstSwitch
                                      << "; allowed switch indices [0," << GetNSwitches() << ")");
    uint64_t key = (uint64_t(srcSwitch) << 32) | dstSwitch;
    auto it = m_pathCache.find(key);
    if (it != m_pathCache.end())
    {
        return it->second;
    }
    if (!m_graph)
    {
        BuildGraph();
    }
    DcnPathSet& ps = m_pathCache[key];
    ps.srcSwitch = srcSwitch;
    ps.dstSwitch = dstSwitch;
    if (srcSwitch != dstSwitch)
    {
        Enumerate(srcSwitch, dstSwitch, ps);
    }
    NS_LOG_LOGIC("paths " << srcSwitch << "->" << dstSwitch << ": " << ps.nMinimal << " minimal, "
                          << ps.paths.size() - ps.nMinimal << " non-minimal");
    return ps;
}

Time
DcnTopologyBase::LinkRtt(uint32_t linkId, uint32_t dataBytes, uint32_t ackBytes) const
{
    const DcnLinkInfo& l = m_links[linkId];
    return l.rate.CalculateBytesTxTime(dataBytes) + l.rate.CalculateBytesTxTime(ackBytes) +
           2 * l.delay;
}

uint32_t
DcnTopologyBase::HostLink(uint32_t host) const
{
    NS_ABORT_MSG_IF(host >= m_hosts.GetN(),
                    GetTopologyName()
                        << ": host=" << host << "; allowed [0," << m_hosts.GetN() << ")");
    const std::vector<uint32_t>& l = m_nodeLinks[m_hosts.Get(host)->GetId()];
    NS_ABORT_MSG_IF(l.empty(), GetTopologyName() << ": host " << host << " has no link");
    return l[0];
}

Time
DcnTopologyBase::GetPathRtt(uint32_t s,
                            uint32_t d,
                            const DcnPath& path,
                            uint32_t payloadBytes) const
{
    NS_LOG_FUNCTION(this << s << d << path.id << payloadBytes);
    if (s == d)
    {
        return Time(0);
    }
    // Wire sizes: PPP (2) + IPv4 (20) + UDP (8) + DcnHeader (as DcnTopology::GetPathRtt).
    const uint32_t ovh = 2 + 20 + 8 + DcnHeader::BASE_SIZE;
    const uint32_t dataBytes = payloadBytes + ovh;
    const uint32_t ack = DcnHeader::WIRE_BELOW + DcnHeader::CTRL_BASE_SIZE;
    Time rtt = LinkRtt(HostLink(s), dataBytes, ack);
    for (uint32_t l : path.links)
    {
        rtt += LinkRtt(l, dataBytes, ack);
    }
    return rtt + LinkRtt(HostLink(d), dataBytes, ack);
}

Time
DcnTopologyBase::GetBaseRtt(uint32_t s, uint32_t d, uint32_t payloadBytes) const
{
    NS_LOG_FUNCTION(this << s << d << payloadBytes);
    if (s == d)
    {
        return Time(0);
    }
    const DcnPathSet& ps = GetPaths(GetSwitchOfHost(s), GetSwitchOfHost(d));
    if (ps.srcSwitch == ps.dstSwitch)
    {
        return GetPathRtt(s, d, DcnPath(), payloadBytes);
    }
    NS_ABORT_MSG_IF(ps.nMinimal == 0,
                    GetTopologyName() << ": hosts " << s << " and " << d << " are not connected");
    Time best = Time::Max();
    for (uint32_t i = 0; i < ps.nMinimal; ++i)
    {
        best = std::min(best, GetPathRtt(s, d, ps.paths[i], payloadBytes));
    }
    return best;
}

uint32_t
DcnTopologyBase::GetHopCount(uint32_t s, uint32_t d) const
{
    NS_LOG_FUNCTION(this << s << d);
    if (s == d)
    {
        return 0;
    }
    const DcnPathSet& ps = GetPaths(GetSwitchOfHost(s), GetSwitchOfHost(d));
    if (ps.srcSwitch == ps.dstSwitch)
    {
        return 2;
    }
    NS_ABORT_MSG_IF(ps.nMinimal == 0,
                    GetTopologyName() << ": hosts " << s << " and " << d << " are not connected");
    return 2 + ps.paths[0].Hops();
}

} // namespace ns3
