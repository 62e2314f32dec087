#include "conweave-forwarding-policy.h"

#include "dcn-switch-routing.h"

#include "ns3/boolean.h"
#include "ns3/dcn-graph-routing.h"
#include "ns3/dcn-header.h"
#include "ns3/dcn-options.h"
#include "ns3/dcn-topology.h"
#include "ns3/graph-topology-helper.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnConWeaveForwardingPolicy");
NS_OBJECT_ENSURE_REGISTERED(ConWeaveForwardingPolicy);
NS_OBJECT_ENSURE_REGISTERED(DcnConWeaveLapsForwardingPolicy);

namespace
{
const bool g_registered = [] {
    DcnRegisterForwardingPolicy("conweave-laps", "ns3::DcnConWeaveLapsForwardingPolicy");
    return true;
}();
constexpr uint16_t NO_UPLINK = 0xffff;
constexpr uint32_t PEEK = 16; // UDP header + 8 bytes: DcnHeader opcode or control fields
constexpr uint32_t DEFAULT_REORDER_QUEUES = 64;
constexpr uint32_t DEFAULT_REORDER_QUEUE_CAPACITY = 256;
} // namespace

TypeId
ConWeaveForwardingPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcnConWeaveForwardingPolicy")
            .SetParent<ForwardingPolicy>()
            .SetGroupName("DcnLb")
            .AddConstructor<ConWeaveForwardingPolicy>()
            .AddAttribute("ReplyDeadlineExtra",
                          "theta_reply = base RTT + this: a flow whose RTT_REPLY has not come "
                          "back by then is rerouted (ConWeave SIGCOMM'23 Sec. 3.2; authors' "
                          "ns-3 run.py: 4 us)",
                          TimeValue(MicroSeconds(4)),
                          MakeTimeAccessor(&ConWeaveForwardingPolicy::m_replyExtra),
                          MakeTimeChecker(NanoSeconds(0), MilliSeconds(100)))
            .AddAttribute("InactiveTime",
                          "theta_inactive: a flow idle this long starts a new epoch on a freshly "
                          "sampled path (authors' ns-3 run.py TX expiry time, 2-tier "
                          "leaf-spine: 300 us; 1 ms on 3-tier fat trees)",
                          TimeValue(MicroSeconds(300)),
                          MakeTimeAccessor(&ConWeaveForwardingPolicy::m_inactive),
                          MakeTimeChecker(NanoSeconds(1), Seconds(10)))
            .AddAttribute("PathBusyTime",
                          "theta_path_busy: a path reported by a NOTIFY (CE-marked packet at "
                          "the destination ToR) is avoided this long (authors' ns-3 run.py "
                          "path pause time: 16 us)",
                          TimeValue(MicroSeconds(16)),
                          MakeTimeAccessor(&ConWeaveForwardingPolicy::m_pathBusy),
                          MakeTimeChecker(NanoSeconds(0), Seconds(1)))
            .AddAttribute("ResumeTime",
                          "theta_resume: held REROUTED packets are released at the latest "
                          "this long after the first one was held (authors' ns-3 run.py "
                          "default VOQ waiting time, leaf-spine: 200 us; no timestamps travel "
                          "here, so it is always used - our choice, doc/baselines.rst)",
                          TimeValue(MicroSeconds(200)),
                          MakeTimeAccessor(&ConWeaveForwardingPolicy::m_resume),
                          MakeTimeChecker(NanoSeconds(0), Seconds(1)))
            .AddAttribute("ResumeExtra",
                          "Extra wait added to theta_resume, and the minimum wait after an "
                          "old-path packet of a reordering flow (authors' ns-3 run.py extra "
                          "VOQ flush time, leaf-spine: 16 us)",
                          TimeValue(MicroSeconds(16)),
                          MakeTimeAccessor(&ConWeaveForwardingPolicy::m_resumeExtra),
                          MakeTimeChecker(NanoSeconds(0), Seconds(1)))
            .AddAttribute("BaseRtt",
                          "Base RTT between leaves for theta_reply; 0 = the topology's "
                          "unloaded RTT of a 4096-byte data packet and its ACK between the "
                          "first hosts of the two leaves (our choice; the authors use the "
                          "ToR-to-ToR base RTT), plus in conweave-laps the pair's longest "
                          "minus shortest LAPS path delay; a value given here is used as is "
                          "(no LAPS slack added)",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&ConWeaveForwardingPolicy::m_baseRtt),
                          MakeTimeChecker(Time(0), Seconds(1)))
            .AddAttribute("Reorder",
                          "Hold REROUTED packets at the destination ToR until the TAIL "
                          "(ConWeave's in-network reordering); false = reroute without "
                          "reordering (ablation, our addition)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&ConWeaveForwardingPolicy::m_reorder),
                          MakeBooleanChecker())
            .AddAttribute(
                "AnyTopology",
                "false: ConWeave as published, on 2-tier leaf-spine / Clos fabrics only "
                "(SIGCOMM'23 Sec. 3); true: also on other topologies with minimal routing, "
                "generalised as the LAPS evaluation needs it on Rail and Dragonfly (ICDCS'25 "
                "Sec. V ran ConWeave there without saying how; LAPS spec 3 [R]): every switch "
                "with hosts is a ToR over all its fabric ports (<= 16), a path is the source "
                "ToR's first hop among the destination's minimal next hops, later switches hash "
                "over theirs, the destination's switch reorders and replies.  Our "
                "generalisation, not in the paper",
                BooleanValue(false),
                MakeBooleanAccessor(&ConWeaveForwardingPolicy::m_anyTopology),
                MakeBooleanChecker())
            .AddAttribute("FlowTableSize",
                          "Entries of the per-leaf source and destination flow tables, "
                          "hash-indexed, rounded up to a power of two (our choice; the authors "
                          "use exact maps).  A flow whose entry another flow used within "
                          "InactiveTime does not replace it: its packets go untracked (no tag, "
                          "ECMP hash, no reordering), counted (GetTableConflicts)",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&ConWeaveForwardingPolicy::m_tableSize),
                          MakeUintegerChecker<uint32_t>(1, 1U << 22))
            .AddAttribute("ReorderQueues",
                          "Reorder queues per destination leaf (flows reordering at once; a "
                          "flow finding none passes unheld, counted; the authors' simulator "
                          "has no bound - our choice)",
                          UintegerValue(DEFAULT_REORDER_QUEUES),
                          MakeUintegerAccessor(&ConWeaveForwardingPolicy::m_numVoqs),
                          MakeUintegerChecker<uint32_t>(1, 4096))
            .AddAttribute("ReorderQueueCapacity",
                          "Packets per reorder queue; a packet finding it full is dropped and "
                          "counted (our choice)",
                          UintegerValue(DEFAULT_REORDER_QUEUE_CAPACITY),
                          MakeUintegerAccessor(&ConWeaveForwardingPolicy::m_voqCapacity),
                          MakeUintegerChecker<uint32_t>(1, 65536))
            .AddTraceSource("Reroute",
                            "A source leaf moved a flow to another path (flow key, old path, "
                            "new path, reply timeout (else inactivity))",
                            MakeTraceSourceAccessor(&ConWeaveForwardingPolicy::m_rerouteTrace),
                            "ns3::ConWeaveForwardingPolicy::RerouteTracedCallback")
            .AddTraceSource("ReorderDrop",
                            "A destination leaf dropped a packet because its flow's reorder "
                            "queue was full (counted in GetDrops(), i.e. in the fabric drops)",
                            MakeTraceSourceAccessor(&ConWeaveForwardingPolicy::m_holdDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Release",
                            "A destination leaf released a reorder queue (packets, by resume "
                            "timeout (else TAIL))",
                            MakeTraceSourceAccessor(&ConWeaveForwardingPolicy::m_releaseTrace),
                            "ns3::ConWeaveForwardingPolicy::ReleaseTracedCallback");
    return tid;
}

