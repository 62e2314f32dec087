/*
 * Fast fabric mode (issue 13, doc/fabric.rst "Fast fabric mode"): a switch or
 * host port that owns its egress DcnQueueDisc.
 *
 * DcnPortDevice is a PointToPointNetDevice (same wire: the 2-byte PPP header,
 * DataRate, channel Delay, receive error model, pcap link type), so every
 * helper that holds a Ptr<PointToPointNetDevice> keeps working.  With
 * OwnTransmit=true (default) it runs its own transmit machine (StartTx /
 * TxDone: the same events, in the same order, as PointToPointNetDevice and
 * PointToPointChannel) and receives from a DcnPortDevice peer in FastRx; its
 * trace sources are then PortTxBegin, PortTxEnd, PortRx and PortRxDrop
 * (ConnectTxBegin / ConnectTxEnd pick the right one), and the PPP header
 * between two DcnPortDevices is implicit (counted in the serialisation time,
 * added for every observer).  With OwnTransmit=false its transmit queue is a
 * DcnPortQueue, a window onto the device: PointToPointNetDevice's own
 * transmit machine pulls the next packet from it when a transmission
 * completes.  What differs from the IPv4 mode is the egress path:
 *  - the DcnQueueDisc is owned by the device, not by the TrafficControlLayer:
 *    a switch's fast path (DcnSwitchRouting::FastReceive) enqueues an
 *    Ipv4QueueDiscItem directly (EnqueueItem); a host's IPv4 stack reaches
 *    Send() through the traffic-control layer's pass-through;
 *  - the device pulls its next packet itself when a transmission completes
 *    (no NetDeviceQueue stop/wake event, no QueueDisc::Run): a packet-hop
 *    costs two events (transmission complete here, reception at the peer);
 *  - like the IPv4 mode (a 1-packet device queue behind the queue disc), one
 *    packet waits in the device ("staged") while another is on the wire, so
 *    queue occupancy, marking, trimming and INT see the same queue.  The only
 *    difference: the staged slot is refilled inside the transmission-complete
 *    event, not in a separate wake event at the same time (doc/fabric.rst).
 */
#ifndef DCN_PORT_DEVICE_H
#define DCN_PORT_DEVICE_H

#include "dcn-fast-path.h"

#include "ns3/data-rate.h"
#include "ns3/event-impl.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/ppp-header.h"
#include "ns3/queue-item.h"
#include "ns3/queue.h"
#include "ns3/traced-callback.h"

namespace ns3
{

class DcnQueueDisc;
class PointToPointChannel;
class QueueDiscItem;

class DcnPortDevice;

/**
 * The transmit queue PointToPointNetDevice sees on a DcnPortDevice: it holds
 * no packets of its own; Enqueue takes the packet the device hands to
 * PointToPointNetDevice::Send on an idle line, Dequeue asks the device for
 * the next packet (staged, else none).  MacTx fires for packets that start an
 * idle line only (the others never pass through Send).
 */
class DcnPortQueue : public Queue<Packet>
{
  public:
    static TypeId GetTypeId();
    DcnPortQueue();
    ~DcnPortQueue() override;

    void SetDevice(DcnPortDevice* dev)
    {
        m_dev = dev;
    }

    bool Enqueue(Ptr<Packet> item) override;
    Ptr<Packet> Dequeue() override;
    Ptr<Packet> Remove() override;
    Ptr<const Packet> Peek() const override;

  private:
    DcnPortDevice* m_dev{nullptr};
};

class DcnPortDevice : public PointToPointNetDevice
{
  public:
    static TypeId GetTypeId();
    DcnPortDevice();
    ~DcnPortDevice() override;

    /** The egress queue disc (owned; initialised with the device). */
    void SetQueueDisc(Ptr<DcnQueueDisc> q);
    Ptr<DcnQueueDisc> GetQueueDisc() const;

    /** Line rate: sets PointToPointNetDevice's DataRate and the cached copy used here. */
    void SetDataRate(DataRate rate);
    DataRate GetDataRate() const;

    /**
     * Enqueue an IPv4 packet (header separate, as the traffic-control layer
     * hands it to a queue disc) and start the line if idle.
     */
    void EnqueueItem(Ptr<QueueDiscItem> item);

    /** Start the line / refill the staged slot (the queue disc's Run() equivalent). */
    void Kick();

    /**
     * A packet with its IPv4 header from the IPv4 stack (traffic-control
     * pass-through): the header is read back into an Ipv4QueueDiscItem.
     */
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;

    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(PromiscReceiveCallback cb) override;

    /**
     * Reception of a packet sent by a peer on its own transmit machine: what
     * PointToPointNetDevice::Receive does (receive error model, PPP header
     * removed, receive callback with the peer's address), with PortRx /
     * PortRxDrop as its trace sources.  With a promiscuous receive callback
     * installed it hands the packet to PointToPointNetDevice::Receive.
     */
    void FastRx(Ptr<Packet> p);

