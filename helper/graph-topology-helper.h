/*
 * Generic ns-3 builder of any dcn::SwitchGraph (Dragonfly, Slim Fly, Rail,
 * leaf-spine; issue 11), and the preset factory.
 *
 * DcnGraphTopology instantiates one graph:
 *  - nodes: hosts 0..NHosts()-1 (graph order: the hosts of switch s are
 *    FirstHost(s)..), switches 0..NSwitches()-1 (graph ids = switch indices);
 *    tier of a switch = dcn::TierOf(role) (0 router/leaf/NIC, 1 spine/NVLink/rail);
 *  - links: switch-switch link j of the graph is link id j (same name, rate,
 *    delay), then host h's access link is link NLinks()+h ("h<h>-<switch>");
 *  - switch latency folded into delays as the fat tree does: switch-switch
 *    links get delay + SwitchLatency, host links delay + SwitchLatency/2, so a
 *    host-to-host path costs sum(link delays) + switches x SwitchLatency;
 *  - one DcnQueueDisc per port (switch ports: QueueLimit, ECN Kmin/Kmax;
 *    host NICs: HostQueueLimit), DcnAddressing addresses;
 *  - tables: one entry per destination switch with every minimal next hop of
 *    dcn::MinimalRouting (Dragonfly: the gw rules; others: BFS shortest), and
 *    with NonMinimalSlack > 0 the generic non-minimal candidates; after a link
 *    withdrawal the generic BFS tables over the routed links
 *    (DcnTopologyBase::InstallShortestPathTables);
 *  - paths (GetPaths): the graph's minimal paths (MinimalPaths) first, then one
 *    Valiant path per intermediate (ValiantPath; class NONMINIMAL) when
 *    NonMinimalSlack > 0; base RTT = the smallest RTT over the minimal paths,
 *    each link at its own rate and delay (mixed delays are exact);
 *  - GetSystemId: contiguous blocks of groups (Dragonfly/Slim Fly groups,
 *    otherwise switch indices) per rank, hosts with their switch.
 *
 * DcnTopologyPresets::Create(name, overrides, routing) builds a preset of the
 * registry (dcn::ListPresets) with optional parameter overrides and a routing
 * policy name (DcnRoutingPolicies), or "global" for ns-3's Ipv4GlobalRouting on every
 * node instead of our switches (attribute Routing; comparisons with ns-3's own ECMP);
 * bad input throws DcnOptionError (one line).
 */
#ifndef DCN_GRAPH_TOPOLOGY_HELPER_H
#define DCN_GRAPH_TOPOLOGY_HELPER_H

#include "ns3/dcn-switch-graph.h"
#include "ns3/dcn-topology-base.h"
#include "ns3/queue-size.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace dcn
{
class MinimalRouting;
}

namespace ns3
{

class DcnGraphTopology : public DcnTopologyBase
{
  public:
    static TypeId GetTypeId();
    DcnGraphTopology();
    ~DcnGraphTopology() override;

    /** The graph to build (before Build()); throws DcnOptionError if it is not sound. */
    void SetGraph(const dcn::SwitchGraph& g);
    const dcn::SwitchGraph& GetGraph() const;
    /** Minimal routing of the graph (valid after SetGraph()). */
    const dcn::MinimalRouting& GetMinimalRouting() const;

    /** Create nodes, links, addresses, queue discs, tables and policies. */
    void Build();

    std::string GetTopologyName() const override;
    DataRate GetHostLinkRate() const override;
    const DcnPathSet& GetPaths(uint32_t srcSwitch, uint32_t dstSwitch) const override;
    uint32_t GetSystemId(Ptr<Node> n, uint32_t nRanks) const override;
    void SetLinkRouted(uint32_t linkId, bool routed) override;
    int64_t AssignStreams(int64_t stream) override;

    /** Group of a switch (DF/SF group; switch index for other families). */
    uint32_t GetGroupOfSwitch(uint32_t sw) const;
    /** Graphviz DOT of the built network; withdrawn links drawn as failed. */
    std::string ToDot() const;

  protected:
    void DoDispose() override;

  private:
    void InstallMinimalTables();

    std::shared_ptr<dcn::SwitchGraph> m_graph;
    std::shared_ptr<dcn::MinimalRouting> m_minimal;
    std::vector<uint32_t> m_groups; //!< per switch, contiguous group ids
    uint32_t m_nGroups{0};
    mutable std::map<uint64_t, DcnPathSet> m_graphPaths;
    // attributes
    uint32_t m_mtu;
    std::string m_policyType;
    std::string m_routingMode{"dcn"}; //!< "dcn" or "global" (Routing attribute)
};

/** Switch routing policies by name: "minimal", "ecmp", "spray", "valiant", "ugal-l", "source". */
struct DcnRoutingPolicies
{
    /** The names, in display order. */
    static const std::vector<std::string>& Names();
    /** ns-3 TypeId name of a policy name; throws DcnOptionError for an unknown one. */
    static std::string TypeIdName(const std::string& name);
};

/** Topology presets (dcn::ListPresets) as built ns-3 topologies. */
struct DcnTopologyPresets
{
    /** Preset names (the graph registry), in display order. */
    static std::vector<std::string> Names();
    /**
     * Parse "key=value,key=value" (e.g. the value of --topoParams) into overrides;
     * "" gives none; a malformed item throws DcnOptionError naming \p option.
     */
    static std::map<std::string, std::string> ParseOverrides(
        const std::string& text,
        const std::string& option = "--topoParams");
    /** The graph of a preset with overrides (see dcn::BuildPreset); throws DcnOptionError. */
    static dcn::SwitchGraph Graph(const std::string& name,
                                  const std::map<std::string, std::string>& overrides = {});
    /**
     * Build a preset: graph (with overrides), DcnGraphTopology with the
     * routing policy \p routing (DcnRoutingPolicies name) and nonMinimalSlack
     * (NonMinimalSlack attribute); other attributes from Config defaults.
     * Throws DcnOptionError (one line) on an unknown name, key or value.
     */
    static Ptr<DcnGraphTopology> Create(const std::string& name,
                                        const std::map<std::string, std::string>& overrides = {},
                                        const std::string& routing = "minimal",
                                        uint32_t nonMinimalSlack = 0);
    /**
     * Build any graph (e.g. dcn::BuildLeafSpine with slow or cut links, a
     * Dragonfly with the LAPS wiring) the same way; throws DcnOptionError.
     */
    static Ptr<DcnGraphTopology> Create(const dcn::SwitchGraph& graph,
                                        const std::string& routing = "minimal",
                                        uint32_t nonMinimalSlack = 0);
};

} // namespace ns3

#endif // DCN_GRAPH_TOPOLOGY_HELPER_H
