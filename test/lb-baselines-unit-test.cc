/*
 * TestSuite "dcn-lb-baselines-unit": the host-side baseline path selectors
 * (issue 14) through their PathSelector interface with crafted feedback, no
 * topology (NumPaths set explicitly) and no network.
 */
#include "ns3/bitmap-path-selector.h"
#include "ns3/boolean.h"
#include "ns3/clove-path-selector.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-options.h"
#include "ns3/dcn-scheme.h"
#include "ns3/drb-path-selector.h"
#include "ns3/flicr-path-selector.h"
#include "ns3/mprdma-path-selector.h"
#include "ns3/plb-path-selector.h"
#include "ns3/presto-path-selector.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <set>
#include <vector>

using namespace ns3;

namespace
{

PathSelectorSetup
MakeSetup(uint32_t mtu = 4096)
{
    PathSelectorSetup s;
    s.mtu = mtu;
    s.baseRtt = MicroSeconds(10);
    return s;
}

PathFeedback
Fb(FeedbackSignal sig, uint16_t ev, uint32_t psn = 0, uint32_t acked = 0)
{
    PathFeedback f;
    f.signal = sig;
    f.path.ev = ev;
    f.psn = psn;
    f.ackedBytes = acked;
    f.rtt = MicroSeconds(10);
    return f;
}

SendContext
Ctx(uint64_t psn, uint32_t inflight = 0)
{
    SendContext c;
    c.psn = psn;
    c.bytesInFlight = inflight;
    return c;
}

class DrbCyclesTestCase : public TestCase
{
  public:
    DrbCyclesTestCase()
        : TestCase("DRB sends consecutive packets round robin over all paths")
    {
    }

    void DoRun() override
    {
        Ptr<DcnDrbPathSelector> s = CreateObject<DcnDrbPathSelector>();
        s->SetAttribute("NumPaths", UintegerValue(5));
        s->AssignStreams(7);
        s->Setup(MakeSetup());
        NS_TEST_ASSERT_MSG_EQ(s->GetNumPaths(), 5, "five paths");
        std::set<uint16_t> all;
        for (uint16_t i = 0; i < 5; ++i)
        {
            all.insert(s->GetPathEv(i));
        }
        NS_TEST_ASSERT_MSG_EQ(all.size(), 5, "five distinct EVs");
        std::vector<uint16_t> evs;
        for (uint32_t p = 0; p < 20; ++p)
        {
            evs.push_back(s->Choose(Ctx(p)).ev);
        }
        for (uint32_t w = 0; w + 5 <= evs.size(); w += 5)
        {
            std::set<uint16_t> win(evs.begin() + w, evs.begin() + w + 5);
            NS_TEST_ASSERT_MSG_EQ((win == all), true, "every window of 5 packets uses all paths");
        }
        for (uint32_t p = 5; p < evs.size(); ++p)
        {
            NS_TEST_ASSERT_MSG_EQ(evs[p], evs[p - 5], "cyclic order");
            NS_TEST_ASSERT_MSG_NE(evs[p], evs[p - 1], "consecutive packets change path");
        }
    }
};

class CloveEcnTestCase : public TestCase
{
  public:
    CloveEcnTestCase()
        : TestCase("CLOVE-ECN lowers a path's weight after ECN on it, clean ACKs change nothing")
    {
    }

