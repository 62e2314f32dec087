#include "conga-forwarding-policy.h"

#include "dcn-queue-disc.h"

#include "ns3/boolean.h"
#include "ns3/dcn-graph-routing.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-options.h"
#include "ns3/dcn-topology.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/graph-topology-helper.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnCongaForwardingPolicy");
NS_OBJECT_ENSURE_REGISTERED(CongaForwardingPolicy);
NS_OBJECT_ENSURE_REGISTERED(DcnCongaLapsForwardingPolicy);

namespace
{
constexpr uint16_t NO_UPLINK = 0xffff;
constexpr uint32_t NO_IF = 0xffffffffU;
const bool g_registered = [] {
    DcnRegisterForwardingPolicy("conga-laps", "ns3::DcnCongaLapsForwardingPolicy");
    return true;
}();
} // namespace

TypeId
CongaForwardingPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcnCongaForwardingPolicy")
            .SetParent<ForwardingPolicy>()
            .SetGroupName("DcnLb")
            .AddConstructor<CongaForwardingPolicy>()
            .AddAttribute("FlowletTimeout",
                          "Flowlet inactivity gap after which the source leaf picks the least "
                          "congested uplink again (CONGA SIGCOMM'14 Sec. 3.5/3.6: 500 us; "
                          "default 150 us as Hermes SIGCOMM'17 Sec. 5 ran CONGA; LAPS: 50 us)",
                          TimeValue(MicroSeconds(150)),
                          MakeTimeAccessor(&CongaForwardingPolicy::m_flowletTimeout),
                          MakeTimeChecker(NanoSeconds(0), Seconds(1)))
            .AddAttribute("DreInterval",
                          "DRE decay period T_dre (CONGA Sec. 3.2/3.6 gives tau = T_dre/alpha = "
                          "160 us; the split 16 us x alpha 0.1 is our choice)",
                          TimeValue(MicroSeconds(16)),
                          MakeTimeAccessor(&CongaForwardingPolicy::m_tDre),
                          MakeTimeChecker(NanoSeconds(1), Seconds(1)))
            .AddAttribute("DreAlpha",
                          "DRE decay factor alpha: X <- X (1 - alpha) every T_dre (CONGA "
                          "Sec. 3.2; 0.1 with T_dre = 16 us gives the paper's tau = 160 us)",
                          DoubleValue(0.1),
                          MakeDoubleAccessor(&CongaForwardingPolicy::m_alpha),
                          MakeDoubleChecker<double>(1e-6, 1.0))
            .AddAttribute("QuantBits",
                          "Bits of the quantised congestion metric (CONGA Sec. 3.6: Q = 3)",
                          UintegerValue(3),
                          MakeUintegerAccessor(&CongaForwardingPolicy::m_quantBits),
                          MakeUintegerChecker<uint32_t>(1, 3))
            .AddAttribute("Aging",
                          "A Congestion-To-Leaf entry not refreshed for this long reads as 0 "
                          "(CONGA Sec. 3.4 ages entries; 10 ms is our choice)",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&CongaForwardingPolicy::m_aging),
                          MakeTimeChecker(NanoSeconds(1), Seconds(10)))
            .AddAttribute(
                "AnyTopology",
                "false: CONGA as published, on 2-tier leaf-spine / Clos fabrics only (SIGCOMM'14 "
                "Sec. 3); true: also on any other topology with minimal routing, generalised as "
                "the LAPS evaluation needs it on Rail and Dragonfly (ICDCS'25 Sec. V ran CONGA "
                "there without saying how; LAPS spec 3 [R]: minimal paths for switch-based "
                "baselines): every switch with hosts is a leaf over all its fabric ports (<= 16), "
                "the source switch picks the first hop per flowlet among the destination's minimal "
                "next hops by max(local DRE, Congestion-To-Leaf), later switches hash over their "
                "minimal next hops, every egress raises CE, the destination's switch feeds back. "
                "Our generalisation, not in the paper; on a leaf-spine it differs only while a "
                "link is down (the choice is then among the remaining next hops)",
                BooleanValue(false),
                MakeBooleanAccessor(&CongaForwardingPolicy::m_anyTopology),
                MakeBooleanChecker())
            .AddTraceSource("Feedback",
                            "A destination leaf read feedback (source leaf, LBTag, metric) "
                            "from a packet's overlay bytes",
                            MakeTraceSourceAccessor(&CongaForwardingPolicy::m_feedbackTrace),
                            "ns3::CongaForwardingPolicy::FeedbackTracedCallback")
            .AddTraceSource("PathChoice",
                            "LAPS path set (conga-laps): a source leaf's new flowlet to a leaf "
                            "took a path of the pair's LAPS set (destination leaf, LBTag)",
                            MakeTraceSourceAccessor(&CongaForwardingPolicy::m_pathChoiceTrace),
                            "ns3::CongaForwardingPolicy::PathChoiceTracedCallback");
    return tid;
}

