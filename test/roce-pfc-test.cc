/*
 * dcn-lb-pfc: PFC and the shared-buffer switch model over the real fabric
 * (issue 12 items 3 and 4; doc/roce.rst).  RoCE: in-order go-back-N + DCQCN.
 *
 *  - 8-to-1 incast over a shallow shared buffer: no packet lost with PFC on,
 *    packets lost with PFC off (lossy dynamic threshold); every byte delivered
 *    exactly once in both;
 *  - pause frames appear upstream: counted at the upstream devices (sent by
 *    the congested switch, received by the spines and hosts), and a frame
 *    captured on the wire parses as 802.1Qbb (EtherType 0x8808, opcode
 *    0x0101, class-enable bit of the data priority, 0xFFFF or 0 quanta);
 *  - head-of-line blocking: a victim flow that shares a paused spine->ToR port
 *    but goes to an idle host finishes much later than alone;
 *  - the watchdog reports pauses held longer than PfcWatchdog, once each; with
 *    PfcWatchdogAction=Forward it also resumes the port and ignores pause frames for
 *    PfcWatchdogRestore (deadlock recovery), and every message still arrives once;
 *  - the dynamic threshold admits more for one congested queue than for each
 *    of several (the shared pool shrinks as it fills).
 */
#include "transport-test-net.h"

#include "ns3/cc-registry.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-pfc-helper.h"
#include "ns3/dcn-port-device.h"
#include "ns3/dcn-queue-disc.h"
#include "ns3/dcn-switch-buffer.h"
#include "ns3/dcn-switch-routing.h"
#include "ns3/dcn-transport-helper.h"
#include "ns3/dcn-transport.h"
#include "ns3/enum.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/path-selector.h"
#include "ns3/pfc-core.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/port-stats-helper.h"
#include "ns3/ppp-header.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/string.h"
#include "ns3/test.h"

#include <cstdlib>

