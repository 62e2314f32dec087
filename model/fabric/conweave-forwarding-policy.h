/*
 * ConWeave on the forwarding-policy seam (issue 14; Song et al., "Network
 * Load Balancing with In-network Reordering Support for RDMA", SIGCOMM'23),
 * wrapping lbcore::ConWeaveTxCore / ConWeaveRxCore
 * (model/lb/core/conweave-core.h).  Applicable to 2-tier leaf-spine / Clos
 * fabrics (tier 0 = leaves with the hosts, tier 1 = spines, <= 16 uplinks
 * per leaf); CheckTopology() refuses anything else with one line.
 *
 * Real bytes:
 *  - data packets (UDP/4791 with a DcnHeader DATA opcode) between leaves
 *    carry the ConWeave fields in the IPv4 Identification field, written by
 *    the source leaf (ConWeaveTag::Pack(): bit 0 = 1 ConWeave, bits 1-2 flag
 *    DATA / RTT_REQUEST / TAIL, bit 3 REROUTED, bits 4-7 path = uplink index,
 *    bits 8-15 epoch; dcn-lb never fragments, so the field is free).  Every
 *    other packet leaving a source leaf toward another leaf gets
 *    Identification 0;
 *  - control packets (RTT_REPLY, CLEAR, NOTIFY) are real 36-byte IPv4/UDP
 *    packets from the destination leaf to the flow's source host, which the
 *    source leaf consumes: UDP source port = the flow's source port,
 *    destination port 4791, then 8 bytes: 0xC0 (CONTROL_OPCODE, outside the
 *    DcnHeader opcodes, so the egress queues put it in the high band),
 *    type (1 RTT_REPLY, 2 CLEAR, 3 NOTIFY), epoch, path, the flow's
 *    destination port (2 bytes), 2 bytes 0.
 * Roles, from AttachTopology():
 *  - source leaf (packet from a host port to another leaf): ConWeaveTxCore
 *    picks the uplink (the path) and the tag;
 *  - spine: flow-hash ECMP over its candidates;
 *  - destination leaf (packet from an uplink to a local host): ConWeaveRxCore;
 *    RTT_REQUEST / TAIL -> RTT_REPLY / CLEAR, CE-marked -> NOTIFY; REROUTED
 *    packets that overtake the TAIL are kept (Select() returns TAKEN) in a
 *    bounded per-flow reorder queue and forwarded later through
 *    DcnSwitchRouting::ForwardLater, right after the TAIL or when the resume
 *    timer fires.
 * Per packet O(1) (two random samples per new epoch or reroute).
 *
 * AnyTopology=true (our generalisation, for the LAPS evaluation's Rail and
 * Dragonfly; the check otherwise also requires a Clos): every switch with hosts
 * is a ToR over all its fabric ports, a path is the source ToR's first hop among
 * the destination's minimal next hops (ConWeaveTxCore::OnData's mask), a ToR
 * that a packet only crosses forwards it like a spine.
 *
 * Over the LAPS path set (DcnConWeaveLapsForwardingPolicy, switch policy
 * "conweave-laps", scheme --lb=conweave-laps-paths; issue 16, as the LAPS authors'
 * artifact [A] installs path tables into ConWeave's switches): a ToR is every
 * switch with hosts, ConWeave's path of a flow is the index k of a path of its
 * ToR pair's LAPS set (DcnLapsPairTable, <= 16), sampled and rerouted by
 * ConWeaveTxCore as among uplinks, carried in the tag's 4 path bits; every later
 * switch forwards a tagged data packet by (source ToR, destination ToR, path),
 * read from its header bytes, to its egress on that path; other packets (ACKs,
 * control) go minimally.  theta_reply's base RTT adds the largest extra one-way
 * latency of the pair's paths over the shortest (our choice: an RTT_REQUEST on a
 * longer path is not late by design).  Routed failures: only the pair's valid
 * paths (no link withdrawn: DcnLapsPairTable's validity bit, from the topology's
 * LinkRouted as LapsHostTable's pids) are allowed, a flow on a path gone invalid
 * starts a new epoch on a valid one (none valid: untagged, minimal), and a tagged
 * packet already on an invalid path goes to a hashed minimal next hop at the next
 * switch, its tag kept (GetPathDiverted).
 */
#ifndef DCN_CONWEAVE_FORWARDING_POLICY_H
#define DCN_CONWEAVE_FORWARDING_POLICY_H

