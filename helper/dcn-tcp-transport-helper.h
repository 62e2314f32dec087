/*
 * Installs DcnTcpTransport (ns-3 TCP through the DcnTcpShim path shim) on host nodes
 * (issue 17).  Install(topology) also gives the hosts of one switch (a rack) one shared
 * object under the key "dcn-rack" of their DcnLbSharedState (Hermes: rack-shared probe
 * results, spec 2.4); each host keeps its own DcnLbSharedState.
 */
#ifndef DCN_TCP_TRANSPORT_HELPER_H
#define DCN_TCP_TRANSPORT_HELPER_H

#include "ns3/dcn-tcp-transport.h"
#include "ns3/dcn-topology.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"

#include <string>

namespace ns3
{

class DcnTcpTransportHelper
{
  public:
    DcnTcpTransportHelper();

    /** Set an attribute of every DcnTcpTransport created by Install(). */
    void SetTransportAttribute(const std::string& name, const AttributeValue& value);

    /** TCP congestion control by --cc name: "dctcp" (ns3::TcpDctcp), "newreno" (ns3::TcpNewReno).
     */
    void SetCongestionControl(const std::string& cc);

    /** Names SetCongestionControl accepts. */
    static std::vector<std::string> CongestionControlNames();

    /** Install on every host of a built topology, with rack-shared state per switch. */
    void InstallOnHosts(Ptr<DcnTopology> topology) const;
    /** Install on nodes (no rack sharing). */
    void Install(NodeContainer nodes) const;
    Ptr<DcnTcpTransport> Install(Ptr<Node> node) const;

  private:
    ObjectFactory m_factory;
};

} // namespace ns3

#endif // DCN_TCP_TRANSPORT_HELPER_H