ConWeaveForwardingPolicy::ConWeaveForwardingPolicy()
    : m_rng(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

ConWeaveForwardingPolicy::ConWeaveForwardingPolicy(bool lapsPaths)
    : m_lapsPaths(lapsPaths),
      m_rng(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this << lapsPaths);
}

TypeId
DcnConWeaveLapsForwardingPolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DcnConWeaveLapsForwardingPolicy")
                            .SetParent<ConWeaveForwardingPolicy>()
                            .SetGroupName("DcnLb")
                            .AddConstructor<DcnConWeaveLapsForwardingPolicy>();
    return tid;
}

DcnConWeaveLapsForwardingPolicy::DcnConWeaveLapsForwardingPolicy()
    : ConWeaveForwardingPolicy(true)
{
    NS_LOG_FUNCTION(this);
}

DcnConWeaveLapsForwardingPolicy::~DcnConWeaveLapsForwardingPolicy()
{
    NS_LOG_FUNCTION(this);
}

ConWeaveForwardingPolicy::~ConWeaveForwardingPolicy()
{
    NS_LOG_FUNCTION(this);
    for (EventId& e : m_voqTimer)
    {
        e.Cancel();
    }
}

void
ConWeaveForwardingPolicy::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_paths.Clear(); // stops listening to the topology's LinkRouted
    ForwardingPolicy::DoDispose();
}

