#include "hermes-experiment.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/dcn-options.h"
#include "ns3/dcn-queue-disc.h"
#include "ns3/dcn-tcp-shim-header.h"
#include "ns3/dcn-tcp-transport-helper.h"
#include "ns3/double.h"
#include "ns3/failure-helper.h"
#include "ns3/flow-size-cdf.h"
#include "ns3/graph-topology-helper.h"
#include "ns3/hermes-path-selector.h"
#include "ns3/nstime.h"
#include "ns3/queue-size.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"
#include "ns3/workload-helper.h"
#include "ns3/workload-plan.h"

#include <algorithm>
#include <chrono>

namespace ns3
{

const std::vector<std::string>&
HermesExperimentNames()
{
    static const std::vector<std::string> n =
        {"testbed", "testbed-asym", "sim", "sim-asym", "drop", "blackhole"};
    return n;
}

namespace
{

/** Topology preset and overrides of an experiment and scale. */
Ptr<DcnGraphTopology>
MakeTopology(const HermesExperimentConfig& c)
{
    std::map<std::string, std::string> ov;
    const bool testbed = c.experiment.rfind("testbed", 0) == 0;
    if (!testbed && !c.paperScale)
    {
        // small: 4 leaves x 4 spines x 4 hosts, same rates and 2:1 oversubscription
        ov = {{"leaves", "4"}, {"spines", "4"}, {"hostsPerLeaf", "4"}};
    }
    if (c.experiment == "sim-asym")
    {
        ov["slowFraction"] = "0.2"; // 20% of leaf-spine links at 2 Gb/s (spec 5)
        ov["slowRate"] = "2e9";
    }
    if (c.linkDelay.IsStrictlyPositive())
    {
        const std::string ns = std::to_string(c.linkDelay.GetNanoSeconds());
        ov["hostDelay"] = ns;
        ov["linkDelay"] = ns;
    }
    return DcnTopologyPresets::Create(testbed ? "hermes-testbed" : "hermes-sim", ov, "minimal");
}

} // namespace

void
HermesPaperDefaults(const std::string& experiment, const std::string& given)
{
    // spec 4: K = 65 packets at 10G (DCTCP paper), testbed 30 KB; [ART] 600-packet buffers
    const double buffer = 600 * 1500.0;
    const double k = experiment.rfind("testbed", 0) == 0 ? 30000.0 : 65 * 1500.0;
    auto set = [&given](const std::string& name, const AttributeValue& v) {
        if (given.find(name + "=") == std::string::npos)
        {
            Config::SetDefault(name, v);
        }
    };
    const QueueSizeValue limit(QueueSize(QueueSizeUnit::BYTES, static_cast<uint32_t>(buffer)));
    set("ns3::DcnGraphTopology::QueueLimit", limit);
    set("ns3::DcnGraphTopology::HostQueueLimit", limit);
    set("ns3::DcnGraphTopology::KminFraction", DoubleValue(k / buffer));
    set("ns3::DcnGraphTopology::KmaxFraction", DoubleValue(k / buffer));
    set("ns3::DcnGraphTopology::HostEcn", BooleanValue(true));
    // spec 4: RED with MinTh = MaxTh = K and QW = 1 marks on the instantaneous queue at
    // enqueue ([ART] too), so a packet's CE tells of the queue it waited in
    set("ns3::DcnGraphTopology::MarkAtDequeue", BooleanValue(false));
    // spec 4: initial RTO 10 ms.  ns-3 starts the RTT estimate at 1 s, which sets the RTO
    // (above MinRto) after a retransmitted SYN until a clean sample; [ART] starts at 80 us
    set("ns3::RttEstimator::InitialEstimation", TimeValue(MicroSeconds(80)));
    // [H] Sec. 5 (spec 5): Presto* "sprays packets instead of flowcells" behind a reorder
    // buffer: a flowcell of 1 byte makes every segment its own cell (until 2026-11-30 the
    // experiments ran SIGCOMM'15's 64 KB flowcells)
    set("ns3::DcnPrestoPathSelector::FlowcellBytes", UintegerValue(1));
}

HermesExperimentResult
RunHermesExperiment(const HermesExperimentConfig& c)
{
    HermesExperimentResult res;
    auto wall0 = std::chrono::steady_clock::now();
    RngSeedManager::SetRun(c.run);
    Ptr<DcnGraphTopology> t = MakeTopology(c);
    // the host links' delay (every link's, unless a preset differs per tier)
    for (const DcnLinkInfo& l : t->GetLinks())
    {
        if (l.tierA < 0 || l.tierB < 0)
        {
            res.hostLinkDelay = l.delay;
            break;
        }
    }
    int64_t stream = 1;
    stream += t->AssignStreams(stream);
    DcnTcpTransportHelper th;
    th.SetCongestionControl(c.cc);
    th.InstallOnHosts(t);
    Ptr<FailureHelper> fh = CreateObject<FailureHelper>(t);
    const uint32_t nHosts = t->GetNHosts();
    const uint32_t lastLeaf = t->GetSwitchOfHost(nHosts - 1);
    const uint32_t firstLeaf = t->GetSwitchOfHost(0);
    // the faulty switch of drop / blackhole (switch index; UINT32_MAX: none) and the
    // blackholed host pairs, to tell Hermes's failure detections on the fault from others
    uint32_t faultySw = UINT32_MAX;
    auto blackholed = [&](uint32_t a, uint32_t b) {
        return t->GetSwitchOfHost(a) == firstLeaf && t->GetSwitchOfHost(b) == lastLeaf &&
               (a + b) % 2 == 0;
    };
    if (c.experiment == "drop" || c.experiment == "blackhole")
    {
        faultySw = t->GetSwitchIndex(fh->FindSwitch("spine0"));
    }
    if (c.experiment == "testbed-asym")
    {
        // one leaf-spine link cut (routes withdrawn at once): 75% of the bisection
        for (const DcnLinkInfo& l : t->GetLinks())
        {
            if (l.tierA == 0 && l.tierB == 1)
            {
                fh->FailLink(l.id, Time(0), Time(0));
                break;
            }
        }
    }
    else if (c.experiment == "drop")
    {
        fh->SetSwitchDropRate(fh->FindSwitch("spine0"), 0.02, Time(0));
    }
    else if (c.experiment == "blackhole")
    {
        // spine0 drops every packet of half the host pairs from the first to the last rack
        for (uint32_t a = 0; a < nHosts; ++a)
        {
            for (uint32_t b = 0; b < nHosts; ++b)
            {
                if (blackholed(a, b))
                {
                    fh->AddBlackhole(fh->FindSwitch("spine0"),
                                     t->GetHostAddress(a),
                                     Ipv4Mask("255.255.255.255"),
                                     t->GetHostAddress(b),
                                     Ipv4Mask("255.255.255.255"),
                                     Time(0));
                }
            }
        }
    }
    // plan: Poisson per host at load x (leaf uplink capacity per host), receivers under
    // other leaves (spec 5 [NP = ART])
    FlowSizeCdf cdf = FlowSizeCdf::Load(c.workload);
    const uint64_t hostBps = t->GetHostLinkRate().GetBitRate();
    // leaf uplink capacity per host of leaf 0 at the *nominal* uplink rate: the fastest
    // leaf-spine link, i.e. before sim-asym slowed 20 % of them to 2 Gb/s (the load axis is
    // the symmetric fabric's, as in the paper; until 2026-11-30 leaf 0's slowed link
    // leaf0-spine5 made the paper-scale sim-asym loads 0.9 x their label)
    uint32_t hostsLeaf0 = 0;
    for (uint32_t h = 0; h < nHosts; ++h)
    {
        hostsLeaf0 += t->GetSwitchOfHost(h) == firstLeaf ? 1 : 0;
    }
    uint32_t upLinksLeaf0 = 0;
    uint64_t nominalUpBps = 0;
    for (const DcnLinkInfo& l : t->GetLinks())
    {
        if (l.tierA == 0 && l.tierB == 1)
        {
            nominalUpBps = std::max<uint64_t>(nominalUpBps, l.rate.GetBitRate());
            upLinksLeaf0 += t->GetSwitchIndex(l.a) == firstLeaf ? 1 : 0;
        }
    }
    const double upPerHost = static_cast<double>(upLinksLeaf0) * static_cast<double>(nominalUpBps) /
                             std::max<uint32_t>(1, hostsLeaf0);
    res.offeredBpsPerHost = c.load * upPerHost;
    Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
    Ptr<ExponentialRandomVariable> e = CreateObject<ExponentialRandomVariable>();
    stream = std::max<int64_t>(stream, 1000);
    u->SetStream(stream++);
    e->SetStream(stream++);
    WorkloadPlan plan = WorkloadPlanner::Poisson(nHosts,
                                                 cdf,
                                                 c.load * upPerHost / static_cast<double>(hostBps),
                                                 hostBps,
                                                 c.duration,
                                                 0,
                                                 u,
                                                 e);
    for (auto& m : plan.messages)
    {
        const uint32_t sl = t->GetSwitchOfHost(m.src);
        while (t->GetSwitchOfHost(m.dst) == sl)
        {
            m.dst = u->GetInteger(0, nHosts - 1);
        }
    }
    if (plan.messages.empty())
    {
        // a short arrival window at a low load can draw no flow: an empty point (flows 0,
        // noFlows set; the driver says so in a note line), no simulation
        Simulator::Destroy();
        res.noFlows = true;
        return res;
    }
    Ptr<WorkloadHelper> wl = CreateObject<WorkloadHelper>();
    stream += wl->AssignStreams(stream);
    fh->AssignStreams(stream);
    wl->SetPlan(plan);
    wl->SetAttribute("LoadBalancer", StringValue(c.lb));
    wl->SetAttribute("ConnectionPolicy", StringValue("NewPerMessage"));
    for (const auto& a : c.selectorAttrs)
    {
        wl->AddSelectorAttribute(a.first, StringValue(a.second), true);
    }
    wl->Install(t);
    // the injected drops by what the packet carried, read from its bytes (PPP first)
    fh->TraceConnectWithoutContext(
        "InjectedDrop",
        MakeBoundCallback(
            +[](HermesExperimentResult* r, Ptr<const Packet> p, uint32_t, uint32_t) {
                switch (DcnTcpShimHeader::PacketKind(p, 2))
                {
                case DcnTcpShimHeader::KIND_DATA:
                    ++r->dropsData;
                    break;
                case DcnTcpShimHeader::KIND_NO_DATA:
                    ++r->dropsAck;
                    break;
                case DcnTcpShimHeader::KIND_PROBE:
                    ++r->dropsProbe;
                    break;
                default:
                    ++r->dropsOther;
                }
            },
            &res));
    const uint64_t ev0 = Simulator::GetEventCount();
    Simulator::Stop(c.stop);
    Simulator::Run();
    res.events = Simulator::GetEventCount() - ev0;
    wl->Finalize();
    const FctStats& st = wl->GetStats();
    res.all = st.Summarize();
    res.small = st.Summarize(0, 100000);
    res.large = st.Summarize(10000001, UINT64_MAX);
    res.flows = static_cast<uint32_t>(plan.messages.size());
    res.injectedDrops = fh->GetInjectedDrops();
    for (uint32_t h = 0; h < nHosts; ++h)
    {
        Ptr<DcnTcpShim> shim = t->GetHosts().Get(h)->GetObject<DcnTcpTransport>()->GetShim();
        if (!shim)
        {
            continue; // PathShim=false: plain TCP, no shim counters
        }
        for (const HermesPathSelector::FailureEvidence& d : HermesPathSelector::GetFailureEvidence(
                 t->GetHosts().Get(h)->GetObject<DcnTcpTransport>()->GetSharedState()))
        {
            res.timeoutFailures += d.timeoutFailures;
            res.retxFailures += d.retxFailures;
            const uint32_t dstSw = d.dstHost < nHosts ? t->GetSwitchOfHost(d.dstHost) : d.dstSwitch;
            const DcnPathSet* ps = faultySw == UINT32_MAX || dstSw >= t->GetNSwitches()
                                       ? nullptr
                                       : &t->GetPaths(t->GetSwitchOfHost(h), dstSw);
            if (!ps || d.path < 0 || static_cast<std::size_t>(d.path) >= ps->paths.size())
            {
                continue;
            }
            // on the fault: the path crosses spine0 and, under the blackhole, the host pair
            // (a rack record: the rack pair) is blackholed
            const std::vector<uint32_t>& sw = ps->paths[d.path].switches;
            const bool onFault =
                std::find(sw.begin(), sw.end(), faultySw) != sw.end() &&
                (c.experiment != "blackhole" ||
                 (d.dstHost < nHosts ? blackholed(h, d.dstHost)
                                     : t->GetSwitchOfHost(h) == firstLeaf && dstSw == lastLeaf));
            res.timeoutFailuresOnFault += onFault ? d.timeoutFailures : 0;
            res.retxFailuresOnFault += onFault ? d.retxFailures : 0;
        }
        const DcnTcpShimStats& ss = shim->GetStats();
        res.segments += ss.encapsulated;
        res.retransmissions += ss.retransmissions;
        res.pathChanges += ss.pathChanges;
        res.timeouts += ss.timeouts;
    }
    if (c.lb.rfind("hermes", 0) == 0)
    {
        // the thresholds Sec. 3.3's rule derived (the selector's attributes as the run's)
        Ptr<HermesPathSelector> h = CreateObject<HermesPathSelector>();
        for (const auto& a : c.selectorAttrs)
        {
            h->SetAttribute(a.first, StringValue(a.second));
        }
        BooleanValue rule;
        h->GetAttribute("RttThresholdsFromRule", rule);
        const Time hop = HermesPathSelector::RuleHopDelay(t, 0);
        if (rule.Get() && hop.IsStrictlyPositive())
        {
            res.rttThresholds = "T_RTT_high=base+" + std::to_string(hop.GetNanoSeconds() * 3 / 2) +
                                "ns;DeltaRtt=" + std::to_string(hop.GetNanoSeconds()) +
                                "ns (RttThresholdsFromRule)";
        }
    }
    for (const DcnLinkInfo& l : t->GetLinks())
    {
        // CE marks by where they were set: a host NIC is the a side of a host link
        Ptr<DcnQueueDisc> qa = t->GetQueueDisc(l.devA);
        Ptr<DcnQueueDisc> qb = t->GetQueueDisc(l.devB);
        const uint64_t ma = qa ? qa->GetNMarked() : 0;
        const uint64_t mb = qb ? qb->GetNMarked() : 0;
        (l.tierA < 0 ? res.hostMarks : res.switchMarks) += ma;
        res.switchMarks += mb;
        res.downlinkMarks += l.tierA < 0 ? mb : 0;
    }
    wl->Dispose();
    Simulator::Destroy();
    res.wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    return res;
}

} // namespace ns3
