#include "dcn-queue-disc.h"

#include "dcn-fast-path.h"
#include "dcn-switch-buffer.h"

#include "ns3/boolean.h"
#include "ns3/dcn-header.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-options.h"
#include "ns3/dcn-tcp-shim-header.h"
#include "ns3/double.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/enum.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnQueueDisc");
NS_OBJECT_ENSURE_REGISTERED(DcnQueueDisc);

/**
 * Internal band queue of DcnQueueDisc: a drop-tail FIFO that can also remove
 * its most recently enqueued item (overflow policy DropArrivalOrLast).
 * Removal goes through Queue::DoRemove, so the queue disc's statistics see a
 * dequeue followed by a drop (reason "Internal queue drop").
 */
class DcnBandQueue : public Queue<QueueDiscItem>
{
  public:
    // Enqueue, Dequeue, Remove and RemoveLast are the only ways items enter or leave
    // (Queue::Flush and DequeueAll go through Remove/Dequeue), so Bytes() and
    // Packets() always equal QueueBase::GetNBytes() / GetNPackets().
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::DcnBandQueue")
                                .SetParent<Queue<QueueDiscItem>>()
                                .SetGroupName("DcnLb")
                                .AddConstructor<DcnBandQueue>();
        return tid;
    }

    bool Enqueue(Ptr<QueueDiscItem> item) override
    {
        const uint32_t size = item->GetSize();
        if (!DoEnqueue(DCNLB_QUEUE_END(), item))
        {
            return false;
        }
        m_bytes += size;
        ++m_packets;
        return true;
    }

    Ptr<QueueDiscItem> Dequeue() override
    {
        return Left(DoDequeue(DCNLB_QUEUE_BEGIN()));
    }

    Ptr<QueueDiscItem> Remove() override
    {
        return Left(DoRemove(DCNLB_QUEUE_BEGIN()));
    }

    Ptr<const QueueDiscItem> Peek() const override
    {
        return DoPeek(DCNLB_QUEUE_BEGIN());
    }

    /** Remove and drop the tail item. \return it, or nullptr if empty. */
    Ptr<QueueDiscItem> RemoveLast()
    {
        if (IsEmpty())
        {
            return nullptr;
        }
        return Left(DoRemove(std::prev(DCNLB_QUEUE_END())));
    }

    /** Bytes in the queue (= GetNBytes()). */
    uint32_t Bytes() const
    {
        return m_bytes;
    }

    /** Packets in the queue (= GetNPackets()). */
    uint32_t Packets() const
    {
        return m_packets;
    }

  private:
    /** Count \p item (if any) out of the queue. \return it */
    Ptr<QueueDiscItem> Left(Ptr<QueueDiscItem> item)
    {
        if (item)
        {
            m_bytes -= item->GetSize();
            --m_packets;
        }
        return item;
    }

    uint32_t m_bytes{0};   //!< bytes in the queue
    uint32_t m_packets{0}; //!< packets in the queue
};

NS_OBJECT_ENSURE_REGISTERED(DcnBandQueue);

