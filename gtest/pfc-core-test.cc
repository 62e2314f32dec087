/*
 * GoogleTest tests of the PFC ingress accounting and 802.1Qbb arithmetic
 * (model/fabric/core/pfc-core.h).
 */
#include "ns3/pfc-core.h"

#include <gtest/gtest.h>

using namespace ns3::fabcore;

namespace
{

PfcConfig
StaticCfg()
{
    PfcConfig c;
    c.bufferBytes = 1'000'000;
    c.numPorts = 2;
    c.numPriorities = 8;
    c.losslessMask = 0x08; // priority 3 lossless, the others lossy
    c.dynamicThreshold = false;
    c.staticXoffBytes = 10'000;
    c.xonOffsetBytes = 3'000;
    c.headroomBytes = 5'000;
    return c;
}

TEST(PfcCore, StaticXoffAtThresholdXonAfterHysteresis)
{
    PfcIngressCore pfc;
    ASSERT_TRUE(pfc.Configure(StaticCfg()));
    for (int i = 1; i <= 9; ++i)
    {
        PfcAdmit a = pfc.OnEnqueue(0, 3, 1000);
        EXPECT_TRUE(a.admitted);
        EXPECT_EQ(a.signal, PfcSignal::NONE) << "packet " << i;
    }
    PfcAdmit a = pfc.OnEnqueue(0, 3, 1000); // shared reaches 10 000
    EXPECT_TRUE(a.admitted);
    EXPECT_EQ(a.signal, PfcSignal::XOFF);
    EXPECT_TRUE(pfc.IsPaused(0, 3));
    EXPECT_FALSE(pfc.IsPaused(1, 3)); // per ingress port
    // in-flight packets land in the headroom: 5 fit, the 6th is a headroom drop
    for (int i = 0; i < 5; ++i)
    {
        a = pfc.OnEnqueue(0, 3, 1000);
        EXPECT_TRUE(a.admitted);
        EXPECT_EQ(a.signal, PfcSignal::NONE);
    }
    EXPECT_EQ(pfc.GetHeadroomUsed(0, 3), 5000u);
    EXPECT_FALSE(pfc.OnEnqueue(0, 3, 1000).admitted);
    EXPECT_EQ(pfc.GetHeadroomDrops(), 1u);
    EXPECT_EQ(pfc.GetBytes(0, 3), 15'000u);
    // drain: headroom first (no XON while it holds bytes), then shared down to 7000
    for (int i = 0; i < 5; ++i)
    {
        EXPECT_EQ(pfc.OnDequeue(0, 3, 1000), PfcSignal::NONE);
    }
    EXPECT_EQ(pfc.GetHeadroomUsed(0, 3), 0u);
    EXPECT_EQ(pfc.OnDequeue(0, 3, 1000), PfcSignal::NONE); // 9000
    EXPECT_EQ(pfc.OnDequeue(0, 3, 1000), PfcSignal::NONE); // 8000
    EXPECT_EQ(pfc.OnDequeue(0, 3, 1000), PfcSignal::XON);  // 7000 = 10000 - 3000
    EXPECT_FALSE(pfc.IsPaused(0, 3));
    // hysteresis: refilling to 9000 does not pause again, 10 000 does
    EXPECT_EQ(pfc.OnEnqueue(0, 3, 1000).signal, PfcSignal::NONE);
    EXPECT_EQ(pfc.OnEnqueue(0, 3, 1000).signal, PfcSignal::NONE);
    EXPECT_EQ(pfc.OnEnqueue(0, 3, 1000).signal, PfcSignal::XOFF);
    EXPECT_EQ(pfc.GetPauseCount(0, 3), 2u);
}

TEST(PfcCore, LossyPriorityDropsInsteadOfPausing)
{
    PfcIngressCore pfc;
    ASSERT_TRUE(pfc.Configure(StaticCfg()));
    int admitted = 0;
    for (int i = 0; i < 20; ++i)
    {
        PfcAdmit a = pfc.OnEnqueue(1, 0, 1000);
        EXPECT_EQ(a.signal, PfcSignal::NONE);
        admitted += a.admitted ? 1 : 0;
    }
    EXPECT_EQ(admitted, 10);
    EXPECT_EQ(pfc.GetDrops(), 10u);
    EXPECT_EQ(pfc.GetHeadroomDrops(), 0u);
    // PFC off entirely: the lossless class behaves the same way
    PfcConfig c = StaticCfg();
    c.pfcEnabled = false;
    PfcIngressCore off;
    ASSERT_TRUE(off.Configure(c));
    admitted = 0;
    for (int i = 0; i < 20; ++i)
    {
        PfcAdmit a = off.OnEnqueue(0, 3, 1000);
        EXPECT_EQ(a.signal, PfcSignal::NONE);
        admitted += a.admitted ? 1 : 0;
    }
    EXPECT_EQ(admitted, 10);
}

TEST(PfcCore, DynamicThresholdFollowsFreeSharedBuffer)
{
    PfcConfig c;
    c.numPorts = 2;
    c.numPriorities = 1;
    c.losslessMask = 0x01;
    c.alpha = 1.0;
    c.headroomBytes = 10'000;
    c.xonOffsetBytes = 0;
    c.bufferBytes = 100'000 + 2 * 10'000; // shared pool 100 000
    PfcIngressCore pfc;
    ASSERT_TRUE(pfc.Configure(c));
    EXPECT_EQ(pfc.GetSharedPool(), 100'000u);
    EXPECT_EQ(pfc.Threshold(), 100'000u);
    // alone, a queue pauses when q >= alpha (P - q): q = P / 2
    int n = 0;
    PfcAdmit a;
    do
    {
        a = pfc.OnEnqueue(0, 0, 1000);
        ++n;
    } while (a.signal == PfcSignal::NONE && n < 200);
    EXPECT_EQ(n, 50);
    EXPECT_EQ(pfc.Threshold(), 50'000u);
    // a second queue now pauses at q2 >= P - 50 000 - q2, i.e. 25 000
    n = 0;
    do
    {
        a = pfc.OnEnqueue(1, 0, 1000);
        ++n;
    } while (a.signal == PfcSignal::NONE && n < 200);
    EXPECT_EQ(n, 25);
    // when port 1 drains, the threshold rises and port 0 is resumed
    for (int i = 0; i < 25; ++i)
    {
        pfc.OnDequeue(1, 0, 1000);
    }
    EXPECT_TRUE(pfc.IsPaused(0, 0));
    EXPECT_EQ(pfc.OnDequeue(0, 0, 1000), PfcSignal::XON); // 49 000 <= P - 49 000
}

TEST(PfcCore, EmptiedQueueResumesEvenBelowTheXonOffset)
{
    // a threshold below the XON offset: shared + offset <= threshold never holds, so only
    // "the queue is empty" can resume it (before: paused for good, no byte left to leave)
    PfcConfig c = StaticCfg();
    c.staticXoffBytes = 2'000;
    c.xonOffsetBytes = 3'000;
    PfcIngressCore pfc;
    ASSERT_TRUE(pfc.Configure(c));
    EXPECT_EQ(pfc.OnEnqueue(0, 3, 1000).signal, PfcSignal::NONE);
    EXPECT_EQ(pfc.OnEnqueue(0, 3, 1000).signal, PfcSignal::XOFF);
    EXPECT_TRUE(pfc.OnEnqueue(0, 3, 1000).admitted);       // headroom
    EXPECT_EQ(pfc.OnDequeue(0, 3, 1000), PfcSignal::NONE); // headroom empty, shared 2000
    EXPECT_EQ(pfc.OnDequeue(0, 3, 1000), PfcSignal::NONE); // shared 1000
    EXPECT_EQ(pfc.OnDequeue(0, 3, 1000), PfcSignal::XON);  // shared 0
    EXPECT_FALSE(pfc.IsPaused(0, 3));
    // the same with a dynamic threshold on a small pool: alpha 1/8 of 16 000 is 2 000
    PfcConfig d;
    d.numPorts = 2;
    d.numPriorities = 1;
    d.losslessMask = 0x01;
    d.alpha = 0.125;
    d.headroomBytes = 10'000;
    d.xonOffsetBytes = 3'000;
    d.bufferBytes = 16'000 + 2 * 10'000;
    ASSERT_TRUE(pfc.Configure(d));
    EXPECT_EQ(pfc.OnEnqueue(0, 0, 1000).signal, PfcSignal::NONE);
    EXPECT_EQ(pfc.OnEnqueue(0, 0, 1000).signal, PfcSignal::XOFF); // 2000 >= 14 000 / 8
    EXPECT_EQ(pfc.OnDequeue(0, 0, 1000), PfcSignal::NONE);
    EXPECT_EQ(pfc.OnDequeue(0, 0, 1000), PfcSignal::XON); // empty; threshold 2000 < 3000
    EXPECT_FALSE(pfc.IsPaused(0, 0));
}

TEST(PfcCore, PauseQuantaArithmetic)
{
    // 512 bit times: 5.12 ns at 100 Gb/s, 51.2 ns at 10 Gb/s
    EXPECT_EQ(PauseQuantaToNs(1, 100e9), 6); // 5.12 rounded up
    EXPECT_EQ(PauseQuantaToNs(100, 100e9), 512);
    EXPECT_EQ(PauseQuantaToNs(0xFFFF, 100e9), 335'540); // 335 539.2 up
    EXPECT_EQ(PauseQuantaToNs(1000, 10e9), 51'200);
    EXPECT_EQ(PauseNsToQuanta(1000, 100e9), 196); // 195.3125 up
    EXPECT_EQ(PauseNsToQuanta(512, 100e9), 100);
    EXPECT_EQ(PauseNsToQuanta(10'000'000, 100e9), 0xFFFF); // saturates
    EXPECT_EQ(PauseNsToQuanta(0, 100e9), 0);
    // round trip never shortens the requested pause
    for (int64_t ns : {1, 7, 333, 4096, 100'000})
    {
        EXPECT_GE(PauseQuantaToNs(PauseNsToQuanta(ns, 25e9), 25e9), ns);
    }
}

TEST(PfcCore, FrameBytesAndHeadroomFormula)
{
    PfcFrame f;
    f.classEnable = 0x09; // priorities 0 and 3
    f.quanta[0] = 0xFFFF;
    f.quanta[3] = 0x1234;
    uint8_t b[PfcFrame::kSize];
    f.Serialize(b);
    EXPECT_EQ(b[0], 0x01);
    EXPECT_EQ(b[1], 0x01);
    EXPECT_EQ(b[2], 0x00);
    EXPECT_EQ(b[3], 0x09);
    EXPECT_EQ(b[4], 0xFF);
    EXPECT_EQ(b[5], 0xFF);
    EXPECT_EQ(b[10], 0x12);
    EXPECT_EQ(b[11], 0x34);
    PfcFrame g;
    ASSERT_TRUE(g.Deserialize(b));
    EXPECT_EQ(g.classEnable, 0x09);
    EXPECT_EQ(g.quanta[3], 0x1234);
    EXPECT_EQ(g.quanta[1], 0);
    b[1] = 0x02; // not a PFC opcode
    EXPECT_FALSE(g.Deserialize(b));
    // 100 Gb/s, 1 us cable, 1500 B MTU, 1 us response: 25 000 + 12 500 + 3 000
    EXPECT_EQ(PfcHeadroomBytes(100e9, 1000, 1500, 1000), 40'500u);
    PfcIngressCore pfc;
    PfcConfig c;
    ASSERT_TRUE(pfc.Configure(c)); // 32 MB default, headroom from the formula
    EXPECT_EQ(pfc.GetConfig().headroomBytes, 40'500u);
    EXPECT_EQ(pfc.GetSharedPool(), (32ull << 20) - 8 * 40'500u);
}

TEST(PfcCore, RefusesBufferSmallerThanHeadroom)
{
    PfcConfig c;
    c.numPorts = 64;
    c.bufferBytes = 1'000'000; // 64 ports x 8 classes x 40 500 B headroom > 1 MB
    PfcIngressCore pfc;
    EXPECT_FALSE(pfc.Configure(c));
}

} // namespace
