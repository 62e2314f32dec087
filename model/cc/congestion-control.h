/*
 * Congestion control seam (DESIGN.md section 3.2).  TypeId: ns3::DcnCongestionControl.
 *
 * One object per sender connection.  The transport tells it about every packet
 * sent (OnSend), every acknowledgement (OnAck, one CcAckSample: acked bytes, ECN
 * echo, RTT, one-way delay, path, PSN, now), NACKs of trimmed packets, timeouts
 * and congestion notification packets (OnCnp, DCQCN).  Window-based algorithms
 * (the MPRDMA-style DCTCP used by REPS) answer GetCwnd(); rate-based ones
 * (DCQCN, LAPS's AIMD) answer GetRate() and the transport paces packets at that
 * rate.  Both may be used at once.  A CC may own timers (rate increase, alpha
 * update): it schedules them itself and calls CcSetup::wakeup when the window or
 * rate grew, so that a connection blocked by the CC looks again.
 */
#ifndef DCN_CONGESTION_CONTROL_H
#define DCN_CONGESTION_CONTROL_H

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/dcn-path-choice.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <limits>
#include <string>

namespace ns3
{

class DcnHeader;

/** Static facts about the connection, given once before the first packet. */
struct CcSetup
{
    uint32_t mtu{4096};   //!< payload bytes per packet
    uint64_t bdpBytes{0}; //!< bandwidth-delay product of the host link and base RTT
    DataRate lineRate{"400Gbps"};
    Time baseRtt{0};
    /** Call when the window or rate grew outside OnAck (CC-owned timers). */
    Callback<void> wakeup;
    /** The connection's path selector, for a CC that shares state with it
     *  (LAPS: Alg. 2 runs on the selector's path table); may be null. */
    Ptr<Object> pathSelector;
};

/** One acknowledgement, as the congestion control sees it. */
struct CcAckSample
{
    uint32_t ackedBytes{0}; //!< payload bytes newly acknowledged
    bool ecn{false};        //!< the ACK echoed a CE mark
    Time rtt{0};            //!< RTT of the acknowledged packet
    Time oneWayDelay{-1};   //!< sender-to-receiver delay (negative = not carried)
    PathChoice path;        //!< path of the acknowledged packet (echoed)
    uint32_t psn{0};        //!< PSN the ACK was triggered by
    Time now{0};            //!< arrival time of the ACK
    /** The ACK's header (INT records echoed from the data packet: EXT_INT); may be null. */
    const DcnHeader* header{nullptr};
    uint32_t nextPsn{0}; //!< the sender's next new PSN (snd_nxt) when the ACK arrived
    uint32_t cumAck{0};  //!< the ACK's cumulative acknowledgement (every PSN below it arrived)
    /** The acknowledgement is a go-back-N NACK (in-order mode: the receiver saw a packet out of
     *  sequence; its cumAck acknowledged the bytes); OnNack() follows if it was not stale. */
    bool nack{false};

    /** A sample with only the three classic fields (tests, simple callers). */
    static CcAckSample Simple(uint32_t ackedBytes, bool ecn, Time rtt)
    {
        CcAckSample s;
        s.ackedBytes = ackedBytes;
        s.ecn = ecn;
        s.rtt = rtt;
        return s;
    }
};

/** One packet handed to the NIC. */
struct CcSendSample
{
    uint32_t psn{0};
    uint32_t bytes{0}; //!< payload bytes
    bool retransmission{false};
    uint64_t bytesInFlight{0}; //!< after this packet
    Time now{0};
};

class CongestionControl : public Object
{
  public:
    static TypeId GetTypeId();
    ~CongestionControl() override;

    virtual void Setup(const CcSetup& setup);
    /** A data packet was acknowledged (called only when bytes were newly acknowledged). */
    virtual void OnAck(const CcAckSample& s) = 0;
    /** A NACK for a trimmed packet (or a loss declared by the path selector). */
    virtual void OnNack() = 0;
    /** A retransmission timeout. */
    virtual void OnTimeout() = 0;
    /** A data packet left (default: nothing). */
    virtual void OnSend(const CcSendSample& s);
    /** A congestion notification packet arrived (DCQCN; default: nothing). */
    virtual void OnCnp(Time now);

    /** Whether data packets must ask switches for INT records (HPCC; default: no). */
    virtual bool WantsInt() const
    {
        return false;
    }

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

    /** "" if the attribute values are valid, else one line (attribute, value, allowed). */
    virtual std::string Validate() const;

    virtual std::string Name() const = 0;

  protected:
    /** Validate()'s check of a send-window attribute: "" for 0 (none) or at least one
     *  64-B frame, else the one-line refusal naming --ns3::<typeName>::Window. */
    static std::string CheckWindowBytes(const std::string& typeName, uint64_t window);

    CcSetup m_setup;
};

} // namespace ns3

#endif // DCN_CONGESTION_CONTROL_H
