#include "dcn-routing-policies.h"

#include "ns3/boolean.h"
#include "ns3/dcn-addressing.h"
#include "ns3/dcn-header.h"
#include "ns3/dcn-topology.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnRoutingPolicies");
NS_OBJECT_ENSURE_REGISTERED(DcnMinimalForwardingPolicy);
NS_OBJECT_ENSURE_REGISTERED(DcnDetourPolicyBase);
NS_OBJECT_ENSURE_REGISTERED(DcnValiantForwardingPolicy);
NS_OBJECT_ENSURE_REGISTERED(DcnUgalForwardingPolicy);
NS_OBJECT_ENSURE_REGISTERED(DcnSourceRouteForwardingPolicy);

// ---- Minimal ----

TypeId
DcnMinimalForwardingPolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DcnMinimalForwardingPolicy")
                            .SetParent<EcmpForwardingPolicy>()
                            .SetGroupName("DcnLb")
                            .AddConstructor<DcnMinimalForwardingPolicy>();
    return tid;
}

DcnMinimalForwardingPolicy::DcnMinimalForwardingPolicy()
{
    NS_LOG_FUNCTION(this);
}

DcnMinimalForwardingPolicy::~DcnMinimalForwardingPolicy()
{
    NS_LOG_FUNCTION(this);
}

// ---- detour base ----

TypeId
DcnDetourPolicyBase::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcnDetourPolicyBase").SetParent<EcmpForwardingPolicy>().SetGroupName("DcnLb");
    return tid;
}

DcnDetourPolicyBase::DcnDetourPolicyBase()
    : m_draw(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

DcnDetourPolicyBase::~DcnDetourPolicyBase()
{
    NS_LOG_FUNCTION(this);
}

void
DcnDetourPolicyBase::AttachTopology(const DcnTopology& topology, uint32_t switchIndex)
{
    NS_LOG_FUNCTION(this << switchIndex);
    m_info = DcnRouteInfo::Get(topology);
    m_self = switchIndex;
}

int64_t
DcnDetourPolicyBase::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    int64_t n = EcmpForwardingPolicy::AssignStreams(stream);
    m_draw->SetStream(stream + n);
    return n + 1;
}

uint32_t
DcnDetourPolicyBase::Pick(DcnForwardingContext& ctx, const uint32_t* c, uint32_t n)
{
    if (n <= 1)
    {
        return n == 1 ? c[0] : DcnForwardingContext::DROP;
    }
    uint64_t h = DcnFlowHash(DcnFlowKey::FromPacket(ctx.GetPacket(), ctx.GetHeader()), GetSalt());
    return c[DcnHashToIndex(h, n)];
}

uint32_t
DcnDetourPolicyBase::Minimal(DcnForwardingContext& ctx)
{
    if (ctx.nMinimal == 0 && ctx.nNonMinimal > 0)
    {
        return Pick(ctx, ctx.nonMinimal, ctx.nNonMinimal);
    }
    return Pick(ctx, ctx.minimal, ctx.nMinimal);
}

uint32_t
DcnDetourPolicyBase::DstSwitch(const DcnForwardingContext& ctx) const
{
    return m_info ? m_info->SwitchOfHost(ctx.dstHost) : DcnAddressing::NONE;
}

bool
DcnDetourPolicyBase::FollowMark(DcnForwardingContext& ctx, uint32_t& out)
{
    const Ipv4Header& h = ctx.GetHeader();
    if (!(h.GetTos() & TOS_VIA) || !m_info)
    {
        return false;
    }
    uint32_t via = h.GetIdentification();
    uint32_t n = 0;
    const uint32_t* c = via < m_info->NSwitches() ? m_info->Toward(m_self, via, n) : nullptr;
    if (n == 0) // at the intermediate (or it became unreachable): minimal from here
    {
        Ipv4Header& w = ctx.MutableHeader();
        w.SetTos(w.GetTos() & ~TOS_VIA);
        NS_LOG_LOGIC("switch " << m_self << ": intermediate " << via << " reached");
        out = Minimal(ctx);
        return true;
    }
    out = Pick(ctx, c, n);
    return true;
}

uint32_t
DcnDetourPolicyBase::Detour(DcnForwardingContext& ctx, uint32_t via)
{
    uint32_t n = 0;
    const uint32_t* c = m_info->Toward(m_self, via, n);
    if (n == 0)
    {
        return Minimal(ctx);
    }
    Ipv4Header& w = ctx.MutableHeader();
    w.SetTos(w.GetTos() | TOS_VIA | TOS_DETOURED);
    w.SetIdentification(static_cast<uint16_t>(via));
    NS_LOG_LOGIC("switch " << m_self << ": detour via " << via);
    return Pick(ctx, c, n);
}

