/*
 * dcn-lb-compare: the flagship example.
 *
 * Builds a fat tree or a graph preset (--topo, --topoParams, --routing), runs one
 * workload under each load balancer of --lb with
 * the same seed (a fresh simulation per load balancer), and prints a
 * side-by-side table of flow completion times and fabric counters.
 *
 *   ./build/dcn-lb-compare                       # 32 hosts, 400G, permutation 2 MiB, ecmp,ops,reps
 *   ./build/dcn-lb-compare --topo=reps128 --workload=cdf --cdf=websearch --load=0.8
 *   ./build/dcn-lb-compare --workload=tornado --msgSize=16MiB --failLink=3 --failStart=50us
 *   ./build/dcn-lb-compare --PrintHelp
 *
 * Last line: "BENCH events=<n> packet_hops=<n>" (summed over all runs).
 * Exit status: 0, 2 (bad input, one line on stderr), 3 (a flow did not finish).
 * (Over 600 lines: every option of the flagship with its range and cross-option
 * checks is declared in Main(); splitting them out needs a non-.cc file in examples/,
 * left for a follow-up.)
 */
#include "ns3/cc-registry.h"
#include "ns3/core-module.h"
#include "ns3/dcn-example-args.h"
#include "ns3/dcn-failure-spec-parse.h"
#include "ns3/dcn-graph-checks.h"
#include "ns3/dcn-graph-routing.h"
#include "ns3/dcn-header.h"
#include "ns3/dcn-options.h"
#include "ns3/dcn-pcap-helper.h"
#include "ns3/dcn-pfc-helper.h"
#include "ns3/dcn-port-device.h"
#include "ns3/dcn-queue-disc.h"
#include "ns3/dcn-scheme.h"
#include "ns3/dcn-switch-routing.h"
#include "ns3/dcn-tcp-transport-helper.h"
#include "ns3/dcn-topo-builders.h"
#include "ns3/dcn-topology-base.h"
#include "ns3/dcn-transport-helper.h"
#include "ns3/double.h"
#include "ns3/failure-helper.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/fct-stats.h"
#include "ns3/flow-size-cdf.h"
#include "ns3/forwarding-policy.h"
#include "ns3/graph-topology-helper.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/packet-hops.h"
#include "ns3/path-selector.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"
#include "ns3/workload-helper.h"
#include "ns3/workload-plan.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("DcnLbCompare");

using namespace ns3::dcnargs;

namespace
{

struct Options
{
    std::string lbs{"ecmp,ops,reps"};
    std::string topo{"small"};
    uint32_t hosts{0}; //!< hosts per ToR (0 = preset)
    uint32_t tors{0};
    uint32_t tiers{0};
    uint32_t spines{0};
    uint32_t pods{0};
    uint64_t rateBps{0};      //!< 0 = preset
    bool hasLinkDelay{false}; //!< false = preset
    Time linkDelay{0};
    uint32_t mtu{4096};
    uint32_t queue{0}; //!< packets per port data band (0 = fabric default, 1 BDP)
    std::string workload{"permutation"};
    std::string msgSize{"2MiB"}; //!< text as given (printed in the table header)
    uint64_t msgBytes{2 * 1024 * 1024};
    std::string cdf{"websearch"};
    double load{0.6};
    std::string duration{"200us"}; //!< text as given
    Time durationTime{MicroSeconds(200)};
    std::string warmup{"0us"}; //!< text as given
    Time warmupTime{Seconds(0)};
    uint32_t flows{0};
    uint32_t parallel{4};
    uint32_t incastDegree{8};
    uint32_t bystanders{0};
    std::string cc;               //!< "" = each scheme's own (CcFor)
    std::string attributeArgs;    //!< the --ns3::Type::Attr=V given (DcnOptions)
    std::string transport{"dcn"}; //!< dcn (message transport), roce (in-order + DCQCN + PFC) or tcp
    bool pfc{false};              //!< PFC and shared-buffer switches (default: on for roce only)
    /** DCQCN send window: "" = ns3::DcqcnCc::Window as set, "unified" = the largest host-pair
     *  BDP of the built topology (DcnTopology::GetMaxHostPairBdp), else bytes (0 = none) */
    std::string roceWindow;
    uint64_t roceWindowBytes{0};       //!< parsed: dcnopt::UNIFIED_WINDOW or bytes
    std::vector<std::string> failures; //!< --failures items (syntax checked)
    int32_t failLink{-1};
    std::string failStart{"0us"};
    Time failStartTime{0};
    std::string failEnd{"0us"};
    Time failEndTime{0};
    int32_t degradeLink{-1};
    std::string degradeRate; //!< empty: half the link's rate
    bool trim{false};
    uint32_t ackRatio{1};
    uint32_t evs{65536};
    std::string csv{""};
    std::string json{""};
    std::string plot{""};
    bool quiet{false};
    Time stopTime{MilliSeconds(100)};
    bool allowUnfinished{false};
    std::string topoParams{""}; //!< graph presets: key=value,... overrides
    std::string routing{""};    //!< switch policy ("" = the topology's default)
    std::string fabric{DcnTopologyBase::DefaultFabricMode()}; //!< ipv4 or fast (issue 13)
    bool printLinks{false};
    std::string dot{""};
    std::string pcap{""};                     //!< port list (DcnPcapHelper)
    std::string pcapPrefix{"dcn-lb-compare"}; //!< files <prefix>-<lb>-<link>-<node>.pcap
};

const std::vector<std::string> kFatTreePresets = {"small", "reps128", "reps128-3tier", "reps1024"};

bool
IsFatTree(const std::string& topo)
{
    return std::find(kFatTreePresets.begin(), kFatTreePresets.end(), topo) != kFatTreePresets.end();
}

/** Switch policy TypeId or short name of --routing on the fat tree. */
std::string
FatTreePolicy(const std::string& routing)
{
    auto shorts = DcnForwardingPolicyShortNames();
    if (std::find(shorts.begin(), shorts.end(), routing) != shorts.end())
    {
        return routing;
    }
    return DcnRoutingPolicies::TypeIdName(routing); // throws DcnOptionError if unknown
}

/** --routing names accepted on the topology (fat tree: short names + routing policies). */
std::vector<std::string>
RoutingNames(const std::string& topo)
{
    std::vector<std::string> v = DcnRoutingPolicies::Names();
    if (IsFatTree(topo))
    {
        for (const auto& n : DcnForwardingPolicyShortNames())
        {
            if (std::find(v.begin(), v.end(), n) == v.end())
            {
                v.push_back(n);
            }
        }
        for (const char* graphOnly : {"spritz", "valiant-t"}) // Dragonfly / Slim Fly only
        {
            v.erase(std::remove(v.begin(), v.end(), graphOnly), v.end());
        }
    }
    return v;
}

/** The congestion control scheme `lb` runs: --cc if given, else the scheme's default. */
std::string
CcFor(const Options& o, const std::string& lb)
{
    return o.cc.empty() ? DcnSchemeRegistry::DefaultCongestionControl(lb, o.transport) : o.cc;
}

/** Per-run outcome. */
struct RunResult
{
    std::string lb;
    FctStats stats;
    FctSummary summary;
    FabricCounters counters;
    uint64_t events{0};
    double wallSeconds{0};
    Time simEnd{0};
    uint32_t unfinishedWarmup{0}; //!< --warmup flows that did not finish (not in stats)
    std::string planNote;         //!< the cdf plan's settings given as --ns3:: attributes
};

Ptr<FatTreeHelper> MakeFabric(const Options& o);

/** The built topology of --topo (fat-tree preset or graph preset) with --routing. */
Ptr<DcnTopology>
MakeTopology(const Options& o)
{
    if (IsFatTree(o.topo))
    {
        Ptr<FatTreeHelper> ft = MakeFabric(o);
        if (!o.routing.empty())
        {
            ft->SetAttribute("ForwardingPolicy", StringValue(FatTreePolicy(o.routing)));
        }
        ft->Build();
        return ft;
    }
    // graph presets take the device MTU, trimming and queue from Config defaults
    Config::SetDefault("ns3::DcnGraphTopology::Mtu",
                       UintegerValue(std::max<uint32_t>(4500, o.mtu + 400)));
    Config::SetDefault("ns3::DcnGraphTopology::TrimEnabled", BooleanValue(o.trim));
    if (o.queue)
    {
        Config::SetDefault("ns3::DcnGraphTopology::QueueLimit",
                           QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, o.queue)));
    }
    return DcnTopologyPresets::Create(o.topo,
                                      DcnTopologyPresets::ParseOverrides(o.topoParams),
                                      o.routing.empty() ? "minimal" : o.routing);
}

