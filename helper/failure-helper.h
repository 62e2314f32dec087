/*
 * Failure injection on any DcnTopology (DESIGN.md section 3.7,
 * REPS spec 3.3).  Every failure starts at a time and lasts for a duration
 * (Time(0) = until the end of the run):
 *  - FailLinkSilent: packets lost in both directions, routes unchanged;
 *  - FailLink: as silent, and after withdrawDelay the link is withdrawn from
 *    routing (switches stop choosing it; restored when the failure ends);
 *  - DegradeLink: both devices run at a lower DataRate;
 *  - SetLinkDropRate / SetSwitchDropRate: random loss probability;
 *  - AddBlackhole: a switch drops packets matching src/dst prefixes (read
 *    from the IPv4 header bytes);
 *  - FailSwitch: every link of a switch silently down (optionally withdrawn).
 * Losses are injected by DcnFailureErrorModel on the receiving devices and
 * counted separately from congestion drops (GetInjectedDrops, "InjectedDrop").
 */
#ifndef DCN_FAILURE_HELPER_H
#define DCN_FAILURE_HELPER_H

#include "ns3/data-rate.h"
#include "ns3/dcn-failure-error-model.h"
#include "ns3/dcn-topology.h"
#include "ns3/fat-tree-helper.h" // source compatibility: callers used it through this header
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"

#include <map>
#include <vector>

namespace ns3
{

class FailureHelper : public Object
{
  public:
    static TypeId GetTypeId();
    FailureHelper();
    explicit FailureHelper(Ptr<DcnTopology> fabric);

    /** The (built) topology whose links and switches the failures apply to. */
    void SetFabric(Ptr<DcnTopology> fabric);
    /** Link id of a link name (DcnLinkInfo::name, e.g. "tor0-spine1"); aborts with a clear line if
     * unknown. */
    uint32_t GetLinkId(const std::string& name) const;

    void FailLinkSilent(uint32_t linkId, Time start, Time duration = Time(0));
    void FailLink(uint32_t linkId, Time start, Time withdrawDelay, Time duration = Time(0));
    void DegradeLink(uint32_t linkId, DataRate rate, Time start, Time duration = Time(0));
    void SetLinkDropRate(uint32_t linkId, double prob, Time start, Time duration = Time(0));
    void SetSwitchDropRate(Ptr<Node> sw, double prob, Time start, Time duration = Time(0));
    void AddBlackhole(Ptr<Node> sw,
                      Ipv4Address srcNet,
                      Ipv4Mask srcMask,
                      Ipv4Address dstNet,
                      Ipv4Mask dstMask,
                      Time start,
                      Time duration = Time(0));
    void FailSwitch(Ptr<Node> sw,
                    Time start,
                    Time duration = Time(0),
                    bool withdraw = false,
                    Time withdrawDelay = Time(0));

    /**
     * Fail round(fraction x switch-switch links) distinct switch-switch links,
     * drawn with \p rng (partial Fisher-Yates over the links in id order), each
     * as FailLink(id, start, withdrawDelay, duration).  \return the link ids.
     */
    std::vector<uint32_t> FailRandomLinks(double fraction,
                                          Ptr<UniformRandomVariable> rng,
                                          Time start,
                                          Time withdrawDelay,
                                          Time duration = Time(0));
    /** Injected losses so far (all reasons, or one). */
    uint64_t GetInjectedDrops() const;
    uint64_t GetInjectedDrops(DcnFailureErrorModel::Reason r) const;
    /** Packets dropped by switches for lack of a route (after withdrawals). */
    uint64_t GetUnroutableDrops() const;

    /** The error model on a device (created on demand). */
    Ptr<DcnFailureErrorModel> GetModel(Ptr<NetDevice> dev);

    int64_t AssignStreams(int64_t stream);

  private:
    void CheckLink(uint32_t linkId, const char* what) const;
    void CheckSwitch(Ptr<Node> sw, const char* what) const;
    void CheckTimes(Time start, Time duration, const char* what) const;
    void SetLinkDown(uint32_t linkId, bool down);
    void SetRate(uint32_t linkId, DataRate r);
    void OnDrop(Ptr<const Packet> p, uint32_t tag, uint32_t reason);

    Ptr<DcnTopology> m_fabric;
    std::map<Ptr<NetDevice>, Ptr<DcnFailureErrorModel>> m_models;
    std::vector<Ptr<DcnFailureErrorModel>> m_order; //!< creation order (stream assignment)
    int64_t m_nextStream{-1};
    TracedCallback<Ptr<const Packet>, uint32_t, uint32_t> m_dropTrace;
};

} // namespace ns3

#endif // DCN_FAILURE_HELPER_H
