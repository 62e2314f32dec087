/*
 * Wire format of dcn-lb's RoCEv2-like message transport.
 *
 * Carried after a UDP header (destination port 4791, source port = entropy
 * value).  Every field is serialised into the packet's bytes; switches and
 * queues that need transport information (trimming) read these bytes.
 *
 *  0       1       2       3
 *  opcode  flags   evEcho(16)
 *  connId (32)
 *  psn (32)
 *  msgId (32)
 *  msgOffset (64)
 *  payloadSize (32)
 *  timestamp (64, ns; data: send time, ACK/NACK: echo of the data's send time)
 *  cumAck (32, ACK: every psn < cumAck has been received)
 *  sackBitmap (64, ACK: bit i set = psn cumAck+i has been received)
 *  numEvs (8) then numEvs x 16-bit EVs (ACK "carry EVs" coalescing variant)
 */
#ifndef DCN_HEADER_H
#define DCN_HEADER_H

#include "ns3/header.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class DcnHeader : public Header
{
  public:
    /** UDP destination port of the transport (RoCEv2). */
    static constexpr uint16_t UDP_PORT = 4791;

    enum Opcode : uint8_t
    {
        DATA = 0,
        ACK = 1,
        NACK = 2,
        PROBE = 3,
        PROBE_ACK = 4,
    };

    enum Flags : uint8_t
    {
        FLAG_ECN_ECHO = 0x01, //!< ACK: the acknowledged data packet arrived CE-marked
        FLAG_TRIMMED = 0x02,  //!< DATA: payload was cut by a switch (packet trimming)
        FLAG_LAST = 0x04,     //!< DATA: last packet of its message
        FLAG_RETX = 0x08,     //!< DATA: retransmission
        FLAG_OOO = 0x10,      //!< ACK: the acknowledged data packet arrived out of order
    };

    DcnHeader();
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /** Serialized size without the EV list. */
    static constexpr uint32_t BASE_SIZE = 1 + 1 + 2 + 4 + 4 + 4 + 8 + 4 + 8 + 4 + 8 + 1;

    uint8_t opcode{DATA};
    uint8_t flags{0};
    uint16_t evEcho{0};
    uint32_t connId{0};
    uint32_t psn{0};
    uint32_t msgId{0};
    uint64_t msgOffset{0};
    uint32_t payloadSize{0};
    int64_t timestampNs{0};
    uint32_t cumAck{0};
    uint64_t sackBitmap{0};    //!< ACK: selective ack of psn cumAck+i (bit i), i < 64
    std::vector<uint16_t> evs; //!< carried EVs (coalesced ACKs, "carry" variant)

    bool HasFlag(uint8_t f) const
    {
        return (flags & f) != 0;
    }
};

} // namespace ns3

#endif // DCN_HEADER_H