// ---- Valiant ----

TypeId
DcnValiantForwardingPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcnValiantForwardingPolicy")
            .SetParent<DcnDetourPolicyBase>()
            .SetGroupName("DcnLb")
            .AddConstructor<DcnValiantForwardingPolicy>()
            .AddAttribute("PerPacket",
                          "Choose the intermediate per packet from the source switch's random "
                          "stream (true; spritz spec 4.1-4.2 Valiant baseline: an independent "
                          "random choice per packet, as the Spritz paper ran it; per flow "
                          "until 2026-11-30) or per flow from the hash of the header bytes "
                          "incl. the EV (false)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DcnValiantForwardingPolicy::m_perPacket),
                          MakeBooleanChecker())
            .AddAttribute("FlowSalt",
                          "Salt of the per-flow intermediate hash (same on every switch)",
                          UintegerValue(0x5a17f1a7),
                          MakeUintegerAccessor(&DcnValiantForwardingPolicy::m_flowSalt),
                          MakeUintegerChecker<uint64_t>());
    return tid;
}

DcnValiantForwardingPolicy::DcnValiantForwardingPolicy()
{
    NS_LOG_FUNCTION(this);
}

DcnValiantForwardingPolicy::~DcnValiantForwardingPolicy()
{
    NS_LOG_FUNCTION(this);
}

uint32_t
DcnValiantForwardingPolicy::Select(DcnForwardingContext& ctx)
{
    NS_LOG_FUNCTION(this << ctx.hops);
    uint32_t out;
    if (FollowMark(ctx, out))
    {
        return out;
    }
    uint32_t d = DstSwitch(ctx);
    if (ctx.hops != 0 || d == DcnAddressing::NONE || d == m_self)
    {
        return Minimal(ctx);
    }
    uint32_t nv = m_info->ValiantCount(m_self, d);
    if (nv == 0)
    {
        return Minimal(ctx);
    }
    uint32_t k =
        m_perPacket
            ? m_draw->GetInteger(0, nv - 1)
            : DcnHashToIndex(
                  DcnFlowHash(DcnFlowKey::FromPacket(ctx.GetPacket(), ctx.GetHeader()), m_flowSalt),
                  nv);
    return Detour(ctx, m_info->ValiantIntermediate(m_self, d, k));
}

// ---- UGAL-L ----

TypeId
DcnUgalForwardingPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcnUgalForwardingPolicy")
            .SetParent<DcnDetourPolicyBase>()
            .SetGroupName("DcnLb")
            .AddConstructor<DcnUgalForwardingPolicy>()
            .AddAttribute("EveryHop",
                          "Evaluate at every hop while the packet has not detoured (spritz "
                          "spec 4.1: the reference code does; the paper describes the source "
                          "switch); false = source switch only",
                          BooleanValue(false),
                          MakeBooleanAccessor(&DcnUgalForwardingPolicy::m_everyHop),
                          MakeBooleanChecker())
            .AddAttribute("Bias",
                          "Bias T of UGAL-L's test, in byte-hops: detour when q_min * h_min > "
                          "q_val * h_val + Bias (spritz spec 4.1: no bias, 0; classic UGAL-L "
                          "formulations add one to favour minimal paths); allowed 0..2^40",
                          UintegerValue(0),
                          MakeUintegerAccessor(&DcnUgalForwardingPolicy::m_bias),
                          MakeUintegerChecker<uint64_t>(0, uint64_t(1) << 40));
    return tid;
}

DcnUgalForwardingPolicy::DcnUgalForwardingPolicy()
{
    NS_LOG_FUNCTION(this);
}

DcnUgalForwardingPolicy::~DcnUgalForwardingPolicy()
{
    NS_LOG_FUNCTION(this);
}

