// GoogleTest death tests: a refused input ends the process with exit code 2 and ONE
// line on stderr, before anything else runs (helper/dcn-options.h).
#include "ns3/dcn-options.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

/** Parse `args` with a small declared option set (in the death-test child). */
void
ParseArgs(std::vector<std::string> args)
{
    uint32_t hosts = 8;
    Time stop = MilliSeconds(1);
    DcnOptions o("prog", "test");
    o.Unsigned("hosts", "Hosts", hosts).Range(1, 1024);
    o.Time("stopTime", "Stop", stop).Min(NanoSeconds(1));
    std::vector<char*> argv{const_cast<char*>("prog")};
    for (auto& a : args)
    {
        argv.push_back(a.data());
    }
    argv.push_back(nullptr);
    o.Parse(static_cast<int>(argv.size() - 1), argv.data());
    std::exit(hosts == 16 ? 0 : 1); // accepted: the caller checks the value
}

/**
 * Expect ParseArgs(args), with $DCNLB_FABRIC = fabricEnv if given (in the child), to
 * end the process with exit code `code` and stderr matching `stderrRegex`.
 */
void
ExpectParseExit(const std::vector<std::string>& args,
                int code,
                const std::string& stderrRegex,
                const char* fabricEnv = nullptr)
{
    SCOPED_TRACE(::testing::PrintToString(args));
    EXPECT_EXIT(
        {
            if (fabricEnv)
            {
                setenv("DCNLB_FABRIC", fabricEnv, 1);
            }
            ParseArgs(args);
        },
        ::testing::ExitedWithCode(code),
        stderrRegex);
}

} // namespace

TEST(DcnOptionsExit, ExitPrintsOneLineAndExits2)
{
    EXPECT_EXIT(DcnOptions::Exit("prog", "option --x: value 'a\nb' is not y; allowed: z"),
                ::testing::ExitedWithCode(2),
                "^prog: error: option --x: value 'a b' is not y; allowed: z\n$");
}

TEST(DcnOptionsExit, BadValuesExit2WithOneLine)
{
    ExpectParseExit(
        {"--hosts=-1"},
        2,
        "^prog: error: option --hosts: value '-1' is not a non-negative integer; allowed: an "
        "integer in \\[1, 1024\\]\n$");
    ExpectParseExit({"--stopTime=abc"},
                    2,
                    "^prog: error: option --stopTime: value 'abc' is not a time[^\n]*\n$");
    ExpectParseExit({"--RngRun=abc"}, 2, "^prog: error: option --RngRun: value 'abc'[^\n]*\n$");
    ExpectParseExit({"--RngSeed=0"}, 2, "^prog: error: option --RngSeed: value '0'[^\n]*\n$");
    ExpectParseExit(
        {"--SimulatorImplementationType=ns3::Nope"},
        2,
        "^prog: error: option --SimulatorImplementationType: value 'ns3::Nope'[^\n]*\n$");
    ExpectParseExit({"--ns3::DcnQueueDisc::KminFraction=abc"},
                    2,
                    "^prog: error: option --ns3::DcnQueueDisc::KminFraction: value 'abc'[^\n]*\n$");
    ExpectParseExit({"--ns3::Nope::X=1"},
                    2,
                    "^prog: error: option --ns3::Nope::X: unknown TypeId[^\n]*\n$");
    ExpectParseExit({"--hostz=3"}, 2, "^prog: error: option --hostz: unknown option[^\n]*\n$");
}

TEST(DcnOptionsExit, GoodValuesAndHelp)
{
    ExpectParseExit({"--hosts=16", "--RngRun=5"}, 0, "^$");
    ExpectParseExit({"--PrintHelp"}, 0, "^$");
}

// Review s41 F14: ns-3's print options are matched exactly; a near miss is an unknown
// option (one line, exit 2), not ns-3's usage text and exit 1; they take no value.
TEST(DcnOptionsExit, Ns3PrintOptionsMatchExactly)
{
    ExpectParseExit({"--PrintGlobalsX"},
                    2,
                    "^prog: error: option --PrintGlobalsX: unknown option[^\n]*\n$");
    ExpectParseExit({"--versionfoo"},
                    2,
                    "^prog: error: option --versionfoo: unknown option[^\n]*\n$");
    ExpectParseExit({"--PrintTypeIds=foo"},
                    2,
                    "^prog: error: option --PrintTypeIds: value 'foo' given; allowed: "
                    "--PrintTypeIds alone[^\n]*\n$");
}

// Review s41 F20: an unknown $DCNLB_FABRIC is refused, not run as auto.
TEST(DcnOptionsExit, UnknownFabricEnvironment)
{
    ExpectParseExit(
        {"--hosts=16"},
        2,
        "^prog: error: option --ns3::DcnTopologyBase::FabricMode: its default, environment "
        "variable DCNLB_FABRIC='bogus', is not a fabric mode[^\n]*\n$",
        "bogus");
    ExpectParseExit({"--hosts=16"}, 0, "^$", "ipv4");
}
