/*
 * FatTreeHelper: attributes, presets, Build() (nodes, links, queue discs) and the
 * DcnTopology accessors.  Tables, withdrawal and structural paths are in
 * fat-tree-routing.cc.  Slightly over 600 lines: the attribute list alone is ~150.
 */
#include "fat-tree-helper.h"

#include "ns3/boolean.h"
#include "ns3/dcn-header.h"
#include "ns3/dcn-options.h"
#include "ns3/dcn-queue-disc.h"
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
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FatTreeHelper");
NS_OBJECT_ENSURE_REGISTERED(FatTreeHelper);

DcnSwitchRoutingHelper*
DcnSwitchRoutingHelper::Copy() const
{
    return new DcnSwitchRoutingHelper(*this);
}

Ptr<Ipv4RoutingProtocol>
DcnSwitchRoutingHelper::Create(Ptr<Node> node) const
{
    return CreateObject<DcnSwitchRouting>();
}

TypeId
FatTreeHelper::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FatTreeHelper")
            .SetParent<DcnTopologyBase>()
            .SetGroupName("DcnLb")
            .AddConstructor<FatTreeHelper>()
            .AddAttribute("Tiers",
                          "Number of switch tiers: 2 (leaf-spine) or 3 (T0/T1/T2 with pods) "
                          "(REPS spec 3.1)",
                          UintegerValue(2),
                          MakeUintegerAccessor(&FatTreeHelper::m_tiers),
                          MakeUintegerChecker<uint32_t>(2, 3))
            .AddAttribute("NumTors",
                          "Number of ToRs (2 tiers; REPS spec 3.1: 16 for 128 hosts, 32 for 1024)",
                          UintegerValue(16),
                          MakeUintegerAccessor(&FatTreeHelper::m_numTors),
                          MakeUintegerChecker<uint32_t>(1, 65535))
            .AddAttribute("HostsPerTor",
                          "Hosts per ToR (REPS spec 3.1: 8 at 128 hosts 2-tier, 4 at 3-tier, 32 "
                          "at 1024)",
                          UintegerValue(8),
                          MakeUintegerAccessor(&FatTreeHelper::m_hostsPerTor),
                          MakeUintegerChecker<uint32_t>(1, 65535))
            .AddAttribute("UplinksPerTor",
                          "Uplinks per ToR = spines (2 tiers) or aggregation switches per pod (3 "
                          "tiers); oversubscription HostsPerTor:UplinksPerTor (REPS spec 3.1: "
                          "1:1 to 8:1)",
                          UintegerValue(8),
                          MakeUintegerAccessor(&FatTreeHelper::m_uplinksPerTor),
                          MakeUintegerChecker<uint32_t>(1, 65535))
            .AddAttribute("TorsPerPod",
                          "ToRs per pod (3 tiers; REPS spec 3.1: pods of 16 hosts = 4 ToRs)",
                          UintegerValue(4),
                          MakeUintegerAccessor(&FatTreeHelper::m_torsPerPod),
                          MakeUintegerChecker<uint32_t>(1, 65535))
            .AddAttribute("NumPods",
                          "Number of pods (3 tiers; 8 for 128 hosts)",
                          UintegerValue(8),
                          MakeUintegerAccessor(&FatTreeHelper::m_numPods),
                          MakeUintegerChecker<uint32_t>(1, 65535))
            .AddAttribute("AggUplinks",
                          "Uplinks per aggregation switch (3 tiers; spec resolution: "
                          "TorsPerPod for a non-blocking core)",
                          UintegerValue(4),
                          MakeUintegerAccessor(&FatTreeHelper::m_aggUplinks),
                          MakeUintegerChecker<uint32_t>(1, 65535))
            .AddAttribute("HostLinkRate",
                          "Host-ToR link rate (REPS spec 3.1: 400 Gbps [L])",
                          DataRateValue(DataRate("400Gbps")),
                          MakeDataRateAccessor(&FatTreeHelper::m_hostRate),
                          MakeDataRateChecker())
            .AddAttribute("FabricLinkRate",
                          "ToR-T1 link rate (REPS spec 3.1: 400 Gbps [L])",
                          DataRateValue(DataRate("400Gbps")),
                          MakeDataRateAccessor(&FatTreeHelper::m_fabricRate),
                          MakeDataRateChecker())
            .AddAttribute("CoreLinkRate",
                          "T1-T2 link rate (3 tiers; REPS spec 3.1: 400 Gbps [L])",
                          DataRateValue(DataRate("400Gbps")),
                          MakeDataRateAccessor(&FatTreeHelper::m_coreRate),
                          MakeDataRateChecker())
            .AddAttribute("LinkDelay",
                          "Propagation delay of every link (REPS spec 3.1: 500 ns)",
                          TimeValue(NanoSeconds(500)),
                          MakeTimeAccessor(&FatTreeHelper::m_linkDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("SwitchLatency",
                          "Switch traversal latency, folded into link delays (REPS spec 3.1: "
                          "500 ns)",
                          TimeValue(NanoSeconds(500)),
                          MakeTimeAccessor(&FatTreeHelper::m_switchLatency),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("Mtu",
                          "Device (IP) MTU in bytes; must carry 4096 B payload + IP/UDP/DcnHeader "
                          "(REPS spec 3.1: 4 KiB MTU payload; spec resolution 4500)",
                          UintegerValue(4500),
                          MakeUintegerAccessor(&FatTreeHelper::m_mtu),
                          MakeUintegerChecker<uint32_t>(576, 65535))
            .AddAttribute("QueueLimit",
                          "Switch port data-queue limit (REPS spec 3.1: 1 BDP ~ 100 packets = "
                          "415000 B)",
                          QueueSizeValue(QueueSize("415000B")),
                          MakeQueueSizeAccessor(&FatTreeHelper::m_queueLimit),
                          MakeQueueSizeChecker())
            .AddAttribute("HostQueueLimit",
                          "Host NIC queue limit (spec resolution: large, hosts do not drop)",
                          QueueSizeValue(QueueSize("100000000B")),
                          MakeQueueSizeAccessor(&FatTreeHelper::m_hostQueueLimit),
                          MakeQueueSizeChecker())
            .AddAttribute("KminFraction",
                          "ECN Kmin as a fraction of the queue limit (REPS spec 3.1: 20%)",
                          DoubleValue(0.2),
                          MakeDoubleAccessor(&FatTreeHelper::m_kmin),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("KmaxFraction",
                          "ECN Kmax as a fraction of the queue limit (REPS spec 3.1: 80%)",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&FatTreeHelper::m_kmax),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("TrimEnabled",
                          "Packet trimming at switch ports (REPS spec 2.1/3.1: off)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&FatTreeHelper::m_trim),
                          MakeBooleanChecker())
            .AddAttribute("MarkAtDequeue",
                          "ECN decision at dequeue (REPS spec 2.1: dequeue)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FatTreeHelper::m_markAtDequeue),
                          MakeBooleanChecker())
            .AddAttribute("HostEcn",
                          "ECN marking at host NIC queues (spec resolution: off)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&FatTreeHelper::m_hostEcn),
                          MakeBooleanChecker())
            .AddAttribute("ForwardingPolicy",
                          "TypeId name of the switches' forwarding policy, a subclass of "
                          "ns3::DcnForwardingPolicy (REPS spec 2.1: ECMP hash with per-switch "
                          "salt), or a registered short name (ecmp, spray, letflow, drill, "
                          "conga; DcnForwardingPolicyTypeName); the pre-prefix names "
                          "ns3::EcmpForwardingPolicy and ns3::SprayForwardingPolicy are accepted",
                          StringValue("ns3::DcnEcmpForwardingPolicy"),
                          MakeStringAccessor(&FatTreeHelper::m_policyType),
                          MakeStringChecker())
            .AddAttribute("Routing",
                          "'dcn' (DcnSwitchRouting, tables from the structure) or 'global' "
                          "(ns-3 Ipv4GlobalRouting, for comparison; spec resolution)",
                          StringValue("dcn"),
                          MakeStringAccessor(&FatTreeHelper::m_routing),
                          MakeStringChecker())
            .AddAttribute("SlowLinkFraction",
                          "Fraction of ToR uplinks, chosen at random, built at SlowLinkRate "
                          "(REPS spec 3.3: 3% at 200 Gbps; Hermes: 20% at 2 of 10 Gbps)",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&FatTreeHelper::m_slowFraction),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("SlowLinkRate",
                          "Rate of slow (asymmetric) links (REPS spec 3.3: 200 Gbps)",
                          DataRateValue(DataRate("200Gbps")),
                          MakeDataRateAccessor(&FatTreeHelper::m_slowRate),
                          MakeDataRateChecker())
            .AddAttribute("SystemCount",
                          "MPI ranks the nodes are created for (Node system ids from "
                          "GetSystemId: blocks of ToRs (2 tiers) or pods (3 tiers), upper "
                          "tiers spread by index; our choice, README Distributed runs). 1 = "
                          "every node on system 0 (sequential runs); at most the number of "
                          "ToRs (2 tiers) or pods (3 tiers)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&FatTreeHelper::m_systemCount),
                          MakeUintegerChecker<uint32_t>(1, 65536));
    return tid;
}

FatTreeHelper::FatTreeHelper()
    : m_rng(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

FatTreeHelper::~FatTreeHelper()
{
    NS_LOG_FUNCTION(this);
}

void
FatTreeHelper::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& v : m_swRouting)
    {
        v.clear();
    }
    DcnTopologyBase::DoDispose();
}

Ptr<FatTreeHelper>
FatTreeHelper::TwoTier(uint32_t tors, uint32_t hostsPerTor, uint32_t uplinksPerTor)
{
    Ptr<FatTreeHelper> h = CreateObject<FatTreeHelper>();
    h->SetAttribute("Tiers", UintegerValue(2));
    h->SetAttribute("NumTors", UintegerValue(tors));
    h->SetAttribute("HostsPerTor", UintegerValue(hostsPerTor));
    h->SetAttribute("UplinksPerTor", UintegerValue(uplinksPerTor));
    return h;
}

Ptr<FatTreeHelper>
FatTreeHelper::ThreeTier(uint32_t pods,
                         uint32_t torsPerPod,
                         uint32_t hostsPerTor,
                         uint32_t uplinksPerTor,
                         uint32_t aggUplinks)
{
    Ptr<FatTreeHelper> h = CreateObject<FatTreeHelper>();
    h->SetAttribute("Tiers", UintegerValue(3));
    h->SetAttribute("NumPods", UintegerValue(pods));
    h->SetAttribute("TorsPerPod", UintegerValue(torsPerPod));
    h->SetAttribute("HostsPerTor", UintegerValue(hostsPerTor));
    h->SetAttribute("UplinksPerTor", UintegerValue(uplinksPerTor));
    h->SetAttribute("AggUplinks", UintegerValue(aggUplinks));
    return h;
}

Ptr<FatTreeHelper>
FatTreeHelper::RepsPaper128()
{
    return TwoTier(16, 8, 8);
}

Ptr<FatTreeHelper>
FatTreeHelper::RepsPaper128ThreeTier()
{
    return ThreeTier(8, 4, 4, 4, 4);
}

Ptr<FatTreeHelper>
FatTreeHelper::RepsPaper1024()
{
    return TwoTier(32, 32, 32);
}

void
FatTreeHelper::AddSlowLink(uint32_t tor, uint32_t uplink)
{
    NS_LOG_FUNCTION(this << tor << uplink);
    NS_ABORT_MSG_IF(m_built, "FatTreeHelper::AddSlowLink must be called before Build()");
    m_slowRequests.emplace_back(tor, uplink);
}

uint32_t
FatTreeHelper::GetNTors() const
{
    return m_tiers == 3 ? m_numPods * m_torsPerPod : m_numTors;
}

void
FatTreeHelper::Validate() const
{
    // Tiers, the counts, LinkDelay, SwitchLatency, Mtu, the fractions: bounded checkers.
    DCN_REFUSE_IF(m_systemCount > GetMaxSystemCount(),
                  "option --ns3::FatTreeHelper::SystemCount: value '"
                      << m_systemCount << "'; allowed [1, " << GetMaxSystemCount()
                      << "] (one rank per " << (m_tiers == 3 ? "pod" : "ToR") << " at most)");
    // sizes within the topology limits (dcn-topo-builders.h; below the addressing plan's
    // 2^21 hosts and links), computed before anything is allocated
    const uint64_t nTors = m_tiers == 3 ? uint64_t(m_numPods) * m_torsPerPod : uint64_t(m_numTors);
    const uint64_t hosts = nTors * m_hostsPerTor;
    const uint64_t fabric =
        nTors * m_uplinksPerTor +
        (m_tiers == 3 ? uint64_t(m_numPods) * m_uplinksPerTor * m_aggUplinks : 0);
    const std::string size = dcn::CheckTopologySize(hosts, fabric);
    DCN_REFUSE_IF(
        !size.empty(),
        "option --ns3::FatTreeHelper::"
            << (hosts > dcn::MAX_TOPOLOGY_HOSTS ? "HostsPerTor" : "UplinksPerTor") << ": value '"
            << (hosts > dcn::MAX_TOPOLOGY_HOSTS ? m_hostsPerTor : m_uplinksPerTor) << "' with "
            << nTors << " ToRs" << (m_tiers == 3 ? " (3 tiers)" : "") << " " << size);
    uint64_t swPorts = std::max<uint64_t>(
        {uint64_t(m_hostsPerTor) + m_uplinksPerTor,
         m_tiers == 2 ? uint64_t(m_numTors) : uint64_t(m_torsPerPod) + m_aggUplinks,
         m_tiers == 3 ? uint64_t(m_numPods) : 0});
    DCN_REFUSE_IF(swPorts > 65535,
                  "option --ns3::FatTreeHelper::HostsPerTor: the counts give a switch "
                      << swPorts << " ports; allowed <= 65535 per switch");
    for (const auto& [name, rate] : {std::pair<const char*, DataRate>{"HostLinkRate", m_hostRate},
                                     {"FabricLinkRate", m_fabricRate},
                                     {"CoreLinkRate", m_coreRate},
                                     {"SlowLinkRate", m_slowRate}})
    {
        DCN_REFUSE_IF(rate.GetBitRate() == 0,
                      "option --ns3::FatTreeHelper::" << name << ": value '" << rate
                                                      << "'; allowed: > 0bps");
    }
    TypeId ptid;
    DCN_REFUSE_IF(!LookupForwardingPolicy(m_policyType, &ptid),
                  "option --ns3::FatTreeHelper::ForwardingPolicy: value '"
                      << m_policyType
                      << "' is not a switch forwarding policy; allowed: ecmp, spray, letflow, "
                         "drill, conga, conweave or a ns3::DcnForwardingPolicy subclass (e.g. "
                         "ns3::DcnEcmpForwardingPolicy)");
    DCN_REFUSE_IF(m_routing != "dcn" && m_routing != "global",
                  "option --ns3::FatTreeHelper::Routing: value '" << m_routing
                                                                  << "'; allowed: dcn, global");
    for (auto& r : m_slowRequests)
    {
        DCN_REFUSE_IF(r.first >= GetNTors() || r.second >= m_uplinksPerTor,
                      "FatTreeHelper::AddSlowLink: tor=" << r.first << " uplink=" << r.second
                                                         << "; allowed tor < " << GetNTors()
                                                         << ", uplink < " << m_uplinksPerTor);
    }
}

Ipv4Address
FatTreeHelper::AddrOfLinkLower(uint32_t linkId) const
{
    // Host i's link is link i; switch links follow in id order.
    uint32_t nHosts = GetNHosts();
    if (linkId < nHosts)
    {
        return DcnAddressing::HostAddress(linkId);
    }
    return DcnAddressing::SwitchLinkAddress(linkId - nHosts, false);
}

std::string
FatTreeHelper::NodeName(Ptr<Node> n, int32_t tier) const
{
    static const char* names2[] = {"tor", "spine"};
    static const char* names3[] = {"tor", "agg", "core"};
    if (tier < 0)
    {
        return "host" + std::to_string(n->GetId() - m_hosts.Get(0)->GetId());
    }
    const char* prefix = m_tiers == 2 ? names2[tier] : names3[tier];
    return prefix + std::to_string(n->GetId() - m_sw[tier].Get(0)->GetId());
}

uint32_t
FatTreeHelper::AddLink(PointToPointHelper& p2p,
                       Ptr<Node> a,
                       Ptr<Node> b,
                       int32_t tierA,
                       int32_t tierB,
                       DataRate rate,
                       Time delay,
                       bool hostLink)
{
    p2p.SetDeviceAttribute("DataRate", DataRateValue(rate));
    p2p.SetDeviceAttribute("Mtu", UintegerValue(m_mtu));
    p2p.SetChannelAttribute("Delay", TimeValue(delay));
    // Tiny device queue: the queue disc holds the queue (flow control via BQL-less
    // NetDeviceQueueInterface stop/wake).
    p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", QueueSizeValue(QueueSize("1p")));
    NetDeviceContainer d = MakeLink(p2p, a, b, rate, delay, m_mtu);

    DcnLinkInfo li;
    li.id = static_cast<uint32_t>(m_links.size());
    li.a = a;
    li.b = b;
    li.devA = DynamicCast<PointToPointNetDevice>(d.Get(0));
    li.devB = DynamicCast<PointToPointNetDevice>(d.Get(1));
    li.tierA = tierA;
    li.tierB = tierB;
    li.rate = rate;
    li.delay = delay;
    li.name = NodeName(a, tierA) + "-" + NodeName(b, tierB);
    NS_LOG_LOGIC("link " << li.id << " " << li.name << " " << rate << " " << delay);
    return RegisterLink(li);
}

void
FatTreeHelper::Build()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_built, "FatTreeHelper::Build called twice");
    Validate();
    CheckFabricMode(m_routing, m_systemCount);
    const uint32_t nTors = GetNTors();
    const uint32_t H = m_hostsPerTor;
    const uint32_t U = m_uplinksPerTor;
    const uint32_t nHosts = nTors * H;
    const bool three = m_tiers == 3;
    const uint32_t nT1 = three ? m_numPods * U : U;
    const uint32_t nT2 = three ? U * m_aggUplinks : 0;

    // same creation order (node ids) for every SystemCount
    CreateNodes(m_hosts, -1, nHosts);
    CreateNodes(m_sw[0], 0, nTors);
    CreateNodes(m_sw[1], 1, nT1);
    if (three)
    {
        CreateNodes(m_sw[2], 2, nT2);
    }

    NodeContainer all;
    all.Add(m_hosts);
    for (uint32_t t = 0; t < m_tiers; ++t)
    {
        all.Add(m_sw[t]);
    }
    InternetStackHelper stack;
    if (m_routing == "dcn")
    {
        stack.SetRoutingHelper(DcnSwitchRoutingHelper());
    }
    stack.Install(all);

    std::vector<NodeContainer> tiers(m_sw, m_sw + m_tiers);
    RegisterNodes(m_hosts, tiers);

    // Slow ToR uplinks (asymmetry).
    std::vector<bool> slow(size_t(nTors) * U, false);
    for (auto& r : m_slowRequests)
    {
        slow[size_t(r.first) * U + r.second] = true;
    }
    if (m_slowFraction > 0)
    {
        uint32_t total = nTors * U;
        uint32_t want = static_cast<uint32_t>(std::lround(m_slowFraction * total));
        std::vector<uint32_t> idx(total);
        for (uint32_t i = 0; i < total; ++i)
        {
            idx[i] = i;
        }
        for (uint32_t i = 0; i < want; ++i) // partial Fisher-Yates
        {
            uint32_t j = m_rng->GetInteger(i, total - 1);
            std::swap(idx[i], idx[j]);
            slow[idx[i]] = true;
        }
    }

    const Time hostDelay = m_linkDelay + m_switchLatency / 2;
    const Time fabricDelay = m_linkDelay + m_switchLatency;
    PointToPointHelper p2p; // attributes are set per link in AddLink
    m_links.reserve(nHosts + size_t(nTors) * U + size_t(nT1) * m_aggUplinks);
    for (uint32_t i = 0; i < nHosts; ++i)
    {
        AddLink(p2p, m_hosts.Get(i), m_sw[0].Get(i / H), -1, 0, m_hostRate, hostDelay, true);
    }
    m_torUp.assign(nTors, std::vector<uint32_t>(U));
    for (uint32_t t = 0; t < nTors; ++t)
    {
        for (uint32_t u = 0; u < U; ++u)
        {
            uint32_t t1 = three ? (t / m_torsPerPod) * U + u : u;
            DataRate r = slow[size_t(t) * U + u] ? m_slowRate : m_fabricRate;
            m_torUp[t][u] =
                AddLink(p2p, m_sw[0].Get(t), m_sw[1].Get(t1), 0, 1, r, fabricDelay, false);
        }
    }
    if (three)
    {
        m_aggUp.assign(nT1, std::vector<uint32_t>(m_aggUplinks));
        for (uint32_t g = 0; g < nT1; ++g)
        {
            uint32_t a = g % U;
            for (uint32_t k = 0; k < m_aggUplinks; ++k)
            {
                m_aggUp[g][k] = AddLink(p2p,
                                        m_sw[1].Get(g),
                                        m_sw[2].Get(a * m_aggUplinks + k),
                                        1,
                                        2,
                                        m_coreRate,
                                        fabricDelay,
                                        false);
            }
        }
    }
    // Queue discs (before addresses, as ns-3 expects), then interfaces and addresses.
    InstallPortQueuesAndAddresses([this](const DcnLinkInfo& li) { return AddrOfLinkLower(li.id); });

    m_built = true;
    if (m_routing == "dcn")
    {
        InstallRoutes();
        EnableFastPaths();
    }
    else
    {
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    }
}

