/*
 * One self-contained simulation run of the Spritz reproduction
 * (examples/spritz-paper.cc, test/spritz-system-test.cc) on a Dragonfly or
 * Slim Fly graph preset: the paper's network (spritz spec 4.1: 400 Gb/s,
 * 1 BDP queues with RED marking 20-80 %, trimming, 500 ns switches), the
 * DcnTransport (per-packet ACKs, NACKs for trimmed packets, RTO), DCTCP with
 * QuickAdapt + FastIncrease for every scheme, silent (black-hole) link
 * failures from t = 0 with no table update, and one workload plan.
 *
 * Scheme names: every --lb scheme (spritz-scout, spritz-spray, spritz-spray-u,
 * ops-w, ops-u, spritz-ecmp, flicr, ...), plus the switch-routing baselines
 * "minimal", "valiant", "ugal-l" (ECMP hosts, one EV per flow, on that switch
 * routing; spec 4.2), and ns-3's own routing for comparison: "ns3-global"
 * (Ipv4GlobalRouting, first route) and "ns3-global-ecmp" (its RandomEcmpRouting,
 * per-packet random over equal-cost next hops), ECMP hosts.  Each call seeds the RNG, runs and
 * destroys the simulator, so runs are independent and reproducible.
 */
#ifndef DCN_SPRITZ_EXPERIMENT_H
#define DCN_SPRITZ_EXPERIMENT_H

#include "ns3/fct-stats.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/workload-plan.h"

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class DcnGraphTopology;

struct SpritzExperimentConfig
{
    std::string topo{"df-small"};                  //!< graph preset (dragonfly / slimfly)
    std::map<std::string, std::string> topoParams; //!< preset overrides
    std::string scheme{"spritz-spray"};            //!< see the file comment
    uint32_t queuePackets{88};       //!< per switch port (spec 4.1: DF 88, SF 92 packets)
    bool trimming{true};             //!< spec 4.1
    bool smarttCc{true};             //!< DCTCP QuickAdapt + FastIncrease (spec 4.1)
    Time rto{MicroSeconds(100)};     //!< spec 3.5 [A]: above the worst queueing RTT (~44 us DF)
    Time resetTime{MilliSeconds(1)}; //!< Spritz T_reset (spec 3.5 [A])
    /** Spritz switches: ACK/NACK routed by their echoed EV ("ev") or minimally ("default",
     *  spec 2.4); "" = the ns3::DcnSpritzForwardingPolicy::ControlRoute default (ev unless
     *  set on the command line).  spritz-paper: default, ev for the failure experiment
     *  (doc/spritz.rst: a black-holed minimal reverse path loses every ACK). */
    std::string controlRoute;
    /** One BDP of this many packets for every connection (spec 4.1: the longest path's,
     *  88 DF / 92 SF): window 1.5 x it, base RTT its serialisation time
     *  (DcnWorkloadHelper::BdpPackets); 0 = that attribute's default (each pair's
     *  minimal-path BDP unless set on the command line). */
    uint32_t bdpPackets{0};
    /** Attributes ("ns3::Type::Attr") the caller set itself, e.g. on the command line: the
     *  experiment leaves their defaults alone instead of setting its spec values
     *  (ns3::DctcpCc::QuickAdapt / FastIncrease: smarttCc, spec 4.1;
     *  ns3::DcnValiantForwardingPolicy::PerPacket: true, spec 4.2).  Whatever the experiment
     *  sets is put back when it returns or throws. */
    std::vector<std::string> keepDefaults;
    std::vector<uint32_t> failedLinks; //!< graph switch-switch link ids, silent from t = 0
    /** Hosts whose connections run the background scheme (spec 4.3.5: the collectives'
     *  background permutation under ECMP): "spritz-ecmp" (one Spritz EV list entry per
     *  flow) when the scheme runs Spritz routing, else "ecmp" (hosts' flow hash on the
     *  scheme's switch routing). */
    std::vector<uint32_t> backgroundHosts;
    WorkloadPlan plan;
    Time stop{Seconds(1)}; //!< spec 4.1: runs unfinished at 1 s did not finish
    uint32_t seed{1};
    uint32_t run{1};
    std::vector<std::pair<std::string, std::string>> lbAttrs;
    /** Called after the network and workload are installed, before Run (tests: traces). */
    std::function<void(Ptr<DcnGraphTopology>)> onBuilt;
};

struct SpritzExperimentResult
{
    FctStats stats;
    FctSummary summary;
    uint32_t total{0};
    uint32_t completed{0};
    uint64_t congestionDrops{0};
    uint64_t trims{0};
    uint64_t injectedDrops{0}; //!< lost on failed links
    uint64_t dataPackets{0};
    uint64_t retransmissions{0};
    uint64_t timeouts{0};
    uint64_t outOfOrder{0};
    uint64_t delivered{0};             //!< data packets received (incl. trimmed headers)
    uint64_t blockedPaths{0};          //!< Spritz: paths blocked after a timeout (all connections)
    uint32_t connections{0};           //!< connections opened (all hosts)
    uint32_t spritzEcmpConnections{0}; //!< of which Spritz selectors in ECMP mode
    uint64_t events{0};
    double wallSeconds{0};
    Time endTime{0};

    bool Finished() const
    {
        return completed == total;
    }

    double OooPercent() const
    {
        return delivered > 0 ? 100.0 * outOfOrder / delivered : 0.0;
    }
};

SpritzExperimentResult RunSpritzExperiment(const SpritzExperimentConfig& c);

