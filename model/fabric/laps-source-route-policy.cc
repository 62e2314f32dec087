#include "laps-source-route-policy.h"

#include "ns3/dcn-header.h"
#include "ns3/log.h"
#include "ns3/packet.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnLapsSourceRoutePolicy");
NS_OBJECT_ENSURE_REGISTERED(LapsSourceRouteForwardingPolicy);

namespace
{
constexpr uint32_t UDP = 8;
const bool g_registered = [] {
    DcnRegisterForwardingPolicy("laps-source", "ns3::LapsSourceRouteForwardingPolicy");
    return true;
}();
} // namespace

bool
LapsReadRoute(Ptr<const Packet> p, DcnSourceRoute* r)
{
    // fixed part of a control header (the larger one) after UDP
    uint8_t b[UDP + DcnHeader::CTRL_BASE_SIZE + 2 * 255 + 1 + 4 + 2 + 2 * DcnSourceRoute::MAX];
    static_assert(sizeof(b) >= DCN_SOURCE_ROUTE_PREFIX, "a DATA prefix fits");
    // one copy serves a DATA packet and a reply without carried EVs (LAPS ACKs carry
    // none): the control header's fixed part, the extension mask, path id and route
    constexpr uint32_t CTRL_PREFIX =
        UDP + DcnHeader::CTRL_BASE_SIZE + 1 + 4 + 2 + 2 * DcnSourceRoute::MAX;
    static_assert(CTRL_PREFIX >= DCN_SOURCE_ROUTE_PREFIX && CTRL_PREFIX <= sizeof(b), "prefix");
    uint32_t got = p->CopyData(b, std::min<uint32_t>(p->GetSize(), CTRL_PREFIX));
    if (got < UDP + 2 || !(b[UDP + 1] & DcnHeader::FLAG_EXT))
    {
        return false;
    }
    const uint8_t op = b[UDP];
    if (op == DcnHeader::DATA)
    {
        return DcnParseSourceRoute(b, got, r);
    }
    const bool reply = op == DcnHeader::ACK || op == DcnHeader::NACK || op == DcnHeader::PROBE_ACK;
    if (!reply && op != DcnHeader::PROBE)
    {
        return false;
    }
    if (got < UDP + DcnHeader::CTRL_BASE_SIZE || b[UDP + DcnHeader::CTRL_BASE_SIZE - 1] != 0)
    {
        got = p->CopyData(b, std::min<uint32_t>(p->GetSize(), sizeof(b))); // carried EVs
    }
    uint32_t off = UDP + DcnHeader::CTRL_BASE_SIZE;
    if (got < off)
    {
        return false;
    }
    off += 2 * b[off - 1]; // numEvs x 16-bit EVs
    if (got < off + 1)
    {
        return false;
    }
    const uint8_t mask = b[off++];
    if (!(mask & DcnHeader::EXT_ROUTE))
    {
        return false;
    }
    off += (mask & DcnHeader::EXT_PATH_ID) ? 4 : 0;
    if (got < off + 2)
    {
        return false;
    }
    const uint32_t len = b[off];
    off += 2;
    if (len == 0 || len > DcnSourceRoute::MAX || got < off + 2 * len)
    {
        return false;
    }
    r->n = len;
    r->ptr = 0;
    for (uint32_t i = 0; i < len; ++i)
    {
        const uint16_t a = static_cast<uint16_t>((b[off + 2 * i] << 8) | b[off + 2 * i + 1]);
        r->anchors[reply ? len - 1 - i : i] = a;
    }
    return true;
}

TypeId
LapsSourceRouteForwardingPolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::LapsSourceRouteForwardingPolicy")
                            .SetParent<DcnSourceRouteForwardingPolicy>()
                            .SetGroupName("DcnLb")
                            .AddConstructor<LapsSourceRouteForwardingPolicy>();
    return tid;
}

LapsSourceRouteForwardingPolicy::LapsSourceRouteForwardingPolicy()
{
    NS_LOG_FUNCTION(this);
    SetReader(&LapsReadRoute);
    SetHopIndexed(true);
}

LapsSourceRouteForwardingPolicy::~LapsSourceRouteForwardingPolicy()
{
    NS_LOG_FUNCTION(this);
}

} // namespace ns3
