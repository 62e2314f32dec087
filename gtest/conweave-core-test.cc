/*
 * GoogleTest tests of the ConWeave cores (model/lb/core/conweave-core.h):
 * source-ToR state machine (RTT_REQUEST, timely RTT_REPLY, reply timeout ->
 * TAIL + REROUTED on a new path, CLEAR, inactivity, NOTIFY / busy paths,
 * epochs) and destination-ToR reordering (hold REROUTED packets until the
 * TAIL or the resume deadline, release in order).  Random draws are scripted.
 */
#include "ns3/conweave-core.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3::lbcore;

namespace
{
constexpr int64_t kUs = 1000;
constexpr int64_t kRtt = 10 * kUs;

/** Scripted draw: returns the queued values in order (modulo n). */
struct Script
{
    std::vector<uint32_t> v;
    size_t i{0};

    uint32_t operator()(uint32_t n)
    {
        const uint32_t x = v.empty() ? 0 : v[i++ % v.size()];
        return x % n;
    }
};

ConWeaveConfig
Cfg(uint16_t paths = 4)
{
    ConWeaveConfig c;
    c.numPaths = paths;
    c.numDst = 2;
    c.tableSize = 64;
    c.numVoqs = 2;
    c.voqCapacity = 4;
    return c;
}

ConWeaveTag
Tag(CwFlag f, bool rerouted, uint8_t epoch, uint8_t path = 0)
{
    ConWeaveTag t;
    t.flag = f;
    t.rerouted = rerouted;
    t.epoch = epoch;
    t.path = path;
    return t;
}
} // namespace

TEST(ConWeaveTag, PacksIntoSixteenBits)
{
    ConWeaveTag t = Tag(CwFlag::TAIL, true, 200, 13);
    const uint16_t id = t.Pack();
    EXPECT_TRUE(ConWeaveTag::IsTagged(id));
    EXPECT_FALSE(ConWeaveTag::IsTagged(0));
    ConWeaveTag u = ConWeaveTag::Unpack(id);
    EXPECT_EQ(u.flag, CwFlag::TAIL);
    EXPECT_TRUE(u.rerouted);
    EXPECT_EQ(u.epoch, 200);
    EXPECT_EQ(u.path, 13);
    EXPECT_GT(EpochDiff(0, 255), 0) << "epochs wrap (serial arithmetic)";
    EXPECT_LT(EpochDiff(255, 0), 0);
}

TEST(ConWeaveTx, FirstPacketIsRttRequestAndTimelyReplyOpensNextEpoch)
{
    ConWeaveTxCore tx;
    tx.Configure(Cfg());
    Script s{{2, 3}};
    CwTxDecision d = tx.OnData(7, 1, 0, kRtt, s);
    EXPECT_EQ(d.tag.flag, CwFlag::RTT_REQUEST);
    EXPECT_EQ(d.tag.epoch, 1);
    EXPECT_EQ(d.tag.path, 2) << "first sample, not busy";
    EXPECT_FALSE(d.tag.rerouted);
    d = tx.OnData(7, 1, 1 * kUs, kRtt, s);
    EXPECT_EQ(d.tag.flag, CwFlag::DATA);
    EXPECT_EQ(d.tag.epoch, 1);
    // RTT_REPLY in time (deadline = 0 + 10 + 4 us)
    EXPECT_TRUE(tx.OnReply(7, 1, false, 12 * kUs));
    d = tx.OnData(7, 1, 13 * kUs, kRtt, s);
    EXPECT_EQ(d.tag.flag, CwFlag::RTT_REQUEST) << "stabilised: a new epoch asks again";
    EXPECT_EQ(d.tag.epoch, 2);
    EXPECT_EQ(d.tag.path, 2) << "same path";
    EXPECT_EQ(tx.GetReroutes(), 0u);
    EXPECT_FALSE(tx.OnReply(7, 1, false, 14 * kUs)) << "reply of an old epoch is ignored";
}

