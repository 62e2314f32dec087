/*
 * dcn-lb-compare: the flagship example.
 *
 * Builds a fat tree, runs one workload under each load balancer of --lb with
 * the same seed (a fresh simulation per load balancer), and prints a
 * side-by-side table of flow completion times and fabric counters.
 *
 *   ./build/dcn-lb-compare                       # 32 hosts, 400G, permutation 2 MiB, ecmp,ops,reps
 *   ./build/dcn-lb-compare --topo=reps128 --workload=cdf --cdf=websearch --load=0.8
 *   ./build/dcn-lb-compare --workload=tornado --msgSize=16MiB --failLink=3 --failStart=50us
 *   ./build/dcn-lb-compare --PrintHelp
 *
 * Last line: "BENCH events=<n> packet_hops=<n>" (summed over all runs).
 */
#include "ns3/cc-registry.h"
#include "ns3/core-module.h"
#include "ns3/dcn-example-args.h"
#include "ns3/dcn-queue-disc.h"
#include "ns3/dcn-scheme.h"
#include "ns3/dcn-transport-helper.h"
#include "ns3/failure-helper.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/fct-stats.h"
#include "ns3/flow-size-cdf.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/packet-hops.h"
#include "ns3/path-selector.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"
#include "ns3/workload-helper.h"
#include "ns3/workload-plan.h"

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
    std::string rate{""};
    std::string linkDelay{""};
    uint32_t mtu{4096};
    uint32_t queue{0}; //!< packets per port data band (0 = fabric default, 1 BDP)
    std::string workload{"permutation"};
    std::string msgSize{"2MiB"};
    std::string cdf{"websearch"};
    double load{0.6};
    std::string duration{"200us"};
    uint32_t flows{0};
    uint32_t parallel{4};
    uint32_t incastDegree{8};
    uint32_t bystanders{0};
    std::string cc{"dctcp"};
    std::string failures{""};
    int32_t failLink{-1};
    std::string failStart{"0us"};
    std::string failEnd{"0us"};
    int32_t degradeLink{-1};
    std::string degradeRate{"200Gbps"};
    bool trim{false};
    uint32_t ackRatio{1};
    uint32_t evs{65536};
    std::string csv{""};
    std::string json{""};
    bool quiet{false};
    std::string stopTime{"100ms"};
};

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
};

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
        Fail("--topo: unknown preset '" + o.topo +
             "'; allowed: small, reps128, reps128-3tier, reps1024");
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
        ft->SetAttribute(o.tiers == 3 ? "TorsPerPod" : "NumTors", UintegerValue(o.tors));
    }
    if (o.pods)
    {
        ft->SetAttribute("NumPods", UintegerValue(o.pods));
    }
    if (o.spines)
    {
        ft->SetAttribute("UplinksPerTor", UintegerValue(o.spines));
    }
    if (!o.rate.empty())
    {
        DataRate r(o.rate);
        ft->SetAttribute("HostLinkRate", DataRateValue(r));
        ft->SetAttribute("FabricLinkRate", DataRateValue(r));
        ft->SetAttribute("CoreLinkRate", DataRateValue(r));
    }
    if (!o.linkDelay.empty())
    {
        ft->SetAttribute("LinkDelay", TimeValue(Time(o.linkDelay)));
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

RunResult
RunOne(const Options& o, const std::string& lb, const std::vector<FailureSpec>& failures)
{
    RunResult res;
    res.lb = lb;
    auto wall0 = std::chrono::steady_clock::now();

    Ptr<FatTreeHelper> ft = MakeFabric(o);
    ft->Build();

    // chained streams (no overlap at any size): fabric from 1, workload and path
    // selectors from max(next, 1000) (the base of the published results, so the
    // default's draws are unchanged), then the failure models
    int64_t stream = 1;
    stream += ft->AssignStreams(stream);
    stream = std::max<int64_t>(stream, 1000);
    const int64_t workloadStream = stream;

    DcnTransportHelper th;
    th.SetTransportAttribute("Mtu", UintegerValue(o.mtu));
    th.SetTransportAttribute("AckRatio", UintegerValue(o.ackRatio));
    th.SetTransportAttribute("Trimming", BooleanValue(o.trim));
    th.Install(ft->GetHosts());

    Ptr<FailureHelper> fh = CreateObject<FailureHelper>(ft);
    for (const auto& f : failures)
    {
        if (f.link >= ft->GetLinks().size())
        {
            Fail("--failures: link " + std::to_string(f.link) + " not in [0, " +
                 std::to_string(ft->GetLinks().size() - 1) + "]");
        }
        Time duration = f.end.IsStrictlyPositive() ? f.end - f.start : Time(0);
        if (f.end.IsStrictlyPositive() && f.end <= f.start)
        {
            Fail("--failures: end must be after start for link " + std::to_string(f.link));
        }
        if (f.kind == "silent")
        {
            fh->FailLinkSilent(f.link, f.start, duration);
        }
        else if (f.kind == "down")
        {
            fh->FailLink(f.link, f.start, f.withdraw, duration);
        }
        else if (f.kind == "degrade")
        {
            fh->DegradeLink(f.link, f.rate, f.start, duration);
        }
        else
        {
            fh->SetLinkDropRate(f.link, f.prob, f.start, duration);
        }
    }
    Ptr<WorkloadHelper> wl = CreateObject<WorkloadHelper>();
    stream += wl->AssignStreams(workloadStream);
    stream += fh->AssignStreams(stream);

    wl->SetAttribute("Workload", StringValue(o.workload));
    wl->SetAttribute("MessageSize", UintegerValue(ParseBytes(o.msgSize)));
    wl->SetAttribute("Cdf", StringValue(o.cdf));
    wl->SetAttribute("Load", DoubleValue(o.load));
    wl->SetAttribute("Duration", TimeValue(Time(o.duration)));
    wl->SetAttribute("MaxFlows", UintegerValue(o.flows));
    wl->SetAttribute("Parallel", UintegerValue(o.parallel));
    wl->SetAttribute("IncastDegree", UintegerValue(o.incastDegree));
    wl->SetAttribute("Bystanders", UintegerValue(o.bystanders));
    wl->SetAttribute("LoadBalancer", StringValue(lb));
    wl->SetAttribute("CongestionControl", StringValue(o.cc));
    wl->Install(ft);

    DcnPacketHopCounter hops; // the one definition of packet hops (packet-hops.h)
    hops.InstallAll();

    Progress progress(o.quiet, lb);
    progress.Start();
    Simulator::Stop(Time(o.stopTime));
    Simulator::Run();
    res.simEnd = Simulator::Now();
    res.events = Simulator::GetEventCount() - progress.GetTicks();

    wl->Finalize();
    res.stats = wl->GetStats();
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
            Ptr<QueueDisc> q = tc->GetRootQueueDiscOnDevice(node->GetDevice(d));
            Ptr<DcnQueueDisc> dq = DynamicCast<DcnQueueDisc>(q);
            if (dq)
            {
                res.counters.drops += dq->GetNDropped();
                res.counters.marks += dq->GetNMarked();
                res.counters.trims += dq->GetNTrimmed();
            }
            else if (q)
            {
                res.counters.drops += q->GetStats().nTotalDroppedPackets;
            }
        }
    }
    res.counters.packetHops = hops.Get();
    res.counters.failureDrops = fh->GetInjectedDrops() + fh->GetUnroutableDrops();

    wl->Dispose();
    Simulator::Destroy();
    res.wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    return res;
}

} // namespace

