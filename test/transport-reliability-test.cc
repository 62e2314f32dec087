/*
 * dcn-lb-transport-reliability: every byte delivered exactly once under
 * reordering, random loss, trimming and a silent link failure.
 */
#include "transport-test-net.h"

#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-transport-helper.h"
#include "ns3/dcn-transport.h"
#include "ns3/dctcp-cc.h"
#include "ns3/double.h"
#include "ns3/path-selector.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/test.h"

#include <functional>

namespace ns3
{
namespace dcntest
{

struct ScenarioConfig
{
    uint32_t nLeft{2};
    bool spray{true};
    Time d1{NanoSeconds(500)};
    Time d2{MicroSeconds(3)};
    std::vector<uint64_t> sizes{1 << 20, 100001, 1};
    std::string lb{"ops"};
    uint32_t run{1};
    uint32_t ackRatio{1};
    std::string ackEvMode{"Standard"};
    std::function<void(TestNet&)> hook;
    Time stop{MilliSeconds(50)};
    Time rto{0};             //!< DcnTransport Rto (0: the default, 70 us)
    double rtoBaseRtts{0};   //!< DcnTransport RtoBaseRtts
    bool rtoAdaptive{false}; //!< DcnTransport RtoAdaptive
};

struct ScenarioResult
{
    std::vector<DcnMessageRecord> recs;
    uint32_t expected{0};
    bool allOnce{true};
    DcnTransportStats rx;
    DcnTransportStats txTotal;
    uint64_t acksWithEcn{0};
    uint64_t acksEvMismatch{0};
    uint64_t acks{0};
    std::vector<Time> finalRto; //!< per sender connection, at the end of the run
};

inline ScenarioResult
RunScenario(const ScenarioConfig& cfg)
{
    RngSeedManager::SetSeed(7);
    RngSeedManager::SetRun(cfg.run);
    ScenarioResult res;
    TestNet net = BuildTestNet(cfg.nLeft, 1, cfg.spray, cfg.d1, cfg.d2);
    if (cfg.hook)
    {
        cfg.hook(net);
    }
    DcnTransportHelper th;
    th.SetTransportAttribute("AckRatio", UintegerValue(cfg.ackRatio));
    th.SetTransportAttribute("AckEvMode", StringValue(cfg.ackEvMode));
    if (cfg.rto.IsStrictlyPositive())
    {
        th.SetTransportAttribute("Rto", TimeValue(cfg.rto));
    }
    th.SetTransportAttribute("RtoBaseRtts", DoubleValue(cfg.rtoBaseRtts));
    th.SetTransportAttribute("RtoAdaptive", BooleanValue(cfg.rtoAdaptive));
    th.Install(net.left);
    th.Install(net.right);
    Ptr<DcnTransport> rxT = DcnTransportHelper::Get(net.right.Get(0));
    DeliveryChecker checker;
    rxT->TraceConnectWithoutContext("Rx", MakeCallback(&DeliveryChecker::Rx, &checker));
    // sender-side ACK checks: the echoed EV must equal the ACK's UDP source port
    // (read from the bytes) and the EV the data packet was sent on.
    std::map<std::pair<uint32_t, uint32_t>, uint16_t> sentEv; // (sender, psn) -> ev of last send
    std::vector<Ptr<DcnConnection>> conns;
    int64_t stream = 100;
    for (uint32_t i = 0; i < cfg.nLeft; ++i)
    {
        Ptr<DcnTransport> t = DcnTransportHelper::Get(net.left.Get(i));
        Ptr<PathSelector> ps = PathSelectorRegistry::Create(cfg.lb);
        stream += ps->AssignStreams(stream);
        DcnConnectionParams p;
        p.lineRate = DataRate("100Gbps");
        p.baseRtt = MicroSeconds(10);
        Ptr<DcnConnection> c =
            t->Connect(net.Addr(net.right.Get(0)), ps, CreateObject<DctcpCc>(), p);
        conns.push_back(c);
        for (uint64_t s : cfg.sizes)
        {
            c->SendMessage(s,
                           DcnConnection::CompletionCallback(
                               [&res](const DcnMessageRecord& rec) { res.recs.push_back(rec); }));
            res.expected++;
        }
        t->TraceConnectWithoutContext("PathChosen",
                                      Callback<void, uint32_t, uint32_t, uint16_t>(
                                          [&sentEv, i](uint32_t, uint32_t psn, uint16_t ev) {
                                              sentEv[{i, psn}] = ev;
                                          }));
        t->TraceConnectWithoutContext(
            "Ack",
            Callback<void, Ptr<const Packet>, const DcnHeader&>(
                [&res, &sentEv, i](Ptr<const Packet>, const DcnHeader& h) {
                    res.acks++;
                    if (h.HasFlag(DcnHeader::FLAG_ECN_ECHO))
                    {
                        res.acksWithEcn++;
                    }
                    auto it = sentEv.find({i, h.psn});
                    if (it == sentEv.end() || it->second != h.evEcho)
                    {
                        res.acksEvMismatch++;
                    }
                }));
    }
    Simulator::Stop(cfg.stop);
    Simulator::Run();
    for (auto& r : res.recs)
    {
        if (!checker.ExactlyOnce(r.src, r.connId, r.msgId, r.bytes))
        {
            res.allOnce = false;
        }
    }
    res.rx = rxT->GetStats();
    for (uint32_t i = 0; i < cfg.nLeft; ++i)
    {
        const auto& s = DcnTransportHelper::Get(net.left.Get(i))->GetStats();
        res.txTotal.dataPacketsSent += s.dataPacketsSent;
        res.txTotal.retransmissions += s.retransmissions;
        res.txTotal.timeouts += s.timeouts;
        res.txTotal.nacksReceived += s.nacksReceived;
        res.finalRto.push_back(conns[i]->GetRto());
    }
    Simulator::Destroy();
    return res;
}

inline uint64_t
TotalBytes(const ScenarioConfig& c)
{
    uint64_t b = 0;
    for (auto s : c.sizes)
    {
        b += s;
    }
    return b * c.nLeft;
}

class ReorderTestCase : public TestCase
{
  public:
    ReorderTestCase()
        : TestCase("per-packet spraying over unequal paths: out-of-order delivery, every byte once")
    {
    }

