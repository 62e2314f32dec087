#include "failure-helper.h"

#include "ns3/boolean.h"
#include "ns3/dcn-port-device.h"
#include "ns3/dcn-queue-disc.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FailureHelper");
NS_OBJECT_ENSURE_REGISTERED(FailureHelper);

TypeId
FailureHelper::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FailureHelper")
            .SetParent<Object>()
            .SetGroupName("DcnLb")
            .AddConstructor<FailureHelper>()
            .AddAttribute("DegradeScalesQueue",
                          "A per-direction degrade (DegradeLink with a direction, --failures "
                          "degrade) scales the egress queue's DataLimit and ECN Kmin/Kmax by "
                          "new rate / built rate (the REPS authors' artifact halves them at "
                          "200G, issue 10); false keeps them fixed",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FailureHelper::m_scaleQueue),
                          MakeBooleanChecker())
            .AddTraceSource("InjectedDrop",
                            "A packet was lost to an injected failure (packet, link id, reason "
                            "0=down 1=random 2=blackhole)",
                            MakeTraceSourceAccessor(&FailureHelper::m_dropTrace),
                            "ns3::DcnFailureErrorModel::InjectedDropCallback");
    return tid;
}

FailureHelper::FailureHelper()
{
    NS_LOG_FUNCTION(this);
}

FailureHelper::FailureHelper(Ptr<DcnTopology> fabric)
{
    NS_LOG_FUNCTION(this << fabric);
    SetFabric(fabric);
}

void
FailureHelper::SetFabric(Ptr<DcnTopology> fabric)
{
    NS_LOG_FUNCTION(this << fabric);
    NS_ABORT_MSG_IF(!fabric || !fabric->IsBuilt(),
                    "FailureHelper: the topology must be built (call Build() first)");
    m_fabric = fabric;
}

uint32_t
FailureHelper::GetLinkId(const std::string& name) const
{
    NS_LOG_FUNCTION(this << name);
    NS_ABORT_MSG_IF(!m_fabric, "FailureHelper::GetLinkId: no fabric set");
    uint32_t id = m_fabric->FindLink(name);
    NS_ABORT_MSG_IF(id == DcnAddressing::NONE,
                    "FailureHelper: link='"
                        << name << "' does not exist; allowed: a link name of "
                        << m_fabric->GetTopologyName() << " such as '"
                        << (m_fabric->GetLinks().empty() ? std::string("?")
                                                         : m_fabric->GetLinks().back().name)
                        << "'");
    return id;
}

void
FailureHelper::CheckLink(uint32_t linkId, const char* what) const
{
    NS_ABORT_MSG_IF(!m_fabric, "FailureHelper::" << what << ": no fabric set");
    NS_ABORT_MSG_IF(linkId >= m_fabric->GetLinks().size(),
                    "FailureHelper::" << what << ": linkId=" << linkId
                                      << " does not exist; allowed [0,"
                                      << m_fabric->GetLinks().size() << ")");
}

void
FailureHelper::CheckSwitch(Ptr<Node> sw, const char* what) const
{
    NS_ABORT_MSG_IF(!m_fabric, "FailureHelper::" << what << ": no fabric set");
    NS_ABORT_MSG_IF(!sw, "FailureHelper::" << what << ": null switch");
    int32_t tier = m_fabric->GetTierOfNode(sw);
    NS_ABORT_MSG_IF(tier < 0,
                    "FailureHelper::" << what << ": node " << sw->GetId()
                                      << " is a host (tier -1); allowed: a switch (tier 0.."
                                      << m_fabric->GetNTiers() - 1 << ")");
}

void
FailureHelper::CheckTimes(Time start, Time duration, const char* what) const
{
    NS_ABORT_MSG_IF(start < Simulator::Now(),
                    "FailureHelper::" << what << ": start=" << start << " is in the past (now "
                                      << Simulator::Now() << ")");
    NS_ABORT_MSG_IF(duration.IsStrictlyNegative(),
                    "FailureHelper::" << what << ": duration=" << duration
                                      << "; allowed >= 0 (0 = permanent)");
}

