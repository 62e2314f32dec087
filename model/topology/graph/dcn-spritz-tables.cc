#include "dcn-spritz-tables.h"

#include <algorithm>
#include <array>
#include <numeric>

namespace dcn
{

SpritzTables::SpritzTables(const MinimalRouting& mr)
    : m_mr(mr)
{
    const SwitchGraph& g = mr.Graph();
    m_df = g.fam.family == "dragonfly";
    if (!m_df && g.fam.family != "slimfly")
    {
        m_error = "spritz tables: topology family '" + g.fam.family +
                  "' has no Spritz routing; allowed: dragonfly, slimfly";
        return;
    }
    m_bound = SpritzBound(g, 0);
    const uint32_t n = g.NSwitches();
    m_t1inter.resize(n);
    m_t1intra.resize(n);
    m_t2.resize(n);
    for (uint32_t s = 0; s < n; ++s)
    {
        const auto& ps = g.Ports(s);
        if (ps.size() > 256)
        {
            m_error = "spritz tables: switch " + g.switches[s].name + " has " +
                      std::to_string(ps.size()) + " ports; an 8-bit EV1/EV2 indexes at most 256";
            return;
        }
        for (uint32_t i = 0; i < ps.size(); ++i)
        {
            const bool global = g.links[ps[i].link].kind == LinkKind::GLOBAL;
            m_t1inter[s].push_back(i);
            if (!m_df || !global)
            {
                m_t1intra[s].push_back(i);
            }
            if (!m_df || global)
            {
                m_t2[s].push_back(i);
            }
        }
    }
}

const std::vector<uint32_t>&
SpritzTables::T1(uint32_t src, uint32_t dst) const
{
    if (m_df && m_mr.GroupOf(src) == m_mr.GroupOf(dst))
    {
        return m_t1intra[src];
    }
    return m_t1inter[src];
}

SpritzRole
SpritzTables::Role(uint32_t self, uint32_t src, uint32_t dst, uint32_t hopIdx) const
{
    if (hopIdx == 0)
    {
        return SpritzRole::ECMP1;
    }
    if (hopIdx == 1)
    {
        if (!m_df)
        {
            return SpritzRole::ECMP2;
        }
        const uint32_t gs = m_mr.GroupOf(src);
        if (gs != m_mr.GroupOf(dst) && m_mr.GroupOf(self) == gs)
        {
            return SpritzRole::ECMP2;
        }
    }
    return SpritzRole::DEFAULT;
}

uint32_t
SpritzTables::Forward(uint32_t self, uint32_t src, uint32_t dst, uint32_t hopIdx, uint16_t ev) const
{
    if (self == dst)
    {
        return NONE;
    }
    switch (Role(self, src, dst, hopIdx))
    {
    case SpritzRole::ECMP1: {
        const auto& t = T1(self, dst);
        if (!t.empty())
        {
            return t[Ev1(ev) % t.size()];
        }
        break;
    }
    case SpritzRole::ECMP2: {
        const auto& t = m_t2[self];
        if (!t.empty())
        {
            return t[Ev2(ev) % t.size()];
        }
        break;
    }
    case SpritzRole::DEFAULT:
        break;
    }
    return m_mr.DefaultPort(self, dst);
}

GraphPath
SpritzTables::Replay(uint32_t src, uint32_t dst, uint16_t ev, uint32_t maxHops) const
{
    const SwitchGraph& g = m_mr.Graph();
    GraphPath p;
    p.switches.push_back(src);
    uint32_t x = src;
    for (uint32_t hop = 0; x != dst && hop < maxHops; ++hop)
    {
        const uint32_t pi = Forward(x, src, dst, hop, ev);
        if (pi == NONE)
        {
            break;
        }
        const Port& port = g.Ports(x)[pi];
        p.links.push_back(port.link);
        p.switches.push_back(port.nbr);
        x = port.nbr;
    }
    if (x == dst)
    {
        m_mr.Classify(&p);
    }
    return p;
}

namespace
{
constexpr uint32_t MAX_ENTRY_HOPS = 8; // above every Spritz bound (DF 5, SF 4)

struct Candidate
{
    SpritzEntry e;
    uint8_t n{0};
    std::array<uint32_t, MAX_ENTRY_HOPS> links{};

    bool SameLinks(const Candidate& o) const
    {
        return n == o.n && std::equal(links.begin(), links.begin() + n, o.links.begin());
    }

