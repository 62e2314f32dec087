#include "reps-path-selector.h"

#include "../dcn-lb-compat.h"
#include "dcn-scheme.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/dcn-options.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RepsPathSelector");
NS_OBJECT_ENSURE_REGISTERED(RepsPathSelector);

DCNLB_REGISTER_PATH_SELECTOR("reps", RepsPathSelector);
DCNLB_REGISTER_SCHEME((DcnScheme{"reps",
                                 "Recycled entropy packet spraying (REPS [L]), DCTCP as in MPRDMA",
                                 "reps",
                                 "dctcp",
                                 "selective-repeat",
                                 "ecmp",
                                 0,
                                 "dcn",
                                 {},
                                 {}}));

TypeId
RepsPathSelector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RepsPathSelector")
            .SetParent<PathSelector>()
            .SetGroupName("DcnLb")
            .AddConstructor<RepsPathSelector>()
            .AddAttribute("BufferSize",
                          "Number N of cached EVs in the circular buffer, 1..255 (REPS paper [L] "
                          "Sec. 3.1 / Table 1: 8; workshop [W] also uses 1)",
                          UintegerValue(8),
                          MakeUintegerAccessor(&RepsPathSelector::m_bufferSize),
                          MakeUintegerChecker<uint32_t>(1, 255))
            .AddAttribute("EvSetSize",
                          "Size of the entropy value set EVS, 16..65536; EVs are drawn uniformly "
                          "from [0, EvSetSize) (REPS paper [L] Sec. 4.5.2: 65536; [W]: 256)",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&RepsPathSelector::m_evSetSize),
                          MakeUintegerChecker<uint32_t>(16, 65536))
            .AddAttribute("FreezingEnabled",
                          "Enable freezing mode after a suspected failure (REPS paper [L] Sec. "
                          "3.2; App. C.4 ablation: true)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RepsPathSelector::m_freezingEnabled),
                          MakeBooleanChecker())
            .AddAttribute("FreezingTimeout",
                          "FREEZING_TIMEOUT: minimum time in freezing mode; freezing ends on the "
                          "first clean ACK after it (REPS paper [L] Sec. 3.2 gives no value; spec "
                          "resolution A3 / artifact [A]: 10ms; Fig. 7 uses 100us).  Probe-based "
                          "exit is not implemented.",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&RepsPathSelector::m_freezingTimeout),
                          MakeTimeChecker())
            .AddAttribute(
                "ExploreMode",
                "Post-freeze exploration: EveryNth forces a random EV on every N-th of "
                "the PKTS_PER_CWND packets and sends the rest normally ([L] Alg. 2, "
                "spec resolution A1, default); AllRandom makes all of them random and "
                "clears the buffer on freeze exit (artifact [A])",
                EnumValue(EXPLORE_EVERY_NTH),
#if DCNLB_NS3_MINOR >= 42
                MakeEnumAccessor<ExploreModeValue>(&RepsPathSelector::m_exploreMode),
#else
                MakeEnumAccessor(&RepsPathSelector::m_exploreMode),
#endif
                MakeEnumChecker(EXPLORE_EVERY_NTH, "EveryNth", EXPLORE_ALL_RANDOM, "AllRandom"))
            .AddAttribute(
                "FrozenOrder",
                "Order of the cached EVs while frozen: OldestValid takes the oldest valid "
                "entry first and cycles over all entries once none is valid ([L] Alg. 2 "
                "GETNEXTEV, spec resolution A5, default); RoundRobin cycles a separate "
                "frozen pointer over all populated entries, valid or not (artifact [A], "
                "issue 10)",
                EnumValue(FROZEN_OLDEST_VALID),
#if DCNLB_NS3_MINOR >= 42
                MakeEnumAccessor<FrozenOrderValue>(&RepsPathSelector::m_frozenOrder),
#else
                MakeEnumAccessor(&RepsPathSelector::m_frozenOrder),
#endif
                MakeEnumChecker(FROZEN_OLDEST_VALID,
                                "OldestValid",
                                FROZEN_ROUND_ROBIN,
                                "RoundRobin"))
            .AddAttribute("ExplorePackets",
                          "PKTS_PER_CWND, packets explored after freezing ends; 0 = ceil(BDP/MTU) "
                          "from the connection setup (spec resolution A2, [A]: ~101 at 400G), "
                          "saturating at 255 (8-bit counter, [L] Table 1)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RepsPathSelector::m_explorePackets),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ResetBufferOnFreezeExit",
                          "Clear the EV buffer when freezing ends (spec resolution A7: [L] keeps "
                          "it = false, artifact [A] clears it)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RepsPathSelector::m_resetBufferOnFreezeExit),
                          MakeBooleanChecker())
            .AddAttribute("FreezeRttThreshold",
                          "Without trimming, an RTO freezes only if the window's max RTT is below "
                          "this multiple of the base RTT (REPS paper [L] App. A; spec resolution "
                          "A4 / artifact [A]: 1.65)",
                          DoubleValue(1.65),
                          MakeDoubleAccessor(&RepsPathSelector::m_rttThreshold),
                          MakeDoubleChecker<double>())
            .AddAttribute("RttWindowRtoMultiplier",
                          "Length of the max-RTT tracking window in RTOs; a window restarts on the "
                          "first ACK after its end (spec resolution A4 / artifact [A]: 2)",
                          DoubleValue(2.0),
                          MakeDoubleAccessor(&RepsPathSelector::m_rttWindowRtoMult),
                          MakeDoubleChecker<double>())
            .AddAttribute("IdleInvalidateTime",
                          "If > 0, invalidate all cached EVs when the connection was idle (no send "
                          "and no feedback) for this long, so that it re-explores (spec resolution "
                          "A8: off = 0)",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RepsPathSelector::m_idleInvalidateTime),
                          MakeTimeChecker())
            .AddAttribute("EvReuseCount",
                          "Uses per cached EV, 1..255: the 'Reuse EVs' ACK-coalescing variant sets "
                          "n for n:1 coalescing (REPS paper [L] Sec. 4.5.1; [A] usable_lifetime: "
                          "1 = no coalescing).  The Standard and Carry variants are transport-side",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RepsPathSelector::m_evReuseCount),
                          MakeUintegerChecker<uint32_t>(1, 255))
            .AddTraceSource("EvExplored",
                            "A packet was sent on a freshly drawn random EV",
                            MakeTraceSourceAccessor(&RepsPathSelector::m_evExploredTrace),
                            "ns3::RepsPathSelector::EvTracedCallback")
            .AddTraceSource("EvRecycled",
                            "A packet was sent on an EV taken from the buffer",
                            MakeTraceSourceAccessor(&RepsPathSelector::m_evRecycledTrace),
                            "ns3::RepsPathSelector::EvTracedCallback")
            .AddTraceSource("FreezeEntered",
                            "Freezing mode was entered (argument: current time)",
                            MakeTraceSourceAccessor(&RepsPathSelector::m_freezeEnteredTrace),
                            "ns3::Time::TracedCallback")
            .AddTraceSource("FreezeExited",
                            "Freezing mode was left (argument: current time)",
                            MakeTraceSourceAccessor(&RepsPathSelector::m_freezeExitedTrace),
                            "ns3::Time::TracedCallback");
    return tid;
}

