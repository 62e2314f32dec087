/*
 * Source routing for LAPS (laps spec 1.3, 2.5): the "source" policy
 * (DcnSourceRouteForwardingPolicy: minimal segments between consecutive
 * anchors, read from the real bytes of the header extension) with a reader
 * that also routes
 *  - probes (opcode PROBE, control layout) along their route, and
 *  - replies (ACK, NACK, PROBE_ACK) that echo a route along its exact
 *    reverse: "an ACK reuses the reverse of its data packet's SR path" [P],
 *    which Alg. 3's per-path FIFO inference needs (an ACK path that shares no
 *    fate with its data path would be lost with an unrelated link).
 * Packets without a route are routed minimally.  Registered as switch policy
 * "laps-source" (DcnRegisterForwardingPolicy), used by scheme "laps".
 */
#ifndef DCN_LAPS_SOURCE_ROUTE_POLICY_H
#define DCN_LAPS_SOURCE_ROUTE_POLICY_H

#include "dcn-routing-policies.h"

namespace ns3
{

/**
 * Read the route of a DATA or PROBE packet (as sent) or of an ACK, NACK or
 * PROBE_ACK (reversed) from the bytes of an IP payload (UDP + DcnHeader).
 * \return false if the packet carries no route.
 */
bool LapsReadRoute(Ptr<const Packet> ipPayload, DcnSourceRoute* route);

class LapsSourceRouteForwardingPolicy : public DcnSourceRouteForwardingPolicy
{
  public:
    static TypeId GetTypeId();
    LapsSourceRouteForwardingPolicy();
    ~LapsSourceRouteForwardingPolicy() override;

    uint32_t Select(DcnForwardingContext& ctx) override;

    const char* Name() const override
    {
        return "laps-source";
    }
};

} // namespace ns3

#endif // DCN_LAPS_SOURCE_ROUTE_POLICY_H
