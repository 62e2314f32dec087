#include "workload-plan.h"

#include "ns3/abort.h"
#include "ns3/dcn-options.h"
#include "ns3/log.h"

#include <algorithm>
#include <queue>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnWorkloadPlan");

const std::vector<std::string>&
WorkloadPlanner::Names()
{
    static const std::vector<std::string> names =
        {"permutation", "tornado", "incast", "alltoall", "ring", "butterfly", "allscatter", "cdf"};
    return names;
}

bool
WorkloadPlanner::Has(const std::string& name)
{
    const auto& n = Names();
    return std::find(n.begin(), n.end(), name) != n.end();
}

static void
CheckHosts(uint32_t n, const char* what)
{
    DCN_REFUSE_IF(n < 2, "Workload " << what << ": number of hosts is " << n << "; allowed: >= 2");
}

static void
CheckBytes(uint64_t bytes, const char* what)
{
    DCN_REFUSE_IF(bytes == 0,
                  "Workload " << what << ": message size msgSize = 0 bytes; allowed: >= 1");
}

std::vector<uint32_t>
WorkloadPlanner::Derangement(uint32_t n, Ptr<UniformRandomVariable> rng)
{
    CheckHosts(n, "permutation");
    std::vector<uint32_t> p(n);
    // Expected e ~ 2.72 tries; the cap only guards against a broken stream.
    for (uint32_t attempt = 0; attempt < 100000; ++attempt)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            p[i] = i;
        }
        for (uint32_t i = n - 1; i > 0; --i)
        {
            uint32_t j = rng->GetInteger(0, i);
            std::swap(p[i], p[j]);
        }
        bool ok = true;
        for (uint32_t i = 0; i < n && ok; ++i)
        {
            ok = p[i] != i;
        }
        if (ok)
        {
            return p;
        }
    }
    NS_ABORT_MSG("Derangement: random stream produced no derangement of " << n << " hosts");
    return p;
}

WorkloadPlan
WorkloadPlanner::Permutation(uint32_t n, uint64_t msgBytes, Ptr<UniformRandomVariable> rng)
{
    NS_LOG_FUNCTION(n << msgBytes);
    CheckBytes(msgBytes, "permutation");
    WorkloadPlan plan;
    plan.name = "permutation";
    plan.nHosts = n;
    auto p = Derangement(n, rng);
    for (uint32_t i = 0; i < n; ++i)
    {
        WorkloadMessage m;
        m.src = i;
        m.dst = p[i];
        m.bytes = msgBytes;
        plan.messages.push_back(m);
    }
    return plan;
}

WorkloadPlan
WorkloadPlanner::Tornado(uint32_t n, uint64_t msgBytes)
{
    NS_LOG_FUNCTION(n << msgBytes);
    CheckHosts(n, "tornado");
    CheckBytes(msgBytes, "tornado");
    WorkloadPlan plan;
    plan.name = "tornado";
    plan.nHosts = n;
    for (uint32_t i = 0; i < n; ++i)
    {
        WorkloadMessage m;
        m.src = i;
        m.dst = (i + n / 2) % n;
        m.bytes = msgBytes;
        plan.messages.push_back(m);
    }
    return plan;
}

