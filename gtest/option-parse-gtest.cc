// GoogleTest unit tests of the typed option parsers (helper/dcn-option-parse.h).
#include "ns3/dcn-failure-spec-parse.h"
#include "ns3/dcn-option-parse.h"

#include <gtest/gtest.h>
#include <limits>

using namespace ns3::dcnopt;

namespace
{

/** The error names the option and the value, and says what is allowed. */
template <class T>
void
ExpectError(const Parsed<T>& p, const std::string& opt, const std::string& value)
{
    ASSERT_FALSE(p) << "accepted '" << value << "'";
    const std::string& e = p.Error();
    EXPECT_EQ(e.rfind("option --" + opt + ": value '" + value + "' is not ", 0), 0u) << e;
    EXPECT_NE(e.find("; allowed: "), std::string::npos) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
}

} // namespace

TEST(OptionParse, MessageFormat)
{
    EXPECT_EQ(Message("rate", "abc", "a data rate", "e.g. 400Gbps"),
              "option --rate: value 'abc' is not a data rate; allowed: e.g. 400Gbps");
    EXPECT_EQ(Message("x", "a\nb", "y", "z"), "option --x: value 'a b' is not y; allowed: z");
}

TEST(OptionParse, UnsignedGood)
{
    EXPECT_EQ(ParseUnsigned("n", "0").Value(), 0u);
    EXPECT_EQ(ParseUnsigned("n", "42").Value(), 42u);
    EXPECT_EQ(ParseUnsigned("n", "+7").Value(), 7u);
    EXPECT_EQ(ParseUnsigned("n", "18446744073709551615").Value(),
              std::numeric_limits<uint64_t>::max());
    EXPECT_EQ(ParseUnsigned("n", "5", 5, 5).Value(), 5u);
}

TEST(OptionParse, UnsignedBad)
{
    for (const char* v : {"-1",
                          "3.7",
                          "abc",
                          "",
                          "1e3",
                          "0x10",
                          " 5",
                          "5 ",
                          "+",
                          "18446744073709551616",
                          "99999999999999999999999999",
                          "nan",
                          "1,2"})
    {
        ExpectError(ParseUnsigned("hosts", v), "hosts", v);
    }
    ExpectError(ParseUnsigned("hosts", "0", 1, 10), "hosts", "0");
    ExpectError(ParseUnsigned("hosts", "11", 1, 10), "hosts", "11");
    EXPECT_NE(ParseUnsigned("hosts", "-1").Error().find("non-negative"), std::string::npos);
    EXPECT_NE(ParseUnsigned("hosts", "11", 1, 10).Error().find("[1, 10]"), std::string::npos);
}

TEST(OptionParse, SignedGoodAndBad)
{
    EXPECT_EQ(ParseSigned("l", "-1").Value(), -1);
    EXPECT_EQ(ParseSigned("l", "+12").Value(), 12);
    EXPECT_EQ(ParseSigned("l", "-9223372036854775808").Value(),
              std::numeric_limits<int64_t>::min());
    EXPECT_EQ(ParseSigned("l", "9223372036854775807").Value(), std::numeric_limits<int64_t>::max());
    for (const char* v :
         {"9223372036854775808", "-9223372036854775809", "3.7", "-", "", "1-", "--1"})
    {
        ExpectError(ParseSigned("l", v), "l", v);
    }
    ExpectError(ParseSigned("failLink", "-2", -1, 100), "failLink", "-2");
    EXPECT_EQ(ParseSigned("failLink", "-1", -1, 100).Value(), -1);
}

TEST(OptionParse, DoubleGood)
{
    EXPECT_DOUBLE_EQ(ParseDouble("x", "0.5").Value(), 0.5);
    EXPECT_DOUBLE_EQ(ParseDouble("x", ".5").Value(), 0.5);
    EXPECT_DOUBLE_EQ(ParseDouble("x", "5.").Value(), 5.0);
    EXPECT_DOUBLE_EQ(ParseDouble("x", "-2.5e-3").Value(), -2.5e-3);
    EXPECT_DOUBLE_EQ(ParseDouble("x", "1E2").Value(), 100);
    EXPECT_DOUBLE_EQ(ParseDouble("load", "1", Interval{0, 1, true, false}).Value(), 1.0);
}

