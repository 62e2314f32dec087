#include "flicr-path-selector.h"

#include "dcn-scheme.h"
#include "lb-baseline-util.h"
#include "presto-path-selector.h"

#include "ns3/boolean.h"
#include "ns3/dcn-options.h"
#include "ns3/dcn-spritz-info.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnFlicrPathSelector");
NS_OBJECT_ENSURE_REGISTERED(DcnFlicrPathSelector);
DCNLB_REGISTER_PATH_SELECTOR("flicr", DcnFlicrPathSelector);
DCNLB_REGISTER_SCHEME((DcnScheme{
    "flicr",
    "Flicr (w): one weighted-random path per flow, moved on ECN >= 50% per RTT, NACK or "
    "timeout (INFOCOM'17; Spritz baseline)",
    "flicr",
    "dctcp",
    "selective-repeat",
    "ecmp",
    0,
    "dcn",
    {},
    {}}));

TypeId
DcnFlicrPathSelector::GetTypeId()
{
    // PhysicalPaths (dcnbl::kPhysicalPathsHelp) is the last attribute
    static TypeId tid = dcnbl::AddPhysicalPathsAttribute(
        TypeId("ns3::DcnFlicrPathSelector")
            .SetParent<PathSelector>()
            .SetGroupName("DcnLb")
            .AddConstructor<DcnFlicrPathSelector>()
            .AddAttribute("EcnThreshold",
                          "Move when the ECN fraction of an RTT round is >= this (Spritz 4.2 "
                          "gives no value; our choice: PLB's 0.5); allowed [0, 1]",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&DcnFlicrPathSelector::m_ecnThreshold),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("RepathOnNack",
                          "Move on a NACK (spec spritz.md 4.2)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DcnFlicrPathSelector::m_onNack),
                          MakeBooleanChecker())
            .AddAttribute("RepathOnTimeout",
                          "Move on a timeout (spec spritz.md 4.2)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DcnFlicrPathSelector::m_onTimeout),
                          MakeBooleanChecker())
            .AddAttribute("FlowletTimeout",
                          "A gap longer than this draws a fresh weighted-random path (our "
                          "choice: 0 = off); allowed >= 0",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&DcnFlicrPathSelector::m_flowletTimeout),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("FlowcellBytes",
                          "Draw a fresh weighted-random path every this many bytes (our choice: "
                          "0 = off); allowed 0..1073741824",
                          UintegerValue(0),
                          MakeUintegerAccessor(&DcnFlicrPathSelector::m_flowcell),
                          MakeUintegerChecker<uint32_t>(0, 1u << 30))
            .AddAttribute("Weights",
                          "'spritz': Spritz Eq. 1 (spritz.md 2.7: w_i = lat_longest / lat_i, "
                          "paths shorter than the longest times WScale), 'equal', or a list "
                          "'w0,w1,...' (one per path, PathSource=virtual only; other lengths are "
                          "refused)",
                          StringValue("spritz"),
                          MakeStringAccessor(&DcnFlicrPathSelector::m_weights),
                          MakeStringChecker())
            .AddAttribute("PathSource",
                          "Paths of a connection: 'virtual' (EVs base + i, any topology) or "
                          "'spritz' (the Spritz EV list of the switch pair with its Eq. 1 "
                          "weights, first 64 entries; spritz.md 4.2: the paper's Flicr (w) "
                          "on source-guided routing; needs a Dragonfly / Slim Fly)",
                          StringValue("virtual"),
                          MakeStringAccessor(&DcnFlicrPathSelector::m_pathSource),
                          MakeStringChecker())
            .AddAttribute("WScale",
                          "Scale of the non-longest paths' weights (spritz.md 2.7: 3); allowed "
                          "0..1000",
                          DoubleValue(3),
                          MakeDoubleAccessor(&DcnFlicrPathSelector::m_wScale),
                          MakeDoubleChecker<double>(0, 1000))
            .AddAttribute("NumPaths",
                          "Virtual paths per connection; 0 = every path of the pair's DcnPathSet "
                          "(minimal and non-minimal; 8 without a topology); allowed 0..64",
                          UintegerValue(0),
                          MakeUintegerAccessor(&DcnFlicrPathSelector::m_numPathsAttr),
                          MakeUintegerChecker<uint32_t>(0, lbcore::kMaxPaths))
            .AddAttribute("EvSetSize",
                          "EVs are (base + path) mod EvSetSize (REPS [L] Sec. 5: 65536); "
                          "allowed 1..65536",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&DcnFlicrPathSelector::m_evSetSize),
                          MakeUintegerChecker<uint32_t>(1, 65536))
            .AddTraceSource("Repath",
                            "The flow moved: old path, new path, reason (lbcore::FlicrEvent)",
                            MakeTraceSourceAccessor(&DcnFlicrPathSelector::m_repath),
                            "ns3::TracedCallback<uint16_t,uint16_t,uint8_t>::TracedCallback"),
        &DcnFlicrPathSelector::m_physical);
    return tid;
}

