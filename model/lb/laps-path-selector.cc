#include "laps-path-selector.h"

#include "dcn-scheme.h"

#include "ns3/boolean.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnLapsPathSelector");
NS_OBJECT_ENSURE_REGISTERED(LapsPathSelector);
DCNLB_REGISTER_PATH_SELECTOR("laps", LapsPathSelector);
DCNLB_REGISTER_SCHEME((DcnScheme{
    "laps",
    "LAPS: latency-aware softmax spraying over source routes, one-way delays, delay AIMD and "
    "per-path loss recovery (Wan et al., IEEE/ACM ToN; doc/laps.rst)",
    "laps",
    "laps",
    "selective-repeat",
    "laps-source",
    DcnHeader::EXT_PATH_ID | DcnHeader::EXT_ROUTE | DcnHeader::EXT_TIMESTAMP,
    "dcn",
    {},
    {},
    // LAPS recovers losses per path (Alg. 3, 2 realVal) over selective repeat, also on RoCE
    // (its rate control and loss recovery replace DCQCN and go-back-N); the transport's
    // timeout is only a backstop, [A]'s fixed 8 ms (laps-paper sets the same), not REPS's 70 us
    {{"Rto", "8ms"}, {"Mode", "OutOfOrder"}}}));

TypeId
LapsPathSelector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::LapsPathSelector")
            .SetParent<PathSelector>()
            .SetGroupName("DcnLb")
            .AddConstructor<LapsPathSelector>()
            .AddAttribute("Alpha",
                          "Softmax sharpness: weight = exp(-Alpha realVal / norm), norm = "
                          "SoftmaxNorm (paper Alg. 1 beta not given; laps spec 2.1 [A] "
                          "laps_alpha = 1; a stored [A] version, 280dbed, has 4, and which one "
                          "the paper ran is not known, so laps-paper --setup=authors keeps 1; "
                          "review s44 L11); 0 = uniform random spraying",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&LapsPathSelector::m_alpha),
                          MakeDoubleChecker<double>(0.0, 1e6))
            .AddAttribute("IncreaseStages",
                          "N: rate increases before expRate doubles (paper Sec. III-F, Alg. 2: 5)",
                          UintegerValue(5),
                          MakeUintegerAccessor(&LapsPathSelector::m_stages),
                          MakeUintegerChecker<uint32_t>(0, 1000))
            .AddAttribute("QueueMarginPackets",
                          "baseVal queuing margin in packets per switch on the path (paper Sec. "
                          "III-F: 5; [A] uses 1 per link)",
                          DoubleValue(5.0),
                          MakeDoubleAccessor(&LapsPathSelector::m_margin),
                          MakeDoubleChecker<double>(0.0, 1000.0))
            .AddAttribute("FrameBytes",
                          "Data frame size S of the baseVal formula (laps spec 2.1: 1048 B [A] "
                          "plus the LAPS header); 0 = the transport's Mtu + 64",
                          UintegerValue(0),
                          MakeUintegerAccessor(&LapsPathSelector::m_frameBytes),
                          MakeUintegerChecker<uint32_t>(0, 65536))
            .AddAttribute("MinRate",
                          "Floor of curRate (laps spec 2.1 / 2.7 item 5 [A]: 1 Gb/s)",
                          DataRateValue(DataRate("1Gbps")),
                          MakeDataRateAccessor(&LapsPathSelector::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("LineRate",
                          "NIC maximum rate = initial curRate = expRate (paper Sec. III-F); 0 = "
                          "the topology's host link rate",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&LapsPathSelector::m_lineRate),
                          MakeDataRateChecker())
            .AddAttribute("IncreaseStep",
                          "Least rate increase per Alg. 2 increase step: 0 = the paper's "
                          "recurrence cur = (exp + cur) / 2 (Sec. III-F, Alg. 2; default); the "
                          "authors' simulator ([A]) uses cur = max(cur + 1Gbps, (exp + cur) / 2)",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&LapsPathSelector::m_incStep),
                          MakeDataRateChecker())
            .AddAttribute(
                "GuardMode",
                "Rate-adjust guard (laps spec 2.7 item 2): 2t (Alg. 2, t = min "
                "realVal), 2T (text), Artifact ([A]: 2 max realVal / 2T)",
                EnumValue(LapsPathSelector::GUARD_2t),
                DCNLB_ENUM_ACCESSOR(LapsPathSelector::GuardMode, &LapsPathSelector::m_guard),
                MakeEnumChecker(LapsPathSelector::GUARD_2t,
                                "2t",
                                LapsPathSelector::GUARD_2T,
                                "2T",
                                LapsPathSelector::GUARD_ARTIFACT,
                                "Artifact"))
            .AddAttribute(
                "CongestionTest",
                "Congestion predicate of the rate control (laps spec 2.7 item 3): Alg2 = "
                "min realVal > max baseVal (paper Alg. 2 line 6, the spec's resolution); "
                "PerPath = every valid path above its own baseVal (paper Sec. III-E text)",
                EnumValue(LapsPathSelector::CONGESTED_ALG2),
                DCNLB_ENUM_ACCESSOR(LapsPathSelector::CongestionTest,
                                    &LapsPathSelector::m_congTest),
                MakeEnumChecker(LapsPathSelector::CONGESTED_ALG2,
                                "Alg2",
                                LapsPathSelector::CONGESTED_PER_PATH,
                                "PerPath"))
            .AddAttribute(
                "ProbeMode",
                "Probes per packet event (laps spec 2.7 item 9): All stale paths "
                "(Alg. 1) or OneRandom (FPGA prototype)",
                EnumValue(LapsPathSelector::PROBE_ALL),
                DCNLB_ENUM_ACCESSOR(LapsPathSelector::ProbeMode, &LapsPathSelector::m_probeMode),
                MakeEnumChecker(LapsPathSelector::PROBE_ALL,
                                "All",
                                LapsPathSelector::PROBE_ONE_RANDOM,
                                "OneRandom"))
            .AddAttribute("RefreshOnFirstUse",
                          "A flow's first packet refreshes stale entries instead of probing and "
                          "doubling them (laps spec 2.2 [R]; paper: false)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&LapsPathSelector::m_refreshOnFirstUse),
                          MakeBooleanChecker())
            .AddAttribute("InflightCap",
                          "Cap bytes in flight at 2 T lineRate (laps spec 2.7 item 12: "
                          "unspecified in the paper; [A] uses it)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&LapsPathSelector::m_inflightCap),
                          MakeBooleanChecker())
            .AddAttribute("PathTimeoutFactor",
                          "Per-path retransmission timeout = factor x PIT realVal (paper Alg. "
                          "3: 2; [A] (LAPS authors' simulator): 200 x 2 x the path's latest "
                          "latency = 400, laps-paper --setup=authors; review s44 L2)",
                          DoubleValue(2.0),
                          MakeDoubleAccessor(&LapsPathSelector::m_timeoutFactor),
                          MakeDoubleChecker<double>(1.0, 1000.0))
            .AddAttribute("PathTimeout",
                          "Fixed per-path retransmission timeout instead of PathTimeoutFactor x "
                          "realVal: 0 = off (paper Alg. 3, the default); the authors' artifact "
                          "[A] uses 8 ms (laps spec 2.1)",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&LapsPathSelector::m_fixedTimeout),
                          MakeTimeChecker(Time(0), Seconds(1)))
            .AddAttribute(
                "PathSet",
                "Candidate paths per destination: Paper (the evaluation's waypoint set, "
                "paper Sec. IV-A / laps spec 1.2: Dragonfly 1/3/8, Rail 1/8) or Minimal (only "
                "the minimal paths of that set; not in the paper, a diagnostic separating the "
                "path set's cost from the algorithm). Read by a host's first LAPS flow",
                EnumValue(LapsPathSelector::PATHS_PAPER),
                DCNLB_ENUM_ACCESSOR(LapsPathSelector::PathSet, &LapsPathSelector::m_pathSet),
                MakeEnumChecker(LapsPathSelector::PATHS_PAPER,
                                "Paper",
                                LapsPathSelector::PATHS_MINIMAL,
                                "Minimal"))
            .AddAttribute(
                "SoftmaxNorm",
                "Normaliser of the softmax (paper Alg. 1; beta = Alpha / norm): baseVal = T, "
                "the largest baseVal of the valid paths with the queuing margin (laps spec "
                "2.1; default); unloaded = the largest unloaded delay, no margin ([A] (LAPS "
                "authors' simulator) rdma-smartflow-routing.cc: max "
                "theoreticalSmallestLatencyInNs; review s44 L11; laps-paper --setup=authors)",
                EnumValue(LapsPathSelector::NORM_BASEVAL),
                DCNLB_ENUM_ACCESSOR(LapsPathSelector::SoftmaxNorm,
                                    &LapsPathSelector::m_softmaxNorm),
                MakeEnumChecker(LapsPathSelector::NORM_BASEVAL,
                                "baseVal",
                                LapsPathSelector::NORM_UNLOADED,
                                "unloaded"))
            .AddAttribute(
                "InflightCapBasis",
                "Delay of the in-flight cap 2 x delay x lineRate (InflightCap; laps spec 2.7 "
                "item 12): T = the largest baseVal with the margin (default); unloaded = the "
                "largest unloaded delay of the valid paths ([A] (LAPS authors' simulator): 2 x "
                "the largest unloaded delay x the NIC rate; review s44 L12; laps-paper "
                "--setup=authors)",
                EnumValue(LapsPathSelector::CAP_T),
                DCNLB_ENUM_ACCESSOR(LapsPathSelector::InflightCapBasis,
                                    &LapsPathSelector::m_capBasis),
                MakeEnumChecker(LapsPathSelector::CAP_T,
                                "T",
                                LapsPathSelector::CAP_UNLOADED,
                                "unloaded"))
            .AddTraceSource("Rate",
                            "curRate changed (old, new bit/s)",
                            MakeTraceSourceAccessor(&LapsPathSelector::m_rateTrace),
                            "ns3::LapsPathSelector::RateTracedCallback")
            .AddTraceSource("PathDelay",
                            "A one-way delay sample stored in the PIT (pid, ns)",
                            MakeTraceSourceAccessor(&LapsPathSelector::m_delayTrace),
                            "ns3::LapsPathSelector::PathDelayTracedCallback")
            .AddTraceSource("Probe",
                            "A probe was sent on a stale path (pid)",
                            MakeTraceSourceAccessor(&LapsPathSelector::m_probeTrace),
                            "ns3::LapsPathSelector::PidTracedCallback")
            .AddTraceSource("Loss",
                            "A packet declared lost (psn, pid, by the path timer)",
                            MakeTraceSourceAccessor(&LapsPathSelector::m_lossTrace),
                            "ns3::LapsPathSelector::LossTracedCallback");
    return tid;
}

