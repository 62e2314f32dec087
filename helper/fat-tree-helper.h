/*
 * Fat-tree / leaf-spine topology builder (DESIGN.md section 3.6).
 *
 * Tiers: T0 = ToR/leaf, T1 = aggregation (3 tiers) or spine (2 tiers),
 * T2 = core (3 tiers).  Hosts have tier -1.
 *
 *  2 tiers: NumTors ToRs with HostsPerTor hosts and UplinksPerTor uplinks each;
 *           UplinksPerTor spines, one link from every ToR to every spine.
 *  3 tiers: NumPods pods of TorsPerPod ToRs; each ToR has UplinksPerTor
 *           uplinks, one to each of the pod's UplinksPerTor aggregation
 *           switches; aggregation switch a of every pod has AggUplinks uplinks,
 *           to cores a*AggUplinks .. a*AggUplinks+AggUplinks-1 (so there are
 *           UplinksPerTor*AggUplinks cores with NumPods ports each).
 *  Oversubscription at the ToR is HostsPerTor:UplinksPerTor, at the
 *  aggregation layer TorsPerPod:AggUplinks.
 *
 * Addresses: DcnAddressing (host i = 10.0.0.0 + 4i + 1, /30 with its ToR
 * port at +2; switch-switch link j = 10.128.0.0 + 4j + {1 lower, 2 upper}).
 * Tables (DcnSwitchRouting, linear in ports): ToR = its hosts + a default
 * entry with the uplinks; spine = one key per ToR; aggregation = one key per
 * ToR of its pod + default uplinks; core = one key per pod.  After a link
 * withdrawal every switch gets one key per destination ToR, listing only the
 * ports that still reach it (valley-free).
 * Path enumeration, base RTT (slow links included) and hop counts come from
 * DcnTopologyBase (Boost.Graph over the built links).
 * Link ids: host i's link is link i; then ToR uplinks (tor-major), then
 * aggregation uplinks (3 tiers).
 *
 * Switch latency is folded into the link delays (no extra events): every
 * switch-switch link has LinkDelay + SwitchLatency, every host link
 * LinkDelay + SwitchLatency/2, which makes every host-to-host path exactly
 * (links x LinkDelay) + (switches x SwitchLatency).
 */
#ifndef DCN_FAT_TREE_HELPER_H
#define DCN_FAT_TREE_HELPER_H

#include "ns3/data-rate.h"
#include "ns3/dcn-switch-routing.h"
#include "ns3/dcn-topology-base.h"
#include "ns3/ipv4-routing-helper.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue-size.h"
#include "ns3/random-variable-stream.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{

class DcnQueueDisc;
class PointToPointHelper;

/** Ipv4RoutingHelper installing DcnSwitchRouting (configured later by FatTreeHelper). */
class DcnSwitchRoutingHelper : public Ipv4RoutingHelper
{
  public:
    DcnSwitchRoutingHelper* Copy() const override;
    Ptr<Ipv4RoutingProtocol> Create(Ptr<Node> node) const override;
};

class FatTreeHelper : public DcnTopologyBase
{
  public:
    static TypeId GetTypeId();
    FatTreeHelper();
    ~FatTreeHelper() override;

    /**
     * A 2-tier fat tree (leaf-spine): \p tors ToRs of \p hostsPerTor hosts, each with
     * \p uplinksPerTor uplinks, one to each of as many spines; every other attribute at
     * its default (set more with SetAttribute before Build()).
     */
    static Ptr<FatTreeHelper> TwoTier(uint32_t tors, uint32_t hostsPerTor, uint32_t uplinksPerTor);
    /**
     * A 3-tier fat tree: \p pods pods of \p torsPerPod ToRs of \p hostsPerTor hosts; a
     * ToR has \p uplinksPerTor uplinks (one per aggregation switch of its pod), an
     * aggregation switch \p aggUplinks uplinks to the core; other attributes default.
     */
    static Ptr<FatTreeHelper> ThreeTier(uint32_t pods,
                                        uint32_t torsPerPod,
                                        uint32_t hostsPerTor,
                                        uint32_t uplinksPerTor,
                                        uint32_t aggUplinks);
    /** REPS paper: 128 hosts, 2 tiers, 16 ToRs x 8 hosts, 8 spines (REPS spec 3.1). */
    static Ptr<FatTreeHelper> RepsPaper128();
    /** REPS paper: 128 hosts, 3 tiers, pods of 16, 4 hosts and 4 uplinks per ToR. */
    static Ptr<FatTreeHelper> RepsPaper128ThreeTier();
    /** REPS paper: 1024 hosts, 2 tiers, 32 ToRs x 32 hosts, 32 spines. */
    static Ptr<FatTreeHelper> RepsPaper1024();

    /** Before Build(): make ToR \p tor's uplink \p uplink a slow link (SlowLinkRate). */
    void AddSlowLink(uint32_t tor, uint32_t uplink);

    /** Create nodes, links, addresses, queue discs and routes. */
    void Build();

    /** Assign random streams (helper, forwarding policies, queue discs). \return streams used */
    int64_t AssignStreams(int64_t stream) override;

