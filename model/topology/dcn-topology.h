/*
 * Topology seam (DESIGN.md section 3.0).
 *
 * One interface that every helper, failure injector, workload driver and
 * statistic uses, whatever builds the network (fat tree, leaf-spine, Dragonfly,
 * Slim Fly, Rail).  A builder creates the ns-3 nodes, links, addresses, queue
 * discs and per-switch tables, and answers the structural questions below.
 *
 * Indices: hosts are 0..GetNHosts()-1 (the workload's host ids), switches are
 * 0..GetNSwitches()-1; links have ids 0..GetLinks().size()-1 and a unique name.
 */
#ifndef DCN_TOPOLOGY_H
#define DCN_TOPOLOGY_H

#include "ns3/data-rate.h"
#include "ns3/dcn-addressing.h"
#include "ns3/ipv4-address.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class DcnQueueDisc;
class DcnSwitchRouting;

/** One point-to-point link of the topology. */
struct DcnLinkInfo
{
    uint32_t id{0};
    std::string name; //!< unique, e.g. "host3-tor0", "tor0-spine1", "sw12-sw40"
    Ptr<Node> a;
    Ptr<Node> b;
    Ptr<PointToPointNetDevice> devA;
    Ptr<PointToPointNetDevice> devB;
    int32_t tierA{
        -1}; //!< level of a: -1 = host, 0 = edge switch (ToR/leaf/router), 1.. upper tiers
    int32_t tierB{0};
    uint32_t ifA{0}; //!< IPv4 interface index of devA on a
    uint32_t ifB{0};
    DataRate rate; //!< rate as built (after asymmetry)
    Time delay;    //!< channel delay (switch latency folded in, see the builder's doc)

    /**
     * "<end a>-<end b>": the name without a parallel link's "/k" suffix
     * ("leaf0-spine0/1" of hermes-testbed -> "leaf0-spine0").
     */
    std::string EndsName() const
    {
        return name.substr(0, name.find('/'));
    }
};

/** Class of a path between two switches. */
enum class DcnPathClass : uint8_t
{
    MINIMAL,    //!< a shortest path
    NONMINIMAL, //!< a longer simple path (e.g. Valiant through an intermediate group/router)
};

/** One path between two switches: the switch sequence and the links between them. */
struct DcnPath
{
    uint32_t id{0}; //!< index in its DcnPathSet
    DcnPathClass cls{DcnPathClass::MINIMAL};
    std::vector<uint32_t> switches; //!< switch indices, first = source switch, last = destination
    std::vector<uint32_t> links;    //!< link ids, links.size() == switches.size() - 1
    Time latency{0};                //!< sum of link delays (no serialisation)

    uint32_t Hops() const
    {
        return static_cast<uint32_t>(links.size());
    }
};

/** All enumerated paths of one ordered switch pair (minimal first, then non-minimal). */
struct DcnPathSet
{
    uint32_t srcSwitch{0};
    uint32_t dstSwitch{0};
    uint32_t nMinimal{0}; //!< paths[0, nMinimal) are minimal
    std::vector<DcnPath> paths;
};

class DcnTopology : public Object
{
  public:
    static TypeId GetTypeId();
    ~DcnTopology() override;

    /** Short name of the builder and preset, e.g. "fat-tree". */
    virtual std::string GetTopologyName() const = 0;

    // ---- hosts ----
    virtual uint32_t GetNHosts() const = 0;
    virtual NodeContainer GetHosts() const = 0;
    virtual Ipv4Address GetHostAddress(uint32_t host) const = 0;
    /** Host index of an address (DcnAddressing::NONE = DcnSwitchRouting::NO_PORT if none). */
    virtual uint32_t GetHostIndex(Ipv4Address a) const = 0;
    /** Rate of a host's access link. */
    virtual DataRate GetHostLinkRate() const = 0;

    // ---- switches ----
    virtual uint32_t GetNSwitches() const = 0;
    virtual NodeContainer GetAllSwitches() const = 0;
    /** Switch index (in GetAllSwitches() order) a host is attached to. */
    virtual uint32_t GetSwitchOfHost(uint32_t host) const = 0;
    /** Switch routing protocol of a switch or host node. */
    virtual Ptr<DcnSwitchRouting> GetRouting(Ptr<Node> n) const = 0;
    /** Tier of a node (-1 host, 0.. switch tiers). */
    virtual int32_t GetTierOfNode(Ptr<Node> n) const = 0;

