/*
 * Flow completion time statistics (DESIGN.md section 3.8).
 *
 * Pure data processing: the simulation glue converts the transport's
 * DcnMessageRecord into an FctRecord (adding the ideal FCT); everything here is
 * testable without running a simulation.
 *
 * Ideal FCT (the unloaded completion time of a message alone in the network):
 *     ideal = baseRtt(src, dst, p1) + (wire(size) - wire(p1)) * 8 / lineRate
 * where p1 = min(size, mtu) is the payload of the first packet,
 * baseRtt(src, dst, p1) the fabric's unloaded RTT of that packet and its ACK
 * (store-and-forward serialisation and propagation on every hop, both ways),
 * and wire(b) = b + ceil(b / mtu) * headerBytes the bytes on the wire for b
 * payload bytes (per-packet headers: PPP + IPv4 + UDP + DcnHeader).  The rest of
 * the message is pipelined behind the first packet at the host line rate.  In
 * the implementation each of packets 2..n adds DataRate::CalculateBytesTxTime of
 * its wire size, i.e. the serialisation time rounded to the time resolution
 * exactly as the simulated devices round it (at most 1 time step per packet
 * below the continuous formula).
 *
 * Percentiles use the nearest-rank method: the p-th percentile of n sorted
 * values v[1..n] is v[ceil(p/100 * n)] (v[1] for p = 0).
 *
 * Unfinished flows (issue 9): a flow that did not complete by the end of the run is
 * recorded with FctStats::Unfinished(), which takes the connection's real progress
 * (FctProgress: bytes acknowledged, retransmissions, timeouts, ... of that message so
 * far; never zeros made up by the caller) and its ideal FCT.  SetRunEnd() records when
 * the run ended; summaries then count unfinished flows separately, report the run end,
 * and the completion time of a run with unfinished flows is the run end minus the
 * first start (a lower bound, flagged).  AllFinished() is the exit-status predicate.
 */
#ifndef DCN_FCT_STATS_H
#define DCN_FCT_STATS_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/** One message (flow) as the statistics see it. */
struct FctRecord
{
    uint32_t src{0}; //!< host index
    uint32_t dst{0};
    uint64_t bytes{0};
    Time start{0};
    Time finish{0};
    Time ideal{0};
    bool completed{true};
    uint32_t retransmissions{0};
    uint32_t outOfOrder{0};
    uint32_t timeouts{0};
    uint32_t trimmed{0};
    uint64_t bytesAcked{0}; //!< unfinished flows: bytes acknowledged by the run end

    Time Fct() const
    {
        return finish - start;
    }

    double Slowdown() const
    {
        return ideal.IsStrictlyPositive() ? Fct().GetSeconds() / ideal.GetSeconds() : 0.0;
    }
};

/** Summary over a set of flows (FCTs in microseconds). */
struct FctSummary
{
    uint32_t count{0};      //!< completed flows
    uint32_t unfinished{0}; //!< flows that did not complete by the end of the run
    uint64_t bytes{0};      //!< bytes of the completed flows
    double meanUs{0};
    double p50Us{0};
    double p99Us{0};
    double maxUs{0};        //!< largest single-flow FCT
    double completionUs{0}; //!< last finish - first start (collectives: the completion time)
    double meanSlowdown{0};
    double p50Slowdown{0};
    double p99Slowdown{0};
    uint64_t retransmissions{0};
    uint64_t outOfOrder{0};
    uint64_t timeouts{0};
    uint64_t trimmed{0};
    // Added for unfinished flows (issue 9):
    double runEndUs{0};               //!< simulated time the run ended (0: not recorded)
    bool completionLowerBound{false}; //!< unfinished flows: completionUs = run end - first start
    uint64_t unfinishedBytes{0};      //!< bytes of the unfinished flows
    uint64_t unfinishedBytesAcked{0}; //!< of which acknowledged by the run end
    uint64_t unfinishedRetransmissions{0}; //!< part of retransmissions due to unfinished flows
    uint64_t unfinishedTimeouts{0};        //!< part of timeouts due to unfinished flows
};

/**
 * What really happened to a message that has not completed, read from its
 * connection's state at the end of the run (the transport's per-message counters).
 */
struct FctProgress
{
    uint64_t bytesAcked{0};
    uint32_t retransmissions{0};
    uint32_t outOfOrder{0};
    uint32_t timeouts{0};
    uint32_t trimmed{0};
};