    void DoRun() override
    {
        Ptr<DcnClovePathSelector> s = CreateObject<DcnClovePathSelector>();
        s->SetAttribute("NumPaths", UintegerValue(4));
        s->AssignStreams(3);
        s->Setup(MakeSetup());
        for (uint16_t i = 0; i < 4; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ_TOL(s->GetWeight(i), 0.25, 1e-12, "equal weights at start");
        }
        s->OnFeedback(Fb(FeedbackSignal::ACK, s->GetPathEv(2)));
        NS_TEST_ASSERT_MSG_EQ_TOL(s->GetWeight(2), 0.25, 1e-12, "a clean ACK does not cut");
        s->OnFeedback(Fb(FeedbackSignal::ECN_ACK, s->GetPathEv(2)));
        NS_TEST_ASSERT_MSG_EQ_TOL(s->GetWeight(2), 0.25 * 2 / 3, 1e-12, "ECN cuts by a third");
        for (uint16_t i : {0, 1, 3})
        {
            NS_TEST_ASSERT_MSG_EQ_TOL(s->GetWeight(i),
                                      0.25 + 0.25 / 3 / 3,
                                      1e-12,
                                      "the cut is spread over the others");
        }
        s->OnFeedback(Fb(FeedbackSignal::ECN_ACK, static_cast<uint16_t>(s->GetPathEv(0) - 1)));
        NS_TEST_ASSERT_MSG_EQ_TOL(s->GetWeight(2),
                                  0.25 * 2 / 3,
                                  1e-12,
                                  "an EV that is not a path of the flow is ignored");
        // per destination (CoNEXT'17): two connections of one host pair share paths and
        // weights; another destination and PerDestination=false do not
        Ptr<DcnLbSharedState> shared = CreateObject<DcnLbSharedState>();
        auto make = [&](uint32_t dst, bool perDst, int64_t stream) {
            Ptr<DcnClovePathSelector> c = CreateObject<DcnClovePathSelector>();
            c->SetAttribute("NumPaths", UintegerValue(4));
            c->SetAttribute("PerDestination", BooleanValue(perDst));
            c->AssignStreams(stream);
            PathSelectorSetup st = MakeSetup();
            st.shared = shared;
            st.srcHost = 0;
            st.dstHost = dst;
            c->Setup(st);
            return c;
        };
        Ptr<DcnClovePathSelector> a = make(5, true, 30);
        Ptr<DcnClovePathSelector> b = make(5, true, 31);
        Ptr<DcnClovePathSelector> other = make(6, true, 32);
        Ptr<DcnClovePathSelector> own = make(5, false, 33);
        NS_TEST_ASSERT_MSG_EQ(b->GetPathEv(0), a->GetPathEv(0), "one pair, one path set");
        a->OnFeedback(Fb(FeedbackSignal::ECN_ACK, a->GetPathEv(1)));
        NS_TEST_ASSERT_MSG_EQ_TOL(b->GetWeight(1), 0.25 * 2 / 3, 1e-12, "shared weights");
        NS_TEST_ASSERT_MSG_EQ_TOL(other->GetWeight(1), 0.25, 1e-12, "per destination");
        NS_TEST_ASSERT_MSG_EQ_TOL(own->GetWeight(1), 0.25, 1e-12, "PerDestination=false");
    }
};

class PlbRoundsTestCase : public TestCase
{
  public:
    PlbRoundsTestCase()
        : TestCase("PLB repaths after exactly 12 congested rounds and not before; a clean round "
                   "resets the count")
    {
    }

    /** One round per ACK (PSN rounds): send psn k, ack psn k.  \return repath round or -1. */
    static int RunRounds(Ptr<DcnPlbPathSelector> s, uint32_t& psn, const std::vector<bool>& ecn)
    {
        const uint32_t mtu = s->GetSetup().mtu;
        for (size_t r = 0; r < ecn.size(); ++r)
        {
            const uint16_t before = s->Choose(Ctx(psn, 10 * mtu)).ev;
            s->OnFeedback(
                Fb(ecn[r] ? FeedbackSignal::ECN_ACK : FeedbackSignal::ACK, before, psn, mtu));
            ++psn;
            if (s->Choose(Ctx(psn, 10 * mtu)).ev != before)
            {
                return static_cast<int>(r);
            }
        }
        return -1;
    }

