/*
 * Switch routing policies of low-diameter topologies (issue 11; spritz spec
 * 1.1-1.2 and 4.1 baselines) on the forwarding seam (forwarding-policy.h):
 *
 *  - Minimal ("minimal"): every minimal next hop of the table, chosen by the
 *    salted flow hash of the header bytes including the EV (UDP source port);
 *    the per-switch salt is drawn from the switch's stream (= ECMP over the
 *    topology's minimal next hops).
 *  - Valiant ("valiant"): at the source switch (hops == 0) an intermediate is
 *    chosen (DcnRouteInfo: an intermediate group's nearest switch for DF, any
 *    other switch otherwise), per flow from the hash of the header bytes
 *    incl. the EV (Mode=flow, so an EV-spraying sender sprays over
 *    intermediates) or per packet from the switch's random stream
 *    (Mode=packet).  The packet then routes minimally (BFS next hops) to it
 *    and minimally to the destination.
 *  - UGAL-L ("ugal-l"): at the source switch, per packet: minimal candidate m
 *    (hash) and a random Valiant candidate v; Valiant iff q_m * h_m > q_v *
 *    h_v, q = local egress queue bytes, h = remaining hops (spritz spec 4.1);
 *    EveryHop=true re-evaluates at later hops while the packet has not
 *    detoured yet (the reference code's variant; at most one detour).
 *  - Source routing ("source"): the packet carries a list of anchor switches
 *    in a header extension; a switch routes minimally to the first anchor not
 *    yet passed, then to the destination.  See DcnReadSourceRoute.
 *
 * Loop freedom, in real bytes: a detour is carried in the IPv4 header the
 * switch rewrites (MutableHeader(); no packet copy): DSCP bit TOS_VIA (0x80)
 * = "heading to the intermediate whose switch index is the IPv4
 * Identification field", DSCP bit TOS_DETOURED (0x40) = "has detoured".
 * dcn-lb never fragments (MTU-sized packets, one datagram each), so the
 * Identification field is free.  Every switch routes a TOS_VIA packet one hop
 * closer to the intermediate (strictly decreasing BFS distance); the
 * intermediate clears TOS_VIA; afterwards the table's minimal next hops
 * (strictly decreasing) lead to the destination.  Hop bound: dist(s, I) +
 * dist(I, d) <= 2 x diameter.  Source routing: the anchor reached is derived
 * from the TTL (hops) and the distances, since every segment is minimal: no
 * rewrite.  Per packet: O(1) (Valiant, UGAL-L) or O(anchors <= 8).
 */
#ifndef DCN_ROUTING_POLICIES_H
#define DCN_ROUTING_POLICIES_H

#include "dcn-route-info.h"
#include "forwarding-policy.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/** Minimal routing: salted hash over all minimal next hops (see file comment). */
class DcnMinimalForwardingPolicy : public EcmpForwardingPolicy
{
  public:
    static TypeId GetTypeId();
    DcnMinimalForwardingPolicy();
    ~DcnMinimalForwardingPolicy() override;

    const char* Name() const override
    {
        return "minimal";
    }
};

/** Base of the detouring policies: route info, the header marks, hash picks. */
class DcnDetourPolicyBase : public EcmpForwardingPolicy
{
  public:
    static TypeId GetTypeId();
    DcnDetourPolicyBase();
    ~DcnDetourPolicyBase() override;

    /** IPv4 ToS bit: heading to the intermediate in the Identification field. */
    static constexpr uint8_t TOS_VIA = 0x80;
    /** IPv4 ToS bit: the packet has detoured (UGAL-L EveryHop: no second detour). */
    static constexpr uint8_t TOS_DETOURED = 0x40;

    void AttachTopology(const DcnTopology& topology, uint32_t switchIndex) override;
    int64_t AssignStreams(int64_t stream) override;

    /** Switch index this policy runs on. */
    uint32_t GetSwitchIndex() const
    {
        return m_self;
    }

  protected:
    /** Salted hash pick among n candidates (n >= 1). */
    uint32_t Pick(DcnForwardingContext& ctx, const uint32_t* c, uint32_t n);
    /** Minimal choice (the table's minimal candidates). */
    uint32_t Minimal(DcnForwardingContext& ctx);
    /**
     * Packets marked TOS_VIA: the next hop towards the intermediate (clearing
     * the mark at it, then minimal).  \return true if handled (\p out set).
     */
    bool FollowMark(DcnForwardingContext& ctx, uint32_t& out);
    /** Mark the packet towards \p via and return the first hop to it. */
    uint32_t Detour(DcnForwardingContext& ctx, uint32_t via);
    /** Destination switch of the packet (NONE if unknown). */
    uint32_t DstSwitch(const DcnForwardingContext& ctx) const;

    Ptr<DcnRouteInfo> m_info;
    uint32_t m_self{0xffffffffU};
    Ptr<UniformRandomVariable> m_draw; //!< per-packet draws (intermediates)
};

class DcnValiantForwardingPolicy : public DcnDetourPolicyBase
{
  public:
    static TypeId GetTypeId();
    DcnValiantForwardingPolicy();
    ~DcnValiantForwardingPolicy() override;

