#include "dcn-switch-routing.h"

#include "dcn-port-device.h"
#include "dcn-queue-disc.h"
#include "dcn-switch-buffer.h"

#include "ns3/ipv4-interface.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/ipv4-route.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/output-stream-wrapper.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/traffic-control-layer.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnSwitchRouting");
NS_OBJECT_ENSURE_REGISTERED(DcnSwitchRouting);

TypeId
DcnSwitchRouting::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcnSwitchRouting")
            .SetParent<Ipv4RoutingProtocol>()
            .SetGroupName("DcnLb")
            .AddConstructor<DcnSwitchRouting>()
            .AddTraceSource("Unroutable",
                            "A packet had no usable route (e.g. all routes withdrawn after a "
                            "failure) and was dropped.",
                            MakeTraceSourceAccessor(&DcnSwitchRouting::m_unroutableTrace),
                            "ns3::DcnSwitchRouting::UnroutableTracedCallback");
    return tid;
}

DcnSwitchRouting::DcnSwitchRouting()
{
    NS_LOG_FUNCTION(this);
}

DcnSwitchRouting::~DcnSwitchRouting()
{
    NS_LOG_FUNCTION(this);
}

void
DcnSwitchRouting::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_ipv4 = nullptr;
    m_ifaceCache.clear();
    m_routes.clear();
    m_queues.clear();
    if (m_policy)
    {
        m_policy->Detach();
    }
    m_policy = nullptr;
    m_ucb = UnicastForwardCallback();
    m_pfcQueues.clear();
    m_buffer = nullptr;
    m_ports.clear();
    m_tc = nullptr;
    Ipv4RoutingProtocol::DoDispose();
}

void
DcnSwitchRouting::SetHostMode(uint32_t iface)
{
    NS_LOG_FUNCTION(this << iface);
    m_isHost = true;
    m_hostIf = iface;
}

void
DcnSwitchRouting::SetLocalHosts(uint32_t hostBase, const std::vector<uint32_t>& ports)
{
    NS_LOG_FUNCTION(this << hostBase << ports.size());
    m_isHost = false;
    m_hostBase = hostBase;
    m_local = ports;
}

void
DcnSwitchRouting::SetLocalHostPort(uint32_t host, uint32_t iface)
{
    NS_LOG_FUNCTION(this << host << iface);
    NS_ABORT_MSG_IF(host - m_hostBase >= m_local.size(),
                    "DcnSwitchRouting::SetLocalHostPort: host="
                        << host << " not local; allowed [" << m_hostBase << ","
                        << m_hostBase + m_local.size() << ")");
    m_local[host - m_hostBase] = iface;
}

void
DcnSwitchRouting::ResetTable(uint32_t divisor, uint32_t base, uint32_t nKeys)
{
    NS_LOG_FUNCTION(this << divisor << base << nKeys);
    NS_ABORT_MSG_IF(divisor == 0, "DcnSwitchRouting::ResetTable: divisor=0; allowed >= 1");
    m_isHost = false;
    m_divisor = divisor;
    m_base = base;
    m_pool.clear();
    m_entries.assign(nKeys, Entry());
    m_default = Entry();
}

DcnSwitchRouting::Entry
DcnSwitchRouting::Store(const std::vector<uint32_t>& minimal,
                        const std::vector<uint32_t>& nonMinimal)
{
    Entry e;
    e.offset = static_cast<uint32_t>(m_pool.size());
    e.nMinimal = static_cast<uint32_t>(minimal.size());
    e.nNonMinimal = static_cast<uint32_t>(nonMinimal.size());
    m_pool.insert(m_pool.end(), minimal.begin(), minimal.end());
    m_pool.insert(m_pool.end(), nonMinimal.begin(), nonMinimal.end());
    return e;
}

void
DcnSwitchRouting::SetEntry(uint32_t key,
                           const std::vector<uint32_t>& minimal,
                           const std::vector<uint32_t>& nonMinimal)
{
    NS_LOG_FUNCTION(this << key << minimal.size() << nonMinimal.size());
    NS_ABORT_MSG_IF(key >= m_entries.size(),
                    "DcnSwitchRouting::SetEntry: key=" << key << "; allowed [0," << m_entries.size()
                                                       << ")");
    Entry& e = m_entries[key];
    if (e.nMinimal == minimal.size() && e.nNonMinimal == nonMinimal.size() &&
        e.nMinimal + e.nNonMinimal > 0)
    {
        std::copy(minimal.begin(), minimal.end(), m_pool.begin() + e.offset);
        std::copy(nonMinimal.begin(), nonMinimal.end(), m_pool.begin() + e.offset + e.nMinimal);
        return;
    }
    e = Store(minimal, nonMinimal);
}

