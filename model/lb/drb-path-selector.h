/*
 * DRB baseline: per-packet round robin over the connection's paths
 * (Cao et al., CoNEXT'13 Sec. 3; as Hermes SIGCOMM'17 Table 1 / Sec. 5 ran it).
 * Wraps lbcore::DrbCore; paths are virtual paths named by EVs
 * (lb-baseline-util.h).  --lb=drb.  TypeId ns3::DcnDrbPathSelector.
 */
#ifndef DCN_DRB_PATH_SELECTOR_H
#define DCN_DRB_PATH_SELECTOR_H

#include "lb-baseline-util.h"
#include "path-selector.h"

#include "ns3/drb-core.h"

#include <vector>

namespace ns3
{

class DcnDrbPathSelector : public PathSelector
{
  public:
    static TypeId GetTypeId();
    DcnDrbPathSelector();
    ~DcnDrbPathSelector() override;

    void Setup(const PathSelectorSetup& setup) override;
    PathChoice Choose(const SendContext& ctx) override;
    std::string Name() const override;
    int64_t AssignStreams(int64_t stream) override;

    uint16_t GetNumPaths() const
    {
        return m_core.GetConfig().numPaths;
    }

    /** EV of virtual path i (valid after Setup). */
    uint16_t GetPathEv(uint16_t i) const;

  private:
    uint32_t m_numPathsAttr{0};
    uint32_t m_evSetSize{65536};
    bool m_randomStart{true};
    bool m_physical{true};
    dcnbl::PathEvTable m_paths;
    lbcore::DrbCore m_core;
};

} // namespace ns3

#endif // DCN_DRB_PATH_SELECTOR_H
