#include "workload-helper.h"

#include "../model/dcn-lb-compat.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/cc-registry.h"
#include "ns3/dcn-header.h"
#include "ns3/dcn-options.h"
#include "ns3/dcn-scheme.h"
#include "ns3/dcn-tcp-transport.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/path-selector.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnWorkloadHelper");
NS_OBJECT_ENSURE_REGISTERED(WorkloadHelper);

TypeId
WorkloadHelper::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcnWorkloadHelper")
            .SetParent<Object>()
            .SetGroupName("DcnLb")
            .AddConstructor<WorkloadHelper>()
            .AddAttribute("Workload",
                          "permutation, tornado, incast, alltoall, ring, butterfly, allscatter or "
                          "cdf (REPS spec 3.2)",
                          StringValue("permutation"),
                          MakeStringAccessor(&WorkloadHelper::m_workload),
                          MakeStringChecker())
            .AddAttribute(
                "MessageSize",
                "Message size in bytes: per flow (permutation, tornado, incast, alltoall),"
                " the buffer being reduced (ring, butterfly) or scattered (allscatter). "
                "REPS paper [L] Sec. 5 sweeps 4, 8, 16 MiB; default 2 MiB (spec "
                "resolution: AllToAll uses 2 MB per pair)",
                UintegerValue(2 * 1024 * 1024),
                MakeUintegerAccessor(&WorkloadHelper::m_msgSize),
                MakeUintegerChecker<uint64_t>())
            .AddAttribute("Cdf",
                          "Flow-size CDF for Workload=cdf: a name in data/workloads "
                          "(websearch, datamining, hadoop, rpc, storage) or a file path "
                          "(REPS [L] Sec. 5: websearch)",
                          StringValue("websearch"),
                          MakeStringAccessor(&WorkloadHelper::m_cdf),
                          MakeStringChecker())
            .AddAttribute("Load",
                          "Offered load of Workload=cdf as a fraction of the host link rate, in "
                          "(0, 1] (REPS [L] Sec. 5: 0.4, 0.6, 0.8, 1.0)",
                          DoubleValue(0.6),
                          MakeDoubleAccessor(&WorkloadHelper::m_load),
                          MakeDoubleChecker<double>())
            .AddAttribute("LoadScale",
                          "Reference of Load for Workload=cdf: each host offers Load x LoadScale "
                          "x its host link rate; 1 = the host link (default); the LAPS authors' "
                          "simulator ([A]) offers its TFC-All.txt per-pair loadfactor summed over "
                          "the destinations (laps-paper --loadRef=artifact: laps-df 143 x 0.0091 "
                          "= 1.3013, laps-rail 63 x 0.0158 = 0.9954); allowed (0, 10]",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&WorkloadHelper::m_loadScale),
                          MakeDoubleChecker<double>(1e-9, 10.0))
            .AddAttribute("Duration",
                          "Arrival window of Workload=cdf (REPS artifact: 5 ms traces); 0 = use "
                          "MaxFlows only",
                          TimeValue(MicroSeconds(200)),
                          MakeTimeAccessor(&WorkloadHelper::m_duration),
                          MakeTimeChecker())
            .AddAttribute("MaxFlows",
                          "Maximum number of flows of Workload=cdf (0 = no limit)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&WorkloadHelper::m_maxFlows),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("IncastDegree",
                          "Senders of Workload=incast (REPS artifact [A]: 8)",
                          UintegerValue(8),
                          MakeUintegerAccessor(&WorkloadHelper::m_incastDegree),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("IncastReceiver",
                          "Receiving host of Workload=incast (spec resolution: host 0)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&WorkloadHelper::m_incastReceiver),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Bystanders",
                          "Bystander flows (MessageSize each) among hosts outside an incast "
                          "(spec resolution: 0)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&WorkloadHelper::m_bystanders),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Parallel",
                          "Max parallel connections per host of Workload=alltoall (REPS [L] "
                          "Sec. 5: n in {1, 2, 4, 8, 16}; default 4, spec resolution)",
                          UintegerValue(4),
                          MakeUintegerAccessor(&WorkloadHelper::m_parallel),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("LoadBalancer",
                          "Scheme name (DcnSchemeRegistry: path selector + congestion control + "
                          "...); one path selector per connection",
                          StringValue("ecmp"),
                          MakeStringAccessor(&WorkloadHelper::m_lb),
                          MakeStringChecker())
            .AddAttribute("CongestionControl",
                          "Congestion control name (CongestionControlRegistry), one per "
                          "connection; empty = the scheme's (REPS [L] Sec. 5: DCTCP as in MPRDMA)",
                          StringValue("dctcp"),
                          MakeStringAccessor(&WorkloadHelper::m_cc),
                          MakeStringChecker())
            .AddAttribute("Mtu",
                          "Payload bytes per packet, for the ideal FCT; 0 = the transport's MTU "
                          "(REPS [L] Sec. 5: 4 KiB)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&WorkloadHelper::m_mtu),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("HeaderBytes",
                          "Per-packet header overhead for the ideal FCT (0 = PPP + IPv4 + UDP + "
                          "DcnHeader, spec resolution) and, with BdpPackets > 0, for its base RTT "
                          "(there 0 adds none)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&WorkloadHelper::m_headerBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "BdpPackets",
                "0: each connection's BDP is its pair's unloaded minimal-path RTT "
                "(DcnTopology::GetBaseRtt) x the host link rate (the default); N > 0: "
                "one BDP for every connection of N packets: BDP = N x Mtu bytes (so "
                "DCTCP's window is InitialWindowBdp / MaxWindowBdp x N packets) and "
                "base RTT = N x (Mtu + HeaderBytes) x 8 / host link rate (DCTCP's "
                "QuickAdapt period and FastIncrease RTT test, path selectors' RTT "
                "fallbacks; so base RTT x rate exceeds the BDP by the headers' share, "
                "1.3 % for 88 x 4096 B).  Spritz spec 4.1: \"BDP is computed on the longest path; "
                "use the literal values\" (88 packets DF, 92 SF; spritz-paper sets "
                "them); allowed 0..100000",
                UintegerValue(0),
                MakeUintegerAccessor(&WorkloadHelper::m_bdpPackets),
                MakeUintegerChecker<uint32_t>(0, 100000))
            .AddAttribute("MaxSendersPerReceiver",
                          "cdf workload: at most this many simultaneous senders per receiver "
                          "(a flow is active from its start for size x 8 / host rate; a "
                          "receiver with that many distinct other senders is redrawn on a "
                          "stream of its own, sizes and starts stay; Spritz Sec. V-A.c limits "
                          "them without a number); 0 = no cap; allowed 0..100000",
                          UintegerValue(0),
                          MakeUintegerAccessor(&WorkloadHelper::m_maxSendersPerReceiver),
                          MakeUintegerChecker<uint32_t>(0, 100000))
            .AddAttribute("MeasureFrom",
                          "Warm-up: messages released before this time (from the simulation's "
                          "start, StartTime included) are simulated but left out of the "
                          "statistics and the FlowCompleted trace, so a Poisson workload is "
                          "measured nearer its steady state (workloads review W7; our "
                          "choice, no paper's); 0 = every message counts",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&WorkloadHelper::m_measureFrom),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("StartTime",
                          "When the workload starts",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&WorkloadHelper::m_startTime),
                          MakeTimeChecker())
            .AddAttribute("ReuseConnections",
                          "Reuse an idle connection of the same host pair for a later message",
                          BooleanValue(true),
                          MakeBooleanAccessor(&WorkloadHelper::m_reuse),
                          MakeBooleanChecker())
            .AddAttribute(
                "ConnectionPolicy",
                "ReuseIdle: reuse an idle connection of the pair (default); "
                "OnePerPair: every message of a pair on one connection, FIFO (REPS "
                "experiments); NewPerMessage. ReuseConnections=false means "
                "NewPerMessage.",
                EnumValue(WorkloadHelper::REUSE_IDLE),
                DCNLB_ENUM_ACCESSOR(WorkloadHelper::ConnectionPolicy, &WorkloadHelper::m_policy),
                MakeEnumChecker(WorkloadHelper::REUSE_IDLE,
                                "ReuseIdle",
                                WorkloadHelper::ONE_PER_PAIR,
                                "OnePerPair",
                                WorkloadHelper::NEW_PER_MESSAGE,
                                "NewPerMessage"))
            .AddAttribute("StopWhenDone",
                          "Call Simulator::Stop() when every message of the plan has completed "
                          "(all hosts, never one host)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&WorkloadHelper::m_stopWhenDone),
                          MakeBooleanChecker())
            .AddAttribute("PerHostSelectorStreams",
                          "Path selectors of source host h draw their random streams from "
                          "h's own equal share of the selector block, so a host's draws do "
                          "not depend on when other hosts open connections: needed for MPI "
                          "runs (each rank opens only its hosts' connections) and identical "
                          "on 1 and N ranks.  false: one counter over all hosts in "
                          "connection-open order (our choice; README Distributed runs)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&WorkloadHelper::m_perHostStreams),
                          MakeBooleanChecker())
            .AddTraceSource("FlowComplete",
                            "A message completed (its statistics record)",
                            MakeTraceSourceAccessor(&WorkloadHelper::m_flowTrace),
                            "ns3::WorkloadHelper::FlowCompleteTracedCallback");
    return tid;
}

