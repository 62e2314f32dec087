/*
 * Structural description of a datacenter switch graph, free of ns-3 (pure C++17 +
 * Boost.Graph), shared by the Dragonfly, Slim Fly, Rail-optimized and leaf-spine
 * builders (dcn-topo-builders.h), the path machinery (dcn-graph-routing.h) and the
 * Spritz tables (dcn-spritz-tables.h).  The ns-3 builders (DcnTopologyBase) turn
 * one SwitchGraph into nodes, point-to-point links and per-switch tables.
 *
 * Indices: switches 0..NSwitches()-1; hosts 0..NHosts()-1, attached in switch
 * order (the hosts of switch s are FirstHost(s) .. FirstHost(s)+HostsOf(s)-1);
 * switch-switch links 0..links.size()-1.  A "port" of a switch is a position in
 * its adjacency list Ports(s), which is ordered by neighbour switch id, then link id
 * (the order of the Spritz ECMP tables, spritz spec 2.2); host ports are not listed.
 */
#ifndef DCN_SWITCH_GRAPH_H
#define DCN_SWITCH_GRAPH_H

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace dcn
{

constexpr uint32_t NONE = std::numeric_limits<uint32_t>::max();

/** What a switch is in its topology. */
enum class SwitchRole : uint8_t
{
    ROUTER, //!< Dragonfly / Slim Fly router (hosts attached)
    LEAF,   //!< leaf-spine ToR
    SPINE,  //!< leaf-spine spine
    NIC,    //!< Rail: the per-GPU NIC switch (one GPU attached)
    NVLINK, //!< Rail: the cluster's NVLink switch
    RAIL,   //!< Rail: a rail switch
};

/** Kind of a switch-switch link. */
enum class LinkKind : uint8_t
{
    LOCAL,      //!< Dragonfly intra-group / Slim Fly intra-group (y-y' in X or X')
    GLOBAL,     //!< Dragonfly inter-group / Slim Fly cross edge (s=0 to s=1)
    LEAF_SPINE, //!< leaf-spine uplink
    NVLINK,     //!< Rail: NIC switch to NVLink switch
    RAIL,       //!< Rail: NIC switch to rail switch
};

const char* ToString(SwitchRole r);
const char* ToString(LinkKind k);
/** Tier of a role for DcnTopology (-1 host): 0 = edge (router, leaf, NIC), 1 = upper. */
int32_t TierOf(SwitchRole r);

struct SwitchInfo
{
    std::string name;  //!< unique, e.g. "g3s2", "leaf0", "nic2_5"
    uint32_t group{0}; //!< DF/SF group, Rail cluster (NIC, NVLink) or rail, 0 else
    SwitchRole role{SwitchRole::ROUTER};
    uint32_t nHosts{0};    //!< hosts attached
    double hostRateBps{0}; //!< rate of each attached host's link
    double hostDelayNs{0}; //!< propagation delay of each host link
};

struct SwitchLink
{
    uint32_t id{0};
    std::string name; //!< unique, "<nameA>-<nameB>" (a < b), a "/k" suffix for parallel links
    uint32_t a{0};
    uint32_t b{0};
    LinkKind kind{LinkKind::LOCAL};
    double rateBps{0};
    double delayNs{0};
};

/** One port of a switch: the neighbour and the link to it. */
struct Port
{
    uint32_t nbr;
    uint32_t link;
};

/** Family-specific parameters the routing code needs (0 where not applicable). */
struct FamilyParams
{
    std::string family; //!< "dragonfly", "slimfly", "rail", "leaf-spine"
    uint32_t p{0};      //!< hosts per router (DF, SF), GPUs per NIC switch (Rail: 1)
    uint32_t a{0};      //!< DF switches per group; Rail: clusters
    uint32_t h{0};      //!< DF global links per switch; Rail: rails
    uint32_t g{0};      //!< DF groups
    uint32_t q{0};      //!< SF prime power
    /** Rail: minimal routing takes the NVLink first (PXN: the source cluster's NVLink
     *  switch to the NIC switch on the destination's rail, then that rail), never a rail
     *  then the NVLink; the channel dependencies are then acyclic (no PFC deadlock). */
    bool nvlinkFirst{false};
};

class SwitchGraph
{
  public:
    std::string name; //!< preset or builder name, e.g. "spritz-df"
    FamilyParams fam;
    double switchLatencyNs{0}; //!< per traversal (modelled by the ns-3 builder)
    std::vector<SwitchInfo> switches;
    std::vector<SwitchLink> links;

    /** Add a switch; \return its id. */
    uint32_t AddSwitch(SwitchInfo s);
    /** Add a link a-b (names it unless name is given); \return its id. */
    uint32_t AddLink(uint32_t a,
                     uint32_t b,
                     LinkKind kind,
                     double rateBps,
                     double delayNs,
                     const std::string& name = "");
    /** Build the port lists and host maps; call after the last Add*. */
    void Finalize();
    /** "" if sound (ids, names unique, no self loops, positive rates, Finalize()d), else why. */
    std::string Check() const;

    uint32_t NSwitches() const
    {
        return static_cast<uint32_t>(switches.size());
    }

    uint32_t NLinks() const
    {
        return static_cast<uint32_t>(links.size());
    }

    uint32_t NHosts() const
    {
        return m_nHosts;
    }

    /** Switch-switch ports, ordered by neighbour id then link id. */
    const std::vector<Port>& Ports(uint32_t s) const
    {
        return m_ports[s];
    }

    /** Host ports + switch ports. */
    uint32_t Radix(uint32_t s) const
    {
        return switches[s].nHosts + static_cast<uint32_t>(m_ports[s].size());
    }

    uint32_t FirstHost(uint32_t s) const
    {
        return m_firstHost[s];
    }

    uint32_t SwitchOfHost(uint32_t host) const
    {
        return m_hostSwitch[host];
    }

    /** Switch id by name, NONE if unknown. */
    uint32_t FindSwitch(const std::string& name) const;
    /** Link id by name, NONE if unknown. */
    uint32_t FindLink(const std::string& name) const;
    /** Number of links of a kind. */
    uint32_t CountLinks(LinkKind k) const;

  private:
    std::vector<std::vector<Port>> m_ports;
    std::vector<uint32_t> m_firstHost;
    std::vector<uint32_t> m_hostSwitch;
    uint32_t m_nHosts{0};
};

/** Whole-graph facts computed with Boost.Graph (BFS from every switch). */
struct GraphStats
{
    bool connected{false};
    uint32_t diameter{0};  //!< in switch hops (max over connected pairs)
    uint32_t minDegree{0}; //!< switch-switch ports
    uint32_t maxDegree{0};
    uint32_t minRadix{0}; //!< host + switch ports
    uint32_t maxRadix{0};
};

/** Hop distances between all switch pairs (row-major, NSwitches()^2, 255 = unreachable). */
class DistanceMatrix
{
  public:
    explicit DistanceMatrix(const SwitchGraph& g);

    uint8_t operator()(uint32_t a, uint32_t b) const
    {
        return m_d[static_cast<size_t>(a) * m_n + b];
    }

    uint32_t Size() const
    {
        return m_n;
    }

    static constexpr uint8_t UNREACHABLE = 255;

  private:
    uint32_t m_n;
    std::vector<uint8_t> m_d;
};

/** Connectivity (boost::connected_components), diameter and degrees. */
GraphStats Analyze(const SwitchGraph& g);
/** Number of connected components of the switch graph without the links flagged in skip. */
uint32_t CountComponents(const SwitchGraph& g, const std::vector<bool>& skip = {});

} // namespace dcn

#endif // DCN_SWITCH_GRAPH_H
