#include "dcn-failure-error-model.h"

#include "ns3/log.h"
#include "ns3/packet.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnFailureErrorModel");
NS_OBJECT_ENSURE_REGISTERED(DcnFailureErrorModel);

TypeId
DcnFailureErrorModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcnFailureErrorModel")
            .SetParent<ErrorModel>()
            .SetGroupName("DcnLb")
            .AddConstructor<DcnFailureErrorModel>()
            .AddTraceSource("InjectedDrop",
                            "A packet was lost to an injected failure (packet, tag, reason)",
                            MakeTraceSourceAccessor(&DcnFailureErrorModel::m_dropTrace),
                            "ns3::DcnFailureErrorModel::InjectedDropCallback");
    return tid;
}

DcnFailureErrorModel::DcnFailureErrorModel()
    : m_rng(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

void
DcnFailureErrorModel::SetDown(bool down)
{
    NS_LOG_FUNCTION(this << down);
    m_down += down ? 1 : -1;
    if (m_down < 0)
    {
        m_down = 0;
    }
}

void
DcnFailureErrorModel::SetDropProbability(double p)
{
    NS_LOG_FUNCTION(this << p);
    NS_ABORT_MSG_IF(p < 0 || p > 1,
                    "DcnFailureErrorModel: drop probability=" << p << "; allowed [0,1]");
    m_prob = p;
}

uint32_t
DcnFailureErrorModel::AddBlackhole(Ipv4Address src,
                                   Ipv4Mask srcMask,
                                   Ipv4Address dst,
                                   Ipv4Mask dstMask)
{
    NS_LOG_FUNCTION(this << src << srcMask << dst << dstMask);
    Rule r;
    r.id = static_cast<uint32_t>(m_rules.size());
    r.srcMask = srcMask.Get();
    r.src = src.Get() & r.srcMask;
    r.dstMask = dstMask.Get();
    r.dst = dst.Get() & r.dstMask;
    r.active = true;
    m_rules.push_back(r);
    ++m_activeRules;
    return r.id;
}

void
DcnFailureErrorModel::RemoveBlackhole(uint32_t id)
{
    NS_LOG_FUNCTION(this << id);
    if (id < m_rules.size() && m_rules[id].active)
    {
        m_rules[id].active = false;
        --m_activeRules;
    }
}

uint64_t
DcnFailureErrorModel::GetTotalDrops() const
{
    return m_drops[0] + m_drops[1] + m_drops[2];
}

int64_t
DcnFailureErrorModel::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_rng->SetStream(stream);
    return 1;
}

bool
DcnFailureErrorModel::DoCorrupt(Ptr<Packet> p)
{
    NS_LOG_FUNCTION(this << p);
    Reason why = N_REASONS;
    if (m_down > 0)
    {
        why = LINK_DOWN;
    }
    else if (m_activeRules > 0 && p->GetSize() >= 22)
    {
        // PPP header (2 bytes, protocol 0x0021 = IPv4) then the IPv4 header.
        uint8_t b[22];
        p->CopyData(b, 22);
        if (b[0] == 0x00 && b[1] == 0x21)
        {
            uint32_t src =
                (uint32_t(b[14]) << 24) | (uint32_t(b[15]) << 16) | (uint32_t(b[16]) << 8) | b[17];
            uint32_t dst =
                (uint32_t(b[18]) << 24) | (uint32_t(b[19]) << 16) | (uint32_t(b[20]) << 8) | b[21];
            for (const Rule& r : m_rules)
            {
                if (r.active && (src & r.srcMask) == r.src && (dst & r.dstMask) == r.dst)
                {
                    why = BLACKHOLE;
                    break;
                }
            }
        }
    }
    if (why == N_REASONS && m_prob > 0 && m_rng->GetValue() < m_prob)
    {
        why = RANDOM;
    }
    if (why == N_REASONS)
    {
        return false;
    }
    NS_LOG_LOGIC("injected drop on link " << m_tag << ", reason " << why);
    ++m_drops[why];
    m_dropTrace(p, m_tag, why);
    return true;
}

void
DcnFailureErrorModel::DoReset()
{
    NS_LOG_FUNCTION(this);
}

} // namespace ns3
