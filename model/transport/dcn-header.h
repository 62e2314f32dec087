/*
 * Wire format of dcn-lb's RoCEv2-like message transport.
 *
 * Carried after a UDP header (destination port 4791, source port = entropy
 * value).  Every field is serialised into the packet's bytes; switches and
 * queues that need transport information (trimming) read these bytes.  The
 * layout depends on the opcode (byte 0), so each packet carries only what it
 * needs (issue 10):
 *
 * DATA (DATA_SIZE = 24 bytes without options):
 *  opcode (8)  flags (8)  connId (32)  psn (32)  msgId (32)
 *  msgOffset (32, low bits; messages < 4 GiB)  payloadSize (16)
 *  timestamp (32, send time in ns modulo 2^32)
 *
 * ACK, NACK, PROBE, PROBE_ACK (CTRL_BASE_SIZE = 29 bytes + 2 x numEvs):
 *  opcode (8)  flags (8)  evEcho (16)  connId (32)  psn (32)
 *  timestamp (32, echo of the data/probe send time, ns modulo 2^32)
 *  cumAck (32, every psn < cumAck has been received)
 *  sackBitmap (64, bit i set = psn cumAck+i has been received)
 *  numEvs (8) then numEvs x 16-bit EVs (ACK "carry EVs" coalescing variant)
 *
 * With PPP (2) + IPv4 (20) + UDP (8) a full data packet of 4096 payload bytes
 * is 4150 bytes on the wire and an ACK 59 bytes.  Timestamps travel as 32-bit
 * ns counters (like TCP timestamps): Deserialize restores the full value as the
 * latest time <= Simulator::Now() with those low 32 bits (valid for RTTs and
 * one-way delays < 4.29 s).
 *
 * Header extension (options), present only when flags has FLAG_EXT, so a
 * packet without options has exactly the base size.  It starts right after the
 * fixed part, at ExtensionOffset() (DATA: DATA_SIZE; control: CTRL_BASE_SIZE +
 * 2 x numEvs; O(1) to find from the bytes), and holds the options of extMask in
 * this fixed order:
 *  extMask (8)
 *  [EXT_PATH_ID]   pathId (32): explicit path id (DcnPath::id of the switch pair)
 *  [EXT_ROUTE]     routeLen (8), routePtr (8, next hop index for switches),
 *                  routeLen x 16-bit switch ids (explicit source route, <= 8)
 *  [EXT_TIMESTAMP] 64-bit ns: DATA = send time (requests a receive stamp);
 *                  ACK = the receiver's arrival time of the data packet
 *  [EXT_INT]       count (8), slots (8), slots x 28-byte record {switchId 16,
 *                  port 16, rateMbps 32, queueBytes 32, txBytes 64, timeNs 64}
 *                  (in-band telemetry stamped by switches, issue 12; slots <= 8,
 *                  count <= slots).  The sender reserves `slots` zeroed records
 *                  (DcnTransport::IntMaxHops); every switch egress that stamps
 *                  (DcnQueueDisc::IntEnabled) fills record `count` in place and
 *                  increments count, so the packet keeps its size along the
 *                  path and its wire size always includes the reserved room.
 *                  Record k+1 is at 2 + 28 k from the option's first byte.
 * ACKs and NACKs echo the data packet's path id, route and INT records (an ACK
 * carries only the stamped records: slots = count).
 *
 * Padding (FLAG_PAD, last): padLen (8) then padLen zero bytes, so that a header
 * reaches the size `padTo` asked by the sender (DcnTransport::DataFrameSize and
 * ControlFrameSize attributes: e.g. 64-byte control packets); padding needs at
 * least one byte, so padTo = natural size + 1 .. + 256.
 */
#ifndef DCN_HEADER_H
#define DCN_HEADER_H

#include "ns3/header.h"

