#include "dcn-example-args.h"

#include "ns3/simulator.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

namespace ns3
{
namespace dcnargs
{

namespace
{
std::string g_program = "dcn-lb";
} // namespace

void
SetProgramName(const std::string& name)
{
    g_program = name;
}

const std::string&
ProgramName()
{
    return g_program;
}

[[noreturn]] void
Fail(const std::string& msg)
{
    std::cerr << ProgramName() << ": error: " << msg << std::endl;
    std::exit(1);
}

std::string
CheckOutputPrefix(const std::string& opt, const std::string& path, const std::string& suffix)
{
    if (path.empty())
    {
        return "";
    }
    const std::string file = path + suffix;
    std::filesystem::path parent = std::filesystem::path(file).parent_path();
    std::error_code ec;
    if (!parent.empty())
    {
        std::filesystem::create_directories(parent, ec);
        if (ec)
        {
            return "option --" + opt + ": value '" + path + "': cannot create directory " +
                   parent.string() + " (" + ec.message() + "); allowed: a writable path";
        }
    }
    if (std::filesystem::is_directory(file, ec))
    {
        return "option --" + opt + ": value '" + path + "': " + file +
               " is a directory; allowed: a writable file path";
    }
    std::ofstream probe(file, std::ios::app);
    if (!probe)
    {
        return "option --" + opt + ": value '" + path + "': cannot write " + file +
               "; allowed: a writable path";
    }
    return "";
}

std::string
TopologyDot(const DcnTopology& topology)
{
    std::map<uint32_t, std::pair<std::string, int32_t>> nodes; // id -> (name, tier)
    auto nameOf = [](const std::string& link, bool first) -> std::string {
        size_t dash = link.find('-');
        if (dash == std::string::npos || link.find('-', dash + 1) != std::string::npos)
        {
            return "";
        }
        return first ? link.substr(0, dash) : link.substr(dash + 1);
    };
    std::ostringstream edges;
    for (const auto& l : topology.GetLinks())
    {
        std::string na = nameOf(l.name, true);
        std::string nb = nameOf(l.name, false);
        uint32_t ia = l.a->GetId();
        uint32_t ib = l.b->GetId();
        nodes[ia] = {na.empty() ? "n" + std::to_string(ia) : na, l.tierA};
        nodes[ib] = {nb.empty() ? "n" + std::to_string(ib) : nb, l.tierB};
        DataRateValue rate;
        l.devA->GetAttribute("DataRate", rate);
        std::ostringstream r;
        r << rate.Get().GetBitRate() / 1e9 << "G";
        edges << "  n" << ia << " -- n" << ib << " [label=\"" << r.str() << "\"";
        if (!topology.IsLinkRouted(l.id))
        {
            edges << ", style=dashed, color=red";
        }
        edges << "];\n";
    }
    std::ostringstream os;
    os << "graph \"" << topology.GetTopologyName() << "\" {\n  rankdir=BT;\n";
    std::map<int32_t, std::vector<uint32_t>> byTier;
    for (const auto& [id, nt] : nodes)
    {
        os << "  n" << id << " [label=\"" << nt.first
           << "\", shape=" << (nt.second < 0 ? "box" : "ellipse") << "];\n";
        byTier[nt.second].push_back(id);
    }
    for (const auto& [tier, ids] : byTier)
    {
        os << "  { rank=same;";
        for (uint32_t id : ids)
        {
            os << " n" << id << ";";
        }
        os << " }\n";
    }
    os << edges.str() << "}\n";
    return os.str();
}

uint32_t
CountSinglePathPairs(const DcnTopology& topology, uint32_t maxPairs, uint32_t& sampled)
{
    std::vector<uint32_t> sw; // switches with hosts, ascending
    for (uint32_t h = 0; h < topology.GetNHosts(); ++h)
    {
        sw.push_back(topology.GetSwitchOfHost(h));
    }
    std::sort(sw.begin(), sw.end());
    sw.erase(std::unique(sw.begin(), sw.end()), sw.end());
    sampled = 0;
    uint32_t single = 0;
    const uint64_t n = sw.size();
    const uint64_t all = n * (n - std::min<uint64_t>(n, 1));
    const uint64_t step = std::max<uint64_t>(1, all / std::max<uint32_t>(1, maxPairs));
    // ordered pairs (i, j != i) numbered k = i (n - 1) + j', every step-th one
    for (uint64_t k = 0; k < all && sampled < maxPairs; k += step)
    {
        const uint64_t i = k / (n - 1);
        uint64_t j = k % (n - 1);
        j += j >= i ? 1 : 0;
        ++sampled;
        single += topology.GetPaths(sw[i], sw[j]).nMinimal == 1 ? 1 : 0;
    }
    return single;
}

std::vector<std::string>
Split(const std::string& s, char sep)
{
    std::vector<std::string> out;
    std::string cur;
    std::istringstream in(s);
    while (std::getline(in, cur, sep))
    {
        if (!cur.empty())
        {
            out.push_back(cur);
        }
    }
    return out;
}

Progress::Progress(bool quiet, std::string label)
    : m_quiet(quiet),
      m_label(std::move(label)),
      m_t0(std::chrono::steady_clock::now()),
      m_last(m_t0)
{
}

void
Progress::Start()
{
    if (!m_quiet)
    {
        Simulator::Schedule(MicroSeconds(20), &Progress::Tick, this);
    }
}

void
Progress::Tick()
{
    ++m_ticks; // executed events of this object, excluded from the BENCH count
    auto now = std::chrono::steady_clock::now();
    double since = std::chrono::duration<double>(now - m_last).count();
    if (since >= 3.0)
    {
        uint64_t ev = Simulator::GetEventCount();
        double wall = std::chrono::duration<double>(now - m_t0).count();
        std::cerr << "[" << m_label << "] sim " << std::fixed << std::setprecision(1)
                  << Simulator::Now().GetMicroSeconds() << " us, wall " << wall << " s, "
                  << std::setprecision(0) << (ev - m_lastEvents) / since << " events/s";
        const double simNow = Simulator::Now().GetSeconds();
        if (m_stop.IsStrictlyPositive() && simNow > 0)
        {
            // upper bound: the run may end earlier when every flow has finished
            const double eta = wall * (m_stop.GetSeconds() - simNow) / simNow;
            std::cerr << ", ETA <= " << std::setprecision(0) << eta << " s (to "
                      << m_stop.GetMicroSeconds() << " us)";
        }
        std::cerr << std::defaultfloat << std::endl;
        m_last = now;
        m_lastEvents = ev;
    }
    Simulator::Schedule(MicroSeconds(20), &Progress::Tick, this);
}

} // namespace dcnargs
} // namespace ns3
