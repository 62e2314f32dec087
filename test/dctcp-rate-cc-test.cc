/*
 * dcn-lb-dctcp-rate: the rate-based DCTCP of the LAPS authors' simulator ([A]
 * rdma-hw.cc PLBHandleAckDctcp; DctcpRateCc, "dctcp-rate") on crafted ACK
 * sequences:
 *  - a marked ACK cuts the rate by exactly 1 - alpha/2, once per window (CWR until
 *    an ACK beyond the PSN sent at the cut), whatever the further marks;
 *  - alpha is the per-round EWMA of min(1, marks / batch) with gain G, the first
 *    round only opens; a round without a cut adds RateAi, capped at the line rate;
 *  - the rate never goes below MinRate;
 *  - a go-back-N NACK counts as one marked ACK (NackIsCongestion), not twice when it
 *    came through OnAck, and not at all without NackIsCongestion;
 *  - Window caps the bytes in flight; bad values are refused in one line.
 */
#include "ns3/boolean.h"
#include "ns3/cc-registry.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-options.h"
#include "ns3/dctcp-rate-cc.h"
#include "ns3/double.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <limits>

namespace ns3
{
namespace dcntest
{
namespace
{

CcAckSample
Ack(uint32_t cum, uint32_t nxt, bool ecn, bool nack = false)
{
    CcAckSample s;
    s.ackedBytes = 1000;
    s.ecn = ecn;
    s.cumAck = cum;
    s.psn = cum > 0 ? cum - 1 : 0;
    s.nextPsn = nxt;
    s.nack = nack;
    return s;
}

Ptr<DctcpRateCc>
MakeCc(double g, const char* minRate = "100Mbps")
{
    Ptr<DctcpRateCc> cc = CreateObject<DctcpRateCc>();
    cc->SetAttribute("G", DoubleValue(g));
    cc->SetAttribute("MinRate", DataRateValue(DataRate(minRate)));
    CcSetup s;
    s.mtu = 1000;
    s.lineRate = DataRate("100Gbps");
    cc->Setup(s);
    return cc;
}

/** The cut, the CWR window, alpha's EWMA and the additive increase, ACK by ACK. */
class DctcpRateSequenceCase : public TestCase
{
  public:
    DctcpRateSequenceCase()
        : TestCase("dctcp-rate: rate x (1 - 0.5 alpha) once per window, per-round alpha EWMA, "
                   "+RateAi per clean round up to the line rate")
    {
    }

  private:
    void DoRun() override
    {
        const double line = 100e9;
        const double g = 1.0 / 16;
        Ptr<DctcpRateCc> cc = MakeCc(g);
        NS_TEST_ASSERT_MSG_EQ(cc->GetRateBps(), line, "starts at the line rate");
        NS_TEST_ASSERT_MSG_EQ(cc->GetAlpha(), 1.0, "alpha starts at 1 ([A])");
        // ACK 1 opens the first round (lastUpdate = 10, batch 11); at line rate already
        cc->OnAck(Ack(1, 10, false));
        NS_TEST_ASSERT_MSG_EQ(cc->GetRateBps(), line, "first round: no change");
        // a marked ACK: cut by 1 - alpha/2 = 1/2, CWR until cum > 5 (the next PSN then)
        cc->OnAck(Ack(2, 5, true));
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetRateBps(), line / 2, 1, "first cut halves (alpha 1)");
        NS_TEST_ASSERT_MSG_EQ(cc->InCwr(), true, "in CWR");
        // three more marks in the same window: no further cut
        for (uint32_t cum = 3; cum <= 5; ++cum)
        {
            cc->OnAck(Ack(cum, 6, true));
        }
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetRateBps(), line / 2, 1, "one cut per window");
        NS_TEST_ASSERT_MSG_EQ(cc->GetCuts(), 1u, "one cut");
        // clean ACKs: CWR ends at cum 6 > 5; no round ends before cum > 10
        for (uint32_t cum = 6; cum <= 10; ++cum)
        {
            cc->OnAck(Ack(cum, 10, false));
        }
        NS_TEST_ASSERT_MSG_EQ(cc->InCwr(), false, "CWR over");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetRateBps(), line / 2, 1, "no increase within a round");
        // cum 11 > 10 ends the round: 4 marks of batch 11; not in CWR: +1 Gb/s
        cc->OnAck(Ack(11, 30, false));
        double alpha = (1 - g) * 1.0 + g * (4.0 / 11.0);
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetAlpha(), alpha, 1e-12, "alpha EWMA of 4/11");
        double rate = line / 2 + 1e9;
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetRateBps(), rate, 1, "additive increase 1 Gb/s");
        // a mark in the new round (batch = 30 - 11 + 1 = 20): cut by 1 - alpha/2, exactly
        cc->OnAck(Ack(12, 31, true));
        rate *= 1 - alpha / 2;
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetRateBps(), rate, 1, "cut by 1 - alpha/2");
        // the round ends at cum 31 with 1 mark of 20: alpha decays towards 1/20; CWR ends at
        // cum > 31 only, so no increase at this round's end
        for (uint32_t cum = 13; cum <= 31; ++cum)
        {
            cc->OnAck(Ack(cum, 40, false));
        }
        alpha = (1 - g) * alpha + g * (1.0 / 20.0);
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetAlpha(), alpha, 1e-12, "alpha EWMA of 1/20");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetRateBps(), rate, 1, "no increase while in CWR");
        NS_TEST_ASSERT_MSG_EQ(cc->GetRounds(), 2u, "two rounds closed");
        // ACKs that end no round change nothing
        cc->OnAck(Ack(32, 41, false));
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetRateBps(), rate, 1, "mid-round ACK: no increase");
        // clean rounds: +1 Gb/s each, capped at the line rate; alpha decays by (1 - g)
        uint32_t cum = 41;
        for (int r = 0; r < 100; ++r)
        {
            cc->OnAck(Ack(cum, cum + 5, false));
            alpha *= 1 - g;
            rate = std::min(line, rate + 1e9);
            cum += 6;
        }
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetAlpha(), alpha, 1e-12, "clean rounds decay alpha");
        NS_TEST_ASSERT_MSG_EQ(cc->GetRateBps(), line, "back at the line rate, not above");
        NS_TEST_ASSERT_MSG_EQ(cc->GetRate().GetBitRate(), uint64_t(line), "GetRate");
    }
};

