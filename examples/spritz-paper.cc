/*
 * spritz-paper: the Spritz paper's experiments (Bonato et al., "Spritz: Path-Aware
 * Load Balancing in Low-Diameter Networks"; spec spritz.md 4-5) on Dragonfly and
 * Slim Fly, one CSV row per (experiment, topology, scheme, seed).
 *
 *   --experiment=motivational  Table III: one monitored 4 MiB flow, background flows
 *                              to the switch owning each group's global link to the
 *                              destination group (DF only); plus the solo FCT
 *   --experiment=permutation   every host to one random host outside its group
 *   --experiment=adversarial   DF group i -> i+1; SF paired switches at distance 2
 *   --experiment=incast        `degree` senders to one host + a bystander permutation
 *   --experiment=failures      permutation with 2 % of the switch-switch links failed
 *                              silently from t = 0 (no table update)
 *   --experiment=collectives   ring / butterfly Allreduce and Alltoall among `endpoints`
 *                              random hosts (128 paper, 32 small) + a background
 *                              permutation on the other hosts (spec 4.3.5); one row per
 *                              collective ("collectives-ring", ...), FCT columns and
 *                              completion_us over the collective's messages only
 *   --experiment=websearch     web-search flow sizes, Poisson arrivals at --load (1.0)
 *                              for --duration (1 ms paper, 100 us small; spec 4.3.6)
 *   --scale=small|paper        df-small / sf-small (default) or spritz-df / spritz-sf
 *   --topoParams=k=v,...       preset overrides (e.g. p=4: df-small with 4 hosts per switch)
 *
 * Schemes: minimal, valiant, ugal-l (switch routing, hosts ECMP), spritz-ecmp, flicr,
 * ops-u, ops-w, spritz-scout, spritz-spray-u, spritz-spray; on request ns-3's own routing
 * for comparison: ns3-global (Ipv4GlobalRouting, first route) and ns3-global-ecmp (its
 * RandomEcmpRouting), hosts ECMP; and valiant-t (Valiant with spec 4.2's per-switch
 * uniform next hop over the T1 / T2 candidates).  Runs unfinished at the
 * stop time (1 s, spec 4.1) are reported as "did not finish" (finished=0).
 *
 * Every scheme: DCTCP with one BDP for every connection, the spec's literal 88 (DF) /
 * 92 (SF) packets (spec 4.1: "BDP is computed on the longest path; use the literal
 * values"): window 1.5 x BDP = 132 / 138 packets, base RTT (QuickAdapt, FastIncrease)
 * 88 x 4150 B x 8 / 400 Gb/s = 7.3 us (--ns3::DcnWorkloadHelper::BdpPackets=0: each
 * pair's minimal-path BDP, as before 2026-11-30).  Spritz switches route ACKs / NACKs
 * on the default (minimal) table (spec 2.4), except --experiment=failures: by the
 * echoed EV, since a failed link on a pair's minimal reverse path would lose every
 * ACK (doc/spritz.rst); --ns3::DcnSpritzForwardingPolicy::ControlRoute=ev|default
 * sets every experiment's.
 * Exit status: 0, 2 bad input (one line).
 */
#include "ns3/dcn-options.h"
#include "ns3/dcn-scheme.h"
#include "ns3/flow-size-cdf.h"
#include "ns3/graph-topology-helper.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/spritz-experiment.h"

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <iostream>

using namespace ns3;

namespace
{
const std::vector<std::string> kAllSchemes = {"minimal",
                                              "valiant",
                                              "ugal-l",
                                              "spritz-ecmp",
                                              "flicr",
                                              "ops-u",
                                              "ops-w",
                                              "spritz-scout",
                                              "spritz-spray-u",
                                              "spritz-spray"};

void
Row(std::ostream& os,
    const std::string& exp,
    const std::string& topo,
    const std::string& scale,
    const std::string& scheme,
    uint32_t seed,
    const SpritzExperimentResult& r,
    double monitoredUs)
{
    os << exp << "," << topo << "," << scale << "," << scheme << "," << seed << "," << r.total
       << "," << r.completed << "," << (r.Finished() ? 1 : 0) << "," << std::fixed
       << std::setprecision(2) << monitoredUs << "," << r.summary.meanUs << "," << r.summary.p50Us
       << "," << r.summary.p99Us << "," << r.summary.maxUs << "," << r.summary.completionUs << ","
       << r.congestionDrops << "," << r.trims << "," << r.injectedDrops << "," << r.retransmissions
       << "," << r.timeouts << "," << std::setprecision(3) << r.OooPercent() << ","
       << r.blockedPaths << "," << r.events << "," << std::setprecision(2) << r.wallSeconds << "\n";
}
} // namespace

