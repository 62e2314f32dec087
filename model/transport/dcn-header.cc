#include "dcn-header.h"

#include "ns3/abort.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(DcnHeader);

DcnHeader::DcnHeader() = default;

TypeId
DcnHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DcnHeader")
                            .SetParent<Header>()
                            .SetGroupName("DcnLb")
                            .AddConstructor<DcnHeader>();
    return tid;
}

TypeId
DcnHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
DcnHeader::Print(std::ostream& os) const
{
    static const char* names[] = {"DATA", "ACK", "NACK", "PROBE", "PROBE_ACK", "CNP"};
    os << (opcode < 6 ? names[opcode] : "?") << " conn=" << connId << " psn=" << psn
       << " msg=" << msgId << " off=" << msgOffset << " len=" << payloadSize
       << " flags=" << uint32_t(flags) << " ev=" << evEcho << " cumAck=" << cumAck
       << " evs=" << evs.size();
    if (extMask & EXT_PATH_ID)
    {
        os << " pathId=" << pathId;
    }
    if (extMask & EXT_ROUTE)
    {
        os << " route=";
        for (uint8_t k = 0; k < routeLen; ++k)
        {
            os << (k ? "," : "") << route[k];
        }
        os << " ptr=" << uint32_t(routePtr);
    }
    if (extMask & EXT_TIMESTAMP)
    {
        os << " ts=" << extTimestampNs;
    }
    if (extMask & EXT_INT)
    {
        os << " int=" << uint32_t(intCount) << "/" << uint32_t(GetIntSlots());
    }
}

uint32_t
DcnHeader::GetExtensionSize() const
{
    if (extMask == 0)
    {
        return 0;
    }
    uint32_t n = 1;
    if (extMask & EXT_PATH_ID)
    {
        n += 4;
    }
    if (extMask & EXT_ROUTE)
    {
        n += 2 + 2u * routeLen;
    }
    if (extMask & EXT_TIMESTAMP)
    {
        n += 8;
    }
    if (extMask & EXT_INT)
    {
        n += 2 + INT_RECORD_SIZE * GetIntSlots();
    }
    return n;
}

uint32_t
DcnHeader::GetNaturalSize() const
{
    uint32_t n =
        opcode == DATA ? DATA_SIZE : CTRL_BASE_SIZE + 2 * static_cast<uint32_t>(evs.size());
    return n + GetExtensionSize();
}

uint32_t
DcnHeader::GetSerializedSize() const
{
    uint32_t n = GetNaturalSize();
    return padTo > n ? std::min<uint32_t>(padTo, n + 256) : n;
}

namespace
{
/** Full ns value of a 32-bit ns counter: the latest time <= now with these low bits. */
int64_t
Unwrap32(uint32_t low)
{
    const int64_t now = Simulator::Now().GetNanoSeconds();
    const uint32_t back = static_cast<uint32_t>(static_cast<uint64_t>(now)) - low;
    return now - static_cast<int64_t>(back);
}
} // namespace

