#include "dcn-scheme.h"

#include "path-selector.h"

#include "ns3/cc-registry.h"
#include "ns3/dcn-switch-routing.h"
#include "ns3/dcn-topology.h"
#include "ns3/forwarding-policy.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnScheme");

namespace
{
std::map<std::string, DcnScheme>&
Schemes()
{
    static std::map<std::string, DcnScheme> m;
    return m;
}

std::string
Join(const std::vector<std::string>& v, const std::string& sep)
{
    std::string s;
    for (const auto& x : v)
    {
        s += (s.empty() ? "" : sep) + x;
    }
    return s;
}

/** The scheme runs over transport (DcnScheme::transport may list several: "dcn,tcp"). */
bool
TransportMatches(const DcnScheme& s, const std::string& transport)
{
    size_t pos = 0;
    while (pos <= s.transport.size())
    {
        size_t end = s.transport.find(',', pos);
        if (end == std::string::npos)
        {
            end = s.transport.size();
        }
        if (end - pos == transport.size() && s.transport.compare(pos, end - pos, transport) == 0)
        {
            return true;
        }
        pos = end + 1;
    }
    return false;
}

bool
TopologyMatches(const DcnScheme& s, const std::string& topology)
{
    if (s.topologies.empty())
    {
        return true;
    }
    for (const auto& fam : s.topologies)
    {
        if (topology.compare(0, fam.size(), fam) == 0)
        {
            return true;
        }
    }
    return false;
}

/** The scheme's path selector with its scheme attributes, or null and *err set. */
Ptr<PathSelector>
MakeSelector(const DcnScheme& s, std::string* err)
{
    Ptr<PathSelector> ps = PathSelectorRegistry::Create(s.pathSelector);
    if (!ps)
    {
        *err = "--lb=" + s.name + ": path selector '" + s.pathSelector +
               "' is not registered; allowed: " + PathSelectorRegistry::NamesString();
        return nullptr;
    }
    for (const auto& a : s.selectorAttributes)
    {
        if (!ps->SetAttributeFailSafe(a.first, StringValue(a.second)))
        {
            *err = "--lb=" + s.name + ": attribute " + a.first + "=" + a.second +
                   " is not valid for path selector '" + s.pathSelector + "'";
            return nullptr;
        }
    }
    return ps;
}
} // namespace

bool
DcnSchemeRegistry::Register(const DcnScheme& s)
{
    DcnScheme c = s;
    if (c.pathSelector.empty())
    {
        c.pathSelector = c.name;
    }
    Schemes()[c.name] = c;
    return true;
}

bool
DcnSchemeRegistry::Has(const std::string& name)
{
    return Schemes().count(name) > 0 || PathSelectorRegistry::Has(name);
}

DcnScheme
DcnSchemeRegistry::Get(const std::string& name)
{
    auto it = Schemes().find(name);
    if (it != Schemes().end())
    {
        return it->second;
    }
    DcnScheme s; // implicit scheme of a bare path selector: the defaults
    s.name = name;
    s.pathSelector = name;
    s.description = "path selector '" + name + "' with the default parts";
    return s;
}

std::vector<std::string>
DcnSchemeRegistry::Names()
{
    std::vector<std::string> v;
    for (const auto& kv : Schemes())
    {
        v.push_back(kv.first);
    }
    for (const auto& n : PathSelectorRegistry::Names())
    {
        if (!Schemes().count(n))
        {
            v.push_back(n);
        }
    }
    std::sort(v.begin(), v.end());
    return v;
}

std::string
DcnSchemeRegistry::NamesString()
{
    return Join(Names(), ", ");
}

std::vector<std::string>
DcnSchemeRegistry::NamesFor(const std::string& topology, const std::string& transport)
{
    std::vector<std::string> v;
    for (const auto& n : Names())
    {
        DcnScheme s = Get(n);
        if (TopologyMatches(s, topology) && TransportMatches(s, transport))
        {
            v.push_back(n);
        }
    }
    return v;
}

