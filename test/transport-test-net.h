/*
 * Small test networks and test-only packet manglers for the transport tests.
 * (Test-only; built from ns-3 built-ins so the tests do not depend on the fabric.)
 *
 *   left hosts -- S1 ==(M1: fast)== S2 -- right hosts
 *                    ==(M2: slow)==
 * Ipv4GlobalRouting, optionally with RandomEcmpRouting (per-packet random
 * spraying over M1/M2, hence reordering).
 */
#ifndef DCN_TRANSPORT_TEST_NET_H
#define DCN_TRANSPORT_TEST_NET_H

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/congestion-control.h"
#include "ns3/data-rate.h"
#include "ns3/dcn-header.h"
#include "ns3/error-model.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-global-routing-helper.h"
#include "ns3/ipv4-header.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/ppp-header.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <vector>

namespace ns3
{
namespace dcntest
{

/** A paced congestion control whose rate the test sets (no window). */
class TestRateCc : public CongestionControl
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::DcnTransportTestRateCc")
                                .SetParent<CongestionControl>()
                                .SetGroupName("DcnLb")
                                .AddConstructor<TestRateCc>();
        return tid;
    }

    void OnAck(const CcAckSample&) override
    {
    }

    void OnNack() override
    {
    }

    void OnTimeout() override
    {
    }

    DataRate GetRate() const override
    {
        return m_rate;
    }

    std::string Name() const override
    {
        return "test-rate";
    }

    /** Change the rate now and tell the connection (as a CC timer would). */
    void SetRate(DataRate r)
    {
        m_rate = r;
        if (!m_setup.wakeup.IsNull())
        {
            m_setup.wakeup();
        }
    }

  private:
    DataRate m_rate{"1Gbps"};
};

/** Error model that (a) drops everything in [dropStart, dropEnd), (b) CE-marks
 *  ECT packets, (c) trims every trimEvery-th data packet to its headers. */
class TestMangler : public ErrorModel
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::dcntest::TestMangler").SetParent<ErrorModel>();
        return tid;
    }

    Time dropStart{Seconds(-1)};
    Time dropEnd{Seconds(-1)};
    bool markCe{false};
    uint32_t trimEvery{0};
    uint32_t dataSeen{0};
    uint32_t dropped{0};
    uint32_t trimmed{0};
    uint32_t marked{0};

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        Time now = Simulator::Now();
        if (now >= dropStart && now < dropEnd)
        {
            dropped++;
            return true;
        }
        if (!markCe && trimEvery == 0)
        {
            return false;
        }
        PppHeader ppp;
        Ipv4Header ip;
        p->RemoveHeader(ppp);
        p->RemoveHeader(ip);
        if (ip.GetProtocol() == 17)
        {
            UdpHeader udp;
            DcnHeader dcn;
            p->RemoveHeader(udp);
            p->RemoveHeader(dcn);
            if (dcn.opcode == DcnHeader::DATA)
            {
                dataSeen++;
                if (trimEvery > 0 && dataSeen % trimEvery == 0 &&
                    !dcn.HasFlag(DcnHeader::FLAG_TRIMMED))
                {
                    p->RemoveAtEnd(p->GetSize());
                    dcn.flags |= DcnHeader::FLAG_TRIMMED;
                    trimmed++;
                }
                if (markCe && ip.GetEcn() != Ipv4Header::ECN_NotECT)
                {
                    ip.SetEcn(Ipv4Header::ECN_CE);
                    marked++;
                }
            }
            p->AddHeader(dcn);
            UdpHeader u2;
            u2.SetSourcePort(udp.GetSourcePort());
            u2.SetDestinationPort(udp.GetDestinationPort());
            p->AddHeader(u2);
        }
        ip.SetPayloadSize(p->GetSize());
        p->AddHeader(ip);
        p->AddHeader(ppp);
        return false;
    }

    void DoReset() override
    {
    }
};

struct TestNet
{
    NodeContainer left;
    NodeContainer right;
    Ptr<Node> s1;
    Ptr<Node> s2;
    Ptr<Node> m1;
    Ptr<Node> m2;
    Ptr<PointToPointNetDevice> s1ToM1Rx;    //!< M1's device on the S1-M1 link (receives S1->M1)
    Ptr<PointToPointNetDevice> s1ToM2Rx;    //!< M2's device on the S1-M2 link
    Ptr<PointToPointNetDevice> s2ToRightRx; //!< right[0]'s device (receives S2->right[0])