WorkloadHelper::WorkloadHelper()
{
    // The plan's random variables are created when a plan is built (BuildPlan), so
    // a driver given a plan (SetPlan) creates none: the process-wide automatic
    // stream counter, which components drawing before their AssignStreams depend
    // on, advances exactly as without this driver.
}

WorkloadHelper::~WorkloadHelper() = default;

void
WorkloadHelper::DoDispose()
{
    m_apps.clear();
    m_appOfHost.clear();
    m_fabric = nullptr;
    m_sched.reset();
    Object::DoDispose();
}

uint32_t
WorkloadHelper::DefaultHeaderBytes()
{
    return 2 + 20 + 8 + DcnHeader::BASE_SIZE;
}

int64_t
WorkloadHelper::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_planStream = stream; // uniform: stream, exponential: stream + 1 (BuildPlan)
    m_psStream = stream + 2;
    // Path selectors draw their streams from m_psStream upwards as connections
    // open; they get a reserved block so that later components never overlap.
    m_psStreamEnd = m_psStream + SELECTOR_STREAM_BLOCK;
    return 2 + SELECTOR_STREAM_BLOCK;
}

DcnConnectionParams
MakeConnectionParams(Ptr<DcnTopology> topo,
                     uint32_t src,
                     uint32_t dst,
                     uint32_t mtu,
                     uint32_t bdpPackets,
                     uint32_t headerBytes)
{
    DcnConnectionParams p;
    p.lineRate = topo->GetHostLinkRate();
    if (bdpPackets > 0)
    {
        // one network-wide BDP of bdpPackets packets (Spritz spec 4.1: the longest path's)
        p.bdpBytes = uint64_t(bdpPackets) * mtu;
        const double bits = 8.0 * bdpPackets * (uint64_t(mtu) + headerBytes);
        p.baseRtt =
            PicoSeconds(static_cast<int64_t>(std::llround(bits * 1e12 / p.lineRate.GetBitRate())));
    }
    else
    {
        p.baseRtt = topo->GetBaseRtt(src, dst, mtu);
        p.bdpBytes = static_cast<uint64_t>(p.baseRtt.GetSeconds() * p.lineRate.GetBitRate() / 8.0);
    }
    p.srcHost = src;
    p.dstHost = dst;
    p.srcSwitch = topo->GetSwitchOfHost(src);
    p.dstSwitch = topo->GetSwitchOfHost(dst);
    p.topology = topo;
    p.dstNode = topo->GetHosts().Get(dst)->GetId();
    return p;
}