void
DcnSwitchRouting::SetDefaultEntry(const std::vector<uint32_t>& minimal,
                                  const std::vector<uint32_t>& nonMinimal)
{
    NS_LOG_FUNCTION(this << minimal.size() << nonMinimal.size());
    m_default = Store(minimal, nonMinimal);
}

void
DcnSwitchRouting::SetForwardingPolicy(Ptr<ForwardingPolicy> policy)
{
    NS_LOG_FUNCTION(this << policy);
    if (m_policy && m_policy != policy)
    {
        m_policy->Detach(); // e.g. CONGA's transmit hooks hold a raw pointer to it
    }
    m_policy = policy;
}

Ptr<ForwardingPolicy>
DcnSwitchRouting::GetForwardingPolicy() const
{
    return m_policy;
}

bool
DcnSwitchRouting::GetCandidates(uint32_t host,
                                const uint32_t*& minimal,
                                uint32_t& nMinimal,
                                const uint32_t*& nonMinimal,
                                uint32_t& nNonMinimal,
                                uint32_t& key) const
{
    key = NO_PORT;
    nonMinimal = nullptr;
    nNonMinimal = 0;
    uint32_t l = host - m_hostBase;
    if (l < m_local.size())
    {
        minimal = &m_local[l];
        nMinimal = m_local[l] == NO_PORT ? 0 : 1;
        return nMinimal > 0;
    }
    uint32_t k = host / m_divisor - m_base;
    const Entry* e = &m_default;
    if (k < m_entries.size())
    {
        e = &m_entries[k];
        key = k;
    }
    const uint32_t* base = m_pool.data() + e->offset;
    minimal = base;
    nMinimal = e->nMinimal;
    nonMinimal = base + e->nMinimal;
    nNonMinimal = e->nNonMinimal;
    return nMinimal + nNonMinimal > 0;
}

void
DcnSwitchRouting::ResolveQueues() const
{
    NS_LOG_FUNCTION(this);
    m_queuesResolved = true;
    if (!m_ipv4)
    {
        return;
    }
    Ptr<Node> node = m_ipv4->GetObject<Node>();
    Ptr<TrafficControlLayer> tc = node ? node->GetObject<TrafficControlLayer>() : nullptr;
    m_queues.assign(m_ipv4->GetNInterfaces(), nullptr);
    for (uint32_t i = 0; tc && i < m_queues.size(); ++i)
    {
        Ptr<NetDevice> dev = m_ipv4->GetNetDevice(i);
        Ptr<DcnPortDevice> port = DynamicCast<DcnPortDevice>(dev);
        if (port)
        {
            m_queues[i] = PeekPointer(port->GetQueueDisc()); // FabricMode=fast
            continue;
        }
        m_queues[i] =
            dev ? PeekPointer(DynamicCast<DcnQueueDisc>(tc->GetRootQueueDiscOnDevice(dev)))
                : nullptr;
    }
}

const DcnQueueDisc*
DcnSwitchRouting::GetEgressQueue(uint32_t iface) const
{
    if (!m_queuesResolved)
    {
        ResolveQueues();
    }
    return iface < m_queues.size() ? m_queues[iface] : nullptr;
}

Ptr<Ipv4Route>
DcnSwitchRouting::GetRoute(uint32_t iface)
{
    if (iface < m_routes.size() && m_routes[iface])
    {
        return m_routes[iface];
    }
    NS_LOG_LOGIC(this << " building route object for interface " << iface);
    NS_ABORT_MSG_IF(iface >= m_ipv4->GetNInterfaces(),
                    "DcnSwitchRouting: egress interface "
                        << iface << " does not exist (the forwarding policy "
                        << (m_policy ? m_policy->Name() : "-") << " must return one of [1,"
                        << m_ipv4->GetNInterfaces() << ") or DROP)");
    if (iface >= m_routes.size())
    {
        m_routes.resize(m_ipv4->GetNInterfaces());
    }
    Ptr<Ipv4Route> r = Create<Ipv4Route>();
    r->SetOutputDevice(m_ipv4->GetNetDevice(iface));
    r->SetGateway(Ipv4Address::GetZero()); // point-to-point: no next-hop resolution
    if (m_ipv4->GetNAddresses(iface) > 0)
    {
        r->SetSource(m_ipv4->GetAddress(iface, 0).GetLocal());
    }
    m_routes[iface] = r;
    return r;
}