Ptr<FatTreeHelper>
MakeFabric(const Options& o)
{
    Ptr<FatTreeHelper> ft;
    if (o.topo == "reps128")
    {
        ft = FatTreeHelper::RepsPaper128();
    }
    else if (o.topo == "reps128-3tier")
    {
        ft = FatTreeHelper::RepsPaper128ThreeTier();
    }
    else if (o.topo == "reps1024")
    {
        ft = FatTreeHelper::RepsPaper1024();
    }
    else if (o.topo == "small")
    {
        // 32 hosts: 4 ToRs x 8 hosts, 8 spines (1:1), REPS link parameters.
        ft = FatTreeHelper::RepsPaper128();
        ft->SetAttribute("NumTors", UintegerValue(4));
    }
    else
    {
        // not reached: --topo is a checked choice
        throw DcnOptionError("option --topo: value '" + o.topo +
                             "' is not a preset; allowed: small, reps128, reps128-3tier, reps1024");
    }
    if (o.tiers)
    {
        ft->SetAttribute("Tiers", UintegerValue(o.tiers));
    }
    if (o.hosts)
    {
        ft->SetAttribute("HostsPerTor", UintegerValue(o.hosts));
    }
    if (o.tors)
    {
        // the effective tier count: --tiers, else the preset's (reps128-3tier: 3)
        UintegerValue tiers;
        ft->GetAttribute("Tiers", tiers);
        ft->SetAttribute(tiers.Get() == 3 ? "TorsPerPod" : "NumTors", UintegerValue(o.tors));
    }
    if (o.pods)
    {
        ft->SetAttribute("NumPods", UintegerValue(o.pods));
    }
    if (o.spines)
    {
        ft->SetAttribute("UplinksPerTor", UintegerValue(o.spines));
    }
    if (o.rateBps)
    {
        DataRate r(o.rateBps);
        ft->SetAttribute("HostLinkRate", DataRateValue(r));
        ft->SetAttribute("FabricLinkRate", DataRateValue(r));
        ft->SetAttribute("CoreLinkRate", DataRateValue(r));
    }
    if (o.hasLinkDelay)
    {
        ft->SetAttribute("LinkDelay", TimeValue(o.linkDelay));
    }
    // Device MTU must carry the payload plus IPv4 + UDP + DcnHeader (+ EV lists).
    ft->SetAttribute("Mtu", UintegerValue(std::max<uint32_t>(4500, o.mtu + 400)));
    if (o.queue)
    {
        ft->SetAttribute("QueueLimit", QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, o.queue)));
    }
    ft->SetAttribute("TrimEnabled", BooleanValue(o.trim));
    return ft;
}

/**
 * The fat tree of --topo and its size options, checked before anything is built: at
 * least 2 hosts, and the topology limits (dcn::CheckTopologySize).  Sizes from the
 * helper's attributes in 64 bits (no wrap); the line names the size options given.
 */
std::string
CheckFatTreeSize(const Options& o, Ptr<FatTreeHelper> ft, uint64_t* nHosts)
{
    auto attr = [&ft](const char* name) {
        UintegerValue v;
        ft->GetAttribute(name, v);
        return uint64_t(v.Get());
    };
    const bool three = attr("Tiers") == 3;
    const uint64_t tors = three ? attr("NumPods") * attr("TorsPerPod") : attr("NumTors");
    const uint64_t hosts = tors * attr("HostsPerTor");
    const uint64_t links =
        tors * attr("UplinksPerTor") +
        (three ? attr("NumPods") * attr("UplinksPerTor") * attr("AggUplinks") : 0);
    *nHosts = hosts;
    std::string what = "--topo=" + o.topo;
    for (const auto& [name, v] : {std::pair<const char*, uint32_t>{"tiers", o.tiers},
                                  {"pods", o.pods},
                                  {"tors", o.tors},
                                  {"hosts", o.hosts},
                                  {"spines", o.spines}})
    {
        what += v ? std::string(" --") + name + "=" + std::to_string(v) : "";
    }
    what += " (" + std::to_string(tors) + " ToRs x " + std::to_string(attr("HostsPerTor")) +
            " hosts, " + std::to_string(attr("UplinksPerTor")) + " uplinks per ToR)";
    // the option to name: the first given of those that make the count
    auto pick = [&o](std::initializer_list<std::pair<const char*, uint32_t>> l) {
        for (const auto& [name, v] : l)
        {
            if (v)
            {
                return std::string(name);
            }
        }
        return std::string("topo");
    };
    const std::string size = dcn::CheckTopologySize(hosts, links);
    if (!size.empty())
    {
        const std::string opt = hosts > dcn::MAX_TOPOLOGY_HOSTS
                                    ? pick({{"hosts", o.hosts}, {"tors", o.tors}, {"pods", o.pods}})
                                    : pick({{"spines", o.spines},
                                            {"tors", o.tors},
                                            {"pods", o.pods},
                                            {"hosts", o.hosts}});
        return "option --" + opt + ": " + what + " " + size;
    }
    if (hosts < 2)
    {
        return "option --" + pick({{"hosts", o.hosts}, {"tors", o.tors}, {"pods", o.pods}}) + ": " +
               what + " gives " + std::to_string(hosts) +
               " host; allowed: at least 2 hosts (a sender and a receiver)";
    }
    return "";
}

