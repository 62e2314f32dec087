/*
 * dcn-lb-roce-gbn: the in-order (classic RoCE, go-back-N) mode of the message
 * transport (DcnTransport::Mode = InOrder): every byte delivered exactly once
 * and in PSN order under 1% random loss and under reordering by per-packet
 * spraying, the go-back retransmissions counted, at most one NACK per
 * expected PSN, and ACK coalescing; the LAPS authors' simulator's ([A]) two
 * go-back-N facts: the NACK repeated at most every NackRepeatInterval while
 * out-of-sequence packets arrive (none before it, none with 0), and the
 * retransmission timer armed by ACKs only (RtoStart=LastAck: it fires Rto after
 * the last ACK, not after the send; no timer before the first ACK; not re-armed
 * by its own expiry).
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
    bool lastAck{false};    //!< RtoStart=LastAck
    bool ignoreStale{true}; //!< IgnoreStaleNacks
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
    if (cfg.lastAck)
    {
        th.SetTransportAttribute("RtoStart", StringValue("LastAck"));
    }
    th.SetTransportAttribute("IgnoreStaleNacks", BooleanValue(cfg.ignoreStale));
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

/** The DcnHeader of a packet at a point-to-point device (PPP, IPv4, UDP, ours). */
bool
PeekDcn(Ptr<const Packet> p, DcnHeader& h)
{
    Ptr<Packet> c = p->Copy();
    PppHeader ppp;
    Ipv4Header ip;
    UdpHeader udp;
    c->RemoveHeader(ppp);
    c->RemoveHeader(ip);
    if (ip.GetProtocol() != 17)
    {
        return false;
    }
    c->RemoveHeader(udp);
    c->RemoveHeader(h);
    return true;
}

/** Drops the first `count` arrivals of DATA packet `psn` (real header bytes). */
class PsnDropper : public ErrorModel
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::dcntest::PsnDropper").SetParent<ErrorModel>();
        return tid;
    }

    uint32_t psn{0};
    uint32_t count{0};
    uint32_t dropped{0};

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        if (dropped >= count)
        {
            return false;
        }
        DcnHeader h;
        if (!PeekDcn(p, h) || h.opcode != DcnHeader::DATA || h.psn != psn)
        {
            return false;
        }
        dropped++;
        return true;
    }

    void DoReset() override
    {
    }
};

/** One sender, one message; what the sender saw of NACKs, ACKs, sends and timeouts. */
struct TimerRun
{
    std::vector<std::pair<Time, uint32_t>> nacks; //!< (arrival, expected psn)
    std::vector<Time> acks;                       //!< arrival of every ACK and NACK
    std::vector<std::pair<Time, Time>> ackRtts;   //!< (arrival, RTT sample) of every ACK
    std::vector<std::pair<Time, uint32_t>> timeouts;
    std::map<uint32_t, Time> lastSend; //!< psn -> latest send (as of the timeout)
    std::vector<Time> lastSendAtTimeout;
    std::vector<uint16_t> timeoutEvs; //!< the Timeout trace's EV
    uint16_t lastTxEv{0};             //!< EV of the latest data packet sent (its header bytes)
    uint32_t rtoRepaths{0};           //!< selector "plb": repaths for an RTO (reason 3)
    bool completed{false};
    bool completed2{false}; //!< chain: the second message
    Time finish{0};
    DcnTransportStats rx;
    DcnTransportStats tx;
    DcnConnectionStats conn; //!< the sender's connection
    /** At the receiver's device: DATA arrivals (time, psn) and go-back NACKs sent
     *  (time, expected psn), read from the packets' bytes. */
    std::vector<std::pair<Time, uint32_t>> rxData;
    std::vector<std::pair<Time, uint32_t>> rxNacks;
};