Ptr<DcnFailureErrorModel>
FailureHelper::GetModel(Ptr<NetDevice> dev)
{
    NS_LOG_FUNCTION(this << dev);
    auto it = m_models.find(dev);
    if (it != m_models.end())
    {
        return it->second;
    }
    Ptr<PointToPointNetDevice> p2p = DynamicCast<PointToPointNetDevice>(dev);
    NS_ABORT_MSG_IF(!p2p, "FailureHelper: device is not a PointToPointNetDevice");
    Ptr<DcnFailureErrorModel> em = CreateObject<DcnFailureErrorModel>();
    // Tag = link id of the device.
    for (uint32_t l : m_fabric->GetLinksOfNode(dev->GetNode()))
    {
        const DcnLinkInfo& li = m_fabric->GetLink(l);
        if (li.devA == p2p || li.devB == p2p)
        {
            em->SetTag(l);
        }
    }
    if (m_nextStream >= 0)
    {
        m_nextStream += em->AssignStreams(m_nextStream);
    }
    em->TraceConnectWithoutContext("InjectedDrop", MakeCallback(&FailureHelper::OnDrop, this));
    p2p->SetReceiveErrorModel(em);
    m_models[dev] = em;
    m_order.push_back(em);
    return em;
}

void
FailureHelper::OnDrop(Ptr<const Packet> p, uint32_t tag, uint32_t reason)
{
    m_dropTrace(p, tag, reason);
}

void
FailureHelper::SetLinkDown(uint32_t linkId, bool down)
{
    NS_LOG_FUNCTION(this << linkId << down);
    const DcnLinkInfo& l = m_fabric->GetLink(linkId);
    GetModel(l.devA)->SetDown(down);
    GetModel(l.devB)->SetDown(down);
}

void
FailureHelper::FailLinkSilent(uint32_t linkId, Time start, Time duration)
{
    NS_LOG_FUNCTION(this << linkId << start << duration);
    CheckLink(linkId, "FailLinkSilent");
    CheckTimes(start, duration, "FailLinkSilent");
    GetModel(m_fabric->GetLink(linkId).devA);
    GetModel(m_fabric->GetLink(linkId).devB);
    Simulator::Schedule(start - Simulator::Now(), &FailureHelper::SetLinkDown, this, linkId, true);
    if (duration.IsStrictlyPositive())
    {
        Simulator::Schedule(start + duration - Simulator::Now(),
                            &FailureHelper::SetLinkDown,
                            this,
                            linkId,
                            false);
    }
}

void
FailureHelper::FailLink(uint32_t linkId, Time start, Time withdrawDelay, Time duration)
{
    NS_LOG_FUNCTION(this << linkId << start << withdrawDelay << duration);
    CheckLink(linkId, "FailLink");
    CheckTimes(start, duration, "FailLink");
    NS_ABORT_MSG_IF(withdrawDelay.IsStrictlyNegative(),
                    "FailureHelper::FailLink: withdrawDelay=" << withdrawDelay << "; allowed >= 0");
    FailLinkSilent(linkId, start, duration);
    Time w = start + withdrawDelay;
    if (duration.IsStrictlyPositive() && withdrawDelay >= duration)
    {
        return; // restored before the routing reacts
    }
    Simulator::Schedule(w - Simulator::Now(), &FailureHelper::Withdraw, this, linkId);
    if (duration.IsStrictlyPositive())
    {
        Simulator::Schedule(start + duration - Simulator::Now(),
                            &FailureHelper::Restore,
                            this,
                            linkId);
    }
}

void
FailureHelper::Withdraw(uint32_t linkId)
{
    NS_LOG_FUNCTION(this << linkId);
    m_withdrawals.resize(std::max<size_t>(m_withdrawals.size(), linkId + 1), 0);
    if (m_withdrawals[linkId]++ == 0)
    {
        m_fabric->SetLinkRouted(linkId, false);
    }
}

void
FailureHelper::Restore(uint32_t linkId)
{
    NS_LOG_FUNCTION(this << linkId);
    if (linkId < m_withdrawals.size() && m_withdrawals[linkId] > 0 && --m_withdrawals[linkId] == 0)
    {
        m_fabric->SetLinkRouted(linkId, true);
    }
}

