/*
 * TestSuite "dcn-lb-workload": workload generators (pure logic, fixed seeds).
 */
#include "ns3/cc-registry.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-options.h"
#include "ns3/flow-size-cdf.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/test.h"
#include "ns3/workload-plan.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

using namespace ns3;

namespace
{

Ptr<UniformRandomVariable>
MakeUniform(int64_t stream)
{
    auto u = CreateObject<UniformRandomVariable>();
    u->SetStream(stream);
    return u;
}

/** Runs a plan to completion with fixed per-message durations (a fake
 *  network), recording start/finish times and the max parallelism per host. */
struct FakeRun
{
    std::vector<double> start;
    std::vector<double> finish;
    std::vector<uint32_t> maxActive;
    uint32_t completed{0};

    FakeRun(const WorkloadPlan& plan, std::function<double(uint32_t)> duration)
    {
        uint32_t n = plan.messages.size();
        start.assign(n, -1);
        finish.assign(n, -1);
        maxActive.assign(plan.nHosts, 0);
        std::vector<uint32_t> active(plan.nHosts, 0);
        WorkloadScheduler sched(&plan);
        using Ev = std::pair<double, uint32_t>; // finish time, id
        std::set<Ev> events;
        auto launch = [&](const std::vector<uint32_t>& ids, double now) {
            for (uint32_t id : ids)
            {
                double t = std::max(now, plan.messages[id].release.GetSeconds());
                start[id] = t;
                uint32_t s = plan.messages[id].src;
                active[s]++;
                maxActive[s] = std::max(maxActive[s], active[s]);
                events.insert({t + duration(id), id});
            }
        };
        launch(sched.Start(), 0.0);
        while (!events.empty())
        {
            auto [t, id] = *events.begin();
            events.erase(events.begin());
            finish[id] = t;
            active[plan.messages[id].src]--;
            completed++;
            launch(sched.OnComplete(id), t);
        }
    }
};

class PermutationTestCase : public TestCase
{
  public:
    PermutationTestCase()
        : TestCase("permutation is a derangement and a bijection; same stream -> same pairs")
    {
    }

    void DoRun() override
    {
        for (uint32_t n : {2u, 3u, 7u, 32u, 128u})
        {
            for (int64_t stream = 0; stream < 20; ++stream)
            {
                auto plan = WorkloadPlanner::Permutation(n, 1000, MakeUniform(stream));
                NS_TEST_ASSERT_MSG_EQ(plan.messages.size(), n, "one message per host");
                std::set<uint32_t> srcs;
                std::set<uint32_t> dsts;
                for (const auto& m : plan.messages)
                {
                    NS_TEST_ASSERT_MSG_NE(m.src, m.dst, "no host sends to itself");
                    NS_TEST_ASSERT_MSG_LT(m.dst, n, "destination in range");
                    NS_TEST_ASSERT_MSG_EQ(m.bytes, 1000, "size");
                    srcs.insert(m.src);
                    dsts.insert(m.dst);
                }
                NS_TEST_ASSERT_MSG_EQ(srcs.size(), n, "every host sends once");
                NS_TEST_ASSERT_MSG_EQ(dsts.size(), n, "every host receives once");
            }
        }
        auto a = WorkloadPlanner::Derangement(64, MakeUniform(5));
        auto b = WorkloadPlanner::Derangement(64, MakeUniform(5));
        auto c = WorkloadPlanner::Derangement(64, MakeUniform(6));
        NS_TEST_ASSERT_MSG_EQ((a == b), true, "same stream gives the same permutation");
        NS_TEST_ASSERT_MSG_EQ((a == c), false, "another stream gives another permutation");
        // Uniformity over the 2 derangements of 3 hosts: both appear often.
        std::map<std::vector<uint32_t>, int> seen;
        auto u = MakeUniform(9);
        for (int i = 0; i < 2000; ++i)
        {
            seen[WorkloadPlanner::Derangement(3, u)]++;
        }
        NS_TEST_ASSERT_MSG_EQ(seen.size(), 2, "3 hosts have exactly 2 derangements");
        for (const auto& kv : seen)
        {
            NS_TEST_ASSERT_MSG_GT(kv.second, 850, "derangements drawn roughly uniformly");
        }
    }
};

class TornadoIncastTestCase : public TestCase
{
  public:
    TornadoIncastTestCase()
        : TestCase("tornado mapping i to i+N div 2, incast degree and bystanders")
    {
    }

