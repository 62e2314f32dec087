/*
 * dcn-lb's RoCEv2-like message transport (DESIGN.md 3.3, REPS spec 1.6/2.2/2.3).
 *
 * One DcnTransport per host node (aggregated to the Node).  Packets are
 *   UdpHeader(src port = EV, dst port 4791) | DcnHeader | payload
 * sent with Ipv4L3Protocol::Send (protocol 17); data is ECT(0), ACK/NACK not ECT.
 * A UDP socket bound to port 4791 receives data and ACKs; the EV is read from
 * the received UDP source port and the CE bit from the received IP TOS byte.
 *
 * Out-of-order mode (default): the receiver accepts and acknowledges any order
 * (cumulative ack + the acked PSN + a 64-bit SACK bitmap), echoes the EV (in
 * evEcho and as the ACK's UDP source port) and the CE bit, NACKs trimmed
 * packets; the sender retransmits selectively on NACK and retransmission
 * timeout.  ACK policy: one ACK per AckRatio data packets, at once for the LAST
 * packet of a message, duplicates and stragglers, and (AckDelay > 0) at most
 * AckDelay after an unacknowledged data packet (delayed-ACK timer).  ACKs and NACKs echo the data
 * packet's header extension (path id, source route, INT records) and answer a timestamp request
 * with the arrival time; PROBE packets are answered with PROBE_ACK.  A host-level NIC scheduler
 * serves ready connections round-robin at the NIC rate; the ACKs, NACKs and probes this host sends
 * leave at once (high-priority band of the host queue) and their serialisation time is charged to
 * the same scheduler, so data + control never exceed the link rate and the host queue stays
 * within a packet or two (issue 10).  DataFrameSize / ControlFrameSize pad headers to an on-wire
 * size (REPS artifact: 4150 / 64 bytes).
 */
#ifndef DCN_TRANSPORT_H
#define DCN_TRANSPORT_H

#include "ns3/data-rate.h"
#include "ns3/dcn-connection.h"
#include "ns3/dcn-fast-path.h"
#include "ns3/dcn-header.h"
#include "ns3/dcn-message-transport.h"
#include "ns3/dcqcn-core.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/node.h"
#include "ns3/object.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <unordered_map>
#include <vector>

namespace ns3
{

class DcnPortDevice;
class TrafficControlLayer;

class Ipv4L3Protocol;

/** Per-transport counters (sender and receiver side). */
struct DcnTransportStats
{
    uint64_t dataPacketsSent{0};
    uint64_t retransmissions{0};
    uint64_t acksSent{0};
    uint64_t nacksSent{0};
    uint64_t acksReceived{0};
    uint64_t nacksReceived{0};
    uint64_t timeouts{0};
    uint64_t dataPacketsReceived{0}; //!< including duplicates and trimmed headers
    uint64_t trimmedReceived{0};
    uint64_t duplicatePackets{0};     //!< data packets received again (not delivered)
    uint64_t outOfOrderPackets{0};    //!< delivered packets with psn below the highest seen
    uint64_t uniqueBytesDelivered{0}; //!< payload bytes delivered (each exactly once)
    uint64_t ceMarkedReceived{0};
    uint64_t messagesCompleted{0};
    uint64_t outOfSequenceDropped{0}; //!< InOrder receiver: packets past the expected PSN dropped
    uint64_t goBackNacksSent{0};      //!< InOrder receiver: NACKs carrying the expected PSN
    uint64_t goBackNackRepeats{0};    //!< InOrder receiver: of them, repeats (NackRepeatInterval)
    uint64_t goBacks{0};              //!< InOrder sender: go-back-N events (NACK or timeout)
    uint64_t cnpsSent{0};             //!< DCQCN notification point: CNPs sent
    uint64_t cnpsReceived{0};         //!< DCQCN reaction point: CNPs received
    uint64_t controlBytesCharged{0};  //!< wire bytes of ACK/NACK/probes charged to the NIC
};

class DcnTransport : public DcnMessageTransport
{
  public:
    enum Mode
    {
        OUT_OF_ORDER, //!< selective ACK/retransmission (UET / REPS style)
        IN_ORDER      //!< go-back-N (classic RoCE): receiver accepts only the expected PSN
    };

