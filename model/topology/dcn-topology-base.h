/*
 * Generic part of every topology builder (DESIGN.md section 3.0).
 *
 * DcnTopologyBase holds what all builders share: the host and switch nodes
 * (switch index = position in GetAllSwitches()), the links (ids, names,
 * devices, interfaces), per-node link lists, queue discs, withdrawn links, a
 * name -> link map, and a Boost.Graph of the switches (one edge per
 * switch-to-switch link).  From the graph it answers:
 *  - GetPaths(src, dst): every shortest path (breadth-first distances to the
 *    destination, then a depth-first walk along distance-decreasing edges)
 *    and, if NonMinimalSlack > 0, every simple path up to shortest +
 *    NonMinimalSlack links (depth-first, pruned by the distance bound), at
 *    most MaxPathsPerPair; minimal paths first, each with its class and
 *    latency; computed once per ordered pair and cached.  The enumeration is
 *    structural: withdrawn links stay in it.
 *  - GetPathRtt / GetBaseRtt (the smallest RTT over the pair's minimal paths,
 *    with every link at its built rate: slow links included) and GetHopCount.
 * A builder (FatTreeHelper; Dragonfly, Slim Fly, Rail, leaf-spine next)
 * creates nodes and links, calls RegisterNodes() and RegisterLink() (or fills
 * the protected members and calls FinishLinks()), installs the switch tables
 * (DcnSwitchRouting) and calls AttachPolicies(); it adds only its structure.
 */
#ifndef DCN_TOPOLOGY_BASE_H
#define DCN_TOPOLOGY_BASE_H

#include "dcn-topology.h"

#include "ns3/ipv4-address.h"
#include "ns3/net-device-container.h"
#include "ns3/queue-size.h"

#include <functional>
#include <map>
#include <memory>
#include <unordered_map>

namespace ns3
{

class PointToPointHelper;
class TrafficControlHelper;

class DcnTopologyBase : public DcnTopology
{
  public:
    static TypeId GetTypeId();
    DcnTopologyBase();
    ~DcnTopologyBase() override;

    // ---- hosts ----
    uint32_t GetNHosts() const override;
    NodeContainer GetHosts() const override;
    Ipv4Address GetHostAddress(uint32_t host) const override;
    uint32_t GetHostIndex(Ipv4Address a) const override;

    // ---- switches ----
    uint32_t GetNSwitches() const override;
    NodeContainer GetAllSwitches() const override;
    uint32_t GetSwitchOfHost(uint32_t host) const override;
    Ptr<DcnSwitchRouting> GetRouting(Ptr<Node> n) const override;
    int32_t GetTierOfNode(Ptr<Node> n) const override;
    /** Switch index of a switch node (DcnAddressing::NONE for a host or foreign node). */
    uint32_t GetSwitchIndex(Ptr<Node> n) const;
    /** Host index of a host node (DcnAddressing::NONE for a switch or foreign node). */
    uint32_t GetHostOfNode(Ptr<Node> n) const;

    // ---- links ----
    const std::vector<DcnLinkInfo>& GetLinks() const override;
    const DcnLinkInfo& GetLink(uint32_t id) const override;
    const std::vector<uint32_t>& GetLinksOfNode(Ptr<Node> n) const override;
    Ptr<DcnQueueDisc> GetQueueDisc(Ptr<NetDevice> dev) const override;
    uint32_t FindLink(const std::string& name) const override;
    bool IsBuilt() const override;
    uint32_t GetNTiers() const override;

    // ---- paths ----
    Time GetBaseRtt(uint32_t srcHost, uint32_t dstHost, uint32_t payloadBytes) const override;
    Time GetPathRtt(uint32_t srcHost,
                    uint32_t dstHost,
                    const DcnPath& path,
                    uint32_t payloadBytes) const override;
    uint32_t GetHopCount(uint32_t srcHost, uint32_t dstHost) const override;
    const DcnPathSet& GetPaths(uint32_t srcSwitch, uint32_t dstSwitch) const override;
    bool IsLinkRouted(uint32_t linkId) const override;
    /** Contiguous blocks of switch indices per rank; hosts follow their switch. */
    uint32_t GetSystemId(Ptr<Node> n, uint32_t nRanks) const override;

    // ---- fabric mode (issue 13, doc/fabric.rst "Fast fabric mode") ----
    /**
     * FabricMode attribute: true for "fast" (DcnPortDevice ports, switch fast
     * path); "auto" is resolved by Build() (before it: false).
     */
    bool IsFastFabric() const;
    /**
     * The FabricMode attribute's default: "auto", or the environment variable
     * DCNLB_FABRIC when set ("auto", "fast" or "ipv4", to run test suites in either
     * mode; any other value is refused by Build and by the examples' option parsing).
     */
    static std::string DefaultFabricMode();

  protected:
    void DoDispose() override;