    void DoRun() override
    {
        auto t = WorkloadPlanner::Tornado(8, 77);
        NS_TEST_ASSERT_MSG_EQ(t.messages.size(), 8, "8 flows");
        const uint32_t expect[8] = {4, 5, 6, 7, 0, 1, 2, 3};
        for (uint32_t i = 0; i < 8; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(t.messages[i].src, i, "src");
            NS_TEST_ASSERT_MSG_EQ(t.messages[i].dst, expect[i], "tornado destination");
        }
        auto t5 = WorkloadPlanner::Tornado(5, 1);
        NS_TEST_ASSERT_MSG_EQ(t5.messages[4].dst, 1, "odd N: (4 + 2) mod 5");

        auto inc = WorkloadPlanner::Incast(16, 8, 3, 1000, 4, 500);
        uint32_t toRecv = 0;
        std::set<uint32_t> senders;
        for (const auto& m : inc.messages)
        {
            if (m.dst == 3 && m.bytes == 1000)
            {
                toRecv++;
                senders.insert(m.src);
            }
        }
        NS_TEST_ASSERT_MSG_EQ(toRecv, 8, "incast degree 8");
        NS_TEST_ASSERT_MSG_EQ(senders.size(), 8, "8 distinct senders");
        NS_TEST_ASSERT_MSG_EQ(senders.count(3), 0, "receiver does not send to itself");
        NS_TEST_ASSERT_MSG_EQ(inc.messages.size(), 12, "8 incast + 4 bystander flows");
        for (size_t k = 8; k < inc.messages.size(); ++k)
        {
            const auto& m = inc.messages[k];
            NS_TEST_ASSERT_MSG_EQ(m.bytes, 500, "bystander size");
            NS_TEST_ASSERT_MSG_NE(m.src, m.dst, "bystander not to itself");
            NS_TEST_ASSERT_MSG_EQ(
                (m.src == 3 || m.dst == 3 || senders.count(m.src) || senders.count(m.dst)),
                false,
                "bystanders avoid the incast hosts");
        }
    }
};

class AllToAllTestCase : public TestCase
{
  public:
    AllToAllTestCase()
        : TestCase("all-to-all covers all ordered pairs with at most n parallel per host")
    {
    }

    void DoRun() override
    {
        const uint32_t n = 9;
        for (uint32_t par : {1u, 2u, 4u, 16u})
        {
            auto plan = WorkloadPlanner::AllToAll(n, 100, par);
            NS_TEST_ASSERT_MSG_EQ(plan.messages.size(), n * (n - 1), "N(N-1) messages");
            std::set<std::pair<uint32_t, uint32_t>> pairs;
            for (const auto& m : plan.messages)
            {
                NS_TEST_ASSERT_MSG_NE(m.src, m.dst, "no self pair");
                pairs.insert({m.src, m.dst});
            }
            NS_TEST_ASSERT_MSG_EQ(pairs.size(), n * (n - 1), "every ordered pair once");
            // Uneven durations so that completions interleave.
            FakeRun run(plan, [&](uint32_t id) { return 1.0 + (id * 7919 % 13) * 0.1; });
            NS_TEST_ASSERT_MSG_EQ(run.completed, n * (n - 1), "all complete");
            for (uint32_t h = 0; h < n; ++h)
            {
                NS_TEST_ASSERT_MSG_EQ(run.maxActive[h],
                                      std::min(par, n - 1),
                                      "parallelism reaches but never exceeds the limit");
            }
        }
        // With parallel = 1, host 0's messages are strictly sequential.
        auto seq = WorkloadPlanner::AllToAll(4, 100, 1);
        FakeRun run(seq, [](uint32_t) { return 1.0; });
        for (uint32_t k = 1; k < 3; ++k)
        {
            NS_TEST_ASSERT_MSG_EQ_TOL(run.start[k],
                                      run.finish[k - 1],
                                      1e-12,
                                      "next starts on completion");
        }
    }
};

class CollectiveDependencyTestCase : public TestCase
{
  public:
    CollectiveDependencyTestCase()
        : TestCase("ring and butterfly allreduce: pairs, sizes and step dependencies")
    {
    }

    void CheckDeps(const WorkloadPlan& plan, const FakeRun& run)
    {
        for (uint32_t id = 0; id < plan.messages.size(); ++id)
        {
            for (uint32_t d : plan.messages[id].deps)
            {
                NS_TEST_ASSERT_MSG_GT_OR_EQ(run.start[id],
                                            run.finish[d],
                                            "a step starts only after its dependencies complete");
            }
        }
    }

