/*
 * Minimal routing and path machinery on a SwitchGraph (ns-3 free).
 *
 * "Minimal" follows the topology's minimal routing:
 *  - Dragonfly: the gw(G,G') rules of spritz spec 1.1 (same group: the direct local
 *    link; else a local hop to a switch owning a global link to the destination group,
 *    the global hop, a local hop to the destination).  With several global links per
 *    group pair every (local?, global, local?) route of the fewest hops is minimal.
 *    Such a path is not always hop-count shortest (two global hops can be shorter
 *    than local+global+local), which is why the rule, not BFS, defines it.
 *  - every other family: hop-count shortest paths (BFS distances), all equal-cost
 *    next hops (parallel links are distinct next hops).
 * The default table holds one next hop per destination: the first minimal next hop
 * in port order (lowest neighbour id, then link id; spritz spec 1.2 tie-break).
 */
#ifndef DCN_GRAPH_ROUTING_H
#define DCN_GRAPH_ROUTING_H

#include "dcn-switch-graph.h"

#include <cstdint>
#include <vector>

namespace dcn
{

/** One switch-level path with its classification. */
struct GraphPath
{
    std::vector<uint32_t> switches; //!< first = source switch, last = destination
    std::vector<uint32_t> links;    //!< links.size() == switches.size() - 1
    bool minimal{true};             //!< every hop is a minimal next hop
    uint32_t via{NONE};             //!< non-minimal: intermediate group (DF) or switch
    uint32_t local{0};              //!< hops on non-GLOBAL links ("L" of spritz Table I)
    uint32_t global{0};             //!< hops on GLOBAL links ("G")
    double latencyNs{0};            //!< sum of link delay + serialisation (see PathLatencyNs)

    uint32_t Hops() const
    {
        return static_cast<uint32_t>(links.size());
    }

    bool Empty() const
    {
        return switches.empty();
    }
};

/** Bound of a "bounded simple path" (spritz spec 1.3). */
struct PathBound
{
    uint32_t maxHops{~0u};
    uint32_t maxLocal{~0u};
    uint32_t maxGlobal{~0u};

    bool Admits(const GraphPath& p) const
    {
        return p.Hops() <= maxHops && p.local <= maxLocal && p.global <= maxGlobal;
    }
};

/** Spritz's bound: DF <= 3 local and <= 2 global hops; SF <= 4 hops; else twice the diameter. */
PathBound SpritzBound(const SwitchGraph& g, uint32_t diameter);

/** Serialisation + propagation of one hop in integer picoseconds (exact sums and ties). */
uint64_t HopLatencyPs(const SwitchLink& l, uint32_t packetBytes);

/**
 * Minimal routing state of one graph.  Keeps a reference to the graph: the graph must
 * outlive it (and SpritzTables keeps a reference to this object).  Hop distances are
 * stored in 8 bits (graphs of diameter < 255).
 */
class MinimalRouting
{
  public:
    /** packetBytes: packet size of the latency model (spritz spec 1.3: 4160 B). */
    explicit MinimalRouting(const SwitchGraph& g, uint32_t packetBytes = 4160);

    const SwitchGraph& Graph() const
    {
        return m_g;
    }

    uint32_t PacketBytes() const
    {
        return m_pkt;
    }

    bool IsDragonfly() const
    {
        return m_df;
    }

    uint32_t GroupOf(uint32_t s) const
    {
        return m_g.switches[s].group;
    }

    /** Hop count of a minimal route. */
    uint32_t Dist(uint32_t x, uint32_t d) const;

    /** Hop-count (BFS) distance, whatever the family. */
    uint32_t BfsDist(uint32_t x, uint32_t d) const
    {
        return m_bfs(x, d);
    }

    /** Port indices (into Graph().Ports(x)) of all minimal next hops of x towards d
     *  (empty if x == d), ascending. */
    void NextHops(uint32_t x, uint32_t d, std::vector<uint32_t>* ports) const;
    /** Port index of link on switch x (NONE if the link is not on x). */
    uint32_t PortOf(uint32_t x, uint32_t link) const;

