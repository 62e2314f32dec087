/*
 * dcn-lb-roce-gbn: the in-order (classic RoCE, go-back-N) mode of the message
 * transport (DcnTransport::Mode = InOrder): every byte delivered exactly once
 * and in PSN order under 1% random loss and under reordering by per-packet
 * spraying, the go-back retransmissions counted, at most one NACK per
 * expected PSN, and ACK coalescing.
 */
#include "transport-test-net.h"

#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-transport-helper.h"
#include "ns3/dcn-transport.h"
#include "ns3/dctcp-cc.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/path-selector.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/test.h"

#include <functional>
#include <map>

namespace ns3
{
namespace dcntest
{
namespace
{

struct GbnConfig
{
    bool spray{false};
    double loss{0};
    uint32_t ackRatio{1};
    std::vector<uint64_t> sizes{1 << 20, 100001, 1};
};

struct GbnResult
{
    uint32_t completed{0};
    uint32_t expected{0};
    bool allOnce{true};
    uint64_t inOrderViolations{0}; //!< delivered psn != previous delivered psn + 1
    uint64_t repeatedNacks{0};     //!< NACKs for an expected PSN already NACKed
    uint64_t totalBytes{0};
    uint64_t dropped{0};
    uint64_t msgRetx{0};
    DcnTransportStats rx;
    DcnTransportStats tx;
};

GbnResult
RunGbn(const GbnConfig& cfg)
{
    RngSeedManager::SetSeed(11);
    RngSeedManager::SetRun(1);
    GbnResult res;
    const uint32_t nLeft = 2;
    TestNet net = BuildTestNet(nLeft, 1, cfg.spray, NanoSeconds(500), MicroSeconds(3));
    Ptr<RateErrorModel> em;
    if (cfg.loss > 0)
    {
        em = CreateObject<RateErrorModel>();
        em->SetAttribute("ErrorRate", DoubleValue(cfg.loss));
        em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        em->AssignStreams(5);
        net.s2ToRightRx->SetReceiveErrorModel(em); // data towards the receiver only
        net.s2ToRightRx->TraceConnectWithoutContext(
            "PhyRxDrop",
            Callback<void, Ptr<const Packet>>([&res](Ptr<const Packet>) { res.dropped++; }));
    }
    DcnTransportHelper th;
    th.SetTransportAttribute("Mode", EnumValue(DcnTransport::IN_ORDER));
    th.SetTransportAttribute("AckRatio", UintegerValue(cfg.ackRatio));
    th.SetTransportAttribute("AckDelay", TimeValue(MicroSeconds(cfg.ackRatio > 1 ? 5 : 0)));
    th.Install(net.left);
    th.Install(net.right);
    Ptr<DcnTransport> rxT = DcnTransportHelper::Get(net.right.Get(0));
    DeliveryChecker checker;
    rxT->TraceConnectWithoutContext("Rx", MakeCallback(&DeliveryChecker::Rx, &checker));
    std::map<std::pair<uint32_t, uint32_t>, int64_t> lastPsn; // (src, conn) -> last delivered
    rxT->TraceConnectWithoutContext(
        "Rx",
        Callback<void, Ptr<const Packet>, const DcnHeader&, Ipv4Address, bool>(
            [&res, &lastPsn](Ptr<const Packet>, const DcnHeader& h, Ipv4Address src, bool dup) {
                if (dup)
                {
                    return;
                }
                auto key = std::make_pair(src.Get(), h.connId);
                auto it = lastPsn.find(key);
                int64_t prev = it == lastPsn.end() ? -1 : it->second;
                if (int64_t(h.psn) != prev + 1)
                {
                    res.inOrderViolations++;
                }
                lastPsn[key] = h.psn;
            }));
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> nacks; // (sender, expected psn) -> count
    int64_t stream = 100;
    for (uint32_t i = 0; i < nLeft; ++i)
    {
        Ptr<DcnTransport> t = DcnTransportHelper::Get(net.left.Get(i));
        Ptr<PathSelector> ps = PathSelectorRegistry::Create("ops");
        stream += ps->AssignStreams(stream);
        DcnConnectionParams p;
        p.lineRate = DataRate("100Gbps");
        p.baseRtt = MicroSeconds(10);
        Ptr<DcnConnection> c =
            t->Connect(net.Addr(net.right.Get(0)), ps, CreateObject<DctcpCc>(), p);
        for (uint64_t s : cfg.sizes)
        {
            c->SendMessage(s,
                           DcnConnection::CompletionCallback([&res](const DcnMessageRecord& rec) {
                               res.completed++;
                               res.msgRetx += rec.retransmissions;
                           }));
            res.expected++;
            res.totalBytes += s;
        }
        t->TraceConnectWithoutContext("Nack",
                                      Callback<void, Ptr<const Packet>, const DcnHeader&>(
                                          [&nacks, &res, i](Ptr<const Packet>, const DcnHeader& h) {
                                              if (++nacks[{i, h.cumAck}] > 1)
                                              {
                                                  res.repeatedNacks++;
                                              }
                                          }));
    }
    Simulator::Stop(MilliSeconds(50));
    Simulator::Run();
    // exactly once: every message of every sender
    for (uint32_t i = 0; i < nLeft; ++i)
    {
        Ipv4Address src = net.Addr(net.left.Get(i));
        for (uint32_t m = 0; m < cfg.sizes.size(); ++m)
        {
            if (!checker.ExactlyOnce(src, 0, m, cfg.sizes[m]))
            {
                res.allOnce = false;
            }
        }
        const auto& s = DcnTransportHelper::Get(net.left.Get(i))->GetStats();
        res.tx.retransmissions += s.retransmissions;
        res.tx.goBacks += s.goBacks;
        res.tx.timeouts += s.timeouts;
        res.tx.nacksReceived += s.nacksReceived;
    }
    res.rx = rxT->GetStats();
    Simulator::Destroy();
    return res;
}

class GbnCase : public TestCase
{
  public:
    GbnCase(std::string name, GbnConfig cfg)
        : TestCase(name),
          m_cfg(cfg)
    {
    }

