/*
 * Path selector seam (DESIGN.md section 3.1).
 *
 * One PathSelector object per sender connection.  For every packet it sends
 * (new data and retransmissions alike) the transport asks Choose() for a path;
 * for every piece of feedback it calls OnFeedback().  A path is named by a
 * 16-bit entropy value (EV) that the transport writes into the UDP source port,
 * optionally plus a source route / path id for algorithms that steer explicitly
 * (PathChoice, dcn-path-choice.h), carried in the DcnHeader extension, echoed
 * by the receiver and handed back in OnFeedback().  Setup() tells the selector
 * its connection: hosts, switches, the topology's path set of the switch pair
 * and the host-wide shared state; it may send probes and declare losses
 * through the callbacks of PathSelectorSetup.  TypeId: ns3::DcnPathSelector.
 *
 * A new load-balancing algorithm at the sender is one subclass of PathSelector.
 */
#ifndef DCN_PATH_SELECTOR_H
#define DCN_PATH_SELECTOR_H

#include "ns3/callback.h"
#include "ns3/dcn-header.h"
#include "ns3/dcn-path-choice.h"
#include "ns3/dcn-topology.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/** Kind of feedback a selector receives. */
enum class FeedbackSignal : uint8_t
{
    ACK,        //!< clean (not ECN-marked) acknowledgement
    ECN_ACK,    //!< acknowledgement echoing a CE mark
    NACK,       //!< negative ack for a trimmed packet
    TIMEOUT,    //!< retransmission timeout of a packet sent on this path
    PROBE_REPLY //!< reply to a probe sent with PathSelectorSetup::sendProbe
};

/** Feedback for one packet (or one EV carried in a coalesced ACK). */
struct PathFeedback
{
    FeedbackSignal signal{FeedbackSignal::ACK};
    /** The path the packet took, as echoed by the receiver (EV, path id, route);
     *  for TIMEOUT the EV and path id the sender recorded for the packet. */
    PathChoice path;
    uint32_t psn{0}; //!< PSN of the acknowledged / lost / probe packet
    Time rtt{0};     //!< RTT sample (zero if not available, e.g. TIMEOUT)
    /** Index of this packet within one echo that acknowledges several (the TCP shim calls
     *  OnFeedback once per echoed packet with the echo's one RTT sample): 0 = the first. */
    uint32_t echoIndex{0};
    /** false: an RTT sample without an ECN sample (the acknowledged packet's CE came from
     *  its sender's own NIC and the selector asked for no sample then: HostCeNoSample). */
    bool ecnSample{true};
    Time oneWayDelay{-1};   //!< sender-to-receiver delay (negative = not carried)
    uint32_t ackedBytes{0}; //!< payload bytes newly acknowledged by this feedback
    /** The connection's unacknowledged payload bytes in flight after this feedback
     *  (negative = not known, e.g. under the TCP shim). */
    int64_t bytesInFlight{-1};
    const DcnHeader* header{nullptr}; //!< the ACK/NACK/probe reply (INT records); may be null
};

/** Information the transport gives when asking for a path. */
struct SendContext
{
    uint64_t psn{0}; //!< packet sequence number about to be sent
    bool retransmission{false};
    uint32_t bytesInFlight{0};
};

/**
 * Host-wide state shared by the path selectors of one host (DESIGN.md 3.1):
 * one object per host, or per rack when the driver gives the hosts of a
 * switch the same object.  Selectors keep their shared tables under their
 * algorithm's key (LAPS: per-path tables per host; Hermes: per rack).
 */
class DcnLbSharedState : public Object
{
  public:
    static TypeId GetTypeId();
    DcnLbSharedState();
    ~DcnLbSharedState() override;

    /** The object stored under key, or null. */
    Ptr<Object> Get(const std::string& key) const;
    /** Store obj under key (replaces). */
    void Set(const std::string& key, Ptr<Object> obj);

    /** The T under key, created with CreateObject<T>() on first use. */
    template <class T>
    Ptr<T> GetOrCreate(const std::string& key)
    {
        Ptr<Object> o = Get(key);
        if (!o)
        {
            o = CreateObject<T>();
            Set(key, o);
        }
        return DynamicCast<T>(o);
    }

  protected:
    void DoDispose() override;

  private:
    std::map<std::string, Ptr<Object>> m_state;
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
    /** UDP destination port of the connection's packets, which the switches hash with the
     *  EV (4791: our transport; the TCP shim's 4792). */
    uint16_t udpDstPort{4791};