std::pair<Ptr<PathSelector>, Ptr<CongestionControl>>
CreateSchemeParts(const std::string& lb, const std::string& cc)
{
    if (!DcnSchemeRegistry::Has(lb))
    {
        return {nullptr, nullptr};
    }
    DcnScheme s = DcnSchemeRegistry::Get(lb);
    Ptr<PathSelector> ps = PathSelectorRegistry::Create(s.pathSelector);
    if (ps)
    {
        for (const auto& a : s.selectorAttributes)
        {
            ps->SetAttribute(a.first, StringValue(a.second));
        }
    }
    return {ps, CongestionControlRegistry::Create(cc.empty() ? s.congestionControl : cc)};
}

void
WorkloadHelper::SetPlan(const WorkloadPlan& plan)
{
    NS_LOG_FUNCTION(this << plan.messages.size());
    m_plan = plan;
    m_planGiven = true;
}

void
WorkloadHelper::AddSelectorAttribute(const std::string& name,
                                     const AttributeValue& v,
                                     bool failSafe)
{
    NS_LOG_FUNCTION(this << name << failSafe);
    m_selectorAttrs.emplace_back(name, v.Copy(), failSafe, UINT32_MAX);
}

void
WorkloadHelper::AddHostSelectorAttribute(uint32_t host,
                                         const std::string& name,
                                         const AttributeValue& v,
                                         bool failSafe)
{
    NS_LOG_FUNCTION(this << host << name << failSafe);
    NS_ABORT_MSG_IF(host == UINT32_MAX,
                    "WorkloadHelper::AddHostSelectorAttribute: host " << host
                                                                      << " is not a host index");
    m_selectorAttrs.emplace_back(name, v.Copy(), failSafe, host);
}