RunResult
RunOne(const Options& o,
       const std::string& lb,
       const std::vector<std::pair<std::string, std::string>>& failures)
{
    RunResult res;
    res.lb = lb;
    auto wall0 = std::chrono::steady_clock::now();

    Ptr<DcnTopology> ft;
    try
    {
        ft = MakeTopology(o);
    }
    catch (const DcnOptionError& e)
    {
        // a switch policy that refuses this topology (e.g. CONGA on 3 tiers)
        throw DcnOptionError(o.routing.empty() ? std::string(e.what())
                                               : "option --routing: value '" + o.routing +
                                                     "' cannot run here: " + e.what());
    }
    if (!o.pcap.empty())
    {
        std::vector<DcnPcapPort> ports;
        std::string err = DcnPcapHelper::ParsePortList(*ft, o.pcap, ports);
        if (!err.empty())
        {
            throw DcnOptionError(err.find("--pcap") != std::string::npos ? err
                                                                         : "option --pcap: " + err);
        }
        DcnPcapHelper::Enable(*ft, ports, o.pcapPrefix + "-" + lb);
    }
    static bool dotWritten = false;
    if (!o.dot.empty() && !dotWritten)
    {
        dotWritten = true;
        Ptr<DcnGraphTopology> g = DynamicCast<DcnGraphTopology>(ft);
        std::ofstream f(o.dot);
        f << (g ? g->ToDot() : TopologyDot(*ft));
        if (!f)
        {
            throw DcnOptionError("option --dot: cannot write " + o.dot);
        }
    }

    uint64_t roceWindow = 0; // bytes, when --roceWindow is given
    if (!o.roceWindow.empty())
    {
        // every DCQCN connection of this run gets this window (set on the workload below)
        const uint64_t w =
            o.roceWindowBytes == dcnopt::UNIFIED_WINDOW
                ? ft->GetMaxHostPairBdp(o.mtu + DcnHeader::WIRE_BELOW + DcnHeader::BASE_SIZE)
                : o.roceWindowBytes;
        roceWindow = w;
        static bool windowPrinted = false;
        if (!windowPrinted)
        {
            windowPrinted = true;
            std::cout << "DCQCN send window (--roceWindow=" << o.roceWindow << "): " << w << " B\n";
        }
    }

    // chained streams (no overlap at any size): fabric from 1, workload and path
    // selectors from max(next, 1000) (the base of the published results, so the
    // default's draws are unchanged), then the failure models
    int64_t stream = 1;
    stream += ft->AssignStreams(stream);
    stream = std::max<int64_t>(stream, 1000);
    const int64_t workloadStream = stream;

    const bool tcp = o.transport == "tcp";
    if (tcp)
    {
        // ns-3 TCP through the path shim (issue 17): --mtu is the MSS
        DcnTcpTransportHelper th;
        th.SetCongestionControl(CcFor(o, lb));
        th.SetTransportAttribute("SegmentSize", UintegerValue(o.mtu));
        th.InstallOnHosts(ft);
    }
    else
    {
        DcnTransportHelper th;
        if (o.transport == "roce")
        {
            // go-back-N, a 1 ms RTO (a scheme's own Mode below wins: LAPS keeps its recovery)
            th.SetRoceDefaults(o.attributeArgs);
        }
        th.SetSchemeAttributes(lb, o.attributeArgs); // e.g. LAPS's backstop Rto
        th.SetRtoFloor(5, o.attributeArgs);          // >= 5 base RTTs on any fabric
        th.SetTransportAttribute("Mtu", UintegerValue(o.mtu));
        th.SetTransportAttribute("AckRatio", UintegerValue(o.ackRatio));
        th.SetTransportAttribute("Trimming", BooleanValue(o.trim));
        th.Install(ft->GetHosts());
    }

    if (o.pfc)
    {
        DcnPfcHelper pfc; // switch buffers from DcnSwitchBuffer's attributes (--ns3:...)
        std::string err = pfc.Install(ft);
        if (!err.empty())
        {
            throw DcnOptionError(err);
        }
    }

    // failures: checked against this fabric (ids, names) before the first simulation
    Ptr<FailureHelper> fh = CreateObject<FailureHelper>(ft);
    for (const auto& f : failures)
    {
        std::string err = fh->AddFromSpec(f.first, f.second);
        if (!err.empty())
        {
            throw DcnOptionError(err);
        }
    }
    Ptr<WorkloadHelper> wl = CreateObject<WorkloadHelper>();
    stream += wl->AssignStreams(workloadStream);
    stream += fh->AssignStreams(stream);

    wl->SetAttribute("Workload", StringValue(o.workload));
    wl->SetAttribute("MessageSize", UintegerValue(o.msgBytes));
    wl->SetAttribute("Cdf", StringValue(o.cdf));
    wl->SetAttribute("Load", DoubleValue(o.load));
    wl->SetAttribute("Duration", TimeValue(o.durationTime));
    if (o.warmupTime.IsStrictlyPositive())
    {
        wl->SetAttribute("MeasureFrom", TimeValue(o.warmupTime));
    }
    wl->SetAttribute("MaxFlows", UintegerValue(o.flows));
    wl->SetAttribute("Parallel", UintegerValue(o.parallel));
    wl->SetAttribute("IncastDegree", UintegerValue(o.incastDegree));
    wl->SetAttribute("Bystanders", UintegerValue(o.bystanders));
    wl->SetAttribute("LoadBalancer", StringValue(lb));
    wl->SetAttribute("CongestionControl", StringValue(tcp ? "" : CcFor(o, lb)));
    if (!o.roceWindow.empty())
    {
        wl->AddCongestionControlAttribute("ns3::DcqcnCc", "Window", UintegerValue(roceWindow));
    }
    if (tcp)
    {
        wl->SetAttribute("ConnectionPolicy", StringValue("NewPerMessage")); // a socket per flow
    }
    wl->Install(ft);

    DcnPacketHopCounter hops; // the one definition of packet hops (packet-hops.h)
    hops.InstallAll();

    Progress progress(o.quiet, lb);
    progress.SetStopTime(o.stopTime);
    progress.Start();
    Simulator::Stop(o.stopTime);
    Simulator::Run();
    res.simEnd = Simulator::Now();
    res.events = Simulator::GetEventCount() - progress.GetTicks();

    wl->Finalize();
    res.stats = wl->GetStats();
    res.unfinishedWarmup = wl->GetUnfinishedWarmup();
    if (o.workload == "cdf")
    {
        // plan attributes a user can give as --ns3::DcnWorkloadHelper::... (review s46 H5):
        // echoed so that a scaled or capped run does not read as a plain one
        UintegerValue cap;
        DoubleValue scale;
        wl->GetAttribute("MaxSendersPerReceiver", cap);
        wl->GetAttribute("LoadScale", scale);
        std::ostringstream n;
        if (scale.Get() != 1.0)
        {
            n << " loadScale=" << scale.Get() << " (offered " << o.load * scale.Get()
              << " of the host link)";
        }
        if (cap.Get() > 0)
        {
            n << " maxSendersPerReceiver=" << cap.Get() << " (" << wl->GetPlan().overCap << " of "
              << wl->GetPlan().messages.size() << " flows above it)";
        }
        res.planNote = n.str();
    }
    res.stats.SetRunEnd(res.simEnd);
    res.summary = res.stats.Summarize();

    // Fabric counters: every DcnQueueDisc on every node.
    for (uint32_t i = 0; i < NodeList::GetNNodes(); ++i)
    {
        Ptr<Node> node = NodeList::GetNode(i);
        Ptr<TrafficControlLayer> tc = node->GetObject<TrafficControlLayer>();
        if (!tc)
        {
            continue;
        }
        for (uint32_t d = 0; d < node->GetNDevices(); ++d)
        {
            Ptr<DcnQueueDisc> dq = DcnPortDevice::GetEgressQueueDisc(node->GetDevice(d));
            Ptr<QueueDisc> q = dq ? nullptr : tc->GetRootQueueDiscOnDevice(node->GetDevice(d));
            if (dq)
            {
                res.counters.drops += dq->GetNDropped();
                res.counters.marks += dq->GetNMarked();
                res.counters.trims += dq->GetNTrimmed();
                res.counters.pfcPauses += dq->GetNPauseFramesSent();
                res.counters.pausedUs += dq->GetPausedTime().GetSeconds() * 1e6;
                res.counters.pfcWatchdog += dq->GetNWatchdogReports();
            }
            else if (q)
            {
                res.counters.drops += q->GetStats().nTotalDroppedPackets;
            }
        }
    }
    // packets a switch policy took and dropped (ConWeave's full reorder queues): no queue
    // disc saw them drop (until 2026-11-30 they were in no counter)
    NodeContainer sws = ft->GetAllSwitches();
    for (uint32_t i = 0; i < sws.GetN(); ++i)
    {
        Ptr<DcnSwitchRouting> r = ft->GetRouting(sws.Get(i));
        if (r && r->GetForwardingPolicy())
        {
            res.counters.drops += r->GetForwardingPolicy()->GetDrops();
        }
    }
    res.counters.packetHops = hops.Get();
    res.counters.pfc = o.pfc;
    if (!tcp)
    {
        for (uint32_t h = 0; h < ft->GetNHosts(); ++h)
        {
            Ptr<DcnTransport> t = ft->GetHosts().Get(h)->GetObject<DcnTransport>();
            if (t && t->GetMode() == DcnTransport::IN_ORDER)
            {
                res.counters.goBackN = true;
                res.counters.outOfSequenceDropped += t->GetStats().outOfSequenceDropped;
            }
        }
    }
    // injected (silent, drop), unroutable (withdrawn) and queue black-hole drops
    res.counters.failureDrops =
        fh->GetInjectedDrops() + fh->GetUnroutableDrops() + fh->GetBlackholeDrops();

    wl->Dispose();
    Simulator::Destroy();
    res.wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    return res;
}

