#include "spritz-forwarding-policy.h"

#include "ns3/dcn-addressing.h"
#include "ns3/dcn-header.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-options.h"
#include "ns3/dcn-topology.h"
#include "ns3/enum.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnSpritzForwardingPolicy");
NS_OBJECT_ENSURE_REGISTERED(DcnSpritzForwardingPolicy);
NS_OBJECT_ENSURE_REGISTERED(DcnValiantTablesForwardingPolicy);

namespace
{
// --lb schemes name the switch policy "spritz"; --routing=spritz too (graph presets).
const bool g_spritzPolicyRegistered = [] {
    DcnRegisterForwardingPolicy("spritz", "ns3::DcnSpritzForwardingPolicy");
    DcnRegisterForwardingPolicy("valiant-t", "ns3::DcnValiantTablesForwardingPolicy");
    return true;
}();

constexpr uint32_t UDP_BYTES = 8;
constexpr uint32_t NONE = 0xffffffffU;
} // namespace

TypeId
DcnSpritzForwardingPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcnSpritzForwardingPolicy")
            .SetParent<EcmpForwardingPolicy>()
            .SetGroupName("DcnLb")
            .AddConstructor<DcnSpritzForwardingPolicy>()
            .AddAttribute("Mode",
                          "fine: EV1/EV2 of the UDP source port index the ECMP tables (Spritz "
                          "Sec. III-B, the paper's evaluation); coarse: a path category in the "
                          "IPv4 DSCP bits 0x1c picks the table and the 5-tuple hash the port "
                          "(Sec. III-C; our DSCP stand-in for the VLAN id)",
                          EnumValue(FINE),
                          DCNLB_ENUM_ACCESSOR(Mode, &DcnSpritzForwardingPolicy::m_mode),
                          MakeEnumChecker(FINE, "fine", COARSE, "coarse"))
            .AddAttribute("ControlRoute",
                          "Route of ACK / NACK / probe replies: ev (steered by the echoed EV "
                          "like data, from the receiver's switch: a random entry of the reverse "
                          "path list, up to ~2 us longer on DF; Spritz Sec. IV: the receiver "
                          "keeps the same EV for the response; spec 6 cases 25 / 28 need it: a "
                          "failed link on a pair's minimal reverse path would otherwise lose "
                          "every ACK, so it stays the default, for dcn-lb-compare's --failures "
                          "runs) or default (the static minimal table; spec 2.4 [A, ref-code] "
                          "and 6.3 case 14; what spritz-paper runs except its failure "
                          "experiment)",
                          EnumValue(CTRL_EV),
                          DCNLB_ENUM_ACCESSOR(ControlRoute, &DcnSpritzForwardingPolicy::m_ctrl),
                          MakeEnumChecker(CTRL_DEFAULT, "default", CTRL_EV, "ev"))
            .AddTraceSource("Steer",
                            "A packet was forwarded: switch, EV, role (0 ECMP1, 1 ECMP2, "
                            "2 default, 3 control), egress interface",
                            MakeTraceSourceAccessor(&DcnSpritzForwardingPolicy::m_roleTrace),
                            "ns3::DcnSpritzForwardingPolicy::RoleTracedCallback");
    return tid;
}

DcnSpritzForwardingPolicy::DcnSpritzForwardingPolicy()
    : m_mode(FINE),
      m_ctrl(CTRL_DEFAULT)
{
    NS_LOG_FUNCTION(this);
}

DcnSpritzForwardingPolicy::~DcnSpritzForwardingPolicy()
{
    NS_LOG_FUNCTION(this);
}

namespace
{
/** The refusal of a topology without Spritz tables: \p why, and what is allowed unless it
 *  says so already. */
std::string
NoTables(const char* policy, const std::string& why)
{
    return std::string("switch policy ") + policy + ": " + why +
           (why.find("allowed:") == std::string::npos
                ? "; allowed: Dragonfly or Slim Fly presets (spritz-df, spritz-sf, df-small, "
                  "sf-small)"
                : "");
}
} // namespace

std::string
DcnSpritzForwardingPolicy::CheckTopology(const DcnTopology& topology) const
{
    std::string why;
    if (!DcnSpritzInfo::Get(topology, &why))
    {
        return NoTables(Name(), why);
    }
    return "";
}

void
DcnSpritzForwardingPolicy::AttachTopology(const DcnTopology& topology, uint32_t switchIndex)
{
    NS_LOG_FUNCTION(this << switchIndex);
    std::string why;
    m_info = DcnSpritzInfo::Get(topology, &why);
    if (!m_info)
    {
        // bad input (e.g. ForwardingPolicy=spritz on a fat tree): one line, no abort
        throw DcnOptionError(NoTables(Name(), why));
    }
    m_self = switchIndex;
}

