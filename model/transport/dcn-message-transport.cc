#include "dcn-message-transport.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnMessageTransport");
NS_OBJECT_ENSURE_REGISTERED(DcnMessageTransport);

TypeId
DcnMessageTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcnMessageTransport").SetParent<Object>().SetGroupName("DcnLb");
    return tid;
}

DcnMessageTransport::~DcnMessageTransport() = default;

} // namespace ns3
