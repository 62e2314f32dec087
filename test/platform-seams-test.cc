/*
 * dcn-lb-platform-seams: contracts of the path-selector, header-extension and
 * scheme seams (issue 8 items 3, 5, 7).
 *  - a mock selector sees each TIMEOUT with the EV and path id of the packet
 *    that timed out;
 *  - a path id and a source route (and a timestamp request) round-trip through
 *    the wire and the ACK, and come back in the feedback with the PSN and a
 *    one-way delay;
 *  - a probe asked for by the selector is a real packet whose reply comes back
 *    as PROBE_REPLY feedback; a loss declared by the selector is retransmitted;
 *  - the header extension serialises every option and a packet without
 *    options keeps the base size;
 *  - a scheme that cannot run on a topology / transport is refused with one line.
 */
#include "transport-test-net.h"

#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-scheme.h"
#include "ns3/dcn-transport-helper.h"
#include "ns3/dcn-transport.h"
#include "ns3/dctcp-cc.h"
#include "ns3/path-selector.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/string.h"
#include "ns3/test.h"

#include <map>

namespace ns3
{
namespace dcntest
{

/** Test selector: EV, path id and route are functions of the PSN and the send count. */
class MockPathSelector : public PathSelector
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::DcnTestMockPathSelector")
                                .SetParent<PathSelector>()
                                .SetGroupName("DcnLb")
                                .AddConstructor<MockPathSelector>();
        return tid;
    }

    struct Sent
    {
        uint16_t ev;
        int32_t pathId;
        uint8_t route0;
    };

    PathChoice Choose(const SendContext& ctx) override
    {
        PathChoice pc;
        pc.ev = static_cast<uint16_t>(1000 + m_sends);
        pc.pathId = static_cast<int32_t>(m_sends % 5);
        pc.routeLen = 3;
        pc.route = {static_cast<uint16_t>(m_sends % 251), 7, 9};
        pc.requestTimestamp = true;
        m_sent[static_cast<uint32_t>(ctx.psn)] =
            Sent{pc.ev, pc.pathId, static_cast<uint8_t>(m_sends % 251)};
        m_sends++;
        if (probeOnFirst && m_sends == 1)
        {
            PathChoice probe = pc;
            probe.ev = 4242;
            probe.pathId = 3;
            m_setup.sendProbe(probe);
        }
        if (declareLossOf >= 0 && ctx.psn == uint64_t(declareLossOf) + 1 && !ctx.retransmission)
        {
            m_setup.declareLost(static_cast<uint32_t>(declareLossOf));
        }
        if (ctx.psn == declareBatchAt && !ctx.retransmission)
        {
            for (uint32_t psn : declareBatch)
            {
                m_setup.declareLost(psn);
            }
        }
        if (ctx.retransmission)
        {
            retxOrder.push_back(static_cast<uint32_t>(ctx.psn));
        }
        sendOrder.push_back(static_cast<uint32_t>(ctx.psn));
        return pc;
    }

    void OnFeedback(const PathFeedback& fb) override
    {
        if (fb.signal == FeedbackSignal::PROBE_REPLY)
        {
            probeReplies++;
            probeOk =
                probeOk && fb.path.ev == 4242 && fb.path.pathId == 3 && fb.rtt.IsStrictlyPositive();
            return;
        }
        auto it = m_sent.find(fb.psn);
        bool known = it != m_sent.end();
        if (fb.signal == FeedbackSignal::TIMEOUT)
        {
            timeouts++;
            if (!known || fb.path.ev != it->second.ev || fb.path.pathId != it->second.pathId)
            {
                timeoutMismatch++;
            }
            return;
        }
        acks++;
        if (!known || fb.path.ev != it->second.ev || fb.path.pathId != it->second.pathId ||
            fb.path.routeLen != 3 || fb.path.route[0] != it->second.route0 ||
            fb.path.route[1] != 7 || fb.path.route[2] != 9)
        {
            ackMismatch++;
        }
        if (!(fb.oneWayDelay.IsStrictlyPositive() && fb.oneWayDelay < fb.rtt))
        {
            owdBad++;
        }
    }

