#include "mprdma-path-selector.h"

#include "dcn-scheme.h"
#include "ev-util.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnMprdmaPathSelector");
NS_OBJECT_ENSURE_REGISTERED(DcnMprdmaPathSelector);
DCNLB_REGISTER_PATH_SELECTOR("mprdma", DcnMprdmaPathSelector);
DCNLB_REGISTER_SCHEME((DcnScheme{
    "mprdma",
    "MPRDMA-style ACK clocking: a packet reuses the EV of the ACK that opened the window "
    "(NSDI'18; REPS [L] baseline)",
    "mprdma",
    "dctcp",
    "selective-repeat",
    "ecmp",
    0,
    "dcn",
    {},
    {}}));

TypeId
DcnMprdmaPathSelector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcnMprdmaPathSelector")
            .SetParent<PathSelector>()
            .SetGroupName("DcnLb")
            .AddConstructor<DcnMprdmaPathSelector>()
            .AddAttribute("EvSetSize",
                          "Fresh EVs are uniform in [0, EvSetSize) (REPS [L] Sec. 5: 65536); "
                          "allowed 1..65536",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&DcnMprdmaPathSelector::m_evSetSize),
                          MakeUintegerChecker<uint32_t>(1, 65536))
            .AddAttribute("RecycleMarked",
                          "ECN-marked ACKs also leave a credit (spec reps.md 3.4: every ACK "
                          "clocks a packet on its EV; false is our variant)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DcnMprdmaPathSelector::m_recycleMarked),
                          MakeBooleanChecker());
    return tid;
}

DcnMprdmaPathSelector::DcnMprdmaPathSelector() = default;
DcnMprdmaPathSelector::~DcnMprdmaPathSelector() = default;

void
DcnMprdmaPathSelector::Setup(const PathSelectorSetup& setup)
{
    NS_LOG_FUNCTION(this);
    PathSelector::Setup(setup);
    Rng();
    lbcore::MprdmaConfig cfg;
    cfg.recycleMarked = m_recycleMarked;
    m_core.Configure(cfg);
    m_setupDone = true;
}

PathChoice
DcnMprdmaPathSelector::Choose(const SendContext& ctx)
{
    NS_LOG_FUNCTION(this << ctx.psn);
    EnsureSetup();
    lbcore::MprdmaChoice ch =
        m_core.Next([this]() { return dcnev::DrawUniform(Rng(), m_evSetSize); });
    ++(ch.reused ? m_reused : m_fresh);
    PathChoice c;
    c.ev = ch.ev;
    return c;
}

void
DcnMprdmaPathSelector::OnFeedback(const PathFeedback& fb)
{
    NS_LOG_FUNCTION(this << fb.path.ev << static_cast<int>(fb.signal));
    EnsureSetup();
    switch (fb.signal)
    {
    case FeedbackSignal::ACK:
    case FeedbackSignal::ECN_ACK: {
        // one credit per ACK of the echoed EV; in Carry mode one per carried (unmarked)
        // EV, and the CE echo's extra ECN_ACK is the marked packet's credit (the
        // receiver does not carry marked EVs; until 2026-11-30 it gave none).  Without
        // the EV list an ACK covering n packets (AckRatio n) still gives one credit:
        // newly acknowledged bytes cannot tell coalescing from ACK reordering
        m_core.OnAck(fb.path.ev, fb.signal == FeedbackSignal::ECN_ACK);
        break;
    }
    case FeedbackSignal::TIMEOUT:
        m_core.ClearCredits(); // the window collapsed: pending credits are stale
        break;
    default:
        break;
    }
}

std::string
DcnMprdmaPathSelector::Name() const
{
    return "mprdma";
}

int64_t
DcnMprdmaPathSelector::AssignStreams(int64_t stream)
{
    return AssignRngStream(stream);
}

} // namespace ns3