RepsPathSelector::RepsPathSelector()
    : m_bufferSize(8),
      m_evSetSize(65536),
      m_freezingEnabled(true),
      m_freezingTimeout(MilliSeconds(10)),
      m_exploreMode(EXPLORE_EVERY_NTH),
      m_frozenOrder(FROZEN_OLDEST_VALID),
      m_explorePackets(0),
      m_resetBufferOnFreezeExit(false),
      m_rttThreshold(1.65),
      m_rttWindowRtoMult(2.0),
      m_idleInvalidateTime(Time(0)),
      m_evReuseCount(1)
{
    NS_LOG_FUNCTION(this);
}

RepsPathSelector::~RepsPathSelector() = default;

void
RepsPathSelector::DoDispose()
{
    m_large.reset();
    PathSelector::DoDispose();
}

std::string
RepsPathSelector::Name() const
{
    return "reps";
}

int64_t
RepsPathSelector::AssignStreams(int64_t stream)
{
    return AssignRngStream(stream);
}

uint32_t
RepsPathSelector::LogicalStateBits(uint32_t n)
{
    return reps::RepsLogicalStateBits(n);
}

std::string
RepsPathSelector::Validate() const
{
    return ConfigError();
}

std::string
RepsPathSelector::ConfigError() const
{
    std::ostringstream os;
    if (m_bufferSize < 1 || m_bufferSize > 255)
    {
        os << "RepsPathSelector: BufferSize=" << m_bufferSize << " out of range [1, 255]";
    }
    else if (m_evSetSize < 16 || m_evSetSize > 65536)
    {
        os << "RepsPathSelector: EvSetSize=" << m_evSetSize << " out of range [16, 65536]";
    }
    else if (m_evReuseCount < 1 || m_evReuseCount > 255)
    {
        os << "RepsPathSelector: EvReuseCount=" << m_evReuseCount << " out of range [1, 255]";
    }
    else if (m_freezingTimeout.IsStrictlyNegative())
    {
        os << "RepsPathSelector: FreezingTimeout=" << m_freezingTimeout.As(Time::US)
           << " out of range [0, inf)";
    }
    else if (!(m_rttThreshold > 0.0))
    {
        os << "RepsPathSelector: FreezeRttThreshold=" << m_rttThreshold << " out of range (0, inf)";
    }
    else if (!(m_rttWindowRtoMult > 0.0))
    {
        os << "RepsPathSelector: RttWindowRtoMultiplier=" << m_rttWindowRtoMult
           << " out of range (0, inf)";
    }
    else if (m_idleInvalidateTime.IsStrictlyNegative())
    {
        os << "RepsPathSelector: IdleInvalidateTime=" << m_idleInvalidateTime.As(Time::US)
           << " out of range [0, inf) (0 = off)";
    }
    return os.str();
}

