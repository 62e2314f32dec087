/*
 * custom-path-selector: a new load balancer in one file (issue 8 item 9).
 *
 * Defines RoundRobinPathSelector, a sender-side path selector that sends the
 * packets of a connection round-robin over the path ids of the topology's path
 * set for its switch pair (DcnPathSet, handed to Setup()), registers it as the
 * scheme "rr", and runs a permutation on the 32-host fat tree through the
 * normal workload driver (WorkloadHelper) - with no edit anywhere else.
 *
 * On the wire every packet carries its path id and its explicit source route
 * (the switches of the DcnPath) in the DcnHeader extension; the receiver echoes
 * both, so OnFeedback() learns which path each ACK / NACK / TIMEOUT belongs to.
 * The fat tree's switches forward by ECMP hash on the EV (UDP source port), so
 * the selector also gives each path id its own EV; a source-routing forwarding
 * policy would follow the route bytes instead.  Per-path packet and ECN counts
 * are kept in the host-wide shared state (DcnLbSharedState), one table per
 * host shared by that host's connections.
 *
 *   ./build/custom-path-selector
 *   ./build/custom-path-selector --lb=reps        # any registered scheme
 *   ./build/custom-path-selector --msgSize=1048576 --RngRun=2
 */
#include "ns3/core-module.h"
#include "ns3/dcn-options.h"
#include "ns3/dcn-scheme.h"
#include "ns3/dcn-transport-helper.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/path-selector.h"
#include "ns3/workload-helper.h"

#include <iomanip>
#include <iostream>
#include <vector>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("DcnCustomPathSelector");

namespace
{

/** Per-host table shared by the host's round-robin selectors: per path id counters. */
class RrHostTable : public Object
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::DcnExampleRrHostTable")
                                .SetParent<Object>()
                                .SetGroupName("DcnLb")
                                .AddConstructor<RrHostTable>();
        return tid;
    }

    std::vector<uint64_t> sent;  //!< packets sent per path id
    std::vector<uint64_t> acked; //!< ACKs per path id
    std::vector<uint64_t> ecn;   //!< ECN-marked ACKs per path id
    std::vector<uint64_t> lost;  //!< NACKs and timeouts per path id

    void Grow(uint32_t n)
    {
        if (sent.size() < n)
        {
            sent.resize(n);
            acked.resize(n);
            ecn.resize(n);
            lost.resize(n);
        }
    }
};

/** Round robin over the path ids of the connection's switch pair. */
class RoundRobinPathSelector : public PathSelector
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::DcnExampleRoundRobinPathSelector")
                .SetParent<PathSelector>()
                .SetGroupName("DcnLb")
                .AddConstructor<RoundRobinPathSelector>()
                .AddAttribute("RequestTimestamps",
                              "Ask receivers for arrival stamps (one-way delay in feedback)",
                              BooleanValue(false),
                              MakeBooleanAccessor(&RoundRobinPathSelector::m_timestamps),
                              MakeBooleanChecker());
        return tid;
    }

    void Setup(const PathSelectorSetup& setup) override
    {
        NS_LOG_FUNCTION(this << setup.srcHost << setup.dstHost);
        PathSelector::Setup(setup);
        m_paths = setup.GetPaths();
        m_n = (m_paths && !m_paths->paths.empty()) ? m_paths->paths.size() : 0;
        m_table = setup.shared->GetOrCreate<RrHostTable>("rr");
        m_table->Grow(static_cast<uint32_t>(m_n));
        m_next = setup.flowHash % (m_n ? m_n : 1); // connections start on different paths
    }

    PathChoice Choose(const SendContext& ctx) override
    {
        PathChoice pc;
        pc.requestTimestamp = m_timestamps;
        if (m_n == 0) // same switch: no fabric path to choose
        {
            pc.ev = static_cast<uint16_t>(m_setup.flowHash);
            return pc;
        }
        const DcnPath& p = m_paths->paths[m_next];
        pc.pathId = static_cast<int32_t>(p.id);
        pc.ev = static_cast<uint16_t>(m_setup.flowHash + 0x9e37u * (p.id + 1));
        pc.routeLen =
            static_cast<uint8_t>(std::min<size_t>(p.switches.size(), PathChoice::MAX_ROUTE));
        for (uint8_t k = 0; k < pc.routeLen; ++k)
        {
            pc.route[k] = static_cast<uint16_t>(p.switches[k]);
        }
        m_table->sent[p.id]++;
        NS_LOG_LOGIC("psn " << ctx.psn << " path " << p.id << " ev " << pc.ev);
        m_next = (m_next + 1) % m_n;
        return pc;
    }

    void OnFeedback(const PathFeedback& fb) override
    {
        NS_LOG_FUNCTION(this << fb.path.pathId << static_cast<int>(fb.signal));
        if (fb.path.pathId < 0 || size_t(fb.path.pathId) >= m_n)
        {
            return; // carried EVs of coalesced ACKs name no path id
        }
        switch (fb.signal)
        {
        case FeedbackSignal::ACK:
            m_table->acked[fb.path.pathId]++;
            break;
        case FeedbackSignal::ECN_ACK:
            m_table->acked[fb.path.pathId]++;
            m_table->ecn[fb.path.pathId]++;
            break;
        case FeedbackSignal::NACK:
        case FeedbackSignal::TIMEOUT:
            m_table->lost[fb.path.pathId]++;
            break;
        case FeedbackSignal::PROBE_REPLY:
            break;
        }
    }

    std::string Name() const override
    {
        return "rr";
    }

  private:
    bool m_timestamps{false};
    const DcnPathSet* m_paths{nullptr};
    size_t m_n{0};
    size_t m_next{0};
    Ptr<RrHostTable> m_table;
};