int
main(int argc, char** argv)
{
    std::string experiment = "motivational";
    std::string topoKind = "df";
    std::string scale = "small";
    std::string schemeList;
    uint64_t msgSize = 4ULL << 20;
    uint32_t seeds = 1;
    uint32_t freeGroups = 3;
    uint32_t incastDegree = 0;
    double failFraction = 0.02;
    Time stop = Seconds(1);
    Time rto = MicroSeconds(100);
    std::string collective = "all";
    uint32_t endpoints = 0;
    uint32_t parallel = 4;
    std::string cdfName = "websearch";
    double load = 1.0;
    Time duration = Seconds(0);
    uint32_t maxSenders = 0;
    std::string csv;
    DcnOptions opts(
        "spritz-paper",
        "The Spritz paper's experiments (Table III, permutation, adversarial, incast, "
        "failures, AI collectives, web search) on Dragonfly / Slim Fly; one CSV row per run");
    opts.Choice("experiment",
                "Experiment",
                experiment,
                {"motivational",
                 "permutation",
                 "adversarial",
                 "incast",
                 "failures",
                 "collectives",
                 "websearch"});
    opts.Choice("topo", "Topology family: df (Dragonfly) or sf (Slim Fly)", topoKind, {"df", "sf"});
    opts.Choice("scale",
                "small: df-small (72 hosts) / sf-small (200 hosts); paper: spritz-df (1056) / "
                "spritz-sf (1134)",
                scale,
                {"small", "paper"});
    std::vector<std::string> allowedSchemes = kAllSchemes;
    allowedSchemes.push_back("ns3-global");      // ns-3 Ipv4GlobalRouting, first route
    allowedSchemes.push_back("ns3-global-ecmp"); // ... with RandomEcmpRouting
    allowedSchemes.push_back("valiant-t");       // Valiant over T1/T2 (spec 4.2)
    opts.ChoiceList("schemes",
                    "Schemes (default: all of the experiment except ns-3's routing: "
                    "ns3-global, ns3-global-ecmp, and valiant-t, Valiant as spec 4.2 words "
                    "it: a uniform next hop over T1 / T2 per packet at each switch)",
                    schemeList,
                    allowedSchemes);
    std::string topoParams;
    opts.Text("topoParams",
              "Graph preset overrides key=value,... (e.g. p=4 for 4 hosts per switch of "
              "df-small; README: Topology presets); default none",
              topoParams);
    opts.Size("msgSize", "Bytes per flow (spec 4.3: 4 MiB)", msgSize).Range(1, 1ULL << 34);
    opts.Unsigned("seeds", "Seeds per scheme (RngRun 1..seeds)", seeds).Range(1, 100);
    opts.Unsigned("freeGroups",
                  "motivational: idle groups incl. the destination group (spec 4.3.1 [A]: 3)",
                  freeGroups)
        .Range(1, 1000);
    opts.Unsigned("incastDegree", "incast: senders (0 = 32 at paper scale, 8 small)", incastDegree)
        .Range(0, 100000);
    opts.Double("failFraction",
                "failures: fraction of switch-switch links (spec 4.3.7: 0.02)",
                failFraction)
        .Range(0, 1, true, true);
    Time monitorStart = Seconds(0);
    opts.Time("monitorStart",
              "motivational: start of the monitored flow, the background starting at 0 (paper "
              "silent; our choice 0 = together, > 0 = into established congestion); allowed "
              "0..1 ms",
              monitorStart)
        .Min(Seconds(0))
        .Max(MilliSeconds(1));
    opts.Time("stopTime", "Simulated-time cap (spec 4.1: 1 s)", stop)
        .Min(MicroSeconds(1))
        .Max(Seconds(100));
    opts.Time("rto", "Retransmission timeout (spec 3.5 [A]: > 44 us on DF)", rto)
        .Min(MicroSeconds(1))
        .Max(Seconds(1));
    opts.Choice("collective",
                "collectives: which collective(s) (spec 4.3.5: ring and butterfly Allreduce, "
                "Alltoall)",
                collective,
                {"all", "ring", "butterfly", "alltoall"});
    opts.Unsigned("endpoints",
                  "collectives: endpoints (spec 4.3.5: 128; 0 = 128 paper / 32 small, our "
                  "choice to fit df-small); a power of two for butterfly",
                  endpoints)
        .Range(0, 100000);
    opts.Unsigned("parallel",
                  "collectives: Alltoall parallel messages per endpoint (spec 4.3.5: n not "
                  "given; 4, our choice)",
                  parallel)
        .Range(1, 1024);
    opts.Text("cdf", "websearch: flow-size CDF, a name in data/workloads or a path", cdfName);
    opts.Double("load", "websearch: offered load of the host links (spec 4.3.6: 1.0)", load)
        .Range(0, 1, true, false);
    opts.Time("duration",
              "websearch: arrival window (spec 4.3.6: 1 ms; 0 = 1 ms paper / 100 us small, our "
              "choice)",
              duration)
        .Min(Seconds(0))
        .Max(Seconds(1));
    opts.Unsigned("maxSenders",
                  "websearch: at most this many simultaneous senders per receiver (Sec. V-A.c: "
                  "receivers are drawn \"while limiting the number of simultaneous senders per "
                  "receiver\", no number given; a flow is active from its start for size / "
                  "host rate, a receiver with k distinct other senders is redrawn, sizes and "
                  "starts stay; rows labelled websearch-cap<k>; 0 = no cap, the tables in "
                  "doc/spritz.rst)",
                  maxSenders)
        .Range(0, 100000);
    opts.Text("csv", "CSV output file (default: stdout only)", csv);
    opts.Check([&] {
        return experiment == "motivational" && topoKind != "df"
                   ? std::string("option --experiment: 'motivational' is Dragonfly only "
                                 "(Table III); allowed with --topo=df")
                   : std::string();
    });
    // ns-3's per-packet random ECMP is the scheme's choice (ns3-global / ns3-global-ecmp):
    // the experiment sets it per run, so a value given would be silently ignored
    opts.Check([&]() -> std::string {
        return opts.Given("ns3::Ipv4GlobalRouting::RandomEcmpRouting")
                   ? "option --ns3::Ipv4GlobalRouting::RandomEcmpRouting: set per scheme "
                     "here; allowed: --schemes=ns3-global (false) or ns3-global-ecmp (true)"
                   : std::string();
    });
    // an option of another experiment would be silently ignored: refuse it
    opts.Check([&]() -> std::string {
        const std::vector<std::pair<const char*, std::vector<std::string>>> only = {
            {"freeGroups", {"motivational"}},
            {"monitorStart", {"motivational"}},
            {"incastDegree", {"incast"}},
            {"failFraction", {"failures"}},
            {"collective", {"collectives"}},
            {"endpoints", {"collectives"}},
            {"parallel", {"collectives"}},
            {"cdf", {"websearch"}},
            {"load", {"websearch"}},
            {"duration", {"websearch"}},
            {"maxSenders", {"websearch"}},
            {"msgSize",
             {"motivational", "permutation", "adversarial", "incast", "failures", "collectives"}}};
        for (const auto& [name, exps] : only)
        {
            if (opts.Given(name) && std::find(exps.begin(), exps.end(), experiment) == exps.end())
            {
                std::string allowed;
                for (const auto& e : exps)
                {
                    allowed += (allowed.empty() ? "--experiment=" : ", ") + e;
                }
                return std::string("option --") + name +
                       ": does not apply to --experiment=" + experiment +
                       (experiment == "websearch" && std::string(name) == "msgSize"
                            ? " (its sizes come from --cdf)"
                            : "") +
                       "; allowed with " + allowed;
            }
        }
        return std::string();
    });
    FlowSizeCdf cdf;
    opts.Check([&] {
        if (experiment != "websearch")
        {
            return std::string();
        }
        std::string err = FlowSizeCdf::TryLoad(cdfName, &cdf);
        for (auto& ch : err)
        {
            ch = ch == '\n' ? ' ' : ch;
        }
        return err.empty() ? err : "option --cdf: " + err;
    });
    opts.Parse(argc, argv);
    std::vector<std::string> schemes;
    for (size_t pos = 0; pos < schemeList.size();)
    {
        const size_t end = schemeList.find(',', pos);
        schemes.push_back(schemeList.substr(pos, end == std::string::npos ? end : end - pos));
        pos = end == std::string::npos ? schemeList.size() : end + 1;
    }
    if (schemes.empty())
    {
        schemes = kAllSchemes;
    }
    // --RngRun=N shifts every run: seed k's simulation is run N + k - 1; its plan is drawn
    // on the plan stream of seed k under run N + k - 2 (seed 1: N), as it always was
    const uint64_t baseRun = RngSeedManager::GetRun();
    // --RngSeed (1 if not given) seeds every simulation and every plan
    const auto baseSeed = static_cast<uint32_t>(RngSeedManager::GetSeed());
    const bool paper = scale == "paper";
    const std::string topo =
        topoKind == "df" ? (paper ? "spritz-df" : "df-small") : (paper ? "spritz-sf" : "sf-small");
    std::map<std::string, std::string> params;
    dcn::SwitchGraph g;
    try
    {
        params = DcnTopologyPresets::ParseOverrides(topoParams);
        g = DcnTopologyPresets::Graph(topo, params);
    }
    catch (const DcnOptionError& e)
    {
        // every graph error here comes from the overrides (the preset names are fixed)
        std::string m = e.what();
        const std::string topoPrefix = "option --topo: ";
        if (m.compare(0, topoPrefix.size(), topoPrefix) == 0)
        {
            m = m.substr(topoPrefix.size());
        }
        DcnOptions::Exit(
            "spritz-paper",
            m.compare(0, 20, "option --topoParams:") == 0 ? m : "option --topoParams: " + m);
    }
    for (const auto& s : schemes)
    {
        if (!SpritzIsRoutingBaseline(s))
        {
            std::string err = DcnSchemeRegistry::CheckCompatible(s, topo, "dcn");
            if (err.empty())
            {
                err = DcnSchemeRegistry::Validate(s);
            }
            if (!err.empty())
            {
                DcnOptions::Exit("spritz-paper", err);
            }
        }
    }
    // the topology must carry the experiment's traffic (checked before any output)
    const std::string topoText =
        "--topo=" + topo + (topoParams.empty() ? "" : " --topoParams=" + topoParams);
    if (experiment == "motivational")
    {
        uint32_t groups = 0;
        for (const auto& s : g.switches)
        {
            groups = std::max(groups, s.group + 1);
        }
        const uint32_t perGroup = g.NHosts() / std::max(groups, 1U);
        if (perGroup < 2)
        {
            DcnOptions::Exit("spritz-paper",
                             "option --topoParams: " + topoText + " gives " +
                                 std::to_string(perGroup) +
                                 " host per group; --experiment=motivational monitors host 0 "
                                 "to the second host of group g/2; allowed: at least 2 hosts "
                                 "per group (p*a >= 2)");
        }
    }
    if (experiment == "incast")
    {
        const uint32_t deg = incastDegree > 0 ? incastDegree : (paper ? 32 : 8);
        if (g.NHosts() < 4)
        {
            DcnOptions::Exit("spritz-paper",
                             "option --topoParams: " + topoText + " gives " +
                                 std::to_string(g.NHosts()) +
                                 " hosts; --experiment=incast needs at least 4 (a sender, a "
                                 "receiver and 2 bystanders)");
        }
        if (uint64_t(deg) + 3 > g.NHosts())
        {
            DcnOptions::Exit("spritz-paper",
                             "option --incastDegree: " + std::to_string(deg) +
                                 " senders; allowed up to " + std::to_string(g.NHosts() - 3) +
                                 " (" + topoText + " has " + std::to_string(g.NHosts()) +
                                 " hosts: a receiver and 2 bystanders remain)");
        }
    }
    const uint32_t nEndpoints = endpoints > 0 ? endpoints : (paper ? 128 : 32);
    std::vector<std::string> collectives = {"ring", "butterfly", "alltoall"};
    if (collective != "all")
    {
        collectives = {collective};
    }
    if (experiment == "collectives")
    {
        const bool butterfly = collective == "all" || collective == "butterfly";
        if (nEndpoints < 2 || nEndpoints > g.NHosts())
        {
            DcnOptions::Exit("spritz-paper",
                             "option --endpoints: " + std::to_string(nEndpoints) +
                                 " endpoints; allowed 2 to " + std::to_string(g.NHosts()) +
                                 " (the hosts of " + topo + ")");
        }
        if (butterfly && (nEndpoints & (nEndpoints - 1)) != 0)
        {
            DcnOptions::Exit("spritz-paper",
                             "option --endpoints: " + std::to_string(nEndpoints) +
                                 " endpoints; butterfly Allreduce needs a power of two (or "
                                 "--collective=ring|alltoall)");
        }
    }
    const Time wsDuration =
        duration.IsStrictlyPositive() ? duration : (paper ? MilliSeconds(1) : MicroSeconds(100));
    const std::string header =
        "experiment,topo,scale,scheme,seed,flows,completed,finished,monitored_fct_us,mean_us,"
        "p50_us,p99_us,max_us,completion_us,drops,trims,failed_link_drops,retx,timeouts,ooo_pct,"
        "blocked_paths,events,wall_s\n";
    std::ofstream out;
    if (!csv.empty())
    {
        out.open(csv);
        if (!out)
        {
            DcnOptions::Exit("spritz-paper", "option --csv: cannot write '" + csv + "'");
        }
        out << header;
    }
    std::cout << header;
    // spec 4.1: queues of 1 BDP per port, and the BDP of every connection's window
    const uint32_t qPackets = SpritzPaperBdpPackets(topoKind);
    // the monitored pair of the motivational scenario: host 0 -> a host of group g/2
    uint32_t nGroups = 0;
    for (const auto& s : g.switches)
    {
        nGroups = std::max(nGroups, s.group + 1);
    }
    const uint32_t mSrc = 0;
    const uint32_t mDst = g.NHosts() / nGroups * (nGroups / 2) + 1;
    // rows of one run: (label, source hosts) - the row's FCT columns cover the messages of
    // those sources only (empty = all); drops, trims, retransmissions: whole fabric
    using Split = std::vector<std::pair<std::string, std::vector<uint32_t>>>;
    auto run = [&](const std::string& scheme,
                   uint32_t seed,
                   const WorkloadPlan& plan,
                   const std::vector<uint32_t>& failed,
                   const Split& rows,
                   const std::vector<uint32_t>& background) {
        SpritzExperimentConfig c;
        c.topo = topo;
        c.topoParams = params;
        c.scheme = scheme;
        c.queuePackets = qPackets;
        c.plan = plan;
        c.failedLinks = failed;
        c.stop = stop;
        c.rto = rto;
        c.seed = baseSeed;
        c.run = static_cast<uint32_t>(baseRun + seed - 1);
        c.backgroundHosts = background;
        // the user's --ns3:: values win (c.* empty / 0 = the attribute default)
        c.controlRoute = opts.Given("ns3::DcnSpritzForwardingPolicy::ControlRoute")
                             ? ""
                             : SpritzPaperControlRoute(experiment);
        c.bdpPackets = opts.Given("ns3::DcnWorkloadHelper::BdpPackets") ? 0 : qPackets;
        for (const char* a : {"ns3::DctcpCc::QuickAdapt",
                              "ns3::DctcpCc::FastIncrease",
                              "ns3::DcnValiantForwardingPolicy::PerPacket"})
        {
            if (opts.Given(a))
            {
                c.keepDefaults.emplace_back(a);
            }
        }
        SpritzExperimentResult r;
        try
        {
            r = RunSpritzExperiment(c);
        }
        catch (const DcnOptionError& e)
        {
            DcnOptions::Exit("spritz-paper", e.what());
        }
        double mon = -1;
        if (experiment == "motivational")
        {
            for (const auto& rec : r.stats.GetRecords())
            {
                if (rec.src == mSrc && rec.dst == mDst && rec.completed)
                {
                    mon = rec.Fct().GetMicroSeconds() + rec.Fct().GetNanoSeconds() % 1000 / 1000.0;
                }
            }
        }
        for (const auto& row : rows)
        {
            SpritzExperimentResult rr = r;
            if (!row.second.empty())
            {
                const FctStats cs = SpritzStatsOfSources(r.stats, row.second);
                rr.summary = cs.Summarize();
                rr.total = static_cast<uint32_t>(cs.GetRecords().size());
                rr.completed = rr.summary.count;
            }
            Row(std::cout, row.first, topo, scale, scheme, c.run, rr, mon);
            std::cout.flush();
            if (out.is_open())
            {
                Row(out, row.first, topo, scale, scheme, c.run, rr, mon);
                out.flush();
            }
        }
    };
    for (uint32_t seed = 1; seed <= seeds; ++seed)
    {
        // the plan's run (see baseRun): set here rather than left from the previous seed's
        // simulation, with the values every earlier table was drawn with
        RngSeedManager::SetSeed(baseSeed);
        RngSeedManager::SetRun(baseRun + (seed >= 2 ? seed - 2 : 0));
        WorkloadPlan plan;
        std::vector<uint32_t> failed;
        if (experiment == "motivational")
        {
            plan = SpritzMotivationalPlan(topo,
                                          params,
                                          mSrc,
                                          mDst,
                                          msgSize,
                                          freeGroups,
                                          g.NHosts() / nGroups);
            plan.messages[0].release = monitorStart;
            WorkloadPlan solo = plan;
            solo.messages.resize(1);
            solo.messages[0].release = Seconds(0);
            run("minimal", seed, solo, failed, {{"motivational-solo", {}}}, {});
        }
        else if (experiment == "collectives")
        {
            const auto planSeed = static_cast<uint32_t>(baseRun + seed - 1);
            for (const auto& coll : collectives)
            {
                std::vector<uint32_t> ep;
                const WorkloadPlan cp = SpritzCollectivePlan(topo,
                                                             params,
                                                             coll,
                                                             nEndpoints,
                                                             msgSize,
                                                             parallel,
                                                             msgSize,
                                                             planSeed,
                                                             &ep);
                // spec 4.3.5: the background permutation runs under ECMP
                std::vector<uint32_t> bg;
                for (uint32_t h = 0; h < g.NHosts(); ++h)
                {
                    if (!std::binary_search(ep.begin(), ep.end(), h))
                    {
                        bg.push_back(h);
                    }
                }
                for (const auto& s : schemes)
                {
                    run(s, seed, cp, failed, {{"collectives-" + coll, ep}}, bg);
                }
            }
            continue;
        }
        else if (experiment == "websearch")
        {
            const auto planSeed = static_cast<uint32_t>(baseRun + seed - 1);
            // --load of the built topology's host links (spec 4.1: 400 Gb/s, the presets'
            // rate; --topoParams=rate=... changes it)
            plan =
                SpritzWebSearchPlan(topo, params, cdf, load, 0, wsDuration, planSeed, maxSenders);
            if (plan.overCap > 0)
            {
                std::cerr << "spritz-paper: note: --maxSenders=" << maxSenders << ": "
                          << plan.overCap << " of " << plan.messages.size()
                          << " flows placed above the cap (every redraw was full)\n";
            }
            if (plan.messages.empty())
            {
                DcnOptions::Exit("spritz-paper",
                                 "option --duration: no flow arrives in " +
                                     std::to_string(wsDuration.GetNanoSeconds()) + " ns at load " +
                                     std::to_string(load) +
                                     "; allowed: a longer window or a higher --load");
            }
        }
        else if (experiment == "adversarial")
        {
            plan = SpritzAdversarialPlan(topo, params, msgSize);
        }
        else if (experiment == "incast")
        {
            const uint32_t deg = incastDegree > 0 ? incastDegree : (paper ? 32 : 8);
            // spec 4.3.4: hosts 0..deg-1 to host 160 (paper) / the middle host, bystanders
            // = a random disjoint permutation of the others; one row for the incast flows
            // and one for the bystanders
            const uint32_t recv = std::max(deg, paper && g.NHosts() > 160 ? 160 : g.NHosts() / 2);
            const auto planSeed = static_cast<uint32_t>(baseRun + seed - 1);
            plan = SpritzIncastPlan(topo, params, deg, recv, msgSize, planSeed);
            std::vector<uint32_t> senders;
            std::vector<uint32_t> bystanders;
            for (uint32_t h = 0; h < g.NHosts(); ++h)
            {
                if (h < deg)
                {
                    senders.push_back(h);
                }
                else if (h != recv)
                {
                    bystanders.push_back(h);
                }
            }
            for (const auto& s : schemes)
            {
                run(s,
                    seed,
                    plan,
                    failed,
                    {{"incast", senders}, {"incast-bystanders", bystanders}},
                    {});
            }
            continue;
        }
        else
        {
            const auto planSeed = static_cast<uint32_t>(baseRun + seed - 1);
            plan = SpritzPermutationPlan(topo, params, msgSize, planSeed);
            if (experiment == "failures")
            {
                failed = SpritzRandomLinks(topo, params, failFraction, planSeed);
            }
        }
        // a capped web search is another workload: its rows say so (websearch-cap<k>)
        const std::string label = experiment == "websearch" && maxSenders > 0
                                      ? "websearch-cap" + std::to_string(maxSenders)
                                      : experiment;
        for (const auto& s : schemes)
        {
            run(s, seed, plan, failed, {{label, {}}}, {});
        }
    }
    return 0;
}
