/*
 * Addressing plan of dcn-lb topologies (DESIGN.md section 3.0).
 *
 * Every builder (fat tree, leaf-spine, Dragonfly, ...) uses this plan, so a
 * switch maps a destination address to a host index in O(1) without knowing
 * the structure:
 *  - host i owns 10.0.0.0 + 4i + 1 on a /30 shared with its edge-switch port
 *    (+2); the host index of a destination is (dst - 10.0.0.0) >> 2;
 *  - switch-to-switch link j (numbered by the builder from 0) uses the /30
 *    10.128.0.0 + 4j, lower end (+1) on its first node, upper end (+2) on the
 *    second.
 * Builders should number the hosts of one edge switch contiguously: switch
 * tables (DcnSwitchRouting) aggregate destinations by blocks of host indices.
 *
 * Hosts send with the IPv4 default TTL (Ipv4L3Protocol::DefaultTtl, 64, which
 * dcn-lb never changes); a switch therefore knows how many switches a packet
 * crossed before it from the TTL it receives: hops = INITIAL_TTL - ttl.
 */
#ifndef DCN_ADDRESSING_H
#define DCN_ADDRESSING_H

#include "ns3/ipv4-address.h"

#include <cstdint>

namespace ns3
{

struct DcnAddressing
{
    /** Base of the host address block (10.0.0.0/9). */
    static constexpr uint32_t HOST_BASE = 0x0a000000U;
    /** Base of the switch-link address block (10.128.0.0/9). */
    static constexpr uint32_t LINK_BASE = 0x0a800000U;
    /** "No such host / port". */
    static constexpr uint32_t NONE = 0xffffffffU;
    /** Largest number of hosts (and of switch links) the plan can address. */
    static constexpr uint32_t MAX_HOSTS = 1U << 21;
    /** TTL every host sends with (ns-3's Ipv4L3Protocol::DefaultTtl). */
    static constexpr uint8_t INITIAL_TTL = 64;

    /** Host index of an address, or NONE if it is not in the host block. */
    static uint32_t HostIndexOf(Ipv4Address a)
    {
        uint32_t v = a.Get();
        return (v - HOST_BASE) < (LINK_BASE - HOST_BASE) ? (v - HOST_BASE) >> 2 : NONE;
    }

    /** Address of host i (10.0.0.0 + 4i + 1). */
    static Ipv4Address HostAddress(uint32_t i)
    {
        return Ipv4Address(HOST_BASE + 4 * i + 1);
    }

    /** Address of the edge-switch end of host i's link (10.0.0.0 + 4i + 2). */
    static Ipv4Address HostGatewayAddress(uint32_t i)
    {
        return Ipv4Address(HOST_BASE + 4 * i + 2);
    }

    /** Address of switch link j's lower (first node, upper=false) or upper end. */
    static Ipv4Address SwitchLinkAddress(uint32_t j, bool upper)
    {
        return Ipv4Address(LINK_BASE + 4 * j + (upper ? 2 : 1));
    }

    /** True if the address belongs to a switch-to-switch link. */
    static bool IsSwitchLinkAddress(Ipv4Address a)
    {
        return a.Get() >= LINK_BASE;
    }

    /** Switches crossed before the one that receives a packet with this TTL. */
    static uint32_t HopsFromTtl(uint8_t ttl)
    {
        return ttl <= INITIAL_TTL ? uint32_t(INITIAL_TTL - ttl) : 0;
    }
};

} // namespace ns3

#endif // DCN_ADDRESSING_H
