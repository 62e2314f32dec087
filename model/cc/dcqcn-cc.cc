#include "dcqcn-cc.h"

#include "../dcn-lb-compat.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/dcn-options.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <limits>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnDcqcnCc");
NS_OBJECT_ENSURE_REGISTERED(DcqcnCc);

TypeId
DcqcnCc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcqcnCc")
            .SetParent<CongestionControl>()
            .SetGroupName("DcnLb")
            .AddConstructor<DcqcnCc>()
            .AddAttribute(
                "Preset",
                "Parameter set: Paper (the attributes below, defaults from DCQCN "
                "SIGCOMM'15 Sec. 3/5) or LapsAuthors (spec laps.md 3 [A]: rateAI 5Mb/s, "
                "rateHAI 50Mb/s, g 1/256, min rate 100Mb/s, rate-decrease interval 4us, "
                "alpha-resume interval 1us, rpTimer 300us, and as [A]'s HPCC-simulator "
                "Dcqcn_mlx mode: fastRecoveryTimes 1, no byte counter, +rateHAI once per "
                "hyper stage, target not clamped before an increase, alpha raised per 1us "
                "with a CNP; the attributes are ignored)",
                EnumValue(DcqcnCc::PAPER),
                DCNLB_ENUM_ACCESSOR(DcqcnCc::Preset, &DcqcnCc::m_preset),
                MakeEnumChecker(DcqcnCc::PAPER, "Paper", DcqcnCc::LAPS_AUTHORS, "LapsAuthors"))
            .AddAttribute("G",
                          "Alpha gain g, 0 < g < 1 (SIGCOMM'15 Sec. 3: 1/256)",
                          DoubleValue(1.0 / 256),
                          MakeDoubleAccessor(&DcqcnCc::m_g),
                          MakeDoubleChecker<double>(1e-9, 1.0 - 1e-9))
            .AddAttribute("RateAi",
                          "Additive-increase step R_AI (SIGCOMM'15 Sec. 5: 40Mb/s)",
                          DataRateValue(DataRate("40Mbps")),
                          MakeDataRateAccessor(&DcqcnCc::m_rateAi),
                          MakeDataRateChecker())
            .AddAttribute("RateHai",
                          "Hyper-increase step R_HAI (paper gives no number; spec resolution "
                          "doc/baselines.rst: 10 x R_AI = 400Mb/s)",
                          DataRateValue(DataRate("400Mbps")),
                          MakeDataRateAccessor(&DcqcnCc::m_rateHai),
                          MakeDataRateChecker())
            .AddAttribute("MinRate",
                          "Minimum rate (paper silent; spec resolution: the LAPS authors' "
                          "100Mb/s), > 0 and <= the line rate",
                          DataRateValue(DataRate("100Mbps")),
                          MakeDataRateAccessor(&DcqcnCc::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("FastRecoverySteps",
                          "Fast-recovery steps F (SIGCOMM'15 Sec. 3: 5)",
                          UintegerValue(5),
                          MakeUintegerAccessor(&DcqcnCc::m_fastRecovery),
                          MakeUintegerChecker<uint32_t>(1, 1000))
            .AddAttribute("AlphaTimer",
                          "Alpha-update period K without CNP (SIGCOMM'15 Sec. 5: 55us)",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&DcqcnCc::m_alphaTimer),
                          MakeTimeChecker(NanoSeconds(1), Seconds(1)))
            .AddAttribute("RateTimer",
                          "Rate-increase timer T (SIGCOMM'15 Sec. 5: 55us)",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&DcqcnCc::m_rateTimer),
                          MakeTimeChecker(NanoSeconds(1), Seconds(1)))
            .AddAttribute("ByteCounter",
                          "Byte counter B: bytes per increase event (SIGCOMM'15 Sec. 5: 10MB)",
                          UintegerValue(10'000'000),
                          MakeUintegerAccessor(&DcqcnCc::m_byteCounter),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("RateDecreaseInterval",
                          "A CNP within this time of the previous cut is ignored (paper silent; "
                          "spec resolution: 0, every CNP cuts)",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&DcqcnCc::m_rateDecreaseInterval),
                          MakeTimeChecker(Seconds(0), Seconds(1)))
            .AddAttribute("Window",
                          "Send window in bytes: at most this much unacknowledged data in "
                          "flight (0 = none, DCQCN's rate alone, SIGCOMM'15).  Not part of "
                          "DCQCN: the HPCC-derived simulator of the LAPS authors (spec laps.md "
                          "3 [A]: enableWindow / enableUnifiedWindow) gives every RoCE flow "
                          "the largest bandwidth-delay product of any host pair, e.g. "
                          "155,240 B on laps-rail (DcnTopology::GetMaxHostPairBdp; "
                          "--roceWindow=unified in laps-paper, its default, and dcn-lb-compare; "
                          "doc/laps.rst \"The authors' simulator\"); applies with either "
                          "Preset; allowed 0 or >= 1 frame (64 B)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&DcqcnCc::m_window),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("NackIsCnp",
                          "A go-back-N NACK acts as a CNP (rate cut, subject to "
                          "RateDecreaseInterval).  false: DCQCN (SIGCOMM'15) reacts to CNPs "
                          "only; the LAPS authors' simulator [A] sets the CNP flag on every "
                          "go-back-N NACK and its DCQCN cuts on it (rdma-hw.cc "
                          "ReceiverCheckSeq / ReceiveAck; laps-paper --setup=authors sets true)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&DcqcnCc::m_nackIsCnp),
                          MakeBooleanChecker())
            .AddTraceSource("Rate",
                            "The current rate Rc changed (old, new bit/s)",
                            MakeTraceSourceAccessor(&DcqcnCc::m_rateTrace),
                            "ns3::DcqcnCc::RateTracedCallback");
    return tid;
}

