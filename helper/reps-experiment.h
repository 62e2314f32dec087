/*
 * One self-contained simulation run for the REPS reproduction (examples/reps-paper.cc,
 * test/reps-vs-global-test.cc): builds a FatTreeHelper fabric, installs the
 * DcnTransport, injects failures, runs a WorkloadPlan with one load balancer and
 * returns FCTs, drop counters and (optionally) one ToR's per-uplink utilisation
 * and queue-size timeseries.
 *
 * Each call seeds the RNG (Seed/Run), runs Simulator::Run() and calls
 * Simulator::Destroy(), so runs are independent and reproducible.
 */
#ifndef DCN_REPS_EXPERIMENT_H
#define DCN_REPS_EXPERIMENT_H

#include "ns3/data-rate.h"
#include "ns3/failure-helper.h"
#include "ns3/fct-stats.h"
#include "ns3/nstime.h"
#include "ns3/workload-plan.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/** A failure on one ToR uplink. */
struct RepsFailure
{
    enum Kind
    {
        SILENT,    //!< packets lost both ways, routes unchanged (FailureHelper::FailLinkSilent)
        DEGRADE,   //!< link runs at `rate` (FailureHelper::DegradeLink)
        BLACKHOLE, //!< data packets dropped at the egress queue of `dir` (FailureHelper::Blackhole)
    };

    Kind kind{SILENT};
    /** DEGRADE/BLACKHOLE direction; DEGRADE with BOTH keeps the queue limits (pre-issue-10). */
    DcnLinkDir dir{DcnLinkDir::BOTH};
    uint32_t tor{0};
    uint32_t uplink{0};
    Time start{0};
    Time duration{0}; //!< 0 = until the end
    DataRate rate{"200Gbps"};
};

struct RepsExperimentConfig
{
    // fabric (2 tiers)
    uint32_t numTors{4};
    uint32_t hostsPerTor{8};
    uint32_t uplinksPerTor{8};
    DataRate hostRate{"400Gbps"};
    DataRate fabricRate{"400Gbps"};
    std::string routing{"dcn"}; //!< dcn | global (first route) | global-ecmp (per-packet random)
    double slowFraction{0};     //!< fraction of ToR uplinks built at slowRate
    DataRate slowRate{"200Gbps"};
    std::vector<std::pair<uint32_t, uint32_t>> slowLinks; //!< (tor, uplink) built slow
    std::vector<std::pair<std::string, std::string>> fabricAttrs;
    /** "" (our defaults) or "reps-artifact" (reps-profile.h: every parameter as the REPS
     *  authors' artifact runs it). */
    std::string profile;

    // transport / load balancer
    std::string lb{"reps"}; //!< ecmp | ops | reps
    uint32_t evs{65536};
    Time freezingTimeout{0}; //!< REPS FreezingTimeout (0 = attribute default)
    uint32_t ackRatio{1};
    std::string ackEvMode{"Standard"}; //!< Standard | Carry
    uint32_t evReuse{1};               //!< REPS EvReuseCount ("Reuse" coalescing variant)
    std::vector<std::pair<std::string, std::string>> lbAttrs;

    // workload and scenario
    WorkloadPlan plan;
    Time workloadStart{MicroSeconds(1)};
    std::vector<RepsFailure> failures;
    Time stop{MilliSeconds(90)}; //!< REPS spec 3.1: 90 ms
    uint32_t seed{1};
    uint32_t run{1};

    // monitoring (Fig. 2)
    int32_t monitorTor{-1}; //!< ToR whose uplinks are monitored (-1 = none)
    Time bucket{MicroSeconds(20)};
};

struct RepsExperimentResult
{
    FctStats stats;
    FctSummary summary;
    uint32_t total{0};
    uint32_t completed{0};
    uint64_t congestionDrops{0};
    uint64_t injectedDrops{0};
    uint64_t unroutableDrops{0};
    uint64_t marks{0};
    uint64_t packetHops{0}; //!< packet hops (DcnPacketHopCounter, packet-hops.h)
    uint64_t events{0};
    uint64_t dataPackets{0};
    uint64_t retransmissions{0};
    uint64_t timeouts{0};
    uint64_t freezes{0}; //!< REPS freezing-mode entries over all connections
    double wallSeconds{0};
    Time endTime{0};
    std::vector<std::vector<double>> utilGbps;     //!< [bucket][uplink]
    std::vector<std::vector<uint32_t>> queueBytes; //!< [bucket][uplink], sampled at bucket end
    uint32_t queueLimitBytes{0};

    /** Max FCT (workload completion time) in us; the stop time if something did not finish. */
    double MaxFctUs() const;

    /** Congestion + injected + unroutable drops. */
    uint64_t TotalDrops() const
    {
        return congestionDrops + injectedDrops + unroutableDrops;
    }
};

RepsExperimentResult RunRepsExperiment(const RepsExperimentConfig& c);

} // namespace ns3

#endif // DCN_REPS_EXPERIMENT_H
