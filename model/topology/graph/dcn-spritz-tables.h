/*
 * Spritz source-guided routing as pure functions (spritz spec 2.2-2.7), shared by the
 * switch forwarding policy (phase 2) and the endpoint path selector:
 *  - per-switch ECMP tables T1_inter / T1_intra / T2 (DF) and T1 = T2 (SF), ordered
 *    by neighbour switch id (port order of SwitchGraph::Ports);
 *  - role detection and the forwarding decision of one switch for (src switch,
 *    dst switch, hop index, 16-bit EV): O(1), no allocation;
 *  - the endpoint enumeration of 2.6: which (EV1, EV2) yields which path, deduplicated,
 *    sorted by latency (ties by (e1, e2)), with (L,G) class and Eq. 1 weights.
 * Entries are compact (no path stored); Replay() rebuilds an entry's path on demand.
 */
#ifndef DCN_SPRITZ_TABLES_H
#define DCN_SPRITZ_TABLES_H

#include "dcn-graph-routing.h"

#include <cstdint>
#include <string>
#include <vector>

namespace dcn
{

enum class SpritzRole : uint8_t
{
    ECMP1,   //!< first switch (hop index 0): T1[EV1 mod |T1|]
    ECMP2,   //!< second switch (DF: still in the source group of an inter-group pair; SF: always)
    DEFAULT, //!< every other switch: the default (minimal) next hop
};

/** One endpoint path entry (spritz spec 2.1: EV1, EV2 + metadata). */
struct SpritzEntry
{
    uint8_t e1{0};     //!< EV1 (index into T1 of the source switch)
    uint8_t e2{0};     //!< EV2 (index into T2 of the second switch; 0 if unused)
    uint8_t local{0};  //!< L of (L,G)
    uint8_t global{0}; //!< G of (L,G)
    uint8_t hops{0};
    uint8_t minimal{0};    //!< 1 if every hop is a minimal next hop
    uint16_t via{0xffff};  //!< non-minimal: intermediate group (DF inter), else router
    uint32_t latencyPs{0}; //!< sum of per-hop latency (spec 1.3), integer ps

    uint16_t Ev() const
    {
        return static_cast<uint16_t>((e1 << 8) | e2);
    }

    double LatencyNs() const
    {
        return latencyPs / 1e3;
    }
};

class SpritzTables
{
  public:
    /** Build the tables of a Dragonfly or Slim Fly graph (Error() says why not). */
    explicit SpritzTables(const MinimalRouting& mr);

    const std::string& Error() const
    {
        return m_error;
    }

    bool IsDragonfly() const
    {
        return m_df;
    }

    /** Port indices (into Graph().Ports(s)), ascending = by neighbour id. */
    const std::vector<uint32_t>& T1Inter(uint32_t s) const
    {
        return m_t1inter[s];
    }

    const std::vector<uint32_t>& T1Intra(uint32_t s) const
    {
        return m_t1intra[s];
    }

    const std::vector<uint32_t>& T2(uint32_t s) const
    {
        return m_t2[s];
    }

    /** T1 used at src for a packet to dst (DF: intra or inter; SF: all ports). */
    const std::vector<uint32_t>& T1(uint32_t src, uint32_t dst) const;

    static uint8_t Ev1(uint16_t ev)
    {
        return static_cast<uint8_t>(ev >> 8);
    }

    static uint8_t Ev2(uint16_t ev)
    {
        return static_cast<uint8_t>(ev & 0xff);
    }

    /** Role of switch self for a packet src -> dst at hop index hopIdx (spec 2.3). */
    SpritzRole Role(uint32_t self, uint32_t src, uint32_t dst, uint32_t hopIdx) const;
    /**
     * Egress port index at self (spec 2.4, fine-grained mode, data packets); NONE if
     * self == dst (deliver to the host port).  O(1).
     */
    uint32_t Forward(uint32_t self, uint32_t src, uint32_t dst, uint32_t hopIdx, uint16_t ev) const;
    /** Follow Forward() from src for ev; stops at dst or after maxHops hops. */
    GraphPath Replay(uint32_t src, uint32_t dst, uint16_t ev, uint32_t maxHops = 16) const;

    /** Spec 2.6 enumeration for one pair (src != dst), sorted, index 0 = shortest. */
    std::vector<SpritzEntry> Enumerate(uint32_t src, uint32_t dst) const;
    /** Eq. 1 weights lat_longest / lat_i, the non-longest scaled by wScale (spec 2.7). */
    static std::vector<double> Weights(const std::vector<SpritzEntry>& entries,
                                       double wScale = 3.0);

    const MinimalRouting& Routing() const
    {
        return m_mr;
    }

  private:
    const MinimalRouting& m_mr;
    bool m_df{false};
    std::string m_error;
    std::vector<std::vector<uint32_t>> m_t1inter, m_t1intra, m_t2;
    PathBound m_bound;
};

/** All entries of one source switch, per destination switch (static compression, 2.6). */
class SpritzSourceTable
{
  public:
    SpritzSourceTable(const SpritzTables& t, uint32_t src);

    uint32_t Source() const
    {
        return m_src;
    }

    /** Entries towards dst (empty for dst == src). */
    const SpritzEntry* Begin(uint32_t dst) const
    {
        return m_entries.data() + m_first[dst];
    }

    uint32_t Count(uint32_t dst) const
    {
        return m_first[dst + 1] - m_first[dst];
    }

    uint32_t MaxCount() const
    {
        return m_max;
    }

    size_t TotalEntries() const
    {
        return m_entries.size();
    }

    size_t MemoryBytes() const
    {
        return m_entries.capacity() * sizeof(SpritzEntry) + m_first.capacity() * sizeof(uint32_t);
    }

  private:
    uint32_t m_src;
    uint32_t m_max{0};
    std::vector<uint32_t> m_first;
    std::vector<SpritzEntry> m_entries;
};

} // namespace dcn

#endif // DCN_SPRITZ_TABLES_H