struct TimerConfig
{
    Time nackRepeat{0};
    bool lastAck{false};
    Time rto{MicroSeconds(70)};
    uint32_t dropPsn{UINT32_MAX}; //!< PsnDropper: this psn's first dropCount arrivals
    uint32_t dropCount{0};
    Time holeStart{Seconds(-1)}; //!< TestMangler: every data packet lost in [start, end)
    Time holeEnd{Seconds(-1)};
    uint64_t bytes{4 << 20};
    Time stop{MilliSeconds(5)};
    bool chain{false};       //!< the completion posts a second message, whose data are all lost
    bool ignoreStale{true};  //!< IgnoreStaleNacks
    bool rtoAdaptive{false}; //!< RtoAdaptive
    /** >= 0: a paced test CC at 100 Gb/s whose rate falls to slowRate at slowAt */
    Time slowAt{Seconds(-1)};
    DataRate slowRate{"10Mbps"};
    std::string selector{"ecmp"}; //!< path selector (registry name)
};

TimerRun
RunTimer(const TimerConfig& cfg)
{
    RngSeedManager::SetSeed(11);
    RngSeedManager::SetRun(1);
    TimerRun res;
    TestNet net = BuildTestNet(1, 1, false, NanoSeconds(500), MicroSeconds(3));
    if (cfg.dropCount > 0)
    {
        Ptr<PsnDropper> d = CreateObject<PsnDropper>();
        d->psn = cfg.dropPsn;
        d->count = cfg.dropCount;
        net.s2ToRightRx->SetReceiveErrorModel(d);
    }
    Ptr<TestMangler> mangler;
    if (cfg.dropCount == 0 && (cfg.holeEnd > cfg.holeStart || cfg.chain))
    {
        mangler = CreateObject<TestMangler>();
        mangler->dropStart = cfg.holeStart;
        mangler->dropEnd = cfg.holeEnd;
        net.s2ToRightRx->SetReceiveErrorModel(mangler); // data towards the receiver only
    }
    DcnTransportHelper th;
    th.SetTransportAttribute("Mode", EnumValue(DcnTransport::IN_ORDER));
    th.SetTransportAttribute("Rto", TimeValue(cfg.rto));
    th.SetTransportAttribute("NackRepeatInterval", TimeValue(cfg.nackRepeat));
    th.SetTransportAttribute("RtoStart", StringValue(cfg.lastAck ? "LastAck" : "Send"));
    th.SetTransportAttribute("IgnoreStaleNacks", BooleanValue(cfg.ignoreStale));
    th.SetTransportAttribute("RtoAdaptive", BooleanValue(cfg.rtoAdaptive));
    th.Install(net.left);
    th.Install(net.right);
    Ptr<DcnTransport> t = DcnTransportHelper::Get(net.left.Get(0));
    Ptr<DcnTransport> rxT = DcnTransportHelper::Get(net.right.Get(0));
    t->TraceConnectWithoutContext("Nack",
                                  Callback<void, Ptr<const Packet>, const DcnHeader&>(
                                      [&res](Ptr<const Packet>, const DcnHeader& h) {
                                          res.nacks.emplace_back(Simulator::Now(), h.cumAck);
                                          res.acks.push_back(Simulator::Now());
                                      }));
    t->TraceConnectWithoutContext("Ack",
                                  Callback<void, Ptr<const Packet>, const DcnHeader&>(
                                      [&res](Ptr<const Packet>, const DcnHeader& h) {
                                          res.acks.push_back(Simulator::Now());
                                          res.ackRtts.emplace_back(Simulator::Now(),
                                                                   Simulator::Now() -
                                                                       NanoSeconds(h.timestampNs));
                                      }));
    t->TraceConnectWithoutContext("Tx",
                                  Callback<void, Ptr<const Packet>, const DcnHeader&>(
                                      [&res](Ptr<const Packet>, const DcnHeader& h) {
                                          res.lastSend[h.psn] = Simulator::Now();
                                          res.lastTxEv = h.evEcho;
                                      }));
    t->TraceConnectWithoutContext(
        "Timeout",
        Callback<void, uint32_t, uint32_t, uint16_t>([&res](uint32_t, uint32_t psn, uint16_t ev) {
            res.timeouts.emplace_back(Simulator::Now(), psn);
            res.timeoutEvs.push_back(ev);
            res.lastSendAtTimeout.push_back(res.lastSend.count(psn) ? res.lastSend[psn]
                                                                    : Seconds(-1));
        }));
    net.s2ToRightRx->TraceConnectWithoutContext(
        "MacRx",
        Callback<void, Ptr<const Packet>>([&res](Ptr<const Packet> pk) {
            DcnHeader h;
            if (PeekDcn(pk, h) && h.opcode == DcnHeader::DATA)
            {
                res.rxData.emplace_back(Simulator::Now(), h.psn);
            }
        }));
    net.s2ToRightRx->TraceConnectWithoutContext(
        "MacTx",
        Callback<void, Ptr<const Packet>>([&res](Ptr<const Packet> pk) {
            DcnHeader h;
            if (PeekDcn(pk, h) && h.opcode == DcnHeader::NACK &&
                !h.HasFlag(DcnHeader::FLAG_TRIMMED))
            {
                res.rxNacks.emplace_back(Simulator::Now(), h.cumAck);
            }
        }));
    Ptr<PathSelector> ps = PathSelectorRegistry::Create(cfg.selector);
    if (cfg.selector == "plb")
    {
        ps->TraceConnectWithoutContext(
            "Repath",
            Callback<void, uint16_t, uint16_t, uint8_t>(
                [&res](uint16_t, uint16_t, uint8_t why) { res.rtoRepaths += why == 3 ? 1 : 0; }));
    }
    ps->AssignStreams(100);
    DcnConnectionParams p;
    p.lineRate = DataRate("100Gbps");
    p.baseRtt = MicroSeconds(10);
    Ptr<CongestionControl> cc = CreateObject<DctcpCc>();
    if (cfg.slowAt >= Time(0))
    {
        Ptr<TestRateCc> rc = CreateObject<TestRateCc>();
        rc->SetRate(DataRate("100Gbps"));
        Simulator::Schedule(cfg.slowAt, &TestRateCc::SetRate, rc, cfg.slowRate);
        cc = rc;
    }
    Ptr<DcnConnection> c = t->Connect(net.Addr(net.right.Get(0)), ps, cc, p);
    DcnConnection* cp = PeekPointer(c); // no Ptr in its own callback (a reference cycle)
    c->SendMessage(
        cfg.bytes,
        DcnConnection::CompletionCallback([&res, &cfg, cp, mangler](const DcnMessageRecord& rec) {
            res.completed = true;
            res.finish = rec.finish;
            if (cfg.chain)
            {
                // every data packet from now on is lost; the second message is posted
                // from inside the first one's completion (a reused connection)
                mangler->dropStart = Simulator::Now();
                mangler->dropEnd = Simulator::Now() + Seconds(1);
                cp->SendMessage(cfg.bytes,
                                DcnConnection::CompletionCallback(
                                    [&res](const DcnMessageRecord&) { res.completed2 = true; }));
            }
        }));
    Simulator::Stop(cfg.stop);
    Simulator::Run();
    res.rx = rxT->GetStats();
    res.tx = t->GetStats();
    res.conn = c->GetStats();
    Simulator::Destroy();
    return res;
}

