#include "laps-source-route-policy.h"

#include "ns3/dcn-addressing.h"
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

namespace
{
/**
 * Where a LAPS route sits in the first bytes of an IP payload: DATA and PROBE
 * carry it as sent, replies (ACK, NACK, PROBE_ACK) reversed.
 */
struct LapsRouteView
{
    // fixed part of a control header (the larger one) after UDP, carried EVs, route
    uint8_t b[UDP + DcnHeader::CTRL_BASE_SIZE + 2 * 255 + 1 + 4 + 2 + 2 * DcnSourceRoute::MAX];
    uint32_t off{0}; //!< first anchor's byte
    uint32_t len{0};
    uint32_t ptr{0};
    bool reply{false};

    /** Anchor i of the route as the packet follows it. */
    uint32_t At(uint32_t i) const
    {
        const uint32_t j = off + 2 * (reply ? len - 1 - i : i);
        return static_cast<uint16_t>((b[j] << 8) | b[j + 1]);
    }

    void Fill(DcnSourceRoute* r) const
    {
        r->n = len;
        r->ptr = ptr;
        for (uint32_t i = 0; i < len; ++i)
        {
            r->anchors[i] = static_cast<uint16_t>(At(i));
        }
    }

    /** Copy and locate the route of p. \return false if p carries none. */
    bool Locate(const Packet& p);

    /**
     * Read the route extension at byte o of b (mask, optional path id, len, ptr,
     * anchors), got bytes copied. A DATA route may be empty and carries its pointer;
     * a PROBE's or reply's may not and is read from its start (ptr 0).
     * \return false if there is no complete route.
     */
    bool ReadExtension(uint32_t o, uint32_t got, bool data);
};

bool
LapsRouteView::Locate(const Packet& p)
{
    static_assert(sizeof(b) >= DCN_SOURCE_ROUTE_PREFIX, "a DATA prefix fits");
    // one copy serves a DATA packet and a reply without carried EVs (LAPS ACKs carry
    // none): the control header's fixed part, the extension mask, path id and route
    constexpr uint32_t CTRL_PREFIX =
        UDP + DcnHeader::CTRL_BASE_SIZE + 1 + 4 + 2 + 2 * DcnSourceRoute::MAX;
    static_assert(CTRL_PREFIX >= DCN_SOURCE_ROUTE_PREFIX && CTRL_PREFIX <= sizeof(b), "prefix");
    const uint32_t size = p.GetSize();
    uint32_t got = p.CopyData(b, std::min<uint32_t>(size, CTRL_PREFIX));
    if (got < UDP + 2 || !(b[UDP + 1] & DcnHeader::FLAG_EXT))
    {
        return false;
    }
    const uint8_t op = b[UDP];
    if (op == DcnHeader::DATA)
    {
        reply = false;
        return ReadExtension(UDP + DcnHeader::DATA_SIZE, got, true); // as DcnParseSourceRoute
    }
    reply = op == DcnHeader::ACK || op == DcnHeader::NACK || op == DcnHeader::PROBE_ACK;
    if (!reply && op != DcnHeader::PROBE)
    {
        return false;
    }
    if (got < UDP + DcnHeader::CTRL_BASE_SIZE || b[UDP + DcnHeader::CTRL_BASE_SIZE - 1] != 0)
    {
        got = p.CopyData(b, std::min<uint32_t>(size, sizeof(b))); // carried EVs
    }
    uint32_t o = UDP + DcnHeader::CTRL_BASE_SIZE;
    if (got < o)
    {
        return false;
    }
    return ReadExtension(o + 2 * b[o - 1], got, false); // after numEvs x 16-bit EVs
}

bool
LapsRouteView::ReadExtension(uint32_t o, uint32_t got, bool data)
{
    if (got < o + 1)
    {
        return false;
    }
    const uint8_t mask = b[o++];
    if (!(mask & DcnHeader::EXT_ROUTE))
    {
        return false;
    }
    o += (mask & DcnHeader::EXT_PATH_ID) ? 4 : 0;
    if (got < o + 2)
    {
        return false;
    }
    len = b[o];
    ptr = data ? b[o + 1] : 0;
    o += 2;
    if ((len == 0 && !data) || len > DcnSourceRoute::MAX || got < o + 2 * len)
    {
        return false;
    }
    off = o;
    return true;
}
} // namespace

bool
LapsReadRoute(Ptr<const Packet> p, DcnSourceRoute* r)
{
    LapsRouteView v;
    if (!v.Locate(*p))
    {
        return false;
    }
    v.Fill(r);
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

uint32_t
LapsSourceRouteForwardingPolicy::Select(DcnForwardingContext& ctx)
{
    NS_LOG_FUNCTION(this << ctx.hops);
    if (!m_info || GetReader() != &LapsReadRoute)
    {
        return DcnSourceRouteForwardingPolicy::Select(ctx);
    }
    const uint32_t d = m_info->SwitchOfHost(ctx.dstHost);
    if (d == DcnAddressing::NONE || d == m_self)
    {
        return Minimal(ctx);
    }
    // the base policy's Select with LapsReadRoute, reading only the two anchors it
    // needs when the route is hop-indexed (no copy of the whole route)
    LapsRouteView v;
    if (!v.Locate(ctx.PacketRef()))
    {
        return Minimal(ctx);
    }
    const uint32_t h = ctx.hops;
    if (HopIndexable(v.ptr, v.len, h) && v.At(h) == m_self)
    {
        return ToNextAnchor(ctx, v.At(h + 1));
    }
    DcnSourceRoute r;
    v.Fill(&r);
    return FollowRoute(ctx, r);
}

} // namespace ns3
