/*
 * Receiver reorder buffer of LAPS (laps spec 2.6 [R], 4.3; paper Fig. 20):
 * the message transport delivers out of order, so the buffer a RoCE NIC would
 * need to deliver in order is measured here from the receivers' "Rx" traces:
 * per connection, the bytes received at or above the next expected PSN.
 * Every data arrival gives one occupancy sample (trace "Occupancy", bytes of
 * that connection's buffer); the monitor keeps the fraction of packets that
 * arrived out of order and the mean / P(> limit) of the samples.
 * Measurement only (packet path untouched).
 */
#ifndef DCN_LAPS_REORDER_MONITOR_H
#define DCN_LAPS_REORDER_MONITOR_H

#include "ns3/dcn-header.h"
#include "ns3/ipv4-address.h"
#include "ns3/node-container.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <deque>
#include <unordered_map>

namespace ns3
{

class LapsReorderMonitor : public Object
{
  public:
    typedef void (*OccupancyTracedCallback)(uint32_t node, uint64_t bytes);

    static TypeId GetTypeId();
    LapsReorderMonitor();
    ~LapsReorderMonitor() override;

    /** Connect to the DcnTransport "Rx" trace of every host. */
    void Install(NodeContainer hosts);

    uint64_t GetPackets() const
    {
        return m_packets;
    }

    uint64_t GetOutOfOrder() const
    {
        return m_ooo;
    }

    /** Mean of the per-arrival occupancy samples, bytes. */
    double GetMeanBytes() const
    {
        return m_packets ? m_sum / m_packets : 0.0;
    }

    /** Fraction of samples above `limit` bytes (set with the Limit attribute). */
    double GetFractionAbove() const
    {
        return m_packets ? double(m_above) / m_packets : 0.0;
    }

    uint64_t GetMaxBytes() const
    {
        return m_max;
    }

  private:
    struct Conn
    {
        uint32_t cum{0};
        uint64_t buffered{0};
        std::deque<uint32_t> window; //!< payload of psn cum + i (0 = not received)
    };

    void Rx(uint32_t node, Ptr<const Packet> p, const DcnHeader& h, Ipv4Address from, bool dup);

    uint64_t m_limit;
    std::unordered_map<uint64_t, Conn> m_conns;
    uint64_t m_packets{0};
    uint64_t m_ooo{0};
    double m_sum{0};
    uint64_t m_above{0};
    uint64_t m_max{0};
    TracedCallback<uint32_t, uint64_t> m_occupancy;
};

} // namespace ns3

#endif // DCN_LAPS_REORDER_MONITOR_H