namespace ns3
{
namespace dcntest
{
namespace
{

struct PfcRunConfig
{
    bool pfc{true};
    bool incast{true};
    bool victim{false};
    uint64_t incastBytes{256 * 1024};
    uint64_t victimBytes{256 * 1024};
    Time watchdog{0};            //!< 0: the attribute's default
    bool watchdogForward{false}; //!< PfcWatchdogAction=Forward (default Report)
};

struct PfcRunResult
{
    uint32_t expected{0};
    uint32_t completed{0};
    bool allOnce{true};
    uint64_t sentBytes{0};
    uint64_t delivered{0};
    uint64_t drops{0};         //!< congestion drops at every queue disc
    uint64_t pauseSent{0};     //!< XOFF frames sent by the receiver's ToR
    uint64_t pauseRxSpines{0}; //!< pause frames received by the spines' ToR0 ports
    uint64_t pauseRxHosts{0};  //!< pause frames received by host NICs
    uint64_t framesOnWire{0};  //!< PFC envelopes seen on ToR0's uplinks (sniffed)
    uint64_t framesParsed{0};  //!< of which parsed as 802.1Qbb for the data priority
    uint64_t xoffFrames{0};    //!< parsed with quanta 0xFFFF
    uint64_t xonFrames{0};     //!< parsed with quanta 0
    uint64_t headroomDrops{0};
    uint64_t malformed{0};
    Time victimFct{0};
    Time incastMaxFct{0};         //!< slowest incast message
    Time pausedTime{0};           //!< summed over every port
    uint64_t watchdogReports{0};  //!< GetNWatchdogReports, summed
    uint64_t watchdogTraces{0};   //!< "PfcWatchdog" trace calls
    uint64_t watchdogForwards{0}; //!< GetNWatchdogForwards, summed
    uint64_t pausesIgnored{0};    //!< GetNPausesIgnored, summed
    uint64_t pauseTraces{0};      //!< "PfcPause" trace calls
    uint64_t resumeTraces{0};     //!< "PfcResume" trace calls
    uint64_t statsPausesTx{0};    //!< PortStatsHelper samples: pause frames sent
    uint64_t statsPausesRx{0};    //!< PortStatsHelper samples: pause frames received
    double statsPausedUs{0};      //!< PortStatsHelper samples: paused fraction x interval
    uint64_t portsPausesTx{0};    //!< GetNPauseFramesSent over every port
    uint64_t portsPausesRx{0};    //!< GetNPauseFramesReceived over every port
};

void
Sniff(PfcRunResult* r, Ptr<const Packet> pkt)
{
    Ptr<Packet> p = pkt->Copy();
    PppHeader ppp;
    p->RemoveHeader(ppp);
    Ipv4Header ip;
    p->RemoveHeader(ip);
    if (ip.GetProtocol() != DcnPfcFrame::IP_PROTOCOL)
    {
        return;
    }
    r->framesOnWire++;
    uint8_t b[DcnPfcFrame::SIZE];
    if (p->GetSize() != DcnPfcFrame::SIZE || ip.GetTtl() != 1)
    {
        return;
    }
    p->CopyData(b, DcnPfcFrame::SIZE);
    fabcore::PfcFrame f;
    if (b[0] != 0x88 || b[1] != 0x08 || !f.Deserialize(b + 2) || f.classEnable != (1u << 3))
    {
        return;
    }
    r->framesParsed++;
    if (f.quanta[3] == 0xFFFF)
    {
        r->xoffFrames++;
    }
    else if (f.quanta[3] == 0)
    {
        r->xonFrames++;
    }
}

PfcRunResult
RunPfc(const PfcRunConfig& cfg)
{
    RngSeedManager::SetSeed(7);
    RngSeedManager::SetRun(1);
    PfcRunResult res;
    Ptr<FatTreeHelper> ft = FatTreeHelper::TwoTier(4, 4, 2);
    ft->SetAttribute("HostLinkRate", DataRateValue(DataRate("100Gbps")));
    ft->SetAttribute("FabricLinkRate", DataRateValue(DataRate("100Gbps")));
    ft->Build();
    int64_t stream = 10;
    stream += ft->AssignStreams(stream);
    const uint32_t n = ft->GetNHosts();

    DcnTransportHelper th;
    th.SetTransportAttribute("Mode", EnumValue(DcnTransport::IN_ORDER));
    th.Install(ft->GetHosts());

    // shallow shared buffer: 1 MB per switch (of which the PFC headroom takes about half);
    // after the transports, so that the host NICs' data schedulers obey the pauses
    DcnPfcHelper pfc;
    pfc.SetPfc(cfg.pfc);
    pfc.SetBufferAttribute("BufferSize", UintegerValue(1000000));
    if (cfg.watchdog.IsStrictlyPositive())
    {
        pfc.SetPortAttribute("PfcWatchdog", TimeValue(cfg.watchdog));
    }
    if (cfg.watchdogForward)
    {
        pfc.SetPortAttribute("PfcWatchdogAction", StringValue("Forward"));
        pfc.SetPortAttribute("PfcWatchdogRestore", TimeValue(MilliSeconds(1)));
    }
    const std::string err = pfc.Install(ft);
    NS_ABORT_MSG_IF(!err.empty(), err);
    DeliveryChecker checker;
    for (uint32_t i = 0; i < n; ++i)
    {
        DcnTransportHelper::Get(ft->GetHosts().Get(i))
            ->TraceConnectWithoutContext("Rx", MakeCallback(&DeliveryChecker::Rx, &checker));
    }
    // sniff PFC frames on the wire where ToR0 sends them (its uplinks, towards the spines)
    Ptr<Node> tor0 = ft->GetAllSwitches().Get(0);
    for (const DcnLinkInfo& li : ft->GetLinks())
    {
        if (li.a == tor0 && li.tierB == 1)
        {
            DcnPortDevice::ConnectTxBegin(li.devA, MakeBoundCallback(&Sniff, &res));
        }
    }

    for (const DcnLinkInfo& li : ft->GetLinks())
    {
        for (Ptr<NetDevice> d : {Ptr<NetDevice>(li.devA), Ptr<NetDevice>(li.devB)})
        {
            Ptr<DcnQueueDisc> q = ft->GetQueueDisc(d);
            q->TraceConnectWithoutContext("PfcWatchdog", Callback<void, Time>([&res](Time) {
                                              res.watchdogTraces++;
                                          }));
            q->TraceConnectWithoutContext("PfcPause", Callback<void, uint16_t>([&res](uint16_t) {
                                              res.pauseTraces++;
                                          }));
            q->TraceConnectWithoutContext("PfcResume", Callback<void, uint16_t>([&res](uint16_t) {
                                              res.resumeTraces++;
                                          }));
        }
    }

    // per-port statistics (every 100 us until the stop time)
    Ptr<PortStatsHelper> ps = CreateObject<PortStatsHelper>();
    ps->SetAttribute("Interval", TimeValue(MicroSeconds(100)));
    ps->SetAttribute("IncludeHosts", BooleanValue(true));
    ps->Install(ft, Time(0), MilliSeconds(20));
    ps->TraceConnectWithoutContext(
        "Sample",
        Callback<void, const DcnPortSample&>([&res](const DcnPortSample& smp) {
            res.statsPausesTx += smp.pausesTx;
            res.statsPausesRx += smp.pausesRx;
            res.statsPausedUs += smp.pausedFraction * 100.0;
        }));

    // incast: hosts 4..11 (ToR1, ToR2) -> host 0; victim: host 12 (ToR3) -> host 1 (ToR0),
    // sharing the spine->ToR0 ports paused by ToR0 but going to an idle host
    std::vector<std::tuple<uint32_t, uint32_t, uint64_t, bool>> flows;
    if (cfg.incast)
    {
        for (uint32_t s = 4; s < 12; ++s)
        {
            flows.emplace_back(s, 0, cfg.incastBytes, false);
        }
    }
    if (cfg.victim)
    {
        flows.emplace_back(12, 1, cfg.victimBytes, true);
    }
    const uint32_t mtu = DcnTransportHelper::Get(ft->GetHosts().Get(0))->GetMtu();
    std::vector<DcnMessageRecord> recs;
    for (auto& f : flows)
    {
        const uint32_t src = std::get<0>(f);
        const uint32_t dst = std::get<1>(f);
        Ptr<DcnTransport> t = DcnTransportHelper::Get(ft->GetHosts().Get(src));
        Ptr<PathSelector> ps = PathSelectorRegistry::Create("ecmp");
        stream += ps->AssignStreams(stream);
        DcnConnectionParams p;
        p.lineRate = ft->GetHostLinkRate();
        p.baseRtt = ft->GetBaseRtt(src, dst, mtu);
        Ptr<DcnConnection> c =
            t->Connect(ft->GetHostAddress(dst), ps, CongestionControlRegistry::Create("dcqcn"), p);
        const bool victim = std::get<3>(f);
        // the victim starts once the incast has built its queues
        Simulator::Schedule(
            victim && cfg.incast ? MicroSeconds(20) : Time(0),
            [c, f, &recs, &res]() {
                const bool v = std::get<3>(f);
                c->SendMessage(
                    std::get<2>(f),
                    DcnConnection::CompletionCallback([&recs, &res, v](const DcnMessageRecord& r) {
                        recs.push_back(r);
                        if (v)
                        {
                            res.victimFct = r.finish - r.start;
                        }
                        else
                        {
                            res.incastMaxFct = std::max(res.incastMaxFct, r.finish - r.start);
                        }
                    }));
            });
        res.expected++;
        res.sentBytes += std::get<2>(f);
    }
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();

    res.completed = static_cast<uint32_t>(recs.size());
    for (auto& r : recs)
    {
        if (!checker.ExactlyOnce(r.src, r.connId, r.msgId, r.bytes))
        {
            res.allOnce = false;
        }
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        res.delivered +=
            DcnTransportHelper::Get(ft->GetHosts().Get(i))->GetStats().uniqueBytesDelivered;
    }
    for (const DcnLinkInfo& li : ft->GetLinks())
    {
        Ptr<DcnQueueDisc> qa = ft->GetQueueDisc(li.devA);
        Ptr<DcnQueueDisc> qb = ft->GetQueueDisc(li.devB);
        res.drops += qa->GetNDropped() + qb->GetNDropped();
        res.pausedTime += qa->GetPausedTime() + qb->GetPausedTime();
        res.watchdogReports += qa->GetNWatchdogReports() + qb->GetNWatchdogReports();
        res.watchdogForwards += qa->GetNWatchdogForwards() + qb->GetNWatchdogForwards();
        res.pausesIgnored += qa->GetNPausesIgnored() + qb->GetNPausesIgnored();
        res.portsPausesTx += qa->GetNPauseFramesSent() + qb->GetNPauseFramesSent();
        res.portsPausesRx += qa->GetNPauseFramesReceived() + qb->GetNPauseFramesReceived();
        if (li.a == tor0 && li.tierB == 1)
        {
            res.pauseSent += qa->GetNPauseFramesSent();
            res.pauseRxSpines += qb->GetNPauseFramesReceived();
        }
        if (li.tierA < 0)
        {
            res.pauseRxHosts += qa->GetNPauseFramesReceived();
        }
    }
    NodeContainer sw = ft->GetAllSwitches();
    for (uint32_t i = 0; i < sw.GetN(); ++i)
    {
        Ptr<DcnSwitchBuffer> b = DcnPfcHelper::GetBuffer(sw.Get(i));
        res.headroomDrops += b ? b->GetCore().GetHeadroomDrops() : 0;
        res.malformed += ft->GetRouting(sw.Get(i))->GetPfcFramesMalformed();
    }
    ps->Dispose();
    Simulator::Destroy();
    if (getenv("PFC_DEBUG"))
    {
        std::cout << "pfc=" << cfg.pfc << " incast=" << cfg.incast << " victim=" << cfg.victim
                  << " completed=" << res.completed << "/" << res.expected << " drops=" << res.drops
                  << " pauseSent=" << res.pauseSent << " rxSpines=" << res.pauseRxSpines
                  << " rxHosts=" << res.pauseRxHosts << " wire=" << res.framesOnWire
                  << " parsed=" << res.framesParsed << " xoff=" << res.xoffFrames
                  << " xon=" << res.xonFrames << " paused_us=" << res.pausedTime.GetMicroSeconds()
                  << " victimFct_us=" << res.victimFct.GetMicroSeconds()
                  << " incastMaxFct_us=" << res.incastMaxFct.GetMicroSeconds()
                  << " watchdog=" << res.watchdogReports << " pauseTraces=" << res.pauseTraces
                  << std::endl;
    }
    return res;
}

class PfcIncastCase : public TestCase
{
  public:
    PfcIncastCase()
        : TestCase("8-to-1 incast, shallow shared buffer: lossless with PFC, lossy without; "
                   "pause frames upstream parse as 802.1Qbb")
    {
    }

