/*
 * Bench (never a test): build time and memory of a graph-topology preset as an
 * ns-3 network with its routes, and optionally a short permutation.
 *
 *   topo-build-bench <preset> [routing=minimal] [simulate_us=0] [lb=ops]
 *
 * Prints one line per phase (wall seconds, peak RSS in kB from getrusage):
 *   graph      dcn::BuildPreset (ns-3 free)
 *   build      DcnTopologyPresets::Create: nodes, links, queue discs, tables,
 *              DcnRouteInfo (distances, candidates), policies
 *   paths      GetPaths for every ordered switch pair (minimal + Valiant classes)
 *   simulate   (simulate_us > 0) permutation of 1 MiB messages for simulate_us,
 *              events/s and packet-hops/s; then the BENCH line of bench/README.md.
 */
#include "ns3/core-module.h"
#include "ns3/dcn-options.h"
#include "ns3/dcn-route-info.h"
#include "ns3/dcn-transport-helper.h"
#include "ns3/dctcp-cc.h"
#include "ns3/graph-topology-helper.h"
#include "ns3/path-selector.h"
#include "ns3/point-to-point-net-device.h"

#include <chrono>
#include <iostream>
#include <sys/resource.h>

using namespace ns3;

static uint64_t g_hops = 0;

static void
CountHop(Ptr<const Packet>)
{
    ++g_hops;
}

static long
PeakRssKb()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

int
main(int argc, char** argv)
{
    if (argc < 2)
    {
        std::cerr << "usage: topo-build-bench <preset> [routing] [simulate_us] [lb]\n";
        return 2;
    }
    std::string preset = argv[1];
    std::string routing = argc > 2 ? argv[2] : "minimal";
    uint64_t simUs = argc > 3 ? std::stoull(argv[3]) : 0;
    std::string lb = argc > 4 ? argv[4] : "ops";
    using Clock = std::chrono::steady_clock;
    auto since = [](Clock::time_point t0) {
        return std::chrono::duration<double>(Clock::now() - t0).count();
    };
    try
    {
        auto t0 = Clock::now();
        dcn::SwitchGraph g = DcnTopologyPresets::Graph(preset);
        std::cout << "graph    " << preset << " switches=" << g.NSwitches()
                  << " hosts=" << g.NHosts() << " links=" << g.NLinks() << " wall_s=" << since(t0)
                  << " peak_rss_kb=" << PeakRssKb() << "\n";
        t0 = Clock::now();
        Ptr<DcnGraphTopology> t = DcnTopologyPresets::Create(preset, {}, routing, 2);
        t->AssignStreams(1);
        std::cout << "build    routing=" << routing << " wall_s=" << since(t0)
                  << " peak_rss_kb=" << PeakRssKb() << "\n";
        t0 = Clock::now();
        uint64_t nPaths = 0;
        for (uint32_t a = 0; a < t->GetNSwitches(); ++a)
        {
            for (uint32_t b = 0; b < t->GetNSwitches(); ++b)
            {
                nPaths += t->GetPaths(a, b).paths.size();
            }
        }
        std::cout << "paths    all pairs=" << nPaths << " wall_s=" << since(t0)
                  << " peak_rss_kb=" << PeakRssKb() << "\n";
        if (simUs == 0)
        {
            return 0;
        }
        const uint32_t n = t->GetNHosts();
        DcnTransportHelper th;
        th.Install(t->GetHosts());
        for (const DcnLinkInfo& l : t->GetLinks())
        {
            for (auto d : {l.devA, l.devB})
            {
                d->TraceConnectWithoutContext("PhyTxEnd", MakeCallback(&CountHop));
            }
        }
        int64_t stream = 1000;
        const uint32_t mtu = DcnTransportHelper::Get(t->GetHosts().Get(0))->GetMtu();
        for (uint32_t s = 0; s < n; ++s)
        {
            uint32_t d = (s + n / 2 + 1) % n;
            Ptr<PathSelector> ps = PathSelectorRegistry::Create(lb);
            stream += ps->AssignStreams(stream);
            DcnConnectionParams p;
            p.lineRate = t->GetHostLinkRate();
            p.baseRtt = t->GetBaseRtt(s, d, mtu);
            DcnTransportHelper::Get(t->GetHosts().Get(s))
                ->Connect(t->GetHostAddress(d), ps, CreateObject<DctcpCc>(), p)
                ->SendMessage(1 << 20, DcnConnection::CompletionCallback());
        }
        t0 = Clock::now();
        Simulator::Stop(MicroSeconds(simUs));
        Simulator::Run();
        double w = since(t0);
        uint64_t ev = Simulator::GetEventCount();
        std::cout << "simulate us=" << simUs << " lb=" << lb << " wall_s=" << w
                  << " events_per_s=" << ev / w << " packet_hops_per_s=" << g_hops / w
                  << " peak_rss_kb=" << PeakRssKb() << "\n";
        std::cout << "BENCH events=" << ev << " packet_hops=" << g_hops << "\n";
        Simulator::Destroy();
    }
    catch (const DcnOptionError& e)
    {
        std::cerr << e.what() << "\n";
        return 2;
    }
    return 0;
}
