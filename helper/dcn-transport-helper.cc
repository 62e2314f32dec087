#include "dcn-transport-helper.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/dcn-scheme.h"
#include "ns3/dctcp-cc.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/string.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnTransportHelper");

namespace
{
/** Whether the user set DcnTransport attribute `name`: `given` is
 *  DcnOptions::GetAttributeArguments() ("ns3::Type::Attr=V;..."). */
bool
UserSet(const std::string& given, const std::string& name)
{
    return (";" + given + ";").find(";ns3::DcnTransport::" + name + "=") != std::string::npos;
}
} // namespace

DcnTransportHelper::DcnTransportHelper()
{
    m_factory.SetTypeId(DcnTransport::GetTypeId());
}

void
DcnTransportHelper::SetTransportAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

void
DcnTransportHelper::SetSchemeAttributes(const std::string& scheme, const std::string& given)
{
    if (!DcnSchemeRegistry::Has(scheme))
    {
        return;
    }
    for (const auto& [name, value] : DcnSchemeRegistry::Get(scheme).transportAttributes)
    {
        const bool user = UserSet(given, name);
        NS_LOG_LOGIC(scheme << ": DcnTransport::" << name << "=" << value
                            << (user ? " (not applied: set by the user)" : ""));
        if (!user)
        {
            m_factory.Set(name, StringValue(value));
        }
    }
}

void
DcnTransportHelper::SetRtoFloor(double baseRtts, const std::string& given)
{
    if (!UserSet(given, "Rto") && !UserSet(given, "RtoBaseRtts"))
    {
        m_factory.Set("RtoBaseRtts", DoubleValue(baseRtts));
    }
}

void
DcnTransportHelper::SetRoceDefaults(const std::string& given)
{
    m_factory.Set("Mode", StringValue("InOrder"));
    if (!UserSet(given, "Rto"))
    {
        m_factory.Set("Rto", TimeValue(MilliSeconds(1)));
    }
    if (!UserSet(given, "RtoAdaptive"))
    {
        m_factory.Set("RtoAdaptive", BooleanValue(true)); // SRTT + 4 RTTVAR above it
    }
}

Ptr<DcnTransport>
DcnTransportHelper::Install(Ptr<Node> node) const
{
    NS_LOG_FUNCTION(this << node->GetId());
    NS_ABORT_MSG_IF(node->GetObject<DcnTransport>(),
                    "DcnTransportHelper: node " << node->GetId() << " already has a DcnTransport");
    Ptr<DcnTransport> t = m_factory.Create<DcnTransport>();
    node->AggregateObject(t);
    t->Install(node);
    return t;
}

void
DcnTransportHelper::Install(NodeContainer nodes) const
{
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        Install(*it);
    }
}

Ptr<DcnTransport>
DcnTransportHelper::Get(Ptr<Node> node)
{
    Ptr<DcnTransport> t = node->GetObject<DcnTransport>();
    NS_ABORT_MSG_IF(!t,
                    "node " << node->GetId()
                            << " has no DcnTransport (DcnTransportHelper::Install)");
    return t;
}

Ptr<CongestionControl>
DcnTransportHelper::CreateCongestionControl(const std::string& name)
{
    if (name == "dctcp")
    {
        return CreateObject<DctcpCc>();
    }
    NS_ABORT_MSG("Unknown congestion control '" << name << "'; allowed: dctcp");
    return nullptr;
}

} // namespace ns3