  private:
    void DoRun() override
    {
        PfcRunConfig on;
        PfcRunResult a = RunPfc(on);
        NS_TEST_ASSERT_MSG_EQ(a.completed, a.expected, "PFC on: every message completes");
        NS_TEST_ASSERT_MSG_EQ(a.allOnce, true, "PFC on: every byte delivered exactly once");
        NS_TEST_ASSERT_MSG_EQ(a.delivered, a.sentBytes, "PFC on: transport counters agree");
        NS_TEST_ASSERT_MSG_EQ(a.drops, 0u, "PFC on: no packet lost");
        NS_TEST_ASSERT_MSG_EQ(a.headroomDrops, 0u, "PFC on: the headroom held");
        NS_TEST_ASSERT_MSG_GT(a.pauseSent, 0u, "ToR0 sent pause frames upstream");
        NS_TEST_ASSERT_MSG_EQ(a.pauseRxSpines,
                              a.pauseSent,
                              "the spines received every pause frame ToR0 sent them");
        NS_TEST_ASSERT_MSG_GT(a.pauseRxHosts, 0u, "the pause spread back to the senders' NICs");
        NS_TEST_ASSERT_MSG_GT(a.framesOnWire, 0u, "PFC frames seen on ToR0's uplinks");
        NS_TEST_ASSERT_MSG_EQ(a.framesParsed,
                              a.framesOnWire,
                              "every frame on the wire parses as 802.1Qbb for priority 3");
        NS_TEST_ASSERT_MSG_GT(a.xoffFrames, 0u, "XOFF frames carry 0xFFFF quanta");
        NS_TEST_ASSERT_MSG_GT(a.xonFrames, 0u, "XON frames carry 0 quanta");
        NS_TEST_ASSERT_MSG_EQ(a.malformed, 0u, "no malformed PFC frame");
        NS_TEST_ASSERT_MSG_GT(a.pausedTime, Time(0), "ports spent time paused");
        NS_TEST_ASSERT_MSG_EQ(a.statsPausesTx,
                              a.portsPausesTx,
                              "port statistics: pause frames sent, per port and interval");
        NS_TEST_ASSERT_MSG_EQ(a.statsPausesRx,
                              a.portsPausesRx,
                              "port statistics: pause frames received");
        NS_TEST_ASSERT_MSG_EQ(a.portsPausesRx, a.portsPausesTx, "every pause frame arrived");
        NS_TEST_ASSERT_MSG_EQ_TOL(a.statsPausedUs,
                                  double(a.pausedTime.GetNanoSeconds()) / 1000,
                                  0.01,
                                  "port statistics: paused fractions add up to the paused time");

        PfcRunConfig off;
        off.pfc = false;
        PfcRunResult b = RunPfc(off);
        NS_TEST_ASSERT_MSG_GT(b.drops, 0u, "PFC off: the shallow buffer drops");
        NS_TEST_ASSERT_MSG_EQ(b.pauseSent + b.framesOnWire, 0u, "PFC off: no pause frame");
        NS_TEST_ASSERT_MSG_EQ(b.completed, b.expected, "PFC off: go-back-N recovers");
        NS_TEST_ASSERT_MSG_EQ(b.allOnce, true, "PFC off: every byte delivered exactly once");
        NS_TEST_ASSERT_MSG_EQ(b.delivered, b.sentBytes, "PFC off: transport counters agree");
    }
};

class PfcWatchdogCase : public TestCase
{
  public:
    PfcWatchdogCase()
        : TestCase("watchdog: pauses held longer than PfcWatchdog are reported once each; "
                   "pause and resume traces pair up")
    {
    }

