#include "port-stats-helper.h"

#include "ns3/boolean.h"
#include "ns3/dcn-port-device.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PortStatsHelper");
NS_OBJECT_ENSURE_REGISTERED(PortStatsHelper);

TypeId
PortStatsHelper::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PortStatsHelper")
            .SetParent<Object>()
            .SetGroupName("DcnLb")
            .AddConstructor<PortStatsHelper>()
            .AddAttribute("Interval",
                          "Sampling interval (REPS spec 3.5: 20 us utilisation buckets)",
                          TimeValue(MicroSeconds(20)),
                          MakeTimeAccessor(&PortStatsHelper::m_interval),
                          MakeTimeChecker())
            .AddAttribute("FileName",
                          "CSV output file (empty: no file, trace source only)",
                          StringValue(""),
                          MakeStringAccessor(&PortStatsHelper::m_file),
                          MakeStringChecker())
            .AddAttribute("IncludeHosts",
                          "Also sample host NIC ports (spec resolution: switch ports only)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&PortStatsHelper::m_includeHosts),
                          MakeBooleanChecker())
            .AddTraceSource("Sample",
                            "One port sample per port per interval",
                            MakeTraceSourceAccessor(&PortStatsHelper::m_sampleTrace),
                            "ns3::PortStatsHelper::SampleCallback");
    return tid;
}

PortStatsHelper::PortStatsHelper()
{
    NS_LOG_FUNCTION(this);
}

PortStatsHelper::~PortStatsHelper()
{
    NS_LOG_FUNCTION(this);
}

void
PortStatsHelper::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_ports.clear();
    if (m_out.is_open())
    {
        m_out.close();
    }
    m_topology = nullptr;
    Object::DoDispose();
}

void
PortStatsHelper::Install(Ptr<DcnTopology> fabric, Time start, Time stop)
{
    NS_LOG_FUNCTION(this << fabric << start << stop);
    m_topology = fabric;
    NS_ABORT_MSG_IF(!fabric || !fabric->IsBuilt(), "PortStatsHelper: fabric must be built");
    NS_ABORT_MSG_IF(!m_interval.IsStrictlyPositive(),
                    "PortStatsHelper: Interval=" << m_interval << "; allowed > 0");
    NS_ABORT_MSG_IF(stop < start, "PortStatsHelper: stop=" << stop << " < start=" << start);
    for (const DcnLinkInfo& l : fabric->GetLinks())
    {
        for (int end = 0; end < 2; ++end)
        {
            int32_t tier = end == 0 ? l.tierA : l.tierB;
            if (tier < 0 && !m_includeHosts)
            {
                continue;
            }
            DcnPortInfo pi;
            pi.node = end == 0 ? l.a : l.b;
            pi.tier = tier;
            pi.ifIndex = end == 0 ? l.ifA : l.ifB;
            pi.linkId = l.id;
            pi.device = end == 0 ? l.devA : l.devB;
            pi.qdisc = fabric->GetQueueDisc(pi.device);
            uint32_t idx = static_cast<uint32_t>(m_ports.size());
            DcnPortDevice::ConnectTxEnd(pi.device,
                                        MakeCallback(&PortStatsHelper::OnTx, this).Bind(idx));
            m_ports.push_back(pi);
        }
    }
    size_t n = m_ports.size();
    m_tx.assign(n, 0);
    m_lastTx.assign(n, 0);
    m_lastMarks.assign(n, 0);
    m_lastTrims.assign(n, 0);
    m_lastDrops.assign(n, 0);
    m_lastPauseTx.assign(n, 0);
    m_lastPauseRx.assign(n, 0);
    m_lastPaused.assign(n, Time(0));
    if (!m_file.empty())
    {
        m_out.open(m_file);
        NS_ABORT_MSG_IF(!m_out, "PortStatsHelper: cannot open FileName='" << m_file << "'");
        m_out << "time_s,node,tier,if,link,tx_bytes,util,queue_bytes,marks,trims,drops,"
                 "pauses_tx,pauses_rx,paused_frac\n";
    }
    m_stop = stop;
    Simulator::Schedule(start + m_interval - Simulator::Now(), &PortStatsHelper::Sample, this);
}