uint32_t
DcnUgalForwardingPolicy::Select(DcnForwardingContext& ctx)
{
    NS_LOG_FUNCTION(this << ctx.hops);
    uint32_t out;
    if (FollowMark(ctx, out))
    {
        return out;
    }
    uint32_t d = DstSwitch(ctx);
    bool decide = ctx.hops == 0 || (m_everyHop && !(ctx.GetHeader().GetTos() & TOS_DETOURED));
    if (!decide || d == DcnAddressing::NONE || d == m_self || ctx.nMinimal == 0)
    {
        return Minimal(ctx);
    }
    uint32_t nv = m_info->ValiantCount(m_self, d);
    uint32_t pm = Pick(ctx, ctx.minimal, ctx.nMinimal);
    if (nv == 0)
    {
        return pm;
    }
    uint32_t via = m_info->ValiantIntermediate(m_self, d, m_draw->GetInteger(0, nv - 1));
    uint32_t n = 0;
    const uint32_t* c = m_info->Toward(m_self, via, n);
    uint8_t dvd = m_info->Dist(via, d);
    if (n == 0 || dvd == DcnRouteInfo::UNREACHABLE)
    {
        return pm;
    }
    uint32_t pv = Pick(ctx, c, n);
    uint64_t qm = ctx.QueueBytes(pm);
    uint64_t qv = ctx.QueueBytes(pv);
    uint64_t hm = m_info->Dist(m_self, d);
    uint64_t hv = uint64_t(m_info->Dist(m_self, via)) + dvd;
    NS_LOG_LOGIC("ugal: q_min " << qm << " h_min " << hm << " q_val " << qv << " h_val " << hv);
    if (qm * hm > qv * hv + m_bias)
    {
        ++m_detours;
        return Detour(ctx, via);
    }
    return pm;
}

// ---- source routing ----

namespace
{
constexpr uint8_t EXT_FLAG = 0x20;  // DcnHeader FLAG_EXT (branch plat)
constexpr uint8_t EXT_PATH = 0x01;  // EXT_PATH_ID: 32-bit path id
constexpr uint8_t EXT_ROUTE = 0x02; // EXT_ROUTE: len, ptr, len x 16-bit switch ids
constexpr uint32_t UDP = 8;
} // namespace

bool
DcnParseSourceRoute(const uint8_t* b, uint32_t got, DcnSourceRoute* r)
{
    const uint32_t base = UDP + DcnHeader::DATA_SIZE;
    // DATA only: ACKs/NACKs echo the data packet's route (branch plat), which
    // describes the other direction
    if (got < base + 1 || b[UDP] != DcnHeader::DATA || !(b[UDP + 1] & EXT_FLAG))
    {
        return false;
    }
    uint32_t off = base; // DATA headers have no EV list (dcn-header.h)
    uint8_t mask = b[off++];
    if (!(mask & EXT_ROUTE))
    {
        return false;
    }
    off += (mask & EXT_PATH) ? 4 : 0;
    if (got < off + 2)
    {
        return false;
    }
    uint32_t len = b[off];
    r->ptr = b[off + 1];
    off += 2;
    if (len > DcnSourceRoute::MAX || got < off + 2 * len)
    {
        return false;
    }
    r->n = len;
    for (uint32_t i = 0; i < len; ++i)
    {
        r->anchors[i] = static_cast<uint16_t>((b[off + 2 * i] << 8) | b[off + 2 * i + 1]);
    }
    return true;
}

bool
DcnReadSourceRoute(Ptr<const Packet> p, DcnSourceRoute* r)
{
    static_assert(DCN_SOURCE_ROUTE_PREFIX ==
                      UDP + DcnHeader::DATA_SIZE + 1 + 4 + 2 + 2 * DcnSourceRoute::MAX,
                  "prefix = UDP + DATA header + extMask + path id + len/ptr + anchors");
    const uint32_t base = UDP + DcnHeader::DATA_SIZE;
    uint8_t b[DCN_SOURCE_ROUTE_PREFIX];
    // the fixed part first (UDP + DcnHeader): most packets stop here
    uint32_t got = p->CopyData(b, std::min<uint32_t>(p->GetSize(), base));
    if (got < base || b[UDP] != DcnHeader::DATA || !(b[UDP + 1] & EXT_FLAG))
    {
        return false;
    }
    got = p->CopyData(b, std::min<uint32_t>(p->GetSize(), sizeof(b)));
    return DcnParseSourceRoute(b, got, r);
}