DcqcnCc::DcqcnCc()
{
    NS_LOG_FUNCTION(this);
}

DcqcnCc::~DcqcnCc() = default;

void
DcqcnCc::DoDispose()
{
    m_rateEvent.Cancel();
    m_setup.wakeup = Callback<void>();
    CongestionControl::DoDispose();
}

std::string
DcqcnCc::Name() const
{
    return "dcqcn";
}

std::string
DcqcnCc::Validate() const
{
    for (const auto& [name, rate] : {std::pair<const char*, DataRate>{"MinRate", m_minRate},
                                     {"RateAi", m_rateAi},
                                     {"RateHai", m_rateHai}})
    {
        if (rate.GetBitRate() == 0)
        {
            return std::string("option --ns3::DcqcnCc::") + name + ": value '0bps'; allowed: > 0";
        }
    }
    return CheckWindowBytes("DcqcnCc", m_window);
}

void
DcqcnCc::Setup(const CcSetup& setup)
{
    NS_LOG_FUNCTION(this);
    CongestionControl::Setup(setup);
    const std::string err = Validate();
    DCN_REFUSE_IF(!err.empty(), err);
    const double line = static_cast<double>(setup.lineRate.GetBitRate());
    NS_ABORT_MSG_IF(line <= 0, "DcqcnCc: lineRate = 0 is invalid; allowed > 0");
    cccore::DcqcnConfig c;
    if (m_preset == LAPS_AUTHORS)
    {
        c = cccore::DcqcnConfig::LapsAuthors(line);
    }
    else
    {
        c.lineRateBps = line;
        c.minRateBps = static_cast<double>(m_minRate.GetBitRate());
        c.g = m_g;
        c.rateAiBps = static_cast<double>(m_rateAi.GetBitRate());
        c.rateHaiBps = static_cast<double>(m_rateHai.GetBitRate());
        c.fastRecoverySteps = m_fastRecovery;
        c.alphaTimerNs = m_alphaTimer.GetNanoSeconds();
        c.rateTimerNs = m_rateTimer.GetNanoSeconds();
        c.byteCounterBytes = m_byteCounter;
        c.rateDecreaseIntervalNs = m_rateDecreaseInterval.GetNanoSeconds();
    }
    DCN_REFUSE_IF(c.minRateBps > line,
                  "DcqcnCc::MinRate=" << c.minRateBps << "bps is invalid; allowed <= the line "
                                      << "rate " << line << "bps");
    m_rp.Configure(c);
    m_rateEvent.Cancel();
    m_lastCutNs = -1;
    m_alphaApplied = 0;
    m_cnpInPeriod = false;
}