std::string
ConWeaveForwardingPolicy::CheckTopology(const DcnTopology& t) const
{
    return Check(t, true);
}

std::string
ConWeaveForwardingPolicy::Check(const DcnTopology& t, bool scanPairs) const
{
    std::string err = CheckTopologyShape(t);
    if (err.empty() && m_lapsPaths && scanPairs)
    {
        err = DcnLapsPairTable::Check(t,
                                      "ConWeave over the LAPS path set (--lb=conweave-laps-paths) ",
                                      true);
    }
    if (!err.empty())
    {
        return err;
    }
    // the reorder queues are allocated up front at every leaf: refuse sizes that
    // would not fit in memory (bad_alloc) before building them
    const std::vector<bool> isLeaf = LeafSwitches(t, m_anyTopology || m_lapsPaths);
    const uint64_t leaves = std::count(isLeaf.begin(), isLeaf.end(), true);
    const uint64_t slots = leaves * m_numVoqs * m_voqCapacity;
    if (slots > kMaxReorderSlots)
    {
        // name the attribute moved off its default (with its bound on this fabric),
        // else both
        const bool queues = m_numVoqs != DEFAULT_REORDER_QUEUES;
        const bool capacity = m_voqCapacity != DEFAULT_REORDER_QUEUE_CAPACITY;
        const uint64_t other = queues ? m_voqCapacity : m_numVoqs;
        const uint64_t bound = kMaxReorderSlots / (leaves * other);
        const char* attr = "--ns3::DcnConWeaveForwardingPolicy::";
        const char* onLeaves = leaves == 1 ? " leaf " : " leaves ";
        const char* rule = "leaves x ReorderQueues x ReorderQueueCapacity <= ";
        std::ostringstream os;
        if (queues != capacity && bound > 0)
        {
            const char* name = queues ? "ReorderQueues" : "ReorderQueueCapacity";
            os << "option " << attr << name << ": value " << (queues ? m_numVoqs : m_voqCapacity)
               << " with " << (queues ? "ReorderQueueCapacity=" : "ReorderQueues=") << other
               << " on " << leaves << onLeaves << "is " << slots
               << " reorder slots; allowed: " << name << " <= " << bound << " here (" << rule
               << kMaxReorderSlots << ")";
        }
        else
        {
            os << "options " << attr << "ReorderQueues and " << attr
               << "ReorderQueueCapacity: values " << m_numVoqs << " and " << m_voqCapacity << " on "
               << leaves << onLeaves << "are " << slots << " reorder slots; allowed: " << rule
               << kMaxReorderSlots;
        }
        return os.str();
    }
    return "";
}

std::string
ConWeaveForwardingPolicy::CheckTopologyShape(const DcnTopology& t) const
{
    if (m_lapsPaths)
    {
        const std::string what = "ConWeave over the LAPS path set (--lb=conweave-laps-paths) ";
        const std::string err = DcnLapsPairTable::Check(t, what, false);
        return !err.empty() ? err
                            : CheckHostSwitchPorts(t,
                                                   what +
                                                       "numbers a ToR's uplinks in 4 bits; "
                                                       "topology '" +
                                                       t.GetTopologyName() + "' ",
                                                   16);
    }
    if (m_anyTopology)
    {
        return CheckHostSwitchPorts(t,
                                    "ConWeave (--lb=conweave, AnyTopology=true) numbers a ToR's "
                                    "paths in 4 bits; topology '" +
                                        t.GetTopologyName() + "' ",
                                    16);
    }
    const std::string what = "ConWeave (--lb=conweave) runs on 2-tier leaf-spine / Clos fabrics "
                             "only (tier-0 leaves with the hosts, every switch link leaf-spine, "
                             "<= 16 uplinks per leaf; --ns3::DcnConWeaveForwardingPolicy::"
                             "AnyTopology=true generalises it); topology '" +
                             t.GetTopologyName() + "' ";
    return CheckClos(t, what, 16);
}

