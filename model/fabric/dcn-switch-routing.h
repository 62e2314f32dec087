/*
 * Table-driven forwarding for dcn-lb switches and hosts (DESIGN.md section 3.4).
 *
 * The switch knows no topology structure.  A destination address is turned
 * into a host index by the addressing plan (DcnAddressing, O(1)), and the host
 * index into one table entry, in this order:
 *  1. local hosts: hosts [hostBase, hostBase + n) attached to this switch, one
 *     port each (NO_PORT = withdrawn: unroutable);
 *  2. the keyed table: key = hostIndex / divisor - base; keys [0, nKeys) have
 *     their own entry.  divisor 1 = one entry per host, divisor = hosts per
 *     edge switch = one entry per destination edge switch, larger divisors
 *     aggregate blocks (pods) of hosts;
 *  3. the default entry (every other destination).
 * An entry is a list of minimal candidate egress interfaces and, where the
 * topology builder provides them, non-minimal candidates (e.g. Valiant/UGAL
 * detours).  Entries live in one flat port pool: a lookup is two array reads.
 * The builder chooses the granularity; the fat tree installs O(ports) entries
 * per switch (ToR: hosts + default up group; spine: one key per ToR; core:
 * one key per pod), and per-destination-ToR entries only after a withdrawal.
 *
 * The switch's ForwardingPolicy picks the egress from a DcnForwardingContext
 * (candidates, ingress, hops from the TTL, queue occupancy, the packet, which
 * it may rewrite).  Host mode: everything not addressed to the host leaves on
 * the host interface.  Ipv4Route objects are preallocated per interface: no
 * allocation per packet.
 */
#ifndef DCN_SWITCH_ROUTING_H
#define DCN_SWITCH_ROUTING_H

#include "dcn-fast-path.h"
#include "forwarding-policy.h"

#include "ns3/dcn-addressing.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/ipv4.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

class Ipv4Interface;

class DcnQueueDisc;
class DcnSwitchBuffer;
class DcnPortDevice;
class TrafficControlLayer;

class DcnSwitchRouting : public Ipv4RoutingProtocol
{
  public:
    static TypeId GetTypeId();
    DcnSwitchRouting();
    ~DcnSwitchRouting() override;

    /** "No port / no host" (= DcnAddressing::NONE). */
    static constexpr uint32_t NO_PORT = DcnAddressing::NONE;

    /** Signature of the "Unroutable" trace. */
    typedef void (*UnroutableTracedCallback)(Ptr<const Packet> p, const Ipv4Header& h);

    /** One table entry: candidates in the port pool. */
    struct Entry
    {
        uint32_t offset{0};      //!< first minimal candidate in the pool
        uint32_t nMinimal{0};    //!< minimal candidates [offset, offset + nMinimal)
        uint32_t nNonMinimal{0}; //!< non-minimal ones follow the minimal ones
    };

    // ---- configuration (by the topology builder) ----
    /** Host mode: everything leaves through interface \p iface. */
    void SetHostMode(uint32_t iface);
    /** Directly attached hosts [hostBase, hostBase + ports.size()): one port each. */
    void SetLocalHosts(uint32_t hostBase, const std::vector<uint32_t>& ports);
    /** Replace one local host's port (NO_PORT = withdrawn: unroutable). */
    void SetLocalHostPort(uint32_t host, uint32_t iface);
    /**
     * Start the keyed table: key = hostIndex / divisor - base, keys [0, nKeys)
     * (all entries empty = unroutable until set); the default entry is emptied.
     */
    void ResetTable(uint32_t divisor, uint32_t base, uint32_t nKeys);
    /** Set the entry of one key. */
    void SetEntry(uint32_t key,
                  const std::vector<uint32_t>& minimal,
                  const std::vector<uint32_t>& nonMinimal = {});
    /** Set the default entry (destinations outside local hosts and keys). */
    void SetDefaultEntry(const std::vector<uint32_t>& minimal,
                         const std::vector<uint32_t>& nonMinimal = {});
    void SetForwardingPolicy(Ptr<ForwardingPolicy> policy);
    Ptr<ForwardingPolicy> GetForwardingPolicy() const;

