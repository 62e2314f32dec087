#include "ops-path-selector.h"

#include "dcn-scheme.h"
#include "ev-util.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnOpsPathSelector");
NS_OBJECT_ENSURE_REGISTERED(OpsPathSelector);
DCNLB_REGISTER_PATH_SELECTOR("ops", OpsPathSelector);
DCNLB_REGISTER_SCHEME((DcnScheme{
    "ops",
    "Oblivious packet spraying: a uniformly random EV per packet (REPS [L] Sec. 5 baseline)",
    "ops",
    "dctcp",
    "selective-repeat",
    "ecmp",
    0,
    "dcn",
    {},
    {}}));

TypeId
OpsPathSelector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::OpsPathSelector")
            .SetParent<PathSelector>()
            .SetGroupName("DcnLb")
            .AddConstructor<OpsPathSelector>()
            .AddAttribute("EvSetSize",
                          "Number of usable EVs, [0, EvSetSize) (REPS paper [L] Sec. 5: 65536; "
                          "[W] uses 256); allowed 1..65536",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&OpsPathSelector::m_evSetSize),
                          MakeUintegerChecker<uint32_t>(1, 65536));
    return tid;
}

OpsPathSelector::OpsPathSelector() = default;

OpsPathSelector::~OpsPathSelector() = default;

void
OpsPathSelector::Setup(const PathSelectorSetup& setup)
{
    NS_LOG_FUNCTION(this);
    PathSelector::Setup(setup);
    dcnev::CheckEvSetSize(m_evSetSize, "OpsPathSelector::EvSetSize");
    m_checked = true;
}

PathChoice
OpsPathSelector::Choose(const SendContext& ctx)
{
    NS_LOG_FUNCTION(this << ctx.psn);
    if (!m_checked)
    {
        dcnev::CheckEvSetSize(m_evSetSize, "OpsPathSelector::EvSetSize");
        m_checked = true;
    }
    PathChoice c;
    c.ev = dcnev::DrawUniform(Rng(), m_evSetSize);
    return c;
}

std::string
OpsPathSelector::Name() const
{
    return "ops";
}

int64_t
OpsPathSelector::AssignStreams(int64_t stream)
{
    return AssignRngStream(stream);
}

} // namespace ns3