void
ConWeaveForwardingPolicy::AttachTopology(const DcnTopology& t, uint32_t switchIndex)
{
    NS_LOG_FUNCTION(this << switchIndex);
    // the pair scan of the LAPS mode is CheckTopology's (once per run)
    std::string err = Check(t, false);
    if (!err.empty())
    {
        // Refused input (examples call CheckTopology first; a program that does
        // not gets the one-line DcnOptionError instead of a silently wrong run).
        throw DcnOptionError(err);
    }
    NodeContainer sw = t.GetAllSwitches();
    const std::vector<bool> isLeaf = LeafSwitches(t, m_anyTopology || m_lapsPaths);
    std::vector<uint16_t> leafOf(sw.GetN(), NO_UPLINK);
    uint16_t nLeaves = 0;
    for (uint32_t i = 0; i < sw.GetN(); ++i)
    {
        if (isLeaf[i])
        {
            leafOf[i] = nLeaves++;
        }
    }
    m_nLeaves = nLeaves;
    m_hostLeaf.assign(t.GetNHosts(), NO_UPLINK);
    std::vector<uint32_t> firstHost(nLeaves, DcnAddressing::NONE);
    for (uint32_t h = 0; h < t.GetNHosts(); ++h)
    {
        m_hostLeaf[h] = leafOf[t.GetSwitchOfHost(h)];
        if (m_hostLeaf[h] != NO_UPLINK && firstHost[m_hostLeaf[h]] == DcnAddressing::NONE)
        {
            firstHost[m_hostLeaf[h]] = h;
        }
    }
    Ptr<Node> node = sw.Get(switchIndex);
    m_sw = PeekPointer(t.GetRouting(node));
    if (!isLeaf[switchIndex])
    {
        m_role = SPINE;
        if (m_lapsPaths)
        {
            m_paths.Attach(t, switchIndex, isLeaf, m_ifUplink);
        }
        return;
    }
    m_role = LEAF;
    m_leaf = leafOf[switchIndex];
    for (uint32_t l : t.GetLinksOfNode(node))
    {
        const DcnLinkInfo& li = t.GetLink(l);
        if (li.tierA < 0 || li.tierB < 0)
        {
            continue; // host link
        }
        const uint32_t iface = li.a == node ? li.ifA : li.ifB;
        if (iface >= m_ifUplink.size())
        {
            m_ifUplink.resize(iface + 1, NO_UPLINK);
        }
        m_ifUplink[iface] = static_cast<uint16_t>(m_uplinkIf.size());
        m_uplinkIf.push_back(iface);
    }
    m_baseRttNs.assign(nLeaves, m_baseRtt.GetNanoSeconds());
    for (uint16_t d = 0; d < nLeaves && m_baseRtt.IsZero(); ++d)
    {
        const uint32_t a = firstHost[m_leaf];
        const uint32_t b = firstHost[d];
        if (d != m_leaf && a != DcnAddressing::NONE && b != DcnAddressing::NONE)
        {
            m_baseRttNs[d] = t.GetBaseRtt(a, b, 4096).GetNanoSeconds();
            if (m_lapsPaths)
            {
                // a longer path of the pair's set delays its RTT_REQUEST by its extra
                // one-way latency over the shortest (our choice)
                double lo = 0;
                double hi = 0;
                bool first = true;
                for (const auto& gp :
                     dynamic_cast<const DcnGraphTopology&>(t).GetMinimalRouting().LapsPaths(
                         t.GetSwitchOfHost(a),
                         t.GetSwitchOfHost(b)))
                {
                    lo = first ? gp.latencyNs : std::min(lo, gp.latencyNs);
                    hi = first ? gp.latencyNs : std::max(hi, gp.latencyNs);
                    first = false;
                }
                m_baseRttNs[d] += static_cast<int64_t>(hi - lo);
            }
        }
    }
    m_cfg.replyExtraNs = m_replyExtra.GetNanoSeconds();
    m_cfg.inactiveNs = m_inactive.GetNanoSeconds();
    m_cfg.pathBusyNs = m_pathBusy.GetNanoSeconds();
    m_cfg.resumeNs = m_resume.GetNanoSeconds();
    m_cfg.resumeExtraNs = m_resumeExtra.GetNanoSeconds();
    m_cfg.numPaths = static_cast<uint16_t>(std::max<size_t>(1, m_uplinkIf.size()));
    if (m_lapsPaths)
    {
        m_cfg.numPaths = DcnLapsPairTable::MAX_PATHS; // paths = LAPS path indices
        m_paths.Attach(t, switchIndex, isLeaf, m_ifUplink);
    }
    m_cfg.numDst = nLeaves;
    m_cfg.tableSize = m_tableSize;
    m_cfg.numVoqs = static_cast<uint16_t>(m_numVoqs);
    m_cfg.voqCapacity = m_voqCapacity;
    m_tx.Configure(m_cfg);
    m_rx.Configure(m_cfg);
    m_voqTimer.assign(m_numVoqs, EventId());
    NS_LOG_LOGIC("conweave: leaf " << m_leaf << " uplinks " << m_uplinkIf.size());
}

uint16_t
ConWeaveForwardingPolicy::GetUplinkOfIf(uint32_t iface) const
{
    return iface < m_ifUplink.size() ? m_ifUplink[iface] : NO_UPLINK;
}

