/*
 * DRB (Digit-Reversal Bouncing): per-packet round robin over the paths of a
 * connection.  Cao et al., "Per-packet Load-balanced, Low-latency Routing for
 * Clos-based Data Center Networks", CoNEXT'13, Sec. 3 (the sender cycles
 * through the bouncing switches packet by packet).  As Hermes (SIGCOMM'17,
 * Table 1 / Sec. 5) ran it: per-packet round robin over the parallel paths.
 * ns-3-free core; the path index is mapped to an EV by the wrapper.
 */
#ifndef DCN_DRB_CORE_H
#define DCN_DRB_CORE_H

#include "lb-core-common.h"

namespace ns3
{
namespace lbcore
{

struct DrbConfig
{
    uint16_t numPaths{1}; //!< paths of the connection, 1..kMaxPaths
    /** Start at a random path (our choice: desynchronises flows; the
     *  paper's digit-reversal order only fixes the cyclic order). */
    bool randomStart{true};
};

class DrbCore
{
  public:
    /** \param start a uniform draw in [0, numPaths) used if randomStart.
     *  \return false if numPaths is out of range (then clamped). */
    bool Configure(const DrbConfig& cfg, uint16_t start = 0)
    {
        m_cfg = cfg;
        bool ok = true;
        if (m_cfg.numPaths < 1 || m_cfg.numPaths > kMaxPaths)
        {
            m_cfg.numPaths = m_cfg.numPaths < 1 ? 1 : kMaxPaths;
            ok = false;
        }
        m_next = m_cfg.randomStart ? static_cast<uint16_t>(start % m_cfg.numPaths) : 0;
        return ok;
    }

    /** Path of the next packet (new data and retransmissions alike). O(1). */
    uint16_t Next()
    {
        const uint16_t p = m_next;
        m_next = static_cast<uint16_t>((m_next + 1) % m_cfg.numPaths);
        return p;
    }

    const DrbConfig& GetConfig() const
    {
        return m_cfg;
    }

  private:
    DrbConfig m_cfg;
    uint16_t m_next{0};
};

} // namespace lbcore
} // namespace ns3

#endif // DCN_DRB_CORE_H
