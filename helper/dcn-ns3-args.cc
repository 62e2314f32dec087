/*
 * Pre-parser of ns-3 command-line arguments (global values, --ns3::Type::Attr):
 * checks names against the registries and values with our own parsers before any
 * ns-3 parser sees them (they abort on malformed input).  See dcn-options.h.
 */
#include "dcn-options.h"

#include "ns3/boolean.h"
#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/global-value.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/queue-size.h"
#include "ns3/scheduler.h"
#include "ns3/simulator-impl.h"
#include "ns3/string.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <cstdlib>
#include <iostream>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnNs3Args");

using namespace dcnopt;

ns3::Time
DcnToTime(const TimeText& t)
{
    ns3::Time::Unit u = t.unit == "ms"   ? ns3::Time::MS
                        : t.unit == "us" ? ns3::Time::US
                        : t.unit == "ns" ? ns3::Time::NS
                        : t.unit == "ps" ? ns3::Time::PS
                                         : ns3::Time::S;
    return ns3::Time::FromDouble(t.value, u);
}

namespace
{

GlobalValue*
FindGlobal(const std::string& name)
{
    for (auto i = GlobalValue::Begin(); i != GlobalValue::End(); ++i)
    {
        if ((*i)->GetName() == name)
        {
            return *i;
        }
    }
    return nullptr;
}

/**
 * Check `value` against `checker` with our own parsers first (ns-3's
 * DeserializeFromString aborts on malformed numbers and times), and return the typed
 * value in *out.  "" or the one-line error.
 */
std::string
CheckValue(const std::string& opt,
           const std::string& value,
           Ptr<const AttributeChecker> checker,
           Ptr<AttributeValue>* out)
{
    // GetValueTypeName() is "ns3::UintegerValue" for some types, "BooleanValue" for others
    std::string type = checker->GetValueTypeName();
    if (type.rfind("ns3::", 0) != 0)
    {
        type = "ns3::" + type;
    }
    const std::string info =
        checker->HasUnderlyingTypeInformation() ? checker->GetUnderlyingTypeInformation() : type;
    Ptr<AttributeValue> v;
    if (type == "ns3::UintegerValue")
    {
        auto p = ParseUnsigned(opt, value);
        if (!p)
        {
            return Message(opt, value, "an unsigned integer", info);
        }
        v = Create<UintegerValue>(p.Value());
    }
    else if (type == "ns3::IntegerValue")
    {
        auto p = ParseSigned(opt, value);
        if (!p)
        {
            return Message(opt, value, "an integer", info);
        }
        v = Create<IntegerValue>(p.Value());
    }
    else if (type == "ns3::DoubleValue")
    {
        auto p = ParseDouble(opt, value);
        if (!p)
        {
            return Message(opt, value, "a finite number", info);
        }
        v = Create<DoubleValue>(p.Value());
    }
    else if (type == "ns3::BooleanValue")
    {
        auto p = ParseBool(opt, value);
        if (!p)
        {
            return p.Error();
        }
        v = Create<BooleanValue>(p.Value());
    }
    else if (type == "ns3::TimeValue")
    {
        auto p = ParseTime(opt, value, -3.15e7, 3.15e7, true);
        if (!p)
        {
            return Message(opt,
                           value,
                           "a time",
                           "a number with a unit (s, ms, us, ns, ps), " + info);
        }
        v = Create<TimeValue>(DcnToTime(p.Value()));
    }
    else if (type == "ns3::DataRateValue")
    {
        auto p = ParseRate(opt, value, 0);
        if (!p)
        {
            return p.Error();
        }
        v = Create<DataRateValue>(DataRate(p.Value()));
    }
    else if (type == "ns3::QueueSizeValue")
    {
        bool packets = !value.empty() && value.back() == 'p';
        auto p = packets ? ParseUnsigned(opt, value.substr(0, value.size() - 1), 0, 4294967295u)
                         : ParseSize(opt, value, 0, 4294967295u);
        if (!p)
        {
            return Message(
                opt,
                value,
                "a queue size",
                "packets as <n>p (e.g. 100p) or bytes (e.g. 415000B, 64KiB), up to 4294967295");
        }
        v = Create<QueueSizeValue>(
            QueueSize(packets ? QueueSizeUnit::PACKETS : QueueSizeUnit::BYTES,
                      static_cast<uint32_t>(p.Value())));
    }
    else if (type == "ns3::TypeIdValue" || type == "ns3::ObjectFactoryValue")
    {
        TypeId tid;
        if (!TypeId::LookupByNameFailSafe(value, &tid))
        {
            return Message(opt,
                           value,
                           "a registered TypeId name",
                           "e.g. ns3::MapScheduler (see --PrintTypeIds)");
        }
        v = checker->CreateValidValue(StringValue(value));
    }
    else if (type.rfind("ns3::EnumValue", 0) == 0)
    {
        // An unknown name asserts inside EnumChecker in debug builds of ns-3: check the
        // name against the checker's value list ("A|B|C") first.
        const std::string names = checker->GetUnderlyingTypeInformation();
        bool known = false;
        size_t pos = 0;
        while (pos <= names.size())
        {
            size_t bar = names.find('|', pos);
            if (bar == std::string::npos)
            {
                bar = names.size();
            }
            if (names.compare(pos, bar - pos, value) == 0 && bar - pos == value.size())
            {
                known = true;
                break;
            }
            pos = bar + 1;
        }
        if (!known)
        {
            return Message(opt, value, "accepted by the attribute", info);
        }
        v = checker->CreateValidValue(StringValue(value));
    }
    else if (type == "ns3::StringValue")
    {
        // String deserialisation never aborts.
        v = checker->CreateValidValue(StringValue(value));
    }
    else
    {
        return Message(opt,
                       value,
                       "settable from the command line (attribute type " + type + ")",
                       "attributes of type Uinteger, Integer, Double, Boolean, Time, DataRate, "
                       "QueueSize, Enum, String, TypeId");
    }
    if (!v || !checker->Check(*v))
    {
        return Message(opt, value, "accepted by the attribute", info);
    }
    if (out)
    {
        *out = v;
    }
    return "";
}

/** "" if `value` names a registered TypeId derived from `parent`, else the one-line error. */
std::string
CheckSubclass(const std::string& name,
              const std::string& value,
              TypeId parent,
              const std::string& what,
              const std::string& allowed)
{
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(value, &tid) || !tid.IsChildOf(parent))
    {
        return Message(name, value, what, allowed);
    }
    return "";
}

} // namespace

