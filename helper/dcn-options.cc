/*
 * Slightly over 600 lines: the typed declarations and the help formatter share private
 * helpers; the ns-3 argument checks were already split out (dcn-ns3-args.cc).
 * DcnOptions: declared options, --PrintHelp text, and the parse loop (see
 * dcn-options.h); the ns-3 argument checks are in dcn-ns3-args.cc.
 */
#include "dcn-options.h"

#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <map>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnOptions");

using namespace dcnopt;

// ------------------------------------------------------------------ Option

DcnOptions::Option&
DcnOptions::Option::Range(double l, double h, bool lOpen, bool hOpen)
{
    lo = l;
    hi = h;
    loOpen = lOpen;
    hiOpen = hOpen;
    ranged = true;
    return *this;
}

DcnOptions::Option&
DcnOptions::Option::Min(double l, bool open)
{
    lo = l;
    loOpen = open;
    ranged = true;
    return *this;
}

DcnOptions::Option&
DcnOptions::Option::Max(double h, bool open)
{
    hi = h;
    hiOpen = open;
    ranged = true;
    return *this;
}

DcnOptions::Option&
DcnOptions::Option::Min(ns3::Time l)
{
    return Min(l.GetSeconds());
}

DcnOptions::Option&
DcnOptions::Option::Max(ns3::Time h)
{
    return Max(h.GetSeconds());
}

DcnOptions::Option&
DcnOptions::Option::Preset(const std::string& value, const std::string& meaning)
{
    presetValue = value;
    presetMeaning = meaning;
    return *this;
}

std::string
DcnOptions::Option::RangeText() const
{
    switch (kind)
    {
    case Kind::SIGNED:
        return "[" + ToText(static_cast<long long>(lo) + (loOpen ? 1 : 0)) + ", " +
               ToText(static_cast<long long>(hi) - (hiOpen ? 1 : 0)) + "]";
    case Kind::UNSIGNED:
    case Kind::SIZE:
    case Kind::RATE:
        return "[" + ToText(static_cast<unsigned long long>(lo) + (loOpen ? 1 : 0)) + ", " +
               ToText(static_cast<unsigned long long>(hi) - (hiOpen ? 1 : 0)) + "]";
    case Kind::DOUBLE:
        return Interval{double(lo), double(hi), loOpen, hiOpen}.Text();
    case Kind::TIME:
        return Interval{double(lo), double(hi), loOpen, hiOpen}.Text() + " s";
    case Kind::CHOICE:
    case Kind::CHOICE_LIST:
        return Join(allowed, "|");
    default:
        return "";
    }
}

std::string
DcnOptions::Option::Apply(const std::string& value) const
{
    switch (kind)
    {
    case Kind::UNSIGNED:
    case Kind::SIZE: {
        uint64_t l = static_cast<uint64_t>(lo) + (loOpen ? 1 : 0);
        uint64_t h = static_cast<uint64_t>(hi) - (hiOpen ? 1 : 0);
        auto p =
            kind == Kind::SIZE ? ParseSize(name, value, l, h) : ParseUnsigned(name, value, l, h);
        if (!p)
        {
            return p.Error();
        }
        if (bits == 32)
        {
            *static_cast<uint32_t*>(target) = static_cast<uint32_t>(p.Value());
        }
        else
        {
            *static_cast<uint64_t*>(target) = p.Value();
        }
        return "";
    }
    case Kind::SIGNED: {
        auto p = ParseSigned(name,
                             value,
                             static_cast<int64_t>(lo) + (loOpen ? 1 : 0),
                             static_cast<int64_t>(hi) - (hiOpen ? 1 : 0));
        if (!p)
        {
            return p.Error();
        }
        if (bits == 32)
        {
            *static_cast<int32_t*>(target) = static_cast<int32_t>(p.Value());
        }
        else
        {
            *static_cast<int64_t*>(target) = p.Value();
        }
        return "";
    }
    case Kind::DOUBLE: {
        auto p = ParseDouble(name, value, Interval{double(lo), double(hi), loOpen, hiOpen});
        if (!p)
        {
            return p.Error();
        }
        *static_cast<double*>(target) = p.Value();
        return "";
    }
    case Kind::BOOL: {
        auto p = ParseBool(name, value);
        if (!p)
        {
            return p.Error();
        }
        *static_cast<bool*>(target) = p.Value();
        return "";
    }
    case Kind::TIME: {
        auto p = ParseTime(name, value, double(lo), double(hi));
        if (!p)
        {
            return p.Error();
        }
        if ((loOpen && p.Value().seconds <= double(lo)) ||
            (hiOpen && p.Value().seconds >= double(hi)))
        {
            return Message(name, value, "in range", "a time in " + RangeText());
        }
        *static_cast<ns3::Time*>(target) = DcnToTime(p.Value());
        return "";
    }
    case Kind::RATE: {
        auto p = ParseRate(name, value, static_cast<uint64_t>(lo), static_cast<uint64_t>(hi));
        if (!p)
        {
            return p.Error();
        }
        *static_cast<DataRate*>(target) = DataRate(p.Value());
        return "";
    }
    case Kind::CHOICE:
    case Kind::CHOICE_LIST: {
        auto e = kind == Kind::CHOICE ? ParseEnum(name, value, allowed).Error()
                                      : ParseEnumList(name, value, allowed).Error();
        if (!e.empty())
        {
            return e;
        }
        *static_cast<std::string*>(target) = value;
        return "";
    }
    case Kind::TEXT:
        if (value.empty())
        {
            return Message(name, value, "a non-empty text", "any non-empty text");
        }
        *static_cast<std::string*>(target) = value;
        return "";
    case Kind::CUSTOM:
        return custom(value);
    }
    return "";
}