CongaForwardingPolicy::CongaForwardingPolicy()
    : m_rng(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

CongaForwardingPolicy::CongaForwardingPolicy(bool lapsPaths)
    : m_lapsPaths(lapsPaths),
      m_rng(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this << lapsPaths);
}

TypeId
DcnCongaLapsForwardingPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcnCongaLapsForwardingPolicy")
            .SetParent<CongaForwardingPolicy>()
            .SetGroupName("DcnLb")
            .AddConstructor<DcnCongaLapsForwardingPolicy>()
            .AddAttribute(
                "PathSamples",
                "Candidates of a new flowlet at the source leaf: 0 = every valid path of the "
                "leaf pair (default, CONGA SIGCOMM'14 Sec. 3.5: the least congested of all); "
                "s > 0 with more than s valid paths: s consecutive valid paths of the pair's "
                "list from a uniform start in [0, valid - s] (LAPS authors' simulator [A]: "
                "GetCongaBestPath samples 4 consecutive PST paths from a uniform start; ties "
                "uniform); laps-paper --setup=authors sets 4",
                UintegerValue(0),
                MakeUintegerAccessor(&DcnCongaLapsForwardingPolicy::m_pathSamples),
                MakeUintegerChecker<uint32_t>(0, lbcore::CongaLeafCore::kMaxUplinks))
            .AddAttribute(
                "TiesPreferCurrent",
                "true: among the least congested candidates of a new flowlet, keep the "
                "flowlet's previous path if it is one of them, else a uniform draw (default, "
                "CONGA SIGCOMM'14 Sec. 3.5); false: a uniform draw among all of them (LAPS "
                "authors' simulator [A]: GetCongaBestPath samples 4 consecutive PST paths from "
                "a uniform start; ties uniform); laps-paper --setup=authors sets false",
                BooleanValue(true),
                MakeBooleanAccessor(&DcnCongaLapsForwardingPolicy::m_tiesPreferCurrent),
                MakeBooleanChecker())
            .AddAttribute(
                "FeedbackChoice",
                "Which Congestion-From-Leaf entry a packet from its source leaf carries as "
                "feedback: RoundRobin (default, CONGA SIGCOMM'14 Sec. 3.4: round robin over "
                "the destination leaf's LBTags, entries changed since last sent first; no "
                "random draw) or Random (LAPS authors' simulator [A], SwitchNode::"
                "GetCongaEgressPort: a path of the reverse leaf pair drawn uniformly on every "
                "packet from this policy's random stream; none if no packet came on it yet, "
                "metric 0 if aged); laps-paper --setup=authors sets Random",
                EnumValue(FEEDBACK_ROUND_ROBIN),
                DCNLB_ENUM_ACCESSOR(FeedbackChoice,
                                    &DcnCongaLapsForwardingPolicy::m_feedbackChoice),
                MakeEnumChecker(FEEDBACK_ROUND_ROBIN, "RoundRobin", FEEDBACK_RANDOM, "Random"));
    return tid;
}

DcnCongaLapsForwardingPolicy::DcnCongaLapsForwardingPolicy()
    : CongaForwardingPolicy(true)
{
    NS_LOG_FUNCTION(this);
}

DcnCongaLapsForwardingPolicy::~DcnCongaLapsForwardingPolicy()
{
    NS_LOG_FUNCTION(this);
}

CongaForwardingPolicy::~CongaForwardingPolicy()
{
    NS_LOG_FUNCTION(this);
    Detach(); // never leave a hook with a dangling `this` behind
}

