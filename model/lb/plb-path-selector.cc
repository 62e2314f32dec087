#include "plb-path-selector.h"

#include "dcn-scheme.h"
#include "ev-util.h"

#include "ns3/boolean.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnPlbPathSelector");
NS_OBJECT_ENSURE_REGISTERED(DcnPlbPathSelector);
DCNLB_REGISTER_PATH_SELECTOR("plb", DcnPlbPathSelector);
DCNLB_REGISTER_SCHEME((DcnScheme{
    "plb",
    "PLB: new random EV after 12 congested rounds (ECN >= 50%) (SIGCOMM'22; LAPS baseline)",
    "plb",
    "dctcp",
    "selective-repeat",
    "ecmp",
    0,
    "dcn",
    {},
    {}}));
DCNLB_REGISTER_SCHEME((DcnScheme{
    "plb-reps",
    "PLB, the REPS paper's aggressive setting: new EV after 2 rounds of > 25% ECN/NACK, and "
    "on every RTO (spec reps.md 3.4)",
    "plb",
    "dctcp",
    "selective-repeat",
    "ecmp",
    0,
    "dcn",
    {},
    {{"Preset", "reps-aggressive"}}}));

TypeId
DcnPlbPathSelector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcnPlbPathSelector")
            .SetParent<PathSelector>()
            .SetGroupName("DcnLb")
            .AddConstructor<DcnPlbPathSelector>()
            .AddAttribute(
                "Preset",
                "laps: the attributes below (defaults = LAPS evaluation / PLB "
                "SIGCOMM'22); reps-aggressive: the REPS paper's setting (spec reps.md "
                "3.4: rounds of one base RTT, > 25% ECN or NACK, repath at the 2nd "
                "congested round and on every RTO), which ignores them",
                EnumValue(LAPS),
                DCNLB_ENUM_ACCESSOR(DcnPlbPathSelector::Preset, &DcnPlbPathSelector::m_preset),
                MakeEnumChecker(LAPS, "laps", REPS_AGGRESSIVE, "reps-aggressive"))
            .AddAttribute("CongestedFraction",
                          "A round is congested if its ECN-marked fraction is >= this (PLB "
                          "SIGCOMM'22 Sec. 3 / LAPS [A]: 0.5); allowed [0, 1]",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&DcnPlbPathSelector::m_threshold),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("RehashRounds",
                          "Repath after this many consecutive congested rounds (LAPS evaluation: "
                          "12); allowed 1..1000000",
                          UintegerValue(12),
                          MakeUintegerAccessor(&DcnPlbPathSelector::m_rounds),
                          MakeUintegerChecker<uint32_t>(1, 1000000))
            .AddAttribute("IdleRehashRounds",
                          "Repath after this many congested rounds if nothing is in flight "
                          "(LAPS [A] / Linux PLB: 3; 0 = off); allowed 0..1000000",
                          UintegerValue(3),
                          MakeUintegerAccessor(&DcnPlbPathSelector::m_idleRounds),
                          MakeUintegerChecker<uint32_t>(0, 1000000))
            .AddAttribute("SuspendAfterRto",
                          "After an RTO no repath for this time plus a random draw in [0, it) "
                          "(LAPS [A] / Linux PLB: 60 s; 0 = off); allowed >= 0",
                          TimeValue(Seconds(60)),
                          MakeTimeAccessor(&DcnPlbPathSelector::m_suspend),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("RepathOnRto",
                          "Draw a new EV on a retransmission timeout, as Linux TCP rethinks "
                          "its txhash on every RTO (tcp_write_timeout -> sk_rethink_txhash), "
                          "which Linux PLB's suspension after an RTO presumes; false: only "
                          "suspend (before 2026-11-30: a connection whose EV hashed onto a "
                          "black hole never left it)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DcnPlbPathSelector::m_repathOnRto),
                          MakeBooleanChecker())
            .AddAttribute("NackIsCongestion",
                          "A NACK counts as congested feedback of the round (it also ends one "
                          "like an ACK).  false (PLB SIGCOMM'22 Sec. 3: ECN marks only); the "
                          "LAPS authors' simulator [A] counts its go-back-N NACKs, which carry "
                          "the CNP flag (rdma-hw.cc ReceiverCheckSeq / PlbUpdateState; "
                          "laps-paper --setup=authors sets true)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&DcnPlbPathSelector::m_nackIsCongestion),
                          MakeBooleanChecker())
            .AddAttribute("EvSetSize",
                          "A repath draws a uniform EV in [0, EvSetSize) (REPS [L] Sec. 5: "
                          "65536); allowed 1..65536",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&DcnPlbPathSelector::m_evSetSize),
                          MakeUintegerChecker<uint32_t>(1, 65536))
            .AddTraceSource("Repath",
                            "The connection moved: old EV, new EV, reason "
                            "(1 idle, 2 forced, 3 RTO: lbcore::PlbAction)",
                            MakeTraceSourceAccessor(&DcnPlbPathSelector::m_repath),
                            "ns3::TracedCallback<uint16_t,uint16_t,uint8_t>::TracedCallback");
    return tid;
}

