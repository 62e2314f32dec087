/*
 * The application-facing message-transport interface (issue 8 item 5): what a
 * workload or application needs from any transport - open a connection to a
 * host, post a message on it, get a completion callback when every byte has
 * been delivered and acknowledged.  DcnTransport (the RoCEv2-like transport)
 * implements it; a second transport (ns-3 TCP with an EV encapsulation, the
 * Hermes issue) implements the same four calls, and DcnWorkloadApp runs every
 * workload over either.  Find it on a node with node->GetObject<DcnMessageTransport>().
 */
#ifndef DCN_MESSAGE_TRANSPORT_H
#define DCN_MESSAGE_TRANSPORT_H

#include "ns3/callback.h"
#include "ns3/congestion-control.h"
#include "ns3/dcn-connection.h"
#include "ns3/ipv4-address.h"
#include "ns3/object.h"
#include "ns3/path-selector.h"

#include <cstdint>
#include <string>

namespace ns3
{

class DcnMessageTransport : public Object
{
  public:
    using CompletionCallback = Callback<void, const DcnMessageRecord&>;

    static TypeId GetTypeId();
    ~DcnMessageTransport() override;

    /** Short name of the transport ("dcn", "tcp"), as used by DcnScheme::transport. */
    virtual std::string GetTransportName() const = 0;

    /**
     * Open a connection to dst with its own path selector and congestion
     * control (a transport that does not use one may ignore it).
     * \return the connection id (local to this transport)
     */
    virtual uint32_t OpenConnection(Ipv4Address dst,
                                    Ptr<PathSelector> ps,
                                    Ptr<CongestionControl> cc,
                                    const DcnConnectionParams& p) = 0;

    /**
     * Post a message of bytes (>= 1) on connection connId; messages of a connection
     * are delivered in FIFO order.  onComplete gets a record carrying userTag.
     * \return the message id
     */
    virtual uint32_t PostMessage(uint32_t connId,
                                 uint64_t bytes,
                                 CompletionCallback onComplete,
                                 uint64_t userTag) = 0;

    /** Messages queued or in progress on connId. */
    virtual uint32_t GetPendingMessages(uint32_t connId) const = 0;

    /** Payload bytes per packet (for ideal FCTs). */
    virtual uint32_t GetMtu() const = 0;

    /**
     * Progress of a message posted with userTag that has not completed (for honest
     * reports of unfinished runs): retransmissions, timeouts, out-of-order packets,
     * trims and bytes acknowledged so far.  \return false if the transport does not
     * know such a message (the default for transports that do not track it).
     */
    virtual bool GetMessageProgress(uint64_t userTag, DcnMessageRecord& out) const
    {
        return false;
    }
};

} // namespace ns3

#endif // DCN_MESSAGE_TRANSPORT_H