    bool IsHost() const
    {
        return m_isHost;
    }

    uint32_t GetNKeys() const
    {
        return static_cast<uint32_t>(m_entries.size());
    }

    /**
     * The table entry for a destination host (local host ports are returned as
     * a one-candidate entry).  \return false if the destination is not routable
     * by the table (no entry).  \p key receives the table key (NO_PORT for the
     * default entry or a local host).
     */
    bool GetCandidates(uint32_t host,
                       const uint32_t*& minimal,
                       uint32_t& nMinimal,
                       const uint32_t*& nonMinimal,
                       uint32_t& nNonMinimal,
                       uint32_t& key) const;

    /** Egress DcnQueueDisc of an interface (resolved once; nullptr if none). */
    const DcnQueueDisc* GetEgressQueue(uint32_t iface) const;

    /**
     * The forwarding decision for a packet, without side effects other than
     * the policy's (exposed for path walks in tests and tools).
     * \return egress interface, or NO_PORT if unroutable, or 0 if local.
     */
    uint32_t Lookup(Ptr<const Packet> p, const Ipv4Header& h, uint32_t inIf);

    /**
     * PFC (issue 12): PFC frames (IPv4 protocol 253, doc/roce.rst) received on
     * interface \p iface pause or resume \p q, this node's egress queue there.
     */
    void SetPfcQueue(uint32_t iface, Ptr<DcnQueueDisc> q);
    /** Shared switch buffer: told the ingress interface of each forwarded packet. */
    void SetSwitchBuffer(Ptr<DcnSwitchBuffer> buffer);

    /** PFC frames received (any quanta) / not parseable as 802.1Qbb. */
    uint64_t GetPfcFramesReceived() const
    {
        return m_pfcRx;
    }

    uint64_t GetPfcFramesMalformed() const
    {
        return m_pfcBad;
    }

    uint64_t GetForwarded() const
    {
        return m_forwarded;
    }

    uint64_t GetUnroutable() const
    {
        return m_unroutable;
    }

    /** Packets a policy kept (Select() returned DcnForwardingContext::TAKEN). */
    uint64_t GetTaken() const
    {
        return m_taken;
    }

    /**
     * Forward a packet on interface \p iface through the IPv4 layer's unicast
     * forward callback (the one RouteInput received): a packet a policy held
     * (TAKEN) and releases now, or a packet the policy originates at this
     * switch (e.g. ConWeave's RTT_REPLY).  The IPv4 layer decrements the TTL
     * as for any forwarded packet.  \return false if this switch has not
     * routed a packet yet (no callback known) or \p iface does not exist.
     * \p inIf: the interface the packet arrived on (a held packet), so a shared
     * switch buffer charges it to that ingress port as RouteInput does (PFC);
     * -1 for a packet the switch originates (charged like the high band: not).
     */
    bool ForwardLater(uint32_t iface, Ptr<const Packet> p, const Ipv4Header& h, int32_t inIf = -1);

    /**
     * FabricMode=fast (issue 13, doc/fabric.rst): this switch takes packets
     * from its DcnPortDevices directly (their receive callback becomes
     * FastReceive) and puts forwarded packets into the egress port's queue
     * disc, with no Node / traffic-control / IPv4 traversal.  The decision is
     * the one RouteInput makes (same table, same policy, same counters); the
     * TTL is decremented and the checksum rewritten as Ipv4L3Protocol does.
     * Packets the switch does not forward (addressed to it, no host index,
     * not IPv4) go up the IPv4 stack as before.  Call after the interfaces
     * exist; every interface must be a DcnPortDevice.
     */
    void EnableFastPath();

    bool IsFastPath() const
    {
        return m_fast;
    }