LapsPathSelector::LapsPathSelector()
{
    NS_LOG_FUNCTION(this);
}

LapsPathSelector::~LapsPathSelector() = default;

void
LapsPathSelector::DoDispose()
{
    if (m_ready)
    {
        // per-flow summary (NS_LOG=DcnLapsPathSelector=info; doc/laps.rst validation)
        int64_t minBase = std::numeric_limits<int64_t>::max();
        for (uint32_t k = 0; k < m_n; ++k)
        {
            minBase = std::min(minBase, m_entries[k]->baseNs);
        }
        NS_LOG_INFO("flow " << m_setup.srcHost << "->" << m_dst << " T " << m_T
                            << " ns, min baseVal " << minBase << " ns, decreases " << m_decreases
                            << " (" << m_staleDecreases << " on a doubled t)"
                            << ", increases " << m_increases << ", probes " << m_probes
                            << ", inferred losses " << m_inferred << ", timer losses "
                            << m_timerLosses);
    }
    for (auto& e : m_timer)
    {
        e.Cancel();
    }
    m_table = nullptr;
    m_entries.clear();
    PathSelector::DoDispose();
}

std::string
LapsPathSelector::Name() const
{
    return "laps";
}

int64_t
LapsPathSelector::AssignStreams(int64_t stream)
{
    return AssignRngStream(stream);
}