void
CongaForwardingPolicy::DoDispose()
{
    NS_LOG_FUNCTION(this);
    Detach();
    m_rng = nullptr;
    m_paths.Clear();
    ForwardingPolicy::DoDispose();
}

void
CongaForwardingPolicy::Hook(Ptr<DcnQueueDisc> q, uint32_t port)
{
    NS_LOG_FUNCTION(this << q << port);
    Callback<void, Ptr<QueueDiscItem>> cb =
        MakeCallback(&CongaForwardingPolicy::OnTransmit, this).Bind(port);
    q->SetTransmitHook(cb);
    m_hooks.emplace_back(q, cb);
}

void
CongaForwardingPolicy::Detach()
{
    NS_LOG_FUNCTION(this);
    // Until 2026-11-30 the hooks stayed: a replaced policy (e.g. --lb=drill on a fabric
    // built with ForwardingPolicy=conga) was called on freed memory at every dequeue.
    for (auto& [q, cb] : m_hooks)
    {
        const Callback<void, Ptr<QueueDiscItem>> cur = q->GetTransmitHook();
        if (!cur.IsNull() && cur.IsEqual(cb)) // not replaced by another policy's hook
        {
            q->SetTransmitHook(Callback<void, Ptr<QueueDiscItem>>());
        }
    }
    m_hooks.clear();
}

std::string
CongaForwardingPolicy::CheckTopology(const DcnTopology& t) const
{
    return Check(t, true);
}

std::string
CongaForwardingPolicy::Check(const DcnTopology& t, bool scanPairs) const
{
    const auto max = lbcore::CongaLeafCore::kMaxUplinks;
    if (m_lapsPaths)
    {
        const std::string what = "CONGA over the LAPS path set (--lb=conga-laps-paths) ";
        std::string err = DcnLapsPairTable::Check(t, what, false);
        if (err.empty())
        {
            err = CheckHostSwitchPorts(t,
                                       what + "numbers a leaf's uplinks in 4 bits; topology '" +
                                           t.GetTopologyName() + "' ",
                                       max);
        }
        return err.empty() && scanPairs ? DcnLapsPairTable::Check(t, what, true) : err;
    }
    if (m_anyTopology)
    {
        return CheckHostSwitchPorts(t,
                                    "CONGA (--lb=conga, AnyTopology=true) numbers a leaf's paths "
                                    "in 4 bits; topology '" +
                                        t.GetTopologyName() + "' ",
                                    max);
    }
    return CheckClos(t,
                     "CONGA (--lb=conga) runs on 2-tier leaf-spine / Clos fabrics only (tier-0 "
                     "leaves with the hosts, every switch link leaf-spine, <= 16 uplinks per "
                     "leaf; --ns3::DcnCongaForwardingPolicy::AnyTopology=true generalises it); "
                     "topology '" +
                         t.GetTopologyName() + "' ",
                     max);
}

