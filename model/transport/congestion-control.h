/*
 * Congestion control seam (DESIGN.md section 3.2).
 *
 * One object per sender connection.  Window-based algorithms (the MPRDMA-style
 * DCTCP used by REPS) answer GetCwnd(); rate-based ones (DCQCN, LAPS's AIMD)
 * answer GetRate() and leave the window unlimited.  The transport sends a new
 * packet when bytesInFlight + packet <= GetCwnd() and, if GetRate() is non-zero,
 * paces packets at that rate.
 */
#ifndef DCN_CONGESTION_CONTROL_H
#define DCN_CONGESTION_CONTROL_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <limits>

namespace ns3
{

/** Static facts about the connection, given once before the first packet. */
struct CcSetup
{
    uint32_t mtu{4096};   //!< payload bytes per packet
    uint64_t bdpBytes{0}; //!< bandwidth-delay product of the host link and base RTT
    DataRate lineRate{"400Gbps"};
    Time baseRtt{0};
};

class CongestionControl : public Object
{
  public:
    static TypeId GetTypeId();
    ~CongestionControl() override;

    virtual void Setup(const CcSetup& setup);
    /** A data packet carrying ackedBytes was acknowledged; ecn = the ACK echoed CE. */
    virtual void OnAck(uint32_t ackedBytes, bool ecn, Time rtt) = 0;
    /** A NACK for a trimmed packet. */
    virtual void OnNack() = 0;
    /** A retransmission timeout. */
    virtual void OnTimeout() = 0;

    /** Congestion window in bytes (max() = no window limit). */
    virtual uint64_t GetCwnd() const
    {
        return std::numeric_limits<uint64_t>::max();
    }

    /** Pacing rate (0 bps = send at line rate / as the window allows). */
    virtual DataRate GetRate() const
    {
        return DataRate(0);
    }

    virtual std::string Name() const = 0;

  protected:
    CcSetup m_setup;
};

} // namespace ns3

#endif // DCN_CONGESTION_CONTROL_H