uint32_t
ConWeaveForwardingPolicy::GetIfOfUplink(uint16_t u) const
{
    return u < m_uplinkIf.size() ? m_uplinkIf[u] : DcnForwardingContext::DROP;
}

uint64_t
ConWeaveForwardingPolicy::FlowKey(Ipv4Address src, Ipv4Address dst, uint16_t sport, uint16_t dport)
{
    DcnFlowKey k;
    k.src = src.Get();
    k.dst = dst.Get();
    k.proto = 17;
    k.srcPort = sport;
    k.dstPort = dport;
    return DcnFlowHash(k, 0xc0ffee5eedULL);
}

uint32_t
ConWeaveForwardingPolicy::SelectLapsTransit(DcnForwardingContext& ctx)
{
    const Ipv4Header& h = ctx.GetHeader();
    const uint16_t id = h.GetIdentification();
    const uint32_t n = ctx.nMinimal;
    const uint32_t src = DcnAddressing::HostIndexOf(h.GetSource());
    if (lbcore::ConWeaveTag::IsTagged(id) && src < m_hostLeaf.size() &&
        ctx.dstHost < m_hostLeaf.size() && m_hostLeaf[src] != NO_UPLINK &&
        m_hostLeaf[ctx.dstHost] != NO_UPLINK && m_paths.IsAttached())
    {
        // a ConWeave data packet: its path of the (source ToR, destination ToR) set
        const uint8_t k = lbcore::ConWeaveTag::Unpack(id).path;
        const DcnLapsPairTable::Pair& pp = m_paths.Get(m_hostLeaf[src], m_hostLeaf[ctx.dstHost]);
        if (k < pp.n && pp.egress[k] != DcnLapsPairTable::NO_IF && DcnLapsPairTable::IsValid(pp, k))
        {
            ++m_pathForwarded;
            return pp.egress[k];
        }
        if (k < pp.n && !DcnLapsPairTable::IsValid(pp, k))
        {
            // a link of the path is withdrawn (every switch knows it at the same instant, so
            // no later switch of the path takes the packet back onto it): minimal to the
            // destination from here, the tag kept for the destination ToR's reordering
            ++m_pathDiverted;
            NS_LOG_LOGIC("conweave-laps: path " << int(k) << " of leaf " << m_hostLeaf[src]
                                                << " -> leaf " << m_hostLeaf[ctx.dstHost]
                                                << " invalid here: minimal next hop");
        }
    }
    if (n == 1)
    {
        return ctx.minimal[0];
    }
    return ctx
        .minimal[DcnHashToIndex(DcnFlowHash(DcnFlowKey::FromPacket(ctx.GetPacket(), h), m_salt),
                                n)];
}

uint32_t
ConWeaveForwardingPolicy::GetPairPathEgress(uint16_t srcLeaf, uint16_t dstLeaf, uint16_t k)
{
    if (!m_lapsPaths || !m_paths.IsAttached() || srcLeaf >= m_paths.GetNLeaves() ||
        dstLeaf >= m_paths.GetNLeaves())
    {
        return DcnLapsPairTable::NO_IF;
    }
    const DcnLapsPairTable::Pair& pp = m_paths.Get(srcLeaf, dstLeaf);
    return k < pp.n ? pp.egress[k] : DcnLapsPairTable::NO_IF;
}

int64_t
ConWeaveForwardingPolicy::BaseRttNs(uint16_t dstLeaf) const
{
    return dstLeaf < m_baseRttNs.size() ? m_baseRttNs[dstLeaf] : 0;
}

void
ConWeaveForwardingPolicy::Configure()
{
    uint64_t hi = m_rng->GetInteger(0, 0xffffffffU);
    m_salt = (hi << 32) | m_rng->GetInteger(0, 0xffffffffU);
    m_configured = true;
}

uint32_t
ConWeaveForwardingPolicy::Select(DcnForwardingContext& ctx)
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
    const Ipv4Header& h = ctx.GetHeader();
    Ptr<const Packet> p = ctx.GetPacket();
    uint8_t b[PEEK] = {0};
    bool udp4791 = false;
    if (h.GetProtocol() == 17 && p->GetSize() >= 9)
    {
        p->CopyData(b, PEEK);
        udp4791 = ((b[2] << 8) | b[3]) == DcnHeader::UDP_PORT;
    }
    const bool fromFabric = GetUplinkOfIf(ctx.inIf) != NO_UPLINK;
    // AnyTopology: a ToR a packet only crosses forwards it like a spine
    const bool transit = (m_anyTopology || m_lapsPaths) && fromFabric &&
                         ctx.dstHost < m_hostLeaf.size() && m_hostLeaf[ctx.dstHost] != m_leaf;
    if (m_role == LEAF && ctx.dstHost < m_hostLeaf.size() && !transit)
    {
        if (fromFabric)
        {
            return SelectDestinationLeaf(ctx, b, udp4791);
        }
        if (m_hostLeaf[ctx.dstHost] != m_leaf)
        {
            return SelectSourceLeaf(ctx, b, udp4791);
        }
        return ctx.minimal[0]; // same leaf
    }
    if (m_lapsPaths)
    {
        return SelectLapsTransit(ctx);
    }
    if (n == 1)
    {
        return ctx.minimal[0];
    }
    return ctx.minimal[DcnHashToIndex(DcnFlowHash(DcnFlowKey::FromPacket(p, h), m_salt), n)];
}