    std::string Name() const override
    {
        return "test-mock";
    }

    bool probeOnFirst{false};
    int64_t declareLossOf{-1};
    uint64_t declareBatchAt{UINT64_MAX}; //!< at this psn's first send, declare ...
    std::vector<uint32_t> declareBatch;  //!< ... these psns lost, in this order
    std::vector<uint32_t> retxOrder;     //!< psns of the retransmissions, in send order
    std::vector<uint32_t> sendOrder;     //!< psns of every send, in send order
    uint32_t timeouts{0};
    uint32_t timeoutMismatch{0};
    uint32_t acks{0};
    uint32_t ackMismatch{0};
    uint32_t owdBad{0};
    uint32_t probeReplies{0};
    bool probeOk{true};

  private:
    uint32_t m_sends{0};
    std::map<uint32_t, Sent> m_sent; //!< psn -> last send
};

NS_OBJECT_ENSURE_REGISTERED(MockPathSelector);

/** One connection left[0] -> right[0] with the mock selector; hook may add failures. */
struct MockRun
{
    Ptr<MockPathSelector> ps;
    DcnTransportStats tx;
    uint32_t completed{0};
    uint64_t retxPackets{0};
};

inline MockRun
RunMock(std::function<void(TestNet&)> hook,
        std::function<void(MockPathSelector&)> cfg,
        uint64_t bytes,
        std::vector<std::pair<std::string, std::string>> transportAttrs = {})
{
    RngSeedManager::SetSeed(3);
    RngSeedManager::SetRun(1);
    MockRun r;
    TestNet net = BuildTestNet(1, 1, true, NanoSeconds(500), MicroSeconds(1));
    if (hook)
    {
        hook(net);
    }
    DcnTransportHelper th;
    for (const auto& a : transportAttrs)
    {
        th.SetTransportAttribute(a.first, StringValue(a.second));
    }
    th.Install(net.left);
    th.Install(net.right);
    r.ps = CreateObject<MockPathSelector>();
    cfg(*r.ps);
    DcnConnectionParams p;
    p.lineRate = DataRate("100Gbps");
    p.baseRtt = MicroSeconds(10);
    Ptr<DcnTransport> t = DcnTransportHelper::Get(net.left.Get(0));
    Ptr<DcnConnection> c = t->Connect(net.Addr(net.right.Get(0)), r.ps, CreateObject<DctcpCc>(), p);
    uint32_t* done = &r.completed;
    c->SendMessage(bytes, DcnConnection::CompletionCallback([done](const DcnMessageRecord&) {
                       (*done)++;
                   }));
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    r.tx = t->GetStats();
    Simulator::Destroy();
    return r;
}

class MockTimeoutTestCase : public TestCase
{
  public:
    MockTimeoutTestCase()
        : TestCase("mock selector: every TIMEOUT carries the EV and path id of the lost packet")
    {
    }

    void DoRun() override
    {
        Ptr<TestMangler> m = CreateObject<TestMangler>();
        m->dropStart = MicroSeconds(5);
        m->dropEnd = MicroSeconds(60);
        MockRun r = RunMock([m](TestNet& n) { n.s2ToRightRx->SetReceiveErrorModel(m); },
                            [](MockPathSelector&) {},
                            1 << 20);
        NS_TEST_ASSERT_MSG_EQ(r.completed, 1, "the message completes after the outage");
        NS_TEST_ASSERT_MSG_GT(m->dropped, 10, "the outage dropped packets");
        NS_TEST_ASSERT_MSG_GT(r.ps->timeouts, 0, "the selector saw timeouts");
        NS_TEST_ASSERT_MSG_EQ(r.ps->timeouts, r.tx.timeouts, "one TIMEOUT feedback per RTO");
        NS_TEST_ASSERT_MSG_EQ(r.ps->timeoutMismatch, 0, "TIMEOUT names the packet's EV and path");
    }
};

class PathRoundTripTestCase : public TestCase
{
  public:
    PathRoundTripTestCase()
        : TestCase("path id, source route and timestamp round-trip through the wire and the ACK")
    {
    }

