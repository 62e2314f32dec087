/*
 * TestSuite "dcn-lb-options": the command-line pre-parser (helper/dcn-options.h)
 * refuses every malformed ns-3 argument (global values, --ns3::Type::Attr) with one
 * line instead of letting ns-3's parsers abort, and DcnOptions parses declared
 * options, applies accepted ns-3 arguments and documents presets in its help.
 */
#include "ns3/config.h"
#include "ns3/dcn-failure-spec-parse.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-options.h"
#include "ns3/double.h"
#include "ns3/flow-size-cdf.h"
#include "ns3/global-value.h"
#include "ns3/test.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <fstream>
#include <iterator>

using namespace ns3;

namespace
{

class Ns3ArgumentTestCase : public TestCase
{
  public:
    Ns3ArgumentTestCase()
        : TestCase("global values and --ns3::Type::Attr are checked without aborting")
    {
    }

  private:
    void Bad(const std::string& name, const std::string& value, const std::string& expect)
    {
        std::string e = DcnCheckNs3Argument(name, value);
        NS_TEST_EXPECT_MSG_EQ(e.rfind("option --" + name + ":", 0), 0, "names the option: " << e);
        NS_TEST_EXPECT_MSG_NE(e.find(expect), std::string::npos, "'" << expect << "' in: " << e);
        NS_TEST_EXPECT_MSG_NE(e.find("allowed: "),
                              std::string::npos,
                              "says what is allowed: " << e);
        NS_TEST_EXPECT_MSG_EQ(e.find('\n'), std::string::npos, "one line: " << e);
    }

    void Good(const std::string& name, const std::string& value)
    {
        NS_TEST_EXPECT_MSG_EQ(DcnCheckNs3Argument(name, value), "", name << "=" << value);
    }

    void DoRun() override
    {
        // global values
        Good("RngRun", "3");
        Good("RngRun", "18446744073709551615");
        Bad("RngRun", "abc", "value 'abc' is not an unsigned integer");
        Bad("RngRun", "-1", "value '-1'");
        Bad("RngRun", "3.7", "value '3.7'");
        Bad("RngRun", "", "value ''");
        Bad("RngRun", "18446744073709551616", "value '18446744073709551616'");
        Good("RngSeed", "1");
        Bad("RngSeed", "0", "[1, 4294967295]");
        Bad("RngSeed", "4294967296", "uint32_t 0:4294967295");
        Good("SimulatorImplementationType", "ns3::DefaultSimulatorImpl");
        Bad("SimulatorImplementationType", "ns3::NoSuchImpl", "ns3::DefaultSimulatorImpl");
        Bad("SimulatorImplementationType", "ns3::DcnQueueDisc", "not a simulator implementation");
        Good("SchedulerType", "ns3::MapScheduler");
        Bad("SchedulerType", "ns3::NoSuchScheduler", "registered TypeId");
        Good("ChecksumEnabled", "true");
        Bad("ChecksumEnabled", "maybe", "not a boolean");
        Bad("NoSuchGlobal", "1", "unknown option");
        NS_TEST_EXPECT_MSG_EQ(DcnIsNs3Argument("RngRun"), true, "RngRun is a global value");
        NS_TEST_EXPECT_MSG_EQ(DcnIsNs3Argument("lb"), false, "lb is not");

        // --ns3::Type::Attr
        Bad("ns3::NoSuchType::Foo", "1", "unknown TypeId 'ns3::NoSuchType'");
        Bad("ns3::DcnQueueDisc::NoSuchAttr", "1", "has no attribute 'NoSuchAttr'");
        Bad("ns3::DcnQueueDisc::NoSuchAttr", "1", "KminFraction"); // lists the real ones
        Bad("ns3::DcnQueueDisc::", "1", "has no attribute ''");
        Good("ns3::DcnQueueDisc::KminFraction", "0.3");
        Bad("ns3::DcnQueueDisc::KminFraction", "nan", "value 'nan' is not a finite number");
        Bad("ns3::DcnQueueDisc::EcnEnabled", "maybe", "not a boolean");
        Good("ns3::DcnQueueDisc::DataLimit", "100p");
        Good("ns3::DcnQueueDisc::DataLimit", "415000B");
        Bad("ns3::DcnQueueDisc::DataLimit", "lots", "not a queue size");
        Bad("ns3::DcnQueueDisc::DataLimit", "-1p", "not a queue size");
        Good("ns3::RttMeanDeviation::Alpha", "0.5");
        Bad("ns3::RttMeanDeviation::Alpha", "2", "double 0:1");
        Bad("ns3::RttMeanDeviation::Alpha", "inf", "not a finite number");
        Good("ns3::TcpSocket::SegmentSize", "1448");
        Bad("ns3::TcpSocket::SegmentSize", "-1", "value '-1'");
        Bad("ns3::TcpSocket::SegmentSize", "4294967296", "uint32_t 0:4294967295");
        Bad("ns3::TcpSocket::SegmentSize", "3.7", "value '3.7'");
        Good("ns3::PointToPointNetDevice::DataRate", "100Gbps");
        Bad("ns3::PointToPointNetDevice::DataRate", "fast", "not a data rate");
        Bad("ns3::PointToPointNetDevice::DataRate", "abc", "not a data rate");
        Good("ns3::PointToPointChannel::Delay", "10us");
        Bad("ns3::PointToPointChannel::Delay", "abc", "not a time");
        Bad("ns3::PointToPointChannel::Delay", "10", "not a time");
        Good("ns3::RepsPathSelector::FreezingTimeout", "100us");
        Good("ns3::RepsPathSelector::ExploreMode", "AllRandom");
        Bad("ns3::RepsPathSelector::ExploreMode", "Sometimes", "EveryNth");
    }
};

class DcnOptionsTestCase : public TestCase
{
  public:
    DcnOptionsTestCase()
        : TestCase("DcnOptions: typed options, cross checks, ns-3 arguments, help")
    {
    }

