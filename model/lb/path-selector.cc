#include "path-selector.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnPathSelector");
NS_OBJECT_ENSURE_REGISTERED(PathSelector);

TypeId
PathSelector::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PathSelector").SetParent<Object>().SetGroupName("DcnLb");
    return tid;
}

PathSelector::~PathSelector() = default;

void
PathSelector::Setup(const PathSelectorSetup& setup)
{
    m_setup = setup;
}

int64_t
PathSelector::AssignStreams(int64_t /*stream*/)
{
    return 0;
}

std::map<std::string, std::string>&
PathSelectorRegistry::Map()
{
    static std::map<std::string, std::string> m;
    return m;
}

bool
PathSelectorRegistry::Register(const std::string& name, const std::string& typeIdName)
{
    Map()[name] = typeIdName;
    return true;
}

bool
PathSelectorRegistry::Has(const std::string& name)
{
    return Map().count(name) > 0;
}

std::string
PathSelectorRegistry::TypeIdName(const std::string& name)
{
    auto it = Map().find(name);
    NS_ABORT_MSG_IF(it == Map().end(),
                    "Unknown load balancer '" << name << "'; allowed: " << NamesString());
    return it->second;
}

Ptr<PathSelector>
PathSelectorRegistry::Create(const std::string& name)
{
    ObjectFactory f;
    f.SetTypeId(TypeIdName(name));
    return f.Create<PathSelector>();
}

std::vector<std::string>
PathSelectorRegistry::Names()
{
    std::vector<std::string> v;
    for (const auto& kv : Map())
    {
        v.push_back(kv.first);
    }
    return v;
}

std::string
PathSelectorRegistry::NamesString()
{
    std::string s;
    for (const auto& kv : Map())
    {
        s += (s.empty() ? "" : ", ") + kv.first;
    }
    return s;
}

} // namespace ns3
