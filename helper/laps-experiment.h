/*
 * One simulation run of the LAPS reproduction (examples/laps-paper.cc,
 * test/laps-vs-global-test.cc; doc/laps.rst) on a graph preset (laps-rail,
 * laps-df, or a smaller override of them): the paper's network (laps spec 4.1:
 * 150 KB per interface, 1000-B payload; with PFC a 32 MB shared buffer per
 * switch, DcnPfcHelper), one scheme in the transport the paper ran it with
 * (spec 3):
 *  - laps: the out-of-order transport with LAPS's AIMD (LapsCc) and per-path
 *    loss recovery, no DCQCN, no go-back-N, ECN unused;
 *  - plb: DCTCP on the out-of-order transport;
 *  - every other scheme (ecmp, letflow, conga, conweave, ...): RoCE =
 *    go-back-N (Mode=InOrder) + DCQCN;
 *  - "ns3-global" / "ns3-global-ecmp": ECMP hosts over RoCE + DCQCN on ns-3's
 *    own Ipv4GlobalRouting (first route / RandomEcmpRouting) instead of our
 *    switches (DcnGraphTopology Routing=global; no PFC there: our PFC frames
 *    are read by DcnSwitchRouting).
 * PFC (Config::pfc, default on as in the paper) applies to every scheme.  The LAPS
 * authors' ECN thresholds, switch buffer and baseline routing (authorsEcn,
 * authorsBuffer, lapsPathBaselines; laps-paper --setup=authors) are opt-in.  A
 * scheme that cannot run on the topology returns a result whose note starts
 * with "skipped: "; CONGA and ConWeave on Rail / Dragonfly need
 * LapsPaperDefaults() or AnyTopology=true (else DcnOptionError, one line).
 * Each call seeds the RNG, runs and destroys the simulator.
 */
#ifndef DCN_LAPS_EXPERIMENT_H
#define DCN_LAPS_EXPERIMENT_H

#include "ns3/dcn-option-parse.h"
#include "ns3/dcn-topology.h"
#include "ns3/fct-stats.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
#include "ns3/workload-plan.h"

#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

