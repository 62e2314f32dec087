#include "spritz-experiment.h"

#include "graph-topology-helper.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/dcn-graph-routing.h"
#include "ns3/dcn-header.h"
#include "ns3/dcn-options.h"
#include "ns3/dcn-queue-disc.h"
#include "ns3/dcn-spritz-info.h"
#include "ns3/dcn-transport-helper.h"
#include "ns3/failure-helper.h"
#include "ns3/log.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/spritz-path-selector.h"
#include "ns3/string.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"
#include "ns3/workload-helper.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SpritzExperiment");

bool
SpritzIsRoutingBaseline(const std::string& scheme)
{
    return scheme == "minimal" || scheme == "valiant" || scheme == "valiant-t" ||
           scheme == "ugal-l" || SpritzIsNs3Baseline(scheme);
}

bool
SpritzIsNs3Baseline(const std::string& scheme)
{
    return scheme == "ns3-global" || scheme == "ns3-global-ecmp";
}

std::string
SpritzPaperControlRoute(const std::string& experiment)
{
    return experiment == "failures" ? "ev" : "default";
}

uint32_t
SpritzPaperBdpPackets(const std::string& topoFamily)
{
    return topoFamily == "sf" ? 92 : 88;
}

namespace
{
/** The current default of attribute "ns3::Type::Attr" (Config::SetDefault's value). */
Ptr<const AttributeValue>
AttributeDefault(const std::string& path)
{
    const size_t sep = path.rfind("::");
    TypeId tid = TypeId::LookupByName(path.substr(0, sep));
    TypeId::AttributeInformation info;
    NS_ABORT_MSG_UNLESS(tid.LookupAttributeByName(path.substr(sep + 2), &info),
                        "SpritzExperiment: no attribute " << path);
    return info.initialValue;
}

/** Puts the listed attributes' defaults back as they were when it was made, however the
 *  scope is left (normal return or an exception the caller catches). */
class DefaultsRestorer
{
  public:
    explicit DefaultsRestorer(const std::vector<std::string>& paths)
    {
        for (const auto& p : paths)
        {
            m_saved.emplace_back(p, AttributeDefault(p));
        }
    }

    ~DefaultsRestorer()
    {
        for (const auto& [path, value] : m_saved)
        {
            Config::SetDefault(path, *value);
        }
    }

    DefaultsRestorer(const DefaultsRestorer&) = delete;
    DefaultsRestorer& operator=(const DefaultsRestorer&) = delete;

  private:
    std::vector<std::pair<std::string, Ptr<const AttributeValue>>> m_saved;
};
} // namespace

