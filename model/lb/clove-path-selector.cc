#include "clove-path-selector.h"

#include "dcn-scheme.h"
#include "lb-baseline-util.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnClovePathSelector");
NS_OBJECT_ENSURE_REGISTERED(DcnClovePathSelector);
DCNLB_REGISTER_PATH_SELECTOR("clove", DcnClovePathSelector);
DCNLB_REGISTER_SCHEME((DcnScheme{
    "clove",
    "CLOVE-ECN: flowlets in weighted round robin, a path's weight cut by 1/3 on ECN "
    "(CoNEXT'17; Hermes SIGCOMM'17 baseline)",
    "clove",
    "dctcp",
    "selective-repeat",
    "ecmp",
    0,
    "dcn,tcp",
    {},
    {}}));

TypeId
DcnClovePathSelector::GetTypeId()
{
    // PhysicalPaths (dcnbl::kPhysicalPathsHelp) is the last attribute
    static TypeId tid = dcnbl::AddPhysicalPathsAttribute(
        TypeId("ns3::DcnClovePathSelector")
            .SetParent<PathSelector>()
            .SetGroupName("DcnLb")
            .AddConstructor<DcnClovePathSelector>()
            .AddAttribute("FlowletTimeout",
                          "A gap strictly longer than this starts a flowlet (Hermes SIGCOMM'17 "
                          "Sec. 5 simulated CLOVE-ECN at 150 us; Clove's testbed: 800 us); "
                          "allowed >= 0",
                          TimeValue(MicroSeconds(150)),
                          MakeTimeAccessor(&DcnClovePathSelector::m_flowletTimeout),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("EcnCutFraction",
                          "Fraction of a path's weight removed on ECN (Clove CoNEXT'17 Sec. 3.2: "
                          "1/3); allowed (0, 1)",
                          DoubleValue(1.0 / 3.0),
                          MakeDoubleAccessor(&DcnClovePathSelector::m_cut),
                          MakeDoubleChecker<double>(1e-9, 1 - 1e-9))
            .AddAttribute("MinCutInterval",
                          "Minimum time between two cuts of one path (our choice, paper silent: "
                          "0 = every ECN echo cuts); allowed >= 0",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&DcnClovePathSelector::m_minCutInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("WeightReset",
                          "Reset the weights to equal after this long without ECN (our choice: "
                          "0 = never); allowed >= 0",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&DcnClovePathSelector::m_weightReset),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("MinWeightShare",
                          "Weight floor as a share of an equal weight (our choice: 0.01, a path "
                          "is never starved for good); allowed [0, 1)",
                          DoubleValue(0.01),
                          MakeDoubleAccessor(&DcnClovePathSelector::m_minShare),
                          MakeDoubleChecker<double>(0, 1 - 1e-9))
            .AddAttribute("NumPaths",
                          "Virtual paths per connection; 0 = the pair's minimal paths in the "
                          "topology's DcnPathSet (8 without a topology); allowed 0..64",
                          UintegerValue(0),
                          MakeUintegerAccessor(&DcnClovePathSelector::m_numPathsAttr),
                          MakeUintegerChecker<uint32_t>(0, lbcore::kMaxPaths))
            .AddAttribute("EvSetSize",
                          "EVs are (base + path) mod EvSetSize (REPS [L] Sec. 5: 65536); "
                          "allowed 1..65536",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&DcnClovePathSelector::m_evSetSize),
                          MakeUintegerChecker<uint32_t>(1, 65536))
            .AddAttribute("PerDestination",
                          "Keep the paths (EVs) and their weights per (source host, "
                          "destination host), shared by every connection between them, as "
                          "Clove's vSwitch keeps the discovered paths and weights per "
                          "destination hypervisor (CoNEXT'17 Sec. 3); false: per connection "
                          "(before 2026-11-30).  The flowlet clock is per connection either way",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DcnClovePathSelector::m_perDestination),
                          MakeBooleanChecker())
            .AddTraceSource("WeightCut",
                            "ECN cut a path's weight: path index, new weight",
                            MakeTraceSourceAccessor(&DcnClovePathSelector::m_weightCut),
                            "ns3::TracedCallback<uint16_t,double>::TracedCallback"),
        &DcnClovePathSelector::m_physical);
    return tid;
}

DcnClovePathSelector::DcnClovePathSelector()
    : m_flowletTimeout(MicroSeconds(150))
{
}

DcnClovePathSelector::~DcnClovePathSelector() = default;