  private:
    void DoRun() override
    {
        uint32_t queue = 0;
        uint64_t msg = 2097152;
        double load = 0.6;
        bool trim = false;
        Time stop = MilliSeconds(100);
        DataRate rate("400Gbps");
        std::string wl = "permutation";
        std::string lbs = "ecmp,ops,reps";
        std::string csv;
        int32_t failLink = -1;
        std::string failures;
        DcnOptions o("prog", "A test program");
        o.Unsigned("queue", "Data queue in packets", queue).Max(1000000).Preset("0", "1 BDP");
        o.Size("msgSize", "Message size", msg).Min(1);
        o.Double("load", "Offered load", load).Range(0, 1, true, false);
        o.Bool("trim", "Trimming", trim);
        o.Time("stopTime", "Stop", stop).Min(NanoSeconds(1));
        o.Rate("rate", "Link rate", rate);
        o.Choice("workload", "Workload", wl, {"permutation", "incast"});
        o.ChoiceList("lb", "Load balancers", lbs, {"ecmp", "ops", "reps"});
        o.Text("csv", "CSV prefix", csv);
        o.Signed("failLink", "Failed link", failLink).Range(-1, 100).Preset("-1", "none");
        o.Custom("failures", "Failures", "failure list", [&](const std::string& v) {
            auto p = dcnopt::ParseFailureSpec("failures", v, 100);
            failures = p ? v : "";
            return p ? std::string() : p.Error();
        });
        o.Check([&] {
            return wl == "incast" && load > 0.9
                       ? std::string("option --load: value '") + std::to_string(load) +
                             "' is not usable with --workload=incast; allowed: <= 0.9"
                       : std::string();
        });

        std::string e = o.TryParse({"--queue=64",
                                    "--msgSize=4MB",
                                    "--load=1",
                                    "--trim",
                                    "--stopTime=1.5ms",
                                    "--rate=100Gbps",
                                    "--workload=incast",
                                    "--lb=reps,ops",
                                    "--csv=out/x",
                                    "--failLink=-1",
                                    "--failures=drop:link=3:prob=0.5"});
        NS_TEST_ASSERT_MSG_EQ(
            e,
            "option --load: value '1.000000' is not usable with --workload=incast; allowed: <= 0.9",
            "cross-option check runs after parsing");
        NS_TEST_EXPECT_MSG_EQ(queue, 64, "queue");
        NS_TEST_EXPECT_MSG_EQ(msg, 4000000, "msgSize");
        NS_TEST_EXPECT_MSG_EQ(trim, true, "bare --trim = true");
        NS_TEST_EXPECT_MSG_EQ(stop, MicroSeconds(1500), "stopTime");
        NS_TEST_EXPECT_MSG_EQ(rate.GetBitRate(), 100000000000ULL, "rate");
        NS_TEST_EXPECT_MSG_EQ(lbs, "reps,ops", "lb");
        NS_TEST_EXPECT_MSG_EQ(csv, "out/x", "csv");
        NS_TEST_EXPECT_MSG_EQ(failures, "drop:link=3:prob=0.5", "custom option stored");
        NS_TEST_EXPECT_MSG_EQ(o.TryParse({"--load=0.5"}), "", "now consistent");

        struct Case
        {
            const char* arg;
            const char* expect;
        };

        for (const Case& c : std::vector<Case>{
                 {"--queue=-1", "option --queue: value '-1' is not a non-negative integer"},
                 {"--queue=3.7", "option --queue: value '3.7'"},
                 {"--queue=1000001", "[0, 1000000]"},
                 {"--queue", "option --queue: missing value"},
                 {"--msgSize=0", "option --msgSize: value '0'"},
                 {"--msgSize=abc", "option --msgSize: value 'abc' is not a size in bytes"},
                 {"--load=nan",
                  "option --load: value 'nan' is not a number; allowed: a finite number in (0, 1]"},
                 {"--load=0", "(0, 1]"},
                 {"--trim=maybe", "option --trim: value 'maybe' is not a boolean"},
                 {"--stopTime=0", "option --stopTime: value '0' is not in range"},
                 {"--stopTime=abc", "option --stopTime: value 'abc' is not a time"},
                 {"--rate=abc", "option --rate: value 'abc' is not a data rate"},
                 {"--workload=bar", "allowed: permutation, incast"},
                 {"--lb=ecmp,foo", "option --lb: value 'foo'"},
                 {"--csv=", "option --csv: value '' is not a non-empty text"},
                 {"--failLink=-2", "[-1, 100]"},
                 {"--failures=silent:link=abc", "option --failures link: value 'abc'"},
                 {"--nosuch=1", "option --nosuch: unknown option; allowed: --queue, --msgSize"},
                 {"positional", "argument 'positional': not an option"},
                 {"-trim", "option --trim: argument '-trim' lacks the leading '--'"},
                 {"load=0.5", "option --load: argument 'load=0.5' lacks the leading '--'"},
                 {"--msgsize=1", "option --msgsize: unknown option (did you mean --msgSize?)"},
                 {"--RngRun=abc", "option --RngRun: value 'abc'"},
                 {"--ns3::DcnQueueDisc::KminFraction=abc",
                  "option --ns3::DcnQueueDisc::KminFraction: value 'abc'"},
                 {"--ns3::Nope::X=1", "unknown TypeId"},
             })
        {
            std::string err = o.TryParse({c.arg});
            NS_TEST_EXPECT_MSG_NE(err.find(c.expect), std::string::npos, c.arg << " -> " << err);
            NS_TEST_EXPECT_MSG_EQ(err.find('\n'), std::string::npos, "one line");
        }
        NS_TEST_EXPECT_MSG_EQ(o.TryParse({"--PrintHelp"}), "help", "help request");
        // an option given twice is refused, not silently replaced by the last value
        for (const auto& args : std::vector<std::vector<std::string>>{
                 {"--queue=2", "--queue=4"},
                 {"--trim", "--trim=false"},
                 {"--failures=silent:link=1", "--failures=silent:link=2"},
                 {"--RngRun=1", "--RngRun=2"},
                 {"--ns3::RttMeanDeviation::Alpha=0.25", "--ns3::RttMeanDeviation::Alpha=0.5"}})
        {
            std::string err = o.TryParse(args);
            const std::string name = args[0].substr(0, args[0].find('='));
            NS_TEST_EXPECT_MSG_EQ(err.rfind("option " + name + ": given twice (" + args[0] +
                                                ", then " + args[1] + "); allowed: once",
                                            0),
                                  0,
                                  args[0] << " twice -> " << err);
        }
        NS_TEST_EXPECT_MSG_EQ(o.TryParse({"--queue=2", "--load=0.5"}), "", "distinct options");
        // Given(): what the last parse saw (options of another mode are refused with it)
        NS_TEST_EXPECT_MSG_EQ(o.Given("queue") && o.Given("load") && !o.Given("workload"),
                              true,
                              "Given after --queue --load");
        UintegerValue seed0;
        GlobalValue::GetValueByName("RngSeed", seed0);
        NS_TEST_EXPECT_MSG_EQ(o.TryParse({"--trim", "--RngSeed=3"}), "", "flag and global value");
        NS_TEST_EXPECT_MSG_EQ(o.Given("trim") && o.Given("RngSeed") && !o.Given("queue"),
                              true,
                              "Given is reset by each parse; global values count");
        GlobalValue::Bind("RngSeed", seed0);

        // Accepted ns-3 arguments are applied (and restored afterwards).
        UintegerValue run0;
        GlobalValue::GetValueByName("RngRun", run0);
        DoubleValue kmin0;
        NS_TEST_ASSERT_MSG_EQ(o.TryParse({"--RngRun=7", "--ns3::RttMeanDeviation::Alpha=0.25"}),
                              "",
                              "good");
        UintegerValue run;
        GlobalValue::GetValueByName("RngRun", run);
        NS_TEST_EXPECT_MSG_EQ(run.Get(), 7, "RngRun bound");
        TypeId tid = TypeId::LookupByName("ns3::RttMeanDeviation");
        TypeId::AttributeInformation ai;
        tid.LookupAttributeByName("Alpha", &ai);
        NS_TEST_EXPECT_MSG_EQ(ai.initialValue->SerializeToString(ai.checker),
                              "0.25",
                              "default set");
        NS_TEST_EXPECT_MSG_EQ(o.GetAttributeArguments(),
                              "ns3::RttMeanDeviation::Alpha=0.25",
                              "attribute arguments recorded for the CSVs (global values not)");
        GlobalValue::Bind("RngRun", run0);
        Config::SetDefault("ns3::RttMeanDeviation::Alpha", DoubleValue(0.125));

        std::string help = o.Help();
        NS_TEST_EXPECT_MSG_NE(
            help.find("--queue (uint32 in [0, 1000000]): Data queue in packets; 0 = 1 BDP [0]"),
            std::string::npos,
            help);
        NS_TEST_EXPECT_MSG_NE(help.find("--workload (name: permutation|incast)"),
                              std::string::npos,
                              help);
        NS_TEST_EXPECT_MSG_NE(help.find("--load (number in (0, 1])"), std::string::npos, help);
        NS_TEST_EXPECT_MSG_NE(help.find("-1 = none"), std::string::npos, help);
        NS_TEST_EXPECT_MSG_NE(help.find("--RngRun"), std::string::npos, help);
    }
};

/** Every --ns3::Type::Attr=value written in README.md and doc/*.rst names a real attribute. */
class DocumentedAttributesTestCase : public TestCase
{
  public:
    DocumentedAttributesTestCase()
        : TestCase("--ns3:: attribute names in README.md and doc rst files exist")
    {
    }

