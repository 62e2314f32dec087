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