WorkloadPlan
WorkloadPlanner::Incast(uint32_t n,
                        uint32_t degree,
                        uint32_t receiver,
                        uint64_t msgBytes,
                        uint32_t bystanders,
                        uint64_t bystanderBytes)
{
    NS_LOG_FUNCTION(n << degree);
    CheckHosts(n, "incast");
    CheckBytes(msgBytes, "incast");
    DCN_REFUSE_IF(degree < 1 || degree > n - 1,
                  "Workload incast: degree " << degree << " of " << n << " hosts; allowed: [1, "
                                             << n - 1 << "]");
    DCN_REFUSE_IF(receiver >= n,
                  "Workload incast: receiver " << receiver << "; allowed: [0, " << n - 1 << "]");
    WorkloadPlan plan;
    plan.name = "incast";
    plan.nHosts = n;
    std::vector<bool> used(n, false);
    used[receiver] = true;
    for (uint32_t k = 1; k <= degree; ++k)
    {
        WorkloadMessage m;
        m.src = (receiver + k) % n;
        m.dst = receiver;
        m.bytes = msgBytes;
        used[m.src] = true;
        plan.messages.push_back(m);
    }
    if (bystanders > 0)
    {
        std::vector<uint32_t> rest;
        for (uint32_t i = 0; i < n; ++i)
        {
            if (!used[i])
            {
                rest.push_back(i);
            }
        }
        DCN_REFUSE_IF(rest.size() < 2 || bystanders > rest.size(),
                      "Workload incast: bystanders "
                          << bystanders << " with " << rest.size()
                          << " hosts outside the incast; allowed: [0, " << rest.size()
                          << "] bystanders and at least 2 hosts outside the incast");
        CheckBytes(bystanderBytes, "incast bystander");
        uint32_t r = rest.size();
        for (uint32_t k = 0; k < bystanders; ++k)
        {
            WorkloadMessage m;
            m.src = rest[k];
            m.dst = rest[(k + r / 2) % r];
            m.bytes = bystanderBytes;
            plan.messages.push_back(m);
        }
    }
    return plan;
}

WorkloadPlan
WorkloadPlanner::AllToAll(uint32_t n, uint64_t msgBytes, uint32_t parallel)
{
    NS_LOG_FUNCTION(n << msgBytes << parallel);
    CheckHosts(n, "alltoall");
    CheckBytes(msgBytes, "alltoall");
    DCN_REFUSE_IF(parallel < 1,
                  "Workload alltoall: parallel connections " << parallel << "; allowed: >= 1");
    WorkloadPlan plan;
    plan.name = "alltoall";
    plan.nHosts = n;
    plan.maxParallelPerSrc = parallel;
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t k = 1; k < n; ++k)
        {
            WorkloadMessage m;
            m.src = i;
            m.dst = (i + k) % n;
            m.bytes = msgBytes;
            m.step = k - 1;
            plan.messages.push_back(m);
        }
    }
    return plan;
}

WorkloadPlan
WorkloadPlanner::RingAllreduce(uint32_t n, uint64_t msgBytes)
{
    NS_LOG_FUNCTION(n << msgBytes);
    CheckHosts(n, "ring");
    CheckBytes(msgBytes, "ring");
    WorkloadPlan plan;
    plan.name = "ring";
    plan.nHosts = n;
    uint64_t chunk = (msgBytes + n - 1) / n;
    uint32_t steps = 2 * (n - 1);
    for (uint32_t s = 0; s < steps; ++s)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            WorkloadMessage m;
            m.src = i;
            m.dst = (i + 1) % n;
            m.bytes = chunk;
            m.step = s;
            if (s > 0)
            {
                m.deps.push_back((s - 1) * n + i);               // own previous send
                m.deps.push_back((s - 1) * n + (i + n - 1) % n); // chunk received from predecessor
            }
            plan.messages.push_back(m);
        }
    }
    return plan;
}

WorkloadPlan
WorkloadPlanner::ButterflyAllreduce(uint32_t n, uint64_t msgBytes)
{
    NS_LOG_FUNCTION(n << msgBytes);
    CheckHosts(n, "butterfly");
    CheckBytes(msgBytes, "butterfly");
    DCN_REFUSE_IF((n & (n - 1)) != 0,
                  "Workload butterfly: number of hosts " << n << "; allowed: a power of two");
    uint32_t levels = 0;
    while ((1u << levels) < n)
    {
        ++levels;
    }
    WorkloadPlan plan;
    plan.name = "butterfly";
    plan.nHosts = n;
    auto levelOf = [levels](uint32_t s) { return s < levels ? s : 2 * levels - 1 - s; };
    for (uint32_t s = 0; s < 2 * levels; ++s)
    {
        uint32_t k = levelOf(s);
        uint64_t div = uint64_t(1) << (k + 1);
        uint64_t bytes = std::max<uint64_t>(1, (msgBytes + div - 1) / div);
        for (uint32_t i = 0; i < n; ++i)
        {
            WorkloadMessage m;
            m.src = i;
            m.dst = i ^ (1u << k);
            m.bytes = bytes;
            m.step = s;
            if (s > 0)
            {
                uint32_t prevPartner = i ^ (1u << levelOf(s - 1));
                m.deps.push_back((s - 1) * n + i);
                m.deps.push_back((s - 1) * n + prevPartner);
            }
            plan.messages.push_back(m);
        }
    }
    return plan;
}