  private:
    void DoRun() override
    {
        PfcRunConfig dflt;
        PfcRunResult a = RunPfc(dflt);
        NS_TEST_ASSERT_MSG_EQ(a.watchdogReports, 0u, "default 10 ms: no report");
        NS_TEST_ASSERT_MSG_GT(a.pauseTraces, 0u, "PfcPause traced");
        NS_TEST_ASSERT_MSG_EQ(a.pauseTraces, a.resumeTraces, "every pause resumed (traced)");
        PfcRunConfig tight;
        tight.watchdog = MicroSeconds(20);
        PfcRunResult b = RunPfc(tight);
        NS_TEST_ASSERT_MSG_GT(b.watchdogReports, 0u, "20 us: long pauses reported");
        NS_TEST_ASSERT_MSG_EQ(b.watchdogTraces, b.watchdogReports, "one trace per report");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(b.watchdogReports,
                                    b.pauseTraces,
                                    "at most one report per pause");
        NS_TEST_ASSERT_MSG_EQ(b.drops, 0u, "the watchdog only reports");
        NS_TEST_ASSERT_MSG_EQ(b.watchdogForwards, 0u, "Report: nothing forwarded");
        NS_TEST_ASSERT_MSG_EQ(b.pausesIgnored, 0u, "Report: no pause frame ignored");
        // Forward: the same run, but each report resumes the band and the port ignores
        // the peer's pause frames for 1 ms (longer than the peer's XOFF refresh, half of
        // 0xFFFF quanta = 168 us at 100 Gb/s); every message still arrives exactly once
        PfcRunConfig fwd = tight;
        fwd.watchdogForward = true;
        PfcRunResult c = RunPfc(fwd);
        NS_TEST_ASSERT_MSG_GT(c.watchdogReports, 0u, "Forward: long pauses reported");
        NS_TEST_ASSERT_MSG_EQ(c.watchdogForwards,
                              c.watchdogReports,
                              "Forward: every report resumes the data band");
        NS_TEST_ASSERT_MSG_LT(c.pausedTime,
                              b.pausedTime,
                              "Forward: less paused time than with Report");
        NS_TEST_ASSERT_MSG_EQ(c.completed, c.expected, "Forward: every message completes");
        NS_TEST_ASSERT_MSG_EQ(c.allOnce, true, "Forward: delivered exactly once");
    }
};

/** The Forward action on one port, pause frames fed by hand: resume at the watchdog, pause
 *  frames ignored until PfcWatchdogRestore, then obeyed again. */
class PfcWatchdogForwardCase : public TestCase
{
  public:
    PfcWatchdogForwardCase()
        : TestCase("watchdog Forward: resumes after PfcWatchdog, ignores pause frames for "
                   "PfcWatchdogRestore, then obeys them again")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<DcnQueueDisc> q = CreateObject<DcnQueueDisc>();
        q->SetAttribute("PfcWatchdog", TimeValue(MicroSeconds(20)));
        q->SetAttribute("PfcWatchdogAction", StringValue("Forward"));
        q->SetAttribute("PfcWatchdogRestore", TimeValue(MicroSeconds(100)));
        q->SetPfcPort(Ipv4Address("10.0.0.1"), Ipv4Address("10.0.0.2"), DataRate("100Gbps"), 3);
        q->SetKickCallback(Callback<void>([]() {}));      // no device: nothing to restart
        std::vector<std::pair<int64_t, uint64_t>> paused; // (time us, paused ns so far)
        auto sample = [&]() {
            paused.emplace_back(Simulator::Now().GetMicroSeconds(),
                                static_cast<uint64_t>(q->GetPausedTime().GetNanoSeconds()));
        };
        // an XOFF every 10 us for 300 us (a peer that never lets go)
        for (int t = 0; t < 300; t += 10)
        {
            Simulator::Schedule(MicroSeconds(t), [q]() { q->ReceivePause(0xFFFF); });
        }
        for (int t : {15, 25, 60, 110, 125, 140, 200})
        {
            Simulator::Schedule(MicroSeconds(t) + NanoSeconds(1), sample);
        }
        Simulator::Stop(MicroSeconds(300));
        Simulator::Run();
        // paused 0..20 us, forwarding 20..120 us (XOFFs at 30..120 ignored: the one at 120 us
        // was scheduled before the restore event), paused again by the XOFF at 130 us; its
        // watchdog fires at 150 us: forwarding 150..250 (XOFFs at 160..250 ignored); paused
        // by the XOFF at 260, forwarding from 280 (the XOFF at 290 ignored)
        NS_TEST_ASSERT_MSG_EQ(q->GetNWatchdogReports(), 3u, "three long pauses");
        NS_TEST_ASSERT_MSG_EQ(q->GetNWatchdogForwards(), 3u, "each resumed");
        NS_TEST_ASSERT_MSG_EQ(q->GetNPausesIgnored(),
                              10u + 10u + 1u,
                              "XOFFs at 30..120, 160..250, 290");
        NS_TEST_ASSERT_MSG_EQ(paused.size(), 7u, "samples");
        NS_TEST_ASSERT_MSG_EQ(paused[0].second, 15000u + 1u, "paused while < PfcWatchdog");
        NS_TEST_ASSERT_MSG_EQ(paused[1].second, 20000u, "resumed at the watchdog (20 us)");
        NS_TEST_ASSERT_MSG_EQ(paused[2].second, 20000u, "forwarding: XOFF ignored");
        NS_TEST_ASSERT_MSG_EQ(paused[3].second, 20000u, "still forwarding at 110 us");
        NS_TEST_ASSERT_MSG_EQ(paused[4].second, 20000u, "restored at 120 us, no XOFF yet");
        NS_TEST_ASSERT_MSG_EQ(paused[5].second,
                              20000u + 10000u + 1u,
                              "the XOFF at 130 us counts again");
        NS_TEST_ASSERT_MSG_EQ(paused[6].second, 20000u + 20000u, "second forward at 150 us");
        q->Dispose();
        Simulator::Destroy();
    }
};

class PfcVictimCase : public TestCase
{
  public:
    PfcVictimCase()
        : TestCase("head-of-line blocking: a victim sharing a paused port slows down")
    {
    }

