/*
 * dcn-lb-transport-cc: DctcpCc reacts to ACKs, marks and losses as in REPS spec 2.3.
 * dcn-lb-transport-lb: OPS EVs uniform, ECMP constant per connection, Carry-mode
 *                      feedback, reproducibility of whole runs.
 */
#include "transport-test-net.h"

#include "ns3/congestion-control.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-transport-helper.h"
#include "ns3/dctcp-cc.h"
#include "ns3/ecmp-path-selector.h"
#include "ns3/enum.h"
#include "ns3/ops-path-selector.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/test.h"

namespace ns3
{
namespace dcntest
{

class DctcpRulesTestCase : public TestCase
{
  public:
    DctcpRulesTestCase()
        : TestCase("MPRDMA-style DCTCP per-ACK rules")
    {
    }

    void DoRun() override
    {
        Ptr<DctcpCc> cc = CreateObject<DctcpCc>();
        CcSetup s;
        s.mtu = 4096;
        s.bdpBytes = 100 * 4096;
        cc->Setup(s);
        const double mtu = 4096;
        NS_TEST_ASSERT_MSG_EQ(cc->GetCwnd(), 150 * 4096, "initial window 1.5 BDP");
        cc->OnAck(CcAckSample::Simple(4096, false, MicroSeconds(10)));
        NS_TEST_ASSERT_MSG_EQ(cc->GetCwnd(), 150 * 4096, "capped at max window 1.5 BDP");
        cc->OnAck(CcAckSample::Simple(4096, true, MicroSeconds(10)));
        NS_TEST_ASSERT_MSG_EQ(cc->GetCwnd(), 150 * 4096 - 1024, "ECN ACK: -acked/4");
        double w = 150 * 4096 - 1024;
        cc->OnNack();
        w -= mtu;
        NS_TEST_ASSERT_MSG_EQ(cc->GetCwnd(), uint64_t(w), "NACK: -1 MTU");
        cc->OnTimeout();
        w -= mtu;
        NS_TEST_ASSERT_MSG_EQ(cc->GetCwnd(), uint64_t(w), "timeout: -1 MTU");
        cc->OnAck(CcAckSample::Simple(8192, false, MicroSeconds(10)));
        w += 8192 * mtu / w;
        NS_TEST_ASSERT_MSG_EQ(cc->GetCwnd(), uint64_t(w), "clean ACK: +acked*MTU/cwnd");
        for (int i = 0; i < 1000; ++i)
        {
            cc->OnTimeout();
        }
        NS_TEST_ASSERT_MSG_EQ(cc->GetCwnd(), 4096, "floor of 1 MTU");
        for (int i = 0; i < 1000; ++i)
        {
            cc->OnAck(CcAckSample::Simple(4096, true, MicroSeconds(10)));
        }
        NS_TEST_ASSERT_MSG_EQ(cc->GetCwnd(), 4096, "ECN floor of 1 MTU");
        // growth from 1 MTU: one window of clean ACKs roughly doubles... adds ~1 MTU per window
        cc->OnAck(CcAckSample::Simple(4096, false, MicroSeconds(10)));
        NS_TEST_ASSERT_MSG_EQ(cc->GetCwnd(), 8192, "clean ACK at 1 MTU adds 1 MTU");
        NS_TEST_ASSERT_MSG_EQ(cc->GetRate().GetBitRate(), 0, "window based: no pacing rate");

        // BDP from line rate x base RTT when bdpBytes = 0
        Ptr<DctcpCc> cc2 = CreateObject<DctcpCc>();
        CcSetup s2;
        s2.bdpBytes = 0;
        s2.lineRate = DataRate("400Gbps");
        s2.baseRtt = MicroSeconds(8);
        cc2->Setup(s2);
        NS_TEST_ASSERT_MSG_EQ_TOL(double(cc2->GetCwnd()), 600000.0, 4.0, "1.5 x 400G x 8us");

        // Alpha variant: alpha decays on clean ACKs; decrease is acked*alpha/2
        Ptr<DctcpCc> cc3 = CreateObject<DctcpCc>();
        cc3->SetAttribute("Variant", EnumValue(DctcpCc::ALPHA));
        cc3->Setup(s);
        for (int i = 0; i < 100; ++i)
        {
            cc3->OnAck(CcAckSample::Simple(4096, false, MicroSeconds(10)));
        }
        NS_TEST_ASSERT_MSG_LT(cc3->GetAlpha(), 0.01, "alpha decays without marks");
        uint64_t before = cc3->GetCwnd();
        cc3->OnAck(CcAckSample::Simple(4096, true, MicroSeconds(10)));
        NS_TEST_ASSERT_MSG_LT(before - cc3->GetCwnd(), 1024u, "alpha variant cuts less than /4");
        NS_TEST_ASSERT_MSG_GT(before, cc3->GetCwnd(), "alpha variant cuts on ECN");
    }
};

/**
 * PaceFromLastSend: a rate change while the next data packet waits for its gap
 * moves it (true) or not (false, the gap fixed at the last send).
 */
class PaceFromLastSendTestCase : public TestCase
{
  public:
    PaceFromLastSendTestCase()
        : TestCase("PaceFromLastSend: a rate change moves the waiting send only when true")
    {
    }

