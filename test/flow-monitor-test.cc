/*
 * dcn-lb-flow-monitor: ns-3's FlowMonitor, installed by FlowMonitorHelper on the
 * hosts of an IPv4-stack run (our transport over Ipv4L3Protocol, our switches),
 * reports every flow with the right byte and packet counts.
 *
 * FlowMonitor's Ipv4FlowClassifier keys flows by the 5-tuple, and our UDP source
 * port is the EV: with ECMP (one EV per connection) every message is exactly one
 * FlowMonitor flow; with per-packet spraying (REPS) a message is as many
 * FlowMonitor flows as distinct EVs it used, and their sum is the message.
 * Byte counts are IPv4 bytes (IPv4 + UDP + DcnHeader + payload), as FlowMonitor
 * counts them.
 *
 * Setup: 8-host 2-tier fat-tree at 100 Gb/s, host i sends one message of a
 * distinct size to host i+1 (mod 8), so each directed host pair carries either
 * data or ACKs, never both.
 *
 * ns-3 TCP through the TCP shim (issue 17 item 1, "FlowMonitor and pcap still work"):
 * FlowMonitor on the hosts of a 2 x 4 leaf-spine running TcpDctcp over DcnTcpShim
 * (lb=ecmp and lb=hermes): every segment is one IPv4 packet of protocol 17 to the shim's
 * UDP port 4792 (the EV in the source port), so FlowMonitor classifies each TCP
 * connection direction as UDP flows; their packet counts equal what the shims sent and
 * delivered, bytes are IPv4 bytes (payload + 20 + 8 + 28 shim + the TCP header), nothing
 * is lost, and Hermes's 62-byte probes and replies are separate flows between the rack
 * agents and the first host of the other rack.
 */
