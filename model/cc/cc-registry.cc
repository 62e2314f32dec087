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

/**
 * short name -> TypeId name, built from the TypeId system.  Each congestion
 * control class is constructed once (to ask its Name()), the first time the
 * registry is used; the table is rebuilt only when the number of registered
 * TypeIds changed (a library loaded later registered more).
 */
const std::map<std::string, std::string>&
Scan()
{
    static std::map<std::string, std::string> m;
    static uint32_t scannedN = 0;
    if (scannedN == TypeId::GetRegisteredN())
    {
        return m;
    }
    NS_LOG_LOGIC("scanning " << TypeId::GetRegisteredN() << " TypeIds for congestion controls");
    TypeId base = CongestionControl::GetTypeId();
    for (uint32_t i = scannedN; i < TypeId::GetRegisteredN(); ++i)
    {
        TypeId tid = TypeId::GetRegistered(static_cast<uint16_t>(i));
        if (tid == base || !tid.IsChildOf(base) || !tid.HasConstructor())
        {
            continue;
        }
        ObjectFactory f;
        f.SetTypeId(tid);
        Ptr<CongestionControl> cc = f.Create<CongestionControl>();
        m[cc->Name()] = tid.GetName();
    }
    scannedN = TypeId::GetRegisteredN();
    return m;
}

} // namespace

std::string
CongestionControlRegistry::TypeIdName(const std::string& name)
{
    const auto& m = Scan();
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
    if (tid.empty())
    {
        NS_LOG_WARN("unknown congestion control '" << name << "'; allowed: " << NamesString());
        return nullptr;
    }
    ObjectFactory f;
    f.SetTypeId(tid);
    return f.Create<CongestionControl>();
}

} // namespace ns3