std::string
DcnSchemeRegistry::CheckCompatible(const std::string& name,
                                   const std::string& topology,
                                   const std::string& transport)
{
    if (!Has(name))
    {
        return "--lb: unknown load balancer '" + name + "'; allowed: " + NamesString();
    }
    DcnScheme s = Get(name);
    bool topoOk = TopologyMatches(s, topology);
    bool transOk = TransportMatches(s, transport);
    if (topoOk && transOk)
    {
        return "";
    }
    std::string needs;
    if (!topoOk)
    {
        needs = "topology " + Join(s.topologies, " or ");
    }
    if (!transOk)
    {
        needs += (needs.empty() ? "" : " and ") + std::string("transport ") + s.transport;
    }
    std::string allowed = Join(NamesFor(topology, transport), ", ");
    return "--lb=" + name + ": scheme '" + name + "' cannot run on topology '" + topology +
           "' with transport '" + transport + "' (it needs " + needs +
           "); allowed here: " + (allowed.empty() ? "(none)" : allowed);
}

std::string
DcnSchemeRegistry::Validate(const std::string& name)
{
    if (!Has(name))
    {
        return "--lb: unknown load balancer '" + name + "'; allowed: " + NamesString();
    }
    DcnScheme s = Get(name);
    std::string err;
    Ptr<PathSelector> ps = MakeSelector(s, &err);
    if (!ps)
    {
        return err;
    }
    err = ps->Validate();
    if (!err.empty())
    {
        return "--lb=" + name + ": " + err;
    }
    if (!CongestionControlRegistry::Has(s.congestionControl))
    {
        return "--lb=" + name + ": congestion control '" + s.congestionControl +
               "' is not registered; allowed: " + CongestionControlRegistry::NamesString();
    }
    err = CongestionControlRegistry::Create(s.congestionControl)->Validate();
    if (!err.empty())
    {
        return "--lb=" + name + ": " + err;
    }
    if (s.lossRecovery != "selective-repeat")
    {
        return "--lb=" + name + ": loss recovery '" + s.lossRecovery +
               "' is not implemented; allowed: selective-repeat";
    }
    return "";
}

std::string
DcnSchemeRegistry::CheckForRun(const std::string& name,
                               const std::string& topology,
                               const std::string& transport,
                               uint64_t evs,
                               const std::string& cc)
{
    std::string err = CheckCompatible(name, topology, transport);
    if (err.empty() && evs > 0)
    {
        err = CheckSelectorAttribute(Get(name).pathSelector, "EvSetSize", evs);
        if (!err.empty())
        {
            err = "--evs: " + std::to_string(evs) + " not accepted by --lb=" + name + ": " + err;
        }
    }
    if (err.empty())
    {
        err = CheckConfig(name, cc);
    }
    if (err.empty())
    {
        // attribute values that depend on the topology (e.g. Flicr's PathSource=spritz)
        Ptr<PathSelector> ps = MakeSelector(Get(name), &err);
        if (ps)
        {
            err = ps->CheckTopology(topology);
            err = err.empty() ? err : "--lb=" + name + ": " + err;
        }
    }
    return err;
}

std::string
DcnSchemeRegistry::CheckConfig(const std::string& name,
                               const std::string& cc,
                               const std::string& ccSource)
{
    std::string err = Validate(name);
    if (err.empty() && !cc.empty() && cc != Get(name).congestionControl &&
        CongestionControlRegistry::Has(cc))
    {
        err = CongestionControlRegistry::Create(cc)->Validate();
        if (!err.empty() && err.rfind("option --", 0) != 0)
        {
            err = (ccSource.empty() ? "--cc=" + cc : ccSource) + ": " + err;
        }
    }
    return err;
}

std::string
DcnSchemeRegistry::DefaultCongestionControl(const std::string& name, const std::string& transport)
{
    if (transport == "tcp")
    {
        return "dctcp";
    }
    const std::string own = Get(name).congestionControl;
    return transport == "roce" && own == "dctcp" ? "dcqcn" : own;
}