    void DoRun() override
    {
        Ptr<DcnPlbPathSelector> s = CreateObject<DcnPlbPathSelector>();
        s->AssignStreams(11);
        s->Setup(MakeSetup(1000));
        uint32_t psn = 0;
        // ACK 0 opens the first round, which ACK 1 closes: after ACK k (k >= 1) k rounds ended
        int r = RunRounds(s, psn, std::vector<bool>(30, true));
        NS_TEST_ASSERT_MSG_EQ(r, 12, "repath at the 12th congested round end (ACK 12)");
        NS_TEST_ASSERT_MSG_EQ(s->GetRepaths(), 1, "one repath");
        // 11 congested, 1 clean, 11 congested: no repath; the 12th in a row repaths
        std::vector<bool> pattern(11, true);
        pattern.push_back(false);
        for (int i = 0; i < 11; ++i)
        {
            pattern.push_back(true);
        }
        s = CreateObject<DcnPlbPathSelector>();
        s->AssignStreams(12);
        s->Setup(MakeSetup(1000));
        psn = 0;
        NS_TEST_ASSERT_MSG_EQ(RunRounds(s, psn, pattern), -1, "no repath before 12 in a row");
        NS_TEST_ASSERT_MSG_EQ(s->GetConsecutiveCongestedRounds(), 11, "11 after the reset");
        NS_TEST_ASSERT_MSG_EQ(RunRounds(s, psn, {true}), 0, "the 12th in a row repaths");
        // the REPS preset
        s = CreateObject<DcnPlbPathSelector>();
        s->SetAttribute("Preset", StringValue("reps-aggressive"));
        s->Setup(MakeSetup(1000));
        NS_TEST_ASSERT_MSG_EQ(s->GetConfig().rehashRounds, 2, "REPS: new EV after > 1 round");
        NS_TEST_ASSERT_MSG_EQ(s->GetConfig().repathOnRto, true, "REPS: new EV on RTO");
        NS_TEST_ASSERT_MSG_EQ(s->GetConfig().roundTimeNs, 10000, "REPS: rounds of the base RTT");
        const uint16_t ev = s->Choose(Ctx(0)).ev;
        s->OnFeedback(Fb(FeedbackSignal::TIMEOUT, ev, 0));
        NS_TEST_ASSERT_MSG_EQ(s->GetRepaths(), 1, "one repath per RTO");
        s->OnFeedback(Fb(FeedbackSignal::TIMEOUT, ev, 1)); // same RTO expiry
        NS_TEST_ASSERT_MSG_EQ(s->GetRepaths(), 1, "at most once per RTO");
        NS_TEST_ASSERT_MSG_EQ(DcnSchemeRegistry::Validate("plb-reps"), "", "plb-reps scheme");
    }
};

class PlbRtoIdleNackTestCase : public TestCase
{
  public:
    PlbRtoIdleNackTestCase()
        : TestCase("PLB: an RTO draws a new EV (Linux's txhash rethink) and suspends PLB; the "
                   "exact bytes in flight let a short last packet end idle; a NACK is no delivery "
                   "(a congested one with NackIsCongestion)")
    {
    }

