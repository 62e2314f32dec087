/*
 * Parser of one failure spec of --failures (issue 9; pure logic, see
 * dcn-option-parse.h for the message format):
 *     kind:link=ID|NAME|switch=INDEX|NAME[:start=T][:end=T][:rate=R][:prob=P]
 *          [:withdraw=T][:dir=up|down|both][:data=only|all]
 */
#ifndef DCN_FAILURE_SPEC_PARSE_H
#define DCN_FAILURE_SPEC_PARSE_H

#include "dcn-option-parse.h"

#include <cctype>

namespace ns3
{
namespace dcnopt
{

/**
 * One failure of --failures: kind:link=ID[:start=T][:end=T][:rate=R][:prob=P][:withdraw=T]
 * (DESIGN.md 3.7).  Fields not given keep has* = false.
 */
struct FailureSpec
{
    std::string kind;
    uint64_t link{0};
    std::string linkName;    //!< link=NAME (names allowed): resolved by FailureHelper
    bool hasSwitch{false};   //!< switch= given instead of link= (whole switch)
    std::string switchName;  //!< switch=INDEX|NAME, resolved by FailureHelper
    std::string dir{"both"}; //!< degrade, blackhole: up (end a -> b), down, both
    bool hasDir{false};
    bool dataOnly{false}; //!< blackhole: data=only (true) | all (false, default)
    bool hasData{false};
    TimeText start; //!< default 0
    bool hasEnd{false};
    TimeText end;
    bool hasRate{false};
    uint64_t rateBps{0};
    bool hasProb{false};
    double prob{0};
    bool hasWithdraw{false};
    TimeText withdraw;
};

/**
 * True if \p v is a plausible topology name: [A-Za-z_][A-Za-z0-9_./-]* ('/' for the
 * parallel links of a preset, e.g. hermes-testbed's "leaf0-spine0/1").
 */
inline bool
IsFailureName(const std::string& v)
{
    if (v.empty() || !(std::isalpha(static_cast<unsigned char>(v[0])) || v[0] == '_'))
    {
        return false;
    }
    for (char c : v)
    {
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ||
              c == '/'))
        {
            return false;
        }
    }
    return true;
}

/**
 * Parse one failure spec.  Checks: known kind, link given once as an unsigned
 * integer <= maxLink, times with units, end > start (end=0 or no end: the failure
 * persists), rate only for `degrade`, prob in (0, 1] only for `drop`, withdraw only
 * for `down`, no unknown or repeated keys.  Defaults of absent rate/prob are the
 * caller's (FailureHelper: half the link's rate, 0.01).
 */
