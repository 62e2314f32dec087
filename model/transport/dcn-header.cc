#include "dcn-header.h"

#include "ns3/abort.h"

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
    static const char* names[] = {"DATA", "ACK", "NACK", "PROBE", "PROBE_ACK"};
    os << (opcode < 5 ? names[opcode] : "?") << " conn=" << connId << " psn=" << psn
       << " msg=" << msgId << " off=" << msgOffset << " len=" << payloadSize
       << " flags=" << uint32_t(flags) << " ev=" << evEcho << " cumAck=" << cumAck
       << " evs=" << evs.size();
}

uint32_t
DcnHeader::GetSerializedSize() const
{
    return BASE_SIZE + 2 * static_cast<uint32_t>(evs.size());
}

void
DcnHeader::Serialize(Buffer::Iterator i) const
{
    NS_ABORT_MSG_IF(evs.size() > 255, "DcnHeader: at most 255 carried EVs, got " << evs.size());
    i.WriteU8(opcode);
    i.WriteU8(flags);
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
    return i.GetDistanceFrom(start);
}

} // namespace ns3
