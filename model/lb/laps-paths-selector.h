/*
 * The LAPS authors' baseline routing (review s44 L4): ECMP, LetFlow and PLB
 * over the LAPS path set instead of the minimal paths.  [A] builds every
 * switch's table for ecmp / letflow / plb from the LAPS path file
 * (install_routing_entries: load_PIT_from_file(laps-PIT.txt)), so its
 * hash-based baselines spread over the same long, non-minimal paths as LAPS.
 *
 * Here the sender does the spreading: a wrapper around an EV-based selector
 * (Inner: ecmp or plb, or any other) that maps the inner selector's choice to
 * one path of the pair's LAPS set (dcn::MinimalRouting::LapsPaths, the set
 * LapsPathSelector sprays over, through LapsHostTable) and writes it as the
 * LAPS source route (pid + every switch of the path) into the header bytes,
 * which the "laps-source" switch policy forwards hop by hop and the receiver's
 * ACK echoes (reversed):
 *  - path = Mix32(inner EV) mod n: ECMP's per-connection EV gives one path per
 *    flow, PLB's repath (a new EV) a new path;
 *  - Flowlets=true (LetFlow): a uniformly random path of the set for each new
 *    flowlet, i.e. when the connection's last packet left more than
 *    FlowletTimeout ago (LetFlow NSDI'17 at the sender NIC; [A] lets every
 *    switch pick among its path-table ports per flowlet).
 * O(route length) per packet, no allocation after the destination's first use.
 * Schemes: --lb=ecmp-laps-paths, letflow-laps-paths, plb-laps-paths
 * (laps-paper --setup=authors or --baselinePaths=laps; doc/laps.rst).
 */
#ifndef DCN_LAPS_PATHS_SELECTOR_H
#define DCN_LAPS_PATHS_SELECTOR_H

#include "laps-path-table.h"
#include "path-selector.h"

#include "ns3/nstime.h"

#include <string>

namespace ns3
{

class DcnLapsPathsSelector : public PathSelector
{
  public:
    static TypeId GetTypeId();
    DcnLapsPathsSelector();
    ~DcnLapsPathsSelector() override;

    void Setup(const PathSelectorSetup& setup) override;
    PathChoice Choose(const SendContext& ctx) override;
    void OnFeedback(const PathFeedback& fb) override;
    std::string Name() const override;
    int64_t AssignStreams(int64_t stream) override;
    std::string Validate() const override;
    std::string CheckTopology(const std::string& topology) const override;
    bool ReceiverResequencing() const override;

    /** The wrapped selector (created on first use from Inner). */
    Ptr<PathSelector> GetInner();

    /** Packets sent on each path of the destination (index = pid - GetFirstPid()). */
    const std::vector<uint64_t>& GetPathSent() const
    {
        return m_sent;
    }

    uint32_t GetFirstPid() const
    {
        return m_first;
    }

    Ptr<LapsHostTable> GetHostTable() const
    {
        return m_table;
    }

  protected:
    void DoDispose() override;

  private:
    bool Ready();

    std::string m_innerName;
    bool m_flowlets{false};
    Time m_flowletTimeout;
    Ptr<PathSelector> m_inner;
    Ptr<LapsHostTable> m_table;
    uint32_t m_dst{0};
    uint32_t m_first{0};
    uint32_t m_n{0};
    bool m_ready{false};
    uint32_t m_k{0};      //!< current flowlet's path (Flowlets)
    int64_t m_lastNs{-1}; //!< last send (Flowlets; -1: none yet)
    std::vector<uint64_t> m_sent;
};

} // namespace ns3

#endif // DCN_LAPS_PATHS_SELECTOR_H
