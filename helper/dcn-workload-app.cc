#include "dcn-workload-app.h"

#include "workload-helper.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnWorkloadApp");
NS_OBJECT_ENSURE_REGISTERED(DcnWorkloadApp);

TypeId
DcnWorkloadApp::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DcnWorkloadApp")
                            .SetParent<Application>()
                            .SetGroupName("DcnLb")
                            .AddConstructor<DcnWorkloadApp>();
    return tid;
}

DcnWorkloadApp::DcnWorkloadApp()
{
    NS_LOG_FUNCTION(this);
}

DcnWorkloadApp::~DcnWorkloadApp() = default;

void
DcnWorkloadApp::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_driver = nullptr;
    m_transport = nullptr;
    m_conns.clear();
    Application::DoDispose();
}

void
DcnWorkloadApp::Init(WorkloadHelper* driver, uint32_t host)
{
    NS_LOG_FUNCTION(this << host);
    m_driver = driver;
    m_host = host;
    m_transport = GetNode()->GetObject<DcnMessageTransport>();
    NS_ABORT_MSG_IF(!m_transport,
                    "DcnWorkloadApp: host " << host
                                            << " has no message transport (install "
                                               "DcnTransportHelper first)");
}

void
DcnWorkloadApp::StartApplication()
{
    NS_LOG_FUNCTION(this);
}

void
DcnWorkloadApp::StopApplication()
{
    NS_LOG_FUNCTION(this);
}

uint32_t
DcnWorkloadApp::GetConnection(uint32_t dst)
{
    auto& pool = m_conns[dst];
    switch (m_driver->GetConnectionPolicy())
    {
    case WorkloadHelper::ONE_PER_PAIR:
        if (!pool.empty())
        {
            return pool.front();
        }
        break;
    case WorkloadHelper::REUSE_IDLE:
        for (uint32_t c : pool)
        {
            if (m_transport->GetPendingMessages(c) == 0)
            {
                return c;
            }
        }
        break;
    case WorkloadHelper::NEW_PER_MESSAGE:
        break;
    }
    auto parts = m_driver->CreateConnectionParts(m_host);
    DcnConnectionParams p = m_driver->GetConnectionParams(m_host, dst);
    uint32_t c =
        m_transport->OpenConnection(m_driver->GetHostAddress(dst), parts.first, parts.second, p);
    NS_LOG_INFO("host " << m_host << " opened connection " << c << " to host " << dst);
    pool.push_back(c);
    m_nConns++;
    return c;
}

void
DcnWorkloadApp::StartMessage(uint32_t id)
{
    NS_LOG_FUNCTION(this << id);
    const WorkloadMessage& m = m_driver->GetPlan().messages[id];
    NS_ASSERT(m.src == m_host);
    m_driver->NotifyStarted(id);
    uint32_t c = GetConnection(m.dst);
    m_transport->PostMessage(c, m.bytes, MakeCallback(&DcnWorkloadApp::OnMessageDone, this), id);
}

void
DcnWorkloadApp::OnMessageDone(const DcnMessageRecord& r)
{
    NS_LOG_FUNCTION(this << r.userTag);
    const uint32_t id = static_cast<uint32_t>(r.userTag);
    FctRecord f = m_driver->MakeRecord(id, r);
    m_stats.Add(f);
    m_driver->NotifyComplete(id, f);
}

} // namespace ns3
