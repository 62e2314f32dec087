#include "spritz-path-selector.h"

#include "ns3/boolean.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-options.h"
#include "ns3/dcn-scheme.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnSpritzPathSelector");
NS_OBJECT_ENSURE_REGISTERED(DcnSpritzPathSelector);
DCNLB_REGISTER_PATH_SELECTOR("spritz", DcnSpritzPathSelector);

namespace
{

DcnScheme
SpritzScheme(const char* name, const char* description, const char* mode, const char* weighted)
{
    return DcnScheme{name,
                     description,
                     "spritz",
                     "dctcp",
                     "selective-repeat",
                     "spritz",
                     0,
                     "dcn",
                     DcnSpritzInfo::TopologyFamilies(),
                     {{"Mode", mode}, {"Weighted", weighted}}};
}
} // namespace

// "spritz" (the selector's own name) is Spritz-Spray (w) with its topology restriction.
DCNLB_REGISTER_SCHEME(SpritzScheme("spritz",
                                   "Spritz-Spray (w) (the spritz path selector with its "
                                   "defaults; Spritz Alg. 1+3), Spritz switch routing",
                                   "spray",
                                   "true"));
DCNLB_REGISTER_SCHEME(SpritzScheme("spritz-scout",
                                   "Spritz-Scout (w): reuse the best good path, leave it on ECN / "
                                   "NACK / timeout (Spritz Alg. 1+2), Spritz switch routing",
                                   "scout",
                                   "true"));
DCNLB_REGISTER_SCHEME(SpritzScheme("spritz-spray",
                                   "Spritz-Spray (w): recycle ACKed EVs, else Eq. 1 weighted "
                                   "sample; timeouts block a path (Spritz Alg. 1+3)",
                                   "spray",
                                   "true"));
DCNLB_REGISTER_SCHEME(SpritzScheme("spritz-spray-u",
                                   "Spritz-Spray (u): Spritz-Spray with uniform path weights",
                                   "spray",
                                   "false"));
DCNLB_REGISTER_SCHEME(SpritzScheme("ops-w",
                                   "OPS (w): a Eq. 1 weighted-random Spritz EV per packet, no "
                                   "feedback (Spritz Sec. V baseline)",
                                   "ops",
                                   "true"));
DCNLB_REGISTER_SCHEME(SpritzScheme("ops-u",
                                   "OPS (u): a uniformly random Spritz EV per packet (Spritz "
                                   "Sec. V baseline)",
                                   "ops",
                                   "false"));
DCNLB_REGISTER_SCHEME(SpritzScheme("spritz-ecmp",
                                   "ECMP on Spritz routing: one EV of the list per flow from "
                                   "the flow hash (Spritz Sec. V baseline)",
                                   "ecmp",
                                   "false"));

