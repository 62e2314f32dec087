/*
 * GoogleTest: DcnHeader EXT_INT round trip (issue 12): reserved record slots,
 * stamped records, the ACK echo layout and O(1) location from the bytes; the
 * HPCC core skips a record of another egress port (hopId).
 */
#include "ns3/dcn-header.h"
#include "ns3/hpcc-core.h"
#include "ns3/packet.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

DcnHeader::IntRecord
Rec(uint16_t sw, uint16_t port, uint32_t mbps, uint32_t q, uint64_t tx, int64_t t)
{
    DcnHeader::IntRecord r;
    r.switchId = sw;
    r.port = port;
    r.rateMbps = mbps;
    r.queueBytes = q;
    r.txBytes = tx;
    r.timeNs = t;
    return r;
}

TEST(DcnHeaderInt, ReservedSlotsRoundTrip)
{
    DcnHeader h;
    h.opcode = DcnHeader::DATA;
    h.psn = 7;
    h.payloadSize = 4096;
    h.extMask = DcnHeader::EXT_INT;
    h.intSlots = 5;
    h.intCount = 2;
    h.intRecords[0] = Rec(3, 1, 100000, 0, 123456789012ULL, 1000);
    h.intRecords[1] = Rec(9, 4, 400000, 8300, 1ULL << 40, 2150);
    const uint32_t size = DcnHeader::DATA_SIZE + 1 + 2 + 5 * DcnHeader::INT_RECORD_SIZE;
    EXPECT_EQ(h.GetSerializedSize(), size);
    EXPECT_EQ(DcnHeader::INT_RECORD_SIZE, 28u);

    Ptr<Packet> p = Create<Packet>(100);
    p->AddHeader(h);
    EXPECT_EQ(p->GetSize(), 100 + size);
    uint8_t b[DcnHeader::DATA_SIZE + 3];
    p->CopyData(b, sizeof(b));
    const uint32_t ext = DcnHeader::ExtensionOffset(b);
    EXPECT_EQ(ext, DcnHeader::DATA_SIZE);
    EXPECT_TRUE(b[1] & DcnHeader::FLAG_EXT);
    EXPECT_EQ(b[ext], DcnHeader::EXT_INT); // the mask
    EXPECT_EQ(b[ext + 1], 2);              // count
    EXPECT_EQ(b[ext + 2], 5);              // slots

    DcnHeader g;
    p->RemoveHeader(g);
    EXPECT_EQ(p->GetSize(), 100u);
    EXPECT_EQ(g.intCount, 2);
    EXPECT_EQ(g.intSlots, 5);
    EXPECT_EQ(g.GetSerializedSize(), size);
    EXPECT_EQ(g.intRecords[1].switchId, 9);
    EXPECT_EQ(g.intRecords[1].port, 4);
    EXPECT_EQ(g.intRecords[1].rateMbps, 400000u);
    EXPECT_EQ(g.intRecords[1].queueBytes, 8300u);
    EXPECT_EQ(g.intRecords[1].txBytes, 1ULL << 40);
    EXPECT_EQ(g.intRecords[1].timeNs, 2150);
    EXPECT_EQ(g.intRecords[0].txBytes, 123456789012ULL);

    // a switch fills the next slot in place: the size does not change
    g.intRecords[g.intCount++] = Rec(11, 2, 100000, 4150, 99, 3000);
    Ptr<Packet> q = Create<Packet>(100);
    q->AddHeader(g);
    EXPECT_EQ(q->GetSize(), 100 + size);
    DcnHeader k;
    q->RemoveHeader(k);
    EXPECT_EQ(k.intCount, 3);
    EXPECT_EQ(k.intRecords[2].switchId, 11);
    EXPECT_EQ(k.intRecords[2].queueBytes, 4150u);
}

TEST(DcnHeaderInt, AckEchoCarriesOnlyStampedRecords)
{
    DcnHeader a;
    a.opcode = DcnHeader::ACK;
    a.evs = {5};
    a.extMask = DcnHeader::EXT_PATH_ID | DcnHeader::EXT_INT;
    a.pathId = 3;
    a.intCount = 3; // slots = 0: the echo (dcn-transport-rx.cc EchoOptions)
    for (uint8_t i = 0; i < 3; ++i)
    {
        a.intRecords[i] = Rec(i, i, 100000, 10u * i, 1000u * i, 500 * i);
    }
    EXPECT_EQ(a.GetIntSlots(), 3);
    const uint32_t size =
        DcnHeader::CTRL_BASE_SIZE + 2 + 1 + 4 + 2 + 3 * DcnHeader::INT_RECORD_SIZE;
    EXPECT_EQ(a.GetSerializedSize(), size);
    Ptr<Packet> p = Create<Packet>(0);
    p->AddHeader(a);
    EXPECT_EQ(p->GetSize(), size);
    DcnHeader g;
    p->RemoveHeader(g);
    EXPECT_EQ(g.pathId, 3);
    EXPECT_EQ(g.intCount, 3);
    EXPECT_EQ(g.intRecords[2].timeNs, 1000);
    EXPECT_EQ(g.intRecords[2].txBytes, 2000u);
    g.ClearExtension();
    EXPECT_EQ(g.GetIntSlots(), 0);
}

TEST(DcnHeaderInt, NoIntKeepsBaseSize)
{
    DcnHeader h;
    h.opcode = DcnHeader::DATA;
    EXPECT_EQ(h.GetSerializedSize(), DcnHeader::DATA_SIZE);
    h.extMask = DcnHeader::EXT_INT; // asks for INT but no room: count 0, slots 0
    EXPECT_EQ(h.GetSerializedSize(), DcnHeader::DATA_SIZE + 1 + 2);
}

} // namespace

// HPCC core: a record of another egress port (per-packet multipath) is not subtracted

namespace
{
using ns3::cccore::HpccConfig;
using ns3::cccore::HpccCore;
using ns3::cccore::IntHop;

TEST(HpccCoreHopId, OtherPortIsSkipped)
{
    HpccCore<> cc;
    ASSERT_TRUE(cc.Configure(HpccConfig{}));
    IntHop h;
    h.rateBps = 100e9;
    h.hopId = (3u << 16) | 1;
    cc.OnAck(1, 2, &h, 1); // first ACK: records only
    // same port, 10 us later, link full with a standing queue: U rises
    h.tsNs += 10'000;
    h.txBytes += 125'000;
    h.qlenBytes = 62'500;
    cc.OnAck(2, 3, &h, 1);
    const double u = cc.GetU();
    EXPECT_NEAR(u, 1.0, 1e-6); // full link; min(q, q_prev) = 0
    // a record of another port of the same switch: its txBytes belong to another counter
    IntHop o = h;
    o.hopId = (3u << 16) | 2;
    o.tsNs += 10'000;
    o.txBytes = 1; // would give a huge negative/garbage rate if subtracted
    o.qlenBytes = 0;
    cc.OnAck(3, 4, &o, 1);
    EXPECT_DOUBLE_EQ(cc.GetU(), u) << "U unchanged by a record of another port";
}
} // namespace
