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
#include "ns3/core-module.h"
#include "ns3/dcn-scheme.h"
#include "ns3/dcn-transport-helper.h"
#include "ns3/dctcp-cc.h"
#include "ns3/fat-tree-helper.h"
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
    CommandLine cmd(__FILE__);
    cmd.AddValue("topo", "topology: reps128 | reps1024 | small", topo);
    cmd.AddValue("lb", "path selector name (ecmp | ops | reps | ...)", lb);
    cmd.AddValue("msgBytes", "message size in bytes (one message per host)", msgBytes);
    cmd.AddValue("seed", "RngSeedManager seed", seed);
    cmd.AddValue("run", "RngSeedManager run", run);
    cmd.AddValue("trim", "packet trimming in switches (and Trimming on the transport)", trim);
    cmd.AddValue("stopMs", "simulation time limit in ms", stopMs);
    cmd.AddValue("scheduler",
                 "event scheduler TypeId (any ns-3 scheduler gives the same event order; "
                 "MapScheduler and HeapScheduler measured equally fast here)",
                 scheduler);
    cmd.Parse(argc, argv);
    if (!DcnSchemeRegistry::Has(lb))
    {
        std::cerr << "dcn-transport-bench: error: --lb: unknown load balancer '" << lb
                  << "'; allowed: " << DcnSchemeRegistry::NamesString() << std::endl;
        return 1;
    }
    NS_ABORT_MSG_IF(msgBytes == 0, "--msgBytes=0 is invalid; allowed >= 1");

    auto w0 = std::chrono::steady_clock::now();
    ObjectFactory sched;
    sched.SetTypeId(scheduler);
    Simulator::SetScheduler(sched);
    RngSeedManager::SetSeed(seed);
    RngSeedManager::SetRun(run);

    Ptr<FatTreeHelper> ft;
    if (topo == "reps128")
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
    else
    {
        NS_ABORT_MSG("--topo=" << topo << " is invalid; allowed reps128 | reps1024 | small");
    }
    ft->SetAttribute("TrimEnabled", BooleanValue(trim));
    ft->Build();
    int64_t stream = 1000;
    stream += ft->AssignStreams(stream);
    const uint32_t hosts = ft->GetNHosts();

    g_hopCounter.InstallAll();

    DcnTransportHelper th;
    th.SetTransportAttribute("Trimming", BooleanValue(trim));
    th.Install(ft->GetHosts());

    // the one workload driver: a random derangement, msgBytes per host
    Ptr<WorkloadHelper> wl = CreateObject<WorkloadHelper>();
    stream += wl->AssignStreams(stream);
    wl->SetAttribute("Workload", StringValue("permutation"));
    wl->SetAttribute("MessageSize", UintegerValue(msgBytes));
    wl->SetAttribute("LoadBalancer", StringValue(lb));
    wl->SetAttribute("CongestionControl", StringValue("dctcp"));
    wl->Install(ft); // stops the simulation when every message completed
    double setup = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();

    auto w1 = std::chrono::steady_clock::now();
    Simulator::Stop(MicroSeconds(static_cast<int64_t>(stopMs * 1000)));
    Simulator::Run();
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w1).count();
    uint64_t events = Simulator::GetEventCount();

    uint64_t pkts = 0;
    uint64_t retx = 0;
    uint64_t to = 0;
    uint64_t nacks = 0;
    uint64_t delivered = 0;
    for (uint32_t i = 0; i < hosts; ++i)
    {
        const auto& st = DcnTransportHelper::Get(ft->GetHosts().Get(i))->GetStats();
        pkts += st.dataPacketsSent;
        retx += st.retransmissions;
        to += st.timeouts;
        nacks += st.nacksReceived;
        delivered += st.uniqueBytesDelivered;
    }
    std::vector<double> fct;
    for (const auto& r : wl->GetStats().GetRecords())
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
    return fct.size() == hosts ? 0 : 1;
}
