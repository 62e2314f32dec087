/*
 * Flicr (w) (Flier, Kabbani & Sharif INFOCOM'17) as the Spritz paper ran it
 * (spec spritz.md 4.2): one weighted-random path per flow, moved on a high
 * ECN fraction per RTT, a NACK or a timeout.  Weights "(w)": Spritz Eq. 1
 * (spritz.md 2.7) from the pair's path latencies.  Wraps lbcore::FlicrCore;
 * paths are virtual paths named by EVs (lb-baseline-util.h).  --lb=flicr.
 * TypeId ns3::DcnFlicrPathSelector.
 */
#ifndef DCN_FLICR_PATH_SELECTOR_H
#define DCN_FLICR_PATH_SELECTOR_H

#include "lb-baseline-util.h"
#include "path-selector.h"

#include "ns3/flicr-core.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

class DcnFlicrPathSelector : public PathSelector
{
  public:
    static TypeId GetTypeId();
    DcnFlicrPathSelector();
    ~DcnFlicrPathSelector() override;

    void Setup(const PathSelectorSetup& setup) override;
    PathChoice Choose(const SendContext& ctx) override;
    void OnFeedback(const PathFeedback& fb) override;
    std::string Name() const override;
    int64_t AssignStreams(int64_t stream) override;

    std::string Validate() const override;
    std::string CheckTopology(const std::string& topology) const override;

    uint16_t GetNumPaths() const
    {
        return m_numPaths;
    }

    uint16_t GetPath() const
    {
        return m_core.GetPath();
    }

    uint16_t GetPathEv(uint16_t i) const;
    int32_t GetPathOfEv(uint16_t ev) const;

    uint64_t GetRepaths() const
    {
        return m_core.GetRepaths();
    }

  private:
    /** Configure the core from the attributes, m_numPaths and the path weights. */
    void ConfigureCore(const double* weights);
    uint32_t m_numPathsAttr{0};
    uint32_t m_evSetSize{65536};
    double m_ecnThreshold{0.5};
    double m_wScale{3};
    bool m_onNack{true};
    bool m_onTimeout{true};
    Time m_flowletTimeout;
    uint32_t m_flowcell{0};
    std::string m_weights;
    std::string m_pathSource;
    std::vector<uint16_t> m_spritzEvs; //!< PathSource=spritz: EV of path i
    uint16_t m_numPaths{1};
    bool m_physical{true};
    dcnbl::PathEvTable m_paths; //!< PathSource=virtual
    int64_t m_lastTimeoutNs{-1};
    lbcore::FlicrCore m_core;
    TracedCallback<uint16_t, uint16_t, uint8_t> m_repath; //!< old path, new path, FlicrEvent
};

} // namespace ns3

#endif // DCN_FLICR_PATH_SELECTOR_H
