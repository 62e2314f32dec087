/*
 * FailureHelper: per-direction degrade and black holes at egress queues
 * (issue 10), link and switch names, --failures specs and PrintLinks.
 * (Split from failure-helper.cc for file size.)
 */
#include "dcn-failure-spec-parse.h"
#include "failure-helper.h"

#include "ns3/dcn-port-device.h"
#include "ns3/dcn-queue-disc.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <iomanip>
#include <ostream>
#include <set>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FailureHelperKinds");

namespace
{

/** Exact ns-3 Time of a parsed time text ("20us" -> 20 us, no double rounding). */
Time
ToTime(const dcnopt::TimeText& t)
{
    std::ostringstream o;
    o << std::setprecision(17) << t.value << t.unit;
    return Time(o.str());
}

} // namespace

uint32_t
FailureHelper::FindLinkId(const std::string& idOrName) const
{
    NS_LOG_FUNCTION(this << idOrName);
    if (!m_fabric || idOrName.empty())
    {
        return DcnAddressing::NONE;
    }
    if (std::isdigit(static_cast<unsigned char>(idOrName[0])))
    {
        auto v = dcnopt::ParseUnsigned("link", idOrName, 0, m_fabric->GetLinks().size() - 1);
        return v ? static_cast<uint32_t>(v.Value()) : DcnAddressing::NONE;
    }
    return m_fabric->FindLink(idOrName);
}

std::string
FailureHelper::GetSwitchName(uint32_t index) const
{
    NS_ABORT_MSG_IF(!m_fabric || index >= m_fabric->GetNSwitches(),
                    "FailureHelper::GetSwitchName: switch=" << index << " does not exist");
    Ptr<Node> sw = m_fabric->GetAllSwitches().Get(index);
    // The node's name is the part of its link names on its side of a '-': the
    // candidates common to all its links (names may contain '-' themselves).
    std::set<std::string> common;
    bool first = true;
    for (uint32_t l : m_fabric->GetLinksOfNode(sw))
    {
        const DcnLinkInfo& li = m_fabric->GetLink(l);
        const std::string name = li.EndsName(); // parallel links: without "/k"
        std::set<std::string> c;
        for (size_t p = name.find('-'); p != std::string::npos; p = name.find('-', p + 1))
        {
            c.insert(li.a == sw ? name.substr(0, p) : name.substr(p + 1));
        }
        if (first)
        {
            common = c;
            first = false;
        }
        else
        {
            std::set<std::string> keep;
            for (const auto& x : c)
            {
                if (common.count(x))
                {
                    keep.insert(x);
                }
            }
            common.swap(keep);
        }
    }
    return common.size() == 1 ? *common.begin() : "sw" + std::to_string(index);
}

Ptr<Node>
FailureHelper::FindSwitch(const std::string& indexOrName) const
{
    NS_LOG_FUNCTION(this << indexOrName);
    if (!m_fabric || indexOrName.empty())
    {
        return nullptr;
    }
    const uint32_t n = m_fabric->GetNSwitches();
    if (std::isdigit(static_cast<unsigned char>(indexOrName[0])))
    {
        auto v = dcnopt::ParseUnsigned("switch", indexOrName, 0, n == 0 ? 0 : n - 1);
        return v && n > 0 ? m_fabric->GetAllSwitches().Get(static_cast<uint32_t>(v.Value()))
                          : nullptr;
    }
    for (uint32_t i = 0; i < n; ++i) // setup time only
    {
        if (GetSwitchName(i) == indexOrName)
        {
            return m_fabric->GetAllSwitches().Get(i);
        }
    }
    return nullptr;
}

void
FailureHelper::PrintLinks(const DcnTopology& topology, std::ostream& os)
{
    os << "# " << topology.GetTopologyName() << ": " << topology.GetLinks().size()
       << " links (up = end a -> end b)\n";
    os << std::left << std::setw(6) << "id" << std::setw(24) << "name" << std::setw(14) << "rate"
       << "delay\n";
    for (const DcnLinkInfo& li : topology.GetLinks())
    {
        std::ostringstream rate;
        rate << li.rate.GetBitRate() / 1e9 << "Gbps";
        std::ostringstream delay;
        delay << li.delay.GetNanoSeconds() << "ns";
        os << std::setw(6) << li.id << std::setw(24) << li.name << std::setw(14) << rate.str()
           << delay.str() << "\n";
    }
    os << std::right;
}

