#include "presto-path-selector.h"

#include "dcn-scheme.h"
#include "lb-baseline-util.h"

#include "ns3/boolean.h"
#include "ns3/dcn-options.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <cstdlib>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnPrestoPathSelector");
NS_OBJECT_ENSURE_REGISTERED(DcnPrestoPathSelector);
DCNLB_REGISTER_PATH_SELECTOR("presto", DcnPrestoPathSelector);
DCNLB_REGISTER_SCHEME((DcnScheme{
    "presto",
    "Presto*: 64 KB flowcells in weighted round robin over the pair's paths, static weights "
    "(SIGCOMM'15; Hermes SIGCOMM'17 baseline)",
    "presto",
    "dctcp",
    "selective-repeat",
    "ecmp",
    0,
    "dcn,tcp",
    {},
    {}}));

TypeId
DcnPrestoPathSelector::GetTypeId()
{
    // PhysicalPaths (dcnbl::kPhysicalPathsHelp) is the last attribute
    static TypeId tid = dcnbl::AddPhysicalPathsAttribute(
        TypeId("ns3::DcnPrestoPathSelector")
            .SetParent<PathSelector>()
            .SetGroupName("DcnLb")
            .AddConstructor<DcnPrestoPathSelector>()
            .AddAttribute("FlowcellBytes",
                          "Flowcell size in payload bytes (Presto SIGCOMM'15 Sec. 3.1: 64 KB, "
                          "the largest TSO segment); allowed 1..1073741824",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&DcnPrestoPathSelector::m_flowcell),
                          MakeUintegerChecker<uint32_t>(1, 1u << 30))
            .AddAttribute("NumPaths",
                          "Virtual paths per connection; 0 = the pair's minimal paths in the "
                          "topology's DcnPathSet (8 without a topology); allowed 0..64",
                          UintegerValue(0),
                          MakeUintegerAccessor(&DcnPrestoPathSelector::m_numPathsAttr),
                          MakeUintegerChecker<uint32_t>(0, lbcore::kMaxPaths))
            .AddAttribute("EvSetSize",
                          "EVs are (base + path) mod EvSetSize (REPS [L] Sec. 5: 65536); "
                          "allowed 1..65536",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&DcnPrestoPathSelector::m_evSetSize),
                          MakeUintegerChecker<uint32_t>(1, 65536))
            .AddAttribute("Weights",
                          "Static path weights (Presto Sec. 3.3; Hermes Sec. 5: static topology "
                          "weights under asymmetry): 'topology' = bottleneck rate of path i of "
                          "the pair's DcnPathSet, 'equal', or a list 'w0,w1,...' (>= 0, one per "
                          "path, not all 0; a list of another length is refused)",
                          StringValue("topology"),
                          MakeStringAccessor(&DcnPrestoPathSelector::m_weights),
                          MakeStringChecker())
            .AddAttribute("ReorderBuffer",
                          "Ask the receiver to hide reordering from TCP with a reorder buffer "
                          "(Hermes SIGCOMM'17 Sec. 5: Presto* implements a reordering buffer to "
                          "mask packet reordering; Presto SIGCOMM'15 Sec. 3.2 does it in GRO). "
                          "Over TCP the shim resequences (DcnTcpShim ReorderTimeout / "
                          "ReorderCapacity); our message transport ignores it",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DcnPrestoPathSelector::m_reorderBuffer),
                          MakeBooleanChecker())
            .AddTraceSource("NewFlowcell",
                            "A flowcell started: flowcell id, path index",
                            MakeTraceSourceAccessor(&DcnPrestoPathSelector::m_newCell),
                            "ns3::TracedCallback<uint32_t,uint16_t>::TracedCallback"),
        &DcnPrestoPathSelector::m_physical);
    return tid;
}

DcnPrestoPathSelector::DcnPrestoPathSelector()
    : m_weights("topology")
{
}

DcnPrestoPathSelector::~DcnPrestoPathSelector() = default;

