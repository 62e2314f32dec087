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
 * Prints one summary line and, last, `BENCH events=<n> packet_hops=<n>` where
 * packet_hops is the one definition of packet hops (model/stats/packet-hops.h:
 * completed transmissions, PhyTxEnd, on every point-to-point device).  --scheduler picks the ns-3
 * event scheduler (default MapScheduler, ns-3's default; events are ordered by (time, uid) in every
 * scheduler, so results do not depend on it).
 */
#include "ns3/cc-registry.h"
#include "ns3/core-module.h"
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
    std::string scheduler = "ns3::MapScheduler";
    bool allowUnfinished = false;
    std::string transport = "dcn";
    bool pfc = false;
    std::string cc = "dctcp";
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
    opts.Unsigned("seed", "RngSeedManager seed (not given: --RngSeed, 1)", seed)
        .Range(1, 4294967295.0);
    opts.Unsigned("run", "RngSeedManager run (not given: --RngRun, 1)", run);
    opts.Bool("trim", "Packet trimming in switches (and Trimming on the transport)", trim);
    opts.Double("stopMs", "Simulation time limit in ms", stopMs).Range(0, 3.6e6, true, false);
    opts.Choice("scheduler",
                "Event scheduler TypeId (any ns-3 scheduler gives the same event order; "
                "MapScheduler and HeapScheduler measured equally fast here)",
                scheduler,
                {"ns3::MapScheduler",
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
                "Congestion control (default: dctcp; dcqcn with --transport=roce)",
                cc,
                CongestionControlRegistry::Names());
    std::string fabric = DcnTopologyBase::DefaultFabricMode();
    opts.Choice("fabric",
                "Fabric mode: ipv4 (ports behind ns-3's traffic-control and IPv4 layers) or "
                "fast (DcnPortDevice ports; switches forward from the port to the egress queue; "
                "doc/fabric.rst). Default ipv4, or $DCNLB_FABRIC",
                fabric,
                {"ipv4", "fast"});
    bool isFatTree = true; // set from --topo once parsed
    opts.Check([&]() -> std::string {
        if (transport == "roce")
        {
            bool pfcGiven = false;
            bool ccGiven = false;
            for (int i = 1; i < argc; ++i)
            {
                const std::string a = argv[i];
                pfcGiven |= a == "--pfc" || a.rfind("--pfc=", 0) == 0;
                ccGiven |= a == "--cc" || a.rfind("--cc=", 0) == 0;
            }
            pfc = pfcGiven ? pfc : true;
            cc = ccGiven ? cc : "dcqcn";
        }
        isFatTree = topo == "reps128" || topo == "reps1024" || topo == "small";
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
            DcnTopologyPresets::Graph(topo, DcnTopologyPresets::ParseOverrides(topoParams));
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
    opts.Parse(argc, argv);
    Config::SetDefault("ns3::DcnTopologyBase::FabricMode", StringValue(fabric));
    // --seed / --run win if given; otherwise --RngSeed / --RngRun (ns-3's) apply
    bool seedGiven = false;
    bool runGiven = false;
    for (int i = 1; i < argc; ++i)
    {
        std::string a = argv[i];
        seedGiven = seedGiven || a.rfind("--seed=", 0) == 0;
        runGiven = runGiven || a.rfind("--run=", 0) == 0;
    }
    if (!seedGiven)
    {
        seed = RngSeedManager::GetSeed();
    }
    if (!runGiven)
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
    {
        // the scheme must run on this topology over the dcn transport
        std::string err = DcnSchemeRegistry::CheckCompatible(lb,
                                                             ft ? ft->GetTopologyName()
                                                                : topology->GetTopologyName(),
                                                             "dcn");
        if (!err.empty())
        {
            DcnOptions::Exit("dcn-transport-bench", err);
        }
    }
    if (ft)
    {
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
        th.SetTransportAttribute("Mode", StringValue("InOrder")); // go-back-N
    }
    th.Install(topology->GetHosts());
    if (pfc)
    {
        DcnPfcHelper ph;
        std::string err = ph.Install(topology);
        if (!err.empty())
        {
            DcnOptions::Exit("dcn-transport-bench", "option --pfc: " + err);
        }
    }

    // the one workload driver: a random derangement, msgBytes per host
    Ptr<WorkloadHelper> wl = CreateObject<WorkloadHelper>();
    stream += wl->AssignStreams(stream);
    wl->SetAttribute("Workload", StringValue("permutation"));
    wl->SetAttribute("MessageSize", UintegerValue(msgBytes));
    wl->SetAttribute("LoadBalancer", StringValue(lb));
    wl->SetAttribute("CongestionControl", StringValue(cc));
    wl->Install(topology); // stops the simulation when every message completed
    double setup = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();

    auto w1 = std::chrono::steady_clock::now();
    Simulator::Stop(MicroSeconds(static_cast<int64_t>(stopMs * 1000)));
    Simulator::Run();
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w1).count();
    uint64_t events = Simulator::GetEventCount();
    wl->Finalize(); // records of unfinished messages with their real progress
    FctStats stats = wl->GetStats();
    stats.SetRunEnd(Simulator::Now());

    uint64_t pkts = 0;
    uint64_t retx = 0;
    uint64_t to = 0;
    uint64_t nacks = 0;
    uint64_t delivered = 0;
    for (uint32_t i = 0; i < hosts; ++i)
    {
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
    std::vector<double> fct;
    for (const auto& r : stats.GetRecords())
    {
        if (r.completed)
        {
            fct.push_back((r.finish - r.start).GetMicroSeconds());
        }
    }
    std::sort(fct.begin(), fct.end());
    std::cout << "topo=" << topo << " lb=" << lb << " hosts=" << hosts << " msgBytes=" << msgBytes
              << " completed=" << fct.size() << "/" << hosts << " deliveredBytes=" << delivered
              << " dataPkts=" << pkts << " retx=" << retx << " timeouts=" << to
              << " nacks=" << nacks;
    if (pfc)
    {
        std::cout << " transport=" << transport << " cc=" << cc << " pfcPauses=" << pauses
                  << " pfcPausedUs=" << pausedUs << " queueDrops=" << qdrops;
    }
    if (!fct.empty())
    {
        std::cout << " fctMedianUs=" << fct[fct.size() / 2] << " fctMaxUs=" << fct.back();
    }
    std::cout << " simTimeUs=" << Simulator::Now().GetMicroSeconds() << " setupS=" << setup
              << " runWallS=" << wall << " eventsPerS=" << (wall > 0 ? events / wall : 0)
              << " hopsPerS=" << (wall > 0 ? g_hopCounter.Get() / wall : 0) << std::endl;
    wl->Dispose();
    Simulator::Destroy();
    std::cout << "BENCH events=" << events << " packet_hops=" << g_hopCounter.Get() << std::endl;
    if (fct.size() != hosts)
    {
        stats.PrintUnfinished(std::cout, 10);
        if (!allowUnfinished)
        {
            return DCN_EXIT_UNFINISHED;
        }
    }
    return 0;
}