uint64_t
DcqcnCc::PendingAlphaTicks(int64_t nowNs) const
{
    if (m_lastCutNs < 0)
    {
        return 0;
    }
    const uint64_t ticks =
        static_cast<uint64_t>((nowNs - m_lastCutNs) / m_rp.GetConfig().alphaTimerNs);
    return ticks > m_alphaApplied ? ticks - m_alphaApplied : 0;
}

void
DcqcnCc::ApplyAlpha(int64_t nowNs)
{
    const uint64_t n = PendingAlphaTicks(nowNs);
    // alpha < 1e-12 after ~7000 decays of g = 1/256: further ones change nothing visible
    const uint64_t steps = std::min<uint64_t>(n, 1u << 16);
    for (uint64_t i = 0; i < steps; ++i)
    {
        // mlxIncrease ([A]): the first period that ended had the CNPs seen so far
        m_rp.OnAlphaTimer(i == 0 && m_cnpInPeriod);
    }
    if (n > 0)
    {
        m_cnpInPeriod = false;
    }
    m_alphaApplied += n;
}

double
DcqcnCc::GetAlpha() const
{
    const uint64_t n = PendingAlphaTicks(Simulator::Now().GetNanoSeconds());
    const double g = m_rp.GetConfig().g;
    if (n > 0 && m_cnpInPeriod)
    {
        return ((1 - g) * m_rp.GetAlpha() + g) * std::pow(1.0 - g, static_cast<double>(n - 1));
    }
    return m_rp.GetAlpha() * std::pow(1.0 - g, static_cast<double>(n));
}

void
DcqcnCc::NotifyRate(double oldBps)
{
    if (m_rp.GetRate() != oldBps)
    {
        m_rateTrace(oldBps, m_rp.GetRate());
    }
}

void
DcqcnCc::OnCnp(Time now)
{
    NS_LOG_FUNCTION(this << now);
    const int64_t ns = now.GetNanoSeconds();
    ApplyAlpha(ns);
    // mlxIncrease ([A] UpdateAlphaMlx): this CNP raises alpha when its period ends
    m_cnpInPeriod = m_rp.GetConfig().mlxIncrease && m_lastCutNs >= 0;
    const double old = m_rp.GetRate();
    if (!m_rp.OnCnp(ns))
    {
        return; // within the rate-decrease interval
    }
    m_lastCutNs = ns;
    m_alphaApplied = 0;
    m_rateEvent.Cancel();
    m_rateEvent =
        Simulator::Schedule(NanoSeconds(m_rp.GetConfig().rateTimerNs), &DcqcnCc::RateTimer, this);
    NS_LOG_LOGIC("CNP: rate " << old << " -> " << m_rp.GetRate() << " alpha " << m_rp.GetAlpha());
    NotifyRate(old);
}

void
DcqcnCc::RateTimer()
{
    const double old = m_rp.GetRate();
    m_rp.OnRateTimer();
    NotifyRate(old);
    const double line = m_rp.GetConfig().lineRateBps;
    if (m_rp.GetRate() < line * (1 - 1e-9))
    {
        m_rateEvent = Simulator::Schedule(NanoSeconds(m_rp.GetConfig().rateTimerNs),
                                          &DcqcnCc::RateTimer,
                                          this);
    }
    if (!m_setup.wakeup.IsNull())
    {
        m_setup.wakeup();
    }
}

void
DcqcnCc::OnSend(const CcSendSample& s)
{
    if (m_lastCutNs < 0)
    {
        return; // at line rate before the first cut: increase events change nothing
    }
    const double old = m_rp.GetRate();
    if (m_rp.OnBytesSent(s.bytes) > 0)
    {
        NotifyRate(old);
    }
}

void
DcqcnCc::OnAck(const CcAckSample& /* s */)
{
}

void
DcqcnCc::OnNack()
{
    NS_LOG_FUNCTION(this);
    if (m_nackIsCnp)
    {
        OnCnp(Simulator::Now());
    }
}

void
DcqcnCc::OnTimeout()
{
}

DataRate
DcqcnCc::GetRate() const
{
    return DataRate(static_cast<uint64_t>(m_rp.GetRate()));
}

uint64_t
DcqcnCc::GetCwnd() const
{
    return m_window > 0 ? m_window : std::numeric_limits<uint64_t>::max();
}

} // namespace ns3
