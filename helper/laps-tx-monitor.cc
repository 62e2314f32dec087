#include "laps-tx-monitor.h"

#include "ns3/callback.h"
#include "ns3/dcn-transport-helper.h"
#include "ns3/dcn-transport.h"
#include "ns3/laps-path-table.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/path-selector.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnLapsTxMonitor");
NS_OBJECT_ENSURE_REGISTERED(LapsTxMonitor);

TypeId
LapsTxMonitor::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::LapsTxMonitor")
            .SetParent<Object>()
            .SetGroupName("DcnLb")
            .AddConstructor<LapsTxMonitor>()
            .AddAttribute("GapThreshold",
                          "Inter-packet gap threshold of GetGapsAbove (paper Fig. 18: the "
                          "flowlet threshold of 50 us)",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&LapsTxMonitor::m_threshold),
                          MakeTimeChecker(Time(0)));
    return tid;
}

LapsTxMonitor::LapsTxMonitor() = default;
LapsTxMonitor::~LapsTxMonitor() = default;

void
LapsTxMonitor::Install(NodeContainer hosts)
{
    m_hosts = hosts;
    m_host.resize(hosts.GetN());
    m_linBins.assign(LINEAR_NS, 0);
    m_logBins.assign(LOG_BINS, 0);
    for (uint32_t i = 0; i < hosts.GetN(); ++i)
    {
        Ptr<DcnTransport> t = DcnTransportHelper::Get(hosts.Get(i));
        if (t)
        {
            t->TraceConnectWithoutContext(
                "Tx",
                MakeBoundCallback(
                    +[](LapsTxMonitor* m, uint32_t host, Ptr<const Packet> p, const DcnHeader& h) {
                        m->Tx(host, p, h);
                    },
                    this,
                    i));
        }
    }
}

void
LapsTxMonitor::Tx(uint32_t host, Ptr<const Packet> p, const DcnHeader& h)
{
    if (h.opcode != DcnHeader::DATA)
    {
        return;
    }
    m_packets++;
    Host& hs = m_host[host];
    if (h.connId >= hs.conns.size())
    {
        hs.conns.resize(std::max<size_t>(h.connId + 1, 2 * hs.conns.size()));
    }
    Conn& c = hs.conns[h.connId];
    const int64_t now = Simulator::Now().GetNanoSeconds();
    if (c.lastNs >= 0 && c.msgId == h.msgId)
    {
        const int64_t gap = now - c.lastNs;
        m_gaps++;
        m_sumNs += gap;
        m_maxNs = std::max(m_maxNs, gap);
        if (gap > m_threshold.GetNanoSeconds())
        {
            m_above++;
        }
        if (gap < LINEAR_NS)
        {
            m_linBins[gap]++;
        }
        else
        {
            const auto b = static_cast<uint32_t>(16 * std::log2(double(gap) / LINEAR_NS));
            m_logBins[std::min(b, LOG_BINS - 1)]++;
        }
    }
    c.lastNs = now;
    c.msgId = h.msgId;
    if ((h.extMask & DcnHeader::EXT_PATH_ID) && h.pathId >= 0)
    {
        const auto pid = static_cast<uint32_t>(h.pathId);
        if (pid >= hs.pidPackets.size())
        {
            hs.pidPackets.resize(std::max<size_t>(pid + 1, 2 * hs.pidPackets.size()));
        }
        hs.pidPackets[pid]++;
    }
}

double
LapsTxMonitor::GetGapQuantileUs(double q) const
{
    if (m_gaps == 0)
    {
        return 0;
    }
    const auto rank = std::max<uint64_t>(
        1,
        static_cast<uint64_t>(std::ceil(std::clamp(q, 0.0, 1.0) * double(m_gaps))));
    uint64_t seen = 0;
    for (int64_t ns = 0; ns < LINEAR_NS; ++ns)
    {
        seen += m_linBins[ns];
        if (seen >= rank)
        {
            return ns / 1e3;
        }
    }
    for (uint32_t b = 0; b < LOG_BINS; ++b)
    {
        seen += m_logBins[b];
        if (seen >= rank)
        {
            return LINEAR_NS * std::exp2(b / 16.0) / 1e3;
        }
    }
    return GetMaxGapUs();
}

uint64_t
LapsTxMonitor::GetPidPackets(uint32_t host, uint32_t pid) const
{
    if (host >= m_host.size() || pid >= m_host[host].pidPackets.size())
    {
        return 0;
    }
    return m_host[host].pidPackets[pid];
}

std::vector<LapsTxMonitor::PathClass>
LapsTxMonitor::PathClasses(uint32_t* singleClassPairs) const
{
    struct Acc
    {
        LapsTxMonitor::PathClass c;
        double expected{0}; //!< packets on the class under uniform spraying, summed over pairs
    };

    std::map<uint32_t, Acc> acc;
    uint32_t single = 0;
    for (uint32_t i = 0; i < m_host.size(); ++i)
    {
        Ptr<DcnTransport> t = DcnTransportHelper::Get(m_hosts.Get(i));
        if (!t)
        {
            continue;
        }
        Ptr<LapsHostTable> tab = DynamicCast<LapsHostTable>(t->GetSharedState()->Get("laps"));
        if (!tab || !tab->IsInit())
        {
            continue;
        }
        const uint32_t nHosts = m_hosts.GetN();
        for (uint32_t d = 0; d < nHosts; ++d)
        {
            const uint32_t n = tab->NumPids(d);
            if (n == 0)
            {
                continue;
            }
            const uint32_t first = tab->FirstPid(d);
            std::map<uint32_t, std::pair<uint32_t, uint64_t>> cls; // switches -> paths, packets
            uint64_t total = 0;
            for (uint32_t pid = first; pid < first + n; ++pid)
            {
                auto& e = cls[static_cast<uint32_t>(tab->Info(pid).route.size())];
                const uint64_t k = GetPidPackets(i, pid);
                e.first++;
                e.second += k;
                total += k;
            }
            if (total == 0)
            {
                continue;
            }
            if (cls.size() < 2)
            {
                single++;
                continue;
            }
            for (const auto& [sw, pk] : cls)
            {
                Acc& a = acc[sw];
                a.c.switches = sw;
                a.c.paths += pk.first;
                a.c.packets += pk.second;
                a.c.pairs++;
                a.expected += double(total) * pk.first / n;
            }
        }
    }
    std::vector<PathClass> out;
    for (auto& [sw, a] : acc)
    {
        a.c.share = a.expected > 0 ? a.c.packets / a.expected : 0;
        out.push_back(a.c);
    }
    if (singleClassPairs)
    {
        *singleClassPairs = single;
    }
    return out;
}

} // namespace ns3
