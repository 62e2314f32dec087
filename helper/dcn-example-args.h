/*
 * Command-line helpers shared by the examples (dcn-lb-compare, ...): one-line
 * errors ("<program>: error: <message>", exit 1), lists, sizes, times and the
 * --failures syntax, and a progress line on stderr.  Keeps the example files
 * thin drivers.
 */
#ifndef DCN_EXAMPLE_ARGS_H
#define DCN_EXAMPLE_ARGS_H

#include "ns3/data-rate.h"
#include "ns3/dcn-topology.h"
#include "ns3/nstime.h"

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{
namespace dcnargs
{

/** Program name printed before errors (default "dcn-lb"). */
void SetProgramName(const std::string& name);
const std::string& ProgramName();

/** Print "<program>: error: <msg>" on stderr and exit(1). */
[[noreturn]] void Fail(const std::string& msg);
/** Create the parent directory of an output path (prefix) if needed; Fail on error. */
void MakeParentDir(const std::string& what, const std::string& path);
/**
 * Check that an output path (file, or prefix + suffix) can be written before any
 * simulation: creates the parent directory and opens the file for appending.
 * Returns "" (also for an empty value: the option is off) or one line naming --opt.
 */
std::string CheckOutputPrefix(const std::string& opt,
                              const std::string& path,
                              const std::string& suffix);
/**
 * Graphviz DOT of any built topology from its links (DcnTopology::GetLinks): hosts
 * as boxes, switches as ellipses (rank by tier), one edge per link labelled with
 * its rate; links withdrawn from routing dashed red.  Node names come from the link
 * names ("tor0-spine1"), else "n<node id>".  DcnGraphTopology::ToDot is richer.
 */
std::string TopologyDot(const DcnTopology& topology);
/**
 * How many host-switch pairs of a built topology have a single minimal path, over a
 * deterministic sample of at most maxPairs ordered pairs of distinct switches with hosts
 * (GetPaths(...).nMinimal).  \p sampled receives the number of pairs looked at.
 */
uint32_t CountSinglePathPairs(const DcnTopology& topology, uint32_t maxPairs, uint32_t& sampled);
/** Split on sep, dropping empty items. */
std::vector<std::string> Split(const std::string& s, char sep);
/** Bytes from "4096", "2MiB", "4MB", ... (0 = invalid). */
uint64_t ParseBytes(const std::string& s);

/** One failure from --failures ("kind:key=value:..."). */
struct FailureSpec
{
    std::string kind; //!< silent | down | degrade | drop
    uint32_t link{0};
    Time start{0};
    Time end{0}; //!< 0 = persists
    DataRate rate{"200Gbps"};
    double prob{0.01};
    Time withdraw{0}; //!< kind down: delay until routing withdraws the link
};

/** A time option; Fail naming `what` if invalid. */
Time ParseTime(const std::string& what, const std::string& v);
/** A number option; Fail naming `what` if invalid. */
double ParseNumber(const std::string& what, const std::string& v);
/** The --failures list; Fail with one line on a bad item. */
std::vector<FailureSpec> ParseFailures(const std::string& s);

/** Progress line on stderr every few wall seconds (checked every 20 us of simulated time). */
class Progress
{
  public:
    Progress(bool quiet, std::string label);
    void Start();

    /** Simulated end of the run (enables the ETA on the progress lines). */
    void SetStopTime(Time stop)
    {
        m_stop = stop;
    }

    /** Events this object scheduled (excluded from the BENCH event count). */
    uint64_t GetTicks() const
    {
        return m_ticks;
    }

  private:
    void Tick();

    uint64_t m_ticks{0};
    bool m_quiet;
    std::string m_label;
    std::chrono::steady_clock::time_point m_t0;
    std::chrono::steady_clock::time_point m_last;
    uint64_t m_lastEvents{0};
    Time m_stop{0};
};

} // namespace dcnargs
} // namespace ns3

#endif // DCN_EXAMPLE_ARGS_H
