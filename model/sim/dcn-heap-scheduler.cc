#include "dcn-heap-scheduler.h"

#include "ns3/assert.h"
#include "ns3/log.h"
#include "ns3/nstime.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnHeapScheduler");
NS_OBJECT_ENSURE_REGISTERED(DcnHeapScheduler);

TypeId
DcnHeapScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DcnHeapScheduler")
                            .SetParent<Scheduler>()
                            .SetGroupName("DcnLb")
                            .AddConstructor<DcnHeapScheduler>()
                            .AddAttribute("LaneHorizon",
                                          "Events later than this after the current time go "
                                          "to the heap, not to a sorted lane (timers would "
                                          "block a lane until they fire).  Speed only: the "
                                          "event order does not depend on it (dcn-lb choice; "
                                          "50 us until session 50: LAPS's per-path timers, "
                                          "2 realVal ahead, took lanes from the streams)",
                                          TimeValue(MicroSeconds(10)),
                                          MakeTimeAccessor(&DcnHeapScheduler::SetLaneHorizon,
                                                           &DcnHeapScheduler::GetLaneHorizon),
                                          MakeTimeChecker(Time(0)));
    return tid;
}

DcnHeapScheduler::DcnHeapScheduler()
{
    NS_LOG_FUNCTION(this);
    m_heap.reserve(1024);
    for (std::size_t l = 0; l < LANES; ++l)
    {
        UpdateLaneKeys(l);
    }
}

DcnHeapScheduler::~DcnHeapScheduler()
{
    NS_LOG_FUNCTION(this);
}

void
DcnHeapScheduler::SiftUp(std::size_t hole, const Event& ev, std::size_t top)
{
    while (hole > top)
    {
        std::size_t parent = (hole - 1) / ARITY;
        if (!Earlier(ev, m_heap[parent]))
        {
            break;
        }
        m_heap[hole] = m_heap[parent];
        hole = parent;
    }
    m_heap[hole] = ev;
}

void
DcnHeapScheduler::SiftDown(std::size_t hole, const Event& ev)
{
    // Floyd's variant: move the earliest child up until the hole reaches a
    // leaf (3 comparisons per level among 4 children, none against ev), then
    // sift ev up from there; ev (the former last entry) is usually late, so
    // it rarely climbs more than a level.
    const std::size_t n = m_heap.size();
    const std::size_t start = hole;
    for (;;)
    {
        std::size_t first = hole * ARITY + 1;
        if (first >= n)
        {
            break;
        }
        std::size_t best = first;
        if (first + ARITY <= n)
        {
            std::size_t a = Earlier(m_heap[first + 1], m_heap[first]) ? first + 1 : first;
            std::size_t b = Earlier(m_heap[first + 3], m_heap[first + 2]) ? first + 3 : first + 2;
            best = Earlier(m_heap[b], m_heap[a]) ? b : a;
        }
        else
        {
            for (std::size_t c = first + 1; c < n; ++c)
            {
                if (Earlier(m_heap[c], m_heap[best]))
                {
                    best = c;
                }
            }
        }
        m_heap[hole] = m_heap[best];
        hole = best;
    }
    SiftUp(hole, ev, start);
}

void
DcnHeapScheduler::SetLaneHorizon(Time horizon)
{
    m_horizon = horizon;
    m_horizonTs = static_cast<uint64_t>(horizon.GetTimeStep());
}

Time
DcnHeapScheduler::GetLaneHorizon() const
{
    return m_horizon;
}

void
DcnHeapScheduler::UpdateLaneKeys(std::size_t l)
{
    const Lane& lane = m_lane[l];
    m_front[l] = lane.Empty() ? ~Key(0) : KeyOf(lane.Front());
    m_back[l] = lane.Empty() ? Key(0) : KeyOf(lane.Back());
}