    void DoRun() override
    {
        MockRun r = RunMock(
            nullptr,
            [](MockPathSelector&) {},
            256 * 1024);
        NS_TEST_ASSERT_MSG_EQ(r.completed, 1, "message completes");
        NS_TEST_ASSERT_MSG_EQ(r.ps->acks, 64, "one ACK per data packet (AckRatio 1)");
        NS_TEST_ASSERT_MSG_EQ(r.ps->ackMismatch, 0, "ACK echoes EV, path id and route by PSN");
        NS_TEST_ASSERT_MSG_EQ(r.ps->owdBad, 0, "one-way delay in (0, RTT)");
    }
};

class ProbeAndLossTestCase : public TestCase
{
  public:
    ProbeAndLossTestCase()
        : TestCase("selector-requested probe is answered; declared loss is retransmitted")
    {
    }

    void DoRun() override
    {
        MockRun r = RunMock(
            nullptr,
            [](MockPathSelector& s) {
                s.probeOnFirst = true;
                s.declareLossOf = 3;
            },
            64 * 1024);
        NS_TEST_ASSERT_MSG_EQ(r.completed, 1, "message completes");
        NS_TEST_ASSERT_MSG_EQ(r.ps->probeReplies, 1, "one PROBE_REPLY");
        NS_TEST_ASSERT_MSG_EQ(r.ps->probeOk, true, "probe reply echoes EV and path, RTT > 0");
        NS_TEST_ASSERT_MSG_EQ(r.tx.retransmissions, 1, "the declared loss was retransmitted");
    }
};

class LostInSequenceOrderTestCase : public TestCase
{
  public:
    LostInSequenceOrderTestCase()
        : TestCase("losses the selector declares are resent in sequence order before new data")
    {
    }

    void DoRun() override
    {
        // LAPS spec 2.5: paths declare losses in their own order (a path timer, then an
        // ACK that skipped psns on another path); the sender resends the lowest first
        MockRun r = RunMock(
            nullptr,
            [](MockPathSelector& s) {
                s.declareBatchAt = 12;
                s.declareBatch = {9, 2, 11, 5};
            },
            64 * 1024);
        NS_TEST_ASSERT_MSG_EQ(r.completed, 1, "message completes");
        NS_TEST_ASSERT_MSG_EQ(r.tx.retransmissions, 4, "every declared loss resent once");
        const std::vector<uint32_t> want = {2, 5, 9, 11};
        NS_TEST_ASSERT_MSG_EQ(r.ps->retxOrder.size(), want.size(), "four retransmissions");
        for (size_t i = 0; i < want.size() && i < r.ps->retxOrder.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(r.ps->retxOrder[i], want[i], "resent in sequence order");
        }
        // ... and before new data: the four sends after psn 12's are the resends
        const auto& so = r.ps->sendOrder;
        NS_TEST_ASSERT_MSG_GT(so.size(), 17, "psn 12 and the resends were sent");
        NS_TEST_ASSERT_MSG_EQ(so[12], 12, "new data in order up to the declaration");
        for (size_t i = 0; i < want.size() && 13 + i < so.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(so[13 + i], want[i], "the resends come before psn 13");
        }
        NS_TEST_ASSERT_MSG_EQ(so[17], 13, "then new data again");
    }
};

class DelayedAckTestCase : public TestCase
{
  public:
    DelayedAckTestCase()
        : TestCase("ACK policy: the delayed-ACK timer acknowledges coalesced packets early")
    {
    }

