/*
 * DcnTcpTransport: ns-3's own TCP (TcpDctcp, TcpNewReno, ...) as a DcnMessageTransport
 * (issue 17 item 1, DESIGN.md 3.3), so DcnWorkloadApp / WorkloadHelper run every workload over
 * it and record FCTs in the same FctStats as over DcnTransport.
 *
 * One TCP socket per connection (OpenConnection); messages posted on a connection are sent as
 * one byte stream in FIFO order; a message completes when TCP's highest cumulative ACK
 * (TcpSocketBase trace "HighestRxAck") covers its last byte, i.e. every byte was delivered and
 * acknowledged (the same completion rule as DcnTransport).  Every segment goes through the
 * node's DcnTcpShim, which asks the connection's path selector for the segment's path and
 * feeds back per-path ECN echoes, RTT samples and timeouts.  With PathShim=false there is no
 * shim: segments go from TcpL4Protocol to IPv4 as plain ns-3 TCP (no UDP encapsulation, no path
 * selector steering, no probes), for switches that route plain IPv4/TCP (ns-3 global routing,
 * or ours hashing the TCP 5-tuple); only the ECMP selector runs there (DcnOptionError
 * otherwise), and it is set up but never asked.  With CloseWhenIdle (default) a
 * connection whose messages are all done is closed (FIN) and a later message on it opens a
 * fresh socket (same path selector): one socket per flow with NewPerMessage connections.
 * Each host listens on Port and discards what it receives (GetRxBytes counts it).
 *
 * TCP settings (Hermes spec 4 "Transport"): attributes below, applied to every socket.
 */
#ifndef DCN_TCP_TRANSPORT_H
#define DCN_TCP_TRANSPORT_H

#include "ns3/dcn-message-transport.h"
#include "ns3/dcn-tcp-shim.h"
#include "ns3/node.h"
#include "ns3/sequence-number.h"
#include "ns3/socket.h"

#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class DcnTcpTransport : public DcnMessageTransport
{
  public:
    static TypeId GetTypeId();
    DcnTcpTransport();
    ~DcnTcpTransport() override;

    /** Install on a node with an IPv4 + TCP stack: the shim and the listening socket. */
    void Install(Ptr<Node> node);

    std::string GetTransportName() const override
    {
        return "tcp";
    }

    uint32_t OpenConnection(Ipv4Address dst,
                            Ptr<PathSelector> ps,
                            Ptr<CongestionControl> cc,
                            const DcnConnectionParams& p) override;
    uint32_t PostMessage(uint32_t connId,
                         uint64_t bytes,
                         CompletionCallback onComplete,
                         uint64_t userTag) override;
    uint32_t GetPendingMessages(uint32_t connId) const override;
    uint32_t GetMtu() const override;
    bool GetMessageProgress(uint64_t userTag, DcnMessageRecord& out) const override;

    /** Host-wide state of the path selectors (DESIGN.md 3.1); "dcn-rack" holds the rack's. */
    Ptr<DcnLbSharedState> GetSharedState();
    void SetSharedState(Ptr<DcnLbSharedState> s);

    /** The node's shim (null with PathShim=false). */
    Ptr<DcnTcpShim> GetShim() const
    {
        return m_shim;
    }

    /** Attribute PathShim: false = plain ns-3 TCP (no shim on the node). */
    bool GetPathShim() const
    {
        return m_pathShim;
    }

    /** Payload bytes received by this host's listening sockets. */
    uint64_t GetRxBytes() const
    {
        return m_rxBytes;
    }

    /** Connections whose SYN exhausted its retries (ConnCount). */
    uint32_t GetFailedConnects() const
    {
        return m_failedConnects;
    }

    /**
     * "" if load balancer (path selector or scheme name) lb can run with pathShim, else the
     * one-line reason (without PathShim only ECMP: switches hash the TCP 5-tuple).
     */
    static std::string CheckPathShim(bool pathShim, const std::string& lb);
    /** PathShim of transports created now (the attribute's default, e.g. from --ns3::...). */
    static bool DefaultPathShim();

    /** The TCP socket of a connection (tests). */
    Ptr<Socket> GetSocket(uint32_t connId) const;

  protected:
    void DoDispose() override;

  private:
    struct Msg
    {
        uint32_t msgId{0};
        uint64_t bytes{0};
        uint64_t end{0}; //!< stream offset after its last byte
        Time start{0};
        CompletionCallback cb;
        uint64_t userTag{0};
    };

    /** One connection (stable address: callbacks are bound to it). */
    struct Conn
    {
        DcnTcpTransport* t{nullptr};
        uint32_t id{0};
        Ipv4Address dst;
        Ptr<PathSelector> ps;
        Ptr<Socket> sock;
        uint16_t lport{0};
        bool open{false};      //!< a socket exists and was not closed by us
        bool connected{false}; //!< established
        uint64_t base{0};      //!< stream offset of this socket's first byte
        uint64_t posted{0};    //!< stream bytes posted
        uint64_t written{0};   //!< stream bytes handed to the socket
        uint64_t acked{0};     //!< stream bytes cumulatively acknowledged
        uint64_t rxAckSeq{0};  //!< the socket's highest ACK, unwrapped (32-bit sequences)
        uint32_t retxSeen{0};  //!< the socket's retransmissions given to finished messages
        uint32_t rtoSeen{0};   //!< the socket's timeouts given to finished messages
        uint32_t nextMsgId{0};
        std::deque<Msg> msgs;

        void OnConnected(Ptr<Socket> s);
        void OnConnectFailed(Ptr<Socket> s);
        void OnSendSpace(Ptr<Socket> s, uint32_t avail);
        void OnHighestRxAck(SequenceNumber32 oldV, SequenceNumber32 newV);
        void OnClosed(Ptr<Socket> s);
        void SendProbe(const PathChoice& c);
        void DeclareLost(uint32_t psn);
    };

    void OpenSocket(Conn& c);
    void Push(Conn& c);
    void Acked(Conn& c);
    /**
     * Give \p r the retransmissions and timeouts of \p c's socket not yet given to a
     * finished message (the shim's per-connection counts; left 0 with PathShim=false).
     */
    void FillUnseenCounters(const Conn& c, DcnMessageRecord& r) const;
    void CloseSocket(Ptr<Socket> s, Conn* c);
    void ApplySocketAttributes(Ptr<Socket> s) const;
    void OnAccept(Ptr<Socket> s, const Address& from);
    void OnRecv(Ptr<Socket> s);
    void OnPeerClose(Ptr<Socket> s);

    // attributes
    std::string m_congestionOps;
    uint16_t m_port;
    uint32_t m_segmentSize;
    Time m_minRto;
    Time m_connTimeout;
    uint32_t m_initialCwnd;
    uint32_t m_dataRetries;
    uint32_t m_synRetries;
    uint32_t m_delAckCount;
    bool m_useEcn;
    bool m_closeWhenIdle;
    uint32_t m_bufSize;
    bool m_pathShim{true};

    Ptr<Node> m_node;
    Ptr<DcnTcpShim> m_shim;
    Ptr<Socket> m_listen;
    std::vector<Ptr<Socket>> m_accepted;
    std::vector<std::unique_ptr<Conn>> m_conns;
    Ptr<DcnLbSharedState> m_shared;
    TypeId m_ccTid;
    uint64_t m_rxBytes{0};
    uint32_t m_failedConnects{0};
};

} // namespace ns3

#endif // DCN_TCP_TRANSPORT_H