void
DcnHeader::Serialize(Buffer::Iterator i) const
{
    NS_ABORT_MSG_IF(evs.size() > 255, "DcnHeader: at most 255 carried EVs, got " << evs.size());
    NS_ABORT_MSG_IF(routeLen > MAX_ROUTE || GetIntSlots() > MAX_INT,
                    "DcnHeader: route of " << uint32_t(routeLen) << " switches or "
                                           << uint32_t(GetIntSlots())
                                           << " INT records; allowed <= 8");
    const uint32_t natural = GetNaturalSize();
    const uint32_t total = GetSerializedSize();
    uint8_t f = (flags & ~(FLAG_EXT | FLAG_PAD)) | (extMask != 0 ? FLAG_EXT : 0) |
                (total > natural ? FLAG_PAD : 0);
    i.WriteU8(opcode);
    i.WriteU8(f);
    if (opcode == DATA)
    {
        i.WriteHtonU32(connId);
        i.WriteHtonU32(psn);
        i.WriteHtonU32(msgId);
        i.WriteHtonU32(static_cast<uint32_t>(msgOffset));
        i.WriteHtonU16(static_cast<uint16_t>(payloadSize));
        i.WriteHtonU32(static_cast<uint32_t>(static_cast<uint64_t>(timestampNs)));
    }
    else
    {
        i.WriteHtonU16(evEcho);
        i.WriteHtonU32(connId);
        i.WriteHtonU32(psn);
        i.WriteHtonU32(static_cast<uint32_t>(static_cast<uint64_t>(timestampNs)));
        i.WriteHtonU32(cumAck);
        i.WriteHtonU64(sackBitmap);
        i.WriteU8(static_cast<uint8_t>(evs.size()));
        for (uint16_t ev : evs)
        {
            i.WriteHtonU16(ev);
        }
    }
    if (extMask != 0)
    {
        i.WriteU8(extMask);
        if (extMask & EXT_PATH_ID)
        {
            i.WriteHtonU32(static_cast<uint32_t>(pathId));
        }
        if (extMask & EXT_ROUTE)
        {
            i.WriteU8(routeLen);
            i.WriteU8(routePtr);
            for (uint8_t k = 0; k < routeLen; ++k)
            {
                i.WriteHtonU16(route[k]);
            }
        }
        if (extMask & EXT_TIMESTAMP)
        {
            i.WriteHtonU64(static_cast<uint64_t>(extTimestampNs));
        }
        if (extMask & EXT_INT)
        {
            const uint8_t slots = GetIntSlots();
            i.WriteU8(intCount);
            i.WriteU8(slots);
            for (uint8_t k = 0; k < intCount; ++k)
            {
                const IntRecord& r = intRecords[k];
                i.WriteHtonU16(r.switchId);
                i.WriteHtonU16(r.port);
                i.WriteHtonU32(r.rateMbps);
                i.WriteHtonU32(r.queueBytes);
                i.WriteHtonU64(r.txBytes);
                i.WriteHtonU64(static_cast<uint64_t>(r.timeNs));
            }
            i.WriteU8(0, INT_RECORD_SIZE * (slots - intCount)); // reserved room
        }
    }
    if (total > natural)
    {
        const uint32_t pad = total - natural - 1;
        i.WriteU8(static_cast<uint8_t>(pad));
        i.WriteU8(0, pad);
    }
}

uint32_t
DcnHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    opcode = i.ReadU8();
    flags = i.ReadU8();
    if (opcode == DATA)
    {
        evEcho = 0;
        connId = i.ReadNtohU32();
        psn = i.ReadNtohU32();
        msgId = i.ReadNtohU32();
        msgOffset = i.ReadNtohU32();
        payloadSize = i.ReadNtohU16();
        timestampNs = Unwrap32(i.ReadNtohU32());
        cumAck = 0;
        sackBitmap = 0;
        evs.clear();
    }
    else
    {
        evEcho = i.ReadNtohU16();
        connId = i.ReadNtohU32();
        psn = i.ReadNtohU32();
        timestampNs = Unwrap32(i.ReadNtohU32());
        cumAck = i.ReadNtohU32();
        sackBitmap = i.ReadNtohU64();
        msgId = 0;
        msgOffset = 0;
        payloadSize = 0;
        uint8_t n = i.ReadU8();
        evs.resize(n);
        for (uint8_t k = 0; k < n; ++k)
        {
            evs[k] = i.ReadNtohU16();
        }
    }
    ClearExtension();
    if (flags & FLAG_EXT)
    {
        extMask = i.ReadU8();
        if (extMask & EXT_PATH_ID)
        {
            pathId = static_cast<int32_t>(i.ReadNtohU32());
        }
        if (extMask & EXT_ROUTE)
        {
            routeLen = std::min<uint8_t>(i.ReadU8(), MAX_ROUTE);
            routePtr = i.ReadU8();
            for (uint8_t k = 0; k < routeLen; ++k)
            {
                route[k] = i.ReadNtohU16();
            }
        }
        if (extMask & EXT_TIMESTAMP)
        {
            extTimestampNs = static_cast<int64_t>(i.ReadNtohU64());
        }
        if (extMask & EXT_INT)
        {
            const uint8_t count = i.ReadU8();
            const uint8_t slots = i.ReadU8();
            intSlots = std::min<uint8_t>(std::max(count, slots), MAX_INT);
            intCount = std::min(count, intSlots);
            for (uint8_t k = 0; k < intCount; ++k)
            {
                IntRecord& r = intRecords[k];
                r.switchId = i.ReadNtohU16();
                r.port = i.ReadNtohU16();
                r.rateMbps = i.ReadNtohU32();
                r.queueBytes = i.ReadNtohU32();
                r.txBytes = i.ReadNtohU64();
                r.timeNs = static_cast<int64_t>(i.ReadNtohU64());
            }
            i.Next(INT_RECORD_SIZE * (intSlots - intCount)); // reserved room
        }
    }
    padTo = 0;
    if (flags & FLAG_PAD)
    {
        uint8_t pad = i.ReadU8();
        i.Next(pad);
        padTo = static_cast<uint16_t>(i.GetDistanceFrom(start));
    }
    return i.GetDistanceFrom(start);
}

} // namespace ns3
