#include "congestion-control.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnCongestionControl");
NS_OBJECT_ENSURE_REGISTERED(CongestionControl);

TypeId
CongestionControl::GetTypeId()
{
    static TypeId tid = TypeId("ns3::CongestionControl").SetParent<Object>().SetGroupName("DcnLb");
    return tid;
}

CongestionControl::~CongestionControl() = default;

void
CongestionControl::Setup(const CcSetup& setup)
{
    m_setup = setup;
}

} // namespace ns3
