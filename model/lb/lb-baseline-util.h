/*
 * Helpers shared by the host-side baseline path selectors (DRB, Presto*,
 * CLOVE-ECN, Flicr): virtual paths named by EVs.
 *
 * Path index -> EV (doc/baselines.rst, "Paths and EVs"): a connection has n
 * virtual paths, n = the selector's NumPaths attribute or, when 0, the number
 * of minimal paths of the pair's DcnPathSet (a 2-tier fat tree: the number of
 * spines), clamped to 1..lbcore::kMaxPaths and to the EV set.  Path i is sent
 * with EV (base + i) mod EvSetSize, base drawn once per connection from the
 * selector's random stream.  On a fabric that hashes the EV (ECMP), two
 * virtual paths may hash onto one physical path, as in the REPS paper's
 * EV-based baselines; the inverse map (EV -> path) is O(1).
 */
#ifndef DCN_LB_BASELINE_UTIL_H
#define DCN_LB_BASELINE_UTIL_H

#include "dcn-ev-path-discovery.h"
#include "path-selector.h"

#include "ns3/boolean.h"
#include "ns3/dcn-options.h"
#include "ns3/lb-core-common.h"
#include "ns3/random-variable-stream.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{
namespace dcnbl
{

/** Paths used without a topology (REPS [L] Sec. 4: MPTCP-like 8 subflows). */
constexpr uint16_t kDefaultPathsNoTopology = 8;

/** Number of virtual paths of a connection (see the file comment). */
inline uint16_t
ResolveNumPaths(uint32_t attr, const PathSelectorSetup& s, uint32_t evSetSize)
{
    uint32_t n = attr;
    if (n == 0)
    {
        const DcnPathSet* ps = s.GetPaths();
        n = kDefaultPathsNoTopology;
        if (ps != nullptr)
        {
            n = ps->nMinimal > 0 ? ps->nMinimal : static_cast<uint32_t>(ps->paths.size());
        }
    }
    n = std::max<uint32_t>(1, std::min<uint32_t>(n, lbcore::kMaxPaths));
    return static_cast<uint16_t>(std::min<uint32_t>(n, std::max<uint32_t>(1, evSetSize)));
}

/** EV of virtual path i. */
inline uint16_t
PathEv(uint16_t base, uint16_t i, uint32_t evSetSize)
{
    return static_cast<uint16_t>((static_cast<uint32_t>(base) + i) % evSetSize);
}

/** Help text of the PhysicalPaths attribute of DRB, Presto*, CLOVE-ECN and Flicr. */
constexpr const char* kPhysicalPathsHelp =
    "Name path i by an EV that the fabric forwards on the i-th path of the pair's path set "
    "(found by walking the switches' ECMP hash once per host pair, DiscoverPathEvs, as "
    "CLOVE's traceroute discovery; the papers' paths are physical: DRB's bouncing "
    "switches, Presto's shadow-MAC trees); a path without such an EV, a topology-free run "
    "or a fabric that does not forward by the ECMP hash falls back to EV base + i.  false: "
    "EVs base + i, which a hashing fabric may map onto fewer distinct paths (before "
    "2026-11-30)";

/** The EVs of the n paths of a connection: physical ones when asked and found (see
 *  kPhysicalPathsHelp), else base + i. */
inline std::vector<uint16_t>
PathEvs(const PathSelectorSetup& s,
        uint16_t n,
        uint16_t base,
        uint32_t evSetSize,
        bool physical,
        bool* anyPhysical = nullptr)
{
    std::vector<uint16_t> evs(n);
    if (anyPhysical)
    {
        *anyPhysical = false;
    }
    const std::vector<int32_t>* found = nullptr;
    if (physical && n > 1)
    {
        found = DiscoverPathEvsCached(s, n, std::min<uint32_t>(1024, evSetSize));
    }
    for (uint16_t i = 0; i < n; ++i)
    {
        const bool ph = found && (*found)[i] >= 0;
        evs[i] = ph ? static_cast<uint16_t>((*found)[i]) : PathEv(base, i, evSetSize);
        if (ph && anyPhysical)
        {
            *anyPhysical = true;
        }
    }
    return evs;
}

/** Index of ev in evs, or -1.  O(paths) (at most kMaxPaths). */
inline int32_t
EvIndex(const std::vector<uint16_t>& evs, uint16_t ev)
{
    for (size_t i = 0; i < evs.size(); ++i)
    {
        if (evs[i] == ev)
        {
            return static_cast<int32_t>(i);
        }
    }
    return -1;
}

/** tid plus the PhysicalPaths attribute (kPhysicalPathsHelp, default true) on T::*physical:
 *  the last attribute of DRB, Presto*, CLOVE-ECN and Flicr. */
template <class T>
TypeId
AddPhysicalPathsAttribute(TypeId tid, bool T::*physical)
{
    return tid.AddAttribute("PhysicalPaths",
                            kPhysicalPathsHelp,
                            BooleanValue(true),
                            MakeBooleanAccessor(physical),
                            MakeBooleanChecker());
}

/** The EVs of the virtual paths of a connection (or of a host pair). */
struct PathEvTable
{
    uint16_t base{0};          //!< drawn once
    std::vector<uint16_t> evs; //!< EV of path i

    /** Draw base from rng, then name the n paths (PathEvs; *anyPhysical as there). */
    void Draw(const PathSelectorSetup& s,
              uint16_t n,
              uint32_t evSetSize,
              bool physical,
              UniformRandomVariable& rng,
              bool* anyPhysical = nullptr)
    {
        base = static_cast<uint16_t>(rng.GetInteger(0, evSetSize - 1));
        evs = PathEvs(s, n, base, evSetSize, physical, anyPhysical);
    }

    /** EV of path i (base + i past the table, e.g. before Draw). */
    uint16_t Ev(uint16_t i, uint32_t evSetSize) const
    {
        return i < evs.size() ? evs[i] : PathEv(base, i, evSetSize);
    }

    /** Path index of an EV, or -1. */
    int32_t Index(uint16_t ev) const
    {
        return EvIndex(evs, ev);
    }
};

/** Virtual path of an EV, or -1 if the EV is not one of the n paths. */
inline int32_t
EvPath(uint16_t ev, uint16_t base, uint16_t n, uint32_t evSetSize)
{
    const uint32_t d = (static_cast<uint32_t>(ev) + evSetSize - base) % evSetSize;
    return d < n ? static_cast<int32_t>(d) : -1;
}

/**
 * A Weights list w (the attribute's value) names every one of the n paths of the
 * connection s: a shorter list would silently leave paths unused, a longer one drop
 * weights, so both are refused (DcnOptionError naming --<option>, allowed: exactly n
 * weights, NumPaths = the list's length or \p others; the connection's setup precedes
 * its first packet).  A pair with one path (e.g. in the same rack) has nothing to
 * weigh and takes it whatever the list: w becomes {1}.
 */
inline void
CheckWeightCount(const char* option,
                 const std::string& value,
                 std::vector<double>& w,
                 uint16_t n,
                 const PathSelectorSetup& s,
                 const char* others)
{
    if (n == 1)
    {
        w.assign(1, 1.0);
    }
    DCN_REFUSE_IF(w.size() != n,
                  "option --" << option << ": value '" << value << "' has " << w.size()
                              << (w.size() == 1 ? " weight" : " weights") << " but host "
                              << s.srcHost << " -> " << s.dstHost << " has " << n
                              << " paths; allowed: exactly " << n
                              << " weights (or NumPaths=" << w.size() << "), " << others);
}

} // namespace dcnbl
} // namespace ns3

#endif // DCN_LB_BASELINE_UTIL_H
