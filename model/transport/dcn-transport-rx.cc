/*
 * DcnTransport, part 2: the receive side - socket reads, the receiver's
 * per-connection state, ACK/NACK generation with the echo of the header
 * extension, and probe replies.  (Split from dcn-transport.cc to keep files
 * short; same class.)
 */
#include "../lb/ev-util.h"
#include "dcn-transport.h"

#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/udp-header.h"
#include "ns3/udp-l4-protocol.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnTransportRx");

void
DcnTransport::HandleRead(Ptr<Socket> s)
{
    Address from;
    Ptr<Packet> p;
    while ((p = s->RecvFrom(from)))
    {
        InetSocketAddress isa = InetSocketAddress::ConvertFrom(from);
        SocketIpTosTag tos;
        bool ce = false;
        if (p->RemovePacketTag(tos))
        {
            ce = (tos.GetTos() & 0x03) == 0x03;
        }
        ProcessPacket(p, isa.GetIpv4(), dcnev::FromUdpPort(isa.GetPort()), ce);
    }
}

bool
DcnTransport::FastReceive(Ptr<NetDevice> dev,
                          Ptr<const Packet> packet,
                          uint16_t protocol,
                          const Address& from)
{
    NS_LOG_FUNCTION(this << packet << protocol);
    if (protocol != Ipv4L3Protocol::PROT_NUMBER || !m_ipv4->IsUp(1))
    {
        m_tc->Receive(dev, packet, protocol, from, dev->GetAddress(), NetDevice::PACKET_HOST);
        return true;
    }
    // The device hands up its own copy (PointToPointNetDevice::Receive): ours to modify.
    Ptr<Packet> p = ConstCast<Packet>(packet);
    Ipv4Header ip;
    if (m_csum.Get())
    {
        ip.EnableChecksum();
    }
    p->RemoveHeader(ip);
    UdpHeader udp;
    if (!ip.IsChecksumOk() || ip.GetDestination() != m_local ||
        ip.GetProtocol() != UdpL4Protocol::PROT_NUMBER || ip.GetFragmentOffset() != 0 ||
        !ip.IsLastFragment() || p->GetSize() < ip.GetPayloadSize() ||
        ip.GetPayloadSize() < udp.GetSerializedSize())
    {
        p->AddHeader(ip); // not ours: the IPv4 stack decides, as in the IPv4 mode
        m_tc->Receive(dev, p, protocol, from, dev->GetAddress(), NetDevice::PACKET_HOST);
        return true;
    }
    if (p->GetSize() > ip.GetPayloadSize())
    {
        p->RemoveAtEnd(p->GetSize() - ip.GetPayloadSize());
    }
    // Checksums on (ns-3's ChecksumEnabled): verify the UDP checksum unless the sender
    // sent none (an all-zero field, RFC 768), as this transport does: switches trim and
    // stamp INT into its packets, which would invalidate an end-to-end sum.
    uint8_t udpBytes[8];
    if (m_csum.Get() && p->CopyData(udpBytes, 8) == 8 && (udpBytes[6] | udpBytes[7]) != 0)
    {
        udp.EnableChecksums();
        udp.InitializeChecksum(ip.GetSource(), ip.GetDestination(), UdpL4Protocol::PROT_NUMBER);
    }
    p->PeekHeader(udp);
    if (udp.GetDestinationPort() != DcnHeader::UDP_PORT)
    {
        p->AddHeader(ip);
        m_tc->Receive(dev, p, protocol, from, dev->GetAddress(), NetDevice::PACKET_HOST);
        return true;
    }
    p->RemoveHeader(udp);
    if (!udp.IsChecksumOk())
    {
        NS_LOG_LOGIC("bad UDP checksum: dropped (as UdpL4Protocol does)");
        return true;
    }
    ProcessPacket(p,
                  ip.GetSource(),
                  dcnev::FromUdpPort(udp.GetSourcePort()),
                  (ip.GetTos() & 0x03) == 0x03);
    return true;
}

