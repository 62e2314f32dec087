/*
 * Switch-side baselines on the forwarding-policy seam (issue 14), wrapping
 * the ns-3-free cores of model/lb/core/:
 *  - LetflowForwardingPolicy ("letflow"): flowlet switching, a random minimal
 *    candidate per new flowlet (LetFlow, NSDI'17 Sec. 3; core letflow-core.h).
 *    The flowlet table is indexed by the hash of the real 5-tuple bytes (EV
 *    = UDP source port included) with a per-switch salt.
 *  - DrillForwardingPolicy ("drill"): per packet, the shortest egress queue
 *    among d random minimal candidates plus m remembered ones (DRILL,
 *    SIGCOMM'17 Sec. 3.1; core drill-core.h); the queue length is the
 *    context's egress occupancy (bytes, both bands).  One core per table
 *    entry of the switch (= per candidate set), sized once.
 * Randomness: one UniformRandomVariable per switch (AssignStreams: 1 stream).
 * Per packet: O(1) (LetFlow) / O(d + m) (DRILL), no allocation.
 */
#ifndef DCN_FLOWLET_DRILL_POLICIES_H
#define DCN_FLOWLET_DRILL_POLICIES_H

#include "forwarding-policy.h"

#include "ns3/drill-core.h"
#include "ns3/letflow-core.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

class LetflowForwardingPolicy : public ForwardingPolicy
{
  public:
    static TypeId GetTypeId();
    LetflowForwardingPolicy();
    ~LetflowForwardingPolicy() override;

    uint32_t Select(DcnForwardingContext& ctx) override;
    int64_t AssignStreams(int64_t stream) override;

    const char* Name() const override
    {
        return "letflow";
    }

    /** Entries of the flowlet table in use (TableSize rounded up to a power of two;
     *  0 before the first packet). */
    uint32_t GetTableSize() const
    {
        return m_configured ? m_core.GetTableSize() : 0;
    }

    /** Flowlets started so far at this switch. */
    uint64_t GetFlowlets() const
    {
        return m_core.GetFlowlets();
    }

    /** Signature of "NewFlowlet": egress interface of the new flowlet. */
    typedef void (*FlowletTracedCallback)(uint32_t iface);

  private:
    void Configure();

    Time m_timeout;
    uint32_t m_tableSize;
    bool m_configured{false};
    lbcore::LetflowCore m_core;
    Ptr<UniformRandomVariable> m_rng;
    uint64_t m_salt{0};
    TracedCallback<uint32_t> m_flowletTrace;
};

class DrillForwardingPolicy : public ForwardingPolicy
{
  public:
    static TypeId GetTypeId();
    DrillForwardingPolicy();
    ~DrillForwardingPolicy() override;

    uint32_t Select(DcnForwardingContext& ctx) override;
    int64_t AssignStreams(int64_t stream) override;

    const char* Name() const override
    {
        return "drill";
    }

  private:
    uint32_t m_d;
    uint32_t m_m;
    std::vector<lbcore::DrillCore> m_cores; //!< [0] default entry, [1 + key] keyed entries
    Ptr<UniformRandomVariable> m_rng;
};

} // namespace ns3

#endif // DCN_FLOWLET_DRILL_POLICIES_H