    Ipv4Address Addr(Ptr<Node> n) const
    {
        return n->GetObject<Ipv4>()->GetAddress(1, 0).GetLocal();
    }
};

/** Build the network; spray = per-packet random ECMP at S1/S2. Restores the
 *  RandomEcmpRouting default afterwards. */
inline TestNet
BuildTestNet(uint32_t nLeft,
             uint32_t nRight,
             bool spray,
             Time d1,
             Time d2,
             std::string rate = "100Gbps")
{
    TestNet n;
    n.left.Create(nLeft);
    n.right.Create(nRight);
    NodeContainer sw;
    sw.Create(4);
    n.s1 = sw.Get(0);
    n.s2 = sw.Get(1);
    n.m1 = sw.Get(2);
    n.m2 = sw.Get(3);
    Config::SetDefault("ns3::Ipv4GlobalRouting::RandomEcmpRouting", BooleanValue(spray));
    InternetStackHelper inet;
    inet.Install(n.left);
    inet.Install(n.right);
    inet.Install(sw);
    Config::SetDefault("ns3::Ipv4GlobalRouting::RandomEcmpRouting", BooleanValue(false));

    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue(rate));
    p2p.SetDeviceAttribute("Mtu", UintegerValue(9000));
    p2p.SetChannelAttribute("Delay", TimeValue(NanoSeconds(500)));
    Ipv4AddressHelper addr;
    addr.SetBase("10.0.0.0", "255.255.255.0");
    // hosts first so that interface 1 of each host is its only link
    for (uint32_t i = 0; i < nLeft; ++i)
    {
        NetDeviceContainer d = p2p.Install(n.left.Get(i), n.s1);
        addr.Assign(d);
        addr.NewNetwork();
    }
    for (uint32_t i = 0; i < nRight; ++i)
    {
        NetDeviceContainer d = p2p.Install(n.right.Get(i), n.s2);
        addr.Assign(d);
        addr.NewNetwork();
        if (i == 0)
        {
            n.s2ToRightRx = DynamicCast<PointToPointNetDevice>(d.Get(0));
        }
    }
    p2p.SetChannelAttribute("Delay", TimeValue(d1));
    NetDeviceContainer a = p2p.Install(n.s1, n.m1);
    addr.Assign(a);
    addr.NewNetwork();
    n.s1ToM1Rx = DynamicCast<PointToPointNetDevice>(a.Get(1));
    addr.Assign(p2p.Install(n.m1, n.s2));
    addr.NewNetwork();
    p2p.SetChannelAttribute("Delay", TimeValue(d2));
    NetDeviceContainer b = p2p.Install(n.s1, n.m2);
    addr.Assign(b);
    addr.NewNetwork();
    n.s1ToM2Rx = DynamicCast<PointToPointNetDevice>(b.Get(1));
    addr.Assign(p2p.Install(n.m2, n.s2));
    addr.NewNetwork();
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    // fixed streams for the random ECMP of Ipv4GlobalRouting (reproducible runs)
    NodeContainer all(n.left, n.right, sw);
    inet.AssignStreams(all, 1000);
    return n;
}

/** Receiver-side checker: every byte of every message delivered exactly once. */
class DeliveryChecker
{
  public:
    void Rx(Ptr<const Packet> p, const DcnHeader& h, Ipv4Address src, bool dup)
    {
        if (dup || h.HasFlag(DcnHeader::FLAG_TRIMMED))
        {
            if (dup)
            {
                dups++;
            }
            return;
        }
        auto& m = m_msgs[std::make_tuple(h.connId, h.msgId, src.Get())];
        m.emplace_back(h.msgOffset, h.payloadSize);
    }

    uint64_t dups{0};

    /** True if message (src, connId, msgId) was covered exactly once up to bytes. */
    bool ExactlyOnce(Ipv4Address src, uint32_t connId, uint32_t msgId, uint64_t bytes) const
    {
        auto it = m_msgs.find(std::make_tuple(connId, msgId, src.Get()));
        if (it == m_msgs.end())
        {
            return false;
        }
        std::vector<std::pair<uint64_t, uint32_t>> v = it->second;
        std::sort(v.begin(), v.end());
        uint64_t next = 0;
        for (auto& e : v)
        {
            if (e.first != next)
            {
                return false;
            }
            next += e.second;
        }
        return next == bytes;
    }

    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::vector<std::pair<uint64_t, uint32_t>>>
        m_msgs;
};

} // namespace dcntest
} // namespace ns3

#endif // DCN_TRANSPORT_TEST_NET_H
