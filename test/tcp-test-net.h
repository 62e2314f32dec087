/*
 * The small leaf-spine the TCP tests run on (dcn-lb-tcp-shim, dcn-lb-tcp-vs-global): a
 * 2-tier fat tree of 2 leaves x 4 hosts with 4 uplinks per leaf, 10 Gb/s everywhere, routed
 * by `routing` ("dcn": our switches; "global": ns-3 Ipv4GlobalRouting in the IPv4 fabric).
 * Built, with its random streams assigned from 1; *stream is the next free stream.
 */
#ifndef DCN_LB_TCP_TEST_NET_H
#define DCN_LB_TCP_TEST_NET_H

#include "ns3/data-rate.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <string>

namespace ns3
{

inline Ptr<FatTreeHelper>
BuildTcpTestLeafSpine(const std::string& routing, int64_t* stream)
{
    Ptr<FatTreeHelper> ft = CreateObject<FatTreeHelper>();
    ft->SetAttribute("NumTors", UintegerValue(2));
    ft->SetAttribute("HostsPerTor", UintegerValue(4));
    ft->SetAttribute("UplinksPerTor", UintegerValue(4));
    ft->SetAttribute("HostLinkRate", DataRateValue(DataRate("10Gbps")));
    ft->SetAttribute("FabricLinkRate", DataRateValue(DataRate("10Gbps")));
    ft->SetAttribute("Routing", StringValue(routing));
    ft->Build();
    *stream = 1;
    *stream += ft->AssignStreams(*stream);
    return ft;
}

} // namespace ns3

#endif // DCN_LB_TCP_TEST_NET_H