void
CongaForwardingPolicy::AttachTopology(const DcnTopology& t, uint32_t switchIndex)
{
    NS_LOG_FUNCTION(this << switchIndex);
    // the pair scan of the LAPS mode is CheckTopology's (once per run, before the
    // switches attach); a pair built later keeps at most MAX_PATHS paths
    std::string err = Check(t, false);
    if (!err.empty())
    {
        // Refused input (examples call CheckTopology first; a program that does
        // not gets the one-line DcnOptionError instead of a silently wrong run).
        throw DcnOptionError(err);
    }
    NodeContainer sw = t.GetAllSwitches();
    // CONGA as published: the tier-0 switches of a Clos are the leaves; AnyTopology
    // (m_general): every switch with hosts is one
    m_general = m_anyTopology || m_lapsPaths;
    const std::vector<bool> isLeaf = LeafSwitches(t, m_general);
    std::vector<uint16_t> leafOf(sw.GetN(), NO_UPLINK);
    uint16_t nLeaves = 0;
    uint16_t maxUplinks = 1; // generalised: every leaf's tables span the widest leaf's LBTags
    for (uint32_t i = 0; i < sw.GetN(); ++i)
    {
        if (isLeaf[i])
        {
            leafOf[i] = nLeaves++;
            maxUplinks = std::max<uint16_t>(maxUplinks, FabricPorts(t, sw.Get(i)));
        }
    }
    m_hostLeaf.assign(t.GetNHosts(), NO_UPLINK);
    for (uint32_t h = 0; h < t.GetNHosts(); ++h)
    {
        m_hostLeaf[h] = leafOf[t.GetSwitchOfHost(h)];
    }
    Ptr<Node> node = sw.Get(switchIndex);
    const bool leaf = isLeaf[switchIndex];
    if (m_lapsPaths)
    {
        // path indices (LBTags) of any pair index every leaf's tables
        maxUplinks = lbcore::CongaLeafCore::kMaxUplinks;
    }
    m_cfg.flowletTimeoutNs = m_flowletTimeout.GetNanoSeconds();
    m_cfg.tDreNs = m_tDre.GetNanoSeconds();
    m_cfg.alpha = m_alpha;
    m_cfg.quantBits = static_cast<uint8_t>(m_quantBits);
    m_cfg.agingNs = m_aging.GetNanoSeconds();
    m_cfg.pathSamples = static_cast<uint16_t>(m_pathSamples);
    m_cfg.tiesPreferCurrent = m_tiesPreferCurrent;
    m_cfg.feedbackRandom = m_feedbackChoice == FEEDBACK_RANDOM;
    m_cfg.numLeaves = nLeaves;
    for (uint32_t l : t.GetLinksOfNode(node))
    {
        const DcnLinkInfo& li = t.GetLink(l);
        if (li.tierA < 0 || li.tierB < 0)
        {
            continue; // host link
        }
        const bool lower = li.a == node;
        const uint32_t iface = lower ? li.ifA : li.ifB;
        Ptr<DcnQueueDisc> q = t.GetQueueDisc(lower ? li.devA : li.devB);
        if (leaf)
        {
            const uint16_t u = static_cast<uint16_t>(m_uplinkIf.size());
            m_uplinkIf.push_back(iface);
            m_uplinkBps.push_back(static_cast<double>(li.rate.GetBitRate()));
            if (iface >= m_ifUplink.size())
            {
                m_ifUplink.resize(iface + 1, NO_UPLINK);
            }
            m_ifUplink[iface] = u;
            if (q)
            {
                Hook(q, u);
            }
        }
        else
        {
            if (iface >= m_portDre.size())
            {
                m_portDre.resize(iface + 1);
            }
            m_portDre[iface].Configure(m_cfg.tDreNs,
                                       m_cfg.alpha,
                                       static_cast<double>(li.rate.GetBitRate()),
                                       m_cfg.quantBits);
            if (q)
            {
                Hook(q, iface);
            }
        }
    }
    if (m_lapsPaths)
    {
        m_paths.Attach(t, switchIndex, isLeaf, m_ifUplink);
    }
    if (leaf)
    {
        m_role = LEAF;
        m_leaf = leafOf[switchIndex];
        m_cfg.numUplinks = static_cast<uint16_t>(m_uplinkIf.size());
        if (m_general && m_cfg.numUplinks < maxUplinks)
        {
            // LBTags of wider leaves index this leaf's Congestion-From-Leaf table; the padding
            // uplinks are never chosen (not a next hop) and never fed back (never valid)
            m_cfg.numUplinks = maxUplinks;
            m_uplinkBps.resize(maxUplinks, m_uplinkBps.empty() ? 1e9 : m_uplinkBps.front());
        }
        m_core.Configure(m_cfg, m_uplinkBps.data());
    }
    else
    {
        m_role = SPINE;
    }
    NS_LOG_LOGIC("conga: switch " << switchIndex << " role " << int(m_role) << " leaf " << m_leaf
                                  << " uplinks " << m_uplinkIf.size());
}

void
CongaForwardingPolicy::OnTransmit(uint32_t port, Ptr<QueueDiscItem> item)
{
    const int64_t now = Simulator::Now().GetNanoSeconds();
    lbcore::CongaDre* dre = nullptr;
    if (m_role == LEAF)
    {
        dre = &m_core.GetDre(static_cast<uint16_t>(port));
    }
    else if (port < m_portDre.size())
    {
        dre = &m_portDre[port];
    }
    if (!dre)
    {
        return;
    }
    dre->OnPacket(item->GetSize(), now);
    Ipv4QueueDiscItem* ip = dynamic_cast<Ipv4QueueDiscItem*>(PeekPointer(item));
    if (ip && (ip->GetHeader().GetIdentification() & OVERLAY_BIT))
    {
        // CE = max(CE, metric) at transmission (Sec. 3.3).  Ipv4QueueDiscItem has no
        // header setter; its header is serialised only after this hook, so the
        // field is updated in place (no allocation per packet).
        Ipv4Header& h = const_cast<Ipv4Header&>(ip->GetHeader());
        lbcore::CongaTag tag = lbcore::CongaTag::Unpack(h.GetIdentification());
        tag.UpdateCe(dre->Metric(now));
        h.SetIdentification(tag.Pack() | OVERLAY_BIT);
    }
}