bool
DcnSwitchRouting::IsLocal(Ipv4Address dst) const
{
    if (m_isHost)
    {
        return m_ipv4->GetNAddresses(m_hostIf) > 0 &&
               m_ipv4->GetAddress(m_hostIf, 0).GetLocal() == dst;
    }
    // Switch addresses live in the link block; only then do the (rare) search.
    return DcnAddressing::IsSwitchLinkAddress(dst) && m_ipv4->GetInterfaceForAddress(dst) >= 0;
}

uint32_t
DcnSwitchRouting::Decide(DcnForwardingContext& ctx)
{
    if (m_isHost)
    {
        return IsLocal(ctx.GetHeader().GetDestination()) ? 0 : m_hostIf;
    }
    if (ctx.dstHost == NO_PORT)
    {
        return IsLocal(ctx.GetHeader().GetDestination()) ? 0 : NO_PORT;
    }
    if (!GetCandidates(ctx.dstHost,
                       ctx.minimal,
                       ctx.nMinimal,
                       ctx.nonMinimal,
                       ctx.nNonMinimal,
                       ctx.dstKey))
    {
        NS_LOG_LOGIC(this << " no candidates for host " << ctx.dstHost);
        return NO_PORT;
    }
    if (!m_policy)
    {
        return ctx.nMinimal > 0 ? ctx.minimal[0] : ctx.nonMinimal[0];
    }
    return m_policy->Select(ctx);
}

uint32_t
DcnSwitchRouting::Lookup(Ptr<const Packet> p, const Ipv4Header& h, uint32_t inIf)
{
    NS_LOG_FUNCTION(this << p << inIf);
    DcnForwardingContext ctx(p, h, inIf, this);
    return Decide(ctx);
}

Ptr<Ipv4Route>
DcnSwitchRouting::RouteOutput(Ptr<Packet> p,
                              const Ipv4Header& header,
                              Ptr<NetDevice> oif,
                              Socket::SocketErrno& sockerr)
{
    NS_LOG_FUNCTION(this << p << header.GetDestination());
    if (!m_ipv4 || m_ipv4->GetNInterfaces() < 2)
    {
        sockerr = Socket::ERROR_NOROUTETOHOST;
        return nullptr;
    }
    uint32_t iface = m_hostIf;
    if (!m_isHost)
    {
        // Switches do not originate traffic in dcn-lb; route like a transit packet
        // when a header is available (e.g. ping from a switch in a test).
        iface = p ? Lookup(p, header, 0) : NO_PORT;
        if (iface == NO_PORT || iface == 0)
        {
            sockerr = Socket::ERROR_NOROUTETOHOST;
            return nullptr;
        }
    }
    sockerr = Socket::ERROR_NOTERROR;
    return GetRoute(iface);
}

bool
DcnSwitchRouting::RouteInput(Ptr<const Packet> p,
                             const Ipv4Header& header,
                             Ptr<const NetDevice> idev,
                             DCNLB_ROUTE_CB(UnicastForwardCallback) ucb,
                             DCNLB_ROUTE_CB(MulticastForwardCallback) mcb,
                             DCNLB_ROUTE_CB(LocalDeliverCallback) lcb,
                             DCNLB_ROUTE_CB(ErrorCallback) ecb)
{
    NS_LOG_FUNCTION(this << p << header.GetDestination() << idev);
    int32_t inIf = InterfaceOf(idev);
    if (header.GetProtocol() == DcnPfcFrame::IP_PROTOCOL && !m_pfcQueues.empty())
    {
        HandlePfc(p, inIf);
        return true; // consumed (a MAC-control frame is never forwarded)
    }
    DcnForwardingContext ctx(p, header, inIf < 0 ? 0 : static_cast<uint32_t>(inIf), this);
    if (m_ucb.IsNull())
    {
        m_ucb = ucb; // the same IPv4 forward callback for every packet of this node
    }
    uint32_t out = Route(ctx);
    if (out == DcnForwardingContext::TAKEN)
    {
        return true;
    }
    if (out == 0)
    {
        if (!lcb.IsNull())
        {
            NS_LOG_LOGIC("local delivery");
            lcb(p, header, inIf);
            return true;
        }
        return false;
    }
    if (out == NO_PORT)
    {
        return false;
    }
    Emit(out, ctx.GetPacket(), ctx.GetHeader(), inIf, false, false);
    return true;
}

