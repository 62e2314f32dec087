/*
 * CLOVE-ECN baseline: flowlets at the sender edge take the next path by
 * weighted round robin; ECN echoed for a path cuts its weight by a third and
 * spreads the removed weight over the other paths (Clove CoNEXT'17 Sec. 3.2;
 * flowlet timeout 150 us as Hermes SIGCOMM'17 Sec. 5 simulated it).  Wraps
 * lbcore::CloveCore; paths are virtual paths named by EVs
 * (lb-baseline-util.h).  --lb=clove.  TypeId ns3::DcnClovePathSelector.
 */
#ifndef DCN_CLOVE_PATH_SELECTOR_H
#define DCN_CLOVE_PATH_SELECTOR_H

#include "lb-baseline-util.h"
#include "path-selector.h"

#include "ns3/clove-core.h"
#include "ns3/traced-callback.h"

#include <unordered_map>
#include <vector>

namespace ns3
{

class DcnClovePathSelector : public PathSelector
{
  public:
    static TypeId GetTypeId();
    DcnClovePathSelector();
    ~DcnClovePathSelector() override;

    void Setup(const PathSelectorSetup& setup) override;
    PathChoice Choose(const SendContext& ctx) override;
    void OnFeedback(const PathFeedback& fb) override;
    std::string Name() const override;
    int64_t AssignStreams(int64_t stream) override;

    std::string Validate() const override;

    uint16_t GetNumPaths() const
    {
        return m_numPaths;
    }

    uint16_t GetPathEv(uint16_t i) const;
    int32_t GetPathOfEv(uint16_t ev) const;

    double GetWeight(uint16_t i) const
    {
        return m_dest ? m_dest->core.GetWeight(i) : 0;
    }

    /** Path weights and EVs of one (source host, destination host) pair. */
    struct Dest
    {
        bool configured{false};
        dcnbl::PathEvTable paths;
        lbcore::CloveCore core;
    };

    /** The per-destination states of one host (or rack), in DcnLbSharedState. */
    class SharedTable : public Object
    {
      public:
        static TypeId GetTypeId();

        /** The state of (src, dst), created unconfigured on first use; references stay
         *  valid (node-based map). */
        Dest& Get(uint32_t src, uint32_t dst)
        {
            return m_dests[(static_cast<uint64_t>(src) << 32) | dst];
        }

      private:
        std::unordered_map<uint64_t, Dest> m_dests;
    };

  private:
    uint32_t m_numPathsAttr{0};
    uint32_t m_evSetSize{65536};
    Time m_flowletTimeout;
    double m_cut{1.0 / 3.0};
    Time m_minCutInterval;
    Time m_weightReset;
    double m_minShare{0.01};
    uint16_t m_numPaths{1};
    bool m_perDestination{true};
    bool m_physical{true};
    Dest m_own;            //!< this connection's state when not shared
    Dest* m_dest{nullptr}; //!< the state in use (shared or m_own)
    lbcore::FlowletClock m_flowlet;
    uint16_t m_path{0};
    TracedCallback<uint16_t, double> m_weightCut; //!< path, its new weight
};

} // namespace ns3

#endif // DCN_CLOVE_PATH_SELECTOR_H