void
DcnTransport::ProcessPacket(Ptr<Packet> p, Ipv4Address src, uint16_t ev, bool ce)
{
    {
        if (p->GetSize() < DcnHeader::BASE_SIZE)
        {
            NS_LOG_WARN("runt packet of " << p->GetSize() << " bytes on port 4791 ignored");
            return;
        }
        p->RemoveHeader(m_rxHdr);
        switch (m_rxHdr.opcode)
        {
        case DcnHeader::DATA:
            ReceiveData(p, m_rxHdr, src, ev, ce);
            break;
        case DcnHeader::PROBE:
            ReplyProbe(m_rxHdr, src, ev);
            break;
        case DcnHeader::CNP:
            m_stats.cnpsReceived++;
            if (m_rxHdr.connId < m_conns.size())
            {
                m_conns[m_rxHdr.connId]->ReceiveCnp();
            }
            break;
        case DcnHeader::PROBE_ACK:
            if (m_rxHdr.connId < m_conns.size())
            {
                m_conns[m_rxHdr.connId]->ReceiveProbeAck(m_rxHdr);
            }
            break;
        case DcnHeader::ACK:
        case DcnHeader::NACK: {
            bool nack = m_rxHdr.opcode == DcnHeader::NACK;
            if (nack)
            {
                m_stats.nacksReceived++;
                m_nackTrace(p, m_rxHdr);
            }
            else
            {
                m_stats.acksReceived++;
                m_ackTrace(p, m_rxHdr);
            }
            if (m_rxHdr.connId < m_conns.size())
            {
                m_conns[m_rxHdr.connId]->ReceiveAck(m_rxHdr);
            }
            break;
        }
        default:
            NS_LOG_WARN("ignoring opcode " << uint32_t(m_rxHdr.opcode));
            break;
        }
    }
}

DcnTransport::RxConn&
DcnTransport::GetRxConn(Ipv4Address from, uint32_t connId)
{
    uint64_t key = (uint64_t(from.Get()) << 32) | connId;
    if (key == m_lastRxKey)
    {
        return m_rx[m_lastRxIdx];
    }
    auto it = m_rxIndex.find(key);
    uint32_t idx;
    if (it == m_rxIndex.end())
    {
        idx = static_cast<uint32_t>(m_rx.size());
        m_rx.emplace_back();
        m_rx.back().src = from;
        m_rx.back().connId = connId;
        m_rx.back().np = cccore::DcqcnNp(m_cnpInterval.GetNanoSeconds());
        m_rxIndex.emplace(key, idx);
    }
    else
    {
        idx = it->second;
    }
    m_lastRxKey = key;
    m_lastRxIdx = idx;
    return m_rx[idx];
}

void
DcnTransport::ReceiveData(Ptr<Packet> p, const DcnHeader& h, Ipv4Address from, uint16_t ev, bool ce)
{
    NS_LOG_FUNCTION(this << from << h.connId << h.psn << ev << ce);
    m_stats.dataPacketsReceived++;
    if (ce)
    {
        m_stats.ceMarkedReceived++;
    }
    RxConn& rc = GetRxConn(from, h.connId);
    rc.lastArrivalNs = Simulator::Now().GetNanoSeconds();
    if (ce)
    {
        NotifyCe(rc, h, ev);
    }
    if (h.HasFlag(DcnHeader::FLAG_TRIMMED))
    {
        m_stats.trimmedReceived++;
        m_rxTrace(p, h, from, false);
        m_ackHdr.opcode = DcnHeader::NACK;
        // FLAG_TRIMMED: a go-back-N sender tells it from an out-of-sequence NACK
        m_ackHdr.flags = DcnHeader::FLAG_TRIMMED | (ce ? DcnHeader::FLAG_ECN_ECHO : 0);
        m_ackHdr.evEcho = ev;
        m_ackHdr.connId = h.connId;
        m_ackHdr.psn = h.psn;
        m_ackHdr.msgId = h.msgId;
        m_ackHdr.msgOffset = h.msgOffset;
        m_ackHdr.payloadSize = h.payloadSize;
        m_ackHdr.timestampNs = h.timestampNs;
        m_ackHdr.cumAck = rc.cum;
        m_ackHdr.sackBitmap = 0;
        m_ackHdr.evs.clear();
        EchoOptions(m_ackHdr, h, Simulator::Now().GetNanoSeconds());
        m_stats.nacksSent++;
        NS_LOG_LOGIC("NACK trimmed psn " << h.psn << " conn " << h.connId << " from " << from);
        SendPacket(Create<Packet>(0), m_ackHdr, dcnev::ToUdpPort(ev), from, false);
        return;
    }
    uint32_t psn = h.psn;
    bool dup = false;
    bool ooo = false;
    if (m_mode == IN_ORDER)
    {
        // go-back-N: only the expected PSN (rc.cum) is accepted
        if (psn > rc.cum)
        {
            ReceiveOutOfSequence(rc, h, ev, ce);
            return;
        }
        dup = psn < rc.cum;
        if (!dup)
        {
            rc.cum++;
            rc.highest = rc.cum;
        }
    }
    else if (psn < rc.cum)
    {
        dup = true;
    }
    else
    {
        uint32_t idx = psn - rc.cum;
        if (idx >= rc.window.size())
        {
            rc.window.resize(idx + 1, 0);
        }
        if (rc.window[idx])
        {
            dup = true;
        }
        else
        {
            rc.window[idx] = 1;
            if (idx < 64)
            {
                rc.sackBits |= uint64_t(1) << idx;
            }
            ooo = psn + 1 < rc.highest;
            rc.highest = std::max(rc.highest, psn + 1);
            uint32_t k = 0;
            while (!rc.window.empty() && rc.window.front())
            {
                rc.window.pop_front();
                rc.cum++;
                ++k;
            }
            if (k > 0)
            {
                // shift the bitmap with the window; bits 64 - k .. 63 come from beyond it
                rc.sackBits = k < 64 ? rc.sackBits >> k : 0;
                const size_t end = std::min<size_t>(64, rc.window.size());
                for (size_t i = k < 64 ? 64 - k : 0; i < end; ++i)
                {
                    if (rc.window[i])
                    {
                        rc.sackBits |= uint64_t(1) << i;
                    }
                }
            }
        }
    }
    if (dup)
    {
        rc.duplicates++;
        m_stats.duplicatePackets++;
    }
    else
    {
        rc.bytes += h.payloadSize;
        m_stats.uniqueBytesDelivered += h.payloadSize;
        if (ooo)
        {
            m_stats.outOfOrderPackets++;
        }
    }
    m_rxTrace(p, h, from, dup);
    rc.pendingAcks++;
    if (m_ackEvMode == ACK_EV_CARRY && !ce)
    {
        rc.carried.push_back(ev);
    }
    // stragglers of a message whose LAST packet already arrived (sprayed packets
    // overtake each other) are acknowledged at once: no later packet would
    // complete the coalescing batch and the sender would wait for an RTO
    bool straggler = h.psn < rc.lastEnd;
    if (h.HasFlag(DcnHeader::FLAG_LAST) && h.psn + 1 > rc.lastEnd)
    {
        rc.lastEnd = h.psn + 1;
    }
    if (rc.pendingAcks >= m_ackRatio || dup || straggler || h.HasFlag(DcnHeader::FLAG_LAST) ||
        rc.carried.size() >= 255)
    {
        SendAck(rc, h, ev, ce, ooo);
    }
    else if (m_ackDelay.IsStrictlyPositive())
    {
        rc.lastData = h;
        rc.lastEv = ev;
        rc.lastCe = ce;
        rc.lastOoo = ooo;
        if (rc.ackTimer.IsExpired())
        {
            uint32_t idx = static_cast<uint32_t>(&rc - m_rx.data());
            rc.ackTimer = Simulator::Schedule(m_ackDelay, &DcnTransport::DelayedAck, this, idx);
        }
    }
}

