#include "dcn-topology.h"

#include "ns3/dcn-header.h"
#include "ns3/log.h"
#include "ns3/trace-source-accessor.h"

#include <algorithm>
#include <limits>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnTopology");
NS_OBJECT_ENSURE_REGISTERED(DcnTopology);

TypeId
DcnTopology::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcnTopology")
            .SetParent<Object>()
            .SetGroupName("DcnLb")
            .AddTraceSource("LinkRouted",
                            "A link's routes were withdrawn (false) or restored (true), e.g. "
                            "by FailureHelper; host-side tables (LAPS's PIT validity, spec "
                            "laps.md 1.2) follow it",
                            MakeTraceSourceAccessor(&DcnTopology::m_linkRouted),
                            "ns3::DcnTopology::LinkRoutedCallback");
    return tid;
}

DcnTopology::~DcnTopology() = default;

uint32_t
DcnTopology::FindLink(const std::string& name) const
{
    NS_LOG_FUNCTION(this << name);
    for (const DcnLinkInfo& l : GetLinks())
    {
        if (l.name == name)
        {
            return l.id;
        }
    }
    return DcnAddressing::NONE;
}

bool
DcnTopology::IsBuilt() const
{
    return true;
}

uint32_t
DcnTopology::GetNTiers() const
{
    int32_t top = 0;
    for (const DcnLinkInfo& l : GetLinks())
    {
        top = std::max({top, l.tierA, l.tierB});
    }
    return static_cast<uint32_t>(top + 1);
}

Time
DcnTopology::GetPathRtt(uint32_t srcHost,
                        uint32_t dstHost,
                        const DcnPath& path,
                        uint32_t payloadBytes) const
{
    NS_LOG_FUNCTION(this << srcHost << dstHost << path.id << payloadBytes);
    // Wire sizes: PPP (2) + IPv4 (20) + UDP (8) + DcnHeader.
    const uint32_t ovh = 2 + 20 + 8 + DcnHeader::BASE_SIZE;
    const uint32_t dataBytes = payloadBytes + ovh;
    const uint32_t ackBytes = DcnHeader::WIRE_BELOW + DcnHeader::CTRL_BASE_SIZE;
    auto linkRtt = [&](const DcnLinkInfo& l) {
        return l.rate.CalculateBytesTxTime(dataBytes) + l.rate.CalculateBytesTxTime(ackBytes) +
               2 * l.delay;
    };
    Time rtt(0);
    if (srcHost == dstHost)
    {
        return rtt;
    }
    NodeContainer hosts = GetHosts();
    // A host has exactly one link: its access link.
    rtt += linkRtt(GetLink(GetLinksOfNode(hosts.Get(srcHost)).at(0)));
    for (uint32_t l : path.links)
    {
        rtt += linkRtt(GetLink(l));
    }
    rtt += linkRtt(GetLink(GetLinksOfNode(hosts.Get(dstHost)).at(0)));
    return rtt;
}

uint64_t
DcnTopology::GetMaxHostPairBdp(uint32_t frameBytes) const
{
    NS_LOG_FUNCTION(this << frameBytes);
    // one link's share of a pair's RTT ([A]: 2 x delay + one frame's serialisation)
    // (in ps, not Time: the serialisation is not a whole number of ns)
    auto linkPs = [frameBytes](const DcnLinkInfo& l) {
        return 2 * l.delay.GetPicoSeconds() +
               static_cast<int64_t>(frameBytes * 8e12L / l.rate.GetBitRate());
    };

    struct Part
    {
        int64_t rttPs{0};
        uint64_t bps{std::numeric_limits<uint64_t>::max()};
    };

    const uint32_t n = GetNHosts();
    NodeContainer hosts = GetHosts();
    std::vector<Part> access(n);
    std::vector<uint32_t> switchOf(n);
    for (uint32_t h = 0; h < n; ++h)
    {
        // a host has exactly one link: its access link
        const DcnLinkInfo& l = GetLink(GetLinksOfNode(hosts.Get(h)).at(0));
        access[h] = {linkPs(l), l.rate.GetBitRate()};
        switchOf[h] = GetSwitchOfHost(h);
    }
    // the switch part of each pair of host switches, once: the first minimal path
    std::map<std::pair<uint32_t, uint32_t>, Part> between;
    auto switchPart = [&](uint32_t s, uint32_t d) -> const Part& {
        auto [it, fresh] = between.try_emplace({s, d});
        if (fresh && s != d)
        {
            const DcnPathSet& ps = GetPaths(s, d);
            NS_ABORT_MSG_IF(ps.paths.empty(),
                            "GetMaxHostPairBdp: no path from switch " << s << " to " << d);
            for (uint32_t id : ps.paths.front().links)
            {
                const DcnLinkInfo& l = GetLink(id);
                it->second.rttPs += linkPs(l);
                it->second.bps = std::min<uint64_t>(it->second.bps, l.rate.GetBitRate());
            }
        }
        return it->second;
    };
    uint64_t best = 0;
    for (uint32_t a = 0; a < n; ++a)
    {
        for (uint32_t b = 0; b < n; ++b)
        {
            if (a == b)
            {
                continue;
            }
            const Part& mid = switchPart(switchOf[a], switchOf[b]);
            const int64_t rttPs = access[a].rttPs + mid.rttPs + access[b].rttPs;
            const uint64_t bps = std::min({access[a].bps, mid.bps, access[b].bps});
            const auto bdp = static_cast<uint64_t>(static_cast<long double>(rttPs) * bps / 8e12L);
            best = std::max(best, bdp);
        }
    }
    return best;
}

} // namespace ns3
