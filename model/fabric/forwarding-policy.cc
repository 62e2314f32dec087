#include "forwarding-policy.h"

#include "dcn-queue-disc.h"
#include "dcn-switch-routing.h"

#include "ns3/dcn-addressing.h"
#include "ns3/dcn-topology.h"
#include "ns3/log.h"
#include "ns3/node.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnForwardingPolicy");

NS_OBJECT_ENSURE_REGISTERED(ForwardingPolicy);
NS_OBJECT_ENSURE_REGISTERED(EcmpForwardingPolicy);
NS_OBJECT_ENSURE_REGISTERED(SprayForwardingPolicy);

DcnFlowKey
DcnFlowKey::FromPacket(Ptr<const Packet> p, const Ipv4Header& h)
{
    DcnFlowKey k;
    k.src = h.GetSource().Get();
    k.dst = h.GetDestination().Get();
    k.proto = h.GetProtocol();
    if ((k.proto == 17 || k.proto == 6) && p->GetSize() >= 4)
    {
        uint8_t b[4];
        p->CopyData(b, 4);
        k.srcPort = static_cast<uint16_t>((b[0] << 8) | b[1]);
        k.dstPort = static_cast<uint16_t>((b[2] << 8) | b[3]);
    }
    return k;
}

// ---- DcnForwardingContext ----

DcnForwardingContext::DcnForwardingContext(Ptr<const Packet> p,
                                           const Ipv4Header& h,
                                           uint32_t inIface,
                                           const DcnSwitchRouting* sw)
    : inIf(inIface),
      dstHost(DcnAddressing::HostIndexOf(h.GetDestination())),
      dstKey(DcnAddressing::NONE),
      hops(DcnAddressing::HopsFromTtl(h.GetTtl())),
      m_packet(p),
      m_header(&h),
      m_sw(sw)
{
}

Ptr<Packet>
DcnForwardingContext::MutablePacket()
{
    if (!m_copy)
    {
        m_copy = m_packet->Copy();
    }
    return m_copy;
}

Ipv4Header&
DcnForwardingContext::MutableHeader()
{
    if (!m_headerCopied)
    {
        m_headerCopy = *m_header;
        m_headerCopied = true;
    }
    return m_headerCopy;
}

const DcnQueueDisc*
DcnForwardingContext::Queue(uint32_t iface) const
{
    return m_sw ? m_sw->GetEgressQueue(iface) : nullptr;
}

uint32_t
DcnForwardingContext::QueueBytes(uint32_t iface) const
{
    const DcnQueueDisc* q = Queue(iface);
    return q ? q->GetNBytes() : 0;
}

uint32_t
DcnForwardingContext::QueuePackets(uint32_t iface) const
{
    const DcnQueueDisc* q = Queue(iface);
    return q ? q->GetNPackets() : 0;
}

// ---- ForwardingPolicy ----

TypeId
ForwardingPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcnForwardingPolicy").SetParent<Object>().SetGroupName("DcnLb");
    return tid;
}

ForwardingPolicy::ForwardingPolicy()
{
    NS_LOG_FUNCTION(this);
}

ForwardingPolicy::~ForwardingPolicy()
{
    NS_LOG_FUNCTION(this);
}

void
ForwardingPolicy::Attach(Ptr<Node> node)
{
    NS_LOG_FUNCTION(this << node);
}

uint64_t
ForwardingPolicy::GetDrops() const
{
    return 0;
}

void
ForwardingPolicy::Detach()
{
    NS_LOG_FUNCTION(this);
}

void
ForwardingPolicy::AttachTopology(const DcnTopology& topology, uint32_t switchIndex)
{
    NS_LOG_FUNCTION(this << switchIndex);
}

int64_t
ForwardingPolicy::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    return 0;
}

std::string
ForwardingPolicy::CheckTopology(const DcnTopology& topology) const
{
    return "";
}

