/*
 * dcn-lb-nothing-lost (issue 9): no byte is lost or duplicated when an injected
 * failure heals, and a permanent failure is reported honestly.
 *
 * A 16-host 2-tier fat tree (4 ToRs x 4 hosts, 4 spines, 100 Gb/s) runs a permutation
 * of 256 KiB messages through the one workload driver (WorkloadHelper) with ecmp, ops
 * and reps.  Each failure is applied with FailureHelper::AddFromSpec (the examples'
 * --failures syntax) and heals at 80 us:
 *   silent (lost, routes unchanged), down (lost, withdrawn after 5 us), degrade (25 Gb/s),
 *   drop (random loss 5 %) on the uplink tor0-spine1, and the whole switch spine1 silent.
 * Asserted: every message completes; for every (source, destination) pair the receiver
 * delivered exactly the bytes the plan sent (Rx trace: unique data bytes, duplicates
 * and trimmed headers excluded); every failure but degrade really dropped packets
 * (so the check is not vacuous; at seed 5 ECMP too hashes flows across tor0-spine1).
 *
 * Permanent failure: host 3's link fails silently for the whole run; the run ends at
 * the stop time, FctStats reports exactly the flows from or to host 3 as unfinished
 * (and only those) and the run end equals the stop time.
 */
#include "ns3/core-module.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-transport-helper.h"
#include "ns3/dcn-transport.h"
#include "ns3/failure-helper.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/fct-stats.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/test.h"
#include "ns3/workload-helper.h"
#include "ns3/workload-plan.h"

#include <map>
#include <utility>

namespace ns3
{
namespace
{

/** Unique data bytes delivered per (receiver host, sender address). */
class PairBytes
{
  public:
    void Rx(uint32_t dst, Ptr<const Packet> p, const DcnHeader& h, Ipv4Address src, bool dup)
    {
        if (dup || h.HasFlag(DcnHeader::FLAG_TRIMMED))
        {
            return;
        }
        bytes[{dst, src.Get()}] += h.payloadSize;
    }

    std::map<std::pair<uint32_t, uint32_t>, uint64_t> bytes;
};

void
RxThunk(PairBytes* rx,
        uint32_t dst,
        Ptr<const Packet> p,
        const DcnHeader& h,
        Ipv4Address src,
        bool dup)
{
    rx->Rx(dst, p, h, src, dup);
}

struct LostRun
{
    uint32_t messages{0};
    uint32_t completed{0};
    uint32_t unfinished{0};
    bool unfinishedOnlyHost3{true};
    bool unfinishedTimedOut{true}; //!< every unfinished record carries its real RTO count (> 0)
    uint32_t flowsOfHost3{0};
    bool pairsExact{true};
    std::string firstMismatch;
    uint64_t failureDrops{0};
    Time runEnd{0};
    std::string specError;
};

LostRun
RunLost(const std::string& lb, const std::string& spec, Time stop)
{
    RngSeedManager::SetSeed(5);
    RngSeedManager::SetRun(1);
    LostRun out;
    Ptr<FatTreeHelper> ft = FatTreeHelper::TwoTier(4, 4, 4);
    ft->SetAttribute("HostLinkRate", DataRateValue(DataRate("100Gbps")));
    ft->SetAttribute("FabricLinkRate", DataRateValue(DataRate("100Gbps")));
    ft->Build();
    int64_t stream = 1;
    stream += ft->AssignStreams(stream);
    DcnTransportHelper th;
    th.Install(ft->GetHosts());
    PairBytes rx;
    const uint32_t n = ft->GetNHosts();
    for (uint32_t i = 0; i < n; ++i)
    {
        DcnTransportHelper::Get(ft->GetHosts().Get(i))
            ->TraceConnectWithoutContext("Rx", MakeBoundCallback(&RxThunk, &rx, i));
    }
    Ptr<FailureHelper> fh = CreateObject<FailureHelper>(ft);
    out.specError = fh->AddFromSpec("failures", spec);
    Ptr<WorkloadHelper> wl = CreateObject<WorkloadHelper>();
    stream += wl->AssignStreams(stream);
    stream += fh->AssignStreams(stream);
    wl->SetAttribute("Workload", StringValue("permutation"));
    wl->SetAttribute("MessageSize", UintegerValue(256 * 1024));
    wl->SetAttribute("LoadBalancer", StringValue(lb));
    wl->Install(ft);
    Simulator::Stop(stop);
    Simulator::Run();
    wl->Finalize();
    FctStats st = wl->GetStats();
    st.SetRunEnd(Simulator::Now());
    out.runEnd = st.GetRunEnd();
    out.unfinished = st.CountUnfinished();
    for (const auto& r : st.GetRecords())
    {
        out.completed += r.completed ? 1 : 0;
        if (!r.completed && r.src != 3 && r.dst != 3)
        {
            out.unfinishedOnlyHost3 = false;
        }
        if (!r.completed && r.timeouts == 0)
        {
            out.unfinishedTimedOut = false;
        }
    }
    std::map<std::pair<uint32_t, uint32_t>, uint64_t> sent;
    for (const auto& m : wl->GetPlan().messages)
    {
        out.messages++;
        sent[{m.dst, ft->GetHostAddress(m.src).Get()}] += m.bytes;
        out.flowsOfHost3 += (m.src == 3 || m.dst == 3) ? 1 : 0;
    }
    if (sent != rx.bytes)
    {
        out.pairsExact = false;
        for (const auto& [k, b] : sent)
        {
            auto it = rx.bytes.find(k);
            uint64_t got = it == rx.bytes.end() ? 0 : it->second;
            if (got != b && out.firstMismatch.empty())
            {
                out.firstMismatch = "receiver " + std::to_string(k.first) + ": " +
                                    std::to_string(got) + " of " + std::to_string(b) + " bytes";
            }
        }
        if (out.firstMismatch.empty())
        {
            out.firstMismatch = "bytes from a pair that sent nothing";
        }
    }
    out.failureDrops = fh->GetInjectedDrops() + fh->GetUnroutableDrops() + fh->GetBlackholeDrops();
    wl->Dispose();
    Simulator::Destroy();
    return out;
}

class HealTestCase : public TestCase
{
  public:
    HealTestCase(std::string lb, std::string spec)
        : TestCase("nothing lost: " + lb + " with " + spec),
          m_lb(std::move(lb)),
          m_spec(std::move(spec))
    {
    }

