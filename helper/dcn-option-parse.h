/*
 * Typed parsers for command-line option values (issue 9): pure logic, no ns-3, so
 * GoogleTest can exercise them directly.  Each parser takes the option name (for the
 * message) and the text, and returns either a value or ONE line of the form
 *
 *     option --X: value 'V' is not <what>; allowed: <what is allowed>
 *
 * Syntax accepted (deliberately strict: nothing is silently reinterpreted):
 *  - unsigned / signed integers: optional sign ('-' only for signed), decimal digits;
 *    "3.7", "1e3", "0x10", " 5", overflow and values outside [min, max] are refused;
 *  - floats: decimal with optional fraction and exponent; NaN and infinities refused;
 *  - booleans: true/false, 1/0, yes/no, on/off, t/f (any case);
 *  - sizes: an integer or decimal number with B, KB/kB (1000), MB, GB, KiB (1024),
 *    MiB, GiB; the result must be a whole number of bytes;
 *  - times: a decimal number with one of s, ms, us, ns, ps; a bare "0" is allowed
 *    (any other number without a unit is refused rather than read as seconds);
 *  - data rates: a decimal number with bps, kbps/Kbps, Mbps, Gbps, Tbps; whole bits/s;
 *  - enums: one name of an allowed list; lists: comma-separated, no empty items.
 * Numbers never go through std::stod/stoul, so nothing throws and nothing wraps.
 */
#ifndef DCN_OPTION_PARSE_H
#define DCN_OPTION_PARSE_H

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace dcnopt
{

/** A parsed value or a one-line error. */
template <class T>
class Parsed
{
  public:
    static Parsed Ok(T v)
    {
        Parsed p;
        p.m_ok = true;
        p.m_value = std::move(v);
        return p;
    }

    static Parsed Err(std::string e)
    {
        Parsed p;
        p.m_error = std::move(e);
        return p;
    }

    explicit operator bool() const
    {
        return m_ok;
    }

    const T& Value() const
    {
        return m_value;
    }

    const std::string& Error() const
    {
        return m_error;
    }

  private:
    bool m_ok{false};
    T m_value{};
    std::string m_error;
};

/** "option --X: value 'V' is not WHAT; allowed: ALLOWED" */
inline std::string
Message(const std::string& option,
        const std::string& value,
        const std::string& what,
        const std::string& allowed)
{
    std::string v;
    for (char c : value) // keep the message on one line
    {
        v += (c == '\n' || c == '\r') ? ' ' : c;
    }
    return "option --" + option + ": value '" + v + "' is not " + what + "; allowed: " + allowed;
}

/** Join items with a separator (for "allowed:" lists). */
inline std::string
Join(const std::vector<std::string>& items, const std::string& sep = ", ")
{
    std::string s;
    for (size_t i = 0; i < items.size(); ++i)
    {
        s += (i ? sep : "") + items[i];
    }
    return s;
}

template <class T>
std::string
ToText(T v)
{
    std::ostringstream o;
    o << v;
    return o.str();
}

namespace detail
{

/** Decimal number "D+[.D*]" or ".D+" without sign/exponent: integer part and fraction digits. */
struct Decimal
{
    unsigned __int128 intPart{0};
    unsigned __int128 frac{0}; //!< fraction digits as an integer
    unsigned __int128 fracScale{1};
    size_t end{0}; //!< index of the first character after the number
    bool ok{false};
};

inline Decimal
ScanDecimal(const std::string& s, size_t pos)
{
    Decimal d;
    const unsigned __int128 cap = static_cast<unsigned __int128>(1) << 100;
    size_t i = pos;
    bool digits = false;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])))
    {
        d.intPart = d.intPart * 10 + (s[i] - '0');
        if (d.intPart > cap)
        {
            return d; // absurdly large: not ok
        }
        digits = true;
        ++i;
    }
    if (i < s.size() && s[i] == '.')
    {
        ++i;
        while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])))
        {
            if (d.fracScale < (static_cast<unsigned __int128>(1) << 90))
            {
                d.frac = d.frac * 10 + (s[i] - '0');
                d.fracScale *= 10;
            }
            digits = true;
            ++i;
        }
    }
    d.end = i;
    d.ok = digits;
    return d;
}

/** value * mult, exactly; false if not a whole number or > max. */
inline bool
ScaleExact(const Decimal& d, uint64_t mult, uint64_t max, uint64_t* out)
{
    unsigned __int128 whole = d.intPart * mult;
    unsigned __int128 num = d.frac * mult;
    if (num % d.fracScale != 0)
    {
        return false;
    }
    whole += num / d.fracScale;
    if (whole > max)
    {
        return false;
    }
    *out = static_cast<uint64_t>(whole);
    return true;
}