    void DoRun() override
    {
        // AckRatio 255: without the timer a 64-packet message is acknowledged by its
        // LAST packet (and stragglers); with AckDelay 2us every ~2us as well.
        const std::vector<std::pair<std::string, std::string>> noTimer = {{"AckRatio", "255"}};
        const std::vector<std::pair<std::string, std::string>> timer = {{"AckRatio", "255"},
                                                                        {"AckDelay", "2us"}};
        MockRun a = RunMock(
            nullptr,
            [](MockPathSelector&) {},
            256 * 1024,
            noTimer);
        MockRun b = RunMock(
            nullptr,
            [](MockPathSelector&) {},
            256 * 1024,
            timer);
        NS_TEST_ASSERT_MSG_EQ(a.completed, 1, "completes without the timer");
        NS_TEST_ASSERT_MSG_EQ(b.completed, 1, "completes with the timer");
        // without the timer only LAST and stragglers after it (spraying) are acknowledged
        NS_TEST_ASSERT_MSG_LT(a.tx.acksReceived, 8, "LAST and stragglers only without the timer");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(b.tx.acksReceived,
                                    a.tx.acksReceived + 5,
                                    "the timer acknowledges before LAST (~21us / 2us)");
        NS_TEST_ASSERT_MSG_LT(b.tx.acksReceived, 64, "still coalesced");
        NS_TEST_ASSERT_MSG_EQ(b.ps->ackMismatch, 0, "delayed ACKs echo the path of their packet");
    }
};

class HeaderExtensionTestCase : public TestCase
{
  public:
    HeaderExtensionTestCase()
        : TestCase("DcnHeader extension: options serialise, base size without options")
    {
    }

    void DoRun() override
    {
        DcnHeader h;
        NS_TEST_ASSERT_MSG_EQ(h.GetSerializedSize(), DcnHeader::BASE_SIZE, "no options: base");
        // an ACK: the EV list precedes the extension (DATA headers carry no EV list)
        h.opcode = DcnHeader::ACK;
        h.evs = {1, 2};
        h.extMask = DcnHeader::EXT_PATH_ID | DcnHeader::EXT_ROUTE | DcnHeader::EXT_TIMESTAMP |
                    DcnHeader::EXT_INT;
        h.pathId = 77;
        h.routeLen = 4;
        h.routePtr = 1;
        h.route = {10, 20, 30, 40};
        h.extTimestampNs = 123456789;
        h.intCount = 2;
        h.intRecords[0].switchId = 5;
        h.intRecords[0].queueBytes = 1000;
        h.intRecords[0].timeNs = 42;
        h.intRecords[1].switchId = 6;
        h.intRecords[1].queueBytes = 2000;
        h.intRecords[1].timeNs = 43;
        Ptr<Packet> p = Create<Packet>(100);
        p->AddHeader(h);
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(),
                              100 + DcnHeader::CTRL_BASE_SIZE + 4 + 1 + 4 + 2 + 8 + 8 + 2 +
                                  2 * DcnHeader::INT_RECORD_SIZE,
                              "size of base + 2 EVs + options");
        uint8_t buf[160];
        p->CopyData(buf, sizeof(buf));
        NS_TEST_ASSERT_MSG_EQ(DcnHeader::ExtensionOffset(buf),
                              DcnHeader::CTRL_BASE_SIZE + 4,
                              "extension found from the bytes");
        NS_TEST_ASSERT_MSG_EQ(uint32_t(buf[DcnHeader::ExtensionOffset(buf)]),
                              uint32_t(h.extMask),
                              "mask first");
        const bool extFlag = (buf[1] & DcnHeader::FLAG_EXT) != 0;
        NS_TEST_ASSERT_MSG_EQ(extFlag, true, "FLAG_EXT on the wire");
        DcnHeader g;
        p->RemoveHeader(g);
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 100, "header fully consumed");
        NS_TEST_ASSERT_MSG_EQ(g.pathId, 77, "path id");
        NS_TEST_ASSERT_MSG_EQ(uint32_t(g.routeLen), 4, "route length");
        NS_TEST_ASSERT_MSG_EQ(uint32_t(g.routePtr), 1, "route pointer");
        NS_TEST_ASSERT_MSG_EQ(g.route[3], 40, "route hop");
        NS_TEST_ASSERT_MSG_EQ(g.extTimestampNs, 123456789, "timestamp");
        NS_TEST_ASSERT_MSG_EQ(uint32_t(g.intCount), 2, "INT records");
        NS_TEST_ASSERT_MSG_EQ(g.intRecords[1].queueBytes, 2000, "INT queue");
        NS_TEST_ASSERT_MSG_EQ(g.evs.size(), 2, "EV list before the extension");
        g.ClearExtension();
        g.evs.clear();
        NS_TEST_ASSERT_MSG_EQ(g.GetSerializedSize(), DcnHeader::CTRL_BASE_SIZE, "cleared: base");
    }
};