  private:
    void DoRun() override
    {
        GbnResult r = RunGbn(m_cfg);
        NS_TEST_ASSERT_MSG_EQ(r.completed, r.expected, "every message completes");
        NS_TEST_ASSERT_MSG_EQ(r.allOnce, true, "every byte delivered exactly once");
        NS_TEST_ASSERT_MSG_EQ(r.rx.uniqueBytesDelivered, r.totalBytes, "unique bytes");
        NS_TEST_ASSERT_MSG_EQ(r.inOrderViolations, 0, "delivery in PSN order");
        NS_TEST_ASSERT_MSG_EQ(r.rx.outOfOrderPackets, 0, "nothing delivered out of order");
        NS_TEST_ASSERT_MSG_EQ(r.repeatedNacks, 0, "at most one NACK per expected PSN");
        NS_TEST_ASSERT_MSG_GT(r.rx.outOfSequenceDropped, 0, "out-of-sequence packets dropped");
        NS_TEST_ASSERT_MSG_GT(r.rx.goBackNacksSent, 0, "go-back NACKs sent");
        NS_TEST_ASSERT_MSG_GT(r.tx.goBacks, 0, "the senders went back");
        NS_TEST_ASSERT_MSG_GT(r.tx.retransmissions, 0, "go-back retransmissions counted");
        NS_TEST_ASSERT_MSG_EQ(r.msgRetx, r.tx.retransmissions, "per-message retx add up");
        if (m_cfg.loss > 0)
        {
            NS_TEST_ASSERT_MSG_GT(r.dropped, 0, "packets were lost");
            // go-back-N resends at least every lost packet
            NS_TEST_ASSERT_MSG_GT_OR_EQ(r.tx.retransmissions, r.dropped, "retx >= losses");
        }
        if (m_cfg.ackRatio > 1)
        {
            NS_TEST_ASSERT_MSG_LT(r.rx.acksSent * 2,
                                  r.rx.dataPacketsReceived,
                                  "ACKs coalesced (AckRatio " << m_cfg.ackRatio << ")");
        }
        std::clog << GetName() << ": retx " << r.tx.retransmissions << " goBacks " << r.tx.goBacks
                  << " timeouts " << r.tx.timeouts << " oos-dropped " << r.rx.outOfSequenceDropped
                  << " dropped " << r.dropped << " acks " << r.rx.acksSent << "\n";
    }

    GbnConfig m_cfg;
};

GbnConfig
Loss(uint32_t ackRatio)
{
    GbnConfig c;
    c.loss = 0.01;
    c.ackRatio = ackRatio;
    c.sizes = {4 << 20, 100001, 1}; // ~2000 data packets: ~20 losses
    return c;
}

GbnConfig
Spray()
{
    GbnConfig c;
    c.spray = true;
    return c;
}

} // namespace

class RoceGbnTestSuite : public TestSuite
{
  public:
    RoceGbnTestSuite()
        : TestSuite("dcn-lb-roce-gbn", DCNLB_TEST_SYSTEM)
    {
        AddTestCase(new GbnCase("go-back-N under 1% random loss", Loss(1)), DCNLB_TEST_QUICK);
        AddTestCase(new GbnCase("go-back-N under 1% loss, AckRatio 4", Loss(4)), DCNLB_TEST_QUICK);
        AddTestCase(new GbnCase("go-back-N under reordering by spraying", Spray()),
                    DCNLB_TEST_QUICK);
    }
};

static RoceGbnTestSuite g_roceGbnTestSuite;

} // namespace dcntest
} // namespace ns3