TEST(ConWeaveTx, ReplyTimeoutMarksTailAndReroutes)
{
    ConWeaveTxCore tx;
    tx.Configure(Cfg());
    Script s{{1, 1, 0, 0}};
    tx.OnData(9, 0, 0, kRtt, s); // epoch 1 on path 1
    CwTxDecision d = tx.OnData(9, 0, 13 * kUs, kRtt, s);
    EXPECT_EQ(d.tag.flag, CwFlag::DATA) << "13 us < theta_reply 14 us";
    d = tx.OnData(9, 0, 15 * kUs, kRtt, s);
    EXPECT_EQ(d.tag.flag, CwFlag::TAIL) << "no reply within theta_reply";
    EXPECT_EQ(d.tag.path, 1) << "the TAIL leaves on the old path";
    EXPECT_FALSE(d.tag.rerouted);
    EXPECT_TRUE(d.replyTimeout);
    EXPECT_TRUE(d.rerouted);
    EXPECT_EQ(tx.Find(9)->path, 0) << "new path (samples exclude the current one)";
    d = tx.OnData(9, 0, 16 * kUs, kRtt, s);
    EXPECT_EQ(d.tag.flag, CwFlag::DATA);
    EXPECT_TRUE(d.tag.rerouted) << "packets after the TAIL are REROUTED";
    EXPECT_EQ(d.tag.path, 0);
    EXPECT_EQ(d.tag.epoch, 1) << "same epoch";
    d = tx.OnData(9, 0, 100 * kUs, kRtt, s);
    EXPECT_EQ(d.tag.flag, CwFlag::DATA) << "one timeout per epoch";
    EXPECT_FALSE(tx.OnReply(9, 1, false, 101 * kUs)) << "late RTT_REPLY ignored";
    EXPECT_TRUE(tx.OnReply(9, 1, true, 102 * kUs)) << "CLEAR answers the TAIL";
    d = tx.OnData(9, 0, 103 * kUs, kRtt, s);
    EXPECT_EQ(d.tag.flag, CwFlag::RTT_REQUEST);
    EXPECT_EQ(d.tag.epoch, 2);
    EXPECT_FALSE(d.tag.rerouted);
    EXPECT_EQ(d.tag.path, 0);
    EXPECT_EQ(tx.GetReroutes(), 1u);
    EXPECT_EQ(tx.GetReplyTimeouts(), 1u);
}

TEST(ConWeaveTx, InactivityOpensEpochOnFreshPath)
{
    ConWeaveTxCore tx;
    tx.Configure(Cfg());
    Script s{{3, 3, 1, 1}};
    tx.OnData(5, 0, 0, kRtt, s);
    EXPECT_EQ(tx.Find(5)->path, 3);
    CwTxDecision d = tx.OnData(5, 0, 301 * kUs, kRtt, s); // > theta_inactive 300 us
    EXPECT_EQ(d.tag.flag, CwFlag::RTT_REQUEST);
    EXPECT_EQ(d.tag.epoch, 2);
    EXPECT_EQ(d.tag.path, 1) << "the new epoch may take a new path";
    EXPECT_TRUE(d.newEpoch);
}

TEST(ConWeaveTx, NotifyMakesPathBusyForPathPauseTime)
{
    ConWeaveTxCore tx;
    tx.Configure(Cfg());
    tx.OnNotify(1, 2, 0);
    EXPECT_TRUE(tx.IsBusy(1, 2, 15 * kUs));
    EXPECT_FALSE(tx.IsBusy(0, 2, 15 * kUs)) << "per destination ToR";
    EXPECT_FALSE(tx.IsBusy(1, 2, 16 * kUs)) << "theta_path_busy = 16 us";
    Script s{{2, 3}};
    CwTxDecision d = tx.OnData(11, 1, 1 * kUs, kRtt, s);
    EXPECT_EQ(d.tag.path, 3) << "the busy first sample is skipped";
}