    // ---- the connection (DESIGN.md 3.1); UINT32_MAX = unknown (no topology) ----
    uint32_t srcHost{UINT32_MAX};     //!< topology host index of the sender
    uint32_t dstHost{UINT32_MAX};     //!< topology host index of the receiver
    uint32_t srcSwitch{UINT32_MAX};   //!< switch the sender is attached to
    uint32_t dstSwitch{UINT32_MAX};   //!< switch the receiver is attached to
    const DcnPathSet* paths{nullptr}; //!< paths srcSwitch -> dstSwitch if given eagerly
    Ptr<DcnTopology> topology;        //!< the topology (null in topology-free tests)
    Ptr<DcnLbSharedState> shared;     //!< host-wide shared state (never null after Init)
    /** Ask the transport to send a probe packet on a path (reply: PROBE_REPLY feedback). */
    Callback<void, const PathChoice&> sendProbe;
    /** Ask the transport to declare a packet in flight lost (it is retransmitted). */
    Callback<void, uint32_t> declareLost;

    /**
     * The topology's path set of the pair (srcSwitch -> dstSwitch), or null when
     * unknown.  Enumerated on first use and cached by the topology, so selectors
     * that ignore paths (ECMP, OPS, REPS) cost nothing per connection.
     */
    const DcnPathSet* GetPaths() const
    {
        if (paths == nullptr && topology && srcSwitch != UINT32_MAX && dstSwitch != UINT32_MAX)
        {
            return &topology->GetPaths(srcSwitch, dstSwitch);
        }
        return paths;
    }
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
    /** Feedback for a packet that travelled on fb.path (default: ignored, as the
     *  oblivious selectors ECMP, OPS, DRB and Presto* do). */
    virtual void OnFeedback(const PathFeedback& fb);
    /** Short algorithm name, e.g. "reps". */
    virtual std::string Name() const = 0;
    /** Assign fixed random streams; returns the number of streams used (default: 0;
     *  a selector drawing from Rng() returns AssignRngStream(stream)). */
    virtual int64_t AssignStreams(int64_t stream);
    /**
     * Check the attribute values before the simulation runs: "" if they are
     * valid, else one line naming the attribute, the value and what is allowed.
     */
    virtual std::string Validate() const;

    /**
     * Check the attribute values against the topology a run will use (its preset
     * name, e.g. "df-small"), before the simulation runs: "" if this selector can
     * run there, else one line naming the attribute, the value and what is allowed.
     */
    virtual std::string CheckTopology(const std::string& topology) const;

    /**
     * true: the receiver should hide this connection's reordering from its transport
     * (Presto*'s reorder buffer, Hermes SIGCOMM'17 Sec. 5).  The TCP shim then marks
     * the connection's segments (FLAG_RESEQ) and the receiving shim resequences them;
     * our message transport tolerates reordering itself and ignores it.
     */
    virtual bool ReceiverResequencing() const
    {
        return false;
    }

    /**
     * true: this connection's feedback should sense the path only, not the sender's own
     * NIC queue (Hermes SIGCOMM'17 Sec. 3.1.1, attribute PathOnlySensing).  The TCP shim
     * then marks the connection's segments (FLAG_NIC_STAMP): the sender's host NIC
     * stamps the send time when a segment leaves it, and a CE mark the host NIC set is
     * not echoed as a path mark (TCP still sees the CE).  Default: false (the send time
     * is the stack's, every CE is echoed).
     */
    virtual bool PathOnlySensing() const
    {
        return false;
    }

    /**
     * With PathOnlySensing: true = a packet CE-marked by the sender's own NIC gives no ECN
     * sample (its echo carries the RTT only, PathFeedback::ecnSample false); false = it
     * counts as unmarked (Hermes attribute HostCeSample).
     */
    virtual bool HostCeNoSample() const
    {
        return false;
    }

    const PathSelectorSetup& GetSetup() const
    {
        return m_setup;
    }

  protected:
    void DoDispose() override;

    /**
     * The selector's uniform random variable, created on the first call, not in the
     * constructor: a selector made only to be validated takes no automatic stream.
     * A selector calls it at the start of Setup() to create it there.
     */
    UniformRandomVariable& Rng()
    {
        if (!m_rng)
        {
            m_rng = CreateObject<UniformRandomVariable>();
        }
        return *m_rng;
    }

    /** AssignStreams() of a selector whose randomness is Rng(): fixes its stream; 1. */
    int64_t AssignRngStream(int64_t stream);

    /** Setup(m_setup) unless m_setupDone: for a selector used without Setup (tests). */
    void EnsureSetup()
    {
        if (!m_setupDone)
        {
            Setup(m_setup);
        }
    }

    PathSelectorSetup m_setup;
    bool m_setupDone{false}; //!< set by a subclass's Setup() once it is configured

  private:
    Ptr<UniformRandomVariable> m_rng;
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
    /** Register a factory; returns true (for use in static initialisers). */
    static bool Register(const std::string& name, const std::string& typeIdName);
    /** True if the name is known. */
    static bool Has(const std::string& name);
    /** Create a selector by name; null if the name is unknown (check Has() first). */
    static Ptr<PathSelector> Create(const std::string& name);
    /** TypeId name registered for an algorithm name ("" if unknown). */
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