inline double
ToDouble(const Decimal& d)
{
    return static_cast<double>(d.intPart) +
           static_cast<double>(d.frac) / static_cast<double>(d.fracScale);
}

} // namespace detail

/** Unsigned integer in [min, max]. */
inline Parsed<uint64_t>
ParseUnsigned(const std::string& opt,
              const std::string& s,
              uint64_t min = 0,
              uint64_t max = std::numeric_limits<uint64_t>::max())
{
    using R = Parsed<uint64_t>;
    std::string range = "an integer in [" + ToText(min) + ", " + ToText(max) + "]";
    size_t i = (!s.empty() && s[0] == '+') ? 1 : 0;
    if (i == s.size())
    {
        return R::Err(Message(opt, s, "an unsigned integer", range));
    }
    unsigned __int128 v = 0;
    for (; i < s.size(); ++i)
    {
        if (!std::isdigit(static_cast<unsigned char>(s[i])))
        {
            std::string what = s[0] == '-' ? "a non-negative integer" : "an unsigned integer";
            return R::Err(Message(opt, s, what, range));
        }
        v = v * 10 + (s[i] - '0');
        if (v > max)
        {
            return R::Err(Message(opt, s, "in range", range));
        }
    }
    if (v < min)
    {
        return R::Err(Message(opt, s, "in range", range));
    }
    return R::Ok(static_cast<uint64_t>(v));
}

/** Signed integer in [min, max]. */
inline Parsed<int64_t>
ParseSigned(const std::string& opt,
            const std::string& s,
            int64_t min = std::numeric_limits<int64_t>::min(),
            int64_t max = std::numeric_limits<int64_t>::max())
{
    using R = Parsed<int64_t>;
    std::string range = "an integer in [" + ToText(min) + ", " + ToText(max) + "]";
    bool neg = !s.empty() && s[0] == '-';
    size_t i = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
    if (i == s.size())
    {
        return R::Err(Message(opt, s, "an integer", range));
    }
    unsigned __int128 mag = 0;
    const unsigned __int128 lim = static_cast<unsigned __int128>(1) << 64;
    for (; i < s.size(); ++i)
    {
        if (!std::isdigit(static_cast<unsigned char>(s[i])))
        {
            return R::Err(Message(opt, s, "an integer", range));
        }
        mag = mag * 10 + (s[i] - '0');
        if (mag > lim)
        {
            return R::Err(Message(opt, s, "in range", range));
        }
    }
    __int128 v = neg ? -static_cast<__int128>(mag) : static_cast<__int128>(mag);
    if (v < min || v > max)
    {
        return R::Err(Message(opt, s, "in range", range));
    }
    return R::Ok(static_cast<int64_t>(v));
}

/** A closed, open or half-open interval for floats. */
struct Interval
{
    double lo{-std::numeric_limits<double>::max()};
    double hi{std::numeric_limits<double>::max()};
    bool loOpen{false};
    bool hiOpen{false};

    bool Contains(double v) const
    {
        return (loOpen ? v > lo : v >= lo) && (hiOpen ? v < hi : v <= hi);
    }

    std::string Text() const
    {
        return std::string(loOpen ? "(" : "[") + ToText(lo) + ", " + ToText(hi) +
               (hiOpen ? ")" : "]");
    }
};

/** Finite float in the interval. */
inline Parsed<double>
ParseDouble(const std::string& opt, const std::string& s, Interval in = Interval())
{
    using R = Parsed<double>;
    std::string allowed = "a finite number in " + in.Text();
    // sign, digits, optional fraction, optional exponent; nothing else
    size_t i = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
    detail::Decimal d = detail::ScanDecimal(s, i);
    size_t e = d.end;
    if (d.ok && e < s.size() && (s[e] == 'e' || s[e] == 'E'))
    {
        size_t j = e + 1 + ((e + 1 < s.size() && (s[e + 1] == '-' || s[e + 1] == '+')) ? 1 : 0);
        size_t k = j;
        while (k < s.size() && std::isdigit(static_cast<unsigned char>(s[k])))
        {
            ++k;
        }
        e = (k > j) ? k : std::string::npos;
    }
    if (!d.ok || e != s.size())
    {
        return R::Err(Message(opt, s, "a number", allowed));
    }
    double v = std::strtod(s.c_str(), nullptr);
    if (!std::isfinite(v))
    {
        return R::Err(Message(opt, s, "a finite number", allowed));
    }
    if (!in.Contains(v))
    {
        return R::Err(Message(opt, s, "in range", allowed));
    }
    return R::Ok(v);
}

