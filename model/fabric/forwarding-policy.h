/*
 * Switch forwarding-policy seam (DESIGN.md section 3.4).
 *
 * DcnSwitchRouting resolves the destination of a packet to either one
 * deterministic down port or a group of equal-cost up ports.  In the latter
 * case it asks its ForwardingPolicy to pick one of the candidates.  The policy
 * sees the real header bytes: the IPv4 header and the IP payload (whose first
 * four bytes are the L4 source and destination ports for UDP and TCP; the UDP
 * source port is the transport's entropy value, EV).
 *
 * Adding a policy (DRILL, LetFlow, CONGA, ...): derive from ForwardingPolicy,
 * implement Select(), optionally Attach() (called once per switch, e.g. to
 * find the switch's queue discs through node->GetObject<TrafficControlLayer>()
 * for DRILL, or to allocate per-switch flowlet tables for LetFlow) and
 * AssignStreams(); register the TypeId and set FatTreeHelper's
 * "ForwardingPolicy" attribute to its TypeId name.  Select() must be O(1)
 * (or O(candidates)) and must not allocate.
 */
#ifndef DCN_FORWARDING_POLICY_H
#define DCN_FORWARDING_POLICY_H

#include "ns3/ipv4-header.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>

namespace ns3
{

class Node;

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
 * Picks one egress among equal-cost candidates.  One instance per switch.
 */
class ForwardingPolicy : public Object
{
  public:
    static TypeId GetTypeId();

    /** Called once when installed on a switch. */
    virtual void Attach(Ptr<Node> node);

    /**
     * \param p the packet (IP payload, IP header removed)
     * \param h its IPv4 header
     * \param candidates interface indices of the equal-cost egress ports
     * \param n number of candidates (>= 1)
     * \param inIf interface index the packet arrived on
     * \return index into candidates, in [0, n)
     */
    virtual uint32_t Select(Ptr<const Packet> p,
                            const Ipv4Header& h,
                            const uint32_t* candidates,
                            uint32_t n,
                            uint32_t inIf) = 0;

    /** \return number of streams used. */
    virtual int64_t AssignStreams(int64_t stream);

    /** Short name ("ecmp", "spray"). */
    virtual const char* Name() const = 0;
};

/**
 * Flow-hash ECMP: hash of (src, dst, proto, srcPort = EV, dstPort) with a
 * per-switch salt (REPS spec 2.1: "H(...) mod |nextHops|", a random salt per
 * switch so tiers decide independently).
 */
class EcmpForwardingPolicy : public ForwardingPolicy
{
  public:
    static TypeId GetTypeId();
    EcmpForwardingPolicy();

    uint32_t Select(Ptr<const Packet> p,
                    const Ipv4Header& h,
                    const uint32_t* candidates,
                    uint32_t n,
                    uint32_t inIf) override;
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

/** Random per-packet spraying over the candidates (per-switch random stream). */
class SprayForwardingPolicy : public ForwardingPolicy
{
  public:
    static TypeId GetTypeId();
    SprayForwardingPolicy();

    uint32_t Select(Ptr<const Packet> p,
                    const Ipv4Header& h,
                    const uint32_t* candidates,
                    uint32_t n,
                    uint32_t inIf) override;
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
