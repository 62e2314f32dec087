/*
 * Wire format of the TCP path shim (issue 17, doc/hermes.rst "TCP shim").
 *
 * ns-3's TCP segments cross our fabric encapsulated, in real bytes:
 *
 *   IPv4 (protocol 17) | UDP (src port = EV, dst port 4792) | DcnTcpShimHeader | TCP | payload
 *
 * Switches hash the outer UDP source port like any EV (DcnFlowKey reads the first four
 * bytes after IPv4 for protocol 17), so a path selector steers a segment by its EV.  The
 * receiver's shim strips UDP + this header and hands TcpL4Protocol a plain TCP segment with
 * the outer IPv4 header (ECN bits included, protocol set back to 6).
 *
 * DcnTcpShimHeader (SIZE = 28 bytes):
 *   flags (8)       FLAG_ECHO: the echo fields are valid; FLAG_PROBE / FLAG_PROBE_REPLY;
 *                   FLAG_RESEQ: the sender sprays, the receiving shim resequences the
 *                   connection's segments before TCP sees them (Presto*'s reorder buffer)
 *                   FLAG_NIC_STAMP: the sender senses the path only (Hermes
 *                   PathOnlySensing): its host NIC queue (DcnQueueDisc HostNic) rewrites
 *                   txTime when the packet leaves it and sets FLAG_HOST_CE if it marked CE
 *                   FLAG_HOST_CE: the CE bit was set by the sender's own NIC (TCP still sees
 *                   CE; the receiver's echo does not count it as a path mark)
 *                   FLAG_CE_NO_SAMPLE: with FLAG_HOST_CE the receiver leaves the packet
 *                   out of echoMarks and echoPkts (an echo with echoPkts 0 carries an RTT
 *                   sample only; a probe reply then has echoPkts 0)
 *   echoMarks (8)   CE-marked data segments on the echoed path since the last echo
 *   echoPkts (8)    data segments on the echoed path since the last echo
 *   reserved (8)
 *   pathId (16)     path id the sender chose (DcnPath::id; 0xffff = none)
 *   echoEv (16)     EV of the echoed data segment (or probe)
 *   echoPathId (16) path id of the echoed data segment (or probe)
 *   reserved (16)
 *   txTime (64)     sender's send time, ns (with FLAG_NIC_STAMP: when it left the host NIC)
 *   echoTxTime (64) send time of the echoed data segment (or probe), ns
 *
 * The receiver echoes its last received data segment's {EV, path id, send time, CE count} on
 * the next segment it sends on that connection (with DelAckCount = 1: the ACK of that
 * segment), which gives the sender per-path ECN and RTT samples (Hermes spec 2.1 [NP]).
 */
#ifndef DCN_TCP_SHIM_HEADER_H
#define DCN_TCP_SHIM_HEADER_H

#include "ns3/header.h"
#include "ns3/packet.h"

#include <cstdint>

namespace ns3
{

class DcnTcpShimHeader : public Header
{
  public:
    static constexpr uint16_t UDP_PORT = 4792; //!< UDP destination port of the encapsulation
    static constexpr uint32_t SIZE = 28;       //!< serialized size
    static constexpr uint16_t NO_PATH = 0xffff;

    enum Flags : uint8_t
    {
        FLAG_ECHO = 0x01,
        FLAG_PROBE = 0x02,
        FLAG_PROBE_REPLY = 0x04,
        FLAG_RESEQ = 0x08,
        FLAG_NIC_STAMP = 0x10,
        FLAG_HOST_CE = 0x20,
        FLAG_CE_NO_SAMPLE = 0x40,
    };

    /** What an IPv4 packet carries, as its bytes say (PacketKind). */
    enum Kind : uint8_t
    {
        KIND_OTHER,   //!< not an encapsulated segment (plain TCP, other UDP, too short)
        KIND_PROBE,   //!< a shim probe or probe reply
        KIND_DATA,    //!< a TCP segment with payload
        KIND_NO_DATA, //!< a TCP segment without payload (ACK, SYN, FIN)
    };

    /**
     * Classify \p p from its bytes (statistics, e.g. of dropped packets): \p l2Bytes of
     * link header (2 for PPP), then IPv4, UDP to UDP_PORT, this header, TCP.
     */
    static Kind PacketKind(Ptr<const Packet> p, uint32_t l2Bytes);

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    uint8_t flags{0};
    uint8_t echoMarks{0};
    uint8_t echoPkts{0};
    uint16_t pathId{NO_PATH};
    uint16_t echoEv{0};
    uint16_t echoPathId{NO_PATH};
    int64_t txTimeNs{0};
    int64_t echoTxTimeNs{0};
};

} // namespace ns3

#endif // DCN_TCP_SHIM_HEADER_H