uint32_t
ConWeaveForwardingPolicy::SelectSourceLeaf(DcnForwardingContext& ctx,
                                           const uint8_t* b,
                                           bool udp4791)
{
    const Ipv4Header& h = ctx.GetHeader();
    const uint32_t n = ctx.nMinimal;
    const bool data = udp4791 && ctx.GetPacket()->GetSize() >= 9 && b[8] == DcnHeader::DATA;
    if (!data)
    {
        if (lbcore::ConWeaveTag::IsTagged(h.GetIdentification()))
        {
            ctx.MutableHeader().SetIdentification(0); // only ConWeave data carries the tag
        }
        return ctx
            .minimal[DcnHashToIndex(DcnFlowHash(DcnFlowKey::FromPacket(ctx.GetPacket(), h), m_salt),
                                    n)];
    }
    const uint16_t sport = static_cast<uint16_t>((b[0] << 8) | b[1]);
    const uint16_t dport = static_cast<uint16_t>((b[2] << 8) | b[3]);
    const uint64_t key = FlowKey(h.GetSource(), h.GetDestination(), sport, dport);
    const uint16_t dstLeaf = m_hostLeaf[ctx.dstHost];
    const int64_t now = Simulator::Now().GetNanoSeconds();
    const lbcore::CwTxEntry* before = m_tx.Find(key);
    const uint8_t oldPath = before ? before->path : 0;
    // The paths to this destination are its current candidates: its minimal next hops
    // (AnyTopology), the uplinks still routed after a withdrawal (published mode; all
    // uplinks of an unfailed leaf-spine, where the sampling is unchanged).  Until 2026-11-30
    // the published mode sampled all uplinks and sent a withdrawn choice by a hash.
    uint32_t allowed = 0;
    const DcnLapsPairTable::Pair* pp = nullptr;
    if (m_lapsPaths)
    {
        // the paths of this ToR pair's LAPS set (indices 0..n-1)
        pp = &m_paths.Get(m_leaf, dstLeaf);
        // only the valid paths (every link routed, as LAPS's path validity); the flow's
        // path gone invalid takes a new epoch on a valid one (the core's pathGone)
        allowed = pp->valid;
        if (allowed == 0)
        {
            // every path of the pair invalid: untagged, to a minimal next hop (LAPS sends
            // on the minimal path then)
            if (lbcore::ConWeaveTag::IsTagged(h.GetIdentification()))
            {
                ctx.MutableHeader().SetIdentification(0);
            }
            NS_LOG_LOGIC("conweave-laps: leaf " << m_leaf << " -> leaf " << dstLeaf
                                                << ": every LAPS path invalid, minimal");
            return ctx.minimal[DcnHashToIndex(
                DcnFlowHash(DcnFlowKey::FromPacket(ctx.GetPacket(), h), m_salt),
                n)];
        }
    }
    for (uint32_t i = 0; i < n && !pp; ++i)
    {
        const uint16_t u = GetUplinkOfIf(ctx.minimal[i]);
        allowed |= u < 32 ? (1u << u) : 0u;
    }
    Ptr<UniformRandomVariable> rng = m_rng;
    lbcore::CwTxDecision d = m_tx.OnData(
        key,
        dstLeaf,
        now,
        BaseRttNs(dstLeaf),
        [&rng](uint32_t k) { return rng->GetInteger(0, k - 1); },
        allowed);
    if (d.untracked)
    {
        // the flow's table slot is held by another live flow: untracked, like a non-data
        // packet (no tag, so the destination leaf ignores it; ECMP hash)
        if (lbcore::ConWeaveTag::IsTagged(h.GetIdentification()))
        {
            ctx.MutableHeader().SetIdentification(0);
        }
        NS_LOG_LOGIC("conweave: leaf " << m_leaf << " flow " << key << " untracked (slot busy)");
        return ctx
            .minimal[DcnHashToIndex(DcnFlowHash(DcnFlowKey::FromPacket(ctx.GetPacket(), h), m_salt),
                                    n)];
    }
    if (d.rerouted)
    {
        m_rerouteTrace(key, oldPath, m_tx.Find(key)->path, d.replyTimeout);
    }
    if (pp)
    {
        const uint32_t egress = DcnLapsPairTable::IsValid(*pp, d.tag.path)
                                    ? pp->egress[d.tag.path]
                                    : DcnLapsPairTable::NO_IF;
        if (egress != DcnLapsPairTable::NO_IF)
        {
            ctx.MutableHeader().SetIdentification(d.tag.Pack());
            NS_LOG_LOGIC("conweave-laps: leaf " << m_leaf << " flow " << key << " epoch "
                                                << int(d.tag.epoch) << " path " << int(d.tag.path));
            return egress;
        }
        // not a path from here (an empty set): untagged, hashed (not expected)
        if (lbcore::ConWeaveTag::IsTagged(h.GetIdentification()))
        {
            ctx.MutableHeader().SetIdentification(0);
        }
        return ctx.minimal[DcnHashToIndex(key, n)];
    }
    uint32_t out = GetIfOfUplink(d.tag.path);
    bool candidate = false;
    for (uint32_t i = 0; i < n && !candidate; ++i)
    {
        candidate = ctx.minimal[i] == out;
    }
    if (!candidate)
    {
        // the path's uplink is withdrawn: a hashed candidate instead (our choice)
        out = ctx.minimal[DcnHashToIndex(key, n)];
        d.tag.path = static_cast<uint8_t>(GetUplinkOfIf(out) & 0xF);
    }
    ctx.MutableHeader().SetIdentification(d.tag.Pack());
    NS_LOG_LOGIC("conweave: leaf " << m_leaf << " flow " << key << " epoch " << int(d.tag.epoch)
                                   << " flag " << int(d.tag.flag) << " rerouted " << d.tag.rerouted
                                   << " path " << int(d.tag.path));
    return out;
}