std::string
LapsPathSelector::Validate() const
{
    if (m_lineRate.GetBitRate() > 0 && m_minRate.GetBitRate() > m_lineRate.GetBitRate())
    {
        return "option --ns3::LapsPathSelector::MinRate: value '" +
               std::to_string(m_minRate.GetBitRate()) + "bps' is above LineRate (" +
               std::to_string(m_lineRate.GetBitRate()) + "bps); allowed: <= LineRate";
    }
    return "";
}

void
LapsPathSelector::Setup(const PathSelectorSetup& setup)
{
    NS_LOG_FUNCTION(this << setup.srcHost << setup.dstHost);
    PathSelector::Setup(setup);
    Rng();
    double line = static_cast<double>(m_lineRate.GetBitRate());
    if (line <= 0 && setup.topology)
    {
        line = static_cast<double>(setup.topology->GetHostLinkRate().GetBitRate());
    }
    lapscore::LapsRateConfig rc;
    rc.lineRateBps = line > 0 ? line : 100e9;
    rc.minRateBps = std::min<double>(static_cast<double>(m_minRate.GetBitRate()), rc.lineRateBps);
    rc.stages = m_stages;
    rc.incStepBps = static_cast<double>(m_incStep.GetBitRate());
    rc.guard = m_guard == GUARD_2T         ? lapscore::LapsGuardMode::TWO_BIG_T
               : m_guard == GUARD_ARTIFACT ? lapscore::LapsGuardMode::ARTIFACT
                                           : lapscore::LapsGuardMode::TWO_SMALL_T;
    m_rate.Reset(rc);
    m_lineBps = rc.lineRateBps;
    if (setup.topology && setup.srcHost != UINT32_MAX && setup.dstHost != UINT32_MAX &&
        setup.shared)
    {
        m_table = setup.shared->GetOrCreate<LapsHostTable>("laps");
        const double frame = m_frameBytes > 0 ? m_frameBytes : setup.mtu + 64.0;
        m_table->Init(setup.topology, setup.srcHost, frame, m_margin, m_pathSet == PATHS_MINIMAL);
        m_dst = setup.dstHost;
    }
}

