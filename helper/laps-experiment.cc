#include "laps-experiment.h"

#include "dcn-pfc-helper.h"
#include "dcn-transport-helper.h"
#include "failure-helper.h"
#include "graph-topology-helper.h"
#include "laps-reorder-monitor.h"
#include "laps-tx-monitor.h"
#include "port-stats-helper.h"
#include "workload-helper.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/dcn-options.h"
#include "ns3/dcn-queue-disc.h"
#include "ns3/dcn-scheme.h"
#include "ns3/dcn-switch-graph.h"
#include "ns3/dcn-switch-routing.h"
#include "ns3/double.h"
#include "ns3/forwarding-policy.h"
#include "ns3/log.h"
#include "ns3/packet-hops.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LapsExperiment");

namespace
{
const std::string LAPS_PATHS_SUFFIX = "-laps-paths";

/** The default of a uinteger attribute (as --ns3::T::A or Config::SetDefault left it) is > 0. */
bool
UintegerDefaultSet(const char* typeName, const char* attribute)
{
    TypeId::AttributeInformation info;
    if (!TypeId::LookupByName(typeName).LookupAttributeByName(attribute, &info))
    {
        return false;
    }
    Ptr<const UintegerValue> v = DynamicCast<const UintegerValue>(info.initialValue);
    return v && v->Get() > 0;
}
} // namespace

std::string
LapsSchemeOf(const std::string& scheme, bool lapsPathBaselines)
{
    const bool routed = scheme == "ecmp" || scheme == "letflow" || scheme == "plb" ||
                        scheme == "conga" || scheme == "conweave";
    return lapsPathBaselines && routed ? scheme + LAPS_PATHS_SUFFIX : scheme;
}

void
LapsTransportOf(const std::string& name, std::string& cc, std::string& mode, bool authorsPlb)
{
    // ecmp-laps-paths etc.: the base scheme's transport (the route is the only change)
    const size_t cut = name.size() > LAPS_PATHS_SUFFIX.size()
                           ? name.size() - LAPS_PATHS_SUFFIX.size()
                           : std::string::npos;
    const std::string scheme =
        cut != std::string::npos && name.compare(cut, std::string::npos, LAPS_PATHS_SUFFIX) == 0
            ? name.substr(0, cut)
            : name;
    if (scheme == "laps")
    {
        cc = "laps";
        mode = "OutOfOrder";
    }
    else if (scheme == "plb" && authorsPlb)
    {
        // [A] load_default_configures: lbsName plb forces ccMode Dctcp (rdma-hw.cc
        // PLBHandleAckDctcp, rate-based) over the RoCE baselines' go-back-N (irnMode GBN)
        cc = "dctcp-rate";
        mode = "InOrder";
    }
    else if (scheme == "plb")
    {
        cc = "dctcp";
        mode = "OutOfOrder";
    }
    else if (scheme == "ecmp" || scheme == "letflow" || scheme == "conga" || scheme == "conweave" ||
             scheme == "ns3-global" || scheme == "ns3-global-ecmp")
    {
        cc = "dcqcn"; // the paper's RoCE baselines: go-back-N + DCQCN (spec 3)
        mode = "InOrder";
    }
    else
    {
        // not a baseline of the paper (e.g. ops, reps): its registered congestion control
        // over the selective-repeat transport, as in dcn-lb-compare
        cc = DcnSchemeRegistry::Has(scheme) ? DcnSchemeRegistry::Get(scheme).congestionControl
                                            : "dctcp";
        mode = "OutOfOrder";
    }
}

