/*
 * hermes-paper: the Hermes paper's (SIGCOMM'17) evaluation over ns-3 TCP through the TCP
 * shim (issue 17 item 3; doc/hermes.rst).  A thin driver over RunHermesExperiment
 * (helper/hermes-experiment.h): for each load balancer, load and run one fresh simulation;
 * one CSV row per point; with several runs, two more table rows per point: "avg" (the mean
 * over the runs; an FCT class no flow of a run fell in is left out of its mean) and "sd"
 * (the runs' sample standard deviation).
 *
 *   ./build/hermes-paper                                  # sim (small), web-search, 2 loads
 *   ./build/hermes-paper --experiment=blackhole --loads=0.3
 *   ./build/hermes-paper --experiment=sim --scale=paper --runs=5 --loads=0.3,0.5,0.7,0.9
 *   ./build/hermes-paper --lbs=hermes,hermes-noprobe,hermes-noreroute   # breakdown
 *
 * Exit status: 0, 2 (bad input, one line on stderr).
 */
#include "ns3/core-module.h"
#include "ns3/dcn-example-args.h"
#include "ns3/dcn-options.h"
#include "ns3/dcn-scheme.h"
#include "ns3/dcn-tcp-transport.h"
#include "ns3/flow-size-cdf.h"
#include "ns3/hermes-experiment.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>

using namespace ns3;

namespace
{

/** Mean and sample standard deviation of the printed columns over the runs of one point. */
class RowStats
{
  public:
    static constexpr std::size_t N = 11; //!< flows .. moves, as printed

    /** Add a run's row; an FCT column (2-5) of 0 (no flow of that class) is left out. */
    void Add(const std::array<double, N>& row)
    {
        for (std::size_t i = 0; i < N; ++i)
        {
            if (i >= 2 && i <= 5 && row[i] <= 0)
            {
                continue;
            }
            m_sum[i] += row[i];
            m_sq[i] += row[i] * row[i];
            ++m_n[i];
        }
    }

    std::array<double, N> Mean() const
    {
        std::array<double, N> m{};
        for (std::size_t i = 0; i < N; ++i)
        {
            m[i] = m_n[i] > 0 ? m_sum[i] / m_n[i] : 0.0;
        }
        return m;
    }

    std::array<double, N> Sd() const
    {
        std::array<double, N> sd{};
        for (std::size_t i = 0; i < N; ++i)
        {
            if (m_n[i] > 1)
            {
                const double mean = m_sum[i] / m_n[i];
                sd[i] = std::sqrt(std::max(0.0, (m_sq[i] - m_n[i] * mean * mean) / (m_n[i] - 1)));
            }
        }
        return sd;
    }

  private:
    std::array<double, N> m_sum{};
    std::array<double, N> m_sq{};
    std::array<uint32_t, N> m_n{};
};

/** One table row: flows, unfinished, mean / small mean / small p99 / large mean FCT (us),
 * injected drops, segments, retransmissions, timeouts, path changes. */
void
PrintRow(const std::string& lb,
         double load,
         const std::string& run,
         const std::array<double, RowStats::N>& v)
{
    const int width[RowStats::N] = {7, 7, 12, 12, 12, 12, 9, 9, 8, 6, 8};
    std::cout << std::left << std::setw(18) << lb << std::setw(6) << load << std::setw(5) << run
              << std::right << std::fixed << std::setprecision(1);
    for (std::size_t i = 0; i < RowStats::N; ++i)
    {
        const bool count = i < 2 || i > 5; // integers in a run's row
        std::cout << std::setw(width[i])
                  << std::setprecision(count && run != "avg" && run != "sd" ? 0 : 1) << v[i];
    }
    std::cout << std::defaultfloat << std::endl;
}

/** Load balancers hermes-paper runs over TCP: the TCP-capable schemes plus the breakdown. */
std::vector<std::string>
LbNames()
{
    std::vector<std::string> v;
    for (const auto& n : DcnSchemeRegistry::Names())
    {
        if (DcnSchemeRegistry::CheckCompatible(n, "leaf-spine", "tcp").empty())
        {
            v.push_back(n);
        }
    }
    v.push_back("hermes-noprobe");
    v.push_back("hermes-noreroute");
    return v;
}

} // namespace

