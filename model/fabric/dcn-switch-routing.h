/*
 * Structural forwarding for fat-tree / leaf-spine switches and hosts
 * (DESIGN.md section 3.4).
 *
 * Addressing convention (set by FatTreeHelper): host i owns 10.0.0.0 + 4*i + 1
 * on a /30 shared with its ToR port (+2), so the destination host index is
 * (dst - 10.0.0.0) >> 2, an O(1) computation.  Switch-to-switch links use
 * /30s from 10.128.0.0/9.
 *
 * Switch mode: the down route is deterministic: key = hostIndex / divisor; if
 * key - base < |downPorts| the packet leaves on downPorts[key - base].
 * Otherwise it goes up through an equal-cost group chosen by the switch's
 * ForwardingPolicy (ECMP hash, spray, ...).  After a route withdrawal
 * (FailureHelper) per-destination-ToR override groups replace the up group.
 * Host mode: everything not addressed to the host leaves on interface 1.
 *
 * Ipv4Route objects are preallocated per interface: no allocation per packet.
 */
#ifndef DCN_SWITCH_ROUTING_H
#define DCN_SWITCH_ROUTING_H

#include "forwarding-policy.h"

#include "ns3/dcn-lb-compat.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/ipv4.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

class DcnSwitchRouting : public Ipv4RoutingProtocol
{
  public:
    static TypeId GetTypeId();
    DcnSwitchRouting();
    ~DcnSwitchRouting() override;

    /** Base of the host address block (10.0.0.0). */
    static constexpr uint32_t HOST_BASE = 0x0a000000U;
    /** Base of the switch-link address block (10.128.0.0). */
    static constexpr uint32_t LINK_BASE = 0x0a800000U;
    static constexpr uint32_t NO_PORT = 0xffffffffU;

    /** Host index of an address, or NO_PORT if not a host address. */
    static uint32_t HostIndexOf(Ipv4Address a)
    {
        uint32_t v = a.Get();
        return (v - HOST_BASE) < (LINK_BASE - HOST_BASE) ? (v - HOST_BASE) >> 2 : NO_PORT;
    }

    /** Address of host i (10.0.0.0 + 4i + 1). */
    static Ipv4Address HostAddress(uint32_t i)
    {
        return Ipv4Address(HOST_BASE + 4 * i + 1);
    }

    // ---- configuration (by the topology helper) ----
    /** Host mode: everything leaves through interface \p iface. */
    void SetHostMode(uint32_t iface);
    /** Switch mode: deterministic down table. */
    void SetDownTable(uint32_t divisor, uint32_t base, const std::vector<uint32_t>& ports);
    /** Switch mode: the equal-cost up group (interface indices). */
    void SetUpGroup(const std::vector<uint32_t>& ifaces);
    /** Replace one down port (NO_PORT = withdrawn: unroutable). */
    void SetDownPort(uint32_t index, uint32_t iface);
    /** Per-destination-ToR up groups (after a withdrawal); key = hostIndex / hostsPerTor. */
    void SetUpOverrides(uint32_t hostsPerTor, const std::vector<std::vector<uint32_t>>& groups);
    void ClearUpOverrides();
    void SetForwardingPolicy(Ptr<ForwardingPolicy> policy);
    Ptr<ForwardingPolicy> GetForwardingPolicy() const;

    bool IsHost() const
    {
        return m_isHost;
    }

    /**
     * The forwarding decision for a packet, without side effects other than
     * the policy's (exposed for path walks in tests and tools).
     * \return egress interface, or NO_PORT if unroutable, or 0 if local.
     */
    uint32_t Lookup(Ptr<const Packet> p, const Ipv4Header& h, uint32_t inIf);

    uint64_t GetForwarded() const
    {
        return m_forwarded;
    }

    uint64_t GetUnroutable() const
    {
        return m_unroutable;
    }

    // ---- Ipv4RoutingProtocol ----
    Ptr<Ipv4Route> RouteOutput(Ptr<Packet> p,
                               const Ipv4Header& header,
                               Ptr<NetDevice> oif,
                               Socket::SocketErrno& sockerr) override;
    bool RouteInput(Ptr<const Packet> p,
                    const Ipv4Header& header,
                    Ptr<const NetDevice> idev,
                    DCNLB_ROUTE_CB(UnicastForwardCallback) ucb,
                    DCNLB_ROUTE_CB(MulticastForwardCallback) mcb,
                    DCNLB_ROUTE_CB(LocalDeliverCallback) lcb,
                    DCNLB_ROUTE_CB(ErrorCallback) ecb) override;
    void NotifyInterfaceUp(uint32_t interface) override;
    void NotifyInterfaceDown(uint32_t interface) override;
    void NotifyAddAddress(uint32_t interface, Ipv4InterfaceAddress address) override;
    void NotifyRemoveAddress(uint32_t interface, Ipv4InterfaceAddress address) override;
    void SetIpv4(Ptr<Ipv4> ipv4) override;
    void PrintRoutingTable(Ptr<OutputStreamWrapper> stream,
                           Time::Unit unit = Time::S) const override;

  protected:
    void DoDispose() override;

  private:
    Ptr<Ipv4Route> GetRoute(uint32_t iface);
    bool IsLocal(Ipv4Address dst) const;

    Ptr<Ipv4> m_ipv4;
    bool m_isHost{false};
    uint32_t m_hostIf{1};
    uint32_t m_divisor{1};
    uint32_t m_base{0};
    std::vector<uint32_t> m_down;
    std::vector<uint32_t> m_up;
    uint32_t m_hostsPerTor{1};
    std::vector<std::vector<uint32_t>> m_upOverride;
    std::vector<Ptr<Ipv4Route>> m_routes; //!< per interface, built lazily
    std::vector<int32_t> m_devToIf;       //!< device index -> interface (lazily)
    Ptr<ForwardingPolicy> m_policy;
    uint64_t m_forwarded{0};
    uint64_t m_unroutable{0};
    TracedCallback<Ptr<const Packet>, const Ipv4Header&> m_unroutableTrace;
};

} // namespace ns3

#endif // DCN_SWITCH_ROUTING_H
