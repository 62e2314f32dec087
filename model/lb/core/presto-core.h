/*
 * Presto* sender: flowcells of at most 64 KB sprayed over the paths in
 * (weighted) round robin.  He et al., "Presto: Edge-based Load Balancing for
 * Fast Datacenter Networks", SIGCOMM'15, Sec. 3.1 (flowcell = 64 KB, the
 * maximum TSO segment; round robin over label-switched paths) and Sec. 3.3
 * (weighted multipathing under asymmetry: static weights from the topology).
 * Hermes (SIGCOMM'17 Sec. 5) ran "Presto*": spraying with a receiver reorder
 * buffer and static topology weights.  The reorder buffer belongs to the
 * receiver transport (phase 2), not to this core.
 */
#ifndef DCN_PRESTO_CORE_H
#define DCN_PRESTO_CORE_H

#include "lb-core-common.h"

namespace ns3
{
namespace lbcore
{

struct PrestoConfig
{
    uint32_t flowcellBytes{65536}; //!< SIGCOMM'15 Sec. 3.1: 64 KB
    uint16_t numPaths{1};          //!< 1..kMaxPaths
    /** Static path weights (Sec. 3.3); 0 = path unused.  Default: equal. */
    double weights[kMaxPaths] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
};

class PrestoCore
{
  public:
    /**
     * \param start uniform draw in [0, numPaths): how many WRR steps to skip so
     *        that flows do not start in lock step (our choice).
     * \return false if a value was out of range (then clamped / defaulted)
     */
    bool Configure(const PrestoConfig& cfg, uint16_t start = 0)
    {
        m_cfg = cfg;
        bool ok = true;
        if (m_cfg.numPaths < 1 || m_cfg.numPaths > kMaxPaths)
        {
            m_cfg.numPaths = m_cfg.numPaths < 1 ? 1 : kMaxPaths;
            ok = false;
        }
        if (m_cfg.flowcellBytes < 1)
        {
            m_cfg.flowcellBytes = 65536;
            ok = false;
        }
        double total = 0;
        for (uint16_t i = 0; i < m_cfg.numPaths; ++i)
        {
            if (m_cfg.weights[i] < 0)
            {
                m_cfg.weights[i] = 0;
                ok = false;
            }
            total += m_cfg.weights[i];
        }
        if (total <= 0)
        {
            for (uint16_t i = 0; i < m_cfg.numPaths; ++i)
            {
                m_cfg.weights[i] = 1;
            }
            ok = false;
        }
        m_wrr.Reset(m_cfg.numPaths);
        for (uint16_t i = 0; i < start % m_cfg.numPaths; ++i)
        {
            m_wrr.Next(m_cfg.weights);
        }
        m_cellBytes = 0;
        m_cellId = 0;
        m_started = false;
        m_path = 0;
        return ok;
    }

    /**
     * Path of the next segment of `bytes` payload bytes.  A new flowcell
     * starts when the segment would make the current one exceed
     * flowcellBytes (a segment larger than a flowcell gets a cell of its
     * own).  O(1) per packet, O(paths) once per flowcell.
     */
    uint16_t OnSend(uint32_t bytes)
    {
        if (!m_started || m_cellBytes + bytes > m_cfg.flowcellBytes)
        {
            if (m_started)
            {
                ++m_cellId;
            }
            m_started = true;
            m_cellBytes = 0;
            m_path = m_wrr.Next(m_cfg.weights);
        }
        m_cellBytes += bytes;
        return m_path;
    }

    uint32_t GetFlowcellId() const
    {
        return m_cellId;
    }

    const PrestoConfig& GetConfig() const
    {
        return m_cfg;
    }

  private:
    PrestoConfig m_cfg;
    SmoothWrr m_wrr;
    uint64_t m_cellBytes{0};
    uint32_t m_cellId{0};
    uint16_t m_path{0};
    bool m_started{false};
};

} // namespace lbcore
} // namespace ns3

#endif // DCN_PRESTO_CORE_H
