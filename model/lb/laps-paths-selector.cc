#include "laps-paths-selector.h"

#include "dcn-scheme.h"
#include "ev-util.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnLapsPathsSelector");
NS_OBJECT_ENSURE_REGISTERED(DcnLapsPathsSelector);
DCNLB_REGISTER_PATH_SELECTOR("laps-paths", DcnLapsPathsSelector);

namespace
{
/** A baseline over the LAPS path set: selector laps-paths with these attributes, the
 *  switches' laps-source policy, the LAPS route options in the header. */
DcnScheme
LapsPathsScheme(const char* name,
                const char* description,
                std::vector<std::pair<std::string, std::string>> attributes)
{
    return DcnScheme{name,
                     description,
                     "laps-paths",
                     "dctcp",
                     "selective-repeat",
                     "laps-source",
                     DcnHeader::EXT_PATH_ID | DcnHeader::EXT_ROUTE,
                     "dcn",
                     {},
                     std::move(attributes)};
}
} // namespace

// the LAPS authors' baselines over the LAPS path set (review s44 L4; doc/laps.rst); the
// bare selector name too, so that its routes are followed (an implicit scheme would keep
// the topology's ECMP switches, which ignore them)
DCNLB_REGISTER_SCHEME(LapsPathsScheme("laps-paths",
                                      "An EV-based selector (Inner, default ecmp) over the LAPS "
                                      "path set: path = Mix32(EV) mod paths, written as the LAPS "
                                      "source route",
                                      {}));
DCNLB_REGISTER_SCHEME(LapsPathsScheme("ecmp-laps-paths",
                                      "ECMP over the LAPS path set: one LAPS path per connection "
                                      "by its EV, written as the LAPS source route (the LAPS "
                                      "authors' ECMP, [A] tables from laps-PIT.txt)",
                                      {{"Inner", "ecmp"}, {"Flowlets", "false"}}));
DCNLB_REGISTER_SCHEME(LapsPathsScheme("letflow-laps-paths",
                                      "LetFlow over the LAPS path set: a random LAPS path per "
                                      "flowlet (FlowletTimeout) chosen at the sender, written as "
                                      "the LAPS source route (the LAPS authors' LetFlow, [A])",
                                      {{"Inner", "ecmp"}, {"Flowlets", "true"}}));
DCNLB_REGISTER_SCHEME(LapsPathsScheme("plb-laps-paths",
                                      "PLB over the LAPS path set: PLB's EV (new after 12 "
                                      "congested rounds) picks a LAPS path, written as the LAPS "
                                      "source route (the LAPS authors' PLB, [A])",
                                      {{"Inner", "plb"}, {"Flowlets", "false"}}));

TypeId
DcnLapsPathsSelector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcnLapsPathsSelector")
            .SetParent<PathSelector>()
            .SetGroupName("DcnLb")
            .AddConstructor<DcnLapsPathsSelector>()
            .AddAttribute("Inner",
                          "The EV-based selector whose choice picks the LAPS path: path = "
                          "Mix32(EV) mod paths (ecmp: one per connection; plb: a new one per "
                          "repath; LAPS authors' baselines, [A] install_routing_entries over "
                          "laps-PIT.txt); allowed: a registered selector other than laps-paths",
                          StringValue("ecmp"),
                          MakeStringAccessor(&DcnLapsPathsSelector::m_innerName),
                          MakeStringChecker())
            .AddAttribute("Flowlets",
                          "LetFlow: a uniformly random LAPS path per flowlet instead of the "
                          "inner EV's (LetFlow NSDI'17 at the sender; [A]'s letflow over the "
                          "LAPS path tables)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&DcnLapsPathsSelector::m_flowlets),
                          MakeBooleanChecker())
            .AddAttribute("FlowletTimeout",
                          "Flowlets: a packet starts a new flowlet if the connection's last one "
                          "left more than this before (LAPS spec 3 [P]: 50 us, as "
                          "laps-paper's LetFlow); allowed 1 ns..1 s",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&DcnLapsPathsSelector::m_flowletTimeout),
                          MakeTimeChecker(NanoSeconds(1), Seconds(1)));
    return tid;
}

DcnLapsPathsSelector::DcnLapsPathsSelector()
    : m_flowletTimeout(MicroSeconds(50))
{
}

DcnLapsPathsSelector::~DcnLapsPathsSelector() = default;

