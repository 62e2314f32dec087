#include "dcn-graph-checks.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/depth_first_search.hpp>
#include <boost/graph/strong_components.hpp>
#include <deque>
#include <map>

namespace dcn
{

const char*
ToString(PathSet s)
{
    switch (s)
    {
    case PathSet::MINIMAL:
        return "minimal";
    case PathSet::LAPS:
        return "laps";
    }
    return "?";
}

std::vector<GraphPath>
PathsOf(const MinimalRouting& mr, PathSet set, uint32_t s, uint32_t d)
{
    return set == PathSet::LAPS ? mr.LapsPaths(s, d) : mr.MinimalPaths(s, d);
}

uint32_t
ChannelId(const SwitchGraph& g, uint32_t link, uint32_t from)
{
    return 2 * link + (g.links[link].a == from ? 0 : 1);
}

uint32_t
ChannelFrom(const SwitchGraph& g, uint32_t channel)
{
    const auto& l = g.links[channel / 2];
    return channel % 2 == 0 ? l.a : l.b;
}

uint32_t
ChannelTo(const SwitchGraph& g, uint32_t channel)
{
    const auto& l = g.links[channel / 2];
    return channel % 2 == 0 ? l.b : l.a;
}

std::string
ChannelName(const SwitchGraph& g, uint32_t channel)
{
    const auto& l = g.links[channel / 2];
    const size_t slash = l.name.rfind('/');
    const std::string suffix = slash == std::string::npos ? "" : l.name.substr(slash);
    return g.switches[ChannelFrom(g, channel)].name + "->" +
           g.switches[ChannelTo(g, channel)].name + suffix;
}

std::string
CycleText(const SwitchGraph& g, const std::vector<uint32_t>& cycle)
{
    std::string s;
    for (uint32_t c : cycle)
    {
        s += (s.empty() ? "" : " => ") + ChannelName(g, c);
    }
    return s;
}

namespace
{

using Cdg = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;

/** Call f(s, d) for every ordered pair of distinct host-attached switches. */
template <typename F>
void
ForHostSwitchPairs(const SwitchGraph& g, F f)
{
    for (uint32_t s = 0; s < g.NSwitches(); ++s)
    {
        for (uint32_t d = 0; d < g.NSwitches(); ++d)
        {
            if (s != d && g.switches[s].nHosts > 0 && g.switches[d].nHosts > 0)
            {
                f(s, d);
            }
        }
    }
}

/** DFS visitor: remembers the tree parent of every vertex and the first back edge. */
struct BackEdgeFinder : public boost::default_dfs_visitor
{
    std::vector<uint32_t>* parent;
    std::pair<uint32_t, uint32_t>* back; //!< (NONE, NONE) until found

    void tree_edge(Cdg::edge_descriptor e, const Cdg& g) const
    {
        (*parent)[boost::target(e, g)] = static_cast<uint32_t>(boost::source(e, g));
    }