/** NackRepeatInterval: a repeat NACK only >= the interval after the previous one. */
class NackRepeatCase : public TestCase
{
  public:
    NackRepeatCase(Time interval)
        : TestCase(interval.IsZero()
                       ? "NackRepeatInterval 0: exactly one NACK per expected PSN"
                       : "NackRepeatInterval: the same expected PSN NACKed again, never sooner "
                         "than the interval"),
          m_interval(interval)
    {
    }

  private:
    void DoRun() override
    {
        TimerConfig cfg;
        cfg.nackRepeat = m_interval;
        cfg.rto = MicroSeconds(500); // recovery by repeated NACKs well before a timeout
        cfg.dropPsn = 40;
        cfg.dropCount = 3; // the packet and its first two resends
        TimerRun r = RunTimer(cfg);
        NS_TEST_ASSERT_MSG_EQ(r.completed, true, "the message completes");
        std::vector<Time> at; // NACKs for psn 40 (control packets of one size, one path:
                              // the sender sees the receiver's gaps)
        for (const auto& [t, psn] : r.nacks)
        {
            if (psn == cfg.dropPsn)
            {
                at.push_back(t);
            }
        }
        std::clog << GetName() << ": NACKs for psn 40 " << at.size() << " repeats "
                  << r.rx.goBackNackRepeats << " timeouts " << r.tx.timeouts << " goBacks "
                  << r.tx.goBacks << "\n";
        if (m_interval.IsZero())
        {
            NS_TEST_EXPECT_MSG_EQ(at.size(), 1u, "one NACK for the expected PSN");
            NS_TEST_EXPECT_MSG_EQ(r.rx.goBackNackRepeats, 0u, "no repeat");
            NS_TEST_EXPECT_MSG_GT(r.tx.timeouts, 0u, "the lost resends wait for the timeout");
            return;
        }
        NS_TEST_EXPECT_MSG_GT_OR_EQ(at.size(), 2u, "the expected PSN NACKed again");
        NS_TEST_EXPECT_MSG_EQ(r.rx.goBackNackRepeats, at.size() - 1, "repeats counted");
        for (size_t i = 1; i < at.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_GT_OR_EQ(at[i] - at[i - 1],
                                        m_interval,
                                        "repeat " << i << " not before the interval");
        }
        NS_TEST_EXPECT_MSG_EQ(r.tx.timeouts, 0u, "recovered by the repeated NACKs");
        // at the receiver, from the arrivals' bytes: every out-of-sequence arrival NACKs
        // when its expected PSN differs from the last NACKed one or the interval has
        // passed since that NACK ([A] ReceiverCheckSeq), and no other arrival does
        std::vector<std::pair<Time, uint32_t>> want;
        uint32_t expected = 0;
        uint32_t nacked = UINT32_MAX;
        Time last = Seconds(-1);
        for (const auto& [t, psn] : r.rxData)
        {
            if (psn == expected)
            {
                ++expected;
            }
            else if (psn > expected && (nacked != expected || t >= last + m_interval))
            {
                want.emplace_back(t, expected);
                nacked = expected;
                last = t;
            }
        }
        NS_TEST_ASSERT_MSG_GT(want.size(), 2u, "repeats predicted");
        NS_TEST_EXPECT_MSG_EQ(r.rxNacks.size(), want.size(), "NACKs sent at the receiver");
        for (size_t i = 0; i < std::min(want.size(), r.rxNacks.size()); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(r.rxNacks[i].first, want[i].first, "NACK " << i << " time");
            NS_TEST_EXPECT_MSG_EQ(r.rxNacks[i].second, want[i].second, "NACK " << i << " psn");
        }
        NS_TEST_EXPECT_MSG_GT(r.rx.outOfSequenceDropped,
                              at.size(),
                              "more out-of-sequence "
                              "packets than NACKs");
    }

