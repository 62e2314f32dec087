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
#include "ns3/packet-hops.h"
#include "ns3/core-module.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/internet-module.h"
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
    CommandLine cmd(__FILE__);
    cmd.AddValue("hosts", "Number of hosts (multiple of hostsPerTor)", hosts);
    cmd.AddValue("hostsPerTor", "Hosts per ToR (2 tiers: also the number of spines)", hostsPerTor);
    cmd.AddValue("tiers", "2 or 3 (3: pods of hostsPerTor ToRs, k-ary style)", tiers);
    cmd.AddValue("routing", "dcn or global", routing);
    cmd.AddValue("duration", "Traffic duration (simulated)", duration);
    cmd.AddValue("load", "Offered load per host, fraction of line rate (0,1]", load);
    cmd.AddValue("size", "UDP payload bytes", size);
    cmd.Parse(argc, argv);
    NS_ABORT_MSG_IF(hostsPerTor == 0 || hosts == 0 || hosts % hostsPerTor != 0,
                    "fabric-bench: hosts="
                        << hosts << " must be a positive multiple of hostsPerTor=" << hostsPerTor);
    NS_ABORT_MSG_IF(load <= 0 || load > 1, "fabric-bench: load=" << load << "; allowed (0,1]");

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
        NS_ABORT_MSG_IF(tors % hostsPerTor != 0,
                        "fabric-bench: 3 tiers need ToRs (" << tors << ") to be a multiple of "
                                                            << hostsPerTor);
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