    /** Port index (into Graph().Ports(x)) of the default next hop; NONE if x == d. */
    uint32_t DefaultPort(uint32_t x, uint32_t d) const
    {
        return m_default[static_cast<size_t>(x) * m_g.NSwitches() + d];
    }

    /** Is the hop x -> (port pi of x) a minimal next hop towards d? */
    bool IsMinimalHop(uint32_t x, uint32_t pi, uint32_t d) const;
    /** Switches of the default route x .. d (x alone if x == d). */
    std::vector<uint32_t> DefaultRoute(uint32_t x, uint32_t d) const;
    /** Append the default route from x to d (without x) to p's switches and links. */
    void AppendDefaultRoute(uint32_t x, uint32_t d, GraphPath* p) const;
    /** Every minimal path s..d (all equal-cost combinations). */
    std::vector<GraphPath> MinimalPaths(uint32_t s, uint32_t d) const;

    /** Dragonfly: global links between groups G1 and G2 (ids, ascending). */
    const std::vector<uint32_t>& GlobalLinks(uint32_t g1, uint32_t g2) const;
    /** Dragonfly: gw(G,G'), the lowest switch of G owning a global link to G'. */
    uint32_t Gateway(uint32_t g1, uint32_t g2) const;

    /** Fill minimal/local/global/latency of a path from its switches and links. */
    void Classify(GraphPath* p) const;
    /** Latency of a link sequence (ns, spritz spec 1.3 model: no switch latency). */
    double LatencyNs(const std::vector<uint32_t>& links) const;

    /**
     * Valiant intermediates of a pair: DF: every group other than the source's and the
     * destination's (for an intra-group pair: every other switch of the group);
     * others: every switch other than s and d.
     */
    std::vector<uint32_t> ValiantIntermediates(uint32_t s, uint32_t d) const;
    /** Number of Valiant intermediates of a pair (= ValiantIntermediates(s, d).size()). */
    uint32_t ValiantCount(uint32_t s, uint32_t d) const;
    /**
     * The k-th Valiant intermediate (k < ValiantCount) without building the list: O(1)
     * for DF and Slim Fly, so a switch policy can map a hash or random draw to it.
     */
    uint32_t ValiantIntermediate(uint32_t s, uint32_t d, uint32_t k) const;
    /**
     * Every simple path s..d within the bound (DFS pruned by BFS distances), in DFS
     * order over ports, at most maxPaths; each classified (minimal, L, G, latency).
     * The general "bounded simple paths" set; Spritz's EV-reachable subset is
     * SpritzTables::Enumerate.
     */
    std::vector<GraphPath> BoundedSimplePaths(uint32_t s,
                                              uint32_t d,
                                              const PathBound& bound,
                                              uint32_t maxPaths = 100000) const;
    /**
     * Valiant path through an intermediate: DF group: the default route to the
     * switch where the first global link (lowest id) from s's group to the
     * intermediate group lands, then the default route to d; DF intra-group or other
     * families: default route to the intermediate switch, then to d.
     * Empty if the concatenation is not simple.
     */
    GraphPath ValiantPath(uint32_t s, uint32_t via, uint32_t d) const;
    /**
     * The LAPS evaluation's waypoint path set (laps spec 1.2): DF: same switch 1,
     * same group a-1 (direct + via each other switch), else 1 minimal + one per other
     * group; Rail: same cluster the minimal path via the NVLink switch, else one path
     * through each rail switch; other families: all minimal paths.
     */
    std::vector<GraphPath> LapsPaths(uint32_t s, uint32_t d) const;

    /** Rail with FamilyParams::nvlinkFirst: true if \p port of NIC switch \p x is its rail
     *  uplink and \p d is a NIC switch of another cluster on another rail (PXN order). */
    bool RailFirstExcluded(uint32_t x, const Port& port, uint32_t d) const;

  private:
    const SwitchGraph& m_g;
    uint32_t m_pkt;
    bool m_df;
    DistanceMatrix m_bfs;
    std::vector<uint32_t> m_default;                  //!< N x N default port index
    std::vector<std::vector<uint32_t>> m_globalLinks; //!< DF: per (G1, G2)
    uint32_t m_nGroups{0};
};

} // namespace dcn

#endif // DCN_GRAPH_ROUTING_H