inline Parsed<FailureSpec>
ParseFailureSpec(
    const std::string& opt,
    const std::string& s,
    uint64_t maxLink = std::numeric_limits<uint64_t>::max(),
    const std::vector<std::string>& kinds = {"silent", "down", "degrade", "drop", "blackhole"},
    bool allowNames = false)
{
    using R = Parsed<FailureSpec>;
    const std::string form =
        std::string("kind:") + (allowNames ? "link=ID|NAME|switch=ID|NAME" : "link=ID|switch=ID") +
        "[:start=T][:end=T][:rate=R][:prob=P][:withdraw=T][:dir=up|down|both][:data=only|all], "
        "kind " +
        Join(kinds, "|");
    auto parts = SplitList(opt, s, ':');
    if (!parts)
    {
        return R::Err(Message(opt, s, "a failure spec", form));
    }
    FailureSpec f;
    auto kind = ParseEnum(opt, parts.Value()[0], kinds);
    if (!kind)
    {
        return R::Err(
            Message(opt, s, "a failure spec (unknown kind '" + parts.Value()[0] + "')", form));
    }
    f.kind = kind.Value();
    bool hasLink = false;
    std::vector<std::string> seen;
    for (size_t i = 1; i < parts.Value().size(); ++i)
    {
        const std::string& kv = parts.Value()[i];
        size_t eq = kv.find('=');
        std::string key = kv.substr(0, eq);
        std::string val = eq == std::string::npos ? "" : kv.substr(eq + 1);
        const std::string fo = opt + " " + key; // field named in the message
        for (const auto& k : seen)
        {
            if (k == key)
            {
                return R::Err(
                    Message(opt, s, "a failure spec (field '" + key + "' repeated)", form));
            }
        }
        seen.push_back(key);
        if (key == "link")
        {
            if (allowNames && IsFailureName(val))
            {
                f.linkName = val;
            }
            else
            {
                auto v = ParseUnsigned(fo, val, 0, maxLink);
                if (!v)
                {
                    return R::Err(v.Error());
                }
                f.link = v.Value();
            }
            hasLink = true;
        }
        else if (key == "switch")
        {
            if (!(allowNames && IsFailureName(val)))
            {
                auto v = ParseUnsigned(fo, val, 0, std::numeric_limits<uint32_t>::max());
                if (!v)
                {
                    return R::Err(v.Error());
                }
            }
            f.switchName = val;
            f.hasSwitch = true;
        }
        else if (key == "dir")
        {
            auto v = ParseEnum(fo, val, {"up", "down", "both"});
            if (!v)
            {
                return R::Err(v.Error());
            }
            f.dir = v.Value();
            f.hasDir = true;
        }
        else if (key == "data")
        {
            auto v = ParseEnum(fo, val, {"only", "all"});
            if (!v)
            {
                return R::Err(v.Error());
            }
            f.dataOnly = v.Value() == "only";
            f.hasData = true;
        }
        else if (key == "start" || key == "end" || key == "withdraw")
        {
            auto v = ParseTime(fo, val);
            if (!v)
            {
                return R::Err(v.Error());
            }
            (key == "start" ? f.start : key == "end" ? f.end : f.withdraw) = v.Value();
            f.hasEnd |= key == "end";
            f.hasWithdraw |= key == "withdraw";
        }
        else if (key == "rate")
        {
            auto v = ParseRate(fo, val);
            if (!v)
            {
                return R::Err(v.Error());
            }
            f.hasRate = true;
            f.rateBps = v.Value();
        }
        else if (key == "prob")
        {
            auto v = ParseDouble(fo, val, Interval{0, 1, true, false});
            if (!v)
            {
                return R::Err(v.Error());
            }
            f.hasProb = true;
            f.prob = v.Value();
        }
        else
        {
            return R::Err(Message(opt, s, "a failure spec (unknown field '" + key + "')", form));
        }
    }
    if (hasLink == f.hasSwitch)
    {
        return R::Err(Message(opt,
                              s,
                              hasLink ? "a failure spec (link= and switch= both given)"
                                      : "a failure spec (missing link=ID)",
                              form));
    }
    if (f.hasSwitch && f.kind == "degrade")
    {
        return R::Err(Message(opt, s, "a failure spec (degrade applies to a link)", form));
    }
    if (f.hasDir && (f.hasSwitch || (f.kind != "degrade" && f.kind != "blackhole")))
    {
        return R::Err(Message(opt,
                              s,
                              "a failure spec (dir= applies only to degrade and blackhole "
                              "of a link)",
                              form));
    }
    if (f.hasData && f.kind != "blackhole")
    {
        return R::Err(Message(opt, s, "a failure spec (data= applies only to blackhole)", form));
    }
    if (f.hasEnd && f.end.seconds == 0)
    {
        f.hasEnd = false; // end=0: the failure persists (documented)
    }
    if (f.hasEnd && !(f.end.seconds > f.start.seconds))
    {
        return R::Err(Message(opt, s, "a failure spec (end must be after start)", form));
    }
    if (f.hasRate && f.kind != "degrade")
    {
        return R::Err(Message(opt, s, "a failure spec (rate= applies only to degrade)", form));
    }
    if (f.hasProb && f.kind != "drop")
    {
        return R::Err(Message(opt, s, "a failure spec (prob= applies only to drop)", form));
    }
    if (f.hasWithdraw && f.kind != "down")
    {
        return R::Err(Message(opt, s, "a failure spec (withdraw= applies only to down)", form));
    }
    return R::Ok(f);
}

} // namespace dcnopt
} // namespace ns3

#endif // DCN_FAILURE_SPEC_PARSE_H
