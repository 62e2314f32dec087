/*
 * dcn-lb-fabric-queue: DcnQueueDisc ECN line, priority band, trimming
 * (unit level and through a fabric).
 */
#include "ns3/core-module.h"
#include "ns3/dcn-header.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-queue-disc.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/internet-module.h"
#include "ns3/test.h"
#include "ns3/traffic-control-module.h"

using namespace ns3;

namespace
{

Ptr<QueueDiscItem>
MakeItem(uint32_t payload, uint8_t opcode = DcnHeader::DATA, uint16_t dport = 4791, bool ect = true)
{
    Ptr<Packet> p = Create<Packet>(payload);
    DcnHeader d;
    d.opcode = opcode;
    d.psn = 7;
    d.payloadSize = payload;
    p->AddHeader(d);
    UdpHeader u;
    u.SetSourcePort(1234);
    u.SetDestinationPort(dport);
    p->AddHeader(u);
    Ipv4Header h;
    h.SetSource(Ipv4Address("10.0.0.1"));
    h.SetDestination(Ipv4Address("10.0.0.5"));
    h.SetProtocol(17);
    h.SetEcn(ect ? Ipv4Header::ECN_ECT0 : Ipv4Header::ECN_NotECT);
    h.SetPayloadSize(p->GetSize());
    return Create<Ipv4QueueDiscItem>(p, Address(), 0x0800, h);
}

Ptr<DcnQueueDisc>
MakeQueue(const std::string& limit, bool atDequeue, bool trim)
{
    Ptr<DcnQueueDisc> q = CreateObject<DcnQueueDisc>();
    q->SetAttribute("DataLimit", QueueSizeValue(QueueSize(limit)));
    q->SetAttribute("MarkAtDequeue", BooleanValue(atDequeue));
    q->SetAttribute("TrimEnabled", BooleanValue(trim));
    q->Initialize();
    q->AssignStreams(5);
    return q;
}

class MarkLineTest : public TestCase
{
  public:
    MarkLineTest()
        : TestCase("ECN marking probability follows the Kmin-Kmax line (+-2%, 1e5 samples)")
    {
    }

    double Measure(bool atDequeue, uint32_t occ)
    {
        Ptr<DcnQueueDisc> q = MakeQueue("100p", atDequeue, false);
        uint32_t fill = atDequeue ? occ + 1 : occ;
        for (uint32_t i = 0; i < fill; ++i)
        {
            q->Enqueue(MakeItem(100));
        }
        uint64_t m0 = q->GetNMarked();
        const uint32_t N = 100000;
        Ptr<QueueDiscItem> item = MakeItem(100);
        for (uint32_t i = 0; i < N; ++i)
        {
            // Items are recycled (a CE packet is still markable: Mark() counts it).
            if (atDequeue)
            {
                q->Enqueue(q->Dequeue());
            }
            else
            {
                q->Enqueue(item);
                item = q->Dequeue();
            }
        }
        return double(q->GetNMarked() - m0) / N;
    }

    void DoRun() override
    {
        for (bool atDequeue : {true, false})
        {
            for (uint32_t occ : atDequeue ? std::vector<uint32_t>{10, 30, 50, 70, 90}
                                          : std::vector<uint32_t>{35, 65})
            {
                double expect = occ <= 20 ? 0.0 : (occ >= 80 ? 1.0 : (occ - 20) / 60.0);
                NS_TEST_EXPECT_MSG_EQ_TOL(Measure(atDequeue, occ),
                                          expect,
                                          0.02,
                                          "occupancy " << occ << " atDequeue " << atDequeue);
            }
        }
        // Not-ECT packets are never marked.
        Ptr<DcnQueueDisc> q = MakeQueue("100p", true, false);
        for (uint32_t i = 0; i < 99; ++i)
        {
            q->Enqueue(MakeItem(100, DcnHeader::DATA, 4791, false));
        }
        q->Dequeue();
        NS_TEST_EXPECT_MSG_EQ(q->GetNMarked(), 0, "not-ECT must not be marked");
    }
};

class PriorityAndTrimTest : public TestCase
{
  public:
    PriorityAndTrimTest()
        : TestCase("control packets take the high band; trimming keeps headers; counters")
    {
    }