    Time m_interval;
};

/**
 * IgnoreStaleNacks: under spraying's reordering some go-back NACKs are triggered by packets
 * sent before the latest go-back; they are ignored (true) or each obeyed with another
 * go-back, as [A] (false); every byte delivered exactly once, in order, either way.
 */
class StaleNackCase : public TestCase
{
  public:
    StaleNackCase()
        : TestCase("IgnoreStaleNacks: stale NACKs ignored (default) or obeyed as in [A]")
    {
    }

  private:
    void DoRun() override
    {
        uint64_t nackGoBacks[2] = {0, 0};
        for (bool ignore : {true, false})
        {
            GbnConfig cfg = Spray();
            cfg.ignoreStale = ignore;
            GbnResult r = RunGbn(cfg);
            const uint64_t byNack = r.tx.goBacks - r.tx.timeouts;
            std::clog << GetName() << (ignore ? " ignore" : " obey") << ": NACKs "
                      << r.tx.nacksReceived << " go-backs by NACK " << byNack << " timeouts "
                      << r.tx.timeouts << "\n";
            NS_TEST_EXPECT_MSG_EQ(r.completed, r.expected, "every message completes");
            NS_TEST_EXPECT_MSG_EQ(r.allOnce, true, "every byte exactly once");
            NS_TEST_EXPECT_MSG_EQ(r.inOrderViolations, 0u, "in order");
            nackGoBacks[ignore ? 0 : 1] = byNack;
            if (ignore)
            {
                NS_TEST_EXPECT_MSG_LT(byNack, r.tx.nacksReceived, "some NACKs ignored as stale");
            }
        }
        NS_TEST_EXPECT_MSG_GT(nackGoBacks[1], nackGoBacks[0], "[A] goes back on more NACKs");
    }
};