uint32_t
PortStatsHelper::FindPort(const std::string& linkName, bool upperEnd) const
{
    NS_LOG_FUNCTION(this << linkName << upperEnd);
    NS_ABORT_MSG_IF(!m_topology, "PortStatsHelper::FindPort before Install()");
    uint32_t lid = m_topology->FindLink(linkName);
    NS_ABORT_MSG_IF(lid == DcnAddressing::NONE,
                    "PortStatsHelper: link='" << linkName << "' does not exist in "
                                              << m_topology->GetTopologyName());
    const DcnLinkInfo& l = m_topology->GetLink(lid);
    Ptr<PointToPointNetDevice> dev = upperEnd ? l.devB : l.devA;
    for (uint32_t i = 0; i < m_ports.size(); ++i)
    {
        if (m_ports[i].device == dev)
        {
            return i;
        }
    }
    NS_ABORT_MSG("PortStatsHelper: link='" << linkName << "' end " << (upperEnd ? "b" : "a")
                                           << " is a host NIC and IncludeHosts is false");
    return 0;
}

void
PortStatsHelper::OnTx(uint32_t port, Ptr<const Packet> p)
{
    m_tx[port] += p->GetSize();
}

void
PortStatsHelper::Sample()
{
    NS_LOG_FUNCTION(this);
    Time now = Simulator::Now();
    for (uint32_t i = 0; i < m_ports.size(); ++i)
    {
        const DcnPortInfo& pi = m_ports[i];
        DcnPortSample s;
        s.time = now;
        s.port = i;
        s.txBytes = m_tx[i] - m_lastTx[i];
        m_lastTx[i] = m_tx[i];
        DataRateValue rate;
        pi.device->GetAttribute("DataRate", rate);
        double cap = rate.Get().GetBitRate() * m_interval.GetSeconds() / 8.0;
        s.utilisation = cap > 0 ? s.txBytes / cap : 0;
        if (pi.qdisc)
        {
            s.queueBytes = pi.qdisc->GetNBytes();
            s.marks = pi.qdisc->GetNMarked() - m_lastMarks[i];
            s.trims = pi.qdisc->GetNTrimmed() - m_lastTrims[i];
            s.drops = pi.qdisc->GetNDropped() - m_lastDrops[i];
            m_lastMarks[i] = pi.qdisc->GetNMarked();
            m_lastTrims[i] = pi.qdisc->GetNTrimmed();
            m_lastDrops[i] = pi.qdisc->GetNDropped();
            s.pausesTx = pi.qdisc->GetNPauseFramesSent() - m_lastPauseTx[i];
            s.pausesRx = pi.qdisc->GetNPauseFramesReceived() - m_lastPauseRx[i];
            const Time paused = pi.qdisc->GetPausedTime();
            s.pausedFraction = (paused - m_lastPaused[i]).GetSeconds() / m_interval.GetSeconds();
            m_lastPauseTx[i] = pi.qdisc->GetNPauseFramesSent();
            m_lastPauseRx[i] = pi.qdisc->GetNPauseFramesReceived();
            m_lastPaused[i] = paused;
        }
        m_sampleTrace(s);
        if (m_out.is_open())
        {
            m_out << now.GetSeconds() << ',' << pi.node->GetId() << ',' << pi.tier << ','
                  << pi.ifIndex << ',' << pi.linkId << ',' << s.txBytes << ',' << s.utilisation
                  << ',' << s.queueBytes << ',' << s.marks << ',' << s.trims << ',' << s.drops
                  << ',' << s.pausesTx << ',' << s.pausesRx << ',' << s.pausedFraction << '\n';
        }
    }
    if (now + m_interval <= m_stop)
    {
        Simulator::Schedule(m_interval, &PortStatsHelper::Sample, this);
    }
    else if (m_out.is_open())
    {
        m_out.flush();
    }
}

} // namespace ns3