  private:
    void DoRun() override
    {
        PfcRunConfig alone;
        alone.incast = false;
        alone.victim = true;
        PfcRunResult a = RunPfc(alone);
        PfcRunConfig both;
        both.victim = true;
        PfcRunResult b = RunPfc(both);
        NS_TEST_ASSERT_MSG_EQ(a.completed, 1u, "victim alone completes");
        NS_TEST_ASSERT_MSG_EQ(b.completed, b.expected, "victim and incast complete");
        NS_TEST_ASSERT_MSG_EQ(b.drops, 0u, "lossless");
        NS_TEST_ASSERT_MSG_EQ(b.allOnce, true, "every byte delivered exactly once");
        NS_TEST_ASSERT_MSG_GT(a.victimFct, Time(0), "victim FCT measured");
        PfcRunConfig lossy = both;
        lossy.pfc = false;
        PfcRunResult c = RunPfc(lossy);
        NS_TEST_ASSERT_MSG_EQ(c.completed, c.expected, "PFC off: victim and incast complete");
        NS_TEST_ASSERT_MSG_EQ(c.allOnce, true, "PFC off: every byte delivered exactly once");
        NS_TEST_ASSERT_MSG_LT(c.victimFct,
                              b.victimFct,
                              "without PFC the victim is not held behind the paused port");
        NS_TEST_ASSERT_MSG_GT(b.victimFct,
                              a.victimFct * 2,
                              "the victim (to an idle host) is slowed by the pauses at least 2x: "
                                  << a.victimFct.GetMicroSeconds() << " us alone, "
                                  << b.victimFct.GetMicroSeconds() << " us with the incast");
    }
};

class SharedBufferThresholdCase : public TestCase
{
  public:
    SharedBufferThresholdCase()
        : TestCase("shared buffer: the dynamic threshold admits more for a lone congested "
                   "queue than for each of many")
    {
    }

