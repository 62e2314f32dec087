/*
 * Switch forwarding-policy seam (DESIGN.md section 3.4).
 *
 * DcnSwitchRouting resolves the destination of a packet (DcnAddressing: host
 * index from the destination address, O(1)) to one table entry: a list of
 * minimal candidate egress ports and, where the topology builder installed
 * them, non-minimal candidates.  It then hands the switch's ForwardingPolicy a
 * DcnForwardingContext and forwards on the interface the policy returns.
 *
 * The context carries everything a switch-resident load balancer needs:
 *  - ingress interface, destination host index and the table key;
 *  - the minimal and non-minimal candidates (pointer + count into the switch
 *    table, no copy);
 *  - hops so far: switches crossed before this one, from the IPv4 TTL (hosts
 *    send with TTL 64 = DcnAddressing::INITIAL_TTL; hops = 64 - TTL);
 *  - the egress queues' occupancy: QueueBytes(iface) / QueuePackets(iface) of
 *    any port's DcnQueueDisc (both bands), Queue(iface) for the data band;
 *  - the packet (IP payload, real bytes) and its IPv4 header, both readable
 *    for free and writable on request: MutablePacket() / MutableHeader()
 *    make one private copy at first use, which the switch then forwards.
 *
 * How the algorithms of the later issues are expressed (one class each):
 *  - Minimal: return a minimal candidate (ECMP below).
 *  - Valiant: at hops == 0 draw an intermediate (e.g. a non-minimal candidate,
 *    or an intermediate group written into a header extension through
 *    MutablePacket()); later switches read it back and route toward it.
 *  - UGAL-L: compare QueueBytes() of the best minimal and non-minimal
 *    candidates (weighted by path length) at hops == 0, pick one.
 *  - Source routing by anchors: read the anchor list and pointer from the
 *    transport's header extension, advance the pointer in place through
 *    MutablePacket() when this switch is the current anchor, and route toward
 *    the anchor with a per-switch port map built in AttachTopology().
 *  - Spritz EV1/EV2 roles: at hops 0 and 1 pick the candidate indexed by the
 *    EV1 / EV2 bytes of the UDP source port, afterwards ECMP.
 *  - DRILL: sample d random candidates plus the last best, keep the one with
 *    the smallest QueueBytes() (per-switch memory in the policy object).
 *  - LetFlow: per-switch flowlet table indexed by the flow hash (allocated in
 *    Attach()), a new random candidate when the gap exceeds the timeout.
 *  - CONGA: the source leaf (hops == 0) writes its choice and the path
 *    congestion field into the overlay header via MutablePacket(); each hop
 *    updates the field with its egress queue's metric; the destination leaf
 *    reads it and piggybacks feedback (AttachTopology() tells the leaf id).
 * The test suite "dcn-lb-fabric-policy" implements a header-rewriting policy
 * and a shortest-queue policy against this context.
 *
 * Adding a policy: derive from DcnForwardingPolicy, implement Select(),
 * optionally Attach() / AttachTopology() and AssignStreams(); register the
 * TypeId (ns3::Dcn... prefix) and set the topology builder's
 * "ForwardingPolicy" attribute to its TypeId name.  Select() must be O(1) or
 * O(candidates) and must not allocate (MutablePacket() copies the packet once,
 * use it only when the algorithm rewrites bytes).
 */
#ifndef DCN_FORWARDING_POLICY_H
#define DCN_FORWARDING_POLICY_H

#include "ns3/ipv4-header.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class Node;
class DcnQueueDisc;
class DcnSwitchRouting;
class DcnTopology;

/** Fields of a packet's flow key, read from real header bytes. */
struct DcnFlowKey
{
    uint32_t src{0};
    uint32_t dst{0};
    uint8_t proto{0};
    uint16_t srcPort{0}; //!< UDP/TCP source port (UDP: the entropy value)
    uint16_t dstPort{0};

    /** Fill from the IPv4 header and the first four bytes of the IP payload. */
    static DcnFlowKey FromPacket(Ptr<const Packet> p, const Ipv4Header& h);
};

/** 64-bit finaliser (murmur3 fmix64): fast, full avalanche. */
inline uint64_t
DcnMix64(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
}

/** Hash of a flow key with a salt (used by ECMP; exposed for tests and tools). */
inline uint64_t
DcnFlowHash(const DcnFlowKey& k, uint64_t salt)
{
    uint64_t h = DcnMix64(((uint64_t(k.src) << 32) | k.dst) ^ salt);
    h = DcnMix64(h ^ ((uint64_t(k.srcPort) << 32) | (uint64_t(k.dstPort) << 16) | k.proto) ^
                 (salt * 0x9e3779b97f4a7c15ULL));
    return h;
}