/** MinRate floors every cut. */
class DctcpRateFloorCase : public TestCase
{
  public:
    DctcpRateFloorCase()
        : TestCase("dctcp-rate: repeated cuts stop at MinRate")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<DctcpRateCc> cc = MakeCc(1.0 / 16, "30Gbps");
        cc->OnAck(Ack(1, 2, false));
        uint32_t cum = 2;
        double expect = 100e9;
        for (int i = 0; i < 8; ++i)
        {
            // every ACK marked, a window of one packet: a cut per ACK, by the alpha of the
            // round it closed (alpha is updated before the cut)
            cc->OnAck(Ack(cum, cum, true));
            expect = std::max(30e9, expect * (1 - cc->GetAlpha() / 2));
            NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetRateBps(), expect, 1, "cut " << i);
            ++cum;
        }
        NS_TEST_ASSERT_MSG_EQ(cc->GetRateBps(), 30e9, "floor");
        NS_TEST_ASSERT_MSG_GT(cc->GetCuts(), 3u, "kept cutting at the floor");
    }
};

/** Go-back-N NACKs: one marked acknowledgement each (NackIsCongestion). */
class DctcpRateNackCase : public TestCase
{
  public:
    DctcpRateNackCase()
        : TestCase("dctcp-rate: a go-back-N NACK is one marked ACK (not two via OnAck + "
                   "OnNack), none with NackIsCongestion=false")
    {
    }