class SchemeDefaultsTestCase : public TestCase
{
  public:
    SchemeDefaultsTestCase()
        : TestCase("a scheme runs its own congestion control and transport settings unless the "
                   "user chose others")
    {
    }

    void DoRun() override
    {
        struct Cc
        {
            const char* lb;
            const char* transport;
            const char* cc;
        };

        for (const Cc& c : {Cc{"ecmp", "dcn", "dctcp"},
                            Cc{"reps", "dcn", "dctcp"},
                            Cc{"laps", "dcn", "laps"},
                            Cc{"conweave", "dcn", "dcqcn"},
                            Cc{"ecmp", "roce", "dcqcn"},
                            Cc{"reps", "roce", "dcqcn"},
                            Cc{"laps", "roce", "laps"},
                            Cc{"ecmp", "tcp", "dctcp"}})
        {
            NS_TEST_EXPECT_MSG_EQ(DcnSchemeRegistry::DefaultCongestionControl(c.lb, c.transport),
                                  c.cc,
                                  c.lb << " over " << c.transport);
        }

        // transport attributes: LAPS's backstop Rto and ConWeave's go-back-N, unless given
        // (roce: as the drivers do for --transport=roce, go-back-N first)
        auto attr = [](const std::string& lb,
                       const std::string& given,
                       const std::string& n,
                       bool roce = false) {
            TestNet net = BuildTestNet(1, 1, false, NanoSeconds(500), NanoSeconds(500));
            DcnTransportHelper th;
            if (roce)
            {
                th.SetRoceDefaults(given);
            }
            th.SetSchemeAttributes(lb, given);
            th.SetRtoFloor(5, given);
            th.Install(net.left);
            Ptr<DcnTransport> t = DcnTransportHelper::Get(net.left.Get(0));
            StringValue v;
            t->GetAttribute(n, v);
            Simulator::Destroy();
            return v.Get();
        };
        NS_TEST_EXPECT_MSG_EQ(Time(attr("laps", "", "Rto")), MilliSeconds(8), "LAPS's backstop");
        NS_TEST_EXPECT_MSG_EQ(Time(attr("laps", "ns3::DcnTransport::Rto=1ms", "Rto")),
                              MicroSeconds(70),
                              "a user's Rto is not replaced (its global default applies)");
        NS_TEST_EXPECT_MSG_EQ(Time(attr("ecmp", "", "Rto")),
                              MicroSeconds(70),
                              "others keep the default");
        NS_TEST_EXPECT_MSG_EQ(attr("conweave", "", "Mode"), "InOrder", "ConWeave: go-back-N");
        NS_TEST_EXPECT_MSG_EQ(attr("laps", "", "Mode", true),
                              "OutOfOrder",
                              "over RoCE LAPS's loss recovery replaces go-back-N");
        NS_TEST_EXPECT_MSG_EQ(attr("ecmp", "", "Mode", true), "InOrder", "RoCE: go-back-N");
        NS_TEST_EXPECT_MSG_EQ(Time(attr("ecmp", "", "Rto", true)),
                              MilliSeconds(1),
                              "RoCE: a NIC's millisecond timer, not REPS's 70 us");
        NS_TEST_EXPECT_MSG_EQ(attr("ecmp", "", "RtoAdaptive", true), "true", "RoCE: adaptive");
        NS_TEST_EXPECT_MSG_EQ(
            attr("ecmp", "ns3::DcnTransport::RtoAdaptive=false", "RtoAdaptive", true),
            "false",
            "RoCE: a user's RtoAdaptive is kept");
        NS_TEST_EXPECT_MSG_EQ(Time(attr("laps", "", "Rto", true)),
                              MilliSeconds(8),
                              "RoCE: LAPS keeps its own backstop");
        NS_TEST_EXPECT_MSG_EQ(Time(attr("ecmp", "ns3::DcnTransport::Rto=1ms", "Rto", true)),
                              MicroSeconds(70),
                              "RoCE: a user's Rto is not replaced (its global default applies)");
        NS_TEST_EXPECT_MSG_EQ(
            attr("conweave", "ns3::X::Y=1;ns3::DcnTransport::Mode=OutOfOrder", "Mode"),
            "OutOfOrder",
            "a user's Mode is kept (here its global default, OutOfOrder)");
        NS_TEST_EXPECT_MSG_EQ(attr("ecmp", "", "RtoBaseRtts"), "5", "the drivers' RTO floor");
        NS_TEST_EXPECT_MSG_EQ(attr("ecmp", "ns3::DcnTransport::Rto=1ms", "RtoBaseRtts"),
                              "0",
                              "no floor when the user set Rto");
    }
};