    void DoRun() override
    {
        ScenarioConfig c;
        ScenarioResult r = RunScenario(c);
        NS_TEST_ASSERT_MSG_EQ(r.recs.size(), r.expected, "all messages complete");
        NS_TEST_ASSERT_MSG_EQ(r.allOnce, true, "every byte delivered exactly once");
        NS_TEST_ASSERT_MSG_EQ(r.rx.uniqueBytesDelivered, TotalBytes(c), "unique bytes");
        NS_TEST_ASSERT_MSG_GT(r.rx.outOfOrderPackets, 10, "spraying over 0.5us/3us paths reorders");
        uint64_t ooo = 0;
        for (auto& m : r.recs)
        {
            ooo += m.outOfOrder;
            NS_TEST_ASSERT_MSG_GT(m.finish, m.start, "finish after start");
        }
        NS_TEST_ASSERT_MSG_GT(ooo, 0, "out-of-order counted in message records");
        NS_TEST_ASSERT_MSG_EQ(r.acksEvMismatch, 0, "every ACK echoes the data packet's EV");
        NS_TEST_ASSERT_MSG_EQ(r.txTotal.timeouts, 0, "reordering alone causes no timeouts");
    }
};

class RtoFloorTestCase : public TestCase
{
  public:
    RtoFloorTestCase()
        : TestCase("RtoBaseRtts: the RTO of a connection is at least that many base RTTs")
    {
    }

    void DoRun() override
    {
        // the reordering scenario (no loss, 0 timeouts at the default 70 us) with an RTO
        // below the path's RTT: every packet times out and is resent
        ScenarioConfig c;
        c.rto = MicroSeconds(5);
        ScenarioResult low = RunScenario(c);
        NS_TEST_ASSERT_MSG_EQ(low.allOnce, true, "every byte delivered exactly once");
        NS_TEST_ASSERT_MSG_GT(low.txTotal.timeouts, 100, "a 5 us RTO times out (no loss)");
        // the same with a floor of 7 base RTTs (the connections' baseRtt is 10 us: 70 us)
        c.rtoBaseRtts = 7;
        ScenarioResult floored = RunScenario(c);
        ScenarioResult dflt = RunScenario(ScenarioConfig());
        NS_TEST_ASSERT_MSG_EQ(floored.txTotal.timeouts, 0, "70 us floor: no spurious timeout");
        NS_TEST_ASSERT_MSG_EQ(floored.recs.size(), dflt.recs.size(), "same messages");
        for (size_t i = 0; i < floored.recs.size() && i < dflt.recs.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(floored.recs[i].finish,
                                  dflt.recs[i].finish,
                                  "max(5 us, 7 x 10 us) runs as the default 70 us");
        }
    }
};

class RtoAdaptiveTestCase : public TestCase
{
  public:
    RtoAdaptiveTestCase()
        : TestCase("RtoAdaptive: the RTO follows SRTT + 4 RTTVAR above Rto, so an RTO below "
                   "the RTT stops timing out")
    {
    }

