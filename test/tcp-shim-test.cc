/*
 * TestSuite "dcn-lb-tcp-shim" (issue 17 item 1): ns-3's own TCP over our fabric through the
 * DcnTcpShim (TcpL4Protocol's down target), on the hermes-testbed leaf-spine (2 leaves x
 * 2 spines, 2 links per pair, 6 hosts per leaf, 1 Gb/s):
 *  - every byte of every flow is delivered to the receiving TCP socket and every flow
 *    completes, for TcpDctcp and TcpNewReno with ECN (the receiver's TCP parses plain TCP
 *    segments: it would drop anything else);
 *  - on the wire every segment is IPv4 protocol 17 to UDP port 4792 (the EV in the source
 *    port), and the receiver's TCP got segments with CE marks echoed back per path;
 *  - ECMP over the shim spreads flows over the leaf's uplinks;
 *  - Presto*'s receiver reorder buffer (FLAG_RESEQ): per-packet spraying over uplinks of
 *    unequal speed reorders segments; with the buffer TCP gets them in order (segments are
 *    held, far fewer retransmissions than without it), every byte still arrives once;
 *  - DcnTcpTransport::PathShim=false (plain ns-3 TCP, bench/tcp-shim.sh) on a small fat tree
 *    routed by ns-3's Ipv4GlobalRouting: no node has a shim, no packet carries the shim's UDP
 *    port, every segment is IPv4 protocol 6, every byte arrives and every flow completes;
 *    with PathShim=true on the same routing every segment is encapsulated and every flow
 *    completes too; plain TCP on our switches (ECMP hashing the TCP 5-tuple) completes as
 *    well; a load balancer other than ECMP without the shim is refused (DcnOptionError).
 */
#include "tcp-test-net.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-options.h"
#include "ns3/dcn-port-device.h"
#include "ns3/dcn-tcp-shim-header.h"
#include "ns3/dcn-tcp-transport-helper.h"
#include "ns3/failure-helper.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/graph-topology-helper.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/node-list.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"
#include "ns3/workload-helper.h"

#include <functional>
#include <set>

using namespace ns3;

