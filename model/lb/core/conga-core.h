/*
 * CONGA leaf-switch logic, ns-3-free.  Alizadeh et al., "CONGA: Distributed
 * Congestion-Aware Load Balancing for Datacenters", SIGCOMM'14:
 *  - Sec. 3.2/3.5 DRE: a register X grows by the size of every packet sent on
 *    the link and decays as X <- X (1 - alpha) every T_dre; X/(C tau) with
 *    tau = T_dre / alpha estimates the utilisation; quantised to Q = 3 bits.
 *  - Sec. 3.3 overlay header: LBTag (4 bits: source-leaf uplink), CE (3 bits:
 *    max quantised DRE along the path, updated at every hop), FB_LBTag (4 bits)
 *    and FB_Metric (3 bits): feedback piggy-backed on reverse traffic.
 *  - Sec. 3.4 tables at each leaf: Congestion-From-Leaf[src leaf][LBTag] (what
 *    arriving packets report) and Congestion-To-Leaf[dst leaf][uplink] (what
 *    the destination fed back).  Feedback is picked round robin over the
 *    LBTags of the destination, preferring entries that changed since they
 *    were last sent.
 *  - Sec. 3.5 decision, once per flowlet: the uplink minimising
 *    max(local uplink DRE, Congestion-To-Leaf[dst][uplink]); ties prefer the
 *    flowlet entry's previous port, else random among the ties.  Options of
 *    CongaConfig for the LAPS authors' simulator [A] (GetCongaBestPath):
 *    pathSamples (s consecutive candidates from a uniform start) and
 *    tiesPreferCurrent = false (ties uniform, no preference); and for the
 *    feedback (its SwitchNode::GetCongaEgressPort) feedbackRandom: a uniformly
 *    drawn entry of the reverse pair on every packet.
 * Paper settings (Sec. 3.6): Q = 3 bits, tau = 160 us, flowlet timeout 500 us.
 * Defaults here: flowlet timeout 150 us (as Hermes SIGCOMM'17 Sec. 5 ran
 * CONGA); preset CongaPaper() = 500 us, Laps() = 50 us.  Our choices:
 * T_dre = 16 us with alpha = 0.1 (giving the paper's tau = 160 us), a
 * Congestion-To-Leaf entry older than agingNs = 10 ms reads as 0, a
 * Congestion-From-Leaf entry no packet refreshed for agingNs is no longer fed
 * back (as the authors' simulator ages both tables; until 2026-11-30 it was
 * fed back forever), and the quantisation floor(util x 2^Q) saturated at
 * 2^Q - 1.
 */
#ifndef DCN_CONGA_CORE_H
#define DCN_CONGA_CORE_H

