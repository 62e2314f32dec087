#include "laps-cc.h"

#include "ns3/laps-path-selector.h"
#include "ns3/log.h"

#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnLapsCc");
NS_OBJECT_ENSURE_REGISTERED(LapsCc);

TypeId
LapsCc::GetTypeId()
{
    static TypeId tid = TypeId("ns3::LapsCc")
                            .SetParent<CongestionControl>()
                            .SetGroupName("DcnLb")
                            .AddConstructor<LapsCc>();
    return tid;
}

LapsCc::LapsCc()
{
    NS_LOG_FUNCTION(this);
}

LapsCc::~LapsCc() = default;

void
LapsCc::DoDispose()
{
    m_sel = nullptr;
    m_setup.pathSelector = nullptr;
    CongestionControl::DoDispose();
}

void
LapsCc::Setup(const CcSetup& setup)
{
    NS_LOG_FUNCTION(this);
    CongestionControl::Setup(setup);
    m_sel = DynamicCast<LapsPathSelector>(setup.pathSelector);
    m_setup.pathSelector = nullptr; // held once, as m_sel
}

void
LapsCc::OnAck(const CcAckSample& s)
{
    // Alg. 2 runs in the selector's OnFeedback of the same ACK (PIT first)
}

void
LapsCc::OnNack()
{
}

void
LapsCc::OnTimeout()
{
}

uint64_t
LapsCc::GetCwnd() const
{
    uint64_t cap = m_sel ? m_sel->GetInflightCap() : 0;
    return cap > 0 ? cap : std::numeric_limits<uint64_t>::max();
}

DataRate
LapsCc::GetRate() const
{
    return m_sel ? DataRate(static_cast<uint64_t>(m_sel->GetCurRate())) : DataRate(0);
}

std::string
LapsCc::Name() const
{
    return "laps";
}

} // namespace ns3
