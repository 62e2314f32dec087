#include "dcn-pfc-helper.h"

#include "ns3/boolean.h"
#include "ns3/dcn-queue-disc.h"
#include "ns3/dcn-switch-routing.h"
#include "ns3/dcn-transport.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/point-to-point-net-device.h"

#include <algorithm>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnPfcHelper");

namespace
{

void
SetNicPausedFromTrace(DcnTransport* t, bool paused, uint16_t /* quanta */)
{
    t->SetNicPaused(paused);
}

} // namespace

DcnPfcHelper::DcnPfcHelper()
{
    m_buffer.SetTypeId("ns3::DcnSwitchBuffer");
}

void
DcnPfcHelper::SetBufferAttribute(const std::string& name, const AttributeValue& value)
{
    m_buffer.Set(name, value);
}

void
DcnPfcHelper::SetPortAttribute(const std::string& name, const AttributeValue& value)
{
    m_portAttrs.emplace_back(name, value.Copy());
}

void
DcnPfcHelper::SetPfc(bool on)
{
    m_pfc = on;
}

Ptr<DcnSwitchBuffer>
DcnPfcHelper::GetBuffer(Ptr<Node> n)
{
    return n->GetObject<DcnSwitchBuffer>();
}

std::string
DcnPfcHelper::Subject() const
{
    return m_pfc ? "option --pfc"
                 : "option --pfc=false with a shared switch buffer (DcnPfcHelper, PFC off: "
                   "BufferPerPort / BufferSize / EcnKminPerGbps given)";
}

std::string
DcnPfcHelper::Install(Ptr<DcnTopology> topo)
{
    NS_LOG_FUNCTION(this << topo);
    m_buffer.Set("PfcEnabled", BooleanValue(m_pfc));
    const uint8_t prio = m_buffer.Create<DcnSwitchBuffer>()->GetPriority();

    struct End
    {
        Ptr<Node> node;
        Ptr<PointToPointNetDevice> dev;
        uint32_t ifIndex;
        bool host;
        DataRate rate;
        Time delay;
        Ptr<Node> peer;
        uint32_t peerIf;
    };

    std::vector<End> ends;
    for (const DcnLinkInfo& li : topo->GetLinks())
    {
        ends.push_back({li.a, li.devA, li.ifA, li.tierA < 0, li.rate, li.delay, li.b, li.ifB});
        ends.push_back({li.b, li.devB, li.ifB, li.tierB < 0, li.rate, li.delay, li.a, li.ifA});
    }
    // switches: one shared buffer each, sized for the node's ports and fastest link
    std::map<uint32_t, Ptr<DcnSwitchBuffer>> buffers;
    NodeContainer sw = topo->GetAllSwitches();
    for (uint32_t i = 0; i < sw.GetN(); ++i)
    {
        Ptr<Node> n = sw.Get(i);
        uint64_t rate = 0;
        Time delay(0);
        uint32_t mtu = 0;
        for (uint32_t id : topo->GetLinksOfNode(n))
        {
            const DcnLinkInfo& li = topo->GetLink(id);
            rate = std::max<uint64_t>(rate, li.rate.GetBitRate());
            delay = std::max(delay, li.delay);
            mtu = std::max<uint32_t>(mtu, (li.a == n ? li.devA : li.devB)->GetMtu() + 2);
        }
        Ptr<DcnSwitchBuffer> b = m_buffer.Create<DcnSwitchBuffer>();
        std::string err = b->Configure(n->GetObject<Ipv4>()->GetNInterfaces(),
                                       static_cast<double>(rate),
                                       delay,
                                       mtu);
        if (!err.empty())
        {
            return err;
        }
        Ptr<DcnSwitchRouting> r = topo->GetRouting(n);
        if (!r)
        {
            // ns-3's own routing (Routing=global) has no port hook for the buffer
            return Subject() + ": the shared switch buffer needs dcn-lb's switch routing, the "
                               "topology uses ns-3's own; allowed: no PFC / switch buffer with "
                               "Routing=global";
        }
        n->AggregateObject(b);
        r->SetSwitchBuffer(b);
        buffers[n->GetId()] = b;
    }
    for (const End& e : ends)
    {
        Ptr<DcnQueueDisc> q = topo->GetQueueDisc(e.dev);
        if (!q)
        {
            return Subject() + ": the port of node " + std::to_string(e.node->GetId()) +
                   " has no DcnQueueDisc";
        }
        auto it = buffers.find(e.node->GetId());
        if (it != buffers.end())
        {
            it->second->SetPortQueue(e.ifIndex, q);
            q->SetSwitchBuffer(it->second, static_cast<uint16_t>(e.ifIndex));
        }
        if (!m_pfc)
        {
            continue;
        }
        for (auto& a : m_portAttrs)
        {
            q->SetAttribute(a.first, *a.second);
        }
        if (e.host)
        {
            q->SetAttribute("Lossless", BooleanValue(true));
            // a RoCE NIC stops its data scheduler while paused
            Ptr<DcnTransport> t = e.node->GetObject<DcnTransport>();
            if (t)
            {
                q->TraceConnectWithoutContext(
                    "PfcPause",
                    MakeBoundCallback(&SetNicPausedFromTrace, PeekPointer(t), true));
                q->TraceConnectWithoutContext(
                    "PfcResume",
                    MakeBoundCallback(&SetNicPausedFromTrace, PeekPointer(t), false));
            }
        }
        q->SetPfcPort(e.node->GetObject<Ipv4>()->GetAddress(e.ifIndex, 0).GetLocal(),
                      e.peer->GetObject<Ipv4>()->GetAddress(e.peerIf, 0).GetLocal(),
                      e.rate,
                      prio);
        topo->GetRouting(e.node)->SetPfcQueue(e.ifIndex, q);
    }
    return "";
}

} // namespace ns3