std::string
ForwardingPolicy::CheckLeafSpine(const DcnTopology& t, const std::string& what, uint32_t maxUplinks)
{
    if (t.GetNTiers() != 2)
    {
        return what + "has " + std::to_string(t.GetNTiers()) + " switch tiers";
    }
    for (const DcnLinkInfo& li : t.GetLinks())
    {
        const bool hostLink = li.tierA < 0 || li.tierB < 0;
        if (hostLink ? (li.tierA > 0 || li.tierB > 0)
                     : !((li.tierA == 0 && li.tierB == 1) || (li.tierA == 1 && li.tierB == 0)))
        {
            return what + "has link '" + li.name + "' between tiers " + std::to_string(li.tierA) +
                   " and " + std::to_string(li.tierB);
        }
    }
    NodeContainer sw = t.GetAllSwitches();
    for (uint32_t i = 0; i < sw.GetN(); ++i)
    {
        if (t.GetTierOfNode(sw.Get(i)) != 0)
        {
            continue;
        }
        uint32_t n = 0;
        for (uint32_t l : t.GetLinksOfNode(sw.Get(i)))
        {
            const DcnLinkInfo& li = t.GetLink(l);
            n += (li.tierA >= 0 && li.tierB >= 0) ? 1 : 0;
        }
        if (n > maxUplinks)
        {
            return what + "has a leaf with " + std::to_string(n) + " uplinks";
        }
    }
    return "";
}

uint32_t
ForwardingPolicy::FabricPorts(const DcnTopology& t, Ptr<Node> n)
{
    uint32_t k = 0;
    for (uint32_t l : t.GetLinksOfNode(n))
    {
        const DcnLinkInfo& li = t.GetLink(l);
        k += (li.tierA >= 0 && li.tierB >= 0) ? 1 : 0;
    }
    return k;
}

std::string
ForwardingPolicy::CheckClos(const DcnTopology& t, const std::string& what, uint32_t maxUplinks)
{
    std::string e = CheckLeafSpine(t, what, maxUplinks);
    if (!e.empty())
    {
        return e;
    }
    NodeContainer sw = t.GetAllSwitches();
    uint32_t nLeaves = 0;
    for (uint32_t i = 0; i < sw.GetN(); ++i)
    {
        nLeaves += t.GetTierOfNode(sw.Get(i)) == 0 ? 1 : 0;
    }
    for (uint32_t i = 0; i < sw.GetN(); ++i)
    {
        if (t.GetTierOfNode(sw.Get(i)) != 1)
        {
            continue;
        }
        std::vector<Ptr<Node>> leaves;
        for (uint32_t l : t.GetLinksOfNode(sw.Get(i)))
        {
            const DcnLinkInfo& li = t.GetLink(l);
            Ptr<Node> other = li.a == sw.Get(i) ? li.b : li.a;
            if (std::find(leaves.begin(), leaves.end(), other) == leaves.end())
            {
                leaves.push_back(other);
            }
        }
        if (leaves.size() != nLeaves)
        {
            return what + "has a spine linked to " + std::to_string(leaves.size()) + " of " +
                   std::to_string(nLeaves) + " leaves";
        }
    }
    return "";
}

std::string
ForwardingPolicy::CheckHostSwitchPorts(const DcnTopology& t,
                                       const std::string& what,
                                       uint32_t maxPorts)
{
    NodeContainer sw = t.GetAllSwitches();
    std::vector<bool> leaf = LeafSwitches(t, true);
    for (uint32_t i = 0; i < sw.GetN(); ++i)
    {
        const uint32_t n = FabricPorts(t, sw.Get(i));
        if (leaf[i] && n > maxPorts)
        {
            return what + "has a switch with hosts and " + std::to_string(n) +
                   " fabric ports (at most " + std::to_string(maxPorts) + ")";
        }
    }
    return "";
}

std::vector<bool>
ForwardingPolicy::LeafSwitches(const DcnTopology& t, bool anyTopology)
{
    NodeContainer sw = t.GetAllSwitches();
    std::vector<bool> leaf(sw.GetN(), false);
    for (uint32_t i = 0; i < sw.GetN() && !anyTopology; ++i)
    {
        leaf[i] = t.GetTierOfNode(sw.Get(i)) == 0;
    }
    for (uint32_t h = 0; h < t.GetNHosts() && anyTopology; ++h)
    {
        leaf[t.GetSwitchOfHost(h)] = true;
    }
    return leaf;
}

namespace
{

std::vector<std::pair<std::string, std::string>>&
PolicyRegistry()
{
    static std::vector<std::pair<std::string, std::string>> r{
        {"ecmp", "ns3::DcnEcmpForwardingPolicy"},
        {"spray", "ns3::DcnSprayForwardingPolicy"},
        {"letflow", "ns3::DcnLetflowForwardingPolicy"},
        {"drill", "ns3::DcnDrillForwardingPolicy"},
        {"conga", "ns3::DcnCongaForwardingPolicy"},
        {"conweave", "ns3::DcnConWeaveForwardingPolicy"},
    };
    return r;
}

} // namespace

