#include "bitmap-path-selector.h"

#include "dcn-scheme.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnBitmapPathSelector");
NS_OBJECT_ENSURE_REGISTERED(DcnBitmapPathSelector);
DCNLB_REGISTER_PATH_SELECTOR("bitmap", DcnBitmapPathSelector);
DCNLB_REGISTER_SCHEME((DcnScheme{
    "bitmap",
    "BitMap (STrack-like): 256 EVs with penalties (+1 ECN, +4 NACK, 15 timeout), XOR-permuted "
    "scan skipping penalised EVs (REPS [L] baseline)",
    "bitmap",
    "dctcp",
    "selective-repeat",
    "ecmp",
    0,
    "dcn",
    {},
    {}}));

TypeId
DcnBitmapPathSelector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcnBitmapPathSelector")
            .SetParent<PathSelector>()
            .SetGroupName("DcnLb")
            .AddConstructor<DcnBitmapPathSelector>()
            .AddAttribute("EcnPenalty",
                          "Penalty added on an ECN-marked ACK (spec reps.md 3.4: 1); allowed 0..15",
                          UintegerValue(1),
                          MakeUintegerAccessor(&DcnBitmapPathSelector::m_ecnPenalty),
                          MakeUintegerChecker<uint32_t>(0, 15))
            .AddAttribute("NackPenalty",
                          "Penalty added on a NACK (spec reps.md 3.4: 4); allowed 0..15",
                          UintegerValue(4),
                          MakeUintegerAccessor(&DcnBitmapPathSelector::m_nackPenalty),
                          MakeUintegerChecker<uint32_t>(0, 15))
            .AddAttribute("MaxPenalty",
                          "Saturation and timeout penalty (spec reps.md 3.4: 15, a 4-bit "
                          "counter); allowed 1..15",
                          UintegerValue(15),
                          MakeUintegerAccessor(&DcnBitmapPathSelector::m_maxPenalty),
                          MakeUintegerChecker<uint32_t>(1, 15))
            .AddAttribute("EvSetSize",
                          "Size of the EV space (--evs): EVs are (base + i) mod EvSetSize and "
                          "the set is min(256, EvSetSize) EVs ([L] Sec. 4 / spec reps.md 3.4: "
                          "256 EVs anywhere in the 16-bit space; fewer below 256 is our "
                          "choice); allowed 1..65536",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&DcnBitmapPathSelector::m_evSetSize),
                          MakeUintegerChecker<uint32_t>(1, 65536));
    return tid;
}

DcnBitmapPathSelector::DcnBitmapPathSelector() = default;
DcnBitmapPathSelector::~DcnBitmapPathSelector() = default;

void
DcnBitmapPathSelector::Setup(const PathSelectorSetup& setup)
{
    NS_LOG_FUNCTION(this);
    PathSelector::Setup(setup);
    Rng();
    lbcore::BitmapConfig cfg;
    // our choice: a per-connection base so the 256 EVs are anywhere in the 16-bit space
    // (anywhere in a smaller EV space, wrapping)
    m_base = static_cast<uint16_t>(m_evSetSize >= 65536
                                       ? Rng().GetInteger(0, 65536 - lbcore::BitmapCore::kEvs)
                                       : Rng().GetInteger(0, m_evSetSize - 1));
    cfg.evBase = m_base;
    cfg.numEvs = static_cast<uint16_t>(std::min<uint32_t>(lbcore::BitmapCore::kEvs, m_evSetSize));
    cfg.evSetSize = m_evSetSize;
    cfg.ecnPenalty = static_cast<uint8_t>(m_ecnPenalty);
    cfg.nackPenalty = static_cast<uint8_t>(m_nackPenalty);
    cfg.maxPenalty = static_cast<uint8_t>(m_maxPenalty);
    const uint8_t key0 = static_cast<uint8_t>(Rng().GetInteger(0, 255));
    m_core.Configure(cfg, key0);
    m_setupDone = true;
}

PathChoice
DcnBitmapPathSelector::Choose(const SendContext& ctx)
{
    NS_LOG_FUNCTION(this << ctx.psn);
    EnsureSetup();
    PathChoice c;
    c.ev = m_core.Next([this](uint32_t n) { return Rng().GetInteger(0, n - 1); });
    return c;
}

void
DcnBitmapPathSelector::OnFeedback(const PathFeedback& fb)
{
    NS_LOG_FUNCTION(this << fb.path.ev << static_cast<int>(fb.signal));
    EnsureSetup();
    switch (fb.signal)
    {
    case FeedbackSignal::ECN_ACK:
        m_core.OnAck(fb.path.ev, true);
        break;
    case FeedbackSignal::NACK:
        m_core.OnNack(fb.path.ev);
        break;
    case FeedbackSignal::TIMEOUT:
        m_core.OnTimeout(fb.path.ev);
        break;
    default:
        break;
    }
}

std::string
DcnBitmapPathSelector::Name() const
{
    return "bitmap";
}

int64_t
DcnBitmapPathSelector::AssignStreams(int64_t stream)
{
    return AssignRngStream(stream);
}

} // namespace ns3
