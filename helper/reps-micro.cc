#include "reps-micro.h"

#include "ns3/abort.h"
#include "ns3/random-variable-stream.h"
#include "ns3/reps-experiment.h"
#include "ns3/reps-profile.h"
#include "ns3/rng-seed-manager.h"

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <sys/stat.h>
#include <tuple>

namespace ns3
{

namespace
{
const std::vector<std::string> kScenarios{"permutation",
                                          "tornado",
                                          "degrade4",
                                          "degrade1",
                                          "blackhole"};

/** A permutation whose flows all leave their ToR (as in reps-paper's other experiments). */
WorkloadPlan
CrossPermutation(uint32_t n, uint32_t hpt, uint64_t bytes, uint32_t seed, uint32_t run)
{
    RngSeedManager::SetSeed(seed);
    RngSeedManager::SetRun(run);
    Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
    u->SetStream(17);
    for (uint32_t tries = 0;; ++tries)
    {
        WorkloadPlan p = WorkloadPlanner::Permutation(n, bytes, u);
        bool cross = true;
        for (const auto& m : p.messages)
        {
            cross = cross && (m.src / hpt != m.dst / hpt);
        }
        if (cross || tries > 1000)
        {
            return p;
        }
    }
}
} // namespace

std::string
CheckRepsMicroScenarios(const std::vector<std::string>& scenarios)
{
    for (const auto& s : scenarios)
    {
        if (std::find(kScenarios.begin(), kScenarios.end(), s) == kScenarios.end())
        {
            return "micro scenario '" + s +
                   "' is unknown; allowed permutation, tornado, degrade4, degrade1, blackhole";
        }
    }
    return "";
}

uint32_t
RunRepsMicro(const RepsMicroArgs& a, std::ostream& os, RepsMicroTotals* totals)
{
    const std::string err = CheckRepsMicroScenarios(a.scenarios);
    NS_ABORT_MSG_IF(!err.empty(), err);
    if (a.profile == "reps-artifact")
    {
        RepsArtifactProfile::Print(os);
    }
    for (size_t i = 1; i <= a.out.size(); ++i)
    {
        if (i == a.out.size() || a.out[i] == '/')
        {
            mkdir(a.out.substr(0, i).c_str(), 0755);
        }
    }
    const std::string path = a.out + "/micro.csv";
    std::ofstream csv(path);
    NS_ABORT_MSG_IF(!csv, "--out=" << a.out << ": cannot write " << path);
    csv << "scenario,lb,profile,seed,max_fct_us,mean_fct_us,completed,total,cong_drops,"
           "fail_drops,timeouts,freezes,wall_s\n";
    os << "\n== micro (REPS paper micro scenarios, " << a.tors * a.hostsPerTor << " hosts, profile "
       << (a.profile.empty() ? "default" : a.profile) << ", seed " << a.seed << ") ==\n"
       << std::left << std::setw(13) << "scenario" << std::setw(6) << "lb" << std::right
       << std::setw(11) << "maxFCTus" << std::setw(11) << "meanFCTus" << std::setw(9) << "done"
       << std::setw(9) << "cDrops" << std::setw(9) << "fDrops" << std::setw(7) << "RTOs"
       << std::setw(8) << "freeze" << std::setw(8) << "wall_s\n";
    uint32_t runs = 0;
    const uint32_t n = a.tors * a.hostsPerTor;
    for (const auto& sc : a.scenarios)
    {
        for (const auto& lb : a.lbs)
        {
            RepsExperimentConfig c;
            c.numTors = a.tors;
            c.hostsPerTor = a.hostsPerTor;
            c.uplinksPerTor = a.uplinks;
            c.lb = lb;
            c.evs = a.evs;
            c.profile = a.profile;
            c.seed = a.seed;
            c.run = a.run;
            c.stop = Time::FromDouble(a.stopMs, Time::MS);
            c.plan = sc == "tornado"
                         ? WorkloadPlanner::Tornado(n, a.msgBytes)
                         : CrossPermutation(n, a.hostsPerTor, a.msgBytes, a.seed, a.run);
            if (sc == "degrade4" || sc == "degrade1")
            {
                for (uint32_t u = 0; u < (sc == "degrade4" ? 4u : 1u); ++u)
                {
                    RepsFailure f;
                    f.kind = RepsFailure::DEGRADE;
                    f.dir = DcnLinkDir::UP;
                    f.tor = 0;
                    f.uplink = u;
                    f.rate = DataRate("200Gbps");
                    c.failures.push_back(f);
                }
            }
            else if (sc == "blackhole")
            {
                for (auto w : {std::make_tuple(1u, 100, 100), std::make_tuple(3u, 350, 250)})
                {
                    RepsFailure f;
                    f.kind = RepsFailure::BLACKHOLE;
                    f.dir = DcnLinkDir::UP;
                    f.tor = 0;
                    f.uplink = std::get<0>(w) % a.uplinks;
                    f.start = MicroSeconds(std::get<1>(w));
                    f.duration = MicroSeconds(std::get<2>(w));
                    c.failures.push_back(f);
                }
                c.freezingTimeout = MicroSeconds(100); // spec A3: Fig. 7
            }
            RepsExperimentResult r = RunRepsExperiment(c);
            runs++;
            if (totals != nullptr)
            {
                totals->events += r.events;
                totals->packetHops += r.packetHops;
            }
            std::ostringstream done;
            done << r.completed << "/" << r.total;
            os << std::left << std::setw(13) << sc << std::setw(6) << lb << std::right << std::fixed
               << std::setprecision(1) << std::setw(11) << r.MaxFctUs() << std::setw(11)
               << r.summary.meanUs << std::setw(9) << done.str() << std::setw(9)
               << r.congestionDrops << std::setw(9) << r.injectedDrops + r.unroutableDrops
               << std::setw(7) << r.timeouts << std::setw(8) << r.freezes << std::setw(8)
               << std::setprecision(2) << r.wallSeconds << std::endl;
            csv << sc << "," << lb << "," << (a.profile.empty() ? "default" : a.profile) << ","
                << a.seed << "," << r.MaxFctUs() << "," << r.summary.meanUs << "," << r.completed
                << "," << r.total << "," << r.congestionDrops << ","
                << r.injectedDrops + r.unroutableDrops << "," << r.timeouts << "," << r.freezes
                << "," << r.wallSeconds << std::endl;
        }
    }
    return runs;
}

} // namespace ns3