void
WorkloadHelper::AddCongestionControlAttribute(const std::string& typeName,
                                              const std::string& name,
                                              const AttributeValue& v)
{
    NS_LOG_FUNCTION(this << typeName << name);
    TypeId t;
    NS_ABORT_MSG_UNLESS(TypeId::LookupByNameFailSafe(typeName, &t),
                        "DcnWorkloadHelper: no TypeId " << typeName);
    TypeId::AttributeInformation info;
    NS_ABORT_MSG_UNLESS(t.LookupAttributeByName(name, &info),
                        "DcnWorkloadHelper: " << typeName << " has no attribute " << name);
    m_ccAttrs.emplace_back(t, name, v.Copy());
}

void
WorkloadHelper::BuildPlan(uint32_t n)
{
    m_uniform = CreateObject<UniformRandomVariable>();
    m_exponential = CreateObject<ExponentialRandomVariable>();
    if (m_planStream >= 0)
    {
        m_uniform->SetStream(m_planStream);
        m_exponential->SetStream(m_planStream + 1);
    }
    Ptr<DcnTopology> fabric = m_fabric;
    if (m_workload == "permutation")
    {
        m_plan = WorkloadPlanner::Permutation(n, m_msgSize, m_uniform);
    }
    else if (m_workload == "tornado")
    {
        m_plan = WorkloadPlanner::Tornado(n, m_msgSize);
    }
    else if (m_workload == "incast")
    {
        m_plan = WorkloadPlanner::Incast(n,
                                         m_incastDegree,
                                         m_incastReceiver,
                                         m_msgSize,
                                         m_bystanders,
                                         m_msgSize);
    }
    else if (m_workload == "alltoall")
    {
        m_plan = WorkloadPlanner::AllToAll(n, m_msgSize, m_parallel);
    }
    else if (m_workload == "ring")
    {
        m_plan = WorkloadPlanner::RingAllreduce(n, m_msgSize);
    }
    else if (m_workload == "butterfly")
    {
        m_plan = WorkloadPlanner::ButterflyAllreduce(n, m_msgSize);
    }
    else if (m_workload == "allscatter")
    {
        m_plan = WorkloadPlanner::AllScatter(n, m_msgSize);
    }
    else
    {
        FlowSizeCdf cdf = FlowSizeCdf::Load(m_cdf);
        // LoadScale: the load's reference in host links (1 = the host link itself)
        Ptr<UniformRandomVariable> redraw;
        if (m_maxSendersPerReceiver > 0)
        {
            // the receiver cap's redraws: a stream of their own, the last of the selector
            // block (a selector reaches it only after 2^24 connections), so every flow keeps
            // the uncapped plan's size
            // (created with its stream, so it takes no automatic stream number either)
            redraw = m_psStreamEnd > 0 ? CreateObjectWithAttributes<UniformRandomVariable>(
                                             "Stream",
                                             IntegerValue(m_psStreamEnd - 1))
                                       : CreateObject<UniformRandomVariable>();
        }
        m_plan = WorkloadPlanner::Poisson(n,
                                          cdf,
                                          m_load,
                                          fabric->GetHostLinkRate().GetBitRate(),
                                          m_duration,
                                          m_maxFlows,
                                          m_uniform,
                                          m_exponential,
                                          m_maxSendersPerReceiver,
                                          m_loadScale,
                                          redraw);
    }
}