TypeId
DcnQueueDisc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcnQueueDisc")
            .SetParent<QueueDisc>()
            .SetGroupName("DcnLb")
            .AddConstructor<DcnQueueDisc>()
            .AddAttribute(
                "DataLimit",
                "Data-band limit, bytes (B) or packets (p) (REPS spec 3.1: 1 BDP per "
                "port, ~100 packets of ~4150 B = 415000 B)",
                QueueSizeValue(QueueSize("415000B")),
                MakeQueueSizeAccessor(&DcnQueueDisc::SetDataLimit, &DcnQueueDisc::GetDataLimit),
                MakeQueueSizeChecker())
            .AddAttribute(
                "HighLimit",
                "High-priority band limit (spec resolution: same as one BDP)",
                QueueSizeValue(QueueSize("415000B")),
                MakeQueueSizeAccessor(&DcnQueueDisc::SetHighLimit, &DcnQueueDisc::GetHighLimit),
                MakeQueueSizeChecker())
            .AddAttribute("KminFraction",
                          "ECN Kmin as a fraction of DataLimit (REPS spec 3.1: 20%)",
                          DoubleValue(0.2),
                          MakeDoubleAccessor(&DcnQueueDisc::m_kminFrac),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("KmaxFraction",
                          "ECN Kmax as a fraction of DataLimit (REPS spec 3.1: 80%)",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&DcnQueueDisc::m_kmaxFrac),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("EcnKminPerGbps",
                          "Absolute ECN Kmin of a switch port, bytes per Gb/s of its link rate "
                          "(the LAPS authors' per-rate thresholds, [A] CONFIG_DCQCN.txt "
                          "ecnParaMap: 400 KB at 100G, 800 KB at 200G = 4000; review s44 L3); "
                          "0 = KminFraction of DataLimit (spec default).  Host NIC queues "
                          "keep the fractions ([A] config_switch_mmu sets switches only); "
                          "allowed 0..1e9 with EcnKmaxPerGbps >= it",
                          UintegerValue(0),
                          MakeUintegerAccessor(&DcnQueueDisc::m_kminPerGbps),
                          MakeUintegerChecker<uint64_t>(0, 1000000000))
            .AddAttribute("EcnKmaxPerGbps",
                          "Absolute ECN Kmax of a switch port, bytes per Gb/s of its link rate "
                          "([A] CONFIG_DCQCN.txt ecnParaMap: 1600 KB at 100G, 3200 KB at 200G "
                          "= 16000); used with EcnKminPerGbps > 0; allowed 0..1e9",
                          UintegerValue(0),
                          MakeUintegerAccessor(&DcnQueueDisc::m_kmaxPerGbps),
                          MakeUintegerChecker<uint64_t>(0, 1000000000))
            .AddAttribute("EcnPmax",
                          "Marking probability reached at Kmax (linear from 0 at Kmin; every "
                          "packet above Kmax is marked): 1 = REPS spec 3.1's ramp to 1 "
                          "(default); [A] CONFIG_DCQCN.txt ecnParaMap: 0.8; allowed (0, 1]",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&DcnQueueDisc::m_pmax),
                          MakeDoubleChecker<double>(1e-9, 1.0))
            .AddAttribute("EcnEnabled",
                          "Mark CE on ECT packets between Kmin and Kmax (REPS spec 2.1)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DcnQueueDisc::m_ecn),
                          MakeBooleanChecker())
            .AddAttribute("MarkAtDequeue",
                          "Evaluate ECN at dequeue on the occupancy after removal (REPS spec 2.1, "
                          "[W] and [A] CompositeQueue::decide_ECN); false: at enqueue",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DcnQueueDisc::m_markAtDequeue),
                          MakeBooleanChecker())
            .AddAttribute("TrimEnabled",
                          "Trim DATA packets that do not fit to their headers and send them in "
                          "the high band (REPS spec 2.1: optional, off in [L]'s main runs)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&DcnQueueDisc::m_trim),
                          MakeBooleanChecker())
            .AddAttribute("OverflowPolicy",
                          "A data packet that does not fit (and is not trimmed): DropArrival "
                          "drops it (REPS spec 2.1, default); DropArrivalOrLast drops, with "
                          "probability 1/2, the arrival, else the most recently enqueued data "
                          "packet and enqueues the arrival (the REPS authors' htsim artifact, "
                          "CompositeQueue, issue 10)",
                          EnumValue(DROP_ARRIVAL),
                          DCNLB_ENUM_ACCESSOR(OverflowPolicy, &DcnQueueDisc::m_overflow),
                          MakeEnumChecker(DROP_ARRIVAL,
                                          "DropArrival",
                                          DROP_ARRIVAL_OR_LAST,
                                          "DropArrivalOrLast"))
            .AddAttribute("IntEnabled",
                          "Stamp an INT record (switch id, port, egress time, queue bytes, "
                          "transmitted bytes, link rate; HPCC SIGCOMM'19 Sec. 3.1) on DATA packets "
                          "that carry the EXT_INT option when they leave this port; only switch "
                          "ports stamp (SetIntIdentity), hosts never (issue 12, our choice: on)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DcnQueueDisc::m_intEnabled),
                          MakeBooleanChecker())
            .AddAttribute("HostNic",
                          "This queue is a host NIC's egress (set by the topology builders).  A "
                          "TCP-shim packet whose sender senses the path only (FLAG_NIC_STAMP, "
                          "Hermes PathOnlySensing, SIGCOMM'17 Sec. 3.1.1) gets its shim send "
                          "time rewritten when it leaves this queue, and FLAG_HOST_CE if this "
                          "queue marked it CE, so the sender's own backlog and marks are not "
                          "credited to the path (review s44 H2); other packets are untouched",
                          BooleanValue(false),
                          MakeBooleanAccessor(&DcnQueueDisc::m_hostNic),
                          MakeBooleanChecker())
            .AddAttribute("Lossless",
                          "Data band never drops for lack of space (DataLimit then only sets "
                          "Kmin/Kmax): a host NIC under PFC, whose memory holds what the "
                          "transport hands over while the port is paused (our choice, "
                          "doc/roce.rst)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&DcnQueueDisc::m_lossless),
                          MakeBooleanChecker())
            .AddAttribute("PfcWatchdog",
                          "Report (one warning line, counter, PfcWatchdog trace) a PFC pause of "
                          "the data band held longer than this: a pause storm or deadlock "
                          "(our choice, doc/roce.rst); 0 disables",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&DcnQueueDisc::m_watchdog),
                          MakeTimeChecker(Time(0), Seconds(100)))
            .AddAttribute("PfcWatchdogAction",
                          "When a pause has been held longer than PfcWatchdog: Report (default: "
                          "a warning line, counter and trace only) or Forward (also resume the "
                          "data band and ignore the peer's pause frames for PfcWatchdogRestore, "
                          "like a switch PFC watchdog's forward action (SONiC): breaks a PFC "
                          "deadlock at the price of drops where the peer's buffer then "
                          "overflows; our choice, doc/roce.rst)",
                          EnumValue(WATCHDOG_REPORT),
                          DCNLB_ENUM_ACCESSOR(PfcWatchdogAction, &DcnQueueDisc::m_watchdogAction),
                          MakeEnumChecker(WATCHDOG_REPORT, "Report", WATCHDOG_FORWARD, "Forward"))
            .AddAttribute("PfcWatchdogRestore",
                          "PfcWatchdogAction=Forward: how long the port ignores pause frames "
                          "after the watchdog fired (our choice, doc/roce.rst)",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&DcnQueueDisc::m_watchdogRestore),
                          MakeTimeChecker(MicroSeconds(1), Seconds(100)))
            .AddAttribute("PfcRefreshFraction",
                          "While it keeps its peer paused, this port re-sends the XOFF frame "
                          "(0xFFFF quanta) after this fraction of the frame's pause time "
                          "(our choice, doc/roce.rst)",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&DcnQueueDisc::m_refreshFraction),
                          MakeDoubleChecker<double>(0.01, 0.99))
            .AddTraceSource("PfcPause",
                            "The data band was paused by a PFC frame from the peer (quanta)",
                            MakeTraceSourceAccessor(&DcnQueueDisc::m_pfcPauseTrace),
                            "ns3::DcnQueueDisc::PfcTracedCallback")
            .AddTraceSource("PfcResume",
                            "The data band resumed (XON frame or pause expiry; quanta 0)",
                            MakeTraceSourceAccessor(&DcnQueueDisc::m_pfcResumeTrace),
                            "ns3::DcnQueueDisc::PfcTracedCallback")
            .AddTraceSource("PfcSent",
                            "This port sent a PFC frame to its peer (quanta; 0 = XON)",
                            MakeTraceSourceAccessor(&DcnQueueDisc::m_pfcSentTrace),
                            "ns3::DcnQueueDisc::PfcTracedCallback")
            .AddTraceSource("PfcWatchdog",
                            "A pause was held longer than PfcWatchdog (time held so far)",
                            MakeTraceSourceAccessor(&DcnQueueDisc::m_pfcWatchdogTrace),
                            "ns3::DcnQueueDisc::PfcWatchdogTracedCallback")
            .AddTraceSource("DcnEnqueue",
                            "A packet entered a band (item, band 0=high 1=low)",
                            MakeTraceSourceAccessor(&DcnQueueDisc::m_enqueueTrace),
                            "ns3::DcnQueueDisc::EnqueueTracedCallback")
            .AddTraceSource("DcnMark",
                            "A packet was CE-marked (item, marking probability)",
                            MakeTraceSourceAccessor(&DcnQueueDisc::m_markTrace),
                            "ns3::DcnQueueDisc::MarkTracedCallback")
            .AddTraceSource("DcnTrim",
                            "A DATA packet was trimmed (original item, trimmed item)",
                            MakeTraceSourceAccessor(&DcnQueueDisc::m_trimTrace),
                            "ns3::DcnQueueDisc::TrimTracedCallback")
            .AddTraceSource("DcnDrop",
                            "A packet was dropped for lack of space (congestion drop)",
                            MakeTraceSourceAccessor(&DcnQueueDisc::m_dropTrace),
                            "ns3::QueueDiscItem::TracedCallback")
            .AddTraceSource("DcnBlackholeDrop",
                            "A packet was dropped by an injected black hole at this egress",
                            MakeTraceSourceAccessor(&DcnQueueDisc::m_blackholeTrace),
                            "ns3::QueueDiscItem::TracedCallback");
    return tid;
}