    void DoRun() override
    {
        // RTO: a new EV once per expiry, then PLB's own repaths are suspended
        Ptr<DcnPlbPathSelector> s = CreateObject<DcnPlbPathSelector>();
        s->AssignStreams(21);
        s->Setup(MakeSetup(1000));
        NS_TEST_ASSERT_MSG_EQ(s->GetConfig().repathOnRto, true, "default: new EV on an RTO");
        const uint16_t ev = s->Choose(Ctx(0)).ev;
        s->OnFeedback(Fb(FeedbackSignal::TIMEOUT, ev, 0));
        s->OnFeedback(Fb(FeedbackSignal::TIMEOUT, ev, 1)); // the same expiry
        NS_TEST_ASSERT_MSG_EQ(s->GetRepaths(), 1, "one repath per RTO");
        NS_TEST_ASSERT_MSG_NE(s->Choose(Ctx(1)).ev, ev, "the resend leaves the timed-out EV");
        Ptr<DcnPlbPathSelector> off = CreateObject<DcnPlbPathSelector>();
        off->SetAttribute("RepathOnRto", BooleanValue(false));
        off->AssignStreams(21);
        off->Setup(MakeSetup(1000));
        const uint16_t ev2 = off->Choose(Ctx(0)).ev;
        off->OnFeedback(Fb(FeedbackSignal::TIMEOUT, ev2, 0));
        NS_TEST_ASSERT_MSG_EQ(off->GetRepaths(), 0, "RepathOnRto=false: suspension only");
        NS_TEST_ASSERT_MSG_EQ(off->Choose(Ctx(1)).ev, ev2, "and the EV stays");

        // idle repath: three congested rounds of one short packet each, nothing in flight
        // after each ACK (the transport's exact count); the estimate from the MTU would
        // leave 1000 - 300 bytes "in flight" and never see the flow idle
        Ptr<DcnPlbPathSelector> idle = CreateObject<DcnPlbPathSelector>();
        idle->AssignStreams(22);
        idle->Setup(MakeSetup(1000));
        uint16_t cur = idle->Choose(Ctx(0)).ev;
        for (uint32_t psn = 0; psn < 4; ++psn)
        {
            cur = idle->Choose(Ctx(psn, 0)).ev;
            PathFeedback f = Fb(FeedbackSignal::ECN_ACK, cur, psn, 300);
            f.bytesInFlight = 0;
            idle->OnFeedback(f);
        }
        NS_TEST_ASSERT_MSG_EQ(idle->GetRepaths(), 1, "idle repath after 3 congested rounds");

        // NACKs are no deliveries: 12 rounds of one ECN ACK each with NACKs between them
        // are 12 congested rounds (fraction 1), not diluted below 0.5
        Ptr<DcnPlbPathSelector> n = CreateObject<DcnPlbPathSelector>();
        n->AssignStreams(23);
        n->Setup(MakeSetup(1000));
        for (uint32_t psn = 0; psn < 14; ++psn)
        {
            const uint16_t e = n->Choose(Ctx(psn, 5000)).ev;
            for (int k = 0; k < 3; ++k)
            {
                n->OnFeedback(Fb(FeedbackSignal::NACK, e, psn));
            }
            n->OnFeedback(Fb(FeedbackSignal::ECN_ACK, e, psn, 1000));
        }
        NS_TEST_ASSERT_MSG_EQ(n->GetRepaths(), 1, "the 12th congested round repaths");

        // NackIsCongestion (the LAPS authors' go-back-N NACKs carry the CNP flag): a round of
        // one clean ACK and one NACK is half marked, congested; without it, clean
        for (int nackCong = 0; nackCong < 2; ++nackCong)
        {
            Ptr<DcnPlbPathSelector> g = CreateObject<DcnPlbPathSelector>();
            g->SetAttribute("NackIsCongestion", BooleanValue(nackCong == 1));
            g->AssignStreams(24);
            g->Setup(MakeSetup(1000));
            for (uint32_t psn = 0; psn < 14; ++psn)
            {
                const uint16_t e = g->Choose(Ctx(psn, 5000)).ev;
                g->OnFeedback(Fb(FeedbackSignal::NACK, e, psn));
                g->OnFeedback(Fb(FeedbackSignal::ACK, e, psn, 1000));
            }
            NS_TEST_ASSERT_MSG_EQ(g->GetRepaths(),
                                  (nackCong ? 1u : 0u),
                                  "NACKs congested: the 12th such round repaths");
        }
    }
};

class BitmapTestCase : public TestCase
{
  public:
    BitmapTestCase()
        : TestCase("BitMap never reuses a marked EV until its penalty is cleared by the scan")
    {
    }

    void DoRun() override
    {
        Ptr<DcnBitmapPathSelector> s = CreateObject<DcnBitmapPathSelector>();
        s->AssignStreams(5);
        s->Setup(MakeSetup());
        const uint16_t base = s->GetEvBase();
        std::set<uint16_t> firstPass;
        for (int i = 0; i < 256; ++i)
        {
            firstPass.insert(s->Choose(Ctx(i)).ev);
        }
        NS_TEST_ASSERT_MSG_EQ(firstPass.size(), 256, "one pass uses each of the 256 EVs once");
        NS_TEST_ASSERT_MSG_EQ(*firstPass.begin(), base, "EVs base .. base+255");
        const uint16_t hot = static_cast<uint16_t>(base + 17);
        const uint16_t warm = static_cast<uint16_t>(base + 200);
        s->OnFeedback(Fb(FeedbackSignal::TIMEOUT, hot));
        s->OnFeedback(Fb(FeedbackSignal::NACK, warm));
        NS_TEST_ASSERT_MSG_EQ(uint32_t(s->GetPenalty(hot)), 15, "timeout: 15");
        NS_TEST_ASSERT_MSG_EQ(uint32_t(s->GetPenalty(warm)), 4, "NACK: 4");
        s->OnFeedback(Fb(FeedbackSignal::ECN_ACK, warm));
        NS_TEST_ASSERT_MSG_EQ(uint32_t(s->GetPenalty(warm)), 5, "ECN: +1");
        int hotAt = -1;
        int warmAt = -1;
        for (int i = 0; i < 256 * 20 && (hotAt < 0 || warmAt < 0); ++i)
        {
            const uint8_t ph = s->GetPenalty(hot);
            const uint8_t pw = s->GetPenalty(warm);
            const uint16_t ev = s->Choose(Ctx(i)).ev;
            if (ev == hot)
            {
                NS_TEST_ASSERT_MSG_EQ(uint32_t(ph), 0, "hot EV reused only once cleared");
                hotAt = hotAt < 0 ? i : hotAt;
            }
            if (ev == warm)
            {
                NS_TEST_ASSERT_MSG_EQ(uint32_t(pw), 0, "warm EV reused only once cleared");
                warmAt = warmAt < 0 ? i : warmAt;
            }
        }
        // penalty p is cleared after p more visits, one per pass of 255 other EVs
        NS_TEST_ASSERT_MSG_GT_OR_EQ(hotAt, 15 * 254, "timeout EV skipped for 15 passes");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(warmAt, 5 * 254, "ECN+NACK EV skipped for 5 passes");
        NS_TEST_ASSERT_MSG_LT(warmAt, hotAt, "the lighter penalty clears first");
    }
};

class MprdmaTestCase : public TestCase
{
  public:
    MprdmaTestCase()
        : TestCase("MPRDMA sends the packet an ACK clocks out on that ACK's EV (FIFO)")
    {
    }

