/*
 * Static network checks on a SwitchGraph (ns-3 free, no simulation):
 *
 *  1. Channel dependency graph (CDG) of a path set (Dally & Seitz): a channel is one
 *     direction of one switch-switch link; channel c1 -> c2 is a dependency when some
 *     path of the set uses c1 immediately followed by c2.  With lossless (PFC) links
 *     and one priority class, a cycle in the CDG is the precondition of a PFC deadlock;
 *     an acyclic CDG rules it out for that path set.  Host links are left out: a host
 *     link is only the first or the last hop of a path, so it cannot be on a cycle.
 *  2. Uniform all-to-all load profile: every host offers load L (a fraction of its own
 *     host-link rate) spread evenly over every other host; the expected rate of every
 *     directed link at L = 1 divided by its rate is the link's utilisation per unit
 *     load, and 1 / max is the saturation load (the largest L no link is offered more
 *     than its capacity).
 *
 * Path sets: MINIMAL (every minimal path of MinimalRouting: what ECMP and the minimal
 * switch policies can use, since each switch may pick any minimal next hop) and LAPS
 * (MinimalRouting::LapsPaths: the LAPS waypoint set on Dragonfly and Rail; on the other
 * families LapsPaths is all minimal paths).  Pairs: every ordered pair of distinct
 * switches that have hosts (a same-switch pair uses no switch-switch link).
 */
#ifndef DCN_GRAPH_CHECKS_H
#define DCN_GRAPH_CHECKS_H

#include "dcn-graph-routing.h"

#include <cstdint>
#include <string>
#include <vector>

namespace dcn
{

/** Which switch paths a pair of switches may use. */
enum class PathSet : uint8_t
{
    MINIMAL, //!< MinimalRouting::MinimalPaths
    LAPS,    //!< MinimalRouting::LapsPaths
};

const char* ToString(PathSet s);

/** The paths of a set between switches s and d (s != d). */
std::vector<GraphPath> PathsOf(const MinimalRouting& mr, PathSet set, uint32_t s, uint32_t d);

/**
 * Channel id of the direction from -> (other end) of a switch-switch link:
 * 2 * link for a -> b, 2 * link + 1 for b -> a.
 */
uint32_t ChannelId(const SwitchGraph& g, uint32_t link, uint32_t from);
/** Switch a channel leaves from. */
uint32_t ChannelFrom(const SwitchGraph& g, uint32_t channel);
/** Switch a channel enters. */
uint32_t ChannelTo(const SwitchGraph& g, uint32_t channel);
/** "nic3_1->rail1" (a "/k" suffix for the k-th parallel link, as in the link name). */
std::string ChannelName(const SwitchGraph& g, uint32_t channel);

/** Result of the channel dependency check of one path set. */
struct CdgResult
{
    uint32_t pairs{0};        //!< ordered host-switch pairs enumerated
    uint64_t paths{0};        //!< paths of the set over those pairs
    uint32_t channels{0};     //!< directed switch-switch channels (2 x links)
    uint32_t usedChannels{0}; //!< channels some path uses
    uint64_t dependencies{0}; //!< distinct CDG edges
    bool cyclic{false};
    /** Channels on some cycle (in a strongly connected component of > 1 channel). */
    uint32_t channelsOnCycles{0};
    /**
     * One cycle c0 -> c1 -> ... -> c(k-1) -> c0 (channel ids), empty if acyclic: the
     * shortest cycle through the channels of the cyclic components found by BFS
     * (a cycle from the DFS back edge if the BFS budget runs out).
     */
    std::vector<uint32_t> cycle;
    /** For each cycle edge cycle[i] -> cycle[i+1 mod k]: a path of the set using it. */
    std::vector<GraphPath> witnesses;
};

/**
 * Build the CDG of a path set over every ordered pair of distinct host-attached
 * switches (Boost.Graph adjacency list), detect a cycle (depth_first_search with a
 * back-edge visitor) and, if cyclic, report a short cycle and a path per cycle edge.
 */
CdgResult CheckChannelDependencies(const MinimalRouting& mr, PathSet set);

/** "a->b => b->c => c->a" for a list of channels (closing channel repeated: no). */
std::string CycleText(const SwitchGraph& g, const std::vector<uint32_t>& cycle);

/** Expected load of one directed link under uniform all-to-all traffic at L = 1. */
struct LinkLoad
{
    std::string name;    //!< "nic0_0->rail0", host links "h3->nic0_3" / "nic0_3->h3"
    std::string cls;     //!< link class, e.g. "rail nic->rail", "host host->nic"
    uint32_t link{NONE}; //!< switch-switch link id, NONE for a host link
    uint32_t host{NONE}; //!< host id of a host link, NONE for a switch link
    double rateBps{0};   //!< link rate
    double loadBps{0};   //!< offered rate at L = 1
    double util{0};      //!< loadBps / rateBps: utilisation per unit load
};

/** Max and mean utilisation of one link class. */
struct ClassLoad
{
    std::string cls;
    uint32_t links{0}; //!< directed links of the class
    double maxUtil{0};
    double meanUtil{0};
};

/** Uniform all-to-all load profile of one path set. */
struct LoadProfile
{
    /** Split of a pair's traffic: "per-hop ECMP" (MINIMAL) or "even over paths" (LAPS). */
    std::string split;
    std::vector<LinkLoad> links;    //!< every directed link: 2 per switch link, 2 per host
    std::vector<ClassLoad> classes; //!< sorted by class name
    double maxUtil{0};
    uint32_t maxIndex{NONE}; //!< into links
    /** 1 / maxUtil: the largest load L every link can carry (0 if no hosts). */
    double saturation{0};
};

/**
 * Uniform all-to-all load: host i sends L * r_i / (H - 1) to every other host j
 * (H hosts, r_i its host-link rate); evaluated at L = 1.  Switch pair (s, d) thus
 * carries n_s * r_s * n_d / (H - 1).  Split over the path set:
 *  - MINIMAL: per-hop even ECMP, what the switches do: the traffic towards d at switch
 *    x (from its own hosts and from upstream) is divided evenly over x's minimal next
 *    hops towards d (MinimalRouting::NextHops; parallel links are distinct next hops).
 *    This differs from an even split over the enumerated minimal paths when the paths
 *    fan out unevenly (a next hop with more paths behind it gets the same share).
 *  - LAPS: even over LapsPaths(s, d) (a LAPS host sprays over its path table).
 * Host links: up (host -> switch) carries r_i, down carries sum_{i != j} r_i / (H-1).
 */
LoadProfile UniformLoad(const MinimalRouting& mr, PathSet set);

} // namespace dcn

#endif // DCN_GRAPH_CHECKS_H
