#include "dcn-tcp-shim-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(DcnTcpShimHeader);

TypeId
DcnTcpShimHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DcnTcpShimHeader")
                            .SetParent<Header>()
                            .SetGroupName("DcnLb")
                            .AddConstructor<DcnTcpShimHeader>();
    return tid;
}

TypeId
DcnTcpShimHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
DcnTcpShimHeader::GetSerializedSize() const
{
    return SIZE;
}

void
DcnTcpShimHeader::Serialize(Buffer::Iterator i) const
{
    i.WriteU8(flags);
    i.WriteU8(echoMarks);
    i.WriteU8(echoPkts);
    i.WriteU8(0);
    i.WriteHtonU16(pathId);
    i.WriteHtonU16(echoEv);
    i.WriteHtonU16(echoPathId);
    i.WriteHtonU16(0);
    i.WriteHtonU64(static_cast<uint64_t>(txTimeNs));
    i.WriteHtonU64(static_cast<uint64_t>(echoTxTimeNs));
}

DcnTcpShimHeader::Kind
DcnTcpShimHeader::PacketKind(Ptr<const Packet> p, uint32_t l2Bytes)
{
    // link header, IPv4 (up to 60 B), UDP (8), this header, TCP up to its data offset
    uint8_t b[2 + 60 + 8 + SIZE + 13] = {};
    if (l2Bytes > 2)
    {
        return KIND_OTHER;
    }
    const uint32_t n = p->CopyData(b, sizeof(b));
    const uint8_t* ip = b + l2Bytes;
    if (n < l2Bytes + 20 || (ip[0] >> 4) != 4 || ip[9] != 17)
    {
        return KIND_OTHER;
    }
    const uint32_t ihl = 4u * (ip[0] & 0x0f);
    const uint8_t* udp = ip + ihl;
    const uint8_t* shim = udp + 8;
    if (n < l2Bytes + ihl + 8 + SIZE || ((uint32_t(udp[2]) << 8) | udp[3]) != UDP_PORT)
    {
        return KIND_OTHER;
    }
    if (shim[0] & (FLAG_PROBE | FLAG_PROBE_REPLY))
    {
        return KIND_PROBE;
    }
    if (n < l2Bytes + ihl + 8 + SIZE + 13)
    {
        return KIND_OTHER;
    }
    const uint32_t ipLen = (uint32_t(ip[2]) << 8) | ip[3];
    const uint32_t headers = ihl + 8 + SIZE + 4u * (shim[SIZE + 12] >> 4);
    return ipLen > headers ? KIND_DATA : KIND_NO_DATA;
}

uint32_t
DcnTcpShimHeader::Deserialize(Buffer::Iterator i)
{
    flags = i.ReadU8();
    echoMarks = i.ReadU8();
    echoPkts = i.ReadU8();
    i.ReadU8();
    pathId = i.ReadNtohU16();
    echoEv = i.ReadNtohU16();
    echoPathId = i.ReadNtohU16();
    i.ReadNtohU16();
    txTimeNs = static_cast<int64_t>(i.ReadNtohU64());
    echoTxTimeNs = static_cast<int64_t>(i.ReadNtohU64());
    return SIZE;
}

void
DcnTcpShimHeader::Print(std::ostream& os) const
{
    os << "flags=" << int(flags) << " path=" << pathId << " tx=" << txTimeNs;
    if (flags & FLAG_ECHO)
    {
        os << " echo{ev=" << echoEv << " path=" << echoPathId << " tx=" << echoTxTimeNs
           << " marks=" << int(echoMarks) << "/" << int(echoPkts) << "}";
    }
}

} // namespace ns3