void
WorkloadHelper::Install(Ptr<DcnTopology> fabric)
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(!fabric, "WorkloadHelper::Install: null fabric");
    NS_ABORT_MSG_IF(!m_apps.empty(), "WorkloadHelper::Install called twice");
    m_fabric = fabric;
    NS_ABORT_MSG_IF(!m_planGiven && !WorkloadPlanner::Has(m_workload),
                    "Unknown workload '" << m_workload
                                         << "'; allowed: permutation, tornado, incast, alltoall, "
                                            "ring, butterfly, allscatter, cdf");
    NS_ABORT_MSG_IF(!DcnSchemeRegistry::Has(m_lb),
                    "Unknown load balancer '"
                        << m_lb << "'; allowed: " << DcnSchemeRegistry::NamesString());
    NS_ABORT_MSG_IF(!m_cc.empty() && !CongestionControlRegistry::Has(m_cc),
                    "Unknown congestion control '"
                        << m_cc << "'; allowed: " << CongestionControlRegistry::NamesString());
    if (!m_reuse && m_policy == REUSE_IDLE)
    {
        m_policy = NEW_PER_MESSAGE;
    }
    uint32_t n = fabric->GetNHosts();
    for (uint32_t i = 0; i < n; ++i)
    {
        NS_ABORT_MSG_IF(!fabric->GetHosts().Get(i)->GetObject<DcnMessageTransport>(),
                        "WorkloadHelper::Install: host " << i
                                                         << " has no message transport (install "
                                                            "DcnTransportHelper first)");
        // plain TCP (DcnTcpTransport::PathShim=false): switch-side ECMP only
        Ptr<DcnTcpTransport> tcp = fabric->GetHosts().Get(i)->GetObject<DcnTcpTransport>();
        if (tcp && !tcp->GetPathShim())
        {
            const bool over = i < m_hostLb.size() && !m_hostLb[i].empty();
            std::string err = DcnTcpTransport::CheckPathShim(false, over ? m_hostLb[i] : m_lb);
            if (!err.empty())
            {
                throw DcnOptionError(err); // refused input: one line (callers exit 2)
            }
        }
    }
    {
        // issue 14: a scheme with a switch-side policy (letflow, drill, conga)
        // installs it on the built topology; "ecmp" schemes change nothing.  Its
        // streams come first from the selector block (no effect on other schemes).
        int64_t used = 0;
        std::string err = DcnSchemeRegistry::InstallSwitchPolicy(m_lb, fabric, m_psStream, &used);
        if (!err.empty())
        {
            throw DcnOptionError(err); // refused input: one line (callers exit 2)
        }
        if (m_psStream >= 0)
        {
            m_psStream += used;
        }
    }
    m_psHostNext.clear();
    if (m_perHostStreams && m_psStream >= 0)
    {
        // host h: [m_psStream + h * share, m_psStream + (h + 1) * share)
        m_psHostShare = (m_psStreamEnd - m_psStream) / std::max<uint32_t>(1, n);
        m_psHostNext.resize(n);
        for (uint32_t h = 0; h < n; ++h)
        {
            m_psHostNext[h] = m_psStream + int64_t(h) * m_psHostShare;
        }
    }
    if (m_mtu == 0)
    {
        m_mtu = fabric->GetHosts().Get(0)->GetObject<DcnMessageTransport>()->GetMtu();
    }
    if (m_headerBytes == 0)
    {
        m_headerBytes = DefaultHeaderBytes();
    }
    // LoadScale and MaxSendersPerReceiver shape only a cdf plan this helper draws: given
    // with another workload or a driver's own plan they would be silently ignored
    const bool ownCdf = !m_planGiven && m_workload == "cdf";
    DCN_REFUSE_IF(!ownCdf && m_loadScale != 1.0,
                  "option --ns3::DcnWorkloadHelper::LoadScale: value '"
                      << m_loadScale << "' applies only to Workload=cdf drawn by the helper; this "
                      << (m_planGiven ? "driver gives its own plan" : "run's workload is ")
                      << (m_planGiven ? std::string() : m_workload) << "; allowed: 1 here");
    DCN_REFUSE_IF(!ownCdf && m_maxSendersPerReceiver > 0,
                  "option --ns3::DcnWorkloadHelper::MaxSendersPerReceiver: value '"
                      << m_maxSendersPerReceiver
                      << "' applies only to Workload=cdf drawn by the helper; this "
                      << (m_planGiven ? "driver gives its own plan" : "run's workload is ")
                      << (m_planGiven ? std::string() : m_workload) << "; allowed: 0 here");
    if (!m_planGiven)
    {
        BuildPlan(n);
    }
    NS_ABORT_MSG_IF(m_plan.nHosts != n,
                    "WorkloadHelper: plan has " << m_plan.nHosts << " hosts, topology " << n);
    if (m_measureFrom.IsStrictlyPositive() && !m_plan.messages.empty())
    {
        // a warm-up that leaves no message counted would print an empty table
        Time last(0);
        bool any = false;
        for (uint32_t id = 0; id < m_plan.messages.size(); ++id)
        {
            any = any || Measured(id);
            last = std::max(last, m_startTime + m_plan.messages[id].release);
        }
        DCN_REFUSE_IF(!any,
                      "option --ns3::DcnWorkloadHelper::MeasureFrom (dcn-lb-compare --warmup): "
                      "value '"
                          << m_measureFrom.GetSeconds() * 1e6
                          << "us' leaves no flow counted: the last of the "
                          << m_plan.messages.size() << " arrivals is at " << last.GetSeconds() * 1e6
                          << "us"
                          << "; allowed: a warm-up at or before the last arrival");
    }
    DCN_REFUSE_IF(m_plan.messages.empty(),
                  "workload " << m_workload << " has no flow: the arrival window (--duration, "
                              << "ns3::DcnWorkloadHelper::Duration) " << m_duration.As(Time::US)
                              << " holds no arrival; allowed: a longer window");
    m_started.assign(m_plan.messages.size(), NanoSeconds(-1));
    m_done.assign(m_plan.messages.size(), false);
    m_sched = std::make_unique<WorkloadScheduler>(&m_plan);
    // one app per host of this rank (MPI: each rank starts only its own hosts' flows)
    m_appOfHost.assign(n, nullptr);
    bool distributed = false;
    for (uint32_t i = 0; i < n; ++i)
    {
        distributed |= fabric->GetHosts().Get(i)->GetSystemId() != Simulator::GetSystemId();
    }
    // each rank's scheduler sees only its own hosts' completions: a step that waits for
    // another rank's message (ring, butterfly) would never start
    DCN_REFUSE_IF(distributed &&
                      std::any_of(m_plan.messages.begin(),
                                  m_plan.messages.end(),
                                  [](const WorkloadMessage& m) { return !m.deps.empty(); }),
                  "workload " << m_workload
                              << " has steps that wait for other hosts' messages, which a "
                                 "distributed (MPI) run cannot see across ranks; allowed on "
                                 "several ranks: workloads without dependencies (permutation, "
                                 "tornado, incast, alltoall, allscatter, cdf)");
    for (uint32_t i = 0; i < n; ++i)
    {
        Ptr<Node> node = fabric->GetHosts().Get(i);
        if (node->GetSystemId() != Simulator::GetSystemId())
        {
            continue;
        }
        Ptr<DcnWorkloadApp> app = CreateObject<DcnWorkloadApp>();
        node->AddApplication(app);
        app->Init(this, i);
        m_apps.push_back(app);
        m_appOfHost[i] = PeekPointer(app);
    }
    Simulator::Schedule(m_startTime, &WorkloadHelper::Begin, this);
}