  private:
    void DoRun() override
    {
        const std::string root = FlowSizeCdf::DataDir() + "/../";
        uint32_t seen = 0;
        for (const char* file : {"README.md",
                                 "doc/fabric.rst",
                                 "doc/transport.rst",
                                 "doc/workloads.rst",
                                 "doc/reps.rst"})
        {
            std::ifstream in(root + file);
            if (std::string(file) == "README.md")
            {
                NS_TEST_ASSERT_MSG_EQ(in.good(), true, "cannot read " << root << file);
            }
            std::string text((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
            for (size_t pos = text.find("--ns3::"); pos != std::string::npos;
                 pos = text.find("--ns3::", pos + 1))
            {
                size_t end = text.find_first_of("= `\n", pos);
                std::string name = text.substr(pos + 2, end - pos - 2);
                if (name == "ns3::Type::Attribute" || name == "ns3::Type::Attr" || text[end] != '=')
                {
                    continue; // placeholders, names without a value
                }
                size_t vend = text.find_first_of(" `\n", end);
                std::string value = text.substr(end + 1, vend - end - 1);
                seen++;
                NS_TEST_EXPECT_MSG_EQ(DcnCheckNs3Argument(name, value),
                                      "",
                                      file << ": --" << name << "=" << value);
            }
        }
        NS_TEST_EXPECT_MSG_GT(seen, 0, "README.md shows at least one --ns3:: attribute");
    }
};

class DcnOptionsTestSuite : public TestSuite
{
  public:
    DcnOptionsTestSuite()
        : TestSuite("dcn-lb-options", DCNLB_TEST_UNIT)
    {
        AddTestCase(new Ns3ArgumentTestCase(), DCNLB_TEST_QUICK);
        AddTestCase(new DcnOptionsTestCase(), DCNLB_TEST_QUICK);
        AddTestCase(new DocumentedAttributesTestCase(), DCNLB_TEST_QUICK);
    }
};

DcnOptionsTestSuite g_dcnOptionsTestSuite;

} // namespace
