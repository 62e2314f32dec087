#include "dcn-switch-buffer.h"

#include "dcn-queue-disc.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/uinteger.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnSwitchBuffer");
NS_OBJECT_ENSURE_REGISTERED(DcnSwitchBuffer);

Ptr<Packet>
DcnPfcFrame::Make(uint8_t prio, uint16_t quanta)
{
    uint8_t b[SIZE] = {};
    b[0] = ETHER_TYPE >> 8;
    b[1] = ETHER_TYPE & 0xFF;
    fabcore::PfcFrame f;
    f.classEnable = static_cast<uint8_t>(1u << (prio & 7));
    f.quanta[prio & 7] = quanta;
    f.Serialize(b + 2); // the remaining 26 bytes stay zero (pad)
    return Create<Packet>(b, SIZE);
}

bool
DcnPfcFrame::Parse(Ptr<const Packet> p, fabcore::PfcFrame& f)
{
    uint8_t b[2 + fabcore::PfcFrame::kSize];
    if (p->GetSize() < sizeof(b) || p->CopyData(b, sizeof(b)) < sizeof(b))
    {
        return false;
    }
    if ((static_cast<uint16_t>(b[0]) << 8 | b[1]) != ETHER_TYPE)
    {
        return false;
    }
    return f.Deserialize(b + 2);
}

TypeId
DcnSwitchBuffer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcnSwitchBuffer")
            .SetParent<Object>()
            .SetGroupName("DcnLb")
            .AddConstructor<DcnSwitchBuffer>()
            .AddAttribute("BufferSize",
                          "Shared packet buffer of the switch, bytes (LAPS spec 4.1 [P]: 32 MB "
                          "per switch)",
                          UintegerValue(32ull << 20),
                          MakeUintegerAccessor(&DcnSwitchBuffer::m_bufferBytes),
                          MakeUintegerChecker<uint64_t>(1000, 1ull << 40))
            .AddAttribute("BufferPerPort",
                          "If > 0, the shared buffer is this many bytes x (ports + 2) instead of "
                          "BufferSize (the LAPS authors' switch MMU, [A] config_switch_mmu: "
                          "mmuSwBufferSizeInMB 32 MiB / 32 x (GetNDevices() + 1), GetNDevices() "
                          "counting the loopback: 1 MiB x (ports + 2); review s44 L8); 0 = "
                          "BufferSize (spec 4.1 [P]); allowed "
                          "0..2^30",
                          UintegerValue(0),
                          MakeUintegerAccessor(&DcnSwitchBuffer::m_bufferPerPort),
                          MakeUintegerChecker<uint64_t>(0, 1ull << 30))
            .AddAttribute("PfcEnabled",
                          "Lossless data priority with PFC: per (ingress port, priority) "
                          "accounting, XOFF/XON pause frames upstream, headroom (LAPS spec 3 "
                          "[P]: PFC on); false: lossy, the dynamic threshold per egress port "
                          "drops",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DcnSwitchBuffer::m_pfc),
                          MakeBooleanChecker())
            .AddAttribute("DynamicThreshold",
                          "Threshold = Alpha x free shared buffer (LAPS spec 3 [A]: PFC uses "
                          "a dynamic threshold); false: StaticThreshold",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DcnSwitchBuffer::m_dynamic),
                          MakeBooleanChecker())
            .AddAttribute("Alpha",
                          "Dynamic-threshold alpha (our choice: 1/8; the LAPS spec gives no "
                          "value; doc/roce.rst)",
                          DoubleValue(1.0 / 8),
                          MakeDoubleAccessor(&DcnSwitchBuffer::m_alpha),
                          MakeDoubleChecker<double>(1.0 / 1024, 64))
            .AddAttribute("StaticThreshold",
                          "XOFF (or drop) threshold in bytes when DynamicThreshold is false "
                          "(our choice)",
                          UintegerValue(256000),
                          MakeUintegerAccessor(&DcnSwitchBuffer::m_staticXoff),
                          MakeUintegerChecker<uint64_t>(1, 1ull << 40))
            .AddAttribute("XonOffset",
                          "XON when a paused queue is this many bytes below the threshold "
                          "(hysteresis; our choice: two 1500-B MTUs)",
                          UintegerValue(3000),
                          MakeUintegerAccessor(&DcnSwitchBuffer::m_xonOffset),
                          MakeUintegerChecker<uint64_t>(0, 1ull << 30))
            .AddAttribute("Headroom",
                          "PFC headroom per (ingress port, priority), bytes; 0 = the formula "
                          "2 x cable delay x rate + rate x ResponseTime + 2 MTU (our choice, "
                          "doc/roce.rst)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&DcnSwitchBuffer::m_headroom),
                          MakeUintegerChecker<uint64_t>(0, 1ull << 30))
            .AddAttribute("ResponseTime",
                          "Upstream reaction time to a pause frame, for the headroom formula "
                          "(our choice)",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&DcnSwitchBuffer::m_response),
                          MakeTimeChecker(Time(0), MilliSeconds(1)))
            .AddAttribute("Priority",
                          "802.1Qbb priority of the data band (our choice: 3, the usual RoCE "
                          "class)",
                          UintegerValue(3),
                          MakeUintegerAccessor(&DcnSwitchBuffer::m_priority),
                          MakeUintegerChecker<uint8_t>(0, 7))
            .AddTraceSource("Xoff",
                            "A queue crossed XOFF: pause sent upstream (accounting port)",
                            MakeTraceSourceAccessor(&DcnSwitchBuffer::m_xoffTrace),
                            "ns3::DcnSwitchBuffer::PortTracedCallback")
            .AddTraceSource("Xon",
                            "A paused queue drained: resume sent upstream (accounting port)",
                            MakeTraceSourceAccessor(&DcnSwitchBuffer::m_xonTrace),
                            "ns3::DcnSwitchBuffer::PortTracedCallback");
    return tid;
}