namespace
{

struct TcpRun
{
    FctSummary s;
    uint64_t planBytes{0};
    uint64_t rxBytes{0};
    uint64_t encapsulated{0};
    uint64_t decapsulated{0};
    uint64_t echoes{0};
    uint64_t ceEchoes{0};
    uint64_t retransmissions{0}; //!< shim: segments below the highest sequence sent
    uint64_t recordRetx{0};      //!< the same, summed over the flows' FCT records
    uint64_t reseqHeld{0};       //!< shim: segments the reorder buffer held
    uint64_t reseqTimeouts{0};
    uint64_t pathChanges{0};  //!< shim: data segments on another path than their flow's last
    uint64_t nonShimTcpTx{0}; //!< TCP segments seen on the wire without encapsulation
    std::vector<uint64_t> uplinkPackets; //!< leaf 0's uplinks: data packets sent
};

uint64_t g_nonShim = 0;
uint64_t g_shimTx = 0;   //!< IPv4 packets to UDP port 4792 (the shim's)
uint64_t g_plainTcp = 0; //!< IPv4 protocol 6 packets

void
CountIpTx(Ptr<const Packet> p, Ptr<Ipv4> ipv4, uint32_t iface)
{
    // Ipv4L3Protocol "Tx": the packet with its IPv4 header
    Ptr<Packet> c = p->Copy();
    Ipv4Header h;
    c->RemoveHeader(h);
    uint8_t b[4] = {0, 0, 0, 0};
    c->CopyData(b, 4);
    const uint16_t dport = static_cast<uint16_t>((b[2] << 8) | b[3]);
    if (h.GetProtocol() == 6 || (h.GetProtocol() == 17 && dport != DcnTcpShimHeader::UDP_PORT))
    {
        ++g_nonShim;
    }
    g_shimTx += h.GetProtocol() == 17 && dport == DcnTcpShimHeader::UDP_PORT ? 1 : 0;
    g_plainTcp += h.GetProtocol() == 6 ? 1 : 0;
}

TcpRun
RunTcp(const std::string& cc,
       const std::string& lb,
       const WorkloadPlan& plan,
       const std::function<void(Ptr<DcnGraphTopology>)>& before = nullptr)
{
    TcpRun r;
    g_nonShim = 0;
    Ptr<DcnGraphTopology> t = DcnTopologyPresets::Create("hermes-testbed", {}, "minimal");
    int64_t stream = 1;
    stream += t->AssignStreams(stream);
    DcnTcpTransportHelper th;
    th.SetCongestionControl(cc);
    th.InstallOnHosts(t);
    for (uint32_t h = 0; h < t->GetNHosts(); ++h)
    {
        t->GetHosts().Get(h)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "Tx",
            MakeCallback(&CountIpTx));
    }
    // leaf 0's uplinks (tier 0 -> tier 1)
    std::vector<Ptr<PointToPointNetDevice>> up;
    const uint32_t leaf0 = t->GetSwitchOfHost(0);
    for (const DcnLinkInfo& l : t->GetLinks())
    {
        if (l.tierA == 0 && l.tierB == 1 && t->GetSwitchIndex(l.a) == leaf0)
        {
            up.push_back(l.devA);
        }
        else if (l.tierB == 0 && l.tierA == 1 && t->GetSwitchIndex(l.b) == leaf0)
        {
            up.push_back(l.devB);
        }
    }
    r.uplinkPackets.assign(up.size(), 0);
    for (size_t i = 0; i < up.size(); ++i)
    {
        DcnPortDevice::ConnectTxEnd(up[i],
                                    MakeBoundCallback(
                                        +[](uint64_t* n, Ptr<const Packet> p) {
                                            if (p->GetSize() > 1000)
                                            {
                                                ++*n;
                                            }
                                        },
                                        &r.uplinkPackets[i]));
    }
    if (before)
    {
        before(t);
    }
    Ptr<WorkloadHelper> wl = CreateObject<WorkloadHelper>();
    wl->AssignStreams(std::max<int64_t>(stream, 1000));
    wl->SetPlan(plan);
    wl->SetAttribute("LoadBalancer", StringValue(lb));
    wl->SetAttribute("ConnectionPolicy", StringValue("NewPerMessage"));
    wl->Install(t);
    Simulator::Stop(Seconds(2));
    Simulator::Run();
    wl->Finalize();
    r.s = wl->GetStats().Summarize();
    for (const FctRecord& f : wl->GetStats().GetRecords())
    {
        r.recordRetx += f.retransmissions;
    }
    for (const auto& m : plan.messages)
    {
        r.planBytes += m.bytes;
    }
    for (uint32_t h = 0; h < t->GetNHosts(); ++h)
    {
        Ptr<DcnTcpTransport> tr = t->GetHosts().Get(h)->GetObject<DcnTcpTransport>();
        r.rxBytes += tr->GetRxBytes();
        const DcnTcpShimStats& st = tr->GetShim()->GetStats();
        r.encapsulated += st.encapsulated;
        r.decapsulated += st.decapsulated;
        r.echoes += st.echoes;
        r.ceEchoes += st.ceEchoes;
        r.retransmissions += st.retransmissions;
        r.reseqHeld += st.reseqHeld;
        r.reseqTimeouts += st.reseqTimeouts;
        r.pathChanges += st.pathChanges;
    }
    r.nonShimTcpTx = g_nonShim;
    wl->Dispose();
    Simulator::Destroy();
    return r;
}

/** n flows of bytes from hosts of leaf 0 (0..5) to hosts of leaf 1 (6..11), all at t = 0. */
WorkloadPlan
CrossPlan(uint32_t n, uint64_t bytes)
{
    WorkloadPlan p;
    p.name = "cross";
    p.nHosts = 12;
    for (uint32_t i = 0; i < n; ++i)
    {
        WorkloadMessage m;
        m.src = i % 6;
        m.dst = 6 + (i * 5 + 1) % 6;
        m.bytes = bytes;
        p.messages.push_back(m);
    }
    return p;
}

class TcpShimDeliversTestCase : public TestCase
{
  public:
    explicit TcpShimDeliversTestCase(const std::string& cc)
        : TestCase("TCP (" + cc + ") through the shim delivers every byte of every flow"),
          m_cc(cc)
    {
    }