/** RtoStart: the timer from the last ACK (LastAck) or from the send (Send). */
class RtoStartCase : public TestCase
{
  public:
    RtoStartCase(bool lastAck)
        : TestCase(lastAck ? "RtoStart LastAck: the timeout fires Rto after the last ACK, once "
                             "(not re-armed by itself: a lost go-back stalls, as in [A])"
                           : "RtoStart Send: the timeout fires Rto after the send, re-armed"),
          m_lastAck(lastAck)
    {
    }

  private:
    void DoRun() override
    {
        TimerConfig cfg;
        cfg.lastAck = m_lastAck;
        cfg.rto = MicroSeconds(50);
        cfg.holeStart = MicroSeconds(100); // every data packet lost for 400 us
        cfg.holeEnd = MicroSeconds(500);
        TimerRun r = RunTimer(cfg);
        NS_TEST_ASSERT_MSG_GT(r.timeouts.size(), 0u, "a timeout");
        if (r.timeouts.empty())
        {
            return; // the runner may continue on failure
        }
        const Time first = r.timeouts.front().first;
        Time lastAck(-1);
        for (Time a : r.acks)
        {
            if (a < first)
            {
                lastAck = std::max(lastAck, a);
            }
        }
        NS_TEST_ASSERT_MSG_GT(lastAck, MicroSeconds(100), "ACKs until the hole");
        const Time sent = r.lastSendAtTimeout.front();
        std::clog << GetName() << ": first timeout " << first.As(Time::US) << " last ACK "
                  << lastAck.As(Time::US) << " send of psn " << r.timeouts.front().second << " "
                  << sent.As(Time::US) << " timeouts " << r.timeouts.size() << " completed "
                  << r.completed << "\n";
        NS_TEST_EXPECT_MSG_NE(sent + cfg.rto, lastAck + cfg.rto, "the two starts differ here");
        if (m_lastAck)
        {
            NS_TEST_EXPECT_MSG_EQ(first, lastAck + cfg.rto, "Rto after the last ACK");
            NS_TEST_EXPECT_MSG_EQ(r.timeouts.size(), 1u, "not re-armed by the timeout itself");
            NS_TEST_EXPECT_MSG_EQ(r.completed, false, "the lost go-back stalls ([A])");
        }
        else
        {
            NS_TEST_EXPECT_MSG_EQ(first, sent + cfg.rto, "Rto after the send");
            NS_TEST_EXPECT_MSG_GT(r.timeouts.size(), 1u, "re-armed through the hole");
            NS_TEST_EXPECT_MSG_EQ(r.completed, true, "recovers after the hole");
        }
    }

    bool m_lastAck;
};

/**
 * RtoStart LastAck with RtoAdaptive: the timeout fires the current RTO after the last ACK
 * even where an ACK shrank the RTO below the pending timer event's (review s50 L2).
 */
class LastAckAdaptiveCase : public TestCase
{
  public:
    LastAckAdaptiveCase()
        : TestCase("RtoStart LastAck, RtoAdaptive: the timeout fires the RTO of the last ACK "
                   "after it, also when the RTO shrank")
    {
    }