// ------------------------------------------------------------------ DcnOptions

namespace
{
/** Program name for the terminate handler below (set by the last DcnOptions). */
std::string g_dcnProgram = "dcn-lb";
/** The handler in place before ours (the verbose default), for other exceptions. */
std::terminate_handler g_prevTerminate = nullptr;

/**
 * A DcnOptionError that escapes main (library code refusing an input the
 * example did not check first) still ends in the one-line refusal and exit 2,
 * not in std::terminate's abort.  Anything else keeps the default behaviour.
 */
[[noreturn]] void
DcnTerminate()
{
    if (auto e = std::current_exception())
    {
        try
        {
            std::rethrow_exception(e);
        }
        catch (const DcnOptionError& err)
        {
            DcnOptions::Exit(g_dcnProgram, err.what());
        }
        catch (...)
        {
        }
    }
    if (g_prevTerminate != nullptr)
    {
        g_prevTerminate();
    }
    std::abort();
}
} // namespace

DcnOptions::DcnOptions(std::string program, std::string description)
    : m_program(std::move(program)),
      m_description(std::move(description))
{
    g_dcnProgram = m_program;
    std::terminate_handler prev = std::set_terminate(&DcnTerminate);
    if (prev != &DcnTerminate)
    {
        g_prevTerminate = prev;
    }
}

DcnOptions::Option&
DcnOptions::Add(const std::string& name,
                const std::string& help,
                Option::Kind kind,
                void* target,
                const std::string& type,
                const std::string& deflt)
{
    NS_ABORT_MSG_IF(Find(name) != nullptr, "DcnOptions: option --" << name << " declared twice");
    auto o = std::make_unique<Option>();
    o->name = name;
    o->help = help;
    o->kind = kind;
    o->target = target;
    o->type = type;
    o->deflt = deflt;
    m_options.push_back(std::move(o));
    return *m_options.back();
}

DcnOptions::Option&
DcnOptions::Typed(Option& o, long double lo, long double hi, unsigned bits)
{
    o.lo = lo;
    o.hi = hi;
    o.bits = bits;
    return o; // type limits: not shown as a declared range
}

const DcnOptions::Option*
DcnOptions::Find(const std::string& name) const
{
    for (const auto& o : m_options)
    {
        if (o->name == name)
        {
            return o.get();
        }
    }
    return nullptr;
}

DcnOptions::Option&
DcnOptions::Unsigned(const std::string& name, const std::string& help, uint32_t& v)
{
    return Typed(Add(name, help, Option::Kind::UNSIGNED, &v, "uint32", ToText(v)),
                 0,
                 4294967295.0L,
                 32);
}