SpritzExperimentResult
RunSpritzExperiment(const SpritzExperimentConfig& c)
{
    NS_LOG_FUNCTION(c.topo << c.scheme);
    SpritzExperimentResult r;
    NS_ABORT_MSG_IF(c.plan.messages.empty(), "SpritzExperiment: empty workload plan");
    RngSeedManager::SetSeed(c.seed);
    RngSeedManager::SetRun(c.run);
    const bool routingBaseline = SpritzIsRoutingBaseline(c.scheme);
    const std::string lb = routingBaseline ? "ecmp" : c.scheme;
    const char* kQuickAdapt = "ns3::DctcpCc::QuickAdapt";
    const char* kFastIncrease = "ns3::DctcpCc::FastIncrease";
    const char* kPerPacket = "ns3::DcnValiantForwardingPolicy::PerPacket";
    const char* kCtrl = "ns3::DcnSpritzForwardingPolicy::ControlRoute";
    const char* kRandomEcmp = "ns3::Ipv4GlobalRouting::RandomEcmpRouting";
    // every default set here is put back when this function is left, however it is left
    const DefaultsRestorer restore({kQuickAdapt, kFastIncrease, kPerPacket, kCtrl, kRandomEcmp});
    auto setUnlessKept = [&c](const char* path, const AttributeValue& v) {
        if (std::find(c.keepDefaults.begin(), c.keepDefaults.end(), path) == c.keepDefaults.end())
        {
            Config::SetDefault(path, v);
        }
    };
    // The same CC for every scheme (spec 4.1)
    setUnlessKept(kQuickAdapt, BooleanValue(c.smarttCc));
    setUnlessKept(kFastIncrease, BooleanValue(c.smarttCc));
    // Valiant as the paper ran it: an independent random choice per packet (spec 4.2)
    setUnlessKept(kPerPacket, BooleanValue(true));
    // ACK routing: the caller's, else the attribute default as the command line left it
    if (!c.controlRoute.empty())
    {
        Config::SetDefault(kCtrl, StringValue(c.controlRoute));
    }
    // ns-3's own routing (Ipv4GlobalRouting: first route, or per-packet random ECMP)
    const bool ns3Routing = SpritzIsNs3Baseline(c.scheme);
    Config::SetDefault(kRandomEcmp, BooleanValue(c.scheme == "ns3-global-ecmp"));
    const std::string routing =
        ns3Routing
            ? "minimal"
            : (routingBaseline ? c.scheme : (lb == "ecmp" || lb == "ops" ? "minimal" : "spritz"));
    // As DcnTopologyPresets::Create, with the paper's queues and trimming (spec 4.1).
    dcn::SwitchGraph graph = DcnTopologyPresets::Graph(c.topo, c.topoParams);
    if (routing == "spritz" && graph.fam.family != "dragonfly" && graph.fam.family != "slimfly")
    {
        throw DcnOptionError("spritz experiment: topology '" + c.topo +
                             "' is not a Dragonfly or Slim Fly");
    }
    Ptr<DcnGraphTopology> topo = CreateObject<DcnGraphTopology>();
    topo->SetAttribute("ForwardingPolicy", StringValue(DcnRoutingPolicies::TypeIdName(routing)));
    topo->SetAttribute("QueueLimit",
                       QueueSizeValue(QueueSize(std::to_string(c.queuePackets * 4150) + "B")));
    topo->SetAttribute("TrimEnabled", BooleanValue(c.trimming));
    topo->SetAttribute("Routing", StringValue(ns3Routing ? "global" : "dcn"));
    topo->SetGraph(graph);
    topo->Build();
    int64_t stream = 1;
    stream += topo->AssignStreams(stream);
    int64_t selectorBase = std::max<int64_t>(stream, 1000);
    stream = selectorBase + WorkloadHelper::SELECTOR_STREAM_BLOCK;

    DcnTransportHelper th;
    th.SetTransportAttribute("Rto", TimeValue(c.rto));
    th.SetTransportAttribute("Trimming", BooleanValue(c.trimming));
    th.Install(topo->GetHosts());
    DcnHeader h;
    const uint32_t headerBytes = 2 + 20 + 8 + h.GetSerializedSize();

    Ptr<FailureHelper> fh = CreateObject<FailureHelper>(topo);
    for (uint32_t l : c.failedLinks)
    {
        NS_ABORT_MSG_IF(l >= topo->GetGraph().NLinks(),
                        "SpritzExperiment: failed link " << l << "; allowed [0,"
                                                         << topo->GetGraph().NLinks() << ")");
        fh->FailLinkSilent(l, Seconds(0));
    }
    stream += fh->AssignStreams(stream);

    Ptr<WorkloadHelper> wl = CreateObject<WorkloadHelper>();
    wl->SetPlan(c.plan);
    wl->SetAttribute("LoadBalancer", StringValue(lb));
    wl->SetAttribute("ConnectionPolicy", StringValue("OnePerPair"));
    wl->SetAttribute("StartTime", TimeValue(NanoSeconds(0)));
    wl->SetAttribute("HeaderBytes", UintegerValue(headerBytes));
    wl->SetAttribute("StopWhenDone", BooleanValue(true));
    if (c.bdpPackets > 0)
    {
        wl->SetAttribute("BdpPackets", UintegerValue(c.bdpPackets));
    }
    wl->AddSelectorAttribute("ResetTime", TimeValue(c.resetTime), true);
    if (c.scheme == "flicr")
    {
        // Flicr (w) as the paper's baseline: one weighted-random entry of the pair's Spritz
        // EV list (Eq. 1 weights), moved on congestion (spec 4.2)
        wl->AddSelectorAttribute("PathSource", StringValue("spritz"), true);
    }
    const std::string bgLb = routing == "spritz" ? "spritz-ecmp" : "ecmp";
    for (uint32_t h : c.backgroundHosts)
    {
        NS_ABORT_MSG_IF(h >= graph.NHosts(),
                        "SpritzExperiment: background host " << h << "; allowed [0,"
                                                             << graph.NHosts() << ")");
        wl->SetHostLoadBalancer(h, bgLb);
    }
    for (const auto& a : c.lbAttrs)
    {
        wl->AddSelectorAttribute(a.first, StringValue(a.second), true);
    }
    wl->AssignStreams(selectorBase - 2);
    wl->Install(topo);
    r.total = static_cast<uint32_t>(c.plan.messages.size());
    if (c.onBuilt)
    {
        c.onBuilt(topo);
    }

    auto w0 = std::chrono::steady_clock::now();
    Simulator::Stop(c.stop);
    Simulator::Run();
    r.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
    r.endTime = Simulator::Now();
    r.events = Simulator::GetEventCount();
    wl->Finalize();
    r.stats = wl->GetStats();
    r.stats.SetRunEnd(r.endTime);
    r.summary = r.stats.Summarize();
    r.completed = r.summary.count;
    for (const auto& li : topo->GetLinks())
    {
        for (auto dev : {li.devA, li.devB})
        {
            Ptr<DcnQueueDisc> q = topo->GetQueueDisc(dev);
            if (q)
            {
                r.congestionDrops += q->GetNDropped();
                r.trims += q->GetNTrimmed();
            }
        }
    }
    r.injectedDrops = fh->GetInjectedDrops() + fh->GetBlackholeDrops();
    for (uint32_t i = 0; i < topo->GetNHosts(); ++i)
    {
        Ptr<DcnTransport> t = DcnTransportHelper::Get(topo->GetHosts().Get(i));
        const auto& st = t->GetStats();
        r.dataPackets += st.dataPacketsSent;
        r.retransmissions += st.retransmissions;
        r.timeouts += st.timeouts;
        r.outOfOrder += st.outOfOrderPackets;
        r.delivered += st.dataPacketsReceived;
        for (uint32_t k = 0; k < t->GetNConnections(); ++k)
        {
            Ptr<DcnSpritzPathSelector> sp =
                DynamicCast<DcnSpritzPathSelector>(t->GetConnection(k)->GetPathSelector());
            r.blockedPaths += sp ? sp->GetCore().Blocks() : 0;
            r.connections++;
            r.spritzEcmpConnections += sp && sp->GetMode() == DcnSpritzPathSelector::ECMP ? 1 : 0;
        }
    }
    wl->Dispose();
    Simulator::Destroy();
    return r;
}

