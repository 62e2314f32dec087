#include "reps-experiment.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/dcn-header.h"
#include "ns3/dcn-port-device.h"
#include "ns3/dcn-queue-disc.h"
#include "ns3/dcn-transport-helper.h"
#include "ns3/dctcp-cc.h"
#include "ns3/double.h"
#include "ns3/failure-helper.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/log.h"
#include "ns3/packet-hops.h"
#include "ns3/path-selector.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/random-variable-stream.h"
#include "ns3/reps-path-selector.h"
#include "ns3/reps-profile.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"
#include "ns3/workload-helper.h"

#include <algorithm>
#include <chrono>
#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RepsExperiment");

double
RepsExperimentResult::MaxFctUs() const
{
    if (completed < total)
    {
        return endTime.GetMicroSeconds();
    }
    return summary.maxUs;
}

namespace
{

constexpr int64_t kSelectorStreamFloor = 1000; //!< see Runner::Run

/** State of one run (lives on the stack of RunRepsExperiment). */
class Runner
{
  public:
    Runner(const RepsExperimentConfig& c, RepsExperimentResult& r)
        : m_c(c),
          m_r(r)
    {
    }

    void Run();

  private:
    void OnTx(uint32_t uplink, Ptr<const Packet> p);
    void Sample();

    const RepsExperimentConfig& m_c;
    RepsExperimentResult& m_r;
    Ptr<FatTreeHelper> m_ft;
    Ptr<WorkloadHelper> m_wl;
    uint32_t m_mtu{4096};
    uint32_t m_headerBytes{0};
    int64_t m_nextStream{kSelectorStreamFloor};
    std::vector<Ptr<DcnQueueDisc>> m_monQ;
    std::vector<uint64_t> m_bucketBytes; //!< current bucket, per uplink
    std::vector<double> m_upRateGbps;
};

void
Runner::OnTx(uint32_t uplink, Ptr<const Packet> p)
{
    m_bucketBytes[uplink] += p->GetSize();
}

void
Runner::Sample()
{
    double secs = m_c.bucket.GetSeconds();
    std::vector<double> u(m_monQ.size());
    std::vector<uint32_t> q(m_monQ.size());
    for (uint32_t i = 0; i < m_monQ.size(); ++i)
    {
        u[i] = m_bucketBytes[i] * 8.0 / secs / 1e9;
        m_bucketBytes[i] = 0;
        q[i] = m_monQ[i] ? m_monQ[i]->GetDataBytes() : 0;
    }
    m_r.utilGbps.push_back(u);
    m_r.queueBytes.push_back(q);
    Simulator::Schedule(m_c.bucket, &Runner::Sample, this);
}

void
Runner::Run()
{
    const RepsExperimentConfig& c = m_c;
    NS_ABORT_MSG_IF(c.routing != "dcn" && c.routing != "global" && c.routing != "global-ecmp",
                    "RepsExperiment: routing='" << c.routing
                                                << "'; allowed dcn, global, global-ecmp");
    NS_ABORT_MSG_IF(c.plan.nHosts != c.numTors * c.hostsPerTor,
                    "RepsExperiment: plan has " << c.plan.nHosts << " hosts, fabric "
                                                << c.numTors * c.hostsPerTor);
    NS_ABORT_MSG_IF(c.plan.messages.empty(), "RepsExperiment: empty workload plan");
    RngSeedManager::SetSeed(c.seed);
    RngSeedManager::SetRun(c.run);
    Config::SetDefault("ns3::Ipv4GlobalRouting::RandomEcmpRouting",
                       BooleanValue(c.routing == "global-ecmp"));

    m_ft = CreateObject<FatTreeHelper>();
    m_ft->SetAttribute("Tiers", UintegerValue(2));
    m_ft->SetAttribute("NumTors", UintegerValue(c.numTors));
    m_ft->SetAttribute("HostsPerTor", UintegerValue(c.hostsPerTor));
    m_ft->SetAttribute("UplinksPerTor", UintegerValue(c.uplinksPerTor));
    m_ft->SetAttribute("HostLinkRate", DataRateValue(c.hostRate));
    m_ft->SetAttribute("FabricLinkRate", DataRateValue(c.fabricRate));
    m_ft->SetAttribute("Routing", StringValue(c.routing == "dcn" ? "dcn" : "global"));
    m_ft->SetAttribute("SlowLinkFraction", DoubleValue(c.slowFraction));
    m_ft->SetAttribute("SlowLinkRate", DataRateValue(c.slowRate));
    const bool artifact = c.profile == "reps-artifact";
    NS_ABORT_MSG_IF(!c.profile.empty() && !artifact,
                    "RepsExperiment: profile='" << c.profile << "'; allowed '' or reps-artifact");
    if (artifact)
    {
        RepsArtifactProfile::ApplyFabric(m_ft, c.fabricRate);
    }
    for (const auto& a : c.fabricAttrs)
    {
        m_ft->SetAttribute(a.first, StringValue(a.second));
    }
    for (const auto& s : c.slowLinks)
    {
        m_ft->AddSlowLink(s.first, s.second);
    }
    m_ft->Build();
    if (artifact)
    {
        RepsArtifactProfile::ApplyQueues(m_ft);
    }
    // Random streams are chained (stream += x->AssignStreams(stream)) so no two
    // generators share a stream at any size: fabric from 1, path selectors from
    // max(next, 1000) in a reserved block (1000 is the base the published results
    // were produced with, so at 32 hosts the draws are unchanged), then failures.
    int64_t stream = 1;
    stream += m_ft->AssignStreams(stream);
    m_nextStream = std::max<int64_t>(stream, kSelectorStreamFloor);
    stream = m_nextStream + WorkloadHelper::SELECTOR_STREAM_BLOCK;

    DcnTransportHelper th;
    th.SetTransportAttribute("AckRatio", UintegerValue(c.ackRatio));
    th.SetTransportAttribute("AckEvMode", StringValue(c.ackEvMode));
    if (artifact)
    {
        RepsArtifactProfile::ApplyTransport(th, m_ft, c.fabricRate);
    }
    th.Install(m_ft->GetHosts());
    m_mtu = DcnTransportHelper::Get(m_ft->GetHosts().Get(0))->GetMtu();
    DcnHeader h;
    m_headerBytes = 2 + 20 + 8 + h.GetSerializedSize(); // PPP + IPv4 + UDP + DcnHeader

    Ptr<FailureHelper> fh = CreateObject<FailureHelper>(m_ft);
    for (const auto& f : c.failures)
    {
        NS_ABORT_MSG_IF(f.tor >= m_ft->GetNTors() || f.uplink >= c.uplinksPerTor,
                        "RepsExperiment: failure on tor " << f.tor << " uplink " << f.uplink
                                                          << " out of range");
        uint32_t link = m_ft->GetTorUplink(f.tor, f.uplink);
        if (f.kind == RepsFailure::SILENT)
        {
            fh->FailLinkSilent(link, f.start, f.duration);
        }
        else if (f.kind == RepsFailure::BLACKHOLE)
        {
            fh->Blackhole(link, f.dir, true, f.start, f.duration);
        }
        else if (f.dir == DcnLinkDir::BOTH)
        {
            fh->DegradeLink(link, f.rate, f.start, f.duration);
        }
        else
        {
            fh->DegradeLink(link, f.rate, f.dir, f.start, f.duration);
        }
    }
    stream += fh->AssignStreams(stream);

    if (c.monitorTor >= 0)
    {
        NS_ABORT_MSG_IF(uint32_t(c.monitorTor) >= m_ft->GetNTors(),
                        "RepsExperiment: monitorTor=" << c.monitorTor << " out of range");
        m_bucketBytes.assign(c.uplinksPerTor, 0);
        for (uint32_t u = 0; u < c.uplinksPerTor; ++u)
        {
            const DcnLinkInfo& li = m_ft->GetLink(m_ft->GetTorUplink(c.monitorTor, u));
            m_monQ.push_back(m_ft->GetQueueDisc(li.devA));
            DcnPortDevice::ConnectTxEnd(li.devA, MakeCallback(&Runner::OnTx, this).Bind(u));
        }
        if (!m_monQ.empty() && m_monQ[0])
        {
            m_r.queueLimitBytes = m_monQ[0]->GetDataLimit().GetValue();
        }
        Simulator::Schedule(c.bucket, &Runner::Sample, this);
    }

    // the one workload driver: one app per host, every message of a pair on one
    // connection, the scheme's selector with this experiment's attributes
    m_wl = CreateObject<WorkloadHelper>();
    m_wl->SetPlan(c.plan);
    m_wl->SetAttribute("LoadBalancer", StringValue(c.lb));
    m_wl->SetAttribute("ConnectionPolicy", StringValue("OnePerPair"));
    m_wl->SetAttribute("StartTime", TimeValue(c.workloadStart));
    m_wl->SetAttribute("HeaderBytes", UintegerValue(m_headerBytes));
    m_wl->SetAttribute("StopWhenDone", BooleanValue(true));
    m_wl->AddSelectorAttribute("EvSetSize", UintegerValue(c.evs), true);
    if (c.lb == "reps")
    {
        if (c.freezingTimeout.IsStrictlyPositive())
        {
            m_wl->AddSelectorAttribute("FreezingTimeout", TimeValue(c.freezingTimeout), false);
        }
        m_wl->AddSelectorAttribute("EvReuseCount", UintegerValue(c.evReuse), false);
        if (artifact)
        {
            RepsArtifactProfile::ApplySelector(m_wl);
        }
    }
    for (const auto& a : c.lbAttrs)
    {
        m_wl->AddSelectorAttribute(a.first, StringValue(a.second), true);
    }
    // the driver's first two streams draw plans (unused: the plan is given), so
    // its path selectors start exactly at m_nextStream, as before
    m_wl->AssignStreams(m_nextStream - 2);
    m_wl->Install(m_ft);
    m_r.total = c.plan.messages.size();

    DcnPacketHopCounter hops; // the one definition of packet hops (packet-hops.h)
    hops.Install(m_ft->GetHosts());
    hops.Install(m_ft->GetAllSwitches());
    auto w0 = std::chrono::steady_clock::now();
    Simulator::Stop(c.stop);
    Simulator::Run();
    m_r.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
    m_r.endTime = Simulator::Now();
    m_r.events = Simulator::GetEventCount();
    m_r.packetHops = hops.Get();

    m_r.stats = m_wl->GetStats();
    m_r.summary = m_r.stats.Summarize();
    m_r.completed = m_r.summary.count;
    for (const auto& li : m_ft->GetLinks())
    {
        for (auto dev : {li.devA, li.devB})
        {
            Ptr<DcnQueueDisc> q = m_ft->GetQueueDisc(dev);
            if (q)
            {
                m_r.congestionDrops += q->GetNDropped();
                m_r.marks += q->GetNMarked();
            }
        }
    }
    m_r.injectedDrops = fh->GetInjectedDrops();
    m_r.unroutableDrops = fh->GetUnroutableDrops();
    for (uint32_t i = 0; i < m_ft->GetNHosts(); ++i)
    {
        const auto& st = DcnTransportHelper::Get(m_ft->GetHosts().Get(i))->GetStats();
        m_r.dataPackets += st.dataPacketsSent;
        m_r.retransmissions += st.retransmissions;
        m_r.timeouts += st.timeouts;
        Ptr<DcnTransport> t = DcnTransportHelper::Get(m_ft->GetHosts().Get(i));
        for (uint32_t k = 0; k < t->GetNConnections(); ++k)
        {
            Ptr<RepsPathSelector> rp =
                DynamicCast<RepsPathSelector>(t->GetConnection(k)->GetPathSelector());
            m_r.freezes += rp ? rp->GetFreezeCount() : 0;
        }
    }
    m_r.injectedDrops += fh->GetBlackholeDrops();
    m_wl->Dispose();
    m_wl = nullptr;
    m_monQ.clear();
    m_ft = nullptr;
    Simulator::Destroy();
    Config::SetDefault("ns3::Ipv4GlobalRouting::RandomEcmpRouting", BooleanValue(false));
}

} // namespace

RepsExperimentResult
RunRepsExperiment(const RepsExperimentConfig& c)
{
    NS_LOG_FUNCTION(c.lb << c.numTors << c.hostsPerTor);
    RepsExperimentResult r;
    Runner runner(c, r);
    runner.Run();
    return r;
}

} // namespace ns3