DcnOptions::Option&
DcnOptions::Unsigned(const std::string& name, const std::string& help, uint64_t& v)
{
    return Typed(Add(name, help, Option::Kind::UNSIGNED, &v, "uint64", ToText(v)),
                 0,
                 18446744073709551615.0L,
                 64);
}

DcnOptions::Option&
DcnOptions::Signed(const std::string& name, const std::string& help, int32_t& v)
{
    return Typed(Add(name, help, Option::Kind::SIGNED, &v, "int32", ToText(v)),
                 -2147483648.0L,
                 2147483647.0L,
                 32);
}

DcnOptions::Option&
DcnOptions::Signed(const std::string& name, const std::string& help, int64_t& v)
{
    return Typed(Add(name, help, Option::Kind::SIGNED, &v, "int64", ToText(v)),
                 static_cast<long double>(std::numeric_limits<int64_t>::min()),
                 static_cast<long double>(std::numeric_limits<int64_t>::max()),
                 64);
}

DcnOptions::Option&
DcnOptions::Double(const std::string& name, const std::string& help, double& v)
{
    return Typed(Add(name, help, Option::Kind::DOUBLE, &v, "number", ToText(v)),
                 -std::numeric_limits<double>::max(),
                 std::numeric_limits<double>::max(),
                 64);
}

DcnOptions::Option&
DcnOptions::Bool(const std::string& name, const std::string& help, bool& v)
{
    return Add(name, help, Option::Kind::BOOL, &v, "bool", v ? "true" : "false");
}

DcnOptions::Option&
DcnOptions::Size(const std::string& name, const std::string& help, uint64_t& v)
{
    return Typed(
        Add(name, help, Option::Kind::SIZE, &v, "size (e.g. 4096, 64KiB, 2MiB, 4MB)", ToText(v)),
        0,
        18446744073709551615.0L,
        64);
}

DcnOptions::Option&
DcnOptions::Size(const std::string& name, const std::string& help, uint32_t& v)
{
    return Typed(Add(name, help, Option::Kind::SIZE, &v, "size (e.g. 4096, 64KiB)", ToText(v)),
                 0,
                 4294967295.0L,
                 32);
}

DcnOptions::Option&
DcnOptions::Time(const std::string& name, const std::string& help, ns3::Time& v)
{
    return Typed(Add(name,
                     help,
                     Option::Kind::TIME,
                     &v,
                     "time (e.g. 10us, 1.5ms, 0)",
                     ToText(v.As(ns3::Time::US))),
                 0,
                 3.15e7,
                 64);
}

DcnOptions::Option&
DcnOptions::Rate(const std::string& name, const std::string& help, DataRate& v)
{
    return Typed(Add(name,
                     help,
                     Option::Kind::RATE,
                     &v,
                     "rate (e.g. 400Gbps, 100Mbps)",
                     ToText(v.GetBitRate()) + "bps"),
                 1,
                 1e13,
                 64);
}

DcnOptions::Option&
DcnOptions::Choice(const std::string& name,
                   const std::string& help,
                   std::string& v,
                   const std::vector<std::string>& allowed)
{
    Option& o = Add(name, help, Option::Kind::CHOICE, &v, "name", v);
    o.allowed = allowed;
    return o;
}

DcnOptions::Option&
DcnOptions::ChoiceList(const std::string& name,
                       const std::string& help,
                       std::string& v,
                       const std::vector<std::string>& allowed)
{
    Option& o = Add(name, help, Option::Kind::CHOICE_LIST, &v, "comma list", v);
    o.allowed = allowed;
    return o;
}

DcnOptions::Option&
DcnOptions::Text(const std::string& name, const std::string& help, std::string& v)
{
    return Add(name, help, Option::Kind::TEXT, &v, "text", v);
}

DcnOptions::Option&
DcnOptions::Custom(const std::string& name,
                   const std::string& help,
                   const std::string& type,
                   std::function<std::string(const std::string&)> apply)
{
    Option& o = Add(name, help, Option::Kind::CUSTOM, nullptr, type, "");
    o.custom = std::move(apply);
    return o;
}

void
DcnOptions::Check(std::function<std::string()> check)
{
    m_checks.push_back(std::move(check));
}