    /** Record the nodes: hosts (host index order) and switches by tier (index order). */
    void RegisterNodes(const NodeContainer& hosts, const std::vector<NodeContainer>& tiers);
    /** Append a link (its id must be GetLinks().size()); updates per-node lists and names. */
    uint32_t RegisterLink(const DcnLinkInfo& link);
    /** After all links: host -> switch map, routed flags. */
    void FinishLinks();
    /** Call ForwardingPolicy::AttachTopology on every switch that has a policy. */
    void AttachPolicies();
    /**
     * Generic tables on every switch (after Build(); DcnSwitchRouting installed):
     * one key per destination edge switch when every edge switch has the same
     * number of contiguously numbered hosts (else one key per host); minimal
     * candidates = ports to neighbours one hop closer to the destination's edge
     * switch (Boost.Graph BFS over the routed switch links, link order); with
     * \p slack > 0, non-minimal candidates = other ports whose neighbour is at
     * most slack - 1 hops farther.  Builders without structural tables call it
     * (and again after a withdrawal); cost nSwitches x keys entries.
     */
    void InstallShortestPathTables(uint32_t slack = 0);
    /** Drop the cached paths (e.g. after a builder changed links). */
    void ClearPathCache();
    /**
     * Refuse a bad FabricMode (one line naming the value and what is allowed)
     * and FabricMode=fast with \p routing other than "dcn" or an MPI partition
     * (\p systemCount > 1), unless the fast mode came from DCNLB_FABRIC=fast,
     * which yields: ipv4.  Resolves "auto" to fast where allowed, else ipv4.
     * Throws DcnOptionError.
     */
    void CheckFabricMode(const std::string& routing, uint32_t systemCount = 1);
    /**
     * One link a-b: PointToPointHelper devices (FabricMode=ipv4, \p p2p carries
     * the attributes) or a DcnPortDevice pair on a PointToPointChannel (fast):
     * same rate, delay and MTU.
     */
    NetDeviceContainer MakeLink(PointToPointHelper& p2p,
                                Ptr<Node> a,
                                Ptr<Node> b,
                                DataRate rate,
                                Time delay,
                                uint16_t mtu);
    /**
     * The egress queue disc of a port from \p tch: the root queue disc of the
     * traffic-control layer (ipv4), or owned by the DcnPortDevice (fast; made
     * by the same helper, so with the same attributes).
     */
    Ptr<DcnQueueDisc> InstallPortQueue(TrafficControlHelper& tch, Ptr<NetDevice> dev);
    /** FabricMode=fast: every switch takes packets from its ports directly (after routes). */
    void EnableFastPaths();
    /**
     * After every link is made, before routes: a DcnQueueDisc on both ports of every
     * link - on a host NIC (the a side of a link with tierA < 0) m_hostQueueLimit for
     * both bands and ECN only with m_hostEcn, on a switch port m_queueLimit and m_trim,
     * everywhere m_kmin, m_kmax and m_markAtDequeue - then both IPv4 interfaces with the
     * /30 addresses \p lowerAddress(link) (a side) and the next one (b side); then
     * FinishLinks().  Refuses a zero queue limit or Kmin > Kmax (DcnOptionError naming
     * the topology's attribute).
     */
    void InstallPortQueuesAndAddresses(
        const std::function<Ipv4Address(const DcnLinkInfo&)>& lowerAddress);

    NodeContainer m_hosts;
    NodeContainer m_switches; //!< all switches, switch-index order
    uint32_t m_nTiers{1};
    std::vector<DcnLinkInfo> m_links;
    std::vector<bool> m_routed;
    uint32_t m_nWithdrawn{0};
    std::vector<std::vector<uint32_t>> m_nodeLinks; //!< by node id
    std::vector<int32_t> m_nodeTier;                //!< by node id (-2 = foreign)
    std::vector<uint32_t> m_nodeIndex;              //!< by node id: host or switch index
    std::vector<uint32_t> m_hostSwitch;             //!< by host: switch index
    std::vector<Ptr<DcnQueueDisc>> m_qdiscs;        //!< by device: [2*link + (0 a, 1 b)]
    bool m_built{false};
    // Port queues (InstallPortQueuesAndAddresses): attributes of each topology's TypeId.
    QueueSize m_queueLimit;     //!< switch port data queue
    QueueSize m_hostQueueLimit; //!< host NIC, both bands
    double m_kmin{0.2};         //!< ECN Kmin, fraction of the limit
    double m_kmax{0.8};         //!< ECN Kmax, fraction of the limit
    bool m_trim{false};         //!< trimming at switch ports
    bool m_markAtDequeue{true}; //!< ECN decision at dequeue
    bool m_hostEcn{false};      //!< ECN marking at host NICs

  private:
    struct Graph;
    /** Serialisation of data + ACK at the link's rate plus twice its delay. */
    Time LinkRtt(uint32_t linkId, uint32_t dataBytes, uint32_t ackBytes) const;
    /** Access link of a host. */
    uint32_t HostLink(uint32_t host) const;
    void BuildGraph() const;
    void Enumerate(uint32_t src, uint32_t dst, DcnPathSet& ps) const;

    std::string m_fabricMode;
    uint32_t m_slack;
    uint32_t m_maxPaths;
    std::unordered_map<std::string, uint32_t> m_linkByName;
    mutable std::shared_ptr<Graph> m_graph;
    mutable std::map<uint64_t, DcnPathSet> m_pathCache; //!< (src,dst) switch pair -> paths
};

} // namespace ns3

#endif // DCN_TOPOLOGY_BASE_H