TypeId
DcnSpritzPathSelector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcnSpritzPathSelector")
            .SetParent<PathSelector>()
            .SetGroupName("DcnLb")
            .AddConstructor<DcnSpritzPathSelector>()
            .AddAttribute("Mode",
                          "scout (Spritz-Scout, Alg. 1+2), spray (Spritz-Spray, Alg. 1+3), ops "
                          "(per-packet gen(w), no feedback), ecmp (one entry per flow) (Spritz "
                          "Sec. IV, V)",
                          EnumValue(SPRAY),
                          DCNLB_ENUM_ACCESSOR(Mode, &DcnSpritzPathSelector::m_mode),
                          MakeEnumChecker(SCOUT, "scout", SPRAY, "spray", OPS, "ops", ECMP, "ecmp"))
            .AddAttribute("Weighted",
                          "Eq. 1 weights w_i = lat_longest / lat_i, non-longest paths x WScale "
                          "('(w)' variants, Spritz Sec. IV-A / V); false = uniform ('(u)')",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DcnSpritzPathSelector::m_weighted),
                          MakeBooleanChecker())
            .AddAttribute("WScale",
                          "Factor of the paths shorter than the longest (Spritz Sec. V: 3; "
                          "spec 2.7); allowed [1, 1000]",
                          DoubleValue(3.0),
                          MakeDoubleAccessor(&DcnSpritzPathSelector::m_wScale),
                          MakeDoubleChecker<double>(1.0, 1000.0))
            .AddAttribute("BufferSize",
                          "Capacity of buffer_paths (Spritz Sec. IV-B: 8); allowed 1..256",
                          UintegerValue(8),
                          MakeUintegerAccessor(&DcnSpritzPathSelector::m_bufferSize),
                          MakeUintegerChecker<uint32_t>(1, 256))
            .AddAttribute("ExploreThreshold",
                          "Packets between forced explorations, strict '>' (Spritz Sec. IV-B, "
                          "Alg. 1: 44 ~ 0.5 BDP); allowed 0..1000000",
                          UintegerValue(44),
                          MakeUintegerAccessor(&DcnSpritzPathSelector::m_exploreThreshold),
                          MakeUintegerChecker<uint32_t>(0, 1000000))
            .AddAttribute("EcnThreshold",
                          "Scout: ECN-marked ACKs on a path before it leaves the buffer, strict "
                          "'>' (Spritz Sec. IV-C, Alg. 2: 8 ~ 0.1 BDP); allowed 0..1000000",
                          UintegerValue(8),
                          MakeUintegerAccessor(&DcnSpritzPathSelector::m_ecnThreshold),
                          MakeUintegerChecker<uint32_t>(0, 1000000))
            .AddAttribute("EcnRateTrigger",
                          "ECN rate above which w[0] = MinBiasFactor (Spritz Alg. 2/3: 0.90); "
                          "allowed [0, 1]",
                          DoubleValue(0.90),
                          MakeDoubleAccessor(&DcnSpritzPathSelector::m_ecnRateTrigger),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("MinBiasFactor",
                          "w[0] while the ECN rate is above the trigger; the paper gives no "
                          "value (spec 3.5 [A]): -1 = sum of the other initial weights "
                          "(P(minimal) ~ 0.5); allowed -1 or [0, 1e9]",
                          DoubleValue(-1.0),
                          MakeDoubleAccessor(&DcnSpritzPathSelector::m_minBias),
                          MakeDoubleChecker<double>(-1.0, 1e9))
            .AddAttribute("EcnRateWindow",
                          "ACKs per ECN-rate estimate; the paper gives no estimator (spec 3.5 "
                          "[A]: the marked fraction of the last cwnd of ACKs): 0 = 1.5 x BDP "
                          "packets (the initial cwnd); allowed 0..1000000",
                          UintegerValue(0),
                          MakeUintegerAccessor(&DcnSpritzPathSelector::m_ecnWindow),
                          MakeUintegerChecker<uint32_t>(0, 1000000))
            .AddAttribute("ResetTime",
                          "T_reset: a timed-out path's weight is restored after this (Spritz "
                          "Sec. IV-D 'global timer', no value given; spec 3.5 [A]: >= 1 ms); "
                          "allowed [1 us, 1000 s]",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&DcnSpritzPathSelector::m_reset),
                          MakeTimeChecker(MicroSeconds(1), Seconds(1000)))
            .AddTraceSource("EvChosen",
                            "EV chosen for a packet: EV, index in the pair's list, forced "
                            "exploration",
                            MakeTraceSourceAccessor(&DcnSpritzPathSelector::m_evTrace),
                            "ns3::DcnSpritzPathSelector::EvTracedCallback")
            .AddTraceSource("PathBlocked",
                            "A timeout set a path's weight to 0 for ResetTime: EV, index",
                            MakeTraceSourceAccessor(&DcnSpritzPathSelector::m_blockTrace),
                            "ns3::DcnSpritzPathSelector::BlockTracedCallback");
    return tid;
}

DcnSpritzPathSelector::DcnSpritzPathSelector()
    : m_mode(SPRAY),
      m_weighted(true),
      m_wScale(3.0),
      m_bufferSize(8),
      m_exploreThreshold(44),
      m_ecnThreshold(8),
      m_ecnRateTrigger(0.9),
      m_minBias(-1),
      m_ecnWindow(0),
      m_reset(MilliSeconds(1))
{
}

DcnSpritzPathSelector::~DcnSpritzPathSelector() = default;

std::string
DcnSpritzPathSelector::Validate() const
{
    if (m_minBias < 0 && m_minBias != -1.0)
    {
        return "option --ns3::DcnSpritzPathSelector::MinBiasFactor: value '" +
               std::to_string(m_minBias) + "'; allowed: -1 (sum of the other weights) or >= 0";
    }
    return "";
}