    void DoRun() override
    {
        const uint32_t n = 8;
        auto ring = WorkloadPlanner::RingAllreduce(n, 8000);
        NS_TEST_ASSERT_MSG_EQ(ring.messages.size(), 2 * (n - 1) * n, "2(N-1) steps of N messages");
        for (uint32_t id = 0; id < ring.messages.size(); ++id)
        {
            const auto& m = ring.messages[id];
            NS_TEST_ASSERT_MSG_EQ(m.dst, (m.src + 1) % n, "ring neighbour");
            NS_TEST_ASSERT_MSG_EQ(m.bytes, 1000, "chunk = msgSize / N");
            if (m.step > 0)
            {
                NS_TEST_ASSERT_MSG_EQ(m.deps.size(), 2, "own previous step + received chunk");
                const auto& own = ring.messages[m.deps[0]];
                const auto& recv = ring.messages[m.deps[1]];
                NS_TEST_ASSERT_MSG_EQ(own.src, m.src, "own previous send");
                NS_TEST_ASSERT_MSG_EQ(own.step + 1, m.step, "previous step");
                NS_TEST_ASSERT_MSG_EQ(recv.dst, m.src, "the chunk this host received");
                NS_TEST_ASSERT_MSG_EQ(recv.step + 1, m.step, "previous step");
            }
            else
            {
                NS_TEST_ASSERT_MSG_EQ(m.deps.size(), 0, "step 0 starts at once");
            }
        }
        // Host 3 is slow to receive at step 0: host 4's step 1 waits for it.
        FakeRun r(ring, [&](uint32_t id) { return id == 3 ? 10.0 : 1.0; });
        CheckDeps(ring, r);
        NS_TEST_ASSERT_MSG_EQ_TOL(r.start[1 * n + 4], 10.0, 1e-12, "waits for the received chunk");
        NS_TEST_ASSERT_MSG_EQ_TOL(r.start[1 * n + 1], 1.0, 1e-12, "others proceed");
        NS_TEST_ASSERT_MSG_EQ(r.completed, ring.messages.size(), "ring completes");

        auto bf = WorkloadPlanner::ButterflyAllreduce(n, 8000);
        NS_TEST_ASSERT_MSG_EQ(bf.messages.size(), 2 * 3 * n, "2 log2(N) steps of N messages");
        const uint64_t sizes[6] = {4000, 2000, 1000, 1000, 2000, 4000};
        const uint32_t dist[6] = {1, 2, 4, 4, 2, 1};
        for (const auto& m : bf.messages)
        {
            NS_TEST_ASSERT_MSG_EQ(m.dst, (m.src ^ dist[m.step]), "butterfly partner");
            NS_TEST_ASSERT_MSG_EQ(m.bytes, sizes[m.step], "halving / doubling sizes");
            if (m.step > 0)
            {
                const auto& recv = bf.messages[m.deps[1]];
                NS_TEST_ASSERT_MSG_EQ(recv.dst, m.src, "depends on what this host received");
                NS_TEST_ASSERT_MSG_EQ(recv.src,
                                      (m.src ^ dist[m.step - 1]),
                                      "from the previous partner");
            }
        }
        FakeRun rb(bf, [&](uint32_t id) { return 1.0 + (id % 5); });
        CheckDeps(bf, rb);
        NS_TEST_ASSERT_MSG_EQ(rb.completed, bf.messages.size(), "butterfly completes");

        auto as = WorkloadPlanner::AllScatter(5, 1000);
        NS_TEST_ASSERT_MSG_EQ(as.messages.size(), 20, "N(N-1) chunks");
        NS_TEST_ASSERT_MSG_EQ(as.messages[0].bytes, 250, "msgSize / (N-1)");
        NS_TEST_ASSERT_MSG_EQ(as.maxParallelPerSrc, 0, "all at once");
    }
};

class CdfTestCase : public TestCase
{
  public:
    CdfTestCase()
        : TestCase(
              "CDF parsing: shipped files accepted, bad files rejected with file:line; sampling")
    {
    }