/** Map a 64-bit hash uniformly to [0, n) without a division. */
inline uint32_t
DcnHashToIndex(uint64_t h, uint32_t n)
{
    return static_cast<uint32_t>(((h >> 32) * uint64_t(n)) >> 32);
}

/**
 * What a forwarding policy sees for one packet at one switch.  Built on the
 * stack by DcnSwitchRouting per packet (no allocation).
 */
class DcnForwardingContext
{
  public:
    /** Return value of Select(): drop the packet (no route). */
    static constexpr uint32_t DROP = 0xffffffffU;
    /**
     * Return value of Select(): the policy kept the packet (held to be
     * forwarded later through DcnSwitchRouting::ForwardLater, e.g. ConWeave's
     * reorder queue, or consumed, e.g. a control packet addressed to this
     * switch).  The switch neither forwards it nor counts it unroutable.
     */
    static constexpr uint32_t TAKEN = 0xfffffffeU;

    DcnForwardingContext(Ptr<const Packet> p,
                         const Ipv4Header& h,
                         uint32_t inIf,
                         const DcnSwitchRouting* sw);

    uint32_t inIf;    //!< interface index the packet arrived on (0 = local origin)
    uint32_t dstHost; //!< destination host index (DcnAddressing::NONE if not a host)
    uint32_t dstKey;  //!< key of the table entry used (DcnAddressing::NONE = default entry)
    uint32_t hops;    //!< switches crossed before this one (DcnAddressing::INITIAL_TTL - TTL)
    const uint32_t* minimal{nullptr};    //!< minimal candidate interfaces (table order)
    uint32_t nMinimal{0};                //!< number of minimal candidates
    const uint32_t* nonMinimal{nullptr}; //!< non-minimal candidate interfaces, if installed
    uint32_t nNonMinimal{0};             //!< number of non-minimal candidates

    /** The packet as received (IP payload; the IPv4 header is separate). */
    Ptr<const Packet> GetPacket() const
    {
        return m_copy ? Ptr<const Packet>(m_copy) : m_packet;
    }

    /** The packet GetPacket returns, without a reference count round trip (per-hop readers). */
    const Packet& PacketRef() const
    {
        return m_copy ? *m_copy : *m_packet;
    }

    /** The IPv4 header (the rewritten copy once MutableHeader() was called). */
    const Ipv4Header& GetHeader() const
    {
        return m_headerCopied ? m_headerCopy : *m_header;
    }

    /** A private, writable copy of the packet (made once); the switch forwards it. */
    Ptr<Packet> MutablePacket();
    /** A writable copy of the IPv4 header (made once); the switch forwards it. */
    Ipv4Header& MutableHeader();

    bool IsPacketRewritten() const
    {
        return bool(m_copy);
    }

    bool IsHeaderRewritten() const
    {
        return m_headerCopied;
    }

    /** Bytes queued (both bands) at the egress queue disc of interface \p iface (0 if none). */
    uint32_t QueueBytes(uint32_t iface) const;
    /** Packets queued (both bands) at the egress queue disc of interface \p iface. */
    uint32_t QueuePackets(uint32_t iface) const;
    /** The egress DcnQueueDisc of interface \p iface (nullptr if none). */
    const DcnQueueDisc* Queue(uint32_t iface) const;

    /** The switch's routing protocol (table, counters). */
    const DcnSwitchRouting* GetSwitch() const
    {
        return m_sw;
    }

  private:
    Ptr<const Packet> m_packet;
    Ptr<Packet> m_copy;
    const Ipv4Header* m_header;
    Ipv4Header m_headerCopy;
    bool m_headerCopied{false};
    const DcnSwitchRouting* m_sw;
};

/**
 * Picks the egress of a packet at one switch.  One instance per switch.
 */
class ForwardingPolicy : public Object
{
  public:
    static TypeId GetTypeId();
    ForwardingPolicy();
    ~ForwardingPolicy() override;

    /** Called once when installed on a switch. */
    virtual void Attach(Ptr<Node> node);
    /**
     * Called once by the topology builder after all tables are installed:
     * the topology and this switch's index (e.g. to precompute ports toward
     * anchor switches or the leaf id for CONGA).  Default: nothing.
     */
    virtual void AttachTopology(const DcnTopology& topology, uint32_t switchIndex);

    /**
     * Choose the egress interface.  Called for every forwarded packet whose
     * table entry has at least one candidate (minimal or non-minimal).
     * \return an interface index (normally one of the candidates) or
     *         DcnForwardingContext::DROP
     */
    virtual uint32_t Select(DcnForwardingContext& ctx) = 0;

    /** \return number of streams used. */
    virtual int64_t AssignStreams(int64_t stream);

