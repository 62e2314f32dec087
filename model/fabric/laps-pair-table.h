/*
 * The LAPS path set of each leaf pair as one switch sees it, for switch policies that
 * choose among a pair's LAPS paths at the source leaf and carry the choice as a path
 * index in header bytes (CONGA's LBTag, ConWeave's path field; issue 16): the LAPS
 * authors' artifact [A] installs its path tables into the switches of conga and
 * conweave (install_LB_table).
 *
 * A leaf is a switch with hosts (as AnyTopology); the paths of (source leaf, destination
 * leaf) are dcn::MinimalRouting::LapsPaths(source switch, destination switch), the set
 * LapsHostTable gives LAPS and the *-laps-paths baselines (Rail: 8 between clusters;
 * Dragonfly: 1 minimal + 7 Valiant between groups, 3 inside a group).  Path k of a pair
 * is a simple path, so it leaves a switch on at most one interface: Get() gives, per k,
 * that egress (or NO_IF) and, at the source leaf, the uplink index of k's first hop.  A
 * pair is built on its first use at this switch (O(paths x path length), once); Get() is
 * O(1) afterwards.  Graph topologies (DcnGraphTopology) only; Check() refuses others and
 * pairs with more than MAX_PATHS paths (a 4-bit index), in one line.
 *
 * Path validity (routed failures): bit k of Pair::valid is set iff every link of path k
 * is routed (DcnTopology::IsLinkRouted), the knowledge and timing LAPS's host table has
 * (LapsHostTable::OnLinkRouted, spec 1.2 [P]: "a path is marked invalid when one of its
 * links fails"): the table listens to the topology's LinkRouted trace, fired when a
 * FailLink's withdrawDelay has passed (and again at the restore), and recomputes the
 * bits of the built pairs that cross that link then, O(links of the built pairs) per
 * event; a pair built later starts from the routed state.  A silent failure
 * (FailLinkSilent, not withdrawn) leaves its paths valid, as for LAPS.
 */
#ifndef DCN_LAPS_PAIR_TABLE_H
#define DCN_LAPS_PAIR_TABLE_H

#include "ns3/dcn-topology.h"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace dcn
{
class MinimalRouting;
}

namespace ns3
{

class DcnLapsPairTable
{
  public:
    DcnLapsPairTable() = default;
    DcnLapsPairTable(const DcnLapsPairTable&) = delete; //!< the trace holds `this`
    DcnLapsPairTable& operator=(const DcnLapsPairTable&) = delete;

    ~DcnLapsPairTable()
    {
        Clear();
    }

    /** Most paths of a pair: a 4-bit path index in the header. */
    static constexpr uint16_t MAX_PATHS = 16;
    static constexpr uint32_t NO_IF = 0xffffffffU;

    /** The paths of one leaf pair at this switch. */
    struct Pair
    {
        uint8_t n{0};                        //!< paths (<= MAX_PATHS)
        uint32_t egress[MAX_PATHS]{};        //!< interface path k leaves this switch on, or NO_IF
        uint8_t firstUplink[MAX_PATHS]{};    //!< uplink index of that interface (0 if none)
        uint16_t valid{0};                   //!< bit k: every link of path k routed
        uint32_t linkBegin[MAX_PATHS + 1]{}; //!< path k's links: m_links[linkBegin[k], [k+1])
    };

    /**
     * "" if \p t can carry a path index per leaf pair, else one line starting with \p what:
     * not a graph topology; with scanPairs also a pair of more than MAX_PATHS LAPS paths
     * (every pair of switches with hosts: O(pairs x paths), once per run).
     */
    static std::string Check(const DcnTopology& t, const std::string& what, bool scanPairs);

    /**
     * Bind to switch \p self of \p t (a graph topology that lives through the run).
     * \param isLeaf per switch: has hosts (leaf index = rank among the leaves)
     * \param ifUplink interface -> uplink index (0xffff none) of this switch, for firstUplink
     */
    void Attach(const DcnTopology& t,
                uint32_t self,
                const std::vector<bool>& isLeaf,
                const std::vector<uint16_t>& ifUplink);

    /** Forget the topology and stop listening to its LinkRouted trace (DoDispose). */
    void Clear();

    /** Is path k of the pair valid (every link routed)?  O(1). */
    static bool IsValid(const Pair& p, uint16_t k)
    {
        return k < p.n && ((p.valid >> k) & 1U) != 0;
    }

    bool IsAttached() const
    {
        return m_mr != nullptr;
    }

    uint16_t GetNLeaves() const
    {
        return m_nLeaves;
    }

    /** The pair's paths here (srcLeaf, dstLeaf < GetNLeaves(); built on first use).  The
     *  reference stays valid until Clear(), also across the building of other pairs. */
    const Pair& Get(uint16_t srcLeaf, uint16_t dstLeaf)
    {
        const uint32_t off = m_off[static_cast<size_t>(srcLeaf) * m_nLeaves + dstLeaf];
        return off != NO_IF ? m_pairs[off] : Build(srcLeaf, dstLeaf);
    }

  private:
    const Pair& Build(uint16_t srcLeaf, uint16_t dstLeaf);
    /** DcnTopology::LinkRouted: recompute the validity bits of the paths over linkId. */
    void OnLinkRouted(uint32_t linkId, bool routed);
    /** Every link of path k of p routed? */
    bool AllRouted(const Pair& p, uint16_t k) const;

    const dcn::MinimalRouting* m_mr{nullptr}; //!< the graph topology's
    const DcnTopology* m_topo{nullptr};
    Ptr<DcnTopology> m_traced; //!< the topology whose LinkRouted this table listens to
    const Node* m_selfNode{nullptr};
    uint32_t m_self{0};
    uint16_t m_nLeaves{0};
    std::vector<uint32_t> m_leafSwitch; //!< leaf index -> switch index
    std::vector<uint16_t> m_ifUplink;
    std::vector<uint32_t> m_off;   //!< srcLeaf x nLeaves + dstLeaf -> m_pairs index
    std::deque<Pair> m_pairs;      //!< a deque: a reference Get() returned stays valid when
                                   //!< another pair is built (a trace sink may look one up)
    std::vector<uint32_t> m_links; //!< link ids of the built pairs' paths (Pair::linkBegin)
};

} // namespace ns3

#endif // DCN_LAPS_PAIR_TABLE_H
