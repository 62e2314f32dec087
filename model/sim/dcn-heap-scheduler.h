/*
 * DcnHeapScheduler: an ns-3 event scheduler (issue 13, speed): a few sorted
 * FIFO lanes in front of an implicit 4-ary min-heap, all in contiguous arrays.
 *
 * Events leave in exactly the order of every ns-3 scheduler: by time stamp,
 * then by the simulator-assigned uid (Scheduler::EventKey's operator<), which
 * is a strict total order, so a run gives the same results, byte for byte, as
 * with ns3::MapScheduler.  What changes is the cost.  In a packet network most
 * events come in streams scheduled at "now + a fixed delay" (a link's
 * propagation, a port's transmission of equal-size packets): each such stream
 * is already sorted.  An event is appended to the lane whose last event is the
 * latest one still before it (best fit; an empty lane takes anything), so each
 * lane stays sorted and a stream settles in a lane of its own; only events that
 * fit no lane go to the heap.  The next event is the earliest of the lane fronts
 * and the heap top.  MapScheduler instead allocates a red-black tree node per
 * event and walks pointers scattered over memory.
 *
 * Complexity: Insert O(LANES) or O(log4 n) into the heap, RemoveNext
 * O(LANES) plus O(log4 n) when the heap's top leaves, PeekNext O(LANES);
 * Remove O(n) (a linear search; ns-3 cancels events with EventId::Cancel,
 * which leaves them in the list, and calls Remove only for Simulator::Remove).
 * No allocation per event (the arrays grow by doubling).
 */
#ifndef DCN_HEAP_SCHEDULER_H
#define DCN_HEAP_SCHEDULER_H

#include "ns3/nstime.h"
#include "ns3/scheduler.h"

#include <cstddef>
#include <vector>

namespace ns3
{

/**
 * \ingroup dcn-lb
 * An event scheduler of sorted lanes and an implicit 4-ary heap (same event
 * order as MapScheduler, fewer instructions and cache misses per event).
 */
class DcnHeapScheduler : public Scheduler
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();

    DcnHeapScheduler();
    ~DcnHeapScheduler() override;

    void Insert(const Event& ev) override;
    bool IsEmpty() const override;
    Event PeekNext() const override;
    Event RemoveNext() override;
    void Remove(const Event& ev) override;

    /** Children per heap node. */
    static constexpr std::size_t ARITY = 4;
    /** Sorted FIFO lanes in front of the heap. */
    static constexpr std::size_t LANES = 8;

  private:
    /** A FIFO of events in increasing order: a ring buffer that grows by doubling. */
    class Lane
    {
      public:
        bool Empty() const
        {
            return m_count == 0;
        }

        std::size_t Size() const
        {
            return m_count;
        }

        std::size_t Capacity() const
        {
            return m_buf.size();
        }

        const Event& Front() const
        {
            return m_buf[m_head];
        }

        const Event& Back() const
        {
            return m_buf[(m_head + m_count - 1) & m_mask];
        }

        const Event& At(std::size_t i) const
        {
            return m_buf[(m_head + i) & m_mask];
        }

        void PushBack(const Event& ev)
        {
            if (m_count == m_buf.size())
            {
                Grow();
            }
            m_buf[(m_head + m_count) & m_mask] = ev;
            ++m_count;
        }

        Event PopFront()
        {
            const std::size_t h = m_head;
            m_head = (m_head + 1) & m_mask;
            --m_count;
            return m_buf[h];
        }

        /** Remove the i-th event (keeps the order). */
        void EraseAt(std::size_t i);

      private:
        /** Double the capacity (64 at first), unrolling the ring to index 0. */
        void Grow();

        std::vector<Event> m_buf; //!< capacity a power of two (or 0)
        std::size_t m_head{0};    //!< index of the front
        std::size_t m_count{0};   //!< events held
        std::size_t m_mask{0};    //!< capacity - 1
    };

    /** (time stamp, uid) as one number: the events' order is this number's order. */
    __extension__ typedef unsigned __int128 Key;

    static Key KeyOf(const Event& ev)
    {
        return (Key(ev.key.m_ts) << 32) | ev.key.m_uid;
    }

    /** Where the next event is: a lane index, or LANES for the heap top. */
    std::size_t NextSource() const;
    /** Refresh m_front[l] / m_back[l] after lane l changed. */
    void UpdateLaneKeys(std::size_t l);
    /** LaneHorizon attribute. */
    void SetLaneHorizon(Time horizon);
    Time GetLaneHorizon() const;

    /** Scheduler::EventKey's order: time stamp, then uid. */
    static bool Earlier(const Event& a, const Event& b)
    {
        return a.key.m_ts < b.key.m_ts || (a.key.m_ts == b.key.m_ts && a.key.m_uid < b.key.m_uid);
    }

    /** Move \p ev up from the hole at \p hole to its place, no higher than \p top. */
    void SiftUp(std::size_t hole, const Event& ev, std::size_t top);
    /** Move \p ev down from the hole at \p hole to its place. */
    void SiftDown(std::size_t hole, const Event& ev);

    std::vector<Event> m_heap; //!< the heap, root at index 0
    Lane m_lane[LANES];        //!< the sorted lanes
    /** Key of each lane's front (all ones when empty) and back (0 when empty: an
     *  empty lane takes an event only if no other lane can), scanned per event. */
    Key m_front[LANES];
    Key m_back[LANES];
    Time m_horizon;          //!< LaneHorizon
    uint64_t m_horizonTs{0}; //!< LaneHorizon in time steps
    uint64_t m_nowTs{0};     //!< time stamp of the last event removed (the simulation time)
};

} // namespace ns3

#endif // DCN_HEAP_SCHEDULER_H
