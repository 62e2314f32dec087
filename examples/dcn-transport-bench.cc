/*
 * Transport/fabric speed benchmark: a random permutation (derangement) of one
 * message per host over a FatTreeHelper fabric (DcnSwitchRouting, DcnQueueDisc),
 * DcnTransport with DctcpCc and the chosen path selector.
 *
 *   ./build-release/dcn-transport-bench --topo=reps128 --lb=ops --msgBytes=8388608
 *   ./build-release/dcn-transport-bench --topo=reps1024 --lb=reps
 *   ./build/dcn-transport-bench --topo=small --lb=ecmp --msgBytes=1048576
 *
 * Topologies: reps128 = FatTreeHelper::RepsPaper128() (16 ToRs x 8 hosts, 8 spines),
 * reps1024 = RepsPaper1024() (32 x 32, 32 spines), small = 16 hosts (4 ToRs x 4 hosts,
 * 4 spines); all 400 Gb/s, 2 tiers.
 *
 * Distributed (MPI) runs, with a build that has ns-3's mpi module (tools/mpi-build.sh):
 *
 *   mpirun -np 2 <mpi build>/ns3.37-dcn-transport-bench-optimized --mpi --topo=reps128 ...
 *
 * partitions the fat tree by ToR (2 tiers) or pod (3 tiers) blocks
 * (FatTreeHelper::SystemCount), starts each flow on the rank of its sender and merges
 * the per-flow records and counters on rank 0, which prints the same output; --mpi
 * implies --perHostStreams, so the sequential reference run of the same flows is the
 * same command with --perHostStreams and without mpirun/--mpi (tools/mpi-check.sh).
 *
 * Prints one summary line and, last, `BENCH events=<n> packet_hops=<n>` where
 * packet_hops is the one definition of packet hops (model/stats/packet-hops.h:
 * completed transmissions, PhyTxEnd, on every point-to-point device).  --scheduler picks the ns-3
 * event scheduler (default DcnHeapScheduler, dcn-lb's 4-ary heap, model/sim/; ns3::MapScheduler is
 * ns-3's default; events are ordered by (time, uid) in every scheduler, so results do not depend on
 * it).
 */
#include "ns3/cc-registry.h"
#include "ns3/core-module.h"
#include "ns3/dcn-example-args.h"
#include "ns3/dcn-mpi.h"
#include "ns3/dcn-options.h"
#include "ns3/dcn-pfc-helper.h"
#include "ns3/dcn-queue-disc.h"
#include "ns3/dcn-scheme.h"
#include "ns3/dcn-topology-base.h"
#include "ns3/dcn-transport-helper.h"
#include "ns3/dctcp-cc.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/graph-topology-helper.h"
#include "ns3/internet-module.h"
#include "ns3/packet-hops.h"
#include "ns3/path-selector.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/workload-helper.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <numeric>

using namespace ns3;

namespace
{

DcnPacketHopCounter g_hopCounter; //!< the one definition of packet hops (packet-hops.h)

} // namespace