  private:
    void DoRun() override
    {
        LostRun r = RunLost(m_lb, m_spec, MilliSeconds(20));
        NS_TEST_ASSERT_MSG_EQ(r.specError, "", "the failure spec is accepted");
        NS_TEST_ASSERT_MSG_EQ(r.messages, 16u, "one message per host");
        NS_TEST_ASSERT_MSG_EQ(r.completed, r.messages, "every message completes after the heal");
        NS_TEST_ASSERT_MSG_EQ(r.unfinished, 0u, "no unfinished flow");
        NS_TEST_ASSERT_MSG_EQ(
            r.pairsExact,
            true,
            "every (src, dst) receiver got exactly the bytes sent: " << r.firstMismatch);
        NS_TEST_ASSERT_MSG_LT(r.runEnd, MilliSeconds(20), "the run ended when all completed");
        if (m_spec.rfind("degrade", 0) != 0)
        {
            // the failed element carries traffic of this plan (seed 5): not vacuous
            NS_TEST_ASSERT_MSG_GT(r.failureDrops, 0u, "the failure dropped packets");
        }
    }

    std::string m_lb;
    std::string m_spec;
};

class PermanentFailureTestCase : public TestCase
{
  public:
    explicit PermanentFailureTestCase(std::string lb)
        : TestCase("permanent failure of host 3's link: " + lb + " ends at the stop time"),
          m_lb(std::move(lb))
    {
    }

  private:
    void DoRun() override
    {
        const Time stop = MilliSeconds(3);
        LostRun r = RunLost(m_lb, "silent:link=3:start=0us", stop);
        NS_TEST_ASSERT_MSG_EQ(r.specError, "", "the failure spec is accepted");
        NS_TEST_ASSERT_MSG_GT(r.flowsOfHost3, 0u, "host 3 sends or receives in the plan");
        NS_TEST_ASSERT_MSG_EQ(r.unfinished, r.flowsOfHost3, "exactly host 3's flows unfinished");
        NS_TEST_ASSERT_MSG_EQ(r.unfinishedOnlyHost3, true, "no other flow unfinished");
        NS_TEST_ASSERT_MSG_EQ(r.unfinishedTimedOut,
                              true,
                              "unfinished flows report the timeouts that really happened");
        NS_TEST_ASSERT_MSG_EQ(r.completed + r.unfinished, r.messages, "every flow recorded once");
        NS_TEST_ASSERT_MSG_EQ(r.runEnd, stop, "the run ended at the stop time");
        NS_TEST_ASSERT_MSG_GT(r.failureDrops, 0u, "the failure dropped packets");
    }

    std::string m_lb;
};

class NothingLostSuite : public TestSuite
{
  public:
    NothingLostSuite()
        : TestSuite("dcn-lb-nothing-lost", DCNLB_TEST_SYSTEM)
    {
        for (const char* lb : {"ecmp", "ops", "reps"})
        {
            for (const char* spec : {"silent:link=tor0-spine1:start=5us:end=80us",
                                     "down:link=tor0-spine1:start=5us:end=80us:withdraw=5us",
                                     "degrade:link=tor0-spine1:rate=25Gbps:start=5us:end=80us",
                                     "drop:link=tor0-spine1:prob=0.05:start=5us:end=80us",
                                     "silent:switch=spine1:start=5us:end=80us"})
            {
                AddTestCase(new HealTestCase(lb, spec), DCNLB_TEST_QUICK);
            }
            AddTestCase(new PermanentFailureTestCase(lb), DCNLB_TEST_QUICK);
        }
    }
};

static NothingLostSuite g_nothingLostSuite;

} // namespace
} // namespace ns3
