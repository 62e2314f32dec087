/*
 * laps-paper: the LAPS paper's experiments (laps spec section 4; doc/laps.rst)
 * on the presets laps-rail / laps-df, LAPS against its baselines, one fresh
 * simulation per load balancer with the same seed, CSV out.
 *
 *   --experiment=all2all    CDF flows between random host pairs, Poisson at
 *                           --load of the host link (Figs. 8-17)
 *   --experiment=allreduce  incast of one message per sender to one GPU
 *                           (Tables III-IV: Rail 63 senders -> host 0,
 *                           Dragonfly 107 senders -> host 36)
 *   --experiment=allscatter the reverse (Table II): the allreduce receiver sends
 *                           one message to each of the same peers, all at once
 *   --scale=small           seconds of CPU per scheme (default); allreduce:
 *                           8 of the paper's senders x 16 MB (doc/laps.rst)
 *   --scale=paper           the paper's sizes (64 MB per sender; 10 ms of
 *                           arrivals); documented, not run in tests
 *
 * Transports, as the paper ran them (spec 3; helper/laps-experiment.h): laps =
 * out-of-order transport with LAPS's AIMD (LapsCc) and per-path loss recovery
 * (no DCQCN, no go-back-N); ecmp, letflow, conga, conweave = RoCE (Mode=InOrder
 * go-back-N) + DCQCN; plb = DCTCP.  --pfc (default true) puts PFC and a 32 MB
 * shared buffer per switch under every scheme (DcnPfcHelper); --pfc=false gives
 * the lossy runs (150 KB drop-tail queues).  LetFlow and CONGA use the paper's
 * 50-us flowlet timeout; CONGA and ConWeave run on Rail / Dragonfly through their
 * first-hop generalisation (AnyTopology=true, doc/laps.rst).  --setup=authors
 * gives the LAPS authors' network ([A]; LapsExperimentConfig authorsEcn,
 * authorsBuffer, lapsPathBaselines): switch ECN by port rate, 1 MiB x (ports + 2)
 * per switch, ECMP / LetFlow / CONGA / ConWeave / PLB over the LAPS path set (CONGA
 * and ConWeave as --lb=conga-laps-paths / conweave-laps-paths, the source leaf's choice
 * among the LAPS paths), PLB on rate-based DCTCP (dctcp-rate, DctcpRateCc) over go-back-N
 * with the RoCE window (authorsPlb) and NACKs counted as congested feedback (NackIsCongestion,
 * an attribute default of the set-up); and [A]'s LAPS
 * per-path timer (PathTimeoutFactor 400), softmax / in-flight
 * cap by the unloaded delay (SoftmaxNorm, InflightCapBasis), 10-us flowlets, CONGA's choice
 * among 4 consecutive LAPS paths with uniform ties (PathSamples, TiesPreferCurrent), its
 * feedback of a uniformly drawn reverse path (FeedbackChoice Random) and
 * its DRE at 200 us x 0.2 (DreInterval, DreAlpha), ConWeave's timers as [A]'s constructor
 * (ReplyDeadlineExtra, InactiveTime, PathBusyTime, ResumeExtra; LapsAuthorsDefaults),
 * --loadRef=artifact (all2all) and --staggerStarts=10ms --staggerDraw=poisson (allreduce,
 * allscatter).
 *
 *   ./build/laps-paper
 *   ./build/laps-paper --experiment=allreduce --topo=df
 *   ./build/laps-paper --experiment=all2all --cdf=datamining --load=0.8 --csv=a2a.csv
 *   ./build/laps-paper --experiment=allscatter --topo=df --pathStats   # gaps (Fig. 18)
 *   ./build/laps-paper --setup=authors --cdf=hadoop
 */
#include "ns3/core-module.h"
#include "ns3/dcn-graph-checks.h"
#include "ns3/dcn-graph-routing.h"
#include "ns3/dcn-options.h"
#include "ns3/dcn-scheme.h"
#include "ns3/flow-size-cdf.h"
#include "ns3/graph-topology-helper.h"
#include "ns3/laps-experiment.h"
#include "ns3/rng-seed-manager.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("LapsPaper");