    /** DCQCN notification point (CNP generation at the receiver). */
    enum CnpMode
    {
        CNP_AUTO, //!< on in InOrder (RoCE) mode, off in OutOfOrder mode
        CNP_ON,
        CNP_OFF
    };

    /** Where the retransmission timer of a go-back-N connection counts from (RtoStart). */
    enum RtoStartMode
    {
        RTO_FROM_SEND,    //!< each packet times out Rto after its (latest) send
        RTO_FROM_LAST_ACK //!< Rto after the latest ACK/NACK, armed by ACKs only ([A])
    };

    enum AckEvMode
    {
        ACK_EV_STANDARD, //!< EV + CE of the packet that triggered the ACK
        ACK_EV_CARRY     //!< list every unmarked EV since the previous ACK
    };

    static TypeId GetTypeId();
    DcnTransport();
    ~DcnTransport() override;

    /** Bind the socket on node (called by DcnTransportHelper::Install). */
    void Install(Ptr<Node> node);

    /** Open a connection to dst with its own path selector and congestion control. */
    Ptr<DcnConnection> Connect(Ipv4Address dst,
                               Ptr<PathSelector> ps,
                               Ptr<CongestionControl> cc,
                               const DcnConnectionParams& p);

    Ptr<Node> GetNode() const
    {
        return m_node;
    }

    Ipv4Address GetLocalAddress() const
    {
        return m_local;
    }

    const DcnTransportStats& GetStats() const
    {
        return m_stats;
    }

    /**
     * PFC at the host NIC (doc/roce.rst): while the NIC's egress port is
     * paused for the data class, the data scheduler sends nothing (ACKs and
     * other control packets still leave); DcnPfcHelper connects it to the NIC
     * queue's PfcPause / PfcResume traces.
     */
    void SetNicPaused(bool paused);

    bool IsNicPaused() const
    {
        return m_nicPaused;
    }

    uint32_t GetNConnections() const
    {
        return static_cast<uint32_t>(m_conns.size());
    }

    Ptr<DcnConnection> GetConnection(uint32_t connId) const;

    /** Host-wide state shared by this host's path selectors (created on first use). */
    Ptr<DcnLbSharedState> GetSharedState();
    /** Share a state object (e.g. one per rack: give the hosts of a switch the same object). */
    void SetSharedState(Ptr<DcnLbSharedState> s);

    /** "" if the attribute values are valid, else one line (attribute, value, allowed). */
    std::string Validate() const;

    uint32_t GetMtu() const override
    {
        return m_mtu;
    }

    // ---- DcnMessageTransport ----
    std::string GetTransportName() const override
    {
        return "dcn";
    }

    uint32_t OpenConnection(Ipv4Address dst,
                            Ptr<PathSelector> ps,
                            Ptr<CongestionControl> cc,
                            const DcnConnectionParams& p) override
    {
        return Connect(dst, ps, cc, p)->GetConnId();
    }

    uint32_t PostMessage(uint32_t connId,
                         uint64_t bytes,
                         CompletionCallback onComplete,
                         uint64_t userTag) override
    {
        return m_conns.at(connId)->SendMessage(bytes, onComplete, userTag);
    }

    uint32_t GetPendingMessages(uint32_t connId) const override
    {
        return m_conns.at(connId)->GetPendingMessages();
    }

    bool GetMessageProgress(uint64_t userTag, DcnMessageRecord& out) const override
    {
        for (const auto& c : m_conns)
        {
            if (c->GetMessageProgress(userTag, out))
            {
                return true;
            }
        }
        return false;
    }

    Time GetRto() const
    {
        return m_rto;
    }

    // ---- used by DcnConnection ----
    /** @internal */
    void NotifyReady(DcnConnection* c);
    /** @internal Send a transport packet (headers are added here). */
    void SendPacket(Ptr<Packet> p, DcnHeader& h, uint16_t ev, Ipv4Address dst, bool ect);

