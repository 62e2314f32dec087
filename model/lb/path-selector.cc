#include "path-selector.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnPathSelector");
NS_OBJECT_ENSURE_REGISTERED(PathSelector);
NS_OBJECT_ENSURE_REGISTERED(DcnLbSharedState);

TypeId
PathSelector::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DcnPathSelector").SetParent<Object>().SetGroupName("DcnLb");
    return tid;
}

PathSelector::~PathSelector() = default;

void
PathSelector::Setup(const PathSelectorSetup& setup)
{
    NS_LOG_FUNCTION(this << setup.srcHost << setup.dstHost << setup.srcSwitch << setup.dstSwitch);
    m_setup = setup;
}

void
PathSelector::OnFeedback(const PathFeedback& fb)
{
    NS_LOG_FUNCTION(this << fb.path.ev << static_cast<int>(fb.signal));
}

int64_t
PathSelector::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    return 0;
}

int64_t
PathSelector::AssignRngStream(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    Rng().SetStream(stream);
    return 1;
}

void
PathSelector::DoDispose()
{
    m_rng = nullptr;
    Object::DoDispose();
}

std::string
PathSelector::Validate() const
{
    return "";
}

std::string
PathSelector::CheckTopology(const std::string& /* topology */) const
{
    return "";
}

TypeId
DcnLbSharedState::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DcnLbSharedState")
                            .SetParent<Object>()
                            .SetGroupName("DcnLb")
                            .AddConstructor<DcnLbSharedState>();
    return tid;
}

DcnLbSharedState::DcnLbSharedState()
{
    NS_LOG_FUNCTION(this);
}

DcnLbSharedState::~DcnLbSharedState() = default;

Ptr<Object>
DcnLbSharedState::Get(const std::string& key) const
{
    auto it = m_state.find(key);
    return it == m_state.end() ? nullptr : it->second;
}

void
DcnLbSharedState::Set(const std::string& key, Ptr<Object> obj)
{
    NS_LOG_FUNCTION(this << key << obj);
    m_state[key] = obj;
}

void
DcnLbSharedState::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& kv : m_state)
    {
        if (kv.second)
        {
            kv.second->Dispose();
        }
    }
    m_state.clear();
    Object::DoDispose();
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
    return it == Map().end() ? "" : it->second;
}

Ptr<PathSelector>
PathSelectorRegistry::Create(const std::string& name)
{
    std::string tid = TypeIdName(name);
    if (tid.empty())
    {
        NS_LOG_WARN("unknown path selector '" << name << "'; allowed: " << NamesString());
        return nullptr;
    }
    ObjectFactory f;
    f.SetTypeId(tid);
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