std::string
DcnClovePathSelector::Validate() const
{
    if (m_flowletTimeout.IsNegative())
    {
        return "option --ns3::DcnClovePathSelector::FlowletTimeout: value '" +
               std::to_string(m_flowletTimeout.GetMicroSeconds()) + "us'; allowed: >= 0";
    }
    return "";
}

void
DcnClovePathSelector::Setup(const PathSelectorSetup& setup)
{
    NS_LOG_FUNCTION(this);
    PathSelector::Setup(setup);
    Rng();
    lbcore::CloveConfig cfg;
    cfg.numPaths = dcnbl::ResolveNumPaths(m_numPathsAttr, setup, m_evSetSize);
    cfg.flowletTimeoutNs = m_flowletTimeout.GetNanoSeconds();
    cfg.ecnCutFraction = m_cut;
    cfg.minCutIntervalNs = m_minCutInterval.GetNanoSeconds();
    cfg.weightResetNs = m_weightReset.GetNanoSeconds();
    cfg.minWeightShare = m_minShare;
    m_numPaths = cfg.numPaths;
    m_dest = &m_own;
    if (m_perDestination && setup.shared && setup.srcHost != UINT32_MAX &&
        setup.dstHost != UINT32_MAX)
    {
        m_dest =
            &setup.shared->GetOrCreate<SharedTable>("clove")->Get(setup.srcHost, setup.dstHost);
    }
    if (!m_dest->configured)
    {
        m_dest->core.Configure(cfg);
        bool physical = false;
        m_dest->paths.Draw(setup, cfg.numPaths, m_evSetSize, m_physical, Rng(), &physical);
        if (physical)
        {
            // the round robin starts at path 0: rotate the pair's physical paths by a random
            // offset, as an arbitrary discovery order would (else every pair's first flowlet
            // takes the path set's first path, e.g. the first spine)
            const uint32_t off = Rng().GetInteger(0, cfg.numPaths - 1);
            std::vector<uint16_t>& evs = m_dest->paths.evs;
            std::rotate(evs.begin(), evs.begin() + off, evs.end());
        }
        m_dest->configured = true;
    }
    // the pair's state decides the number of paths (every connection of a pair resolves
    // the same number; the first one configured it)
    m_numPaths = m_dest->core.GetConfig().numPaths;
    m_flowlet.Reset();
    m_setupDone = true;
}

TypeId
DcnClovePathSelector::SharedTable::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DcnCloveSharedTable")
                            .SetParent<Object>()
                            .SetGroupName("DcnLb")
                            .AddConstructor<SharedTable>();
    return tid;
}

uint16_t
DcnClovePathSelector::GetPathEv(uint16_t i) const
{
    return m_dest ? m_dest->paths.Ev(i, m_evSetSize) : dcnbl::PathEv(0, i, m_evSetSize);
}

int32_t
DcnClovePathSelector::GetPathOfEv(uint16_t ev) const
{
    return m_dest ? m_dest->paths.Index(ev) : -1;
}

PathChoice
DcnClovePathSelector::Choose(const SendContext& ctx)
{
    NS_LOG_FUNCTION(this << ctx.psn);
    EnsureSetup();
    const int64_t now = Simulator::Now().GetNanoSeconds();
    if (m_flowlet.OnPacket(now, m_flowletTimeout.GetNanoSeconds()))
    {
        m_path = m_dest->core.NextPath(now);
    }
    PathChoice c;
    c.ev = GetPathEv(m_path);
    return c;
}

void
DcnClovePathSelector::OnFeedback(const PathFeedback& fb)
{
    NS_LOG_FUNCTION(this << fb.path.ev << static_cast<int>(fb.signal));
    if (fb.signal != FeedbackSignal::ECN_ACK)
    {
        return;
    }
    EnsureSetup();
    const int32_t p = GetPathOfEv(fb.path.ev);
    if (p >= 0 && m_dest->core.OnEcn(static_cast<uint16_t>(p), Simulator::Now().GetNanoSeconds()))
    {
        NS_LOG_LOGIC("clove: ECN on path " << p << " weight " << m_dest->core.GetWeight(p));
        m_weightCut(static_cast<uint16_t>(p), m_dest->core.GetWeight(p));
    }
}

std::string
DcnClovePathSelector::Name() const
{
    return "clove";
}

int64_t
DcnClovePathSelector::AssignStreams(int64_t stream)
{
    return AssignRngStream(stream);
}

} // namespace ns3
