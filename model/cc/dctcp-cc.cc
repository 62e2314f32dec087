#include "dctcp-cc.h"

#include "../dcn-lb-compat.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

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
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("QuickAdapt",
                          "SMaRTT QuickAdapt (Spritz Sec. IV-C/V uses it; off by default): on a "
                          "NACK or timeout, once per base RTT, cwnd = bytes acked in the last "
                          "base RTT",
                          BooleanValue(false),
                          MakeBooleanAccessor(&DctcpCc::m_quickAdapt),
                          MakeBooleanChecker())
            .AddAttribute("FastIncrease",
                          "SMaRTT FastIncrease (Spritz Sec. IV-C/V uses it; off by default): "
                          "after a window of clean low-RTT ACKs, cwnd += acked per clean ACK",
                          BooleanValue(false),
                          MakeBooleanAccessor(&DctcpCc::m_fastIncrease),
                          MakeBooleanChecker())
            .AddAttribute("FastIncreaseRttFactor",
                          "FastIncrease counts an ACK as uncongested when its RTT < this x base "
                          "RTT (paper silent; our choice 1.25); allowed [1, 100]",
                          DoubleValue(1.25),
                          MakeDoubleAccessor(&DctcpCc::m_fiRttFactor),
                          MakeDoubleChecker<double>(1.0, 100.0));
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
    m_periodStart = Simulator::Now();
    m_periodBytes = 0;
    m_lastPeriodBytes = -1;
    m_qaHoldUntil = Time(0);
    m_cleanBytes = 0;
    m_fast = false;
}

void
DctcpCc::CountAcked(uint32_t bytes, Time now)
{
    const Time period = m_setup.baseRtt.IsStrictlyPositive() ? m_setup.baseRtt : MicroSeconds(10);
    if (now - m_periodStart >= period)
    {
        // periods without ACKs delivered nothing
        m_lastPeriodBytes = now - m_periodStart >= period + period ? 0 : m_periodBytes;
        m_periodBytes = 0;
        m_periodStart = now;
    }
    m_periodBytes += bytes;
}

bool
DctcpCc::QuickAdaptOnLoss()
{
    m_fast = false;
    m_cleanBytes = 0;
    if (!m_quickAdapt)
    {
        return false;
    }
    const Time now = Simulator::Now();
    if (now < m_qaHoldUntil)
    {
        return true; // already adapted in this RTT
    }
    if (m_lastPeriodBytes < 0)
    {
        return false; // no full period measured yet: the normal decrease
    }
    m_cwnd = std::min(m_maxCwnd, std::max<double>(m_setup.mtu, m_lastPeriodBytes));
    m_qaHoldUntil = now + m_setup.baseRtt;
    ++m_quickAdapts;
    NS_LOG_LOGIC("QuickAdapt: cwnd -> " << m_cwnd);
    return true;
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
        os << "option --ns3::DctcpCc::" << (m_initBdp <= 0 ? "InitialWindowBdp" : "MaxWindowBdp")
           << ": value '" << (m_initBdp <= 0 ? m_initBdp : m_maxBdp) << "'; allowed: > 0";
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
    if (m_quickAdapt)
    {
        CountAcked(ackedBytes, s.now.IsStrictlyPositive() ? s.now : Simulator::Now());
    }
    if (ecn)
    {
        m_fast = false;
        m_cleanBytes = 0;
        Decrease(m_variant == ALPHA ? ackedBytes * m_alpha / 2 : ackedBytes / 4.0);
    }
    else
    {
        if (m_fastIncrease)
        {
            const bool lowRtt = !m_setup.baseRtt.IsStrictlyPositive() ||
                                !s.rtt.IsStrictlyPositive() ||
                                s.rtt.GetSeconds() < m_fiRttFactor * m_setup.baseRtt.GetSeconds();
            m_cleanBytes = lowRtt ? m_cleanBytes + ackedBytes : 0;
            m_fast = m_fast ? lowRtt : m_cleanBytes >= m_cwnd;
        }
        const double inc = m_fast ? double(ackedBytes) : double(ackedBytes) * m_setup.mtu / m_cwnd;
        m_cwnd = std::min(m_maxCwnd, m_cwnd + inc);
    }
}

void
DctcpCc::OnNack()
{
    NS_LOG_FUNCTION(this);
    if (QuickAdaptOnLoss())
    {
        return;
    }
    Decrease(m_setup.mtu);
}

void
DctcpCc::OnTimeout()
{
    NS_LOG_FUNCTION(this);
    if (QuickAdaptOnLoss())
    {
        return;
    }
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
