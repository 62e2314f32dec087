#include "flowlet-drill-policies.h"

#include "dcn-switch-routing.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnFlowletDrillPolicies");

NS_OBJECT_ENSURE_REGISTERED(LetflowForwardingPolicy);
NS_OBJECT_ENSURE_REGISTERED(DrillForwardingPolicy);

// ---- LetflowForwardingPolicy ----

TypeId
LetflowForwardingPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcnLetflowForwardingPolicy")
            .SetParent<ForwardingPolicy>()
            .SetGroupName("DcnLb")
            .AddConstructor<LetflowForwardingPolicy>()
            .AddAttribute("FlowletTimeout",
                          "A packet more than this after the previous one of its flow-table "
                          "entry starts a new flowlet with a random port (LetFlow NSDI'17 "
                          "Sec. 3).  Default 150 us as Hermes SIGCOMM'17 Sec. 5 ran LetFlow; "
                          "the LAPS evaluation uses 50 us",
                          TimeValue(MicroSeconds(150)),
                          MakeTimeAccessor(&LetflowForwardingPolicy::m_timeout),
                          MakeTimeChecker(NanoSeconds(0), Seconds(1)))
            .AddAttribute("TableSize",
                          "Flowlet-table entries, indexed by the salted hash of the 5-tuple "
                          "(our choice: 65536; flows sharing an entry share its flowlet, as in "
                          "the hardware table); a value that is not a power of two is rounded "
                          "up to the next one (as ConWeave's FlowTableSize)",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&LetflowForwardingPolicy::m_tableSize),
                          MakeUintegerChecker<uint32_t>(1, 1u << 24))
            .AddTraceSource("NewFlowlet",
                            "A new flowlet started (egress interface chosen)",
                            MakeTraceSourceAccessor(&LetflowForwardingPolicy::m_flowletTrace),
                            "ns3::LetflowForwardingPolicy::FlowletTracedCallback");
    return tid;
}

LetflowForwardingPolicy::LetflowForwardingPolicy()
    : m_rng(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

LetflowForwardingPolicy::~LetflowForwardingPolicy()
{
    NS_LOG_FUNCTION(this);
}

void
LetflowForwardingPolicy::Configure()
{
    NS_LOG_FUNCTION(this);
    lbcore::LetflowConfig c;
    c.tableSize = m_tableSize;
    c.timeoutNs = m_timeout.GetNanoSeconds();
    // A TableSize that is not a power of two is rounded up, as ConWeave's FlowTableSize
    // (until 2026-11-30 it aborted the run at the first packet).
    if (!m_core.Configure(c))
    {
        NS_LOG_LOGIC("letflow: TableSize " << m_tableSize << " rounded up to "
                                           << m_core.GetTableSize());
    }
    // Per-switch salt of the table hash (two 32-bit draws, as ECMP's).
    uint64_t hi = m_rng->GetInteger(0, 0xffffffffU);
    m_salt = (hi << 32) | m_rng->GetInteger(0, 0xffffffffU);
    m_configured = true;
}

uint32_t
LetflowForwardingPolicy::Select(DcnForwardingContext& ctx)
{
    NS_LOG_FUNCTION(this << ctx.inIf << ctx.nMinimal);
    const uint32_t n = ctx.nMinimal;
    if (n <= 1)
    {
        return n == 1 ? ctx.minimal[0] : DcnForwardingContext::DROP;
    }
    if (!m_configured)
    {
        Configure();
    }
    const uint64_t h =
        DcnFlowHash(DcnFlowKey::FromPacket(ctx.GetPacket(), ctx.GetHeader()), m_salt);
    Ptr<UniformRandomVariable> rng = m_rng;
    lbcore::LetflowChoice c =
        m_core.Choose(static_cast<uint32_t>(h >> 32) ^ static_cast<uint32_t>(h),
                      static_cast<uint16_t>(n),
                      Simulator::Now().GetNanoSeconds(),
                      [&rng](uint32_t k) { return rng->GetInteger(0, k - 1); });
    const uint32_t out = ctx.minimal[c.port];
    if (c.newFlowlet)
    {
        NS_LOG_LOGIC("letflow: new flowlet -> if " << out);
        m_flowletTrace(out);
    }
    return out;
}

int64_t
LetflowForwardingPolicy::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_rng->SetStream(stream);
    return 1;
}

// ---- DrillForwardingPolicy ----

TypeId
DrillForwardingPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcnDrillForwardingPolicy")
            .SetParent<ForwardingPolicy>()
            .SetGroupName("DcnLb")
            .AddConstructor<DrillForwardingPolicy>()
            .AddAttribute("D",
                          "Random candidate ports sampled per packet (DRILL SIGCOMM'17 "
                          "Sec. 3.1: d = 2)",
                          UintegerValue(2),
                          MakeUintegerAccessor(&DrillForwardingPolicy::m_d),
                          MakeUintegerChecker<uint32_t>(1, lbcore::DrillCore::kMaxD))
            .AddAttribute("M",
                          "Least-loaded ports remembered from the previous decision (DRILL "
                          "SIGCOMM'17 Sec. 3.1: m = 1)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&DrillForwardingPolicy::m_m),
                          MakeUintegerChecker<uint32_t>(0, lbcore::DrillCore::kMaxM));
    return tid;
}

DrillForwardingPolicy::DrillForwardingPolicy()
    : m_rng(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

DrillForwardingPolicy::~DrillForwardingPolicy()
{
    NS_LOG_FUNCTION(this);
}

uint32_t
DrillForwardingPolicy::Select(DcnForwardingContext& ctx)
{
    NS_LOG_FUNCTION(this << ctx.inIf << ctx.nMinimal);
    const uint32_t n = ctx.nMinimal;
    if (n <= 1)
    {
        return n == 1 ? ctx.minimal[0] : DcnForwardingContext::DROP;
    }
    // One core per table entry (its candidate set): index 0 = default entry.
    const uint32_t idx = ctx.dstKey == DcnAddressing::NONE ? 0 : ctx.dstKey + 1;
    if (idx >= m_cores.size())
    {
        // Sized once per table layout (and again after a withdrawal re-keys the table).
        const uint32_t keys = ctx.GetSwitch() ? ctx.GetSwitch()->GetNKeys() : 0;
        lbcore::DrillConfig c;
        c.d = static_cast<uint8_t>(m_d);
        c.m = static_cast<uint8_t>(m_m);
        lbcore::DrillCore proto;
        proto.Configure(c);
        m_cores.resize(std::max(idx, keys) + 1, proto);
    }
    const DcnForwardingContext& cx = ctx;
    Ptr<UniformRandomVariable> rng = m_rng;
    uint16_t i = m_cores[idx].Choose(
        static_cast<uint16_t>(n),
        [&cx](uint16_t k) { return static_cast<uint64_t>(cx.QueueBytes(cx.minimal[k])); },
        [&rng](uint32_t k) { return rng->GetInteger(0, k - 1); });
    NS_LOG_LOGIC("drill: candidate " << i << " of " << n << " -> if " << ctx.minimal[i]);
    return ctx.minimal[i];
}

int64_t
DrillForwardingPolicy::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_rng->SetStream(stream);
    return 1;
}

} // namespace ns3