    void DoRun() override
    {
        WorkloadPlan plan = CrossPlan(12, 300000);
        // plus a flow inside a leaf and one in the other direction
        plan.messages.push_back({1, 2, 123457, Time(0), {}, 0});
        plan.messages.push_back({7, 0, 777777, Time(0), {}, 0});
        TcpRun r = RunTcp(m_cc, "ecmp", plan);
        NS_TEST_ASSERT_MSG_EQ(r.s.unfinished, 0, m_cc << ": every flow completes");
        NS_TEST_ASSERT_MSG_EQ(r.s.count, plan.messages.size(), m_cc << ": one record per flow");
        NS_TEST_ASSERT_MSG_EQ(r.rxBytes, r.planBytes, m_cc << ": every byte reached TCP");
        NS_TEST_ASSERT_MSG_GT(r.encapsulated, r.planBytes / 1400, m_cc << ": segments sent");
        NS_TEST_ASSERT_MSG_EQ(r.nonShimTcpTx, 0, m_cc << ": every segment is encapsulated");
        NS_TEST_ASSERT_MSG_GT(r.decapsulated, 0, m_cc << ": stripped at the receiver");
        NS_TEST_ASSERT_MSG_GT(r.echoes, r.planBytes / 1400 / 2, m_cc << ": per-path echoes");
        // 12 flows of 300 KB share 4 x 1G uplinks: the leaf queues mark
        NS_TEST_ASSERT_MSG_GT(r.ceEchoes, 0, m_cc << ": CE marks echoed to the sender");
        NS_TEST_ASSERT_MSG_EQ(r.pathChanges, 0, m_cc << ": ECMP never moves a flow");
    }

  private:
    std::string m_cc;
};

class TcpShimEcmpSpreadsTestCase : public TestCase
{
  public:
    TcpShimEcmpSpreadsTestCase()
        : TestCase("ECMP over the shim spreads flows over the leaf uplinks (EV in real bytes)")
    {
    }

    void DoRun() override
    {
        TcpRun r = RunTcp("dctcp", "ecmp", CrossPlan(12, 200000));
        NS_TEST_ASSERT_MSG_EQ(r.s.unfinished, 0, "every flow completes");
        NS_TEST_ASSERT_MSG_EQ(r.uplinkPackets.size(), 4, "leaf 0 has 4 uplinks");
        uint32_t used = 0;
        uint64_t total = 0;
        uint64_t maxOne = 0;
        for (uint64_t n : r.uplinkPackets)
        {
            used += n > 10 ? 1 : 0;
            total += n;
            maxOne = std::max(maxOne, n);
        }
        NS_TEST_ASSERT_MSG_GT_OR_EQ(used, 3u, "12 flows hash onto at least 3 of 4 uplinks");
        NS_TEST_ASSERT_MSG_LT(maxOne, total * 3 / 4, "no uplink carries 3/4 of the data");
    }
};

class TcpShimReorderBufferTestCase : public TestCase
{
  public:
    TcpShimReorderBufferTestCase()
        : TestCase("Presto*: the receiver reorder buffer hides spraying's reordering from TCP")
    {
    }

    static TcpRun Run(bool reorderBuffer, const std::string& slowRate, Time timeout)
    {
        // Presto* as Hermes ran it (Sec. 5): per-packet spraying, equal weights; one of leaf
        // 0's four uplinks runs at 1/4 of the rate, so segments overtake each other.
        Config::SetDefault("ns3::DcnPrestoPathSelector::FlowcellBytes", UintegerValue(1448));
        Config::SetDefault("ns3::DcnPrestoPathSelector::Weights", StringValue("equal"));
        Config::SetDefault("ns3::DcnPrestoPathSelector::ReorderBuffer",
                           BooleanValue(reorderBuffer));
        Config::SetDefault("ns3::DcnTcpShim::ReorderTimeout", TimeValue(timeout));
        Ptr<FailureHelper> fh; // outlives the run (its events point at it)
        TcpRun r = RunTcp("dctcp",
                          "presto",
                          CrossPlan(2, 1000000),
                          [&fh, &slowRate](Ptr<DcnGraphTopology> t) {
                              for (uint32_t id = 0; id < t->GetLinks().size(); ++id)
                              {
                                  const DcnLinkInfo& l = t->GetLinks()[id];
                                  if (l.tierA == 0 && l.tierB == 1 &&
                                      t->GetSwitchIndex(l.a) == t->GetSwitchOfHost(0))
                                  {
                                      fh = CreateObject<FailureHelper>(t);
                                      fh->DegradeLink(id, DataRate(slowRate), Seconds(0));
                                      break;
                                  }
                              }
                          });
        for (const char* a : {"ns3::DcnPrestoPathSelector::FlowcellBytes",
                              "ns3::DcnPrestoPathSelector::Weights",
                              "ns3::DcnPrestoPathSelector::ReorderBuffer",
                              "ns3::DcnTcpShim::ReorderTimeout"})
        {
            // back to the TypeId defaults for the suites that run after this one
            TypeId::AttributeInformation info;
            std::string s(a);
            const auto sep = s.rfind("::");
            TypeId::LookupByName(s.substr(0, sep)).LookupAttributeByName(s.substr(sep + 2), &info);
            Config::SetDefault(a, *info.originalInitialValue);
        }
        return r;
    }