void
LapsPaperDefaults()
{
    Config::SetDefault("ns3::DcnWorkloadHelper::ConnectionPolicy", StringValue("NewPerMessage"));
    Config::SetDefault("ns3::DcnLetflowForwardingPolicy::FlowletTimeout",
                       TimeValue(MicroSeconds(50)));
    Config::SetDefault("ns3::DcnCongaForwardingPolicy::FlowletTimeout",
                       TimeValue(MicroSeconds(50)));
    Config::SetDefault("ns3::DcnCongaForwardingPolicy::AnyTopology", BooleanValue(true));
    Config::SetDefault("ns3::DcnConWeaveForwardingPolicy::AnyTopology", BooleanValue(true));
    // spec 3: the RoCE baselines' DCQCN with the LAPS authors' values ([A])
    Config::SetDefault("ns3::DcqcnCc::Preset", StringValue("LapsAuthors"));
    // spec 3 / [A]: the notification point of [A] (HPCC-simulator Dcqcn_mlx mode with
    // l2AckIntervalInByte 1, CONFIG_DCQCN.txt): every data packet is ACKed and every ACK of a
    // CE-marked packet echoes the CNP, so a CNP per CE-marked packet (CnpInterval 0, not
    // SIGCOMM'15's one per 50 us); the reaction point's 4-us rate-decrease interval
    // (LapsAuthors preset) then bounds the cuts to one per 4 us, as [A]'s CheckRateDecreaseMlx
    // (review s44 L1).  Set before the options are parsed: a user's
    // --ns3::DcnTransport::CnpInterval wins.
    Config::SetDefault("ns3::DcnTransport::CnpInterval", TimeValue(Seconds(0)));
}

double
LapsAuthorsLoadScale(const std::string& topo)
{
    // [A] TFC-All.txt: per-pair loadfactor x destinations (doc/laps.rst "The authors'
    // simulator: loads, PLB and windows")
    if (topo == "laps-df")
    {
        return 143 * 0.0091;
    }
    if (topo == "laps-rail")
    {
        return 63 * 0.0158;
    }
    return 1.0;
}

const std::vector<std::pair<std::string, std::string>>&
LapsAuthorsAttributeDefaults()
{
    static const std::vector<std::pair<std::string, std::string>> v = {
        // L2: [A]'s per-path timer, 200 x 2 x the path's latest latency (doc/laps.rst "The
        // authors' simulator"), not the paper's 2 realVal
        {"ns3::LapsPathSelector::PathTimeoutFactor", "400"},
        // L11 / L12: [A] normalises the softmax and sizes the in-flight window by the largest
        // unloaded delay (no queuing margin)
        {"ns3::LapsPathSelector::SoftmaxNorm", "unloaded"},
        {"ns3::LapsPathSelector::InflightCapBasis", "unloaded"},
        // L13: [A] C00017 run.py passes --flowletTimoutInUs with its parser default 10
        {"ns3::DcnLetflowForwardingPolicy::FlowletTimeout", "10us"},
        {"ns3::DcnCongaForwardingPolicy::FlowletTimeout", "10us"},
        {"ns3::DcnLapsPathsSelector::FlowletTimeout", "10us"},
        // [A] SwitchNode::GetCongaBestPath(key, 4) on every new flow and flowlet timeout: 4
        // consecutive paths of the pair's list from a uniform start, ties uniform
        {"ns3::DcnCongaLapsForwardingPolicy::PathSamples", "4"},
        {"ns3::DcnCongaLapsForwardingPolicy::TiesPreferCurrent", "false"},
        // [A] SwitchNode::GetCongaEgressPort piggy-backs, on every packet, the metric of a
        // path of the reverse pair drawn by std::rand() % pathNum (CONGA Sec. 3.4: round robin)
        {"ns3::DcnCongaLapsForwardingPolicy::FeedbackChoice", "Random"},
        // [A] SwitchNode's constructor: DRE decay every m_dreTime = 200 us by m_alpha = 0.2
        // (tau = 1 ms, against CONGA's 160 us); its aging time 10 ms is our Aging already
        {"ns3::DcnCongaForwardingPolicy::DreInterval", "200us"},
        {"ns3::DcnCongaForwardingPolicy::DreAlpha", "0.2"},
        // [A]'s ConWeaveRouting constructor at C00017's commit 4a4be64 (no SetConstants call,
        // no configuration key reaches them): reply slack 80 ns, TX expiry 10 us, path pause
        // 4 us, extra VOQ flush 32 us (default VOQ wait 200 us = our ResumeTime already)
        {"ns3::DcnConWeaveForwardingPolicy::ReplyDeadlineExtra", "80ns"},
        {"ns3::DcnConWeaveForwardingPolicy::InactiveTime", "10us"},
        {"ns3::DcnConWeaveForwardingPolicy::PathBusyTime", "4us"},
        {"ns3::DcnConWeaveForwardingPolicy::ResumeExtra", "32us"},
        // L5: [A]'s PLB counts the CNP flag of its go-back-N NACKs (out of sequence) in a
        // round's congested fraction (rdma-hw.cc PlbUpdateState reads dctcp.m_ecnCnt)
        {"ns3::DcnPlbPathSelector::NackIsCongestion", "true"},
        // [A]'s PLB only suspends after an RTO (plb_update_state_upon_rto); its go-back on
        // a timeout keeps the path
        {"ns3::DcnPlbPathSelector::RepathOnRto", "false"},
        // [A] sets the CNP flag on every go-back-N NACK (ReceiverCheckSeq) and its DCQCN cuts
        // on it (ReceiveAck -> cnp_received_mlx)
        {"ns3::DcqcnCc::NackIsCnp", "true"},
        // [A]'s go-back-N receiver NACKs an expected PSN again at most every 500 us while
        // out-of-sequence packets arrive (RdmaHw::ReceiverCheckSeq, NACKInterval); its sender
        // arms the 4-ms timer on ACKs / NACKs only (RdmaHw::ReceiveAck).  Both act on
        // go-back-N (InOrder) connections only: the LAPS row (OutOfOrder) is unchanged
        {"ns3::DcnTransport::NackRepeatInterval", "500us"},
        {"ns3::DcnTransport::RtoStart", "LastAck"},
        // [A]'s go-back-N sender goes back on every NACK (ReceiveAck: Acknowledge(seq), then
        // RecoverQueue: snd_nxt = snd_una), with no stale-NACK filter
        {"ns3::DcnTransport::IgnoreStaleNacks", "false"}};
    return v;
}