struct LapsExperimentConfig
{
    /** all2all (CDF, Poisson), allreduce (incast: senders -> incastReceiver) or
     *  allscatter (incastReceiver sends msgBytes to each of the same senders) */
    std::string experiment{"all2all"};
    std::string topo{"laps-rail"};                 //!< graph preset
    std::map<std::string, std::string> topoParams; //!< preset overrides
    std::string scheme{"laps"};                    //!< see the file comment
    bool pfc{true};                                //!< PFC + shared buffer (spec 3 [P])
    std::string cdf{"websearch"};                  //!< all2all flow sizes
    double load{0.8};                              //!< all2all load of the host link
    Time duration{MicroSeconds(100)};              //!< all2all arrival window
    uint64_t msgBytes{250000};                     //!< allreduce / allscatter bytes per message
    uint32_t incastReceiver{0};                    //!< allreduce receiver = allscatter root
    /** allreduce senders = allscatter destinations: hosts receiver+1 .. receiver+degree
     *  (mod hosts; 0 = every other host) */
    uint32_t incastDegree{0};
    std::vector<uint32_t> incastSenders; //!< the same, explicit (non-empty: replaces incastDegree)
    double loss{0};                      //!< random drop per link
    uint64_t queueBytes{150000};         //!< per interface (spec 4.1)
    Time stop{Seconds(2)};
    /** > 0: sample every port's queue at this interval during the arrival window (all2all)
     *  or until the stop time (allreduce) and report the mean / max per link class. */
    Time queueSampling{0};
    /** Inter-packet gaps of every scheme and LAPS path-class shares (LapsTxMonitor). */
    bool pathStats{false};
    Time gapThreshold{MicroSeconds(50)}; //!< pathStats: gap threshold (paper Fig. 18: 50 us)
    /**
     * Send window of the DCQCN (RoCE baseline) flows of this run: WINDOW_AS_SET leaves
     * ns3::DcqcnCc::Window as configured; UNIFIED_WINDOW gives every flow the LAPS
     * authors' unified window ([A] enableWindow / enableUnifiedWindow:
     * DcnTopology::GetMaxHostPairBdp(1048) of the built topology, laps-paper's default); any other
     * value is the window in bytes (0 = none).  Set on this run's DCQCN connections
     * (WorkloadHelper::AddCongestionControlAttribute); the attribute's default is untouched.
     */
    uint64_t dcqcnWindow{WINDOW_AS_SET};
    static constexpr uint64_t WINDOW_AS_SET = std::numeric_limits<uint64_t>::max();
    static constexpr uint64_t UNIFIED_WINDOW = dcnopt::UNIFIED_WINDOW; //!< "unified"
    /**
     * The LAPS authors' set-up ([A], review s44 L3, L4, L8; laps-paper --setup=authors sets
     * all three, each also works alone):
     *  - authorsEcn: switch ports mark by [A]'s per-rate ecnParaMap (DcnQueueDisc
     *    EcnKminPerGbps 4000, EcnKmaxPerGbps 16000, EcnPmax 0.8: 400 / 1600 KB at 100G,
     *    800 / 3200 KB at 200G), not 0.2 / 0.8 of queueBytes; without PFC the switches
     *    also get the lossy shared buffer (DcnPfcHelper SetPfc(false)), so no 150-KB
     *    drop-tail cap cuts the marking range (with PFC the buffer admits already); the
     *    same when EcnKminPerGbps or BufferPerPort is given by hand (--ns3::...);
     *  - authorsBuffer: DcnSwitchBuffer BufferPerPort 1 MiB ([A] config_switch_mmu:
     *    1 MiB x (ports + 2) per switch), not BufferSize 32 MiB (spec 4.1 [P]);
     *  - lapsPathBaselines: ecmp, letflow and plb run as ecmp-laps-paths,
     *    letflow-laps-paths and plb-laps-paths (DcnLapsPathsSelector: over the LAPS
     *    path set, as [A]'s tables from laps-PIT.txt), and conga / conweave as
     *    conga-laps-paths / conweave-laps-paths (switch policies conga-laps,
     *    conweave-laps: the source leaf's choice among the pair's LAPS paths, as [A]'s
     *    install_LB_table; issue 16), not over minimal paths.
     */
    bool authorsEcn{false};
    bool authorsBuffer{false};
    bool lapsPathBaselines{false};
    /** PLB as [A] runs it (laps-paper --setup=authors; doc/laps.rst "The authors' simulator"):
     *  rate-based DCTCP (DctcpRateCc, "dctcp-rate") over go-back-N (InOrder, PFC as the RoCE
     *  baselines), with the RoCE baselines' window (dcqcnWindow) and no CNP packets ([A] echoes
     *  CE in the ACK's CNP flag); not window DCTCP over selective repeat. */
    bool authorsPlb{false};
    /** the transport timeout (Rto) of every scheme but LAPS: spec 3's 1 ms; laps-paper
     *  --setup=authors: [A]'s RdmaHw L2Timeout, 4 ms (no driver override) */
    Time baselineRto{MilliSeconds(1)};
    /** all2all: each host offers load x loadScale x its host link rate (WorkloadHelper
     *  LoadScale; laps-paper --loadRef=artifact: LapsAuthorsLoadScale, review s44 L7). */
    double loadScale{1.0};
    /** allreduce / allscatter: > 0 = every message starts at a time drawn uniformly from
     *  [0, staggerStarts) after the workload start (n Poisson arrivals in the window;
     *  [A]'s flowLunchEndTimeInSec, review s44 L13; LapsStaggerStarts); 0 = all at once. */
    Time staggerStarts{0};
    /** with staggerStarts > 0: false = the uniform times above; true = [A]'s draw
     *  (generate_LLMA_rdma_flows_on_nodes at 4a4be642): a Poisson process of rate
     *  n / staggerStarts from the workload start, its i-th arrival to the i-th message in
     *  (source, destination) order, not cut at the window (laps-paper --staggerDraw). */
    bool staggerPoisson{false};
    uint32_t seed{1}; //!< RngSeedManager seed (laps-paper: --RngSeed)
    uint64_t run{1};  //!< RngSeedManager run (laps-paper: --RngRun)
};