    void DoRun() override
    {
        Ptr<DcnMprdmaPathSelector> s = CreateObject<DcnMprdmaPathSelector>();
        s->AssignStreams(9);
        s->Setup(MakeSetup());
        s->Choose(Ctx(0));
        NS_TEST_ASSERT_MSG_EQ(s->GetFresh(), 1, "no ACK yet: a fresh EV");
        s->OnFeedback(Fb(FeedbackSignal::ACK, 1234, 0, 4096));
        s->OnFeedback(Fb(FeedbackSignal::ECN_ACK, 777, 1, 4096));
        NS_TEST_ASSERT_MSG_EQ(s->Choose(Ctx(1)).ev, 1234, "reuses the first acked EV");
        NS_TEST_ASSERT_MSG_EQ(s->Choose(Ctx(2)).ev, 777, "then the next (marked ones too)");
        NS_TEST_ASSERT_MSG_EQ(s->GetReused(), 2, "two reused");
        s->Choose(Ctx(3));
        NS_TEST_ASSERT_MSG_EQ(s->GetFresh(), 2, "credits used up: fresh again");
        s->OnFeedback(Fb(FeedbackSignal::ACK, 42, 2, 4096));
        s->OnFeedback(Fb(FeedbackSignal::TIMEOUT, 9, 3));
        NS_TEST_ASSERT_MSG_EQ(s->GetPendingCredits(), 0, "a timeout clears the credits");
        s->OnFeedback(Fb(FeedbackSignal::NACK, 5, 4));
        NS_TEST_ASSERT_MSG_EQ(s->GetPendingCredits(), 0, "a NACK clocks nothing");
        // Carry mode: one credit per carried (unmarked) EV and one for the CE echo
        DcnHeader carry;
        carry.evs = {11, 12, 13};
        for (uint16_t ev : carry.evs)
        {
            PathFeedback f = Fb(FeedbackSignal::ACK, ev, 20, ev == 11 ? 4096 : 0);
            f.header = &carry;
            s->OnFeedback(f);
        }
        PathFeedback ce = Fb(FeedbackSignal::ECN_ACK, 14, 20);
        ce.header = &carry;
        s->OnFeedback(ce);
        NS_TEST_ASSERT_MSG_EQ(s->GetPendingCredits(),
                              4,
                              "3 carried EVs + the marked one (RecycleMarked)");
    }
};

class PrestoTestCase : public TestCase
{
  public:
    PrestoTestCase()
        : TestCase("Presto* keeps 64 KB flowcells on one path and rotates them over the paths; "
                   "static weights set the shares")
    {
    }