DcnQueueDisc::DcnQueueDisc()
    : QueueDisc(QueueDiscSizePolicy::NO_LIMITS),
      m_rng(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

DcnQueueDisc::~DcnQueueDisc()
{
    NS_LOG_FUNCTION(this);
}

void
DcnQueueDisc::SetDataLimit(QueueSize s)
{
    NS_LOG_FUNCTION(this << s);
    m_dataLimit = s;
    m_dataInBytes = s.GetUnit() == QueueSizeUnit::BYTES;
    m_dataLimitValue = s.GetValue();
    UpdateThresholds();
}

void
DcnQueueDisc::UpdateThresholds()
{
    if (m_kminPerGbps > 0 && m_portBps > 0 && m_dataInBytes)
    {
        // [A]'s per-rate ecnParaMap: absolute bytes, not a share of the drop-tail limit;
        // a degraded link (SetRateScale) scales them as it scales DataLimit
        const double gbps = m_portBps / 1e9 * m_rateScale;
        m_kmin = static_cast<double>(m_kminPerGbps) * gbps;
        m_kmax = static_cast<double>(m_kmaxPerGbps) * gbps;
        return;
    }
    m_kmin = m_kminFrac * m_dataLimit.GetValue();
    m_kmax = m_kmaxFrac * m_dataLimit.GetValue();
}

void
DcnQueueDisc::SetHighLimit(QueueSize s)
{
    NS_LOG_FUNCTION(this << s);
    m_highLimit = s;
    m_highInBytes = s.GetUnit() == QueueSizeUnit::BYTES;
    m_highLimitValue = s.GetValue();
}

uint32_t
DcnQueueDisc::BandBytes(int b) const
{
    return m_ownBand[b] ? m_ownBand[b]->Bytes() : m_band[b]->GetNBytes();
}

uint32_t
DcnQueueDisc::BandPackets(int b) const
{
    return m_ownBand[b] ? m_ownBand[b]->Packets() : m_band[b]->GetNPackets();
}

int64_t
DcnQueueDisc::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_rng->SetStream(stream);
    return 1;
}