WorkloadPlan
WorkloadPlanner::AllScatter(uint32_t n, uint64_t msgBytes)
{
    NS_LOG_FUNCTION(n << msgBytes);
    CheckHosts(n, "allscatter");
    CheckBytes(msgBytes, "allscatter");
    WorkloadPlan plan;
    plan.name = "allscatter";
    plan.nHosts = n;
    uint64_t chunk = std::max<uint64_t>(1, (msgBytes + n - 2) / (n - 1));
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t k = 1; k < n; ++k)
        {
            WorkloadMessage m;
            m.src = i;
            m.dst = (i + k) % n;
            m.bytes = chunk;
            plan.messages.push_back(m);
        }
    }
    return plan;
}

WorkloadPlan
WorkloadPlanner::Poisson(uint32_t n,
                         const FlowSizeCdf& cdf,
                         double load,
                         uint64_t hostRateBps,
                         Time duration,
                         uint32_t maxFlows,
                         Ptr<UniformRandomVariable> uniform,
                         Ptr<ExponentialRandomVariable> exponential,
                         uint32_t maxSendersPerReceiver,
                         double loadScale,
                         Ptr<UniformRandomVariable> redraw)
{
    NS_LOG_FUNCTION(n << maxSendersPerReceiver);
    CheckHosts(n, "cdf");
    DCN_REFUSE_IF(!(load > 0.0 && load <= 1.0),
                  "Workload cdf: load " << load << "; allowed: (0, 1]");
    DCN_REFUSE_IF(hostRateBps == 0, "Workload cdf: host link rate is 0 bps; allowed: > 0");
    DCN_REFUSE_IF(!(loadScale > 0.0 && loadScale <= 10.0),
                  "Workload cdf: load scale " << loadScale << "; allowed: (0, 10]");
    DCN_REFUSE_IF(duration <= Time(0) && maxFlows == 0,
                  "Workload cdf: duration " << duration.As(Time::US)
                                            << " and flow count 0; allowed: duration > 0 or "
                                               "flows > 0");
    DCN_REFUSE_IF(cdf.GetPoints().size() < 2,
                  "Workload cdf: no CDF loaded; allowed: a CDF of at least 2 points");
    WorkloadPlan plan;
    plan.name = "cdf";
    plan.nHosts = n;
    double meanGapS = cdf.Mean() * 8.0 / (load * loadScale * static_cast<double>(hostRateBps));
    using Entry = std::pair<double, uint32_t>; // next arrival time (s), host
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> next;
    for (uint32_t h = 0; h < n; ++h)
    {
        next.emplace(exponential->GetValue(meanGapS, 0), h);
    }
    double end = duration > Time(0) ? duration.GetSeconds() : 0.0;
    // the receiver cap: per receiver, (line-rate end time, sender) of its active flows
    NS_ABORT_MSG_IF(maxSendersPerReceiver > 0 && !redraw,
                    "WorkloadPlanner::Poisson: a receiver cap needs its own redraw stream");
    std::vector<std::vector<std::pair<double, uint32_t>>> active(maxSendersPerReceiver > 0 ? n : 0);
    // distinct senders other than `from` with a flow active at receiver r at time `now`
    auto busy = [&active](uint32_t r, uint32_t from, double now) {
        auto& a = active[r];
        a.erase(
            std::remove_if(a.begin(),
                           a.end(),
                           [now](const std::pair<double, uint32_t>& e) { return e.first <= now; }),
            a.end());
        uint32_t senders = 0;
        for (size_t i = 0; i < a.size(); ++i)
        {
            bool first = a[i].second != from;
            for (size_t j = 0; first && j < i; ++j)
            {
                first = a[j].second != a[i].second;
            }
            senders += first ? 1 : 0;
        }
        return senders;
    };
    while (!next.empty())
    {
        auto [t, h] = next.top();
        next.pop();
        if (end > 0 && t >= end)
        {
            break; // all other hosts' next arrivals are later still
        }
        if (maxFlows > 0 && plan.messages.size() >= maxFlows)
        {
            break;
        }
        WorkloadMessage m;
        m.src = h;
        uint32_t d = uniform->GetInteger(0, n - 2);
        m.dst = d >= h ? d + 1 : d;
        m.bytes = cdf.Sample(uniform);
        m.release = Seconds(t);
        if (maxSendersPerReceiver > 0)
        {
            uint32_t least = m.dst;
            uint32_t leastBusy = busy(m.dst, h, t);
            for (uint32_t tries = 0; leastBusy >= maxSendersPerReceiver && tries < 4 * n; ++tries)
            {
                const uint32_t x = redraw->GetInteger(0, n - 2);
                const uint32_t r = x >= h ? x + 1 : x;
                const uint32_t b = busy(r, h, t);
                if (b < leastBusy)
                {
                    least = r;
                    leastBusy = b;
                }
            }
            plan.overCap += leastBusy >= maxSendersPerReceiver ? 1 : 0;
            m.dst = least;
            active[least].emplace_back(t + static_cast<double>(m.bytes) * 8.0 /
                                               static_cast<double>(hostRateBps),
                                       h);
        }
        plan.messages.push_back(m);
        next.emplace(t + exponential->GetValue(meanGapS, 0), h);
    }
    return plan;
}