  private:
    void DoRun() override
    {
        TimerConfig cfg;
        cfg.lastAck = true;
        cfg.rtoAdaptive = true;
        cfg.rto = NanoSeconds(1); // the floor: the estimate alone
        // the hole opens at 5 us, when the first data packets have left: their ACKs come
        // back through it, each still shrinking the RTO (3 RTT after the first sample) by
        // more than the time since the previous ACK
        cfg.holeStart = MicroSeconds(5);
        cfg.holeEnd = Seconds(1);
        TimerRun r = RunTimer(cfg);
        NS_TEST_ASSERT_MSG_GT(r.timeouts.size(), 0u, "a timeout");
        if (r.timeouts.empty())
        {
            return;
        }
        const Time first = r.timeouts.front().first;
        // the connection's estimator (RFC 6298, DcnConnection::UpdateRto) over the samples
        double srtt = -1;
        double rttvar = 0;
        Time rto(0);
        Time lastAck(-1);
        Time prevDeadline(-1);
        uint32_t shrinks = 0; // ACKs that moved the deadline earlier
        for (const auto& [at, rtt] : r.ackRtts)
        {
            if (at >= first)
            {
                break;
            }
            const double x = static_cast<double>(rtt.GetNanoSeconds());
            if (srtt < 0)
            {
                srtt = x;
                rttvar = x / 2;
            }
            else
            {
                rttvar = 0.75 * rttvar + 0.25 * std::abs(srtt - x);
                srtt = 0.875 * srtt + 0.125 * x;
            }
            rto = std::max(cfg.rto, NanoSeconds(static_cast<int64_t>(srtt + 4 * rttvar)));
            shrinks += (prevDeadline >= Time(0) && at + rto < prevDeadline) ? 1 : 0;
            prevDeadline = at + rto;
            lastAck = at;
        }
        std::clog << GetName() << ": first timeout " << first.As(Time::US) << " last ACK "
                  << lastAck.As(Time::US) << " RTO then " << rto.As(Time::US)
                  << " deadlines moved earlier " << shrinks << "\n";
        NS_TEST_EXPECT_MSG_GT(lastAck, Time(0), "ACKs before the hole");
        NS_TEST_EXPECT_MSG_GT(shrinks, 0u, "some ACK shrank the RTO below the pending one");
        NS_TEST_EXPECT_MSG_LT(lastAck + rto,
                              r.ackRtts.front().first + r.ackRtts.front().second * 3,
                              "the last deadline before the first ACK's (3 RTT after it)");
        NS_TEST_EXPECT_MSG_EQ(r.nacks.size(), 0u, "no NACK: ACKs alone arm the timer");
        NS_TEST_EXPECT_MSG_EQ(first, lastAck + rto, "the RTO of the last ACK after it");
        NS_TEST_EXPECT_MSG_EQ(r.timeouts.size(), 1u, "not re-armed by the timeout itself");
    }
};

/** RtoStart LastAck: a go-back NACK restarts the timer as an ACK does ([A] ReceiveAck). */
class NackArmsTimerCase : public TestCase
{
  public:
    NackArmsTimerCase()
        : TestCase("RtoStart LastAck: a NACK restarts the timer too (timeout Rto after it)")
    {
    }

  private:
    void DoRun() override
    {
        TimerConfig cfg;
        cfg.lastAck = true;
        cfg.rto = MicroSeconds(50);
        cfg.dropPsn = 40;
        cfg.dropCount = 1000; // psn 40 never arrives: one NACK, then silence
        cfg.stop = MilliSeconds(1);
        TimerRun r = RunTimer(cfg);
        NS_TEST_ASSERT_MSG_EQ(r.nacks.size(), 1u, "one NACK");
        NS_TEST_ASSERT_MSG_EQ(r.timeouts.size(), 1u, "one timeout, then the stall");
        if (r.nacks.size() != 1 || r.timeouts.size() != 1)
        {
            return;
        }
        const Time nack = r.nacks.front().first;
        NS_TEST_EXPECT_MSG_EQ(r.acks.back(), nack, "the NACK is the last reply");
        NS_TEST_EXPECT_MSG_EQ(r.timeouts.front().first, nack + cfg.rto, "Rto after the NACK");
        NS_TEST_EXPECT_MSG_EQ(r.completed, false, "stalls ([A])");
    }
};