TEST(OptionParse, DoubleBad)
{
    for (const char* v : {"nan",
                          "NaN",
                          "inf",
                          "-inf",
                          "infinity",
                          "",
                          ".",
                          "e5",
                          "1e",
                          "1e+",
                          "0x1p3",
                          "1.2.3",
                          "abc",
                          "1,5",
                          " 1",
                          "1e999",
                          "-1e999"})
    {
        ExpectError(ParseDouble("load", v), "load", v);
    }
    Interval open01{0, 1, true, false};
    ExpectError(ParseDouble("load", "0", open01), "load", "0");
    ExpectError(ParseDouble("load", "1.5", open01), "load", "1.5");
    ExpectError(ParseDouble("load", "-0.1", open01), "load", "-0.1");
    EXPECT_NE(ParseDouble("load", "0", open01).Error().find("(0, 1]"), std::string::npos);
    EXPECT_FALSE(ParseDouble("p", "1", Interval{0, 1, false, true}));
    EXPECT_TRUE(ParseDouble("p", "0", Interval{0, 1, false, true}));
}

TEST(OptionParse, Bool)
{
    for (const char* v : {"true", "TRUE", "1", "yes", "on", "t"})
    {
        EXPECT_TRUE(ParseBool("trim", v).Value()) << v;
    }
    for (const char* v : {"false", "False", "0", "no", "off", "f"})
    {
        EXPECT_FALSE(ParseBool("trim", v).Value()) << v;
        EXPECT_TRUE(ParseBool("trim", v)) << v;
    }
    for (const char* v : {"", "2", "maybe", "tru", "-1"})
    {
        ExpectError(ParseBool("trim", v), "trim", v);
    }
}

TEST(OptionParse, SizeGood)
{
    EXPECT_EQ(ParseSize("s", "4096").Value(), 4096u);
    EXPECT_EQ(ParseSize("s", "4096B").Value(), 4096u);
    EXPECT_EQ(ParseSize("s", "2MiB").Value(), 2097152u);
    EXPECT_EQ(ParseSize("s", "4MB").Value(), 4000000u);
    EXPECT_EQ(ParseSize("s", "1KB").Value(), 1000u);
    EXPECT_EQ(ParseSize("s", "1kB").Value(), 1000u);
    EXPECT_EQ(ParseSize("s", "64KiB").Value(), 65536u);
    EXPECT_EQ(ParseSize("s", "1.5KiB").Value(), 1536u);
    EXPECT_EQ(ParseSize("s", "0.5MB").Value(), 500000u);
    EXPECT_EQ(ParseSize("s", "1GiB").Value(), 1073741824u);
}

TEST(OptionParse, SizeBad)
{
    for (const char* v : {"",
                          "abc",
                          "-1",
                          "-2MiB",
                          "2XB",
                          "2 MiB",
                          "MiB",
                          "1.3B",
                          "0.1KiB",
                          "2mib",
                          "nan",
                          "1e3",
                          "99999999999999999999GiB",
                          "18446744073709551616"})
    {
        ExpectError(ParseSize("msgSize", v), "msgSize", v);
    }
    ExpectError(ParseSize("msgSize", "0", 1), "msgSize", "0");
    ExpectError(ParseSize("mtu", "64KiB", 64, 9000), "mtu", "64KiB");
    EXPECT_EQ(ParseSize("mtu", "9000", 64, 9000).Value(), 9000u);
}

