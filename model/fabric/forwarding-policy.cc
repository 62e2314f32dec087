#include "forwarding-policy.h"

#include "ns3/log.h"
#include "ns3/node.h"

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

TypeId
ForwardingPolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ForwardingPolicy").SetParent<Object>().SetGroupName("DcnLb");
    return tid;
}

void
ForwardingPolicy::Attach(Ptr<Node> node)
{
}

int64_t
ForwardingPolicy::AssignStreams(int64_t stream)
{
    return 0;
}

TypeId
EcmpForwardingPolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::EcmpForwardingPolicy")
                            .SetParent<ForwardingPolicy>()
                            .SetGroupName("DcnLb")
                            .AddConstructor<EcmpForwardingPolicy>();
    return tid;
}

EcmpForwardingPolicy::EcmpForwardingPolicy()
    : m_rng(CreateObject<UniformRandomVariable>())
{
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
    }
    return m_salt;
}

void
EcmpForwardingPolicy::SetSalt(uint64_t salt)
{
    m_salt = salt;
    m_saltSet = true;
}

uint32_t
EcmpForwardingPolicy::Select(Ptr<const Packet> p,
                             const Ipv4Header& h,
                             const uint32_t* candidates,
                             uint32_t n,
                             uint32_t inIf)
{
    if (n <= 1)
    {
        return 0;
    }
    uint64_t salt = m_saltSet ? m_salt : GetSalt();
    return DcnHashToIndex(DcnFlowHash(DcnFlowKey::FromPacket(p, h), salt), n);
}

int64_t
EcmpForwardingPolicy::AssignStreams(int64_t stream)
{
    m_rng->SetStream(stream);
    return 1;
}

TypeId
SprayForwardingPolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SprayForwardingPolicy")
                            .SetParent<ForwardingPolicy>()
                            .SetGroupName("DcnLb")
                            .AddConstructor<SprayForwardingPolicy>();
    return tid;
}

SprayForwardingPolicy::SprayForwardingPolicy()
    : m_rng(CreateObject<UniformRandomVariable>())
{
}

uint32_t
SprayForwardingPolicy::Select(Ptr<const Packet> p,
                              const Ipv4Header& h,
                              const uint32_t* candidates,
                              uint32_t n,
                              uint32_t inIf)
{
    if (n <= 1)
    {
        return 0;
    }
    return m_rng->GetInteger(0, n - 1);
}

int64_t
SprayForwardingPolicy::AssignStreams(int64_t stream)
{
    m_rng->SetStream(stream);
    return 1;
}

} // namespace ns3
