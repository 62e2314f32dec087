/*
 * Small per-packet helpers of the fast fabric mode (issue 13): values that
 * ns-3 recomputes on every call and that a packet hop needs once per packet.
 *  - the broadcast MAC address (PointToPointNetDevice::GetBroadcast() parses
 *    "ff:ff:ff:ff:ff:ff" on every call);
 *  - Node::ChecksumEnabled() (a GlobalValue lookup per call), read once per
 *    object, at its first packet (the global is set before a run starts);
 *  - DataRate::CalculateBytesTxTime (a 128-bit division) memoised for the
 *    last size: packets of one flow have the same size, and the result is the
 *    same Time ns-3 computes (same call, same arguments).
 */
#ifndef DCN_FAST_PATH_H
#define DCN_FAST_PATH_H

#include "ns3/address.h"
#include "ns3/assert.h"
#include "ns3/data-rate.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/mac48-address.h"
#include "ns3/node.h"
#include "ns3/nstime.h"

namespace ns3
{
namespace dcnfast
{

/** The broadcast MAC address as an Address (what PointToPointNetDevice::GetBroadcast returns). */
inline const Address&
Broadcast()
{
    static const Address bcast = Mac48Address::GetBroadcast();
    return bcast;
}

/** Node::ChecksumEnabled(), read at the first use by its owner. */
class ChecksumFlag
{
  public:
    bool Get()
    {
        if (m_state < 0)
        {
            m_state = Node::ChecksumEnabled() ? 1 : 0;
        }
        return m_state == 1;
    }

  private:
    int8_t m_state{-1};
};

/**
 * DataRate::CalculateBytesTxTime (a 128-bit division) remembered for the last
 * four (rate, size) pairs: a port alternates between a few sizes (full data
 * packets, ACKs, trimmed headers, probes), so one entry would miss half the time.
 */
class TxTimeMemo
{
  public:
    Time Get(const DataRate& rate, uint32_t bytes)
    {
        const uint64_t bps = rate.GetBitRate();
        for (const Entry& e : m_e)
        {
            if (e.bytes == bytes && e.bps == bps)
            {
                return e.time;
            }
        }
        Entry& e = m_e[m_next];
        m_next = (m_next + 1) % N;
        e.bps = bps;
        e.bytes = bytes;
        e.time = rate.CalculateBytesTxTime(bytes);
        return e.time;
    }

  private:
    static constexpr uint32_t N = 4;

    struct Entry
    {
        uint64_t bps{0};
        uint32_t bytes{0};
        Time time;
    };

    Entry m_e[N];
    uint32_t m_next{0};
};

/**
 * The item as an Ipv4QueueDiscItem, or nullptr.  Every item that carries the
 * IPv4 protocol number is one (ns-3's Ipv4Interface and our fast paths create
 * them; ARP items carry 0x0806), so a protocol check and a static cast replace
 * a dynamic_cast (about 150 instructions, several per packet-hop).  Debug
 * builds check the claim.
 */
inline const Ipv4QueueDiscItem*
AsIpv4(const QueueDiscItem* item)
{
    const Ipv4QueueDiscItem* ip = item && item->GetProtocol() == 0x0800
                                      ? static_cast<const Ipv4QueueDiscItem*>(item)
                                      : nullptr;
    NS_ASSERT_MSG(ip == dynamic_cast<const Ipv4QueueDiscItem*>(item),
                  "a QueueDiscItem with protocol 0x0800 that is not an Ipv4QueueDiscItem");
    return ip;
}

/**
 * An Ipv4QueueDiscItem whose GetSize() reads the packet's size directly.
 * Ipv4QueueDiscItem::GetSize() copies a Ptr and serialises nothing but asks
 * the header for its (constant, 20-byte) size through two logged calls; the
 * queue-disc base, its internal queue and our queue logic call it about nine
 * times per hop.  The value is the same: packet bytes, plus the IPv4 header
 * while it is still separate.  The packet is read live, so an INT stamp or any
 * other change to the packet in the queue is seen.
 */
class Ipv4Item : public Ipv4QueueDiscItem
{
  public:
    Ipv4Item(Ptr<Packet> p, const Address& addr, uint16_t protocol, const Ipv4Header& header)
        : Ipv4QueueDiscItem(p, addr, protocol, header),
          m_pkt(PeekPointer(p)),
          m_hdrBytes(header.GetSerializedSize())
    {
    }

    uint32_t GetSize() const override
    {
        return m_pkt->GetSize() + (m_headerAdded ? 0 : m_hdrBytes);
    }

    void AddHeader() override
    {
        Ipv4QueueDiscItem::AddHeader();
        m_headerAdded = true;
    }

  private:
    const Packet* m_pkt; //!< the item's packet (QueueItem holds the reference)
    uint32_t m_hdrBytes;
    bool m_headerAdded{false};
};

} // namespace dcnfast
} // namespace ns3

#endif // DCN_FAST_PATH_H