    void DoRun() override
    {
        auto names = FlowSizeCdf::BuiltinNames();
        NS_TEST_ASSERT_MSG_GT_OR_EQ(names.size(), 5, "five shipped CDFs");
        for (const auto& n : names)
        {
            FlowSizeCdf c;
            std::string err = FlowSizeCdf::TryLoad(n, &c);
            NS_TEST_ASSERT_MSG_EQ(err, "", "shipped CDF " << n << " parses");
        }
        FlowSizeCdf ws = FlowSizeCdf::Load("websearch");
        // data/workloads/README.md: mean 1,711,250 bytes under linear interpolation.
        NS_TEST_ASSERT_MSG_EQ_TOL(ws.Mean(), 1711250.0, 1.0, "websearch mean");
        NS_TEST_ASSERT_MSG_EQ_TOL(ws.Quantile(15), 10000.0, 1e-9, "point");
        NS_TEST_ASSERT_MSG_EQ_TOL(ws.Quantile(17.5), 15000.0, 1e-9, "interpolated");
        NS_TEST_ASSERT_MSG_EQ_TOL(ws.Quantile(100), 30e6, 1e-9, "top");
        FlowSizeCdf path;
        NS_TEST_ASSERT_MSG_EQ(
            FlowSizeCdf::TryLoad(FlowSizeCdf::DataDir() + "/workloads/hadoop.txt", &path),
            "",
            "a file path is accepted");

        FlowSizeCdf bad;
        std::string e1 = FlowSizeCdf::Parse("# c\n0 0\n100 50\n50 80\n200 100\n", "x.txt", &bad);
        NS_TEST_ASSERT_MSG_NE(e1.find("x.txt:4:"),
                              std::string::npos,
                              "names file and line: " << e1);
        NS_TEST_ASSERT_MSG_NE(e1.find("non-decreasing"), std::string::npos, "names the rule");
        std::string e2 = FlowSizeCdf::Parse("0 0\n100 60\n200 50\n", "y.txt", &bad);
        NS_TEST_ASSERT_MSG_NE(e2.find("y.txt:3:"), std::string::npos, e2);
        NS_TEST_ASSERT_MSG_NE(e2.find("monotone"), std::string::npos, e2);
        std::string e3 = FlowSizeCdf::Parse("0 0\n100 50\n200 99\n", "z.txt", &bad);
        NS_TEST_ASSERT_MSG_NE(e3.find("end at 100"), std::string::npos, e3);
        std::string e4 = FlowSizeCdf::Parse("0 0\nabc 50\n", "w.txt", &bad);
        NS_TEST_ASSERT_MSG_NE(e4.find("w.txt:2:"), std::string::npos, e4);
        std::string e5 = FlowSizeCdf::Parse("0 0\n100 120\n", "v.txt", &bad);
        NS_TEST_ASSERT_MSG_NE(e5.find("[0, 100]"), std::string::npos, e5);
        NS_TEST_ASSERT_MSG_NE(FlowSizeCdf::TryLoad("no-such-cdf", &bad).find("websearch"),
                              std::string::npos,
                              "unknown name lists the built-in names");

        // Sampling follows the CDF: the empirical median is close to Quantile(50).
        auto u = MakeUniform(3);
        std::vector<double> s;
        for (int i = 0; i < 20000; ++i)
        {
            s.push_back(ws.Sample(u));
        }
        std::sort(s.begin(), s.end());
        double med = s[s.size() / 2];
        NS_TEST_ASSERT_MSG_EQ_TOL(med / ws.Quantile(50), 1.0, 0.1, "median of samples");
    }
};

class PoissonLoadTestCase : public TestCase
{
  public:
    PoissonLoadTestCase()
        : TestCase("Poisson CDF traffic achieves the target load; receivers != sender")
    {
    }

