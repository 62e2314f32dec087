#include "dcn-ev-path-discovery.h"

#include "path-selector.h"

#include "ns3/dcn-addressing.h"
#include "ns3/dcn-switch-routing.h"
#include "ns3/forwarding-policy.h"
#include "ns3/ipv4-header.h"
#include "ns3/log.h"
#include "ns3/packet.h"

#include <map>
#include <tuple>
#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnEvPathDiscovery");

std::vector<int32_t>
DiscoverPathEvs(Ptr<DcnTopology> topo,
                uint32_t srcHost,
                uint32_t dstHost,
                uint16_t udpDstPort,
                uint32_t n,
                uint32_t maxTries)
{
    NS_LOG_FUNCTION(srcHost << dstHost << n);
    std::vector<int32_t> ev(n, -1);
    const uint32_t srcSw = topo->GetSwitchOfHost(srcHost);
    const uint32_t dstSw = topo->GetSwitchOfHost(dstHost);
    const DcnPathSet& ps = topo->GetPaths(srcSw, dstSw);
    if (srcSw == dstSw || n == 0)
    {
        if (n > 0)
        {
            ev[0] = 0;
        }
        return ev;
    }

    // (node id, interface) -> (link id, peer node, peer interface)
    struct Peer
    {
        uint32_t link;
        Ptr<Node> node;
        uint32_t iface;
    };

    std::unordered_map<uint64_t, Peer> peer;
    auto key = [](uint32_t node, uint32_t iface) { return (uint64_t(node) << 32) | iface; };
    const auto& links = topo->GetLinks();
    for (const DcnLinkInfo& l : links)
    {
        peer[key(l.a->GetId(), l.ifA)] = {l.id, l.b, l.ifB};
        peer[key(l.b->GetId(), l.ifB)] = {l.id, l.a, l.ifA};
    }
    std::unordered_map<uint32_t, bool> isSwitch;
    NodeContainer sws = topo->GetAllSwitches();
    for (uint32_t i = 0; i < sws.GetN(); ++i)
    {
        isSwitch[sws.Get(i)->GetId()] = true;
    }
    Ptr<Node> hostNode = topo->GetHosts().Get(srcHost);
    const DcnLinkInfo& hl = topo->GetLink(topo->GetLinksOfNode(hostNode)[0]);
    const bool hostIsA = hl.a == hostNode;
    uint32_t found = 0;
    std::vector<uint32_t> walked;
    for (uint32_t e = 0; e < maxTries && found < n; ++e)
    {
        uint8_t b[36] = {0};
        b[0] = static_cast<uint8_t>(e >> 8);
        b[1] = static_cast<uint8_t>(e & 0xff);
        b[2] = static_cast<uint8_t>(udpDstPort >> 8);
        b[3] = static_cast<uint8_t>(udpDstPort & 0xff);
        Ptr<const Packet> p = Create<Packet>(b, sizeof(b));
        Ipv4Header h;
        h.SetSource(topo->GetHostAddress(srcHost));
        h.SetDestination(topo->GetHostAddress(dstHost));
        h.SetProtocol(17);
        h.SetTtl(DcnAddressing::INITIAL_TTL);
        h.SetPayloadSize(p->GetSize());
        Ptr<Node> node = hostIsA ? hl.b : hl.a;
        uint32_t inIf = hostIsA ? hl.ifB : hl.ifA;
        walked.clear();
        bool ok = false;
        for (uint32_t step = 0; step < 16; ++step)
        {
            if (!isSwitch.count(node->GetId()))
            {
                ok = node == topo->GetHosts().Get(dstHost);
                break;
            }
            Ptr<DcnSwitchRouting> r = topo->GetRouting(node);
            DcnForwardingContext ctx(p, h, inIf, PeekPointer(r));
            if (!r->GetCandidates(ctx.dstHost,
                                  ctx.minimal,
                                  ctx.nMinimal,
                                  ctx.nonMinimal,
                                  ctx.nNonMinimal,
                                  ctx.dstKey))
            {
                break;
            }
            uint32_t out = r->GetForwardingPolicy()->Select(ctx);
            if (out == DcnForwardingContext::DROP)
            {
                break;
            }
            h = ctx.GetHeader();
            p = ctx.GetPacket();
            h.SetTtl(h.GetTtl() - 1);
            auto it = peer.find(key(node->GetId(), out));
            if (it == peer.end())
            {
                break;
            }
            walked.push_back(it->second.link);
            node = it->second.node;
            inIf = it->second.iface;
        }
        if (!ok || walked.empty())
        {
            continue;
        }
        walked.pop_back(); // the last link reaches the destination host
        for (uint32_t i = 0; i < n && i < ps.paths.size(); ++i)
        {
            if (ev[i] < 0 && ps.paths[i].links == walked)
            {
                ev[i] = static_cast<int32_t>(e);
                ++found;
                break;
            }
        }
    }
    NS_LOG_LOGIC("host " << srcHost << " -> " << dstHost << ": " << found << " of " << n
                         << " paths have an EV");
    return ev;
}

namespace
{
/** Discovered EVs per (src host, dst host, port, n) of one host or rack. */
class DcnPathEvCache : public Object
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::DcnPathEvCache")
                                .SetParent<Object>()
                                .SetGroupName("DcnLb")
                                .AddConstructor<DcnPathEvCache>();
        return tid;
    }

    std::map<std::tuple<uint32_t, uint32_t, uint16_t, uint32_t>, std::vector<int32_t>> m_evs;
    int m_hashFabric{-1}; //!< -1 unknown, 0 no, 1 every switch forwards by the ECMP hash
};

bool
HashFabric(const DcnTopology& topo)
{
    NodeContainer sws = topo.GetAllSwitches();
    for (uint32_t i = 0; i < sws.GetN(); ++i)
    {
        Ptr<DcnSwitchRouting> r = topo.GetRouting(sws.Get(i));
        if (!r || !DynamicCast<EcmpForwardingPolicy>(r->GetForwardingPolicy()))
        {
            return false;
        }
    }
    return sws.GetN() > 0;
}
} // namespace

NS_OBJECT_ENSURE_REGISTERED(DcnPathEvCache);

const std::vector<int32_t>*
DiscoverPathEvsCached(const PathSelectorSetup& setup, uint32_t n, uint32_t maxTries)
{
    if (!setup.topology || !setup.shared || setup.srcHost == UINT32_MAX ||
        setup.dstHost == UINT32_MAX)
    {
        return nullptr;
    }
    Ptr<DcnPathEvCache> cache = setup.shared->GetOrCreate<DcnPathEvCache>("path-evs");
    if (cache->m_hashFabric < 0)
    {
        cache->m_hashFabric = HashFabric(*setup.topology) ? 1 : 0;
    }
    if (cache->m_hashFabric == 0)
    {
        return nullptr;
    }
    auto key = std::make_tuple(setup.srcHost, setup.dstHost, setup.udpDstPort, n);
    auto it = cache->m_evs.find(key);
    if (it == cache->m_evs.end())
    {
        it = cache->m_evs
                 .emplace(key,
                          DiscoverPathEvs(setup.topology,
                                          setup.srcHost,
                                          setup.dstHost,
                                          setup.udpDstPort,
                                          n,
                                          maxTries))
                 .first;
    }
    return &it->second;
}

} // namespace ns3