int64_t
FatTreeHelper::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    int64_t s = stream;
    m_rng->SetStream(s++);
    for (uint32_t t = 0; t < m_tiers; ++t)
    {
        for (auto& r : m_swRouting[t])
        {
            if (r->GetForwardingPolicy())
            {
                s += r->GetForwardingPolicy()->AssignStreams(s);
            }
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

uint32_t
FatTreeHelper::GetNHosts() const
{
    return GetNTors() * m_hostsPerTor;
}

NodeContainer
FatTreeHelper::GetSwitches(uint32_t tier) const
{
    NS_ABORT_MSG_IF(tier >= m_tiers,
                    "FatTreeHelper::GetSwitches: tier=" << tier << "; allowed [0," << m_tiers
                                                        << ")");
    return m_sw[tier];
}

uint32_t
FatTreeHelper::GetTorOfHost(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= GetNHosts(),
                    "FatTreeHelper::GetTorOfHost: host=" << i << "; allowed [0," << GetNHosts()
                                                         << ")");
    return i / m_hostsPerTor;
}

uint32_t
FatTreeHelper::GetPodOfTor(uint32_t tor) const
{
    return m_tiers == 3 ? tor / m_torsPerPod : 0;
}

uint32_t
FatTreeHelper::GetTorUplink(uint32_t tor, uint32_t u) const
{
    NS_ABORT_MSG_IF(tor >= m_torUp.size() || u >= m_uplinksPerTor,
                    "FatTreeHelper::GetTorUplink: tor=" << tor << " uplink=" << u
                                                        << "; allowed tor < " << m_torUp.size()
                                                        << ", uplink < " << m_uplinksPerTor);
    return m_torUp[tor][u];
}

uint32_t
FatTreeHelper::GetAggUplink(uint32_t agg, uint32_t k) const
{
    NS_ABORT_MSG_IF(agg >= m_aggUp.size() || k >= m_aggUplinks,
                    "FatTreeHelper::GetAggUplink: agg="
                        << agg << " uplink=" << k << "; allowed agg < " << m_aggUp.size()
                        << ", uplink < " << m_aggUplinks << " (3 tiers only)");
    return m_aggUp[agg][k];
}

DataRate
FatTreeHelper::GetHostLinkRate() const
{
    return m_hostRate;
}

} // namespace ns3

namespace ns3
{

std::string
FatTreeHelper::GetTopologyName() const
{
    return m_tiers == 2 ? "fat-tree-2tier" : "fat-tree-3tier";
}

uint32_t
FatTreeHelper::GetSwitchOfHost(uint32_t host) const
{
    return GetTorOfHost(host);
}

} // namespace ns3
