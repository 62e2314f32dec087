/*
 * The small leaf-spine fabrics the switch-policy tests drive crafted packets through
 * (dcn-lb-fabric-lb-policies, dcn-lb-conweave): a 2-tier fat tree built with a switch
 * forwarding policy, and the IPv4 header of a packet between two of its hosts.
 */
#ifndef DCN_LB_FABRIC_POLICY_TEST_NET_H
#define DCN_LB_FABRIC_POLICY_TEST_NET_H

#include "ns3/data-rate.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/ipv4-header.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <string>

namespace ns3
{

/**
 * A 2-tier fat tree of `tors` leaves x `hpt` hosts with `up` uplinks per leaf, switch
 * forwarding policy `policy` (short name), the leaf1 - spine0 link at `slowRate` if
 * given, FabricMode `fabricMode` if given (else the default, DCNLB_FABRIC); built, with
 * its random streams assigned from 7.
 */
inline Ptr<FatTreeHelper>
BuildPolicyLeafSpine(const std::string& policy,
                     uint32_t tors,
                     uint32_t hpt,
                     uint32_t up,
                     const std::string& slowRate = "",
                     const std::string& fabricMode = "")
{
    Ptr<FatTreeHelper> ft = CreateObject<FatTreeHelper>();
    if (!fabricMode.empty())
    {
        ft->SetAttribute("FabricMode", StringValue(fabricMode));
    }
    if (!slowRate.empty())
    {
        ft->SetAttribute("SlowLinkRate", DataRateValue(DataRate(slowRate)));
        ft->AddSlowLink(1, 0); // leaf1 - spine0
    }
    ft->SetAttribute("NumTors", UintegerValue(tors));
    ft->SetAttribute("HostsPerTor", UintegerValue(hpt));
    ft->SetAttribute("UplinksPerTor", UintegerValue(up));
    ft->SetAttribute("ForwardingPolicy", StringValue(policy));
    ft->Build();
    ft->AssignStreams(7);
    return ft;
}

/** IPv4 header of a UDP packet from host src to host dst of ft (TTL 63, id). */
inline Ipv4Header
PolicyTestIpHeader(Ptr<FatTreeHelper> ft, uint32_t src, uint32_t dst, uint16_t id = 0)
{
    Ipv4Header h;
    h.SetSource(ft->GetHostAddress(src));
    h.SetDestination(ft->GetHostAddress(dst));
    h.SetProtocol(17);
    h.SetTtl(63);
    h.SetIdentification(id);
    return h;
}

} // namespace ns3

#endif // DCN_LB_FABRIC_POLICY_TEST_NET_H
