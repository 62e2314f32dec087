#include "path-selector.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnPathSelector");
NS_OBJECT_ENSURE_REGISTERED(PathSelector);

TypeId
PathSelector::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PathSelector").SetParent<Object>().SetGroupName("DcnLb");
    return tid;
}

PathSelector::~PathSelector() = default;

void
PathSelector::Setup(const PathSelectorSetup& setup)
{
    m_setup = setup;
}

int64_t
PathSelector::AssignStreams(int64_t /*stream*/)
{
    return 0;
}

} // namespace ns3