// ---- workloads ----

namespace
{
/** Plan draws: an ns-3 stream of their own (fixed number + seed), so plans are reproducible. */
Ptr<UniformRandomVariable>
PlanRng(uint32_t seed)
{
    Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
    u->SetStream(500000 + seed);
    return u;
}

WorkloadMessage
Msg(uint32_t s, uint32_t d, uint64_t bytes)
{
    WorkloadMessage m;
    m.src = s;
    m.dst = d;
    m.bytes = bytes;
    return m;
}
} // namespace

WorkloadPlan
SpritzMotivationalPlan(const std::string& topo,
                       const std::map<std::string, std::string>& params,
                       uint32_t src,
                       uint32_t dst,
                       uint64_t bytes,
                       uint32_t freeGroups,
                       uint32_t sendersPerGroup)
{
    dcn::SwitchGraph g = DcnTopologyPresets::Graph(topo, params);
    NS_ABORT_MSG_IF(g.fam.family != "dragonfly",
                    "motivational scenario: Dragonfly only; '" << topo << "' is " << g.fam.family);
    dcn::MinimalRouting mr(g);
    WorkloadPlan plan;
    plan.name = "motivational";
    plan.nHosts = g.NHosts();
    DCN_REFUSE_IF(src >= g.NHosts() || dst >= g.NHosts() || src == dst,
                  "option --topoParams: the motivational scenario's monitored flow "
                      << src << " -> " << dst << " needs distinct hosts in [0, " << g.NHosts()
                      << "); allowed: a Dragonfly with at least 2 hosts per group");
    plan.messages.push_back(Msg(src, dst, bytes));
    const uint32_t gs = mr.GroupOf(g.SwitchOfHost(src));
    const uint32_t gd = mr.GroupOf(g.SwitchOfHost(dst));
    uint32_t nGroups = 0;
    for (const auto& s : g.switches)
    {
        nGroups = std::max(nGroups, s.group + 1);
    }
    // free: the destination group and the (freeGroups - 1) groups after it (never the source's)
    std::vector<bool> isFree(nGroups, false);
    isFree[gd] = true;
    for (uint32_t k = 1, n = 1; n < freeGroups && k < nGroups; ++k)
    {
        const uint32_t G = (gd + k) % nGroups;
        if (G != gs)
        {
            isFree[G] = true;
            ++n;
        }
    }
    for (uint32_t G = 0; G < nGroups; ++G)
    {
        if (isFree[G])
        {
            continue;
        }
        // targets: the hosts of the switch owning G's global link to the destination group,
        // round robin
        const uint32_t gw = mr.Gateway(G, gd);
        uint32_t added = 0;
        for (uint32_t s = 0; s < g.NSwitches() && added < sendersPerGroup; ++s)
        {
            if (mr.GroupOf(s) != G || s == gw)
            {
                continue;
            }
            for (uint32_t k = 0; k < g.switches[s].nHosts && added < sendersPerGroup; ++k)
            {
                const uint32_t host = g.FirstHost(s) + k;
                if (host != src)
                {
                    const uint32_t target = g.FirstHost(gw) + added % g.switches[gw].nHosts;
                    plan.messages.push_back(Msg(host, target, bytes));
                    ++added;
                }
            }
        }
    }
    return plan;
}