Ptr<PathSelector>
DcnLapsPathsSelector::GetInner()
{
    if (!m_inner)
    {
        NS_ABORT_MSG_IF(m_innerName == "laps-paths" || !PathSelectorRegistry::Has(m_innerName),
                        Validate());
        m_inner = PathSelectorRegistry::Create(m_innerName);
    }
    return m_inner;
}

std::string
DcnLapsPathsSelector::Validate() const
{
    if (m_innerName == "laps-paths" || !PathSelectorRegistry::Has(m_innerName))
    {
        return "option --ns3::DcnLapsPathsSelector::Inner: value '" + m_innerName +
               "'; allowed: a path selector other than laps-paths (" +
               PathSelectorRegistry::NamesString() + ")";
    }
    return m_inner ? m_inner->Validate() : PathSelectorRegistry::Create(m_innerName)->Validate();
}

std::string
DcnLapsPathsSelector::CheckTopology(const std::string& topology) const
{
    if (m_inner)
    {
        return m_inner->CheckTopology(topology);
    }
    // before Setup: ask a fresh inner selector (an unknown Inner is Validate's to refuse)
    return PathSelectorRegistry::Has(m_innerName) && m_innerName != "laps-paths"
               ? PathSelectorRegistry::Create(m_innerName)->CheckTopology(topology)
               : std::string();
}

bool
DcnLapsPathsSelector::ReceiverResequencing() const
{
    return m_inner && m_inner->ReceiverResequencing();
}

void
DcnLapsPathsSelector::Setup(const PathSelectorSetup& setup)
{
    NS_LOG_FUNCTION(this << setup.srcHost << setup.dstHost);
    PathSelector::Setup(setup);
    Rng();
    GetInner()->Setup(setup);
    if (setup.topology && setup.srcHost != UINT32_MAX && setup.dstHost != UINT32_MAX &&
        setup.shared)
    {
        // the host's own table (not LAPS's "laps" one, whose frame size and margin it sets)
        m_table = setup.shared->GetOrCreate<LapsHostTable>("laps-paths");
        m_table->Init(setup.topology, setup.srcHost, setup.mtu + 64.0, 0);
        m_dst = setup.dstHost;
    }
    m_setupDone = true;
}

bool
DcnLapsPathsSelector::Ready()
{
    if (m_ready)
    {
        return true;
    }
    if (!m_table || m_table->GetSrcHost() != m_setup.srcHost)
    {
        return false;
    }
    m_n = m_table->EnsureDst(m_dst, Simulator::Now().GetNanoSeconds());
    if (m_n == 0)
    {
        return false;
    }
    m_first = m_table->FirstPid(m_dst);
    m_sent.assign(m_n, 0);
    m_ready = true;
    return true;
}

PathChoice
DcnLapsPathsSelector::Choose(const SendContext& ctx)
{
    NS_LOG_FUNCTION(this << ctx.psn);
    EnsureSetup();
    PathChoice pc = GetInner()->Choose(ctx);
    if (!Ready())
    {
        return pc; // no table (topology-free use): the inner EV, routed minimally
    }
    uint32_t k;
    if (m_flowlets)
    {
        const int64_t now = Simulator::Now().GetNanoSeconds();
        if (m_lastNs < 0 || now - m_lastNs > m_flowletTimeout.GetNanoSeconds())
        {
            m_k = Rng().GetInteger(0, m_n - 1);
        }
        m_lastNs = now;
        k = m_k;
    }
    else
    {
        k = dcnev::Mix32(pc.ev) % m_n;
    }
    const uint32_t pid = m_first + k;
    const LapsHostTable::PathInfo& info = m_table->Info(pid);
    pc.pathId = static_cast<int32_t>(pid);
    pc.routeLen = static_cast<uint8_t>(std::min<size_t>(info.route.size(), PathChoice::MAX_ROUTE));
    std::copy_n(info.route.begin(), pc.routeLen, pc.route.begin());
    m_sent[k]++;
    return pc;
}

void
DcnLapsPathsSelector::OnFeedback(const PathFeedback& fb)
{
    GetInner()->OnFeedback(fb);
}

std::string
DcnLapsPathsSelector::Name() const
{
    return "laps-paths";
}

int64_t
DcnLapsPathsSelector::AssignStreams(int64_t stream)
{
    const int64_t own = AssignRngStream(stream);
    return own + GetInner()->AssignStreams(stream + own);
}

void
DcnLapsPathsSelector::DoDispose()
{
    if (m_inner)
    {
        m_inner->Dispose();
    }
    m_inner = nullptr;
    m_table = nullptr;
    PathSelector::DoDispose();
}

} // namespace ns3