    void DoRun() override
    {
        Ptr<DcnPrestoPathSelector> s = CreateObject<DcnPrestoPathSelector>();
        s->SetAttribute("NumPaths", UintegerValue(4));
        s->SetAttribute("Weights", StringValue("equal"));
        s->AssignStreams(2);
        s->Setup(MakeSetup(4096)); // 16 packets of 4 KB per 64 KB flowcell
        std::vector<uint16_t> cellEv;
        for (uint32_t p = 0; p < 16 * 8; ++p)
        {
            const uint16_t ev = s->Choose(Ctx(p)).ev;
            if (p % 16 == 0)
            {
                cellEv.push_back(ev);
            }
            NS_TEST_ASSERT_MSG_EQ(ev, cellEv.back(), "one path per flowcell");
            NS_TEST_ASSERT_MSG_EQ(s->GetFlowcellId(), p / 16, "a new cell every 64 KB");
        }
        for (uint32_t c = 0; c + 4 <= cellEv.size(); ++c)
        {
            std::set<uint16_t> w(cellEv.begin() + c, cellEv.begin() + c + 4);
            NS_TEST_ASSERT_MSG_EQ(w.size(), 4, "4 consecutive cells use the 4 paths");
        }
        // asymmetry: weights 3:1 -> 3 of every 4 cells on path 0
        s = CreateObject<DcnPrestoPathSelector>();
        s->SetAttribute("NumPaths", UintegerValue(2));
        s->SetAttribute("Weights", StringValue("3,1"));
        s->AssignStreams(4);
        s->Setup(MakeSetup(4096));
        uint32_t onPath0 = 0;
        for (uint32_t p = 0; p < 16 * 40; p += 16)
        {
            onPath0 += s->GetPathOfEv(s->Choose(Ctx(p)).ev) == 0 ? 1 : 0;
            for (uint32_t k = 1; k < 16; ++k)
            {
                s->Choose(Ctx(p + k));
            }
        }
        NS_TEST_ASSERT_MSG_EQ(onPath0, 30, "30 of 40 cells on the weight-3 path");
        s->SetAttribute("Weights", StringValue("1,x"));
        NS_TEST_ASSERT_MSG_NE(s->Validate(), "", "a bad weight list is refused");
        // a list of another length than the paths is refused (it was padded with 0 /
        // cut silently until 2026-11-30), for Presto* and Flicr alike
        for (const char* w : {"3,1,1", "3"})
        {
            Ptr<DcnPrestoPathSelector> p = CreateObject<DcnPrestoPathSelector>();
            p->SetAttribute("NumPaths", UintegerValue(2));
            p->SetAttribute("Weights", StringValue(w));
            bool refused = false;
            try
            {
                p->Setup(MakeSetup(4096));
            }
            catch (const DcnOptionError& e)
            {
                refused = std::string(e.what()).find("has 2 paths") != std::string::npos;
            }
            NS_TEST_ASSERT_MSG_EQ(refused, true, "Presto Weights=" << w << " on 2 paths");
            Ptr<DcnFlicrPathSelector> f = CreateObject<DcnFlicrPathSelector>();
            f->SetAttribute("NumPaths", UintegerValue(2));
            f->SetAttribute("PathSource", StringValue("virtual"));
            f->SetAttribute("Weights", StringValue(w));
            refused = false;
            try
            {
                f->Setup(MakeSetup(4096));
            }
            catch (const DcnOptionError& e)
            {
                refused = std::string(e.what()).find("has 2 paths") != std::string::npos;
            }
            NS_TEST_ASSERT_MSG_EQ(refused, true, "Flicr Weights=" << w << " on 2 paths");
        }
        Ptr<DcnFlicrPathSelector> f = CreateObject<DcnFlicrPathSelector>();
        f->SetAttribute("PathSource", StringValue("spritz"));
        f->SetAttribute("Weights", StringValue("2,1"));
        NS_TEST_ASSERT_MSG_NE(f->Validate(), "", "a list with PathSource=spritz is refused");
        f->SetAttribute("Weights", StringValue("equal"));
        NS_TEST_ASSERT_MSG_EQ(f->Validate(), "", "equal with PathSource=spritz is allowed");
    }
};

class FlicrTestCase : public TestCase
{
  public:
    FlicrTestCase()
        : TestCase("Flicr keeps one path and moves it on a NACK, a timeout or an ECN round")
    {
    }

