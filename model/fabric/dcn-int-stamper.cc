#include "dcn-int-stamper.h"

#include "dcn-fast-path.h"

#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/udp-header.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnIntStamper");

void
DcnIntStamper::SetIdentity(uint16_t switchId, uint16_t port, DataRate rate)
{
    NS_LOG_FUNCTION(this << switchId << port << rate);
    m_switchPort = true;
    m_switchId = switchId;
    m_port = port;
    m_rateMbps =
        static_cast<uint32_t>(std::min<uint64_t>(rate.GetBitRate() / 1000000ULL, 0xffffffffULL));
}

bool
DcnIntStamper::WantsInt(const uint8_t* b, uint32_t len)
{
    constexpr uint32_t need = 8 + DcnHeader::DATA_SIZE + 1;
    return len >= need && ((b[2] << 8) | b[3]) == DcnHeader::UDP_PORT && b[8] == DcnHeader::DATA &&
           (b[9] & DcnHeader::FLAG_EXT) != 0 &&
           (b[8 + DcnHeader::DATA_SIZE] & DcnHeader::EXT_INT) != 0;
}

bool
DcnIntStamper::OnDequeue(Ptr<QueueDiscItem> item, uint32_t queueBytesAfter, bool stamp)
{
    NS_LOG_FUNCTION(this << item << queueBytesAfter << stamp);
    const uint64_t txBefore = m_txBytes;
    m_txBytes += item->GetSize();
    if (!stamp || !m_switchPort)
    {
        return false;
    }
    const Ipv4QueueDiscItem* ip = dcnfast::AsIpv4(PeekPointer(item));
    if (ip == nullptr || ip->GetHeader().GetProtocol() != 17)
    {
        return false;
    }
    Ptr<Packet> p = item->GetPacket();
    uint8_t b[8 + DcnHeader::DATA_SIZE + 1];
    const uint32_t n = p->GetSize() < sizeof(b) ? 0 : p->CopyData(b, sizeof(b));
    if (!WantsInt(b, n))
    {
        return false;
    }
    UdpHeader udp;
    p->RemoveHeader(udp);
    if (!m_scratch)
    {
        m_scratch = std::make_unique<DcnHeader>();
    }
    DcnHeader& h = *m_scratch;
    p->RemoveHeader(h);
    bool stamped = false;
    if (h.intCount < h.intSlots)
    {
        DcnHeader::IntRecord& r = h.intRecords[h.intCount++];
        r.switchId = m_switchId;
        r.port = m_port;
        r.rateMbps = m_rateMbps;
        r.queueBytes = queueBytesAfter;
        r.txBytes = txBefore;
        r.timeNs = Simulator::Now().GetNanoSeconds();
        ++m_nStamped;
        stamped = true;
        NS_LOG_LOGIC("switch " << m_switchId << " port " << m_port << " stamped record "
                               << uint32_t(h.intCount) << " q=" << queueBytesAfter
                               << " tx=" << txBefore);
    }
    else
    {
        ++m_nFull;
        NS_LOG_LOGIC("switch " << m_switchId << ": no free INT slot");
    }
    p->AddHeader(h);
    UdpHeader u2; // fresh header: length recomputed from the (unchanged) size, checksum off
    u2.SetSourcePort(udp.GetSourcePort());
    u2.SetDestinationPort(udp.GetDestinationPort());
    p->AddHeader(u2);
    return stamped;
}

} // namespace ns3