lbcore::CongaDre*
CongaForwardingPolicy::GetEgressDre(uint32_t iface)
{
    if (m_role == LEAF)
    {
        const uint16_t u = GetUplinkOfIf(iface);
        return u < m_core.GetConfig().numUplinks ? &m_core.GetDre(u) : nullptr;
    }
    return m_role == SPINE && iface < m_portDre.size() ? &m_portDre[iface] : nullptr;
}

uint16_t
CongaForwardingPolicy::GetUplinkOfIf(uint32_t iface) const
{
    return iface < m_ifUplink.size() ? m_ifUplink[iface] : NO_UPLINK;
}

void
CongaForwardingPolicy::Configure()
{
    uint64_t hi = m_rng->GetInteger(0, 0xffffffffU);
    m_salt = (hi << 32) | m_rng->GetInteger(0, 0xffffffffU);
    m_configured = true;
}

uint32_t
CongaForwardingPolicy::Select(DcnForwardingContext& ctx)
{
    NS_LOG_FUNCTION(this << ctx.inIf << ctx.nMinimal);
    const uint32_t n = ctx.nMinimal;
    if (n == 0)
    {
        return DcnForwardingContext::DROP;
    }
    if (!m_configured)
    {
        Configure();
    }
    if (m_lapsPaths)
    {
        return SelectLapsPath(ctx);
    }
    const int64_t now = Simulator::Now().GetNanoSeconds();
    const Ipv4Header& h = ctx.GetHeader();
    const bool fromFabric = GetUplinkOfIf(ctx.inIf) != NO_UPLINK;
    const bool localDst = ctx.dstHost < m_hostLeaf.size() && m_hostLeaf[ctx.dstHost] == m_leaf;
    if (m_role == LEAF && !(fromFabric && m_general && !localDst))
    {
        if (fromFabric)
        {
            // Destination leaf: read the overlay bytes.
            const uint16_t id = h.GetIdentification();
            const uint32_t src = DcnAddressing::HostIndexOf(h.GetSource());
            if ((id & OVERLAY_BIT) && src < m_hostLeaf.size())
            {
                lbcore::CongaTag tag = lbcore::CongaTag::Unpack(id);
                m_core.OnArrival(m_hostLeaf[src], tag, now);
                if (tag.fbValid)
                {
                    ++m_fbReceived;
                    m_feedbackTrace(m_hostLeaf[src], tag.fbLbTag, tag.fbMetric);
                }
            }
            return ctx.minimal[0];
        }
        if (ctx.dstHost >= m_hostLeaf.size() || m_hostLeaf[ctx.dstHost] == m_leaf)
        {
            return ctx.minimal[0]; // local destination (or not a host)
        }
        const uint16_t dstLeaf = m_hostLeaf[ctx.dstHost];
        const uint64_t hash = DcnFlowHash(DcnFlowKey::FromPacket(ctx.GetPacket(), h), m_salt);
        // Only the current candidates are paths to the destination: the destination's
        // minimal next hops (generalised mode), the uplinks still routed after a withdrawal
        // (published mode; all uplinks of an unfailed leaf-spine, so the choice is unchanged
        // there).  Until 2026-11-30 the published mode chose among all uplinks and sent a
        // flowlet that chose a withdrawn one by a hashed candidate.
        uint32_t allowed = 0;
        for (uint32_t i = 0; i < n; ++i)
        {
            const uint16_t u = GetUplinkOfIf(ctx.minimal[i]);
            allowed |= u < 32 ? (1u << u) : 0u;
        }
        Ptr<UniformRandomVariable> rng = m_rng;
        lbcore::CongaChoice c = m_core.ChooseUplink(
            static_cast<uint32_t>(hash >> 32) ^ static_cast<uint32_t>(hash),
            dstLeaf,
            now,
            [&rng](uint32_t k) { return rng->GetInteger(0, k - 1); },
            allowed);
        uint32_t out = m_uplinkIf[c.uplink];
        bool candidate = false;
        for (uint32_t i = 0; i < n && !candidate; ++i)
        {
            candidate = ctx.minimal[i] == out;
        }
        if (!candidate)
        {
            // Not an uplink of this leaf's candidates at all (no candidate is an uplink, the
            // core's empty-mask case): a hashed candidate instead (our choice).
            out = ctx.minimal[DcnHashToIndex(hash, n)];
        }
        lbcore::CongaTag tag; // CE starts at 0; each egress raises it at transmission
        tag.lbTag = static_cast<uint8_t>(GetUplinkOfIf(out) & 0xF);
        m_core.FillFeedback(dstLeaf, tag, now);
        ctx.MutableHeader().SetIdentification(tag.Pack() | OVERLAY_BIT);
        NS_LOG_LOGIC("conga: leaf " << m_leaf << " -> leaf " << dstLeaf << " uplink "
                                    << int(tag.lbTag) << (c.newFlowlet ? " (new flowlet)" : ""));
        return out;
    }
    uint32_t out = ctx.minimal[0];
    if (n > 1)
    {
        out = ctx.minimal[DcnHashToIndex(
            DcnFlowHash(DcnFlowKey::FromPacket(ctx.GetPacket(), h), m_salt),
            n)];
    }
    return out; // spine (generalised: any transit switch): CE is raised by the egress hook
}