  private:
    void DoRun() override
    {
        for (int nackCong = 0; nackCong < 2; ++nackCong)
        {
            Ptr<DctcpRateCc> cc = CreateObject<DctcpRateCc>();
            cc->SetAttribute("NackIsCongestion", BooleanValue(nackCong == 1));
            CcSetup s;
            s.lineRate = DataRate("100Gbps");
            cc->Setup(s);
            cc->OnAck(Ack(1, 10, false));
            // a NACK that acknowledged bytes: OnAck(nack) then OnNack for the same event
            cc->OnAck(Ack(3, 10, false, true));
            cc->OnNack();
            NS_TEST_EXPECT_MSG_EQ(cc->GetCuts(), (nackCong ? 1u : 0u), "NACK via OnAck");
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetRateBps(),
                                      (nackCong ? 50e9 : 100e9),
                                      1,
                                      "one cut by 1/2");
            // [A] rewinds snd_nxt to the NACK's cumAck: CWR ends at the next advancing ACK
            cc->OnAck(Ack(4, 12, false));
            NS_TEST_EXPECT_MSG_EQ(cc->InCwr(), false, "CWR over after the go-back point");
            // a NACK that acknowledged nothing new comes through OnNack alone
            cc->OnNack();
            NS_TEST_EXPECT_MSG_EQ(cc->GetCuts(), (nackCong ? 2u : 0u), "NACK via OnNack");
            // the round closes at cum 11 > 10: with NackIsCongestion the two NACKs are its
            // marks (2 of batch 11)
            cc->OnAck(Ack(11, 20, false));
            const double g = 1.0 / 256;
            const double alpha = (1 - g) + g * (nackCong ? 2.0 / 11.0 : 0.0);
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetAlpha(), alpha, 1e-12, "NACKs in the fraction");
        }
        // review s49 M1: a NACK that acknowledged bytes but that the transport then found
        // stale (OnAck(nack) without OnNack) must not swallow a later NACK's OnNack
        double alphaOf[2];
        for (int stale = 0; stale < 2; ++stale)
        {
            Ptr<DctcpRateCc> cc = CreateObject<DctcpRateCc>();
            cc->SetAttribute("NackIsCongestion", BooleanValue(true));
            CcSetup s;
            s.lineRate = DataRate("100Gbps");
            cc->Setup(s);
            auto at = [](uint32_t cum, uint32_t nxt, bool nack) {
                CcAckSample a = Ack(cum, nxt, false, nack);
                a.now = Simulator::Now();
                return a;
            };
            Simulator::Schedule(Seconds(0), [cc, at]() { cc->OnAck(at(1, 10, false)); });
            Simulator::Schedule(MicroSeconds(1), [cc, at, stale]() {
                cc->OnAck(at(3, 10, true));
                if (!stale)
                {
                    cc->OnNack(); // the same NACK, not stale
                }
            });
            Simulator::Schedule(MicroSeconds(2), [cc]() { cc->OnNack(); }); // nothing acked
            Simulator::Schedule(MicroSeconds(3), [cc, at]() { cc->OnAck(at(11, 20, false)); });
            Simulator::Run();
            Simulator::Destroy();
            alphaOf[stale] = cc->GetAlpha();
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(alphaOf[1],
                                  alphaOf[0],
                                  1e-15,
                                  "both NACKs counted after a stale one");
        NS_TEST_EXPECT_MSG_LT(alphaOf[0], 1.0, "marks below a full round");
    }
};

/** Window, registration and refusals. */
class DctcpRateConfigCase : public TestCase
{
  public:
    DctcpRateConfigCase()
        : TestCase("dctcp-rate: registered, [A]'s defaults, Window caps in flight, bad values "
                   "refused in one line")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<CongestionControl> c = CongestionControlRegistry::Create("dctcp-rate");
        NS_TEST_ASSERT_MSG_NE(c, nullptr, "dctcp-rate registered");
        Ptr<DctcpRateCc> cc = DynamicCast<DctcpRateCc>(c);
        NS_TEST_ASSERT_MSG_NE(cc, nullptr, "as DctcpRateCc");
        DoubleValue g;
        cc->GetAttribute("G", g);
        NS_TEST_EXPECT_MSG_EQ(g.Get(), 1.0 / 256, "[A] ewmaGain 1/256");
        DataRateValue ai;
        cc->GetAttribute("RateAi", ai);
        NS_TEST_EXPECT_MSG_EQ(ai.Get(), DataRate("1Gbps"), "[A] dctcpRateAiInMbps 1000");
        DataRateValue mr;
        cc->GetAttribute("MinRate", mr);
        NS_TEST_EXPECT_MSG_EQ(mr.Get(), DataRate("100Mbps"), "[A] minRateInMbps 100");
        NS_TEST_EXPECT_MSG_EQ(cc->GetCwnd(), std::numeric_limits<uint64_t>::max(), "no window");
        cc->SetAttribute("Window", UintegerValue(155240));
        NS_TEST_EXPECT_MSG_EQ(cc->GetCwnd(), 155240u, "Window");
        cc->SetAttribute("Window", UintegerValue(10));
        NS_TEST_EXPECT_MSG_EQ(cc->Validate(),
                              "option --ns3::DctcpRateCc::Window: value '10'; allowed: 0 (no "
                              "window) or >= 64 bytes",
                              "tiny window refused");
        cc->SetAttribute("Window", UintegerValue(0));
        cc->SetAttribute("RateAi", DataRateValue(DataRate(0)));
        NS_TEST_EXPECT_MSG_EQ(cc->Validate(),
                              "option --ns3::DctcpRateCc::RateAi: value '0bps'; allowed: > 0",
                              "zero increase refused");
    }
};

class DctcpRateTestSuite : public TestSuite
{
  public:
    DctcpRateTestSuite()
        : TestSuite("dcn-lb-dctcp-rate", DCNLB_TEST_UNIT)
    {
        AddTestCase(new DctcpRateSequenceCase, DCNLB_TEST_QUICK);
        AddTestCase(new DctcpRateFloorCase, DCNLB_TEST_QUICK);
        AddTestCase(new DctcpRateNackCase, DCNLB_TEST_QUICK);
        AddTestCase(new DctcpRateConfigCase, DCNLB_TEST_QUICK);
    }
};

static DctcpRateTestSuite g_dctcpRateTestSuite;

} // namespace
} // namespace dcntest
} // namespace ns3