    /** The receive callback of this switch's ports in FabricMode=fast. */
    bool FastReceive(Ptr<NetDevice> dev,
                     Ptr<const Packet> p,
                     uint16_t protocol,
                     const Address& from);

    /** FabricMode=fast: packets dropped for TTL expiry / bad checksum / interface down. */
    uint64_t GetFastDropped() const
    {
        return m_fastDropped;
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
    Entry Store(const std::vector<uint32_t>& minimal, const std::vector<uint32_t>& nonMinimal);
    /** Decide for a context: egress interface, NO_PORT or 0 (local). */
    uint32_t Decide(DcnForwardingContext& ctx);
    void ResolveQueues() const;
    void HandlePfc(Ptr<const Packet> p, int32_t inIf);
    /** IPv4 interface of a device of this node (O(1) after the first packet). */
    int32_t InterfaceOf(Ptr<const NetDevice> dev);
    /**
     * The forwarding decision with its counters and trace, one code for both
     * fabric modes: egress interface, or TAKEN, or 0 (local), or NO_PORT (dropped).
     */
    uint32_t Route(DcnForwardingContext& ctx);
    /** Forward on \p out (the fast path if \p fast, else the IPv4 layer), charging \p inIf. */
    void Emit(uint32_t out,
              Ptr<const Packet> p,
              const Ipv4Header& h,
              int32_t inIf,
              bool owned,
              bool fast);
    /** Fast path: TTL, checksum, Ipv4QueueDiscItem into the egress port. */
    void FastForward(uint32_t out, Ptr<const Packet> p, const Ipv4Header& h, bool owned);

    /** Ipv4::IsUp(i) through a cached interface pointer (the fast path checks it per packet). */
    bool IfUp(uint32_t i);

    Ptr<Ipv4> m_ipv4;
    std::vector<Ipv4Interface*> m_ifaceCache; //!< IfUp(): interfaces by index, filled lazily
    dcnfast::ChecksumFlag m_csum;             //!< Node::ChecksumEnabled(), read once
    Ipv4Header m_rxHdr;  //!< FastReceive's header (a member: no Header object per packet)
    Ipv4Header m_fwdHdr; //!< FastForward's outgoing header (same)
    bool m_isHost{false};
    uint32_t m_hostIf{1};
    uint32_t m_hostBase{0};
    std::vector<uint32_t> m_local; //!< port of local host (hostBase + i)
    uint32_t m_divisor{1};
    uint32_t m_base{0};
    std::vector<Entry> m_entries;
    Entry m_default;
    std::vector<uint32_t> m_pool;                      //!< candidate interfaces of all entries
    std::vector<Ptr<Ipv4Route>> m_routes;              //!< per interface, built lazily
    std::vector<int32_t> m_devToIf;                    //!< device index -> interface (lazily)
    mutable std::vector<const DcnQueueDisc*> m_queues; //!< per interface (lazily)
    mutable bool m_queuesResolved{false};
    Ptr<ForwardingPolicy> m_policy;
    std::vector<DcnQueueDisc*> m_pfcQueues; //!< per interface (PFC on; owned by the TC layer)
    Ptr<DcnSwitchBuffer> m_buffer;
    uint64_t m_pfcRx{0};
    uint64_t m_pfcBad{0};
    uint64_t m_forwarded{0};
    uint64_t m_unroutable{0};
    uint64_t m_taken{0};
    UnicastForwardCallback m_ucb; //!< the IPv4 layer's forward callback (first RouteInput)
    bool m_fast{false};
    std::vector<DcnPortDevice*> m_ports; //!< per interface (fast path; owned by the node)
    Ptr<TrafficControlLayer> m_tc;       //!< fast path: where non-forwarded packets go up
    uint64_t m_fastDropped{0};
    TracedCallback<Ptr<const Packet>, const Ipv4Header&> m_unroutableTrace;
};

} // namespace ns3

#endif // DCN_SWITCH_ROUTING_H