DcnQueueDisc::Band
DcnQueueDisc::Classify(Ptr<const QueueDiscItem> item)
{
    const Ipv4QueueDiscItem* ip = dcnfast::AsIpv4(PeekPointer(item));
    if (!ip)
    {
        return LOW;
    }
    const Ipv4Header& h = ip->GetHeader();
    if (h.GetProtocol() == DcnPfcFrame::IP_PROTOCOL)
    {
        return HIGH; // PFC frames are never paused and go ahead of data
    }
    Ptr<const Packet> p = item->GetPacket();
    uint8_t b[13];
    if (h.GetProtocol() == 17)
    {
        if (p->GetSize() < 10)
        {
            return LOW;
        }
        p->CopyData(b, 10);
        uint16_t dport = static_cast<uint16_t>((b[2] << 8) | b[3]);
        if (dport == DcnTcpShimHeader::UDP_PORT)
        {
            // TCP through the shim (issue 17): probe replies and pure ACKs / control
            // segments in the high band (Hermes spec 2.1), data and probes in the low band
            constexpr uint32_t tcpAt = 8 + DcnTcpShimHeader::SIZE;
            uint8_t s[tcpAt + 13];
            if (p->GetSize() < tcpAt || p->CopyData(s, tcpAt + 13) < tcpAt)
            {
                return LOW;
            }
            if (s[8] & DcnTcpShimHeader::FLAG_PROBE_REPLY)
            {
                return HIGH;
            }
            if (s[8] & DcnTcpShimHeader::FLAG_PROBE || p->GetSize() < tcpAt + 13)
            {
                return LOW;
            }
            return p->GetSize() <= tcpAt + (s[tcpAt + 12] >> 4) * 4u ? HIGH : LOW;
        }
        if (dport != DcnHeader::UDP_PORT)
        {
            return LOW;
        }
        if (b[8] == DcnHeader::PROBE)
        {
            return LOW; // probes travel with the data they measure (laps spec 1.4 [R])
        }
        return (b[8] != DcnHeader::DATA || (b[9] & DcnHeader::FLAG_TRIMMED)) ? HIGH : LOW;
    }
    if (h.GetProtocol() == 6 && p->GetSize() >= 13)
    {
        p->CopyData(b, 13);
        uint32_t hdrLen = (b[12] >> 4) * 4u;
        return p->GetSize() <= hdrLen ? HIGH : LOW; // pure ACK / control segment
    }
    return LOW;
}

bool
DcnQueueDisc::IsData(Ptr<const QueueDiscItem> item)
{
    const Ipv4QueueDiscItem* ip = dcnfast::AsIpv4(PeekPointer(item));
    if (!ip)
    {
        return false;
    }
    Ptr<const Packet> p = item->GetPacket();
    uint8_t b[13];
    const uint8_t proto = ip->GetHeader().GetProtocol();
    if (proto == 17)
    {
        if (p->GetSize() < 9)
        {
            return false;
        }
        p->CopyData(b, 9);
        const uint16_t dport = static_cast<uint16_t>((b[2] << 8) | b[3]);
        if (dport == DcnTcpShimHeader::UDP_PORT)
        {
            // TCP through the shim (every TCP segment in the fabric): a data segment is
            // neither a probe nor a probe reply and carries payload beyond the TCP header
            constexpr uint32_t tcpAt = 8 + DcnTcpShimHeader::SIZE;
            uint8_t s[tcpAt + 13];
            if (p->GetSize() < tcpAt + 13 || p->CopyData(s, tcpAt + 13) < tcpAt + 13 ||
                (s[8] & (DcnTcpShimHeader::FLAG_PROBE | DcnTcpShimHeader::FLAG_PROBE_REPLY)))
            {
                return false;
            }
            return p->GetSize() > tcpAt + (s[tcpAt + 12] >> 4) * 4u;
        }
        return dport == DcnHeader::UDP_PORT && b[8] == DcnHeader::DATA;
    }
    if (proto == 6 && p->GetSize() >= 13)
    {
        p->CopyData(b, 13);
        return p->GetSize() > (b[12] >> 4) * 4u; // a segment with payload
    }
    return false;
}

void
DcnQueueDisc::SetBlackhole(bool on, bool dataOnly)
{
    NS_LOG_FUNCTION(this << on << dataOnly);
    int32_t& n = dataOnly ? m_bhData : m_bhAll;
    n += on ? 1 : -1;
    n = n < 0 ? 0 : n;
}

void
DcnQueueDisc::SetRateScale(double f, uint32_t frameBytes)
{
    NS_LOG_FUNCTION(this << f << frameBytes);
    NS_ABORT_MSG_IF(!(f > 0), "DcnQueueDisc::SetRateScale: factor=" << f << "; allowed > 0");
    if (!m_baseLimitSet)
    {
        m_baseLimit = m_dataLimit;
        m_baseLimitSet = true;
    }
    m_rateScale = f;
    const double base = m_baseLimit.GetValue();
    const double twoFrames = m_baseLimit.GetUnit() == QueueSizeUnit::BYTES
                                 ? 2.0 * std::max<uint32_t>(frameBytes, 1)
                                 : 2.0;
    const double v = std::max(std::round(base * f), std::min(twoFrames, base));
    NS_LOG_LOGIC("limit " << base << " x " << f << " -> " << v);
    SetDataLimit(QueueSize(m_baseLimit.GetUnit(), static_cast<uint32_t>(v)));
}

double
DcnQueueDisc::MarkProbability(uint32_t occ) const
{
    if (occ <= m_kmin)
    {
        return (m_kmax <= m_kmin && occ > m_kmin) ? 1.0 : 0.0;
    }
    if (occ >= m_kmax)
    {
        return 1.0;
    }
    return m_pmax * ((occ - m_kmin) / (m_kmax - m_kmin));
}

uint32_t
DcnQueueDisc::GetDataBytes() const
{
    return GetNInternalQueues() > 1 ? GetInternalQueue(LOW)->GetNBytes() : 0;
}

uint32_t
DcnQueueDisc::GetHighBytes() const
{
    return GetNInternalQueues() > 1 ? GetInternalQueue(HIGH)->GetNBytes() : 0;
}

uint32_t
DcnQueueDisc::DataOccupancy() const
{
    return m_dataInBytes ? BandBytes(LOW) : BandPackets(LOW);
}

bool
DcnQueueDisc::FitsData(Ptr<const QueueDiscItem> item) const
{
    if (m_dataInBytes)
    {
        return BandBytes(LOW) + item->GetSize() <= m_dataLimitValue;
    }
    return BandPackets(LOW) + 1 <= m_dataLimitValue;
}