void
DcnTransport::ReceiveOutOfSequence(RxConn& rc, const DcnHeader& h, uint16_t ev, bool ce)
{
    m_stats.outOfSequenceDropped++;
    const Time now = Simulator::Now();
    const bool repeat = rc.nackedPsn == rc.cum;
    if (repeat && (m_nackRepeat.IsZero() || now < rc.lastNack + m_nackRepeat))
    {
        // one NACK per expected PSN (RoCE NICs: one per window); with NackRepeatInterval
        // one more at most every interval ([A] ReceiverCheckSeq's nackTimer)
        return;
    }
    rc.nackedPsn = rc.cum;
    rc.lastNack = now;
    if (repeat)
    {
        m_stats.goBackNackRepeats++;
    }
    m_ackHdr.opcode = DcnHeader::NACK;
    m_ackHdr.flags = ce ? DcnHeader::FLAG_ECN_ECHO : 0;
    m_ackHdr.evEcho = ev;
    m_ackHdr.connId = h.connId;
    m_ackHdr.psn = rc.cum; // the expected PSN: the sender goes back to it
    m_ackHdr.msgId = h.msgId;
    m_ackHdr.msgOffset = h.msgOffset;
    m_ackHdr.payloadSize = 0;
    m_ackHdr.timestampNs = h.timestampNs; // send time of the out-of-sequence packet
    m_ackHdr.cumAck = rc.cum;
    m_ackHdr.sackBitmap = 0;
    m_ackHdr.evs.clear();
    EchoOptions(m_ackHdr, h, rc.lastArrivalNs);
    m_stats.nacksSent++;
    m_stats.goBackNacksSent++;
    NS_LOG_LOGIC("go-back NACK expected psn " << rc.cum << " got " << h.psn << " conn " << h.connId
                                              << " from " << rc.src << (repeat ? " (repeat)" : ""));
    SendPacket(Create<Packet>(0), m_ackHdr, dcnev::ToUdpPort(ev), rc.src, false);
}