void
WorkloadHelper::Begin()
{
    NS_LOG_FUNCTION(this);
    StartMessages(m_sched->Start());
}

void
WorkloadHelper::StartMessages(const std::vector<uint32_t>& ids)
{
    Time now = Simulator::Now();
    for (uint32_t id : ids)
    {
        const WorkloadMessage& m = m_plan.messages[id];
        DcnWorkloadApp* app = m_appOfHost[m.src];
        if (app == nullptr)
        {
            continue; // another rank's host
        }
        Time at = m_startTime + m.release;
        if (at > now)
        {
            Simulator::ScheduleWithContext(app->GetNode()->GetId(),
                                           at - now,
                                           &DcnWorkloadApp::StartMessage,
                                           app,
                                           id);
        }
        else
        {
            app->StartMessage(id);
        }
    }
}

void
WorkloadHelper::SetHostLoadBalancer(uint32_t host, const std::string& lb)
{
    NS_LOG_FUNCTION(this << host << lb);
    NS_ABORT_MSG_IF(!DcnSchemeRegistry::Has(lb),
                    "Unknown load balancer '" << lb << "' for host " << host
                                              << "; allowed: " << DcnSchemeRegistry::NamesString());
    if (m_hostLb.size() <= host)
    {
        m_hostLb.resize(host + 1);
    }
    m_hostLb[host] = lb;
}