bool
LapsPathSelector::Ready()
{
    if (m_ready)
    {
        return true;
    }
    if (!m_table || m_table->GetSrcHost() != m_setup.srcHost)
    {
        return false;
    }
    const int64_t now = Simulator::Now().GetNanoSeconds();
    m_n = m_table->EnsureDst(m_dst, now);
    if (m_n == 0)
    {
        return false;
    }
    m_first = m_table->FirstPid(m_dst);
    m_entries.resize(m_n);
    m_T = 0;
    m_U = 0;
    for (uint32_t k = 0; k < m_n; ++k)
    {
        m_entries[k] = &m_table->Entry(m_first + k);
        if (m_entries[k]->valid)
        {
            m_T = std::max(m_T, m_entries[k]->baseNs);
            m_U = std::max(m_U, m_table->Info(m_first + k).unloadedNs);
        }
    }
    m_w.assign(m_n, 0.0);
    m_wCache.Reset(m_n);
    m_deadline.assign(m_n, std::numeric_limits<int64_t>::max());
    m_timer.assign(m_n, EventId());
    m_timerAt.assign(m_n, std::numeric_limits<int64_t>::max());
    m_sent.assign(m_n, 0);
    m_doubled.assign(m_n, 0);
    m_loss.Init(m_n);
    m_ready = true;
    return true;
}

double
LapsPathSelector::GetCurRate() const
{
    return m_rate.CurRate();
}

