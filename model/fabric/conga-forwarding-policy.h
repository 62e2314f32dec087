/*
 * CONGA on the forwarding-policy seam (issue 14; Alizadeh et al., SIGCOMM'14),
 * wrapping lbcore::CongaLeafCore (model/lb/core/conga-core.h).  Applicable to
 * 2-tier leaf-spine / Clos fabrics (tier 0 = leaves with the hosts, tier 1 =
 * spines, every switch link leaf-spine, <= 16 uplinks per leaf);
 * CheckTopology() refuses anything else with one line.
 *
 * Overlay header in real bytes: the 16-bit IPv4 Identification field carries
 * the CONGA fields (CongaTag::Pack(): LBTag 4 | CE 3 | FB_LBTag 4 |
 * FB_Metric 3 | FB valid 1) with bit 0 = 1 marking a CONGA overlay (our
 * choice instead of VXLAN; dcn-lb packets are never fragmented, so the field
 * is free in the fabric).  Roles, from AttachTopology():
 *  - source leaf (packet from a host port to another leaf): once per flowlet
 *    the uplink minimising max(local DRE, Congestion-To-Leaf[dst][uplink])
 *    (flowlet table on the salted 5-tuple hash, EV included); writes LBTag =
 *    uplink, CE = that uplink's DRE metric, and piggy-backs feedback for the
 *    destination leaf from its Congestion-From-Leaf table (FillFeedback);
 *  - spine: ECMP over its candidates (one per leaf in a leaf-spine), then
 *    CE = max(CE, DRE metric of the chosen egress);
 *  - destination leaf (packet from an uplink): Congestion-From-Leaf[src
 *    leaf][LBTag] = CE and, if the feedback bit is set, Congestion-To-Leaf[src
 *    leaf][FB_LBTag] = FB_Metric (OnArrival).
 * DREs (one per leaf uplink, one per spine port) are fed at transmission by
 * the egress DcnQueueDisc's transmit hook (SetTransmitHook: every item as it
 * leaves for the link), which also applies CE = max(CE, DRE metric) to the
 * overlay of that item at that moment, as CONGA updates CE at egress
 * (Sec. 3.3).  DREs are normalised by the link's built rate (a run-time
 * degrade is not seen as a smaller capacity).
 * Per packet O(uplinks) at a source leaf on a new flowlet (<= 16), else O(1).
 *
 * Without AnyTopology a 2-tier fabric must also be a Clos (every spine linked
 * to every leaf): laps-rail is 2-tier, but a packet there can cross a second
 * NIC switch, which would read it as its destination.
 *
 * AnyTopology=true (our generalisation, for the LAPS evaluation's Rail and
 * Dragonfly): every switch with hosts is a leaf over all its fabric ports; the
 * source leaf chooses only among the destination's minimal next hops
 * (CongaLeafCore::ChooseUplink's mask), a leaf that is neither source nor
 * destination of a packet forwards it like a spine (hash over the minimal next
 * hops), and every fabric egress raises CE.  On a leaf-spine this is CONGA
 * except while a link is down (the choice is then among the remaining next
 * hops instead of a hashed fallback).
 *
 * Over the LAPS path set (DcnCongaLapsForwardingPolicy, switch policy
 * "conga-laps", scheme --lb=conga-laps-paths; issue 16): the LAPS authors'
 * artifact [A] installs its path tables into CONGA's switches too
 * (install_LB_table), so CONGA there chooses among paths, not uplinks.  Here
 * every switch with hosts is a leaf (as AnyTopology); the source leaf picks,
 * once per flowlet, the path k of its leaf pair's LAPS set
 * (dcn::MinimalRouting::LapsPaths(source switch, destination switch), the set
 * LapsHostTable sprays over; <= 16, CheckTopology refuses more) minimising
 * max(local DRE of k's first uplink, Congestion-To-Leaf[dst leaf][k]) (among
 * all valid paths, or with PathSamples = s among s consecutive ones from a
 * uniform start as [A]; ties per TiesPreferCurrent; feedback entry per
 * FeedbackChoice), and
 * writes LBTag = k in the overlay (IPv4 Identification, as above).  Every
 * later switch forwards by the real bytes (source address -> source leaf,
 * destination address -> destination leaf, LBTag -> path k of that pair's
 * set, which a simple path crosses at most once: the egress towards the next
 * switch of k), as [A]'s switches look the path up in their installed table;
 * the egress hooks raise CE at every fabric port; the destination leaf
 * records Congestion-From-Leaf[src leaf][k] and feeds it back as CONGA does.
 * No payload byte changes.  A pair's paths are built once per switch on its
 * first packet (O(paths x path length)); per packet O(1), O(paths) at the
 * source leaf on a new flowlet.  Routed failures: a path with a withdrawn link
 * is invalid (DcnLapsPairTable's validity bit, from the topology's LinkRouted
 * as LapsHostTable's pids); the source leaf chooses valid paths only (none:
 * untagged, minimal), and a packet already on an invalid path goes to a
 * hashed minimal next hop at the next switch (GetPathDiverted).
 */
