/*
 * Switch-to-switch routing information shared by the switch routing policies
 * of a topology (Valiant, UGAL-L, source routing; dcn-routing-policies.h).
 *
 * Built once per topology from the DcnTopology interface (any builder): hop
 * distances between all switches over the routed switch links (Boost.Graph
 * BFS, 8 bits each) and, for every switch x and target switch t, the egress
 * interfaces of x towards a neighbour one hop closer to t (a flat pool:
 * O(1) lookup, no per-packet allocation), the switch of every host, and
 * groups (DF/SF groups if the builder tells them, else one per switch) with
 * the Valiant intermediates of a pair:
 *  - switches in different groups of a grouped topology: every other group
 *    (spritz spec 1.1: "pick an intermediate group"); the intermediate switch
 *    is the switch of that group nearest to the source switch (lowest index on
 *    ties), so "route minimally to the group" is a minimal route to it;
 *  - otherwise (same group, or ungrouped families: Slim Fly routers,
 *    leaf-spine, Rail): every switch other than the two (spritz spec 1.2).
 * Cost N^2 bytes of distances + N^2 x 8 bytes of offsets + the candidate pool
 * (spritz-df, N = 264: ~1 MB).  Aggregated to the topology object: Get()
 * builds it at first use; the builder calls Rebuild() after a withdrawal.
 */
#ifndef DCN_ROUTE_INFO_H
#define DCN_ROUTE_INFO_H

#include "ns3/object.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class DcnTopology;
class Node;

class DcnRouteInfo : public Object
{
  public:
    static TypeId GetTypeId();
    DcnRouteInfo();
    ~DcnRouteInfo() override;

    static constexpr uint8_t UNREACHABLE = 255;

    /**
     * The info of a topology (aggregated to it; built at first call).
     * \p groups: group per switch index (empty: one group per switch).
     */
    static Ptr<DcnRouteInfo> Get(const DcnTopology& topology,
                                 const std::vector<uint32_t>& groups = {});

    /** Recompute distances and candidates from the routed links. */
    void Rebuild(const DcnTopology& topology);

    uint32_t NSwitches() const
    {
        return m_n;
    }

    /**
     * Times the distances were computed (1 after the first build; each Rebuild
     * after a withdrawal or restore adds one).
     */
    uint32_t GetBuilds() const
    {
        return m_builds;
    }

    /** Switch index of a node (NONE if not a switch of the topology). */
    uint32_t SwitchIndexOf(const Node& n) const;

    /** Switch of a host index (NONE if out of range). */
    uint32_t SwitchOfHost(uint32_t host) const
    {
        return host < m_hostSwitch.size() ? m_hostSwitch[host] : 0xffffffffU;
    }

    /** Hop distance between switches (UNREACHABLE if disconnected). */
    uint8_t Dist(uint32_t a, uint32_t b) const
    {
        return m_dist[size_t(a) * m_n + b];
    }

    /** Egress interfaces of x towards t (one hop closer); n = count (0 if x == t). */
    const uint32_t* Toward(uint32_t x, uint32_t t, uint32_t& n) const
    {
        size_t i = size_t(x) * m_n + t;
        n = m_off[i + 1] - m_off[i];
        return m_pool.data() + m_off[i];
    }

    uint32_t Group(uint32_t s) const
    {
        return m_group[s];
    }

    /** Number of Valiant intermediates of the pair (see the file comment). */
    uint32_t ValiantCount(uint32_t s, uint32_t d) const;
    /** The k-th Valiant intermediate switch (k < ValiantCount), O(1). */
    uint32_t ValiantIntermediate(uint32_t s, uint32_t d, uint32_t k) const;

  private:
    void Init(const DcnTopology& topology, const std::vector<uint32_t>& groups);

    uint32_t m_n{0};
    uint32_t m_builds{0};
    std::vector<uint32_t> m_nodeToSwitch; //!< by node id
    std::vector<uint32_t> m_hostSwitch;
    std::vector<uint8_t> m_dist;
    std::vector<uint32_t> m_off; //!< N*N + 1 offsets into m_pool
    std::vector<uint32_t> m_pool;
    std::vector<uint32_t> m_group;
    uint32_t m_nGroups{0};
    bool m_grouped{false};
    std::vector<std::vector<uint32_t>> m_members; //!< per group, switch indices ascending
    std::vector<uint32_t> m_nearest;              //!< [s * nGroups + G]: nearest switch of G
};

} // namespace ns3

#endif // DCN_ROUTE_INFO_H