void
FailureHelper::ScheduleWindow(Time start, Time duration, std::function<void(bool)> f)
{
    Simulator::Schedule(start - Simulator::Now(), [f]() { f(true); });
    if (duration.IsStrictlyPositive())
    {
        Simulator::Schedule(start + duration - Simulator::Now(), [f]() { f(false); });
    }
}

void
FailureHelper::DropWindow(Ptr<DcnFailureErrorModel> m, double p, bool open)
{
    NS_LOG_FUNCTION(this << m << p << open);
    auto& w = m_dropWindows[m];
    if (open)
    {
        w.push_back(p);
    }
    else if (auto it = std::find(w.begin(), w.end(), p); it != w.end())
    {
        w.erase(it);
    }
    if (w.size() == 1)
    {
        m->SetDropProbability(w.front()); // one window: its probability exactly
        return;
    }
    double keep = 1.0;
    for (double q : w)
    {
        keep *= 1.0 - q;
    }
    m->SetDropProbability(w.empty() ? 0.0 : 1.0 - keep);
}

void
FailureHelper::DegradeLink(uint32_t linkId, DataRate rate, Time start, Time duration)
{
    NS_LOG_FUNCTION(this << linkId << rate << start << duration);
    CheckLink(linkId, "DegradeLink");
    CheckTimes(start, duration, "DegradeLink");
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0,
                    "FailureHelper::DegradeLink: rate=" << rate << "; allowed > 0");
    // both directions, the queues' limits unscaled (the REPS experiments' slow links)
    ScheduleWindow(start, duration, [this, linkId, rate](bool open) {
        DegradeWindow(linkId, DcnLinkDir::BOTH, rate, false, open);
    });
}

void
FailureHelper::SetLinkDropRate(uint32_t linkId, double prob, Time start, Time duration)
{
    NS_LOG_FUNCTION(this << linkId << prob << start << duration);
    CheckLink(linkId, "SetLinkDropRate");
    CheckTimes(start, duration, "SetLinkDropRate");
    NS_ABORT_MSG_IF(prob < 0 || prob > 1,
                    "FailureHelper::SetLinkDropRate: prob=" << prob << "; allowed [0,1]");
    const DcnLinkInfo& l = m_fabric->GetLink(linkId);
    for (Ptr<NetDevice> d : {Ptr<NetDevice>(l.devA), Ptr<NetDevice>(l.devB)})
    {
        Ptr<DcnFailureErrorModel> m = GetModel(d);
        ScheduleWindow(start, duration, [this, m, prob](bool open) { DropWindow(m, prob, open); });
    }
}

void
FailureHelper::SetSwitchDropRate(Ptr<Node> sw, double prob, Time start, Time duration)
{
    NS_LOG_FUNCTION(this << sw << prob << start << duration);
    CheckSwitch(sw, "SetSwitchDropRate");
    CheckTimes(start, duration, "SetSwitchDropRate");
    NS_ABORT_MSG_IF(prob < 0 || prob > 1,
                    "FailureHelper::SetSwitchDropRate: prob=" << prob << "; allowed [0,1]");
    for (uint32_t l : m_fabric->GetLinksOfNode(sw))
    {
        const DcnLinkInfo& li = m_fabric->GetLink(l);
        Ptr<DcnFailureErrorModel> m = GetModel(li.a == sw ? li.devA : li.devB);
        ScheduleWindow(start, duration, [this, m, prob](bool open) { DropWindow(m, prob, open); });
    }
}

namespace
{

/** Source/destination prefixes of a black hole. */
struct BlackholeSpec
{
    Ipv4Address srcNet;
    Ipv4Mask srcMask;
    Ipv4Address dstNet;
    Ipv4Mask dstMask;
};

/** Installs a black hole on a device's error model, removed again after `duration` (> 0). */
void
StartBlackhole(Ptr<DcnFailureErrorModel> m, BlackholeSpec spec, Time duration)
{
    uint32_t id = m->AddBlackhole(spec.srcNet, spec.srcMask, spec.dstNet, spec.dstMask);
    if (duration.IsStrictlyPositive())
    {
        Simulator::Schedule(duration, &DcnFailureErrorModel::RemoveBlackhole, m, id);
    }
}

} // namespace