TEST(OptionParse, TimeGood)
{
    auto t = ParseTime("d", "10us");
    ASSERT_TRUE(t);
    EXPECT_DOUBLE_EQ(t.Value().seconds, 10e-6);
    EXPECT_EQ(t.Value().unit, "us");
    EXPECT_DOUBLE_EQ(ParseTime("d", "1.5ms").Value().seconds, 1.5e-3);
    EXPECT_DOUBLE_EQ(ParseTime("d", "0").Value().seconds, 0);
    EXPECT_DOUBLE_EQ(ParseTime("d", "0ns").Value().seconds, 0);
    EXPECT_DOUBLE_EQ(ParseTime("d", "500ns").Value().seconds, 500e-9);
    EXPECT_DOUBLE_EQ(ParseTime("d", "2s").Value().seconds, 2);
    EXPECT_DOUBLE_EQ(ParseTime("d", "-5us", -1, 1, true).Value().seconds, -5e-6);
}

TEST(OptionParse, TimeBad)
{
    for (const char* v : {"abc",
                          "",
                          "10",
                          "1.5",
                          "10 us",
                          "10usec",
                          "10m",
                          "-10us",
                          "us",
                          "1e3us",
                          "nan",
                          "10US",
                          "inf"})
    {
        ExpectError(ParseTime("linkDelay", v), "linkDelay", v);
    }
    ExpectError(ParseTime("stopTime", "0", 1e-9), "stopTime", "0");
    ExpectError(ParseTime("stopTime", "2s", 0, 1), "stopTime", "2s");
    EXPECT_NE(ParseTime("linkDelay", "10").Error().find("unit"), std::string::npos);
}

TEST(OptionParse, RateGood)
{
    EXPECT_EQ(ParseRate("r", "400Gbps").Value(), 400000000000ULL);
    EXPECT_EQ(ParseRate("r", "100Mbps").Value(), 100000000ULL);
    EXPECT_EQ(ParseRate("r", "1.5Gbps").Value(), 1500000000ULL);
    EXPECT_EQ(ParseRate("r", "10kbps").Value(), 10000ULL);
    EXPECT_EQ(ParseRate("r", "10Kbps").Value(), 10000ULL);
    EXPECT_EQ(ParseRate("r", "1Tbps").Value(), 1000000000000ULL);
    EXPECT_EQ(ParseRate("r", "8bps").Value(), 8ULL);
}

TEST(OptionParse, RateBad)
{
    for (const char* v : {"abc",
                          "",
                          "400",
                          "400G",
                          "400gbps",
                          "-1Gbps",
                          "0Gbps",
                          "0.5bps",
                          "400 Gbps",
                          "nan",
                          "Gbps",
                          "100Tbps"})
    {
        ExpectError(ParseRate("rate", v), "rate", v);
    }
}

TEST(OptionParse, Enum)
{
    std::vector<std::string> wl{"permutation", "incast"};
    EXPECT_EQ(ParseEnum("workload", "incast", wl).Value(), "incast");
    for (const char* v : {"bar", "", "Incast", " incast"})
    {
        ExpectError(ParseEnum("workload", v, wl), "workload", v);
    }
    EXPECT_NE(ParseEnum("workload", "bar", wl).Error().find("allowed: permutation, incast"),
              std::string::npos);
}

TEST(OptionParse, Lists)
{
    std::vector<std::string> lbs{"ecmp", "ops", "reps"};
    auto p = ParseEnumList("lb", "ecmp,reps", lbs);
    ASSERT_TRUE(p);
    EXPECT_EQ(p.Value(), (std::vector<std::string>{"ecmp", "reps"}));
    for (const char* v : {"", ",", "ecmp,", ",ops", "ecmp,,ops", "ops,ops"})
    {
        ExpectError(ParseEnumList("lb", v, lbs), "lb", v);
    }
    ExpectError(ParseEnumList("lb", "ecmp,foo", lbs), "lb", "foo"); // the bad item is quoted
    auto n =
        ParseList<uint64_t>("loads", "40,60,80", [](const std::string& o, const std::string& s) {
            return ParseUnsigned(o, s, 1, 100);
        });
    ASSERT_TRUE(n);
    EXPECT_EQ(n.Value(), (std::vector<uint64_t>{40, 60, 80}));
    auto bad =
        ParseList<uint64_t>("loads", "40,abc", [](const std::string& o, const std::string& s) {
            return ParseUnsigned(o, s, 1, 100);
        });
    ExpectError(bad, "loads", "abc");
    EXPECT_NE(bad.Error().find("in list '40,abc'"), std::string::npos);
    EXPECT_FALSE((ParseList<uint64_t>("loads", "0", [](const std::string& o, const std::string& s) {
        return ParseUnsigned(o, s, 1, 100);
    })));
}