uint32_t
CongaForwardingPolicy::HashMinimal(DcnForwardingContext& ctx)
{
    const uint32_t n = ctx.nMinimal;
    if (n <= 1)
    {
        return ctx.minimal[0];
    }
    return ctx.minimal[DcnHashToIndex(
        DcnFlowHash(DcnFlowKey::FromPacket(ctx.GetPacket(), ctx.GetHeader()), m_salt),
        n)];
}

uint32_t
CongaForwardingPolicy::GetPairPathCount(uint16_t srcLeaf, uint16_t dstLeaf)
{
    if (!m_lapsPaths || srcLeaf >= m_paths.GetNLeaves() || dstLeaf >= m_paths.GetNLeaves())
    {
        return 0;
    }
    return m_paths.Get(srcLeaf, dstLeaf).n;
}

uint32_t
CongaForwardingPolicy::GetPairPathEgress(uint16_t srcLeaf, uint16_t dstLeaf, uint16_t k)
{
    if (!m_lapsPaths || srcLeaf >= m_paths.GetNLeaves() || dstLeaf >= m_paths.GetNLeaves())
    {
        return NO_IF;
    }
    const DcnLapsPairTable::Pair& pp = m_paths.Get(srcLeaf, dstLeaf);
    return k < pp.n ? pp.egress[k] : NO_IF;
}