#ifndef DCN_CONGA_FORWARDING_POLICY_H
#define DCN_CONGA_FORWARDING_POLICY_H

#include "forwarding-policy.h"
#include "laps-pair-table.h"

#include "ns3/conga-core.h"
#include "ns3/nstime.h"
#include "ns3/queue-item.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

class DcnQueueDisc;

class CongaForwardingPolicy : public ForwardingPolicy
{
  public:
    static TypeId GetTypeId();
    CongaForwardingPolicy();
    ~CongaForwardingPolicy() override;

    void AttachTopology(const DcnTopology& topology, uint32_t switchIndex) override;
    uint32_t Select(DcnForwardingContext& ctx) override;
    int64_t AssignStreams(int64_t stream) override;
    std::string CheckTopology(const DcnTopology& topology) const override;
    /** Remove the transmit hooks this policy set on its switch's queue discs. */
    void Detach() override;

    const char* Name() const override
    {
        return "conga";
    }

    /** Queue discs that currently call this policy at transmission. */
    uint32_t GetHookedQueues() const
    {
        return static_cast<uint32_t>(m_hooks.size());
    }

    /** Role of this switch. */
    enum Role : uint8_t
    {
        NONE = 0,
        LEAF = 1,
        SPINE = 2,
    };

    Role GetRole() const
    {
        return m_role;
    }

    /** Leaf only: the core (tables, DREs) for inspection. */
    lbcore::CongaLeafCore& GetCore()
    {
        return m_core;
    }

    /** The DRE that the egress hook of interface \p iface feeds (a leaf's uplink or a
     *  spine port; nullptr if none), for inspection and tests. */
    lbcore::CongaDre* GetEgressDre(uint32_t iface);

    /** Leaf only: uplink index (LBTag) of an interface, or 0xffff. */
    uint16_t GetUplinkOfIf(uint32_t iface) const;

    /** Leaf index of this switch (leaf role). */
    uint16_t GetLeafIndex() const
    {
        return m_leaf;
    }

    /** Packets whose feedback fields were read at this leaf (FB valid). */
    uint64_t GetFeedbackReceived() const
    {
        return m_fbReceived;
    }

    /** Marker bit of the overlay in the IPv4 Identification field. */
    static constexpr uint16_t OVERLAY_BIT = 0x1;

    /** Signature of "Feedback": (source leaf, LBTag, metric) read at a destination leaf. */
    typedef void (*FeedbackTracedCallback)(uint16_t srcLeaf, uint8_t lbTag, uint8_t metric);

    /** Signature of "PathChoice": a source leaf's new flowlet to a leaf takes path (LBTag). */
    typedef void (*PathChoiceTracedCallback)(uint16_t dstLeaf, uint8_t path);

    /** Most paths of a leaf pair over the LAPS path set (4-bit LBTag). */
    static constexpr uint16_t MAX_PATHS = DcnLapsPairTable::MAX_PATHS;

    /** LAPS path set: whether this policy chooses among a leaf pair's LAPS paths. */
    bool IsLapsPaths() const
    {
        return m_lapsPaths;
    }

    /** LAPS path set: leaf index of a host (0xffff if none). */
    uint16_t GetLeafOfHost(uint32_t host) const
    {
        return host < m_hostLeaf.size() ? m_hostLeaf[host] : NO_LEAF;
    }

    /** LAPS path set: paths of (srcLeaf, dstLeaf) as this switch knows them (built on
     *  first use; 0 if none or not the LAPS mode). */
    uint32_t GetPairPathCount(uint16_t srcLeaf, uint16_t dstLeaf);

    /** LAPS path set: egress interface of path k of (srcLeaf, dstLeaf) at this switch
     *  (0xffffffff if the path does not leave from here). */
    uint32_t GetPairPathEgress(uint16_t srcLeaf, uint16_t dstLeaf, uint16_t k);

    /** LAPS path set: packets this switch forwarded by a path's LBTag (not source leaf). */
    uint64_t GetPathForwarded() const
    {
        return m_pathForwarded;
    }

    /** LAPS path set: packets of an invalid path (a link of it withdrawn) this switch sent
     *  to a minimal next hop instead (not source leaf). */
    uint64_t GetPathDiverted() const
    {
        return m_pathDiverted;
    }

    static constexpr uint16_t NO_LEAF = 0xffff;

    /** Which Congestion-From-Leaf entry a packet carries as feedback (attribute
     *  FeedbackChoice of DcnCongaLapsForwardingPolicy; CongaConfig::feedbackRandom). */
    enum FeedbackChoice
    {
        FEEDBACK_ROUND_ROBIN, //!< round robin, changed entries first (CONGA Sec. 3.4)
        FEEDBACK_RANDOM       //!< uniform among the reverse pair's paths (LAPS authors' [A])
    };

