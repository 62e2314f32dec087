#include "dcn-heap-scheduler.h"

#include "ns3/assert.h"
#include "ns3/log.h"

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
                            .AddConstructor<DcnHeapScheduler>();
    return tid;
}

DcnHeapScheduler::DcnHeapScheduler()
{
    NS_LOG_FUNCTION(this);
    m_heap.reserve(1024);
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
DcnHeapScheduler::Insert(const Event& ev)
{
    NS_LOG_FUNCTION(this << ev.impl << ev.key.m_ts << ev.key.m_uid);
    m_heap.push_back(ev);
    SiftUp(m_heap.size() - 1, ev, 0);
}

bool
DcnHeapScheduler::IsEmpty() const
{
    return m_heap.empty();
}

Scheduler::Event
DcnHeapScheduler::PeekNext() const
{
    NS_ASSERT(!m_heap.empty());
    return m_heap.front();
}

Scheduler::Event
DcnHeapScheduler::RemoveNext()
{
    NS_LOG_FUNCTION(this);
    NS_ASSERT(!m_heap.empty());
    Event next = m_heap.front();
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

} // namespace ns3
