/*
 * One validation path for the command line of every dcn-lb example (issue 9).
 *
 * An example declares each option once (name, help, typed target, range, meaning of
 * a preset value) and calls Parse():
 *
 *     DcnOptions opts("dcn-lb-compare", "Compare load balancers on a fat tree");
 *     opts.Size("msgSize", "Message size", o.msgSize).Min(1);
 *     opts.Unsigned("queue", "Data queue per port in packets", o.queue).Preset("0", "1 BDP");
 *     opts.Time("stopTime", "Simulated-time limit", o.stopTime).Min(NanoSeconds(1));
 *     opts.Rate("rate", "Link rate", o.rate);
 *     opts.Double("load", "Offered load", o.load).Range(0, 1, true, false);   // (0, 1]
 *     opts.Choice("workload", "Workload", o.workload, {"permutation", "incast"});
 *     opts.ChoiceList("lb", "Load balancers", o.lbs, {"ecmp", "ops", "reps"});
 *     opts.Custom("failures", "kind:link=ID...", "failure list", [&](const std::string& v) {
 *         return ParseFailures(v);                  // "" or the one-line error
 *     });
 *     opts.Check([&] { return o.incastDegree < hosts ? "" : "option --incastDegree: ..."; });
 *     opts.Parse(argc, argv);                       // exits 2 with one line on any error
 *
 * Parse() owns the whole argv: declared options are parsed by the typed parsers of
 * dcn-option-parse.h (a malformed value never reaches an ns-3 parser that aborts);
 * "--ns3::Type::Attr=V" and global values ("--RngRun=V", "--RngSeed=V",
 * "--SimulatorImplementationType=V", ...) are checked against the TypeId, the
 * attribute and its checker (DcnCheckNs3Argument) and then applied with
 * Config::SetDefault / GlobalValue::Bind; --PrintHelp / --help print Help();
 * ns-3's --PrintAttributes=, --PrintTypeIds, --PrintGlobals, --PrintGroups,
 * --PrintGroup= and --version are handed to ns-3's CommandLine.  Anything else ends
 * the program before any simulation: one line on stderr, exit code 2.
 *
 * Library code reports bad input by throwing DcnOptionError (the example's main
 * catches it and calls DcnOptions::Exit); NS_ABORT stays for internal invariants.
 */
#ifndef DCN_OPTIONS_H
#define DCN_OPTIONS_H

#include "dcn-option-parse.h"

#include "ns3/attribute.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{

/** A bad input found by library code; what() is the one-line message. */
class DcnOptionError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

/**
 * Refuse a bad setting found by library code: throw DcnOptionError with the streamed
 * message \p msg (one line naming the setting, its value and what is allowed).  The
 * examples end with it and exit 2 before simulating (DcnOptions' terminate handler
 * catches one that escapes main).  Use it instead of NS_ABORT_MSG_IF for anything a
 * user can give (attributes, options); keep NS_ABORT_MSG_IF for programming errors.
 */
#define DCN_REFUSE_IF(cond, msg)                                                                   \
    do                                                                                             \
    {                                                                                              \
        if (cond)                                                                                  \
        {                                                                                          \
            std::ostringstream dcnRefuseMsg;                                                       \
            dcnRefuseMsg << msg;                                                                   \
            throw ::ns3::DcnOptionError(dcnRefuseMsg.str());                                       \
        }                                                                                          \
    } while (false)

/** Exit code of every refused input. */
constexpr int DCN_EXIT_BAD_INPUT = 2;
/**
 * Exit code of a run in which some flow did not finish (FctStats::AllFinished() is
 * false) and the user did not ask to tolerate it (phase 2: --allowUnfinished).
 */
constexpr int DCN_EXIT_UNFINISHED = 3;

/**
 * Check one ns-3 argument without applying it.  `name` is the argument without its
 * leading "--": a global value name or "ns3::Type::Attribute".  Returns "" if the
 * name exists and `value` is well-formed and accepted by the checker, else one line
 * naming the option, the value and what is allowed.  Never aborts.  With `out`, the
 * typed value to apply (GlobalValue::Bind / Config::SetDefault).
 */
std::string DcnCheckNs3Argument(const std::string& name,
                                const std::string& value,
                                Ptr<AttributeValue>* out = nullptr);

/** ns3::Time of a parsed time (Time::FromDouble, as ns-3's own Time(string)). */
ns3::Time DcnToTime(const dcnopt::TimeText& t);

/** True if `name` (without "--") is an ns-3 argument: a global value or contains "::". */
bool DcnIsNs3Argument(const std::string& name);