    // ---- structure (the rest of DcnTopology comes from DcnTopologyBase) ----
    std::string GetTopologyName() const override;
    /** Number of hosts (from the attributes; valid before Build()). */
    uint32_t GetNHosts() const override;
    NodeContainer GetSwitches(uint32_t tier) const;
    /** ToR index of the host (ToRs come first in GetAllSwitches()). */
    uint32_t GetSwitchOfHost(uint32_t host) const override;
    uint32_t GetNTors() const;
    uint32_t GetTorOfHost(uint32_t i) const;
    /** Pod of a ToR (3 tiers; 0 for 2 tiers). */
    uint32_t GetPodOfTor(uint32_t tor) const;
    /** Link id of ToR \p tor's uplink \p u. */
    uint32_t GetTorUplink(uint32_t tor, uint32_t u) const;
    /** Link id of aggregation switch \p agg's (tier-1 index) uplink \p k (3 tiers). */
    uint32_t GetAggUplink(uint32_t agg, uint32_t k) const;
    DataRate GetHostLinkRate() const override;

    // ---- paths (GetPaths, GetBaseRtt, GetHopCount: DcnTopologyBase, Boost.Graph) ----
    /** DcnTopologyBase's (from the built links); before Build() from the attributes. */
    Time GetBaseRtt(uint32_t srcHost, uint32_t dstHost, uint32_t payloadBytes) const override;
    /** DcnTopologyBase's; before Build() from the structure. */
    uint32_t GetHopCount(uint32_t srcHost, uint32_t dstHost) const override;
    /**
     * MPI partition: contiguous blocks of pods (3 tiers) or ToRs/leaves (2 tiers) per
     * rank, a host with its ToR; the spines (2 tiers), aggregation and core switches
     * (3 tiers) spread evenly by index.  Build() creates the nodes with these system
     * ids for SystemCount ranks.
     */
    uint32_t GetSystemId(Ptr<Node> n, uint32_t nRanks) const override;
    /**
     * Largest useful rank count: the number of ToRs (2 tiers) or pods (3 tiers);
     * SystemCount above it is refused.
     */
    uint32_t GetMaxSystemCount() const;
    /** Number of equal-cost shortest paths (from the structure). */
    uint32_t CountPaths(uint32_t srcHost, uint32_t dstHost) const;
    /** Every shortest path as a list of link ids, from the structure (small trees/tests). */
    std::vector<std::vector<uint32_t>> GetPathLinks(uint32_t srcHost, uint32_t dstHost) const;

    // ---- route withdrawal (FailureHelper) ----
    /** Mark a link as withdrawn from / restored to routing and recompute affected tables. */
    void SetLinkRouted(uint32_t linkId, bool routed) override;

    /**
     * Refuse attribute values that no checker can express (sizes above the topology
     * limits, zero rates, an unknown Routing or ForwardingPolicy, SystemCount) with a
     * DcnOptionError naming the attribute.  Build() calls it; an example calls it before
     * its first run.
     */
    void Validate() const;
    /**
     * The TypeId of a ForwardingPolicy attribute value: a short name (ecmp, spray, ...),
     * a ns3::DcnForwardingPolicy subclass, or a pre-prefix name (ns3::EcmpForwardingPolicy).
     * False if it names none of these.
     */
    static bool LookupForwardingPolicy(const std::string& value, TypeId* tid);

  protected:
    void DoDispose() override;

  private:
    std::string NodeName(Ptr<Node> n, int32_t tier) const;
    uint32_t AddLink(PointToPointHelper& p2p,
                     Ptr<Node> a,
                     Ptr<Node> b,
                     int32_t tierA,
                     int32_t tierB,
                     DataRate rate,
                     Time delay,
                     bool hostLink);
    Ipv4Address AddrOfLinkLower(uint32_t linkId) const;
    /** System id of node idx of tier (-1: host) for nRanks ranks (GetSystemId). */
    uint32_t SystemIdOf(int32_t tier, uint32_t idx, uint32_t nRanks) const;
    /** Create n nodes of tier (-1: hosts) into c, with their system ids. */
    void CreateNodes(NodeContainer& c, int32_t tier, uint32_t n) const;
    void InstallRoutes();
    void InstallTables();
    void UpdateRoutes();
    bool DownReach(int32_t tier, uint32_t idx, uint32_t tor) const;
    bool Reach(int32_t tier, uint32_t idx, uint32_t tor) const;
    std::vector<uint32_t> LinkPath(uint32_t src, uint32_t dst, uint32_t a, uint32_t k) const;

    // attributes
    uint32_t m_tiers;
    uint32_t m_numTors;
    uint32_t m_hostsPerTor;
    uint32_t m_uplinksPerTor;
    uint32_t m_torsPerPod;
    uint32_t m_numPods;
    uint32_t m_aggUplinks;
    DataRate m_hostRate;
    DataRate m_fabricRate;
    DataRate m_coreRate;
    Time m_linkDelay;
    Time m_switchLatency;
    uint32_t m_mtu;
    std::string m_policyType;
    std::string m_routing;
    double m_slowFraction;
    DataRate m_slowRate;
    uint32_t m_systemCount;

    // state (nodes, links, queue discs, withdrawn links: DcnTopologyBase)
    Ptr<UniformRandomVariable> m_rng;
    std::vector<std::pair<uint32_t, uint32_t>> m_slowRequests;
    NodeContainer m_sw[3];
    std::vector<std::vector<uint32_t>> m_torUp; //!< [tor][u] link id
    std::vector<std::vector<uint32_t>> m_aggUp; //!< [agg][k] link id
    std::vector<Ptr<DcnSwitchRouting>> m_swRouting[3];
    uint32_t m_nSwitchLinks{0}; //!< switch-to-switch links so far (addressing)
};

} // namespace ns3

#endif // DCN_FAT_TREE_HELPER_H