/**
 * spritz-paper's ACK / NACK routing for `experiment`: "default" (the minimal table,
 * spec 2.4 and 6.3 case 14), but "ev" for "failures" (links black-holed from t = 0
 * with no table update: a failed link on a pair's minimal reverse path would lose
 * every ACK; doc/spritz.rst).
 */
std::string SpritzPaperControlRoute(const std::string& experiment);
/**
 * spritz-paper's queue per port and BDP of every connection, in packets (spec 4.1:
 * 1 BDP of the longest path, "use the literal values"): 88 on a Dragonfly
 * (topoFamily "df"), 92 on a Slim Fly ("sf").  The DCTCP window is 1.5 x it
 * (132 / 138 packets).
 */
uint32_t SpritzPaperBdpPackets(const std::string& topoFamily);

/** Baseline names handled as switch routing + ECMP hosts (ns-3's included). */
bool SpritzIsRoutingBaseline(const std::string& scheme);
/** "ns3-global" / "ns3-global-ecmp": ns-3's Ipv4GlobalRouting instead of our switches. */
bool SpritzIsNs3Baseline(const std::string& scheme);

// ---- workloads of the paper (spec 4.3) on a graph preset's host numbering ----

/**
 * Motivational scenario (Table III, spec 4.3.1 [A]): the monitored flow from
 * host `src` to host `dst` (first message), and in every group but the
 * destination group and `freeGroups - 1` others, `sendersPerGroup` hosts of
 * the group send `bytes` to a host of the switch that owns the group's global
 * link to the destination group.  DF only.
 */
WorkloadPlan SpritzMotivationalPlan(const std::string& topo,
                                    const std::map<std::string, std::string>& params,
                                    uint32_t src,
                                    uint32_t dst,
                                    uint64_t bytes,
                                    uint32_t freeGroups,
                                    uint32_t sendersPerGroup);
/**
 * Incast + bystanders (spec 4.3.4): hosts 0..degree-1 each send `bytes` to host
 * `receiver`; every other host (not a sender, not the receiver) sends `bytes` to
 * one host of a random derangement of those hosts (a disjoint permutation, seeded).
 * Messages 0..degree-1 are the incast.
 */
WorkloadPlan SpritzIncastPlan(const std::string& topo,
                              const std::map<std::string, std::string>& params,
                              uint32_t degree,
                              uint32_t receiver,
                              uint64_t bytes,
                              uint32_t seed);
/** Permutation avoiding the own group where possible (spec 4.3.2), seeded. */
WorkloadPlan SpritzPermutationPlan(const std::string& topo,
                                   const std::map<std::string, std::string>& params,
                                   uint64_t bytes,
                                   uint32_t seed);
/**
 * Adversarial (spec 4.3.3): DF group i -> group i+1 (host k of group i to host k
 * of group i+1); SF: switches paired at distance 2 (greedy, lowest ids first),
 * host k of one to host k of the other, both ways.
 */
WorkloadPlan SpritzAdversarialPlan(const std::string& topo,
                                   const std::map<std::string, std::string>& params,
                                   uint64_t bytes);
/**
 * AI collectives (spec 4.3.5): `collective` ("ring" / "butterfly" Allreduce of a
 * `bytes` buffer, or "alltoall" sending bytes / endpoints to every peer with at most
 * `parallel` outstanding messages per endpoint) among `endpoints` hosts drawn
 * uniformly at random (seeded), using WorkloadPlanner's generators mapped onto those
 * hosts; then a background permutation (random derangement, `bgBytes` per flow) among
 * all other hosts, appended after the collective's messages (no dependencies).
 * `chosen` (if not null) receives the endpoint hosts, collective rank order.
 */
WorkloadPlan SpritzCollectivePlan(const std::string& topo,
                                  const std::map<std::string, std::string>& params,
                                  const std::string& collective,
                                  uint32_t endpoints,
                                  uint64_t bytes,
                                  uint32_t parallel,
                                  uint64_t bgBytes,
                                  uint32_t seed,
                                  std::vector<uint32_t>* chosen);
/**
 * Web search (spec 4.3.6): Poisson arrivals on every host (WorkloadPlanner::Poisson)
 * with sizes from `cdf`, offered `load` of the host link rate `hostRateBps` (0: the
 * built topology's host link rate, e.g. --topoParams=rate=...), for `duration` of
 * arrivals; receivers uniform over the other hosts, at most `maxSendersPerReceiver`
 * (> 0) of them sending to one receiver at a time (Sec. V-A.c; WorkloadPlanner::Poisson
 * says what "at a time" is).  Seeded.
 */
WorkloadPlan SpritzWebSearchPlan(const std::string& topo,
                                 const std::map<std::string, std::string>& params,
                                 const FlowSizeCdf& cdf,
                                 double load,
                                 uint64_t hostRateBps,
                                 Time duration,
                                 uint32_t seed,
                                 uint32_t maxSendersPerReceiver = 0);
/** The messages of `stats` whose source is one of `hosts` (collective summaries). */
FctStats SpritzStatsOfSources(const FctStats& stats, const std::vector<uint32_t>& hosts);
/** `fraction` of the switch-switch links, uniformly at random (seeded; spec 4.3.7). */
std::vector<uint32_t> SpritzRandomLinks(const std::string& topo,
                                        const std::map<std::string, std::string>& params,
                                        double fraction,
                                        uint32_t seed);

} // namespace ns3

#endif // DCN_SPRITZ_EXPERIMENT_H
