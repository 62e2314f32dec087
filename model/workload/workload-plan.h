/*
 * Workload generation, as pure logic (no simulation): a workload is a plan,
 * a list of messages (src host, dst host, bytes, release time) with optional
 * dependencies between messages and an optional per-source concurrency limit.
 * WorkloadScheduler decides which messages may start as others complete; the
 * simulation glue (WorkloadHelper) only starts messages and reports
 * completions, so every rule here is unit-testable.
 *
 * Hosts are indices 0..N-1 (FatTreeHelper::GetHosts order).
 *
 * Dependency rule of the collectives (documented in doc/workloads.rst):
 *   a host's step s message starts when (a) its own step s-1 message has
 *   completed (transport completion = the message was fully delivered and
 *   acknowledged) and (b) the step s-1 message it receives (from its ring
 *   predecessor, or from its butterfly partner of step s-1) has completed.
 */
#ifndef DCN_WORKLOAD_PLAN_H
#define DCN_WORKLOAD_PLAN_H

#include "flow-size-cdf.h"

#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

/** One message of a workload. */
struct WorkloadMessage
{
    uint32_t src{0};
    uint32_t dst{0};
    uint64_t bytes{0};
    Time release{0};            //!< earliest start time (relative to the workload start)
    std::vector<uint32_t> deps; //!< indices of messages that must complete first
    uint32_t step{0};           //!< collective step (0 for non-collectives)
};

/** A workload: messages plus a per-source concurrency limit (0 = unlimited). */
struct WorkloadPlan
{
    std::string name;
    uint32_t nHosts{0};
    std::vector<WorkloadMessage> messages;
    uint32_t maxParallelPerSrc{0};
    /** Poisson with a receiver cap: flows placed on a receiver already at the cap because
     *  every redraw found one too (WorkloadPlanner::Poisson) */
    uint32_t overCap{0};
};

/**
 * Generators.  Impossible parameters (fewer than 2 hosts, 0 bytes, an incast degree
 * beyond the hosts, ...) throw DcnOptionError with one line naming the value and what
 * is allowed (the examples refuse such inputs first, naming their option).
 */
class WorkloadPlanner
{
  public:
    /** Names accepted by Make(): permutation, tornado, incast, alltoall, ring, butterfly,
     *  allscatter, cdf. */
    static const std::vector<std::string>& Names();
    static bool Has(const std::string& name);

    /**
     * Random derangement of 0..n-1 (p[i] != i, a bijection), uniform over all
     * derangements (rejection sampling of Fisher-Yates shuffles).  n >= 2.
     */
    static std::vector<uint32_t> Derangement(uint32_t n, Ptr<UniformRandomVariable> rng);

    /** Each host i sends msgBytes to perm[i] (random derangement). */
    static WorkloadPlan Permutation(uint32_t n, uint64_t msgBytes, Ptr<UniformRandomVariable> rng);

    /** Host i sends to (i + n/2) mod n.  n >= 2. */
    static WorkloadPlan Tornado(uint32_t n, uint64_t msgBytes);

    /**
     * Incast: `degree` senders (hosts receiver+1 .. receiver+degree, mod n) each
     * send msgBytes to `receiver`.  Bystanders: `bystanders` extra flows among
     * the uninvolved hosts R (flow k: R[k] -> R[(k + |R|/2) mod |R|]).
     */
    static WorkloadPlan Incast(uint32_t n,
                               uint32_t degree,
                               uint32_t receiver,
                               uint64_t msgBytes,
                               uint32_t bystanders,
                               uint64_t bystanderBytes);

    /**
     * All-to-all: every host sends msgBytes to every other host, destinations in
     * the staggered order i+1, i+2, ..., i+n-1 (mod n), with at most `parallel`
     * outstanding messages per host (the next starts when one completes).
     */
    static WorkloadPlan AllToAll(uint32_t n, uint64_t msgBytes, uint32_t parallel);

    /**
     * Ring allreduce of a msgBytes buffer: 2(n-1) steps (reduce-scatter then
     * all-gather); in each step host i sends a chunk of ceil(msgBytes/n) bytes to
     * (i+1) mod n.  Dependencies: see the file comment.
     */
    static WorkloadPlan RingAllreduce(uint32_t n, uint64_t msgBytes);