    /** @internal */
    DcnTransportStats& MutableStats()
    {
        return m_stats;
    }

    /** Trace signatures. */
    typedef void (*PacketTracedCallback)(Ptr<const Packet> p, const DcnHeader& h);
    typedef void (*TimeoutTracedCallback)(uint32_t connId, uint32_t psn, uint16_t ev);
    typedef void (*MessageTracedCallback)(const DcnMessageRecord& r);
    typedef void (*RxTracedCallback)(Ptr<const Packet> p,
                                     const DcnHeader& h,
                                     Ipv4Address src,
                                     bool duplicate);
    typedef void (*PathChosenTracedCallback)(uint32_t connId, uint32_t psn, uint16_t ev);

    TracedCallback<Ptr<const Packet>, const DcnHeader&> m_txTrace;
    TracedCallback<Ptr<const Packet>, const DcnHeader&, Ipv4Address, bool> m_rxTrace;
    TracedCallback<Ptr<const Packet>, const DcnHeader&> m_ackTrace;
    TracedCallback<Ptr<const Packet>, const DcnHeader&> m_nackTrace;
    TracedCallback<uint32_t, uint32_t, uint16_t> m_timeoutTrace;
    TracedCallback<const DcnMessageRecord&> m_msgCompleteTrace;
    TracedCallback<uint32_t, uint32_t, uint16_t> m_pathChosenTrace;
    /** CNP sent by this host's notification point (destination = the data sender, connId). */
    TracedCallback<Ipv4Address, uint32_t> m_cnpTrace;
    typedef void (*CnpTracedCallback)(Ipv4Address sender, uint32_t connId);

    Mode GetMode() const
    {
        return m_mode;
    }

    /** @internal attribute values read by connections */
    Time m_rto;
    double m_rtoBaseRtts{0};   //!< RtoBaseRtts: per-connection RTO floor in base RTTs
    bool m_rtoAdaptive{false}; //!< RtoAdaptive: RFC 6298 estimate above the floor
    bool m_paceFromLastSend{false};
    RtoStartMode m_rtoStart{RTO_FROM_SEND}; //!< RtoStart: go-back-N connections only
    bool m_ignoreStaleNacks{true};          //!< IgnoreStaleNacks: go-back-N senders only
    uint32_t m_mtu;
    bool m_trimming;
    bool m_intRequest{false};
    uint32_t m_intMaxHops{5};

  protected:
    void DoDispose() override;

  private:
    struct RxConn
    {
        Ipv4Address src;
        uint32_t connId{0};
        uint32_t cum{0};               //!< all psn < cum received
        uint32_t highest{0};           //!< highest psn received + 1
        std::deque<uint8_t> window;    //!< received flags of psn cum + i
        uint64_t sackBits{0};          //!< window[0..63] as bits (the ACK's SACK bitmap)
        uint32_t pendingAcks{0};       //!< data packets not yet acknowledged (coalescing)
        uint32_t lastEnd{0};           //!< psn + 1 of the latest LAST packet received
        std::vector<uint16_t> carried; //!< unmarked EVs since the previous ACK (carry mode)
        uint64_t bytes{0};
        uint64_t duplicates{0};
        // delayed-ACK timer (AckDelay > 0): the latest unacknowledged data packet
        EventId ackTimer;
        DcnHeader lastData;
        uint16_t lastEv{0};
        bool lastCe{false};
        bool lastOoo{false};
        int64_t lastArrivalNs{0}; //!< arrival time of the latest data packet (timestamp echo)
        // InOrder mode: the expected PSN is cum; one NACK per expected PSN
        uint32_t nackedPsn{UINT32_MAX}; //!< expected PSN already NACKed (UINT32_MAX: none)
        Time lastNack{0};               //!< when nackedPsn was last NACKed (NackRepeatInterval)
        cccore::DcqcnNp np; //!< DCQCN notification point: at most one CNP per CnpInterval
    };