struct LapsExperimentResult
{
    std::string cc;   //!< congestion control used
    std::string mode; //!< transport mode (InOrder = go-back-N)
    Time rto;         //!< the transport timeout (Rto) set for this run
    std::string note; //!< "" or "skipped: <why>"
    /** DCQCN send window set for this run (LapsExperimentConfig::dcqcnWindow), bytes;
     *  0 when the attribute was left as configured or the scheme does not run DCQCN */
    uint64_t dcqcnWindow{0};
    FctSummary s;
    uint64_t drops{0};     //!< queue drops, every port
    uint64_t pfcPauses{0}; //!< PFC pause frames sent (XOFF and refreshes), every port
    double pausedUs{0};    //!< data band paused, summed over every port
    double reorderFrac{0};
    double reorderMeanB{0};
    double reorderAbove30k{0};
    uint64_t events{0};
    uint64_t packetHops{0}; //!< link transmissions, hosts and switches (packet-hops.h)
    double wall{0};
    /**
     * allreduce: busy fraction of the receiver's host link, counting the frames of new
     * (not duplicate) data that arrive (payload + DcnHeader + UDP + IPv4 + PPP) against
     * its rate; rxUtil from the first arrival to the last one (the whole incast),
     * rxUtilAllActive until the first flow completes (every sender still active; spec
     * 7.16's "bottleneck utilisation").  allscatter: the same for the root's transmit
     * link, counting every data frame it sends (retransmissions included).  0 for all2all.
     */
    double rxUtil{0};
    double rxUtilAllActive{0};
    std::vector<FctRecord> flows; //!< per-flow records (completed and unfinished)

    /** Queue occupancy per link class and direction (queueSampling > 0), e.g.
     *  "nvlink nic->nvlink", "host nic->host": both bands, sampled at every port. */
    struct QueueClass
    {
        std::string cls;
        uint32_t ports{0};
        double meanBytes{0};
        double maxBytes{0};
    };

    std::vector<QueueClass> queues;

    /** pathStats: inter-packet gaps of every message at its sender (LapsTxMonitor). */
    uint64_t gaps{0};
    uint64_t gapsAbove{0}; //!< above gapThreshold
    double gapMeanUs{0};
    double gapMedianUs{0}; //!< LapsTxMonitor::GetGapQuantileUs(0.5)
    double gapP99Us{0};
    double gapMaxUs{0};

    /** pathStats, LAPS: path classes (length in switches) and their normalised shares
     *  (LapsTxMonitor::PathClasses); empty for the other schemes. */
    struct PathClass
    {
        uint32_t switches{0};
        uint64_t paths{0};
        uint64_t packets{0};
        uint32_t pairs{0};
        double share{0};
    };

    std::vector<PathClass> pathClasses;
    uint32_t singleClassPairs{0}; //!< pairs left out: every path of one class

    bool Skipped() const
    {
        return note.rfind("skipped", 0) == 0;
    }
};

/** Transport of a scheme in the paper's setup (spec 3): cc and DcnTransport Mode
 *  (a "-laps-paths" scheme runs its base scheme's).  authorsPlb: PLB as the LAPS authors'
 *  simulator runs it ([A] load_default_configures: ccMode Dctcp over its go-back-N RoCE
 *  transport), rate-based DCTCP (dctcp-rate) over InOrder, not dctcp over OutOfOrder. */
void LapsTransportOf(const std::string& scheme,
                     std::string& cc,
                     std::string& mode,
                     bool authorsPlb = false);

/** The scheme RunLapsExperiment runs for `scheme`: with lapsPathBaselines, ecmp, letflow,
 *  conga, conweave and plb over the LAPS path set ("<scheme>-laps-paths"); else `scheme`. */
std::string LapsSchemeOf(const std::string& scheme, bool lapsPathBaselines);

/** [A]'s per-rate ECN thresholds (CONFIG_DCQCN.txt ecnParaMap 100 400 1600 0.8 200 800 3200
 *  0.8: KB at Gb/s, i.e. 4000 / 16000 B per Gb/s, Pmax 0.8) and switch buffer
 *  (config_switch_mmu: 32 MiB / 32 = 1 MiB per port). */
struct LapsAuthorsValues
{
    static constexpr uint64_t KMIN_PER_GBPS = 4000;
    static constexpr uint64_t KMAX_PER_GBPS = 16000;
    static constexpr double PMAX = 0.8;
    static constexpr uint64_t BUFFER_PER_PORT = 1ull << 20;
    /** [A] C00016 run.py (LLM runs at 4a4be642): flowLunchEndTimeInSec = 0.01 s */
    static constexpr int64_t STAGGER_US = 10000;
    /** [A] RdmaHw L2Timeout (rdma-hw.cc, default 4 ms, no driver override): the go-back-N
     *  RoCE flows' retransmission timeout */
    static constexpr int64_t RTO_MS = 4;
};