    /** Short name ("ecmp", "spray"). */
    virtual const char* Name() const = 0;

    /**
     * Whether this policy can run on \p topology: "" if it can, else one line
     * naming the policy, the topology and what is allowed (e.g. CONGA needs a
     * 2-tier leaf-spine).  Examples call it before Build()/Run to refuse
     * clearly.  Default: "" (every topology).
     */
    virtual std::string CheckTopology(const DcnTopology& topology) const;

    /**
     * Packets this policy took from the switch (Select() returned TAKEN) and then
     * dropped, e.g. ConWeave's full reorder queues: no queue disc counts them, so
     * statistics add them to the fabric drops.  Default: 0.
     */
    virtual uint64_t GetDrops() const;

    /**
     * Undo what the policy set up outside itself (e.g. CONGA's transmit hooks on the
     * switch's queue discs).  DcnSwitchRouting calls it when the policy is replaced
     * or the switch is disposed; the policy must not be used afterwards.
     * Default: nothing.
     */
    virtual void Detach();

  protected:
    /**
     * The leaf-spine check of CONGA and ConWeave: "" if \p t is a 2-tier Clos
     * (tier-0 leaves with the hosts, every switch link between tier 0 and tier 1,
     * at most \p maxUplinks switch links per leaf); else \p what followed by the
     * reason (one line).
     */
    static std::string CheckLeafSpine(const DcnTopology& t,
                                      const std::string& what,
                                      uint32_t maxUplinks);

    /**
     * The check of CONGA and ConWeave as published: CheckLeafSpine() and every
     * spine linked to every leaf (laps-rail is 2-tier but not a Clos: a packet
     * there can cross a second NIC switch, which would take it for its
     * destination leaf).
     */
    static std::string CheckClos(const DcnTopology& t,
                                 const std::string& what,
                                 uint32_t maxUplinks);

    /**
     * The check of their AnyTopology generalisation: every switch with hosts
     * has at most \p maxPorts switch links (its paths are numbered in 4 bits).
     */
    static std::string CheckHostSwitchPorts(const DcnTopology& t,
                                            const std::string& what,
                                            uint32_t maxPorts);

    /**
     * Leaves of CONGA / ConWeave, per switch index: the tier-0 switches
     * (as published), or with \p anyTopology every switch with hosts.
     */
    static std::vector<bool> LeafSwitches(const DcnTopology& t, bool anyTopology);

    /** Number of switch (non-host) links of node \p n. */
    static uint32_t FabricPorts(const DcnTopology& t, Ptr<Node> n);
};

/**
 * Registered switch-side policies by short name (--lb names): "ecmp",
 * "spray", "letflow", "drill", "conga" -> their TypeId names.
 * \return the TypeId name, or "" if \p shortName is not registered.
 */
std::string DcnForwardingPolicyTypeName(const std::string& shortName);
/** The registered short names, in registration order. */
std::vector<std::string> DcnForwardingPolicyShortNames();
/**
 * Register a policy under a short name (e.g. from a user's module or
 * example, before the topology is built).  A name already registered is
 * replaced.
 */
void DcnRegisterForwardingPolicy(const std::string& shortName, const std::string& typeIdName);

/**
 * Flow-hash ECMP over the minimal candidates: hash of (src, dst, proto,
 * srcPort = EV, dstPort) with a per-switch salt (REPS spec 2.1: "H(...) mod
 * |nextHops|", a random salt per switch so tiers decide independently).
 */
class EcmpForwardingPolicy : public ForwardingPolicy
{
  public:
    static TypeId GetTypeId();
    EcmpForwardingPolicy();
    ~EcmpForwardingPolicy() override;

    uint32_t Select(DcnForwardingContext& ctx) override;
    int64_t AssignStreams(int64_t stream) override;

    const char* Name() const override
    {
        return "ecmp";
    }

    /** The salt (drawn from the random stream at first use unless set). */
    uint64_t GetSalt();
    void SetSalt(uint64_t salt);

  private:
    Ptr<UniformRandomVariable> m_rng;
    uint64_t m_salt{0};
    bool m_saltSet{false};
};

/** Random per-packet spraying over the minimal candidates (per-switch random stream). */
class SprayForwardingPolicy : public ForwardingPolicy
{
  public:
    static TypeId GetTypeId();
    SprayForwardingPolicy();
    ~SprayForwardingPolicy() override;

    uint32_t Select(DcnForwardingContext& ctx) override;
    int64_t AssignStreams(int64_t stream) override;

    const char* Name() const override
    {
        return "spray";
    }

  private:
    Ptr<UniformRandomVariable> m_rng;
};

} // namespace ns3

#endif // DCN_FORWARDING_POLICY_H