std::string
DcnOptions::Help() const
{
    std::ostringstream os;
    os << m_program << " [--option=value ...]\n\n" << m_description << "\n\nProgram options:\n";
    for (const auto& o : m_options)
    {
        os << "    --" << o->name << " (" << o->type;
        std::string r = o->RangeText();
        if (o->ranged && !r.empty())
        {
            os << " in " << r;
        }
        else if (o->kind == Option::Kind::CHOICE || o->kind == Option::Kind::CHOICE_LIST)
        {
            os << ": " << r;
        }
        os << "): " << o->help;
        if (!o->presetValue.empty())
        {
            os << "; " << o->presetValue << " = " << o->presetMeaning;
        }
        if (!o->deflt.empty())
        {
            os << " [" << o->deflt << "]";
        }
        os << "\n";
    }
    os << "\nns-3 options (checked before use; a bad value ends with exit code 2):\n"
       << "    --RngRun=N, --RngSeed=N (>= 1), --SimulatorImplementationType=ns3::...,"
          " any --<GlobalValue>=V (--PrintGlobals lists them)\n"
       << "    --ns3::Type::Attribute=V (default of an attribute; --PrintAttributes=ns3::Type)\n"
       << "    --PrintHelp, --PrintGlobals, --PrintTypeIds, --PrintGroups, --PrintGroup=G,"
          " --PrintAttributes=T, --version\n";
    return os.str();
}

void
DcnOptions::Exit(const std::string& program, const std::string& line)
{
    std::string l = line;
    for (char& c : l)
    {
        c = (c == '\n' || c == '\r') ? ' ' : c;
    }
    std::cerr << program << ": error: " << l << std::endl;
    std::exit(DCN_EXIT_BAD_INPUT);
}

std::string
DcnOptions::TryParse(const std::vector<std::string>& args)
{
    struct Pending
    {
        std::string name;
        Ptr<AttributeValue> value;
    };

    std::vector<Pending> ns3Args;
    m_attributeArgs.clear();
    m_given.clear();
    // $DCNLB_FABRIC sets the default fabric mode of every topology (DcnTopologyBase::
    // FabricMode, the examples' --fabric): an unknown value is refused, not run as auto
    if (const char* env = std::getenv("DCNLB_FABRIC"))
    {
        const std::string v = env;
        if (!v.empty() && v != "auto" && v != "fast" && v != "ipv4") // empty = unset
        {
            // name the program's own --fabric if it has one, else the attribute
            const std::string opt =
                Find("fabric") ? "--fabric" : "--ns3::DcnTopologyBase::FabricMode";
            return "option " + opt + ": its default, environment variable DCNLB_FABRIC='" + v +
                   "', is not a fabric mode; allowed: auto, fast, ipv4, or DCNLB_FABRIC unset or "
                   "empty";
        }
    }
    // name -> the argument given first: an option given twice is refused (it would
    // silently keep the last value); so is an ns-3 global value or attribute
    std::map<std::string, std::string> seen;
    for (const auto& a : args)
    {
        if (a.size() < 3 || a[0] != '-' || a[1] != '-')
        {
            std::string guess =
                a.substr(a.find_first_not_of('-') == std::string::npos ? a.size()
                                                                       : a.find_first_not_of('-'));
            guess = guess.substr(0, guess.find('='));
            if (Find(guess) != nullptr)
            {
                return "option --" + guess + ": argument '" + a +
                       "' lacks the leading '--'; allowed: --" + guess + "=<value>";
            }
            return "argument '" + a + "': not an option; allowed: --name=value (see --PrintHelp)";
        }
        size_t eq = a.find('=');
        std::string name = a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
        bool hasValue = eq != std::string::npos;
        std::string value = hasValue ? a.substr(eq + 1) : "";
        if (name == "PrintHelp" || name == "help")
        {
            return "help";
        }
        m_given.push_back(name);
        if (auto [it, first] = seen.emplace(name, a); !first)
        {
            return "option --" + name + ": given twice (" + it->second + ", then " + a +
                   "); allowed: once" +
                   (Find(name) && Find(name)->type == "list" ? " (one comma list)" : "");
        }
        if (const Option* o = Find(name))
        {
            if (!hasValue && o->kind == Option::Kind::BOOL)
            {
                value = "true";
            }
            else if (!hasValue)
            {
                return "option --" + name + ": missing value; allowed: --" + name + "=<" + o->type +
                       ">";
            }
            std::string e = o->Apply(value);
            if (!e.empty())
            {
                return e;
            }
            continue;
        }
        if (DcnIsNs3Argument(name))
        {
            if (!hasValue)
            {
                return "option --" + name + ": missing value; allowed: --" + name + "=<value>";
            }
            Pending p{name, nullptr};
            std::string e = DcnCheckNs3Argument(name, value, &p.value);
            if (!e.empty())
            {
                return e;
            }
            ns3Args.push_back(p);
            if (name.find("::") != std::string::npos)
            {
                m_attributeArgs += (m_attributeArgs.empty() ? "" : ";") + name + "=" + value;
            }
            continue;
        }
        std::vector<std::string> names;
        for (const auto& o : m_options)
        {
            names.push_back("--" + o->name);
        }
        for (const auto& o : m_options) // same name but for case: say so
        {
            if (o->name.size() == name.size() &&
                std::equal(name.begin(), name.end(), o->name.begin(), [](char x, char y) {
                    return std::tolower(static_cast<unsigned char>(x)) ==
                           std::tolower(static_cast<unsigned char>(y));
                }))
            {
                return "option --" + name + ": unknown option (did you mean --" + o->name +
                       "?); allowed: " + Join(names);
            }
        }
        return "option --" + name + ": unknown option; allowed: " + Join(names) +
               ", --ns3::Type::Attr, ns-3 global values (see --PrintHelp)";
    }
    // Event scheduler of every dcn-lb program: DcnHeapScheduler (the same event
    // order as ns-3's default MapScheduler, so the same results, at a lower cost
    // per event; issue 13).  --SchedulerType=ns3::MapScheduler (below) overrides it.
    GlobalValue::Bind("SchedulerType", StringValue("ns3::DcnHeapScheduler"));
    for (const auto& p : ns3Args)
    {
        if (p.name.find("::") == std::string::npos)
        {
            GlobalValue::Bind(p.name, *p.value);
        }
        else
        {
            Config::SetDefault(p.name, *p.value);
        }
    }
    for (const auto& c : m_checks)
    {
        std::string e = c();
        if (!e.empty())
        {
            return e;
        }
    }
    return "";
}