uint32_t
CongaForwardingPolicy::SelectLapsPath(DcnForwardingContext& ctx)
{
    const int64_t now = Simulator::Now().GetNanoSeconds();
    const Ipv4Header& h = ctx.GetHeader();
    const uint16_t id = h.GetIdentification();
    const uint16_t srcLeaf = GetLeafOfHost(DcnAddressing::HostIndexOf(h.GetSource()));
    const uint16_t dstLeaf = GetLeafOfHost(ctx.dstHost);
    if (srcLeaf == NO_LEAF || dstLeaf == NO_LEAF)
    {
        return HashMinimal(ctx); // not host to host
    }
    const bool fromFabric = GetUplinkOfIf(ctx.inIf) != NO_UPLINK;
    if (m_role == LEAF && dstLeaf == m_leaf)
    {
        if (fromFabric && (id & OVERLAY_BIT))
        {
            // destination leaf: Congestion-From-Leaf[src leaf][path] and the feedback
            const lbcore::CongaTag tag = lbcore::CongaTag::Unpack(id);
            m_core.OnArrival(srcLeaf, tag, now);
            if (tag.fbValid)
            {
                ++m_fbReceived;
                m_feedbackTrace(srcLeaf, tag.fbLbTag, tag.fbMetric);
            }
        }
        return ctx.minimal[0]; // the host's port
    }
    if (m_role == LEAF && srcLeaf == m_leaf && !fromFabric)
    {
        // source leaf: the pair's path of this flowlet
        const DcnLapsPairTable::Pair& pp = m_paths.Get(srcLeaf, dstLeaf);
        if (pp.n == 0 || pp.valid == 0)
        {
            // no path, or every path of the pair has a withdrawn link: untagged (later
            // switches hash over their minimal next hops; LAPS sends on the minimal path then)
            NS_LOG_LOGIC("conga-laps: leaf " << m_leaf << " -> leaf " << dstLeaf
                                             << ": no valid LAPS path, minimal");
            if (id & OVERLAY_BIT)
            {
                ctx.MutableHeader().SetIdentification(id & ~OVERLAY_BIT);
            }
            return HashMinimal(ctx);
        }
        const uint64_t hash = DcnFlowHash(DcnFlowKey::FromPacket(ctx.GetPacket(), h), m_salt);
        Ptr<UniformRandomVariable> rng = m_rng;
        const lbcore::CongaChoice c = m_core.ChoosePath(
            static_cast<uint32_t>(hash >> 32) ^ static_cast<uint32_t>(hash),
            dstLeaf,
            now,
            [&rng](uint32_t k) { return rng->GetInteger(0, k - 1); },
            pp.n,
            pp.firstUplink,
            pp.valid); // the valid paths only (every link routed: LAPS's path validity)
        const uint32_t out = pp.egress[c.uplink];
        if (out == NO_IF)
        {
            // a path that does not start here (not a LAPS set): untagged, so no later switch
            // reads a stale overlay (review s47 #6)
            if (id & OVERLAY_BIT)
            {
                ctx.MutableHeader().SetIdentification(id & ~OVERLAY_BIT);
            }
            return HashMinimal(ctx);
        }
        if (c.newFlowlet)
        {
            m_pathChoiceTrace(dstLeaf, static_cast<uint8_t>(c.uplink));
        }
        lbcore::CongaTag tag; // CE starts at 0; each egress raises it at transmission
        tag.lbTag = static_cast<uint8_t>(c.uplink & 0xF);
        // the entries fed back are those of the reverse pair (dstLeaf -> this leaf), whose
        // LBTags index Congestion-From-Leaf[dstLeaf]; only FeedbackChoice Random draws
        const uint16_t nRev = m_cfg.feedbackRandom ? m_paths.Get(dstLeaf, srcLeaf).n : 0;
        m_core.FillFeedback(dstLeaf, tag, now, nRev, [&rng](uint32_t k) {
            return rng->GetInteger(0, k - 1);
        });
        ctx.MutableHeader().SetIdentification(tag.Pack() | OVERLAY_BIT);
        NS_LOG_LOGIC("conga-laps: leaf " << m_leaf << " -> leaf " << dstLeaf << " path "
                                         << int(tag.lbTag)
                                         << (c.newFlowlet ? " (new flowlet)" : ""));
        return out;
    }
    // any later switch: the egress of path LBTag of the pair, read from the header bytes
    if (!(id & OVERLAY_BIT))
    {
        return HashMinimal(ctx);
    }
    const uint8_t k = static_cast<uint8_t>(id >> 12); // LBTag (CongaTag::Pack)
    const DcnLapsPairTable::Pair& pp = m_paths.Get(srcLeaf, dstLeaf);
    if (k >= pp.n || pp.egress[k] == NO_IF)
    {
        return HashMinimal(ctx); // off its path (not expected): minimal on
    }
    if (!DcnLapsPairTable::IsValid(pp, k))
    {
        // a link of the path is withdrawn (every switch learns it at the same instant, so no
        // later switch of the path takes the packet back onto it): minimal to the
        // destination from here, as AnyTopology's transit switches route
        ++m_pathDiverted;
        NS_LOG_LOGIC("conga-laps: path " << int(k) << " of leaf " << srcLeaf << " -> leaf "
                                         << dstLeaf << " invalid here: minimal next hop");
        return HashMinimal(ctx);
    }
    ++m_pathForwarded;
    return pp.egress[k];
}

int64_t
CongaForwardingPolicy::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_rng->SetStream(stream);
    return 1;
}

} // namespace ns3