  protected:
    /** \param lapsPaths choose among the LAPS paths of a leaf pair (see the file comment). */
    explicit CongaForwardingPolicy(bool lapsPaths);
    void DoDispose() override;

    /** CongaConfig::pathSamples (attribute PathSamples of DcnCongaLapsForwardingPolicy;
     *  0 = every valid path, CONGA Sec. 3.5). */
    uint32_t m_pathSamples{0};
    /** CongaConfig::tiesPreferCurrent (attribute TiesPreferCurrent of
     *  DcnCongaLapsForwardingPolicy; true = CONGA Sec. 3.5). */
    bool m_tiesPreferCurrent{true};
    /** CongaConfig::feedbackRandom (attribute FeedbackChoice of
     *  DcnCongaLapsForwardingPolicy; round robin = CONGA Sec. 3.4). */
    FeedbackChoice m_feedbackChoice{FEEDBACK_ROUND_ROBIN};

  private:
    /** CheckTopology; scanPairs: also count every leaf pair's LAPS paths (LAPS mode). */
    std::string Check(const DcnTopology& t, bool scanPairs) const;
    /** LAPS path set: Select() (see the file comment). */
    uint32_t SelectLapsPath(DcnForwardingContext& ctx);
    /** Salted flow hash over the minimal candidates. */
    uint32_t HashMinimal(DcnForwardingContext& ctx);

    void OnTransmit(uint32_t port, Ptr<QueueDiscItem> item);
    /** Set \p q's transmit hook to OnTransmit(port) and remember it (Detach()). */
    void Hook(Ptr<DcnQueueDisc> q, uint32_t port);
    void Configure();

    Time m_flowletTimeout;
    Time m_tDre;
    double m_alpha;
    uint32_t m_quantBits;
    Time m_aging;
    bool m_anyTopology{false};
    bool m_lapsPaths{false};

    Role m_role{NONE};
    uint16_t m_leaf{0};
    bool m_configured{false};
    bool m_general{false}; //!< AnyTopology: leaves = host switches, transit leaves
    lbcore::CongaConfig m_cfg;
    std::vector<double> m_uplinkBps;
    lbcore::CongaLeafCore m_core;
    std::vector<uint16_t> m_hostLeaf;        //!< host index -> leaf index
    std::vector<uint16_t> m_ifUplink;        //!< leaf: interface -> uplink index (0xffff = none)
    std::vector<uint32_t> m_uplinkIf;        //!< leaf: uplink index -> interface
    std::vector<lbcore::CongaDre> m_portDre; //!< spine: per interface
    Ptr<UniformRandomVariable> m_rng;
    uint64_t m_salt{0};
    uint64_t m_fbReceived{0};
    TracedCallback<uint16_t, uint8_t, uint8_t> m_feedbackTrace;
    /** Hooked queue discs and the hook set on each: the callback holds a raw `this`,
     *  so Detach() (policy replaced or disposed) removes every one still ours. */
    std::vector<std::pair<Ptr<DcnQueueDisc>, Callback<void, Ptr<QueueDiscItem>>>> m_hooks;
    // LAPS path set
    TracedCallback<uint16_t, uint8_t> m_pathChoiceTrace;
    DcnLapsPairTable m_paths; //!< the leaf pairs' LAPS paths at this switch
    uint64_t m_pathForwarded{0};
    uint64_t m_pathDiverted{0};
};

/**
 * CONGA over the LAPS path set (switch policy "conga-laps", scheme
 * --lb=conga-laps-paths): CongaForwardingPolicy with the LAPS mode on (see
 * its file comment).  Attributes are CongaForwardingPolicy's, and how a new
 * flowlet's candidates are taken: PathSamples (0 = all valid paths, CONGA
 * Sec. 3.5; the LAPS authors' simulator [A]: 4 consecutive paths of the pair's
 * list from a uniform start) and TiesPreferCurrent (true = CONGA Sec. 3.5;
 * [A]: false, ties uniform), and which entry the feedback carries:
 * FeedbackChoice (RoundRobin = CONGA Sec. 3.4; Random = [A], a uniform draw
 * among the reverse pair's paths on every packet).  laps-paper
 * --setup=authors sets [A]'s values.
 */
class DcnCongaLapsForwardingPolicy : public CongaForwardingPolicy
{
  public:
    static TypeId GetTypeId();
    DcnCongaLapsForwardingPolicy();
    ~DcnCongaLapsForwardingPolicy() override;

    const char* Name() const override
    {
        return "conga-laps";
    }
};

} // namespace ns3

#endif // DCN_CONGA_FORWARDING_POLICY_H