    /** Send times of the first two data packets; the rate becomes \p next 2 us after the first. */
    static std::vector<Time> Run(bool fromLast, DataRate next)
    {
        TestNet net = BuildTestNet(1, 1, false, NanoSeconds(500), NanoSeconds(500));
        DcnTransportHelper th;
        th.SetTransportAttribute("PaceFromLastSend", BooleanValue(fromLast));
        th.Install(net.left);
        th.Install(net.right);
        Ptr<DcnTransport> t = DcnTransportHelper::Get(net.left.Get(0));
        Ptr<TestRateCc> cc = CreateObject<TestRateCc>();
        DcnConnectionParams p;
        p.lineRate = DataRate("100Gbps");
        p.baseRtt = MicroSeconds(10);
        Ptr<DcnConnection> c =
            t->Connect(net.Addr(net.right.Get(0)), CreateObject<EcmpPathSelector>(), cc, p);
        std::vector<Time> sent;
        t->TraceConnectWithoutContext(
            "Tx",
            Callback<void, Ptr<const Packet>, const DcnHeader&>(
                [&sent, cc, next](Ptr<const Packet>, const DcnHeader&) {
                    sent.push_back(Simulator::Now());
                    if (sent.size() == 1)
                    {
                        Simulator::Schedule(MicroSeconds(2), &TestRateCc::SetRate, cc, next);
                    }
                }));
        c->SendMessage(10 * 4096,
                       DcnConnection::CompletionCallback([](const DcnMessageRecord&) {}));
        Simulator::Stop(MilliSeconds(2));
        Simulator::Run();
        Simulator::Destroy();
        sent.resize(2);
        return sent;
    }

    void DoRun() override
    {
        // the first gap at 1 Gb/s: one ~4.2 KB frame, about 33 us
        const std::vector<Time> slowFixed = Run(false, DataRate("100Gbps"));
        const Time gap = slowFixed[1] - slowFixed[0];
        NS_TEST_ASSERT_MSG_GT(gap, MicroSeconds(30), "false: the 1 Gb/s gap is kept");
        NS_TEST_ASSERT_MSG_LT(gap, MicroSeconds(40), "false: one frame at 1 Gb/s");
        const std::vector<Time> fast = Run(true, DataRate("100Gbps"));
        NS_TEST_ASSERT_MSG_EQ(fast[1] - fast[0],
                              MicroSeconds(2),
                              "true: the increase releases the waiting packet at once");
        const std::vector<Time> slower = Run(true, DataRate("500Mbps"));
        NS_TEST_ASSERT_MSG_EQ(slower[1] - slower[0],
                              2 * gap,
                              "true: a decrease to half the rate doubles the waiting gap");
        const std::vector<Time> slowerFixed = Run(false, DataRate("500Mbps"));
        NS_TEST_ASSERT_MSG_EQ(slowerFixed[1] - slowerFixed[0], gap, "false: the decrease waits");
    }
};

class CcSuite : public TestSuite
{
  public:
    CcSuite()
        : TestSuite("dcn-lb-transport-cc", DCNLB_TEST_UNIT)
    {
        AddTestCase(new DctcpRulesTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new PaceFromLastSendTestCase, DCNLB_TEST_QUICK);
    }
};

static CcSuite g_ccSuite;

class OpsUniformTestCase : public TestCase
{
  public:
    OpsUniformTestCase()
        : TestCase("OPS EVs are uniform over the EV set (chi-square, fixed seed)")
    {
    }