    bool IsTransmitting() const
    {
        return m_busy;
    }

    /**
     * The egress DcnQueueDisc of any device: the port's own (fast) or the
     * traffic-control layer's root queue disc (ipv4); nullptr if none.
     */
    static Ptr<DcnQueueDisc> GetEgressQueueDisc(Ptr<NetDevice> dev);

    /** Set the rate of any point-to-point device (the DcnPortDevice cache too). */
    static void SetLinkRate(Ptr<PointToPointNetDevice> dev, DataRate rate);

    /**
     * TracedCallback signature of PortTxBegin / PortTxEnd.
     * \param packet the packet on the line, PPP and IPv4 headers included
     */
    typedef void (*PortTxTracedCallback)(Ptr<const Packet> packet);

    /**
     * Connect cb (void (Ptr<const Packet>)) to the end-of-transmission trace of
     * any point-to-point device: PortTxEnd of a DcnPortDevice on its own
     * transmit machine, PhyTxEnd otherwise.  Returns TraceConnectWithoutContext's result.
     */
    static bool ConnectTxEnd(Ptr<NetDevice> dev, const CallbackBase& cb);
    /** As ConnectTxEnd, for the start of a transmission (PortTxBegin / PhyTxBegin). */
    static bool ConnectTxBegin(Ptr<NetDevice> dev, const CallbackBase& cb);

    /** Transmissions completed by the own transmit machine (no trace needed: DcnPacketHopCounter).
     */
    uint64_t GetOwnTxPackets() const
    {
        return m_ownTxPackets;
    }

    /** True if this port transmits with its own machine (attribute OwnTransmit, see GetTypeId). */
    bool UsesOwnTransmit() const
    {
        return m_ownTx;
    }

  protected:
    void DoInitialize() override;

  private:
    friend class DcnPortQueue;
    /** DcnPortQueue::Enqueue: the packet Kick() passes to PointToPointNetDevice::Send. */
    void Pushed(Ptr<Packet> p);
    /** DcnPortQueue::Dequeue: the next packet for the line (nullptr: the line goes idle). */
    Ptr<Packet> NextForLine();
    /** One packet from the queue disc, IPv4 and PPP headers added (nullptr if none). */
    Ptr<Packet> Pull();
    /** Own transmit machine: p goes on the line (busy until TxDone). */
    void StartTx(Ptr<Packet> p);
    /** Own transmit machine: the transmission of m_txPkt is complete. */
    void TxDone();
    /** The event that calls TxDone() (defined in the .cc). */
    class TxDoneEvent;
    /** Own transmit machine: find the peer device, the channel delay and the gap (first use). */
    void FindPeer();

    Ptr<DcnQueueDisc> m_qdisc;
    Ptr<DcnPortQueue> m_txq;
    Ptr<Packet> m_pushed; //!< handed to Send() on an idle line
    Ptr<Packet> m_staged; //!< dequeued, waiting for the line (the IPv4 mode's device queue)
    bool m_busy{false};   //!< a packet is on the line
    bool m_pumping{false};
    bool m_inSend{false};
    DataRate m_rate;
    dcnfast::ChecksumFlag m_csum;

    // Own transmit machine (OwnTransmit=true).
    bool m_ownTx{true};
    bool m_peerKnown{false};
    PointToPointNetDevice* m_peer{nullptr}; //!< the other end (raw: no reference cycle)
    DcnPortDevice* m_peerPort{nullptr};     //!< the same if it is a DcnPortDevice
    Address m_remote;                       //!< the peer's address (GetRemote())
    NetDevice::ReceiveCallback m_rxCb;
    PppHeader m_pppTx;      //!< IPv4 PPP header added to every transmitted packet
    PppHeader m_pppRx;      //!< what FastRx reads (members: no Header object per packet)
    bool m_unframed{false}; //!< own machine to a DcnPortDevice: the PPP header is implicit
    static constexpr uint32_t PPP_BYTES = 2;
    bool m_promisc{false};
    uint32_t m_peerNode{0};       //!< its node id (the receive event's context)
    Time m_delay;                 //!< the channel's propagation delay
    Time m_gap;                   //!< PointToPointNetDevice's InterframeGap
    Ptr<Packet> m_txPkt;          //!< on the line
    uint64_t m_ownTxPackets{0};   //!< completed transmissions
    dcnfast::TxTimeMemo m_txTime; //!< serialisation time per (rate, size)
    /** The end-of-transmission event, allocated once and rescheduled for every
     *  packet (at most one is pending: the line is busy until it fires). */
    Ptr<EventImpl> m_txDoneEvent;
    TracedCallback<Ptr<const Packet>> m_portTxBegin;
    TracedCallback<Ptr<const Packet>> m_portTxEnd;
    TracedCallback<Ptr<const Packet>> m_portRx;
    TracedCallback<Ptr<const Packet>> m_portRxDrop;
};

} // namespace ns3

#endif // DCN_PORT_DEVICE_H