namespace
{

struct Options
{
    std::string experiment{"all2all"};
    std::string topo{"rail"};
    std::string scale{"small"};
    std::string lbs{"laps,ecmp,letflow,conga,conweave,plb"};
    bool pfc{true}; //!< PFC + 32 MB shared buffer per switch for every scheme (spec 3 [P])
    std::string cdf{"websearch"};
    double load{0.8};
    double loss{0};
    uint64_t msgBytes{0}; //!< 0 = the scale's
    uint32_t senders{0};  //!< allreduce senders; 0 = the scale's (small 8, paper all)
    Time duration{0};     //!< 0 = the scale's
    Time stopTime{Seconds(2)};
    std::string csv{"laps-paper.csv"};
    std::string flowCsv;    //!< "" = none: one row per flow
    std::string topoParams; //!< preset overrides key=value,... ("" = the paper's)
    Time queueStats{0};     //!< > 0: queue occupancy per link class, sampled at this interval
    bool pathStats{false};  //!< inter-packet gaps (Fig. 18) and LAPS path classes (Fig. 19)
    Time gapThreshold{MicroSeconds(50)};
    std::string classCsv;       //!< "" = none: one row per (scheme, path class)
    std::vector<double> alphas; //!< --alphas: each LAPS scheme once per softmax Alpha
    /** --setup: spec (the spec's network) or authors ([A]'s ECN thresholds, switch buffer
     *  and baseline routing over the LAPS paths; LapsExperimentConfig::authorsEcn, ...) */
    std::string setup{"spec"};
    /** --loadRef: host (load x the host link) or artifact ([A]'s TFC-All.txt reference) */
    std::string loadRef{"host"};
    /** --staggerStarts: allreduce / allscatter messages start over this window (0 = at once) */
    Time staggerStarts{0};
    /** --staggerDraw: uniform (n uniform times in the window) or poisson ([A]'s draw) */
    std::string staggerDraw{"uniform"};
    /** --roceWindow: the DCQCN baselines' send window (LapsExperimentConfig::dcqcnWindow) */
    uint64_t roceWindow{LapsExperimentConfig::UNIFIED_WINDOW};
};

/** A CSV text field without double quotes. */
std::string
Quote(std::string s)
{
    std::replace(s.begin(), s.end(), '"', '\'');
    return s;
}

/** The paper's incast degree (spec 4.2): Rail 63 (every other GPU), Dragonfly 107. */
uint32_t
PaperDegree(const Options& o)
{
    return o.topo == "df" ? 107 : 63;
}

/**
 * The allreduce senders: N of the paper's D senders (hosts receiver+1 ..
 * receiver+D), spread evenly: the j-th is the paper's sender floor((j + 1/2) D / N),
 * so N = D gives the paper's set.  Small scale: N = 8 (doc/laps.rst, "Small-scale
 * incast": each sender's bytes must dwarf its first window and Alg. 2's halvings).
 */
std::vector<uint32_t>
IncastSenders(const Options& o)
{
    const bool df = o.topo == "df";
    const uint32_t nHosts = df ? 144 : 64;
    const uint32_t receiver = df ? 36 : 0;
    const uint32_t d = PaperDegree(o);
    const uint32_t n = o.senders ? o.senders : (o.scale == "paper" ? d : 8);
    std::vector<uint32_t> v;
    for (uint32_t j = 0; j < n; ++j)
    {
        const uint32_t idx =
            static_cast<uint32_t>((2 * j + 1) * static_cast<uint64_t>(d) / (2 * n));
        v.push_back((receiver + 1 + idx) % nHosts);
    }
    return v;
}

LapsExperimentResult
RunOne(const Options& o, const std::string& lb)
{
    const bool paper = o.scale == "paper";
    const bool df = o.topo == "df";
    LapsExperimentConfig c;
    // --RngSeed / --RngRun as given (each run sets them again to these values)
    c.seed = RngSeedManager::GetSeed();
    c.run = RngSeedManager::GetRun();
    c.experiment = o.experiment;
    c.topo = df ? "laps-df" : "laps-rail";
    c.topoParams = DcnTopologyPresets::ParseOverrides(o.topoParams, "--topoParams");
    c.scheme = lb;
    c.pfc = o.pfc;
    c.cdf = o.cdf;
    c.load = o.load;
    c.loss = o.loss;
    c.duration = o.duration.IsStrictlyPositive() ? o.duration
                                                 : (paper ? MilliSeconds(10) : MicroSeconds(100));
    c.msgBytes = o.msgBytes ? o.msgBytes : (paper ? 64000000 : 16000000);
    // spec 4.2: Rail 63 senders -> one GPU; Dragonfly hosts 37-143 -> host 36
    c.incastReceiver = df ? 36 : 0;
    c.incastDegree = df ? 107 : 0;
    c.incastSenders = IncastSenders(o);
    c.stop = o.stopTime;
    c.queueSampling = o.queueStats;
    c.pathStats = o.pathStats || !o.classCsv.empty();
    c.gapThreshold = o.gapThreshold;
    c.dcqcnWindow = o.roceWindow;
    const bool authors = o.setup == "authors";
    c.authorsEcn = authors;
    c.authorsBuffer = authors;
    c.lapsPathBaselines = authors;
    c.authorsPlb = authors;
    c.baselineRto = authors ? MilliSeconds(LapsAuthorsValues::RTO_MS) : MilliSeconds(1);
    c.loadScale = o.loadRef == "artifact" ? LapsAuthorsLoadScale(c.topo) : 1.0;
    c.staggerStarts = o.staggerStarts;
    c.staggerPoisson = o.staggerDraw == "poisson";
    return RunLapsExperiment(c);
}

} // namespace