std::string
DcnSchemeRegistry::CheckSelectorAttribute(const std::string& selector,
                                          const std::string& attr,
                                          uint64_t value)
{
    std::string tidName = PathSelectorRegistry::TypeIdName(selector);
    if (tidName.empty())
    {
        return "";
    }
    TypeId tid = TypeId::LookupByName(tidName);
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName(attr, &info))
    {
        return "";
    }
    if (info.checker->Check(UintegerValue(value)))
    {
        return "";
    }
    return tidName + "::" + attr + " allowed: " + info.checker->GetUnderlyingTypeInformation();
}

bool
DcnSchemeRegistry::HasSwitchPolicy(const std::string& name)
{
    if (!Has(name))
    {
        return false;
    }
    const std::string& sp = Get(name).switchPolicy;
    return !sp.empty() && sp != "ecmp";
}

std::string
DcnSchemeRegistry::CheckSwitchPolicy(const std::string& name, const DcnTopology& topology)
{
    NS_LOG_FUNCTION(name);
    if (!Has(name))
    {
        return "--lb: unknown load balancer '" + name + "'; allowed: " + NamesString();
    }
    TypeId tid;
    if (!HasSwitchPolicy(name) ||
        !TypeId::LookupByNameFailSafe(DcnForwardingPolicyTypeName(Get(name).switchPolicy), &tid))
    {
        return ""; // the topology's own policy (an unregistered one: InstallSwitchPolicy says so)
    }
    ObjectFactory f;
    f.SetTypeId(tid);
    std::string err = f.Create<ForwardingPolicy>()->CheckTopology(topology);
    return err.empty() ? err : "--lb=" + name + ": " + err;
}

std::string
DcnSchemeRegistry::InstallSwitchPolicy(const std::string& name,
                                       Ptr<DcnTopology> topology,
                                       int64_t stream,
                                       int64_t* streamsUsed)
{
    NS_LOG_FUNCTION(name << topology << stream);
    if (streamsUsed != nullptr)
    {
        *streamsUsed = 0;
    }
    if (!Has(name))
    {
        return "--lb: unknown load balancer '" + name + "'; allowed: " + NamesString();
    }
    const DcnScheme s = Get(name);
    if (!HasSwitchPolicy(name))
    {
        return ""; // the topology's own policy
    }
    std::string tidName = DcnForwardingPolicyTypeName(s.switchPolicy);
    TypeId tid;
    if (tidName.empty() || !TypeId::LookupByNameFailSafe(tidName, &tid))
    {
        std::string known;
        for (const auto& n : DcnForwardingPolicyShortNames())
        {
            known += (known.empty() ? "" : ", ") + n;
        }
        return "--lb=" + name + ": switch policy '" + s.switchPolicy +
               "' is not registered; allowed: " + known;
    }
    if (!topology || !topology->IsBuilt())
    {
        return "--lb=" + name + ": the topology must be built before its switch policy '" +
               s.switchPolicy + "' is installed";
    }
    std::string err = CheckSwitchPolicy(name, *topology);
    if (!err.empty())
    {
        return err;
    }
    ObjectFactory f;
    f.SetTypeId(tid);
    NodeContainer sw = topology->GetAllSwitches();
    std::vector<Ptr<ForwardingPolicy>> pols(sw.GetN());
    for (uint32_t i = 0; i < sw.GetN(); ++i)
    {
        pols[i] = f.Create<ForwardingPolicy>();
    }
    int64_t used = 0;
    for (uint32_t i = 0; i < sw.GetN(); ++i)
    {
        Ptr<DcnSwitchRouting> r = topology->GetRouting(sw.Get(i));
        if (!r)
        {
            continue;
        }
        pols[i]->Attach(sw.Get(i));
        r->SetForwardingPolicy(pols[i]);
    }
    for (uint32_t i = 0; i < sw.GetN(); ++i)
    {
        if (topology->GetRouting(sw.Get(i)))
        {
            pols[i]->AttachTopology(*topology, i);
            if (stream >= 0)
            {
                used += pols[i]->AssignStreams(stream + used);
            }
        }
    }
    if (streamsUsed != nullptr)
    {
        *streamsUsed = used;
    }
    NS_LOG_INFO("scheme " << name << ": switch policy " << tidName << " on " << sw.GetN()
                          << " switches");
    return "";
}

} // namespace ns3
