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
 * Per-direction kinds (issue 10), direction UP = from the link's end a (lower
 * tier: host or lower switch) to end b, DOWN = b to a, BOTH:
 *  - DegradeLink(link, rate, dir, ...): the transmitting device(s) of that
 *    direction run at `rate`; with DegradeScalesQueue (default true) the
 *    egress queue's DataLimit and ECN Kmin/Kmax scale by rate / built rate
 *    (the REPS artifact halves them at 200G of 400G);
 *  - Blackhole(link, dir, dataOnly, ...): the egress queue of that direction
 *    drops every packet, or only data packets (transport opcode read from the
 *    packet bytes), for the window; BlackholeSwitch: every egress of a switch.
 * Links are named by id or by name ("tor0-spine1"), switches by index or name
 * ("spine0", the names used in the link names): FindLinkId / FindSwitch.
 * AddFromSpec() applies one --failures item (dcn-failure-spec-parse.h syntax,
 * names allowed) and returns the refusal line instead of aborting;
 * PrintLinks() lists id, name, rate and delay of every link (--PrintLinks).
 * Losses are injected by DcnFailureErrorModel on the receiving devices (or
 * by the egress queue disc for black holes at a queue) and counted separately
 * from congestion drops (GetInjectedDrops, "InjectedDrop", GetBlackholeDrops).
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

#include <functional>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

namespace dcnopt
{
struct FailureSpec;
}

/** Direction of a link failure: UP = end a -> end b (a is the lower tier), DOWN, BOTH. */
enum class DcnLinkDir : uint8_t
{
    UP = 0,
    DOWN = 1,
    BOTH = 2,
};

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

    /** Link id of a link given by id ("12") or name ("tor0-spine1"); NONE if there is none. */
    uint32_t FindLinkId(const std::string& idOrName) const;
    /** Switch node given by index ("3") or name ("spine0"); nullptr if there is none. */
    Ptr<Node> FindSwitch(const std::string& indexOrName) const;
    /** Name of switch \p index as used in the link names ("tor0", "spine1", ...). */
    std::string GetSwitchName(uint32_t index) const;

    /** Print "id name rate delay" of every link, one line each, with a header line. */
    static void PrintLinks(const DcnTopology& topology, std::ostream& os);

    /**
     * Apply one failure spec (dcn-failure-spec-parse.h; link and switch names
     * allowed).  \return "" on success, else one line naming option \p opt,
     * the value and what is allowed (nothing is scheduled then).
     */
    std::string AddFromSpec(const std::string& opt, const std::string& spec);
    /** Apply one parsed spec (names resolved against the fabric); "" or the refusal line. */
    std::string Apply(const std::string& opt,
                      const dcnopt::FailureSpec& f,
                      const std::string& spec);

    void FailLinkSilent(uint32_t linkId, Time start, Time duration = Time(0));
    void FailLink(uint32_t linkId, Time start, Time withdrawDelay, Time duration = Time(0));
    /** Both directions at `rate`, queue limits unchanged (the pre-issue-10 behaviour). */
    void DegradeLink(uint32_t linkId, DataRate rate, Time start, Time duration = Time(0));
    /** One or both directions at `rate`; queues scaled if DegradeScalesQueue. */
    void DegradeLink(uint32_t linkId,
                     DataRate rate,
                     DcnLinkDir dir,
                     Time start,
                     Time duration = Time(0));
    /** Black hole at the egress queue(s) of direction \p dir of a link, for [start,
     * start+duration). */
    void Blackhole(uint32_t linkId,
                   DcnLinkDir dir,
                   bool dataOnly,
                   Time start,
                   Time duration = Time(0));
    /** Black hole at every egress queue of a switch. */
    void BlackholeSwitch(Ptr<Node> sw, bool dataOnly, Time start, Time duration = Time(0));
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
    /** Packets dropped by black holes at egress queues (Blackhole, BlackholeSwitch). */
    uint64_t GetBlackholeDrops() const;

    /** The error model on a device (created on demand). */
    Ptr<DcnFailureErrorModel> GetModel(Ptr<NetDevice> dev);

    int64_t AssignStreams(int64_t stream);

  private:
    void CheckLink(uint32_t linkId, const char* what) const;
    void CheckSwitch(Ptr<Node> sw, const char* what) const;
    void CheckTimes(Time start, Time duration, const char* what) const;
    void SetLinkDown(uint32_t linkId, bool down);
    /**
     * Overlapping failures of one kind nest: a link is withdrawn from routing while any
     * `down` window holds it, a device drops with every active window's probability
     * (independent: 1 - prod(1 - p)), a degraded device runs at the lowest active rate;
     * the end of one window restores only what no other window still holds.
     */
    void Withdraw(uint32_t linkId);
    void Restore(uint32_t linkId);
    /** Call f(true) at start and, unless duration is 0 (permanent), f(false) at its end. */
    void ScheduleWindow(Time start, Time duration, std::function<void(bool)> f);
    /** A drop window of probability p opens (open) or ends on m. */
    void DropWindow(Ptr<DcnFailureErrorModel> m, double p, bool open);
    /** A degrade window of rate r opens (open) or ends on the devices of dir. */
    void DegradeWindow(uint32_t linkId, DcnLinkDir dir, DataRate r, bool scaleQueue, bool open);
    void ApplyDegrade(uint32_t linkId, Ptr<NetDevice> dev, bool scaleQueue);
    /** The egress queue discs of a direction (1 or 2). */
    std::vector<Ptr<DcnQueueDisc>> DirQueues(uint32_t linkId, DcnLinkDir dir) const;
    void OnDrop(Ptr<const Packet> p, uint32_t tag, uint32_t reason);

    Ptr<DcnTopology> m_fabric;
    std::map<Ptr<NetDevice>, Ptr<DcnFailureErrorModel>> m_models;
    std::vector<Ptr<DcnFailureErrorModel>> m_order; //!< creation order (stream assignment)
    int64_t m_nextStream{-1};
    bool m_scaleQueue{true};
    std::vector<Ptr<DcnQueueDisc>> m_bhQueues; //!< queues with a black hole (statistics)
    std::vector<uint32_t> m_withdrawals;       //!< active `down` windows per link id
    std::map<Ptr<DcnFailureErrorModel>, std::vector<double>> m_dropWindows; //!< active probs
    std::map<Ptr<NetDevice>, std::vector<uint64_t>> m_degradeWindows;       //!< active bit/s
    TracedCallback<Ptr<const Packet>, uint32_t, uint32_t> m_dropTrace;
};

} // namespace ns3

#endif // DCN_FAILURE_HELPER_H