    void DoRun() override
    {
        Ptr<DcnFlicrPathSelector> s = CreateObject<DcnFlicrPathSelector>();
        s->SetAttribute("NumPaths", UintegerValue(4));
        s->AssignStreams(8);
        s->Setup(MakeSetup());
        const uint16_t ev0 = s->Choose(Ctx(0)).ev;
        for (uint32_t p = 1; p < 50; ++p)
        {
            NS_TEST_ASSERT_MSG_EQ(s->Choose(Ctx(p)).ev, ev0, "one path per flow");
            s->OnFeedback(Fb(FeedbackSignal::ACK, ev0, p, 4096));
        }
        s->OnFeedback(Fb(FeedbackSignal::NACK, ev0, 50));
        const uint16_t ev1 = s->Choose(Ctx(51)).ev;
        NS_TEST_ASSERT_MSG_NE(ev1, ev0, "a NACK moves the flow");
        s->OnFeedback(Fb(FeedbackSignal::TIMEOUT, ev1, 51));
        NS_TEST_ASSERT_MSG_NE(s->Choose(Ctx(52)).ev, ev1, "a timeout moves the flow");
        NS_TEST_ASSERT_MSG_EQ(s->GetRepaths(), 2, "two moves");
        s->OnFeedback(Fb(FeedbackSignal::TIMEOUT, ev1, 52)); // the same RTO expiry
        NS_TEST_ASSERT_MSG_EQ(s->GetRepaths(), 2, "one move per RTO expiry");
        // the rest of a window sent on paths the flow has left: no further move
        const uint16_t ev2 = s->Choose(Ctx(53)).ev;
        NS_TEST_ASSERT_MSG_NE(ev2, ev1, "moved off ev1");
        for (uint32_t p = 0; p < 5; ++p)
        {
            for (uint16_t left : {ev0, ev1})
            {
                if (left != ev2) // the second move may have gone back to ev0's path
                {
                    s->OnFeedback(Fb(FeedbackSignal::NACK, left, 54 + p));
                    s->OnFeedback(Fb(FeedbackSignal::ECN_ACK, left, 54 + p, 4096));
                }
            }
        }
        NS_TEST_ASSERT_MSG_EQ(s->GetRepaths(), 2, "feedback of a left path moves nothing");
        NS_TEST_ASSERT_MSG_EQ(s->Choose(Ctx(60)).ev, ev2, "still on the current path");
        s->OnFeedback(Fb(FeedbackSignal::NACK, ev2, 60));
        NS_TEST_ASSERT_MSG_EQ(s->GetRepaths(), 3, "a NACK of the current path moves it");
    }
};

class BaselineSchemesTestCase : public TestCase
{
  public:
    BaselineSchemesTestCase()
        : TestCase("every baseline is a registered scheme that validates; CONGA is refused on a "
                   "3-tier fat tree by name")
    {
    }

    void DoRun() override
    {
        for (const std::string n : {"drb",
                                    "presto",
                                    "clove",
                                    "plb",
                                    "plb-reps",
                                    "mprdma",
                                    "bitmap",
                                    "flicr",
                                    "letflow",
                                    "drill",
                                    "conga",
                                    "conweave"})
        {
            NS_TEST_ASSERT_MSG_EQ(DcnSchemeRegistry::Has(n), true, n << " registered");
            NS_TEST_ASSERT_MSG_EQ(DcnSchemeRegistry::Validate(n), "", n << " validates");
            NS_TEST_ASSERT_MSG_EQ(DcnSchemeRegistry::CheckCompatible(n, "fat-tree-2tier", "dcn"),
                                  "",
                                  n << " runs on a 2-tier fat tree");
        }
        NS_TEST_ASSERT_MSG_EQ(DcnSchemeRegistry::Get("conga").switchPolicy, "conga", "policy");
        NS_TEST_ASSERT_MSG_NE(DcnSchemeRegistry::CheckCompatible("conga", "fat-tree-3tier", "dcn"),
                              "",
                              "CONGA refused on 3 tiers");
        NS_TEST_ASSERT_MSG_EQ(DcnSchemeRegistry::CheckCompatible("drill", "fat-tree-3tier", "dcn"),
                              "",
                              "DRILL runs on 3 tiers");
    }
};

class LbBaselinesUnitTestSuite : public TestSuite
{
  public:
    LbBaselinesUnitTestSuite()
        : TestSuite("dcn-lb-baselines-unit", DCNLB_TEST_UNIT)
    {
        AddTestCase(new DrbCyclesTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new CloveEcnTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new PlbRoundsTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new PlbRtoIdleNackTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new BitmapTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new MprdmaTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new PrestoTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new FlicrTestCase, DCNLB_TEST_QUICK);
        AddTestCase(new BaselineSchemesTestCase, DCNLB_TEST_QUICK);
    }
};

LbBaselinesUnitTestSuite g_lbBaselinesUnitTestSuite;

} // namespace