    void DoRun() override
    {
        RngSeedManager::SetSeed(3);
        RngSeedManager::SetRun(1);
        const uint32_t k = 16;
        const uint32_t n = 32000;
        Ptr<OpsPathSelector> ops = CreateObject<OpsPathSelector>();
        ops->SetAttribute("EvSetSize", UintegerValue(k));
        ops->AssignStreams(11);
        ops->Setup(PathSelectorSetup());
        std::vector<uint32_t> cnt(k, 0);
        for (uint32_t i = 0; i < n; ++i)
        {
            uint16_t ev = ops->Choose(SendContext()).ev;
            NS_TEST_ASSERT_MSG_LT(ev, k, "EV inside the EV set");
            cnt[ev < k ? ev : 0]++;
        }
        double e = double(n) / k;
        double chi2 = 0;
        for (auto c : cnt)
        {
            chi2 += (c - e) * (c - e) / e;
        }
        // 15 degrees of freedom: P(chi2 > 37.7) = 0.001
        NS_TEST_ASSERT_MSG_LT(chi2, 37.7, "chi-square of EV histogram");
        NS_TEST_ASSERT_MSG_GT(chi2, 0.0, "not degenerate");

        // full 16-bit set: many distinct values, spread over the whole range
        Ptr<OpsPathSelector> big = CreateObject<OpsPathSelector>();
        big->AssignStreams(12);
        big->Setup(PathSelectorSetup());
        uint32_t high = 0;
        std::set<uint16_t> seen;
        for (int i = 0; i < 1000; ++i)
        {
            uint16_t ev = big->Choose(SendContext()).ev;
            seen.insert(ev);
            high += ev >= 32768;
        }
        NS_TEST_ASSERT_MSG_GT(seen.size(), 980u, "65536-EV set: few repeats in 1000 draws");
        NS_TEST_ASSERT_MSG_GT(high, 400u, "upper half used");
        NS_TEST_ASSERT_MSG_LT(high, 600u, "lower half used");
    }
};

class EcmpConstantTestCase : public TestCase
{
  public:
    EcmpConstantTestCase()
        : TestCase("ECMP: one constant EV per connection, different connections differ")
    {
    }

    void DoRun() override
    {
        std::set<uint16_t> evs;
        for (int c = 0; c < 20; ++c)
        {
            Ptr<EcmpPathSelector> e = CreateObject<EcmpPathSelector>();
            e->AssignStreams(100 + c);
            e->Setup(PathSelectorSetup());
            uint16_t ev = e->Choose(SendContext()).ev;
            for (int i = 0; i < 500; ++i)
            {
                SendContext ctx;
                ctx.psn = i;
                ctx.retransmission = (i % 3) == 0;
                NS_TEST_ASSERT_MSG_EQ(e->Choose(ctx).ev, ev, "EV constant within a connection");
            }
            PathFeedback fb;
            fb.signal = FeedbackSignal::TIMEOUT;
            e->OnFeedback(fb);
            NS_TEST_ASSERT_MSG_EQ(e->Choose(SendContext()).ev, ev, "feedback does not move ECMP");
            evs.insert(ev);
        }
        NS_TEST_ASSERT_MSG_GT(evs.size(), 15u, "connections get different EVs");
        // flow-hash mode: deterministic from the flow hash
        Ptr<EcmpPathSelector> a = CreateObject<EcmpPathSelector>();
        Ptr<EcmpPathSelector> b = CreateObject<EcmpPathSelector>();
        a->SetAttribute("UseFlowHash", BooleanValue(true));
        b->SetAttribute("UseFlowHash", BooleanValue(true));
        PathSelectorSetup s;
        s.flowHash = 12345;
        a->Setup(s);
        b->Setup(s);
        NS_TEST_ASSERT_MSG_EQ(a->GetEv(), b->GetEv(), "same flow hash, same EV");
        NS_TEST_ASSERT_MSG_EQ(PathSelectorRegistry::Has("ecmp"), true, "ecmp registered");
        NS_TEST_ASSERT_MSG_EQ(PathSelectorRegistry::Has("ops"), true, "ops registered");
        NS_TEST_ASSERT_MSG_EQ(PathSelectorRegistry::Create("ops")->Name(), "ops", "ops by name");
    }
};

/** Records feedback; sprays like OPS over 1024 EVs. */
class RecordingSelector : public PathSelector
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::dcntest::RecordingSelector")
                                .SetParent<PathSelector>()
                                .AddConstructor<RecordingSelector>();
        return tid;
    }