void
RepsPathSelector::Setup(const PathSelectorSetup& setup)
{
    NS_LOG_FUNCTION(this);
    PathSelector::Setup(setup);
    Configure();
}

void
RepsPathSelector::Configure()
{
    const std::string err = ConfigError();
    DCN_REFUSE_IF(!err.empty(), err);
    Rng();

    uint32_t pkts = m_explorePackets > 0 ? m_explorePackets : m_setup.bdpPackets;
    if (pkts > 255)
    {
        pkts = 255; // 8-bit exploreCounter ([L] Table 1, spec A2)
    }

    reps::RepsConfig cfg;
    cfg.bufferSize = static_cast<uint8_t>(m_bufferSize);
    cfg.pktsPerCwnd = static_cast<uint8_t>(pkts);
    cfg.evReuseCount = static_cast<uint8_t>(m_evReuseCount);
    cfg.exploreMode = m_exploreMode == EXPLORE_ALL_RANDOM ? reps::ExploreMode::ALL_RANDOM
                                                          : reps::ExploreMode::EVERY_NTH;
    cfg.resetBufferOnFreezeExit = m_resetBufferOnFreezeExit;
    cfg.frozenOrder = m_frozenOrder == FROZEN_ROUND_ROBIN ? reps::FrozenOrder::ROUND_ROBIN
                                                          : reps::FrozenOrder::OLDEST_VALID;
    cfg.freezingEnabled = m_freezingEnabled;
    cfg.freezingTimeoutNs = m_freezingTimeout.GetNanoSeconds();

    if (m_bufferSize <= kSmallCap)
    {
        m_large.reset();
        m_small.Configure(cfg);
    }
    else
    {
        m_large = std::make_unique<reps::RepsCore<kLargeCap>>(cfg); // once per connection
    }

    m_detector.Configure(m_setup.baseRtt.GetNanoSeconds(),
                         m_setup.rto.GetNanoSeconds(),
                         m_rttThreshold,
                         m_rttWindowRtoMult,
                         m_setup.trimming);
    if (m_freezingEnabled && !m_setup.trimming && m_setup.baseRtt.IsZero())
    {
        NS_LOG_WARN("RepsPathSelector: baseRtt is 0 and trimming is off, so the max-RTT "
                    "heuristic never freezes");
    }
    m_lastActivityNs = Simulator::Now().GetNanoSeconds();
    m_configured = true;
}

uint16_t
RepsPathSelector::DrawEv()
{
    return static_cast<uint16_t>(Rng().GetInteger(0, m_evSetSize - 1));
}