DcnFlicrPathSelector::DcnFlicrPathSelector()
    : m_flowletTimeout(Time(0)),
      m_weights("spritz"),
      m_pathSource("virtual")
{
}

DcnFlicrPathSelector::~DcnFlicrPathSelector() = default;

std::string
DcnFlicrPathSelector::Validate() const
{
    if (m_pathSource != "virtual" && m_pathSource != "spritz")
    {
        return "option --ns3::DcnFlicrPathSelector::PathSource: value '" + m_pathSource +
               "'; allowed: virtual, spritz";
    }
    if (m_weights == "spritz")
    {
        return "";
    }
    if (m_pathSource == "spritz" && m_weights != "equal")
    {
        // PathSource=spritz weighs Spritz's paths itself; a list would be ignored
        return "option --ns3::DcnFlicrPathSelector::Weights: value '" + m_weights +
               "' with PathSource=spritz; allowed with PathSource=spritz: spritz or equal";
    }
    std::vector<double> w;
    bool topo;
    std::string err = DcnPrestoPathSelector::ParseWeights(m_weights, w, topo);
    if (!err.empty() || topo)
    {
        return "option --ns3::DcnFlicrPathSelector::Weights: value '" + m_weights + "' (" +
               (err.empty() ? std::string("not a Flicr choice") : err) +
               "); allowed: spritz, equal or w0,w1,...";
    }
    return "";
}

void
DcnFlicrPathSelector::Setup(const PathSelectorSetup& setup)
{
    NS_LOG_FUNCTION(this);
    PathSelector::Setup(setup);
    Rng();
    DCN_REFUSE_IF(!Validate().empty(), Validate());
    double w[lbcore::kMaxPaths];
    for (auto& x : w)
    {
        x = 1;
    }
    m_spritzEvs.clear();
    if (m_pathSource == "spritz")
    {
        std::string why = "no topology";
        Ptr<DcnSpritzInfo> info =
            setup.topology ? DcnSpritzInfo::Get(*setup.topology, &why) : Ptr<DcnSpritzInfo>();
        NS_ABORT_MSG_IF(!info, "path selector flicr (PathSource=spritz): " << why);
        if (setup.srcSwitch != setup.dstSwitch)
        {
            const DcnSpritzPairPaths& pp = info->Paths(setup.srcSwitch, setup.dstSwitch, m_wScale);
            uint32_t n = std::min<uint32_t>(pp.Size(), lbcore::kMaxPaths);
            if (m_numPathsAttr > 0)
            {
                n = std::min(n, m_numPathsAttr);
            }
            for (uint32_t i = 0; i < n; ++i)
            {
                m_spritzEvs.push_back(pp.evs[i]);
                w[i] = m_weights == "equal" ? 1.0 : pp.weighted[i];
            }
        }
        if (m_spritzEvs.empty())
        {
            m_spritzEvs.push_back(0); // same switch: nothing to steer
        }
        m_numPaths = static_cast<uint16_t>(m_spritzEvs.size());
        m_paths.base = 0;
        ConfigureCore(w);
        return;
    }
    const DcnPathSet* ps = setup.GetPaths();
    uint32_t n = m_numPathsAttr;
    if (n == 0 && ps != nullptr && !ps->paths.empty())
    {
        n = static_cast<uint32_t>(ps->paths.size());
    }
    m_numPaths = dcnbl::ResolveNumPaths(n, setup, m_evSetSize);
    if (m_weights == "spritz" && ps != nullptr)
    {
        double longest = 0;
        for (uint16_t i = 0; i < m_numPaths && i < ps->paths.size(); ++i)
        {
            longest = std::max(longest, ps->paths[i].latency.GetSeconds());
        }
        for (uint16_t i = 0; i < m_numPaths && i < ps->paths.size(); ++i)
        {
            const double lat = ps->paths[i].latency.GetSeconds();
            if (lat > 0 && lat < longest)
            {
                w[i] = longest / lat * m_wScale;
            }
        }
    }
    else if (m_weights != "spritz" && m_weights != "equal")
    {
        std::vector<double> v;
        bool topo;
        DcnPrestoPathSelector::ParseWeights(m_weights, v, topo);
        dcnbl::CheckWeightCount("ns3::DcnFlicrPathSelector::Weights",
                                m_weights,
                                v,
                                m_numPaths,
                                setup,
                                "spritz or equal");
        for (uint16_t i = 0; i < m_numPaths; ++i)
        {
            w[i] = v[i];
        }
    }
    m_paths.Draw(setup, m_numPaths, m_evSetSize, m_physical, Rng());
    ConfigureCore(w);
}

