/*
 * Presto* baseline: flowcells of 64 KB sprayed over the paths in weighted
 * round robin with static weights (Presto SIGCOMM'15 Sec. 3.1 / 3.3; Presto*
 * as Hermes SIGCOMM'17 Sec. 5 ran it).  Wraps lbcore::PrestoCore; paths are
 * virtual paths named by EVs (lb-baseline-util.h).  The receiver reorder
 * buffer of Hermes' Presto* is not modelled here: our transport delivers out
 * of order with selective ACKs, so no spurious retransmissions arise from
 * reordering (doc/baselines.rst).  --lb=presto.  TypeId ns3::DcnPrestoPathSelector.
 */
#ifndef DCN_PRESTO_PATH_SELECTOR_H
#define DCN_PRESTO_PATH_SELECTOR_H

#include "lb-baseline-util.h"
#include "path-selector.h"

#include "ns3/presto-core.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

class DcnPrestoPathSelector : public PathSelector
{
  public:
    static TypeId GetTypeId();
    DcnPrestoPathSelector();
    ~DcnPrestoPathSelector() override;

    void Setup(const PathSelectorSetup& setup) override;
    PathChoice Choose(const SendContext& ctx) override;
    std::string Name() const override;
    int64_t AssignStreams(int64_t stream) override;

    std::string Validate() const override;

    bool ReceiverResequencing() const override
    {
        return m_reorderBuffer;
    }

    uint16_t GetNumPaths() const
    {
        return m_core.GetConfig().numPaths;
    }

    uint16_t GetPathEv(uint16_t i) const;
    /** Path index of an EV (-1 if none). */
    int32_t GetPathOfEv(uint16_t ev) const;

    double GetWeight(uint16_t i) const
    {
        return m_core.GetConfig().weights[i];
    }

    uint32_t GetFlowcellId() const
    {
        return m_core.GetFlowcellId();
    }

    /** Parse "topology", "equal" or "w0,w1,..." (>= 0); "" if fine else why. */
    static std::string ParseWeights(const std::string& s, std::vector<double>& out, bool& topo);

  private:
    uint32_t m_numPathsAttr{0};
    uint32_t m_evSetSize{65536};
    uint32_t m_flowcell{65536};
    bool m_reorderBuffer{true};
    std::string m_weights;
    bool m_physical{true};
    dcnbl::PathEvTable m_paths;
    lbcore::PrestoCore m_core;
    TracedCallback<uint32_t, uint16_t> m_newCell; //!< flowcell id, path
};

} // namespace ns3

#endif // DCN_PRESTO_PATH_SELECTOR_H