bool
DcnQueueDisc::FitsHigh(Ptr<const QueueDiscItem> item) const
{
    if (m_highInBytes)
    {
        return BandBytes(HIGH) + item->GetSize() <= m_highLimitValue;
    }
    return BandPackets(HIGH) + 1 <= m_highLimitValue;
}

void
DcnQueueDisc::MaybeMark(Ptr<QueueDiscItem> item, uint32_t occ)
{
    if (!m_ecn || occ <= m_kmin)
    {
        return;
    }
    double prob = MarkProbability(occ);
    if (prob >= 1.0 || m_rng->GetValue() < prob)
    {
        // QueueDisc::Mark: CE on ECT packets, ns-3's mark statistics and "Mark" trace.
        if (Mark(item, ECN_MARK))
        {
            NS_LOG_LOGIC("marked at occupancy " << occ << " (p=" << prob << ")");
            ++m_nMarked;
            m_markTrace(item, prob);
        }
    }
}

Ptr<QueueDiscItem>
DcnQueueDisc::Trim(Ptr<QueueDiscItem> item) const
{
    const Ipv4QueueDiscItem* ip = dcnfast::AsIpv4(PeekPointer(item));
    Ptr<Packet> copy = item->GetPacket()->Copy();
    UdpHeader udp;
    copy->RemoveHeader(udp);
    DcnHeader dcn;
    copy->RemoveHeader(dcn);
    dcn.flags |= DcnHeader::FLAG_TRIMMED;
    Ptr<Packet> t = Create<Packet>();
    t->AddHeader(dcn);
    UdpHeader u2; // fresh header: length is recomputed from the trimmed size
    u2.SetSourcePort(udp.GetSourcePort());
    u2.SetDestinationPort(udp.GetDestinationPort());
    t->AddHeader(u2);
    Ipv4Header h = ip->GetHeader();
    h.SetPayloadSize(t->GetSize());
    return Create<dcnfast::Ipv4Item>(t, ip->GetAddress(), ip->GetProtocol(), h);
}

void
DcnQueueDisc::DropCongestion(Ptr<QueueDiscItem> item, const char* reason)
{
    ++m_nDropped;
    m_dropTrace(item);
    DropBeforeEnqueue(item, reason);
}

bool
DcnQueueDisc::Overflow(Ptr<QueueDiscItem> item)
{
    if (m_overflow == DROP_ARRIVAL_OR_LAST && BandPackets(LOW) > 0 && m_rng->GetValue() >= 0.5)
    {
        Ptr<QueueDiscItem> last = m_ownBand[LOW]->RemoveLast();
        ReleaseData(last, false);
        NS_LOG_LOGIC("data band full: dropped the last enqueued packet " << last);
        ++m_nDropped;
        ++m_nLastDropped;
        m_dropTrace(last);
        if (FitsData(item))
        {
            if (!m_markAtDequeue)
            {
                MaybeMark(item, DataOccupancy());
            }
            EnqueueData(item, DcnSwitchBuffer::NO_PORT);
            return true;
        }
    }
    NS_LOG_LOGIC("data band full: dropped");
    DropCongestion(item, DROP_DATA_FULL);
    return false;
}

bool
DcnQueueDisc::DoEnqueue(Ptr<QueueDiscItem> item)
{
    NS_LOG_FUNCTION(this << item);
    if ((m_bhAll > 0 || m_bhData > 0) && (m_bhAll > 0 || IsData(item)))
    {
        NS_LOG_LOGIC("black hole: dropped");
        ++m_nBlackholed;
        m_blackholeTrace(item);
        DropBeforeEnqueue(item, DROP_BLACKHOLE);
        return false;
    }
    Band band = Classify(item);
    if (band == LOW)
    {
        // Shared switch buffer (issue 12): admission by the buffer under the
        // ingress port the switch set for this packet; else DataLimit.
        uint16_t idx = DcnSwitchBuffer::NO_PORT;
        bool viaBuffer = false;
        bool fits;
        if (m_buffer && m_buffer->GetCurrentIngress() != DcnSwitchBuffer::NO_PORT)
        {
            viaBuffer = true;
            idx = m_buffer->Admit(m_buffer->GetCurrentIngress(), m_port, item->GetSize());
            fits = idx != DcnSwitchBuffer::NO_PORT;
        }
        else
        {
            fits = m_lossless || FitsData(item);
        }
        if (!fits)
        {
            bool trimmable = false;
            if (m_trim)
            {
                const Ipv4QueueDiscItem* ip = dcnfast::AsIpv4(PeekPointer(item));
                // Classify() returned LOW: UDP/4791 DATA (or PROBE, never trimmed).
                if (ip && ip->GetHeader().GetProtocol() == 17 &&
                    item->GetPacket()->GetSize() >= 8 + DcnHeader::BASE_SIZE)
                {
                    uint8_t b[9];
                    item->GetPacket()->CopyData(b, 9);
                    trimmable = ((b[2] << 8) | b[3]) == DcnHeader::UDP_PORT &&
                                b[8] == DcnHeader::DATA; // not a probe
                }
            }
            if (trimmable)
            {
                Ptr<QueueDiscItem> t = Trim(item);
                if (FitsHigh(t))
                {
                    NS_LOG_LOGIC("data band full: trimmed to " << t->GetSize() << " B");
                    ++m_nTrimmed;
                    m_trimTrace(item, t);
                    // Keep QueueDisc's statistics consistent (received = dropped + enqueued,
                    // in packets and bytes): the full packet counts as dropped with reason
                    // TRIMMED and the trimmed header is received through Enqueue().
                    DropBeforeEnqueue(item, TRIMMED);
                    Enqueue(t);
                    return false;
                }
            }
            if (viaBuffer)
            {
                NS_LOG_LOGIC("shared buffer threshold: dropped");
                ++m_nBufferDropped;
                DropCongestion(item, DROP_BUFFER);
                return false;
            }
            return Overflow(item);
        }
        if (!m_markAtDequeue)
        {
            MaybeMark(item, DataOccupancy());
        }
        EnqueueData(item, idx);
        return true;
    }
    if (!FitsHigh(item))
    {
        NS_LOG_LOGIC("high band full: dropped");
        DropCongestion(item, DROP_HIGH_FULL);
        return false;
    }
    m_band[HIGH]->Enqueue(item);
    ++m_nEnqueued;
    m_enqueueTrace(item, HIGH);
    return true;
}

