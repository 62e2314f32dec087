#include "dctcp-cc.h"

#include "../dcn-lb-compat.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnDctcpCc");
NS_OBJECT_ENSURE_REGISTERED(DctcpCc);

TypeId
DctcpCc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DctcpCc")
            .SetParent<CongestionControl>()
            .SetGroupName("DcnLb")
            .AddConstructor<DctcpCc>()
            .AddAttribute("InitialWindowBdp",
                          "Initial window in units of BDP (REPS spec 2.3, [A] -cwnd 151: 1.5)",
                          DoubleValue(1.5),
                          MakeDoubleAccessor(&DctcpCc::m_initBdp),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("MaxWindowBdp",
                          "Maximum window in units of BDP (REPS spec 2.3: 1.5)",
                          DoubleValue(1.5),
                          MakeDoubleAccessor(&DctcpCc::m_maxBdp),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("Variant",
                          "Window decrease on ECN ACKs: Mprdma (cwnd -= acked/4, REPS spec 2.3, "
                          "default) or Alpha (DCTCP EWMA, cwnd -= acked*alpha/2; spec resolution)",
                          EnumValue(DctcpCc::MPRDMA),
                          DCNLB_ENUM_ACCESSOR(DctcpCc::Variant, &DctcpCc::m_variant),
                          MakeEnumChecker(DctcpCc::MPRDMA, "Mprdma", DctcpCc::ALPHA, "Alpha"))
            .AddAttribute("G",
                          "EWMA gain of the Alpha variant (DCTCP paper: 1/16)",
                          DoubleValue(1.0 / 16),
                          MakeDoubleAccessor(&DctcpCc::m_g),
                          MakeDoubleChecker<double>(0.0, 1.0));
    return tid;
}

DctcpCc::DctcpCc()
{
    NS_LOG_FUNCTION(this);
}

DctcpCc::~DctcpCc() = default;

void
DctcpCc::Setup(const CcSetup& setup)
{
    NS_LOG_FUNCTION(this);
    CongestionControl::Setup(setup);
    NS_ABORT_MSG_IF(setup.mtu == 0, "DctcpCc: mtu = 0 is invalid; allowed > 0");
    uint64_t bdp = setup.bdpBytes;
    if (bdp == 0)
    {
        bdp = static_cast<uint64_t>(setup.lineRate.GetBitRate() / 8.0 * setup.baseRtt.GetSeconds());
    }
    NS_ABORT_MSG_IF(bdp == 0,
                    "DctcpCc: bdpBytes = 0 and lineRate x baseRtt = 0; give the connection a "
                    "positive BDP (DcnConnectionParams::bdpBytes or baseRtt)");
    NS_ABORT_MSG_IF(m_initBdp <= 0 || m_maxBdp <= 0,
                    "DctcpCc: InitialWindowBdp = " << m_initBdp << ", MaxWindowBdp = " << m_maxBdp
                                                   << "; both must be > 0");
    m_maxCwnd = std::max<double>(setup.mtu, m_maxBdp * bdp);
    m_cwnd = std::min(m_maxCwnd, std::max<double>(setup.mtu, m_initBdp * bdp));
    m_alpha = 1.0;
}

void
DctcpCc::Decrease(double bytes)
{
    m_cwnd = std::max<double>(m_setup.mtu, m_cwnd - bytes);
    NS_LOG_LOGIC("cwnd -" << bytes << " -> " << m_cwnd);
}

std::string
DctcpCc::Validate() const
{
    std::ostringstream os;
    if (m_initBdp <= 0 || m_maxBdp <= 0)
    {
        os << "DctcpCc: InitialWindowBdp=" << m_initBdp << ", MaxWindowBdp=" << m_maxBdp
           << "; allowed: both > 0";
    }
    return os.str();
}

void
DctcpCc::OnAck(const CcAckSample& s)
{
    NS_LOG_FUNCTION(this << s.ackedBytes << s.ecn << s.rtt);
    const uint32_t ackedBytes = s.ackedBytes;
    const bool ecn = s.ecn;
    if (m_variant == ALPHA)
    {
        m_alpha = (1 - m_g) * m_alpha + m_g * (ecn ? 1.0 : 0.0);
    }
    if (ecn)
    {
        Decrease(m_variant == ALPHA ? ackedBytes * m_alpha / 2 : ackedBytes / 4.0);
    }
    else
    {
        m_cwnd = std::min(m_maxCwnd, m_cwnd + double(ackedBytes) * m_setup.mtu / m_cwnd);
    }
}

void
DctcpCc::OnNack()
{
    NS_LOG_FUNCTION(this);
    Decrease(m_setup.mtu);
}

void
DctcpCc::OnTimeout()
{
    NS_LOG_FUNCTION(this);
    Decrease(m_setup.mtu);
}

uint64_t
DctcpCc::GetCwnd() const
{
    return static_cast<uint64_t>(m_cwnd);
}

std::string
DctcpCc::Name() const
{
    return "dctcp";
}

} // namespace ns3