uint64_t
LapsPathSelector::GetInflightCap() const
{
    const int64_t d = m_capBasis == CAP_UNLOADED ? m_U : m_T;
    if (!m_inflightCap || d <= 0)
    {
        return 0;
    }
    return static_cast<uint64_t>(2.0 * static_cast<double>(d) * 1e-9 * m_lineBps / 8.0);
}

void
LapsPathSelector::Probe(uint32_t k)
{
    const uint32_t pid = m_first + k;
    const LapsHostTable::PathInfo& info = m_table->Info(pid);
    PathChoice pc;
    pc.ev = info.ev;
    pc.pathId = static_cast<int32_t>(pid);
    pc.routeLen = static_cast<uint8_t>(std::min<size_t>(info.route.size(), PathChoice::MAX_ROUTE));
    std::copy_n(info.route.begin(), pc.routeLen, pc.route.begin());
    pc.requestTimestamp = true;
    m_probes++;
    m_probeTrace(pid);
    NS_LOG_LOGIC("probe pid " << pid << " realVal " << m_entries[k]->realNs);
    if (!m_setup.sendProbe.IsNull())
    {
        m_setup.sendProbe(pc);
    }
}

PathChoice
LapsPathSelector::Choose(const SendContext& ctx)
{
    NS_LOG_FUNCTION(this << ctx.psn);
    PathChoice pc;
    if (!m_ready && !Ready())
    {
        pc.ev = static_cast<uint16_t>(m_setup.flowHash); // no table: minimal routing by hash
        return pc;
    }
    const int64_t now = Simulator::Now().GetNanoSeconds();
    // Alg. 1 lines 3-6: stale entries are probed and their realVal doubled
    m_stale.clear();
    // spec 2.2 [R] refreshOnFirstUse: a flow's first packet probes the stale entries but
    // does not double them; OneRandom (the paper's prototype, III-H) probes one random
    // stale entry, which alone is doubled and refreshed (the others stay stale for the
    // next packet); until 2026-11-30 refreshOnFirstUse sent no probe and OneRandom
    // doubled every stale entry
    const bool noDoubling = !m_used && m_refreshOnFirstUse;
    m_used = true;
    // one pass finds the stale entries and the softmax's least valid realVal (session 50)
    const int64_t minReal = lapscore::LapsScanStale(m_entries.data(), m_n, now, m_stale);
    const bool unchanged = m_stale.empty(); // no entry changes before the softmax
    if (!m_stale.empty() && m_probeMode != PROBE_ALL)
    {
        const uint32_t one =
            m_stale[Rng().GetInteger(0, static_cast<uint32_t>(m_stale.size()) - 1)];
        m_stale.assign(1, one);
    }
    for (uint32_t k : m_stale)
    {
        lapscore::LapsPathEntry& e = *m_entries[k];
        if (noDoubling)
        {
            e.timeNs = now;
        }
        else
        {
            lapscore::LapsCheckStale(e, now);
            m_doubled[k] = 1;
        }
    }
    for (uint32_t k : m_stale)
    {
        Probe(k);
    }
    // Alg. 1 lines 7-9: softmax over the measured delays, beta = alpha / T (SoftmaxNorm:
    // or alpha / the largest unloaded delay, [A])
    const int64_t norm = GetSoftmaxNormNs();
    const double beta = norm > 0 ? m_alpha / static_cast<double>(norm) : 0.0;
    const double sum =
        unchanged ? lapscore::LapsWeightsCachedMin(m_entries.data(),
                                                   m_n,
                                                   beta,
                                                   m_w.data(),
                                                   m_wCache,
                                                   minReal)
                  : lapscore::LapsWeightsCached(m_entries.data(), m_n, beta, m_w.data(), m_wCache);
    int k = lapscore::LapsSample(m_w.data(), m_n, sum, Rng().GetValue());
    if (k < 0)
    {
        // every path invalid: the paper defers the packet; the seam cannot, so
        // the minimal path (pid 0 of the destination) is used and logged
        NS_LOG_WARN("every path to host " << m_dst << " invalid; using the minimal path");
        k = 0;
    }
    const uint32_t pid = m_first + static_cast<uint32_t>(k);
    const LapsHostTable::PathInfo& info = m_table->Info(pid);
    pc.ev = info.ev;
    pc.pathId = static_cast<int32_t>(pid);
    pc.routeLen = static_cast<uint8_t>(std::min<size_t>(info.route.size(), PathChoice::MAX_ROUTE));
    std::copy_n(info.route.begin(), pc.routeLen, pc.route.begin());
    pc.requestTimestamp = true;
    m_sent[k]++;
    // Alg. 3 LossOnSend
    m_loss.OnSend(static_cast<uint32_t>(k), static_cast<uint32_t>(ctx.psn), now);
    ArmTimer(static_cast<uint32_t>(k), now);
    NS_LOG_LOGIC("psn " << ctx.psn << " pid " << pid << " realVal " << m_entries[k]->realNs);
    return pc;
}