    void DoRun() override
    {
        // one uplink at 500 Mb/s, a 200 us hold: the buffer fills every gap in time
        TcpRun with = Run(true, "500Mbps", MicroSeconds(200));
        TcpRun without = Run(false, "500Mbps", MicroSeconds(200));
        // at 250 Mb/s that uplink's queue overflows: the default 50 us hold gives up on
        // the gaps of lost segments, so TCP's loss recovery still works
        TcpRun lossy = Run(true, "250Mbps", MicroSeconds(50));
        for (const TcpRun* r : {&with, &without, &lossy})
        {
            NS_TEST_ASSERT_MSG_EQ(r->s.unfinished, 0, "every flow completes");
            NS_TEST_ASSERT_MSG_EQ(r->rxBytes, r->planBytes, "every byte reached TCP once");
        }
        NS_TEST_ASSERT_MSG_GT(with.reseqHeld, 100u, "segments overtook each other and were held");
        NS_TEST_ASSERT_MSG_EQ(without.reseqHeld, 0u, "no FLAG_RESEQ: nothing held");
        // Presto* with one-segment flowcells over 4 uplinks: most segments change path
        NS_TEST_ASSERT_MSG_GT(without.pathChanges,
                              without.encapsulated / 4,
                              "per-packet spraying moves the data at most segments");
        NS_TEST_ASSERT_MSG_GT(without.retransmissions, 0u, "reordering alone makes TCP retransmit");
        // each flow's record carries its connection's retransmissions (the shim's count)
        NS_TEST_EXPECT_MSG_EQ(without.recordRetx, without.retransmissions, "per-flow records");
        NS_TEST_EXPECT_MSG_EQ(lossy.recordRetx, lossy.retransmissions, "per-flow records, loss");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(
            3 * with.retransmissions,
            without.retransmissions,
            "the buffer hides the reordering: few spurious retransmissions");
        NS_TEST_ASSERT_MSG_GT(lossy.reseqTimeouts, 0u, "lost segments' gaps end by the timeout");
        NS_TEST_ASSERT_MSG_GT(lossy.retransmissions, 0u, "and TCP retransmits them");
        std::clog << "reorder buffer (500M): held " << with.reseqHeld << " timeouts "
                  << with.reseqTimeouts << " retx " << with.retransmissions << " mean FCT "
                  << with.s.meanUs << " us; without: retx " << without.retransmissions
                  << " mean FCT " << without.s.meanUs << " us; 250M/50us: held " << lossy.reseqHeld
                  << " timeouts " << lossy.reseqTimeouts << " retx " << lossy.retransmissions
                  << " mean FCT " << lossy.s.meanUs << " us\n";
    }
};

/** Outcome of a run with or without the path shim. */
struct PlainRun
{
    FctSummary s;
    uint64_t planBytes{0};
    uint64_t rxBytes{0};
    uint64_t shimTx{0};    //!< host IPv4 packets to the shim's UDP port
    uint64_t plainTcp{0};  //!< host IPv4 packets with protocol 6
    uint32_t shimNodes{0}; //!< nodes (hosts and switches) with a DcnTcpShim
    uint32_t flows{0};
};

/**
 * 16 DCTCP flows (8 across the spine, both directions, 4 inside a leaf) on a 2 x 4 fat tree
 * (4 uplinks per leaf, 10 Gb/s); routing "global" (ns-3 Ipv4GlobalRouting, IPv4 fabric) or
 * "dcn" (our switches), with or without the shim.
 */
