/*
 * Installs PFC and the shared-buffer switch model on a built DcnTopology
 * (issue 12 items 3 and 4; doc/roce.rst).
 *
 *  - every port (switch ports and host NICs) becomes a PFC port: its
 *    DcnQueueDisc knows its own and its peer's interface address (the PFC
 *    frame's IPv4 envelope) and link rate (pause quanta), and its node's
 *    DcnSwitchRouting hands it the PFC frames received on that interface;
 *  - every switch gets a DcnSwitchBuffer (aggregated to the Node) shared by
 *    its egress queue discs, sized for its ports (headroom formula from its
 *    fastest link and longest cable);
 *  - host NICs become lossless (DcnQueueDisc::Lossless) under PFC, and the
 *    DcnTransport of a host (if installed before) stops its data scheduler
 *    while its NIC is paused (DcnTransport::SetNicPaused).
 * With SetPfc(false) the switches get the lossy shared buffer only (dynamic
 * threshold drops), and no PFC port is set up.
 */
#ifndef DCN_PFC_HELPER_H
#define DCN_PFC_HELPER_H

#include "ns3/dcn-switch-buffer.h"
#include "ns3/dcn-topology.h"
#include "ns3/object-factory.h"

#include <string>

namespace ns3
{

class DcnPfcHelper
{
  public:
    DcnPfcHelper();

    /** An attribute of every DcnSwitchBuffer (e.g. BufferSize, Alpha). */
    void SetBufferAttribute(const std::string& name, const AttributeValue& value);
    /** An attribute of every PFC port's DcnQueueDisc (e.g. PfcWatchdog). */
    void SetPortAttribute(const std::string& name, const AttributeValue& value);
    /** PFC on (default) or off (lossy shared buffer only). */
    void SetPfc(bool on);

    /**
     * Install on every switch and host of \p topo (built, before traffic).
     * \return an empty string, or one line "option --<name>: ..." saying what does
     * not fit and what is allowed (for the caller to report as bad input as is).
     */
    std::string Install(Ptr<DcnTopology> topo);

    /** The buffer of a switch (nullptr if none). */
    static Ptr<DcnSwitchBuffer> GetBuffer(Ptr<Node> n);

  private:
    /** Who a refusal names: "option --pfc", or the lossy shared buffer when PFC is off. */
    std::string Subject() const;

    ObjectFactory m_buffer;
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_portAttrs;
    bool m_pfc{true};
};

} // namespace ns3

#endif // DCN_PFC_HELPER_H
