/*
 * Spritz source-guided switch routing (spritz spec 2.2-2.5, paper Sec. III)
 * on the forwarding seam (forwarding-policy.h), short name "spritz".
 *
 * Per packet, from real header bytes only:
 *  - destination switch: the destination host address (DcnAddressing);
 *    source switch: the source host address; hop index: the IPv4 TTL
 *    (hosts send TTL 64, spec 2.1 "hop index = TTL0 - TTL");
 *  - the DcnHeader opcode (byte 8 of the IP payload): DATA, trimmed headers
 *    included, follow the EV; ACK / NACK / probe replies too, steered by the
 *    echoed EV from the receiver's switch (ControlRoute=ev, the default: the
 *    paper's "the receiver keeps the same EV for the response"), or the
 *    default (minimal) table (ControlRoute=default, spec 2.4 [A, ref-code]);
 *  - fine-grained mode (the paper's evaluation): role ECMP1 (first switch)
 *    takes T1[EV1 mod |T1|], role ECMP2 (second switch; DF: inter-group pair
 *    still in the source group; SF: always) T2[EV2 mod |T2|], every other
 *    switch the default table; EV = UDP source port, EV1 = bits 15..8,
 *    EV2 = bits 7..0 (dcn::SpritzTables::Forward, O(1), no allocation);
 *  - coarse-grained mode (spec 2.5, optional, not evaluated in the paper):
 *    the path category travels in IPv4 DSCP bits 0x1c (our stand-in for the
 *    VLAN id, since our hosts send untagged IPv4): 0 = default table,
 *    1 = ECMP over the minimal next hops, 2 = the ECMP tables T1/T2 with the
 *    switch's salted 5-tuple hash.  The last ECMP-role switch (ECMP2, or
 *    ECMP1 when no ECMP2 hop follows) clears the tag.
 * Tables are static (the graph's, spec 4.3.7: no update after a failure).
 */
#ifndef DCN_SPRITZ_FORWARDING_POLICY_H
#define DCN_SPRITZ_FORWARDING_POLICY_H

#include "dcn-spritz-info.h"

#include "ns3/forwarding-policy.h"
#include "ns3/traced-callback.h"

namespace ns3
{

class DcnSpritzForwardingPolicy : public EcmpForwardingPolicy
{
  public:
    enum Mode
    {
        FINE,  //!< EV1/EV2 index the ECMP tables (paper's evaluation)
        COARSE //!< path category in DSCP, hash within the table (spec 2.5)
    };

    enum ControlRoute
    {
        CTRL_DEFAULT, //!< ACK/NACK on the default table (spec 2.4 [A, ref-code])
        CTRL_EV       //!< ACK/NACK steered by their echoed EV like data (Sec. IV: "the
                      //!< receiver keeps the same EV for the response")
    };

    /** DSCP bits of the coarse-mode category (ToS byte). */
    static constexpr uint8_t TOS_CATEGORY_MASK = 0x1c;
    static constexpr uint8_t TOS_CATEGORY_SHIFT = 2;

    static TypeId GetTypeId();
    DcnSpritzForwardingPolicy();
    ~DcnSpritzForwardingPolicy() override;

    void AttachTopology(const DcnTopology& topology, uint32_t switchIndex) override;
    uint32_t Select(DcnForwardingContext& ctx) override;
    std::string CheckTopology(const DcnTopology& topology) const override;

    const char* Name() const override
    {
        return "spritz";
    }

    /** Packets steered by EV1 / EV2 / default table / control (tests, stats). */
    uint64_t GetSteered(uint32_t role) const
    {
        return role < 4 ? m_count[role] : 0;
    }

    typedef void (*RoleTracedCallback)(uint32_t sw, uint16_t ev, uint8_t role, uint32_t iface);

  protected:
    /** Set by DcnValiantTablesForwardingPolicy: a fresh uniform draw per packet and switch
     *  replaces the packet's EV (null: the packet's EV steers, as Spritz does). */
    Ptr<UniformRandomVariable> m_draw;

  private:
    uint32_t Coarse(DcnForwardingContext& ctx,
                    uint32_t src,
                    uint32_t dst,
                    dcn::SpritzRole role,
                    uint8_t category);

    Mode m_mode;
    ControlRoute m_ctrl;
    Ptr<DcnSpritzInfo> m_info;
    uint32_t m_self{0xffffffffU};
    uint64_t m_count[4]{0, 0, 0, 0};
    TracedCallback<uint32_t, uint16_t, uint8_t, uint32_t> m_roleTrace;
};

/**
 * Valiant as the Spritz paper's baseline (spritz spec 4.2, review s43 S5): "at each
 * switch where misrouting is still allowed, pick the next hop uniformly and
 * independently; use the same candidate sets as T1/T2, then route minimally".  The
 * Spritz tables' forwarding with a uniform random index into T1 at the source switch
 * and into T2 at the second switch, drawn per packet at each (so paths through the
 * source switch's own global links are likelier, and the minimal path can be drawn);
 * every other switch routes minimally.  Registered as switch policy / --routing
 * "valiant-t"; Dragonfly and Slim Fly presets only (the Spritz tables).  Fine mode
 * only (Mode is not read).  ns3::DcnValiantForwardingPolicy ("valiant") stays the
 * uniform-per-intermediate-group Valiant.  Randomness: one stream per switch.
 */
class DcnValiantTablesForwardingPolicy : public DcnSpritzForwardingPolicy
{
  public:
    static TypeId GetTypeId();
    DcnValiantTablesForwardingPolicy();
    ~DcnValiantTablesForwardingPolicy() override;

    int64_t AssignStreams(int64_t stream) override;

    const char* Name() const override
    {
        return "valiant-t";
    }
};

} // namespace ns3

#endif // DCN_SPRITZ_FORWARDING_POLICY_H
