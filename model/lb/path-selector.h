/*
 * Path selector seam (DESIGN.md section 3.1).
 *
 * One PathSelector object per sender connection.  For every packet it sends
 * (new data and retransmissions alike) the transport asks Choose() for a path;
 * for every piece of feedback it calls OnFeedback().  A path is named by a
 * 16-bit entropy value (EV) that the transport writes into the UDP source port,
 * optionally plus a source route / path id for algorithms that steer explicitly.
 *
 * A new load-balancing algorithm at the sender is one subclass of PathSelector.
 */
#ifndef DCN_PATH_SELECTOR_H
#define DCN_PATH_SELECTOR_H

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/** The path a packet takes: the EV written into the UDP source port, plus an
 *  optional explicit path id (source routing; -1 = none). */
struct PathChoice
{
    uint16_t ev{0};
    int32_t pathId{-1};
};

/** Kind of feedback a selector receives. */
enum class FeedbackSignal : uint8_t
{
    ACK,     //!< clean (not ECN-marked) acknowledgement
    ECN_ACK, //!< acknowledgement echoing a CE mark
    NACK,    //!< negative ack for a trimmed packet
    TIMEOUT  //!< retransmission timeout of a packet sent on this path
};

/** Feedback for one packet (or one EV carried in a coalesced ACK). */
struct PathFeedback
{
    FeedbackSignal signal{FeedbackSignal::ACK};
    PathChoice path;        //!< the path the acknowledged packet took (EV echoed by the receiver)
    Time rtt{0};            //!< RTT sample (zero if not available, e.g. TIMEOUT)
    uint32_t ackedBytes{0}; //!< payload bytes newly acknowledged by this feedback
};

/** Information the transport gives when asking for a path. */
struct SendContext
{
    uint64_t psn{0}; //!< packet sequence number about to be sent
    bool retransmission{false};
    uint32_t bytesInFlight{0};
};

/** Static facts about the connection, given once before the first Choose(). */
struct PathSelectorSetup
{
    uint32_t mtu{4096};       //!< payload bytes per packet
    uint32_t bdpPackets{100}; //!< bandwidth-delay product in packets
    Time baseRtt{0};          //!< unloaded RTT of the connection
    Time rto{0};              //!< retransmission timeout used by the transport
    bool trimming{false};     //!< whether the fabric trims (congestion losses come back as NACKs)
    uint32_t flowHash{0};     //!< a stable per-connection hash (used by ECMP-like selectors)
};

class PathSelector : public Object
{
  public:
    static TypeId GetTypeId();
    ~PathSelector() override;

    /** Called once by the transport before the first Choose(). */
    virtual void Setup(const PathSelectorSetup& setup);
    /** Path for the next packet (new data or retransmission). */
    virtual PathChoice Choose(const SendContext& ctx) = 0;
    /** Feedback for a packet that travelled on fb.path. */
    virtual void OnFeedback(const PathFeedback& fb) = 0;
    /** Short algorithm name, e.g. "reps". */
    virtual std::string Name() const = 0;
    /** Assign fixed random streams; returns the number of streams used. */
    virtual int64_t AssignStreams(int64_t stream);

  protected:
    PathSelectorSetup m_setup;
};

/**
 * Name -> factory registry of path selectors, so that examples and helpers can
 * pick an algorithm by name ("ecmp", "ops", "reps", ...).  Each algorithm
 * registers itself in its own .cc file with DCNLB_REGISTER_PATH_SELECTOR; adding
 * an algorithm never requires editing a central list.
 */
class PathSelectorRegistry
{
  public:
    using Factory = std::function<Ptr<PathSelector>()>;
    /** Register a factory; returns true (for use in static initialisers). */
    static bool Register(const std::string& name, const std::string& typeIdName);
    /** True if the name is known. */
    static bool Has(const std::string& name);
    /** Create a selector by name; aborts with a clear message listing the known names. */
    static Ptr<PathSelector> Create(const std::string& name);
    /** TypeId name registered for an algorithm name (for Config / attributes). */
    static std::string TypeIdName(const std::string& name);
    /** All known names, sorted. */
    static std::vector<std::string> Names();
    /** "ecmp, ops, reps" */
    static std::string NamesString();

  private:
    static std::map<std::string, std::string>& Map();
};

} // namespace ns3

#define DCNLB_REGISTER_PATH_SELECTOR(name, Class)                                                  \
    static const bool g_dcnlbRegistered##Class =                                                   \
        ns3::PathSelectorRegistry::Register(name, Class::GetTypeId().GetName())

#endif // DCN_PATH_SELECTOR_H
