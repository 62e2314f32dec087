#include "laps-reorder-monitor.h"

#include "ns3/callback.h"
#include "ns3/dcn-transport-helper.h"
#include "ns3/dcn-transport.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnLapsReorderMonitor");
NS_OBJECT_ENSURE_REGISTERED(LapsReorderMonitor);

TypeId
LapsReorderMonitor::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::LapsReorderMonitor")
            .SetParent<Object>()
            .SetGroupName("DcnLb")
            .AddConstructor<LapsReorderMonitor>()
            .AddAttribute("Limit",
                          "Occupancy threshold of GetFractionAbove, bytes (paper Fig. 20: "
                          "P(buffer > 30 KB) < 4%)",
                          UintegerValue(30000),
                          MakeUintegerAccessor(&LapsReorderMonitor::m_limit),
                          MakeUintegerChecker<uint64_t>())
            .AddTraceSource("Occupancy",
                            "Reorder-buffer bytes of the connection a data packet arrived on "
                            "(receiving node id, bytes)",
                            MakeTraceSourceAccessor(&LapsReorderMonitor::m_occupancy),
                            "ns3::LapsReorderMonitor::OccupancyTracedCallback");
    return tid;
}

LapsReorderMonitor::LapsReorderMonitor() = default;
LapsReorderMonitor::~LapsReorderMonitor() = default;

void
LapsReorderMonitor::Install(NodeContainer hosts)
{
    for (uint32_t i = 0; i < hosts.GetN(); ++i)
    {
        Ptr<DcnTransport> t = DcnTransportHelper::Get(hosts.Get(i));
        if (t)
        {
            t->TraceConnectWithoutContext("Rx",
                                          MakeBoundCallback(
                                              +[](LapsReorderMonitor* m,
                                                  uint32_t node,
                                                  Ptr<const Packet> p,
                                                  const DcnHeader& h,
                                                  Ipv4Address from,
                                                  bool dup) { m->Rx(node, p, h, from, dup); },
                                              this,
                                              hosts.Get(i)->GetId()));
        }
    }
}

void
LapsReorderMonitor::Rx(uint32_t node,
                       Ptr<const Packet> p,
                       const DcnHeader& h,
                       Ipv4Address from,
                       bool dup)
{
    if (dup || h.HasFlag(DcnHeader::FLAG_TRIMMED))
    {
        return;
    }
    const uint64_t key = (uint64_t(from.Get()) << 32) ^ (uint64_t(node) << 20) ^ h.connId;
    Conn& c = m_conns[key];
    if (h.psn < c.cum)
    {
        return;
    }
    const uint32_t idx = h.psn - c.cum;
    if (idx >= c.window.size())
    {
        c.window.resize(idx + 1, 0);
    }
    if (c.window[idx] != 0)
    {
        return;
    }
    m_packets++;
    if (idx != 0)
    {
        m_ooo++; // not the next expected packet: held in the buffer
    }
    c.window[idx] = std::max<uint32_t>(1, h.payloadSize);
    c.buffered += c.window[idx];
    while (!c.window.empty() && c.window.front() != 0)
    {
        c.buffered -= c.window.front();
        c.window.pop_front();
        c.cum++;
    }
    m_sum += static_cast<double>(c.buffered);
    m_above += c.buffered > m_limit ? 1 : 0;
    m_max = std::max(m_max, c.buffered);
    m_occupancy(node, c.buffered);
}

} // namespace ns3