    // ---- links ----
    virtual const std::vector<DcnLinkInfo>& GetLinks() const = 0;
    virtual const DcnLinkInfo& GetLink(uint32_t id) const = 0;
    /** Link ids attached to a node. */
    virtual const std::vector<uint32_t>& GetLinksOfNode(Ptr<Node> n) const = 0;
    virtual Ptr<DcnQueueDisc> GetQueueDisc(Ptr<NetDevice> dev) const = 0;
    /**
     * Link id of the link named \p name (DcnLinkInfo::name), or
     * DcnAddressing::NONE if there is none.  Default: a linear search.
     */
    virtual uint32_t FindLink(const std::string& name) const;

    // ---- build state and structure ----
    /** True once the builder created nodes, links and tables.  Default: true. */
    virtual bool IsBuilt() const;
    /** Number of switch tiers/levels (tiers 0..n-1).  Default: 1 + the largest link tier. */
    virtual uint32_t GetNTiers() const;

    // ---- paths ----
    /** Unloaded RTT of one data packet of payloadBytes and its ACK (slow links included). */
    virtual Time GetBaseRtt(uint32_t srcHost, uint32_t dstHost, uint32_t payloadBytes) const = 0;
    /** Links on a shortest host-to-host path. */
    virtual uint32_t GetHopCount(uint32_t srcHost, uint32_t dstHost) const = 0;
    /** Enumerated switch-to-switch paths (computed once, cached). */
    virtual const DcnPathSet& GetPaths(uint32_t srcSwitch, uint32_t dstSwitch) const = 0;
    /**
     * Unloaded RTT of one data packet of payloadBytes and its ACK between two
     * hosts when the switch part follows \p path (a path of
     * GetPaths(GetSwitchOfHost(src), GetSwitchOfHost(dst))): per link, the
     * serialisation of both packets at the link's built rate plus twice its
     * delay.  Default: DcnAddressing-independent, from GetLinks().
     */
    virtual Time GetPathRtt(uint32_t srcHost,
                            uint32_t dstHost,
                            const DcnPath& path,
                            uint32_t payloadBytes) const;
    /**
     * The largest bandwidth-delay product of any host pair, in bytes (rounded down): the
     * "unified window" that HPCC's simulator and the LAPS authors' descendant of it give
     * every RoCE flow (enableWindow / enableUnifiedWindow; doc/laps.rst "The authors'
     * simulator").  A pair's path is a hop-count shortest one (the first minimal path of
     * GetPaths between the hosts' switches, plus both access links); its RTT is, per link,
     * twice the delay plus the serialisation of one \p frameBytes frame at the link's rate
     * (no ACK: their formula), its bandwidth the path's slowest link.  laps-rail with
     * 1048-B frames: 155,240 B; laps-df: 130,240 B.  O(hosts^2) after the paths of the
     * hosts' switch pairs.
     */
    uint64_t GetMaxHostPairBdp(uint32_t frameBytes) const;

    // ---- routing reaction (FailureHelper) ----
    /** Withdraw (routed = false) or restore a link's routes; fires LinkRouted on a change. */
    virtual void SetLinkRouted(uint32_t linkId, bool routed) = 0;
    virtual bool IsLinkRouted(uint32_t linkId) const = 0;

    /** Signature of the LinkRouted trace: link id, routed after the change. */
    typedef void (*LinkRoutedCallback)(uint32_t linkId, bool routed);

    // ---- distributed simulation ----
    /** MPI system id of a node for nRanks ranks (a contiguous block of pods/groups per rank). */
    virtual uint32_t GetSystemId(Ptr<Node> n, uint32_t nRanks) const = 0;

    /** Assign random streams. \return streams used */
    virtual int64_t AssignStreams(int64_t stream) = 0;

  protected:
    /** Fired by SetLinkRouted implementations after a link's routes changed. */
    TracedCallback<uint32_t, bool> m_linkRouted;
};

} // namespace ns3

#endif // DCN_TOPOLOGY_H
