/*
 * DcnTcpShim: the path shim between ns-3's TcpL4Protocol and IPv4 (issue 17 item 1,
 * DESIGN.md 4 "Real bytes decide").  ns-3 is not patched: the shim is TcpL4Protocol's down
 * target (SetDownTarget) and a demultiplexer in front of UDP (protocol 17) on receive.
 *
 * Send (every TCP segment, SYN and pure ACK included): look up the connection by its
 * 4-tuple (O(1) hash), classify the segment (new data, retransmission = sequence below the
 * highest sent, timeout = a retransmission sent outside the processing of a received
 * segment, i.e. by TCP's retransmission timer), report a TIMEOUT to the connection's path
 * selector, ask it for the segment's path (PathSelector::Choose), then encapsulate:
 *   UDP (src port = EV, dst 4792) | DcnTcpShimHeader (path id, send time, echo) | TCP
 * and hand the packet to Ipv4L3Protocol::Send as protocol 17.  TCP's SocketIpTosTag (ECT)
 * stays on the packet, so IPv4 writes the ECN bits as for plain TCP.
 *
 * Receive (UDP port 4792): strip UDP + shim header; give the echo to the connection's
 * selector (ACK / ECN_ACK with the path of the echoed data segment and an RTT sample);
 * remember {EV, path id, send time, CE} of a data segment for the echo on the next segment
 * sent back; hand TcpL4Protocol::Receive the plain segment with the outer IPv4 header
 * (protocol 6, CE kept), so TCP (DCTCP's ECE, NewReno with ECN) sees plain TCP.
 *
 * Reorder buffer (Presto*, Hermes Sec. 5): a connection whose path selector asks for it
 * (PathSelector::ReceiverResequencing) sends its segments with FLAG_RESEQ; the receiving
 * shim then holds segments above the next expected sequence (lbcore::ReorderBuffer) until
 * the gap fills, the buffer is full (ReorderCapacity) or ReorderTimeout passes since the
 * oldest hold, and hands TCP the segments in sequence order.
 *
 * Path-only sensing (PathSelector::PathOnlySensing, Hermes): the connection's segments
 * (and the agent's probes) carry FLAG_NIC_STAMP; the sender's host NIC queue rewrites their
 * send time when they leave it and flags a CE it set (FLAG_HOST_CE), which the receiver
 * does not echo as a path mark (TCP still gets the CE).
 *
 * Connections a transport registers (RegisterFlow) use its path selector; any other
 * connection (the passive side: SYN-ACKs, pure ACKs) is sent per-flow ECMP: a fixed EV from
 * a hash of the 4-tuple (Hermes spec 4 [ART]).  Probes (Hermes) are shim packets with
 * FLAG_PROBE and no TCP segment; the receiving shim answers with FLAG_PROBE_REPLY echoing
 * EV, path id, send time and CE.
 */
#ifndef DCN_TCP_SHIM_H
#define DCN_TCP_SHIM_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/ip-l4-protocol.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-interface.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/path-selector.h"
#include "ns3/reorder-core.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <memory>
#include <unordered_map>

namespace ns3
{

class Ipv4L3Protocol;
class Ipv4Route;
class Ipv4Interface;
class TcpL4Protocol;

/** Shim counters (one node). */
struct DcnTcpShimStats
{
    uint64_t encapsulated{0};    //!< TCP segments sent through the shim
    uint64_t decapsulated{0};    //!< TCP segments handed to TcpL4Protocol
    uint64_t retransmissions{0}; //!< segments below the highest sequence sent
    uint64_t timeouts{0};        //!< retransmissions by TCP's timer (see the file comment)
    uint64_t pathChanges{0};     //!< data segments on another path than the connection's last
    uint64_t echoes{0};          //!< echoes given to path selectors
    uint64_t ceEchoes{0};        //!< of which with CE-marked data segments
    uint64_t ackRepaths{0};      //!< passive-side EV changes after a duplicate data segment
    uint64_t probesSent{0};
    uint64_t probeRepliesReceived{0};
    uint64_t probesAnswered{0}; //!< probes this host replied to (it was the probed host)
    uint64_t reseqHeld{0};      //!< segments the reorder buffer held (arrived above a gap)
    uint64_t reseqTimeouts{0};  //!< reorder-buffer flushes by ReorderTimeout
    uint64_t reseqOverflows{0}; //!< reorder-buffer flushes because it was full
    /** data segments and probes received CE-marked by their sender's own NIC
     *  (FLAG_HOST_CE): TCP sees the CE, the echo does not count it as a path mark */
    uint64_t hostCeReceived{0};
    int64_t echoRttSumNs{0};   //!< sum of the RTT samples given to path selectors (echoes)
    int64_t echoRttMaxNs{0};   //!< largest of them
    uint64_t rttOnlyEchoes{0}; //!< echoes and probe replies with an RTT but no ECN sample
};

class DcnTcpShim : public Object
{
  public:
    /** Probe reply: from, EV, path id, RTT, CE seen by the probe, ECN sample valid (false:
     *  the probe left its sender's NIC CE-marked and asked for no sample, FLAG_CE_NO_SAMPLE). */
    using ProbeReplyCallback = Callback<void, Ipv4Address, uint16_t, uint16_t, Time, bool, bool>;
    /** TraceSource "Timeout": remote address, remote port, EV of the connection's last segment. */
    typedef void (*TimeoutTracedCallback)(Ipv4Address, uint16_t, uint16_t);

    static TypeId GetTypeId();
    DcnTcpShim();
    ~DcnTcpShim() override;

    /** Hook TCP's down target and UDP's receive path of node (IPv4 and TCP installed). */
    void Install(Ptr<Node> node);