/**
 * RtoStart LastAck: a message posted from the previous one's completion on the same
 * connection starts without a timer, as [A]'s fresh queue pair (review s50 L0): all its
 * data lost, no timeout (Send: timeouts).
 */
class ChainedMessageNoTimerCase : public TestCase
{
  public:
    ChainedMessageNoTimerCase()
        : TestCase("RtoStart LastAck: the next message on a reused connection starts without "
                   "the finished one's timer")
    {
    }

  private:
    void DoRun() override
    {
        for (bool lastAck : {false, true})
        {
            TimerConfig cfg;
            cfg.lastAck = lastAck;
            cfg.rto = MicroSeconds(50);
            cfg.bytes = 100000;
            cfg.chain = true;
            cfg.stop = MilliSeconds(1);
            TimerRun r = RunTimer(cfg);
            NS_TEST_ASSERT_MSG_EQ(r.completed, true, "the first message completes");
            NS_TEST_EXPECT_MSG_EQ(r.completed2, false, "the second's data are all lost");
            if (lastAck)
            {
                NS_TEST_EXPECT_MSG_EQ(r.timeouts.size(), 0u, "LastAck: no timer, no timeout");
            }
            else
            {
                NS_TEST_EXPECT_MSG_GT(r.timeouts.size(), 0u, "Send: timeouts");
            }
        }
    }
};

/**
 * RtoStart LastAck: the timer keeps running after an ACK that leaves nothing in flight while
 * more data wait (here for a slow pacer); its expiry counts a timeout with nothing to resend
 * ([A] RdmaHw::HandleTimeout counts it and tells PLB; review s50 L6).  Send: no timeout.
 */
class IdleExpiryCase : public TestCase
{
  public:
    IdleExpiryCase()
        : TestCase("RtoStart LastAck: an expiry with nothing in flight but data to send counts "
                   "a timeout and resends nothing (Send: none)")
    {
    }

  private:
    void DoRun() override
    {
        for (bool lastAck : {false, true})
        {
            TimerConfig cfg;
            cfg.lastAck = lastAck;
            cfg.rto = MicroSeconds(50);
            cfg.slowAt = MicroSeconds(20); // then one 4 KB packet every 3.3 ms
            cfg.stop = MilliSeconds(2);
            cfg.selector = "plb"; // its RTO repath shows the selector was told
            TimerRun r = RunTimer(cfg);
            std::clog << GetName() << (lastAck ? " LastAck" : " Send") << ": timeouts "
                      << r.timeouts.size() << " sent " << r.lastSend.size() << " retx "
                      << r.conn.retransmissions << "\n";
            NS_TEST_ASSERT_MSG_GT(r.acks.size(), 10u, "ACKs before the pacer slows");
            NS_TEST_EXPECT_MSG_EQ(r.conn.retransmissions, 0u, "nothing lost, nothing resent");
            NS_TEST_EXPECT_MSG_EQ(r.completed, false, "more to send at the end");
            if (!lastAck)
            {
                NS_TEST_EXPECT_MSG_EQ(r.timeouts.size(), 0u, "Send: nothing in flight, no timer");
                NS_TEST_EXPECT_MSG_EQ(r.rtoRepaths, 0u, "Send: no RTO repath");
                continue;
            }
            NS_TEST_ASSERT_MSG_EQ(r.timeouts.size(), 1u, "LastAck: one timeout, not re-armed");
            NS_TEST_EXPECT_MSG_EQ(r.conn.timeouts, 1u, "counted on the connection");
            const Time at = r.timeouts.front().first;
            Time lastAckBefore(-1);
            for (Time a : r.acks)
            {
                if (a < at)
                {
                    lastAckBefore = std::max(lastAckBefore, a);
                }
            }
            NS_TEST_EXPECT_MSG_GT(at, lastAckBefore, "after the last ACK");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(at, lastAckBefore + cfg.rto, "within Rto of it");
            NS_TEST_EXPECT_MSG_EQ(r.timeouts.front().second,
                                  static_cast<uint32_t>(r.lastSend.size()),
                                  "reported on the next psn: every psn sent was acknowledged");
            NS_TEST_EXPECT_MSG_EQ(r.lastSendAtTimeout.front(), Seconds(-1), "a psn never sent");
            NS_TEST_EXPECT_MSG_EQ(r.timeoutEvs.front(), r.lastTxEv, "the latest packet's EV");
            NS_TEST_EXPECT_MSG_EQ(r.rtoRepaths, 1u, "the path selector was told (PLB repaths)");
        }
    }
};