class SchemeRefusalTestCase : public TestCase
{
  public:
    SchemeRefusalTestCase()
        : TestCase("a scheme that cannot run on a topology or transport is refused in one line")
    {
    }

    void DoRun() override
    {
        DcnScheme s;
        s.name = "test-dragonfly-only";
        s.pathSelector = "ops";
        s.topologies = {"dragonfly"};
        DcnSchemeRegistry::Register(s);
        DcnScheme t;
        t.name = "test-tcp-only";
        t.pathSelector = "ecmp";
        t.transport = "tcp";
        DcnSchemeRegistry::Register(t);

        std::string e =
            DcnSchemeRegistry::CheckCompatible("test-dragonfly-only", "fat-tree-2tier", "dcn");
        NS_TEST_ASSERT_MSG_EQ(e.find('\n'), std::string::npos, "one line: " << e);
        for (const char* part : {"--lb=test-dragonfly-only",
                                 "fat-tree-2tier",
                                 "needs topology dragonfly",
                                 "allowed here:",
                                 "reps"})
        {
            NS_TEST_EXPECT_MSG_NE(e.find(part), std::string::npos, "'" << part << "' in: " << e);
        }
        NS_TEST_EXPECT_MSG_EQ(e.find("test-dragonfly-only,"), std::string::npos, "not allowed");
        e = DcnSchemeRegistry::CheckCompatible("test-tcp-only", "fat-tree-3tier", "dcn");
        NS_TEST_EXPECT_MSG_NE(e.find("needs transport tcp"), std::string::npos, e);
        NS_TEST_EXPECT_MSG_EQ(
            DcnSchemeRegistry::CheckCompatible("test-dragonfly-only", "dragonfly-9x4x4", "dcn"),
            "",
            "runs on its own topology family");
        for (const char* lb : {"ecmp", "ops", "reps"})
        {
            NS_TEST_EXPECT_MSG_EQ(DcnSchemeRegistry::CheckCompatible(lb, "fat-tree-3tier", "dcn"),
                                  "",
                                  lb << " runs on the fat tree");
            NS_TEST_EXPECT_MSG_EQ(DcnSchemeRegistry::Validate(lb), "", lb << " validates");
        }
        e = DcnSchemeRegistry::CheckCompatible("nosuch", "fat-tree-2tier", "dcn");
        NS_TEST_EXPECT_MSG_NE(e.find("unknown load balancer 'nosuch'"), std::string::npos, e);
        NS_TEST_EXPECT_MSG_NE(
            DcnSchemeRegistry::CheckSelectorAttribute("reps", "EvSetSize", 8).find("16:65536"),
            std::string::npos,
            "EvSetSize=8 refused for reps with its range");
        NS_TEST_EXPECT_MSG_EQ(DcnSchemeRegistry::CheckSelectorAttribute("ops", "EvSetSize", 8),
                              "",
                              "EvSetSize=8 fine for ops");
    }
};

class PlatformSeamsSuite : public TestSuite
{
  public:
    PlatformSeamsSuite()
        : TestSuite("dcn-lb-platform-seams", DCNLB_TEST_UNIT)
    {
        AddTestCase(new HeaderExtensionTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new PathRoundTripTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new MockTimeoutTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new ProbeAndLossTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new LostInSequenceOrderTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new DelayedAckTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new SchemeRefusalTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new SchemeDefaultsTestCase, DCNLB_TEST_QUICK);
    }
};

static PlatformSeamsSuite g_platformSeamsSuite;

} // namespace dcntest
} // namespace ns3
