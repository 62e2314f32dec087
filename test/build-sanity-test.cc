/*
 * dcn-lb-build: checks that the build wiring works in every build mode
 * (standalone, in-tree 3.37/3.43): the data directory baked in by the build
 * (DCNLB_DATA_DIR) is readable and well-formed, our headers are reachable as
 * "ns3/<name>.h", the compat macros select a TestSuite type that ns-3 accepts,
 * and a header built from real bytes survives a packet round trip.
 */
#include "ns3/dcn-header.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/flow-size-cdf.h"
#include "ns3/packet.h"
#include "ns3/path-selector.h"
#include "ns3/test.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/** Every workload CDF shipped in data/workloads parses and is a proper CDF. */
class DataDirTestCase : public TestCase
{
  public:
    DataDirTestCase()
        : TestCase("DCNLB_DATA_DIR points at readable, well-formed workload CDFs")
    {
    }

  private:
    void DoRun() override
    {
        const std::string dir = FlowSizeCdf::DataDir() + "/workloads/";
        for (const char* name : {"websearch", "datamining", "hadoop", "rpc", "storage"})
        {
            const std::string path = dir + name + ".txt";
            std::ifstream in(path);
            NS_TEST_ASSERT_MSG_EQ(in.good(), true, "cannot open " << path);
            std::string line;
            double lastSize = -1;
            double lastPct = -1;
            uint32_t points = 0;
            while (std::getline(in, line))
            {
                if (line.empty() || line[0] == '#')
                {
                    continue;
                }
                std::istringstream ls(line);
                double size = 0;
                double pct = 0;
                ls >> size >> pct;
                NS_TEST_ASSERT_MSG_EQ(ls.fail(),
                                      false,
                                      path << ": malformed line '" << line << "'");
                NS_TEST_ASSERT_MSG_EQ((size >= lastSize), true, path << ": sizes not ascending");
                NS_TEST_ASSERT_MSG_EQ((pct >= lastPct), true, path << ": percent not ascending");
                lastSize = size;
                lastPct = pct;
                ++points;
            }
            NS_TEST_ASSERT_MSG_GT(points, 2, path << ": too few points");
            NS_TEST_ASSERT_MSG_EQ_TOL(lastPct, 100.0, 1e-9, path << ": last point is not 100%");
        }
    }
};

/** DcnHeader (with a carried EV list) survives Packet::AddHeader/RemoveHeader. */
class HeaderRoundTripTestCase : public TestCase
{
  public:
    HeaderRoundTripTestCase()
        : TestCase("DcnHeader round trip through a Packet")
    {
    }

  private:
    void DoRun() override
    {
        DcnHeader h;
        h.opcode = DcnHeader::ACK;
        h.flags = DcnHeader::FLAG_ECN_ECHO;
        h.evEcho = 0xBEEF;
        h.connId = 7;
        h.psn = 123456;
        h.msgId = 42;
        h.msgOffset = 0x1122334455ULL;
        h.payloadSize = 4096;
        h.timestampNs = -5;
        h.cumAck = 99;
        h.evs = {1, 2, 65535};
        Ptr<Packet> p = Create<Packet>(100);
        p->AddHeader(h);
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 100 + h.GetSerializedSize(), "header size");
        DcnHeader r;
        p->RemoveHeader(r);
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 100u, "payload left after RemoveHeader");
        NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(r.opcode),
                              static_cast<uint32_t>(DcnHeader::ACK),
                              "opcode");
        NS_TEST_ASSERT_MSG_EQ(r.HasFlag(DcnHeader::FLAG_ECN_ECHO), true, "flag");
        NS_TEST_ASSERT_MSG_EQ(r.HasFlag(DcnHeader::FLAG_TRIMMED), false, "flag");
        NS_TEST_ASSERT_MSG_EQ(r.evEcho, 0xBEEF, "evEcho");
        NS_TEST_ASSERT_MSG_EQ(r.psn, 123456u, "psn");
        // ACKs carry no data fields (dcn-header.h): msgId/msgOffset/payloadSize read back 0
        NS_TEST_ASSERT_MSG_EQ(r.msgOffset, 0u, "msgOffset not on an ACK");
        NS_TEST_ASSERT_MSG_EQ(r.msgId, 0u, "msgId not on an ACK");
        NS_TEST_ASSERT_MSG_EQ(r.timestampNs, -5, "timestamp");
        NS_TEST_ASSERT_MSG_EQ(r.cumAck, 99u, "cumAck");
        NS_TEST_ASSERT_MSG_EQ(r.evs.size(), 3u, "evs");
        NS_TEST_ASSERT_MSG_EQ(r.evs[2], 65535, "evs[2]");
    }
};

/** The registry lists names sorted and rejects unknown ones (without aborting on Has). */
class RegistryTestCase : public TestCase
{
  public:
    RegistryTestCase()
        : TestCase("PathSelectorRegistry lookups")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(PathSelectorRegistry::Has("no-such-load-balancer"),
                              false,
                              "unknown name");
        std::vector<std::string> names = PathSelectorRegistry::Names();
        NS_TEST_ASSERT_MSG_EQ(std::is_sorted(names.begin(), names.end()), true, "Names() sorted");
        for (const auto& n : names)
        {
            NS_TEST_ASSERT_MSG_EQ(PathSelectorRegistry::Has(n), true, "listed name " << n);
        }
    }
};

class BuildSanityTestSuite : public TestSuite
{
  public:
    BuildSanityTestSuite()
        : TestSuite("dcn-lb-build", DCNLB_TEST_UNIT)
    {
        AddTestCase(new DataDirTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new HeaderRoundTripTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new RegistryTestCase, DCNLB_TEST_QUICK);
    }
};

static BuildSanityTestSuite g_buildSanityTestSuite;

} // namespace