    void back_edge(Cdg::edge_descriptor e, const Cdg& g) const
    {
        if (back->first == NONE)
        {
            *back = {static_cast<uint32_t>(boost::source(e, g)),
                     static_cast<uint32_t>(boost::target(e, g))};
        }
    }
};

} // namespace

CdgResult
CheckChannelDependencies(const MinimalRouting& mr, PathSet set)
{
    const SwitchGraph& g = mr.Graph();
    CdgResult r;
    r.channels = 2 * g.NLinks();
    std::vector<uint64_t> keys; // c1 * channels + c2
    std::vector<bool> used(r.channels, false);
    ForHostSwitchPairs(g, [&](uint32_t s, uint32_t d) {
        r.pairs++;
        for (const GraphPath& p : PathsOf(mr, set, s, d))
        {
            r.paths++;
            uint32_t prev = NONE;
            for (size_t i = 0; i < p.links.size(); ++i)
            {
                const uint32_t c = ChannelId(g, p.links[i], p.switches[i]);
                used[c] = true;
                if (prev != NONE)
                {
                    keys.push_back(static_cast<uint64_t>(prev) * r.channels + c);
                }
                prev = c;
            }
        }
        // keep the key list small on large graphs
        if (keys.size() > (1u << 22))
        {
            std::sort(keys.begin(), keys.end());
            keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
        }
    });
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    r.dependencies = keys.size();
    r.usedChannels = static_cast<uint32_t>(std::count(used.begin(), used.end(), true));

    Cdg cdg(r.channels);
    for (uint64_t k : keys)
    {
        boost::add_edge(k / r.channels, k % r.channels, cdg);
    }
    std::vector<uint32_t> parent(r.channels, NONE);
    std::pair<uint32_t, uint32_t> back{NONE, NONE};
    BackEdgeFinder vis;
    vis.parent = &parent;
    vis.back = &back;
    boost::depth_first_search(cdg, boost::visitor(vis));
    r.cyclic = back.first != NONE;
    if (!r.cyclic)
    {
        return r;
    }
    // The DFS witness: back edge u -> v closes the tree path v .. u.
    std::vector<uint32_t> dfsCycle;
    for (uint32_t x = back.first; x != back.second; x = parent[x])
    {
        dfsCycle.push_back(x);
    }
    dfsCycle.push_back(back.second);
    std::reverse(dfsCycle.begin(), dfsCycle.end());

    // Channels on cycles: strongly connected components of more than one channel
    // (a path never uses a channel twice in a row, so there are no self loops).
    std::vector<int> comp(r.channels);
    const int nComp = boost::strong_components(cdg, comp.data());
    std::vector<uint32_t> compSize(nComp, 0);
    for (int c : comp)
    {
        compSize[c]++;
    }
    for (uint32_t v = 0; v < r.channels; ++v)
    {
        r.channelsOnCycles += compSize[comp[v]] > 1 ? 1 : 0;
    }

    // Shortest cycle: BFS from every channel on a cycle, inside its component, until
    // an edge returns to the start; stop at length 3 (shorter needs a U-turn) or when
    // the work budget is spent (then the best so far, or the DFS cycle).
    std::vector<uint32_t> best = dfsCycle;
    std::vector<uint32_t> dist(r.channels, NONE);
    std::vector<uint32_t> from(r.channels, NONE);
    std::vector<uint32_t> touched;
    uint64_t work = 0;
    const uint64_t budget = 50'000'000;
    for (uint32_t v = 0; v < r.channels && best.size() > 3 && work < budget; ++v)
    {
        if (compSize[comp[v]] < 2)
        {
            continue;
        }
        for (uint32_t t : touched)
        {
            dist[t] = NONE;
        }
        touched.clear();
        std::deque<uint32_t> q{v};
        dist[v] = 0;
        touched.push_back(v);
        uint32_t closing = NONE;
        while (!q.empty() && closing == NONE)
        {
            const uint32_t x = q.front();
            q.pop_front();
            if (dist[x] + 1 >= best.size())
            {
                break; // cannot beat the best cycle
            }
            for (auto [e, end] = boost::out_edges(x, cdg); e != end; ++e)
            {
                ++work;
                const auto y = static_cast<uint32_t>(boost::target(*e, cdg));
                if (y == v)
                {
                    closing = x;
                    break;
                }
                if (dist[y] == NONE && comp[y] == comp[v])
                {
                    dist[y] = dist[x] + 1;
                    from[y] = x;
                    touched.push_back(y);
                    q.push_back(y);
                }
            }
        }
        if (closing != NONE && dist[closing] + 1 < best.size())
        {
            best.clear();
            for (uint32_t x = closing; x != v; x = from[x])
            {
                best.push_back(x);
            }
            best.push_back(v);
            std::reverse(best.begin(), best.end());
        }
    }
    r.cycle = best;

    // One path per cycle edge.
    const size_t k = r.cycle.size();
    r.witnesses.assign(k, GraphPath{});
    size_t missing = k;
    ForHostSwitchPairs(g, [&](uint32_t s, uint32_t d) {
        if (missing == 0)
        {
            return;
        }
        for (const GraphPath& p : PathsOf(mr, set, s, d))
        {
            for (size_t i = 1; i < p.links.size(); ++i)
            {
                const uint32_t c1 = ChannelId(g, p.links[i - 1], p.switches[i - 1]);
                const uint32_t c2 = ChannelId(g, p.links[i], p.switches[i]);
                for (size_t j = 0; j < k; ++j)
                {
                    if (r.witnesses[j].Empty() && r.cycle[j] == c1 && r.cycle[(j + 1) % k] == c2)
                    {
                        r.witnesses[j] = p;
                        missing--;
                    }
                }
            }
        }
    });
    return r;
}

namespace
{

std::string
LinkClass(const SwitchGraph& g, uint32_t link, uint32_t from)
{
    const auto& l = g.links[link];
    const uint32_t to = l.a == from ? l.b : l.a;
    return std::string(ToString(l.kind)) + " " + ToString(g.switches[from].role) + "->" +
           ToString(g.switches[to].role);
}

} // namespace

LoadProfile
UniformLoad(const MinimalRouting& mr, PathSet set)
{
    const SwitchGraph& g = mr.Graph();
    LoadProfile r;
    r.split = set == PathSet::MINIMAL ? "per-hop even ECMP over minimal next hops"
                                      : "even over the LAPS paths of each switch pair";
    const uint32_t nS = g.NSwitches();
    const uint32_t H = g.NHosts();
    std::vector<double> load(2 * g.NLinks(), 0.0); // per channel, bit/s at L = 1
    // Offered rate of switch s's hosts to ONE other host: n_s * r_s / (H - 1).
    std::vector<double> perDest(nS, 0.0);
    double total = 0; // sum of every host's rate
    for (uint32_t s = 0; s < nS; ++s)
    {
        const auto& sw = g.switches[s];
        total += sw.nHosts * sw.hostRateBps;
        if (H > 1)
        {
            perDest[s] = sw.nHosts * sw.hostRateBps / (H - 1);
        }
    }
    if (H > 1 && set == PathSet::MINIMAL)
    {
        // Per destination switch: push the traffic down the minimal-next-hop DAG in
        // order of decreasing distance to d, splitting evenly at every switch.
        std::vector<double> flow(nS);
        std::vector<uint32_t> order(nS);
        std::vector<uint32_t> dist(nS);
        std::vector<uint32_t> nh;
        for (uint32_t d = 0; d < nS; ++d)
        {
            if (g.switches[d].nHosts == 0)
            {
                continue;
            }
            for (uint32_t x = 0; x < nS; ++x)
            {
                flow[x] = x == d ? 0 : perDest[x] * g.switches[d].nHosts;
                dist[x] = mr.Dist(x, d);
                order[x] = x;
            }
            std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
                return dist[a] != dist[b] ? dist[a] > dist[b] : a < b;
            });
            for (uint32_t x : order)
            {
                if (x == d || flow[x] == 0)
                {
                    continue;
                }
                mr.NextHops(x, d, &nh);
                if (nh.empty())
                {
                    continue; // unreachable: the traffic is lost
                }
                const double share = flow[x] / nh.size();
                for (uint32_t pi : nh)
                {
                    const Port& port = g.Ports(x)[pi];
                    load[ChannelId(g, port.link, x)] += share;
                    flow[port.nbr] += share;
                }
            }
        }
    }
    else if (H > 1)
    {
        ForHostSwitchPairs(g, [&](uint32_t s, uint32_t d) {
            const std::vector<GraphPath> ps = PathsOf(mr, set, s, d);
            if (ps.empty())
            {
                return;
            }
            const double share = perDest[s] * g.switches[d].nHosts / ps.size();
            for (const GraphPath& p : ps)
            {
                for (size_t i = 0; i < p.links.size(); ++i)
                {
                    load[ChannelId(g, p.links[i], p.switches[i])] += share;
                }
            }
        });
    }
    for (uint32_t c = 0; c < load.size(); ++c)
    {
        const auto& l = g.links[c / 2];
        LinkLoad ll;
        ll.name = ChannelName(g, c);
        ll.cls = LinkClass(g, l.id, ChannelFrom(g, c));
        ll.link = l.id;
        ll.rateBps = l.rateBps;
        ll.loadBps = load[c];
        ll.util = load[c] / l.rateBps;
        r.links.push_back(ll);
    }
    for (uint32_t s = 0; s < nS; ++s)
    {
        const auto& sw = g.switches[s];
        for (uint32_t k = 0; k < sw.nHosts; ++k)
        {
            const uint32_t h = g.FirstHost(s) + k;
            const std::string hn = "h" + std::to_string(h);
            LinkLoad up;
            up.name = hn + "->" + sw.name;
            up.cls = std::string("host host->") + ToString(sw.role);
            up.host = h;
            up.rateBps = sw.hostRateBps;
            up.loadBps = H > 1 ? sw.hostRateBps : 0;
            up.util = up.loadBps / up.rateBps;
            LinkLoad down = up;
            down.name = sw.name + "->" + hn;
            down.cls = std::string("host ") + ToString(sw.role) + "->host";
            down.loadBps = H > 1 ? (total - sw.hostRateBps) / (H - 1) : 0;
            down.util = down.loadBps / down.rateBps;
            r.links.push_back(up);
            r.links.push_back(down);
        }
    }
    std::map<std::string, ClassLoad> classes;
    for (uint32_t i = 0; i < r.links.size(); ++i)
    {
        const LinkLoad& ll = r.links[i];
        ClassLoad& c = classes[ll.cls];
        c.cls = ll.cls;
        c.links++;
        c.maxUtil = std::max(c.maxUtil, ll.util);
        c.meanUtil += ll.util;
        if (r.maxIndex == NONE || ll.util > r.maxUtil * (1 + 1e-9))
        {
            r.maxUtil = ll.util;
            r.maxIndex = i;
        }
    }
    for (auto& [name, c] : classes)
    {
        c.meanUtil /= c.links;
        r.classes.push_back(c);
    }
    r.saturation = r.maxUtil > 0 ? 1.0 / r.maxUtil : 0;
    return r;
}

} // namespace dcn