/** "option --X: ..." line of an option that does not apply to the chosen workload. */
std::string
NotFor(const std::string& opt, const std::string& workloads, const std::string& workload)
{
    return "option --" + opt + ": applies only to --workload=" + workloads +
           "; not to --workload=" + workload + " (remove it)";
}

int
Main(int argc, char* argv[])
{
    Options o;
    DcnOptions opts("dcn-lb-compare",
                    "Compare load balancers on one fat-tree workload (same seed, one fresh "
                    "simulation per load balancer).  Exit status: 0 all flows finished, 2 bad "
                    "input (one line on stderr), 3 some flow did not finish by --stopTime "
                    "(unless --allowUnfinished).");
    std::vector<std::string> lbNames = DcnSchemeRegistry::Names();
    lbNames.emplace_back("all");
    opts.ChoiceList("lb",
                    "Comma-separated load balancers (scheme registry names); all = every "
                    "scheme that runs on --topo with --transport, in registry order",
                    o.lbs,
                    lbNames);
    std::vector<std::string> topos = kFatTreePresets;
    for (const auto& n : DcnTopologyPresets::Names())
    {
        topos.push_back(n);
    }
    opts.Choice("topo",
                "Topology preset: fat trees small (32 hosts, 2 tiers), reps128, reps128-3tier, "
                "reps1024; graph presets (README: Topology presets)",
                o.topo,
                topos);
    opts.Text("topoParams",
              "Graph presets only: parameter overrides key=value,... (e.g. p=2,a=4,h=2)",
              o.topoParams);
    opts.Text("routing",
              "Switch policy: minimal, ecmp, spray, valiant, ugal-l, source (graph presets and "
              "fat trees); spritz, valiant-t (Dragonfly / Slim Fly presets); letflow, drill, conga "
              "(2-tier "
              "fat trees) [the topology's default]",
              o.routing);
    opts.Bool("PrintLinks", "Print id, name, rate and delay of every link and exit", o.printLinks);
    opts.Text("dot", "Write the topology as Graphviz DOT to this file", o.dot);
    opts.Unsigned("hosts", "Hosts per ToR", o.hosts).Max(4096).Preset("0", "the topology preset");
    opts.Unsigned("tors", "Number of ToRs (2 tiers) or ToRs per pod (3 tiers)", o.tors)
        .Max(4096)
        .Preset("0", "the topology preset");
    opts.Unsigned("tiers", "Tiers: 2 or 3", o.tiers).Max(3).Preset("0", "the topology preset");
    opts.Unsigned("spines",
                  "Uplinks per ToR = spines (2 tiers) or aggregation switches per pod (3 tiers)",
                  o.spines)
        .Max(4096)
        .Preset("0", "the topology preset");
    opts.Unsigned("pods", "Pods (3 tiers)", o.pods).Max(4096).Preset("0", "the topology preset");
    opts.Custom("rate",
                "Link rate of every link (default: the preset's, 400Gbps)",
                "rate",
                [&](const std::string& v) {
                    auto p = dcnopt::ParseRate("rate", v, 1, 10000000000000ULL);
                    if (!p)
                    {
                        return p.Error();
                    }
                    o.rateBps = p.Value();
                    return std::string();
                });
    opts.Custom("linkDelay",
                "Link propagation delay (default: the preset's, 500ns)",
                "time",
                [&](const std::string& v) {
                    auto p = dcnopt::ParseTime("linkDelay", v, 0, 1);
                    if (!p)
                    {
                        return p.Error();
                    }
                    o.linkDelay = DcnToTime(p.Value());
                    o.hasLinkDelay = true;
                    return std::string();
                });
    opts.Unsigned("mtu", "Payload bytes per packet", o.mtu).Range(64, 9000);
    opts.Unsigned("queue", "Data queue per port in packets", o.queue)
        .Max(1000000)
        .Preset("0", "1 BDP (the fabric default)");
    opts.Choice("workload", "Workload", o.workload, WorkloadPlanner::Names());
    opts.Custom("msgSize",
                "Message size (bytes or e.g. 2MiB, 4MB) [2MiB]",
                "size",
                [&](const std::string& v) {
                    auto p = dcnopt::ParseSize("msgSize", v, 1, 1ULL << 40);
                    if (!p)
                    {
                        return p.Error();
                    }
                    o.msgSize = v;
                    o.msgBytes = p.Value();
                    return std::string();
                });
    opts.Text("cdf", "Flow-size CDF of --workload=cdf: name in data/workloads or a path", o.cdf);
    opts.Double("load", "Offered load of --workload=cdf", o.load).Range(0, 1, true, false);
    opts.Custom("duration",
                "Arrival window of --workload=cdf [200us]",
                "time",
                [&](const std::string& v) {
                    auto p = dcnopt::ParseTime("duration", v, 0, 10);
                    if (!p || p.Value().seconds <= 0)
                    {
                        return p ? dcnopt::Message("duration",
                                                   v,
                                                   "a positive time",
                                                   "a time in (0s, 10s] with a unit, e.g. 200us")
                                 : p.Error();
                    }
                    o.duration = v;
                    o.durationTime = DcnToTime(p.Value());
                    return std::string();
                });
    opts.Custom("warmup",
                "Warm-up of --workload=cdf: flows that arrive before it are simulated but left out "
                "of the FCT statistics, per-flow CSV and plots (the fabric counters cover the "
                "whole run; DcnWorkloadHelper::MeasureFrom) [0us]",
                "time",
                [&](const std::string& v) {
                    auto p = dcnopt::ParseTime("warmup", v, 0, 10);
                    if (!p)
                    {
                        return p.Error();
                    }
                    o.warmup = v;
                    o.warmupTime = DcnToTime(p.Value());
                    return std::string();
                });
    opts.Unsigned("flows", "Max flows of --workload=cdf", o.flows)
        .Max(100000000)
        .Preset("0", "no limit");
    opts.Unsigned("parallel",
                  "Max parallel connections per host of --workload=alltoall",
                  o.parallel)
        .Range(1, 65535);
    opts.Unsigned("incastDegree", "Senders of --workload=incast (< hosts)", o.incastDegree)
        .Range(1, 1u << 21);
    opts.Unsigned("bystanders", "Bystander flows of --workload=incast", o.bystanders).Max(1u << 21);
    std::vector<std::string> ccNames = CongestionControlRegistry::Names();
    ccNames.push_back("newreno");
    opts.Choice("cc",
                "Congestion control of every scheme (default: each scheme's own - DCTCP for "
                "most, LAPS's AIMD (laps) for laps, DCQCN for conweave - with DCTCP replaced by "
                "DCQCN under --transport=roce); with --transport=tcp ns-3's TcpDctcp (dctcp, "
                "the default) or TcpNewReno with ECN (newreno)",
                o.cc,
                ccNames);
    opts.Choice("transport",
                "Transport: dcn (our message transport, out of order), roce (the same in "
                "in-order go-back-N mode with DCQCN (default --cc) and PFC on: lossless RoCE, "
                "doc/roce.rst) or tcp (ns-3 TCP, one socket per flow, "
                "through the TCP path shim; doc/hermes.rst)",
                o.transport,
                {"dcn", "roce", "tcp"});
    opts.Custom(
        "roceWindow",
        "Send window of every DCQCN flow (--cc=dcqcn, e.g. --transport=roce): unified = the "
        "largest host-pair bandwidth-delay product of the built topology (the unified window "
        "of HPCC's and the LAPS authors' simulators; doc/laps.rst), or bytes, e.g. 100KB, 0 = "
        "none; empty = ns3::DcqcnCc::Window as set (default 0, none) []",
        "unified|size",
        [&](const std::string& v) {
            o.roceWindow = v;
            if (v.empty())
            {
                return std::string();
            }
            auto p = dcnopt::ParseRoceWindow("roceWindow", v);
            if (!p)
            {
                return p.Error();
            }
            o.roceWindowBytes = p.Value();
            return std::string();
        });
    opts.Choice("fabric",
                "Fabric mode: auto (fast where allowed, else ipv4), ipv4 (ports behind ns-3's "
                "traffic-control and IPv4 layers) or "
                "fast (DcnPortDevice ports; switches forward from the port to the egress queue "
                "with the same decision code; doc/fabric.rst). Default auto, or $DCNLB_FABRIC",
                o.fabric,
                {"auto", "ipv4", "fast"});
    opts.Bool("pfc",
              "PFC pause frames and shared-buffer switches (LAPS spec 3: on for RoCE; "
              "default: on with --transport=roce, off otherwise; doc/roce.rst)",
              o.pfc);
    opts.Custom("failures",
                "Failures, comma-separated: kind:link=ID|NAME|switch=ID|NAME[:start=T][:end=T]"
                "[:rate=R][:prob=P][:withdraw=T][:dir=up|down|both][:data=only|all], kind = silent "
                "| down | degrade | drop | blackhole; no end = persists (README: failure specs)",
                "list",
                [&](const std::string& v) {
                    auto items = dcnopt::SplitList("failures", v);
                    if (!items)
                    {
                        return items.Error();
                    }
                    for (const auto& it : items.Value())
                    {
                        auto f = dcnopt::ParseFailureSpec(
                            "failures",
                            it,
                            std::numeric_limits<uint64_t>::max(),
                            {"silent", "down", "degrade", "drop", "blackhole"},
                            true);
                        if (!f)
                        {
                            return f.Error();
                        }
                        o.failures.push_back(it);
                    }
                    return std::string();
                });
    opts.Signed("failLink", "Shortcut: silent failure of this link id", o.failLink)
        .Range(-1, 1u << 30)
        .Preset("-1", "none");
    opts.Custom("failStart", "Start of --failLink [0us]", "time", [&](const std::string& v) {
        auto p = dcnopt::ParseTime("failStart", v, 0, 3600);
        if (!p)
        {
            return p.Error();
        }
        o.failStart = v;
        o.failStartTime = DcnToTime(p.Value());
        return std::string();
    });
    opts.Custom("failEnd",
                "End of --failLink (0 = persists) [0us]",
                "time",
                [&](const std::string& v) {
                    auto p = dcnopt::ParseTime("failEnd", v, 0, 3600);
                    if (!p)
                    {
                        return p.Error();
                    }
                    o.failEnd = v;
                    o.failEndTime = DcnToTime(p.Value());
                    return std::string();
                });
    opts.Signed("degradeLink", "Shortcut: run this link id at --degradeRate", o.degradeLink)
        .Range(-1, 1u << 30)
        .Preset("-1", "none");
    opts.Custom("degradeRate",
                "Rate of --degradeLink, at most the link's rate (default: half the link's "
                "rate, 200Gbps on 400G links)",
                "rate",
                [&](const std::string& v) {
                    auto p = dcnopt::ParseRate("degradeRate", v, 1, 10000000000000ULL);
                    if (!p)
                    {
                        return p.Error();
                    }
                    o.degradeRate = v;
                    return std::string();
                });
    opts.Bool("trim", "Enable packet trimming in the switches", o.trim);
    opts.Unsigned("ackRatio", "Data packets per ACK (1 = per-packet ACKs)", o.ackRatio)
        .Range(1, 255);
    opts.Unsigned("evs", "Entropy value set size (EVS) of the path selectors", o.evs)
        .Range(1, 65536);
    opts.Text("csv", "Write <prefix>-<lb>.csv per-flow files and <prefix>-summary.csv", o.csv);
    opts.Text("json", "Write a JSON summary to this file ('-' = stdout)", o.json);
    opts.Text("plot",
              "Write <prefix>-fct-cdf.png (FCT CDF per load balancer) and <prefix>-bars.png "
              "(mean/p99/max FCT) with tools/plot.py and Debian's matplotlib; without --csv the "
              "CSVs go to the same prefix",
              o.plot);
    opts.Bool("quiet", "No progress lines on stderr", o.quiet);
    opts.Time("stopTime", "Simulated-time limit of each run", o.stopTime)
        .Min(NanoSeconds(1))
        .Max(Seconds(3600));
    opts.Bool("allowUnfinished",
              "Exit 0 even if some flow did not finish by --stopTime (default: exit 3)",
              o.allowUnfinished);

    // options that apply to one workload only: refused elsewhere
    auto given = [&](const std::string& name) {
        for (int i = 1; i < argc; ++i)
        {
            std::string a = argv[i];
            if (a == "--" + name || a.rfind("--" + name + "=", 0) == 0)
            {
                return true;
            }
        }
        return false;
    };
    opts.Check([&]() -> std::string {
        if (o.transport == "roce")
        {
            if (!given("pfc"))
            {
                o.pfc = true;
            }
        }
        if (!o.roceWindow.empty() && o.cc != "dcqcn" && !(o.cc.empty() && o.transport == "roce"))
        {
            return "option --roceWindow: applies to DCQCN flows; allowed with --cc=dcqcn or "
                   "--transport=roce (DCQCN its default), here --cc is " +
                   (o.cc.empty() ? "each scheme's own with --transport=" + o.transport
                                 : "'" + o.cc + "'");
        }
        if (!o.roceWindow.empty() &&
            opts.GetAttributeArguments().find("ns3::DcqcnCc::Window=") != std::string::npos)
        {
            return std::string("option --roceWindow: sets ns3::DcqcnCc::Window; allowed: "
                               "--roceWindow or --ns3::DcqcnCc::Window, not both");
        }
        if (o.pfc && o.transport == "tcp")
        {
            return "option --pfc: value 'true' does not run with --transport=tcp (PFC "
                   "needs the RoCE-like message transport); allowed: false, or "
                   "--transport=roce|dcn";
        }
        for (const char* n : {"cdf", "load", "duration", "flows", "warmup"})
        {
            if (o.workload != "cdf" && given(n))
            {
                return NotFor(n, "cdf", o.workload);
            }
        }
        if (o.warmupTime >= o.durationTime && o.warmupTime.IsStrictlyPositive())
        {
            return "option --warmup: value '" + o.warmup + "' is not below --duration " +
                   o.duration + " (no flow would be counted); allowed: 0 <= warmup < duration";
        }
        if (o.workload != "incast")
        {
            for (const char* n : {"incastDegree", "bystanders"})
            {
                if (given(n))
                {
                    return NotFor(n, "incast", o.workload);
                }
            }
        }
        if (o.transport == "tcp")
        {
            if (!o.cc.empty() && o.cc != "dctcp" && o.cc != "newreno")
            {
                return "option --cc: value '" + o.cc +
                       "' does not run with --transport=tcp; allowed: dctcp, newreno";
            }
            if (o.mtu > 8960)
            {
                return "option --mtu: value '" + std::to_string(o.mtu) +
                       "' is too large for --transport=tcp (TCP MSS); allowed: 64..8960";
            }
            for (const char* n : {"trim", "ackRatio"})
            {
                if (given(n))
                {
                    return std::string("option --") + n +
                           ": applies only to --transport=dcn (remove it)";
                }
            }
        }
        else if (o.cc == "newreno")
        {
            return std::string("option --cc: value 'newreno' runs only with --transport=tcp; "
                               "allowed here: ") +
                   dcnopt::Join(CongestionControlRegistry::Names());
        }
        if (o.workload != "alltoall" && given("parallel"))
        {
            return NotFor("parallel", "alltoall", o.workload);
        }
        if (o.workload == "cdf" && given("msgSize"))
        {
            return NotFor("msgSize",
                          "permutation|tornado|incast|alltoall|ring|butterfly|"
                          "allscatter",
                          o.workload);
        }
        if (o.failLink < 0)
        {
            for (const char* n : {"failStart", "failEnd"})
            {
                if (given(n))
                {
                    return std::string("option --") + n + ": applies only with --failLink";
                }
            }
        }
        if (o.degradeLink < 0 && given("degradeRate"))
        {
            return "option --degradeRate: applies only with --degradeLink";
        }
        if (o.failLink >= 0 && o.failEndTime.IsStrictlyPositive() &&
            o.failEndTime <= o.failStartTime)
        {
            return dcnopt::Message("failEnd",
                                   o.failEnd,
                                   "after --failStart=" + o.failStart,
                                   "0 (persists) or a time > --failStart");
        }
        if (o.tiers == 1)
        {
            return dcnopt::Message("tiers",
                                   "1",
                                   "a supported tier count",
                                   "0 (the preset), 2 or 3");
        }
        if (o.pods && o.tiers != 3 && !(o.tiers == 0 && o.topo == "reps128-3tier"))
        {
            return "option --pods: applies only to 3-tier fat trees (--tiers=3 or "
                   "--topo=reps128-3tier)";
        }
        // attributes the topology set-up of this driver replaces with its own value: the
        // option to use instead (review s41 F8: accepted, then silently overwritten)
        for (const auto& [attr, opt] :
             {std::pair<const char*, const char*>{"ns3::FatTreeHelper::NumTors", "--tors"},
              {"ns3::FatTreeHelper::HostsPerTor", "--hosts"},
              {"ns3::FatTreeHelper::UplinksPerTor", "--spines"},
              {"ns3::FatTreeHelper::Tiers", "--tiers"},
              {"ns3::FatTreeHelper::Mtu", "--mtu (the device MTU follows it)"},
              {"ns3::FatTreeHelper::TrimEnabled", "--trim"},
              {"ns3::DcnGraphTopology::Mtu", "--mtu (the device MTU follows it)"},
              {"ns3::DcnGraphTopology::TrimEnabled", "--trim"},
              {"ns3::DcnGraphTopology::ForwardingPolicy", "--routing"},
              {"ns3::DcnGraphTopology::NonMinimalSlack", "--topo (the preset's value)"}})
        {
            if (given(attr))
            {
                return std::string("option --") + attr +
                       ": replaced by this driver's topology set-up; allowed: " + opt;
            }
        }
        for (const char* a : {"KminFraction", "KmaxFraction"})
        {
            if (given(std::string("ns3::DcnQueueDisc::") + a))
            {
                return std::string("option --ns3::DcnQueueDisc::") + a +
                       ": replaced by the fat-tree helper's value; allowed: "
                       "--ns3::FatTreeHelper::" +
                       a;
            }
        }
        if (!o.routing.empty())
        {
            auto names = RoutingNames(o.topo);
            if (std::find(names.begin(), names.end(), o.routing) == names.end())
            {
                return dcnopt::Message("routing",
                                       o.routing,
                                       "a switch policy of --topo=" + o.topo,
                                       dcnopt::Join(names));
            }
        }
        uint64_t hosts = 0;
        if (IsFatTree(o.topo))
        {
            if (given("topoParams"))
            {
                return "option --topoParams: applies only to graph presets (" +
                       dcnopt::Join(DcnTopologyPresets::Names()) +
                       "); fat trees take --hosts, --tors, --tiers, --spines, --pods";
            }
            Ptr<FatTreeHelper> ft = MakeFabric(o);
            std::string size = CheckFatTreeSize(o, ft, &hosts);
            if (!size.empty())
            {
                return size;
            }
            if (!o.routing.empty())
            {
                ft->SetAttribute("ForwardingPolicy", StringValue(FatTreePolicy(o.routing)));
            }
            try
            {
                ft->Validate(); // the helper's attribute checks, before the first run
            }
            catch (const DcnOptionError& e)
            {
                return e.what();
            }
            if ((o.routing == "letflow" || o.routing == "drill" || o.routing == "conga") &&
                ft->GetTopologyName() != "fat-tree-2tier")
            {
                return dcnopt::Message("routing",
                                       o.routing,
                                       "a switch policy of the " + ft->GetTopologyName() +
                                           " (it needs 2 tiers)",
                                       dcnopt::Join(DcnRoutingPolicies::Names()));
            }
        }
        else
        {
            for (const char* n : {"hosts", "tors", "tiers", "spines", "pods", "rate", "linkDelay"})
            {
                if (given(n))
                {
                    return std::string("option --") + n +
                           ": applies only to fat-tree presets; graph presets take "
                           "--topoParams=key=value,...";
                }
            }
            try
            {
                hosts = DcnTopologyPresets::Graph(o.topo,
                                                  DcnTopologyPresets::ParseOverrides(o.topoParams))
                            .NHosts();
            }
            catch (const DcnOptionError& e)
            {
                std::string m = e.what();
                return m.find("--") != std::string::npos ? m : "option --topoParams: " + m;
            }
        }
        if (!IsFatTree(o.topo) && hosts < 2)
        {
            return "option --topoParams: --topo=" + o.topo +
                   (o.topoParams.empty() ? "" : " --topoParams=" + o.topoParams) + " gives " +
                   std::to_string(hosts) +
                   " host; allowed: at least 2 hosts (a sender and a receiver)";
        }
        if (o.workload == "butterfly" && (hosts & (hosts - 1)) != 0)
        {
            return "option --workload: butterfly needs a power-of-two host count; this "
                   "topology has " +
                   std::to_string(hosts) + " hosts";
        }
        if (o.workload == "incast" && o.incastDegree >= hosts)
        {
            return dcnopt::Message("incastDegree",
                                   std::to_string(o.incastDegree),
                                   "below the host count",
                                   "1 to " + std::to_string(hosts - 1) + " (" +
                                       std::to_string(hosts) + " hosts)");
        }
        if (o.workload == "cdf")
        {
            FlowSizeCdf c;
            std::string err = FlowSizeCdf::TryLoad(o.cdf, &c);
            if (!err.empty())
            {
                for (auto& ch : err)
                {
                    ch = ch == '\n' ? ' ' : ch;
                }
                return "option --cdf: " + err;
            }
        }
        return std::string();
    });
    opts.Check([&]() -> std::string { return CheckOutputPrefix("csv", o.csv, "-summary.csv"); });
    opts.Check([&]() -> std::string { return CheckOutputPrefix("plot", o.plot, "-bars.png"); });
    opts.Check([&]() -> std::string {
        return o.json == "-" ? std::string() : CheckOutputPrefix("json", o.json, "");
    });
    opts.Check([&]() -> std::string { return CheckOutputPrefix("dot", o.dot, ""); });
    opts.Custom("pcap",
                "pcap capture: port list of link ids, link names, node names or 'all' "
                "(README: pcap); one file per port <pcapPrefix>-<lb>-<link>-<node>.pcap",
                "list",
                [&](const std::string& v) {
                    auto items = dcnopt::SplitList("pcap", v); // no empty items
                    if (!items)
                    {
                        return items.Error();
                    }
                    o.pcap = v;
                    return std::string();
                });
    opts.Text("pcapPrefix", "File prefix of --pcap", o.pcapPrefix);
    opts.Check([&]() -> std::string {
        if (o.pcap.empty())
        {
            return given("pcapPrefix") ? "option --pcapPrefix: applies only with --pcap"
                                       : std::string();
        }
        std::string err = CheckOutputPrefix("pcapPrefix", o.pcapPrefix, ".pcap-check");
        std::remove((o.pcapPrefix + ".pcap-check").c_str());
        return err;
    });
    opts.Parse(argc, argv);
    o.attributeArgs = opts.GetAttributeArguments();
    Config::SetDefault("ns3::DcnTopologyBase::FabricMode", StringValue(o.fabric));
    if (!o.plot.empty() && o.csv.empty())
    {
        o.csv = o.plot; // --plot draws from the CSVs
    }

    std::vector<std::pair<std::string, std::string>> failures;
    for (const auto& f : o.failures)
    {
        failures.emplace_back("failures", f);
    }
    if (o.failLink >= 0)
    {
        std::string spec = "silent:link=" + std::to_string(o.failLink) + ":start=" + o.failStart;
        if (o.failEndTime.IsStrictlyPositive())
        {
            spec += ":end=" + o.failEnd;
        }
        failures.emplace_back("failLink", spec);
    }
    if (o.degradeLink >= 0)
    {
        failures.emplace_back("degradeLink",
                              "degrade:link=" + std::to_string(o.degradeLink) +
                                  (o.degradeRate.empty() ? "" : ":rate=" + o.degradeRate));
    }
    // every scheme must fit the topology and transport, and take --evs
    const std::string topoName =
        IsFatTree(o.topo)
            ? MakeFabric(o)->GetTopologyName()
            : DcnTopologyPresets::Graph(o.topo, DcnTopologyPresets::ParseOverrides(o.topoParams))
                  .name;
    const std::string transportFamily = o.transport == "roce" ? "dcn" : o.transport;
    std::vector<std::string> lbs;
    std::vector<std::string> named; // given by name (not only through "all")
    for (const auto& lb : Split(o.lbs, ','))
    {
        // "all": the schemes registered for this topology and transport
        for (const auto& n : lb == "all" ? DcnSchemeRegistry::NamesFor(topoName, transportFamily)
                                         : std::vector<std::string>{lb})
        {
            if (std::find(lbs.begin(), lbs.end(), n) == lbs.end())
            {
                lbs.push_back(n);
            }
        }
        if (lb != "all")
        {
            named.push_back(lb);
        }
    }
    // --routing=<a switch-side load balancer> (letflow, drill, conga, conweave, ...) sets
    // the topology's switch policy; a scheme with its own switch policy replaces it, so
    // --routing would silently not apply to that run (and until 2026-11-30 CONGA's replaced
    // policy was called on freed memory): refuse the combination
    if (!o.routing.empty())
    {
        std::string routingScheme; // the scheme that installs this switch policy itself
        for (const auto& n : DcnSchemeRegistry::Names())
        {
            if (routingScheme.empty() && DcnSchemeRegistry::HasSwitchPolicy(n) &&
                DcnSchemeRegistry::Get(n).switchPolicy == o.routing)
            {
                routingScheme = n;
            }
        }
        for (const auto& lb : lbs)
        {
            if (!routingScheme.empty() && DcnSchemeRegistry::HasSwitchPolicy(lb))
            {
                DcnOptions::Exit(
                    "dcn-lb-compare",
                    "option --routing: value '" + o.routing +
                        "' (a switch-side load balancer) cannot be combined with --lb=" + lb +
                        ", which installs its own switch policy '" +
                        DcnSchemeRegistry::Get(lb).switchPolicy +
                        "' in place of it; allowed: --routing=" + o.routing +
                        " only with schemes that keep the switches' routing (e.g. ecmp, reps), "
                        "or --lb=" +
                        routingScheme + " without --routing");
            }
        }
    }
    if (o.printLinks)
    {
        Ptr<DcnTopology> t = MakeTopology(o);
        FailureHelper::PrintLinks(*t, std::cout);
        Simulator::Destroy();
        return 0;
    }
    for (const auto& lb : lbs)
    {
        std::string err = DcnSchemeRegistry::CheckForRun(lb,
                                                         topoName,
                                                         transportFamily,
                                                         o.evs,
                                                         o.transport == "tcp" ? "" : CcFor(o, lb));
        if (err.empty() && !DcnTcpTransport::DefaultPathShim())
        {
            // plain TCP without the path shim (bench/tcp-shim.sh): switch-side ECMP only
            err = o.transport != "tcp" ? "option --ns3::DcnTcpTransport::PathShim: applies only to "
                                         "--transport=tcp (remove it)"
                                       : DcnTcpTransport::CheckPathShim(false, lb);
        }
        if (!err.empty())
        {
            DcnOptions::Exit("dcn-lb-compare", err);
        }
        // EV set size of every selector that has one (attribute "EvSetSize")
        std::string sel = DcnSchemeRegistry::Get(lb).pathSelector;
        Config::SetDefaultFailSafe(PathSelectorRegistry::TypeIdName(sel) + "::EvSetSize",
                                   UintegerValue(o.evs));
    }
    // switch policies (CONGA, ConWeave, ...) check the built topology: all of them before
    // the first run, so that no scheme simulates before another one is refused
    if (std::any_of(lbs.begin(), lbs.end(), &DcnSchemeRegistry::HasSwitchPolicy))
    {
        Ptr<DcnTopology> t = MakeTopology(o);
        std::vector<std::string> kept;
        for (const auto& lb : lbs)
        {
            const std::string err = DcnSchemeRegistry::CheckSwitchPolicy(lb, *t);
            if (err.empty())
            {
                kept.push_back(lb);
            }
            else if (std::find(named.begin(), named.end(), lb) != named.end())
            {
                DcnOptions::Exit("dcn-lb-compare", err);
            }
            else
            {
                // reached through --lb=all: it does not run here, so it is not one of "all"
                std::cout << "--lb=all: " << lb << " left out (" << err << ")" << std::endl;
            }
        }
        lbs = kept;
        Simulator::Destroy();
    }

    // schemes that take the switches' minimal routing (EV in the UDP source port) are
    // identical where every pair has one minimal path (a Dragonfly's one global link per
    // group pair): say so once, before the table that would show equal columns
    std::vector<std::string> onRouting;
    std::copy_if(lbs.begin(), lbs.end(), std::back_inserter(onRouting), [](const std::string& lb) {
        return !DcnSchemeRegistry::HasSwitchPolicy(lb);
    });
    const std::string routing = o.routing.empty() ? "minimal" : o.routing;
    if (!IsFatTree(o.topo) && onRouting.size() > 1 &&
        (routing == "minimal" || routing == "ecmp" || routing == "spray"))
    {
        Ptr<DcnTopology> t = MakeTopology(o);
        uint32_t sampled = 0;
        const uint32_t single = CountSinglePathPairs(*t, 256, sampled);
        Simulator::Destroy();
        if (sampled > 0 && single == sampled)
        {
            std::cout << "note: --routing=" << routing << " on " << o.topo << ": each of "
                      << sampled << " sampled pairs of host switches has one minimal path, so "
                      << dcnopt::Join(onRouting, ", ")
                      << " take the same paths (equal columns); --routing=valiant or ugal-l "
                         "adds non-minimal paths (laps and spritz* route on their own)"
                      << std::endl;
        }
    }

    // lossless (PFC, one class) on a graph preset whose minimal paths form a cyclic channel
    // dependency graph (a Dragonfly's local-global-local routes): a deadlock may stall flows
    if (o.pfc && !IsFatTree(o.topo) &&
        (routing == "minimal" || routing == "ecmp" || routing == "spray"))
    {
        const auto overrides = DcnTopologyPresets::ParseOverrides(o.topoParams);
        const dcn::GraphResult g =
            overrides.empty() ? dcn::BuildPreset(o.topo) : dcn::BuildPreset(o.topo, overrides);
        if (g.Ok() &&
            dcn::CheckChannelDependencies(dcn::MinimalRouting(g.graph), dcn::PathSet::MINIMAL)
                .cyclic)
        {
            std::cout << "note: PFC on " << o.topo << " with --routing=" << routing
                      << ": the channel dependency graph of its minimal paths is cyclic, so a "
                         "PFC deadlock can stall flows (watchdog warnings, unfinished flows; "
                         "dcn-topo-graph-info --topo="
                      << o.topo << " --cdg=minimal shows a cycle)" << std::endl;
        }
    }

    // ---- runs
    std::vector<RunResult> results;
    uint64_t totalEvents = 0;
    uint64_t totalHops = 0;
    bool byBins = o.workload == "cdf";
    for (const auto& lb : lbs)
    {
        results.push_back(RunOne(o, lb, failures));
        const RunResult& r = results.back();
        totalEvents += r.events;
        totalHops += r.counters.packetHops;
        if (!o.quiet)
        {
            std::cerr << "[" << lb << "] done: sim " << r.simEnd.GetMicroSeconds() << " us, wall "
                      << std::fixed << std::setprecision(2) << r.wallSeconds << " s, " << r.events
                      << " events" << std::defaultfloat << std::endl;
        }
        if (byBins)
        {
            r.stats.Print(std::cout, lb, true);
        }
        if (!o.csv.empty())
        {
            std::ofstream f(o.csv + "-" + lb + ".csv");
            if (!f)
            {
                Fail("--csv: cannot write " + o.csv + "-" + lb + ".csv");
            }
            r.stats.WriteCsv(f);
        }
    }

    std::vector<std::string> labels;
    std::vector<FctSummary> sums;
    std::vector<FabricCounters> ctrs;
    for (const auto& r : results)
    {
        labels.push_back(r.lb);
        sums.push_back(r.summary);
        ctrs.push_back(r.counters);
    }
    std::cout << "== dcn-lb-compare: workload=" << o.workload << " topo=" << o.topo;
    if (o.workload == "cdf")
    {
        std::cout << " cdf=" << o.cdf << " load=" << o.load << " duration=" << o.duration;
        if (o.warmupTime.IsStrictlyPositive())
        {
            std::cout << " warmup=" << o.warmup;
        }
        std::cout << (results.empty() ? "" : results.front().planNote);
    }
    else
    {
        std::cout << " msgSize=" << o.msgSize;
    }
    std::vector<std::string> ccs; // the congestion controls run, in --lb order
    for (const auto& lb : lbs)
    {
        const std::string c = CcFor(o, lb);
        if (std::find(ccs.begin(), ccs.end(), c) == ccs.end())
        {
            ccs.push_back(c);
        }
    }
    std::cout << " cc=" << dcnopt::Join(ccs, ",") << " transport=" << o.transport
              << " RngRun=" << RngSeedManager::GetRun() << "\n"
              << FctStats::FormatComparison(labels, sums, ctrs);

    if (!o.csv.empty())
    {
        std::ofstream f(o.csv + "-summary.csv");
        if (!f)
        {
            Fail("--csv: cannot write " + o.csv + "-summary.csv");
        }
        f << FctStats::SummaryCsvHeader() << "\n";
        for (const auto& r : results)
        {
            f << FctStats::SummaryCsvLine(r.lb, r.summary, r.counters) << "\n";
        }
    }
    if (!o.json.empty())
    {
        std::ofstream file;
        std::ostream* os = &std::cout;
        if (o.json != "-")
        {
            file.open(o.json);
            if (!file)
            {
                Fail("--json: cannot write " + o.json);
            }
            os = &file;
        }
        *os << "{\"workload\":\"" << o.workload << "\",\"topo\":\"" << o.topo
            << "\",\"rng_run\":" << RngSeedManager::GetRun() << ",\"runs\":[";
        for (size_t i = 0; i < results.size(); ++i)
        {
            *os << (i ? "," : "");
            results[i].stats.WriteJson(*os, results[i].lb, results[i].counters, byBins);
        }
        *os << "]}\n";
    }
    if (!o.plot.empty())
    {
        // The plot is drawn from the CSVs just written (tools/plot.py; exit 0 = every file
        // written, else one line on stderr).
        std::string cmd = "/usr/bin/python3 '" + FlowSizeCdf::DataDir() + "/../tools/plot.py' '" +
                          o.csv + "' --png-prefix='" + o.plot + "'";
        if (std::system(cmd.c_str()) != 0)
        {
            std::cerr << "dcn-lb-compare: error: option --plot: value '" << o.plot
                      << "': tools/plot.py failed (needs /usr/bin/python3 with matplotlib: "
                         "bash tools/install-deps.sh)"
                      << std::endl;
            return 1;
        }
    }
    uint32_t unfinished = 0;
    for (const auto& r : results)
    {
        if (!r.stats.AllFinished())
        {
            std::cout << "[" << r.lb << "] ";
            r.stats.PrintUnfinished(std::cout, 10);
            unfinished += r.stats.CountUnfinished();
        }
        if (r.unfinishedWarmup > 0)
        {
            std::cout << "[" << r.lb << "] " << r.unfinishedWarmup
                      << " warm-up flow(s) (--warmup, not in the table) did not finish\n";
            unfinished += r.unfinishedWarmup;
        }
    }
    std::cout << "BENCH events=" << totalEvents << " packet_hops=" << totalHops << std::endl;
    if (unfinished && !o.allowUnfinished)
    {
        std::cerr << "dcn-lb-compare: " << unfinished
                  << " flow(s) did not finish by --stopTime (exit status 3; "
                     "--allowUnfinished tolerates it)"
                  << std::endl;
        return DCN_EXIT_UNFINISHED;
    }
    return 0;
}

} // namespace

int
main(int argc, char* argv[])
{
    SetProgramName("dcn-lb-compare"); // Fail's prefix (an output file failing after a run)
    try
    {
        return Main(argc, argv);
    }
    catch (const DcnOptionError& e)
    {
        DcnOptions::Exit("dcn-lb-compare", e.what());
    }
}
