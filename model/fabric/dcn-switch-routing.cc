#include "dcn-switch-routing.h"

#include "ns3/ipv4-route.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/output-stream-wrapper.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"

#include <iomanip>

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
                            "ns3::Ipv4L3Protocol::SentTracedCallback");
    return tid;
}

DcnSwitchRouting::DcnSwitchRouting() = default;
DcnSwitchRouting::~DcnSwitchRouting() = default;

void
DcnSwitchRouting::DoDispose()
{
    m_ipv4 = nullptr;
    m_routes.clear();
    m_policy = nullptr;
    Ipv4RoutingProtocol::DoDispose();
}

void
DcnSwitchRouting::SetHostMode(uint32_t iface)
{
    m_isHost = true;
    m_hostIf = iface;
}

void
DcnSwitchRouting::SetDownTable(uint32_t divisor, uint32_t base, const std::vector<uint32_t>& ports)
{
    NS_ABORT_MSG_IF(divisor == 0, "DcnSwitchRouting: divisor=0, must be >= 1");
    m_isHost = false;
    m_divisor = divisor;
    m_base = base;
    m_down = ports;
}

void
DcnSwitchRouting::SetUpGroup(const std::vector<uint32_t>& ifaces)
{
    m_up = ifaces;
}

void
DcnSwitchRouting::SetDownPort(uint32_t index, uint32_t iface)
{
    NS_ABORT_MSG_IF(index >= m_down.size(),
                    "DcnSwitchRouting::SetDownPort: index=" << index << " out of range [0,"
                                                            << m_down.size() << ")");
    m_down[index] = iface;
}

void
DcnSwitchRouting::SetUpOverrides(uint32_t hostsPerTor,
                                 const std::vector<std::vector<uint32_t>>& groups)
{
    NS_ABORT_MSG_IF(hostsPerTor == 0, "DcnSwitchRouting: hostsPerTor=0, must be >= 1");
    m_hostsPerTor = hostsPerTor;
    m_upOverride = groups;
}

void
DcnSwitchRouting::ClearUpOverrides()
{
    m_upOverride.clear();
}

void
DcnSwitchRouting::SetForwardingPolicy(Ptr<ForwardingPolicy> policy)
{
    m_policy = policy;
}

Ptr<ForwardingPolicy>
DcnSwitchRouting::GetForwardingPolicy() const
{
    return m_policy;
}

Ptr<Ipv4Route>
DcnSwitchRouting::GetRoute(uint32_t iface)
{
    if (iface < m_routes.size() && m_routes[iface])
    {
        return m_routes[iface];
    }
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
    return dst.Get() >= LINK_BASE && m_ipv4->GetInterfaceForAddress(dst) >= 0;
}

uint32_t
DcnSwitchRouting::Lookup(Ptr<const Packet> p, const Ipv4Header& h, uint32_t inIf)
{
    Ipv4Address dst = h.GetDestination();
    if (m_isHost)
    {
        return IsLocal(dst) ? 0 : m_hostIf;
    }
    uint32_t host = HostIndexOf(dst);
    if (host == NO_PORT)
    {
        return IsLocal(dst) ? 0 : NO_PORT;
    }
    uint32_t k = host / m_divisor - m_base;
    if (k < m_down.size())
    {
        return m_down[k];
    }
    const std::vector<uint32_t>* g = &m_up;
    if (!m_upOverride.empty())
    {
        uint32_t tor = host / m_hostsPerTor;
        if (tor < m_upOverride.size())
        {
            g = &m_upOverride[tor];
        }
    }
    uint32_t n = static_cast<uint32_t>(g->size());
    if (n == 0)
    {
        return NO_PORT;
    }
    if (n == 1 || !m_policy)
    {
        return (*g)[0];
    }
    return (*g)[m_policy->Select(p, h, g->data(), n, inIf)];
}

Ptr<Ipv4Route>
DcnSwitchRouting::RouteOutput(Ptr<Packet> p,
                              const Ipv4Header& header,
                              Ptr<NetDevice> oif,
                              Socket::SocketErrno& sockerr)
{
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
    int32_t inIf = m_devToIf[devIdx];
    uint32_t out = Lookup(p, header, inIf < 0 ? 0 : static_cast<uint32_t>(inIf));
    if (out == 0)
    {
        if (!lcb.IsNull())
        {
            lcb(p, header, inIf);
            return true;
        }
        return false;
    }
    if (out == NO_PORT || (m_isHost))
    {
        // Hosts never forward; switches drop unroutable packets.
        ++m_unroutable;
        m_unroutableTrace(p, header);
        return false;
    }
    ++m_forwarded;
    ucb(GetRoute(out), p, header);
    return true;
}

void
DcnSwitchRouting::NotifyInterfaceUp(uint32_t interface)
{
    // Routes come from the structure (FatTreeHelper); interface state changes do
    // not alter them (REPS spec 2.1: ECMP groups are never updated during a run).
}

void
DcnSwitchRouting::NotifyInterfaceDown(uint32_t interface)
{
}

void
DcnSwitchRouting::NotifyAddAddress(uint32_t interface, Ipv4InterfaceAddress address)
{
    if (interface < m_routes.size())
    {
        m_routes[interface] = nullptr; // rebuild with the new source address
    }
}

void
DcnSwitchRouting::NotifyRemoveAddress(uint32_t interface, Ipv4InterfaceAddress address)
{
    if (interface < m_routes.size())
    {
        m_routes[interface] = nullptr;
    }
}

void
DcnSwitchRouting::SetIpv4(Ptr<Ipv4> ipv4)
{
    m_ipv4 = ipv4;
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
    os << "  down: host index / " << m_divisor << " - " << m_base << " -> interface\n";
    for (uint32_t i = 0; i < m_down.size(); ++i)
    {
        os << "    key " << (m_base + i) << " -> ";
        if (m_down[i] == NO_PORT)
        {
            os << "withdrawn\n";
        }
        else
        {
            os << m_down[i] << "\n";
        }
    }
    os << "  up group (" << (m_policy ? m_policy->Name() : "first") << "):";
    for (uint32_t i : m_up)
    {
        os << " " << i;
    }
    os << "\n";
    if (!m_upOverride.empty())
    {
        os << "  per-destination-ToR overrides after withdrawals:\n";
        for (uint32_t t = 0; t < m_upOverride.size(); ++t)
        {
            if (m_upOverride[t].size() != m_up.size())
            {
                os << "    tor " << t << ":";
                for (uint32_t i : m_upOverride[t])
                {
                    os << " " << i;
                }
                os << "\n";
            }
        }
    }
}

} // namespace ns3