uint32_t
ConWeaveForwardingPolicy::SelectDestinationLeaf(DcnForwardingContext& ctx,
                                                const uint8_t* b,
                                                bool udp4791)
{
    const Ipv4Header& h = ctx.GetHeader();
    Ptr<const Packet> p = ctx.GetPacket();
    const uint32_t out = ctx.minimal[0];
    if (!udp4791 || p->GetSize() < 9)
    {
        return out;
    }
    const uint16_t sport = static_cast<uint16_t>((b[0] << 8) | b[1]);
    const uint16_t dport = static_cast<uint16_t>((b[2] << 8) | b[3]);
    const int64_t now = Simulator::Now().GetNanoSeconds();
    if (b[8] == CONTROL_OPCODE && p->GetSize() >= CONTROL_SIZE)
    {
        // A control packet for a flow this leaf is the source leaf of: consume it.
        ++m_controlReceived;
        const uint16_t flowDport = static_cast<uint16_t>((b[12] << 8) | b[13]);
        const uint32_t srcHost = DcnAddressing::HostIndexOf(h.GetSource());
        if (b[9] == NOTIFY)
        {
            if (srcHost < m_hostLeaf.size())
            {
                m_tx.OnNotify(m_hostLeaf[srcHost], b[11], now);
            }
        }
        else
        {
            // the flow runs from this reply's destination to its source
            m_tx.OnReply(FlowKey(h.GetDestination(), h.GetSource(), sport, flowDport),
                         b[10],
                         b[9] == CLEAR,
                         now);
        }
        return DcnForwardingContext::TAKEN;
    }
    if (b[8] != DcnHeader::DATA || !lbcore::ConWeaveTag::IsTagged(h.GetIdentification()))
    {
        return out;
    }
    const lbcore::ConWeaveTag tag = lbcore::ConWeaveTag::Unpack(h.GetIdentification());
    const uint64_t key = FlowKey(h.GetSource(), h.GetDestination(), sport, dport);
    if (h.GetEcn() == Ipv4Header::ECN_CE)
    {
        SendControl(h.GetSource(), h.GetDestination(), sport, dport, NOTIFY, tag.epoch, tag.path);
    }
    if (!m_reorder)
    {
        if (tag.flag != lbcore::CwFlag::DATA)
        {
            SendControl(h.GetSource(),
                        h.GetDestination(),
                        sport,
                        dport,
                        tag.flag == lbcore::CwFlag::TAIL ? CLEAR : RTT_REPLY,
                        tag.epoch,
                        tag.path);
        }
        return out;
    }
    lbcore::CwRxDecision d = m_rx.OnData(key, tag, now);
    if (d.untracked)
    {
        return out; // the flow's slot is held by another live flow: passes, no reply
    }
    if (d.releaseBefore != lbcore::CwRxDecision::NO_VOQ)
    {
        ReleaseVoq(d.releaseBefore, false);
    }
    if (d.reply)
    {
        SendControl(h.GetSource(),
                    h.GetDestination(),
                    sport,
                    dport,
                    d.clear ? CLEAR : RTT_REPLY,
                    tag.epoch,
                    tag.path);
    }
    if (d.setDeadline && d.voq < m_voqTimer.size())
    {
        m_voqTimer[d.voq].Cancel();
        m_voqTimer[d.voq] =
            Simulator::Schedule(NanoSeconds(std::max<int64_t>(0, d.deadlineNs - now)),
                                &ConWeaveForwardingPolicy::OnResumeTimer,
                                this,
                                d.voq);
    }
    if (d.hold)
    {
        Held item;
        item.packet = p;
        item.header = h;
        item.iface = out;
        item.inIf = static_cast<int32_t>(ctx.inIf);
        if (!m_rx.Hold(d.voq, item))
        {
            NS_LOG_LOGIC("conweave: reorder queue full, packet dropped");
            m_holdDropTrace(p);
        }
        return DcnForwardingContext::TAKEN;
    }
    if (d.releaseAfter)
    {
        // the TAIL first, then the packets that overtook it
        m_sw->ForwardLater(out, p, h, static_cast<int32_t>(ctx.inIf));
        ReleaseVoq(d.voq, false);
        return DcnForwardingContext::TAKEN;
    }
    return out;
}

