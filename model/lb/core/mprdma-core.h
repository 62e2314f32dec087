/*
 * MPRDMA-style ACK-clocked spraying.  Lu et al., "Multi-Path Transport for
 * RDMA in Datacenters", NSDI'18, Sec. 3.2: each ACK carries the virtual path
 * (EV) of the packet it acknowledges, and the packet that the ACK clocks out
 * is sent on that same EV, so paths that deliver quickly carry more traffic.
 * As the REPS paper ran it (spec reps.md 3.4): "a packet reuses the EV of the
 * ACK that opened the window".  When no ACK credit is pending (start of the
 * flow, window growth) the packet takes a fresh random EV (NSDI'18 also sends
 * the extra packet of a window increase on a new random path).
 *
 * Credits are kept FIFO in a fixed ring of Cap entries; if the window shrinks
 * and credits pile up, the oldest are overwritten (and the wrapper may call
 * ClearCredits() on a timeout).  recycleMarked=false leaves ECN-marked EVs out
 * (our option; default true: every ACK clocks, the CC decides whether a
 * packet may leave).
 */
#ifndef DCN_MPRDMA_CORE_H
#define DCN_MPRDMA_CORE_H

#include <cstdint>

namespace ns3
{
namespace lbcore
{

struct MprdmaConfig
{
    bool recycleMarked{true}; //!< reuse the EV of ECN-marked ACKs too (spec reps.md 3.4: every ACK)
};

struct MprdmaChoice
{
    uint16_t ev{0};
    bool reused{false}; //!< true: the EV of an ACK; false: fresh random EV
};

template <uint16_t Cap = 256>
class MprdmaCore
{
  public:
    void Configure(const MprdmaConfig& cfg)
    {
        m_cfg = cfg;
        ClearCredits();
    }

    /** An ACK for a packet sent on `ev`. O(1). */
    void OnAck(uint16_t ev, bool ecn)
    {
        if (ecn && !m_cfg.recycleMarked)
        {
            return;
        }
        if (m_count == Cap)
        {
            m_head = static_cast<uint16_t>((m_head + 1) % Cap); // drop the oldest
            --m_count;
        }
        m_ring[(m_head + m_count) % Cap] = ev;
        ++m_count;
    }

    /** EV of the next packet. \param rng callable returning a uniform EV. O(1). */
    template <class Rng>
    MprdmaChoice Next(Rng&& rng)
    {
        if (m_count > 0)
        {
            const uint16_t ev = m_ring[m_head];
            m_head = static_cast<uint16_t>((m_head + 1) % Cap);
            --m_count;
            return MprdmaChoice{ev, true};
        }
        return MprdmaChoice{static_cast<uint16_t>(rng()), false};
    }

    void ClearCredits()
    {
        m_head = 0;
        m_count = 0;
    }

    uint16_t GetPendingCredits() const
    {
        return m_count;
    }

  private:
    MprdmaConfig m_cfg;
    uint16_t m_ring[Cap]{};
    uint16_t m_head{0};
    uint16_t m_count{0};
};

} // namespace lbcore
} // namespace ns3

#endif // DCN_MPRDMA_CORE_H