void
LapsPathSelector::ArmTimer(uint32_t k, int64_t nowNs)
{
    // lazy re-arm: one event per path, moved on when it fires early
    m_deadline[k] =
        nowNs +
        (m_fixedTimeout.IsStrictlyPositive()
             ? m_fixedTimeout.GetNanoSeconds()
             : static_cast<int64_t>(m_timeoutFactor * static_cast<double>(m_entries[k]->realNs)));
    // m_timerAt mirrors the pending event (no EventId query per packet)
    constexpr int64_t NONE = std::numeric_limits<int64_t>::max();
    if (m_timerAt[k] != NONE && m_timerAt[k] > m_deadline[k])
    {
        m_timer[k].Cancel(); // realVal fell: the deadline moved earlier
        m_timerAt[k] = NONE;
    }
    if (m_timerAt[k] == NONE)
    {
        m_timer[k] = Simulator::Schedule(NanoSeconds(m_deadline[k] - nowNs),
                                         &LapsPathSelector::TimerFired,
                                         this,
                                         k);
        m_timerAt[k] = m_deadline[k];
    }
}

void
LapsPathSelector::TimerFired(uint32_t k)
{
    const int64_t now = Simulator::Now().GetNanoSeconds();
    m_timerAt[k] = std::numeric_limits<int64_t>::max(); // this event is no longer pending
    if (m_loss.Live(k) == 0 || m_deadline[k] == std::numeric_limits<int64_t>::max())
    {
        return;
    }
    if (now < m_deadline[k])
    {
        m_timer[k] = Simulator::Schedule(NanoSeconds(m_deadline[k] - now),
                                         &LapsPathSelector::TimerFired,
                                         this,
                                         k);
        m_timerAt[k] = m_deadline[k];
        return;
    }
    NS_LOG_LOGIC("path timer pid " << m_first + k << ": " << m_loss.Live(k) << " lost");
    m_lost.clear();
    m_loss.OnTimer(k, m_lost);
    m_deadline[k] = std::numeric_limits<int64_t>::max();
    DeclareLost(true, k);
}

void
LapsPathSelector::DeclareLost(bool timer, uint32_t k)
{
    for (uint32_t psn : m_lost)
    {
        (timer ? m_timerLosses : m_inferred)++;
        m_lossTrace(psn, m_first + k, timer);
        if (!m_setup.declareLost.IsNull())
        {
            m_setup.declareLost(psn);
        }
    }
}

