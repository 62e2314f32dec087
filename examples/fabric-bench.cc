/*
 * fabric-bench: time building a fat-tree with routes and blasting UDP through
 * it, with dcn-lb's DcnSwitchRouting or ns-3's Ipv4GlobalRouting.
 *
 *   ./build/fabric-bench --hosts=1024 --routing=dcn --duration=200us
 *   ./build/fabric-bench --hosts=1024 --routing=global --duration=200us
 *
 * Traffic: every host sends UDP (4096 B payload, random UDP source port = EV)
 * to host (i + N/2) mod N at --load of its line rate (tornado: every packet
 * crosses the top tier).  Prints wall times, packet-hops per second and, as
 * the last line, "BENCH events=<n> packet_hops=<n>" (packet hops as defined in
 * model/stats/packet-hops.h: PhyTxEnd of every point-to-point device).
 */
#include "ns3/core-module.h"
#include "ns3/dcn-options.h"
#include "ns3/dcn-topo-builders.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/internet-module.h"
#include "ns3/packet-hops.h"
#include "ns3/point-to-point-module.h"

#include <chrono>
#include <iostream>

using namespace ns3;

namespace
{

DcnPacketHopCounter g_hopCounter; //!< the one definition of packet hops (packet-hops.h)

struct Sender
{
    Ptr<Ipv4L3Protocol> ip;
    Ipv4Address src;
    Ipv4Address dst;
    Time gap;
    Time stop;
    Ptr<UniformRandomVariable> ev;
    uint32_t size;
};

void
SendOne(Sender* s)
{
    if (Simulator::Now() >= s->stop)
    {
        return;
    }
    Ptr<Packet> p = Create<Packet>(s->size);
    UdpHeader u;
    u.SetSourcePort(static_cast<uint16_t>(s->ev->GetInteger(1, 65535)));
    u.SetDestinationPort(9);
    p->AddHeader(u);
    s->ip->Send(p, s->src, s->dst, 17, nullptr);
    Simulator::Schedule(s->gap, &SendOne, s);
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t hosts = 1024;
    uint32_t hostsPerTor = 32;
    uint32_t tiers = 2;
    std::string routing = "dcn";
    Time duration = MicroSeconds(200);
    double load = 0.5;
    uint32_t size = 4096;
    DcnOptions opts("fabric-bench",
                    "Raw forwarding speed of the fat-tree fabric (UDP at a fixed load).  Exit "
                    "status 2: bad input (one line on stderr).");
    opts.Unsigned("hosts", "Number of hosts (multiple of hostsPerTor)", hosts).Range(1, 65536);
    opts.Unsigned("hostsPerTor", "Hosts per ToR (2 tiers: also the number of spines)", hostsPerTor)
        .Range(1, 256);
    opts.Unsigned("tiers", "2 or 3 (3: pods of hostsPerTor ToRs, k-ary style)", tiers).Range(2, 3);
    opts.Choice("routing",
                "Routing: dcn (module ECMP) or global (ns-3 global routing)",
                routing,
                {"dcn", "global"});
    opts.Time("duration", "Traffic duration (simulated)", duration)
        .Min(NanoSeconds(1))
        .Max(Seconds(10));
    opts.Double("load", "Offered load per host, fraction of line rate", load)
        .Range(0, 1, true, false);
    opts.Unsigned("size", "UDP payload bytes (fits one packet of the fabric MTU)", size)
        .Range(1, 4472); // 4500 B device MTU - IPv4 - UDP
    opts.Check([&]() -> std::string {
        if (hosts % hostsPerTor != 0)
        {
            return "option --hosts: value '" + std::to_string(hosts) +
                   "' is not a multiple of --hostsPerTor=" + std::to_string(hostsPerTor) +
                   "; allowed: k x hostsPerTor";
        }
        if (tiers == 3 && (hosts / hostsPerTor) % hostsPerTor != 0)
        {
            return "option --hosts: value '" + std::to_string(hosts) +
                   "' gives ToRs not a multiple of --hostsPerTor with --tiers=3; allowed: k x "
                   "hostsPerTor^2";
        }
        // hostsPerTor uplinks per ToR (+ as many per aggregation switch with 3 tiers)
        const std::string size =
            dcn::CheckTopologySize(hosts, uint64_t(hosts) * (tiers == 3 ? 2 : 1));
        if (!size.empty())
        {
            return "option --hosts: value '" + std::to_string(hosts) +
                   "' with --tiers=" + std::to_string(tiers) + " " + size;
        }
        return std::string();
    });
    opts.Parse(argc, argv);

    auto t0 = std::chrono::steady_clock::now();
    Ptr<FatTreeHelper> ft = CreateObject<FatTreeHelper>();
    ft->SetAttribute("Tiers", UintegerValue(tiers));
    ft->SetAttribute("HostsPerTor", UintegerValue(hostsPerTor));
    ft->SetAttribute("UplinksPerTor", UintegerValue(hostsPerTor));
    if (tiers == 2)
    {
        ft->SetAttribute("NumTors", UintegerValue(hosts / hostsPerTor));
    }
    else
    {
        uint32_t tors = hosts / hostsPerTor;
        ft->SetAttribute("TorsPerPod", UintegerValue(hostsPerTor));
        ft->SetAttribute("NumPods", UintegerValue(tors / hostsPerTor));
        ft->SetAttribute("AggUplinks", UintegerValue(hostsPerTor));
    }
    ft->SetAttribute("Routing", StringValue(routing));
    ft->Build();
    ft->AssignStreams(1);
    auto t1 = std::chrono::steady_clock::now();

    g_hopCounter.Reset();
    g_hopCounter.InstallAll();
    const uint32_t nSwitches = ft->GetAllSwitches().GetN();
    uint32_t n = ft->GetNHosts();
    std::vector<Sender> senders(n);
    DataRate rate = ft->GetHostLinkRate();
    Time gap = rate.CalculateBytesTxTime(size + 30) / load;
    for (uint32_t i = 0; i < n; ++i)
    {
        Sender& s = senders[i];
        s.ip = ft->GetHosts().Get(i)->GetObject<Ipv4L3Protocol>();
        s.src = ft->GetHostAddress(i);
        s.dst = ft->GetHostAddress((i + n / 2) % n);
        s.gap = gap;
        s.stop = MicroSeconds(1) + duration;
        s.ev = CreateObject<UniformRandomVariable>();
        s.ev->SetStream(1000 + i);
        s.size = size;
        Simulator::Schedule(MicroSeconds(1) + NanoSeconds(i % 97), &SendOne, &s);
    }
    Simulator::Stop(MicroSeconds(1) + duration + MicroSeconds(50));
    Simulator::Run();
    auto t2 = std::chrono::steady_clock::now();
    uint64_t events = Simulator::GetEventCount();
    Simulator::Destroy();

    double build = std::chrono::duration<double>(t1 - t0).count();
    double run = std::chrono::duration<double>(t2 - t1).count();
    std::cout << "routing=" << routing << " hosts=" << n << " tiers=" << tiers
              << " switches=" << nSwitches << "\n";
    std::cout << "build_s=" << build << " run_s=" << run << " events/s=" << events / run
              << " packet_hops/s=" << g_hopCounter.Get() / run << "\n";
    std::cout << "BENCH events=" << events << " packet_hops=" << g_hopCounter.Get() << std::endl;
    return 0;
}
