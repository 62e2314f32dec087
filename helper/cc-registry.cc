#include "cc-registry.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"

#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnCcRegistry");

namespace
{

/** short name -> TypeId name, built from the TypeId system on each call (cheap,
 *  and it sees algorithms registered by libraries loaded later). */
std::map<std::string, std::string>
Scan()
{
    std::map<std::string, std::string> m;
    TypeId base = CongestionControl::GetTypeId();
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        TypeId tid = TypeId::GetRegistered(i);
        if (tid == base || !tid.IsChildOf(base) || !tid.HasConstructor())
        {
            continue;
        }
        ObjectFactory f;
        f.SetTypeId(tid);
        Ptr<CongestionControl> cc = f.Create<CongestionControl>();
        m[cc->Name()] = tid.GetName();
    }
    return m;
}

} // namespace

std::string
CongestionControlRegistry::TypeIdName(const std::string& name)
{
    auto m = Scan();
    auto it = m.find(name);
    if (it != m.end())
    {
        return it->second;
    }
    for (const auto& kv : m)
    {
        if (kv.second == name)
        {
            return kv.second;
        }
    }
    return "";
}

bool
CongestionControlRegistry::Has(const std::string& name)
{
    return !TypeIdName(name).empty();
}

std::vector<std::string>
CongestionControlRegistry::Names()
{
    std::vector<std::string> v;
    for (const auto& kv : Scan())
    {
        v.push_back(kv.first);
    }
    return v;
}

std::string
CongestionControlRegistry::NamesString()
{
    std::string s;
    for (const auto& n : Names())
    {
        s += (s.empty() ? "" : ", ") + n;
    }
    return s.empty() ? "(none registered)" : s;
}

Ptr<CongestionControl>
CongestionControlRegistry::Create(const std::string& name)
{
    std::string tid = TypeIdName(name);
    NS_ABORT_MSG_IF(tid.empty(),
                    "Unknown congestion control '" << name << "'; allowed: " << NamesString());
    ObjectFactory f;
    f.SetTypeId(tid);
    return f.Create<CongestionControl>();
}

} // namespace ns3
