#include "congestion-control.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnCongestionControl");
NS_OBJECT_ENSURE_REGISTERED(CongestionControl);

TypeId
CongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcnCongestionControl").SetParent<Object>().SetGroupName("DcnLb");
    return tid;
}

CongestionControl::~CongestionControl() = default;

void
CongestionControl::Setup(const CcSetup& setup)
{
    NS_LOG_FUNCTION(this << setup.mtu << setup.bdpBytes << setup.baseRtt);
    m_setup = setup;
}

void
CongestionControl::OnSend(const CcSendSample& s)
{
    NS_LOG_FUNCTION(this << s.psn << s.bytes);
}

void
CongestionControl::OnCnp(Time now)
{
    NS_LOG_FUNCTION(this << now);
}

std::string
CongestionControl::Validate() const
{
    return "";
}

std::string
CongestionControl::CheckWindowBytes(const std::string& typeName, uint64_t window)
{
    if (window > 0 && window < 64)
    {
        return "option --ns3::" + typeName + "::Window: value '" + std::to_string(window) +
               "'; allowed: 0 (no window) or >= 64 bytes";
    }
    return "";
}

} // namespace ns3
