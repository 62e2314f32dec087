/*
 * GoogleTest tests of the congestion-control cores in model/cc/core/
 * (DCQCN reaction and notification points, HPCC window computation).
 */
#include "ns3/dcqcn-core.h"
#include "ns3/hpcc-core.h"

#include <cmath>
#include <gtest/gtest.h>
#include <vector>

using namespace ns3::cccore;

namespace
{
constexpr int64_t kUs = 1000;

// ---------------------------------------------------------------- DCQCN RP
TEST(DcqcnRp, PaperDefaults)
{
    DcqcnConfig c;
    EXPECT_DOUBLE_EQ(c.g, 1.0 / 256);
    EXPECT_EQ(c.fastRecoverySteps, 5u);
    EXPECT_EQ(c.alphaTimerNs, 55 * kUs);
    EXPECT_EQ(c.rateTimerNs, 55 * kUs);
    EXPECT_EQ(c.byteCounterBytes, 10'000'000u);
    EXPECT_DOUBLE_EQ(c.rateAiBps, 40e6);
    const DcqcnConfig l = DcqcnConfig::LapsAuthors(100e9);
    EXPECT_DOUBLE_EQ(l.rateAiBps, 5e6);
    EXPECT_DOUBLE_EQ(l.rateHaiBps, 50e6);
    EXPECT_DOUBLE_EQ(l.minRateBps, 100e6);
    EXPECT_EQ(l.rateDecreaseIntervalNs, 4 * kUs);
    EXPECT_EQ(l.alphaTimerNs, 1 * kUs);
    EXPECT_EQ(l.rateTimerNs, 300 * kUs);
    EXPECT_FALSE(c.mlxIncrease);
    EXPECT_TRUE(c.clampTarget);
    // [A] CONFIG_DCQCN.txt: Dcqcn_mlx, fastRecoveryTimes 1, ClampTargetRate false
    EXPECT_TRUE(l.mlxIncrease);
    EXPECT_EQ(l.fastRecoverySteps, 1u);
    EXPECT_FALSE(l.clampTarget);
}

TEST(DcqcnRp, LapsAuthorsFollowsTheMlxStages)
{
    // [A] (HPCC-simulator Dcqcn_mlx): stage 0 fast recovery, stage 1 = F one additive step,
    // then hyper increase adding R_HAI once per stage; no byte counter; the first cut does
    // not clamp the target (it stays at the line rate)
    DcqcnRp rp;
    ASSERT_TRUE(rp.Configure(DcqcnConfig::LapsAuthors(100e9)));
    ASSERT_TRUE(rp.OnCnp(10 * kUs));
    EXPECT_DOUBLE_EQ(rp.GetRate(), 50e9);
    EXPECT_DOUBLE_EQ(rp.GetTargetRate(), 100e9); // not clamped: no increase event yet
    EXPECT_EQ(rp.OnRateTimer(), DcqcnStage::FAST_RECOVERY);
    EXPECT_DOUBLE_EQ(rp.GetRate(), 75e9);
    // a cut after an increase event clamps the target to the current rate
    ASSERT_TRUE(rp.OnCnp(400 * kUs));
    EXPECT_DOUBLE_EQ(rp.GetTargetRate(), 75e9);
    const double rc0 = rp.GetRate();
    EXPECT_LT(rc0, 75e9);
    EXPECT_EQ(rp.OnBytesSent(100'000'000), 0u); // no byte counter
    EXPECT_DOUBLE_EQ(rp.GetRate(), rc0);
    EXPECT_EQ(rp.OnRateTimer(), DcqcnStage::FAST_RECOVERY); // stage 0
    double rt = 75e9;
    double rc = (rt + rc0) / 2;
    EXPECT_DOUBLE_EQ(rp.GetRate(), rc);
    EXPECT_EQ(rp.OnRateTimer(), DcqcnStage::ADDITIVE); // stage 1 = F
    rt += 5e6;
    rc = (rt + rc) / 2;
    EXPECT_DOUBLE_EQ(rp.GetTargetRate(), rt);
    EXPECT_DOUBLE_EQ(rp.GetRate(), rc);
    for (int s = 2; s < 6; ++s)
    {
        EXPECT_EQ(rp.OnRateTimer(), DcqcnStage::HYPER);
        rt += 50e6; // once per stage, not (stage - F) times
        rc = (rt + rc) / 2;
        EXPECT_DOUBLE_EQ(rp.GetTargetRate(), rt);
        EXPECT_DOUBLE_EQ(rp.GetRate(), rc);
    }
}

TEST(DcqcnRp, BackToBackCnpsHalveTheRate)
{
    DcqcnRp rp;
    ASSERT_TRUE(rp.Configure(DcqcnConfig{}));
    // alpha = 1 stays 1 ((1-g) 1 + g), so R_k = R_0 / 2^k
    for (int k = 1; k <= 8; ++k)
    {
        EXPECT_TRUE(rp.OnCnp(k * kUs));
        EXPECT_DOUBLE_EQ(rp.GetRate(), 100e9 / std::pow(2.0, k));
        EXPECT_DOUBLE_EQ(rp.GetAlpha(), 1.0);
    }
}

TEST(DcqcnRp, RateAfterKCnpsMatchesClosedForm)
{
    // k CNPs, j alpha-timer periods (no CNP) before each: closed form
    //   a'_k = (1-g)^j a_{k-1}            (alpha when CNP k arrives)
    //   a_k  = c^k a_0 + g (1 - c^k) / (1 - c),  c = (1-g)^(j+1)
    //   R_k  = R_0 prod_{i=1..k} (1 - a'_i / 2)
    const double g = 1.0 / 256;
    const int j = 7;
    const double c = std::pow(1 - g, j + 1);
    DcqcnConfig cfg;
    cfg.minRateBps = 1; // keep the floor out of the way
    DcqcnRp rp;
    ASSERT_TRUE(rp.Configure(cfg));
    double rate = 100e9;
    for (int k = 1; k <= 20; ++k)
    {
        for (int t = 0; t < j; ++t)
        {
            rp.OnAlphaTimer();
        }
        const double aPrev =
            k == 1 ? 1.0 : std::pow(c, k - 1) + g * (1 - std::pow(c, k - 1)) / (1 - c);
        const double aAtCnp = std::pow(1 - g, j) * aPrev;
        rate *= 1 - aAtCnp / 2;
        ASSERT_TRUE(rp.OnCnp(k * 100 * kUs));
        EXPECT_NEAR(rp.GetRate(), rate, rate * 1e-12) << "k = " << k;
        const double aK = std::pow(c, k) + g * (1 - std::pow(c, k)) / (1 - c);
        EXPECT_NEAR(rp.GetAlpha(), aK, 1e-12) << "k = " << k;
    }
}

TEST(DcqcnRp, FastRecoveryThenAdditiveThenHyper)
{
    DcqcnConfig cfg;
    DcqcnRp rp;
    ASSERT_TRUE(rp.Configure(cfg));
    rp.OnCnp(0); // Rt = 100G, Rc = 50G
    const double rt = 100e9;
    // fast recovery: F = 5 timer events, Rc_n = Rt - (Rt - Rc_0) / 2^n
    for (int n = 1; n <= 5; ++n)
    {
        EXPECT_EQ(rp.OnRateTimer(), DcqcnStage::FAST_RECOVERY);
        EXPECT_NEAR(rp.GetRate(), rt - 50e9 / std::pow(2.0, n), 1);
        EXPECT_DOUBLE_EQ(rp.GetTargetRate(), rt);
    }
    // second CNP from a lower point to see additive increase below line rate
    rp.OnCnp(1000 * kUs);
    const double rt2 = rp.GetTargetRate();
    for (int n = 0; n < 5; ++n)
    {
        EXPECT_EQ(rp.OnRateTimer(), DcqcnStage::FAST_RECOVERY);
    }
    EXPECT_EQ(rp.OnRateTimer(), DcqcnStage::ADDITIVE); // Tc = 6 > F, Bc = 0
    EXPECT_DOUBLE_EQ(rp.GetTargetRate(), rt2 + 40e6);
    EXPECT_EQ(rp.OnRateTimer(), DcqcnStage::ADDITIVE); // Tc = 7, Bc = 0
    EXPECT_DOUBLE_EQ(rp.GetTargetRate(), rt2 + 80e6);
    // byte counter: 5 events of B (additive, Bc <= F), the 6th makes both > F
    EXPECT_EQ(rp.OnBytesSent(5 * cfg.byteCounterBytes), 5u);
    EXPECT_DOUBLE_EQ(rp.GetTargetRate(), rt2 + 7 * 40e6);
    const double before = rp.GetTargetRate();
    EXPECT_EQ(rp.OnBytesSent(cfg.byteCounterBytes), 1u); // Bc = 6, Tc = 7: i = 1
    EXPECT_DOUBLE_EQ(rp.GetTargetRate(), std::min(100e9, before + 1 * cfg.rateHaiBps));
}

TEST(DcqcnRp, RecoversToLineRateAndAlphaDecays)
{
    DcqcnRp rp;
    ASSERT_TRUE(rp.Configure(DcqcnConfig{}));
    rp.OnCnp(0);
    rp.OnCnp(1);
    EXPECT_DOUBLE_EQ(rp.GetRate(), 25e9);
    for (int i = 0; i < 256; ++i)
    {
        rp.OnAlphaTimer();
    }
    EXPECT_NEAR(rp.GetAlpha(), std::pow(1 - 1.0 / 256, 256), 1e-12); // ~ 1/e
    // timer only: F = 5 fast-recovery steps towards Rt = 50G (Tc <= F), then
    // only +R_AI per event (Tc > F, Bc = 0: never hyper)
    for (int i = 0; i < 5; ++i)
    {
        rp.OnRateTimer();
    }
    EXPECT_NEAR(rp.GetRate(), 50e9 - 25e9 / 32, 1);
    for (int i = 0; i < 11; ++i)
    {
        EXPECT_EQ(rp.OnRateTimer(), DcqcnStage::ADDITIVE);
    }
    EXPECT_DOUBLE_EQ(rp.GetTargetRate(), 50e9 + 11 * 40e6);
    // timer and byte counter together: hyper increase brings it back to line rate
    double prev = rp.GetRate();
    for (int i = 0; i < 100; ++i)
    {
        rp.OnRateTimer();
        rp.OnBytesSent(10'000'000);
        EXPECT_GE(rp.GetRate(), prev); // never decreases without a CNP
        EXPECT_LE(rp.GetRate(), 100e9);
        prev = rp.GetRate();
    }
    EXPECT_NEAR(rp.GetRate(), 100e9, 1e3); // back at line rate (clamped target)
}

TEST(DcqcnRp, RateDecreaseIntervalAndFloor)
{
    DcqcnRp rp;
    ASSERT_TRUE(rp.Configure(DcqcnConfig::LapsAuthors(100e9)));
    EXPECT_TRUE(rp.OnCnp(10 * kUs));
    EXPECT_FALSE(rp.OnCnp(13 * kUs)); // within 4 us of the last cut
    EXPECT_DOUBLE_EQ(rp.GetRate(), 50e9);
    EXPECT_TRUE(rp.OnCnp(14 * kUs));
    for (int k = 0; k < 20; ++k)
    {
        rp.OnCnp((20 + 10 * k) * kUs);
    }
    EXPECT_DOUBLE_EQ(rp.GetRate(), 100e6); // min rate
    EXPECT_EQ(rp.TxTimeNs(1250), 100 * kUs);
}

TEST(DcqcnRp, RefusesBadConfig)
{
    DcqcnConfig c;
    c.g = 0;
    DcqcnRp rp;
    EXPECT_FALSE(rp.Configure(c));
    EXPECT_DOUBLE_EQ(rp.GetConfig().g, 1.0 / 256);
}

// ---------------------------------------------------------------- DCQCN NP
TEST(DcqcnNp, AtMostOneCnpPerInterval)
{
    DcqcnNp np; // 50 us (SIGCOMM'15)
    std::vector<int64_t> sent;
    for (int64_t t = 0; t <= 500 * kUs; t += 3 * kUs) // CE packet every 3 us
    {
        if (np.OnCePacket(t))
        {
            sent.push_back(t);
        }
    }
    ASSERT_GE(sent.size(), 2u);
    EXPECT_EQ(sent[0], 0);
    for (size_t i = 1; i < sent.size(); ++i)
    {
        EXPECT_GE(sent[i] - sent[i - 1], 50 * kUs);
        EXPECT_LT(sent[i] - sent[i - 1], 53 * kUs); // the first CE after the interval
    }
    EXPECT_EQ(np.GetCnpCount(), sent.size());
}

TEST(DcqcnRp, LapsAuthorsAlphaFollowsMlx)
{
    // [A] UpdateAlphaMlx: a cut leaves alpha alone; each alpha period K raises it by g if a
    // CNP came in it, else only decays it
    const double g = 1.0 / 256;
    DcqcnRp rp;
    ASSERT_TRUE(rp.Configure(DcqcnConfig::LapsAuthors(100e9)));
    ASSERT_TRUE(rp.OnCnp(10 * kUs));
    EXPECT_DOUBLE_EQ(rp.GetAlpha(), 1.0);
    rp.OnAlphaTimer(false);
    EXPECT_DOUBLE_EQ(rp.GetAlpha(), 1 - g);
    rp.OnAlphaTimer(true);
    EXPECT_DOUBLE_EQ(rp.GetAlpha(), (1 - g) * (1 - g) + g);
    ASSERT_TRUE(rp.OnCnp(20 * kUs));
    EXPECT_DOUBLE_EQ(rp.GetAlpha(), (1 - g) * (1 - g) + g); // unchanged by the cut
    // SIGCOMM'15 (Paper): the cut updates alpha
    DcqcnRp p;
    ASSERT_TRUE(p.Configure(DcqcnConfig{}));
    p.OnAlphaTimer();
    ASSERT_TRUE(p.OnCnp(10 * kUs));
    EXPECT_DOUBLE_EQ(p.GetAlpha(), (1 - g) * (1 - g) + g);
}

TEST(DcqcnNp, ZeroIntervalEchoesEveryCePacket)
{
    // laps-paper's notification point ([A]: l2AckIntervalInByte 1, every ACK of a CE-marked
    // packet carries the CNP); with the LapsAuthors reaction point at most one cut per 4 us
    DcqcnNp np(0);
    DcqcnRp rp;
    ASSERT_TRUE(rp.Configure(DcqcnConfig::LapsAuthors(100e9)));
    uint64_t cuts = 0;
    int64_t lastCut = -1;
    const int64_t gap = 84; // a 1048-B frame at 100 Gb/s
    int n = 0;
    for (int64_t t = 0; t < 40 * kUs; t += gap, ++n)
    {
        ASSERT_TRUE(np.OnCePacket(t));
        if (rp.OnCnp(t))
        {
            if (lastCut >= 0)
            {
                EXPECT_GE(t - lastCut, 4 * kUs);
                EXPECT_LT(t - lastCut, 4 * kUs + gap);
            }
            lastCut = t;
            ++cuts;
        }
    }
    EXPECT_EQ(np.GetCnpCount(), static_cast<uint64_t>(n));
    EXPECT_EQ(cuts, 10u); // 0, 4.032, 8.064, ... < 40 us
}

// ---------------------------------------------------------------- HPCC
/** One-hop path driver: link of rate B with a given queue and tx rate. */
struct HpccDriver
{
    HpccCore<> cc;
    IntHop hop;
    uint64_t seq{0};
    int64_t now{0};

