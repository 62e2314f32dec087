/*
 * Helpers shared by the examples (dcn-lb-compare, ...): output-path checks, lists,
 * a Graphviz view of any topology, and a progress line on stderr.  Keeps the example
 * files thin drivers.  Option values are parsed by DcnOptions (dcn-options.h) and the
 * typed parsers of dcn-option-parse.h / dcn-failure-spec-parse.h, which refuse bad
 * input with one line and exit code 2 (the lenient parsers once here, ParseBytes,
 * ParseTime, ParseNumber and ParseFailures, are gone).
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

/**
 * Print "<program>: error: <msg>" on stderr and exit(1): for failures that are not bad
 * input, e.g. an output file that can no longer be written after a run (bad input is
 * refused before simulating with DcnOptions::Exit, exit 2).
 */
[[noreturn]] void Fail(const std::string& msg);
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