/** true/false, 1/0, yes/no, on/off, t/f (any case). */
inline Parsed<bool>
ParseBool(const std::string& opt, const std::string& s)
{
    std::string l;
    for (char c : s)
    {
        l += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    if (l == "true" || l == "1" || l == "yes" || l == "on" || l == "t")
    {
        return Parsed<bool>::Ok(true);
    }
    if (l == "false" || l == "0" || l == "no" || l == "off" || l == "f")
    {
        return Parsed<bool>::Ok(false);
    }
    return Parsed<bool>::Err(Message(opt, s, "a boolean", "true, false, 1, 0, yes, no, on, off"));
}

/** Number followed by a unit from `units` (name, multiplier); result exact and in [min, max]. */
inline Parsed<uint64_t>
ParseScaled(const std::string& opt,
            const std::string& s,
            const std::vector<std::pair<std::string, uint64_t>>& units,
            bool bareAllowed,
            const std::string& what,
            uint64_t min,
            uint64_t max)
{
    using R = Parsed<uint64_t>;
    std::vector<std::string> names;
    for (const auto& u : units)
    {
        names.push_back(u.first);
    }
    std::string allowed = what + " in [" + ToText(min) + ", " + ToText(max) +
                          "] written as a number with a unit (" + Join(names, ", ") + ")";
    detail::Decimal d = detail::ScanDecimal(s, 0);
    if (!d.ok)
    {
        return R::Err(Message(opt, s, what, allowed));
    }
    std::string unit = s.substr(d.end);
    uint64_t mult = 0;
    for (const auto& u : units)
    {
        if (u.first == unit)
        {
            mult = u.second;
        }
    }
    if (unit.empty() && bareAllowed)
    {
        mult = 1;
    }
    if (mult == 0)
    {
        return R::Err(Message(opt, s, what + " (unknown or missing unit)", allowed));
    }
    uint64_t v = 0;
    if (!detail::ScaleExact(d, mult, max, &v))
    {
        return R::Err(Message(opt, s, "a whole number in range", allowed));
    }
    if (v < min)
    {
        return R::Err(Message(opt, s, "in range", allowed));
    }
    return R::Ok(v);
}

/** Size in bytes: 4096, 2MiB, 4MB, 1KB, 64KiB. */
inline Parsed<uint64_t>
ParseSize(const std::string& opt,
          const std::string& s,
          uint64_t min = 0,
          uint64_t max = std::numeric_limits<uint64_t>::max())
{
    static const std::vector<std::pair<std::string, uint64_t>> units = {
        {"B", 1},
        {"KB", 1000},
        {"kB", 1000},
        {"MB", 1000000},
        {"GB", 1000000000},
        {"KiB", 1024},
        {"MiB", 1024 * 1024},
        {"GiB", 1024ULL * 1024 * 1024}};
    return ParseScaled(opt, s, units, true, "a size in bytes", min, max);
}

/** ParseRoceWindow's value for "unified". */
constexpr uint64_t UNIFIED_WINDOW = std::numeric_limits<uint64_t>::max() - 1;

/**
 * A DCQCN send window (--roceWindow): "unified" (UNIFIED_WINDOW: the largest host-pair
 * bandwidth-delay product of the built topology, DcnTopology::GetMaxHostPairBdp) or a
 * size in bytes, 0 (no window) or at least one 64-B frame.
 */
inline Parsed<uint64_t>
ParseRoceWindow(const std::string& opt, const std::string& s)
{
    using R = Parsed<uint64_t>;
    if (s == "unified")
    {
        return R::Ok(UNIFIED_WINDOW);
    }
    auto p = ParseSize(opt, s, 0, 1ULL << 40);
    if (!p)
    {
        return R::Err(p.Error() + " or 'unified'");
    }
    if (p.Value() > 0 && p.Value() < 64)
    {
        return R::Err("option --" + opt + ": value '" + s +
                      "'; allowed: unified, 0 (no window) or >= 64 bytes");
    }
    return p;
}

/** Data rate in bit/s: 400Gbps, 100Mbps. */
inline Parsed<uint64_t>
ParseRate(const std::string& opt,
          const std::string& s,
          uint64_t minBps = 1,
          uint64_t maxBps = 10000000000000ULL)
{
    static const std::vector<std::pair<std::string, uint64_t>> units = {{"bps", 1},
                                                                        {"kbps", 1000},
                                                                        {"Kbps", 1000},
                                                                        {"Mbps", 1000000},
                                                                        {"Gbps", 1000000000},
                                                                        {"Tbps", 1000000000000ULL}};
    return ParseScaled(opt, s, units, false, "a data rate in bit/s", minBps, maxBps);
}

/** A time: value, unit (s, ms, us, ns, ps) and the same in seconds. */
struct TimeText
{
    double value{0};
    std::string unit{"s"};
    double seconds{0};
};

/**
 * Time with a unit (10us, 1.5ms, 0); negatives only if allowNegative (then a leading
 * '-'); seconds in [minSeconds, maxSeconds].
 */
inline Parsed<TimeText>
ParseTime(const std::string& opt,
          const std::string& s,
          double minSeconds = 0,
          double maxSeconds = 3.15e7,
          bool allowNegative = false)
{
    using R = Parsed<TimeText>;
    std::string allowed = "a time in [" + ToText(minSeconds) + "s, " + ToText(maxSeconds) +
                          "s] written as a number with a unit (s, ms, us, ns, ps)" +
                          (minSeconds <= 0 ? ", or 0" : "");
    bool neg = !s.empty() && s[0] == '-';
    if (neg && !allowNegative)
    {
        return R::Err(Message(opt, s, "a non-negative time", allowed));
    }
    detail::Decimal d = detail::ScanDecimal(s, neg ? 1 : 0);
    if (!d.ok)
    {
        return R::Err(Message(opt, s, "a time", allowed));
    }
    TimeText t;
    t.value = (neg ? -1 : 1) * detail::ToDouble(d);
    t.unit = s.substr(d.end);
    static const std::vector<std::pair<std::string, double>> units = {{"s", 1},
                                                                      {"ms", 1e-3},
                                                                      {"us", 1e-6},
                                                                      {"ns", 1e-9},
                                                                      {"ps", 1e-12}};
    double mult = -1;
    for (const auto& u : units)
    {
        if (u.first == t.unit)
        {
            mult = u.second;
        }
    }
    if (t.unit.empty() && t.value == 0)
    {
        t.unit = "s";
        mult = 1;
    }
    if (mult < 0)
    {
        return R::Err(Message(opt, s, "a time (unknown or missing unit)", allowed));
    }
    t.seconds = t.value * mult;
    if (!(t.seconds >= minSeconds && t.seconds <= maxSeconds))
    {
        return R::Err(Message(opt, s, "in range", allowed));
    }
    return R::Ok(t);
}

/** One name of an allowed list. */
inline Parsed<std::string>
ParseEnum(const std::string& opt, const std::string& s, const std::vector<std::string>& allowed)
{
    for (const auto& a : allowed)
    {
        if (a == s)
        {
            return Parsed<std::string>::Ok(s);
        }
    }
    return Parsed<std::string>::Err(Message(opt, s, "a known name", Join(allowed)));
}

/** Comma-separated items, none empty; at least one item. */
inline Parsed<std::vector<std::string>>
SplitList(const std::string& opt, const std::string& s, char sep = ',')
{
    using R = Parsed<std::vector<std::string>>;
    std::vector<std::string> items;
    std::string cur;
    for (size_t i = 0; i <= s.size(); ++i)
    {
        if (i == s.size() || s[i] == sep)
        {
            if (cur.empty())
            {
                return R::Err(Message(opt,
                                      s,
                                      "a list without empty items",
                                      "items separated by '" + std::string(1, sep) + "'"));
            }
            items.push_back(cur);
            cur.clear();
        }
        else
        {
            cur += s[i];
        }
    }
    return R::Ok(items);
}

/** A comma list whose items are each parsed by `elem(opt, item)` (a parser above). */
template <class T, class F>
Parsed<std::vector<T>>
ParseList(const std::string& opt, const std::string& s, F elem)
{
    using R = Parsed<std::vector<T>>;
    auto items = SplitList(opt, s);
    if (!items)
    {
        return R::Err(items.Error());
    }
    std::vector<T> out;
    for (const auto& it : items.Value())
    {
        auto p = elem(opt, it);
        if (!p)
        {
            return R::Err(p.Error() + " (in list '" + s + "')");
        }
        out.push_back(p.Value());
    }
    return R::Ok(out);
}

/** A comma list of names from `allowed` (duplicates refused). */
inline Parsed<std::vector<std::string>>
ParseEnumList(const std::string& opt, const std::string& s, const std::vector<std::string>& allowed)
{
    auto p = ParseList<std::string>(opt, s, [&](const std::string& o, const std::string& it) {
        return ParseEnum(o, it, allowed);
    });
    if (p)
    {
        const auto& v = p.Value();
        for (size_t i = 0; i < v.size(); ++i)
        {
            for (size_t j = 0; j < i; ++j)
            {
                if (v[i] == v[j])
                {
                    return Parsed<std::vector<std::string>>::Err(
                        Message(opt, s, "a list without duplicates", Join(allowed)));
                }
            }
        }
    }
    return p;
}

} // namespace dcnopt
} // namespace ns3

#endif // DCN_OPTION_PARSE_H