WorkloadPlan
SpritzIncastPlan(const std::string& topo,
                 const std::map<std::string, std::string>& params,
                 uint32_t degree,
                 uint32_t receiver,
                 uint64_t bytes,
                 uint32_t seed)
{
    NS_LOG_FUNCTION(topo << degree << receiver << bytes << seed);
    dcn::SwitchGraph g = DcnTopologyPresets::Graph(topo, params);
    const uint32_t n = g.NHosts();
    NS_ABORT_MSG_IF(degree < 1 || receiver < degree || receiver >= n || degree + 3 > n,
                    "incast: degree " << degree << " receiver " << receiver
                                      << "; allowed senders 0..degree-1 below the receiver, "
                                      << "at least 2 bystanders, hosts [0," << n << ")");
    WorkloadPlan plan;
    plan.name = "incast";
    plan.nHosts = n;
    for (uint32_t s = 0; s < degree; ++s)
    {
        plan.messages.push_back(Msg(s, receiver, bytes));
    }
    std::vector<uint32_t> rest;
    for (uint32_t h = degree; h < n; ++h)
    {
        if (h != receiver)
        {
            rest.push_back(h);
        }
    }
    Ptr<UniformRandomVariable> rng = PlanRng(seed + 4444);
    const std::vector<uint32_t> perm =
        WorkloadPlanner::Derangement(static_cast<uint32_t>(rest.size()), rng);
    for (uint32_t i = 0; i < rest.size(); ++i)
    {
        plan.messages.push_back(Msg(rest[i], rest[perm[i]], bytes));
    }
    return plan;
}