void
LapsAuthorsDefaults()
{
    for (const auto& [name, value] : LapsAuthorsAttributeDefaults())
    {
        Config::SetDefault(name, StringValue(value));
    }
}

void
LapsStaggerStarts(WorkloadPlan& plan, Time window, Ptr<UniformRandomVariable> u, bool poisson)
{
    const double w = static_cast<double>(window.GetNanoSeconds());
    if (!poisson)
    {
        for (WorkloadMessage& m : plan.messages)
        {
            // n Poisson arrivals conditioned on the window are n uniform times in it
            m.release = NanoSeconds(static_cast<int64_t>(u->GetValue(0.0, w)));
        }
        return;
    }
    // [A] (generate_LLMA_rdma_flows_on_nodes, 4a4be642): exponential gaps of mean
    // window / n from the start, in the order of the senders' ids, not cut at the window
    std::vector<size_t> order(plan.messages.size());
    for (size_t i = 0; i < order.size(); ++i)
    {
        order[i] = i;
    }
    std::stable_sort(order.begin(), order.end(), [&plan](size_t a, size_t b) {
        const WorkloadMessage& x = plan.messages[a];
        const WorkloadMessage& y = plan.messages[b];
        return x.src != y.src ? x.src < y.src : x.dst < y.dst;
    });
    const double mean = order.empty() ? 0.0 : w / static_cast<double>(order.size());
    double t = 0;
    for (size_t i : order)
    {
        t += -mean * std::log(1.0 - u->GetValue(0.0, 1.0)); // U in [0, 1): finite
        plan.messages[i].release = NanoSeconds(static_cast<int64_t>(t));
    }
}

