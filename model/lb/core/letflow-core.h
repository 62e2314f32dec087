/*
 * LetFlow switch-side flowlet table.  Vanini et al., "Let It Flow: Resilient
 * Asymmetric Load Balancing with Flowlet Switching", NSDI'17, Sec. 3: a table
 * indexed by a hash of the flow's 5-tuple holds, per entry, the egress port
 * and the time of the last packet; a packet that arrives more than the
 * flowlet timeout after the previous one of its entry starts a new flowlet
 * and picks a port uniformly at random among the candidates; otherwise it
 * keeps the entry's port.  Flows that hash to one entry share it, as in the
 * hardware table.
 *
 * Timeout presets: Laps() = 50 us (LAPS paper, evaluation setup), Hermes() =
 * 150 us (Hermes SIGCOMM'17 Sec. 5, the default here).  Table size 64 Ki
 * entries is our choice (a power of two, indexed with the low hash bits).
 * If the entry's port is no longer a candidate (failure, different candidate
 * set), the packet starts a new flowlet (our choice).
 */
#ifndef DCN_LETFLOW_CORE_H
#define DCN_LETFLOW_CORE_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{
namespace lbcore
{

struct LetflowConfig
{
    uint32_t tableSize{65536};  //!< entries, a power of two (our choice)
    int64_t timeoutNs{150'000}; //!< Hermes Sec. 5: 150 us

    static LetflowConfig Laps()
    {
        LetflowConfig c;
        c.timeoutNs = 50'000; // LAPS evaluation: 50 us
        return c;
    }

    static LetflowConfig Hermes()
    {
        return LetflowConfig{};
    }
};

/** One flowlet-table entry (shared by LetFlow and CONGA). */
struct FlowletEntry
{
    int64_t lastSeenNs{0};
    uint16_t port{0};
    bool valid{false};
};

/** Hash-indexed flowlet table; memory allocated once in Configure(). */
class FlowletTable
{
  public:
    /** \return false if size is 0 or not a power of two (then rounded up). */
    bool Configure(uint32_t size)
    {
        bool ok = size > 0 && (size & (size - 1)) == 0;
        uint32_t s = 1;
        while (s < size && s < (1u << 30))
        {
            s <<= 1;
        }
        m_mask = s - 1;
        m_entries.assign(s, FlowletEntry{});
        return ok;
    }

    FlowletEntry& Lookup(uint32_t flowHash)
    {
        return m_entries[flowHash & m_mask];
    }

    uint32_t Size() const
    {
        return m_mask + 1;
    }

  private:
    std::vector<FlowletEntry> m_entries;
    uint32_t m_mask{0};
};

struct LetflowChoice
{
    uint16_t port{0};       //!< index into the candidate list
    bool newFlowlet{false}; //!< a fresh random choice was made
};

class LetflowCore
{
  public:
    bool Configure(const LetflowConfig& cfg)
    {
        m_cfg = cfg;
        bool ok = m_table.Configure(cfg.tableSize);
        if (m_cfg.timeoutNs < 0)
        {
            m_cfg.timeoutNs = 0;
            ok = false;
        }
        return ok;
    }

    /**
     * Egress choice for one packet. O(1).
     * \param flowHash hash of the packet's 5-tuple (including the EV)
     * \param numCandidates equal-cost candidate ports (>= 1)
     * \param draw callable: uniform integer in [0, n)
     */
    template <class Draw>
    LetflowChoice Choose(uint32_t flowHash, uint16_t numCandidates, int64_t nowNs, Draw&& draw)
    {
        FlowletEntry& e = m_table.Lookup(flowHash);
        LetflowChoice c;
        if (!e.valid || nowNs - e.lastSeenNs > m_cfg.timeoutNs || e.port >= numCandidates)
        {
            e.port = static_cast<uint16_t>(draw(numCandidates));
            e.valid = true;
            c.newFlowlet = true;
            ++m_flowlets;
        }
        e.lastSeenNs = nowNs;
        c.port = e.port;
        return c;
    }

    uint64_t GetFlowlets() const
    {
        return m_flowlets;
    }

    const LetflowConfig& GetConfig() const
    {
        return m_cfg;
    }

    /** Entries of the flowlet table (tableSize rounded up to a power of two). */
    uint32_t GetTableSize() const
    {
        return m_table.Size();
    }

  private:
    LetflowConfig m_cfg;
    FlowletTable m_table;
    uint64_t m_flowlets{0};
};

} // namespace lbcore
} // namespace ns3

#endif // DCN_LETFLOW_CORE_H
