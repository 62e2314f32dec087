/*
 * pcap capture on the ports of a DcnTopology, chosen by name.
 *
 * A "port list" is a comma-separated list whose items are
 *   - a link id ("12") or a link name ("host3-tor0"): both ends of the link;
 *   - a node name as it appears in link names ("tor0", "host3", "spine1"): every
 *     port of that node (its end of each of its links);
 *   - "all": both ends of every link.
 * Link names are "<nodeA>-<nodeB>" (DcnLinkInfo::name); node names contain no '-'.
 *
 * Capture uses ns-3's PointToPointHelper pcap support (DLT_PPP, the device's
 * PromiscSniffer trace: every packet sent or received by the port, as bytes on the
 * wire after the PPP header), so `tcpdump -r` and Wireshark read the files.
 * One file per port: <prefix>-<linkName>-<nodeName>.pcap, closed (complete) at
 * Simulator::Destroy().
 */
#ifndef DCN_PCAP_HELPER_H
#define DCN_PCAP_HELPER_H

#include "ns3/dcn-topology.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/** One captured port: a link and the end (node) of it. */
struct DcnPcapPort
{
    uint32_t linkId{0};
    bool endA{true}; //!< true: DcnLinkInfo::devA, false: devB
};

class DcnPcapHelper
{
  public:
    /**
     * Parse a port list (see the file comment) against a topology.
     * \param topo the built topology
     * \param list the comma-separated items
     * \param[out] ports the ports, without duplicates, in first-mention order
     * \return "" on success, else one line naming the bad item and what is allowed
     */
    static std::string ParsePortList(const DcnTopology& topo,
                                     const std::string& list,
                                     std::vector<DcnPcapPort>& ports);

    /**
     * Enable pcap on ports.
     * \return the file names, one per port, in the order of ports
     */
    static std::vector<std::string> Enable(const DcnTopology& topo,
                                           const std::vector<DcnPcapPort>& ports,
                                           const std::string& prefix);

    /** Name of the node at one end of a link, taken from the link name. */
    static std::string EndName(const DcnLinkInfo& li, bool endA);

    /** File name of a port's capture. */
    static std::string FileName(const DcnTopology& topo,
                                const DcnPcapPort& port,
                                const std::string& prefix);
};

} // namespace ns3

#endif // DCN_PCAP_HELPER_H
