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
 *   --scale=small           ~1-2 min CPU for all schemes (default)
 *   --scale=paper           the paper's sizes (64 MB per sender; 10 ms of
 *                           arrivals); documented, not run in tests
 *
 * Transports, as the paper ran its baselines (spec 3): laps = out-of-order
 * transport with LAPS's AIMD (LapsCc) and per-path loss recovery; ecmp,
 * letflow, conga = RoCE (Mode=InOrder go-back-N) + DCQCN; plb = DCTCP.  PFC
 * is not modelled yet: every scheme runs lossy (150 KB drop-tail queues).
 *
 *   ./build/laps-paper
 *   ./build/laps-paper --experiment=allreduce --topo=df
 *   ./build/laps-paper --experiment=all2all --cdf=datamining --load=0.8 --csv=a2a.csv
 */
#include "ns3/core-module.h"
#include "ns3/dcn-options.h"
#include "ns3/dcn-queue-disc.h"
#include "ns3/dcn-scheme.h"
#include "ns3/dcn-transport-helper.h"
#include "ns3/failure-helper.h"
#include "ns3/flow-size-cdf.h"
#include "ns3/graph-topology-helper.h"
#include "ns3/laps-path-selector.h"
#include "ns3/laps-reorder-monitor.h"
#include "ns3/workload-helper.h"

#include <algorithm>
#include <chrono>
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
    std::string lbs{"laps,ecmp,letflow,conga,plb"};
    std::string cdf{"websearch"};
    double load{0.8};
    double loss{0};
    uint64_t msgBytes{0}; //!< 0 = the scale's
    Time duration{0};     //!< 0 = the scale's
    Time stopTime{Seconds(2)};
    std::string csv{"laps-paper.csv"};
};

struct Row
{
    std::string lb;
    std::string cc;
    std::string mode;
    std::string note;
    FctSummary s;
    uint64_t drops{0};
    double reorderFrac{0};
    double reorderMeanB{0};
    double reorderAbove30k{0};
    uint64_t probes{0};
    double wall{0};
};

/** A CSV text field without double quotes. */
std::string
Quote(std::string s)
{
    std::replace(s.begin(), s.end(), '"', '\'');
    return s;
}

/** Transport and congestion control of a scheme in the paper's setup (spec 3). */
void
TransportOf(const std::string& lb, std::string& cc, std::string& mode)
{
    if (lb == "laps")
    {
        cc = "laps";
        mode = "OutOfOrder";
    }
    else if (lb == "plb")
    {
        cc = "dctcp";
        mode = "OutOfOrder";
    }
    else
    {
        cc = "dcqcn";
        mode = "InOrder";
    }
}

Row
RunOne(const Options& o, const std::string& lb)
{
    auto wall0 = std::chrono::steady_clock::now();
    Row r;
    r.lb = lb;
    TransportOf(lb, r.cc, r.mode);
    const bool paper = o.scale == "paper";
    const std::string preset = o.topo == "rail" ? "laps-rail" : "laps-df";
    // spec 4.1: 150 KB drop-tail per interface; 1000-B payload (1048-B frames [A])
    Config::SetDefault("ns3::DcnGraphTopology::QueueLimit", QueueSizeValue(QueueSize("150000B")));
    Ptr<DcnGraphTopology> t = DcnTopologyPresets::Create(preset, {}, "minimal");
    std::string err = DcnSchemeRegistry::CheckForRun(lb, t->GetTopologyName(), "dcn", 0);
    int64_t stream = 1;
    stream += t->AssignStreams(stream);
    stream = std::max<int64_t>(stream, 1000);
    DcnTransportHelper th;
    th.SetTransportAttribute("Mtu", UintegerValue(1000));
    th.SetTransportAttribute("Mode", StringValue(r.mode));
    // LAPS recovers per path (2 realVal); the transport timeout is a backstop
    th.SetTransportAttribute("Rto", TimeValue(lb == "laps" ? MilliSeconds(8) : MilliSeconds(1)));
    th.Install(t->GetHosts());
    Ptr<FailureHelper> fh = CreateObject<FailureHelper>(t);
    if (o.loss > 0)
    {
        for (const auto& l : t->GetLinks())
        {
            fh->SetLinkDropRate(l.id, o.loss, Time(0));
        }
    }
    Ptr<LapsReorderMonitor> mon = CreateObject<LapsReorderMonitor>();
    mon->Install(t->GetHosts());
    Ptr<WorkloadHelper> wl = CreateObject<WorkloadHelper>();
    stream += wl->AssignStreams(stream);
    stream += fh->AssignStreams(stream);
    if (o.experiment == "all2all")
    {
        wl->SetAttribute("Workload", StringValue("cdf"));
        wl->SetAttribute("Cdf", StringValue(o.cdf));
        wl->SetAttribute("Load", DoubleValue(o.load));
        Time d = o.duration.IsStrictlyPositive() ? o.duration
                                                 : (paper ? MilliSeconds(10) : MicroSeconds(100));
        wl->SetAttribute("Duration", TimeValue(d));
    }
    else
    {
        // spec 4.2: Rail 63 senders -> one GPU; Dragonfly hosts 37-143 -> host 36
        const uint32_t n = t->GetNHosts();
        const bool df = o.topo == "df";
        wl->SetAttribute("Workload", StringValue("incast"));
        wl->SetAttribute("IncastReceiver", UintegerValue(df ? 36 : 0));
        wl->SetAttribute("IncastDegree", UintegerValue(df ? 107 : n - 1));
        uint64_t m = o.msgBytes ? o.msgBytes : (paper ? 64000000 : 250000);
        wl->SetAttribute("MessageSize", UintegerValue(m));
    }
    wl->SetAttribute("LoadBalancer", StringValue(lb));
    wl->SetAttribute("CongestionControl", StringValue(r.cc));
    wl->SetAttribute("StartTime", TimeValue(MicroSeconds(1)));
    if (!err.empty())
    {
        r.note = "skipped: " + err;
        Simulator::Destroy();
        return r;
    }
    wl->Install(t);
    Simulator::Stop(o.stopTime);
    Simulator::Run();
    wl->Finalize();
    FctStats st = wl->GetStats();
    st.SetRunEnd(Simulator::Now());
    r.s = st.Summarize();
    r.reorderFrac = mon->GetPackets() ? double(mon->GetOutOfOrder()) / mon->GetPackets() : 0;
    r.reorderMeanB = mon->GetMeanBytes();
    r.reorderAbove30k = mon->GetFractionAbove();
    for (uint32_t i = 0; i < t->GetLinks().size(); ++i)
    {
        const DcnLinkInfo& l = t->GetLink(i);
        for (auto dev : {l.devA, l.devB})
        {
            Ptr<DcnQueueDisc> q = t->GetQueueDisc(dev);
            r.drops += q ? q->GetNDropped() : 0;
        }
    }
    wl->Dispose();
    Simulator::Destroy();
    r.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    return r;
}

} // namespace

