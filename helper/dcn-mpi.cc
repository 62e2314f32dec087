/*
 * Distributed runs on ns-3's MPI simulator: see dcn-mpi.h.
 */
#include "dcn-mpi.h"

#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/string.h"

#include <cstdlib>

#ifdef DCNLB_HAVE_MPI
#include "ns3/mpi-interface.h"

#include <mpi.h>
#endif

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnMpi");

namespace
{

uint32_t
EnvUint(const char* name)
{
    const char* v = std::getenv(name);
    return v != nullptr ? static_cast<uint32_t>(std::strtoul(v, nullptr, 10)) : 0;
}

#ifdef DCNLB_HAVE_MPI
bool g_enabled = false;

/** Fields of a FctRecord on the wire (int64 each). */
constexpr int REC_FIELDS = 12;
#endif

} // namespace

bool
DcnMpi::Available()
{
#ifdef DCNLB_HAVE_MPI
    return true;
#else
    return false;
#endif
}

uint32_t
DcnMpi::LaunchedRanks()
{
    uint32_t n = EnvUint("OMPI_COMM_WORLD_SIZE");
    return n != 0 ? n : EnvUint("PMI_SIZE");
}

uint32_t
DcnMpi::LaunchedRank()
{
    return std::getenv("OMPI_COMM_WORLD_RANK") != nullptr ? EnvUint("OMPI_COMM_WORLD_RANK")
                                                          : EnvUint("PMI_RANK");
}

std::string
DcnMpi::Enable(int* argc, char*** argv, const std::string& sync)
{
    NS_LOG_FUNCTION(sync);
#ifdef DCNLB_HAVE_MPI
    std::string impl;
    if (sync == "granted")
    {
        impl = "ns3::DistributedSimulatorImpl";
    }
    else if (sync == "null")
    {
        impl = "ns3::NullMessageSimulatorImpl";
    }
    else
    {
        return "option --mpiSync: '" + sync + "'; allowed granted | null";
    }
    GlobalValue::Bind("SimulatorImplementationType", StringValue(impl));
    MpiInterface::Enable(argc, argv);
    g_enabled = true;
    return std::string();
#else
    (void)argc;
    (void)argv;
    (void)sync;
    return "option --mpi: this build has no MPI support (ns-3 without its mpi module); "
           "build with tools/mpi-build.sh (README: Distributed runs (MPI))";
#endif
}

bool
DcnMpi::IsEnabled()
{
#ifdef DCNLB_HAVE_MPI
    return g_enabled;
#else
    return false;
#endif
}

uint32_t
DcnMpi::GetRank()
{
#ifdef DCNLB_HAVE_MPI
    return g_enabled ? MpiInterface::GetSystemId() : 0;
#else
    return 0;
#endif
}

uint32_t
DcnMpi::GetSize()
{
#ifdef DCNLB_HAVE_MPI
    return g_enabled ? MpiInterface::GetSize() : 1;
#else
    return 1;
#endif
}

std::vector<FctRecord>
DcnMpi::GatherRecords(const std::vector<FctRecord>& local)
{
    NS_LOG_FUNCTION(local.size());
#ifdef DCNLB_HAVE_MPI
    if (!g_enabled)
    {
        return local;
    }
    MPI_Comm comm = MpiInterface::GetCommunicator();
    const int size = static_cast<int>(GetSize());
    const bool root = GetRank() == 0;
    std::vector<int64_t> send;
    send.reserve(local.size() * REC_FIELDS);
    for (const FctRecord& r : local)
    {
        send.insert(send.end(),
                    {int64_t(r.src),
                     int64_t(r.dst),
                     int64_t(r.bytes),
                     r.start.GetTimeStep(),
                     r.finish.GetTimeStep(),
                     r.ideal.GetTimeStep(),
                     int64_t(r.completed ? 1 : 0),
                     int64_t(r.retransmissions),
                     int64_t(r.outOfOrder),
                     int64_t(r.timeouts),
                     int64_t(r.trimmed),
                     int64_t(r.bytesAcked)});
    }
    int count = static_cast<int>(send.size());
    std::vector<int> counts(size, 0);
    MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
    std::vector<int> displs(size, 0);
    int total = 0;
    for (int i = 0; i < size; ++i)
    {
        displs[i] = total;
        total += counts[i];
    }
    std::vector<int64_t> all(root ? std::max(total, 1) : 1);
    MPI_Gatherv(send.data(),
                count,
                MPI_INT64_T,
                all.data(),
                counts.data(),
                displs.data(),
                MPI_INT64_T,
                0,
                comm);
    std::vector<FctRecord> out;
    if (!root)
    {
        return out;
    }
    out.reserve(total / REC_FIELDS);
    for (int i = 0; i + REC_FIELDS <= total; i += REC_FIELDS)
    {
        const int64_t* f = &all[i];
        FctRecord r;
        r.src = static_cast<uint32_t>(f[0]);
        r.dst = static_cast<uint32_t>(f[1]);
        r.bytes = static_cast<uint64_t>(f[2]);
        r.start = Time(static_cast<long long>(f[3]));
        r.finish = Time(static_cast<long long>(f[4]));
        r.ideal = Time(static_cast<long long>(f[5]));
        r.completed = f[6] != 0;
        r.retransmissions = static_cast<uint32_t>(f[7]);
        r.outOfOrder = static_cast<uint32_t>(f[8]);
        r.timeouts = static_cast<uint32_t>(f[9]);
        r.trimmed = static_cast<uint32_t>(f[10]);
        r.bytesAcked = static_cast<uint64_t>(f[11]);
        out.push_back(r);
    }
    return out;
#else
    return local;
#endif
}

#ifdef DCNLB_HAVE_MPI
namespace
{
/** MPI_Allreduce of one value over the ranks (the value itself when MPI is off). */
template <typename T>
T
AllReduce(T v, MPI_Datatype type, MPI_Op op)
{
    if (!g_enabled)
    {
        return v;
    }
    T out{};
    MPI_Allreduce(&v, &out, 1, type, op, MpiInterface::GetCommunicator());
    return out;
}
} // namespace
#endif

uint64_t
DcnMpi::Sum(uint64_t v)
{
#ifdef DCNLB_HAVE_MPI
    return AllReduce(v, MPI_UINT64_T, MPI_SUM);
#else
    return v;
#endif
}

double
DcnMpi::Sum(double v)
{
#ifdef DCNLB_HAVE_MPI
    return AllReduce(v, MPI_DOUBLE, MPI_SUM);
#else
    return v;
#endif
}

double
DcnMpi::Max(double v)
{
#ifdef DCNLB_HAVE_MPI
    return AllReduce(v, MPI_DOUBLE, MPI_MAX);
#else
    return v;
#endif
}

void
DcnMpi::Disable()
{
    NS_LOG_FUNCTION_NOARGS();
#ifdef DCNLB_HAVE_MPI
    if (g_enabled)
    {
        MpiInterface::Disable();
        g_enabled = false;
    }
#endif
}

} // namespace ns3