void
DcnFlicrPathSelector::ConfigureCore(const double* weights)
{
    lbcore::FlicrConfig cfg;
    cfg.numPaths = m_numPaths;
    cfg.ecnThreshold = m_ecnThreshold;
    cfg.repathOnNack = m_onNack;
    cfg.repathOnTimeout = m_onTimeout;
    cfg.flowletTimeoutNs = m_flowletTimeout.GetNanoSeconds();
    cfg.flowcellBytes = m_flowcell;
    m_core.Configure(cfg, weights, Rng().GetValue(0, 1));
    m_setupDone = true;
}

uint16_t
DcnFlicrPathSelector::GetPathEv(uint16_t i) const
{
    if (!m_spritzEvs.empty())
    {
        return i < m_spritzEvs.size() ? m_spritzEvs[i] : m_spritzEvs[0];
    }
    return m_paths.Ev(i, m_evSetSize);
}

std::string
DcnFlicrPathSelector::CheckTopology(const std::string& topology) const
{
    if (m_pathSource != "spritz")
    {
        return "";
    }
    for (const std::string& f : DcnSpritzInfo::TopologyFamilies())
    {
        if (topology.compare(0, f.size(), f) == 0)
        {
            return "";
        }
    }
    std::string allowed;
    for (const std::string& f : DcnSpritzInfo::TopologyFamilies())
    {
        allowed += (allowed.empty() ? "" : ", ") + f + "*";
    }
    return "option --ns3::DcnFlicrPathSelector::PathSource: value 'spritz' needs a Dragonfly "
           "or Slim Fly topology with Spritz tables, not '" +
           topology + "'; allowed: PathSource=spritz on " + allowed + ", or PathSource=virtual";
}

int32_t
DcnFlicrPathSelector::GetPathOfEv(uint16_t ev) const
{
    if (!m_spritzEvs.empty())
    {
        for (uint16_t i = 0; i < m_spritzEvs.size(); ++i)
        {
            if (m_spritzEvs[i] == ev)
            {
                return i;
            }
        }
        return -1;
    }
    return m_paths.Index(ev);
}

PathChoice
DcnFlicrPathSelector::Choose(const SendContext& ctx)
{
    NS_LOG_FUNCTION(this << ctx.psn);
    EnsureSetup();
    const double u =
        (m_flowletTimeout.IsStrictlyPositive() || m_flowcell > 0) ? Rng().GetValue(0, 1) : 0.0;
    PathChoice c;
    c.ev = GetPathEv(m_core.OnSend(Simulator::Now().GetNanoSeconds(), m_setup.mtu, u));
    return c;
}

void
DcnFlicrPathSelector::OnFeedback(const PathFeedback& fb)
{
    NS_LOG_FUNCTION(this << fb.path.ev << static_cast<int>(fb.signal));
    EnsureSetup();
    const uint16_t old = m_core.GetPath();
    // one path per flow, moved when *that* path is congested: feedback of packets sent on
    // a path the flow has left (still in flight when it moved) is ignored (until
    // 2026-11-30 each of a window's NACKs moved the flow again)
    if (fb.path.ev != GetPathEv(old))
    {
        return;
    }
    bool moved = false;
    switch (fb.signal)
    {
    case FeedbackSignal::ACK:
    case FeedbackSignal::ECN_ACK: {
        // round = one RTT: the measured sample, else the connection's base RTT
        int64_t rtt = fb.rtt.GetNanoSeconds();
        if (rtt <= 0)
        {
            rtt = m_setup.baseRtt.GetNanoSeconds();
        }
        moved = m_core.OnAck(fb.signal == FeedbackSignal::ECN_ACK,
                             Simulator::Now().GetNanoSeconds(),
                             rtt,
                             Rng().GetValue(0, 1));
        break;
    }
    case FeedbackSignal::NACK:
        moved = m_core.OnNack(Rng().GetValue(0, 1));
        break;
    case FeedbackSignal::TIMEOUT: {
        // one RTO expiry reports every timed-out packet: move once per expiry
        const int64_t now = Simulator::Now().GetNanoSeconds();
        if (now != m_lastTimeoutNs)
        {
            m_lastTimeoutNs = now;
            moved = m_core.OnTimeout(Rng().GetValue(0, 1));
        }
        break;
    }
    default:
        break;
    }
    if (moved)
    {
        NS_LOG_LOGIC("flicr: path " << old << " -> " << m_core.GetPath());
        m_repath(old, m_core.GetPath(), static_cast<uint8_t>(m_core.GetLastEvent()));
    }
}

std::string
DcnFlicrPathSelector::Name() const
{
    return "flicr";
}

int64_t
DcnFlicrPathSelector::AssignStreams(int64_t stream)
{
    return AssignRngStream(stream);
}

} // namespace ns3
