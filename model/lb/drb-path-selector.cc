#include "drb-path-selector.h"

#include "dcn-scheme.h"
#include "lb-baseline-util.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnDrbPathSelector");
NS_OBJECT_ENSURE_REGISTERED(DcnDrbPathSelector);
DCNLB_REGISTER_PATH_SELECTOR("drb", DcnDrbPathSelector);
DCNLB_REGISTER_SCHEME((DcnScheme{
    "drb",
    "DRB: per-packet round robin over the pair's paths (CoNEXT'13; Hermes SIGCOMM'17 baseline)",
    "drb",
    "dctcp",
    "selective-repeat",
    "ecmp",
    0,
    "dcn,tcp",
    {},
    {}}));

TypeId
DcnDrbPathSelector::GetTypeId()
{
    // PhysicalPaths (dcnbl::kPhysicalPathsHelp) is the last attribute
    static TypeId tid = dcnbl::AddPhysicalPathsAttribute(
        TypeId("ns3::DcnDrbPathSelector")
            .SetParent<PathSelector>()
            .SetGroupName("DcnLb")
            .AddConstructor<DcnDrbPathSelector>()
            .AddAttribute("NumPaths",
                          "Virtual paths per connection; 0 = the pair's minimal paths in the "
                          "topology's DcnPathSet (8 without a topology). Hermes Sec. 5: all "
                          "parallel paths. Allowed 0..64",
                          UintegerValue(0),
                          MakeUintegerAccessor(&DcnDrbPathSelector::m_numPathsAttr),
                          MakeUintegerChecker<uint32_t>(0, lbcore::kMaxPaths))
            .AddAttribute("EvSetSize",
                          "EVs are (base + path) mod EvSetSize (REPS [L] Sec. 5: 65536); "
                          "allowed 1..65536",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&DcnDrbPathSelector::m_evSetSize),
                          MakeUintegerChecker<uint32_t>(1, 65536))
            .AddAttribute("RandomStart",
                          "Start the cycle at a random path (our choice; the CoNEXT'13 "
                          "digit-reversal order only fixes the cyclic order)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DcnDrbPathSelector::m_randomStart),
                          MakeBooleanChecker()),
        &DcnDrbPathSelector::m_physical);
    return tid;
}

DcnDrbPathSelector::DcnDrbPathSelector() = default;
DcnDrbPathSelector::~DcnDrbPathSelector() = default;

void
DcnDrbPathSelector::Setup(const PathSelectorSetup& setup)
{
    NS_LOG_FUNCTION(this);
    PathSelector::Setup(setup);
    Rng();
    lbcore::DrbConfig cfg;
    cfg.numPaths = dcnbl::ResolveNumPaths(m_numPathsAttr, setup, m_evSetSize);
    cfg.randomStart = m_randomStart;
    m_paths.Draw(setup, cfg.numPaths, m_evSetSize, m_physical, Rng());
    const uint16_t start = static_cast<uint16_t>(Rng().GetInteger(0, cfg.numPaths - 1));
    m_core.Configure(cfg, start);
    m_setupDone = true;
}

uint16_t
DcnDrbPathSelector::GetPathEv(uint16_t i) const
{
    return m_paths.Ev(i, m_evSetSize);
}

PathChoice
DcnDrbPathSelector::Choose(const SendContext& ctx)
{
    NS_LOG_FUNCTION(this << ctx.psn);
    EnsureSetup();
    PathChoice c;
    c.ev = GetPathEv(m_core.Next());
    return c;
}

std::string
DcnDrbPathSelector::Name() const
{
    return "drb";
}

int64_t
DcnDrbPathSelector::AssignStreams(int64_t stream)
{
    return AssignRngStream(stream);
}

} // namespace ns3
