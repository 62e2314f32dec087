#include "dcn-topology.h"

#include "ns3/dcn-header.h"
#include "ns3/log.h"

#include <algorithm>

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

uint32_t
DcnTopology::FindLink(const std::string& name) const
{
    NS_LOG_FUNCTION(this << name);
    for (const DcnLinkInfo& l : GetLinks())
    {
        if (l.name == name)
        {
            return l.id;
        }
    }
    return DcnAddressing::NONE;
}

bool
DcnTopology::IsBuilt() const
{
    return true;
}

uint32_t
DcnTopology::GetNTiers() const
{
    int32_t top = 0;
    for (const DcnLinkInfo& l : GetLinks())
    {
        top = std::max({top, l.tierA, l.tierB});
    }
    return static_cast<uint32_t>(top + 1);
}

Time
DcnTopology::GetPathRtt(uint32_t srcHost,
                        uint32_t dstHost,
                        const DcnPath& path,
                        uint32_t payloadBytes) const
{
    NS_LOG_FUNCTION(this << srcHost << dstHost << path.id << payloadBytes);
    // Wire sizes: PPP (2) + IPv4 (20) + UDP (8) + DcnHeader.
    const uint32_t ovh = 2 + 20 + 8 + DcnHeader::BASE_SIZE;
    const uint32_t dataBytes = payloadBytes + ovh;
    const uint32_t ackBytes = DcnHeader::WIRE_BELOW + DcnHeader::CTRL_BASE_SIZE;
    auto linkRtt = [&](const DcnLinkInfo& l) {
        return l.rate.CalculateBytesTxTime(dataBytes) + l.rate.CalculateBytesTxTime(ackBytes) +
               2 * l.delay;
    };
    Time rtt(0);
    if (srcHost == dstHost)
    {
        return rtt;
    }
    NodeContainer hosts = GetHosts();
    // A host has exactly one link: its access link.
    rtt += linkRtt(GetLink(GetLinksOfNode(hosts.Get(srcHost)).at(0)));
    for (uint32_t l : path.links)
    {
        rtt += linkRtt(GetLink(l));
    }
    rtt += linkRtt(GetLink(GetLinksOfNode(hosts.Get(dstHost)).at(0)));
    return rtt;
}

} // namespace ns3