DcnSwitchBuffer::DcnSwitchBuffer()
{
    NS_LOG_FUNCTION(this);
}

DcnSwitchBuffer::~DcnSwitchBuffer()
{
    NS_LOG_FUNCTION(this);
}

void
DcnSwitchBuffer::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_ports.clear();
    Object::DoDispose();
}

std::string
DcnSwitchBuffer::Configure(uint32_t nPorts, double linkRateBps, Time cableDelay, uint32_t mtu)
{
    NS_LOG_FUNCTION(this << nPorts << linkRateBps << cableDelay << mtu);
    if (m_bufferPerPort > 0)
    {
        // nPorts counts the IPv4 interfaces, the loopback (0) included, as [A]'s
        // GetNDevices() does (its port loop starts at 1): [A]'s GetNDevices() + 1 = ports + 2
        m_bufferBytes = m_bufferPerPort * (static_cast<uint64_t>(nPorts) + 1);
    }
    fabcore::PfcConfig c;
    c.bufferBytes = m_bufferBytes;
    c.numPorts = static_cast<uint16_t>(nPorts);
    c.numPriorities = 8;
    c.losslessMask = m_pfc ? static_cast<uint8_t>(1u << m_priority) : 0;
    c.pfcEnabled = m_pfc;
    c.dynamicThreshold = m_dynamic;
    c.alpha = m_alpha;
    c.staticXoffBytes = m_staticXoff;
    c.xonOffsetBytes = m_xonOffset;
    c.reservedBytes = 0;
    c.headroomBytes = m_headroom;
    c.linkRateBps = linkRateBps;
    c.cableDelayNs = cableDelay.GetNanoSeconds();
    c.mtuBytes = mtu;
    c.responseNs = m_response.GetNanoSeconds();
    m_ports.assign(nPorts, nullptr);
    if (nPorts == 0 || nPorts >= NO_PORT || !m_core.Configure(c))
    {
        const uint64_t hr =
            m_headroom > 0
                ? m_headroom
                : fabcore::PfcHeadroomBytes(linkRateBps, c.cableDelayNs, mtu, c.responseNs);
        // one line naming the attribute that sized the buffer, its value and the least
        // value that holds the headroom (fixed = ports x lossless headroom < buffer)
        const uint64_t fixed = static_cast<uint64_t>(nPorts) * (m_pfc ? hr : 0);
        std::ostringstream os;
        if (m_bufferPerPort > 0)
        {
            const uint64_t slots = static_cast<uint64_t>(nPorts) + 1;
            os << "option --ns3::DcnSwitchBuffer::BufferPerPort: value '" << m_bufferPerPort
               << "' gives " << m_bufferPerPort << " x (" << nPorts
               << " interfaces + 1) = " << m_bufferBytes << " B, below the PFC headroom of "
               << nPorts << " x " << hr << " B; allowed: >= " << fixed / slots + 1;
        }
        else
        {
            os << "option --ns3::DcnSwitchBuffer::BufferSize: value '" << m_bufferBytes
               << "' cannot hold the PFC headroom of " << nPorts << " x " << hr
               << " B; allowed: >= " << fixed + 1;
        }
        return os.str();
    }
    return "";
}

void
DcnSwitchBuffer::SetPortQueue(uint32_t port, Ptr<DcnQueueDisc> q)
{
    NS_LOG_FUNCTION(this << port << q);
    NS_ABORT_MSG_IF(port >= m_ports.size(),
                    "DcnSwitchBuffer::SetPortQueue: port " << port << " >= " << m_ports.size()
                                                           << " (Configure first)");
    m_ports[port] = PeekPointer(q);
}

uint16_t
DcnSwitchBuffer::Admit(uint16_t ingress, uint16_t egress, uint32_t bytes)
{
    NS_LOG_FUNCTION(this << ingress << egress << bytes);
    const uint16_t idx = m_pfc ? ingress : egress;
    const fabcore::PfcAdmit r = m_core.OnEnqueue(idx, m_priority, bytes);
    if (r.signal == fabcore::PfcSignal::XOFF)
    {
        NS_LOG_LOGIC("XOFF on port " << idx);
        ++m_nXoff;
        m_xoffTrace(idx);
        if (idx < m_ports.size() && m_ports[idx])
        {
            m_ports[idx]->PausePeer(true);
        }
    }
    return r.admitted ? idx : NO_PORT;
}

void
DcnSwitchBuffer::Release(uint16_t idx, uint32_t bytes)
{
    NS_LOG_FUNCTION(this << idx << bytes);
    if (m_core.OnDequeue(idx, m_priority, bytes) == fabcore::PfcSignal::XON)
    {
        NS_LOG_LOGIC("XON on port " << idx);
        ++m_nXon;
        m_xonTrace(idx);
        if (idx < m_ports.size() && m_ports[idx])
        {
            m_ports[idx]->PausePeer(false);
        }
    }
}

uint64_t
DcnSwitchBuffer::GetPortBytes(uint16_t port) const
{
    return port < m_ports.size() ? m_core.GetBytes(port, m_priority) : 0;
}

} // namespace ns3
