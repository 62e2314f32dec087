/*
 * Receiver reorder buffer of Presto* (issue 14, issue 17), ns-3-free.
 *
 * Hermes (SIGCOMM'17 Sec. 5) ran Presto* as "spray packets instead of flowcells,
 * and implement a reordering buffer to mask packet reordering"; Presto (SIGCOMM'15
 * Sec. 3.2) does it in GRO.  This core keeps one connection's byte sequence:
 *   - a segment at the next expected sequence is delivered at once, followed by
 *     every held segment it makes contiguous;
 *   - a segment above it (a gap) is held, in sequence order;
 *   - a segment below it (a retransmission, a duplicate) is delivered at once, so
 *     the transport's own loss recovery sees it;
 *   - Flush() (the caller's timeout, or a full buffer) delivers every held segment
 *     in order and moves the expected sequence past the last one: a gap that the
 *     timeout did not fill is a loss for the transport above.
 * Sequence numbers are 32-bit with wrap-around (TCP); lengths are sequence space
 * (payload, +1 for SYN or FIN).  Capacity is fixed at construction (no allocation
 * per segment).  Timeout and capacity values are the caller's (the TCP shim:
 * 50 us from the Hermes authors' ns-3 resequence buffer, 256 segments ours).
 */
#ifndef DCN_REORDER_CORE_H
#define DCN_REORDER_CORE_H

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ns3
{
namespace lbcore
{

/** a < b in 32-bit sequence space. */
inline bool
ReorderSeqLess(uint32_t a, uint32_t b)
{
    return static_cast<int32_t>(a - b) < 0;
}

template <typename Item>
class ReorderBuffer
{
  public:
    /** What Offer did with a segment. */
    enum Outcome
    {
        DELIVERED,  //!< in order (and possibly released held ones)
        PASSED_OLD, //!< below the expected sequence: delivered at once
        HELD,       //!< above the expected sequence: kept
        OVERFLOW,   //!< the buffer was full: everything flushed, this one included
    };

    explicit ReorderBuffer(std::size_t capacity = 256)
        : m_capacity(capacity < 1 ? 1 : capacity)
    {
        m_held.reserve(m_capacity + 1); // + the one that overflows
    }

    /**
     * Offer one segment [seq, seq + len) with len > 0; deliver(Item&&) is called for
     * every segment released, in sequence order.
     */
    template <typename Deliver>
    Outcome Offer(uint32_t seq, uint32_t len, Item item, Deliver&& deliver)
    {
        if (!m_init)
        {
            m_init = true;
            m_next = seq;
        }
        if (seq == m_next)
        {
            m_next = seq + len;
            deliver(std::move(item));
            Drain(deliver);
            return DELIVERED;
        }
        if (ReorderSeqLess(seq, m_next))
        {
            deliver(std::move(item));
            if (ReorderSeqLess(m_next, seq + len))
            {
                // a retransmission that crosses the original segments' boundaries and
                // ends past the expected sequence: it fills the gap too (review s41 C5)
                m_next = seq + len;
                Drain(deliver);
            }
            return PASSED_OLD;
        }
        if (m_held.size() >= m_capacity)
        {
            Insert(seq, len, std::move(item));
            Flush(deliver);
            return OVERFLOW;
        }
        Insert(seq, len, std::move(item));
        return HELD;
    }

    /** Deliver every held segment in order; the expected sequence moves past them. */
    template <typename Deliver>
    void Flush(Deliver&& deliver)
    {
        for (auto& h : m_held)
        {
            if (!ReorderSeqLess(h.seq + h.len, m_next))
            {
                m_next = h.seq + h.len;
            }
            deliver(std::move(h.item));
        }
        m_held.clear();
    }

    bool Empty() const
    {
        return m_held.empty();
    }

    std::size_t Held() const
    {
        return m_held.size();
    }

    uint32_t Next() const
    {
        return m_next;
    }

  private:
    struct Entry
    {
        uint32_t seq;
        uint32_t len;
        Item item;
    };

    /** Insert in sequence order (the buffer is small; segments mostly come near in order). */
    void Insert(uint32_t seq, uint32_t len, Item&& item)
    {
        std::size_t i = m_held.size();
        while (i > 0 && ReorderSeqLess(seq, m_held[i - 1].seq))
        {
            --i;
        }
        m_held.insert(m_held.begin() + static_cast<std::ptrdiff_t>(i),
                      Entry{seq, len, std::move(item)});
    }

    /** Release the held segments that are now contiguous (or already covered). */
    template <typename Deliver>
    void Drain(Deliver& deliver)
    {
        std::size_t k = 0;
        while (k < m_held.size() && !ReorderSeqLess(m_next, m_held[k].seq))
        {
            Entry& h = m_held[k];
            if (ReorderSeqLess(m_next, h.seq + h.len))
            {
                m_next = h.seq + h.len;
            }
            deliver(std::move(h.item));
            ++k;
        }
        m_held.erase(m_held.begin(), m_held.begin() + static_cast<std::ptrdiff_t>(k));
    }

    std::size_t m_capacity;
    std::vector<Entry> m_held;
    bool m_init{false};
    uint32_t m_next{0};
};

} // namespace lbcore
} // namespace ns3

#endif // DCN_REORDER_CORE_H
