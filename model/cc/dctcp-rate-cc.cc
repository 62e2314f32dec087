#include "dctcp-rate-cc.h"

#include "ns3/boolean.h"
#include "ns3/dcn-options.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnDctcpRateCc");
NS_OBJECT_ENSURE_REGISTERED(DctcpRateCc);

TypeId
DctcpRateCc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DctcpRateCc")
            .SetParent<CongestionControl>()
            .SetGroupName("DcnLb")
            .AddConstructor<DctcpRateCc>()
            .AddAttribute("G",
                          "Alpha EWMA gain g, updated once per round (LAPS authors' simulator "
                          "[A], rdma-hw.cc HandleAckDctcp uses RdmaHw::EwmaGain, which [A]'s "
                          "install_rdma_driver sets from CONFIG_DCQCN.txt ewmaGain 0.00390625 = "
                          "1/256, shared with its DCQCN); allowed (0, 1]",
                          DoubleValue(1.0 / 256),
                          MakeDoubleAccessor(&DctcpRateCc::m_g),
                          MakeDoubleChecker<double>(1e-9, 1.0))
            .AddAttribute("RateAi",
                          "Additive increase per round without a cut (LAPS authors' simulator "
                          "[A], rdma-hw.cc RdmaHw::DctcpRateAI, CONFIG dctcpRateAiInMbps 1000: "
                          "1Gb/s); allowed > 0",
                          DataRateValue(DataRate("1Gbps")),
                          MakeDataRateAccessor(&DctcpRateCc::m_rateAi),
                          MakeDataRateChecker())
            .AddAttribute("MinRate",
                          "Rate floor of a cut (LAPS authors' simulator [A], rdma-hw.cc "
                          "RdmaHw::MinRate, CONFIG minRateInMbps 100: 100Mb/s); allowed > 0 "
                          "and <= the line rate",
                          DataRateValue(DataRate("100Mbps")),
                          MakeDataRateAccessor(&DctcpRateCc::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("InitialAlpha",
                          "alpha of a new connection (LAPS authors' simulator [A], "
                          "rdma-queue-pair.cc RdmaQueuePair constructor: dctcp.m_alpha = 1, so "
                          "the first cut halves the rate); allowed [0, 1]",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&DctcpRateCc::m_initialAlpha),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("Window",
                          "Send window in bytes: at most this much unacknowledged data in flight "
                          "(0 = none).  The LAPS authors' simulator [A] gives every flow, PLB's "
                          "too, the largest bandwidth-delay product of any host pair "
                          "(userdefinedfunction.cc generate_rdma_flows_for_node_pair, "
                          "enableWindow / enableUnifiedWindow; laps-paper --setup=authors sets "
                          "it per run, --roceWindow); allowed 0 or >= 64",
                          UintegerValue(0),
                          MakeUintegerAccessor(&DctcpRateCc::m_window),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("NackIsCongestion",
                          "A go-back-N NACK counts as a marked ACK (in the round's fraction and "
                          "for a cut): the LAPS authors' simulator [A], rdma-hw.cc "
                          "ReceiverCheckSeq, sets the CNP flag on the NACK of an out-of-sequence "
                          "packet, which PLBHandleAckDctcp counts as an ECN echo",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DctcpRateCc::m_nackIsCongestion),
                          MakeBooleanChecker())
            .AddTraceSource("Rate",
                            "The rate changed (old, new bit/s)",
                            MakeTraceSourceAccessor(&DctcpRateCc::m_rateTrace),
                            "ns3::DctcpRateCc::RateTracedCallback");
    return tid;
}

DctcpRateCc::DctcpRateCc()
    : m_g(1.0 / 256),
      m_rateAi("1Gbps"),
      m_minRate("100Mbps"),
      m_initialAlpha(1.0),
      m_window(0),
      m_nackIsCongestion(true)
{
    NS_LOG_FUNCTION(this);
}

DctcpRateCc::~DctcpRateCc() = default;

std::string
DctcpRateCc::Name() const
{
    return "dctcp-rate";
}

std::string
DctcpRateCc::Validate() const
{
    for (const auto& [name, rate] :
         {std::pair<const char*, DataRate>{"MinRate", m_minRate}, {"RateAi", m_rateAi}})
    {
        if (rate.GetBitRate() == 0)
        {
            return std::string("option --ns3::DctcpRateCc::") + name +
                   ": value '0bps'; allowed: > 0";
        }
    }
    return CheckWindowBytes("DctcpRateCc", m_window);
}

void
DctcpRateCc::Setup(const CcSetup& setup)
{
    NS_LOG_FUNCTION(this);
    CongestionControl::Setup(setup);
    const std::string err = Validate();
    DCN_REFUSE_IF(!err.empty(), err);
    m_line = static_cast<double>(setup.lineRate.GetBitRate());
    DCN_REFUSE_IF(m_line <= 0, "DctcpRateCc: lineRate = 0; allowed > 0");
    DCN_REFUSE_IF(static_cast<double>(m_minRate.GetBitRate()) > m_line,
                  "option --ns3::DctcpRateCc::MinRate: value '"
                      << m_minRate.GetBitRate() << "bps'; allowed: <= the line rate " << m_line
                      << "bps");
    m_rate = m_line; // [A] AddQueuePair: m_rate = the NIC's rate
    m_alpha = m_initialAlpha;
    m_started = false;
    m_lastUpdate = 0;
    m_batch = 0;
    m_ecnCount = 0;
    m_cwr = false;
    m_highSeq = 0;
    m_lastCum = 0;
    m_nackSeen = false;
    m_cuts = 0;
    m_rounds = 0;
}

void
DctcpRateCc::Process(uint32_t cum, uint32_t nxt, bool marked)
{
    const double old = m_rate;
    bool newBatch = false;
    m_ecnCount += marked ? 1 : 0;
    if (!m_started)
    {
        if (cum > 0)
        {
            // [A]: the first ACK beyond lastUpdateSeq = 0 only opens the first round
            newBatch = true;
            m_started = true;
            m_lastUpdate = nxt;
            m_batch = nxt + 1;
        }
    }
    else if (cum > m_lastUpdate)
    {
        newBatch = true;
        ++m_rounds;
        const double frac =
            std::min(1.0, static_cast<double>(m_ecnCount) / std::max<uint32_t>(m_batch, 1));
        m_alpha = (1 - m_g) * m_alpha + m_g * frac;
        m_lastUpdate = nxt;
        m_ecnCount = 0;
        m_batch = (nxt > cum ? nxt - cum : 0) + 1;
    }
    if (m_cwr && cum > m_highSeq)
    {
        m_cwr = false;
    }
    if (marked && !m_cwr)
    {
        m_rate = std::max(static_cast<double>(m_minRate.GetBitRate()), m_rate * (1 - m_alpha / 2));
        m_cwr = true;
        m_highSeq = nxt;
        ++m_cuts;
    }
    if (!m_cwr && newBatch)
    {
        m_rate = std::min(m_line, m_rate + static_cast<double>(m_rateAi.GetBitRate()));
    }
    m_lastCum = std::max(m_lastCum, cum);
    if (m_rate != old)
    {
        NS_LOG_LOGIC("rate " << old << " -> " << m_rate << " alpha " << m_alpha);
        m_rateTrace(old, m_rate);
    }
}

void
DctcpRateCc::OnAck(const CcAckSample& s)
{
    NS_LOG_FUNCTION(this << s.cumAck << s.nextPsn << s.ecn << s.nack);
    // a NACK's "snd_nxt" is its cumAck: [A] goes back (snd_nxt = snd_una) before the handler
    const bool marked = s.ecn || (s.nack && m_nackIsCongestion);
    Process(s.cumAck, s.nack ? s.cumAck : s.nextPsn, marked);
    m_nackSeen = s.nack;
    m_nackSeenNs = s.now.GetNanoSeconds();
}

void
DctcpRateCc::OnNack()
{
    NS_LOG_FUNCTION(this);
    // the NACK came through OnAck already (it acknowledged bytes) if OnAck saw it now: a
    // NACK the transport then found stale calls no OnNack, and must not swallow the next
    // NACK's (review s49 M1)
    const bool same = m_nackSeen && m_nackSeenNs == Simulator::Now().GetNanoSeconds();
    m_nackSeen = false;
    if (same)
    {
        return;
    }
    // a NACK that acknowledged nothing new: still one acknowledgement of [A]'s handler
    Process(m_lastCum, m_lastCum, m_nackIsCongestion);
}

void
DctcpRateCc::OnTimeout()
{
    NS_LOG_FUNCTION(this);
    m_nackSeen = false;
}

DataRate
DctcpRateCc::GetRate() const
{
    return DataRate(static_cast<uint64_t>(m_rate));
}

uint64_t
DctcpRateCc::GetCwnd() const
{
    return m_window > 0 ? m_window : std::numeric_limits<uint64_t>::max();
}

} // namespace ns3