TEST(ConWeaveTx, AllowedMaskKeepsPathsAmongTheDestinationsNextHops)
{
    // the AnyTopology generalisation passes the destination's minimal next hops
    ConWeaveTxCore tx;
    tx.Configure(Cfg());
    Script s{{0, 1, 2, 3}};
    for (uint64_t f = 1; f <= 32; ++f)
    {
        tx.OnData(f, 0, 0, kRtt, s, 0b1010u);
        EXPECT_TRUE(tx.Find(f)->path == 1 || tx.Find(f)->path == 3) << int(tx.Find(f)->path);
    }
    // a reply timeout moves the flow to the other allowed path, never to 0 or 2
    Script one{{0}};
    tx.OnData(99, 0, 0, kRtt, one, 0b1010u);
    EXPECT_EQ(tx.Find(99)->path, 1);
    CwTxDecision d = tx.OnData(99, 0, 15 * kUs, kRtt, one, 0b1010u);
    EXPECT_TRUE(d.replyTimeout);
    EXPECT_TRUE(d.rerouted);
    EXPECT_EQ(tx.Find(99)->path, 3);
    // a single allowed path: the timeout keeps it (key 45: a free slot; 77 would collide
    // with the live flow 13 and go untracked)
    tx.OnData(45, 0, 0, kRtt, one, 0b0100u);
    EXPECT_EQ(tx.Find(45)->path, 2);
    d = tx.OnData(45, 0, 15 * kUs, kRtt, one, 0b0100u);
    EXPECT_TRUE(d.replyTimeout);
    EXPECT_FALSE(d.rerouted);
    EXPECT_EQ(tx.Find(45)->path, 2);
    // a busy first sample among the allowed is skipped
    tx.OnNotify(1, 1, 20 * kUs);
    Script two{{0, 1}};
    d = tx.OnData(55, 1, 21 * kUs, kRtt, two, 0b1010u);
    EXPECT_EQ(d.tag.path, 3);
}

TEST(ConWeaveRx, HoldsReroutedUntilTailThenReleasesInOrder)
{
    ConWeaveRxCore<int> rx;
    rx.Configure(Cfg());
    CwRxDecision d = rx.OnData(4, Tag(CwFlag::RTT_REQUEST, false, 1), 0);
    EXPECT_FALSE(d.hold);
    EXPECT_TRUE(d.reply);
    EXPECT_FALSE(d.clear);
    d = rx.OnData(4, Tag(CwFlag::DATA, false, 1), 1 * kUs);
    EXPECT_FALSE(d.hold);
    // two REROUTED packets overtake the TAIL
    d = rx.OnData(4, Tag(CwFlag::DATA, true, 1), 2 * kUs);
    ASSERT_TRUE(d.hold);
    EXPECT_TRUE(d.setDeadline);
    EXPECT_EQ(d.deadlineNs, 2 * kUs + 216 * kUs) << "theta_resume 200 us + 16 us";
    EXPECT_TRUE(rx.Hold(d.voq, 10));
    d = rx.OnData(4, Tag(CwFlag::DATA, true, 1), 3 * kUs);
    ASSERT_TRUE(d.hold);
    EXPECT_FALSE(d.setDeadline);
    EXPECT_TRUE(rx.Hold(d.voq, 11));
    EXPECT_EQ(rx.GetVoqsInUse(), 1u);
    // an old-path packet extends the deadline only if it would end earlier
    d = rx.OnData(4, Tag(CwFlag::DATA, false, 1), 4 * kUs);
    EXPECT_FALSE(d.hold);
    EXPECT_FALSE(d.setDeadline);
    // the TAIL: forwarded, then the VOQ releases in order
    d = rx.OnData(4, Tag(CwFlag::TAIL, false, 1), 5 * kUs);
    EXPECT_FALSE(d.hold);
    EXPECT_TRUE(d.reply);
    EXPECT_TRUE(d.clear);
    ASSERT_TRUE(d.releaseAfter);
    std::vector<int> out;
    EXPECT_EQ(rx.Release(d.voq, false, [&out](int& x) { out.push_back(x); }), 2u);
    EXPECT_EQ(out, (std::vector<int>{10, 11}));
    EXPECT_EQ(rx.GetVoqsInUse(), 0u);
    EXPECT_EQ(rx.GetReleasedByTail(), 1u);
    d = rx.OnData(4, Tag(CwFlag::DATA, true, 1), 6 * kUs);
    EXPECT_FALSE(d.hold) << "after the TAIL, REROUTED packets are in order";
}