    void HandleRead(Ptr<Socket> s);
    /** One received packet (DcnHeader first), from the socket or the fast NIC path. */
    void ProcessPacket(Ptr<Packet> p, Ipv4Address src, uint16_t ev, bool ce);
    /**
     * FabricMode=fast host NIC (StackBypass): the receive callback of the host's
     * DcnPortDevice.  IPv4/UDP packets to this host's transport port are read
     * here (the same header checks as Ipv4L3Protocol and UdpL4Protocol); every
     * other packet goes up the IPv4 stack.
     */
    bool FastReceive(Ptr<NetDevice> dev,
                     Ptr<const Packet> p,
                     uint16_t protocol,
                     const Address& from);
    void ReceiveData(Ptr<Packet> p, const DcnHeader& h, Ipv4Address from, uint16_t ev, bool ce);
    RxConn& GetRxConn(Ipv4Address from, uint32_t connId);
    void SendAck(RxConn& rc, const DcnHeader& data, uint16_t ev, bool ce, bool ooo);
    /** The delayed-ACK timer of receiver connection idx expired. */
    void DelayedAck(uint32_t idx);
    /** Copy the path options of a received packet into an ACK/NACK/probe reply (echo). */
    static void EchoOptions(DcnHeader& reply, const DcnHeader& data, int64_t arrivalNs);
    void ReplyProbe(const DcnHeader& probe, Ipv4Address from, uint16_t ev);
    /** InOrder receiver: data packet with psn != expected (cum). */
    void ReceiveOutOfSequence(RxConn& rc, const DcnHeader& h, uint16_t ev, bool ce);
    /** DCQCN NP: a CE-marked data packet of rc arrived; send a CNP if the interval allows. */
    void NotifyCe(RxConn& rc, const DcnHeader& h, uint16_t ev);
    void NicTransmit();
    Time TxTime(uint32_t wireBytes) const;
    /** padTo of a DATA (data = true) or control header from the frame-size attributes. */
    uint16_t PadTarget(bool data) const;

    Ptr<Node> m_node;
    Ptr<Ipv4L3Protocol> m_ipv4;
    Ptr<Socket> m_socket;
    bool m_stackBypass{true};       //!< StackBypass attribute
    DcnPortDevice* m_port{nullptr}; //!< fast NIC (FabricMode=fast and StackBypass)
    Ptr<TrafficControlLayer> m_tc;  //!< fast NIC: where other packets go up
    uint8_t m_ttl{64};              //!< Ipv4L3Protocol DefaultTtl
    std::vector<uint16_t> m_ipId;   //!< fast NIC: IPv4 identification per destination host
    Ipv4Address m_local;
    Mode m_mode;
    uint32_t m_ackRatio;
    Time m_ackDelay;
    Time m_nackRepeat; //!< NackRepeatInterval (0: one NACK per expected PSN)
    CnpMode m_cnpMode;
    Time m_cnpInterval;
    AckEvMode m_ackEvMode;
    DataRate m_nicRate;
    mutable dcnfast::TxTimeMemo m_txTime; //!< TxTime(): CalculateBytesTxTime of the last size
    dcnfast::ChecksumFlag m_csum;         //!< Node::ChecksumEnabled(), read once
    uint32_t m_wireOverhead;
    uint32_t m_dataFrameSize;
    uint32_t m_ctrlFrameSize;

    std::vector<Ptr<DcnConnection>> m_conns;
    std::vector<RxConn> m_rx;
    std::unordered_map<uint64_t, uint32_t> m_rxIndex;
    uint64_t m_lastRxKey{~uint64_t(0)};
    uint32_t m_lastRxIdx{0};

    std::deque<DcnConnection*> m_ready;
    EventId m_nicEvent;
    Time m_nicFreeAt{0};
    bool m_nicPaused{false}; //!< data class paused by PFC (SetNicPaused)

    DcnTransportStats m_stats;
    DcnHeader m_rxHdr;  //!< reused on receive
    DcnHeader m_ackHdr; //!< reused when building ACKs
    Ptr<DcnLbSharedState> m_shared;
};

} // namespace ns3

#endif // DCN_TRANSPORT_H