PlainRun
RunPlain(bool pathShim, const std::string& routing, const std::string& lb = "ecmp")
{
    PlainRun r;
    g_shimTx = 0;
    g_plainTcp = 0;
    Config::SetDefault("ns3::DcnTcpTransport::PathShim", BooleanValue(pathShim));
    int64_t stream = 0;
    Ptr<FatTreeHelper> ft = BuildTcpTestLeafSpine(routing, &stream);
    DcnTcpTransportHelper th;
    th.SetCongestionControl("dctcp");
    th.InstallOnHosts(ft);
    Config::SetDefault("ns3::DcnTcpTransport::PathShim", BooleanValue(true));
    for (uint32_t h = 0; h < ft->GetNHosts(); ++h)
    {
        ft->GetHosts().Get(h)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "Tx",
            MakeCallback(&CountIpTx));
    }
    for (uint32_t i = 0; i < NodeList::GetNNodes(); ++i)
    {
        r.shimNodes += NodeList::GetNode(i)->GetObject<DcnTcpShim>() ? 1 : 0;
    }
    WorkloadPlan plan;
    plan.name = "plain";
    plan.nHosts = 8;
    for (uint32_t i = 0; i < 16; ++i)
    {
        const uint32_t src = i % 8;
        const uint32_t dst = i < 12 ? (src + 4 + i / 8) % 8 : (src / 4) * 4 + (src + 1) % 4;
        plan.messages.push_back({src, dst, 100000 + 37000 * i, MicroSeconds(20) * i, {}, 0});
        r.planBytes += plan.messages.back().bytes;
    }
    r.flows = static_cast<uint32_t>(plan.messages.size());
    Ptr<WorkloadHelper> wl = CreateObject<WorkloadHelper>();
    wl->AssignStreams(std::max<int64_t>(stream, 1000));
    wl->SetPlan(plan);
    wl->SetAttribute("LoadBalancer", StringValue(lb));
    wl->SetAttribute("ConnectionPolicy", StringValue("NewPerMessage"));
    try
    {
        wl->Install(ft);
    }
    catch (const DcnOptionError&)
    {
        wl->Dispose();
        Simulator::Destroy();
        throw;
    }
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    wl->Finalize();
    r.s = wl->GetStats().Summarize();
    for (uint32_t h = 0; h < ft->GetNHosts(); ++h)
    {
        r.rxBytes += ft->GetHosts().Get(h)->GetObject<DcnTcpTransport>()->GetRxBytes();
    }
    r.shimTx = g_shimTx;
    r.plainTcp = g_plainTcp;
    wl->Dispose();
    Simulator::Destroy();
    return r;
}

class TcpPlainTestCase : public TestCase
{
  public:
    TcpPlainTestCase()
        : TestCase("PathShim=false: plain ns-3 TCP over global routing and our switches, no shim "
                   "packet; PathShim=true over global routing completes too")
    {
    }

    void DoRun() override
    {
        PlainRun plain = RunPlain(false, "global");
        PlainRun shim = RunPlain(true, "global");
        PlainRun ours = RunPlain(false, "dcn");
        for (const PlainRun* r : {&plain, &shim, &ours})
        {
            NS_TEST_ASSERT_MSG_EQ(r->s.unfinished, 0, "every flow completes");
            NS_TEST_ASSERT_MSG_EQ(r->s.count, r->flows, "one record per flow");
            NS_TEST_ASSERT_MSG_EQ(r->rxBytes, r->planBytes, "every byte reached TCP");
        }
        for (const PlainRun* r : {&plain, &ours})
        {
            NS_TEST_ASSERT_MSG_EQ(r->shimNodes, 0u, "PathShim=false: no node has a shim");
            NS_TEST_ASSERT_MSG_EQ(r->shimTx, 0u, "no packet carries the shim's UDP port");
            NS_TEST_ASSERT_MSG_GT(r->plainTcp, r->planBytes / 1400, "plain TCP segments sent");
        }
        NS_TEST_ASSERT_MSG_EQ(shim.shimNodes, 8u, "PathShim=true: a shim on every host");
        NS_TEST_ASSERT_MSG_EQ(shim.plainTcp, 0u, "PathShim=true: no plain TCP on the wire");
        NS_TEST_ASSERT_MSG_GT(shim.shimTx, shim.planBytes / 1400, "every segment encapsulated");
        bool refused = false;
        try
        {
            RunPlain(false, "dcn", "hermes");
        }
        catch (const DcnOptionError& e)
        {
            refused = std::string(e.what()).find("PathShim") != std::string::npos;
        }
        NS_TEST_ASSERT_MSG_EQ(refused, true, "Hermes without the shim is refused");
        std::clog << "plain TCP (global): " << plain.plainTcp << " TCP packets, mean FCT "
                  << plain.s.meanUs << " us; shim (global): " << shim.shimTx
                  << " shim packets, mean FCT " << shim.s.meanUs
                  << " us; plain TCP (ours): mean FCT " << ours.s.meanUs << " us\n";
    }
};

class TcpShimTestSuite : public TestSuite
{
  public:
    TcpShimTestSuite()
        : TestSuite("dcn-lb-tcp-shim", DCNLB_TEST_SYSTEM)
    {
        AddTestCase(new TcpShimDeliversTestCase("dctcp"), DCNLB_TEST_QUICK);
        AddTestCase(new TcpShimDeliversTestCase("newreno"), DCNLB_TEST_QUICK);
        AddTestCase(new TcpShimEcmpSpreadsTestCase(), DCNLB_TEST_QUICK);
        AddTestCase(new TcpShimReorderBufferTestCase(), DCNLB_TEST_QUICK);
        AddTestCase(new TcpPlainTestCase(), DCNLB_TEST_QUICK);
    }
};

TcpShimTestSuite g_tcpShimTestSuite;

} // namespace