void
DcnHeapScheduler::Insert(const Event& ev)
{
    NS_LOG_FUNCTION(this << ev.impl << ev.key.m_ts << ev.key.m_uid);
    // best fit: the lane whose last event is the latest one before ev (an empty
    // lane's key is 0, so it is taken only if no other lane fits)
    const Key k = KeyOf(ev);
    std::size_t best = LANES;
    Key bestBack = 0;
    const bool nearFuture = ev.key.m_ts - m_nowTs <= m_horizonTs;
    for (std::size_t l = 0; nearFuture && l < LANES; ++l)
    {
        const Key b = m_back[l];
        if (b < k && (best == LANES || b > bestBack))
        {
            best = l;
            bestBack = b;
        }
    }
    if (best < LANES)
    {
        Lane& lane = m_lane[best];
        if (lane.Empty())
        {
            m_front[best] = k;
        }
        lane.PushBack(ev);
        m_back[best] = k;
        return;
    }
    m_heap.push_back(ev);
    SiftUp(m_heap.size() - 1, ev, 0);
}

std::size_t
DcnHeapScheduler::NextSource() const
{
    std::size_t src = LANES;
    Key next = m_heap.empty() ? ~Key(0) : KeyOf(m_heap.front());
    for (std::size_t l = 0; l < LANES; ++l)
    {
        if (m_front[l] < next)
        {
            next = m_front[l];
            src = l;
        }
    }
    return src;
}

bool
DcnHeapScheduler::IsEmpty() const
{
    if (!m_heap.empty())
    {
        return false;
    }
    for (const Lane& lane : m_lane)
    {
        if (!lane.Empty())
        {
            return false;
        }
    }
    return true;
}

Scheduler::Event
DcnHeapScheduler::PeekNext() const
{
    NS_ASSERT(!IsEmpty());
    const std::size_t src = NextSource();
    return src < LANES ? m_lane[src].Front() : m_heap.front();
}

Scheduler::Event
DcnHeapScheduler::RemoveNext()
{
    NS_LOG_FUNCTION(this);
    NS_ASSERT(!IsEmpty());
    const std::size_t src = NextSource();
    if (src < LANES)
    {
        Event ev = m_lane[src].PopFront();
        m_nowTs = ev.key.m_ts;
        UpdateLaneKeys(src);
        return ev;
    }
    Event next = m_heap.front();
    m_nowTs = next.key.m_ts;
    Event last = m_heap.back();
    m_heap.pop_back();
    if (!m_heap.empty())
    {
        SiftDown(0, last);
    }
    return next;
}

void
DcnHeapScheduler::Remove(const Event& ev)
{
    NS_LOG_FUNCTION(this << ev.impl << ev.key.m_ts << ev.key.m_uid);
    for (Lane& lane : m_lane)
    {
        for (std::size_t i = 0; i < lane.Size(); ++i)
        {
            if (lane.At(i).key.m_uid == ev.key.m_uid)
            {
                lane.EraseAt(i);
                UpdateLaneKeys(&lane - m_lane);
                return;
            }
        }
    }
    std::size_t i = 0;
    const std::size_t n = m_heap.size();
    while (i < n && m_heap[i].key.m_uid != ev.key.m_uid)
    {
        ++i;
    }
    NS_ASSERT_MSG(i < n,
                  "DcnHeapScheduler::Remove: event uid " << ev.key.m_uid << " not scheduled");
    if (i == n)
    {
        return;
    }
    Event last = m_heap.back();
    m_heap.pop_back();
    if (i == m_heap.size())
    {
        return; // it was the last entry
    }
    if (i > 0 && Earlier(last, m_heap[(i - 1) / ARITY]))
    {
        SiftUp(i, last, 0);
    }
    else
    {
        SiftDown(i, last);
    }
}

void
DcnHeapScheduler::Lane::Grow()
{
    std::vector<Event> bigger(m_buf.empty() ? 64 : 2 * m_buf.size());
    for (std::size_t i = 0; i < m_count; ++i)
    {
        bigger[i] = At(i);
    }
    m_buf.swap(bigger);
    m_head = 0;
    m_mask = m_buf.size() - 1;
}

void
DcnHeapScheduler::Lane::EraseAt(std::size_t i)
{
    for (; i + 1 < m_count; ++i)
    {
        m_buf[(m_head + i) & m_mask] = m_buf[(m_head + i + 1) & m_mask];
    }
    --m_count;
}

} // namespace ns3
