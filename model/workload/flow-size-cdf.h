/*
 * Empirical flow-size distributions (the .txt files in data/workloads).
 *
 * File format (data/workloads/README.md): one point a line,
 * "size_bytes cumulative_percent", '#' starts a comment line, blank lines are
 * ignored.  Rules checked by Validate(): at least two points, sizes >= 0 and
 * non-decreasing, percentages in [0, 100] and non-decreasing, last percentage
 * exactly 100.  Sampling draws u ~ U(0, 100) and interpolates the size linearly
 * between the two points around u.
 */
#ifndef DCN_FLOW_SIZE_CDF_H
#define DCN_FLOW_SIZE_CDF_H

#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class FlowSizeCdf
{
  public:
    /** One CDF point: size in bytes, cumulative percentage (0..100). */
    struct Point
    {
        double bytes;
        double percent;
    };

    FlowSizeCdf() = default;

    /**
     * Check the rules on a list of points.  Returns "" if valid, otherwise one
     * sentence naming the offending point (1-based index) and the rule.
     */
    static std::string Validate(const std::vector<Point>& points);

    /**
     * Parse the text of a CDF file.  Returns "" on success (and fills *out),
     * otherwise "<fileName>:<line>: <rule>" (line = line number in the file).
     */
    static std::string Parse(const std::string& text,
                             const std::string& fileName,
                             FlowSizeCdf* out);

    /**
     * Resolve a CDF name ("websearch", "datamining", ...) or a file path.
     * A value that names an existing file is used as is; otherwise
     * DCNLB_DATA_DIR/workloads/<name>.txt.  Returns "" if neither exists.
     */
    static std::string ResolvePath(const std::string& nameOrPath);

    /** Read and parse a file.  Returns "" on success or an error message. */
    static std::string TryLoad(const std::string& nameOrPath, FlowSizeCdf* out);

    /** As TryLoad, but NS_ABORT_MSG with the error message on failure. */
    static FlowSizeCdf Load(const std::string& nameOrPath);

    /**
     * The data directory compiled in (DCNLB_DATA_DIR, only defined for flow-size-cdf.cc
     * so that every other object file is independent of the checkout's path and can be
     * shared through ccache between clones).
     */
    static std::string DataDir();

    /** Names of the CDFs shipped in DCNLB_DATA_DIR/workloads, sorted. */
    static std::vector<std::string> BuiltinNames();

    /** Size for a quantile u in [0, 100] (linear interpolation between points). */
    double Quantile(double u) const;

    /** Draw a size in bytes (>= 1) using a U(0,1) stream. */
    uint64_t Sample(Ptr<UniformRandomVariable> u) const;

    /** Mean size in bytes of the piecewise-linear distribution. */
    double Mean() const;

    const std::vector<Point>& GetPoints() const
    {
        return m_points;
    }

    const std::string& GetSource() const
    {
        return m_source;
    }

  private:
    std::vector<Point> m_points;
    std::string m_source;
};

} // namespace ns3

#endif // DCN_FLOW_SIZE_CDF_H