WorkloadPlan
SpritzPermutationPlan(const std::string& topo,
                      const std::map<std::string, std::string>& params,
                      uint64_t bytes,
                      uint32_t seed)
{
    dcn::SwitchGraph g = DcnTopologyPresets::Graph(topo, params);
    const uint32_t n = g.NHosts();
    Ptr<UniformRandomVariable> rng = PlanRng(seed);
    std::vector<uint32_t> perm(n);
    std::iota(perm.begin(), perm.end(), 0);
    auto group = [&g](uint32_t h) { return g.switches[g.SwitchOfHost(h)].group; };
    // random permutation (Fisher-Yates), then repair same-group pairs by swapping
    for (uint32_t i = n - 1; i > 0; --i)
    {
        std::swap(perm[i], perm[rng->GetInteger(0, i)]);
    }
    for (int pass = 0; pass < 8; ++pass)
    {
        bool clean = true;
        for (uint32_t i = 0; i < n; ++i)
        {
            if (perm[i] == i || group(perm[i]) == group(i))
            {
                clean = false;
                const uint32_t j = rng->GetInteger(0, n - 1);
                if (perm[j] != i && group(perm[j]) != group(i) && perm[i] != j &&
                    group(perm[i]) != group(j))
                {
                    std::swap(perm[i], perm[j]);
                }
            }
        }
        if (clean)
        {
            break;
        }
    }
    WorkloadPlan plan;
    plan.name = "permutation";
    plan.nHosts = n;
    for (uint32_t i = 0; i < n; ++i)
    {
        if (perm[i] != i)
        {
            plan.messages.push_back(Msg(i, perm[i], bytes));
        }
    }
    return plan;
}

WorkloadPlan
SpritzAdversarialPlan(const std::string& topo,
                      const std::map<std::string, std::string>& params,
                      uint64_t bytes)
{
    dcn::SwitchGraph g = DcnTopologyPresets::Graph(topo, params);
    WorkloadPlan plan;
    plan.name = "adversarial";
    plan.nHosts = g.NHosts();
    if (g.fam.family == "dragonfly")
    {
        uint32_t nGroups = 0;
        for (const auto& s : g.switches)
        {
            nGroups = std::max(nGroups, s.group + 1);
        }
        const uint32_t perGroup = g.NHosts() / nGroups; // hosts numbered group by group
        for (uint32_t h = 0; h < g.NHosts(); ++h)
        {
            plan.messages.push_back(Msg(h, (h + perGroup) % g.NHosts(), bytes));
        }
        return plan;
    }
    dcn::MinimalRouting mr(g);
    std::vector<uint32_t> mate(g.NSwitches(), dcn::NONE);
    for (uint32_t s = 0; s < g.NSwitches(); ++s)
    {
        for (uint32_t t = s + 1; t < g.NSwitches() && mate[s] == dcn::NONE; ++t)
        {
            if (mate[t] == dcn::NONE && mr.BfsDist(s, t) == 2)
            {
                mate[s] = t;
                mate[t] = s;
            }
        }
    }
    for (uint32_t s = 0; s < g.NSwitches(); ++s)
    {
        if (mate[s] == dcn::NONE)
        {
            continue;
        }
        const uint32_t k = std::min(g.switches[s].nHosts, g.switches[mate[s]].nHosts);
        for (uint32_t i = 0; i < k; ++i)
        {
            plan.messages.push_back(Msg(g.FirstHost(s) + i, g.FirstHost(mate[s]) + i, bytes));
        }
    }
    return plan;
}