#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/dcn-header.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-tcp-shim-header.h"
#include "ns3/dcn-tcp-transport-helper.h"
#include "ns3/dcn-transport-helper.h"
#include "ns3/dcn-transport.h"
#include "ns3/dctcp-cc.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/flow-monitor-helper.h"
#include "ns3/flow-monitor.h"
#include "ns3/graph-topology-helper.h"
#include "ns3/ipv4-flow-classifier.h"
#include "ns3/path-selector.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"
#include "ns3/workload-helper.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace ns3
{
namespace dcntest
{

/** Distinct EVs chosen by one host's transport, and how many packets. */
struct FmEvRecorder
{
    std::set<uint16_t> evs;
    uint32_t n{0};

    void PathChosen(uint32_t, uint32_t, uint16_t ev)
    {
        evs.insert(ev);
        n++;
    }
};

/** Sum of FlowMonitor flows of one directed host pair. */
struct FmPairSum
{
    uint32_t flows{0};
    uint64_t txBytes{0};
    uint64_t rxBytes{0};
    uint64_t txPackets{0};
    uint64_t rxPackets{0};
    uint64_t lost{0};
    bool allToDcnPort{true};
};

class FlowMonitorTestCase : public TestCase
{
  public:
    explicit FlowMonitorTestCase(const std::string& lb)
        : TestCase("FlowMonitorHelper on the hosts: every flow, exact bytes, lb=" + lb),
          m_lb(lb)
    {
    }

  private:
    static void Completed(uint32_t* n, const DcnMessageRecord&)
    {
        (*n)++;
    }

    void DoRun() override
    {
        RngSeedManager::SetSeed(7);
        RngSeedManager::SetRun(1);
        Ptr<FatTreeHelper> ft = FatTreeHelper::TwoTier(2, 4, 4);
        ft->SetAttribute("HostLinkRate", DataRateValue(DataRate("100Gbps")));
        ft->SetAttribute("FabricLinkRate", DataRateValue(DataRate("100Gbps")));
        ft->Build();
        int64_t stream = 30;
        stream += ft->AssignStreams(stream);
        const uint32_t n = ft->GetNHosts();

        DcnTransportHelper th;
        // FlowMonitor hooks Ipv4L3Protocol: keep the host stack in FabricMode=fast too
        th.SetTransportAttribute("StackBypass", BooleanValue(false));
        th.Install(ft->GetHosts());
        FlowMonitorHelper fmh;
        Ptr<FlowMonitor> fm = fmh.Install(ft->GetHosts());

        std::vector<FmEvRecorder> rec(n);
        std::vector<uint64_t> size(n);
        uint32_t completed = 0;
        const uint32_t mtu = DcnTransportHelper::Get(ft->GetHosts().Get(0))->GetMtu();
        for (uint32_t i = 0; i < n; ++i)
        {
            const uint32_t dst = (i + 1) % n;
            Ptr<DcnTransport> t = DcnTransportHelper::Get(ft->GetHosts().Get(i));
            t->TraceConnectWithoutContext("PathChosen",
                                          MakeCallback(&FmEvRecorder::PathChosen, &rec[i]));
            Ptr<PathSelector> ps = PathSelectorRegistry::Create(m_lb);
            stream += ps->AssignStreams(stream);
            DcnConnectionParams p;
            p.lineRate = ft->GetHostLinkRate();
            p.baseRtt = ft->GetBaseRtt(i, dst, mtu);
            Ptr<DcnConnection> c =
                t->Connect(ft->GetHostAddress(dst), ps, CreateObject<DctcpCc>(), p);
            size[i] = 32 * 1024 + i * 5000 + 123; // distinct sizes, partial last packet
            c->SendMessage(size[i],
                           DcnConnection::CompletionCallback(
                               MakeBoundCallback(&FlowMonitorTestCase::Completed, &completed)));
        }
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        fm->CheckForLostPackets();

        Ptr<Ipv4FlowClassifier> cls = DynamicCast<Ipv4FlowClassifier>(fmh.GetClassifier());
        NS_TEST_ASSERT_MSG_NE(cls, nullptr, "IPv4 classifier");
        std::map<std::pair<uint32_t, uint32_t>, FmPairSum> sums;
        uint32_t unknownHosts = 0;
        uint32_t perMessageExact = 0;
        for (const auto& kv : fm->GetFlowStats())
        {
            Ipv4FlowClassifier::FiveTuple t = cls->FindFlow(kv.first);
            const uint32_t s = ft->GetHostIndex(t.sourceAddress);
            const uint32_t d = ft->GetHostIndex(t.destinationAddress);
            if (s >= n || d >= n)
            {
                unknownHosts++;
                continue;
            }
            FmPairSum& ps = sums[{s, d}];
            ps.flows++;
            ps.txBytes += kv.second.txBytes;
            ps.rxBytes += kv.second.rxBytes;
            ps.txPackets += kv.second.txPackets;
            ps.rxPackets += kv.second.rxPackets;
            ps.lost += kv.second.lostPackets;
            ps.allToDcnPort =
                ps.allToDcnPort && t.protocol == 17 && t.destinationPort == DcnHeader::UDP_PORT;
        }
        uint64_t retx = 0;
        for (uint32_t i = 0; i < n; ++i)
        {
            retx += DcnTransportHelper::Get(ft->GetHosts().Get(i))->GetStats().retransmissions;
        }
        Simulator::Destroy();

        NS_TEST_ASSERT_MSG_EQ(completed, n, "every message completes");
        NS_TEST_ASSERT_MSG_EQ(retx, 0u, "no retransmission (byte counts are then exact)");
        NS_TEST_ASSERT_MSG_EQ(unknownHosts, 0u, "FlowMonitor sees only host addresses");
        NS_TEST_ASSERT_MSG_EQ(sums.size(), 2u * n, "one data and one ACK direction per message");
        const uint32_t hdr = DcnHeader().GetSerializedSize(); // data packets carry no EV list
        for (uint32_t i = 0; i < n; ++i)
        {
            const uint32_t dst = (i + 1) % n;
            const FmPairSum& data = sums[{i, dst}];
            const FmPairSum& ack = sums[{dst, i}];
            const uint64_t pkts = (size[i] + mtu - 1) / mtu;
            const uint64_t bytes = size[i] + pkts * (20 + 8 + hdr);
            NS_TEST_ASSERT_MSG_EQ(data.allToDcnPort && ack.allToDcnPort, true, "UDP to 4791");
            NS_TEST_ASSERT_MSG_EQ(data.txPackets, pkts, "data packets of message " << i);
            NS_TEST_ASSERT_MSG_EQ(data.txBytes, bytes, "IPv4 bytes of message " << i);
            NS_TEST_ASSERT_MSG_EQ(data.rxBytes, bytes, "every byte received, message " << i);
            NS_TEST_ASSERT_MSG_EQ(data.rxPackets, pkts, "every packet received");
            NS_TEST_ASSERT_MSG_EQ(data.lost, 0u, "nothing lost");
            NS_TEST_ASSERT_MSG_EQ(data.flows, rec[i].evs.size(), "one FlowMonitor flow per EV");
            NS_TEST_ASSERT_MSG_EQ(rec[i].n, pkts, "PathChosen once per data packet");
            NS_TEST_ASSERT_MSG_GT(ack.rxPackets, 0u, "ACKs seen in the reverse direction");
            NS_TEST_ASSERT_MSG_EQ(ack.rxBytes, ack.txBytes, "every ACK byte received");
            perMessageExact += data.flows == 1 ? 1 : 0;
        }
        if (m_lb == "ecmp")
        {
            NS_TEST_ASSERT_MSG_EQ(perMessageExact, n, "ECMP: each message is one FlowMonitor flow");
        }
        else
        {
            NS_TEST_ASSERT_MSG_LT(perMessageExact, n, "spraying splits messages over EVs");
        }
    }

    std::string m_lb;
};

class FlowMonitorTcpShimTestCase : public TestCase
{
  public:
    explicit FlowMonitorTcpShimTestCase(const std::string& lb)
        : TestCase("FlowMonitor with ns-3 TCP through the shim: flows, packets, bytes, lb=" + lb),
          m_lb(lb)
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(7);
        RngSeedManager::SetRun(1);
        // 2 leaves x 4 spines, 4 hosts per leaf (0..3 | 4..7), 10 Gb/s
        Ptr<DcnGraphTopology> t = DcnTopologyPresets::Create("hermes-testbed",
                                                             {{"spines", "4"},
                                                              {"linksPerPair", "1"},
                                                              {"hostsPerLeaf", "4"},
                                                              {"hostRate", "10e9"},
                                                              {"oversubscription", "1"}},
                                                             "minimal");
        int64_t stream = 1;
        stream += t->AssignStreams(stream);
        DcnTcpTransportHelper th;
        th.SetCongestionControl("dctcp");
        th.InstallOnHosts(t);
        FlowMonitorHelper fmh;
        Ptr<FlowMonitor> fm = fmh.Install(t->GetHosts());

        // flows 400 us apart (Hermes probes every 500 us); data pairs avoid hosts 0 and 4
        // (Hermes probes go from a rack agent to the first
        // host of the other rack), and no pair carries both data and ACKs
        const std::vector<std::pair<uint32_t, uint32_t>> pairs =
            {{1, 5}, {2, 6}, {3, 7}, {5, 2}, {6, 3}, {7, 1}};
        WorkloadPlan plan;
        plan.name = "fm-tcp";
        plan.nHosts = t->GetNHosts();
        std::map<std::pair<uint32_t, uint32_t>, uint64_t> size;
        for (uint32_t i = 0; i < pairs.size(); ++i)
        {
            size[pairs[i]] = 40000 + i * 7001; // distinct sizes, partial last segments
            plan.messages.push_back(
                {pairs[i].first, pairs[i].second, size[pairs[i]], MicroSeconds(400 * i), {}, 0});
        }
        Ptr<WorkloadHelper> wl = CreateObject<WorkloadHelper>();
        stream = std::max<int64_t>(stream, 1000);
        stream += wl->AssignStreams(stream);
        wl->SetPlan(plan);
        wl->SetAttribute("LoadBalancer", StringValue(m_lb));
        wl->SetAttribute("ConnectionPolicy", StringValue("NewPerMessage"));
        wl->Install(t);
        Simulator::Stop(MilliSeconds(50));
        Simulator::Run();
        fm->CheckForLostPackets();
        wl->Finalize();
        const FctSummary sum = wl->GetStats().Summarize();

        DcnTcpShimStats shim;
        for (uint32_t h = 0; h < t->GetNHosts(); ++h)
        {
            const DcnTcpShimStats& s =
                t->GetHosts().Get(h)->GetObject<DcnTcpTransport>()->GetShim()->GetStats();
            shim.encapsulated += s.encapsulated;
            shim.decapsulated += s.decapsulated;
            shim.retransmissions += s.retransmissions;
            shim.probesSent += s.probesSent;
            shim.probeRepliesReceived += s.probeRepliesReceived;
        }

        Ptr<Ipv4FlowClassifier> cls = DynamicCast<Ipv4FlowClassifier>(fmh.GetClassifier());
        NS_TEST_ASSERT_MSG_NE(cls, nullptr, "IPv4 classifier");
        std::map<std::pair<uint32_t, uint32_t>, FmPairSum> sums;
        FmPairSum other; // pairs without data or ACKs of the plan: probes and replies
        uint32_t unknownHosts = 0;
        bool allShim = true;
        for (const auto& kv : fm->GetFlowStats())
        {
            Ipv4FlowClassifier::FiveTuple ft = cls->FindFlow(kv.first);
            const uint32_t s = t->GetHostIndex(ft.sourceAddress);
            const uint32_t d = t->GetHostIndex(ft.destinationAddress);
            if (s >= t->GetNHosts() || d >= t->GetNHosts())
            {
                unknownHosts++;
                continue;
            }
            allShim =
                allShim && ft.protocol == 17 && ft.destinationPort == DcnTcpShimHeader::UDP_PORT;
            const bool planned = size.count({s, d}) > 0 || size.count({d, s}) > 0;
            FmPairSum& ps = planned ? sums[{s, d}] : other;
            ps.flows++;
            ps.txBytes += kv.second.txBytes;
            ps.rxBytes += kv.second.rxBytes;
            ps.txPackets += kv.second.txPackets;
            ps.rxPackets += kv.second.rxPackets;
            ps.lost += kv.second.lostPackets;
        }
        wl->Dispose();
        Simulator::Destroy();

        NS_TEST_ASSERT_MSG_EQ(sum.count, pairs.size(), "every flow completes");
        NS_TEST_ASSERT_MSG_EQ(sum.unfinished, 0u, "nothing unfinished");
        NS_TEST_ASSERT_MSG_EQ(shim.retransmissions, 0u, "no retransmission (counts are exact)");
        NS_TEST_ASSERT_MSG_EQ(unknownHosts, 0u, "FlowMonitor sees only host addresses");
        NS_TEST_ASSERT_MSG_EQ(allShim, true, "every flow is UDP to the shim port 4792");
        NS_TEST_ASSERT_MSG_EQ(sums.size(), 2 * pairs.size(), "a data and an ACK direction each");
        uint64_t tx = 0;
        uint64_t rx = 0;
        const uint32_t shimHdr = 20 + 8 + DcnTcpShimHeader().GetSerializedSize();
        for (const auto& p : pairs)
        {
            const FmPairSum& data = sums[p];
            const FmPairSum& ack = sums[{p.second, p.first}];
            tx += data.txPackets + ack.txPackets;
            rx += data.rxPackets + ack.rxPackets;
            const uint64_t segs = (size[p] + 1399) / 1400;
            NS_TEST_ASSERT_MSG_GT_OR_EQ(data.txPackets, segs, "at least one packet per segment");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(data.txPackets, segs + 4, "plus SYN, ACK, FIN at most");
            NS_TEST_ASSERT_MSG_EQ(data.rxPackets, data.txPackets, "every data packet received");
            NS_TEST_ASSERT_MSG_EQ(data.rxBytes, data.txBytes, "every data byte received");
            NS_TEST_ASSERT_MSG_EQ(data.lost, 0u, "nothing lost");
            // IPv4 bytes = payload + per packet IPv4, UDP, shim header and a TCP header of
            // 20..60 bytes
            const uint64_t overhead = data.txBytes - size[p];
            NS_TEST_ASSERT_MSG_GT_OR_EQ(overhead, data.txPackets * (shimHdr + 20), "headers");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(overhead, data.txPackets * (shimHdr + 60), "headers");
            NS_TEST_ASSERT_MSG_GT(ack.rxPackets, 0u, "ACKs in the reverse direction");
            NS_TEST_ASSERT_MSG_EQ(ack.rxBytes, ack.txBytes, "every ACK byte received");
            NS_TEST_ASSERT_MSG_LT(ack.txBytes, ack.txPackets * (shimHdr + 61), "pure ACKs");
            if (m_lb == "ecmp")
            {
                // one EV per connection (and a fixed EV for the passive side's ACKs)
                NS_TEST_ASSERT_MSG_EQ(data.flows, 1u, "ECMP: one FlowMonitor flow per direction");
                NS_TEST_ASSERT_MSG_EQ(ack.flows, 1u, "ECMP: one ACK flow");
            }
            else
            {
                NS_TEST_ASSERT_MSG_GT_OR_EQ(data.flows, 1u, "one flow per path used");
            }
        }
        // FlowMonitor's packets are exactly the shims' segments
        NS_TEST_ASSERT_MSG_EQ(tx, shim.encapsulated, "FlowMonitor tx = segments the shims sent");
        NS_TEST_ASSERT_MSG_EQ(rx, shim.decapsulated, "FlowMonitor rx = segments TCP received");
        if (m_lb == "hermes")
        {
            NS_TEST_ASSERT_MSG_GT(shim.probesSent, 0u, "the rack agents probe");
            // probes and replies: 62 IPv4 bytes each (IPv4, UDP, shim header, 6 B padding)
            NS_TEST_ASSERT_MSG_EQ(other.txBytes, 62 * other.txPackets, "probe size");
            NS_TEST_ASSERT_MSG_GT_OR_EQ(other.txPackets,
                                        shim.probesSent + shim.probeRepliesReceived,
                                        "probes and replies");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(other.txPackets, 2 * shim.probesSent, "nothing else");
            NS_TEST_ASSERT_MSG_EQ(other.lost, 0u, "no probe lost");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(other.flows, 0u, "ECMP: no other traffic");
        }
    }

    std::string m_lb;
};

class FlowMonitorTestSuite : public TestSuite
{
  public:
    FlowMonitorTestSuite()
        : TestSuite("dcn-lb-flow-monitor", DCNLB_TEST_SYSTEM)
    {
        AddTestCase(new FlowMonitorTestCase("ecmp"), DCNLB_TEST_QUICK);
        AddTestCase(new FlowMonitorTestCase("reps"), DCNLB_TEST_QUICK);
        AddTestCase(new FlowMonitorTcpShimTestCase("ecmp"), DCNLB_TEST_QUICK);
        AddTestCase(new FlowMonitorTcpShimTestCase("hermes"), DCNLB_TEST_QUICK);
    }
};

static FlowMonitorTestSuite g_flowMonitorTestSuite;

} // namespace dcntest
} // namespace ns3