#include "forwarding-policy.h"
#include "laps-pair-table.h"

#include "ns3/conweave-core.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

class ConWeaveForwardingPolicy : public ForwardingPolicy
{
  public:
    static TypeId GetTypeId();
    ConWeaveForwardingPolicy();
    ~ConWeaveForwardingPolicy() override;

    void AttachTopology(const DcnTopology& topology, uint32_t switchIndex) override;
    uint32_t Select(DcnForwardingContext& ctx) override;
    int64_t AssignStreams(int64_t stream) override;
    /** The topology's shape (CheckClos, or host ports with AnyTopology) and the reorder
     *  queues' total size (leaves x ReorderQueues x ReorderQueueCapacity <=
     *  kMaxReorderSlots, allocated up front). */
    std::string CheckTopology(const DcnTopology& topology) const override;
    /** Upper bound of the reorder slots over all leaves (about 64 B each: 1 GiB). */
    static constexpr uint64_t kMaxReorderSlots = uint64_t(1) << 24;

    const char* Name() const override
    {
        return "conweave";
    }

    enum Role : uint8_t
    {
        NONE = 0,
        LEAF = 1,
        SPINE = 2,
    };

    /** Control packet types (byte 9 of the IP payload). */
    enum ControlType : uint8_t
    {
        RTT_REPLY = 1,
        CLEAR = 2,
        NOTIFY = 3,
    };

    /** First byte after the UDP header of a ConWeave control packet. */
    static constexpr uint8_t CONTROL_OPCODE = 0xC0;
    /** IP payload size of a control packet (UDP header + 8 bytes). */
    static constexpr uint32_t CONTROL_SIZE = 16;

    /** A packet kept in a reorder queue. */
    struct Held
    {
        Ptr<const Packet> packet;
        Ipv4Header header;
        uint32_t iface{0};
        int32_t inIf{-1}; //!< arrival interface (shared-buffer accounting on release)
    };

    Role GetRole() const
    {
        return m_role;
    }

    uint16_t GetLeafIndex() const
    {
        return m_leaf;
    }

    /** Leaf: uplink index (path) of an interface, or 0xffff. */
    uint16_t GetUplinkOfIf(uint32_t iface) const;
    /** Leaf: interface of uplink (path) \p u. */
    uint32_t GetIfOfUplink(uint16_t u) const;

    const lbcore::ConWeaveTxCore& GetTxCore() const
    {
        return m_tx;
    }

    const lbcore::ConWeaveRxCore<Held>& GetRxCore() const
    {
        return m_rx;
    }

    /** The flow key (table key) of a flow, as both leaves compute it. */
    static uint64_t FlowKey(Ipv4Address src, Ipv4Address dst, uint16_t sport, uint16_t dport);

    /** Control packets sent by this leaf (RTT_REPLY + CLEAR, NOTIFY). */
    uint64_t GetRepliesSent() const
    {
        return m_repliesSent;
    }

    uint64_t GetNotifiesSent() const
    {
        return m_notifiesSent;
    }

    /** Control packets consumed by this leaf as a source leaf. */
    uint64_t GetControlReceived() const
    {
        return m_controlReceived;
    }

    /** Packets forwarded untracked because their flow-table slot (source or destination
     *  leaf) was held by another live flow. */
    uint64_t GetTableConflicts() const
    {
        return m_tx.GetTableConflicts() + m_rx.GetTableConflicts();
    }

    /** Packets dropped at full reorder queues (the policy took them: no queue disc counts
     *  them). */
    uint64_t GetDrops() const override
    {
        return m_rx.GetHoldDrops();
    }

    /** Signature of "Reroute": (flow key, old path, new path, reply timeout (else inactivity)). */
    typedef void (*RerouteTracedCallback)(uint64_t key, uint8_t from, uint8_t to, bool timeout);
    /** Signature of "Release": (packets released, by resume timeout (else TAIL)). */
    typedef void (*ReleaseTracedCallback)(uint32_t packets, bool byTimeout);

    /** LAPS path set: data packets this switch forwarded by their tag's path. */
    uint64_t GetPathForwarded() const
    {
        return m_pathForwarded;
    }

    /** LAPS path set: data packets of an invalid path (a link of it withdrawn) this switch
     *  sent to a minimal next hop instead (not the source ToR). */
    uint64_t GetPathDiverted() const
    {
        return m_pathDiverted;
    }

