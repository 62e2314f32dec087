/*
 * Sender-side measurements of the LAPS reproduction (laps-paper --pathStats,
 * doc/laps.rst "Inter-packet gaps, path classes and AllScatter"), from the
 * "Tx" trace of every host's DcnTransport (every data packet the host sends,
 * retransmissions included, at the time the transport hands it to its NIC):
 *
 *  - inter-packet gaps (paper Fig. 18): per connection (source host, connId),
 *    the time between consecutive data packets of the same message (msgId); a
 *    packet of another message restarts the connection's clock, so the idle
 *    time between two messages of a reused connection is not a gap.  Counts,
 *    the fraction above GapThreshold (default 50 us, the flowlet threshold the
 *    paper quotes), mean and max.
 *  - data packets per (source host, LAPS pid) from the header's pathId, and
 *    from them the path-class shares of spec 5 / Fig. 19 (PathClasses): a
 *    class is a path's length in switches among the destination's LAPS paths
 *    (the host's LapsHostTable, DcnLbSharedState key "laps").
 *
 * O(1) per packet: per host a vector indexed by connId and one by pid (grown
 * when a new connection or pid appears).  Measurement only: the monitor reads
 * the trace and changes nothing in the simulation.
 */
#ifndef DCN_LAPS_TX_MONITOR_H
#define DCN_LAPS_TX_MONITOR_H

#include "ns3/dcn-header.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class LapsTxMonitor : public Object
{
  public:
    static TypeId GetTypeId();
    LapsTxMonitor();
    ~LapsTxMonitor() override;

    /** Connect to the DcnTransport "Tx" trace of every host (host index = index in hosts). */
    void Install(NodeContainer hosts);

    /** Gaps between consecutive data packets of a message on one connection. */
    uint64_t GetGaps() const
    {
        return m_gaps;
    }

    /** Gaps strictly above GapThreshold. */
    uint64_t GetGapsAbove() const
    {
        return m_above;
    }

    double GetFractionAbove() const
    {
        return m_gaps ? double(m_above) / m_gaps : 0.0;
    }

    double GetMeanGapUs() const
    {
        return m_gaps ? m_sumNs / m_gaps / 1e3 : 0.0;
    }

    double GetMaxGapUs() const
    {
        return m_maxNs / 1e3;
    }

    /** Quantile q in [0, 1] of the gaps (the smallest gap with at least q of the gaps at
     *  or below it): exact to the ns below 131,072 ns, above that the lower edge of a
     *  bin 2^(1/16) wide (4.4 %).  0 without gaps. */
    double GetGapQuantileUs(double q) const;

    /** Data packets sent (every host). */
    uint64_t GetPackets() const
    {
        return m_packets;
    }

    /** Data packets host (index in the installed container) sent with LAPS pid pid. */
    uint64_t GetPidPackets(uint32_t host, uint32_t pid) const;

    /** One path class (spec 5, Fig. 19) aggregated over (source, destination) pairs. */
    struct PathClass
    {
        uint32_t switches{0}; //!< path length in switches (the class)
        uint64_t paths{0};    //!< paths of this class, summed over the pairs counted
        uint64_t packets{0};  //!< data packets on them
        uint32_t pairs{0};    //!< pairs with a path of this class
        /** Normalised share (spec 5 [R]): packets on the class / the packets uniform
         *  spraying would put there, sum over pairs of (pair's packets x the pair's paths
         *  in the class / the pair's paths).  For one pair: (fraction of its packets on the
         *  class) / (fraction of its paths in the class); over several pairs the ratio of
         *  the sums, i.e. the per-pair shares averaged with the pair's expected packets
         *  on the class as weights.  1 = the class's uniform share. */
        double share{0};
    };

    /**
     * Path classes of the LAPS hosts (those with a LapsHostTable): every (source,
     * destination) pair that sent packets and whose paths fall in two classes or more
     * (a pair with one class has share 1 by construction; counted in *singleClassPairs).
     * Sorted by switches.
     */
    std::vector<PathClass> PathClasses(uint32_t* singleClassPairs = nullptr) const;

  private:
    struct Conn
    {
        int64_t lastNs{-1};
        uint32_t msgId{0};
    };

    struct Host
    {
        std::vector<Conn> conns;          //!< by connId
        std::vector<uint64_t> pidPackets; //!< by LAPS pid
    };

    void Tx(uint32_t host, Ptr<const Packet> p, const DcnHeader& h);

    Time m_threshold;
    NodeContainer m_hosts;
    std::vector<Host> m_host;
    static constexpr int64_t LINEAR_NS = 1 << 17; //!< 1-ns bins below this
    static constexpr uint32_t LOG_BINS = 16 * 48; //!< 16 per octave above it
    std::vector<uint64_t> m_linBins;              //!< gap ns -> count (gap < LINEAR_NS)
    std::vector<uint64_t> m_logBins;              //!< the rest
    uint64_t m_packets{0};
    uint64_t m_gaps{0};
    uint64_t m_above{0};
    double m_sumNs{0};
    int64_t m_maxNs{0};
};

} // namespace ns3

#endif // DCN_LAPS_TX_MONITOR_H