    /**
     * Butterfly (recursive halving / doubling) allreduce of a msgBytes buffer;
     * n must be a power of two.  Reduce-scatter step k (k = 0..log2(n)-1): host i
     * sends msgBytes/2^(k+1) to i XOR 2^k; all-gather replays the steps in
     * reverse with the same sizes.  Dependencies: see the file comment.
     */
    static WorkloadPlan ButterflyAllreduce(uint32_t n, uint64_t msgBytes);

    /**
     * All-scatter: every host splits its msgBytes buffer into n-1 equal chunks
     * (ceil) and sends one to every other host, all at once.
     */
    static WorkloadPlan AllScatter(uint32_t n, uint64_t msgBytes);

    /**
     * Poisson traffic: every host starts flows with exponential inter-arrival
     * times of mean cdf.Mean()*8/(load*rate); receivers uniform over the other
     * hosts; sizes from the CDF.  Stops at `duration` (if > 0) and after
     * `maxFlows` flows in total (if > 0); at least one of them must be set.
     *
     * `maxSendersPerReceiver` > 0 limits the simultaneous senders per receiver
     * (Spritz Sec. V-A.c: "we randomly select receivers while limiting the number of
     * simultaneous senders per receiver"): a flow counts as active at its receiver
     * from its release until its bytes would have left at the host line rate
     * (size x 8 / rate; the plan cannot know the real completion, and this keeps one
     * plan for every scheme); a receiver whose active flows come from that many
     * distinct other senders is redrawn uniformly from `redraw` (a stream of its own,
     * required with a cap, so every flow keeps the uncapped plan's sender, start and
     * size), up to 4n draws, after which the least busy of those drawn is taken and
     * counted in the plan's `overCap`.  0 (no cap) draws exactly as before.
     *
     * `loadScale` > 0 is the load's reference in host links: each host offers load x
     * loadScale x rate (the LAPS authors' simulator's TFC reference, laps-paper
     * --loadRef=artifact); 1 (the default) draws exactly as before.  The receiver cap
     * keeps the host rate.
     */
    static WorkloadPlan Poisson(uint32_t n,
                                const FlowSizeCdf& cdf,
                                double load,
                                uint64_t hostRateBps,
                                Time duration,
                                uint32_t maxFlows,
                                Ptr<UniformRandomVariable> uniform,
                                Ptr<ExponentialRandomVariable> exponential,
                                uint32_t maxSendersPerReceiver = 0,
                                double loadScale = 1.0,
                                Ptr<UniformRandomVariable> redraw = nullptr);
};

/**
 * Start/complete bookkeeping of a plan.  Messages become ready when all their
 * dependencies have completed; a ready message is handed out if its source has
 * fewer than maxParallelPerSrc active messages (lowest index first).
 */
class WorkloadScheduler
{
  public:
    explicit WorkloadScheduler(const WorkloadPlan* plan);
    /** Messages that may start at the beginning. */
    std::vector<uint32_t> Start();
    /** Mark message id complete; returns messages that may start now. */
    std::vector<uint32_t> OnComplete(uint32_t id);

    uint32_t GetCompleted() const
    {
        return m_completed;
    }

    bool AllDone() const
    {
        return m_completed == m_plan->messages.size();
    }

    uint32_t GetActive(uint32_t src) const;

  private:
    void TryStart(uint32_t src, std::vector<uint32_t>& out);

    const WorkloadPlan* m_plan;
    std::vector<uint32_t> m_pendingDeps;             //!< per message: deps not yet complete
    std::vector<std::vector<uint32_t>> m_dependents; //!< per message: who waits on it
    std::vector<std::set<uint32_t>> m_ready;         //!< per src: ready, not started
    std::vector<uint32_t> m_active;                  //!< per src
    std::vector<uint8_t> m_state;                    //!< 0 waiting, 1 ready, 2 started, 3 done
    uint32_t m_completed{0};
};

} // namespace ns3

#endif // DCN_WORKLOAD_PLAN_H