std::pair<Ptr<PathSelector>, Ptr<CongestionControl>>
WorkloadHelper::CreateConnectionParts(uint32_t src)
{
    const bool over = src < m_hostLb.size() && !m_hostLb[src].empty();
    auto parts = CreateSchemeParts(over ? m_hostLb[src] : m_lb, m_cc);
    Ptr<PathSelector> ps = parts.first;
    for (const auto& a : m_selectorAttrs)
    {
        if (std::get<3>(a) != UINT32_MAX && std::get<3>(a) != src)
        {
            continue; // another host's (AddHostSelectorAttribute)
        }
        if (std::get<2>(a) || over)
        {
            ps->SetAttributeFailSafe(std::get<0>(a), *std::get<1>(a));
        }
        else
        {
            ps->SetAttribute(std::get<0>(a), *std::get<1>(a));
        }
    }
    if (Ptr<CongestionControl> cc = parts.second)
    {
        const TypeId tid = cc->GetInstanceTypeId();
        for (const auto& [t, name, v] : m_ccAttrs)
        {
            if (tid == t || tid.IsChildOf(t))
            {
                cc->SetAttribute(name, *v);
            }
        }
    }
    if (src < m_psHostNext.size())
    {
        const int64_t end = m_psStream + int64_t(src + 1) * m_psHostShare;
        m_psHostNext[src] += ps->AssignStreams(m_psHostNext[src]);
        NS_ABORT_MSG_IF(m_psHostNext[src] > end,
                        "DcnWorkloadHelper: path selectors of host "
                            << src << " used more than " << m_psHostShare
                            << " random streams (PerHostSelectorStreams)");
    }
    else if (m_psStream >= 0)
    {
        m_psStream += ps->AssignStreams(m_psStream);
        NS_ABORT_MSG_IF(m_psStream > m_psStreamEnd,
                        "DcnWorkloadHelper: path selectors used more than " << SELECTOR_STREAM_BLOCK
                                                                            << " random streams");
    }
    return parts;
}

DcnConnectionParams
WorkloadHelper::GetConnectionParams(uint32_t src, uint32_t dst) const
{
    return MakeConnectionParams(m_fabric, src, dst, m_mtu, m_bdpPackets, m_headerBytes);
}

Ipv4Address
WorkloadHelper::GetHostAddress(uint32_t host) const
{
    return m_fabric->GetHostAddress(host);
}

void
WorkloadHelper::NotifyStarted(uint32_t id)
{
    m_started[id] = Simulator::Now();
}

