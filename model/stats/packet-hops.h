/*
 * The one definition of "packet hops" used by every BENCH line (bench/README.md,
 * doc/architecture.rst):
 *
 *   a packet hop is one packet whose transmission on one point-to-point link
 *   direction completed (the PhyTxEnd trace of a PointToPointNetDevice, or a
 *   DcnPortDevice's own transmission counter), host
 *   NIC links and switch ports alike.  A data packet crossing host-ToR-spine-
 *   ToR-host counts 4; its ACK counts its own 4; a packet dropped in a queue or
 *   by a failed link before it was transmitted does not count.
 *
 * DcnPacketHopCounter counts them for every PointToPointNetDevice of the given
 * nodes (or of every node).  Per-device counters, so an MPI rank counts its own
 * nodes and the ranks' counts add up.
 */
#ifndef DCN_PACKET_HOPS_H
#define DCN_PACKET_HOPS_H

#include "ns3/node-container.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace ns3
{

class DcnPortDevice;

class DcnPacketHopCounter
{
  public:
    DcnPacketHopCounter();
    ~DcnPacketHopCounter();
    DcnPacketHopCounter(const DcnPacketHopCounter&) = delete;
    DcnPacketHopCounter& operator=(const DcnPacketHopCounter&) = delete;

    /** Count the PhyTxEnd of every point-to-point device of these nodes. */
    void Install(const NodeContainer& nodes);
    /** Count on every node of the NodeList. */
    void InstallAll();

    /** Packet hops so far. */
    uint64_t Get() const
    {
        return *m_count + PortCount() - m_offset;
    }

    void Reset()
    {
        *m_count = 0;
        m_offset = PortCount();
    }

  private:
    /** The counter lives on the heap so that traces bound to it stay valid if this object moves. */
    std::shared_ptr<uint64_t> m_count;
    /**
     * DcnPortDevices count their own completed transmissions when they run
     * their own transmit machine (no trace connected, so no per-packet copy);
     * PhyTxEnd counts the others (both are connected: only one fires).
     */
    std::vector<Ptr<DcnPortDevice>> m_ports;
    uint64_t m_offset{0};

    uint64_t PortCount() const;
};

} // namespace ns3

#endif // DCN_PACKET_HOPS_H
