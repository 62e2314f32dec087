/*
 * --profile=reps-artifact (issue 10): every parameter of a REPS experiment set
 * to the value the REPS authors' htsim artifact ([A], REPS spec section 5 and
 * resolutions A1-A13) runs with, in one place.  doc/reps.rst lists each
 * parameter with the artifact's value and our default; Table() is that list in
 * code (printed by `reps-paper --profile=reps-artifact --experiment=micro`).
 *
 * Apply in this order: ApplyFabric (before FatTreeHelper::Build), ApplyQueues
 * (after Build), ApplyTransport (before DcnTransportHelper::Install),
 * ApplySelector (REPS path selectors of a WorkloadHelper).
 */
#ifndef DCN_REPS_PROFILE_H
#define DCN_REPS_PROFILE_H

#include "ns3/data-rate.h"
#include "ns3/ptr.h"

#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

class FatTreeHelper;
class DcnTransportHelper;
class WorkloadHelper;

struct RepsProfileEntry
{
    std::string parameter; //!< what (attribute name)
    std::string artifact;  //!< value in the profile = the artifact's
    std::string ours;      //!< our default (paper / spec resolution)
    std::string source;    //!< where the artifact's value comes from
};

class RepsArtifactProfile
{
  public:
    /** Packets per port queue in the artifact (-q 100) and ECN thresholds (-ecn 20 80). */
    static constexpr uint32_t QUEUE_PACKETS = 100;
    static constexpr uint32_t KMIN_PACKETS = 20;
    static constexpr uint32_t KMAX_PACKETS = 80;
    /** Bytes the artifact counts per data packet (4096 payload + headers). */
    static constexpr uint32_t DATA_FRAME = 4150;
    static constexpr uint32_t CONTROL_FRAME = 64;

    /** Link delay 1 us, no switch latency, queue of 100 frames at 400G (scaled by rate / 400G),
     *  ECN 20/80 packets. */
    static void ApplyFabric(Ptr<FatTreeHelper> ft, DataRate fabricRate);
    /** Overflow policy DropArrivalOrLast on every switch egress queue (after Build). */
    static void ApplyQueues(Ptr<FatTreeHelper> ft);
    /** Frame sizes 4150/64 and the artifact's RTO (unloaded RTT + 4 queue drain times). */
    static void ApplyTransport(DcnTransportHelper& th, Ptr<FatTreeHelper> ft, DataRate fabricRate);
    /** REPS: FrozenOrder RoundRobin, ExploreMode AllRandom, buffer cleared on freeze exit. */
    static void ApplySelector(Ptr<WorkloadHelper> wl);

    /** The artifact's RTO on a built fabric: unloaded RTT of a cross-ToR pair + 4 x the time to
     *  drain a full queue (spec A12). */
    static Time Rto(Ptr<FatTreeHelper> ft, DataRate fabricRate);

    /** Every parameter: artifact value, our default, source. */
    static std::vector<RepsProfileEntry> Table();
    static void Print(std::ostream& os);
};

} // namespace ns3

#endif // DCN_REPS_PROFILE_H