    void DoRun() override
    {
        // the reordering scenario with a 5 us RTO: every packet in flight longer times out
        ScenarioConfig c;
        c.rto = MicroSeconds(5);
        ScenarioResult fixed = RunScenario(c);
        c.rtoAdaptive = true;
        ScenarioResult adaptive = RunScenario(c);
        NS_TEST_ASSERT_MSG_EQ(adaptive.allOnce, true, "every byte delivered exactly once");
        NS_TEST_ASSERT_MSG_EQ(adaptive.recs.size(), adaptive.expected, "all messages complete");
        NS_TEST_ASSERT_MSG_GT(fixed.txTotal.timeouts, 100, "fixed 5 us: spurious timeouts");
        // only the first window, sent before any RTT sample, can time out (measured: 771
        // timeouts fixed, 7 adaptive; final RTOs 39.9 / 44.2 us)
        NS_TEST_EXPECT_MSG_LT(adaptive.txTotal.timeouts * 10,
                              fixed.txTotal.timeouts,
                              "adaptive: under a tenth of the fixed RTO's timeouts");
        for (Time r : adaptive.finalRto)
        {
            // the 3 us path's round trip alone is over 6 us
            NS_TEST_EXPECT_MSG_GT(r, MicroSeconds(6), "the RTO grew to the RTT and beyond");
        }
        for (Time r : fixed.finalRto)
        {
            NS_TEST_EXPECT_MSG_EQ(r, MicroSeconds(5), "fixed: Rto");
        }
        // a floor above every estimate: the adaptive run is the fixed 70 us run
        ScenarioConfig d;
        d.rtoAdaptive = true;
        ScenarioResult high = RunScenario(d);
        ScenarioResult dflt = RunScenario(ScenarioConfig());
        NS_TEST_ASSERT_MSG_EQ(high.recs.size(), dflt.recs.size(), "same messages");
        for (size_t i = 0; i < high.recs.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(high.recs[i].finish, dflt.recs[i].finish, "same FCTs");
        }
        for (Time r : high.finalRto)
        {
            NS_TEST_EXPECT_MSG_EQ(r, MicroSeconds(70), "estimate below the 70 us floor");
        }
    }
};

class LossTestCase : public TestCase
{
  public:
    LossTestCase()
        : TestCase("random loss 1% on one path: retransmissions, every byte once")
    {
    }

    void DoRun() override
    {
        ScenarioConfig c;
        Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
        em->SetAttribute("ErrorRate", DoubleValue(0.01));
        em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        em->AssignStreams(5);
        c.hook = [em](TestNet& n) { n.s1ToM2Rx->SetReceiveErrorModel(em); };
        ScenarioResult r = RunScenario(c);
        NS_TEST_ASSERT_MSG_EQ(r.recs.size(), r.expected, "all messages complete");
        NS_TEST_ASSERT_MSG_EQ(r.allOnce, true, "every byte delivered exactly once");
        NS_TEST_ASSERT_MSG_EQ(r.rx.uniqueBytesDelivered, TotalBytes(c), "unique bytes");
        NS_TEST_ASSERT_MSG_GT(r.txTotal.timeouts, 0, "losses recovered by timeouts");
        NS_TEST_ASSERT_MSG_GT(r.txTotal.retransmissions, 0, "retransmissions happened");
        uint32_t retx = 0;
        for (auto& m : r.recs)
        {
            retx += m.retransmissions;
        }
        NS_TEST_ASSERT_MSG_EQ(retx,
                              r.txTotal.retransmissions,
                              "per-message retransmissions add up");
    }
};

class TrimTestCase : public TestCase
{
  public:
    TrimTestCase()
        : TestCase(
              "trimming every 7th data packet: NACK, immediate retransmission, every byte once")
    {
    }

    void DoRun() override
    {
        ScenarioConfig c;
        Ptr<TestMangler> m = CreateObject<TestMangler>();
        m->trimEvery = 7;
        c.hook = [m](TestNet& n) { n.s1ToM1Rx->SetReceiveErrorModel(m); };
        ScenarioResult r = RunScenario(c);
        NS_TEST_ASSERT_MSG_EQ(r.recs.size(), r.expected, "all messages complete");
        NS_TEST_ASSERT_MSG_EQ(r.allOnce, true, "every byte delivered exactly once");
        NS_TEST_ASSERT_MSG_GT(m->trimmed, 10, "mangler trimmed packets");
        NS_TEST_ASSERT_MSG_EQ(r.rx.trimmedReceived,
                              m->trimmed,
                              "receiver saw every trimmed header");
        NS_TEST_ASSERT_MSG_EQ(r.rx.nacksSent, m->trimmed, "one NACK per trimmed header");
        NS_TEST_ASSERT_MSG_EQ(r.txTotal.nacksReceived, m->trimmed, "senders got every NACK");
        NS_TEST_ASSERT_MSG_EQ(r.txTotal.timeouts, 0, "NACKs recover without timeouts");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(r.txTotal.retransmissions,
                                    m->trimmed,
                                    "trimmed packets resent");
        uint32_t trimmed = 0;
        for (auto& rec : r.recs)
        {
            trimmed += rec.trimmed;
        }
        NS_TEST_ASSERT_MSG_EQ(trimmed, m->trimmed, "trims counted per message");
    }
};

class SilentFailureTestCase : public TestCase
{
  public:
    SilentFailureTestCase()
        : TestCase("silent failure of one of two paths for 200us: every byte once")
    {
    }