/** Fabric-wide counters aggregated from the queue discs and devices. */
struct FabricCounters
{
    uint64_t drops{0};        //!< congestion drops in the queue discs
    uint64_t failureDrops{0}; //!< packets lost to injected failures (and unroutable)
    uint64_t marks{0};
    uint64_t trims{0};
    uint64_t packetHops{0};  //!< packet hops (DcnPacketHopCounter: PhyTxEnd of every p2p device)
    bool pfc{false};         //!< PFC was on (then the table shows the two PFC rows)
    uint64_t pfcPauses{0};   //!< PFC frames with non-zero quanta sent (XOFF and refreshes)
    double pausedUs{0};      //!< time data bands were paused, summed over every port (us)
    uint64_t pfcWatchdog{0}; //!< pauses held longer than DcnQueueDisc::PfcWatchdog
    bool goBackN{false};     //!< in-order (go-back-N) receivers (then the table shows their row)
    uint64_t outOfSequenceDropped{0}; //!< data packets go-back-N receivers dropped (past the
                                      //!< expected PSN), every host
};

/** A flow-size bin [lo, hi) in bytes. */
struct SizeBin
{
    std::string label;
    uint64_t lo;
    uint64_t hi;
};

class FctStats
{
  public:
    void Add(const FctRecord& r);
    void Clear();

    /**
     * Record for a flow that did not complete: counters from `progress` (the
     * connection's real state), finish = start, completed = false.  `ideal` is the
     * flow's ideal FCT (IdealFct()); it is written to the CSV only if positive.
     */
    static FctRecord Unfinished(uint32_t src,
                                uint32_t dst,
                                uint64_t bytes,
                                Time start,
                                Time ideal,
                                const FctProgress& progress);

    /** The simulated time at which the run ended (Simulator::Now() after Run()). */
    void SetRunEnd(Time end);
    /** Run end; negative if not recorded. */
    Time GetRunEnd() const;
    /** Number of records that did not complete. */
    uint32_t CountUnfinished() const;
    /** True if every recorded flow completed (the examples' exit-status predicate). */
    bool AllFinished() const;
    /** The unfinished records, in insertion order. */
    std::vector<FctRecord> GetUnfinished() const;
    /**
     * CSV of the unfinished flows: src,dst,size_bytes,start_us,run_end_us,elapsed_us,
     * ideal_fct_us,acked_bytes,retransmissions,out_of_order,timeouts,trimmed.
     */
    void WriteUnfinishedCsv(std::ostream& os) const;
    /**
     * "unfinished flows: <n> of <m> (run ended at <t> us)" and up to maxLines lines
     * "  src -> dst: acked/bytes bytes, retx, timeouts"; nothing if all finished.
     */
    void PrintUnfinished(std::ostream& os, size_t maxLines) const;

    const std::vector<FctRecord>& GetRecords() const
    {
        return m_records;
    }

    /** Summary of all flows. */
    FctSummary Summarize() const;
    /** Summary of the flows with lo <= bytes < hi. */
    FctSummary Summarize(uint64_t lo, uint64_t hi) const;

    /** <100KB, 100KB-1MB, 1-10MB, >10MB (decimal units). */
    static std::vector<SizeBin> DefaultBins();

    /** Nearest-rank percentile (see file comment); values need not be sorted. */
    static double Percentile(std::vector<double> values, double p);

    /** Ideal FCT (see file comment). */
    static Time IdealFct(Time baseRttFirstPacket,
                         uint64_t bytes,
                         uint32_t mtu,
                         uint32_t headerBytes,
                         DataRate lineRate);
    /** Payload of the first packet of a message: min(bytes, mtu). */
    static uint32_t FirstPacketPayload(uint64_t bytes, uint32_t mtu);
    /** Bytes on the wire for a payload of `bytes`. */
    static uint64_t WireBytes(uint64_t bytes, uint32_t mtu, uint32_t headerBytes);

    /** Per-flow CSV (header line + one line per flow; times in microseconds). */
    void WriteCsv(std::ostream& os) const;

    /** Human-readable summary table (all flows, then per size bin if byBins). */
    void Print(std::ostream& os, const std::string& title, bool byBins) const;

    /** One JSON object: {"lb":..., "all":{...}, "bins":[...], "fabric":{...}}. */
    void WriteJson(std::ostream& os,
                   const std::string& label,
                   const FabricCounters& fabric,
                   bool byBins) const;

    static void WriteSummaryJson(std::ostream& os, const FctSummary& s);
    static std::string SummaryCsvHeader();
    static std::string SummaryCsvLine(const std::string& label,
                                      const FctSummary& s,
                                      const FabricCounters& f);

    /**
     * Side-by-side table: one column per run (load balancer), one row per
     * metric.  labels, summaries and counters have the same length.
     */
    static std::string FormatComparison(const std::vector<std::string>& labels,
                                        const std::vector<FctSummary>& summaries,
                                        const std::vector<FabricCounters>& counters);

  private:
    FctSummary SummarizeIf(uint64_t lo, uint64_t hi) const;
    std::vector<FctRecord> m_records;
    Time m_runEnd{-1};
};

} // namespace ns3

#endif // DCN_FCT_STATS_H