void
LapsApplyAuthorsEcn(Ptr<DcnTopology> t)
{
    // every port's queue disc; host NIC queues have no port rate and keep the fractions
    for (const DcnLinkInfo& l : t->GetLinks())
    {
        for (const auto& dev : {l.devA, l.devB})
        {
            if (Ptr<DcnQueueDisc> q = t->GetQueueDisc(dev))
            {
                q->SetAttribute("EcnKminPerGbps", UintegerValue(LapsAuthorsValues::KMIN_PER_GBPS));
                q->SetAttribute("EcnKmaxPerGbps", UintegerValue(LapsAuthorsValues::KMAX_PER_GBPS));
                q->SetAttribute("EcnPmax", DoubleValue(LapsAuthorsValues::PMAX));
                q->UpdateThresholds();
            }
        }
    }
}

LapsExperimentResult
RunLapsExperiment(const LapsExperimentConfig& c)
{
    NS_LOG_FUNCTION(c.topo << c.scheme << c.experiment);
    auto wall0 = std::chrono::steady_clock::now();
    LapsExperimentResult r;
    LapsTransportOf(c.scheme, r.cc, r.mode, c.authorsPlb);
    RngSeedManager::SetSeed(c.seed);
    RngSeedManager::SetRun(c.run);
    const bool ns3Routing = c.scheme == "ns3-global" || c.scheme == "ns3-global-ecmp";
    const std::string lb = ns3Routing ? "ecmp" : LapsSchemeOf(c.scheme, c.lapsPathBaselines);
    if (ns3Routing && c.pfc)
    {
        r.note = "skipped: PFC needs our switches (ns-3 Ipv4GlobalRouting nodes do not read PFC "
                 "frames); run with pfc off";
        return r;
    }
    // spec 4.1: 150 KB drop-tail per interface (without PFC; with PFC the switch's shared
    // buffer admits), 1000-B payload (1048-B frames [A])
    Config::SetDefault("ns3::DcnGraphTopology::QueueLimit",
                       QueueSizeValue(QueueSize(std::to_string(c.queueBytes) + "B")));
    Config::SetDefault("ns3::Ipv4GlobalRouting::RandomEcmpRouting",
                       BooleanValue(c.scheme == "ns3-global-ecmp"));
    Ptr<DcnGraphTopology> t =
        DcnTopologyPresets::Create(c.topo, c.topoParams, ns3Routing ? "global" : "minimal");
    Config::SetDefault("ns3::Ipv4GlobalRouting::RandomEcmpRouting", BooleanValue(false));
    std::string err = DcnSchemeRegistry::CheckForRun(lb, t->GetTopologyName(), "dcn", 0);
    if (!err.empty())
    {
        // a scheme registered for other topology families
        r.note = err.find("leaf-spine") != std::string::npos
                     ? "skipped: needs a 2-tier leaf-spine (" + t->GetTopologyName() + " is not)"
                     : "skipped: " + err;
        Simulator::Destroy();
        return r;
    }
    // [A]'s unified window applies to every flow: the RoCE baselines' and PLB's (authorsPlb)
    const bool setWindow = (r.cc == "dcqcn" || r.cc == "dctcp-rate") &&
                           c.dcqcnWindow != LapsExperimentConfig::WINDOW_AS_SET;
    if (setWindow)
    {
        r.dcqcnWindow = c.dcqcnWindow == LapsExperimentConfig::UNIFIED_WINDOW
                            ? t->GetMaxHostPairBdp(1048) // [A]'s 1048-B frames
                            : c.dcqcnWindow;
    }
    int64_t stream = 1;
    stream += t->AssignStreams(stream);
    stream = std::max<int64_t>(stream, 1000);
    DcnTransportHelper th;
    th.SetTransportAttribute("Mtu", UintegerValue(1000));
    th.SetTransportAttribute("Mode", StringValue(r.mode));
    // LAPS recovers per path (2 realVal); the transport timeout is a backstop ([A]: 8 ms)
    r.rto = lb == "laps" ? MilliSeconds(8) : c.baselineRto;
    th.SetTransportAttribute("Rto", TimeValue(r.rto));
    if (r.cc == "dctcp-rate")
    {
        // [A]'s DCTCP mode reads CE from the ACK's CNP flag: no CNP packets
        th.SetTransportAttribute("Cnp", StringValue("Off"));
    }
    th.Install(t->GetHosts());
    if (c.authorsEcn)
    {
        LapsApplyAuthorsEcn(t);
    }
    // without PFC, [A]'s thresholds and buffer come with the lossy shared buffer (its
    // dynamic threshold admits; no 150-KB per-queue cap), also when given by hand: a
    // 400-KB Kmin above a 150-KB drop-tail limit would never mark
    const bool sharedBuffer = c.pfc || c.authorsEcn || c.authorsBuffer ||
                              UintegerDefaultSet("ns3::DcnQueueDisc", "EcnKminPerGbps") ||
                              UintegerDefaultSet("ns3::DcnSwitchBuffer", "BufferPerPort");
    if (sharedBuffer)
    {
        // after the transports: a paused NIC stops its transport's data scheduler
        DcnPfcHelper pfc; // 32 MB shared buffer per switch (spec 4.1), dynamic threshold
        pfc.SetPfc(c.pfc);
        if (c.authorsBuffer)
        {
            pfc.SetBufferAttribute("BufferPerPort",
                                   UintegerValue(LapsAuthorsValues::BUFFER_PER_PORT));
        }
        std::string perr = pfc.Install(t);
        if (!perr.empty())
        {
            throw DcnOptionError(perr);
        }
    }
    Ptr<FailureHelper> fh = CreateObject<FailureHelper>(t);
    if (c.loss > 0)
    {
        for (const auto& l : t->GetLinks())
        {
            fh->SetLinkDropRate(l.id, c.loss, Time(0));
        }
    }
    Ptr<LapsReorderMonitor> mon = CreateObject<LapsReorderMonitor>();
    mon->Install(t->GetHosts());
    Ptr<LapsTxMonitor> txMon;
    if (c.pathStats)
    {
        txMon = CreateObject<LapsTxMonitor>();
        txMon->SetAttribute("GapThreshold", TimeValue(c.gapThreshold));
        txMon->Install(t->GetHosts());
    }
    Ptr<WorkloadHelper> wl = CreateObject<WorkloadHelper>();
    stream += wl->AssignStreams(stream);
    stream += fh->AssignStreams(stream);
    // staggered starts (allreduce / allscatter): a stream of their own after the others, so
    // that the streams of a run without them are unchanged
    const bool stagger = c.staggerStarts.IsStrictlyPositive() && c.experiment != "all2all";
    Ptr<UniformRandomVariable> startRv;
    if (stagger)
    {
        startRv = CreateObject<UniformRandomVariable>();
        startRv->SetStream(stream++);
    }
    if (c.experiment == "all2all")
    {
        wl->SetAttribute("Workload", StringValue("cdf"));
        wl->SetAttribute("Cdf", StringValue(c.cdf));
        wl->SetAttribute("Load", DoubleValue(c.load));
        wl->SetAttribute("Duration", TimeValue(c.duration));
        if (c.loadScale != 1.0)
        {
            wl->SetAttribute("LoadScale", DoubleValue(c.loadScale));
        }
    }
    else if (c.experiment == "allreduce")
    {
        const uint32_t n = t->GetNHosts();
        NS_ABORT_MSG_IF(c.incastReceiver >= n || c.incastDegree >= n,
                        "LapsExperiment: incast receiver " << c.incastReceiver << " / degree "
                                                           << c.incastDegree << "; allowed < "
                                                           << n);
        wl->SetAttribute("Workload", StringValue("incast"));
        wl->SetAttribute("IncastReceiver", UintegerValue(c.incastReceiver));
        wl->SetAttribute("IncastDegree", UintegerValue(c.incastDegree ? c.incastDegree : n - 1));
        wl->SetAttribute("MessageSize", UintegerValue(c.msgBytes));
        if (c.incastSenders.empty() && stagger)
        {
            // the helper's incast plan, made here to stagger its starts
            WorkloadPlan plan = WorkloadPlanner::Incast(n,
                                                        c.incastDegree ? c.incastDegree : n - 1,
                                                        c.incastReceiver,
                                                        c.msgBytes,
                                                        0,
                                                        0);
            LapsStaggerStarts(plan, c.staggerStarts, startRv, c.staggerPoisson);
            wl->SetPlan(plan);
        }
        else if (!c.incastSenders.empty())
        {
            // an explicit sender set (laps-paper --senders): one message each
            WorkloadPlan plan;
            plan.name = "incast";
            plan.nHosts = n;
            for (uint32_t s : c.incastSenders)
            {
                if (s >= n || s == c.incastReceiver)
                {
                    throw DcnOptionError("LapsExperiment: incast sender " + std::to_string(s) +
                                         "; allowed: a host < " + std::to_string(n) +
                                         " other than the receiver");
                }
                WorkloadMessage m;
                m.src = s;
                m.dst = c.incastReceiver;
                m.bytes = c.msgBytes;
                plan.messages.push_back(m);
            }
            if (stagger)
            {
                LapsStaggerStarts(plan, c.staggerStarts, startRv, c.staggerPoisson);
            }
            wl->SetPlan(plan);
        }
    }
    else if (c.experiment == "allscatter")
    {
        // paper Table II: AllScatter = sv[1] -> sv[j]; spec 4.2: one GPU sends the message
        // to every other GPU.  The root is the allreduce receiver, the destinations its
        // senders; every message starts at once.
        const uint32_t n = t->GetNHosts();
        NS_ABORT_MSG_IF(c.incastReceiver >= n || c.incastDegree >= n,
                        "LapsExperiment: allscatter root " << c.incastReceiver << " / degree "
                                                           << c.incastDegree << "; allowed < "
                                                           << n);
        std::vector<uint32_t> peers = c.incastSenders;
        if (peers.empty())
        {
            const uint32_t degree = c.incastDegree ? c.incastDegree : n - 1;
            for (uint32_t k = 1; k <= degree; ++k)
            {
                peers.push_back((c.incastReceiver + k) % n);
            }
        }
        WorkloadPlan plan;
        plan.name = "allscatter";
        plan.nHosts = n;
        for (uint32_t d : peers)
        {
            if (d >= n || d == c.incastReceiver)
            {
                throw DcnOptionError("LapsExperiment: allscatter destination " + std::to_string(d) +
                                     "; allowed: a host < " + std::to_string(n) +
                                     " other than the root");
            }
            WorkloadMessage m;
            m.src = c.incastReceiver;
            m.dst = d;
            m.bytes = c.msgBytes;
            plan.messages.push_back(m);
        }
        if (stagger)
        {
            LapsStaggerStarts(plan, c.staggerStarts, startRv, c.staggerPoisson);
        }
        wl->SetPlan(plan);
    }
    else
    {
        throw DcnOptionError("LapsExperiment: experiment '" + c.experiment +
                             "'; allowed: all2all, allreduce, allscatter");
    }
    wl->SetAttribute("LoadBalancer", StringValue(lb));
    wl->SetAttribute("CongestionControl", StringValue(r.cc));
    if (setWindow)
    {
        // this run's DCQCN connections only; the attribute's global default is untouched
        wl->AddCongestionControlAttribute(r.cc == "dcqcn" ? "ns3::DcqcnCc" : "ns3::DctcpRateCc",
                                          "Window",
                                          UintegerValue(r.dcqcnWindow));
    }
    wl->SetAttribute("StartTime", TimeValue(MicroSeconds(1)));
    wl->Install(t);
    // receiver-link utilisation of an incast: (arrival time, frame bytes) of new data
    std::vector<std::pair<int64_t, uint32_t>> rx;
    const bool incast = c.experiment == "allreduce";
    const bool scatter = c.experiment == "allscatter";
    Ptr<DcnTransport> root =
        scatter ? DcnTransportHelper::Get(t->GetHosts().Get(c.incastReceiver)) : nullptr;
    if (root)
    {
        // allscatter: the root's transmit link, every data frame it sends
        root->TraceConnectWithoutContext("Tx",
                                         MakeBoundCallback(
                                             +[](std::vector<std::pair<int64_t, uint32_t>>* v,
                                                 Ptr<const Packet> p,
                                                 const DcnHeader&) {
                                                 // frame: UDP + DcnHeader + payload (p) + IPv4 20 +
                                                 // PPP 2
                                                 v->emplace_back(Simulator::Now().GetNanoSeconds(),
                                                                 p->GetSize() + 22);
                                             },
                                             &rx));
    }
    if (incast)
    {
        Ptr<DcnTransport> tr = DcnTransportHelper::Get(t->GetHosts().Get(c.incastReceiver));
        if (tr)
        {
            tr->TraceConnectWithoutContext(
                "Rx",
                MakeBoundCallback(
                    +[](std::vector<std::pair<int64_t, uint32_t>>* v,
                        Ptr<const Packet>,
                        const DcnHeader& h,
                        Ipv4Address,
                        bool dup) {
                        if (!dup)
                        {
                            // frame: payload + DcnHeader + UDP 8 + IPv4 20 + PPP 2
                            v->emplace_back(Simulator::Now().GetNanoSeconds(),
                                            h.payloadSize + h.GetSerializedSize() + 30);
                        }
                    },
                    &rx));
        }
    }
    // queue occupancy per link class (the graph's link kind and switch roles)
    std::vector<std::string> portClass; // per PortStatsHelper port
    std::map<std::string, std::pair<double, uint64_t>> qSum;
    std::map<std::string, double> qMax;
    Ptr<PortStatsHelper> ps;
    if (c.queueSampling.IsStrictlyPositive())
    {
        const dcn::SwitchGraph& g = t->GetGraph();
        std::map<uint32_t, uint32_t> swOf; // node id -> graph switch index
        NodeContainer sws = t->GetAllSwitches();
        for (uint32_t i = 0; i < sws.GetN(); ++i)
        {
            swOf[sws.Get(i)->GetId()] = i;
        }
        std::map<std::pair<uint32_t, uint32_t>, dcn::LinkKind> kind;
        for (const auto& gl : g.links)
        {
            kind[{std::min(gl.a, gl.b), std::max(gl.a, gl.b)}] = gl.kind;
        }
        ps = CreateObject<PortStatsHelper>();
        ps->SetAttribute("Interval", TimeValue(c.queueSampling));
        ps->SetAttribute("IncludeHosts", BooleanValue(true));
        ps->Install(t, Time(0), c.experiment == "all2all" ? c.duration : c.stop);
        for (const DcnPortInfo& pi : ps->GetPorts())
        {
            const DcnLinkInfo& l = t->GetLink(pi.linkId);
            Ptr<Node> other = pi.node == l.a ? l.b : l.a;
            auto role = [&](Ptr<Node> n) -> std::string {
                auto it = swOf.find(n->GetId());
                return it == swOf.end() ? "host" : dcn::ToString(g.switches[it->second].role);
            };
            const std::string from = role(pi.node);
            const std::string to = role(other);
            std::string k = "host";
            if (from != "host" && to != "host")
            {
                const uint32_t a = swOf[pi.node->GetId()];
                const uint32_t b = swOf[other->GetId()];
                k = dcn::ToString(kind[{std::min(a, b), std::max(a, b)}]);
            }
            portClass.push_back(k + " " + from + "->" + to);
        }
        ps->TraceConnectWithoutContext(
            "Sample",
            Callback<void, const DcnPortSample&>([&](const DcnPortSample& x) {
                const std::string& k = portClass[x.port];
                auto& e = qSum[k];
                e.first += x.queueBytes;
                e.second++;
                qMax[k] = std::max(qMax[k], static_cast<double>(x.queueBytes));
            }));
    }
    DcnPacketHopCounter hops; // the one definition of packet hops (packet-hops.h)
    hops.Install(t->GetHosts());
    hops.Install(t->GetAllSwitches());
    Simulator::Stop(c.stop);
    Simulator::Run();
    r.packetHops = hops.Get();
    r.events = Simulator::GetEventCount();
    wl->Finalize();
    FctStats st = wl->GetStats();
    st.SetRunEnd(Simulator::Now());
    r.s = st.Summarize();
    r.flows = st.GetRecords();
    if ((incast || scatter) && rx.size() > 1)
    {
        const double bps = static_cast<double>(t->GetHostLinkRate().GetBitRate());
        int64_t firstDone = std::numeric_limits<int64_t>::max();
        for (const FctRecord& f : r.flows)
        {
            if (f.completed)
            {
                firstDone = std::min(firstDone, f.finish.GetNanoSeconds());
            }
        }
        const int64_t begin = rx.front().first;
        uint64_t all = 0;
        uint64_t active = 0;
        int64_t activeEnd = begin;
        for (const auto& x : rx)
        {
            if (x.first > begin) // the first frame's bytes arrived before 'begin'
            {
                all += x.second;
                if (x.first <= firstDone)
                {
                    active += x.second;
                    activeEnd = x.first;
                }
            }
        }
        const int64_t end = rx.back().first;
        if (end > begin)
        {
            r.rxUtil = all * 8.0 / (bps * (end - begin) * 1e-9);
        }
        if (activeEnd > begin)
        {
            r.rxUtilAllActive = active * 8.0 / (bps * (activeEnd - begin) * 1e-9);
        }
    }
    if (txMon)
    {
        r.gaps = txMon->GetGaps();
        r.gapsAbove = txMon->GetGapsAbove();
        r.gapMeanUs = txMon->GetMeanGapUs();
        r.gapMedianUs = txMon->GetGapQuantileUs(0.5);
        r.gapP99Us = txMon->GetGapQuantileUs(0.99);
        r.gapMaxUs = txMon->GetMaxGapUs();
        for (const LapsTxMonitor::PathClass& pc : txMon->PathClasses(&r.singleClassPairs))
        {
            LapsExperimentResult::PathClass x;
            x.switches = pc.switches;
            x.paths = pc.paths;
            x.packets = pc.packets;
            x.pairs = pc.pairs;
            x.share = pc.share;
            r.pathClasses.push_back(x);
        }
    }
    r.reorderFrac = mon->GetPackets() ? double(mon->GetOutOfOrder()) / mon->GetPackets() : 0;
    r.reorderMeanB = mon->GetMeanBytes();
    r.reorderAbove30k = mon->GetFractionAbove();
    for (uint32_t i = 0; i < t->GetLinks().size(); ++i)
    {
        const DcnLinkInfo& l = t->GetLink(i);
        for (auto dev : {l.devA, l.devB})
        {
            Ptr<DcnQueueDisc> q = t->GetQueueDisc(dev);
            if (q)
            {
                r.drops += q->GetNDropped();
                r.pfcPauses += q->GetNPauseFramesSent();
                r.pausedUs += q->GetPausedTime().GetSeconds() * 1e6;
            }
        }
    }
    // packets a switch policy took and dropped (ConWeave's full reorder queues)
    NodeContainer sws = t->GetAllSwitches();
    for (uint32_t i = 0; i < sws.GetN(); ++i)
    {
        Ptr<DcnSwitchRouting> sr = t->GetRouting(sws.Get(i));
        if (sr && sr->GetForwardingPolicy())
        {
            r.drops += sr->GetForwardingPolicy()->GetDrops();
        }
    }
    for (const auto& [k, v] : qSum)
    {
        LapsExperimentResult::QueueClass q;
        q.cls = k;
        q.ports = static_cast<uint32_t>(std::count(portClass.begin(), portClass.end(), k));
        q.meanBytes = v.second ? v.first / v.second : 0;
        q.maxBytes = qMax[k];
        r.queues.push_back(q);
    }
    if (ps)
    {
        ps->Dispose();
    }
    wl->Dispose();
    Simulator::Destroy();
    r.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    return r;
}

} // namespace ns3
