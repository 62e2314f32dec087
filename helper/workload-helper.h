/*
 * WorkloadHelper: THE workload driver (issue 8 item 6).  Runs a workload
 * (WorkloadPlanner, or a plan given with SetPlan) on a topology's hosts over
 * any transport that implements DcnMessageTransport, through one DcnWorkloadApp
 * (an ns-3 Application) per host, and collects per-message statistics.
 *
 * The plan and its start rules are pure logic (model/workload/workload-plan.h);
 * this class holds the plan and its dependency scheduler and hands each
 * released message to the app of its source host (scheduled with that node's
 * context); the apps open connections, post messages and report completions.
 * It stops the simulation only when every message of the plan has completed
 * (StopWhenDone), never because one host finished.  MPI: apps are installed
 * only on the hosts of this rank (Node::GetSystemId() == Simulator::GetSystemId()),
 * so each rank starts only its own hosts' flows; per-host statistics
 * (DcnWorkloadApp::GetStats) merge by concatenation.
 *
 * Connections: one PathSelector and one CongestionControl per connection, from
 * the scheme LoadBalancer (DcnSchemeRegistry).  ConnectionPolicy: ReuseIdle
 * (default) reuses an idle connection (no pending messages) of the same
 * (src, dst) pair, so consecutive collective steps keep their path state, and
 * never shares a busy one (no head-of-line blocking); OnePerPair queues every
 * message of a pair on one connection (the REPS experiments); NewPerMessage
 * opens a connection per message.
 */
#ifndef DCN_WORKLOAD_HELPER_H
#define DCN_WORKLOAD_HELPER_H

#include "ns3/dcn-topology.h"
#include "ns3/dcn-transport.h"
#include "ns3/dcn-workload-app.h"
#include "ns3/fct-stats.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"
#include "ns3/workload-plan.h"