void
ConWeaveForwardingPolicy::SendControl(Ipv4Address flowSrc,
                                      Ipv4Address flowDst,
                                      uint16_t sport,
                                      uint16_t dport,
                                      uint8_t type,
                                      uint8_t epoch,
                                      uint8_t path)
{
    NS_LOG_FUNCTION(this << int(type) << int(epoch) << int(path));
    const uint32_t srcHost = DcnAddressing::HostIndexOf(flowSrc);
    const uint32_t* minimal = nullptr;
    const uint32_t* nonMinimal = nullptr;
    uint32_t nMin = 0;
    uint32_t nNon = 0;
    uint32_t key = 0;
    if (!m_sw || !m_sw->GetCandidates(srcHost, minimal, nMin, nonMinimal, nNon, key) || nMin == 0)
    {
        return;
    }
    uint8_t buf[CONTROL_SIZE] = {0};
    buf[0] = static_cast<uint8_t>(sport >> 8);
    buf[1] = static_cast<uint8_t>(sport);
    buf[2] = static_cast<uint8_t>(DcnHeader::UDP_PORT >> 8);
    buf[3] = static_cast<uint8_t>(DcnHeader::UDP_PORT & 0xff);
    buf[5] = static_cast<uint8_t>(CONTROL_SIZE); // UDP length; checksum 0
    buf[8] = CONTROL_OPCODE;
    buf[9] = type;
    buf[10] = epoch;
    buf[11] = path;
    buf[12] = static_cast<uint8_t>(dport >> 8);
    buf[13] = static_cast<uint8_t>(dport);
    Ptr<Packet> p = Create<Packet>(buf, CONTROL_SIZE);
    Ipv4Header h;
    h.SetSource(flowDst);
    h.SetDestination(flowSrc);
    h.SetProtocol(17);
    h.SetTtl(DcnAddressing::INITIAL_TTL);
    h.SetPayloadSize(CONTROL_SIZE);
    h.SetIdentification(0);
    const uint32_t out =
        minimal[nMin == 1 ? 0
                          : DcnHashToIndex(FlowKey(flowSrc, flowDst, sport, dport) ^ m_salt, nMin)];
    if (m_sw->ForwardLater(out, p, h))
    {
        ++(type == NOTIFY ? m_notifiesSent : m_repliesSent);
    }
}

void
ConWeaveForwardingPolicy::ReleaseVoq(uint16_t voq, bool byTimeout)
{
    NS_LOG_FUNCTION(this << voq << byTimeout);
    if (voq < m_voqTimer.size())
    {
        m_voqTimer[voq].Cancel();
    }
    DcnSwitchRouting* sw = m_sw;
    const uint32_t n = m_rx.Release(voq, byTimeout, [sw](Held& it) {
        if (sw)
        {
            sw->ForwardLater(it.iface, it.packet, it.header, it.inIf);
        }
    });
    m_releaseTrace(n, byTimeout);
}

void
ConWeaveForwardingPolicy::OnResumeTimer(uint16_t voq)
{
    NS_LOG_FUNCTION(this << voq);
    ReleaseVoq(voq, true);
}

int64_t
ConWeaveForwardingPolicy::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_rng->SetStream(stream);
    return 1;
}

} // namespace ns3