int
main(int argc, char** argv)
{
    Options o;
    DcnOptions opts("laps-paper",
                    "The LAPS paper's experiments on laps-rail / laps-df with LAPS and its "
                    "baselines; one CSV row per scheme.  Exit status: 0, 2 bad input (one "
                    "line), 3 some flow did not finish.");
    opts.Choice("experiment",
                "all2all (CDF, Figs. 8-17) or allreduce (64 MB incast, Tables III-IV)",
                o.experiment,
                {"all2all", "allreduce"});
    opts.Choice("topo", "rail (laps-rail) or df (laps-df)", o.topo, {"rail", "df"});
    opts.Choice("scale",
                "small (~1-2 min CPU) or paper (documented sizes)",
                o.scale,
                {"small", "paper"});
    opts.ChoiceList("lb", "Comma-separated schemes", o.lbs, DcnSchemeRegistry::Names());
    opts.Text("cdf", "Flow-size CDF of all2all (data/workloads name)", o.cdf);
    opts.Double("load", "Offered load of all2all, fraction of the host link", o.load)
        .Range(0, 1, true, false);
    opts.Double("loss", "Random drop probability per link (paper: 1e-6)", o.loss).Range(0, 0.1);
    opts.Size("msgSize", "allreduce bytes per sender (0 = the scale's: 250 kB / 64 MB)", o.msgBytes)
        .Max(1ULL << 36);
    opts.Time("duration", "all2all arrival window (0 = the scale's: 100 us / 10 ms)", o.duration)
        .Max(Seconds(10));
    opts.Time("stopTime", "Simulated-time limit", o.stopTime)
        .Min(NanoSeconds(1))
        .Max(Seconds(3600));
    opts.Text("csv", "CSV output file", o.csv);
    opts.Parse(argc, argv);
    if (o.experiment == "all2all")
    {
        FlowSizeCdf cdf;
        std::string e = FlowSizeCdf::TryLoad(o.cdf, &cdf);
        if (!e.empty())
        {
            DcnOptions::Exit("laps-paper", "option --cdf: " + e);
        }
    }
    std::ofstream csv(o.csv);
    if (!csv)
    {
        DcnOptions::Exit("laps-paper", "option --csv: cannot write '" + o.csv + "'");
    }
    csv << "experiment,topo,scale,lb,cc,mode,flows,unfinished,avg_fct_ms,p99_fct_ms,max_fct_ms,"
           "retransmissions,timeouts,drops,reorder_frac,reorder_mean_B,reorder_p_gt_30KB,wall_s,"
           "note\n";
    bool allDone = true;
    std::cout << "== laps-paper " << o.experiment << " topo=" << o.topo << " scale=" << o.scale
              << "\n";
    std::vector<std::string> lbs;
    std::stringstream ss(o.lbs);
    for (std::string x; std::getline(ss, x, ',');)
    {
        lbs.push_back(x);
    }
    for (const auto& lb : lbs)
    {
        Row r = RunOne(o, lb);
        allDone = allDone && r.s.unfinished == 0;
        csv << o.experiment << ',' << o.topo << ',' << o.scale << ',' << r.lb << ',' << r.cc << ','
            << r.mode << ',' << r.s.count << ',' << r.s.unfinished << ',' << r.s.meanUs / 1e3 << ','
            << r.s.p99Us / 1e3 << ',' << r.s.maxUs / 1e3 << ',' << r.s.retransmissions << ','
            << r.s.timeouts << ',' << r.drops << ',' << r.reorderFrac << ',' << r.reorderMeanB
            << ',' << r.reorderAbove30k << ',' << r.wall << ",\"" << Quote(r.note) << "\"\n";
        std::cout << std::left << std::setw(8) << r.lb << std::setw(7) << r.cc << std::setw(11)
                  << r.mode << " flows " << r.s.count << " unfinished " << r.s.unfinished << " avg "
                  << r.s.meanUs / 1e3 << " ms p99 " << r.s.p99Us / 1e3 << " ms drops " << r.drops
                  << " retx " << r.s.retransmissions << " reorder " << r.reorderFrac << " wall "
                  << r.wall << " s " << r.note << std::endl;
    }
    std::cout << "CSV: " << o.csv << std::endl;
    return allDone ? 0 : 3;
}
