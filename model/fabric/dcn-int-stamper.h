/*
 * In-band network telemetry (INT) stamping at a switch egress port (issue 12,
 * item 5; HPCC, Li et al. SIGCOMM'19 Sec. 3.1 and Fig. 5).
 *
 * One DcnIntStamper lives in every DcnQueueDisc.  It counts the bytes the port
 * transmits (every item that leaves the queue disc, both bands, IPv4 packet
 * size: PPP framing excluded) and, on a switch port (SetIdentity was called by
 * the topology builder) with stamping enabled, appends one record to DATA
 * packets of our transport whose DcnHeader carries EXT_INT:
 *   {switch id, port (ifIndex), link rate in Mb/s, queue length in bytes after
 *    this dequeue, bytes transmitted before this packet, Simulator::Now() in ns}
 * The sender reserved the record slots (DcnHeader EXT_INT), so the record is
 * written in place: the UDP and DcnHeader headers are removed, the record
 * filled and the headers added again (ns-3 Packet operations only; the packet
 * keeps its size, so the IPv4 and UDP lengths stay valid).  A packet whose
 * slots are all used is left unchanged and counted (GetNFull).
 *
 * Per packet O(1): a 33-byte CopyData decides whether the packet asks for INT
 * (UDP port 4791, opcode DATA, FLAG_EXT, EXT_INT in the extension mask at the
 * fixed DATA offset); the scratch DcnHeader is a member (no allocation).
 */
#ifndef DCN_INT_STAMPER_H
#define DCN_INT_STAMPER_H

#include "ns3/data-rate.h"
#include "ns3/dcn-header.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <memory>

namespace ns3
{

class QueueDiscItem;

class DcnIntStamper
{
  public:
    /** Mark this port as a switch egress: switch index, port (ifIndex), link rate. */
    void SetIdentity(uint16_t switchId, uint16_t port, DataRate rate);

    /** True once SetIdentity was called (switch ports only). */
    bool IsSwitchPort() const
    {
        return m_switchPort;
    }

    /**
     * An item left the queue disc for the device.
     * \param item the item (its packet may be rewritten)
     * \param queueBytesAfter queue length in bytes after this dequeue
     * \param stamp whether stamping is enabled on this port
     * \return true if a record was stamped
     */
    bool OnDequeue(Ptr<QueueDiscItem> item, uint32_t queueBytesAfter, bool stamp);

    /** True if the (IP-payload) packet bytes are a DATA packet that asks for INT. */
    static bool WantsInt(const uint8_t* udpAndDcn, uint32_t len);

    uint64_t GetTxBytes() const
    {
        return m_txBytes;
    }

    uint64_t GetNStamped() const
    {
        return m_nStamped;
    }

    uint64_t GetNFull() const
    {
        return m_nFull;
    }

    uint16_t GetSwitchId() const
    {
        return m_switchId;
    }

    uint32_t GetRateMbps() const
    {
        return m_rateMbps;
    }

  private:
    bool m_switchPort{false};
    uint16_t m_switchId{0};
    uint16_t m_port{0};
    uint32_t m_rateMbps{0};
    uint64_t m_txBytes{0};
    uint64_t m_nStamped{0};
    uint64_t m_nFull{0};
    /** Reused for every stamp (no per-packet construction); created at the first INT
     *  packet, so ports that never see one (most runs) do not carry its ~400 bytes. */
    std::unique_ptr<DcnHeader> m_scratch;
};

} // namespace ns3

#endif // DCN_INT_STAMPER_H