void
DcnQueueDisc::SetTransmitHook(Callback<void, Ptr<QueueDiscItem>> hook)
{
    NS_LOG_FUNCTION(this);
    m_txHook = hook;
}

void
DcnQueueDisc::SetIntIdentity(uint16_t switchId, uint16_t port, DataRate rate)
{
    NS_LOG_FUNCTION(this << switchId << port << rate);
    m_int.SetIdentity(switchId, port, rate);
    m_portBps = static_cast<double>(rate.GetBitRate());
    UpdateThresholds();
}

void
DcnQueueDisc::SetKickCallback(Callback<void> kick)
{
    NS_LOG_FUNCTION(this);
    m_kick = kick;
}

void
DcnQueueDisc::Kick()
{
    NS_LOG_FUNCTION(this);
    if (!m_kick.IsNull())
    {
        m_kick();
        return;
    }
    Run();
}

Ptr<QueueDiscItem>
DcnQueueDisc::DoDequeue()
{
    NS_LOG_FUNCTION(this);
    // (an empty band is not asked: Queue::Dequeue would only return nullptr)
    Ptr<QueueDiscItem> item = BandPackets(HIGH) > 0 ? m_band[HIGH]->Dequeue() : nullptr;
    if (!item && !m_dataPaused && BandPackets(LOW) > 0) // a PFC-paused data band holds its packets
    {
        item = m_band[LOW]->Dequeue();
        if (item && m_buffer)
        {
            ReleaseData(item, true);
        }
        if (item && m_markAtDequeue)
        {
            MaybeMark(item, DataOccupancy());
        }
    }
    if (item)
    {
        // INT stamp (issue 12): queue length of both bands after this dequeue
        m_int.OnDequeue(item, BandBytes(HIGH) + BandBytes(LOW), m_intEnabled);
    }
    if (item && m_hostNic)
    {
        NicStamp(item);
    }
    if (item && !m_txHook.IsNull())
    {
        m_txHook(item);
    }
    return item;
}

void
DcnQueueDisc::NicStamp(Ptr<QueueDiscItem> item)
{
    const Ipv4QueueDiscItem* ip = dcnfast::AsIpv4(PeekPointer(item));
    Ptr<Packet> p = item->GetPacket();
    constexpr uint32_t shimEnd = 8 + DcnTcpShimHeader::SIZE;
    uint8_t b[9];
    if (!ip || ip->GetHeader().GetProtocol() != 17 || p->GetSize() < shimEnd ||
        p->CopyData(b, 9) < 9 || ((b[2] << 8) | b[3]) != DcnTcpShimHeader::UDP_PORT ||
        !(b[8] & DcnTcpShimHeader::FLAG_NIC_STAMP))
    {
        return;
    }
    // the sender senses the path only (PathSelector::PathOnlySensing): the send time is
    // when the packet leaves the host, and a CE on it now was set by this queue (the stack
    // only sets ECT), so it is flagged as the host's
    UdpHeader udp;
    p->RemoveHeader(udp);
    DcnTcpShimHeader sh;
    p->RemoveHeader(sh);
    sh.txTimeNs = Simulator::Now().GetNanoSeconds();
    if (ip->GetHeader().GetEcn() == Ipv4Header::ECN_CE)
    {
        sh.flags |= DcnTcpShimHeader::FLAG_HOST_CE;
    }
    p->AddHeader(sh);
    p->AddHeader(udp);
    ++m_nNicStamped;
}

