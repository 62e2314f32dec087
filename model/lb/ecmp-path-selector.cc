#include "ecmp-path-selector.h"

#include "dcn-scheme.h"
#include "ev-util.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnEcmpPathSelector");
NS_OBJECT_ENSURE_REGISTERED(EcmpPathSelector);
DCNLB_REGISTER_PATH_SELECTOR("ecmp", EcmpPathSelector);
DCNLB_REGISTER_SCHEME((DcnScheme{
    "ecmp",
    "ECMP: one EV per connection (flow hash), switches hash the 5-tuple (REPS [L] Sec. 5 baseline)",
    "ecmp",
    "dctcp",
    "selective-repeat",
    "ecmp",
    0,
    "dcn,tcp",
    {},
    {}}));

TypeId
EcmpPathSelector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::EcmpPathSelector")
            .SetParent<PathSelector>()
            .SetGroupName("DcnLb")
            .AddConstructor<EcmpPathSelector>()
            .AddAttribute("EvSetSize",
                          "Number of usable EVs, [0, EvSetSize) (REPS paper [L] Sec. 5: 65536); "
                          "allowed 1..65536",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&EcmpPathSelector::m_evSetSize),
                          MakeUintegerChecker<uint32_t>(1, 65536))
            .AddAttribute("UseFlowHash",
                          "Derive the connection's EV from the transport's flow hash instead of "
                          "drawing it from the random stream (spec resolution: random draw, so "
                          "--RngRun changes ECMP collisions)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&EcmpPathSelector::m_useFlowHash),
                          MakeBooleanChecker());
    return tid;
}

EcmpPathSelector::EcmpPathSelector() = default;

EcmpPathSelector::~EcmpPathSelector() = default;

void
EcmpPathSelector::Setup(const PathSelectorSetup& setup)
{
    NS_LOG_FUNCTION(this);
    PathSelector::Setup(setup);
    dcnev::CheckEvSetSize(m_evSetSize, "EcmpPathSelector::EvSetSize");
    if (m_useFlowHash)
    {
        m_ev = static_cast<uint16_t>(dcnev::Mix32(setup.flowHash) % m_evSetSize);
    }
    else
    {
        m_ev = dcnev::DrawUniform(Rng(), m_evSetSize);
    }
    NS_LOG_DEBUG("ECMP connection EV " << m_ev);
}

PathChoice
EcmpPathSelector::Choose(const SendContext& ctx)
{
    NS_LOG_FUNCTION(this << ctx.psn);
    PathChoice c;
    c.ev = m_ev;
    return c;
}

std::string
EcmpPathSelector::Name() const
{
    return "ecmp";
}

int64_t
EcmpPathSelector::AssignStreams(int64_t stream)
{
    return AssignRngStream(stream);
}

} // namespace ns3