int32_t
DcnSwitchRouting::InterfaceOf(Ptr<const NetDevice> idev)
{
    // O(1) device -> interface map (Ipv4::GetInterfaceForDevice is a linear search).
    uint32_t devIdx = idev->GetIfIndex();
    if (devIdx >= m_devToIf.size() || m_devToIf[devIdx] < 0)
    {
        if (devIdx >= m_devToIf.size())
        {
            m_devToIf.resize(devIdx + 1, -1);
        }
        m_devToIf[devIdx] = m_ipv4->GetInterfaceForDevice(idev);
    }
    return m_devToIf[devIdx];
}

uint32_t
DcnSwitchRouting::Route(DcnForwardingContext& ctx)
{
    uint32_t out = Decide(ctx);
    if (out == DcnForwardingContext::TAKEN)
    {
        NS_LOG_LOGIC("kept by the forwarding policy");
        ++m_taken;
        return out;
    }
    if (out == 0)
    {
        return 0;
    }
    if (out == NO_PORT || (m_isHost))
    {
        // Hosts never forward; switches drop unroutable packets.
        NS_LOG_LOGIC("unroutable: dropped");
        ++m_unroutable;
        m_unroutableTrace(ctx.GetPacket(), ctx.GetHeader());
        return NO_PORT;
    }
    ++m_forwarded;
    NS_LOG_LOGIC("forward on interface " << out);
    return out;
}

void
DcnSwitchRouting::Emit(uint32_t out,
                       Ptr<const Packet> p,
                       const Ipv4Header& h,
                       int32_t inIf,
                       bool owned,
                       bool fast)
{
    if (m_buffer && inIf >= 0)
    {
        // the egress queue disc reads the ingress port at enqueue (same call chain)
        m_buffer->SetCurrentIngress(static_cast<uint16_t>(inIf));
    }
    if (fast)
    {
        FastForward(out, p, h, owned);
    }
    else
    {
        m_ucb(GetRoute(out), p, h); // RouteInput: the IPv4 layer's callback, in either mode
    }
    if (m_buffer && inIf >= 0)
    {
        m_buffer->SetCurrentIngress(DcnSwitchBuffer::NO_PORT);
    }
}

void
DcnSwitchRouting::EnableFastPath()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(!m_ipv4, "DcnSwitchRouting::EnableFastPath: no IPv4 (install the stack first)");
    Ptr<Node> node = m_ipv4->GetObject<Node>();
    m_tc = node->GetObject<TrafficControlLayer>();
    m_ports.assign(m_ipv4->GetNInterfaces(), nullptr);
    for (uint32_t i = 1; i < m_ipv4->GetNInterfaces(); ++i)
    {
        Ptr<DcnPortDevice> port = DynamicCast<DcnPortDevice>(m_ipv4->GetNetDevice(i));
        NS_ABORT_MSG_IF(
            !port,
            "DcnSwitchRouting::EnableFastPath: interface "
                << i << " of node " << node->GetId()
                << " is not a DcnPortDevice (FabricMode=fast builds every port as one)");
        m_ports[i] = PeekPointer(port);
        InterfaceOf(port);
        port->SetReceiveCallback(MakeCallback(&DcnSwitchRouting::FastReceive, this));
    }
    m_fast = true;
}

