/*
 * Test support: walk one packet hop by hop through a built DcnTopology by
 * calling each switch's table and forwarding policy exactly as
 * DcnSwitchRouting does (DcnForwardingContext, rewritten header/packet
 * carried on, TTL decremented per switch), without a simulation.
 */
#ifndef DCN_GRAPH_TOPOLOGY_WALK_H
#define DCN_GRAPH_TOPOLOGY_WALK_H

#include "ns3/dcn-addressing.h"
#include "ns3/dcn-switch-routing.h"
#include "ns3/dcn-topology-base.h"
#include "ns3/ipv4-header.h"
#include "ns3/packet.h"

#include <map>
#include <vector>

namespace ns3
{
namespace dcntest
{

struct PacketWalk
{
    bool delivered{false};
    std::vector<uint32_t> switches; //!< switch indices visited, in order
    uint8_t finalTos{0};
};

class TopologyWalker
{
  public:
    explicit TopologyWalker(Ptr<DcnTopologyBase> t)
        : m_t(t)
    {
        for (const DcnLinkInfo& l : t->GetLinks())
        {
            m_peer[Key(l.a->GetId(), l.ifA)] = {l.b, l.ifB};
            m_peer[Key(l.b->GetId(), l.ifB)] = {l.a, l.ifA};
        }
    }

    /** Walk a UDP packet (payload \p p = UDP header + ...) from host src to host dst. */
    PacketWalk Walk(uint32_t src,
                    uint32_t dst,
                    Ptr<const Packet> p,
                    uint32_t maxSwitches = 32,
                    uint8_t ttl = DcnAddressing::INITIAL_TTL)
    {
        PacketWalk w;
        Ipv4Header h;
        h.SetSource(DcnAddressing::HostAddress(src));
        h.SetDestination(DcnAddressing::HostAddress(dst));
        h.SetProtocol(17);
        h.SetTtl(ttl); // < INITIAL_TTL: the first switch sees itself as a later hop
        h.SetPayloadSize(p->GetSize());
        Ptr<Node> hostNode = m_t->GetHosts().Get(src);
        const DcnLinkInfo& hl = m_t->GetLink(m_t->GetLinksOfNode(hostNode)[0]);
        Ptr<Node> node = hl.b;
        uint32_t inIf = hl.ifB;
        for (uint32_t step = 0; step < maxSwitches; ++step)
        {
            uint32_t sw = m_t->GetSwitchIndex(node);
            if (sw == DcnAddressing::NONE)
            {
                w.delivered = m_t->GetHostOfNode(node) == dst;
                w.finalTos = h.GetTos();
                return w;
            }
            w.switches.push_back(sw);
            Ptr<DcnSwitchRouting> r = m_t->GetRouting(node);
            DcnForwardingContext ctx(p, h, inIf, PeekPointer(r));
            if (!r->GetCandidates(ctx.dstHost,
                                  ctx.minimal,
                                  ctx.nMinimal,
                                  ctx.nonMinimal,
                                  ctx.nNonMinimal,
                                  ctx.dstKey))
            {
                return w;
            }
            uint32_t out = r->GetForwardingPolicy()->Select(ctx);
            if (out == DcnForwardingContext::DROP)
            {
                return w;
            }
            h = ctx.GetHeader();
            p = ctx.GetPacket();
            h.SetTtl(h.GetTtl() - 1);
            auto it = m_peer.find(Key(node->GetId(), out));
            if (it == m_peer.end())
            {
                return w;
            }
            node = it->second.first;
            inIf = it->second.second;
        }
        return w; // too many switches: a loop
    }

  private:
    static uint64_t Key(uint32_t node, uint32_t iface)
    {
        return (uint64_t(node) << 32) | iface;
    }

    Ptr<DcnTopologyBase> m_t;
    std::map<uint64_t, std::pair<Ptr<Node>, uint32_t>> m_peer;
};

/** UDP header bytes (+ zero payload) with a given source port (EV). */
inline Ptr<Packet>
UdpPacket(uint16_t srcPort, uint32_t payload = 64)
{
    std::vector<uint8_t> b(8 + payload, 0);
    b[0] = srcPort >> 8;
    b[1] = srcPort & 0xff;
    b[2] = 4791 >> 8;
    b[3] = 4791 & 0xff;
    return Create<Packet>(b.data(), static_cast<uint32_t>(b.size()));
}

} // namespace dcntest
} // namespace ns3

#endif // DCN_GRAPH_TOPOLOGY_WALK_H