  private:
    /** Bytes admitted per queue when \p k egress queues are congested at once (lossy). */
    static uint64_t AdmittedPerQueue(uint32_t k)
    {
        Ptr<DcnSwitchBuffer> b = CreateObject<DcnSwitchBuffer>();
        b->SetAttribute("PfcEnabled", BooleanValue(false));
        b->SetAttribute("BufferSize", UintegerValue(1000000));
        b->SetAttribute("Alpha", DoubleValue(1.0));
        std::string err = b->Configure(9, 100e9, MicroSeconds(1), 1500);
        NS_ABORT_MSG_IF(!err.empty(), err);
        std::vector<uint64_t> admitted(k, 0);
        bool any = true;
        while (any) // round robin arrivals of 1000 B until every queue is refused
        {
            any = false;
            for (uint32_t q = 0; q < k; ++q)
            {
                if (b->Admit(0, static_cast<uint16_t>(1 + q), 1000) != DcnSwitchBuffer::NO_PORT)
                {
                    admitted[q] += 1000;
                    any = true;
                }
            }
        }
        return admitted[0];
    }

    void DoRun() override
    {
        const uint64_t one = AdmittedPerQueue(1);
        const uint64_t four = AdmittedPerQueue(4);
        // alpha = 1: one queue gets B/2, each of k queues B/(k+1)
        NS_TEST_ASSERT_MSG_GT(one, four, "a lone queue gets more of the shared buffer");
        NS_TEST_ASSERT_MSG_EQ_TOL(double(one), 500000.0, 2000.0, "lone queue: alpha/(1+alpha) B");
        NS_TEST_ASSERT_MSG_EQ_TOL(double(four), 200000.0, 2000.0, "4 queues: alpha/(1+4 alpha) B");
    }
};

class PfcTestSuite : public TestSuite
{
  public:
    PfcTestSuite()
        : TestSuite("dcn-lb-pfc", DCNLB_TEST_SYSTEM)
    {
        AddTestCase(new SharedBufferThresholdCase, DCNLB_TEST_QUICK);
        AddTestCase(new PfcIncastCase, DCNLB_TEST_QUICK);
        AddTestCase(new PfcVictimCase, DCNLB_TEST_QUICK);
        AddTestCase(new PfcWatchdogCase, DCNLB_TEST_QUICK);
        AddTestCase(new PfcWatchdogForwardCase, DCNLB_TEST_QUICK);
    }
};

PfcTestSuite g_pfcTestSuite;

} // namespace
} // namespace dcntest
} // namespace ns3
