/*
 * Schemes of the switch-side baselines (issue 14): --lb=letflow, --lb=drill,
 * --lb=conga, --lb=conweave.  The hosts send every packet of a connection with one EV (the
 * ECMP selector, as in LetFlow NSDI'17, DRILL SIGCOMM'17 and CONGA SIGCOMM'14,
 * where hosts are unmodified; ConWeave SIGCOMM'23 likewise), and every switch
 * runs the forwarding policy;
 * WorkloadHelper::Install puts the policy on the built topology through
 * DcnSchemeRegistry::InstallSwitchPolicy.  CONGA and ConWeave are listed for
 * the 2-tier families and the graph presets (where their policies need
 * AnyTopology=true); elsewhere InstallSwitchPolicy refuses them with the
 * policy's CheckTopology line.  --lb=conga-laps-paths and
 * --lb=conweave-laps-paths (issue 16) are CONGA and ConWeave over the LAPS path set of
 * the graph presets (switch policies "conga-laps", "conweave-laps").
 */
#include "dcn-scheme.h"

namespace ns3
{

DCNLB_REGISTER_SCHEME((DcnScheme{
    "letflow",
    "LetFlow: flowlet switching, a random port per new flowlet at every switch (150 us; "
    "NSDI'17), hosts ECMP-by-flow",
    "ecmp",
    "dctcp",
    "selective-repeat",
    "letflow",
    0,
    "dcn,tcp",
    {},
    {}}));

DCNLB_REGISTER_SCHEME((DcnScheme{
    "drill",
    "DRILL: per-packet shortest of d=2 random + m=1 remembered local queues at every switch "
    "(SIGCOMM'17), hosts ECMP-by-flow",
    "ecmp",
    "dctcp",
    "selective-repeat",
    "drill",
    0,
    "dcn,tcp",
    {},
    {}}));

DCNLB_REGISTER_SCHEME((DcnScheme{
    "conga",
    "CONGA: leaf-to-leaf congestion feedback in IPv4 header bytes, flowlets to the least "
    "congested uplink (SIGCOMM'14; 150 us as Hermes ran it), 2-tier leaf-spine; on the graph "
    "presets with --ns3::DcnCongaForwardingPolicy::AnyTopology=true (our first-hop "
    "generalisation, as laps-paper runs it)",
    "ecmp",
    "dctcp",
    "selective-repeat",
    "conga",
    0,
    "dcn,tcp",
    {"fat-tree-2tier", "leaf-spine", "hermes", "laps-", "spritz-", "df-", "sf-"},
    {}}));

DCNLB_REGISTER_SCHEME((DcnScheme{
    "conga-laps-paths",
    "CONGA over the LAPS path set: the source leaf picks per flowlet the LAPS path of its leaf "
    "pair minimising max(local DRE of its first uplink, Congestion-To-Leaf[dst][path]), "
    "LBTag = path index in IPv4 header bytes, later switches follow that path (the LAPS "
    "authors' CONGA, [A] install_LB_table; graph presets)",
    "ecmp",
    "dctcp",
    "selective-repeat",
    "conga-laps",
    0,
    "dcn,tcp",
    {"laps-", "spritz-", "df-", "sf-"},
    {}}));

DCNLB_REGISTER_SCHEME((DcnScheme{
    "conweave",
    "ConWeave: source-leaf rerouting on RTT_REQUEST/REPLY timeouts, destination-leaf "
    "reordering of REROUTED packets until the TAIL (SIGCOMM'23; authors' leaf-spine settings), "
    "fields in IPv4 header bytes, 2-tier leaf-spine; on the graph presets with "
    "--ns3::DcnConWeaveForwardingPolicy::AnyTopology=true (our first-hop generalisation, as "
    "laps-paper runs it); over RoCE as its paper: DCQCN (its congestion control unless --cc "
    "is given) and go-back-N (DcnTransport Mode=InOrder unless given)",
    "ecmp",
    "dcqcn",
    "selective-repeat",
    "conweave",
    0,
    "dcn",
    {"fat-tree-2tier", "leaf-spine", "hermes", "laps-", "spritz-", "df-", "sf-"},
    {},
    // RDMA's in-order receiver (ConWeave Sec. 2: it reorders in the network for it); DCQCN
    // needs its CNPs
    {{"Mode", "InOrder"}}}));

DCNLB_REGISTER_SCHEME((DcnScheme{
    "conweave-laps-paths",
    "ConWeave over the LAPS path set: the source ToR samples and reroutes among the LAPS "
    "paths of its ToR pair (path index in the IPv4 header bytes), later switches follow that "
    "path, the destination ToR reorders as conweave (the LAPS authors' ConWeave, [A] "
    "install_LB_table; graph presets); DCQCN and go-back-N as conweave",
    "ecmp",
    "dcqcn",
    "selective-repeat",
    "conweave-laps",
    0,
    "dcn",
    {"laps-", "spritz-", "df-", "sf-"},
    {},
    {{"Mode", "InOrder"}}}));

} // namespace ns3
