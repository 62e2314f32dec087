/*
 * EV -> path discovery for host-side schemes that steer to explicit paths over ECMP
 * switches (Hermes, issue 17).  Like CLOVE's traceroute-based discovery, it finds for a host
 * pair one EV (UDP source port) per path of the pair's DcnPathSet: it walks a packet with
 * UDP(src = EV, dst = port) through the switches' own tables and forwarding policies
 * (DcnSwitchRouting::GetCandidates + ForwardingPolicy::Select, as the switches forward it),
 * without sending anything, and matches the links crossed to a path.  Forwarding still reads
 * the real bytes; this only tells the sender which EV lands on which path.  Meant for
 * stateless hash policies (ECMP, "minimal"); done once per host pair.
 */
#ifndef DCN_EV_PATH_DISCOVERY_H
#define DCN_EV_PATH_DISCOVERY_H

#include "ns3/dcn-topology.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * For each of the first n paths of GetPaths(switch of src, switch of dst), an EV that the
 * fabric forwards on it, or -1 if none of the EVs [0, maxTries) does.  Two hosts under one
 * switch: one path (index 0) with EV 0.
 */
std::vector<int32_t> DiscoverPathEvs(Ptr<DcnTopology> topo,
                                     uint32_t srcHost,
                                     uint32_t dstHost,
                                     uint16_t udpDstPort,
                                     uint32_t n,
                                     uint32_t maxTries = 1024);

struct PathSelectorSetup;

/**
 * DiscoverPathEvs for a connection's (srcHost, dstHost, udpDstPort), cached per pair in
 * the host's DcnLbSharedState (key "path-evs"), so the connections of a pair walk the
 * fabric once.  Null (no physical mapping) without a topology, for unknown hosts, or
 * when a switch of the topology does not forward by the stateless ECMP hash (a walk would
 * consume a random policy's draws and tell nothing about later packets); else the n EVs
 * (-1 where none was found), owned by the host's cache and valid as long as it.
 */
const std::vector<int32_t>* DiscoverPathEvsCached(const PathSelectorSetup& setup,
                                                  uint32_t n,
                                                  uint32_t maxTries = 1024);

} // namespace ns3

#endif // DCN_EV_PATH_DISCOVERY_H
