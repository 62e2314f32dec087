#include "dcn-graph-routing.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace dcn
{

PathBound
SpritzBound(const SwitchGraph& g, uint32_t diameter)
{
    PathBound b;
    if (g.fam.family == "dragonfly")
    {
        b.maxLocal = 3;
        b.maxGlobal = 2;
    }
    else if (g.fam.family == "slimfly")
    {
        b.maxHops = 4;
    }
    else
    {
        b.maxHops = 2 * diameter;
    }
    return b;
}

uint64_t
HopLatencyPs(const SwitchLink& l, uint32_t packetBytes)
{
    const double ser = packetBytes * 8.0 / l.rateBps * 1e12;
    return static_cast<uint64_t>(std::llround(l.delayNs * 1e3 + ser));
}

MinimalRouting::MinimalRouting(const SwitchGraph& g, uint32_t packetBytes)
    : m_g(g),
      m_pkt(packetBytes),
      m_df(g.fam.family == "dragonfly"),
      m_bfs(g)
{
    const uint32_t n = g.NSwitches();
    if (m_df)
    {
        m_nGroups = g.fam.g;
        m_globalLinks.assign(static_cast<size_t>(m_nGroups) * m_nGroups, {});
        for (const auto& l : g.links)
        {
            if (l.kind == LinkKind::GLOBAL)
            {
                const uint32_t ga = GroupOf(l.a);
                const uint32_t gb = GroupOf(l.b);
                m_globalLinks[ga * m_nGroups + gb].push_back(l.id);
                m_globalLinks[gb * m_nGroups + ga].push_back(l.id);
            }
        }
    }
    m_default.assign(static_cast<size_t>(n) * n, NONE);
    std::vector<uint32_t> nh;
    for (uint32_t x = 0; x < n; ++x)
    {
        for (uint32_t d = 0; d < n; ++d)
        {
            NextHops(x, d, &nh);
            if (!nh.empty())
            {
                m_default[static_cast<size_t>(x) * n + d] = nh.front();
            }
        }
    }
}

const std::vector<uint32_t>&
MinimalRouting::GlobalLinks(uint32_t g1, uint32_t g2) const
{
    static const std::vector<uint32_t> empty;
    if (!m_df || g1 >= m_nGroups || g2 >= m_nGroups)
    {
        return empty;
    }
    return m_globalLinks[g1 * m_nGroups + g2];
}

uint32_t
MinimalRouting::Gateway(uint32_t g1, uint32_t g2) const
{
    uint32_t best = NONE;
    for (uint32_t lid : GlobalLinks(g1, g2))
    {
        const auto& l = m_g.links[lid];
        best = std::min(best, GroupOf(l.a) == g1 ? l.a : l.b);
    }
    return best;
}

uint32_t
MinimalRouting::PortOf(uint32_t x, uint32_t link) const
{
    const auto& ps = m_g.Ports(x);
    for (uint32_t i = 0; i < ps.size(); ++i)
    {
        if (ps[i].link == link)
        {
            return i;
        }
    }
    return NONE;
}

uint32_t
MinimalRouting::Dist(uint32_t x, uint32_t d) const
{
    if (x == d)
    {
        return 0;
    }
    if (!m_df)
    {
        return m_bfs(x, d);
    }
    const uint32_t gx = GroupOf(x);
    const uint32_t gd = GroupOf(d);
    if (gx == gd)
    {
        return 1;
    }
    uint32_t best = NONE;
    for (uint32_t lid : GlobalLinks(gx, gd))
    {
        const auto& l = m_g.links[lid];
        const uint32_t u = GroupOf(l.a) == gx ? l.a : l.b;
        const uint32_t v = u == l.a ? l.b : l.a;
        best = std::min(best, (x != u ? 1u : 0u) + 1 + (v != d ? 1u : 0u));
    }
    return best;
}

bool
MinimalRouting::RailFirstExcluded(uint32_t x, const Port& port, uint32_t d) const
{
    // Rail with nvlinkFirst: a NIC switch sends a packet for another cluster's NIC switch on
    // another rail over its NVLink, not its rail (the rail-first half is then never used)
    if (!m_g.fam.nvlinkFirst || m_g.links[port.link].kind != LinkKind::RAIL)
    {
        return false;
    }
    const SwitchInfo& sx = m_g.switches[x];
    const SwitchInfo& sd = m_g.switches[d];
    return sx.role == SwitchRole::NIC && sd.role == SwitchRole::NIC && sx.group != sd.group &&
           x % m_g.fam.h != d % m_g.fam.h;
}

void
MinimalRouting::NextHops(uint32_t x, uint32_t d, std::vector<uint32_t>* out) const
{
    out->clear();
    if (x == d)
    {
        return;
    }
    const auto& ps = m_g.Ports(x);
    if (!m_df)
    {
        const uint8_t dx = m_bfs(x, d);
        if (dx == DistanceMatrix::UNREACHABLE)
        {
            return;
        }
        for (uint32_t i = 0; i < ps.size(); ++i)
        {
            if (m_bfs(ps[i].nbr, d) + 1 == dx && !RailFirstExcluded(x, ps[i], d))
            {
                out->push_back(i);
            }
        }
        return;
    }
    const uint32_t gx = GroupOf(x);
    const uint32_t gd = GroupOf(d);
    if (gx == gd)
    {
        for (uint32_t i = 0; i < ps.size(); ++i)
        {
            if (ps[i].nbr == d)
            {
                out->push_back(i);
            }
        }
        return;
    }
    const uint32_t best = Dist(x, d);
    for (uint32_t lid : GlobalLinks(gx, gd))
    {
        const auto& l = m_g.links[lid];
        const uint32_t u = GroupOf(l.a) == gx ? l.a : l.b;
        const uint32_t v = u == l.a ? l.b : l.a;
        if ((x != u ? 1u : 0u) + 1 + (v != d ? 1u : 0u) != best)
        {
            continue;
        }
        if (x == u)
        {
            out->push_back(PortOf(x, lid));
        }
        else
        {
            for (uint32_t i = 0; i < ps.size(); ++i)
            {
                if (ps[i].nbr == u && m_g.links[ps[i].link].kind == LinkKind::LOCAL)
                {
                    out->push_back(i);
                }
            }
        }
    }
    std::sort(out->begin(), out->end());
    out->erase(std::unique(out->begin(), out->end()), out->end());
}

bool
MinimalRouting::IsMinimalHop(uint32_t x, uint32_t pi, uint32_t d) const
{
    if (x == d || pi == NONE)
    {
        return false;
    }
    const Port& port = m_g.Ports(x)[pi];
    if (!m_df)
    {
        return m_bfs(port.nbr, d) + 1 == m_bfs(x, d) && !RailFirstExcluded(x, port, d); // O(1)
    }
    if (GroupOf(x) == GroupOf(d))
    {
        return port.nbr == d;
    }
    // Dragonfly inter-group: the hop must start a fewest-hop (local?, global, local?) route.
    const uint32_t best = Dist(x, d);
    const auto& l = m_g.links[port.link];
    if (l.kind == LinkKind::GLOBAL)
    {
        return GroupOf(port.nbr) == GroupOf(d) && 1 + (port.nbr != d ? 1u : 0u) == best;
    }
    return GroupOf(port.nbr) == GroupOf(x) && Dist(port.nbr, d) + 1 == best;
}

void
MinimalRouting::AppendDefaultRoute(uint32_t x, uint32_t d, GraphPath* p) const
{
    if (p->switches.empty())
    {
        p->switches.push_back(x);
    }
    // A minimal route never has more hops than switches; the guard only stops a bug.
    for (uint32_t guard = 0; x != d && guard < m_g.NSwitches(); ++guard)
    {
        const uint32_t pi = DefaultPort(x, d);
        if (pi == NONE)
        {
            break;
        }
        const Port& port = m_g.Ports(x)[pi];
        p->links.push_back(port.link);
        p->switches.push_back(port.nbr);
        x = port.nbr;
    }
}

std::vector<uint32_t>
MinimalRouting::DefaultRoute(uint32_t x, uint32_t d) const
{
    GraphPath p;
    AppendDefaultRoute(x, d, &p);
    return p.switches;
}

double
MinimalRouting::LatencyNs(const std::vector<uint32_t>& links) const
{
    uint64_t ps = 0;
    for (uint32_t lid : links)
    {
        ps += HopLatencyPs(m_g.links[lid], m_pkt);
    }
    return ps / 1e3;
}

void
MinimalRouting::Classify(GraphPath* p) const
{
    p->local = p->global = 0;
    p->minimal = true;
    const uint32_t d = p->switches.back();
    for (uint32_t i = 0; i < p->links.size(); ++i)
    {
        const auto& l = m_g.links[p->links[i]];
        (l.kind == LinkKind::GLOBAL ? p->global : p->local)++;
        const uint32_t pi = PortOf(p->switches[i], l.id);
        p->minimal = p->minimal && IsMinimalHop(p->switches[i], pi, d);
    }
    p->latencyNs = LatencyNs(p->links);
}

std::vector<GraphPath>
MinimalRouting::MinimalPaths(uint32_t s, uint32_t d) const
{
    std::vector<GraphPath> out;
    GraphPath cur;
    cur.switches.push_back(s);
    std::function<void(uint32_t)> dfs = [&](uint32_t x) {
        if (x == d)
        {
            out.push_back(cur);
            Classify(&out.back());
            return;
        }
        std::vector<uint32_t> nh;
        NextHops(x, d, &nh);
        for (uint32_t pi : nh)
        {
            const Port& port = m_g.Ports(x)[pi];
            cur.switches.push_back(port.nbr);
            cur.links.push_back(port.link);
            dfs(port.nbr);
            cur.switches.pop_back();
            cur.links.pop_back();
        }
    };
    dfs(s);
    return out;
}

std::vector<uint32_t>
MinimalRouting::ValiantIntermediates(uint32_t s, uint32_t d) const
{
    std::vector<uint32_t> v;
    const auto& fam = m_g.fam.family;
    if (m_df)
    {
        const uint32_t gs = GroupOf(s);
        const uint32_t gd = GroupOf(d);
        if (gs == gd)
        {
            for (uint32_t r = 0; r < m_g.fam.a; ++r)
            {
                const uint32_t x = gs * m_g.fam.a + r;
                if (x != s && x != d)
                {
                    v.push_back(x);
                }
            }
        }
        else
        {
            for (uint32_t G = 0; G < m_nGroups; ++G)
            {
                if (G != gs && G != gd)
                {
                    v.push_back(G);
                }
            }
        }
        return v;
    }
    for (uint32_t x = 0; x < m_g.NSwitches(); ++x)
    {
        const SwitchRole r = m_g.switches[x].role;
        const bool eligible = fam == "rail"         ? r == SwitchRole::RAIL
                              : fam == "leaf-spine" ? r == SwitchRole::SPINE
                                                    : true;
        if (eligible && x != s && x != d)
        {
            v.push_back(x);
        }
    }
    return v;
}

uint32_t
MinimalRouting::ValiantCount(uint32_t s, uint32_t d) const
{
    if (m_df)
    {
        return GroupOf(s) == GroupOf(d) ? m_g.fam.a - (s == d ? 1 : 2) : m_nGroups - 2;
    }
    const auto& fam = m_g.fam.family;
    if (fam == "rail" || fam == "leaf-spine")
    {
        return static_cast<uint32_t>(ValiantIntermediates(s, d).size());
    }
    return m_g.NSwitches() - (s == d ? 1 : 2);
}

uint32_t
MinimalRouting::ValiantIntermediate(uint32_t s, uint32_t d, uint32_t k) const
{
    // The k-th element of {0..n-1} \ {x, y} (x != y, or x == y for one exclusion).
    auto skip2 = [](uint32_t k, uint32_t x, uint32_t y) {
        const uint32_t lo = std::min(x, y);
        const uint32_t hi = std::max(x, y);
        uint32_t v = k;
        v += v >= lo ? 1 : 0;
        v += (hi != lo && v >= hi) ? 1 : 0;
        return v;
    };
    if (m_df)
    {
        if (GroupOf(s) == GroupOf(d))
        {
            const uint32_t base = GroupOf(s) * m_g.fam.a;
            return base + skip2(k, s - base, d - base);
        }
        return skip2(k, GroupOf(s), GroupOf(d));
    }
    const auto& fam = m_g.fam.family;
    if (fam == "rail" || fam == "leaf-spine")
    {
        const auto v = ValiantIntermediates(s, d);
        return k < v.size() ? v[k] : NONE;
    }
    return skip2(k, s, d);
}

std::vector<GraphPath>
MinimalRouting::BoundedSimplePaths(uint32_t s,
                                   uint32_t d,
                                   const PathBound& bound,
                                   uint32_t maxPaths) const
{
    std::vector<GraphPath> out;
    GraphPath cur;
    cur.switches.push_back(s);
    std::vector<bool> onPath(m_g.NSwitches(), false);
    onPath[s] = true;
    uint32_t nLocal = 0;
    uint32_t nGlobal = 0;
    std::function<void(uint32_t)> dfs = [&](uint32_t x) {
        if (out.size() >= maxPaths)
        {
            return;
        }
        if (x == d)
        {
            out.push_back(cur);
            Classify(&out.back());
            return;
        }
        const uint32_t hops = static_cast<uint32_t>(cur.links.size());
        for (const Port& port : m_g.Ports(x))
        {
            const uint8_t rest = m_bfs(port.nbr, d);
            if (onPath[port.nbr] || rest == DistanceMatrix::UNREACHABLE ||
                hops + 1 + rest > bound.maxHops)
            {
                continue;
            }
            const bool global = m_g.links[port.link].kind == LinkKind::GLOBAL;
            if ((global ? nGlobal + 1 > bound.maxGlobal : nLocal + 1 > bound.maxLocal))
            {
                continue;
            }
            (global ? nGlobal : nLocal)++;
            onPath[port.nbr] = true;
            cur.switches.push_back(port.nbr);
            cur.links.push_back(port.link);
            dfs(port.nbr);
            cur.switches.pop_back();
            cur.links.pop_back();
            onPath[port.nbr] = false;
            (global ? nGlobal : nLocal)--;
        }
    };
    dfs(s);
    return out;
}

namespace
{
bool
IsSimple(const GraphPath& p)
{
    std::vector<uint32_t> s = p.switches;
    std::sort(s.begin(), s.end());
    return std::adjacent_find(s.begin(), s.end()) == s.end();
}
} // namespace

GraphPath
MinimalRouting::ValiantPath(uint32_t s, uint32_t via, uint32_t d) const
{
    GraphPath p;
    p.switches.push_back(s);
    if (m_df && GroupOf(s) != GroupOf(d))
    {
        // via is a group: the global link from s's group to it with the fewest local hops
        // from s (lowest link id on ties), then the default route to d.
        uint32_t best = NONE;
        uint32_t bestCost = NONE;
        for (uint32_t lid : GlobalLinks(GroupOf(s), via))
        {
            const auto& l = m_g.links[lid];
            const uint32_t u = GroupOf(l.a) == GroupOf(s) ? l.a : l.b;
            const uint32_t cost = u == s ? 0 : 1;
            if (cost < bestCost)
            {
                bestCost = cost;
                best = lid;
            }
        }
        if (best == NONE)
        {
            return {};
        }
        const auto& l = m_g.links[best];
        const uint32_t u = GroupOf(l.a) == GroupOf(s) ? l.a : l.b;
        const uint32_t v = u == l.a ? l.b : l.a;
        if (u != s)
        {
            p.links.push_back(
                m_g.Ports(s)[m_default[static_cast<size_t>(s) * m_g.NSwitches() + u]].link);
            p.switches.push_back(u);
        }
        p.links.push_back(best);
        p.switches.push_back(v);
        AppendDefaultRoute(v, d, &p);
    }
    else
    {
        AppendDefaultRoute(s, via, &p);
        AppendDefaultRoute(via, d, &p);
    }
    if (!IsSimple(p) || p.switches.back() != d)
    {
        return {};
    }
    Classify(&p);
    p.via = p.minimal ? NONE : via;
    return p;
}

std::vector<GraphPath>
MinimalRouting::LapsPaths(uint32_t s, uint32_t d) const
{
    std::vector<GraphPath> out;
    const bool rail = m_g.fam.family == "rail" && m_g.switches[s].role == SwitchRole::NIC &&
                      m_g.switches[d].role == SwitchRole::NIC;
    if (s == d || !(m_df || rail) || (rail && GroupOf(s) == GroupOf(d)))
    {
        if (s == d)
        {
            GraphPath p;
            p.switches.push_back(s);
            out.push_back(p);
            return out;
        }
        return MinimalPaths(s, d);
    }
    if (m_df)
    {
        GraphPath p;
        AppendDefaultRoute(s, d, &p);
        Classify(&p);
        out.push_back(p);
    }
    for (uint32_t via : ValiantIntermediates(s, d))
    {
        GraphPath p = ValiantPath(s, via, d);
        if (!p.Empty())
        {
            p.via = via;
            out.push_back(p);
        }
    }
    return out;
}

} // namespace dcn
