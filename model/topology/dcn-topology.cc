#include "dcn-topology.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnTopology");
NS_OBJECT_ENSURE_REGISTERED(DcnTopology);

TypeId
DcnTopology::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DcnTopology").SetParent<Object>().SetGroupName("DcnLb");
    return tid;
}

DcnTopology::~DcnTopology() = default;

} // namespace ns3
