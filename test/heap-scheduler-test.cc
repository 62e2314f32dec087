/*
 * TestSuite "dcn-lb-heap-scheduler": DcnHeapScheduler (model/sim/, issue 13)
 * gives events in exactly MapScheduler's order.
 *
 *  - random Insert / RemoveNext / Remove sequences (streams at fixed offsets,
 *    which the sorted lanes take, mixed with random times; many equal time
 *    stamps) against ns3::MapScheduler: the same event leaves at every step;
 *  - through the simulator: events at one time run in the order they were
 *    scheduled, a cancelled event does not run, Simulator::Remove removes it.
 */
#include "ns3/dcn-heap-scheduler.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/event-impl.h"
#include "ns3/map-scheduler.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace ns3
{
namespace
{

/** An event that does nothing (the schedulers only order pointers). */
class NopEvent : public EventImpl
{
  protected:
    void Notify() override
    {
    }
};

class HeapOrderTestCase : public TestCase
{
  public:
    /** horizon < 0: the attribute's default */
    HeapOrderTestCase(Time horizon)
        : TestCase("random Insert, RemoveNext and Remove: the same order as MapScheduler, "
                   "LaneHorizon " +
                   (horizon.IsStrictlyNegative()
                        ? std::string("default")
                        : std::to_string(horizon.GetNanoSeconds()) + " ns")),
          m_horizon(horizon)
    {
    }

  private:
    Time m_horizon;

    void DoRun() override
    {
        Ptr<DcnHeapScheduler> heap = CreateObject<DcnHeapScheduler>();
        if (!m_horizon.IsStrictlyNegative())
        {
            // the order must not depend on the horizon (review s50 L2): none, the default's
            // neighbours, everything in lanes
            heap->SetAttribute("LaneHorizon", TimeValue(m_horizon));
        }
        Ptr<MapScheduler> map = CreateObject<MapScheduler>();
        std::mt19937_64 gen(7); // test input only; not simulation randomness
        Ptr<EventImpl> impl = Create<NopEvent>();
        std::vector<Scheduler::Event> pending;
        uint32_t uid = 0;
        uint64_t now = 0;
        uint32_t popped = 0;
        uint32_t removed = 0;
        size_t maxPending = 0;
        for (int step = 0; step < 40000; ++step)
        {
            const uint32_t r = gen() % 10;
            if (r < 6 || pending.empty()) // the list grows to thousands of events
            {
                Scheduler::Event ev;
                ev.impl = PeekPointer(impl);
                // half of the events in streams at now + a fixed offset (what the
                // sorted lanes take), half at random: few distinct times, many ties
                static const uint64_t offset[] = {3, 17, 40, 5000, 1000000};
                ev.key.m_ts = gen() % 2 ? now + offset[gen() % 5] : now + gen() % 64;
                ev.key.m_uid = uid++;
                ev.key.m_context = 0;
                heap->Insert(ev);
                map->Insert(ev);
                pending.push_back(ev);
                maxPending = std::max<size_t>(maxPending, pending.size());
            }
            else if (r < 9)
            {
                NS_TEST_ASSERT_MSG_EQ(heap->IsEmpty(), false, "heap holds events");
                Scheduler::Event a = heap->PeekNext();
                Scheduler::Event b = map->PeekNext();
                NS_TEST_ASSERT_MSG_EQ(a.key.m_uid, b.key.m_uid, "same next event");
                a = heap->RemoveNext();
                b = map->RemoveNext();
                NS_TEST_ASSERT_MSG_EQ(a.key.m_uid, b.key.m_uid, "same removed event");
                NS_TEST_ASSERT_MSG_EQ(a.key.m_ts, b.key.m_ts, "same time");
                NS_TEST_ASSERT_MSG_GT_OR_EQ(a.key.m_ts, now, "time never goes back");
                now = a.key.m_ts;
                for (size_t i = 0; i < pending.size(); ++i)
                {
                    if (pending[i].key.m_uid == a.key.m_uid)
                    {
                        pending[i] = pending.back();
                        pending.pop_back();
                        break;
                    }
                }
                ++popped;
            }
            else
            {
                size_t i = gen() % pending.size();
                heap->Remove(pending[i]);
                map->Remove(pending[i]);
                pending[i] = pending.back();
                pending.pop_back();
                ++removed;
            }
        }
        while (!map->IsEmpty())
        {
            NS_TEST_ASSERT_MSG_EQ(heap->IsEmpty(), false, "heap holds as many events");
            NS_TEST_ASSERT_MSG_EQ(heap->RemoveNext().key.m_uid,
                                  map->RemoveNext().key.m_uid,
                                  "same order while draining");
        }
        NS_TEST_EXPECT_MSG_EQ(heap->IsEmpty(), true, "both empty");
        NS_TEST_EXPECT_MSG_GT(popped, 10000u, "exercised RemoveNext");
        NS_TEST_EXPECT_MSG_GT(maxPending, 4000u, "a deep heap");
        NS_TEST_EXPECT_MSG_GT(removed, 2000u, "exercised Remove");
    }
};

class HeapSimulatorTestCase : public TestCase
{
  public:
    HeapSimulatorTestCase()
        : TestCase("through the simulator: ties in schedule order, Cancel and Remove")
    {
    }

  private:
    std::vector<int> m_ran;

    void Record(int i)
    {
        m_ran.push_back(i);
    }

    void DoRun() override
    {
        ObjectFactory f;
        f.SetTypeId("ns3::DcnHeapScheduler");
        Simulator::SetScheduler(f);
        std::vector<int> expect;
        EventId cancelled;
        EventId removed;
        for (int i = 0; i < 50; ++i)
        {
            // times 5, 4, 3, 2, 1 ns repeating: ties at every time stamp
            EventId id = Simulator::Schedule(NanoSeconds(5 - i % 5),
                                             &HeapSimulatorTestCase::Record,
                                             this,
                                             i);
            if (i == 17)
            {
                cancelled = id;
            }
            if (i == 23)
            {
                removed = id;
            }
        }
        for (int t = 1; t <= 5; ++t)
        {
            for (int i = 0; i < 50; ++i)
            {
                if (5 - i % 5 == t && i != 17 && i != 23)
                {
                    expect.push_back(i);
                }
            }
        }
        cancelled.Cancel();
        Simulator::Remove(removed);
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(m_ran.size(), expect.size(), "every event but two ran");
        for (size_t i = 0; i < expect.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(m_ran[i], expect[i], "position " << i);
        }
    }
};

class HeapSchedulerTestSuite : public TestSuite
{
  public:
    HeapSchedulerTestSuite()
        : TestSuite("dcn-lb-heap-scheduler", DCNLB_TEST_UNIT)
    {
        AddTestCase(new HeapOrderTestCase(Seconds(-1)), DCNLB_TEST_QUICK);
        for (Time h : {Time(0), MicroSeconds(1), MicroSeconds(50), Seconds(1)})
        {
            AddTestCase(new HeapOrderTestCase(h), DCNLB_TEST_QUICK);
        }
        AddTestCase(new HeapSimulatorTestCase(), DCNLB_TEST_QUICK);
    }
};

HeapSchedulerTestSuite g_heapSchedulerTestSuite;

} // namespace
} // namespace ns3