    PathChoice Choose(const SendContext&) override
    {
        PathChoice c;
        c.ev = static_cast<uint16_t>(m_next++ % 1024);
        m_chosen++;
        return c;
    }

    void OnFeedback(const PathFeedback& fb) override
    {
        m_fb[static_cast<int>(fb.signal)]++;
        m_bytes += fb.ackedBytes;
    }

    std::string Name() const override
    {
        return "test-recording";
    }

    uint32_t m_next{0};
    uint64_t m_chosen{0};
    uint64_t m_fb[4]{0, 0, 0, 0};
    uint64_t m_bytes{0};
};

DCNLB_REGISTER_PATH_SELECTOR("test-recording", RecordingSelector);

class TransportRun
{
  public:
    /** Two senders -> one receiver over the sprayed test net; returns FCTs in ns. */
    static std::vector<int64_t> Run(const std::string& lb,
                                    uint32_t run,
                                    uint32_t ackRatio,
                                    const std::string& evMode,
                                    std::vector<Ptr<PathSelector>>* selectors,
                                    DcnTransportStats* rxStats,
                                    std::vector<uint16_t>* evTrace)
    {
        RngSeedManager::SetSeed(9);
        RngSeedManager::SetRun(run);
        TestNet net = BuildTestNet(2, 1, true, NanoSeconds(500), MicroSeconds(2));
        DcnTransportHelper th;
        th.SetTransportAttribute("AckRatio", UintegerValue(ackRatio));
        th.SetTransportAttribute("AckEvMode", StringValue(evMode));
        th.Install(net.left);
        th.Install(net.right);
        std::vector<int64_t> fct;
        int64_t stream = 1;
        for (uint32_t i = 0; i < 2; ++i)
        {
            Ptr<PathSelector> ps = PathSelectorRegistry::Create(lb);
            stream += ps->AssignStreams(stream);
            if (selectors)
            {
                selectors->push_back(ps);
            }
            DcnConnectionParams p;
            p.lineRate = DataRate("100Gbps");
            p.baseRtt = MicroSeconds(10);
            Ptr<DcnTransport> t = DcnTransportHelper::Get(net.left.Get(i));
            if (evTrace)
            {
                t->TraceConnectWithoutContext(
                    "PathChosen",
                    Callback<void, uint32_t, uint32_t, uint16_t>(
                        [evTrace](uint32_t, uint32_t, uint16_t ev) { evTrace->push_back(ev); }));
            }
            Ptr<DcnConnection> c =
                t->Connect(net.Addr(net.right.Get(0)), ps, CreateObject<DctcpCc>(), p);
            for (uint64_t s : {300000u, 500000u, 7u})
            {
                c->SendMessage(s,
                               DcnConnection::CompletionCallback([&fct](const DcnMessageRecord& r) {
                                   fct.push_back((r.finish - r.start).GetNanoSeconds());
                               }));
            }
        }
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        if (rxStats)
        {
            *rxStats = DcnTransportHelper::Get(net.right.Get(0))->GetStats();
        }
        Simulator::Destroy();
        return fct;
    }
};