uint32_t
DcnSpritzForwardingPolicy::Select(DcnForwardingContext& ctx)
{
    const uint32_t d = m_info ? m_info->SwitchOfHost(ctx.dstHost) : NONE;
    if (d == NONE || d == m_self || ctx.nMinimal == 0)
    {
        // local delivery (host port) or not a host destination: the table's entry
        return ctx.nMinimal > 0 ? ctx.minimal[0] : EcmpForwardingPolicy::Select(ctx);
    }
    const Ipv4Header& h = ctx.GetHeader();
    Ptr<const Packet> p = ctx.GetPacket();
    uint8_t b[UDP_BYTES + 1] = {0};
    const uint32_t got = p->CopyData(b, std::min<uint32_t>(p->GetSize(), sizeof(b)));
    const uint16_t ev = static_cast<uint16_t>((b[0] << 8) | b[1]);
    const dcn::SpritzTables& t = m_info->Tables();
    // control packets (ACK, NACK, probe replies, CNP) take the default table (spec 2.4)
    if (m_ctrl == CTRL_DEFAULT && h.GetProtocol() == 17 && got > UDP_BYTES &&
        b[UDP_BYTES] != DcnHeader::DATA && b[UDP_BYTES] != DcnHeader::PROBE)
    {
        const uint32_t out = m_info->Iface(m_self, t.Routing().DefaultPort(m_self, d));
        ++m_count[3];
        m_roleTrace(m_self, ev, 3, out);
        return out;
    }
    const uint32_t src = m_info->SwitchOfHost(DcnAddressing::HostIndexOf(h.GetSource()));
    if (src == NONE)
    {
        return m_info->Iface(m_self, t.Routing().DefaultPort(m_self, d));
    }
    const dcn::SpritzRole role = t.Role(m_self, src, d, ctx.hops);
    uint32_t out;
    if (m_draw)
    {
        // valiant-t: a uniform index into this switch's candidate set, per packet
        uint16_t draw = 0;
        if (role == dcn::SpritzRole::ECMP1 || role == dcn::SpritzRole::ECMP2)
        {
            const size_t n =
                role == dcn::SpritzRole::ECMP1 ? t.T1(m_self, d).size() : t.T2(m_self).size();
            const uint32_t k = n > 1 ? m_draw->GetInteger(0, std::min<uint32_t>(n, 256) - 1) : 0;
            draw = static_cast<uint16_t>(role == dcn::SpritzRole::ECMP1 ? k << 8 : k);
        }
        out = m_info->Iface(m_self, t.Forward(m_self, src, d, ctx.hops, draw));
    }
    else if (m_mode == COARSE)
    {
        const uint8_t cat = (h.GetTos() & TOS_CATEGORY_MASK) >> TOS_CATEGORY_SHIFT;
        out = Coarse(ctx, src, d, role, cat);
    }
    else
    {
        out = m_info->Iface(m_self, t.Forward(m_self, src, d, ctx.hops, ev));
    }
    ++m_count[static_cast<uint32_t>(role)];
    NS_LOG_LOGIC("spritz sw " << m_self << " ev " << ev << " role " << static_cast<int>(role)
                              << " -> if " << out);
    m_roleTrace(m_self, ev, static_cast<uint8_t>(role), out);
    return out;
}

uint32_t
DcnSpritzForwardingPolicy::Coarse(DcnForwardingContext& ctx,
                                  uint32_t src,
                                  uint32_t dst,
                                  dcn::SpritzRole role,
                                  uint8_t category)
{
    const dcn::SpritzTables& t = m_info->Tables();
    const uint32_t def = t.Routing().DefaultPort(m_self, dst);
    if (category == 0 || role == dcn::SpritzRole::DEFAULT)
    {
        return m_info->Iface(m_self, def);
    }
    const std::vector<uint32_t>& table =
        role == dcn::SpritzRole::ECMP1 ? t.T1(m_self, dst) : t.T2(m_self);
    const uint64_t hash =
        DcnFlowHash(DcnFlowKey::FromPacket(ctx.GetPacket(), ctx.GetHeader()), GetSalt());
    uint32_t port = def;
    if (category == 1)
    {
        // minimal category: the hash over the minimal next hops of the table
        port = NONE;
        if (ctx.nMinimal > 0)
        {
            const uint32_t out = ctx.minimal[DcnHashToIndex(hash, ctx.nMinimal)];
            port = NONE;
            for (uint32_t pi = 0; pi < t.Routing().Graph().Ports(m_self).size(); ++pi)
            {
                if (m_info->Iface(m_self, pi) == out)
                {
                    port = pi;
                    break;
                }
            }
        }
        port = port == NONE ? def : port;
    }
    else if (!table.empty())
    {
        port = table[DcnHashToIndex(hash, static_cast<uint32_t>(table.size()))];
    }
    // The last ECMP-role switch clears the tag (spec 2.5 [A]): ECMP2, or ECMP1 when
    // the next switch has no ECMP2 role.
    const uint32_t next = t.Routing().Graph().Ports(m_self)[port].nbr;
    const bool last = role == dcn::SpritzRole::ECMP2 || next == dst ||
                      t.Role(next, src, dst, 1) != dcn::SpritzRole::ECMP2;
    if (last)
    {
        Ipv4Header& w = ctx.MutableHeader();
        w.SetTos(w.GetTos() & ~TOS_CATEGORY_MASK);
    }
    return m_info->Iface(m_self, port);
}

// ---- DcnValiantTablesForwardingPolicy ----

TypeId
DcnValiantTablesForwardingPolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DcnValiantTablesForwardingPolicy")
                            .SetParent<DcnSpritzForwardingPolicy>()
                            .SetGroupName("DcnLb")
                            .AddConstructor<DcnValiantTablesForwardingPolicy>();
    return tid;
}

DcnValiantTablesForwardingPolicy::DcnValiantTablesForwardingPolicy()
{
    NS_LOG_FUNCTION(this);
    m_draw = CreateObject<UniformRandomVariable>();
}

DcnValiantTablesForwardingPolicy::~DcnValiantTablesForwardingPolicy()
{
    NS_LOG_FUNCTION(this);
}

int64_t
DcnValiantTablesForwardingPolicy::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    const int64_t n = DcnSpritzForwardingPolicy::AssignStreams(stream);
    m_draw->SetStream(stream + n);
    return n + 1;
}

} // namespace ns3