bool
DcnSwitchRouting::FastReceive(Ptr<NetDevice> dev,
                              Ptr<const Packet> packet,
                              uint16_t protocol,
                              const Address& from)
{
    NS_LOG_FUNCTION(this << dev << packet << protocol);
    const int32_t inIf = InterfaceOf(dev);
    if (protocol != 0x0800 || inIf < 0)
    {
        return m_tc->Receive(dev,
                             packet,
                             protocol,
                             from,
                             dev->GetAddress(),
                             NetDevice::PACKET_HOST),
               true;
    }
    // The device hands up its own copy (PointToPointNetDevice::Receive): ours to modify.
    Ptr<Packet> p = ConstCast<Packet>(packet);
    Ipv4Header& h = m_rxHdr; // Deserialize overwrites every field
    if (m_csum.Get())
    {
        h.EnableChecksum();
    }
    p->RemoveHeader(h);
    // What Ipv4L3Protocol::Receive checks before routing.
    if (!h.IsChecksumOk() || !IfUp(inIf))
    {
        NS_LOG_LOGIC("bad checksum or interface down: dropped");
        ++m_fastDropped;
        return true;
    }
    if (p->GetSize() > h.GetPayloadSize())
    {
        p->RemoveAtEnd(p->GetSize() - h.GetPayloadSize());
    }
    if (h.GetProtocol() == DcnPfcFrame::IP_PROTOCOL && !m_pfcQueues.empty())
    {
        HandlePfc(p, inIf);
        return true;
    }
    DcnForwardingContext ctx(p, h, static_cast<uint32_t>(inIf), this);
    if (ctx.dstHost == NO_PORT)
    {
        // Not addressed to a host (a switch address, control traffic): the IPv4
        // stack delivers or drops it exactly as in the IPv4 mode.
        p->AddHeader(h);
        m_tc->Receive(dev, p, protocol, from, dev->GetAddress(), NetDevice::PACKET_HOST);
        return true;
    }
    uint32_t out = Route(ctx);
    if (out == DcnForwardingContext::TAKEN || out == NO_PORT)
    {
        return true;
    }
    if (out == 0)
    {
        p->AddHeader(h);
        m_tc->Receive(dev, p, protocol, from, dev->GetAddress(), NetDevice::PACKET_HOST);
        return true;
    }
    Emit(out, ctx.GetPacket(), ctx.GetHeader(), inIf, true, true);
    return true;
}

bool
DcnSwitchRouting::IfUp(uint32_t i)
{
    if (i >= m_ifaceCache.size() || !m_ifaceCache[i])
    {
        Ptr<Ipv4L3Protocol> l3 = DynamicCast<Ipv4L3Protocol>(m_ipv4);
        if (!l3 || i >= l3->GetNInterfaces())
        {
            return m_ipv4->IsUp(i);
        }
        if (i >= m_ifaceCache.size())
        {
            m_ifaceCache.resize(i + 1, nullptr);
        }
        m_ifaceCache[i] = PeekPointer(l3->GetInterface(i));
    }
    return m_ifaceCache[i]->IsUp();
}

void
DcnSwitchRouting::FastForward(uint32_t out, Ptr<const Packet> p, const Ipv4Header& h, bool owned)
{
    NS_LOG_FUNCTION(this << out << p);
    NS_ABORT_MSG_IF(out >= m_ports.size() || !m_ports[out],
                    "DcnSwitchRouting: egress interface "
                        << out << " does not exist (the forwarding policy "
                        << (m_policy ? m_policy->Name() : "-") << " must return one of [1,"
                        << m_ports.size() << ") or DROP)");
    // Ipv4L3Protocol::IpForward: TTL (no ICMP time-exceeded in the fast mode)
    Ipv4Header& hdr = m_fwdHdr;
    hdr = h;
    hdr.SetTtl(h.GetTtl() - 1);
    if (hdr.GetTtl() == 0 || !IfUp(out))
    {
        NS_LOG_LOGIC("TTL expired or egress interface down: dropped");
        ++m_fastDropped;
        return;
    }
    if (m_csum.Get())
    {
        hdr.EnableChecksum();
    }
    // A packet we received is ours; one a policy held or originates is copied
    // as IpForward copies every forwarded packet.
    Ptr<Packet> pkt = owned ? ConstCast<Packet>(p) : p->Copy();
    DcnPortDevice* port = m_ports[out];
    port->EnqueueItem(Create<dcnfast::Ipv4Item>(pkt, dcnfast::Broadcast(), 0x0800, hdr));
}

bool
DcnSwitchRouting::ForwardLater(uint32_t iface,
                               Ptr<const Packet> p,
                               const Ipv4Header& h,
                               int32_t inIf)
{
    NS_LOG_FUNCTION(this << iface << p << inIf);
    if ((m_ucb.IsNull() && !m_fast) || !m_ipv4 || iface == 0 || iface >= m_ipv4->GetNInterfaces())
    {
        return false;
    }
    ++m_forwarded;
    Emit(iface, p, h, inIf, false, m_fast);
    return true;
}