std::string
DcnPrestoPathSelector::ParseWeights(const std::string& s, std::vector<double>& out, bool& topo)
{
    out.clear();
    topo = s == "topology";
    if (topo || s == "equal")
    {
        return "";
    }
    std::stringstream ss(s);
    std::string item;
    double total = 0;
    while (std::getline(ss, item, ','))
    {
        char* end = nullptr;
        double w = std::strtod(item.c_str(), &end);
        if (item.empty() || end == item.c_str() || *end != '\0' || !(w >= 0) || w > 1e12)
        {
            return "'" + item + "' is not a weight >= 0";
        }
        out.push_back(w);
        total += w;
    }
    if (out.empty() || out.size() > lbcore::kMaxPaths || total <= 0)
    {
        return "need 1..64 weights, not all 0";
    }
    return "";
}

std::string
DcnPrestoPathSelector::Validate() const
{
    std::vector<double> w;
    bool topo;
    std::string err = ParseWeights(m_weights, w, topo);
    if (!err.empty())
    {
        return "option --ns3::DcnPrestoPathSelector::Weights: value '" + m_weights + "' (" + err +
               "); allowed: topology, equal or w0,w1,...";
    }
    return "";
}

void
DcnPrestoPathSelector::Setup(const PathSelectorSetup& setup)
{
    NS_LOG_FUNCTION(this);
    PathSelector::Setup(setup);
    Rng();
    lbcore::PrestoConfig cfg;
    cfg.flowcellBytes = m_flowcell;
    cfg.numPaths = dcnbl::ResolveNumPaths(m_numPathsAttr, setup, m_evSetSize);
    std::vector<double> w;
    bool topo = false;
    std::string err = ParseWeights(m_weights, w, topo);
    DCN_REFUSE_IF(!err.empty(), err);
    if (!w.empty())
    {
        dcnbl::CheckWeightCount("ns3::DcnPrestoPathSelector::Weights",
                                m_weights,
                                w,
                                cfg.numPaths,
                                setup,
                                "topology or equal");
        for (uint16_t i = 0; i < cfg.numPaths; ++i)
        {
            cfg.weights[i] = w[i];
        }
    }
    else if (topo && setup.topology)
    {
        const DcnPathSet* ps = setup.GetPaths();
        for (uint16_t i = 0; ps != nullptr && i < cfg.numPaths && i < ps->paths.size(); ++i)
        {
            double bottleneck = 0;
            for (uint32_t l : ps->paths[i].links)
            {
                double r = static_cast<double>(setup.topology->GetLink(l).rate.GetBitRate());
                bottleneck = bottleneck == 0 ? r : std::min(bottleneck, r);
            }
            cfg.weights[i] = bottleneck > 0 ? bottleneck / 1e9 : 1; // Gb/s
        }
    }
    m_paths.Draw(setup, cfg.numPaths, m_evSetSize, m_physical, Rng());
    const uint16_t start = static_cast<uint16_t>(Rng().GetInteger(0, cfg.numPaths - 1));
    m_core.Configure(cfg, start);
    m_setupDone = true;
}

uint16_t
DcnPrestoPathSelector::GetPathEv(uint16_t i) const
{
    return m_paths.Ev(i, m_evSetSize);
}

int32_t
DcnPrestoPathSelector::GetPathOfEv(uint16_t ev) const
{
    return m_paths.Index(ev);
}

PathChoice
DcnPrestoPathSelector::Choose(const SendContext& ctx)
{
    NS_LOG_FUNCTION(this << ctx.psn);
    EnsureSetup();
    const uint32_t cell = m_core.GetFlowcellId();
    const bool first = ctx.psn == 0 && !ctx.retransmission;
    const uint16_t p = m_core.OnSend(m_setup.mtu);
    if (cell != m_core.GetFlowcellId() || first)
    {
        NS_LOG_LOGIC("presto: flowcell " << m_core.GetFlowcellId() << " on path " << p);
        m_newCell(m_core.GetFlowcellId(), p);
    }
    PathChoice c;
    c.ev = GetPathEv(p);
    return c;
}

std::string
DcnPrestoPathSelector::Name() const
{
    return "presto";
}

int64_t
DcnPrestoPathSelector::AssignStreams(int64_t stream)
{
    return AssignRngStream(stream);
}

} // namespace ns3