bool
DcnOptions::Given(const std::string& name) const
{
    return std::find(m_given.begin(), m_given.end(), name) != m_given.end();
}

void
DcnOptions::Parse(int argc, char** argv)
{
    std::vector<std::string> args;
    for (int i = 1; i < argc; ++i)
    {
        std::string a = argv[i];
        // ns-3's own print options, matched exactly (a prefix match would hand
        // "--PrintGlobalsX" to ns-3's CommandLine, which prints its usage and exits 1)
        for (const char* p : {"--PrintGlobals",
                              "--PrintTypeIds",
                              "--PrintGroups",
                              "--PrintGroup=",
                              "--PrintAttributes=",
                              "--version",
                              "--PrintVersion"})
        {
            const std::string opt = p;
            const bool takesValue = opt.back() == '=';
            if (!takesValue && a.rfind(opt + "=", 0) == 0)
            {
                Exit(m_program,
                     "option " + opt + ": value '" + a.substr(opt.size() + 1) +
                         "' given; allowed: " + opt + " alone (it takes no value)");
            }
            if (takesValue ? a.rfind(opt, 0) == 0 : a == opt)
            {
                if (a.rfind("--PrintAttributes=", 0) == 0 || a.rfind("--PrintGroup=", 0) == 0)
                {
                    std::string t = a.substr(a.find('=') + 1);
                    TypeId tid;
                    if (a[7] == 'A' && !TypeId::LookupByNameFailSafe(t, &tid))
                    {
                        Exit(m_program,
                             Message("PrintAttributes",
                                     t,
                                     "a registered TypeId",
                                     "see --PrintTypeIds"));
                    }
                }
                char* two[] = {argv[0], argv[i], nullptr};
                CommandLine cmd;
                cmd.Parse(2, two); // ns-3 prints and exits
                std::exit(0);
            }
        }
        args.push_back(a);
    }
    std::string e = TryParse(args);
    if (e == "help")
    {
        std::cout << Help();
        std::exit(0);
    }
    if (!e.empty())
    {
        Exit(m_program, e);
    }
}

} // namespace ns3