TEST(ConWeaveRx, ReleasesOnResumeTimeoutWhenTailIsLost)
{
    ConWeaveRxCore<int> rx;
    rx.Configure(Cfg());
    rx.OnData(8, Tag(CwFlag::RTT_REQUEST, false, 1), 0);
    CwRxDecision d = rx.OnData(8, Tag(CwFlag::DATA, true, 1), 1 * kUs);
    ASSERT_TRUE(d.hold);
    rx.Hold(d.voq, 1);
    EXPECT_EQ(rx.GetDeadline(d.voq), 217 * kUs);
    std::vector<int> out;
    // the timer fires (the wrapper schedules it at GetDeadline)
    rx.Release(d.voq, true, [&out](int& x) { out.push_back(x); });
    EXPECT_EQ(out, (std::vector<int>{1}));
    EXPECT_EQ(rx.GetReleasedByTimeout(), 1u);
    d = rx.OnData(8, Tag(CwFlag::DATA, true, 1), 300 * kUs);
    EXPECT_FALSE(d.hold) << "after a timeout release the epoch counts as resumed";
    d = rx.OnData(8, Tag(CwFlag::TAIL, false, 1), 301 * kUs);
    EXPECT_FALSE(d.releaseAfter) << "a late TAIL finds nothing held";
    EXPECT_TRUE(d.clear);
}

TEST(ConWeaveRx, OldEpochPassesAndNewEpochResets)
{
    ConWeaveRxCore<int> rx;
    rx.Configure(Cfg());
    rx.OnData(3, Tag(CwFlag::RTT_REQUEST, false, 5), 0);
    CwRxDecision d = rx.OnData(3, Tag(CwFlag::RTT_REQUEST, false, 6), 1 * kUs);
    EXPECT_TRUE(d.reply);
    d = rx.OnData(3, Tag(CwFlag::DATA, true, 5), 2 * kUs);
    EXPECT_TRUE(d.stale);
    EXPECT_FALSE(d.hold);
    // a REROUTED packet of a newer epoch whose TAIL is still out: held
    d = rx.OnData(3, Tag(CwFlag::DATA, true, 7), 3 * kUs);
    EXPECT_TRUE(d.hold);
}

TEST(ConWeaveRx, BoundedQueuesCountDropsAndExhaustion)
{
    ConWeaveRxCore<int> rx;
    rx.Configure(Cfg()); // 2 VOQs x 4 packets
    for (uint64_t f = 1; f <= 3; ++f)
    {
        rx.OnData(f, Tag(CwFlag::RTT_REQUEST, false, 1), 0);
        CwRxDecision d = rx.OnData(f, Tag(CwFlag::DATA, true, 1), 1);
        if (f <= 2)
        {
            ASSERT_TRUE(d.hold);
            for (int i = 0; i < 5; ++i)
            {
                EXPECT_EQ(rx.Hold(d.voq, i), i < 4) << "capacity 4";
            }
        }
        else
        {
            EXPECT_FALSE(d.hold);
            EXPECT_TRUE(d.noVoq) << "no VOQ left: the packet passes";
        }
    }
    EXPECT_EQ(rx.GetHoldDrops(), 2u);
    EXPECT_EQ(rx.GetNoVoq(), 1u);
    EXPECT_EQ(rx.GetMaxDepth(), 4u);
}

// Review B4: fixed tables must not let live flows evict each other.
TEST(ConWeaveTx, LiveFlowKeepsItsSlotCollidingFlowGoesUntracked)
{
    ConWeaveConfig c = Cfg();
    c.tableSize = 1; // every flow collides
    ConWeaveTxCore tx;
    tx.Configure(c);
    Script s{{0, 1, 2, 3}};
    CwTxDecision d = tx.OnData(1, 0, 0, kRtt, s);
    EXPECT_TRUE(d.newEpoch);
    EXPECT_FALSE(d.untracked);
    const uint8_t path1 = tx.Find(1)->path;
    int64_t t = 0;
    uint32_t untracked = 0;
    for (int i = 0; i < 100; ++i)
    {
        t += kUs; // both flows live: alternate packets
        d = tx.OnData(2, 0, t, kRtt, s);
        untracked += d.untracked ? 1 : 0;
        EXPECT_EQ(d.tag.flag, CwFlag::DATA);
        d = tx.OnData(1, 0, t, kRtt, s);
        EXPECT_FALSE(d.untracked);
        EXPECT_FALSE(d.newEpoch && d.tag.epoch == 1) << "flow 1 is never reset to epoch 1";
    }
    EXPECT_EQ(untracked, 100u);
    EXPECT_EQ(tx.GetTableConflicts(), 100u);
    ASSERT_NE(tx.Find(1), nullptr);
    EXPECT_EQ(tx.Find(2), nullptr);
    EXPECT_LE(tx.Find(1)->epoch, 2); // a stabilised flow may open epoch 2, never restart
    (void)path1;
    // flow 1 idle for more than theta_inactive: flow 2 takes the slot
    t += c.inactiveNs + 1;
    d = tx.OnData(2, 0, t, kRtt, s);
    EXPECT_FALSE(d.untracked);
    EXPECT_TRUE(d.newEpoch);
    EXPECT_EQ(d.tag.epoch, 1);
    EXPECT_EQ(tx.Find(1), nullptr);
    EXPECT_EQ(tx.GetTableConflicts(), 100u);
}

