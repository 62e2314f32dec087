/*
 * Per-port statistics of any DcnTopology (DESIGN.md section 3.8,
 * REPS spec 3.5: per-port utilisation in 20 us buckets, queue size over time).
 *
 * Every Interval, for every switch port (and host NIC if IncludeHosts): bytes
 * sent in the interval, utilisation, queue-disc backlog (bytes), and the marks,
 * trims and congestion drops of the interval.  Rows go to a CSV file (if
 * set) and to the "Sample" trace source (custom probes: connect to it, or use
 * GetPorts() with your own trace sinks).
 *
 * CSV columns: time_s,node,tier,if,link,tx_bytes,util,queue_bytes,marks,trims,drops,
 * pauses_tx,pauses_rx,paused_frac (PFC, doc/roce.rst: pause frames with non-zero
 * quanta sent / received in the interval, fraction of the interval the port's
 * data band was paused).
 */
#ifndef DCN_PORT_STATS_HELPER_H
#define DCN_PORT_STATS_HELPER_H

#include "ns3/dcn-queue-disc.h"
#include "ns3/dcn-topology.h"
#include "ns3/fat-tree-helper.h" // source compatibility: callers used it through this header
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <fstream>
#include <string>
#include <vector>

namespace ns3
{

/** One port. */
struct DcnPortInfo
{
    Ptr<Node> node;
    int32_t tier{0};
    uint32_t ifIndex{0};
    uint32_t linkId{0};
    Ptr<PointToPointNetDevice> device;
    Ptr<DcnQueueDisc> qdisc;
};

/** One sample of one port (interval deltas except queueBytes, which is instantaneous). */
struct DcnPortSample
{
    Time time;
    uint32_t port{0}; //!< index into PortStatsHelper::GetPorts()
    uint64_t txBytes{0};
    double utilisation{0};
    uint32_t queueBytes{0};
    uint64_t marks{0};
    uint64_t trims{0};
    uint64_t drops{0};
    uint64_t pausesTx{0};     //!< PFC frames with non-zero quanta sent by this port
    uint64_t pausesRx{0};     //!< PFC pause frames received (this port's data band paused)
    double pausedFraction{0}; //!< of the interval, the data band was paused
};

class PortStatsHelper : public Object
{
  public:
    static TypeId GetTypeId();
    PortStatsHelper();
    ~PortStatsHelper() override;

    /** Attach to a built fabric and schedule sampling from \p start to \p stop. */
    void Install(Ptr<DcnTopology> fabric, Time start, Time stop);

    /** Index into GetPorts() of the port at end \p upperEnd of the link named \p name
     *  (false = DcnLinkInfo::a's end); aborts with a clear line if unknown. */
    uint32_t FindPort(const std::string& linkName, bool upperEnd) const;

    const std::vector<DcnPortInfo>& GetPorts() const
    {
        return m_ports;
    }

    /** Total bytes sent by port \p i since Install. */
    uint64_t GetTxBytes(uint32_t i) const
    {
        return m_tx[i];
    }

    typedef void (*SampleCallback)(const DcnPortSample&);

  protected:
    void DoDispose() override;

  private:
    void OnTx(uint32_t port, Ptr<const Packet> p);
    void Sample();

    Ptr<DcnTopology> m_topology;
    Time m_interval;
    std::string m_file;
    bool m_includeHosts;
    Time m_stop;
    std::vector<DcnPortInfo> m_ports;
    std::vector<uint64_t> m_tx;
    std::vector<uint64_t> m_lastTx;
    std::vector<uint64_t> m_lastMarks;
    std::vector<uint64_t> m_lastTrims;
    std::vector<uint64_t> m_lastDrops;
    std::vector<uint64_t> m_lastPauseTx;
    std::vector<uint64_t> m_lastPauseRx;
    std::vector<Time> m_lastPaused;
    std::ofstream m_out;
    TracedCallback<const DcnPortSample&> m_sampleTrace;
};

} // namespace ns3

#endif // DCN_PORT_STATS_HELPER_H
