/*
 * Builders of the switch graphs of issue 11 (ns-3 free): Dragonfly, Slim Fly (MMS),
 * Rail-optimized and leaf-spine, and the preset registry.  Every builder validates
 * its parameters and returns a one-line error (naming the option, the value and what
 * is allowed) instead of aborting.  Rates in bit/s, delays in ns.
 */
#ifndef DCN_TOPO_BUILDERS_H
#define DCN_TOPO_BUILDERS_H

#include "dcn-galois-field.h"
#include "dcn-switch-graph.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dcn
{

/** A built graph or the reason it cannot be built. */
struct GraphResult
{
    SwitchGraph graph;
    std::string error; //!< "" on success

    bool Ok() const
    {
        return error.empty();
    }
};

/** Global-link arrangement of a Dragonfly. */
enum class DfArrangement : uint8_t
{
    /**
     * Spritz spec 1.1 "absolute/consecutive" (default): group G's global ports are
     * P = r*h + l; port P leads to the P-th other group (groups in increasing id,
     * skipping G).  With g = a*h+1 that is "group P if P < G, else P+1" and the link
     * of G1 < G2 joins switch G1*a + (G2-1)/h to G2*a + G1/h.  With fewer groups
     * the ports are dealt round-robin: port P leads to the (P mod (g-1))-th other group,
     * so each group pair gets a*h/(g-1) parallel global links (the j-th port of G1
     * towards G2 pairs with the j-th port of G2 towards G1); needs (g-1) | a*h.
     */
    ABSOLUTE,
    /**
     * LAPS authors' wiring (laps spec 4.1): port k of group i sits on switch
     * a*i + k/h and leads to group (i+1+k) mod g; needs g = a*h+1.
     */
    LAPS,
};

struct DragonflyParams
{
    uint32_t p{4}; //!< hosts per switch
    uint32_t a{8}; //!< switches per group (full mesh)
    uint32_t h{4}; //!< global links per switch
    uint32_t g{0}; //!< groups; 0 = balanced maximum a*h+1
    DfArrangement arrangement{DfArrangement::ABSOLUTE};
    double rateBps{400e9}; //!< every link (host, local, global)
    double hostDelayNs{25};
    double localDelayNs{25};
    double globalDelayNs{500};
    double switchLatencyNs{500};
};

struct SlimFlyParams
{
    uint32_t q{9}; //!< prime power: odd prime or its square (GaloisField::Supported)
    uint32_t p{0}; //!< hosts per router; 0 = ceil(k'/2) (spritz spec 1.2)
    double rateBps{400e9};
    double hostDelayNs{25};
    double localDelayNs{25};   //!< intra-group (same (s,x)) links
    double globalDelayNs{500}; //!< cross links between s=0 and s=1
    double switchLatencyNs{500};
};

struct RailParams
{
    uint32_t clusters{8};        //!< c
    uint32_t rails{8};           //!< r = GPUs per cluster = rail switches
    double gpuRateBps{200e9};    //!< GPU - NIC switch (laps spec 4.1 [A])
    double fabricRateBps{100e9}; //!< NIC switch - NVLink switch and NIC switch - rail switch
    /** NIC switch - NVLink switch rate if > 0 (0 = fabricRateBps, laps spec 4.1 [A]). */
    double nvlinkRateBps{0};
    /** Minimal routing NVLink first (PXN, deadlock-free under PFC); 0 = both orders. */
    uint32_t nvlinkFirst{0};
    double delayNs{1000}; //!< every link (laps spec 4.1 [A])
    double switchLatencyNs{0};
};

struct LeafSpineParams
{
    uint32_t leaves{8};
    uint32_t spines{8};
    uint32_t hostsPerLeaf{16};
    uint32_t linksPerPair{1}; //!< parallel links per leaf-spine pair
    double hostRateBps{10e9};
    /** Leaf-spine link rate; unset: hostRate, or derived from oversubscription. */
    std::optional<double> uplinkRateBps;
    /** hostsPerLeaf*hostRate / (spines*linksPerPair*uplinkRate); if set, uplinkRate follows. */
    std::optional<double> oversubscription;
    double hostDelayNs{1000};
    double linkDelayNs{1000};
    double switchLatencyNs{0};
    /** Asymmetry: this fraction of leaf-spine links (chosen by slowSeed) runs at slowRateBps. */
    double slowFraction{0};
    /** Asymmetry: these leaf-spine links (names, e.g. "leaf0-spine1") run at slowRateBps. */
    std::vector<std::string> slowLinks;
    double slowRateBps{2e9};
    uint64_t slowSeed{1}; //!< the ns-3 helper draws it from its RandomVariableStream
    /** Leaf-spine links (names) not built at all; must leave the network connected. */
    std::vector<std::string> cutLinks;
};

GraphResult BuildDragonfly(const DragonflyParams& prm, const std::string& name = "dragonfly");
GraphResult BuildSlimFly(const SlimFlyParams& prm, const std::string& name = "slimfly");
GraphResult BuildRail(const RailParams& prm, const std::string& name = "rail");
GraphResult BuildLeafSpine(const LeafSpineParams& prm, const std::string& name = "leaf-spine");

/**
 * Size limits of every topology (graph presets and fat trees), checked from the
 * parameters before anything is allocated.  Hosts: at most 65536 (the workloads and
 * statistics keep per-host-pair state).  Links: at most 131072 in all, the hosts' links
 * included: one ns-3 point-to-point link (two devices, their queues and queue discs,
 * two IPv4 interfaces, routes; with the nodes) takes about 13-18 kB, measured on fat
 * trees: a 65536-host fat tree at the limit (256 ToRs x 256 hosts x 256 spines) peaks at
 * 2.3 GB and takes about 40 s to build, before the first packet; 2^21 links (the
 * addressing plan's limit) would need about 37 GB.
 */
constexpr uint64_t MAX_TOPOLOGY_HOSTS = 65536;
constexpr uint64_t MAX_TOPOLOGY_LINKS = 131072;
/**
 * "" if a topology of these sizes is within the limits above, else the reason
 * ("gives 3600000000 hosts; allowed: at most 65536 hosts"), without an option name:
 * the caller says which parameters give these sizes.
 */
std::string CheckTopologySize(uint64_t hosts, uint64_t switchLinks);

/** delta of q = 4w + delta, delta in {-1, 0, 1}. */
int SlimFlyDelta(uint32_t q);
/**
 * MMS generator sets X, X' (field elements, sorted) from the primitive element xi
 * (Slim Fly paper, Besta & Hoefler SC'14, section 3.1): delta = 1: X = even powers
 * xi^0..xi^(q-3), X' = odd powers xi^1..xi^(q-2); delta = -1 (q = 4w-1):
 * X = {xi^0, xi^2, .., xi^(2w-2)} u {xi^(2w-1), xi^(2w+1), .., xi^(4w-3)},
 * X' = {xi^1, xi^3, .., xi^(2w-1)} u {xi^(2w), xi^(2w+2), .., xi^(4w-2)}.
 */
void SlimFlyGeneratorSets(const GaloisField& f,
                          std::vector<uint32_t>* x,
                          std::vector<uint32_t>* xp);

/** One preset of the registry. */
struct TopoPreset
{
    std::string name;
    std::string description; //!< one line
};

/** All presets, in display order. */
const std::vector<TopoPreset>& ListPresets();
/** Build a preset by name; unknown name: error listing the known ones. */
GraphResult BuildPreset(const std::string& name);
/**
 * Build a preset with parameter overrides (key -> number): Dragonfly p, a, h, g;
 * Slim Fly q, p; Rail clusters, rails; leaf-spine leaves, spines, hostsPerLeaf,
 * linksPerPair, oversubscription, uplinkRate, slowFraction, slowRate; rates in bit/s
 * (rate, hostRate, gpuRate, fabricRate), delays in ns (hostDelay, localDelay,
 * globalDelay, linkDelay, delay, switchLatency).  Unknown keys, non-numbers and
 * parameters the builder refuses give a one-line error.
 */
GraphResult BuildPreset(const std::string& name,
                        const std::map<std::string, std::string>& overrides);

} // namespace dcn

#endif // DCN_TOPO_BUILDERS_H
