/*
 * `reps-paper --experiment=micro` (issue 10): the REPS paper's five micro
 * scenarios at 128 hosts (2-tier fat tree, 16 ToRs x 8 hosts, 8 spines, 400G),
 * each with every load balancer of `lbs`, under a profile (default
 * reps-artifact, reps-profile.h):
 *   permutation  8 MiB permutation (every flow leaves its ToR)
 *   tornado      8 MiB tornado (host i -> i + N/2)
 *   degrade4     permutation, ToR 0's uplinks 0..3 at 200G in the up direction
 *   degrade1     permutation, ToR 0's uplink 0 at 200G in the up direction
 *   blackhole    permutation, data-only black holes at ToR 0's egress to spine 1
 *                during [100, 200) us and to spine 3 during [350, 600) us
 *                (spec A13), REPS FreezingTimeout 100 us
 * Prints one row per run (max/mean FCT, drops, RTOs, REPS freeze entries) and
 * writes <out>/micro.csv.
 */
#ifndef DCN_REPS_MICRO_H
#define DCN_REPS_MICRO_H

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

struct RepsMicroArgs
{
    std::vector<std::string> lbs{"ecmp", "ops", "reps"};
    std::vector<std::string> scenarios{"permutation",
                                       "tornado",
                                       "degrade4",
                                       "degrade1",
                                       "blackhole"};
    std::string profile{"reps-artifact"};
    std::string out{"results/reps"};
    uint64_t msgBytes{8u << 20};
    uint32_t tors{16};
    uint32_t hostsPerTor{8};
    uint32_t uplinks{8};
    uint32_t seed{42};
    uint32_t run{1};
    double stopMs{90};
    uint32_t evs{65536};
};

/** "" if every scenario name is known, else one line naming it and the allowed names. */
std::string CheckRepsMicroScenarios(const std::vector<std::string>& scenarios);

/** Simulator work summed over the runs of RunRepsMicro (for the BENCH line). */
struct RepsMicroTotals
{
    uint64_t events{0};     //!< simulator events executed
    uint64_t packetHops{0}; //!< packet transmissions on links
};

/** Run the scenarios; returns the number of runs and adds their work to `totals`. */
uint32_t RunRepsMicro(const RepsMicroArgs& a, std::ostream& os, RepsMicroTotals* totals = nullptr);

} // namespace ns3

#endif // DCN_REPS_MICRO_H