bool
DcnQueueDisc::CheckConfig()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(GetNQueueDiscClasses() > 0 || GetNPacketFilters() > 0,
                    "DcnQueueDisc: classes/filters not supported (it classifies by header bytes)");
    // KminFraction / KmaxFraction in [0, 1]: bounded checkers
    DCN_REFUSE_IF(m_dataLimit.GetValue() == 0,
                  "option --ns3::DcnQueueDisc::DataLimit: value '" << m_dataLimit
                                                                   << "'; allowed: > 0");
    DCN_REFUSE_IF(m_highLimit.GetValue() == 0,
                  "option --ns3::DcnQueueDisc::HighLimit: value '" << m_highLimit
                                                                   << "'; allowed: > 0");
    DCN_REFUSE_IF(m_kminFrac > m_kmaxFrac,
                  "option --ns3::DcnQueueDisc::KminFraction: value '"
                      << m_kminFrac << "' is above KmaxFraction " << m_kmaxFrac
                      << "; allowed: KminFraction <= KmaxFraction");
    DCN_REFUSE_IF(m_kminPerGbps > m_kmaxPerGbps,
                  "option --ns3::DcnQueueDisc::EcnKminPerGbps: value '"
                      << m_kminPerGbps << "' is above EcnKmaxPerGbps " << m_kmaxPerGbps
                      << "; allowed: EcnKminPerGbps <= EcnKmaxPerGbps");
    DCN_REFUSE_IF(m_kminPerGbps > 0 && !m_dataInBytes,
                  "option --ns3::DcnQueueDisc::EcnKminPerGbps: value '"
                      << m_kminPerGbps << "' needs DataLimit in bytes, not '" << m_dataLimit
                      << "'; allowed: 0 with a DataLimit in packets");
    DCN_REFUSE_IF(m_kmaxPerGbps > 0 && m_kminPerGbps == 0,
                  "option --ns3::DcnQueueDisc::EcnKmaxPerGbps: value '"
                      << m_kmaxPerGbps
                      << "' without EcnKminPerGbps would be ignored (the fractions apply); "
                         "allowed: 0, or with EcnKminPerGbps > 0");
    // a per-rate Kmin at or above the drop-tail limit never marks unless a shared switch
    // buffer admits above DataLimit (PFC, or DcnPfcHelper with SetPfc(false))
    DCN_REFUSE_IF(m_kminPerGbps > 0 && m_portBps > 0 && m_dataInBytes && !m_lossless && !m_buffer &&
                      m_kmin >= m_dataLimitValue,
                  "option --ns3::DcnQueueDisc::EcnKminPerGbps: value '"
                      << m_kminPerGbps << "' gives Kmin " << static_cast<uint64_t>(m_kmin)
                      << " B on a " << m_portBps / 1e9 << " Gb/s port, at or above its DataLimit "
                      << m_dataLimitValue
                      << " B with no shared switch buffer (ECN would never mark); allowed: a "
                         "Kmin below DataLimit, or a switch buffer (PFC, or DcnPfcHelper with "
                         "SetPfc(false))");
    if (GetNInternalQueues() == 0)
    {
        for (int i = 0; i < 2; ++i)
        {
            // Limits are enforced by this queue disc; internal queues are unbounded.
            Ptr<InternalQueue> q = CreateObject<DcnBandQueue>();
            q->SetMaxSize(QueueSize(QueueSizeUnit::PACKETS, 0xffffffffU));
            AddInternalQueue(q);
        }
    }
    NS_ABORT_MSG_IF(GetNInternalQueues() != 2,
                    "DcnQueueDisc: needs exactly 2 internal queues, has " << GetNInternalQueues());
    m_band[HIGH] = PeekPointer(GetInternalQueue(HIGH));
    m_band[LOW] = PeekPointer(GetInternalQueue(LOW));
    m_ownBand[HIGH] = dynamic_cast<DcnBandQueue*>(m_band[HIGH]);
    m_ownBand[LOW] = dynamic_cast<DcnBandQueue*>(m_band[LOW]);
    NS_ABORT_MSG_IF(m_overflow == DROP_ARRIVAL_OR_LAST && !m_ownBand[LOW],
                    "DcnQueueDisc: OverflowPolicy=DropArrivalOrLast needs its own internal "
                    "queues (do not add internal queues)");
    return true;
}

// ---- PFC and the shared switch buffer (issue 12; doc/roce.rst) ----

void
DcnQueueDisc::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_pauseExpiry.Cancel();
    m_refreshEvent.Cancel();
    m_watchdogEvent.Cancel();
    m_watchdogRestoreEvent.Cancel();
    m_buffer = nullptr;
    m_kick = Callback<void>();
    QueueDisc::DoDispose();
}

void
DcnQueueDisc::EnqueueData(Ptr<QueueDiscItem> item, uint16_t bufIdx)
{
    if (m_buffer)
    {
        m_bufIdx->push_back(bufIdx);
    }
    m_band[LOW]->Enqueue(item);
    ++m_nEnqueued;
    m_enqueueTrace(item, LOW);
}

void
DcnQueueDisc::ReleaseData(Ptr<const QueueDiscItem> item, bool front)
{
    if (!m_buffer || m_bufIdx->empty())
    {
        return;
    }
    std::deque<uint16_t>& q = *m_bufIdx;
    const uint16_t idx = front ? q.front() : q.back();
    if (front)
    {
        q.pop_front();
    }
    else
    {
        q.pop_back();
    }
    if (idx != DcnSwitchBuffer::NO_PORT)
    {
        m_buffer->Release(idx, item->GetSize());
    }
}

void
DcnQueueDisc::SetSwitchBuffer(Ptr<DcnSwitchBuffer> buffer, uint16_t port)
{
    NS_LOG_FUNCTION(this << buffer << port);
    NS_ABORT_MSG_IF(m_band[LOW] && m_band[LOW]->GetNPackets() > 0,
                    "DcnQueueDisc::SetSwitchBuffer: attach the buffer before traffic starts");
    m_buffer = buffer;
    m_port = port;
    if (buffer)
    {
        m_bufIdx = std::make_unique<std::deque<uint16_t>>();
    }
    else
    {
        m_bufIdx.reset();
    }
}

void
DcnQueueDisc::SetPfcPort(Ipv4Address self, Ipv4Address peer, DataRate rate, uint8_t priority)
{
    NS_LOG_FUNCTION(this << self << peer << rate << +priority);
    NS_ABORT_MSG_IF(priority > 7,
                    "DcnQueueDisc::SetPfcPort: priority=" << +priority << "; allowed 0..7");
    m_pfcPort = true;
    m_pfcSelf = self;
    m_pfcPeer = peer;
    m_pfcRateBps = static_cast<double>(rate.GetBitRate());
    m_pfcPriority = priority;
}

