/*
 * Distributed runs on ns-3's MPI simulator (issue 13 item 4; README "Distributed
 * runs (MPI)", doc/speed.rst).
 *
 * The MPI code is compiled only when ns-3's mpi module is available (in-tree build
 * configured with --enable-mpi, tools/mpi-build.sh; CMake defines DCNLB_HAVE_MPI).
 * Without it Available() is false, Enable() returns the refusal line and every other
 * call behaves as a single rank.
 *
 * How a run is split: the topology helper creates every node on every rank, in the
 * same order (same node ids, same random streams), with the system id of its
 * partition (FatTreeHelper::SystemCount); ns-3's PointToPointHelper makes the links
 * between nodes of different ranks PointToPointRemoteChannels.  The workload installs
 * its apps only on this rank's hosts (WorkloadHelper), so each rank starts only its own
 * hosts' flows and records them at their sender; after Simulator::Run() the per-flow
 * records and counters are merged on rank 0 (GatherRecords, Sum, Max).
 */
#ifndef DCN_MPI_H
#define DCN_MPI_H

#include "ns3/fct-stats.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/** MPI glue of the examples: enable/disable, rank, merge of results on rank 0. */
class DcnMpi
{
  public:
    /** True if this build has ns-3's mpi module (DCNLB_HAVE_MPI). */
    static bool Available();
    /**
     * Number of ranks mpirun started this process with (Open MPI / PMI environment),
     * 0 if not launched by mpirun.  Valid before Enable().
     */
    static uint32_t LaunchedRanks();
    /** This process's rank from the mpirun environment (0 if not launched by mpirun). */
    static uint32_t LaunchedRank();
    /**
     * Select ns-3's distributed simulator (sync "granted": DistributedSimulatorImpl,
     * conservative granted time windows; "null": NullMessageSimulatorImpl) and
     * initialise MPI.  Call before anything touches the simulator or creates a node.
     * \return "" or the one-line refusal (no MPI in this build, unknown sync)
     */
    static std::string Enable(int* argc, char*** argv, const std::string& sync);
    /** True between Enable() and Disable(). */
    static bool IsEnabled();
    /** This rank (0 if not enabled). */
    static uint32_t GetRank();
    /** Number of ranks (1 if not enabled). */
    static uint32_t GetSize();
    /** Rank 0: the records of every rank (rank 0's first); other ranks: empty. */
    static std::vector<FctRecord> GatherRecords(const std::vector<FctRecord>& local);
    /** Sum over the ranks (every rank gets it). */
    static uint64_t Sum(uint64_t v);
    /** Sum over the ranks (every rank gets it). */
    static double Sum(double v);
    /** Maximum over the ranks (every rank gets it). */
    static double Max(double v);
    /** Finalise MPI (call once, after Simulator::Destroy(); no-op if not enabled). */
    static void Disable();
};

} // namespace ns3

#endif // DCN_MPI_H