void
DcnSpritzPathSelector::Setup(const PathSelectorSetup& setup)
{
    NS_LOG_FUNCTION(this << setup.srcSwitch << setup.dstSwitch);
    PathSelector::Setup(setup);
    Rng();
    DCN_REFUSE_IF(!Validate().empty(), Validate());
    std::string why = "no topology";
    Ptr<DcnSpritzInfo> info =
        setup.topology ? DcnSpritzInfo::Get(*setup.topology, &why) : Ptr<DcnSpritzInfo>();
    NS_ABORT_MSG_IF(!info, "path selector spritz: " << why);
    std::vector<double> w;
    uint32_t n = 0;
    if (setup.srcSwitch != setup.dstSwitch)
    {
        m_paths = &info->Paths(setup.srcSwitch, setup.dstSwitch, m_wScale);
        n = m_paths->Size();
        w = m_weighted ? m_paths->weighted : std::vector<double>(n, 1.0);
    }
    else
    {
        m_paths = nullptr; // same switch: no switch-to-switch hop to steer
    }
    lbcore::SpritzConfig cfg;
    cfg.mode = static_cast<lbcore::SpritzMode>(m_mode);
    cfg.bufferCapacity = m_bufferSize;
    cfg.exploreThreshold = m_exploreThreshold;
    cfg.ecnThreshold = m_ecnThreshold;
    cfg.ecnRateTrigger = m_ecnRateTrigger;
    cfg.minBiasFactor = m_minBias;
    cfg.ecnWindow =
        m_ecnWindow > 0
            ? m_ecnWindow
            : std::max<uint32_t>(1, static_cast<uint32_t>(std::ceil(1.5 * setup.bdpPackets)));
    cfg.resetNs = m_reset.GetNanoSeconds();
    const uint32_t fixed = n > 0 ? Rng().GetInteger(0, n - 1) : 0;
    m_core.Configure(cfg, w.empty() ? nullptr : w.data(), n, fixed);
    m_ready = true;
}

uint32_t
DcnSpritzPathSelector::IndexOfEv(uint16_t ev) const
{
    return m_paths ? m_paths->Find(ev) : 0xffffffffU;
}

PathChoice
DcnSpritzPathSelector::Choose(const SendContext& ctx)
{
    NS_LOG_FUNCTION(this << ctx.psn);
    if (!m_ready)
    {
        Setup(m_setup);
    }
    PathChoice c;
    if (!m_paths || m_paths->Size() == 0)
    {
        c.ev = 0;
        return c;
    }
    bool explored = false;
    const double u = m_mode == ECMP ? 0.0 : Rng().GetValue(0.0, 1.0);
    const uint32_t i = m_core.NextIndex(u, Simulator::Now().GetNanoSeconds(), &explored);
    c.ev = m_paths->evs[i];
    m_evTrace(c.ev, i, explored);
    return c;
}

void
DcnSpritzPathSelector::OnFeedback(const PathFeedback& fb)
{
    NS_LOG_FUNCTION(this << fb.path.ev << static_cast<int>(fb.signal));
    if (!m_paths || m_mode == OPS || m_mode == ECMP)
    {
        return;
    }
    const uint32_t i = m_paths->Find(fb.path.ev);
    const int64_t now = Simulator::Now().GetNanoSeconds();
    switch (fb.signal)
    {
    case FeedbackSignal::ACK:
        m_core.OnAck(i, false, now);
        break;
    case FeedbackSignal::ECN_ACK:
        m_core.OnAck(i, true, now);
        break;
    case FeedbackSignal::NACK:
        m_core.OnNack(i);
        break;
    case FeedbackSignal::TIMEOUT:
        if (i < m_paths->Size())
        {
            const bool was = m_core.Blocked(i);
            m_core.OnTimeout(i, now);
            if (!was)
            {
                NS_LOG_LOGIC("path " << i << " ev " << fb.path.ev << " blocked");
                m_blockTrace(fb.path.ev, i);
            }
        }
        break;
    default:
        break;
    }
}

std::string
DcnSpritzPathSelector::Name() const
{
    return "spritz";
}

int64_t
DcnSpritzPathSelector::AssignStreams(int64_t stream)
{
    return AssignRngStream(stream);
}

} // namespace ns3
