#include "hpcc-cc.h"

#include "ns3/abort.h"
#include "ns3/dcn-header.h"
#include "ns3/dcn-options.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnHpccCc");
NS_OBJECT_ENSURE_REGISTERED(HpccCc);

TypeId
HpccCc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::HpccCc")
            .SetParent<CongestionControl>()
            .SetGroupName("DcnLb")
            .AddConstructor<HpccCc>()
            .AddAttribute("Eta",
                          "Target utilisation eta (HPCC SIGCOMM'19 Sec. 3.2 and 5.1: 0.95), "
                          "allowed (0, 1]",
                          DoubleValue(0.95),
                          MakeDoubleAccessor(&HpccCc::m_eta),
                          MakeDoubleChecker<double>(1e-6, 1.0))
            .AddAttribute("MaxStage",
                          "Additive-increase stages before a multiplicative update (HPCC "
                          "SIGCOMM'19 Sec. 3.2 and 5.1: 5), allowed 0..1000",
                          UintegerValue(5),
                          MakeUintegerAccessor(&HpccCc::m_maxStage),
                          MakeUintegerChecker<uint32_t>(0, 1000))
            .AddAttribute("ExpectedFlows",
                          "N in W_AI = W_init (1 - eta) / N, the number of concurrent flows "
                          "expected on a link (HPCC SIGCOMM'19 Sec. 3.3; the paper gives no "
                          "value: our choice 100), allowed 1..1000000",
                          UintegerValue(100),
                          MakeUintegerAccessor(&HpccCc::m_expectedFlows),
                          MakeUintegerChecker<uint32_t>(1, 1000000))
            .AddAttribute("WaiBytes",
                          "Additive increase W_AI in bytes; 0 = from ExpectedFlows (HPCC "
                          "SIGCOMM'19 Sec. 3.3), allowed 0..1e9",
                          DoubleValue(0),
                          MakeDoubleAccessor(&HpccCc::m_waiBytes),
                          MakeDoubleChecker<double>(0, 1e9))
            .AddAttribute("BaseRtt",
                          "T of HPCC (SIGCOMM'19 Sec. 3.2: the base RTT); 0 = the connection's "
                          "unloaded RTT from the topology (CcSetup::baseRtt; our choice)",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&HpccCc::m_baseRttOverride),
                          MakeTimeChecker(Time(0), Seconds(1)))
            .AddAttribute("MinWindow",
                          "Smallest window in bytes (paper silent; our choice: 1000 B, about "
                          "one small packet); allowed 1..1e9",
                          UintegerValue(1000),
                          MakeUintegerAccessor(&HpccCc::m_minWindowBytes),
                          MakeUintegerChecker<uint32_t>(1, 1000000000))
            .AddTraceSource("Window",
                            "The window changed (old bytes, new bytes)",
                            MakeTraceSourceAccessor(&HpccCc::m_windowTrace),
                            "ns3::HpccCc::WindowTracedCallback");
    return tid;
}

HpccCc::HpccCc()
{
    NS_LOG_FUNCTION(this);
    m_core.Configure(cccore::HpccConfig{});
}

HpccCc::~HpccCc() = default;

std::string
HpccCc::Name() const
{
    return "hpcc";
}

std::string
HpccCc::Validate() const
{
    std::ostringstream os;
    if (!(m_eta > 0 && m_eta <= 1))
    {
        os << "HpccCc: Eta=" << m_eta << "; allowed (0, 1]";
    }
    return os.str();
}

void
HpccCc::Setup(const CcSetup& setup)
{
    NS_LOG_FUNCTION(this);
    CongestionControl::Setup(setup);
    const Time t = m_baseRttOverride.IsStrictlyPositive() ? m_baseRttOverride : setup.baseRtt;
    NS_ABORT_MSG_IF(!t.IsStrictlyPositive(),
                    "HpccCc: base RTT T = " << t
                                            << "; give the connection a positive baseRtt or set "
                                               "ns3::HpccCc::BaseRtt > 0");
    NS_ABORT_MSG_IF(setup.lineRate.GetBitRate() == 0, "HpccCc: lineRate = 0; allowed > 0");
    cccore::HpccConfig c;
    c.eta = m_eta;
    c.maxStage = m_maxStage;
    c.lineRateBps = static_cast<double>(setup.lineRate.GetBitRate());
    c.baseRttNs = t.GetNanoSeconds();
    c.expectedFlows = m_expectedFlows;
    c.waiBytes = m_waiBytes;
    c.minWindowBytes = m_minWindowBytes;
    const bool ok = m_core.Configure(c);
    DCN_REFUSE_IF(!ok, "HpccCc: invalid configuration (" << Validate() << ")");
    m_tSec = t.GetSeconds();
    m_nIntAcks = 0;
    NS_LOG_LOGIC("T=" << t.As(Time::US) << " W_init=" << m_core.GetWinit()
                      << " W_AI=" << m_core.GetWai());
}

bool
HpccCc::WantsInt() const
{
    return true;
}

void
HpccCc::OnAck(const CcAckSample& s)
{
    NS_LOG_FUNCTION(this << s.ackedBytes << s.psn);
    const DcnHeader* h = s.header;
    if (h == nullptr || !(h->extMask & DcnHeader::EXT_INT) || h->intCount == 0)
    {
        return;
    }
    ++m_nIntAcks;
    cccore::IntHop hops[DcnHeader::MAX_INT];
    const uint8_t n = std::min<uint8_t>(h->intCount, DcnHeader::MAX_INT);
    for (uint8_t i = 0; i < n; ++i)
    {
        const DcnHeader::IntRecord& r = h->intRecords[i];
        hops[i].txBytes = r.txBytes;
        hops[i].tsNs = r.timeNs;
        hops[i].qlenBytes = r.queueBytes;
        hops[i].rateBps = static_cast<double>(r.rateMbps) * 1e6;
        hops[i].hopId = (static_cast<uint32_t>(r.switchId) << 16) | r.port;
    }
    const double before = m_core.GetWindow();
    const double w = m_core.OnAck(s.psn, s.nextPsn, hops, n);
    if (w != before)
    {
        NS_LOG_LOGIC("U=" << m_core.GetU() << " W " << before << " -> " << w);
        m_windowTrace(before, w);
    }
}

void
HpccCc::OnNack()
{
    NS_LOG_FUNCTION(this);
}

void
HpccCc::OnTimeout()
{
    NS_LOG_FUNCTION(this);
}

uint64_t
HpccCc::GetCwnd() const
{
    return static_cast<uint64_t>(m_core.GetWindow());
}

DataRate
HpccCc::GetRate() const
{
    return DataRate(static_cast<uint64_t>(m_core.GetRateBps()));
}

} // namespace ns3