WorkloadPlan
SpritzCollectivePlan(const std::string& topo,
                     const std::map<std::string, std::string>& params,
                     const std::string& collective,
                     uint32_t endpoints,
                     uint64_t bytes,
                     uint32_t parallel,
                     uint64_t bgBytes,
                     uint32_t seed,
                     std::vector<uint32_t>* chosen)
{
    NS_LOG_FUNCTION(topo << collective << endpoints << bytes << parallel << bgBytes << seed);
    dcn::SwitchGraph g = DcnTopologyPresets::Graph(topo, params);
    const uint32_t n = g.NHosts();
    NS_ABORT_MSG_IF(endpoints < 2 || endpoints > n,
                    "collectives: " << endpoints << " endpoints; allowed 2.." << n);
    Ptr<UniformRandomVariable> rng = PlanRng(seed + 3333);
    std::vector<uint32_t> hosts(n);
    std::iota(hosts.begin(), hosts.end(), 0);
    for (uint32_t i = n - 1; i > 0; --i)
    {
        std::swap(hosts[i], hosts[rng->GetInteger(0, i)]);
    }
    std::vector<uint32_t> ep(hosts.begin(), hosts.begin() + endpoints);
    std::vector<uint32_t> rest(hosts.begin() + endpoints, hosts.end());
    std::sort(ep.begin(), ep.end());
    std::sort(rest.begin(), rest.end());
    WorkloadPlan coll;
    if (collective == "ring")
    {
        coll = WorkloadPlanner::RingAllreduce(endpoints, bytes);
    }
    else if (collective == "butterfly")
    {
        coll = WorkloadPlanner::ButterflyAllreduce(endpoints, bytes);
    }
    else
    {
        NS_ABORT_MSG_IF(collective != "alltoall",
                        "collectives: '" << collective << "'; allowed ring, butterfly, alltoall");
        coll = WorkloadPlanner::AllToAll(endpoints,
                                         std::max<uint64_t>(1, bytes / endpoints),
                                         parallel);
    }
    WorkloadPlan plan = coll;
    plan.name = "collectives-" + collective;
    plan.nHosts = n;
    for (auto& m : plan.messages)
    {
        m.src = ep[m.src];
        m.dst = ep[m.dst];
    }
    if (rest.size() >= 2)
    {
        const std::vector<uint32_t> perm =
            WorkloadPlanner::Derangement(static_cast<uint32_t>(rest.size()), rng);
        for (uint32_t i = 0; i < rest.size(); ++i)
        {
            plan.messages.push_back(Msg(rest[i], rest[perm[i]], bgBytes));
        }
    }
    if (chosen)
    {
        *chosen = ep;
    }
    return plan;
}

WorkloadPlan
SpritzWebSearchPlan(const std::string& topo,
                    const std::map<std::string, std::string>& params,
                    const FlowSizeCdf& cdf,
                    double load,
                    uint64_t hostRateBps,
                    Time duration,
                    uint32_t seed,
                    uint32_t maxSendersPerReceiver)
{
    NS_LOG_FUNCTION(topo << load << hostRateBps << duration << seed << maxSendersPerReceiver);
    dcn::SwitchGraph g = DcnTopologyPresets::Graph(topo, params);
    if (hostRateBps == 0 && g.NHosts() > 0)
    {
        hostRateBps =
            static_cast<uint64_t>(std::llround(g.switches[g.SwitchOfHost(0)].hostRateBps));
    }
    Ptr<UniformRandomVariable> u = PlanRng(seed + 5555);
    Ptr<ExponentialRandomVariable> e = CreateObject<ExponentialRandomVariable>();
    e->SetStream(600000 + seed);
    WorkloadPlan plan = WorkloadPlanner::Poisson(g.NHosts(),
                                                 cdf,
                                                 load,
                                                 hostRateBps,
                                                 duration,
                                                 0,
                                                 u,
                                                 e,
                                                 maxSendersPerReceiver,
                                                 1.0,
                                                 PlanRng(seed + 6666)); // the cap's redraws
    plan.name = "websearch";
    return plan;
}

FctStats
SpritzStatsOfSources(const FctStats& stats, const std::vector<uint32_t>& hosts)
{
    FctStats out;
    for (const auto& r : stats.GetRecords())
    {
        if (std::binary_search(hosts.begin(), hosts.end(), r.src))
        {
            out.Add(r);
        }
    }
    out.SetRunEnd(stats.GetRunEnd());
    return out;
}

std::vector<uint32_t>
SpritzRandomLinks(const std::string& topo,
                  const std::map<std::string, std::string>& params,
                  double fraction,
                  uint32_t seed)
{
    dcn::SwitchGraph g = DcnTopologyPresets::Graph(topo, params);
    std::vector<uint32_t> ids(g.NLinks());
    std::iota(ids.begin(), ids.end(), 0);
    Ptr<UniformRandomVariable> rng = PlanRng(seed + 7777);
    for (uint32_t i = ids.empty() ? 0 : uint32_t(ids.size()) - 1; i > 0; --i)
    {
        std::swap(ids[i], ids[rng->GetInteger(0, i)]);
    }
    const uint32_t k = static_cast<uint32_t>(std::lround(fraction * g.NLinks()));
    ids.resize(std::min<uint32_t>(k, g.NLinks()));
    std::sort(ids.begin(), ids.end());
    return ids;
}

} // namespace ns3