#include "letflow-core.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{
namespace lbcore
{

struct CongaConfig
{
    int64_t tDreNs{16'000};            //!< our split of tau = 160 us (Sec. 3.6)
    double alpha{0.1};                 //!< our split of tau = 160 us (Sec. 3.6)
    uint8_t quantBits{3};              //!< Sec. 3.6: Q = 3
    int64_t flowletTimeoutNs{150'000}; //!< Hermes Sec. 5 (CONGA paper: 500 us)
    uint32_t flowletTableSize{65536};  //!< our choice
    int64_t agingNs{10'000'000};       //!< our choice: stale remote metric reads 0
    uint16_t numLeaves{1};
    uint16_t numUplinks{1}; //!< <= 16 (4-bit LBTag)
    /** Candidates of a new flowlet: 0 = every valid path / uplink (Sec. 3.5); s > 0 with
     *  more than s valid ones: s consecutive valid ones from a uniform start (the LAPS
     *  authors' simulator [A], GetCongaBestPath with s = 4). */
    uint16_t pathSamples{0};
    /** Ties keep the flowlet's previous choice if among them (Sec. 3.5); false: uniform
     *  among all ties ([A]). */
    bool tiesPreferCurrent{true};
    /** Feedback entry per packet: false = round robin over the destination's LBTags,
     *  preferring changed entries (Sec. 3.4); true = a uniform draw among the reverse
     *  pair's n entries ([A]: std::rand() % pathNum of the reverse PST entry on every
     *  packet; see FillFeedback(toLeaf, tag, nowNs, n, draw)). */
    bool feedbackRandom{false};

    static CongaConfig CongaPaper()
    {
        CongaConfig c;
        c.flowletTimeoutNs = 500'000;
        return c;
    }

    static CongaConfig Laps()
    {
        CongaConfig c;
        c.flowletTimeoutNs = 50'000;
        return c;
    }
};

/** Discounting Rate Estimator (Sec. 3.2), decayed lazily on access. */
class CongaDre
{
  public:
    void Configure(int64_t tDreNs, double alpha, double linkBps, uint8_t quantBits)
    {
        m_tDre = tDreNs > 0 ? tDreNs : 1;
        m_keep = 1.0 - alpha;
        const double tauS = (static_cast<double>(m_tDre) * 1e-9) / alpha;
        m_fullBytes = linkBps / 8.0 * tauS; // X at 100% utilisation
        m_levels = 1u << quantBits;
        m_x = 0;
        m_lastDecay = 0;
    }

    void OnPacket(uint32_t bytes, int64_t nowNs)
    {
        Decay(nowNs);
        m_x += bytes;
    }

    /** Utilisation estimate X / (C tau). */
    double Utilisation(int64_t nowNs)
    {
        Decay(nowNs);
        return m_x / m_fullBytes;
    }

    /** Quantised metric in [0, 2^Q - 1]. */
    uint8_t Metric(int64_t nowNs)
    {
        const double q = std::floor(Utilisation(nowNs) * m_levels);
        return static_cast<uint8_t>(q >= m_levels - 1 ? m_levels - 1 : q);
    }

  private:
    void Decay(int64_t nowNs)
    {
        if (nowNs < m_lastDecay + m_tDre)
        {
            return;
        }
        const int64_t k = (nowNs - m_lastDecay) / m_tDre;
        m_x *= k == 1 ? m_keep : std::pow(m_keep, static_cast<double>(k));
        m_lastDecay += k * m_tDre;
    }

    double m_x{0};
    double m_keep{0.9};
    double m_fullBytes{1};
    int64_t m_tDre{16'000};
    int64_t m_lastDecay{0};
    uint32_t m_levels{8};
};

/** The 14 bits of the CONGA overlay fields, packed into two bytes (real
 *  header bytes): LBTag(4) | CE(3) | FB_LBTag(4) | FB_Metric(3) | 2 spare. */
struct CongaTag
{
    uint8_t lbTag{0};
    uint8_t ce{0};
    uint8_t fbLbTag{0};
    uint8_t fbMetric{0};
    bool fbValid{false}; //!< spare bit: the feedback fields carry a value

    uint16_t Pack() const
    {
        return static_cast<uint16_t>((lbTag & 0xF) << 12 | (ce & 0x7) << 9 | (fbLbTag & 0xF) << 5 |
                                     (fbMetric & 0x7) << 2 | (fbValid ? 1 : 0) << 1);
    }

    static CongaTag Unpack(uint16_t v)
    {
        CongaTag t;
        t.lbTag = (v >> 12) & 0xF;
        t.ce = (v >> 9) & 0x7;
        t.fbLbTag = (v >> 5) & 0xF;
        t.fbMetric = (v >> 2) & 0x7;
        t.fbValid = (v >> 1) & 1;
        return t;
    }

    /** Hop update at every egress (Sec. 3.3): CE = max(CE, link metric). */
    void UpdateCe(uint8_t linkMetric)
    {
        ce = linkMetric > ce ? linkMetric : ce;
    }
};

struct CongaChoice
{
    uint16_t uplink{0};
    bool newFlowlet{false};
};

/** State of one leaf switch. Tables are sized once in Configure(). */
class CongaLeafCore
{
  public:
    static constexpr uint16_t kMaxUplinks = 16;

    /** \param uplinkBps rate of each uplink (DRE normalisation). */
    bool Configure(const CongaConfig& cfg, const double* uplinkBps)
    {
        m_cfg = cfg;
        bool ok = true;
        if (m_cfg.numUplinks < 1 || m_cfg.numUplinks > kMaxUplinks)
        {
            m_cfg.numUplinks = m_cfg.numUplinks < 1 ? 1 : kMaxUplinks;
            ok = false;
        }
        if (m_cfg.numLeaves < 1 || !(m_cfg.alpha > 0 && m_cfg.alpha <= 1) || m_cfg.quantBits < 1 ||
            m_cfg.quantBits > 3)
        {
            m_cfg.numLeaves = m_cfg.numLeaves < 1 ? 1 : m_cfg.numLeaves;
            m_cfg.alpha = 0.1;
            m_cfg.quantBits = 3;
            ok = false;
        }
        ok = m_flowlets.Configure(m_cfg.flowletTableSize) && ok;
        for (uint16_t u = 0; u < m_cfg.numUplinks; ++u)
        {
            m_dre[u].Configure(m_cfg.tDreNs,
                               m_cfg.alpha,
                               uplinkBps ? uplinkBps[u] : 10e9,
                               m_cfg.quantBits);
        }
        const size_t n = static_cast<size_t>(m_cfg.numLeaves) * m_cfg.numUplinks;
        m_toLeaf.assign(n, RemoteMetric{});
        m_fromLeaf.assign(n, FromEntry{});
        m_rr.assign(m_cfg.numLeaves, 0);
        return ok;
    }

    /**
     * Source leaf: uplink for a packet of flow `flowHash` to `dstLeaf`, among
     * the uplinks whose bit is set in `allowed` (all by default, as in a
     * leaf-spine; the generalised mode passes the destination's minimal next
     * hops).  An empty intersection counts as "all".
     */
    template <class Draw>
    CongaChoice ChooseUplink(uint32_t flowHash,
                             uint16_t dstLeaf,
                             int64_t nowNs,
                             Draw&& draw,
                             uint32_t allowed = 0xFFFFFFFFu)
    {
        FlowletEntry& e = m_flowlets.Lookup(flowHash);
        CongaChoice c;
        const uint32_t all = m_cfg.numUplinks >= 32 ? 0xFFFFFFFFu : ((1u << m_cfg.numUplinks) - 1u);
        if ((allowed & all) == 0)
        {
            allowed = all;
        }
        if (e.valid && nowNs - e.lastSeenNs <= m_cfg.flowletTimeoutNs &&
            e.port < m_cfg.numUplinks && ((allowed >> e.port) & 1u))
        {
            e.lastSeenNs = nowNs;
            c.uplink = e.port;
            return c;
        }
        return NewFlowlet(e, m_cfg.numUplinks, allowed, nowNs, draw, [&](uint16_t u) {
            return PathMetric(dstLeaf, u, nowNs);
        });
    }

    /**
     * Source leaf over a path set (CONGA over the LAPS paths, as the LAPS authors' artifact
     * [A] installs path tables into CONGA's switches): path k < nPaths (<= 16) of the
     * flow's flowlet, chosen on a new flowlet as the k minimising
     * max(local DRE of k's first uplink firstUplink[k], Congestion-To-Leaf[dstLeaf][k]);
     * the remote table is indexed by path (the LBTag), the local DRE by uplink, as several
     * paths may share a first uplink.  Ties, and the window of cfg.pathSamples, as
     * ChooseUplink (NewFlowlet).  O(nPaths) on a new flowlet,
     * else O(1).  Only the paths whose bit is set in `allowed` (the valid ones: no link
     * withdrawn) are candidates; a flowlet whose path left `allowed` takes a new one at once.
     * An empty intersection counts as "all" (as ChooseUplink).
     */
    template <class Draw>
    CongaChoice ChoosePath(uint32_t flowHash,
                           uint16_t dstLeaf,
                           int64_t nowNs,
                           Draw&& draw,
                           uint16_t nPaths,
                           const uint8_t* firstUplink,
                           uint32_t allowed = 0xFFFFFFFFu)
    {
        FlowletEntry& e = m_flowlets.Lookup(flowHash);
        CongaChoice c;
        nPaths = nPaths > m_cfg.numUplinks ? m_cfg.numUplinks : nPaths;
        if (nPaths == 0)
        {
            return c;
        }
        const uint32_t all = nPaths >= 32 ? 0xFFFFFFFFu : ((1u << nPaths) - 1u);
        if ((allowed & all) == 0)
        {
            allowed = all;
        }
        if (e.valid && nowNs - e.lastSeenNs <= m_cfg.flowletTimeoutNs && e.port < nPaths &&
            ((allowed >> e.port) & 1u))
        {
            e.lastSeenNs = nowNs;
            c.uplink = e.port;
            return c;
        }
        return NewFlowlet(e, nPaths, allowed, nowNs, draw, [&](uint16_t k) {
            const uint16_t u = firstUplink[k] < m_cfg.numUplinks ? firstUplink[k] : 0;
            const uint8_t local = m_dre[u].Metric(nowNs);
            const uint8_t remote = GetCongestionToLeaf(dstLeaf, k, nowNs);
            return local > remote ? local : remote;
        });
    }

    /** max(local DRE metric, remote Congestion-To-Leaf metric) of uplink u. */
    uint8_t PathMetric(uint16_t dstLeaf, uint16_t u, int64_t nowNs)
    {
        const uint8_t local = m_dre[u].Metric(nowNs);
        const uint8_t remote = GetCongestionToLeaf(dstLeaf, u, nowNs);
        return local > remote ? local : remote;
    }

    /** A packet leaves on uplink u (DRE update); returns the link's metric
     *  for the CE update of that packet. */
    uint8_t OnUplinkTx(uint16_t u, uint32_t bytes, int64_t nowNs)
    {
        m_dre[u].OnPacket(bytes, nowNs);
        return m_dre[u].Metric(nowNs);
    }

    /** Destination leaf: a packet from srcLeaf arrives with its overlay tag. */
    void OnArrival(uint16_t srcLeaf, const CongaTag& tag, int64_t nowNs)
    {
        if (srcLeaf >= m_cfg.numLeaves)
        {
            return;
        }
        if (tag.lbTag < m_cfg.numUplinks)
        {
            FromEntry& f = m_fromLeaf[Idx(srcLeaf, tag.lbTag)];
            f.changed = f.changed || !f.valid || f.metric != tag.ce;
            f.metric = tag.ce;
            f.updatedNs = nowNs;
            f.valid = true;
        }
        if (tag.fbValid && tag.fbLbTag < m_cfg.numUplinks)
        {
            RemoteMetric& r = m_toLeaf[Idx(srcLeaf, tag.fbLbTag)];
            r.metric = tag.fbMetric;
            r.updatedNs = nowNs;
            r.valid = true;
        }
    }

    /**
     * Feedback to piggy-back on a packet going to leaf `toLeaf` at time
     * `nowNs`: round robin over that leaf's LBTags, preferring entries changed
     * since last sent.  An entry no packet has refreshed for more than agingNs
     * is invalidated first and never fed back (the authors' simulator erases
     * such Congestion-From-Leaf entries; without it a stale metric would keep
     * the source's Congestion-To-Leaf entry fresh forever).
     * Sets tag.fbLbTag / fbMetric / fbValid.  O(uplinks) <= 16.
     */
    void FillFeedback(uint16_t toLeaf, CongaTag& tag, int64_t nowNs)
    {
        tag.fbValid = false;
        if (toLeaf >= m_cfg.numLeaves)
        {
            return;
        }
        const uint16_t n = m_cfg.numUplinks;
        uint16_t start = m_rr[toLeaf];
        int pick = -1;
        for (uint16_t i = 0; i < n && pick < 0; ++i) // first a changed entry
        {
            const uint16_t t = (start + i) % n;
            FromEntry& f = m_fromLeaf[Idx(toLeaf, t)];
            if (f.valid && nowNs - f.updatedNs > m_cfg.agingNs)
            {
                f.valid = false; // aged out (lazily, as the authors' AgingEvent)
                f.changed = false;
            }
            if (f.valid && f.changed)
            {
                pick = t;
            }
        }
        for (uint16_t i = 0; i < n && pick < 0; ++i) // else plain round robin
        {
            const uint16_t t = (start + i) % n;
            if (m_fromLeaf[Idx(toLeaf, t)].valid)
            {
                pick = t;
            }
        }
        if (pick < 0)
        {
            return;
        }
        FromEntry& f = m_fromLeaf[Idx(toLeaf, pick)];
        f.changed = false;
        tag.fbLbTag = static_cast<uint8_t>(pick);
        tag.fbMetric = f.metric;
        tag.fbValid = true;
        m_rr[toLeaf] = static_cast<uint16_t>((pick + 1) % n);
    }

    /**
     * FillFeedback with the choice of cfg.feedbackRandom.  false: the round robin above,
     * `draw` is never called.  true (the LAPS authors' simulator [A], SwitchNode::
     * GetCongaEgressPort): entry k of Congestion-From-Leaf[toLeaf] drawn uniformly in
     * [0, nEntries) (nEntries: the paths of the reverse pair, those whose LBTag packets
     * from toLeaf carry; at most cfg.numUplinks; one draw per packet unless nEntries is
     * 1), then: never set by an arrival: no feedback ([A] sends its never-written
     * metric CONGA_NULL, which the receiver ignores); not refreshed for more than
     * agingNs: metric 0 ([A]'s AgingEvent zeroes it); else its metric.  A fed-back entry
     * counts as refreshed (nowNs), as [A]'s receiver writes the fed-back value and the
     * update time back into its one table.  draw(k) returns a uniform integer in
     * [0, k).  O(uplinks) (round robin) or O(1) (random).
     */
    template <class Draw>
    void FillFeedback(uint16_t toLeaf, CongaTag& tag, int64_t nowNs, uint16_t nEntries, Draw&& draw)
    {
        if (!m_cfg.feedbackRandom)
        {
            FillFeedback(toLeaf, tag, nowNs);
            return;
        }
        tag.fbValid = false;
        const uint16_t n = nEntries < m_cfg.numUplinks ? nEntries : m_cfg.numUplinks;
        if (toLeaf >= m_cfg.numLeaves || n == 0)
        {
            return;
        }
        const uint16_t k = n == 1 ? 0 : static_cast<uint16_t>(draw(static_cast<uint32_t>(n)));
        if (k >= n)
        {
            return;
        }
        FromEntry& f = m_fromLeaf[Idx(toLeaf, k)];
        if (!f.valid)
        {
            return; // never set: [A]'s CONGA_NULL, ignored by the receiver
        }
        if (nowNs - f.updatedNs > m_cfg.agingNs)
        {
            f.metric = 0; // aged: [A]'s AgingEvent zeroes the entry
        }
        f.updatedNs = nowNs;
        f.changed = false;
        tag.fbLbTag = static_cast<uint8_t>(k);
        tag.fbMetric = f.metric;
        tag.fbValid = true;
    }

    uint8_t GetCongestionToLeaf(uint16_t dstLeaf, uint16_t u, int64_t nowNs) const
    {
        if (dstLeaf >= m_cfg.numLeaves || u >= m_cfg.numUplinks)
        {
            return 0;
        }
        const RemoteMetric& r = m_toLeaf[Idx(dstLeaf, u)];
        return r.valid && nowNs - r.updatedNs <= m_cfg.agingNs ? r.metric : 0;
    }

    /** Whether Congestion-To-Leaf[dstLeaf][u] holds a fed-back value younger than agingNs. */
    bool IsCongestionToLeafValid(uint16_t dstLeaf, uint16_t u, int64_t nowNs) const
    {
        if (dstLeaf >= m_cfg.numLeaves || u >= m_cfg.numUplinks)
        {
            return false;
        }
        const RemoteMetric& r = m_toLeaf[Idx(dstLeaf, u)];
        return r.valid && nowNs - r.updatedNs <= m_cfg.agingNs;
    }

    uint8_t GetCongestionFromLeaf(uint16_t srcLeaf, uint16_t lbTag) const
    {
        return m_fromLeaf[Idx(srcLeaf, lbTag)].metric;
    }

    /** Whether Congestion-From-Leaf[srcLeaf][lbTag] may still be fed back at nowNs. */
    bool IsCongestionFromLeafValid(uint16_t srcLeaf, uint16_t lbTag, int64_t nowNs) const
    {
        if (srcLeaf >= m_cfg.numLeaves || lbTag >= m_cfg.numUplinks)
        {
            return false;
        }
        const FromEntry& f = m_fromLeaf[Idx(srcLeaf, lbTag)];
        return f.valid && nowNs - f.updatedNs <= m_cfg.agingNs;
    }

    CongaDre& GetDre(uint16_t u)
    {
        return m_dre[u];
    }

    const CongaConfig& GetConfig() const
    {
        return m_cfg;
    }

  private:
    /**
     * A new flowlet of entry `e` (ChooseUplink, ChoosePath): the candidate k < n whose bit
     * is set in `allowed` with the least metric(k); the flowlet's previous choice if it is
     * among the ties (cfg.tiesPreferCurrent), else a uniform draw among them.  With
     * cfg.pathSamples = s > 0 and more than s allowed k, the candidates are s consecutive
     * allowed k (in index order) from the r-th allowed one, r a uniform draw in
     * [0, allowed - s] made before the tie draw ([A]'s window); otherwise no extra draw.
     * n <= kMaxUplinks; O(n), no allocation.
     */
    template <class Draw, class Metric>
    CongaChoice NewFlowlet(FlowletEntry& e,
                           uint16_t n,
                           uint32_t allowed,
                           int64_t nowNs,
                           Draw& draw,
                           Metric&& metric)
    {
        CongaChoice c;
        uint16_t ties[kMaxUplinks];
        uint16_t nTies = 0;
        uint8_t best = 0xFF;
        bool prevAmongTies = false;
        // [A]'s window: ranks [first, first + s) among the allowed candidates
        uint16_t first = 0;
        uint16_t last = kMaxUplinks; // exclusive rank bound
        const uint16_t s = m_cfg.pathSamples;
        if (s > 0)
        {
            const uint32_t mask = n >= 32 ? 0xFFFFFFFFu : ((1u << n) - 1u);
            uint32_t bits = allowed & mask;
            uint16_t nAllowed = 0;
            for (; bits != 0; bits &= bits - 1)
            {
                ++nAllowed;
            }
            if (nAllowed > s)
            {
                first = static_cast<uint16_t>(draw(static_cast<uint32_t>(nAllowed - s + 1)));
                last = static_cast<uint16_t>(first + s);
            }
        }
        const bool keepPrev = m_cfg.tiesPreferCurrent;
        uint16_t rank = 0;
        for (uint16_t k = 0; k < n; ++k)
        {
            if (((allowed >> k) & 1u) == 0)
            {
                continue;
            }
            const uint16_t r = rank++;
            if (r < first || r >= last)
            {
                continue;
            }
            const uint8_t m = metric(k);
            if (m < best)
            {
                best = m;
                nTies = 0;
                prevAmongTies = false;
            }
            if (m == best)
            {
                ties[nTies++] = k;
                prevAmongTies = prevAmongTies || (keepPrev && e.valid && e.port == k);
            }
        }
        c.uplink = prevAmongTies ? e.port : ties[nTies == 1 ? 0 : draw(nTies)];
        c.newFlowlet = true;
        e.port = c.uplink;
        e.valid = true;
        e.lastSeenNs = nowNs;
        return c;
    }

    struct RemoteMetric
    {
        int64_t updatedNs{0};
        uint8_t metric{0};
        bool valid{false};
    };

    struct FromEntry
    {
        int64_t updatedNs{0}; //!< arrival of the last packet that set metric
        uint8_t metric{0};
        bool valid{false};
        bool changed{false};
    };

    size_t Idx(uint16_t leaf, uint16_t u) const
    {
        return static_cast<size_t>(leaf) * m_cfg.numUplinks + u;
    }

    CongaConfig m_cfg;
    CongaDre m_dre[kMaxUplinks];
    FlowletTable m_flowlets;
    std::vector<RemoteMetric> m_toLeaf;
    std::vector<FromEntry> m_fromLeaf;
    std::vector<uint16_t> m_rr;
};

} // namespace lbcore
} // namespace ns3

#endif // DCN_CONGA_CORE_H