int
main(int argc, char* argv[])
{
    Options o;
    CommandLine cmd(__FILE__);
    cmd.Usage("Compare load balancers on one fat-tree workload (same seed, one fresh simulation "
              "per load balancer).");
    cmd.AddValue("lb", "Comma-separated load balancers (PathSelectorRegistry names)", o.lbs);
    cmd.AddValue("topo",
                 "Topology preset: small (32 hosts, 2 tiers), reps128, reps128-3tier, reps1024",
                 o.topo);
    cmd.AddValue("hosts", "Hosts per ToR (overrides the preset)", o.hosts);
    cmd.AddValue("tors",
                 "Number of ToRs (2 tiers) or ToRs per pod (3 tiers) (overrides the preset)",
                 o.tors);
    cmd.AddValue("tiers", "Tiers: 2 or 3 (overrides the preset)", o.tiers);
    cmd.AddValue("spines",
                 "Uplinks per ToR = spines (2 tiers) or aggregation switches per pod "
                 "(3 tiers) (overrides the preset)",
                 o.spines);
    cmd.AddValue("pods", "Pods (3 tiers; overrides the preset)", o.pods);
    cmd.AddValue("rate", "Link rate, e.g. 400Gbps (default: preset, 400Gbps)", o.rate);
    cmd.AddValue("linkDelay", "Link propagation delay, e.g. 500ns (default: preset)", o.linkDelay);
    cmd.AddValue("mtu", "Payload bytes per packet", o.mtu);
    cmd.AddValue("queue", "Data queue per port in packets (0 = 1 BDP, the preset)", o.queue);
    cmd.AddValue("workload",
                 "permutation|tornado|incast|alltoall|ring|butterfly|allscatter|cdf",
                 o.workload);
    cmd.AddValue("msgSize", "Message size (bytes or e.g. 2MiB, 4MB)", o.msgSize);
    cmd.AddValue("cdf",
                 "Flow-size CDF for --workload=cdf: name in data/workloads or a path",
                 o.cdf);
    cmd.AddValue("load", "Offered load of --workload=cdf, in (0, 1]", o.load);
    cmd.AddValue("duration", "Arrival window of --workload=cdf, e.g. 200us", o.duration);
    cmd.AddValue("flows", "Max flows of --workload=cdf (0 = no limit)", o.flows);
    cmd.AddValue("parallel",
                 "Max parallel connections per host for --workload=alltoall",
                 o.parallel);
    cmd.AddValue("incastDegree", "Senders of --workload=incast", o.incastDegree);
    cmd.AddValue("bystanders", "Bystander flows of --workload=incast", o.bystanders);
    cmd.AddValue("cc", "Congestion control name", o.cc);
    cmd.AddValue("failures",
                 "Failures, comma-separated: kind:link=ID[:start=T][:end=T][:rate=R][:prob=P]"
                 "[:withdraw=T], kind = silent (lost, routes unchanged) | down (lost, withdrawn "
                 "from routing after withdraw) | degrade (runs at rate) | drop (random loss prob); "
                 "no end = persists",
                 o.failures);
    cmd.AddValue("failLink", "Shortcut: silent failure of this link id (-1 = none)", o.failLink);
    cmd.AddValue("failStart", "Start of --failLink", o.failStart);
    cmd.AddValue("failEnd", "End of --failLink (0 = persists)", o.failEnd);
    cmd.AddValue("degradeLink",
                 "Shortcut: run this link id at --degradeRate (-1 = none)",
                 o.degradeLink);
    cmd.AddValue("degradeRate", "Rate of --degradeLink", o.degradeRate);
    cmd.AddValue("trim", "Enable packet trimming in the switches", o.trim);
    cmd.AddValue("ackRatio", "Data packets per ACK (1 = per-packet ACKs)", o.ackRatio);
    cmd.AddValue("evs", "Entropy value set size (EVS) for the path selectors", o.evs);
    cmd.AddValue("csv", "Write <prefix>-<lb>.csv per-flow files and <prefix>-summary.csv", o.csv);
    cmd.AddValue("json", "Write a JSON summary to this file ('-' = stdout)", o.json);
    cmd.AddValue("quiet", "No progress lines on stderr", o.quiet);
    cmd.AddValue("stopTime", "Simulated-time limit of each run", o.stopTime);
    SetProgramName("dcn-lb-compare");
    cmd.Parse(argc, argv);

    // ---- validate everything before the first simulation
    auto lbs = Split(o.lbs, ',');
    if (lbs.empty())
    {
        Fail("--lb: empty list; allowed: " + DcnSchemeRegistry::NamesString());
    }
    for (const auto& lb : lbs)
    {
        if (!DcnSchemeRegistry::Has(lb))
        {
            Fail("--lb: unknown load balancer '" + lb +
                 "'; allowed: " + DcnSchemeRegistry::NamesString());
        }
    }
    if (!WorkloadPlanner::Has(o.workload))
    {
        Fail("--workload: unknown workload '" + o.workload +
             "'; allowed: permutation, tornado, incast, alltoall, ring, butterfly, allscatter, "
             "cdf");
    }
    if (ParseBytes(o.msgSize) == 0)
    {
        Fail("--msgSize: '" + o.msgSize + "' is not a size >= 1 byte (e.g. 4096, 2MiB, 4MB)");
    }
    if (o.workload == "cdf")
    {
        if (!(o.load > 0.0 && o.load <= 1.0))
        {
            std::ostringstream e;
            e << "--load: " << o.load << " not in (0, 1]";
            Fail(e.str());
        }
        FlowSizeCdf c;
        std::string err = FlowSizeCdf::TryLoad(o.cdf, &c);
        if (!err.empty())
        {
            Fail("--cdf: " + err);
        }
    }
    if (!CongestionControlRegistry::Has(o.cc))
    {
        Fail("--cc: unknown congestion control '" + o.cc +
             "'; allowed: " + CongestionControlRegistry::NamesString());
    }
    if (o.mtu < 64 || o.mtu > 9000)
    {
        Fail("--mtu: " + std::to_string(o.mtu) + " not in [64, 9000]");
    }
    if (o.ackRatio < 1 || o.ackRatio > 255)
    {
        Fail("--ackRatio: " + std::to_string(o.ackRatio) + " not in [1, 255]");
    }
    if (o.evs < 1 || o.evs > 65536)
    {
        Fail("--evs: " + std::to_string(o.evs) + " not in [1, 65536]");
    }
    if (!o.csv.empty())
    {
        MakeParentDir("--csv", o.csv);
    }
    if (!o.json.empty() && o.json != "-")
    {
        MakeParentDir("--json", o.json);
    }
    auto failures = ParseFailures(o.failures);
    if (o.failLink >= 0)
    {
        FailureSpec f;
        f.kind = "silent";
        f.link = o.failLink;
        f.start = ParseTime("--failStart", o.failStart);
        f.end = ParseTime("--failEnd", o.failEnd);
        failures.push_back(f);
    }
    if (o.degradeLink >= 0)
    {
        FailureSpec f;
        f.kind = "degrade";
        f.link = o.degradeLink;
        f.rate = DataRate(o.degradeRate);
        failures.push_back(f);
    }
    // every scheme must fit the topology and transport, and take --evs
    const std::string topoName = MakeFabric(o)->GetTopologyName();
    for (const auto& lb : lbs)
    {
        std::string err = DcnSchemeRegistry::CheckForRun(lb, topoName, "dcn", o.evs);
        if (!err.empty())
        {
            Fail(err);
        }
        // EV set size of every selector that has one (attribute "EvSetSize")
        std::string sel = DcnSchemeRegistry::Get(lb).pathSelector;
        Config::SetDefaultFailSafe(PathSelectorRegistry::TypeIdName(sel) + "::EvSetSize",
                                   UintegerValue(o.evs));
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
    }
    else
    {
        std::cout << " msgSize=" << o.msgSize;
    }
    std::cout << " cc=" << o.cc << " RngRun=" << RngSeedManager::GetRun() << "\n"
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
    std::cout << "BENCH events=" << totalEvents << " packet_hops=" << totalHops << std::endl;
    return 0;
}