FctRecord
WorkloadHelper::MakeRecord(uint32_t id, const DcnMessageRecord& r) const
{
    return MakeFctRecord(*m_fabric, m_plan.messages[id], m_started[id], r, m_mtu, m_headerBytes);
}

namespace
{
/** The ideal FCT of message m on the fabric (its first packet's base RTT, line rate). */
Time
IdealFctOf(const DcnTopology& fabric, const WorkloadMessage& m, uint32_t mtu, uint32_t headerBytes)
{
    const uint32_t p1 = FctStats::FirstPacketPayload(m.bytes, mtu);
    return FctStats::IdealFct(fabric.GetBaseRtt(m.src, m.dst, p1),
                              m.bytes,
                              mtu,
                              headerBytes,
                              fabric.GetHostLinkRate());
}
} // namespace

FctRecord
MakeFctRecord(const DcnTopology& fabric,
              const WorkloadMessage& m,
              Time start,
              const DcnMessageRecord& r,
              uint32_t mtu,
              uint32_t headerBytes)
{
    FctRecord f;
    f.src = m.src;
    f.dst = m.dst;
    f.bytes = m.bytes;
    f.start = start;
    f.finish = r.finish;
    f.ideal = IdealFctOf(fabric, m, mtu, headerBytes);
    f.retransmissions = r.retransmissions;
    f.outOfOrder = r.outOfOrder;
    f.timeouts = r.timeouts;
    f.trimmed = r.trimmed;
    return f;
}

void
WorkloadHelper::NotifyComplete(uint32_t id, const FctRecord& f)
{
    NS_LOG_FUNCTION(this << id);
    m_done[id] = true;
    if (Measured(id))
    {
        m_stats.Add(f);
        m_flowTrace(f);
    }
    StartMessages(m_sched->OnComplete(id));
    if (m_stopWhenDone && m_sched->AllDone())
    {
        NS_LOG_INFO("every message of the workload completed at " << Simulator::Now().As(Time::US));
        Simulator::Stop();
    }
}

bool
WorkloadHelper::Measured(uint32_t id) const
{
    return m_measureFrom.IsZero() || m_startTime + m_plan.messages[id].release >= m_measureFrom;
}

bool
WorkloadHelper::AllDone() const
{
    return m_sched && m_sched->AllDone();
}

uint32_t
WorkloadHelper::GetCompleted() const
{
    return m_sched ? m_sched->GetCompleted() : 0;
}

void
WorkloadHelper::Finalize()
{
    if (m_finalized)
    {
        return;
    }
    m_finalized = true;
    for (uint32_t id = 0; id < m_plan.messages.size(); ++id)
    {
        const WorkloadMessage& m = m_plan.messages[id];
        if (m_done[id] || (m.src < m_appOfHost.size() && m_appOfHost[m.src] == nullptr))
        {
            continue; // completed, or another MPI rank's host records it
        }
        if (!Measured(id))
        {
            ++m_unfinishedWarmup; // not in the statistics, but it did not finish
            continue;
        }
        FctRecord f;
        f.src = m.src;
        f.dst = m.dst;
        f.bytes = m.bytes;
        f.start = m_started[id].IsStrictlyNegative() ? m_startTime + m.release : m_started[id];
        f.finish = f.start;
        f.completed = false;
        if (m_fabric)
        {
            f.ideal = IdealFctOf(*m_fabric, m, m_mtu, m_headerBytes); // as a finished one's
        }
        // What really happened to it (issue 9): the source transport's per-message
        // counters; a message never posted keeps zeros, which is then the truth.
        Ptr<DcnMessageTransport> t =
            m_fabric ? m_fabric->GetHosts().Get(m.src)->GetObject<DcnMessageTransport>() : nullptr;
        DcnMessageRecord r;
        if (t && !m_started[id].IsStrictlyNegative() && t->GetMessageProgress(id, r))
        {
            f.retransmissions = r.retransmissions;
            f.outOfOrder = r.outOfOrder;
            f.timeouts = r.timeouts;
            f.trimmed = r.trimmed;
            f.bytesAcked = r.bytesAcked;
        }
        m_stats.Add(f);
    }
}

} // namespace ns3