class DcnOptions
{
  public:
    /** One declared option; the setters return *this for chaining. */
    class Option
    {
      public:
        /** Integer / size / float bounds (inclusive unless open). */
        Option& Range(double lo, double hi, bool loOpen = false, bool hiOpen = false);
        Option& Min(double lo, bool open = false);
        Option& Max(double hi, bool open = false);
        /** Time bounds. */
        Option& Min(ns3::Time lo);
        Option& Max(ns3::Time hi);
        /** Document that `value` means `meaning` (e.g. "0", "the topology preset"). */
        Option& Preset(const std::string& value, const std::string& meaning);

      private:
        friend class DcnOptions;
        enum class Kind
        {
            UNSIGNED,
            SIGNED,
            DOUBLE,
            BOOL,
            SIZE,
            TIME,
            RATE,
            CHOICE,
            CHOICE_LIST,
            TEXT,
            CUSTOM
        };
        std::string name;
        std::string help;
        std::string type; //!< type text for --PrintHelp
        std::string deflt;
        Kind kind{Kind::TEXT};
        void* target{nullptr};
        unsigned bits{64}; //!< width of an integer target
        long double lo{0};
        long double hi{0};
        bool loOpen{false};
        bool hiOpen{false};
        bool ranged{false};
        std::vector<std::string> allowed;
        std::string presetValue;
        std::string presetMeaning;
        std::function<std::string(const std::string&)> custom;
        std::string Apply(const std::string& value) const; //!< "" or the error
        std::string RangeText() const;
    };

    DcnOptions(std::string program, std::string description);

    Option& Unsigned(const std::string& name, const std::string& help, uint32_t& v);
    Option& Unsigned(const std::string& name, const std::string& help, uint64_t& v);
    Option& Signed(const std::string& name, const std::string& help, int32_t& v);
    Option& Signed(const std::string& name, const std::string& help, int64_t& v);
    Option& Double(const std::string& name, const std::string& help, double& v);
    Option& Bool(const std::string& name, const std::string& help, bool& v);
    Option& Size(const std::string& name, const std::string& help, uint64_t& v);
    Option& Size(const std::string& name, const std::string& help, uint32_t& v);
    Option& Time(const std::string& name, const std::string& help, ns3::Time& v);
    Option& Rate(const std::string& name, const std::string& help, DataRate& v);
    Option& Choice(const std::string& name,
                   const std::string& help,
                   std::string& v,
                   const std::vector<std::string>& allowed);
    /** Comma list of names from `allowed`, kept as the original text in `v`. */
    Option& ChoiceList(const std::string& name,
                       const std::string& help,
                       std::string& v,
                       const std::vector<std::string>& allowed);
    /** Free text (file names, prefixes). */
    Option& Text(const std::string& name, const std::string& help, std::string& v);
    /** Any other syntax: `apply` stores the value and returns "" or the one-line error. */
    Option& Custom(const std::string& name,
                   const std::string& help,
                   const std::string& type,
                   std::function<std::string(const std::string&)> apply);

    /** A cross-option check run after all options are set: "" or the one-line error. */
    void Check(std::function<std::string()> check);

    /** Parse argv; on error print one line to stderr and exit(2); --PrintHelp exits 0. */
    void Parse(int argc, char** argv);
    /** Parse without exiting: "" or the one-line error (help requests return "help"). */
    std::string TryParse(const std::vector<std::string>& args);

    /** --PrintHelp text: usage, description, every option with type, range, preset. */
    std::string Help() const;

    const std::string& GetProgram() const
    {
        return m_program;
    }

    /**
     * True if the last TryParse / Parse saw --\p name (a declared option, an ns-3
     * global value such as RngSeed, or "ns3::Type::Attr"), with or without a value:
     * for checks that an option given belongs to the mode chosen (it would otherwise
     * be silently ignored).
     */
    bool Given(const std::string& name) const;

    /**
     * The ns-3 attribute defaults set on the command line ("--ns3::Type::Attr=V"),
     * as "ns3::Type::Attr=V" joined by ';' in command-line order ("" if none):
     * for the examples' CSVs, so that a row names the attributes it ran with.
     */
    const std::string& GetAttributeArguments() const
    {
        return m_attributeArgs;
    }

    /** Print "<program>: error: <line>" (one line) to stderr and exit(2). */
    [[noreturn]] static void Exit(const std::string& program, const std::string& line);

  private:
    Option& Add(const std::string& name,
                const std::string& help,
                Option::Kind kind,
                void* target,
                const std::string& type,
                const std::string& deflt);
    static Option& Typed(Option& o, long double lo, long double hi, unsigned bits);
    const Option* Find(const std::string& name) const;
    std::string m_program;
    std::string m_description;
    std::vector<std::unique_ptr<Option>> m_options;
    std::vector<std::function<std::string()>> m_checks;
    std::string m_attributeArgs;      //!< GetAttributeArguments()
    std::vector<std::string> m_given; //!< names seen by the last TryParse (Given)
};

} // namespace ns3

#endif // DCN_OPTIONS_H
