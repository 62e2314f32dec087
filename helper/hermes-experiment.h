/*
 * One point of the Hermes paper's evaluation (issue 17 item 3; spec section 5): a leaf-spine
 * (testbed-like or the 8x8 simulation topology, shrunk at --scale=small), web-search or
 * data-mining flows with Poisson arrivals between hosts of different leaves at a load of the
 * leaf uplink capacity, DCTCP or NewReno through the TCP shim, one load balancer, and the
 * experiment's asymmetry or failure.  Used by examples/hermes-paper.cc.
 */
#ifndef DCN_HERMES_EXPERIMENT_H
#define DCN_HERMES_EXPERIMENT_H

#include "ns3/fct-stats.h"
#include "ns3/nstime.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

struct HermesExperimentConfig
{
    /** testbed, testbed-asym, sim, sim-asym, drop, blackhole (HermesExperimentNames). */
    std::string experiment{"sim"};
    bool paperScale{false};
    std::string workload{"websearch"}; //!< flow-size CDF name (data/workloads)
    std::string cc{"dctcp"};           //!< dctcp | newreno
    std::string lb{"hermes"};          //!< scheme name
    double load{0.5};                  //!< of the leaf uplink capacity
    Time duration{MilliSeconds(20)};   //!< arrival window
    Time stop{Seconds(2)};             //!< hard stop (unfinished flows are reported)
    Time linkDelay{0}; //!< propagation delay of every link, host links too; 0 = the preset's
    uint32_t run{1};   //!< RngRun
    /** Hermes selector attributes (breakdown and sensitivity). */
    std::vector<std::pair<std::string, std::string>> selectorAttrs;
};

struct HermesExperimentResult
{
    FctSummary all;
    FctSummary small; //!< < 100 KB
    FctSummary large; //!< > 10 MB
    uint32_t flows{0};
    uint64_t events{0};
    uint64_t injectedDrops{0};   //!< packets dropped by the injected failure (drop, blackhole)
    uint64_t segments{0};        //!< TCP segments sent, all hosts (shim counters)
    uint64_t retransmissions{0}; //!< of which resent
    uint64_t timeouts{0};        //!< of which by TCP's retransmission timer
    uint64_t pathChanges{0};     //!< data segments sent on another path than their flow's last
    uint64_t hostMarks{0};       //!< CE marks set by host NIC queues (review s44 H2)
    uint64_t switchMarks{0};     //!< CE marks set by switch port queues
    uint64_t downlinkMarks{0};   //!< of which by the edge switches' ports to their hosts
    /** Hermes's failure evidence (Sec. 3.1.2), summed over its (sender, destination, path)
     *  records: times N_TO timeouts made a record FAILED, and tau windows whose
     *  retransmission fraction rose above T_RETX */
    uint64_t timeoutFailures{0};
    uint64_t retxFailures{0};
    /** of which on the fault: the record's path crosses spine0 (drop, blackhole) and, under
     *  the blackhole, its host pair is blackholed */
    uint64_t timeoutFailuresOnFault{0};
    uint64_t retxFailuresOnFault{0};
    /** injected drops by what the packet carried (read from its bytes) */
    uint64_t dropsData{0};  //!< TCP segments with payload
    uint64_t dropsAck{0};   //!< TCP segments without payload (ACKs, SYN, FIN)
    uint64_t dropsProbe{0}; //!< the shim's probes and probe replies
    uint64_t dropsOther{0}; //!< anything else (plain TCP without the shim)
    /** Hermes with RttThresholdsFromRule: the derived thresholds ("" otherwise), e.g.
     *  "T_RTT_high=base+117000ns;DeltaRtt=78000ns (RttThresholdsFromRule)". */
    std::string rttThresholds;
    double wallSeconds{0};
    Time hostLinkDelay{0}; //!< propagation delay of the host links (CSV link_delay_ns)
    bool noFlows{false};   //!< no flow arrived in the window: nothing was simulated
    /** The Poisson plan's offered rate per host (bit/s): load x leaf 0's nominal uplink
     *  capacity per host (the symmetric fabric's, also under sim-asym). */
    double offeredBpsPerHost{0};
};

/** The experiment names. */
const std::vector<std::string>& HermesExperimentNames();

/**
 * Run one point (a fresh simulation).  A point at which no flow arrives in the
 * arrival window is not simulated: flows 0 and noFlows set.
 */
HermesExperimentResult RunHermesExperiment(const HermesExperimentConfig& c);

/**
 * The marking and buffers of Hermes's evaluation (spec 4), as DcnGraphTopology
 * attribute defaults, for \p experiment: DCTCP step marking at K = 65 packets
 * of about 1500 B (97.5 KB; the testbed experiments: 30 KB), i.e. RED with MinTh
 * = MaxTh = K (KminFraction = KmaxFraction = K / QueueLimit); 600-packet buffers
 * (900 KB, [ART]) on switch ports and host NICs; the host NICs mark too ([ART]
 * marks on both ends of the server links).  Attributes named in \p given (the
 * "ns3::Type::Attr=V;..." list of DcnOptions::GetAttributeArguments()) are left as
 * the user set them.  Also marking at enqueue (RED's instantaneous queue, spec 4;
 * the fabric marks at dequeue by default) and a first RTT estimate of 80 us ([ART];
 * ns-3's 1 s would set the RTO after a retransmitted SYN, spec 4's initial RTO is
 * 10 ms).  Before 2026-11-28 the experiments ran with the topology's defaults
 * (415 KB ports, ramp marking from 20 % to 80 % of them, host NICs 100 MB without
 * ECN); until later that day with dequeue marking and the 1 s first estimate.
 */
void HermesPaperDefaults(const std::string& experiment, const std::string& given);

} // namespace ns3

#endif // DCN_HERMES_EXPERIMENT_H
