/*
 * Transport speed benchmark (no fabric dependency): permutation of one message
 * per host over a 2-tier leaf-spine built from ns-3 built-ins
 * (Ipv4GlobalRouting with per-packet random ECMP).  Prints wall time, events
 * and FCT summary.
 *
 *   ./build/dcn-transport-bench --hosts=128 --msgBytes=8388608 --lb=ops
 */
#include "ns3/core-module.h"
#include "ns3/dcn-transport-helper.h"
#include "ns3/dctcp-cc.h"
#include "ns3/internet-module.h"
#include "ns3/path-selector.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <chrono>
#include <numeric>

using namespace ns3;

int
main(int argc, char** argv)
{
    uint32_t hosts = 128;
    uint32_t perTor = 16;
    uint64_t msgBytes = 8 << 20;
    std::string lb = "ops";
    std::string rate = "400Gbps";
    CommandLine cmd;
    cmd.AddValue("hosts", "number of hosts (multiple of perTor)", hosts);
    cmd.AddValue("perTor", "hosts per ToR (= number of spines)", perTor);
    cmd.AddValue("msgBytes", "message size", msgBytes);
    cmd.AddValue("lb", "path selector name", lb);
    cmd.AddValue("rate", "link rate", rate);
    cmd.Parse(argc, argv);
    NS_ABORT_MSG_IF(perTor == 0 || hosts % perTor != 0 || hosts < 2,
                    "hosts = " << hosts << " must be a multiple of perTor = " << perTor);
    uint32_t tors = hosts / perTor;

    Config::SetDefault("ns3::Ipv4GlobalRouting::RandomEcmpRouting", BooleanValue(true));
    NodeContainer h;
    NodeContainer t;
    NodeContainer s;
    h.Create(hosts);
    t.Create(tors);
    s.Create(perTor);
    InternetStackHelper inet;
    inet.Install(h);
    inet.Install(t);
    inet.Install(s);
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue(rate));
    p2p.SetDeviceAttribute("Mtu", UintegerValue(9000));
    p2p.SetChannelAttribute("Delay", TimeValue(NanoSeconds(500)));
    p2p.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("1000p"));
    Ipv4AddressHelper addr("10.0.0.0", "255.255.255.252");
    TrafficControlHelper tch;
    tch.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", StringValue("1000p"));
    for (uint32_t i = 0; i < hosts; ++i)
    {
        NetDeviceContainer d = p2p.Install(h.Get(i), t.Get(i / perTor));
        tch.Install(d);
        addr.Assign(d);
        addr.NewNetwork();
    }
    for (uint32_t a = 0; a < tors; ++a)
    {
        for (uint32_t b = 0; b < perTor; ++b)
        {
            NetDeviceContainer d = p2p.Install(t.Get(a), s.Get(b));
            tch.Install(d);
            addr.Assign(d);
            addr.NewNetwork();
        }
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    DcnTransportHelper th;
    th.Install(h);
    Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
    std::vector<uint32_t> perm(hosts);
    std::iota(perm.begin(), perm.end(), 0);
    // random derangement-ish permutation
    for (uint32_t i = hosts - 1; i > 0; --i)
    {
        std::swap(perm[i], perm[u->GetInteger(0, i)]);
    }
    for (uint32_t i = 0; i < hosts; ++i)
    {
        if (perm[i] == i)
        {
            std::swap(perm[i], perm[(i + 1) % hosts]);
        }
    }
    std::vector<double> fct;
    for (uint32_t i = 0; i < hosts; ++i)
    {
        Ptr<DcnTransport> tr = DcnTransportHelper::Get(h.Get(i));
        DcnConnectionParams p;
        p.lineRate = DataRate(rate);
        p.baseRtt = MicroSeconds(8);
        Ipv4Address dst = h.Get(perm[i])->GetObject<Ipv4>()->GetAddress(1, 0).GetLocal();
        Ptr<DcnConnection> c =
            tr->Connect(dst, PathSelectorRegistry::Create(lb), CreateObject<DctcpCc>(), p);
        c->SendMessage(msgBytes, DcnConnection::CompletionCallback([&fct](const DcnMessageRecord& r) {
                           fct.push_back((r.finish - r.start).GetMicroSeconds());
                       }));
    }
    auto w0 = std::chrono::steady_clock::now();
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
    uint64_t pkts = 0;
    uint64_t retx = 0;
    uint64_t to = 0;
    for (uint32_t i = 0; i < hosts; ++i)
    {
        const auto& st = DcnTransportHelper::Get(h.Get(i))->GetStats();
        pkts += st.dataPacketsSent;
        retx += st.retransmissions;
        to += st.timeouts;
    }
    std::sort(fct.begin(), fct.end());
    std::cout << "lb=" << lb << " hosts=" << hosts << " msgBytes=" << msgBytes
              << " completed=" << fct.size() << "/" << hosts << " dataPkts=" << pkts
              << " retx=" << retx << " timeouts=" << to;
    if (!fct.empty())
    {
        std::cout << " fctMedianUs=" << fct[fct.size() / 2] << " fctMaxUs=" << fct.back();
    }
    std::cout << " simTimeUs=" << Simulator::Now().GetMicroSeconds() << " wallS=" << wall
              << std::endl;
    Simulator::Destroy();
    return 0;
}