TEST(OptionParse, FailureSpecGood)
{
    auto f = ParseFailureSpec("failures", "silent:link=32:start=10us:end=30us", 100);
    ASSERT_TRUE(f) << f.Error();
    EXPECT_EQ(f.Value().kind, "silent");
    EXPECT_EQ(f.Value().link, 32u);
    EXPECT_DOUBLE_EQ(f.Value().start.seconds, 10e-6);
    EXPECT_TRUE(f.Value().hasEnd);
    auto d = ParseFailureSpec("failures", "degrade:link=3:rate=200Gbps");
    ASSERT_TRUE(d);
    EXPECT_EQ(d.Value().rateBps, 200000000000ULL);
    auto p = ParseFailureSpec("failures", "drop:link=0:prob=0.01");
    ASSERT_TRUE(p);
    EXPECT_DOUBLE_EQ(p.Value().prob, 0.01);
    auto w = ParseFailureSpec("failures", "down:link=1:withdraw=5us:end=0");
    ASSERT_TRUE(w);
    EXPECT_FALSE(w.Value().hasEnd); // end=0: persists
    EXPECT_TRUE(w.Value().hasWithdraw);
    // names as --PrintLinks prints them, parallel links ("/k") included
    auto n = ParseFailureSpec("failures",
                              "silent:link=leaf0-spine0/1",
                              100,
                              {"silent", "down", "degrade", "drop", "blackhole"},
                              true);
    ASSERT_TRUE(n) << n.Error();
    EXPECT_EQ(n.Value().linkName, "leaf0-spine0/1");
    EXPECT_TRUE(IsFailureName("sf0.1.2-sf1.0.3"));
    EXPECT_FALSE(IsFailureName("0spine"));
    EXPECT_FALSE(IsFailureName("spine 0"));
}

TEST(OptionParse, FailureSpecBad)
{
    struct Case
    {
        const char* spec;
        const char* opt;   //!< option named in the message
        const char* value; //!< value quoted in the message
    };

    for (const Case& c : std::vector<Case>{
             {"boom:link=1", "failures", "boom:link=1"},
             {"silent", "failures", "silent"},
             {"silent:link=abc", "failures link", "abc"},
             {"silent:link=-1", "failures link", "-1"},
             {"silent:link=101", "failures link", "101"},
             {"silent:link=3.7", "failures link", "3.7"},
             {"silent:link=1:start=abc", "failures start", "abc"},
             {"silent:link=1:start=10", "failures start", "10"},
             {"silent:link=1:end=-5us", "failures end", "-5us"},
             {"silent:link=1:start=20us:end=10us", "failures", "silent:link=1:start=20us:end=10us"},
             {"silent:link=1:color=red", "failures", "silent:link=1:color=red"},
             {"silent:link=1:link=2", "failures", "silent:link=1:link=2"},
             {"silent:link=1:rate=10Gbps", "failures", "silent:link=1:rate=10Gbps"},
             {"degrade:link=1:rate=fast", "failures rate", "fast"},
             {"drop:link=1:prob=1.5", "failures prob", "1.5"},
             {"drop:link=1:prob=nan", "failures prob", "nan"},
             {"drop:link=1:prob=0", "failures prob", "0"},
             {"silent:link=1:withdraw=5us", "failures", "silent:link=1:withdraw=5us"},
             {"silent::link=1", "failures", "silent::link=1"},
             {"", "failures", ""},
         })
    {
        ExpectError(ParseFailureSpec("failures", c.spec, 100), c.opt, c.value);
    }
}