NS_OBJECT_ENSURE_REGISTERED(RrHostTable);
NS_OBJECT_ENSURE_REGISTERED(RoundRobinPathSelector);
// the registration: a path selector name, and the scheme around it
DCNLB_REGISTER_PATH_SELECTOR("rr", RoundRobinPathSelector);
DCNLB_REGISTER_SCHEME((DcnScheme{"rr",
                                 "example: round robin over the pair's path ids (source route "
                                 "and path id in the header extension)",
                                 "rr",
                                 "dctcp",
                                 "selective-repeat",
                                 "ecmp",
                                 DcnHeader::EXT_PATH_ID | DcnHeader::EXT_ROUTE,
                                 "dcn",
                                 {"fat-tree"},
                                 {}}));

[[noreturn]] void
Fail(const std::string& msg)
{
    DcnOptions::Exit("custom-path-selector", msg);
}

} // namespace

int
main(int argc, char** argv)
{
    std::string lb = "rr";
    uint64_t msgSize = 2 * 1024 * 1024;
    Time stop = MilliSeconds(10);
    bool allowUnfinished = false;
    DcnOptions opts("custom-path-selector",
                    "A user-defined path selector ('rr') registered as a scheme, run on a "
                    "permutation.  Exit status: 0, 2 bad input (one line), 3 a flow did not "
                    "finish (unless --allowUnfinished).");
    opts.Choice("lb",
                "Scheme (DcnSchemeRegistry; this file registers 'rr')",
                lb,
                DcnSchemeRegistry::Names());
    opts.Size("msgSize", "Bytes per permutation flow", msgSize).Range(1, 1ULL << 40);
    opts.Time("stopTime", "Simulated-time limit", stop).Min(NanoSeconds(1)).Max(Seconds(3600));
    opts.Bool("allowUnfinished", "Exit 0 even if some flow did not finish", allowUnfinished);
    opts.Parse(argc, argv);

    // 32 hosts: 4 ToRs x 8 hosts, 8 spines, REPS link parameters
    Ptr<FatTreeHelper> ft = FatTreeHelper::RepsPaper128();
    ft->SetAttribute("NumTors", UintegerValue(4));
    std::string err = DcnSchemeRegistry::CheckCompatible(lb, ft->GetTopologyName(), "dcn");
    if (err.empty())
    {
        err = DcnSchemeRegistry::Validate(lb);
    }
    if (!err.empty())
    {
        Fail(err);
    }
    ft->Build();
    int64_t stream = 1;
    stream += ft->AssignStreams(stream);

    DcnTransportHelper th;
    th.Install(ft->GetHosts());

    Ptr<WorkloadHelper> wl = CreateObject<WorkloadHelper>();
    stream += wl->AssignStreams(stream);
    wl->SetAttribute("Workload", StringValue("permutation"));
    wl->SetAttribute("MessageSize", UintegerValue(msgSize));
    wl->SetAttribute("LoadBalancer", StringValue(lb));
    wl->SetAttribute("StartTime", TimeValue(MicroSeconds(1)));
    wl->Install(ft);

    Simulator::Stop(stop);
    Simulator::Run();
    wl->Finalize();
    FctStats stats = wl->GetStats();
    stats.SetRunEnd(Simulator::Now());
    stats.Print(std::cout, "custom-path-selector: permutation, lb=" + lb, false);
    stats.PrintUnfinished(std::cout, 10);

    // per-path counters of the round-robin selectors, summed over the hosts
    std::vector<uint64_t> sent;
    std::vector<uint64_t> acked;
    std::vector<uint64_t> ecn;
    std::vector<uint64_t> lost;
    for (uint32_t h = 0; h < ft->GetNHosts(); ++h)
    {
        Ptr<DcnTransport> t = DcnTransportHelper::Get(ft->GetHosts().Get(h));
        Ptr<RrHostTable> tab = DynamicCast<RrHostTable>(t->GetSharedState()->Get("rr"));
        if (!tab)
        {
            continue;
        }
        for (size_t p = 0; p < tab->sent.size(); ++p)
        {
            if (sent.size() <= p)
            {
                sent.resize(p + 1);
                acked.resize(p + 1);
                ecn.resize(p + 1);
                lost.resize(p + 1);
            }
            sent[p] += tab->sent[p];
            acked[p] += tab->acked[p];
            ecn[p] += tab->ecn[p];
            lost[p] += tab->lost[p];
        }
    }
    if (!sent.empty())
    {
        std::cout << "path id   packets      ACKs  ECN-ACKs  lost\n";
        for (size_t p = 0; p < sent.size(); ++p)
        {
            std::cout << std::setw(7) << p << std::setw(10) << sent[p] << std::setw(10) << acked[p]
                      << std::setw(10) << ecn[p] << std::setw(6) << lost[p] << "\n";
        }
    }
    Simulator::Destroy();
    return stats.AllFinished() || allowUnfinished ? 0 : DCN_EXIT_UNFINISHED;
}
