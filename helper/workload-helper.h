/*
 * WorkloadHelper: runs a workload (WorkloadPlanner) on a fabric's hosts over
 * the dcn-lb transport and collects per-message statistics (FctStats).
 *
 * The plan and its start rules are pure logic (model/workload/workload-plan.h);
 * this class only opens connections, starts messages when the scheduler says
 * so, and records completions.
 *
 * Connections: one PathSelector (PathSelectorRegistry::Create(LoadBalancer))
 * and one CongestionControl (CongestionControlRegistry::Create(CongestionControl))
 * per connection.  With ReuseConnections, a message reuses an idle connection
 * (no pending messages) of the same (src, dst) pair, so consecutive collective
 * steps keep their path state; a busy connection is never shared, so messages
 * of the same pair never wait behind each other (head-of-line).
 */
#ifndef DCN_WORKLOAD_HELPER_H
#define DCN_WORKLOAD_HELPER_H

#include "ns3/dcn-transport.h"
#include "ns3/dcn-topology.h"
#include "ns3/fct-stats.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"
#include "ns3/workload-plan.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * FCT record of a completed workload message: sizes and endpoints from the plan, the
 * start time the workload driver recorded, counters from the transport, and the ideal
 * FCT (FctStats::IdealFct) from the fabric's unloaded base RTT.
 */
FctRecord MakeFctRecord(const DcnTopology& fabric,
                        const WorkloadMessage& m,
                        Time start,
                        const DcnMessageRecord& r,
                        uint32_t mtu,
                        uint32_t headerBytes);

/**
 * Parameters of a connection src -> dst (host indices of the topology): line
 * rate, unloaded RTT of an MTU packet, BDP, the hosts' switches, the topology
 * (for the pair's path set) and the destination node id.
 */
DcnConnectionParams MakeConnectionParams(Ptr<DcnTopology> topo,
                                         uint32_t src,
                                         uint32_t dst,
                                         uint32_t mtu);

/**
 * Create the path selector and congestion control of scheme `lb`
 * (DcnSchemeRegistry), cc = "" for the scheme's own; null ps if unknown.
 */
std::pair<Ptr<PathSelector>, Ptr<CongestionControl>> CreateSchemeParts(const std::string& lb,
                                                                       const std::string& cc);

class WorkloadHelper : public Object
{
  public:
    /** Signature of the FlowComplete trace source. */
    typedef void (*FlowCompleteTracedCallback)(const FctRecord& record);

    static TypeId GetTypeId();
    WorkloadHelper();
    ~WorkloadHelper() override;

    /**
     * Build the plan for the fabric's hosts (fabric must be built and every host
     * must have a DcnTransport) and schedule its start at StartTime.
     */
    void Install(Ptr<DcnTopology> fabric);

    /** Random streams reserved for the path selectors of the connections. */
    static constexpr int64_t SELECTOR_STREAM_BLOCK = int64_t(1) << 24;

    /**
     * Fix the random streams (permutation, Poisson, path selectors).  Returns the
     * streams used: 2 + SELECTOR_STREAM_BLOCK (selectors are created as
     * connections open, inside that block).
     */
    int64_t AssignStreams(int64_t stream);

    const WorkloadPlan& GetPlan() const
    {
        return m_plan;
    }

    /** Statistics so far; Finalize() first to include unfinished messages. */
    const FctStats& GetStats() const
    {
        return m_stats;
    }

    /** Add records for messages that did not complete (call once, after the run). */
    void Finalize();

    bool AllDone() const;
    uint32_t GetCompleted() const;

    /** Default per-packet header overhead: PPP 2 + IPv4 20 + UDP 8 + DcnHeader. */
    static uint32_t DefaultHeaderBytes();

  protected:
    void DoDispose() override;

  private:
    void Begin();
    void StartMessages(const std::vector<uint32_t>& ids);
    void StartMessage(uint32_t id);
    void OnComplete(uint32_t id, const DcnMessageRecord& r);
    /** Transport completion callback: the record's userTag is the plan message id. */
    void OnMessageDone(const DcnMessageRecord& r);
    Ptr<DcnConnection> GetConnection(uint32_t src, uint32_t dst);

    // attributes
    std::string m_workload;
    uint64_t m_msgSize;
    std::string m_cdf;
    double m_load;
    Time m_duration;
    uint32_t m_maxFlows;
    uint32_t m_incastDegree;
    uint32_t m_incastReceiver;
    uint32_t m_bystanders;
    uint32_t m_parallel;
    std::string m_lb;
    std::string m_cc;
    uint32_t m_mtu;
    uint32_t m_headerBytes;
    Time m_startTime;
    bool m_reuse;
    bool m_stopWhenDone;

    Ptr<DcnTopology> m_fabric;
    WorkloadPlan m_plan;
    std::unique_ptr<WorkloadScheduler> m_sched;
    std::vector<Time> m_started; //!< per message; -1 ns = not started
    std::vector<bool> m_done;
    std::map<std::pair<uint32_t, uint32_t>, std::vector<Ptr<DcnConnection>>> m_conns;
    Ptr<UniformRandomVariable> m_uniform;
    Ptr<ExponentialRandomVariable> m_exponential;
    int64_t m_psStream{-1}; //!< next stream for path selectors (-1: not assigned)
    int64_t m_psStreamEnd{-1};
    FctStats m_stats;
    bool m_finalized{false};
    TracedCallback<const FctRecord&> m_flowTrace;
};

} // namespace ns3

#endif // DCN_WORKLOAD_HELPER_H
