/*
 * LAPS per-host path tables (laps spec 1.5): the Path Search Table (PST,
 * destination host -> candidate pids) and the Path Information Table (PIT,
 * pid -> valid, time, baseVal, realVal, route), one pair per sending host,
 * shared by that host's flows through DcnLbSharedState (key "laps").
 *
 * Paths come from the topology's path enumeration: on the graph topologies
 * (DcnGraphTopology) the LAPS evaluation's waypoint set
 * dcn::MinimalRouting::LapsPaths (spec 1.2: Dragonfly same switch 1 / same
 * group 3 / other group 8 paths; Rail same cluster 1 / other cluster 8, one
 * per rail switch); on other topologies DcnTopology::GetPaths.  pids are local
 * to the source host (spec 1.5 [R], "source ID + local path ID"), 16 bit on
 * the wire.  With minimalOnly (LapsPathSelector::PathSet=Minimal, a diagnostic)
 * only the minimal paths of that set are kept.  A destination's entries are
 * created on first use (EnsureDst) or all at once (FillAll, for reports and
 * tests).
 */
#ifndef DCN_LAPS_PATH_TABLE_H
#define DCN_LAPS_PATH_TABLE_H

#include "ns3/dcn-topology.h"
#include "ns3/laps-core.h"
#include "ns3/object.h"

#include <cstdint>
#include <deque>
#include <vector>

namespace ns3
{

class LapsHostTable : public Object
{
  public:
    /** Static facts of one pid. */
    struct PathInfo
    {
        uint32_t dstHost{0};
        uint16_t ev{0};              //!< fixed EV of the pid (UDP source port; ACK hashing)
        uint8_t hops{0};             //!< host-to-host links
        bool minimal{true};          //!< the topology's minimal class
        int64_t unloadedNs{0};       //!< unloaded one-way delay: baseVal without the margin
        std::vector<uint16_t> route; //!< switches, source switch first
        std::vector<uint32_t> links; //!< link ids, host links included
    };

    static TypeId GetTypeId();
    LapsHostTable();
    ~LapsHostTable() override;

    /**
     * Bind to a topology and a source host (first call only; later calls are no-ops).
     * minimalOnly keeps only the topology's minimal paths of each destination (a
     * diagnostic, LapsPathSelector::PathSet=Minimal; the paper's set otherwise).
     */
    void Init(Ptr<DcnTopology> topology,
              uint32_t srcHost,
              double frameBytes,
              double marginPackets,
              bool minimalOnly = false);

    bool IsInit() const
    {
        return m_topo != nullptr;
    }

    /** Create the PST entry of dst and its PIT entries if missing; \return its pid count. */
    uint32_t EnsureDst(uint32_t dstHost, int64_t nowNs);
    /** Every destination (spec 7.1 table contents). */
    void FillAll(int64_t nowNs);

    /** First pid of dst (EnsureDst first). */
    uint32_t FirstPid(uint32_t dstHost) const
    {
        return m_first[dstHost];
    }

    /** pids of dst (0 = not yet filled). */
    uint32_t NumPids(uint32_t dstHost) const
    {
        return dstHost < m_count.size() ? m_count[dstHost] : 0;
    }

    lapscore::LapsPathEntry& Entry(uint32_t pid)
    {
        return m_pit[pid];
    }

    const PathInfo& Info(uint32_t pid) const
    {
        return m_info[pid];
    }

    /** PST entries filled. */
    uint32_t PstSize() const;

    /** PIT entries. */
    uint32_t PitSize() const
    {
        return static_cast<uint32_t>(m_pit.size());
    }

    uint32_t GetSrcHost() const
    {
        return m_src;
    }

    /** Mark every pid using link id invalid (valid = false) or valid again. */
    void SetLinkValid(uint32_t linkId, bool valid);

    /** DcnTopology::LinkRouted: the pids over linkId follow the topology's routing
     *  state (valid iff every link of the pid is routed). */
    void OnLinkRouted(uint32_t linkId, bool routed);

  protected:
    void DoDispose() override;

  private:
    Ptr<DcnTopology> m_topo;
    uint32_t m_src{0};
    double m_frame{1048};
    double m_margin{5};
    bool m_minimalOnly{false};
    std::vector<uint32_t> m_first; //!< per destination host
    std::vector<uint32_t> m_count; //!< per destination host (0: not filled)
    /** deque: selectors keep pointers to their entries; push_back never moves them */
    std::deque<lapscore::LapsPathEntry> m_pit;
    std::vector<PathInfo> m_info;
};

} // namespace ns3

#endif // DCN_LAPS_PATH_TABLE_H