    /** The shim of a node (null if none). */
    static Ptr<DcnTcpShim> Get(Ptr<Node> node);

    /** Steer the connection (localPort, remote, remotePort) with ps (Setup done by the caller). */
    void RegisterFlow(uint16_t localPort,
                      Ipv4Address remote,
                      uint16_t remotePort,
                      Ptr<PathSelector> ps);
    /** Forget a connection (its selector is released). */
    void UnregisterFlow(uint16_t localPort, Ipv4Address remote, uint16_t remotePort);

    /**
     * Send a probe (64 B on the wire with PPP + IPv4 + UDP + shim) to dst with EV / path id;
     * \p nicStamp: FLAG_NIC_STAMP (the probe senses the path only, PathSelector::PathOnlySensing);
     * \p ceNoSample: FLAG_CE_NO_SAMPLE (PathSelector::HostCeNoSample).
     */
    void SendProbe(Ipv4Address dst,
                   uint16_t ev,
                   uint16_t pathId,
                   bool nicStamp = false,
                   bool ceNoSample = false);
    /** Where probe replies go (Hermes's rack agent). */
    void SetProbeReplyCallback(ProbeReplyCallback cb);

    const DcnTcpShimStats& GetStats() const
    {
        return m_stats;
    }

    /**
     * Retransmitted segments and retransmission timeouts of one registered
     * connection so far (counted as in GetStats()); false if it is not registered.
     */
    bool GetFlowCounters(uint16_t localPort,
                         Ipv4Address remote,
                         uint16_t remotePort,
                         uint32_t& retransmissions,
                         uint32_t& timeouts) const;

    /** Per-segment send path (TcpL4Protocol's down target). @internal public for tests. */
    void Send(Ptr<Packet> p, Ipv4Address src, Ipv4Address dst, uint8_t proto, Ptr<Ipv4Route> route);
    /** Receive a UDP/4792 packet (UDP header first). @internal */
    IpL4Protocol::RxStatus Receive(Ptr<Packet> p, const Ipv4Header& h, Ptr<Ipv4Interface> iface);

  protected:
    void DoDispose() override;

  private:
    /** A held segment: the plain TCP segment, its IPv4 header, the interface. */
    struct HeldSegment
    {
        Ptr<Packet> p;
        Ipv4Header h;
        Ptr<Ipv4Interface> iface;
    };

    /** Receiver reorder state of one connection (allocated on its first FLAG_RESEQ). */
    struct Reseq
    {
        explicit Reseq(std::size_t capacity)
            : buf(capacity)
        {
        }

        ~Reseq()
        {
            timer.Cancel();
        }

        lbcore::ReorderBuffer<HeldSegment> buf;
        EventId timer;
    };

    struct Flow
    {
        Ptr<PathSelector> ps; //!< null: per-flow ECMP with ecmpEv
        uint16_t ecmpEv{0};
        bool rcvInit{false};
        uint32_t rcvMax{0}; //!< highest sequence received + 1
        bool ackInit{false};
        uint32_t ackMax{0}; //!< highest ACK number this end sent (everything below it arrived)
        bool seqInit{false};
        uint32_t sndMax{0}; //!< highest sequence sent + 1 (raw 32-bit, wrap-safe compare)
        Time lastRx{-1};    //!< time of the last segment received on this connection
        Time lastTimeout{-1};
        uint32_t retx{0};     //!< segments of this connection sent again
        uint32_t timeouts{0}; //!< its retransmission timeouts
        PathChoice last;      //!< path of the last segment sent
        bool dataPathSet{false};
        uint16_t lastDataEv{0};     //!< EV of the last data segment sent
        int32_t lastDataPathId{-1}; //!< its path id
        // echo owed to the peer (data received)
        bool echoPending{false};
        uint16_t echoEv{0};
        uint16_t echoPathId{0};
        int64_t echoTx{0};
        uint8_t echoMarks{0};
        uint8_t echoPkts{0};
        bool reseqTx{false};          //!< send FLAG_RESEQ (the selector asks for it)
        bool nicStampTx{false};       //!< send FLAG_NIC_STAMP (the selector asks for it)
        bool ceNoSampleTx{false};     //!< send FLAG_CE_NO_SAMPLE (HostCeNoSample)
        std::unique_ptr<Reseq> reseq; //!< receiver reorder buffer (FLAG_RESEQ seen)
    };

    /** Hand one plain TCP segment to TcpL4Protocol. */
    void DeliverTcp(HeldSegment&& s);
    /** ReorderTimeout of the connection `key` expired: flush its reorder buffer. */
    void ReseqTimeout(uint64_t key);

    static uint64_t Key(uint16_t localPort, Ipv4Address remote, uint16_t remotePort)
    {
        return (uint64_t(localPort) << 48) | (uint64_t(remotePort) << 32) | remote.Get();
    }

    Flow& GetFlow(uint64_t key, uint16_t localPort, Ipv4Address remote, uint16_t remotePort);

    Ptr<Node> m_node;
    Ptr<Ipv4L3Protocol> m_ipv4;
    Ptr<TcpL4Protocol> m_tcp;
    Ptr<IpL4Protocol> m_demux;
    std::unordered_map<uint64_t, Flow> m_flows;
    ProbeReplyCallback m_probeReply;
    Ipv4Address m_local;
    uint32_t m_probeBytes{0};
    DcnTcpShimStats m_stats;
    TracedCallback<Ipv4Address, uint16_t, uint16_t> m_timeoutTrace;
    Time m_reseqTimeout;
    Time m_ackRepathIdle; //!< silence before a duplicate moves the passive side's EV
    uint32_t m_reseqCapacity{256};
};

} // namespace ns3

#endif // DCN_TCP_SHIM_H