    void DoRun() override
    {
        ScenarioConfig c;
        c.sizes = {4 << 20};
        Ptr<TestMangler> m = CreateObject<TestMangler>();
        m->dropStart = MicroSeconds(50);
        m->dropEnd = MicroSeconds(250);
        c.hook = [m](TestNet& n) { n.s1ToM2Rx->SetReceiveErrorModel(m); };
        ScenarioResult r = RunScenario(c);
        NS_TEST_ASSERT_MSG_EQ(r.recs.size(), r.expected, "all messages complete");
        NS_TEST_ASSERT_MSG_EQ(r.allOnce, true, "every byte delivered exactly once");
        NS_TEST_ASSERT_MSG_GT(m->dropped, 10, "the failed path dropped packets");
        NS_TEST_ASSERT_MSG_GT(r.txTotal.timeouts, 0, "losses detected by timeout");
        uint32_t to = 0;
        for (auto& rec : r.recs)
        {
            to += rec.timeouts;
            NS_TEST_ASSERT_MSG_GT(rec.finish,
                                  MicroSeconds(250),
                                  "completes after the failure ends");
        }
        NS_TEST_ASSERT_MSG_EQ(to, r.txTotal.timeouts, "timeouts counted per message");
    }
};

class EcnEchoTestCase : public TestCase
{
  public:
    EcnEchoTestCase(uint32_t ackRatio, std::string mode)
        : TestCase("CE marks echoed in ACKs with the data EV (AckRatio " +
                   std::to_string(ackRatio) + ", " + mode + ")"),
          m_ratio(ackRatio),
          m_mode(mode)
    {
    }

    void DoRun() override
    {
        ScenarioConfig c;
        c.nLeft = 1;
        c.sizes = {256 * 1024};
        c.ackRatio = m_ratio;
        c.ackEvMode = m_mode;
        Ptr<TestMangler> m = CreateObject<TestMangler>();
        m->markCe = true;
        // mark every data packet on the last hop (all paths)
        c.hook = [m](TestNet& n) { n.s2ToRightRx->SetReceiveErrorModel(m); };
        ScenarioResult r = RunScenario(c);
        NS_TEST_ASSERT_MSG_EQ(r.recs.size(), r.expected, "all messages complete");
        NS_TEST_ASSERT_MSG_EQ(r.allOnce, true, "every byte delivered exactly once");
        NS_TEST_ASSERT_MSG_EQ(m->marked, m->dataSeen, "every data packet was ECT and got marked");
        NS_TEST_ASSERT_MSG_EQ(r.rx.ceMarkedReceived, r.rx.dataPacketsReceived, "receiver saw CE");
        NS_TEST_ASSERT_MSG_GT(r.acks, 0, "ACKs received");
        NS_TEST_ASSERT_MSG_EQ(r.acksWithEcn, r.acks, "every ACK echoes ECN");
        NS_TEST_ASSERT_MSG_EQ(r.acksEvMismatch, 0, "every ACK echoes the data packet's EV");
        if (m_ratio > 1)
        {
            NS_TEST_ASSERT_MSG_LT(r.acks * (m_ratio - 1),
                                  r.rx.dataPacketsReceived,
                                  "ACKs are coalesced");
        }
    }

    uint32_t m_ratio;
    std::string m_mode;
};

class ReliabilitySuite : public TestSuite
{
  public:
    ReliabilitySuite()
        : TestSuite("dcn-lb-transport-reliability", DCNLB_TEST_SYSTEM)
    {
        AddTestCase(new ReorderTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new LossTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new RtoFloorTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new RtoAdaptiveTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new TrimTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new SilentFailureTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new EcnEchoTestCase(1, "Standard"), DCNLB_TEST_QUICK);
        AddTestCase(new EcnEchoTestCase(4, "Standard"), DCNLB_TEST_QUICK);
    }
};

static ReliabilitySuite g_reliabilitySuite;

} // namespace dcntest
} // namespace ns3