/** RtoStart LastAck: no timer before the first ACK (the whole first window lost). */
class NoAckNoTimerCase : public TestCase
{
  public:
    NoAckNoTimerCase()
        : TestCase("RtoStart LastAck: no timer before the first ACK (Send: one)")
    {
    }

  private:
    void DoRun() override
    {
        for (bool lastAck : {false, true})
        {
            TimerConfig cfg;
            cfg.lastAck = lastAck;
            cfg.rto = MicroSeconds(50);
            cfg.holeStart = Seconds(0);
            cfg.holeEnd = MicroSeconds(300);
            cfg.bytes = 100000;
            TimerRun r = RunTimer(cfg);
            if (lastAck)
            {
                NS_TEST_EXPECT_MSG_EQ(r.acks.size(), 0u, "no ACK ever");
                NS_TEST_EXPECT_MSG_EQ(r.timeouts.size(), 0u, "LastAck: no timer, no timeout");
                NS_TEST_EXPECT_MSG_EQ(r.completed, false, "LastAck: stalls ([A])");
            }
            else
            {
                NS_TEST_ASSERT_MSG_GT(r.timeouts.size(), 0u, "Send: timeouts");
                if (r.timeouts.empty())
                {
                    return;
                }
                NS_TEST_EXPECT_MSG_EQ(r.timeouts.front().first,
                                      r.lastSendAtTimeout.front() + cfg.rto,
                                      "Send: Rto after the send");
                NS_TEST_EXPECT_MSG_EQ(r.completed, true, "Send: recovers");
            }
        }
    }
};

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
        GbnConfig lastAck = Loss(1);
        lastAck.lastAck = true;
        AddTestCase(new GbnCase("go-back-N under 1% random loss, RtoStart LastAck", lastAck),
                    DCNLB_TEST_QUICK);
        AddTestCase(new NackRepeatCase(MicroSeconds(3)), DCNLB_TEST_QUICK);
        AddTestCase(new NackRepeatCase(Time(0)), DCNLB_TEST_QUICK);
        AddTestCase(new RtoStartCase(true), DCNLB_TEST_QUICK);
        AddTestCase(new RtoStartCase(false), DCNLB_TEST_QUICK);
        AddTestCase(new NoAckNoTimerCase(), DCNLB_TEST_QUICK);
        AddTestCase(new IdleExpiryCase(), DCNLB_TEST_QUICK);
        AddTestCase(new NackArmsTimerCase(), DCNLB_TEST_QUICK);
        AddTestCase(new LastAckAdaptiveCase(), DCNLB_TEST_QUICK);
        AddTestCase(new ChainedMessageNoTimerCase(), DCNLB_TEST_QUICK);
        AddTestCase(new StaleNackCase(), DCNLB_TEST_QUICK);
    }
};

static RoceGbnTestSuite g_roceGbnTestSuite;

} // namespace dcntest
} // namespace ns3