#include <array>
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
        CNP = 5, //!< DCQCN congestion notification packet (receiver NP -> sender RP)
    };

    enum Flags : uint8_t
    {
        FLAG_ECN_ECHO = 0x01, //!< ACK: the acknowledged data packet arrived CE-marked
        FLAG_TRIMMED = 0x02,  //!< DATA: payload cut by a switch (trimming); NACK: answers one
        FLAG_LAST = 0x04,     //!< DATA: last packet of its message
        FLAG_RETX = 0x08,     //!< DATA: retransmission
        FLAG_OOO = 0x10,      //!< ACK: the acknowledged data packet arrived out of order
        FLAG_EXT = 0x20,      //!< a header extension follows the EV list (set by Serialize)
        FLAG_PAD = 0x40,      //!< padding follows the extension (set by Serialize)
    };

    /** Options of the header extension (bits of extMask). */
    enum ExtOption : uint8_t
    {
        EXT_PATH_ID = 0x01,
        EXT_ROUTE = 0x02,
        EXT_TIMESTAMP = 0x04,
        EXT_INT = 0x08,
    };

    /** Limits of the variable-size options. */
    static constexpr uint8_t MAX_ROUTE = 8;
    static constexpr uint8_t MAX_INT = 8;

    /** One in-band telemetry record (EXT_INT), stamped by a switch egress port. */
    struct IntRecord
    {
        uint16_t switchId{0};   //!< DcnTopology switch index
        uint16_t port{0};       //!< egress port (the device's ifIndex on the switch)
        uint32_t rateMbps{0};   //!< link rate of the port in Mb/s
        uint32_t queueBytes{0}; //!< egress queue length after dequeue (both bands)
        uint64_t txBytes{0};    //!< bytes the port transmitted before this packet
        int64_t timeNs{0};      //!< egress timestamp (dequeue time)
    };

    /** Bytes of one INT record on the wire. */
    static constexpr uint32_t INT_RECORD_SIZE = 2 + 2 + 4 + 4 + 8 + 8;

    DcnHeader();
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /** Serialized size of a DATA header without options. */
    static constexpr uint32_t DATA_SIZE = 1 + 1 + 4 + 4 + 4 + 4 + 2 + 4;
    /** Serialized size of an ACK/NACK/PROBE/PROBE_ACK header without EV list and options. */
    static constexpr uint32_t CTRL_BASE_SIZE = 1 + 1 + 2 + 4 + 4 + 4 + 4 + 8 + 1;
    /** The smallest header (a DATA header without options). */
    static constexpr uint32_t BASE_SIZE = DATA_SIZE;
    /** Bytes below the transport header on the wire: PPP (2) + IPv4 (20) + UDP (8). */
    static constexpr uint32_t WIRE_BELOW = 2 + 20 + 8;

    /** Serialized size without padding. */
    uint32_t GetNaturalSize() const;

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
    uint16_t padTo{0};         //!< pad the serialised header to this size (0 = none)

    // ---- header extension (serialised only for the options in extMask) ----
    uint8_t extMask{0};                          //!< ExtOption bits present
    int32_t pathId{-1};                          //!< EXT_PATH_ID
    uint8_t routeLen{0};                         //!< EXT_ROUTE: switches in route
    uint8_t routePtr{0};                         //!< EXT_ROUTE: index of the next switch
    std::array<uint16_t, MAX_ROUTE> route{};     //!< EXT_ROUTE: switch ids
    int64_t extTimestampNs{0};                   //!< EXT_TIMESTAMP
    uint8_t intCount{0};                         //!< EXT_INT: stamped records
    uint8_t intSlots{0};                         //!< EXT_INT: reserved records (>= count)
    std::array<IntRecord, MAX_INT> intRecords{}; //!< EXT_INT

    /** Remove every option (the header then has its base size again). */
    void ClearExtension()
    {
        extMask = 0;
        pathId = -1;
        routeLen = 0;
        routePtr = 0;
        extTimestampNs = 0;
        intCount = 0;
        intSlots = 0;
    }

    /** Records serialised for EXT_INT: max(intCount, intSlots). */
    uint8_t GetIntSlots() const
    {
        return intSlots > intCount ? intSlots : intCount;
    }

    /** Bytes of the extension (0 without options). */
    uint32_t GetExtensionSize() const;

    /**
     * Offset of the extension from the first byte of a serialised DcnHeader, read
     * from its bytes (O(1)); `bytes` must hold at least CTRL_BASE_SIZE bytes
     * (DATA: DATA_SIZE).
     */
    static uint32_t ExtensionOffset(const uint8_t* bytes)
    {
        return bytes[0] == DATA ? DATA_SIZE : CTRL_BASE_SIZE + 2u * bytes[CTRL_BASE_SIZE - 1];
    }

    bool HasFlag(uint8_t f) const
    {
        return (flags & f) != 0;
    }
};

} // namespace ns3

#endif // DCN_HEADER_H