// ---------------------------------------------------------------- scheduler

WorkloadScheduler::WorkloadScheduler(const WorkloadPlan* plan)
    : m_plan(plan)
{
    uint32_t nMsg = plan->messages.size();
    uint32_t nHosts = plan->nHosts;
    for (const auto& m : plan->messages)
    {
        nHosts = std::max(nHosts, std::max(m.src, m.dst) + 1);
    }
    m_pendingDeps.assign(nMsg, 0);
    m_dependents.assign(nMsg, {});
    m_ready.assign(nHosts, {});
    m_active.assign(nHosts, 0);
    m_state.assign(nMsg, 0);
    for (uint32_t id = 0; id < nMsg; ++id)
    {
        for (uint32_t d : plan->messages[id].deps)
        {
            DCN_REFUSE_IF(d >= nMsg || d == id,
                          "Workload plan: message " << id << " depends on message " << d
                                                    << "; allowed: another message of the plan, "
                                                       "[0, "
                                                    << nMsg << ")");
            m_pendingDeps[id]++;
            m_dependents[d].push_back(id);
        }
    }
}

uint32_t
WorkloadScheduler::GetActive(uint32_t src) const
{
    return m_active.at(src);
}

void
WorkloadScheduler::TryStart(uint32_t src, std::vector<uint32_t>& out)
{
    uint32_t limit = m_plan->maxParallelPerSrc;
    auto& q = m_ready[src];
    while (!q.empty() && (limit == 0 || m_active[src] < limit))
    {
        uint32_t id = *q.begin();
        q.erase(q.begin());
        m_state[id] = 2;
        m_active[src]++;
        out.push_back(id);
    }
}

std::vector<uint32_t>
WorkloadScheduler::Start()
{
    std::vector<uint32_t> out;
    for (uint32_t id = 0; id < m_plan->messages.size(); ++id)
    {
        if (m_pendingDeps[id] == 0 && m_state[id] == 0)
        {
            m_state[id] = 1;
            m_ready[m_plan->messages[id].src].insert(id);
        }
    }
    for (uint32_t src = 0; src < m_ready.size(); ++src)
    {
        TryStart(src, out);
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<uint32_t>
WorkloadScheduler::OnComplete(uint32_t id)
{
    NS_ABORT_MSG_IF(id >= m_state.size() || m_state[id] != 2,
                    "WorkloadScheduler: completion of message " << id << " that is not active");
    m_state[id] = 3;
    m_completed++;
    uint32_t src = m_plan->messages[id].src;
    m_active[src]--;
    std::vector<uint32_t> out;
    std::vector<uint32_t> touched{src};
    for (uint32_t d : m_dependents[id])
    {
        if (--m_pendingDeps[d] == 0)
        {
            m_state[d] = 1;
            uint32_t s = m_plan->messages[d].src;
            m_ready[s].insert(d);
            touched.push_back(s);
        }
    }
    for (uint32_t s : touched)
    {
        TryStart(s, out);
    }
    return out;
}

} // namespace ns3