void
FailureHelper::AddBlackhole(Ptr<Node> sw,
                            Ipv4Address srcNet,
                            Ipv4Mask srcMask,
                            Ipv4Address dstNet,
                            Ipv4Mask dstMask,
                            Time start,
                            Time duration)
{
    NS_LOG_FUNCTION(this << sw << srcNet << srcMask << dstNet << dstMask << start << duration);
    CheckSwitch(sw, "AddBlackhole");
    CheckTimes(start, duration, "AddBlackhole");
    for (uint32_t l : m_fabric->GetLinksOfNode(sw))
    {
        const DcnLinkInfo& li = m_fabric->GetLink(l);
        Ptr<DcnFailureErrorModel> m = GetModel(li.a == sw ? li.devA : li.devB);
        BlackholeSpec spec{srcNet, srcMask, dstNet, dstMask};
        Simulator::Schedule(start - Simulator::Now(), &StartBlackhole, m, spec, duration);
    }
}

void
FailureHelper::FailSwitch(Ptr<Node> sw,
                          Time start,
                          Time duration,
                          bool withdraw,
                          Time withdrawDelay)
{
    NS_LOG_FUNCTION(this << sw << start << duration << withdraw << withdrawDelay);
    CheckSwitch(sw, "FailSwitch");
    CheckTimes(start, duration, "FailSwitch");
    for (uint32_t l : m_fabric->GetLinksOfNode(sw))
    {
        if (withdraw)
        {
            FailLink(l, start, withdrawDelay, duration);
        }
        else
        {
            FailLinkSilent(l, start, duration);
        }
    }
}

uint64_t
FailureHelper::GetInjectedDrops() const
{
    uint64_t n = 0;
    for (auto& kv : m_models)
    {
        n += kv.second->GetTotalDrops();
    }
    return n;
}

uint64_t
FailureHelper::GetInjectedDrops(DcnFailureErrorModel::Reason r) const
{
    uint64_t n = 0;
    for (auto& kv : m_models)
    {
        n += kv.second->GetDrops(r);
    }
    return n;
}

uint64_t
FailureHelper::GetUnroutableDrops() const
{
    uint64_t n = 0;
    NodeContainer sw = m_fabric->GetAllSwitches();
    for (uint32_t i = 0; i < sw.GetN(); ++i)
    {
        Ptr<DcnSwitchRouting> r = m_fabric->GetRouting(sw.Get(i));
        if (r)
        {
            n += r->GetUnroutable();
        }
    }
    return n;
}

std::vector<uint32_t>
FailureHelper::FailRandomLinks(double fraction,
                               Ptr<UniformRandomVariable> rng,
                               Time start,
                               Time withdrawDelay,
                               Time duration)
{
    NS_LOG_FUNCTION(this << fraction << start << withdrawDelay << duration);
    NS_ABORT_MSG_IF(!m_fabric, "FailureHelper::FailRandomLinks: no fabric set");
    NS_ABORT_MSG_IF(!(fraction >= 0 && fraction <= 1),
                    "FailureHelper::FailRandomLinks: fraction=" << fraction << "; allowed [0, 1]");
    NS_ABORT_MSG_IF(!rng, "FailureHelper::FailRandomLinks: no random variable");
    std::vector<uint32_t> ids;
    for (const DcnLinkInfo& l : m_fabric->GetLinks())
    {
        if (l.tierA >= 0 && l.tierB >= 0)
        {
            ids.push_back(l.id);
        }
    }
    const uint32_t total = static_cast<uint32_t>(ids.size());
    const uint32_t want = static_cast<uint32_t>(std::lround(fraction * total));
    for (uint32_t i = 0; i < want; ++i)
    {
        uint32_t j = rng->GetInteger(i, total - 1);
        std::swap(ids[i], ids[j]);
    }
    ids.resize(want);
    for (uint32_t id : ids)
    {
        FailLink(id, start, withdrawDelay, duration);
    }
    return ids;
}

int64_t
FailureHelper::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    // Models created later continue from the next stream; reserve a block of 1<<16.
    m_nextStream = stream;
    for (auto& m : m_order)
    {
        m_nextStream += m->AssignStreams(m_nextStream);
    }
    return 1 << 16;
}

} // namespace ns3