void
DcnSwitchRouting::HandlePfc(Ptr<const Packet> p, int32_t inIf)
{
    NS_LOG_FUNCTION(this << p << inIf);
    ++m_pfcRx;
    fabcore::PfcFrame f;
    if (inIf < 0 || static_cast<uint32_t>(inIf) >= m_pfcQueues.size() || !m_pfcQueues[inIf] ||
        !DcnPfcFrame::Parse(p, f))
    {
        NS_LOG_LOGIC("not a PFC frame for a PFC port: ignored");
        ++m_pfcBad;
        return;
    }
    DcnQueueDisc* q = m_pfcQueues[inIf];
    const uint8_t prio = q->GetPfcPriority();
    if (f.classEnable & (1u << prio))
    {
        q->ReceivePause(f.quanta[prio]);
    }
}

void
DcnSwitchRouting::SetPfcQueue(uint32_t iface, Ptr<DcnQueueDisc> q)
{
    NS_LOG_FUNCTION(this << iface << q);
    if (iface >= m_pfcQueues.size())
    {
        m_pfcQueues.resize(iface + 1, nullptr);
    }
    m_pfcQueues[iface] = PeekPointer(q);
}

void
DcnSwitchRouting::SetSwitchBuffer(Ptr<DcnSwitchBuffer> buffer)
{
    NS_LOG_FUNCTION(this << buffer);
    m_buffer = buffer;
}

void
DcnSwitchRouting::NotifyInterfaceUp(uint32_t interface)
{
    NS_LOG_FUNCTION(this << interface);
    // Routes come from the topology builder; interface state changes do not
    // alter them (REPS spec 2.1: ECMP groups are never updated during a run).
}

void
DcnSwitchRouting::NotifyInterfaceDown(uint32_t interface)
{
    NS_LOG_FUNCTION(this << interface);
}

void
DcnSwitchRouting::NotifyAddAddress(uint32_t interface, Ipv4InterfaceAddress address)
{
    NS_LOG_FUNCTION(this << interface << address);
    if (interface < m_routes.size())
    {
        m_routes[interface] = nullptr; // rebuild with the new source address
    }
    m_queuesResolved = false;
}

void
DcnSwitchRouting::NotifyRemoveAddress(uint32_t interface, Ipv4InterfaceAddress address)
{
    NS_LOG_FUNCTION(this << interface << address);
    if (interface < m_routes.size())
    {
        m_routes[interface] = nullptr;
    }
}

void
DcnSwitchRouting::SetIpv4(Ptr<Ipv4> ipv4)
{
    NS_LOG_FUNCTION(this << ipv4);
    m_ipv4 = ipv4;
    m_ifaceCache.clear();
}

void
DcnSwitchRouting::PrintRoutingTable(Ptr<OutputStreamWrapper> stream, Time::Unit unit) const
{
    std::ostream& os = *stream->GetStream();
    os << "Node: " << m_ipv4->GetObject<Node>()->GetId() << ", Time: " << Now().As(unit)
       << ", DcnSwitchRouting (" << (m_isHost ? "host" : "switch") << ")\n";
    if (m_isHost)
    {
        os << "  default -> interface " << m_hostIf << "\n";
        return;
    }
    auto printEntry = [&os, this](const Entry& e) {
        for (uint32_t i = 0; i < e.nMinimal; ++i)
        {
            os << " " << m_pool[e.offset + i];
        }
        if (e.nNonMinimal > 0)
        {
            os << " | non-minimal:";
            for (uint32_t i = 0; i < e.nNonMinimal; ++i)
            {
                os << " " << m_pool[e.offset + e.nMinimal + i];
            }
        }
        if (e.nMinimal + e.nNonMinimal == 0)
        {
            os << " unroutable";
        }
        os << "\n";
    };
    for (uint32_t i = 0; i < m_local.size(); ++i)
    {
        os << "  host " << (m_hostBase + i) << " -> ";
        if (m_local[i] == NO_PORT)
        {
            os << "withdrawn\n";
        }
        else
        {
            os << m_local[i] << "\n";
        }
    }
    os << "  key = host index / " << m_divisor << " - " << m_base << "\n";
    for (uint32_t k = 0; k < m_entries.size(); ++k)
    {
        os << "    key " << k << ":";
        printEntry(m_entries[k]);
    }
    os << "  default (" << (m_policy ? m_policy->Name() : "first") << "):";
    printEntry(m_default);
}

} // namespace ns3
