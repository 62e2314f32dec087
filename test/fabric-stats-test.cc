/*
 * dcn-lb-fabric-stats: PortStatsHelper byte counts, utilisation, CSV.
 */
#include "ns3/core-module.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/internet-module.h"
#include "ns3/port-stats-helper.h"
#include "ns3/test.h"

#include <fstream>

using namespace ns3;

namespace
{

class PortStatsTest : public TestCase
{
  public:
    PortStatsTest()
        : TestCase("per-port bytes, utilisation and CSV rows")
    {
    }

    uint64_t m_sampledBytes{0};
    double m_maxUtil{0};
    uint32_t m_port{0};

    void OnSample(const DcnPortSample& s)
    {
        if (s.port == m_port)
        {
            m_sampledBytes += s.txBytes;
            m_maxUtil = std::max(m_maxUtil, s.utilisation);
        }
    }

    void DoRun() override
    {
        Ptr<FatTreeHelper> ft = FatTreeHelper::TwoTier(2, 2, 1);
        ft->Build();
        std::string file = CreateTempDirFilename("fabric-port-stats.csv");
        Ptr<PortStatsHelper> ps = CreateObject<PortStatsHelper>();
        ps->SetAttribute("Interval", TimeValue(MicroSeconds(5)));
        ps->SetAttribute("FileName", StringValue(file));
        ps->Install(ft, Seconds(0), MicroSeconds(100));
        // Port of ToR 0 towards host 1.
        const std::vector<DcnPortInfo>& ports = ps->GetPorts();
        for (uint32_t i = 0; i < ports.size(); ++i)
        {
            if (ports[i].linkId == 1 && ports[i].tier == 0)
            {
                m_port = i;
            }
        }
        const size_t nPorts = ports.size();
        NS_TEST_ASSERT_MSG_EQ(nPorts, 8, "2 ToRs x 3 ports + 2 spine ports");
        ps->TraceConnectWithoutContext("Sample", MakeCallback(&PortStatsTest::OnSample, this));
        Ptr<Node> n = ft->GetHosts().Get(0);
        Ipv4Address src = ft->GetHostAddress(0);
        Ipv4Address dst = ft->GetHostAddress(1);
        const uint32_t N = 200;
        Simulator::Schedule(MicroSeconds(1), [n, src, dst]() {
            for (uint32_t i = 0; i < N; ++i)
            {
                Ptr<Packet> p = Create<Packet>(4000);
                UdpHeader u;
                u.SetSourcePort(1);
                u.SetDestinationPort(9);
                p->AddHeader(u);
                n->GetObject<Ipv4L3Protocol>()->Send(p, src, dst, 17, nullptr);
            }
        });
        Simulator::Stop(MicroSeconds(101));
        Simulator::Run();
        const uint64_t wire = N * (4000 + 8 + 20 + 2);
        NS_TEST_EXPECT_MSG_EQ(ps->GetTxBytes(m_port), wire, "total bytes on the port");
        NS_TEST_EXPECT_MSG_EQ(m_sampledBytes, wire, "sampled deltas add up");
        NS_TEST_EXPECT_MSG_GT(m_maxUtil, 0.95, "line rate in some interval");
        NS_TEST_EXPECT_MSG_LT(m_maxUtil, 1.05, "utilisation <= 1");
        Simulator::Destroy();
        ps->Dispose();
        std::ifstream in(file);
        std::string line;
        uint32_t rows = 0;
        std::getline(in, line);
        NS_TEST_EXPECT_MSG_EQ(line.substr(0, 6), "time_s", "CSV header");
        while (std::getline(in, line))
        {
            ++rows;
        }
        NS_TEST_EXPECT_MSG_EQ(rows, 20 * nPorts, "one row per port per interval");
    }
};

class FabricStatsSuite : public TestSuite
{
  public:
    FabricStatsSuite()
        : TestSuite("dcn-lb-fabric-stats", DCNLB_TEST_UNIT)
    {
        AddTestCase(new PortStatsTest(), DCNLB_TEST_QUICK);
    }
};

FabricStatsSuite g_fabricStatsSuite;

} // namespace
