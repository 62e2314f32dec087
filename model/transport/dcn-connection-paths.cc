/*
 * DcnConnection, part 2: the path seam - path options written into the header
 * extension, the echoed path of ACKs, probes requested by the path selector,
 * losses declared by it, and the CC wake-up.  (Split from dcn-connection.cc to
 * keep files short; same class.)
 */
#include "../lb/ev-util.h"
#include "dcn-connection.h"
#include "dcn-transport.h"

#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <functional>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnConnectionPaths");

void
DcnConnection::Wakeup()
{
    NS_LOG_FUNCTION(this);
    if (m_transport != nullptr)
    {
        MaybeReady();
    }
}

void
DcnConnection::WritePathOptions(DcnHeader& h, const PathChoice& pc, int64_t nowNs)
{
    h.ClearExtension();
    if (pc.HasPathId())
    {
        h.extMask |= DcnHeader::EXT_PATH_ID;
        h.pathId = pc.pathId;
    }
    if (pc.HasRoute())
    {
        h.extMask |= DcnHeader::EXT_ROUTE;
        h.routeLen = std::min<uint8_t>(pc.routeLen, DcnHeader::MAX_ROUTE);
        h.routePtr = 0;
        for (uint8_t k = 0; k < h.routeLen; ++k)
        {
            h.route[k] = pc.route[k];
        }
    }
    if (pc.requestTimestamp)
    {
        h.extMask |= DcnHeader::EXT_TIMESTAMP;
        h.extTimestampNs = nowNs;
    }
}

PathFeedback
DcnConnection::MakeFeedback(FeedbackSignal signal, uint32_t psn) const
{
    PathFeedback fb;
    fb.signal = signal;
    fb.psn = psn;
    fb.bytesInFlight = static_cast<int64_t>(m_inflight);
    return fb;
}

PathChoice
DcnConnection::EchoedPath(const DcnHeader& h)
{
    PathChoice pc;
    pc.ev = h.evEcho;
    if (h.extMask & DcnHeader::EXT_PATH_ID)
    {
        pc.pathId = h.pathId;
    }
    if (h.extMask & DcnHeader::EXT_ROUTE)
    {
        pc.routeLen = std::min<uint8_t>(h.routeLen, PathChoice::MAX_ROUTE);
        for (uint8_t k = 0; k < pc.routeLen; ++k)
        {
            pc.route[k] = h.route[k];
        }
    }
    pc.requestTimestamp = (h.extMask & DcnHeader::EXT_TIMESTAMP) != 0;
    return pc;
}

void
DcnConnection::SendProbe(const PathChoice& pc)
{
    NS_LOG_FUNCTION(this << pc.ev << pc.pathId);
    if (m_transport == nullptr)
    {
        return;
    }
    Time now = Simulator::Now();
    DcnHeader h;
    h.opcode = DcnHeader::PROBE;
    h.evEcho = pc.ev;
    h.connId = m_connId;
    h.psn = m_nextProbe++;
    h.timestampNs = now.GetNanoSeconds();
    WritePathOptions(h, pc, now.GetNanoSeconds());
    m_transport->SendPacket(Create<Packet>(0), h, dcnev::ToUdpPort(pc.ev), m_dst, false);
}

void
DcnConnection::ReceiveProbeAck(const DcnHeader& h)
{
    NS_LOG_FUNCTION(this << h.psn << h.evEcho);
    PathFeedback fb = MakeFeedback(FeedbackSignal::PROBE_REPLY, h.psn);
    fb.path = EchoedPath(h);
    fb.rtt = NanoSeconds(Simulator::Now().GetNanoSeconds() - h.timestampNs);
    if (h.extMask & DcnHeader::EXT_TIMESTAMP)
    {
        fb.oneWayDelay = NanoSeconds(h.extTimestampNs - h.timestampNs);
    }
    fb.header = &h;
    m_ps->OnFeedback(fb);
}

void
DcnConnection::DeclareLost(uint32_t psn)
{
    NS_LOG_FUNCTION(this << psn);
    if (m_transport == nullptr || psn < m_psnBase || psn >= m_nextPsn)
    {
        return;
    }
    TxEntry& e = m_tx[psn - m_psnBase];
    if (e.state != IN_FLIGHT)
    {
        return;
    }
    NS_LOG_LOGIC("conn " << m_connId << " psn " << psn << " declared lost by the path selector");
    e.state = LOST;
    m_inflight -= e.size;
    // resent in sequence order before new data (LAPS spec 2.5), whatever order the
    // paths declared them in
    m_selectorLost.push_back(psn);
    std::push_heap(m_selectorLost.begin(), m_selectorLost.end(), std::greater<>());
    m_cc->OnNack();
    if (!m_inSendOne)
    {
        MaybeReady(); // inside SendOne (called from Choose) the NIC scheduler re-checks
    }
}

} // namespace ns3