void
LapsPathSelector::OnFeedback(const PathFeedback& fb)
{
    NS_LOG_FUNCTION(this << fb.path.pathId << static_cast<int>(fb.signal));
    if (!m_ready || fb.path.pathId < static_cast<int32_t>(m_first) ||
        fb.path.pathId >= static_cast<int32_t>(m_first + m_n))
    {
        return;
    }
    const uint32_t k = static_cast<uint32_t>(fb.path.pathId) - m_first;
    const int64_t now = Simulator::Now().GetNanoSeconds();
    const bool ack = fb.signal == FeedbackSignal::ACK || fb.signal == FeedbackSignal::ECN_ACK;
    if (!ack && fb.signal != FeedbackSignal::PROBE_REPLY)
    {
        return; // NACKs (no trimming here) and transport timeouts: Alg. 3 owns recovery
    }
    // OnAnyAck: PIT[pid].realVal = delta t, time = Now
    if (fb.oneWayDelay.IsPositive() || fb.oneWayDelay.IsZero())
    {
        lapscore::LapsPathEntry& e = *m_entries[k];
        e.realNs = std::max<int64_t>(1, fb.oneWayDelay.GetNanoSeconds());
        e.timeNs = now;
        m_doubled[k] = 0;
        m_delayTrace(m_first + k, e.realNs);
    }
    if (!ack)
    {
        return; // probe replies update the PIT only (spec 2.4 [R])
    }
    // Alg. 2 over the valid paths of the destination: t = min realVal and, as the
    // paths' validity can change (link failures), T = max baseVal of them again
    int64_t t = std::numeric_limits<int64_t>::max();
    int64_t maxReal = 0;
    int64_t bigT = 0;
    int64_t bigU = 0;
    // the unloaded maximum only when a basis reads it (review s46 R8: no PathInfo loads per
    // ACK under the spec's defaults)
    const bool unloaded = m_softmaxNorm == NORM_UNLOADED || m_capBasis == CAP_UNLOADED;
    for (uint32_t i = 0; i < m_n; ++i)
    {
        if (m_entries[i]->valid)
        {
            t = std::min(t, m_entries[i]->realNs);
            maxReal = std::max(maxReal, m_entries[i]->realNs);
            bigT = std::max(bigT, m_entries[i]->baseNs);
            if (unloaded)
            {
                bigU = std::max(bigU, m_table->Info(m_first + i).unloadedNs);
            }
        }
    }
    if (t != std::numeric_limits<int64_t>::max())
    {
        if (bigT != m_T)
        {
            NS_LOG_LOGIC("T " << m_T << " -> " << bigT << " (path validity changed)");
            m_T = bigT;
        }
        if (unloaded)
        {
            m_U = bigU; // else it keeps the value Ready() computed (GetMaxUnloaded)
        }
        const double before = m_rate.CurRate();
        const bool congested = m_congTest == CONGESTED_PER_PATH
                                   ? lapscore::LapsCongestedPerPath(m_entries.data(), m_n)
                                   : t > m_T;
        const lapscore::LapsRateCore::Action a = m_rate.OnAck(now, congested, t, m_T, maxReal);
        if (a == lapscore::LapsRateCore::DECREASE)
        {
            m_decreases++;
            bool measured = false; // some valid path at t holds a measured sample
            for (uint32_t i = 0; i < m_n; ++i)
            {
                measured =
                    measured || (m_entries[i]->valid && m_entries[i]->realNs == t && !m_doubled[i]);
            }
            m_staleDecreases += measured ? 0 : 1;
        }
        else if (a == lapscore::LapsRateCore::INCREASE)
        {
            m_increases++;
        }
        if (m_rate.CurRate() != before)
        {
            NS_LOG_INFO("flow " << m_setup.srcHost << "->" << m_dst
                                << (a == lapscore::LapsRateCore::DECREASE ? " dec" : " inc")
                                << " t " << t << " T " << m_T << " pid " << m_first + k << " cur "
                                << m_rate.CurRate() * 1e-9 << " exp " << m_rate.ExpRate() * 1e-9);
            m_rateTrace(before, m_rate.CurRate());
        }
    }
    // Alg. 3 LossOnAck
    m_lost.clear();
    // matched to the transmission: the ACK echoes its copy's send time (the transport
    // stamps the data packet with the time of this Choose)
    if (m_loss.OnAck(k, fb.psn, m_lost, fb.header ? fb.header->timestampNs : -1))
    {
        if (m_loss.Live(k) == 0)
        {
            m_deadline[k] = std::numeric_limits<int64_t>::max(); // CancelTimer (lazy)
        }
        else
        {
            ArmTimer(k, now); // re-armed with the new realVal
        }
        DeclareLost(false, k);
    }
}

} // namespace ns3