DcnPlbPathSelector::DcnPlbPathSelector()
    : m_suspend(Seconds(60))
{
}

DcnPlbPathSelector::~DcnPlbPathSelector() = default;

void
DcnPlbPathSelector::Setup(const PathSelectorSetup& setup)
{
    NS_LOG_FUNCTION(this);
    PathSelector::Setup(setup);
    Rng();
    lbcore::PlbConfig cfg;
    if (m_preset == REPS_AGGRESSIVE)
    {
        const int64_t rtt = setup.baseRtt.GetNanoSeconds();
        cfg = lbcore::PlbConfig::RepsAggressive(rtt > 0 ? rtt : 10'000);
    }
    else
    {
        cfg.congThreshold = m_threshold;
        cfg.rehashRounds = m_rounds;
        cfg.idleRehashRounds = m_idleRounds;
        cfg.suspendRtoNs = m_suspend.GetNanoSeconds();
        cfg.repathOnRto = m_repathOnRto;
        cfg.nackIsCongestion = m_nackIsCongestion;
    }
    m_core.Configure(cfg);
    m_ev = dcnev::DrawUniform(Rng(), m_evSetSize);
    m_setupDone = true;
}

PathChoice
DcnPlbPathSelector::Choose(const SendContext& ctx)
{
    NS_LOG_FUNCTION(this << ctx.psn);
    EnsureSetup();
    if (ctx.psn + 1 > m_sndNxt)
    {
        m_sndNxt = ctx.psn + 1;
    }
    // the transport's bytes in flight exclude the packet being sent
    m_inflightBytes = static_cast<int64_t>(ctx.bytesInFlight) + m_setup.mtu;
    PathChoice c;
    c.ev = m_ev;
    return c;
}

uint32_t
DcnPlbPathSelector::InFlightPackets(const PathFeedback& fb)
{
    if (fb.bytesInFlight >= 0)
    {
        m_inflightBytes = fb.bytesInFlight; // the transport's exact count
    }
    const int64_t mtu = m_setup.mtu > 0 ? m_setup.mtu : 1;
    return m_inflightBytes <= 0 ? 0 : static_cast<uint32_t>((m_inflightBytes + mtu - 1) / mtu);
}

void
DcnPlbPathSelector::Repath(lbcore::PlbAction a)
{
    if (a == lbcore::PlbAction::NONE)
    {
        return;
    }
    const uint16_t old = m_ev;
    m_ev = dcnev::DrawUniform(Rng(), m_evSetSize);
    NS_LOG_LOGIC("plb: repath " << old << " -> " << m_ev << " reason " << int(a));
    m_repath(old, m_ev, static_cast<uint8_t>(a));
}

void
DcnPlbPathSelector::OnFeedback(const PathFeedback& fb)
{
    NS_LOG_FUNCTION(this << fb.path.ev << static_cast<int>(fb.signal));
    EnsureSetup();
    const int64_t now = Simulator::Now().GetNanoSeconds();
    switch (fb.signal)
    {
    case FeedbackSignal::ACK:
    case FeedbackSignal::ECN_ACK: {
        // a coalesced ACK reports its EVs as ACKs and its CE echo as one extra
        // ECN_ACK: count that one as a mark of the last delivery, not a delivery
        if (fb.signal == FeedbackSignal::ECN_ACK && fb.header && !fb.header->evs.empty())
        {
            Repath(m_core.OnFeedback(fb.psn, true, m_sndNxt, InFlightPackets(fb), now));
            return;
        }
        m_inflightBytes -= fb.ackedBytes;
        Repath(m_core.OnFeedback(fb.psn,
                                 fb.signal == FeedbackSignal::ECN_ACK,
                                 m_sndNxt,
                                 InFlightPackets(fb),
                                 now));
        break;
    }
    case FeedbackSignal::NACK:
        m_inflightBytes -= m_setup.mtu;
        Repath(m_core.OnNack(fb.psn, m_sndNxt, InFlightPackets(fb), now));
        break;
    case FeedbackSignal::TIMEOUT: {
        m_inflightBytes -= m_setup.mtu;
        if (now == m_lastRtoNs)
        {
            return; // one RTO expiry reports every timed-out packet: act once per RTO
        }
        m_lastRtoNs = now;
        const int64_t s = m_core.GetConfig().suspendRtoNs;
        const int64_t draw =
            s > 0 ? static_cast<int64_t>(Rng().GetValue(0, static_cast<double>(s))) : 0;
        Repath(m_core.OnRto(now, draw));
        break;
    }
    default:
        break;
    }
}

std::string
DcnPlbPathSelector::Name() const
{
    return "plb";
}

int64_t
DcnPlbPathSelector::AssignStreams(int64_t stream)
{
    return AssignRngStream(stream);
}

} // namespace ns3