    void DoRun() override
    {
        Ptr<DcnQueueDisc> q = MakeQueue("2p", true, true);
        q->Enqueue(MakeItem(4096));
        q->Enqueue(MakeItem(0, DcnHeader::ACK));
        Ptr<QueueDiscItem> first = q->Dequeue();
        uint8_t b[10];
        first->GetPacket()->CopyData(b, 10);
        NS_TEST_EXPECT_MSG_EQ(int(b[8]), int(DcnHeader::ACK), "ACK overtakes data");
        q->Enqueue(MakeItem(4096));
        // data band holds 2 packets now: the next DATA is trimmed
        q->Enqueue(MakeItem(4096));
        NS_TEST_EXPECT_MSG_EQ(q->GetNTrimmed(), 1, "one trim");
        Ptr<QueueDiscItem> t = q->Dequeue();
        Ptr<Ipv4QueueDiscItem> ti = DynamicCast<Ipv4QueueDiscItem>(t);
        NS_TEST_ASSERT_MSG_NE(ti, nullptr, "IPv4 item");
        NS_TEST_EXPECT_MSG_EQ(t->GetPacket()->GetSize(),
                              8 + DcnHeader::BASE_SIZE,
                              "trimmed to headers");
        NS_TEST_EXPECT_MSG_EQ(ti->GetHeader().GetPayloadSize(),
                              8 + DcnHeader::BASE_SIZE,
                              "IP length fixed");
        Ptr<Packet> c = t->GetPacket()->Copy();
        UdpHeader u;
        c->RemoveHeader(u);
        DcnHeader d;
        c->RemoveHeader(d);
        NS_TEST_EXPECT_MSG_EQ(d.HasFlag(DcnHeader::FLAG_TRIMMED), true, "TRIMMED flag");
        NS_TEST_EXPECT_MSG_EQ(d.psn, 7, "header fields kept");
        NS_TEST_EXPECT_MSG_EQ(u.GetDestinationPort(), 4791, "UDP ports kept");
        NS_TEST_EXPECT_MSG_EQ(u.GetSourcePort(), 1234, "EV kept");
        // A non-transport packet is dropped, not trimmed.
        q->Enqueue(MakeItem(4096, DcnHeader::DATA, 5000));
        NS_TEST_EXPECT_MSG_EQ(q->GetNDropped(), 1, "non-4791 UDP dropped");
        NS_TEST_EXPECT_MSG_EQ(q->GetNTrimmed(), 1, "still one trim");
        // Trimming off: dropped.
        Ptr<DcnQueueDisc> q2 = MakeQueue("1p", true, false);
        q2->Enqueue(MakeItem(4096));
        q2->Enqueue(MakeItem(4096));
        NS_TEST_EXPECT_MSG_EQ(q2->GetNDropped(), 1, "dropped without trimming");
        NS_TEST_EXPECT_MSG_EQ(q2->GetNTrimmed(), 0, "no trims when disabled");
        // QueueDisc statistics stay consistent with trimming.
        const QueueDisc::Stats& st = q->GetStats();
        NS_TEST_EXPECT_MSG_EQ(st.nTotalReceivedPackets,
                              st.nTotalDroppedPacketsBeforeEnqueue + st.nTotalEnqueuedPackets,
                              "base stats consistent");
    }
};

/** Trimming through a fabric: 2 senders -> 1 receiver across one uplink, tiny queue. */
class FabricTrimTest : public TestCase
{
  public:
    FabricTrimTest()
        : TestCase("trimmed headers are forwarded to the receiver and counted")
    {
    }

    uint32_t m_full{0};
    uint32_t m_trimmed{0};
    uint32_t m_ce{0};

    void Recv(Ptr<Socket> s)
    {
        Ptr<Packet> p;
        while ((p = s->Recv()))
        {
            DcnHeader d;
            p->RemoveHeader(d);
            SocketIpTosTag tos;
            if (p->RemovePacketTag(tos) && (tos.GetTos() & 3) == 3)
            {
                ++m_ce;
            }
            (d.HasFlag(DcnHeader::FLAG_TRIMMED) ? m_trimmed : m_full)++;
        }
    }