    bool LinksLess(const Candidate& o) const
    {
        return std::lexicographical_compare(links.begin(),
                                            links.begin() + n,
                                            o.links.begin(),
                                            o.links.begin() + o.n);
    }
};

bool
IsSimple(const std::vector<uint32_t>& s)
{
    for (size_t i = 0; i < s.size(); ++i)
    {
        for (size_t j = i + 1; j < s.size(); ++j)
        {
            if (s[i] == s[j])
            {
                return false;
            }
        }
    }
    return true;
}
} // namespace

std::vector<SpritzEntry>
SpritzTables::Enumerate(uint32_t src, uint32_t dst) const
{
    std::vector<SpritzEntry> out;
    if (!m_error.empty() || src == dst)
    {
        return out;
    }
    const SwitchGraph& g = m_mr.Graph();
    std::vector<Candidate> cands;
    cands.reserve(g.Ports(src).size() * 16);
    GraphPath p; // scratch, reused for every candidate
    p.switches.reserve(2 * MAX_ENTRY_HOPS);
    p.links.reserve(2 * MAX_ENTRY_HOPS);
    auto add = [&](uint32_t e1, uint32_t e2, uint32_t steered) {
        if (p.switches.back() != dst || p.links.size() > MAX_ENTRY_HOPS || !IsSimple(p.switches))
        {
            return;
        }
        m_mr.Classify(&p);
        if (!m_bound.Admits(p))
        {
            return;
        }
        Candidate c;
        c.e.e1 = static_cast<uint8_t>(e1);
        c.e.e2 = static_cast<uint8_t>(e2);
        c.e.local = static_cast<uint8_t>(p.local);
        c.e.global = static_cast<uint8_t>(p.global);
        c.e.hops = static_cast<uint8_t>(p.Hops());
        c.e.minimal = p.minimal ? 1 : 0;
        uint64_t ps = 0;
        for (uint32_t lid : p.links)
        {
            ps += HopLatencyPs(g.links[lid], m_mr.PacketBytes());
        }
        c.e.latencyPs = static_cast<uint32_t>(ps);
        if (!p.minimal)
        {
            uint32_t via = steered;
            if (m_df && m_mr.GroupOf(src) != m_mr.GroupOf(dst))
            {
                for (uint32_t x : p.switches)
                {
                    const uint32_t gx = m_mr.GroupOf(x);
                    if (gx != m_mr.GroupOf(src) && gx != m_mr.GroupOf(dst))
                    {
                        via = gx;
                        break;
                    }
                }
            }
            c.e.via = static_cast<uint16_t>(via);
        }
        c.n = static_cast<uint8_t>(p.links.size());
        std::copy(p.links.begin(), p.links.end(), c.links.begin());
        cands.push_back(c);
    };
    auto start = [&p, src](const Port& first) {
        p.switches.assign({src, first.nbr});
        p.links.assign({first.link});
    };
    const auto& t1 = T1(src, dst);
    for (uint32_t e1 = 0; e1 < t1.size(); ++e1)
    {
        const Port& p1 = g.Ports(src)[t1[e1]];
        const uint32_t n1 = p1.nbr;
        if (n1 == dst)
        {
            start(p1);
            add(e1, 0, n1);
            continue;
        }
        if (Role(n1, src, dst, 1) == SpritzRole::ECMP2)
        {
            const auto& t2 = m_t2[n1];
            for (uint32_t e2 = 0; e2 < t2.size(); ++e2)
            {
                const Port& p2 = g.Ports(n1)[t2[e2]];
                start(p1);
                p.switches.push_back(p2.nbr);
                p.links.push_back(p2.link);
                m_mr.AppendDefaultRoute(p2.nbr, dst, &p);
                add(e1, e2, p2.nbr);
            }
        }
        else
        {
            start(p1);
            m_mr.AppendDefaultRoute(n1, dst, &p);
            add(e1, 0, n1);
        }
    }
    // Sort by (latency, e1, e2); drop later duplicates of the same link sequence
    // (= switch sequence unless parallel links exist).
    std::sort(cands.begin(), cands.end(), [](const Candidate& a, const Candidate& b) {
        return a.e.latencyPs != b.e.latencyPs ? a.e.latencyPs < b.e.latencyPs : a.e.Ev() < b.e.Ev();
    });
    std::vector<uint32_t> byLinks(cands.size());
    std::iota(byLinks.begin(), byLinks.end(), 0);
    std::stable_sort(byLinks.begin(), byLinks.end(), [&cands](uint32_t a, uint32_t b) {
        return cands[a].LinksLess(cands[b]);
    });
    std::vector<bool> dup(cands.size(), false);
    for (size_t i = 1; i < byLinks.size(); ++i)
    {
        if (cands[byLinks[i]].SameLinks(cands[byLinks[i - 1]]))
        {
            dup[byLinks[i]] = true;
        }
    }
    out.reserve(cands.size());
    for (size_t i = 0; i < cands.size(); ++i)
    {
        if (!dup[i])
        {
            out.push_back(cands[i].e);
        }
    }
    return out;
}

std::vector<double>
SpritzTables::Weights(const std::vector<SpritzEntry>& entries, double wScale)
{
    std::vector<double> w(entries.size(), 1.0);
    uint32_t longest = 0;
    for (const auto& e : entries)
    {
        longest = std::max(longest, e.latencyPs);
    }
    for (size_t i = 0; i < entries.size(); ++i)
    {
        const uint32_t lat = entries[i].latencyPs;
        if (lat > 0 && lat < longest)
        {
            w[i] = static_cast<double>(longest) / lat * wScale;
        }
    }
    return w;
}

SpritzSourceTable::SpritzSourceTable(const SpritzTables& t, uint32_t src)
    : m_src(src)
{
    const uint32_t n = t.Routing().Graph().NSwitches();
    m_first.assign(n + 1, 0);
    for (uint32_t d = 0; d < n; ++d)
    {
        m_first[d] = static_cast<uint32_t>(m_entries.size());
        if (d != src)
        {
            auto e = t.Enumerate(src, d);
            m_max = std::max(m_max, static_cast<uint32_t>(e.size()));
            m_entries.insert(m_entries.end(), e.begin(), e.end());
        }
    }
    m_first[n] = static_cast<uint32_t>(m_entries.size());
    m_entries.shrink_to_fit();
}

} // namespace dcn