class CarryEvTestCase : public TestCase
{
  public:
    CarryEvTestCase()
        : TestCase("coalesced ACKs (AckRatio 4): Carry gives one feedback per data EV, Standard "
                   "one per ACK")
    {
    }

    void DoRun() override
    {
        std::vector<Ptr<PathSelector>> sel;
        DcnTransportStats rx;
        auto fct = TransportRun::Run("test-recording", 1, 4, "Carry", &sel, &rx, nullptr);
        NS_TEST_ASSERT_MSG_EQ(fct.size(), 6u, "all messages complete (Carry)");
        uint64_t ackFb = 0;
        uint64_t bytes = 0;
        for (auto& s : sel)
        {
            auto r = DynamicCast<RecordingSelector>(s);
            ackFb += r->m_fb[0];
            bytes += r->m_bytes;
        }
        NS_TEST_ASSERT_MSG_EQ(ackFb, rx.dataPacketsReceived, "one ACK feedback per carried EV");
        NS_TEST_ASSERT_MSG_LT(rx.acksSent * 3, rx.dataPacketsReceived, "ACKs coalesced");
        NS_TEST_ASSERT_MSG_EQ(bytes, 2u * 800007u, "acked bytes reported once");

        sel.clear();
        fct = TransportRun::Run("test-recording", 1, 4, "Standard", &sel, &rx, nullptr);
        NS_TEST_ASSERT_MSG_EQ(fct.size(), 6u, "all messages complete (Standard)");
        ackFb = 0;
        for (auto& s : sel)
        {
            ackFb += DynamicCast<RecordingSelector>(s)->m_fb[0];
        }
        NS_TEST_ASSERT_MSG_EQ(ackFb, rx.acksSent, "Standard: one feedback per ACK");
    }
};

class ReproTestCase : public TestCase
{
  public:
    ReproTestCase()
        : TestCase("same seed and run give identical FCTs and EVs, another run differs")
    {
    }

    void DoRun() override
    {
        std::vector<uint16_t> ev1;
        std::vector<uint16_t> ev2;
        std::vector<uint16_t> ev3;
        auto a = TransportRun::Run("ops", 1, 1, "Standard", nullptr, nullptr, &ev1);
        auto b = TransportRun::Run("ops", 1, 1, "Standard", nullptr, nullptr, &ev2);
        auto c = TransportRun::Run("ops", 2, 1, "Standard", nullptr, nullptr, &ev3);
        NS_TEST_ASSERT_MSG_EQ(a.size(), 6u, "all complete");
        NS_TEST_ASSERT_MSG_EQ((a == b), true, "identical FCTs for the same run");
        NS_TEST_ASSERT_MSG_EQ((ev1 == ev2), true, "identical EV sequences for the same run");
        NS_TEST_ASSERT_MSG_EQ((ev1 == ev3), false, "another RngRun draws other EVs");
        ev1.clear();
        ev2.clear();
        auto e1 = TransportRun::Run("ecmp", 1, 1, "Standard", nullptr, nullptr, &ev1);
        auto e2 = TransportRun::Run("ecmp", 1, 1, "Standard", nullptr, nullptr, &ev2);
        NS_TEST_ASSERT_MSG_EQ((e1 == e2), true, "ecmp: identical FCTs for the same run");
        std::set<uint16_t> distinct(ev1.begin(), ev1.end());
        NS_TEST_ASSERT_MSG_LT_OR_EQ(distinct.size(), 2u, "ecmp: at most one EV per connection");
    }
};

class LbSuite : public TestSuite
{
  public:
    LbSuite()
        : TestSuite("dcn-lb-transport-lb", DCNLB_TEST_UNIT)
    {
        AddTestCase(new OpsUniformTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new EcmpConstantTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new CarryEvTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new ReproTestCase, DCNLB_TEST_QUICK);
    }
};

static LbSuite g_lbSuite;

} // namespace dcntest
} // namespace ns3