    void DoRun() override
    {
        Ptr<FatTreeHelper> ft = FatTreeHelper::TwoTier(2, 2, 1);
        ft->SetAttribute("QueueLimit", QueueSizeValue(QueueSize("10p")));
        ft->SetAttribute("TrimEnabled", BooleanValue(true));
        ft->Build();
        ft->AssignStreams(1);
        Ptr<Socket> rx = Socket::CreateSocket(ft->GetHosts().Get(2), UdpSocketFactory::GetTypeId());
        rx->Bind(InetSocketAddress(Ipv4Address::GetAny(), DcnHeader::UDP_PORT));
        rx->SetIpRecvTos(true);
        rx->SetRecvCallback(MakeCallback(&FabricTrimTest::Recv, this));
        const uint32_t perSender = 100;
        for (uint32_t s = 0; s < 2; ++s)
        {
            Ptr<Node> n = ft->GetHosts().Get(s);
            Ipv4Address src = ft->GetHostAddress(s);
            Ipv4Address dst = ft->GetHostAddress(2);
            Simulator::Schedule(MicroSeconds(1), [n, src, dst, s]() {
                Ptr<Ipv4L3Protocol> ip = n->GetObject<Ipv4L3Protocol>();
                for (uint32_t i = 0; i < perSender; ++i)
                {
                    Ptr<Packet> p = Create<Packet>(4096);
                    DcnHeader d;
                    d.psn = i;
                    d.payloadSize = 4096;
                    p->AddHeader(d);
                    UdpHeader u;
                    u.SetSourcePort(1000 + i + 100 * s);
                    u.SetDestinationPort(DcnHeader::UDP_PORT);
                    p->AddHeader(u);
                    SocketIpTosTag tos;
                    tos.SetTos(Ipv4Header::ECN_ECT0);
                    p->AddPacketTag(tos);
                    ip->Send(p, src, dst, 17, nullptr);
                }
            });
        }
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        uint64_t trims = 0;
        uint64_t drops = 0;
        uint64_t marks = 0;
        for (auto& l : ft->GetLinks())
        {
            for (auto dev : {Ptr<NetDevice>(l.devA), Ptr<NetDevice>(l.devB)})
            {
                Ptr<DcnQueueDisc> q = ft->GetQueueDisc(dev);
                trims += q->GetNTrimmed();
                drops += q->GetNDropped();
                marks += q->GetNMarked();
            }
        }
        NS_TEST_EXPECT_MSG_EQ(m_full + m_trimmed,
                              2 * perSender,
                              "every packet arrives (full or trimmed)");
        NS_TEST_EXPECT_MSG_GT(m_trimmed, 0, "some packets trimmed");
        NS_TEST_EXPECT_MSG_EQ(uint64_t(m_trimmed), trims, "trim counters match");
        NS_TEST_EXPECT_MSG_EQ(drops, 0, "no drops with trimming");
        NS_TEST_EXPECT_MSG_GT(marks, 0, "ECN marks at the congested port");
        NS_TEST_EXPECT_MSG_EQ(uint64_t(m_ce), marks, "CE seen at the receiver = marks");
        Simulator::Destroy();
    }
};

/** ECN marks go through QueueDisc::Mark: ns-3's statistics and "Mark" trace see them. */
class MarkAccountingTest : public TestCase
{
  public:
    MarkAccountingTest()
        : TestCase("QueueDisc::Mark accounting: GetStats() marks == GetNMarked() == traces")
    {
    }

    uint32_t m_baseTrace{0};
    uint32_t m_dcnTrace{0};
    std::string m_reason;

    void OnMark(Ptr<const QueueDiscItem> item, const char* reason)
    {
        ++m_baseTrace;
        m_reason = reason;
    }

    void OnDcnMark(Ptr<const QueueDiscItem> item, double prob)
    {
        ++m_dcnTrace;
    }

    void DoRun() override
    {
        for (bool atDequeue : {true, false})
        {
            m_baseTrace = 0;
            m_dcnTrace = 0;
            Ptr<DcnQueueDisc> q = MakeQueue("100p", atDequeue, false);
            q->TraceConnectWithoutContext("Mark", MakeCallback(&MarkAccountingTest::OnMark, this));
            q->TraceConnectWithoutContext("DcnMark",
                                          MakeCallback(&MarkAccountingTest::OnDcnMark, this));
            for (uint32_t i = 0; i < 51; ++i)
            {
                q->Enqueue(MakeItem(100));
            }
            for (uint32_t i = 0; i < 2000; ++i)
            {
                q->Enqueue(MakeItem(100));
                q->Dequeue();
            }
            const QueueDisc::Stats& st = q->GetStats();
            NS_TEST_EXPECT_MSG_GT(q->GetNMarked(), 100, "occupancy 50 of 100: ~50% marked");
            NS_TEST_EXPECT_MSG_EQ(uint64_t(st.nTotalMarkedPackets),
                                  q->GetNMarked(),
                                  "ns-3 statistics count every mark");
            NS_TEST_EXPECT_MSG_EQ(uint64_t(st.GetNMarkedPackets(DcnQueueDisc::ECN_MARK)),
                                  q->GetNMarked(),
                                  "per-reason count");
            NS_TEST_EXPECT_MSG_EQ(uint64_t(m_baseTrace), q->GetNMarked(), "ns-3 Mark trace");
            NS_TEST_EXPECT_MSG_EQ(uint64_t(m_dcnTrace), q->GetNMarked(), "DcnMark trace");
            NS_TEST_EXPECT_MSG_EQ(m_reason, std::string(DcnQueueDisc::ECN_MARK), "reason");
            NS_TEST_EXPECT_MSG_EQ(uint64_t(st.nTotalMarkedBytes),
                                  q->GetNMarked() * MakeItem(100)->GetSize(),
                                  "marked bytes");
        }
    }
};

class FabricQueueSuite : public TestSuite
{
  public:
    FabricQueueSuite()
        : TestSuite("dcn-lb-fabric-queue", DCNLB_TEST_UNIT)
    {
        AddTestCase(new MarkLineTest(), DCNLB_TEST_QUICK);
        AddTestCase(new PriorityAndTrimTest(), DCNLB_TEST_QUICK);
        AddTestCase(new FabricTrimTest(), DCNLB_TEST_QUICK);
        AddTestCase(new MarkAccountingTest(), DCNLB_TEST_QUICK);
    }
};

FabricQueueSuite g_fabricQueueSuite;

} // namespace