PathChoice
RepsPathSelector::Choose(const SendContext& ctx)
{
    if (!m_configured)
    {
        Configure();
    }
    const int64_t now = Simulator::Now().GetNanoSeconds();
    if (m_idleInvalidateTime.IsStrictlyPositive() &&
        now - m_lastActivityNs >= m_idleInvalidateTime.GetNanoSeconds())
    {
        NS_LOG_LOGIC("idle for " << (now - m_lastActivityNs) << " ns: invalidating cached EVs");
        WithCore([](auto& c) { c.InvalidateValid(); });
    }
    m_lastActivityNs = now;

    const reps::RepsEvChoice c =
        WithCore([this](auto& core) { return core.NextEv([this]() { return DrawEv(); }); });
    PathChoice pc;
    pc.ev = c.ev;
    if (c.random)
    {
        m_explored++;
        m_evExploredTrace(c.ev);
    }
    else
    {
        m_recycled++;
        m_evRecycledTrace(c.ev);
    }
    NS_LOG_LOGIC("psn " << ctx.psn << (ctx.retransmission ? " (retx)" : "") << " ev " << c.ev
                        << (c.random ? " explored" : " recycled"));
    return pc;
}

void
RepsPathSelector::OnFeedback(const PathFeedback& fb)
{
    if (!m_configured)
    {
        Configure();
    }
    const int64_t now = Simulator::Now().GetNanoSeconds();
    m_lastActivityNs = now;
    switch (fb.signal)
    {
    case FeedbackSignal::ACK:
    case FeedbackSignal::ECN_ACK: {
        if (fb.rtt.IsStrictlyPositive())
        {
            m_detector.OnRttSample(fb.rtt.GetNanoSeconds(), now); // ECN ACKs count for maxRtt
        }
        const bool ecn = fb.signal == FeedbackSignal::ECN_ACK;
        const bool exited = WithCore([&](auto& core) { return core.OnAck(fb.path.ev, ecn, now); });
        if (exited)
        {
            HandleFreezeExited();
        }
        break;
    }
    case FeedbackSignal::NACK:
        // Trimmed packet: the EV is not cached and NACKs never trigger freezing.
        break;
    case FeedbackSignal::PROBE_REPLY:
        // REPS sends no probes.
        break;
    case FeedbackSignal::TIMEOUT:
        if (m_detector.IsFailure())
        {
            const bool entered =
                WithCore([now](auto& core) { return core.OnFailureDetected(now); });
            if (entered)
            {
                HandleFreezeEntered();
            }
        }
        else
        {
            NS_LOG_LOGIC("RTO treated as congestion: maxRtt " << m_detector.GetMaxRtt()
                                                              << " ns >= threshold "
                                                              << m_detector.GetThreshold());
        }
        break;
    }
}

void
RepsPathSelector::HandleFreezeEntered()
{
    m_freezes++;
    NS_LOG_LOGIC("freezing until " << GetExitFreezeTime().As(Time::US));
    m_freezeEnteredTrace(Simulator::Now());
}

void
RepsPathSelector::HandleFreezeExited()
{
    NS_LOG_LOGIC("freezing ended; exploring " << GetExploreCounter() << " packets");
    m_freezeExitedTrace(Simulator::Now());
}

bool
RepsPathSelector::IsFreezing() const
{
    return WithCore([](const auto& c) { return c.IsFreezing(); });
}

uint32_t
RepsPathSelector::GetNumValid() const
{
    return WithCore([](const auto& c) { return static_cast<uint32_t>(c.GetNumValid()); });
}

uint32_t
RepsPathSelector::GetNumPopulated() const
{
    return WithCore([](const auto& c) { return static_cast<uint32_t>(c.GetNumPopulated()); });
}

uint32_t
RepsPathSelector::GetExploreCounter() const
{
    return WithCore([](const auto& c) { return static_cast<uint32_t>(c.GetExploreCounter()); });
}

Time
RepsPathSelector::GetExitFreezeTime() const
{
    return NanoSeconds(WithCore([](const auto& c) { return c.GetExitFreezeTime(); }));
}

uint64_t
RepsPathSelector::GetExploredCount() const
{
    return m_explored;
}

uint64_t
RepsPathSelector::GetRecycledCount() const
{
    return m_recycled;
}

uint64_t
RepsPathSelector::GetFreezeCount() const
{
    return m_freezes;
}

} // namespace ns3