    /** Advance dtNs during which the link sent at `util` x B and the queue is q. */
    double Step(int64_t dtNs, double util, uint32_t q, uint64_t sndNxtAhead = 0)
    {
        now += dtNs;
        hop.tsNs = now;
        hop.txBytes += static_cast<uint64_t>(util * hop.rateBps / 8 * dtNs * 1e-9);
        hop.qlenBytes = q;
        ++seq;
        return cc.OnAck(seq, seq + sndNxtAhead, &hop, 1);
    }
};

TEST(HpccCore, PaperParametersAndInitialWindow)
{
    HpccConfig cfg;
    EXPECT_DOUBLE_EQ(cfg.eta, 0.95);
    EXPECT_EQ(cfg.maxStage, 5u);
    HpccCore<> cc;
    ASSERT_TRUE(cc.Configure(cfg));
    EXPECT_DOUBLE_EQ(cc.GetWinit(), 100e9 / 8 * 10e-6); // B x T = 125 KB
    EXPECT_NEAR(cc.GetWai(), cc.GetWinit() * 0.05 / 100, 1e-9);
    EXPECT_DOUBLE_EQ(cc.GetWindow(), cc.GetWinit());
}

TEST(HpccCore, WindowShrinksWhenUAboveEta)
{
    HpccDriver d;
    d.hop.rateBps = 100e9;
    ASSERT_TRUE(d.cc.Configure(HpccConfig{}));
    d.Step(0, 0, 0); // first ACK: records only
    const double w0 = d.cc.GetWindow();
    // full link plus a standing queue of half a BDP: U -> 1.5 > eta
    double prev = w0;
    for (int i = 0; i < 10; ++i)
    {
        const double w = d.Step(10 * kUs, 1.0, 62'500);
        EXPECT_LT(w, prev) << "step " << i;
        prev = w;
    }
    EXPECT_GT(d.cc.GetU(), 0.95);
    // after one full-T sample, U = 1.5: W = Wc * eta / U + W_AI
    HpccDriver e;
    e.hop.rateBps = 100e9;
    e.cc.Configure(HpccConfig{});
    e.Step(0, 0, 62'500); // records with the standing queue
    const double wc = e.cc.GetWc();
    const double w = e.Step(10 * kUs, 1.0, 62'500);
    EXPECT_NEAR(e.cc.GetU(), 1.5, 1e-6);
    EXPECT_NEAR(w, wc * 0.95 / 1.5 + e.cc.GetWai(), 1e-3);
}

TEST(HpccCore, AdditiveIncreaseBelowEtaThenMultiplicativeAfterMaxStage)
{
    HpccDriver d;
    d.hop.rateBps = 100e9;
    HpccConfig cfg;
    cfg.expectedFlows = 10;
    ASSERT_TRUE(d.cc.Configure(cfg));
    d.Step(0, 0, 0);
    // start from a small window: a few congested samples first
    for (int i = 0; i < 5; ++i)
    {
        d.Step(10 * kUs, 1.0, 200'000);
    }
    const double wai = d.cc.GetWai();
    // now the link is half used and the queue empty: U -> 0.5 < eta
    double wc = d.cc.GetWc();
    d.Step(10 * kUs, 0.5, 0); // U = 0.5 after a full-T sample
    for (uint32_t s = 1; s < 5; ++s)
    {
        EXPECT_EQ(d.cc.GetIncStage(), s);
        EXPECT_NEAR(d.cc.GetWc(), wc + s * wai, 1e-6) << "stage " << s;
        d.Step(10 * kUs, 0.5, 0);
    }
    EXPECT_EQ(d.cc.GetIncStage(), 5u);
    wc = d.cc.GetWc();
    // incStage == maxStage: multiplicative step towards eta (grows, U < eta)
    const double w = d.Step(10 * kUs, 0.5, 0);
    EXPECT_EQ(d.cc.GetIncStage(), 0u);
    EXPECT_NEAR(w, std::min(d.cc.GetWinit(), wc * 0.95 / 0.5 + wai), 1e-3);
    EXPECT_GT(w, wc);
}

TEST(HpccCore, MaxStageZeroIsPureMultiplicative)
{
    HpccDriver d;
    d.hop.rateBps = 100e9;
    HpccConfig cfg;
    cfg.maxStage = 0; // the HPCC authors' simulation setting
    ASSERT_TRUE(d.cc.Configure(cfg));
    d.Step(0, 0, 0);
    d.Step(10 * kUs, 1.0, 100'000); // U = 1.8: shrink
    const double wc = d.cc.GetWc();
    const double w = d.Step(10 * kUs, 0.4, 0); // U = 0.4 < eta: jump, not +W_AI
    EXPECT_NEAR(w, std::min(d.cc.GetWinit(), wc * 0.95 / 0.4 + d.cc.GetWai()), 1e-3);
    EXPECT_GT(w, wc + 10 * d.cc.GetWai());
}

TEST(HpccCore, WcUpdatedOncePerRtt)
{
    HpccDriver d;
    d.hop.rateBps = 100e9;
    ASSERT_TRUE(d.cc.Configure(HpccConfig{}));
    d.Step(0, 0, 0, 1000);               // lastUpdateSeq stays 0 (first ACK only stores)
    d.Step(10 * kUs, 1.0, 62'500, 1000); // updates Wc, lastUpdateSeq = seq + 1000
    const double wc = d.cc.GetWc();
    for (int i = 0; i < 20; ++i)
    {
        d.Step(1 * kUs, 1.0, 62'500, 1000); // ACKs within the same RTT
        EXPECT_DOUBLE_EQ(d.cc.GetWc(), wc);
    }
}

} // namespace