/**
 * The LAPS evaluation's settings, as attribute defaults (Config::SetDefault;
 * call before the options are parsed so that --ns3::... still overrides them):
 * one connection per flow (DcnWorkloadHelper ConnectionPolicy=NewPerMessage: a
 * flow starts with fresh rate state, as [A]'s queue pair per flow and spec 1.5's
 * per-flow AIMD; ReuseIdle before 2026-11-28); LetFlow's and CONGA's flowlet
 * timeout 50 us (spec 3 [P]; their own defaults are Hermes's 150 us) and CONGA on Rail and
 * Dragonfly, ConWeave too, through their first-hop generalisation
 * (AnyTopology=true; the paper ran them there without saying how); the RoCE baselines'
 * DCQCN with the LAPS authors' values (DcqcnCc Preset=LapsAuthors, spec 3 [A]; the
 * SIGCOMM'15 Paper preset before 2026-11-29) and [A]'s notification point: a CNP for
 * every CE-marked packet (DcnTransport CnpInterval=0, [A]'s Dcqcn_mlx with
 * l2AckIntervalInByte 1; the reaction point's 4-us decrease interval bounds the cuts;
 * SIGCOMM'15's 50 us before 2026-11-30).  The authors' send window is per run
 * (LapsExperimentConfig::dcqcnWindow, laps-paper --roceWindow).
 */
void LapsPaperDefaults();

/** [A]'s offered all2all load per host, in host-link rates per unit of load (review s44 L7):
 *  its TFC-All.txt per-pair loadfactor times the destinations, 63 x 0.0158 = 0.9954 on
 *  laps-rail, 143 x 0.0091 = 1.3013 on laps-df (topo = the preset name); 1 otherwise. */
double LapsAuthorsLoadScale(const std::string& topo);

/**
 * The LAPS and flowlet attribute defaults laps-paper --setup=authors sets besides the ECN,
 * buffer and path-set pieces (review s44 L2, L11, L12, L13), as (attribute, value):
 * LapsPathSelector PathTimeoutFactor 400 ([A]'s per-path timeout 200 x 2 x the path's latest
 * latency), SoftmaxNorm and InflightCapBasis "unloaded" ([A]'s largest unloaded delay), and
 * the LetFlow / CONGA flowlet timeout 10 us ([A] C00017 run.py --flowletTimoutInUs default),
 * and CONGA over the LAPS paths choosing as [A]'s GetCongaBestPath(key, 4): PathSamples 4,
 * TiesPreferCurrent false, and its feedback as [A]'s GetCongaEgressPort: FeedbackChoice
 * Random (DcnCongaLapsForwardingPolicy).
 */
const std::vector<std::pair<std::string, std::string>>& LapsAuthorsAttributeDefaults();

/** Config::SetDefault every entry of LapsAuthorsAttributeDefaults(). */
void LapsAuthorsDefaults();

/** Staggered starts (review s44 L13).  poisson = false: every message's release = a uniform
 *  draw from [0, window) of u (n Poisson arrivals conditioned on the window), in plan order;
 *  true: [A]'s draw (generate_LLMA_rdma_flows_on_nodes at 4a4be64): release i = release
 *  i - 1 + an exponential gap of mean window / n (inverse transform of u), in (source,
 *  destination) order, not cut at the window. */
void LapsStaggerStarts(WorkloadPlan& plan,
                       Time window,
                       Ptr<UniformRandomVariable> u,
                       bool poisson = false);

/** Set [A]'s per-rate ECN thresholds (LapsAuthorsValues) on every port of a built topology
 *  (LapsExperimentConfig::authorsEcn): switch ports mark at 4000 / 16000 B per Gb/s of their
 *  link rate with Pmax 0.8; host NIC queues keep the fractions. */
void LapsApplyAuthorsEcn(Ptr<DcnTopology> t);

/** Run one scheme (see the file comment).  Bad configuration throws DcnOptionError. */
LapsExperimentResult RunLapsExperiment(const LapsExperimentConfig& c);

} // namespace ns3

#endif // DCN_LAPS_EXPERIMENT_H
