#include "dcn-header.h"

#include "ns3/abort.h"

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
        os << " int=" << uint32_t(intCount);
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
        n += 1 + 14u * intCount;
    }
    return n;
}

uint32_t
DcnHeader::GetSerializedSize() const
{
    return BASE_SIZE + 2 * static_cast<uint32_t>(evs.size()) + GetExtensionSize();
}

void
DcnHeader::Serialize(Buffer::Iterator i) const
{
    NS_ABORT_MSG_IF(evs.size() > 255, "DcnHeader: at most 255 carried EVs, got " << evs.size());
    NS_ABORT_MSG_IF(routeLen > MAX_ROUTE || intCount > MAX_INT,
                    "DcnHeader: route of " << uint32_t(routeLen) << " switches or "
                                           << uint32_t(intCount) << " INT records; allowed <= 8");
    i.WriteU8(opcode);
    i.WriteU8((flags & ~FLAG_EXT) | (extMask != 0 ? FLAG_EXT : 0));
    i.WriteHtonU16(evEcho);
    i.WriteHtonU32(connId);
    i.WriteHtonU32(psn);
    i.WriteHtonU32(msgId);
    i.WriteHtonU64(msgOffset);
    i.WriteHtonU32(payloadSize);
    i.WriteHtonU64(static_cast<uint64_t>(timestampNs));
    i.WriteHtonU32(cumAck);
    i.WriteHtonU64(sackBitmap);
    i.WriteU8(static_cast<uint8_t>(evs.size()));
    for (uint16_t ev : evs)
    {
        i.WriteHtonU16(ev);
    }
    if (extMask == 0)
    {
        return;
    }
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
        i.WriteU8(intCount);
        for (uint8_t k = 0; k < intCount; ++k)
        {
            i.WriteHtonU16(intRecords[k].switchId);
            i.WriteHtonU32(intRecords[k].queueBytes);
            i.WriteHtonU64(static_cast<uint64_t>(intRecords[k].timeNs));
        }
    }
}

uint32_t
DcnHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    opcode = i.ReadU8();
    flags = i.ReadU8();
    evEcho = i.ReadNtohU16();
    connId = i.ReadNtohU32();
    psn = i.ReadNtohU32();
    msgId = i.ReadNtohU32();
    msgOffset = i.ReadNtohU64();
    payloadSize = i.ReadNtohU32();
    timestampNs = static_cast<int64_t>(i.ReadNtohU64());
    cumAck = i.ReadNtohU32();
    sackBitmap = i.ReadNtohU64();
    uint8_t n = i.ReadU8();
    evs.resize(n);
    for (uint8_t k = 0; k < n; ++k)
    {
        evs[k] = i.ReadNtohU16();
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
            intCount = std::min<uint8_t>(i.ReadU8(), MAX_INT);
            for (uint8_t k = 0; k < intCount; ++k)
            {
                intRecords[k].switchId = i.ReadNtohU16();
                intRecords[k].queueBytes = i.ReadNtohU32();
                intRecords[k].timeNs = static_cast<int64_t>(i.ReadNtohU64());
            }
        }
    }
    return i.GetDistanceFrom(start);
}

} // namespace ns3
