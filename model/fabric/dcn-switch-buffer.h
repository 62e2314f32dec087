/*
 * Shared-buffer switch model with PFC (issue 12 items 3 and 4; spec laps.md
 * section 3 "PFC uses a dynamic threshold" and 4.1 "32 MB shared buffer per
 * switch").
 *
 * One DcnSwitchBuffer is aggregated to a switch Node (DcnPfcHelper installs it).
 * It owns the ns-3-free accounting core (fabcore::PfcIngressCore) and is
 * consulted by every DcnQueueDisc of the switch when a data packet arrives:
 *  - PFC on (lossless): per (ingress port, data priority) accounting; the
 *    shared part is admitted below the dynamic threshold alpha x free pool
 *    (or a static threshold); beyond it the switch sends a PFC pause (XOFF)
 *    upstream on the ingress port and stores what is still in flight in the
 *    port's headroom; XON when the queue has drained (hysteresis).  Nothing of
 *    the lossless class is dropped while the headroom holds (sized by
 *    fabcore::PfcHeadroomBytes from the link rate and cable delay).
 *  - PFC off (lossy): the same arithmetic per egress port: a packet is dropped
 *    when its egress queue would exceed alpha x free pool (the classic
 *    shared-buffer dynamic threshold).
 * The ingress port is the one DcnSwitchRouting::RouteInput received the packet
 * on: it sets SetCurrentIngress() before forwarding, the egress queue disc
 * reads it at enqueue (same call chain), and keeps it in a FIFO alongside the
 * queued packets so dequeue and drops release the right port's bytes.
 */
#ifndef DCN_SWITCH_BUFFER_H
#define DCN_SWITCH_BUFFER_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/pfc-core.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

class DcnQueueDisc;
class Packet;

/**
 * PFC frame on the wire (doc/roce.rst, "The envelope"): PointToPointNetDevice
 * carries only IPv4/IPv6, so the 802.1Qbb frame travels in an IPv4 envelope
 * (source = sending interface, destination = the peer's interface, protocol
 * 253 = RFC 3692 experimental, TTL 1) whose payload is the frame from its
 * EtherType on: 0x8808, then the 46-byte MAC-control data field (opcode
 * 0x0101, class-enable vector, 8 pause times in quanta, 26 zero bytes of pad
 * to the Ethernet minimum).  48 bytes.
 */
struct DcnPfcFrame
{
    static constexpr uint8_t IP_PROTOCOL = 253;
    static constexpr uint16_t ETHER_TYPE = 0x8808;
    static constexpr uint32_t SIZE = 2 + 46;

    /** The envelope's payload pausing priority \p prio for \p quanta (0 = resume). */
    static Ptr<Packet> Make(uint8_t prio, uint16_t quanta);
    /** Read an envelope's payload. \return false if it is not a PFC frame. */
    static bool Parse(Ptr<const Packet> p, fabcore::PfcFrame& f);
};

class DcnSwitchBuffer : public Object
{
  public:
    static TypeId GetTypeId();
    DcnSwitchBuffer();
    ~DcnSwitchBuffer() override;

    /** No ingress port (packets the switch itself sends). */
    static constexpr uint16_t NO_PORT = 0xFFFF;

    /** Signature of the "Xoff"/"Xon" traces: accounting port (interface index). */
    typedef void (*PortTracedCallback)(uint32_t port);

    /**
     * Size the accounting for \p nPorts interfaces (index = IPv4 interface
     * index) and the fastest link / longest cable of the switch (headroom
     * formula).  \return an empty string, or one line saying what does not fit.
     */
    std::string Configure(uint32_t nPorts, double linkRateBps, Time cableDelay, uint32_t mtu);

    /** Register the egress queue disc of interface \p port (pause frames go out on it). */
    void SetPortQueue(uint32_t port, Ptr<DcnQueueDisc> q);

    void SetCurrentIngress(uint16_t port)
    {
        m_ingress = port;
    }

    uint16_t GetCurrentIngress() const
    {
        return m_ingress;
    }

    /**
     * Admission of a data packet of \p bytes arriving on \p ingress for egress
     * \p egress.  \return the accounting index to release later (ingress with
     * PFC, egress without), or NO_PORT if refused (drop).  Sends XOFF as needed.
     */
    uint16_t Admit(uint16_t ingress, uint16_t egress, uint32_t bytes);

    /** \p bytes admitted under index \p idx left the switch (or were dropped). */
    void Release(uint16_t idx, uint32_t bytes);

    bool IsPfcEnabled() const
    {
        return m_pfc;
    }

    uint8_t GetPriority() const
    {
        return m_priority;
    }

    const fabcore::PfcIngressCore& GetCore() const
    {
        return m_core;
    }

    uint64_t GetNXoff() const
    {
        return m_nXoff;
    }

    uint64_t GetNXon() const
    {
        return m_nXon;
    }

    /** Bytes of the data priority currently accounted to \p port. */
    uint64_t GetPortBytes(uint16_t port) const;

    /** The shared buffer in bytes (BufferSize, or BufferPerPort x (ports + 2) once
     *  configured). */
    uint64_t GetBufferBytes() const
    {
        return m_bufferBytes;
    }

    /** Data packets refused (dropped) by the buffer. */
    uint64_t GetNDropped() const
    {
        return m_core.GetDrops();
    }

  protected:
    void DoDispose() override;

  private:
    uint64_t m_bufferBytes;
    uint64_t m_bufferPerPort{0}; //!< BufferPerPort (0: BufferSize)
    bool m_pfc;
    bool m_dynamic;
    double m_alpha;
    uint64_t m_staticXoff;
    uint64_t m_xonOffset;
    uint64_t m_headroom;
    Time m_response;
    uint8_t m_priority;
    fabcore::PfcIngressCore m_core;
    std::vector<DcnQueueDisc*> m_ports; //!< egress queue disc per interface (owned by the TC layer)
    uint16_t m_ingress{NO_PORT};
    uint64_t m_nXoff{0};
    uint64_t m_nXon{0};
    TracedCallback<uint32_t> m_xoffTrace;
    TracedCallback<uint32_t> m_xonTrace;
};

} // namespace ns3

#endif // DCN_SWITCH_BUFFER_H