std::vector<Ptr<DcnQueueDisc>>
FailureHelper::DirQueues(uint32_t linkId, DcnLinkDir dir) const
{
    const DcnLinkInfo& l = m_fabric->GetLink(linkId);
    std::vector<Ptr<DcnQueueDisc>> q;
    if (dir != DcnLinkDir::DOWN)
    {
        q.push_back(m_fabric->GetQueueDisc(l.devA));
    }
    if (dir != DcnLinkDir::UP)
    {
        q.push_back(m_fabric->GetQueueDisc(l.devB));
    }
    return q;
}

void
FailureHelper::DegradeLink(uint32_t linkId,
                           DataRate rate,
                           DcnLinkDir dir,
                           Time start,
                           Time duration)
{
    NS_LOG_FUNCTION(this << linkId << rate << static_cast<int>(dir) << start << duration);
    CheckLink(linkId, "DegradeLink");
    CheckTimes(start, duration, "DegradeLink");
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0,
                    "FailureHelper::DegradeLink: rate=" << rate << "; allowed > 0");
    const bool scale = m_scaleQueue;
    ScheduleWindow(start, duration, [this, linkId, rate, dir, scale](bool open) {
        DegradeWindow(linkId, dir, rate, scale, open);
    });
}

void
FailureHelper::DegradeWindow(uint32_t linkId,
                             DcnLinkDir dir,
                             DataRate r,
                             bool scaleQueue,
                             bool open)
{
    NS_LOG_FUNCTION(this << linkId << static_cast<int>(dir) << r << scaleQueue << open);
    const DcnLinkInfo& l = m_fabric->GetLink(linkId);
    for (Ptr<NetDevice> d : {Ptr<NetDevice>(l.devA), Ptr<NetDevice>(l.devB)})
    {
        if ((d == l.devA && dir == DcnLinkDir::DOWN) || (d == l.devB && dir == DcnLinkDir::UP))
        {
            continue;
        }
        auto& w = m_degradeWindows[d];
        if (open)
        {
            w.push_back(r.GetBitRate());
        }
        else if (auto it = std::find(w.begin(), w.end(), r.GetBitRate()); it != w.end())
        {
            w.erase(it);
        }
        ApplyDegrade(linkId, d, scaleQueue);
    }
}

void
FailureHelper::ApplyDegrade(uint32_t linkId, Ptr<NetDevice> dev, bool scaleQueue)
{
    const DcnLinkInfo& l = m_fabric->GetLink(linkId);
    const auto& w = m_degradeWindows[dev];
    // the slowest active window, else the built rate
    const DataRate r = w.empty() ? l.rate : DataRate(*std::min_element(w.begin(), w.end()));
    DcnPortDevice::SetLinkRate(DynamicCast<PointToPointNetDevice>(dev), r);
    Ptr<DcnQueueDisc> q = scaleQueue ? m_fabric->GetQueueDisc(dev) : nullptr;
    if (q)
    {
        // Scale relative to the built rate (the queue's configured limit belongs to it);
        // floor: two of the largest frames the port sends (MTU and point-to-point header),
        // see DcnQueueDisc::SetRateScale.
        q->SetRateScale(static_cast<double>(r.GetBitRate()) / l.rate.GetBitRate(),
                        l.devA->GetMtu() + 2);
    }
}

void
FailureHelper::Blackhole(uint32_t linkId, DcnLinkDir dir, bool dataOnly, Time start, Time duration)
{
    NS_LOG_FUNCTION(this << linkId << static_cast<int>(dir) << dataOnly << start << duration);
    CheckLink(linkId, "Blackhole");
    CheckTimes(start, duration, "Blackhole");
    for (auto& q : DirQueues(linkId, dir))
    {
        NS_ABORT_MSG_IF(!q,
                        "FailureHelper::Blackhole: link=" << linkId
                                                          << " has no DcnQueueDisc at that end");
        m_bhQueues.push_back(q);
        Simulator::Schedule(start - Simulator::Now(),
                            &DcnQueueDisc::SetBlackhole,
                            q,
                            true,
                            dataOnly);
        if (duration.IsStrictlyPositive())
        {
            Simulator::Schedule(start + duration - Simulator::Now(),
                                &DcnQueueDisc::SetBlackhole,
                                q,
                                false,
                                dataOnly);
        }
    }
}

void
FailureHelper::BlackholeSwitch(Ptr<Node> sw, bool dataOnly, Time start, Time duration)
{
    NS_LOG_FUNCTION(this << sw << dataOnly << start << duration);
    CheckSwitch(sw, "BlackholeSwitch");
    CheckTimes(start, duration, "BlackholeSwitch");
    for (uint32_t l : m_fabric->GetLinksOfNode(sw))
    {
        Blackhole(l,
                  m_fabric->GetLink(l).a == sw ? DcnLinkDir::UP : DcnLinkDir::DOWN,
                  dataOnly,
                  start,
                  duration);
    }
}