#include <map>
#include <memory>
#include <string>
#include <tuple>
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
 * (for the pair's path set) and the destination node id.  bdpPackets > 0: one
 * BDP for every pair instead of the pair's minimal path, bdpPackets x mtu bytes,
 * base RTT bdpPackets x (mtu + headerBytes) x 8 / host link rate
 * (DcnWorkloadHelper::BdpPackets; Spritz spec 4.1).
 */
DcnConnectionParams MakeConnectionParams(Ptr<DcnTopology> topo,
                                         uint32_t src,
                                         uint32_t dst,
                                         uint32_t mtu,
                                         uint32_t bdpPackets = 0,
                                         uint32_t headerBytes = 0);

/**
 * Create the path selector and congestion control of scheme `lb`
 * (DcnSchemeRegistry), cc = "" for the scheme's own; null ps if unknown.
 */
std::pair<Ptr<PathSelector>, Ptr<CongestionControl>> CreateSchemeParts(const std::string& lb,
                                                                       const std::string& cc);

class WorkloadHelper : public Object
{
  public:
    enum ConnectionPolicy
    {
        REUSE_IDLE,      //!< reuse an idle connection of the pair, else open one
        ONE_PER_PAIR,    //!< every message of a pair on one connection (FIFO)
        NEW_PER_MESSAGE, //!< a new connection per message
    };

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

    /** Use this plan instead of building one from the attributes (call before Install). */
    void SetPlan(const WorkloadPlan& plan);

    /**
     * Set an attribute on every path selector created (after the scheme's own),
     * failSafe: ignore selectors without it.  Call before Install.
     */
    void AddSelectorAttribute(const std::string& name, const AttributeValue& v, bool failSafe);

    /**
     * As AddSelectorAttribute, for the selectors of the connections host \p host opens
     * only, e.g. a test hook that places one host's flows on a given path
     * (HermesPathSelector::FirstPath).  Attributes of both calls are set in the order of
     * the calls (a later one wins); a host the fabric does not have opens no connection,
     * so its attributes are never used.  Call before Install.
     */
    void AddHostSelectorAttribute(uint32_t host,
                                  const std::string& name,
                                  const AttributeValue& v,
                                  bool failSafe);

    /**
     * Set attribute `name` of every congestion control created whose TypeId is `typeName`
     * or derives from it (others are left alone), e.g. ("ns3::DcqcnCc", "Window", ...):
     * the per-install form of Config::SetDefault("ns3::DcqcnCc::Window", ...), without
     * touching the global default.  Aborts if the type or attribute does not exist (a
     * programming error: examples check user input first).  Call before Install.
     */
    void AddCongestionControlAttribute(const std::string& typeName,
                                       const std::string& name,
                                       const AttributeValue& v);

    /**
     * Connections opened by host `host` use scheme `lb` instead of LoadBalancer
     * (e.g. a background under ECMP while the foreground runs the scheme under
     * test, spritz.md 4.3.5).  Its selector attributes are set fail-safe; its
     * switch policy is not installed (only LoadBalancer's is).  Call before Install.
     */
    void SetHostLoadBalancer(uint32_t host, const std::string& lb);

    /** The apps of this rank's hosts (host index order). */
    const std::vector<Ptr<DcnWorkloadApp>>& GetApps() const
    {
        return m_apps;
    }

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

    /** Whether message \p id counts in the statistics (released at or after MeasureFrom). */
    bool Measured(uint32_t id) const;

    /** Warm-up messages (MeasureFrom) that did not complete: Finalize() counts them; they
     *  are not in the statistics. */
    uint32_t GetUnfinishedWarmup() const
    {
        return m_unfinishedWarmup;
    }

    /** Add records for messages that did not complete (call once, after the run). */
    void Finalize();

    bool AllDone() const;
    uint32_t GetCompleted() const;

    /** Default per-packet header overhead: PPP 2 + IPv4 20 + UDP 8 + DcnHeader. */
    static uint32_t DefaultHeaderBytes();

    // ---- used by DcnWorkloadApp ----
    /** @internal */
    ConnectionPolicy GetConnectionPolicy() const
    {
        return m_policy;
    }

    /** @internal Path selector (streams assigned) and CC of a new connection of host src
     *  (src = 0xffffffff: LoadBalancer, no per-host override). */
    std::pair<Ptr<PathSelector>, Ptr<CongestionControl>> CreateConnectionParts(
        uint32_t src = 0xffffffffU);
    /** @internal */
    DcnConnectionParams GetConnectionParams(uint32_t src, uint32_t dst) const;
    /** @internal */
    Ipv4Address GetHostAddress(uint32_t host) const;
    /** @internal Record the start time of message id (now). */
    void NotifyStarted(uint32_t id);
    /** @internal FCT record of a completed message. */
    FctRecord MakeRecord(uint32_t id, const DcnMessageRecord& r) const;
    /** @internal Message id completed: trace, global record, release dependents. */
    void NotifyComplete(uint32_t id, const FctRecord& f);

  protected:
    void DoDispose() override;

  private:
    void Begin();
    void StartMessages(const std::vector<uint32_t>& ids);
    void BuildPlan(uint32_t n);

    // attributes
    std::string m_workload;
    uint64_t m_msgSize;
    std::string m_cdf;
    double m_load;
    double m_loadScale;
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
    uint32_t m_maxSendersPerReceiver; //!< cdf workload: receiver cap (0 = none)
    Time m_measureFrom;               //!< warm-up: messages released before it are not counted
    uint32_t m_unfinishedWarmup{0};   //!< warm-up messages unfinished at Finalize()
    uint32_t m_bdpPackets;            //!< BdpPackets: 0 = each pair's minimal-path BDP
    Time m_startTime;
    bool m_reuse;
    ConnectionPolicy m_policy{REUSE_IDLE};
    bool m_stopWhenDone;
    bool m_perHostStreams{false};
    std::vector<int64_t> m_psHostNext; //!< PerHostSelectorStreams: next stream of each host
    int64_t m_psHostShare{0};          //!< PerHostSelectorStreams: streams per host
    bool m_planGiven{false};
    /** selector attributes: name, value, fail-safe, host (UINT32_MAX: every host) */
    std::vector<std::tuple<std::string, Ptr<AttributeValue>, bool, uint32_t>> m_selectorAttrs;
    std::vector<std::tuple<TypeId, std::string, Ptr<AttributeValue>>> m_ccAttrs;
    std::vector<std::string> m_hostLb;        //!< per-host scheme override ("" = LoadBalancer)
    std::vector<Ptr<DcnWorkloadApp>> m_apps;  //!< local hosts' apps
    std::vector<DcnWorkloadApp*> m_appOfHost; //!< host -> app (null: other rank)

    Ptr<DcnTopology> m_fabric;
    WorkloadPlan m_plan;
    std::unique_ptr<WorkloadScheduler> m_sched;
    std::vector<Time> m_started; //!< per message; -1 ns = not started
    std::vector<bool> m_done;
    Ptr<UniformRandomVariable> m_uniform;
    Ptr<ExponentialRandomVariable> m_exponential;
    int64_t m_planStream{-1}; //!< stream of m_uniform (m_exponential: + 1); -1 = automatic
    int64_t m_psStream{-1};   //!< next stream for path selectors (-1: not assigned)
    int64_t m_psStreamEnd{-1};
    FctStats m_stats;
    bool m_finalized{false};
    TracedCallback<const FctRecord&> m_flowTrace;
};

} // namespace ns3

#endif // DCN_WORKLOAD_HELPER_H