std::string
DcnForwardingPolicyTypeName(const std::string& shortName)
{
    for (const auto& e : PolicyRegistry())
    {
        if (e.first == shortName)
        {
            return e.second;
        }
    }
    return "";
}

std::vector<std::string>
DcnForwardingPolicyShortNames()
{
    std::vector<std::string> v;
    for (const auto& e : PolicyRegistry())
    {
        v.push_back(e.first);
    }
    return v;
}

void
DcnRegisterForwardingPolicy(const std::string& shortName, const std::string& typeIdName)
{
    for (auto& e : PolicyRegistry())
    {
        if (e.first == shortName)
        {
            e.second = typeIdName;
            return;
        }
    }
    PolicyRegistry().emplace_back(shortName, typeIdName);
}

// ---- EcmpForwardingPolicy ----

TypeId
EcmpForwardingPolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DcnEcmpForwardingPolicy")
                            .SetParent<ForwardingPolicy>()
                            .SetGroupName("DcnLb")
                            .AddConstructor<EcmpForwardingPolicy>();
    return tid;
}

EcmpForwardingPolicy::EcmpForwardingPolicy()
    : m_rng(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

EcmpForwardingPolicy::~EcmpForwardingPolicy()
{
    NS_LOG_FUNCTION(this);
}

uint64_t
EcmpForwardingPolicy::GetSalt()
{
    if (!m_saltSet)
    {
        // Two 32-bit draws from the per-switch stream form the 64-bit salt.
        uint64_t hi = m_rng->GetInteger(0, 0xffffffffU);
        uint64_t lo = m_rng->GetInteger(0, 0xffffffffU);
        m_salt = (hi << 32) | lo;
        m_saltSet = true;
        NS_LOG_LOGIC(this << " salt " << m_salt);
    }
    return m_salt;
}

void
EcmpForwardingPolicy::SetSalt(uint64_t salt)
{
    NS_LOG_FUNCTION(this << salt);
    m_salt = salt;
    m_saltSet = true;
}

uint32_t
EcmpForwardingPolicy::Select(DcnForwardingContext& ctx)
{
    NS_LOG_FUNCTION(this << ctx.inIf << ctx.nMinimal);
    const uint32_t n = ctx.nMinimal;
    if (n <= 1)
    {
        return n == 1 ? ctx.minimal[0] : DcnForwardingContext::DROP;
    }
    uint64_t salt = m_saltSet ? m_salt : GetSalt();
    uint32_t i =
        DcnHashToIndex(DcnFlowHash(DcnFlowKey::FromPacket(ctx.GetPacket(), ctx.GetHeader()), salt),
                       n);
    NS_LOG_LOGIC("ecmp: candidate " << i << " of " << n << " -> if " << ctx.minimal[i]);
    return ctx.minimal[i];
}

int64_t
EcmpForwardingPolicy::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_rng->SetStream(stream);
    return 1;
}

// ---- SprayForwardingPolicy ----

TypeId
SprayForwardingPolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DcnSprayForwardingPolicy")
                            .SetParent<ForwardingPolicy>()
                            .SetGroupName("DcnLb")
                            .AddConstructor<SprayForwardingPolicy>();
    return tid;
}

SprayForwardingPolicy::SprayForwardingPolicy()
    : m_rng(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

SprayForwardingPolicy::~SprayForwardingPolicy()
{
    NS_LOG_FUNCTION(this);
}

uint32_t
SprayForwardingPolicy::Select(DcnForwardingContext& ctx)
{
    NS_LOG_FUNCTION(this << ctx.inIf << ctx.nMinimal);
    const uint32_t n = ctx.nMinimal;
    if (n <= 1)
    {
        return n == 1 ? ctx.minimal[0] : DcnForwardingContext::DROP;
    }
    uint32_t i = m_rng->GetInteger(0, n - 1);
    NS_LOG_LOGIC("spray: candidate " << i << " of " << n << " -> if " << ctx.minimal[i]);
    return ctx.minimal[i];
}

int64_t
SprayForwardingPolicy::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_rng->SetStream(stream);
    return 1;
}

} // namespace ns3
