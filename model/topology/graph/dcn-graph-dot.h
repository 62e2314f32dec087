/*
 * Graphviz DOT export of a SwitchGraph (issue 11 item 8, ns-3 free): switches (shape
 * and colour by role, grouped in clusters by group for Dragonfly / Slim Fly / Rail),
 * optionally hosts, link rates as edge labels, failed links dashed and red.
 * Render: dot -Tpng topo.dot -o topo.png (neato/sfdp for large graphs).
 */
#ifndef DCN_GRAPH_DOT_H
#define DCN_GRAPH_DOT_H

#include "dcn-switch-graph.h"

#include <string>
#include <vector>

namespace dcn
{

struct DotOptions
{
    bool hosts{true};                  //!< draw host nodes "h<i>" and host links
    bool clusters{true};               //!< one DOT cluster per group (DF, SF, Rail NIC clusters)
    bool rateLabels{true};             //!< label edges with the link rate, e.g. "400G"
    std::vector<bool> failedLinks;     //!< per link id: drawn dashed red with "failed"
    std::vector<uint32_t> failedHosts; //!< host ids whose access link failed
};

/** Rate as a short label: 400e9 -> "400G", 2.5e9 -> "2.5G", 1e8 -> "100M". */
std::string RateLabel(double bps);
/** The whole graph as one DOT document. */
std::string ToDot(const SwitchGraph& g, const DotOptions& o = {});

} // namespace dcn

#endif // DCN_GRAPH_DOT_H