    uint32_t Select(DcnForwardingContext& ctx) override;

    const char* Name() const override
    {
        return "valiant";
    }

  private:
    bool m_perPacket;
    uint64_t m_flowSalt;
};

class DcnUgalForwardingPolicy : public DcnDetourPolicyBase
{
  public:
    static TypeId GetTypeId();
    DcnUgalForwardingPolicy();
    ~DcnUgalForwardingPolicy() override;

    uint32_t Select(DcnForwardingContext& ctx) override;

    const char* Name() const override
    {
        return "ugal-l";
    }

    uint64_t GetDetours() const
    {
        return m_detours;
    }

  private:
    bool m_everyHop;
    uint64_t m_bias{0};
    uint64_t m_detours{0};
};

/** A source route read from a packet: anchor switch indices (<= MAX). */
struct DcnSourceRoute
{
    static constexpr uint32_t MAX = 8;
    uint32_t n{0};
    uint32_t ptr{0}; //!< index of the first anchor still to visit, as the sender wrote it
    uint16_t anchors[MAX];
};

/**
 * Reader of the source-route header extension from the real bytes of an IP
 * payload (UDP header + DcnHeader ...).  Layout (the transport's header
 * extension of branch plat, DcnHeader with FLAG_EXT): DcnHeader flags byte
 * (offset 1 after UDP) has FLAG_EXT 0x20; the extension starts at
 * DcnHeader::DATA_SIZE (DATA headers have no EV list) with extMask (8): bit EXT_PATH_ID 0x01 ->
 * 32-bit path id; bit EXT_ROUTE 0x02 -> routeLen (8), routePtr (8), routeLen x 16-bit switch ids.
 * Only DATA packets (opcode 0) are source-routed: ACKs and NACKs echo the data packet's route,
 * which describes the other direction. \return false if the packet carries no route.  One function
 * so a switch can be pointed at another format (SetReader).
 */
bool DcnReadSourceRoute(Ptr<const Packet> ipPayload, DcnSourceRoute* route);

/** Largest prefix of an IP payload DcnReadSourceRoute reads (UDP, DATA header, extension). */
constexpr uint32_t DCN_SOURCE_ROUTE_PREFIX = 8 + 24 + 1 + 4 + 2 + 2 * DcnSourceRoute::MAX;

/**
 * DcnReadSourceRoute on bytes already copied: the first \p got bytes of the IP payload
 * (at most DCN_SOURCE_ROUTE_PREFIX are looked at), for readers that copy once.
 */
bool DcnParseSourceRoute(const uint8_t* b, uint32_t got, DcnSourceRoute* route);

/** Serialise the bytes DcnReadSourceRoute reads (tests and tools): UDP + DcnHeader + ext. */
Ptr<Packet> DcnMakeSourceRoutedPacket(uint16_t srcPort,
                                      const std::vector<uint16_t>& anchors,
                                      uint32_t payloadBytes);

class DcnSourceRouteForwardingPolicy : public DcnDetourPolicyBase
{
  public:
    typedef bool (*Reader)(Ptr<const Packet>, DcnSourceRoute*);

    static TypeId GetTypeId();
    DcnSourceRouteForwardingPolicy();
    ~DcnSourceRouteForwardingPolicy() override;

    uint32_t Select(DcnForwardingContext& ctx) override;

    const char* Name() const override
    {
        return "source";
    }

    /**
     * Hops this switch routed by the hop-indexed shortcut (SetHopIndexed: at anchor h
     * after h hops, straight to anchor h + 1 without walking the route).
     */
    uint64_t GetHopIndexedHops() const
    {
        return m_hopIndexedHops;
    }

    /** Use another header format. */
    void SetReader(Reader r)
    {
        m_reader = r;
    }

  protected:
    /** The reader in use. */
    Reader GetReader() const
    {
        return m_reader;
    }

    /** Route the packet by route r (read from it): see Select. */
    uint32_t FollowRoute(DcnForwardingContext& ctx, const DcnSourceRoute& r);

    /**
     * SetHopIndexed is on and the route's anchor h + 1 is the target if anchor h
     * is this switch (route of n anchors, ptr 0, distances as first built).
     */
    bool HopIndexable(uint32_t ptr, uint32_t n, uint32_t hops) const
    {
        return m_hopIndexed && ptr == 0 && hops + 1 < n && m_info->GetBuilds() == 1;
    }

    /** The choice towards anchor a, the route's next switch (see HopIndexable). */
    uint32_t ToNextAnchor(DcnForwardingContext& ctx, uint32_t a);

    /**
     * Routes list every switch of a loop-free path, the source switch first (LAPS,
     * laps-path-table): a packet at anchor h after h hops heads to anchor h + 1
     * without walking the route (the same choice as the walk while the distances
     * are those first built; after a routed failure or restore the walk decides).
     */
    void SetHopIndexed(bool on)
    {
        m_hopIndexed = on;
    }

  private:
    Reader m_reader{&DcnReadSourceRoute};
    bool m_hopIndexed{false};
    uint64_t m_hopIndexedHops{0}; //!< see GetHopIndexedHops
};

} // namespace ns3

#endif // DCN_ROUTING_POLICIES_H