    void DoRun() override
    {
        FlowSizeCdf ws = FlowSizeCdf::Load("websearch");
        const uint32_t n = 64;
        const uint64_t rate = 100000000000ULL; // 100 Gb/s
        for (double load : {0.4, 0.8})
        {
            auto u = MakeUniform(11);
            auto e = CreateObject<ExponentialRandomVariable>();
            e->SetStream(12);
            Time dur = MilliSeconds(200);
            auto plan = WorkloadPlanner::Poisson(n, ws, load, rate, dur, 0, u, e);
            double bits = 0;
            std::vector<uint32_t> perHost(n, 0);
            Time last(0);
            for (const auto& m : plan.messages)
            {
                NS_TEST_ASSERT_MSG_NE(m.src, m.dst, "receiver differs from sender");
                NS_TEST_ASSERT_MSG_LT(m.dst, n, "receiver in range");
                NS_TEST_ASSERT_MSG_LT(m.release, dur, "within duration");
                NS_TEST_ASSERT_MSG_GT_OR_EQ(m.release, last, "sorted by release time");
                last = m.release;
                bits += m.bytes * 8.0;
                perHost[m.src]++;
            }
            double achieved = bits / (n * double(rate) * dur.GetSeconds());
            NS_TEST_ASSERT_MSG_GT(plan.messages.size(), 30000, "many flows");
            NS_TEST_ASSERT_MSG_EQ_TOL(achieved / load, 1.0, 0.03, "offered load within 3%");
            for (uint32_t h = 0; h < n; ++h)
            {
                NS_TEST_ASSERT_MSG_GT(perHost[h], 0, "every host sends");
            }
        }
        auto u = MakeUniform(1);
        auto e = CreateObject<ExponentialRandomVariable>();
        e->SetStream(2);
        auto capped = WorkloadPlanner::Poisson(8, ws, 0.5, rate, Time(0), 123, u, e);
        NS_TEST_ASSERT_MSG_EQ(capped.messages.size(), 123, "flow-count limit");
    }
};

/** The receiver cap (Spritz Sec. V-A.c): with it no receiver ever has more than k distinct
 *  senders active (release to release + size x 8 / rate); without it some has, at load 1.0;
 *  the capped plan keeps every sender, size and start (redraws on their own stream); a cap
 *  that never binds draws exactly the uncapped plan. */
class PoissonReceiverCapTestCase : public TestCase
{
  public:
    PoissonReceiverCapTestCase()
        : TestCase("Poisson receiver cap: at most k simultaneous senders per receiver")
    {
    }

  private:
    static WorkloadPlan Plan(uint32_t cap)
    {
        auto u = MakeUniform(21);
        auto e = CreateObject<ExponentialRandomVariable>();
        e->SetStream(22);
        return WorkloadPlanner::Poisson(16,
                                        FlowSizeCdf::Load("websearch"),
                                        1.0,
                                        kRate,
                                        MilliSeconds(2),
                                        0,
                                        u,
                                        e,
                                        cap,
                                        1.0,
                                        MakeUniform(23));
    }

    /** The most distinct senders with a flow active at one receiver, at any release (the
     *  plan's definition: active from release for size x 8 / rate). */
    static uint32_t MostSenders(const WorkloadPlan& p)
    {
        uint32_t most = 0;
        for (size_t i = 0; i < p.messages.size(); ++i)
        {
            const WorkloadMessage& m = p.messages[i];
            const double t = m.release.GetSeconds();
            std::set<uint32_t> senders;
            for (size_t j = 0; j <= i; ++j)
            {
                const WorkloadMessage& o = p.messages[j];
                const double end = o.release.GetSeconds() + o.bytes * 8.0 / double(kRate);
                if (o.dst == m.dst && end > t)
                {
                    senders.insert(o.src);
                }
            }
            most = std::max(most, static_cast<uint32_t>(senders.size()));
        }
        return most;
    }

    void DoRun() override
    {
        const WorkloadPlan free = Plan(0);
        const WorkloadPlan capped = Plan(2);
        NS_TEST_ASSERT_MSG_GT(free.messages.size(), 100u, "enough flows");
        NS_TEST_EXPECT_MSG_GT(MostSenders(free), 2u, "uncapped: some receiver has more than 2");
        NS_TEST_EXPECT_MSG_EQ(capped.overCap, 0u, "every flow found a receiver below the cap");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(MostSenders(capped), 2u, "capped at 2 senders");
        NS_TEST_ASSERT_MSG_EQ(capped.messages.size(), free.messages.size(), "same arrivals");
        uint32_t moved = 0;
        for (size_t i = 0; i < free.messages.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(capped.messages[i].src, free.messages[i].src, "same senders");
            NS_TEST_ASSERT_MSG_EQ(capped.messages[i].bytes, free.messages[i].bytes, "same sizes");
            NS_TEST_ASSERT_MSG_EQ(capped.messages[i].release,
                                  free.messages[i].release,
                                  "same starts");
            NS_TEST_ASSERT_MSG_NE(capped.messages[i].dst, capped.messages[i].src, "not itself");
            moved += capped.messages[i].dst != free.messages[i].dst ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_GT(moved, 0u, "the cap moved some receivers");
        const WorkloadPlan loose = Plan(100000);
        bool same = loose.messages.size() == free.messages.size();
        for (size_t i = 0; same && i < free.messages.size(); ++i)
        {
            same = loose.messages[i].dst == free.messages[i].dst &&
                   loose.messages[i].bytes == free.messages[i].bytes &&
                   loose.messages[i].release == free.messages[i].release;
        }
        NS_TEST_EXPECT_MSG_EQ(same, true, "a cap that never binds draws the uncapped plan");
    }

    static constexpr uint64_t kRate = 100000000000ULL; // 100 Gb/s
};

/** A congestion control that only exists in this test, found by the registry. */
class TestOnlyCc : public CongestionControl
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::DcnWorkloadTestOnlyCc")
                                .SetParent<CongestionControl>()
                                .SetGroupName("DcnLb")
                                .AddConstructor<TestOnlyCc>();
        return tid;
    }

