#include "dcn-tcp-transport-helper.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/string.h"

#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnTcpTransportHelper");

DcnTcpTransportHelper::DcnTcpTransportHelper()
{
    m_factory.SetTypeId(DcnTcpTransport::GetTypeId());
}

void
DcnTcpTransportHelper::SetTransportAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

std::vector<std::string>
DcnTcpTransportHelper::CongestionControlNames()
{
    return {"dctcp", "newreno"};
}

void
DcnTcpTransportHelper::SetCongestionControl(const std::string& cc)
{
    NS_ABORT_MSG_IF(cc != "dctcp" && cc != "newreno",
                    "DcnTcpTransportHelper: congestion control '" << cc
                                                                  << "'; allowed: dctcp, newreno");
    m_factory.Set("CongestionOps",
                  StringValue(cc == "dctcp" ? "ns3::TcpDctcp" : "ns3::TcpNewReno"));
}

Ptr<DcnTcpTransport>
DcnTcpTransportHelper::Install(Ptr<Node> node) const
{
    NS_LOG_FUNCTION(this << node->GetId());
    NS_ABORT_MSG_IF(node->GetObject<DcnMessageTransport>(),
                    "DcnTcpTransportHelper: node " << node->GetId()
                                                   << " already has a message transport");
    Ptr<DcnTcpTransport> t = m_factory.Create<DcnTcpTransport>();
    node->AggregateObject(t);
    t->Install(node);
    return t;
}

void
DcnTcpTransportHelper::Install(NodeContainer nodes) const
{
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        Install(*it);
    }
}

void
DcnTcpTransportHelper::InstallOnHosts(Ptr<DcnTopology> topology) const
{
    std::map<uint32_t, Ptr<DcnLbSharedState>> racks;
    for (uint32_t h = 0; h < topology->GetNHosts(); ++h)
    {
        Ptr<DcnTcpTransport> t = Install(topology->GetHosts().Get(h));
        Ptr<DcnLbSharedState>& rack = racks[topology->GetSwitchOfHost(h)];
        if (!rack)
        {
            rack = CreateObject<DcnLbSharedState>();
        }
        t->GetSharedState()->Set("dcn-rack", rack);
    }
}

} // namespace ns3