int
main(int argc, char** argv)
{
    std::string experiment{"sim"};
    std::string scale{"small"};
    std::string workload{"websearch"};
    std::string cc{"dctcp"};
    std::string lbs{"ecmp,hermes,letflow,conga,clove,presto,drb"};
    std::string loadsText{""};
    std::vector<double> loads;
    uint32_t runs{0};
    std::string csv{""};
    std::string probeInterval{""};
    ns3::Time duration{0};
    ns3::Time stop{0};
    ns3::Time linkDelay{0};
    DcnOptions opts("hermes-paper",
                    "Hermes (SIGCOMM'17) experiments on a leaf-spine over ns-3 TCP (DCTCP) "
                    "through the TCP shim; one fresh simulation per load balancer, load and "
                    "run; CSV with --csv.  Exit status 2: bad input (one line on stderr).");
    opts.Choice("experiment",
                "testbed (2x2 leaf-spine, 1G), testbed-asym (one leaf-spine link cut), sim "
                "(8x8 leaf-spine, 10G, 2:1), sim-asym (20% of leaf-spine links at 2G), drop "
                "(spine0 drops 2%), blackhole (spine0 drops half the pairs rack 1 -> last)",
                experiment,
                HermesExperimentNames());
    opts.Choice("scale",
                "small (sim: 4x4 leaf-spine, 16 hosts, 10 ms of arrivals, 1 run) or paper "
                "(128 hosts, 200 ms of arrivals, 5 runs)",
                scale,
                {"small", "paper"});
    opts.Choice("workload",
                "Flow sizes: websearch or datamining",
                workload,
                {"websearch", "datamining"});
    opts.Choice("cc",
                "TCP congestion control: dctcp or newreno (with ECN)",
                cc,
                {"dctcp", "newreno"});
    opts.ChoiceList("lbs",
                    "Comma list of load balancers (TCP schemes; hermes-noprobe and "
                    "hermes-noreroute: the breakdown of Sec. 5.4)",
                    lbs,
                    LbNames());
    opts.Custom(
        "loads",
        "Comma list of loads in (0, 1] of the leaf uplink capacity [small: 0.3,0.6; "
        "paper: 0.3,0.5,0.7,0.9]",
        "list",
        [&](const std::string& v) {
            loads.clear();
            if (v.empty() || v.front() == ',' || v.back() == ',' ||
                v.find(",,") != std::string::npos)
            {
                return "option --loads: value '" + v +
                       "' has an empty item; allowed: a comma list of numbers in (0, 1]";
            }
            for (const auto& item : dcnargs::Split(v, ','))
            {
                auto p = dcnopt::ParseDouble("loads", item, dcnopt::Interval{0, 1, true, false});
                if (!p)
                {
                    return p.Error();
                }
                loads.push_back(p.Value());
            }
            loadsText = v;
            return std::string();
        });
    opts.Unsigned("runs", "Runs per point (RngRun N..N+runs-1, N = --RngRun, 1)", runs)
        .Max(100)
        .Preset("0", "small: 1, paper: 5");
    opts.Time("duration",
              "Arrival window (at most 10 s, as in laps-paper and dcn-lb-compare)",
              duration)
        .Max(Seconds(10))
        .Preset("0s", "small: 10ms, paper: 200ms; x10 on the 1 Gb/s testbed");
    opts.Time("stopTime", "Hard stop of each run (unfinished flows are reported)", stop)
        .Preset("0s", "2s, at least the arrival window + 1s");
    opts.Time("linkDelay", "Propagation delay of every link, host links included", linkDelay)
        .Max(MilliSeconds(1))
        .Preset("0s", "the preset's 1us; the authors' simulation used 10us (spec 4)");
    opts.Text(
        "probeInterval",
        "Hermes ProbeInterval for the sensitivity sweep, e.g. 100us (default: 500us); allowed "
        "[1us, 100ms]",
        probeInterval);
    opts.Text("csv", "Write one row per point to this file", csv);
    opts.Check([&]() -> std::string {
        // --probeInterval sets Hermes's probing: without a probing Hermes in --lbs it
        // would be silently ignored
        if (probeInterval.empty())
        {
            return std::string();
        }
        for (const auto& lbName : dcnargs::Split(lbs, ','))
        {
            if (lbName == "hermes" || lbName == "hermes-noreroute")
            {
                return std::string();
            }
        }
        return "option --probeInterval: value '" + probeInterval +
               "' sets Hermes's probe interval, but --lbs=" + lbs +
               " has no probing Hermes; allowed with --lbs naming hermes or hermes-noreroute";
    });
    opts.Parse(argc, argv);
    // the --ns3:: attribute defaults of this run, for the CSV (no double quotes inside)
    std::string attributes = opts.GetAttributeArguments();
    std::replace(attributes.begin(), attributes.end(), '"', '\'');
    // spec 4's marking (K = 65 packets, step) and 600-packet buffers, host NICs marking;
    // attributes given on the command line stay as given
    HermesPaperDefaults(experiment, attributes);
    for (const auto& lbName : dcnargs::Split(lbs, ','))
    {
        // plain TCP without the path shim: switch-side ECMP only
        std::string err =
            DcnTcpTransport::CheckPathShim(DcnTcpTransport::DefaultPathShim(), lbName);
        // the selector's attribute defaults as the user set them (--ns3::HermesPathSelector::...)
        if (err.empty() && lbName != "hermes-noprobe")
        {
            err = DcnSchemeRegistry::Validate(lbName == "hermes-noreroute" ? "hermes" : lbName);
        }
        if (!err.empty())
        {
            DcnOptions::Exit("hermes-paper", err);
        }
    }

    const bool paper = scale == "paper";
    if (loads.empty())
    {
        loads = paper ? std::vector<double>{0.3, 0.5, 0.7, 0.9} : std::vector<double>{0.3, 0.6};
    }
    if (runs == 0)
    {
        runs = paper ? 5 : 1;
    }
    if (duration.IsZero())
    {
        duration = paper ? MilliSeconds(200) : MilliSeconds(10);
        if (experiment.rfind("testbed", 0) == 0)
        {
            // the same number of flows per host at a tenth of the rate (at 10 ms, 0-1 flow
            // in all: web search's mean flow of 1.7 MB is 45 ms of 0.3 Gb/s)
            duration = duration * 10;
        }
    }
    if (stop.IsZero())
    {
        stop = std::max(Seconds(2), duration + Seconds(1));
    }
    std::string staleTime;
    if (!probeInterval.empty())
    {
        auto p = dcnopt::ParseTime("probeInterval", probeInterval, 1e-6, 0.1);
        if (!p)
        {
            DcnOptions::Exit("hermes-paper", p.Error());
        }
        // StaleTime = 4 probe intervals (spec 2.1 [NP]), as at the 500 us default
        staleTime = std::to_string(static_cast<int64_t>(p.Value().seconds * 4e9 + 0.5)) + "ns";
    }
    // --RngRun=N shifts every run: run k of a point uses RngRun N + k - 1 (each run sets
    // the global run itself, so without this --RngRun would be silently ignored)
    const uint64_t baseRun = RngSeedManager::GetRun();
    if (baseRun + runs - 1 > 4294967295ULL)
    {
        DcnOptions::Exit("hermes-paper",
                         "option --RngRun: value '" + std::to_string(baseRun) +
                             "' + runs - 1 exceeds 4294967295");
    }
    std::ofstream out;
    if (!csv.empty())
    {
        out.open(csv);
        if (!out)
        {
            DcnOptions::Exit("hermes-paper", "option --csv: cannot write " + csv);
        }
        out << "experiment,scale,workload,cc,lb,load,run,flows,finished,unfinished,mean_us,"
               "small_mean_us,small_p99_us,large_mean_us,wall_s,events,injected_drops,segments,"
               "retransmissions,timeouts,attributes,link_delay_ns,path_changes,host_marks,"
               "switch_marks,downlink_marks,timeout_failures,timeout_failures_on_fault,"
               "retx_failures,retx_failures_on_fault,drops_data,drops_ack,drops_probe,"
               "drops_other\n";
    }
    std::cout << "hermes-paper experiment=" << experiment << " scale=" << scale
              << " workload=" << workload << " cc=" << cc << "\n";
    std::cout << std::left << std::setw(18) << "lb" << std::setw(6) << "load" << std::setw(5)
              << "run" << std::right << std::setw(7) << "flows" << std::setw(7) << "unfin"
              << std::setw(12) << "mean_us" << std::setw(12) << "small_us" << std::setw(12)
              << "small_p99" << std::setw(12) << "large_us" << std::setw(9) << "drops"
              << std::setw(9) << "segs" << std::setw(8) << "retx" << std::setw(6) << "rto"
              << std::setw(8) << "moves"
              << "\n";
    uint64_t events = 0;
    for (const auto& lbName : dcnargs::Split(lbs, ','))
    {
        for (double load : loads)
        {
            RowStats stats;
            for (uint32_t run = 1; run <= runs; ++run)
            {
                HermesExperimentConfig c;
                c.experiment = experiment;
                c.paperScale = paper;
                c.workload = workload;
                c.cc = cc;
                c.lb = lbName;
                c.load = load;
                c.duration = duration;
                c.stop = stop;
                c.linkDelay = linkDelay;
                c.run = static_cast<uint32_t>(baseRun + run - 1);
                if (lbName == "hermes-noprobe")
                {
                    c.lb = "hermes";
                    c.selectorAttrs.emplace_back("ProbeInterval", "0s");
                    // without an agent the probe settings have nothing to set (Validate
                    // refuses them with ProbeInterval=0): back to their defaults
                    for (const auto& [name, value] :
                         {std::pair<const char*, const char*>{"ProbeChoice", "random"},
                          {"ProbeHost", "first"},
                          {"ProbeLossLimit", "0"},
                          {"ProbeBestFailed", "false"}})
                    {
                        c.selectorAttrs.emplace_back(name, value);
                    }
                }
                else if (lbName == "hermes-noreroute")
                {
                    c.lb = "hermes";
                    c.selectorAttrs.emplace_back("Reroute", "false");
                }
                if (!probeInterval.empty() && c.lb == "hermes" && lbName != "hermes-noprobe")
                {
                    c.selectorAttrs.emplace_back("ProbeInterval", probeInterval);
                    c.selectorAttrs.emplace_back("StaleTime", staleTime);
                }
                HermesExperimentResult r = RunHermesExperiment(c);
                if (r.noFlows)
                {
                    // a row of zeros is not a run that finished every flow: say so
                    std::cerr << "hermes-paper: note: " << lbName << " load " << load << " run "
                              << run << ": no flow arrives in "
                              << (c.duration.IsZero()
                                      ? std::string("the scale's arrival window")
                                      : std::to_string(c.duration.GetMicroSeconds()) + " us")
                              << " at this load; the row is empty (a longer --duration "
                                 "draws flows)\n";
                }
                events += r.events;
                const std::array<double, RowStats::N> row{static_cast<double>(r.flows),
                                                          static_cast<double>(r.all.unfinished),
                                                          r.all.meanUs,
                                                          r.small.meanUs,
                                                          r.small.p99Us,
                                                          r.large.meanUs,
                                                          static_cast<double>(r.injectedDrops),
                                                          static_cast<double>(r.segments),
                                                          static_cast<double>(r.retransmissions),
                                                          static_cast<double>(r.timeouts),
                                                          static_cast<double>(r.pathChanges)};
                PrintRow(lbName, load, std::to_string(c.run), row);
                stats.Add(row);
                if (out)
                {
                    out << experiment << "," << scale << "," << workload << "," << cc << ","
                        << lbName << "," << load << "," << c.run << "," << r.flows << ","
                        << r.all.count << "," << r.all.unfinished << "," << r.all.meanUs << ","
                        << r.small.meanUs << "," << r.small.p99Us << "," << r.large.meanUs << ","
                        << r.wallSeconds << "," << r.events << "," << r.injectedDrops << ","
                        << r.segments << "," << r.retransmissions << "," << r.timeouts << ",\""
                        << attributes << (r.rttThresholds.empty() || attributes.empty() ? "" : ";")
                        << r.rttThresholds << "\"," << r.hostLinkDelay.GetNanoSeconds() << ","
                        << r.pathChanges << "," << r.hostMarks << "," << r.switchMarks << ","
                        << r.downlinkMarks << "," << r.timeoutFailures << ","
                        << r.timeoutFailuresOnFault << "," << r.retxFailures << ","
                        << r.retxFailuresOnFault << "," << r.dropsData << "," << r.dropsAck << ","
                        << r.dropsProbe << "," << r.dropsOther << "\n";
                }
            }
            if (runs > 1)
            {
                // across the runs of this point: mean, and the sample standard deviation
                PrintRow(lbName, load, "avg", stats.Mean());
                PrintRow(lbName, load, "sd", stats.Sd());
            }
        }
    }
    std::cout << "BENCH events=" << events << std::endl;
    return 0;
}