    /** LAPS path set: egress of path k of (srcLeaf, dstLeaf) here (0xffffffff if none). */
    uint32_t GetPairPathEgress(uint16_t srcLeaf, uint16_t dstLeaf, uint16_t k);

    /** Leaf index of a host (0xffff if none). */
    uint16_t GetLeafOfHost(uint32_t host) const
    {
        return host < m_hostLeaf.size() ? m_hostLeaf[host] : uint16_t(0xffff);
    }

  protected:
    /** \param lapsPaths paths = a ToR pair's LAPS paths (see the file comment). */
    explicit ConWeaveForwardingPolicy(bool lapsPaths);
    void DoDispose() override;

  private:
    /** CheckTopology; scanPairs: also count every leaf pair's LAPS paths (LAPS mode). */
    std::string Check(const DcnTopology& topology, bool scanPairs) const;
    /** LAPS path set: a packet crossing this switch (not its source or destination ToR). */
    uint32_t SelectLapsTransit(DcnForwardingContext& ctx);
    std::string CheckTopologyShape(const DcnTopology& topology) const;
    void Configure();
    uint32_t SelectSourceLeaf(DcnForwardingContext& ctx, const uint8_t* b, bool isData);
    uint32_t SelectDestinationLeaf(DcnForwardingContext& ctx, const uint8_t* b, bool isData);
    void SendControl(Ipv4Address flowSrc,
                     Ipv4Address flowDst,
                     uint16_t sport,
                     uint16_t dport,
                     uint8_t type,
                     uint8_t epoch,
                     uint8_t path);
    void ReleaseVoq(uint16_t voq, bool byTimeout);
    void OnResumeTimer(uint16_t voq);
    int64_t BaseRttNs(uint16_t dstLeaf) const;

    // attributes
    Time m_replyExtra;
    Time m_inactive;
    Time m_pathBusy;
    Time m_resume;
    Time m_resumeExtra;
    Time m_baseRtt;
    bool m_reorder;
    bool m_anyTopology{false}; //!< leaves = host switches, transit ToRs, masked paths
    bool m_lapsPaths{false};   //!< paths = a ToR pair's LAPS paths (implies leaves = host switches)
    DcnLapsPairTable m_paths;  //!< LAPS path set: the pairs' paths at this switch
    uint64_t m_pathForwarded{0};
    uint64_t m_pathDiverted{0};
    uint32_t m_tableSize;
    uint32_t m_numVoqs;
    uint32_t m_voqCapacity;

    Role m_role{NONE};
    uint16_t m_leaf{0};
    uint16_t m_nLeaves{0};
    DcnSwitchRouting* m_sw{nullptr};
    lbcore::ConWeaveConfig m_cfg;
    lbcore::ConWeaveTxCore m_tx;
    lbcore::ConWeaveRxCore<Held> m_rx;
    std::vector<EventId> m_voqTimer;
    std::vector<uint16_t> m_hostLeaf; //!< host index -> leaf index
    std::vector<uint16_t> m_ifUplink; //!< leaf: interface -> uplink index (0xffff = none)
    std::vector<uint32_t> m_uplinkIf; //!< leaf: uplink index -> interface
    std::vector<int64_t> m_baseRttNs; //!< per destination leaf
    Ptr<UniformRandomVariable> m_rng;
    uint64_t m_salt{0};
    bool m_configured{false};
    uint64_t m_repliesSent{0};
    uint64_t m_notifiesSent{0};
    uint64_t m_controlReceived{0};
    TracedCallback<uint64_t, uint8_t, uint8_t, bool> m_rerouteTrace;
    TracedCallback<uint32_t, bool> m_releaseTrace;
    TracedCallback<Ptr<const Packet>> m_holdDropTrace;
};

/**
 * ConWeave over the LAPS path set (switch policy "conweave-laps", scheme
 * --lb=conweave-laps-paths): ConWeaveForwardingPolicy with the LAPS mode on (see its
 * file comment).  Attributes are ConWeaveForwardingPolicy's.
 */
class DcnConWeaveLapsForwardingPolicy : public ConWeaveForwardingPolicy
{
  public:
    static TypeId GetTypeId();
    DcnConWeaveLapsForwardingPolicy();
    ~DcnConWeaveLapsForwardingPolicy() override;

    const char* Name() const override
    {
        return "conweave-laps";
    }
};

} // namespace ns3

#endif // DCN_CONWEAVE_FORWARDING_POLICY_H