void
DcnTransport::NotifyCe(RxConn& rc, const DcnHeader& h, uint16_t ev)
{
    if (m_cnpMode == CNP_OFF || (m_cnpMode == CNP_AUTO && m_mode != IN_ORDER))
    {
        return;
    }
    if (!rc.np.OnCePacket(Simulator::Now().GetNanoSeconds()))
    {
        return;
    }
    DcnHeader& c = m_ackHdr;
    c.opcode = DcnHeader::CNP;
    c.flags = 0;
    c.evEcho = ev;
    c.connId = h.connId;
    c.psn = h.psn;
    c.msgId = h.msgId;
    c.msgOffset = 0;
    c.payloadSize = 0;
    c.timestampNs = h.timestampNs;
    c.cumAck = rc.cum;
    c.sackBitmap = 0;
    c.evs.clear();
    c.ClearExtension();
    m_stats.cnpsSent++;
    m_cnpTrace(rc.src, rc.connId);
    NS_LOG_LOGIC("CNP to " << rc.src << " conn " << rc.connId);
    // not ECT, opcode != DATA: the queue discs serve it in the high-priority band
    SendPacket(Create<Packet>(0), c, dcnev::ToUdpPort(ev), rc.src, false);
}

void
DcnTransport::DelayedAck(uint32_t idx)
{
    NS_LOG_FUNCTION(this << idx);
    RxConn& rc = m_rx[idx];
    if (rc.pendingAcks > 0)
    {
        NS_LOG_LOGIC("delayed ACK after " << rc.pendingAcks << " packets to " << rc.src);
        SendAck(rc, rc.lastData, rc.lastEv, rc.lastCe, rc.lastOoo);
    }
}

void
DcnTransport::EchoOptions(DcnHeader& reply, const DcnHeader& data, int64_t arrivalNs)
{
    reply.ClearExtension();
    if (data.extMask == 0)
    {
        return;
    }
    reply.extMask = data.extMask;
    reply.pathId = data.pathId;
    reply.routeLen = data.routeLen;
    reply.routePtr = data.routePtr;
    reply.route = data.route;
    if (data.extMask & DcnHeader::EXT_TIMESTAMP)
    {
        reply.extTimestampNs = arrivalNs; // when the data packet arrived
    }
    reply.intCount = data.intCount;
    // only the filled records are serialized: copy those, not all MAX_INT (a 256-B copy
    // per ACK otherwise)
    std::copy_n(data.intRecords.begin(),
                std::min<size_t>(data.intCount, data.intRecords.size()),
                reply.intRecords.begin());
}

void
DcnTransport::ReplyProbe(const DcnHeader& probe, Ipv4Address from, uint16_t ev)
{
    NS_LOG_FUNCTION(this << from << probe.psn << ev);
    DcnHeader r;
    r.opcode = DcnHeader::PROBE_ACK;
    r.evEcho = ev;
    r.connId = probe.connId;
    r.psn = probe.psn;
    r.timestampNs = probe.timestampNs;
    EchoOptions(r, probe, Simulator::Now().GetNanoSeconds());
    SendPacket(Create<Packet>(0), r, dcnev::ToUdpPort(ev), from, false);
}

void
DcnTransport::SendAck(RxConn& rc, const DcnHeader& data, uint16_t ev, bool ce, bool ooo)
{
    NS_LOG_LOGIC("ACK psn " << data.psn << " cum " << rc.cum << " to " << rc.src << " ev " << ev
                            << (ce ? " ECN" : ""));
    m_ackHdr.opcode = DcnHeader::ACK;
    m_ackHdr.flags = (ce ? DcnHeader::FLAG_ECN_ECHO : 0) | (ooo ? DcnHeader::FLAG_OOO : 0);
    m_ackHdr.evEcho = ev;
    m_ackHdr.connId = data.connId;
    m_ackHdr.psn = data.psn;
    m_ackHdr.msgId = data.msgId;
    m_ackHdr.msgOffset = data.msgOffset;
    m_ackHdr.payloadSize = data.payloadSize;
    m_ackHdr.timestampNs = data.timestampNs;
    m_ackHdr.cumAck = rc.cum;
    m_ackHdr.sackBitmap = rc.sackBits; // window[0..63], kept as the window moves
    m_ackHdr.evs = rc.carried;
    EchoOptions(m_ackHdr, data, rc.lastArrivalNs);
    rc.carried.clear();
    rc.pendingAcks = 0;
    if (m_ackDelay.IsStrictlyPositive())
    {
        rc.ackTimer.Cancel(); // only a delayed ACK schedules it
    }
    m_stats.acksSent++;
    SendPacket(Create<Packet>(0), m_ackHdr, dcnev::ToUdpPort(ev), rc.src, false);
}

} // namespace ns3