Time
DcnQueueDisc::GetPausedTime() const
{
    return m_pausedTotal + (m_dataPaused ? Simulator::Now() - m_pauseStart : Time(0));
}

void
DcnQueueDisc::ReceivePause(uint16_t quanta)
{
    NS_LOG_FUNCTION(this << quanta);
    if (!m_pfcPort)
    {
        return;
    }
    if (quanta == 0)
    {
        PfcResume();
        return;
    }
    ++m_nPauseRx;
    if (m_watchdogForwarding)
    {
        ++m_nPauseIgnored; // PfcWatchdogAction=Forward in force
        return;
    }
    const Time d = NanoSeconds(fabcore::PauseQuantaToNs(quanta, m_pfcRateBps));
    if (!m_dataPaused)
    {
        NS_LOG_LOGIC("data band paused for " << quanta << " quanta (" << d << ")");
        m_dataPaused = true;
        m_pauseStart = Simulator::Now();
        m_pfcPauseTrace(quanta);
        if (m_watchdog.IsStrictlyPositive())
        {
            m_watchdogEvent = Simulator::Schedule(m_watchdog, &DcnQueueDisc::PfcWatchdogFire, this);
        }
    }
    m_pauseExpiry.Cancel(); // the time in the latest frame counts (802.1Qbb)
    m_pauseExpiry = Simulator::Schedule(d, &DcnQueueDisc::PfcResume, this);
}

void
DcnQueueDisc::PfcResume()
{
    NS_LOG_FUNCTION(this);
    m_pauseExpiry.Cancel();
    if (!m_dataPaused)
    {
        return;
    }
    m_dataPaused = false;
    m_pausedTotal += Simulator::Now() - m_pauseStart;
    m_watchdogEvent.Cancel();
    m_pfcResumeTrace(0);
    Kick(); // restart the data band
}

void
DcnQueueDisc::PfcWatchdogFire()
{
    NS_LOG_FUNCTION(this);
    if (!m_dataPaused)
    {
        return;
    }
    ++m_nWatchdog;
    const Time held = Simulator::Now() - m_pauseStart;
    std::clog << "warning: PFC watchdog: port " << m_pfcSelf << " -> " << m_pfcPeer
              << " paused for " << held.GetMicroSeconds()
              << " us (> PfcWatchdog); PFC storm or deadlock?"
              << (m_watchdogAction == WATCHDOG_FORWARD ? " Forwarding." : "") << std::endl;
    m_pfcWatchdogTrace(held);
    if (m_watchdogAction == WATCHDOG_FORWARD)
    {
        ++m_nWatchdogForward;
        m_watchdogForwarding = true;
        m_watchdogRestoreEvent.Cancel();
        m_watchdogRestoreEvent =
            Simulator::Schedule(m_watchdogRestore, &DcnQueueDisc::PfcWatchdogRestore, this);
        PfcResume();
    }
}

void
DcnQueueDisc::PfcWatchdogRestore()
{
    NS_LOG_FUNCTION(this);
    m_watchdogForwarding = false; // the next pause frame counts again
}

void
DcnQueueDisc::PausePeer(bool on)
{
    NS_LOG_FUNCTION(this << on);
    if (!m_pfcPort || on == m_pausingPeer)
    {
        return;
    }
    m_pausingPeer = on;
    m_refreshEvent.Cancel();
    // Sent from a fresh event: the XOFF/XON is decided inside another queue
    // disc's enqueue or dequeue, which must not re-enter this one.
    Simulator::ScheduleNow(&DcnQueueDisc::SendPfcFrame, this, on ? uint16_t(0xFFFF) : uint16_t(0));
    if (on)
    {
        const double ns = m_refreshFraction * fabcore::PauseQuantaToNs(0xFFFF, m_pfcRateBps);
        m_refreshEvent = Simulator::Schedule(NanoSeconds(static_cast<int64_t>(ns)),
                                             &DcnQueueDisc::PfcRefresh,
                                             this);
    }
}

void
DcnQueueDisc::PfcRefresh()
{
    NS_LOG_FUNCTION(this);
    if (!m_pausingPeer)
    {
        return;
    }
    SendPfcFrame(0xFFFF);
    const double ns = m_refreshFraction * fabcore::PauseQuantaToNs(0xFFFF, m_pfcRateBps);
    m_refreshEvent =
        Simulator::Schedule(NanoSeconds(static_cast<int64_t>(ns)), &DcnQueueDisc::PfcRefresh, this);
}

void
DcnQueueDisc::SendPfcFrame(uint16_t quanta)
{
    NS_LOG_FUNCTION(this << quanta);
    Ptr<Packet> p = DcnPfcFrame::Make(m_pfcPriority, quanta);
    Ipv4Header h;
    h.SetSource(m_pfcSelf);
    h.SetDestination(m_pfcPeer);
    h.SetProtocol(DcnPfcFrame::IP_PROTOCOL);
    h.SetTtl(1);
    h.SetPayloadSize(p->GetSize());
    if (Node::ChecksumEnabled())
    {
        h.EnableChecksum();
    }
    quanta > 0 ? ++m_nPauseSent : ++m_nResumeSent;
    m_pfcSentTrace(quanta);
    Enqueue(Create<dcnfast::Ipv4Item>(p, Mac48Address::GetBroadcast(), 0x0800, h));
    Kick();
}

void
DcnQueueDisc::InitializeParams()
{
    NS_LOG_FUNCTION(this);
    UpdateThresholds();
}

} // namespace ns3