int
main(int argc, char** argv)
{
    Options o;
    // the graph preset of --topo (read after parsing: the checks below run inside Parse)
    auto presetName = [&o] { return std::string(o.topo == "df" ? "laps-df" : "laps-rail"); };
    // a connection per flow; LetFlow / CONGA flowlet timeout 50 us; CONGA / ConWeave
    // generalised to Rail / Dragonfly; the RoCE baselines' DCQCN as the LAPS authors' (spec 3
    // [A]: Preset=LapsAuthors, a CNP per CE-marked packet, CnpInterval 0);
    // before the options so that --ns3::... overrides them
    LapsPaperDefaults();
    DcnOptions opts("laps-paper",
                    "The LAPS paper's experiments on laps-rail / laps-df with LAPS and its "
                    "baselines; one CSV row per scheme.  Exit status: 0, 2 bad input (one "
                    "line), 3 some flow did not finish.  The RoCE baselines run the LAPS "
                    "authors' DCQCN (spec 3 [A]: ns3::DcqcnCc::Preset=LapsAuthors and a CNP "
                    "per CE-marked packet, ns3::DcnTransport::CnpInterval=0; "
                    "--ns3::... overrides them).");
    opts.Choice("experiment",
                "all2all (CDF, Figs. 8-17), allreduce (64 MB incast, Tables III-IV) or "
                "allscatter (the allreduce receiver sends 64 MB to each of its senders, Table II)",
                o.experiment,
                {"all2all", "allreduce", "allscatter"});
    opts.Choice("topo", "rail (laps-rail) or df (laps-df)", o.topo, {"rail", "df"});
    opts.Text("topoParams",
              "Overrides of the preset's parameters, key=value,... (e.g. gpuRate=100e9 on "
              "Rail; a wrong key's message lists the allowed ones); the host count must stay "
              "the paper's; empty = the paper's setup",
              o.topoParams);
    opts.Check([&] {
        if (o.topoParams.empty())
        {
            return std::string();
        }
        try
        {
            const uint32_t n = DcnTopologyPresets::Graph(
                                   presetName(),
                                   DcnTopologyPresets::ParseOverrides(o.topoParams, "--topoParams"))
                                   .NHosts();
            const uint32_t paper = o.topo == "df" ? 144 : 64;
            return n == paper
                       ? std::string()
                       : "option --topoParams: '" + o.topoParams + "' gives " + std::to_string(n) +
                             " hosts; allowed: overrides that keep " + std::to_string(paper) +
                             " hosts (the experiments name the paper's hosts)";
        }
        catch (const DcnOptionError& e)
        {
            std::string m = e.what();
            const std::string topoPrefix = "option --topo: ";
            if (m.rfind(topoPrefix, 0) == 0)
            {
                m = m.substr(topoPrefix.size()); // the preset's parameters are this option's
            }
            return m.rfind("option --", 0) == 0 ? m : "option --topoParams: " + m;
        }
    });
    opts.Choice("scale",
                "small (seconds of CPU per scheme) or paper (documented sizes)",
                o.scale,
                {"small", "paper"});
    opts.ChoiceList("lb", "Comma-separated schemes", o.lbs, DcnSchemeRegistry::Names());
    opts.Check([&] {
        // each scheme's selector and the congestion control it runs here (e.g. DCQCN for
        // the RoCE baselines) with the --ns3:: attributes given, before anything is built
        std::stringstream ss(o.lbs);
        for (std::string lb; std::getline(ss, lb, ',');)
        {
            std::string cc;
            std::string mode;
            LapsTransportOf(lb, cc, mode, o.setup == "authors");
            // a scheme of other topology families (e.g. hermes, spritz) is refused before any
            // run, not skipped after the others simulated
            std::string err = DcnSchemeRegistry::CheckCompatible(lb, presetName(), "dcn");
            if (!err.empty())
            {
                return err;
            }
            err = DcnSchemeRegistry::CheckConfig(lb,
                                                 cc,
                                                 "--lb=" + lb + " (congestion control " + cc + ")");
            if (!err.empty())
            {
                return err;
            }
        }
        return std::string();
    });
    opts.Custom(
        "alphas",
        "Alpha sweep (spec 2.1: alpha in {0, 0.5, 1, 2, 5, 10}): run each LAPS scheme of --lb "
        "once per value of ns3::LapsPathSelector::Alpha, rows labelled laps(alpha=A); e.g. "
        "0,0.5,1,2,5,10; empty = once, with the attribute's value",
        "list",
        [&](const std::string& v) {
            o.alphas.clear();
            if (v.empty())
            {
                return std::string();
            }
            if (v.front() == ',' || v.back() == ',' || v.find(",,") != std::string::npos)
            {
                return "option --alphas: value '" + v +
                       "' has an empty item; allowed: a comma list of numbers in [0, 1e6]";
            }
            std::stringstream items(v);
            for (std::string item; std::getline(items, item, ',');)
            {
                auto p = dcnopt::ParseDouble("alphas", item, dcnopt::Interval{0, 1e6});
                if (!p)
                {
                    return p.Error();
                }
                o.alphas.push_back(p.Value());
            }
            return std::string();
        });
    opts.Check([&] {
        if (o.alphas.empty())
        {
            return std::string();
        }
        if (("," + o.lbs + ",").find(",laps,") == std::string::npos)
        {
            return "option --alphas: applies to --lb=laps; --lb is '" + o.lbs + "'";
        }
        if (opts.GetAttributeArguments().find("ns3::LapsPathSelector::Alpha=") != std::string::npos)
        {
            return std::string("option --alphas: sets ns3::LapsPathSelector::Alpha per run; "
                               "allowed: --alphas or --ns3::LapsPathSelector::Alpha, not both");
        }
        return std::string();
    });
    opts.Custom(
        "roceWindow",
        "Send window of the RoCE baselines' DCQCN flows (ecmp, letflow, conga, conweave; "
        "with --setup=authors also plb's rate-based DCTCP flows, as [A]): unified = the LAPS "
        "authors' (spec 3 [A], enableUnifiedWindow): the largest host-pair "
        "bandwidth-delay product of the built topology (laps-rail 155,240 B, laps-df 130,240 "
        "B); or bytes, e.g. 100KB; 0 = none (DCQCN's rate alone; the tables of doc/laps.rst "
        "before 2026-11-29) [unified]",
        "unified|size",
        [&](const std::string& v) {
            auto p = dcnopt::ParseRoceWindow("roceWindow", v);
            if (!p)
            {
                return p.Error();
            }
            o.roceWindow = p.Value(); // UNIFIED_WINDOW or bytes
            return std::string();
        });
    opts.Check([&] {
        return opts.GetAttributeArguments().find("ns3::DcqcnCc::Window=") == std::string::npos
                   ? std::string()
                   : std::string("option --ns3::DcqcnCc::Window: laps-paper sets the DCQCN "
                                 "window of each run; allowed: --roceWindow=unified|<bytes>");
    });
    opts.Check([&] {
        // the helper sets the timeout per scheme: a value given here would be overwritten
        return opts.GetAttributeArguments().find("ns3::DcnTransport::Rto=") == std::string::npos
                   ? std::string()
                   : std::string("option --ns3::DcnTransport::Rto: laps-paper sets the "
                                 "transport timeout of each run (LAPS 8 ms; the other schemes "
                                 "1 ms, spec 3, or 4 ms with --setup=authors); allowed: "
                                 "without it");
    });
    opts.Check([&] {
        return opts.GetAttributeArguments().find("ns3::DctcpRateCc::Window=") == std::string::npos
                   ? std::string()
                   : std::string("option --ns3::DctcpRateCc::Window: laps-paper sets the "
                                 "window of each run (--setup=authors plb); allowed: "
                                 "--roceWindow=unified|<bytes>");
    });
    opts.Check([&] {
        return opts.GetAttributeArguments().find("ns3::DcnWorkloadHelper::LoadScale=") ==
                       std::string::npos
                   ? std::string()
                   : std::string("option --ns3::DcnWorkloadHelper::LoadScale: laps-paper sets "
                                 "the load reference of each run; allowed: --loadRef=host|"
                                 "artifact");
    });
    opts.Choice(
        "setup",
        "spec: the spec's network (default; ECN at 0.2 / 0.8 of the 150-KB queue, 32 MiB "
        "per switch, baselines on minimal paths); authors: the LAPS authors' simulator "
        "([A], review s44 L2, L3, L4, L7, L8, L11-L13): switch ECN by port rate (400 / "
        "1600 KB at 100G, 800 / 3200 KB at 200G, Pmax 0.8; no per-queue cap), 1 MiB x "
        "(ports + 2) buffer per switch, ecmp / letflow / conga / conweave / plb over the "
        "LAPS path set, LAPS's per-path timer 400 realVal (PathTimeoutFactor), softmax and "
        "in-flight cap by the unloaded delay (SoftmaxNorm, InflightCapBasis = unloaded), "
        "LetFlow / CONGA flowlets 10 us, CONGA's choice among 4 consecutive LAPS paths "
        "from a uniform start with uniform ties (PathSamples 4, TiesPreferCurrent false), "
        "feedback of a uniformly drawn reverse path (FeedbackChoice Random) and its DRE at "
        "200 us x 0.2 (DreInterval, DreAlpha), ConWeave's timers as [A]'s "
        "(80 ns, 10 us, 4 us, 32 us), the RoCE baselines' and PLB's timeout 4 ms "
        "(RdmaHw L2Timeout) counted from the last ACK / NACK and armed by them only (RtoStart "
        "LastAck), a go-back-N NACK repeated at most every 500 us (NackRepeatInterval) "
        "and obeyed even when stale (IgnoreStaleNacks false), "
        "DCQCN cutting on a go-back-N NACK (NackIsCnp), PLB only "
        "suspending after an RTO (RepathOnRto false), "
        "--loadRef=artifact, --staggerStarts=10ms --staggerDraw=poisson (allreduce, "
        "allscatter); doc/laps.rst",
        o.setup,
        {"spec", "authors"});
    opts.Check([&] {
        // --setup=authors sets these per run: a user's value would be overwritten
        if (o.setup != "authors")
        {
            return std::string();
        }
        std::vector<std::string> set = {"ns3::DcnQueueDisc::EcnKminPerGbps",
                                        "ns3::DcnQueueDisc::EcnKmaxPerGbps",
                                        "ns3::DcnQueueDisc::EcnPmax",
                                        "ns3::DcnSwitchBuffer::BufferPerPort",
                                        // a fixed timer would replace PathTimeoutFactor
                                        "ns3::LapsPathSelector::PathTimeout"};
        for (const auto& nv : LapsAuthorsAttributeDefaults())
        {
            set.push_back(nv.first);
        }
        for (const char* opt : {"loadRef=artifact", "staggerStarts=10ms", "staggerDraw=poisson"})
        {
            const std::string name = std::string(opt).substr(0, std::string(opt).find('='));
            if (opts.Given(name))
            {
                return "option --" + name + ": --setup=authors sets --" + opt +
                       "; allowed: --setup=authors without it, or --setup=spec with it";
            }
        }
        for (const std::string& a : set)
        {
            if (opts.GetAttributeArguments().find(a + "=") != std::string::npos)
            {
                return "option --setup: authors sets --" + a +
                       "; allowed: --setup=authors without it, or --setup=spec with it";
            }
        }
        return std::string();
    });
    opts.Choice("loadRef",
                "all2all: what --load is a fraction of: host = each host's link (spec 4.2; "
                "default); artifact = the LAPS authors' simulator's ([A]) TFC-All.txt: per-pair "
                "loadfactor x destinations, 143 x 0.0091 = 1.3013 host links on df, 63 x 0.0158 "
                "= 0.9954 on rail (review s44 L7; --setup=authors sets it)",
                o.loadRef,
                {"host", "artifact"});
    opts.Time("staggerStarts",
              "allreduce / allscatter: the messages start over this window after the workload "
              "start, as --staggerDraw draws them (uniform: each at a uniform time in it; "
              "poisson: [A]'s draw, which may start some after it); [A] (LAPS authors' "
              "simulator) flowLunchEndTimeInSec 0.01 s, review s44 L13; --setup=authors sets "
              "10ms; 0 = all at once (paper Sec. V, the default)",
              o.staggerStarts)
        .Max(Seconds(1));
    opts.Choice("staggerDraw",
                "allreduce / allscatter with --staggerStarts: uniform = every message at a "
                "uniform time in the window (default); poisson = as [A] "
                "(generate_LLMA_rdma_flows_on_nodes at 4a4be642): a Poisson process of rate "
                "messages / window from the workload start, its i-th arrival to the i-th "
                "sender in id order, not cut at the window (--setup=authors sets it)",
                o.staggerDraw,
                {"uniform", "poisson"});
    opts.Bool("pfc",
              "PFC and a 32 MB shared buffer per switch under every scheme (LAPS paper "
              "Sec. V / spec 3: lossless RoCE; DcnPfcHelper, doc/roce.rst); false: the lossy "
              "150 KB drop-tail runs",
              o.pfc);
    opts.Text("cdf", "Flow-size CDF of all2all (data/workloads name)", o.cdf);
    opts.Double("load", "Offered load of all2all, fraction of the host link", o.load)
        .Range(0, 1, true, false);
    opts.Double("loss", "Random drop probability per link (paper: 1e-6)", o.loss).Range(0, 0.1);
    opts.Size("msgSize",
              "allreduce / allscatter bytes per message (0 = the scale's: small 16 MB, paper "
              "64 MB)",
              o.msgBytes)
        .Max(1ULL << 36);
    opts.Unsigned("senders",
                  "allreduce senders (= allscatter destinations), spread over the paper's set (0 = "
                  "the scale's: small 8, paper all: Rail 63, Dragonfly 107; at most that many)",
                  o.senders);
    opts.Check([&] {
        return o.senders <= PaperDegree(o)
                   ? std::string()
                   : "option --senders: " + std::to_string(o.senders) + "; allowed: 0-" +
                         std::to_string(PaperDegree(o)) + " for --topo=" + o.topo;
    });
    opts.Time("duration", "all2all arrival window (0 = the scale's: 100 us / 10 ms)", o.duration)
        .Max(Seconds(10));
    opts.Time("stopTime", "Simulated-time limit", o.stopTime)
        .Min(NanoSeconds(1))
        .Max(Seconds(3600));
    opts.Text("csv", "CSV output file", o.csv);
    opts.Time("queueStats",
              "Sample every port's queue (both bands) at this interval, during the arrival "
              "window (all2all) or the whole run (allreduce), and print the mean / max per "
              "link class (e.g. 'nvlink nic->nvlink'); 0 = off",
              o.queueStats)
        .Max(MilliSeconds(100));
    opts.Bool(
        "pathStats",
        "Print under each scheme the inter-packet gaps of every message at its sender "
        "(Fig. 18: count, fraction above --gapThreshold, mean, median, P99, max) and for LAPS the "
        "normalised traffic share of each path class (Fig. 19, spec 5); results unchanged",
        o.pathStats);
    opts.Time("gapThreshold",
              "Inter-packet gap threshold of --pathStats (the paper's flowlet threshold)",
              o.gapThreshold)
        .Max(Seconds(1));
    opts.Text("classCsv",
              "Path-class CSV (lb, switches, pairs, paths, packets, share; LAPS rows only; "
              "implies --pathStats); empty = none",
              o.classCsv);
    opts.Text("flowCsv",
              "Per-flow CSV (lb, src, dst, bytes, start, FCT, retransmissions); empty = none",
              o.flowCsv);
    // an option of another experiment would be silently ignored: refuse it
    opts.Check([&]() -> std::string {
        const std::vector<std::pair<const char*, std::vector<std::string>>> only = {
            {"cdf", {"all2all"}},
            {"load", {"all2all"}},
            {"duration", {"all2all"}},
            {"loadRef", {"all2all"}},
            {"staggerStarts", {"allreduce", "allscatter"}},
            {"staggerDraw", {"allreduce", "allscatter"}},
            {"msgSize", {"allreduce", "allscatter"}},
            {"senders", {"allreduce", "allscatter"}}};
        for (const auto& [name, exps] : only)
        {
            if (opts.Given(name) && std::find(exps.begin(), exps.end(), o.experiment) == exps.end())
            {
                std::string allowed;
                for (const auto& e : exps)
                {
                    allowed += (allowed.empty() ? "--experiment=" : ", ") + e;
                }
                return std::string("option --") + name +
                       ": does not apply to --experiment=" + o.experiment + "; allowed with " +
                       allowed;
            }
        }
        if (opts.Given("gapThreshold") && !o.pathStats && o.classCsv.empty())
        {
            return std::string("option --gapThreshold: is the threshold of --pathStats, which "
                               "is off; allowed with --pathStats (or --classCsv)");
        }
        return std::string();
    });
    opts.Parse(argc, argv);
    if (o.setup == "authors")
    {
        // [A]'s LAPS timer, softmax / in-flight basis and flowlet timeout (refused above when
        // given by hand), its load reference and its staggered LLM starts
        LapsAuthorsDefaults();
        o.loadRef = "artifact";
        if (o.experiment != "all2all")
        {
            o.staggerStarts = MicroSeconds(LapsAuthorsValues::STAGGER_US);
            o.staggerDraw = "poisson";
        }
    }
    if (o.staggerStarts >= o.stopTime && o.staggerStarts.IsStrictlyPositive())
    {
        // messages would be planned to start after the run ends (review s46 R9)
        DcnOptions::Exit(
            "laps-paper",
            "option --staggerStarts: value '" + std::to_string(o.staggerStarts.GetMicroSeconds()) +
                "us' is not below --stopTime " + std::to_string(o.stopTime.GetMicroSeconds()) +
                "us (messages would start after the stop; --setup=authors sets "
                "10ms); allowed: a stagger below --stopTime");
    }
    if (opts.Given("staggerDraw") && !o.staggerStarts.IsStrictlyPositive())
    {
        // nothing to draw: the option would be silently ignored
        DcnOptions::Exit("laps-paper",
                         "option --staggerDraw: value '" + o.staggerDraw +
                             "' without a window; allowed: with --staggerStarts > 0");
    }
    if (o.experiment == "all2all")
    {
        FlowSizeCdf cdf;
        std::string e = FlowSizeCdf::TryLoad(o.cdf, &cdf);
        if (!e.empty())
        {
            DcnOptions::Exit("laps-paper", "option --cdf: " + e);
        }
    }
    std::ofstream fcsv;
    if (!o.flowCsv.empty())
    {
        fcsv.open(o.flowCsv);
        if (!fcsv)
        {
            DcnOptions::Exit("laps-paper", "option --flowCsv: cannot write '" + o.flowCsv + "'");
        }
        fcsv << "lb,src,dst,bytes,start_us,fct_us,completed,retransmissions\n";
    }
    std::ofstream ccsv;
    if (!o.classCsv.empty())
    {
        ccsv.open(o.classCsv);
        if (!ccsv)
        {
            DcnOptions::Exit("laps-paper", "option --classCsv: cannot write '" + o.classCsv + "'");
        }
        ccsv << "experiment,topo,lb,switches,pairs,paths,packets,share\n";
    }
    std::ofstream csv(o.csv);
    if (!csv)
    {
        DcnOptions::Exit("laps-paper", "option --csv: cannot write '" + o.csv + "'");
    }
    csv << "experiment,topo,scale,pfc,cdf,load,loss,rng_run,lb,cc,mode,flows,unfinished,avg_fct_ms,"
           "p99_fct_ms,max_fct_ms,"
           "retransmissions,timeouts,drops,pfc_pauses,pfc_paused_us,reorder_frac,reorder_mean_B,"
           "reorder_p_gt_30KB,rx_util,rx_util_all_active,gaps,gaps_above,gap_mean_us,gap_median_us,"
           "gap_p99_us,events,packet_hops,attributes,wall_s,note\n";
    // a refusal before the first result row leaves no output file behind
    bool wroteRow = false;
    auto refuse = [&](const std::string& line) {
        if (!wroteRow)
        {
            for (auto* f : {&csv, &fcsv, &ccsv})
            {
                f->close();
            }
            std::remove(o.csv.c_str());
            for (const auto& name : {o.flowCsv, o.classCsv})
            {
                if (!name.empty())
                {
                    std::remove(name.c_str());
                }
            }
        }
        DcnOptions::Exit("laps-paper", line);
    };
    {
        // switch policies (CONGA, ConWeave, ...) check the built topology: all of them
        // before the first run, so that no scheme simulates before another one is refused
        std::stringstream lbList(o.lbs);
        Ptr<DcnTopology> t;
        for (std::string lb; std::getline(lbList, lb, ',');)
        {
            if (!DcnSchemeRegistry::HasSwitchPolicy(lb))
            {
                continue;
            }
            try
            {
                if (!t)
                {
                    t = DcnTopologyPresets::Create(
                        presetName(),
                        DcnTopologyPresets::ParseOverrides(o.topoParams, "--topoParams"),
                        "minimal");
                }
            }
            catch (const DcnOptionError& e)
            {
                refuse(e.what());
            }
            const std::string err = DcnSchemeRegistry::CheckSwitchPolicy(lb, *t);
            if (!err.empty())
            {
                refuse(err);
            }
        }
        Simulator::Destroy();
    }
    bool allDone = true;
    const bool authors = o.setup == "authors";
    // the authors' pieces that are options, for the header and the CSV's attributes
    std::string authorsOptions;
    if (o.loadRef == "artifact" && o.experiment == "all2all")
    {
        std::ostringstream x;
        x << "loadRef=artifact(x" << LapsAuthorsLoadScale(presetName()) << ")";
        authorsOptions = x.str();
    }
    if (o.staggerStarts.IsStrictlyPositive())
    {
        std::ostringstream x;
        const int64_t ns = o.staggerStarts.GetNanoSeconds();
        x << (authorsOptions.empty() ? "" : ";") << "staggerStarts="
          << (ns % 1000000 == 0 ? std::to_string(ns / 1000000) + "ms"
              : ns % 1000 == 0  ? std::to_string(ns / 1000) + "us"
                                : std::to_string(ns) + "ns")
          << (o.staggerDraw == "poisson" ? ";staggerDraw=poisson" : "");
        authorsOptions += x.str();
    }
    std::string headerOptions = authorsOptions;
    std::replace(headerOptions.begin(), headerOptions.end(), ';', ' ');
    std::cout << "== laps-paper " << o.experiment << " topo=" << o.topo << " scale=" << o.scale
              << " pfc=" << (o.pfc ? "on" : "off") << (authors ? " setup=authors" : "")
              << (headerOptions.empty() ? "" : " " + headerOptions) << "\n";
    if (o.experiment == "all2all")
    {
        // how far the offered load is from what the fabric can carry (no simulation):
        // uniform all-to-all, doc/topology-graphs.rst "Static checks"
        dcn::SwitchGraph g;
        try
        {
            g = DcnTopologyPresets::Graph(
                presetName(),
                DcnTopologyPresets::ParseOverrides(o.topoParams, "--topoParams"));
        }
        catch (const DcnOptionError& e)
        {
            refuse(e.what());
        }
        const dcn::MinimalRouting mr(g);
        const double satMin = dcn::UniformLoad(mr, dcn::PathSet::MINIMAL).saturation;
        const double satLaps = dcn::UniformLoad(mr, dcn::PathSet::LAPS).saturation;
        std::ostringstream line;
        line << std::setprecision(3) << "capacity: uniform all-to-all saturates the fabric at load "
             << satMin
             << (authors ? " on minimal paths and " : " on minimal paths (ECMP, LetFlow, PLB) and ")
             << satLaps
             << (authors ? " spread evenly over the LAPS paths (LAPS, ECMP, LetFlow, CONGA, "
                           "ConWeave, PLB)"
                         : " spread evenly over the LAPS paths")
             << "; --load=" << o.load;
        // --loadRef=artifact: the offered load is load x [A]'s reference
        const double scale = o.loadRef == "artifact" ? LapsAuthorsLoadScale(presetName()) : 1.0;
        if (scale != 1.0)
        {
            line << " (x" << scale << " = " << o.load * scale << " of the host link, "
                 << "--loadRef=artifact)";
        }
        line << " is " << o.load * scale / satMin << "x the minimal-path saturation (doc/laps.rst "
             << "\"Offered load against capacity\")";
        std::cout << line.str() << "\n";
    }

    // (scheme, its label, Alpha or < 0 for the attribute's value): --alphas expands laps
    struct Run
    {
        std::string lb;
        std::string label;
        double alpha;
    };

    std::vector<Run> runs;
    std::stringstream ss(o.lbs);
    for (std::string x; std::getline(ss, x, ',');)
    {
        if (x != "laps" || o.alphas.empty())
        {
            runs.push_back({x, x, -1});
            continue;
        }
        for (double a : o.alphas)
        {
            std::ostringstream label;
            label << "laps(alpha=" << a << ")";
            runs.push_back({x, label.str(), a});
        }
    }
    for (const auto& run : runs)
    {
        const std::string& lb = run.label;
        std::string attributes = opts.GetAttributeArguments();
        if (authors)
        {
            attributes += (attributes.empty() ? "" : ";") + std::string("setup=authors");
        }
        if (!authorsOptions.empty())
        {
            attributes += (attributes.empty() ? "" : ";") + authorsOptions;
        }
        if (run.alpha >= 0)
        {
            Config::SetDefault("ns3::LapsPathSelector::Alpha", DoubleValue(run.alpha));
            std::ostringstream a;
            a << (attributes.empty() ? "" : ";") << "ns3::LapsPathSelector::Alpha=" << run.alpha;
            attributes += a.str();
        }
        LapsExperimentResult r;
        try
        {
            r = RunOne(o, run.lb);
        }
        catch (const DcnOptionError& e)
        {
            refuse(e.what());
        }
        wroteRow = true;
        allDone = allDone && r.s.unfinished == 0;
        if ((r.cc == "dcqcn" || r.cc == "dctcp-rate") &&
            o.roceWindow != LapsExperimentConfig::WINDOW_AS_SET)
        {
            // the window this run's DCQCN (or [A]'s PLB DCTCP) flows had (--roceWindow), in the
            // CSV's attributes
            attributes += (attributes.empty() ? "" : ";") +
                          std::string(r.cc == "dcqcn" ? "ns3::DcqcnCc::Window="
                                                      : "ns3::DctcpRateCc::Window=") +
                          std::to_string(r.dcqcnWindow);
        }
        const bool a2a = o.experiment == "all2all"; // cdf and load apply to all2all only
        std::ostringstream load;
        if (a2a)
        {
            load << o.load;
        }
        csv << o.experiment << ',' << o.topo << ',' << o.scale << ',' << (o.pfc ? 1 : 0) << ','
            << (a2a ? o.cdf : "") << ',' << load.str() << ',' << o.loss << ','
            << RngSeedManager::GetRun() << ',' << lb << ',' << r.cc << ',' << r.mode << ','
            << r.s.count << ',' << r.s.unfinished << ',' << r.s.meanUs / 1e3 << ','
            << r.s.p99Us / 1e3 << ',' << r.s.maxUs / 1e3 << ',' << r.s.retransmissions << ','
            << r.s.timeouts << ',' << r.drops << ',' << r.pfcPauses << ',' << r.pausedUs << ','
            << r.reorderFrac << ',' << r.reorderMeanB << ',' << r.reorderAbove30k << ',' << r.rxUtil
            << ',' << r.rxUtilAllActive << ',' << r.gaps << ',' << r.gapsAbove << ',' << r.gapMeanUs
            << ',' << r.gapMedianUs << ',' << r.gapP99Us << ',' << r.events << ',' << r.packetHops
            << ",\"" << Quote(attributes) << "\"," << r.wall << ",\"" << Quote(r.note) << "\"\n";
        if (fcsv.is_open())
        {
            for (const FctRecord& f : r.flows)
            {
                fcsv << lb << ',' << f.src << ',' << f.dst << ',' << f.bytes << ','
                     << f.start.GetNanoSeconds() / 1e3 << ','
                     << (f.completed ? f.Fct().GetNanoSeconds() / 1e3 : 0.0) << ','
                     << (f.completed ? 1 : 0) << ',' << f.retransmissions << '\n';
            }
        }
        std::cout << std::left << std::setw(lb.size() < 9 ? 9 : static_cast<int>(lb.size()) + 1)
                  << lb << std::setw(std::max<int>(7, static_cast<int>(r.cc.size()) + 1)) << r.cc
                  << std::setw(11) << r.mode;
        if ((r.cc == "dcqcn" || r.cc == "dctcp-rate") && !r.Skipped())
        {
            std::cout << "window " << r.dcqcnWindow << " B ";
        }
        if (r.Skipped())
        {
            std::cout << r.note << std::endl;
            continue;
        }
        std::cout << " flows " << r.s.count << " unfinished " << r.s.unfinished << " avg "
                  << r.s.meanUs / 1e3 << " ms p99 " << r.s.p99Us / 1e3 << " ms drops " << r.drops
                  << " pauses " << r.pfcPauses << " retx " << r.s.retransmissions << " reorder "
                  << r.reorderFrac << " meanbuf " << r.reorderMeanB;
        if (o.experiment == "allreduce")
        {
            std::cout << " rxutil " << r.rxUtil << " (all active " << r.rxUtilAllActive << ")";
        }
        else if (o.experiment == "allscatter")
        {
            std::cout << " txutil " << r.rxUtil << " (all active " << r.rxUtilAllActive << ")";
        }
        std::cout << " wall " << r.wall << " s " << r.note << std::endl;
        // bench/README.md contract (the last such line counts)
        std::cout << "BENCH events=" << r.events << " packet_hops=" << r.packetHops << std::endl;
        for (const auto& q : r.queues)
        {
            std::cout << "  queue " << std::left << std::setw(24) << q.cls << std::right
                      << " ports " << std::setw(4) << q.ports << "  mean " << std::setw(9)
                      << std::fixed << std::setprecision(1) << q.meanBytes / 1e3 << " KB  max "
                      << std::setw(9) << q.maxBytes / 1e3 << " KB" << std::defaultfloat
                      << std::setprecision(6) << std::endl;
        }
        if (o.pathStats || !o.classCsv.empty())
        {
            std::cout << "  gaps " << r.gaps << "  > " << o.gapThreshold.GetNanoSeconds() / 1e3
                      << " us " << r.gapsAbove << " ("
                      << (r.gaps ? 100.0 * r.gapsAbove / r.gaps : 0.0) << " %)  mean "
                      << r.gapMeanUs << " us  median " << r.gapMedianUs << " us  p99 " << r.gapP99Us
                      << " us  max " << r.gapMaxUs << " us" << std::endl;
            for (const auto& pc : r.pathClasses)
            {
                std::cout << "  class " << std::right << std::setw(2) << pc.switches
                          << " switches  pairs " << std::setw(5) << pc.pairs << "  paths "
                          << std::setw(6) << pc.paths << "  packets " << std::setw(9) << pc.packets
                          << "  share " << std::fixed << std::setprecision(3) << pc.share
                          << std::defaultfloat << std::setprecision(6) << std::endl;
                if (ccsv.is_open())
                {
                    ccsv << o.experiment << ',' << o.topo << ',' << lb << ',' << pc.switches << ','
                         << pc.pairs << ',' << pc.paths << ',' << pc.packets << ',' << pc.share
                         << '\n';
                }
            }
            if (!r.pathClasses.empty() || r.singleClassPairs)
            {
                std::cout << "  (pairs with one path class, left out: " << r.singleClassPairs << ")"
                          << std::endl;
            }
        }
    }
    std::cout << "CSV: " << o.csv << std::endl;
    return allDone ? 0 : 3;
}