std::string
DcnCheckNs3Argument(const std::string& name, const std::string& value, Ptr<AttributeValue>* out)
{
    if (name.find("::") == std::string::npos)
    {
        GlobalValue* g = FindGlobal(name);
        if (g == nullptr)
        {
            return "option --" + name +
                   ": unknown option; allowed: the options of --PrintHelp, ns-3 global values "
                   "(--PrintGlobals), --ns3::Type::Attribute";
        }
        std::string e = CheckValue(name, value, g->GetChecker(), out);
        if (!e.empty())
        {
            return e;
        }
        if (name == "RngSeed" && value.find_first_not_of("+0") == std::string::npos)
        {
            return Message(name, value, "a valid seed", "an integer in [1, 4294967295]");
        }
        // type-valued globals: a TypeId of the right kind, or ns-3 crashes at its first use
        if (name == "SimulatorImplementationType")
        {
            return CheckSubclass(name,
                                 value,
                                 SimulatorImpl::GetTypeId(),
                                 "a simulator implementation",
                                 "ns3::DefaultSimulatorImpl, ns3::RealtimeSimulatorImpl (a "
                                 "registered SimulatorImpl subclass)");
        }
        if (name == "SchedulerType")
        {
            return CheckSubclass(name,
                                 value,
                                 Scheduler::GetTypeId(),
                                 "an event scheduler",
                                 "ns3::DcnHeapScheduler (the default), ns3::MapScheduler, "
                                 "ns3::HeapScheduler, ns3::ListScheduler, ns3::CalendarScheduler, "
                                 "ns3::PriorityQueueScheduler (a registered Scheduler subclass)");
        }
        return "";
    }
    size_t sep = name.rfind("::");
    std::string typeName = name.substr(0, sep);
    std::string attr = name.substr(sep + 2);
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(typeName, &tid))
    {
        return "option --" + name + ": unknown TypeId '" + typeName +
               "'; allowed: a registered TypeId such as ns3::DcnQueueDisc (see --PrintTypeIds)";
    }
    TypeId::AttributeInformation ai;
    if (attr.empty() || !tid.LookupAttributeByName(attr, &ai))
    {
        std::vector<std::string> names;
        for (TypeId t = tid;; t = t.GetParent())
        {
            for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
            {
                names.push_back(t.GetAttribute(i).name);
            }
            if (t == t.GetParent())
            {
                break;
            }
        }
        return "option --" + name + ": " + typeName + " has no attribute '" + attr +
               "'; allowed: " + (names.empty() ? std::string("(none)") : Join(names));
    }
    if (ai.supportLevel == TypeId::SupportLevel::OBSOLETE)
    {
        return "option --" + name + ": attribute is obsolete; allowed: " + ai.supportMsg;
    }
    if (!(ai.flags & TypeId::ATTR_CONSTRUCT))
    {
        return "option --" + name +
               ": attribute cannot be set at construction; allowed: attributes listed by "
               "--PrintAttributes=" +
               typeName;
    }
    return CheckValue(name, value, ai.checker, out);
}

bool
DcnIsNs3Argument(const std::string& name)
{
    return name.find("::") != std::string::npos || FindGlobal(name) != nullptr;
}

} // namespace ns3