uint64_t
FailureHelper::GetBlackholeDrops() const
{
    std::set<const DcnQueueDisc*> seen;
    uint64_t n = 0;
    for (const auto& q : m_bhQueues)
    {
        if (seen.insert(PeekPointer(q)).second)
        {
            n += q->GetNBlackholed();
        }
    }
    return n;
}

std::string
FailureHelper::AddFromSpec(const std::string& opt, const std::string& spec)
{
    NS_LOG_FUNCTION(this << opt << spec);
    if (!m_fabric)
    {
        return "option --" + opt + ": no topology to apply '" + spec + "' to";
    }
    auto p = dcnopt::ParseFailureSpec(opt,
                                      spec,
                                      m_fabric->GetLinks().size() - 1,
                                      {"silent", "down", "degrade", "drop", "blackhole"},
                                      true);
    if (!p)
    {
        return p.Error();
    }
    return Apply(opt, p.Value(), spec);
}

std::string
FailureHelper::Apply(const std::string& opt, const dcnopt::FailureSpec& f, const std::string& spec)
{
    NS_LOG_FUNCTION(this << opt << spec);
    const Time start = ToTime(f.start);
    if (start < Simulator::Now())
    {
        return dcnopt::Message(opt + " start", spec, "in the future", ">= now");
    }
    const Time duration = f.hasEnd ? ToTime(f.end) - start : Time(0);
    const DcnLinkDir dir = f.dir == "up"     ? DcnLinkDir::UP
                           : f.dir == "down" ? DcnLinkDir::DOWN
                                             : DcnLinkDir::BOTH;
    if (f.hasSwitch)
    {
        Ptr<Node> sw = FindSwitch(f.switchName);
        if (!sw)
        {
            return dcnopt::Message(opt + " switch",
                                   f.switchName,
                                   "a switch of " + m_fabric->GetTopologyName(),
                                   "an index in [0," + std::to_string(m_fabric->GetNSwitches()) +
                                       ") or a name such as '" + GetSwitchName(0) + "'");
        }
        if (f.kind == "silent")
        {
            FailSwitch(sw, start, duration);
        }
        else if (f.kind == "down")
        {
            FailSwitch(sw, start, duration, true, ToTime(f.withdraw));
        }
        else if (f.kind == "drop")
        {
            SetSwitchDropRate(sw, f.hasProb ? f.prob : 0.01, start, duration);
        }
        else
        {
            BlackholeSwitch(sw, f.dataOnly, start, duration);
        }
        return "";
    }
    uint32_t link = f.linkName.empty() ? static_cast<uint32_t>(f.link) : FindLinkId(f.linkName);
    if (link == DcnAddressing::NONE || link >= m_fabric->GetLinks().size())
    {
        return dcnopt::Message(opt + " link",
                               f.linkName.empty() ? std::to_string(f.link) : f.linkName,
                               "a link of " + m_fabric->GetTopologyName(),
                               "an id in [0," + std::to_string(m_fabric->GetLinks().size()) +
                                   ") or a name such as '" + m_fabric->GetLinks().back().name +
                                   "' (--PrintLinks lists them)");
    }
    if (f.kind == "silent")
    {
        FailLinkSilent(link, start, duration);
    }
    else if (f.kind == "down")
    {
        FailLink(link, start, ToTime(f.withdraw), duration);
    }
    else if (f.kind == "degrade")
    {
        // default: half the link's rate (the REPS artifact's 200G of 400G)
        const uint64_t built = m_fabric->GetLink(link).rate.GetBitRate();
        const uint64_t rate = f.hasRate ? f.rateBps : std::max<uint64_t>(built / 2, 1);
        if (rate > built)
        {
            std::ostringstream gbps;
            gbps << built / 1e9 << "Gbps";
            return dcnopt::Message(opt + " rate",
                                   spec,
                                   "a degradation of link " + m_fabric->GetLink(link).name +
                                       " (built at " + gbps.str() + ")",
                                   "a rate of at most " + gbps.str());
        }
        DegradeLink(link, DataRate(rate), dir, start, duration);
    }
    else if (f.kind == "drop")
    {
        SetLinkDropRate(link, f.hasProb ? f.prob : 0.01, start, duration);
    }
    else
    {
        Blackhole(link, dir, f.dataOnly, start, duration);
    }
    return "";
}

} // namespace ns3
