/*
 * DcnWorkloadApp: the per-host workload Application (issue 8 item 6, DESIGN.md 3.8).
 *
 * One per host, installed by WorkloadHelper (which holds the plan and its
 * dependency scheduler).  The app starts the messages whose source is its host,
 * on its node's DcnMessageTransport (any transport implementing that
 * interface), with one path selector and congestion control per connection
 * (the scheme), keeps its own per-host FCT records (mergeable across hosts and
 * MPI ranks), and reports completions to the helper, which releases dependent
 * messages.  Message starts are scheduled with the node's context.
 */
#ifndef DCN_WORKLOAD_APP_H
#define DCN_WORKLOAD_APP_H

#include "ns3/application.h"
#include "ns3/dcn-message-transport.h"
#include "ns3/fct-stats.h"

#include <map>
#include <vector>

namespace ns3
{

class WorkloadHelper;

class DcnWorkloadApp : public Application
{
  public:
    static TypeId GetTypeId();
    DcnWorkloadApp();
    ~DcnWorkloadApp() override;

    /** @internal Called by WorkloadHelper::Install. */
    void Init(WorkloadHelper* driver, uint32_t host);

    /** Start plan message id now (its source must be this app's host). */
    void StartMessage(uint32_t id);

    uint32_t GetHost() const
    {
        return m_host;
    }

    /** FCT records of the messages this host sent (completion order). */
    const FctStats& GetStats() const
    {
        return m_stats;
    }

    /** Connections this host opened. */
    uint32_t GetNConnections() const
    {
        return m_nConns;
    }

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    void OnMessageDone(const DcnMessageRecord& r);
    uint32_t GetConnection(uint32_t dst);

    WorkloadHelper* m_driver{nullptr};
    uint32_t m_host{0};
    Ptr<DcnMessageTransport> m_transport;
    std::map<uint32_t, std::vector<uint32_t>> m_conns; //!< dst host -> connection ids
    uint32_t m_nConns{0};
    FctStats m_stats;
};

} // namespace ns3

#endif // DCN_WORKLOAD_APP_H
