#include "packet-hops.h"

#include "ns3/callback.h"
#include "ns3/dcn-port-device.h"
#include "ns3/log.h"
#include "ns3/node-list.h"
#include "ns3/point-to-point-net-device.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnPacketHops");

namespace
{
void
CountHop(uint64_t* count, Ptr<const Packet>)
{
    ++*count;
}
} // namespace

DcnPacketHopCounter::DcnPacketHopCounter()
    : m_count(std::make_shared<uint64_t>(0))
{
}

DcnPacketHopCounter::~DcnPacketHopCounter() = default;

void
DcnPacketHopCounter::Install(const NodeContainer& nodes)
{
    NS_LOG_FUNCTION(this << nodes.GetN());
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        Ptr<Node> n = nodes.Get(i);
        for (uint32_t d = 0; d < n->GetNDevices(); ++d)
        {
            Ptr<PointToPointNetDevice> dev = DynamicCast<PointToPointNetDevice>(n->GetDevice(d));
            if (dev)
            {
                dev->TraceConnectWithoutContext("PhyTxEnd",
                                                MakeBoundCallback(&CountHop, m_count.get()));
                Ptr<DcnPortDevice> port = DynamicCast<DcnPortDevice>(dev);
                if (port)
                {
                    m_ports.push_back(port);
                }
            }
        }
    }
}

uint64_t
DcnPacketHopCounter::PortCount() const
{
    uint64_t n = 0;
    for (const Ptr<DcnPortDevice>& p : m_ports)
    {
        n += p->GetOwnTxPackets();
    }
    return n;
}

void
DcnPacketHopCounter::InstallAll()
{
    NodeContainer all;
    for (uint32_t i = 0; i < NodeList::GetNNodes(); ++i)
    {
        all.Add(NodeList::GetNode(i));
    }
    Install(all);
}

} // namespace ns3
