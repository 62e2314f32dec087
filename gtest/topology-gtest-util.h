// Shared by the topology GoogleTests: build a graph preset, failing the test with the
// builder's one-line error if it refuses.
#ifndef DCN_TOPOLOGY_GTEST_UTIL_H
#define DCN_TOPOLOGY_GTEST_UTIL_H

#include "ns3/dcn-topo-builders.h"

#include <gtest/gtest.h>
#include <string>

namespace dcntest
{

inline dcn::SwitchGraph
Preset(const std::string& name)
{
    dcn::GraphResult r = dcn::BuildPreset(name);
    EXPECT_TRUE(r.Ok()) << r.error;
    return r.graph;
}

} // namespace dcntest

#endif // DCN_TOPOLOGY_GTEST_UTIL_H
