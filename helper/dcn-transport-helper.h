/*
 * Installs dcn-lb's message transport (DcnTransport) on host nodes.
 */
#ifndef DCN_TRANSPORT_HELPER_H
#define DCN_TRANSPORT_HELPER_H

#include "ns3/congestion-control.h"
#include "ns3/dcn-transport.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"

#include <string>

namespace ns3
{

class DcnTransportHelper
{
  public:
    DcnTransportHelper();

    /** Set an attribute of every DcnTransport created by Install(). */
    void SetTransportAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Set the DcnTransport attributes scheme `scheme` runs with
     * (DcnScheme::transportAttributes, e.g. LAPS's backstop Rto), except those the user
     * set: `given` is DcnOptions::GetAttributeArguments() ("ns3::Type::Attr=V;...").
     */
    void SetSchemeAttributes(const std::string& scheme, const std::string& given);

    /**
     * The general drivers' retransmission timeout: at least `baseRtts` unloaded RTTs per
     * connection (DcnTransport RtoBaseRtts), unless the user set Rto or RtoBaseRtts in
     * `given` (DcnOptions::GetAttributeArguments()).
     */
    void SetRtoFloor(double baseRtts, const std::string& given);

    /**
     * The general drivers' --transport=roce: go-back-N (Mode=InOrder) and a 1 ms
     * retransmission timeout as RoCE NICs keep (milliseconds; the LAPS experiments' RoCE
     * baselines run 1 ms), adaptive above it (RtoAdaptive: SRTT + 4 RTTVAR), unless the
     * user set Rto / RtoAdaptive in `given`: REPS's 70 us under go-back-N resends whole
     * windows on every queueing delay above it (a 10G 2:1 leaf-spine all-to-all: 760,587
     * resends, a PFC pause storm, 178 flows unfinished), and on the 1 Gb/s testbed an
     * incast queues longer than any fixed millisecond.
     * Call before SetSchemeAttributes (a scheme's own Mode or Rto wins: LAPS keeps its
     * loss recovery and 8 ms backstop).
     */
    void SetRoceDefaults(const std::string& given);

    /** Create, aggregate and bind a DcnTransport on each node (which needs an IPv4 stack). */
    void Install(NodeContainer nodes) const;
    Ptr<DcnTransport> Install(Ptr<Node> node) const;

    /** The transport aggregated to a node (aborts if none). */
    static Ptr<DcnTransport> Get(Ptr<Node> node);

    /** Congestion control by name ("dctcp"); aborts listing the known names. */
    static Ptr<CongestionControl> CreateCongestionControl(const std::string& name);

  private:
    ObjectFactory m_factory;
};

} // namespace ns3

#endif // DCN_TRANSPORT_HELPER_H