Ptr<Packet>
DcnMakeSourceRoutedPacket(uint16_t srcPort, const std::vector<uint16_t>& anchors, uint32_t payload)
{
    NS_ABORT_MSG_IF(anchors.size() > DcnSourceRoute::MAX,
                    "DcnMakeSourceRoutedPacket: " << anchors.size() << " anchors; allowed <= "
                                                  << DcnSourceRoute::MAX);
    std::vector<uint8_t> b(UDP + DcnHeader::DATA_SIZE, 0);
    b[0] = srcPort >> 8;
    b[1] = srcPort & 0xff;
    b[2] = DcnHeader::UDP_PORT >> 8;
    b[3] = DcnHeader::UDP_PORT & 0xff;
    b[UDP + 1] = EXT_FLAG; // opcode DATA, flags FLAG_EXT; extension at DATA_SIZE
    b.push_back(EXT_ROUTE);
    b.push_back(static_cast<uint8_t>(anchors.size()));
    b.push_back(0);
    for (uint16_t a : anchors)
    {
        b.push_back(a >> 8);
        b.push_back(a & 0xff);
    }
    b.resize(b.size() + payload, 0);
    uint32_t udpLen = static_cast<uint32_t>(b.size());
    b[4] = (udpLen >> 8) & 0xff;
    b[5] = udpLen & 0xff;
    return Create<Packet>(b.data(), static_cast<uint32_t>(b.size()));
}

TypeId
DcnSourceRouteForwardingPolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DcnSourceRouteForwardingPolicy")
                            .SetParent<DcnDetourPolicyBase>()
                            .SetGroupName("DcnLb")
                            .AddConstructor<DcnSourceRouteForwardingPolicy>();
    return tid;
}

DcnSourceRouteForwardingPolicy::DcnSourceRouteForwardingPolicy()
{
    NS_LOG_FUNCTION(this);
}

DcnSourceRouteForwardingPolicy::~DcnSourceRouteForwardingPolicy()
{
    NS_LOG_FUNCTION(this);
}

uint32_t
DcnSourceRouteForwardingPolicy::Select(DcnForwardingContext& ctx)
{
    NS_LOG_FUNCTION(this << ctx.hops);
    if (!m_info)
    {
        return Minimal(ctx);
    }
    DcnSourceRoute r;
    const uint32_t d = m_info->SwitchOfHost(ctx.dstHost);
    if (d == DcnAddressing::NONE || d == m_self || !m_reader(ctx.GetPacket(), &r))
    {
        return Minimal(ctx);
    }
    return FollowRoute(ctx, r);
}

uint32_t
DcnSourceRouteForwardingPolicy::ToNextAnchor(DcnForwardingContext& ctx, uint32_t a)
{
    // Routes that list every switch of a loop-free path (LAPS): with the
    // distances as first built, the walk of FollowRoute reaches anchor k after k
    // hops (cum(k) == k; a switch the packet visits once is anchor h only at hop
    // h), so at anchor h after h hops its target is anchor h + 1 (a here): the
    // same choice without the walk.
    ++m_hopIndexedHops;
    if (a < m_info->NSwitches() && m_info->Dist(m_self, a) != DcnRouteInfo::UNREACHABLE)
    {
        uint32_t n = 0;
        const uint32_t* c = m_info->Toward(m_self, a, n);
        return n == 1 ? c[0] : (n > 0 ? Pick(ctx, c, n) : Minimal(ctx));
    }
    return Minimal(ctx); // the walk's "bad anchor"
}

uint32_t
DcnSourceRouteForwardingPolicy::FollowRoute(DcnForwardingContext& ctx, const DcnSourceRoute& r)
{
    const uint32_t h = ctx.hops;
    if (HopIndexable(r.ptr, r.n, h) && r.anchors[h] == m_self)
    {
        return ToNextAnchor(ctx, r.anchors[h + 1]);
    }
    // Source switch from the source address; walk the anchors: segment k ends
    // after cum(k) hops (every segment minimal), the first anchor whose
    // cumulative distance exceeds the hops so far is the current target.
    uint32_t src = m_info->SwitchOfHost(DcnAddressing::HostIndexOf(ctx.GetHeader().GetSource()));
    if (src == DcnAddressing::NONE)
    {
        return Minimal(ctx);
    }
    uint32_t cum = 0;
    uint32_t prev = src;
    for (uint32_t k = r.ptr; k < r.n; ++k)
    {
        uint32_t a = r.anchors[k];
        const uint8_t dist =
            a < m_info->NSwitches() ? m_info->Dist(prev, a) : DcnRouteInfo::UNREACHABLE;
        if (dist == DcnRouteInfo::UNREACHABLE)
        {
            break; // bad anchor: minimal to the destination
        }
        cum += dist;
        if (h < cum)
        {
            uint32_t n = 0;
            const uint32_t* c = m_info->Toward(m_self, a, n);
            return n > 0 ? Pick(ctx, c, n) : Minimal(ctx);
        }
        prev = a;
    }
    return Minimal(ctx);
}

} // namespace ns3