    void OnAck(const CcAckSample&) override
    {
    }

    void OnNack() override
    {
    }

    void OnTimeout() override
    {
    }

    std::string Name() const override
    {
        return "test-only-cc";
    }
};

NS_OBJECT_ENSURE_REGISTERED(TestOnlyCc);

class CcRegistryTestCase : public TestCase
{
  public:
    CcRegistryTestCase()
        : TestCase("congestion control registry finds subclasses by short and TypeId name")
    {
    }

    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(CongestionControlRegistry::Has("test-only-cc"), true, "short name");
        NS_TEST_ASSERT_MSG_EQ(CongestionControlRegistry::Has("ns3::DcnWorkloadTestOnlyCc"),
                              true,
                              "TypeId name");
        NS_TEST_ASSERT_MSG_EQ(CongestionControlRegistry::Has("no-such-cc"), false, "unknown");
        Ptr<CongestionControl> cc = CongestionControlRegistry::Create("test-only-cc");
        NS_TEST_ASSERT_MSG_EQ(cc->Name(), "test-only-cc", "created the right class");
        NS_TEST_ASSERT_MSG_NE(CongestionControlRegistry::NamesString().find("test-only-cc"),
                              std::string::npos,
                              "listed");
    }
};

/**
 * Impossible generator parameters throw DcnOptionError with one line (they used to
 * abort with a source path): any caller can end with the examples' one-line refusal.
 */
class PlannerRefusalTestCase : public TestCase
{
  public:
    PlannerRefusalTestCase()
        : TestCase("planner refuses impossible parameters with DcnOptionError, one line")
    {
    }

  private:
    void Refused(const std::function<void()>& f, const std::string& needle)
    {
        std::string what;
        try
        {
            f();
        }
        catch (const DcnOptionError& e)
        {
            what = e.what();
        }
        NS_TEST_EXPECT_MSG_NE(what.find(needle), std::string::npos, needle << " -> " << what);
        NS_TEST_EXPECT_MSG_EQ(what.find('\n'), std::string::npos, "one line: " << what);
    }

    void DoRun() override
    {
        Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
        u->SetStream(7);
        Refused([&] { WorkloadPlanner::Permutation(1, 100, u); }, "number of hosts is 1");
        Refused([&] { WorkloadPlanner::Permutation(4, 0, u); }, "0 bytes");
        Refused([&] { WorkloadPlanner::Incast(4, 8, 0, 100, 0, 0); }, "degree 8 of 4 hosts");
        Refused([&] { WorkloadPlanner::Incast(4, 2, 9, 100, 0, 0); }, "receiver 9");
        Refused([&] { WorkloadPlanner::AllToAll(4, 100, 0); }, "parallel connections 0");
        Refused([&] { WorkloadPlanner::ButterflyAllreduce(6, 100); }, "a power of two");
        WorkloadPlan bad;
        bad.nHosts = 2;
        bad.messages.resize(1);
        bad.messages[0].dst = 1;
        bad.messages[0].deps = {3};
        Refused([&] { WorkloadScheduler s(&bad); }, "depends on message 3");
    }
};

class WorkloadTestSuite : public TestSuite
{
  public:
    WorkloadTestSuite()
        : TestSuite("dcn-lb-workload", DCNLB_TEST_UNIT)
    {
        AddTestCase(new PermutationTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new TornadoIncastTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new AllToAllTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new CollectiveDependencyTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new CdfTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new PoissonLoadTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new PoissonReceiverCapTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new CcRegistryTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new PlannerRefusalTestCase, DCNLB_TEST_QUICK);
    }
};

static WorkloadTestSuite g_workloadTestSuite;

} // namespace