TEST(ConWeaveRx, LiveFlowKeepsItsSlotCollidingFlowPassesUntracked)
{
    ConWeaveConfig c = Cfg();
    c.tableSize = 1;
    ConWeaveRxCore<int> rx;
    rx.Configure(c);
    rx.OnData(1, Tag(CwFlag::RTT_REQUEST, false, 50), 0);
    // flow 1 reorders: its REROUTED packet of epoch 50 waits for the TAIL
    CwRxDecision d = rx.OnData(1, Tag(CwFlag::DATA, true, 50, 1), 1 * kUs);
    ASSERT_TRUE(d.hold);
    rx.Hold(d.voq, 7);
    // flow 2 collides while flow 1 is live: passes, no reply, nothing released
    d = rx.OnData(2, Tag(CwFlag::RTT_REQUEST, false, 1), 2 * kUs);
    EXPECT_TRUE(d.untracked);
    EXPECT_FALSE(d.reply);
    EXPECT_FALSE(d.hold);
    EXPECT_EQ(d.releaseBefore, CwRxDecision::NO_VOQ);
    EXPECT_EQ(rx.GetTableConflicts(), 1u);
    ASSERT_NE(rx.Find(1), nullptr);
    EXPECT_EQ(rx.Find(1)->epoch, 50);
    EXPECT_TRUE(rx.Find(1)->reordering);
    // flow 1's TAIL still releases its packet
    d = rx.OnData(1, Tag(CwFlag::TAIL, false, 50), 3 * kUs);
    EXPECT_TRUE(d.releaseAfter);
    // after theta_inactive without a packet of flow 1, flow 2 takes the slot
    d = rx.OnData(2, Tag(CwFlag::RTT_REQUEST, false, 1), 3 * kUs + c.inactiveNs + 1);
    EXPECT_FALSE(d.untracked);
    EXPECT_TRUE(d.reply);
    EXPECT_EQ(rx.Find(1), nullptr);
}

// Review B2: a flow whose path was withdrawn moves to an allowed path at once.
TEST(ConWeaveTx, FlowOnWithdrawnPathOpensEpochOnAnAllowedPath)
{
    ConWeaveTxCore tx;
    tx.Configure(Cfg());
    Script zero{{0}};
    tx.OnData(5, 0, 0, kRtt, zero); // all allowed: path 0
    EXPECT_EQ(tx.Find(5)->path, 0);
    const uint8_t epoch = tx.Find(5)->epoch;
    Script s{{0, 1}};
    CwTxDecision d = tx.OnData(5, 0, 1 * kUs, kRtt, s, 0b1110u); // uplink 0 withdrawn
    EXPECT_TRUE(d.newEpoch);
    EXPECT_TRUE(d.rerouted);
    EXPECT_EQ(d.tag.flag, CwFlag::RTT_REQUEST);
    EXPECT_NE(d.tag.path, 0);
    EXPECT_EQ(d.tag.epoch, static_cast<uint8_t>(epoch + 1));
    // even when every allowed sample is busy, the flow leaves the withdrawn path
    tx.OnData(6, 1, 0, kRtt, zero);
    EXPECT_EQ(tx.Find(6)->path, 0);
    tx.OnNotify(1, 1, 2 * kUs);
    tx.OnNotify(1, 2, 2 * kUs);
    tx.OnNotify(1, 3, 2 * kUs);
    d = tx.OnData(6, 1, 3 * kUs, kRtt, s, 0b1110u);
    EXPECT_NE(d.tag.path, 0);
    EXPECT_NE(tx.Find(6)->path, 0);
    // with every path allowed nothing changes
    d = tx.OnData(6, 1, 4 * kUs, kRtt, s, 0b1111u);
    EXPECT_FALSE(d.newEpoch);
}