int
main(int argc, char** argv)
{
    std::string topo = "reps128";
    std::string lb = "ops";
    uint64_t msgBytes = 8 << 20;
    uint32_t seed = 1;
    uint32_t run = 1;
    bool trim = false;
    double stopMs = 100;
    std::string scheduler = "ns3::DcnHeapScheduler";
    bool allowUnfinished = false;
    std::string transport = "dcn";
    bool pfc = false;
    std::string cc; // "" = the scheme's default (DcnSchemeRegistry::DefaultCongestionControl)
    bool mpi = false;
    std::string mpiSync = "granted";
    bool perHostStreams = false;
    std::string flowCsv;
    DcnOptions opts("dcn-transport-bench",
                    "Transport speed: one permutation of msgBytes per host on a fat tree.  Exit "
                    "status: 0 all finished, 2 bad input (one line), 3 a message did not finish "
                    "(unless --allowUnfinished).");
    std::vector<std::string> topos = {"reps128", "reps1024", "small"};
    for (const auto& n : DcnTopologyPresets::Names())
    {
        topos.push_back(n);
    }
    std::string topoParams;
    std::string routing;
    opts.Choice("topo",
                "Topology: fat trees reps128 | reps1024 | small, or a graph preset",
                topo,
                topos);
    opts.Text("topoParams", "Graph presets only: overrides key=value,...", topoParams);
    opts.Text("routing",
              "Graph presets only: switch policy minimal | ecmp | spray | valiant | ugal-l | "
              "source [minimal]",
              routing);
    opts.Choice("lb", "Load balancer (scheme registry name)", lb, DcnSchemeRegistry::Names());
    opts.Size("msgBytes", "Message size (one message per host)", msgBytes).Range(1, 1ULL << 40);
    opts.Unsigned("seed", "RngSeedManager seed (not given: --RngSeed, 1; not both)", seed)
        .Range(1, 4294967295.0);
    opts.Unsigned("run", "RngSeedManager run (not given: --RngRun, 1; not both)", run);
    opts.Bool("trim", "Packet trimming in switches (and Trimming on the transport)", trim);
    opts.Double("stopMs",
                "Simulation time limit in ms (exact to the nanosecond: at least 1e-6)",
                stopMs)
        .Range(1e-6, 3.6e6);
    opts.Choice("scheduler",
                "Event scheduler TypeId (every scheduler gives the same event order, so the "
                "same results; DcnHeapScheduler: fewer instructions and less memory per "
                "pending event than ns-3's default MapScheduler, bench/README.md; not given: "
                "--SchedulerType if given; not both)",
                scheduler,
                {"ns3::MapScheduler",
                 "ns3::DcnHeapScheduler",
                 "ns3::HeapScheduler",
                 "ns3::ListScheduler",
                 "ns3::CalendarScheduler",
                 "ns3::PriorityQueueScheduler"});
    opts.Bool("allowUnfinished", "Exit 0 even if some message did not finish", allowUnfinished);
    opts.Choice("transport",
                "dcn (out of order) or roce (in-order go-back-N, DCQCN by default, PFC on; "
                "doc/roce.rst)",
                transport,
                {"dcn", "roce"});
    opts.Bool("pfc", "PFC and shared-buffer switches (default: on with --transport=roce)", pfc);
    opts.Choice("cc",
                "Congestion control (default: the scheme's own - DCTCP for most, LAPS's AIMD "
                "for laps - with DCTCP replaced by DCQCN under --transport=roce)",
                cc,
                CongestionControlRegistry::Names());
    opts.Bool("mpi",
              "Distributed run on ns-3's MPI simulator (launch with mpirun -np N; build with "
              "tools/mpi-build.sh): fat trees split by ToR/pod blocks, per-flow results merged "
              "on rank 0; implies --perHostStreams (README Distributed runs)",
              mpi);
    opts.Choice("mpiSync",
                "With --mpi: ns-3's synchronisation, granted (DistributedSimulatorImpl) or null "
                "(NullMessageSimulatorImpl)",
                mpiSync,
                {"granted", "null"});
    opts.Bool("perHostStreams",
              "Each sender host draws its path selectors' random streams from its own block "
              "(WorkloadHelper::PerHostSelectorStreams): the sequential run that an --mpi run "
              "reproduces",
              perHostStreams);
    opts.Text("flowCsv",
              "Write the per-flow CSV (FctStats::WriteCsv, sorted by sender host) to this file",
              flowCsv);
    std::string fabric = DcnTopologyBase::DefaultFabricMode();
    opts.Choice("fabric",
                "Fabric mode: auto (fast where allowed, else ipv4), ipv4 (ports behind ns-3's "
                "traffic-control and IPv4 layers) or "
                "fast (DcnPortDevice ports; switches forward from the port to the egress queue; "
                "doc/fabric.rst). Default auto, or $DCNLB_FABRIC",
                fabric,
                {"auto", "ipv4", "fast"});
    bool isFatTree = true; // set from --topo once parsed
    opts.Check([&]() -> std::string {
        // this program sets the seed, run and scheduler itself: ns-3's global values
        // are its defaults, and a pair given together would silently drop one
        for (const auto& [ours, ns3] :
             std::vector<std::pair<std::string, std::string>>{{"seed", "RngSeed"},
                                                              {"run", "RngRun"},
                                                              {"scheduler", "SchedulerType"}})
        {
            if (opts.Given(ours) && opts.Given(ns3))
            {
                return "option --" + ns3 + ": given with --" + ours + " (which sets the same); " +
                       "allowed: one of --" + ours + " and --" + ns3;
            }
        }
        if (opts.Given("SchedulerType"))
        {
            // ns-3's --SchedulerType (checked as a scheduler TypeId): --scheduler's default
            for (int i = 1; i < argc; ++i)
            {
                const std::string a = argv[i];
                if (a.rfind("--SchedulerType=", 0) == 0)
                {
                    scheduler = a.substr(std::string("--SchedulerType=").size());
                }
            }
        }
        if (transport == "roce")
        {
            pfc = opts.Given("pfc") ? pfc : true;
        }
        isFatTree = topo == "reps128" || topo == "reps1024" || topo == "small";
        std::string err = dcnargs::CheckOutputPrefix("flowCsv", flowCsv, "");
        if (!err.empty())
        {
            return err;
        }
        const uint32_t launched = DcnMpi::LaunchedRanks();
        if (!mpi && launched > 1)
        {
            return "option --mpi: not given, but launched by mpirun with " +
                   std::to_string(launched) +
                   " ranks (every rank would run the whole simulation); allowed: --mpi, or "
                   "no mpirun";
        }
        if (mpi && !DcnMpi::Available())
        {
            return "option --mpi: this build has no MPI support (ns-3 without its mpi "
                   "module); allowed: a build from tools/mpi-build.sh (README Distributed "
                   "runs (MPI))";
        }
        if (mpi && !isFatTree)
        {
            return "option --mpi: value for --topo '" + topo +
                   "': distributed runs are partitioned on the fat trees only; allowed: "
                   "--topo=reps128 | reps1024 | small";
        }
        if (isFatTree && (!topoParams.empty() || !routing.empty()))
        {
            return std::string("option --") + (topoParams.empty() ? "routing" : "topoParams") +
                   ": applies only to graph presets (" + dcnopt::Join(DcnTopologyPresets::Names()) +
                   ")";
        }
        if (isFatTree)
        {
            return std::string();
        }
        try
        {
            // the builders refuse sizes above the topology limits (65536 hosts)
            const uint32_t hosts =
                DcnTopologyPresets::Graph(topo, DcnTopologyPresets::ParseOverrides(topoParams))
                    .NHosts();
            if (hosts < 2)
            {
                return "option --topoParams: --topo=" + topo +
                       (topoParams.empty() ? "" : " --topoParams=" + topoParams) + " gives " +
                       std::to_string(hosts) +
                       " host; allowed: at least 2 hosts (a sender and a receiver)";
            }
            if (!routing.empty())
            {
                DcnRoutingPolicies::TypeIdName(routing);
            }
        }
        catch (const DcnOptionError& e)
        {
            std::string m = e.what();
            return m.find("--") != std::string::npos ? m : "option --topoParams: " + m;
        }
        return std::string();
    });
    {
        // every MPI rank parses the same argv: only rank 0 reports bad input
        std::ofstream devnull;
        std::streambuf* errBuf = std::cerr.rdbuf();
        std::streambuf* outBuf = std::cout.rdbuf();
        if (DcnMpi::LaunchedRank() != 0)
        {
            std::cerr.rdbuf(devnull.rdbuf());
            std::cout.rdbuf(devnull.rdbuf());
        }
        opts.Parse(argc, argv);
        std::cerr.rdbuf(errBuf);
        std::cout.rdbuf(outBuf);
    }
    if (mpi && fabric == "fast")
    {
        // ranks are joined by ns-3's PointToPointRemoteChannel, which the fast
        // fabric's DcnPortDevice links do not use
        const char* env = std::getenv("DCNLB_FABRIC");
        bool explicitFast = false;
        for (int i = 1; i < argc; ++i)
        {
            explicitFast |= std::string(argv[i]) == "--fabric=fast";
        }
        if (explicitFast || !env)
        {
            DcnOptions::Exit("dcn-transport-bench",
                             "--fabric=fast with --mpi: ranks are linked by ns-3's "
                             "PointToPointRemoteChannel, which the fast fabric does not use; "
                             "allowed with --mpi: --fabric=ipv4");
        }
        fabric = "ipv4"; // DCNLB_FABRIC=fast: fast where the configuration allows
    }
    if (mpi)
    {
        std::string err = DcnMpi::Enable(&argc, &argv, mpiSync);
        if (!err.empty())
        {
            DcnOptions::Exit("dcn-transport-bench", err);
        }
        perHostStreams = true;
    }
    const uint32_t rank = DcnMpi::GetRank();
    const uint32_t ranks = DcnMpi::GetSize();
    Config::SetDefault("ns3::DcnTopologyBase::FabricMode", StringValue(fabric));
    // --seed / --run if given (both with --RngSeed / --RngRun are refused above);
    // otherwise --RngSeed / --RngRun (ns-3's) apply
    if (!opts.Given("seed"))
    {
        seed = RngSeedManager::GetSeed();
    }
    if (!opts.Given("run"))
    {
        run = static_cast<uint32_t>(RngSeedManager::GetRun());
    }

    auto w0 = std::chrono::steady_clock::now();
    ObjectFactory sched;
    sched.SetTypeId(scheduler);
    Simulator::SetScheduler(sched);
    RngSeedManager::SetSeed(seed);
    RngSeedManager::SetRun(run);

    Ptr<DcnTopology> topology;
    Ptr<FatTreeHelper> ft;
    if (!isFatTree)
    {
        Config::SetDefault("ns3::DcnGraphTopology::TrimEnabled", BooleanValue(trim));
        topology = DcnTopologyPresets::Create(topo,
                                              DcnTopologyPresets::ParseOverrides(topoParams),
                                              routing.empty() ? "minimal" : routing);
    }
    else if (topo == "reps128")
    {
        ft = FatTreeHelper::RepsPaper128();
    }
    else if (topo == "reps1024")
    {
        ft = FatTreeHelper::RepsPaper1024();
    }
    else if (topo == "small")
    {
        ft = CreateObject<FatTreeHelper>();
        ft->SetAttribute("NumTors", UintegerValue(4));
        ft->SetAttribute("HostsPerTor", UintegerValue(4));
        ft->SetAttribute("UplinksPerTor", UintegerValue(4));
    }
    if (cc.empty())
    {
        cc = DcnSchemeRegistry::DefaultCongestionControl(lb, transport);
    }
    {
        // the scheme must run on this topology over the dcn transport, with the attributes given
        std::string err =
            DcnSchemeRegistry::CheckForRun(lb,
                                           ft ? ft->GetTopologyName() : topology->GetTopologyName(),
                                           "dcn",
                                           0,
                                           cc);
        if (!err.empty())
        {
            DcnOptions::Exit("dcn-transport-bench", err);
        }
    }
    if (ft && ranks > ft->GetMaxSystemCount())
    {
        // every rank refuses; rank 0 says why
        if (rank == 0)
        {
            std::cerr << "dcn-transport-bench: error: option --mpi: " << ranks
                      << " ranks; allowed at most " << ft->GetMaxSystemCount()
                      << " for --topo=" << topo << " (one rank per ToR or pod)" << std::endl;
        }
        DcnMpi::Disable();
        return DCN_EXIT_BAD_INPUT;
    }
    if (ft)
    {
        ft->SetAttribute("SystemCount", UintegerValue(ranks));
        ft->SetAttribute("TrimEnabled", BooleanValue(trim));
        ft->Build();
        topology = ft;
    }
    int64_t stream = 1000;
    stream += topology->AssignStreams(stream);
    const uint32_t hosts = topology->GetNHosts();

    g_hopCounter.InstallAll();

    DcnTransportHelper th;
    th.SetTransportAttribute("Trimming", BooleanValue(trim));
    if (transport == "roce")
    {
        // go-back-N, a 1 ms RTO (a scheme's own Mode below wins: LAPS keeps its recovery)
        th.SetRoceDefaults(opts.GetAttributeArguments());
    }
    th.SetSchemeAttributes(lb, opts.GetAttributeArguments()); // e.g. LAPS's backstop Rto
    th.SetRtoFloor(5, opts.GetAttributeArguments());          // >= 5 base RTTs on any fabric
    th.Install(topology->GetHosts());
    if (pfc)
    {
        DcnPfcHelper ph;
        std::string err = ph.Install(topology);
        if (!err.empty())
        {
            DcnOptions::Exit("dcn-transport-bench", err);
        }
    }

    // the one workload driver: a random derangement, msgBytes per host
    Ptr<WorkloadHelper> wl = CreateObject<WorkloadHelper>();
    stream += wl->AssignStreams(stream);
    wl->SetAttribute("Workload", StringValue("permutation"));
    wl->SetAttribute("MessageSize", UintegerValue(msgBytes));
    wl->SetAttribute("LoadBalancer", StringValue(lb));
    wl->SetAttribute("CongestionControl", StringValue(cc));
    wl->SetAttribute("PerHostSelectorStreams", BooleanValue(perHostStreams));
    wl->Install(topology); // stops the simulation when every message completed
    double setup = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();

    auto w1 = std::chrono::steady_clock::now();
    Simulator::Stop(Time::FromDouble(stopMs, Time::MS));
    Simulator::Run();
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w1).count();
    uint64_t events = Simulator::GetEventCount();
    wl->Finalize(); // records of unfinished messages (this rank's senders) with their progress
    // MPI: every rank holds the records of its own senders; rank 0 gets them all.
    // Sorted by sender (then start, receiver) in every mode, so the CSV of a
    // distributed run and of its sequential reference compare line by line.
    std::vector<FctRecord> records = DcnMpi::GatherRecords(wl->GetStats().GetRecords());
    std::stable_sort(records.begin(), records.end(), [](const FctRecord& a, const FctRecord& b) {
        return std::tie(a.src, a.start, a.dst) < std::tie(b.src, b.start, b.dst);
    });
    FctStats stats;
    Time lastFinish(0);
    for (const auto& r : records)
    {
        stats.Add(r);
        lastFinish = r.completed ? std::max(lastFinish, r.finish) : lastFinish;
    }
    uint32_t completed = DcnMpi::Sum(
        uint64_t(wl->GetStats().GetRecords().size() - wl->GetStats().CountUnfinished()));
    // the sequential run stops when the last message completes (StopWhenDone); a
    // distributed run, whose ranks each see only their own completions, runs on to
    // --stopMs: report the same end time (the last completion) when all completed
    const Time runEnd = completed == hosts ? lastFinish : Simulator::Now();
    stats.SetRunEnd(runEnd);

    uint64_t pkts = 0;
    uint64_t retx = 0;
    uint64_t to = 0;
    uint64_t nacks = 0;
    uint64_t delivered = 0;
    for (uint32_t i = 0; i < hosts; ++i)
    {
        // another rank's host: never active here, all zero
        const auto& st = DcnTransportHelper::Get(topology->GetHosts().Get(i))->GetStats();
        pkts += st.dataPacketsSent;
        retx += st.retransmissions;
        to += st.timeouts;
        nacks += st.nacksReceived;
        delivered += st.uniqueBytesDelivered;
    }
    uint64_t pauses = 0;
    uint64_t qdrops = 0;
    double pausedUs = 0;
    for (const DcnLinkInfo& li : topology->GetLinks())
    {
        for (Ptr<NetDevice> d : {Ptr<NetDevice>(li.devA), Ptr<NetDevice>(li.devB)})
        {
            Ptr<DcnQueueDisc> q = topology->GetQueueDisc(d);
            pauses += q ? q->GetNPauseFramesSent() : 0;
            qdrops += q ? q->GetNDropped() : 0;
            pausedUs += q ? q->GetPausedTime().GetSeconds() * 1e6 : 0;
        }
    }
    pkts = DcnMpi::Sum(pkts);
    retx = DcnMpi::Sum(retx);
    to = DcnMpi::Sum(to);
    nacks = DcnMpi::Sum(nacks);
    delivered = DcnMpi::Sum(delivered);
    pauses = DcnMpi::Sum(pauses);
    qdrops = DcnMpi::Sum(qdrops);
    pausedUs = DcnMpi::Sum(pausedUs);
    events = DcnMpi::Sum(events);
    const uint64_t packetHops = DcnMpi::Sum(g_hopCounter.Get());
    wall = DcnMpi::Max(wall);
    setup = DcnMpi::Max(setup);

    std::vector<double> fct;
    for (const auto& r : stats.GetRecords())
    {
        if (r.completed)
        {
            fct.push_back((r.finish - r.start).GetMicroSeconds());
        }
    }
    std::sort(fct.begin(), fct.end());
    if (rank == 0)
    {
        std::cout << "topo=" << topo << " lb=" << lb << " hosts=" << hosts
                  << " msgBytes=" << msgBytes << " completed=" << fct.size() << "/" << hosts
                  << " deliveredBytes=" << delivered << " dataPkts=" << pkts << " retx=" << retx
                  << " timeouts=" << to << " nacks=" << nacks;
        if (pfc)
        {
            std::cout << " transport=" << transport << " cc=" << cc << " pfcPauses=" << pauses
                      << " pfcPausedUs=" << pausedUs << " queueDrops=" << qdrops;
        }
        if (!fct.empty())
        {
            std::cout << " fctMedianUs=" << fct[fct.size() / 2] << " fctMaxUs=" << fct.back();
        }
        if (ranks > 1)
        {
            std::cout << " mpiRanks=" << ranks;
        }
        std::cout << " simTimeUs=" << runEnd.GetMicroSeconds() << " setupS=" << setup
                  << " runWallS=" << wall << " eventsPerS=" << (wall > 0 ? events / wall : 0)
                  << " hopsPerS=" << (wall > 0 ? packetHops / wall : 0) << std::endl;
        if (!flowCsv.empty())
        {
            std::ofstream f(flowCsv);
            stats.WriteCsv(f);
            if (!f)
            {
                std::cerr << "dcn-transport-bench: error: option --flowCsv: cannot write "
                          << flowCsv << std::endl;
            }
        }
    }
    wl->Dispose();
    Simulator::Destroy();
    DcnMpi::Disable();
    if (rank == 0)
    {
        std::cout << "BENCH events=" << events << " packet_hops=" << packetHops << std::endl;
    }
    if (completed != hosts)
    {
        if (rank == 0)
        {
            stats.PrintUnfinished(std::cout, 10);
        }
        if (!allowUnfinished)
        {
            return DCN_EXIT_UNFINISHED;
        }
    }
    return 0;
}
