/*
 * GoogleTest tests of the Presto* receiver reorder buffer core
 * (model/lb/core/reorder-core.h).
 */
#include "ns3/reorder-core.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3::lbcore;

namespace
{
struct Sink
{
    std::vector<int> out;

    void operator()(int&& v)
    {
        out.push_back(v);
    }
};
} // namespace

TEST(ReorderBuffer, InOrderSegmentsPassStraightThrough)
{
    ReorderBuffer<int> rb(8);
    Sink s;
    for (int i = 0; i < 5; ++i)
    {
        EXPECT_EQ(rb.Offer(1000 + 100 * i, 100, i, s), ReorderBuffer<int>::DELIVERED);
    }
    EXPECT_EQ(s.out, (std::vector<int>{0, 1, 2, 3, 4}));
    EXPECT_TRUE(rb.Empty());
    EXPECT_EQ(rb.Next(), 1500u);
}

TEST(ReorderBuffer, GapIsHeldUntilFilledThenReleasedInOrder)
{
    ReorderBuffer<int> rb(8);
    Sink s;
    rb.Offer(0, 100, 0, s);
    EXPECT_EQ(rb.Offer(300, 100, 3, s), ReorderBuffer<int>::HELD);
    EXPECT_EQ(rb.Offer(200, 100, 2, s), ReorderBuffer<int>::HELD);
    EXPECT_EQ(s.out, (std::vector<int>{0}));
    EXPECT_EQ(rb.Held(), 2u);
    // the missing segment arrives: it and both held ones go up, in sequence order
    EXPECT_EQ(rb.Offer(100, 100, 1, s), ReorderBuffer<int>::DELIVERED);
    EXPECT_EQ(s.out, (std::vector<int>{0, 1, 2, 3}));
    EXPECT_TRUE(rb.Empty());
    EXPECT_EQ(rb.Next(), 400u);
}

TEST(ReorderBuffer, RetransmissionBelowExpectedPassesAtOnce)
{
    ReorderBuffer<int> rb(8);
    Sink s;
    rb.Offer(0, 100, 0, s);
    rb.Offer(100, 100, 1, s);
    EXPECT_EQ(rb.Offer(0, 100, 9, s), ReorderBuffer<int>::PASSED_OLD);
    EXPECT_EQ(s.out, (std::vector<int>{0, 1, 9}));
    EXPECT_EQ(rb.Next(), 200u);
}

TEST(ReorderBuffer, FlushOnTimeoutTurnsTheGapIntoALoss)
{
    ReorderBuffer<int> rb(8);
    Sink s;
    rb.Offer(0, 100, 0, s);
    rb.Offer(200, 100, 2, s); // 100..200 lost
    rb.Offer(300, 100, 3, s);
    rb.Flush(s);
    EXPECT_EQ(s.out, (std::vector<int>{0, 2, 3}));
    EXPECT_EQ(rb.Next(), 400u);
    // the retransmission of the lost segment comes later: below expected, passes
    EXPECT_EQ(rb.Offer(100, 100, 1, s), ReorderBuffer<int>::PASSED_OLD);
    // new data continues in order
    EXPECT_EQ(rb.Offer(400, 100, 4, s), ReorderBuffer<int>::DELIVERED);
    EXPECT_EQ(s.out, (std::vector<int>{0, 2, 3, 1, 4}));
}

TEST(ReorderBuffer, FullBufferFlushesEverything)
{
    ReorderBuffer<int> rb(2);
    Sink s;
    rb.Offer(0, 10, 0, s);
    EXPECT_EQ(rb.Offer(30, 10, 3, s), ReorderBuffer<int>::HELD);
    EXPECT_EQ(rb.Offer(20, 10, 2, s), ReorderBuffer<int>::HELD);
    EXPECT_EQ(rb.Offer(40, 10, 4, s), ReorderBuffer<int>::OVERFLOW);
    EXPECT_EQ(s.out, (std::vector<int>{0, 2, 3, 4}));
    EXPECT_TRUE(rb.Empty());
    EXPECT_EQ(rb.Next(), 50u);
}

TEST(ReorderBuffer, SequenceWrapAround)
{
    ReorderBuffer<int> rb(8);
    Sink s;
    const uint32_t base = 0xFFFFFF00u;
    rb.Offer(base, 0x80, 0, s);
    EXPECT_EQ(rb.Offer(base + 0x100, 0x80, 2, s), ReorderBuffer<int>::HELD); // wraps to 0
    EXPECT_EQ(rb.Offer(base + 0x80, 0x80, 1, s), ReorderBuffer<int>::DELIVERED);
    EXPECT_EQ(s.out, (std::vector<int>{0, 1, 2}));
    EXPECT_EQ(rb.Next(), 0x80u);
}

TEST(ReorderBuffer, OverlappingHeldSegmentIsReleasedNotLost)
{
    ReorderBuffer<int> rb(8);
    Sink s;
    rb.Offer(0, 100, 0, s);
    rb.Offer(150, 100, 2, s); // held, overlaps what the next segment covers
    rb.Offer(100, 100, 1, s); // covers 100..200: releases 150..250 too
    EXPECT_EQ(s.out, (std::vector<int>{0, 1, 2}));
    EXPECT_EQ(rb.Next(), 250u);
}

TEST(ReorderBuffer, OverlappingRetransmissionEndingPastExpectedFillsTheGap)
{
    // [0,100) delivered, [200,300) held; a retransmission [50,250) crosses the original
    // boundaries: it covers the gap, so the held segment goes up at once (it waited for
    // the buffer's timeout before 2026-11-30)
    ReorderBuffer<int> rb(8);
    Sink s;
    rb.Offer(0, 100, 0, s);
    EXPECT_EQ(rb.Offer(200, 100, 2, s), ReorderBuffer<int>::HELD);
    EXPECT_EQ(rb.Offer(50, 200, 1, s), ReorderBuffer<int>::PASSED_OLD);
    EXPECT_EQ(s.out, (std::vector<int>{0, 1, 2}));
    EXPECT_TRUE(rb.Empty());
    EXPECT_EQ(rb.Next(), 300u);
    // one that ends below the expected sequence changes nothing
    EXPECT_EQ(rb.Offer(100, 100, 7, s), ReorderBuffer<int>::PASSED_OLD);
    EXPECT_EQ(rb.Next(), 300u);
}
