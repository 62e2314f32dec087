/*
 * REPS path selector: the ns-3 wrapper around the pure state machine in
 * reps-core.h.  Registered as "reps".
 *
 * Spec: /work/shared/specs/reps.md (sections 1.2-1.7, resolutions A1-A11).
 */
#ifndef DCN_REPS_PATH_SELECTOR_H
#define DCN_REPS_PATH_SELECTOR_H

#include "path-selector.h"
#include "reps-core.h"

#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <memory>
#include <string>

namespace ns3
{

/**
 * \ingroup dcn-lb
 * \brief Recycled Entropy Packet Spraying (REPS) sender-side load balancer.
 *
 * Caches the EVs echoed by clean ACKs in a small circular buffer and reuses
 * each of them once (or EvReuseCount times); explores random EVs when nothing
 * valid is cached; enters freezing mode on a suspected failure (RTO), in which
 * only cached EVs are cycled; explores PKTS_PER_CWND packets after freezing.
 *
 * Feedback mapping: ACK -> cache EV (+ RTT sample), ECN_ACK -> RTT sample
 * only, NACK -> nothing, TIMEOUT -> failure heuristic (maybe freeze).
 * Choose() is used for new data and retransmissions alike (A11).
 */
class RepsPathSelector : public PathSelector
{
  public:
    /** Post-freeze exploration mode attribute values (spec A1). */
    enum FrozenOrderValue
    {
        FROZEN_OLDEST_VALID = 0,
        FROZEN_ROUND_ROBIN = 1,
    };

    enum ExploreModeValue
    {
        EXPLORE_EVERY_NTH = 0,
        EXPLORE_ALL_RANDOM = 1,
    };

    static TypeId GetTypeId();
    RepsPathSelector();
    ~RepsPathSelector() override;

    void Setup(const PathSelectorSetup& setup) override;
    PathChoice Choose(const SendContext& ctx) override;
    void OnFeedback(const PathFeedback& fb) override;
    std::string Name() const override;
    int64_t AssignStreams(int64_t stream) override;

    /** Empty string if the current attribute values are valid, else a message
     *  naming the parameter, the bad value and the allowed range.  Setup()
     *  aborts with this message. */
    std::string ConfigError() const;
    std::string Validate() const override;

    /** Logical state bits for buffer size n ([L] Table 1): 193 for n = 8. */
    static uint32_t LogicalStateBits(uint32_t n);

    // ---- introspection (tests, stats) ----
    bool IsFreezing() const;
    uint32_t GetNumValid() const;
    uint32_t GetNumPopulated() const;
    uint32_t GetExploreCounter() const;
    Time GetExitFreezeTime() const;
    /** Number of connections-lifetime counters: explored / recycled sends, freezes. */
    uint64_t GetExploredCount() const;
    uint64_t GetRecycledCount() const;
    uint64_t GetFreezeCount() const;

    /** TracedCallback signature for EV traces. */
    typedef void (*EvTracedCallback)(uint16_t ev);

  protected:
    void DoDispose() override;

  private:
    /** Buffer capacity for BufferSize <= 8 (the paper's N); larger sizes use kLargeCap. */
    static constexpr uint16_t kSmallCap = 8;
    static constexpr uint16_t kLargeCap = 255;

    void Configure();
    void HandleFreezeEntered();
    void HandleFreezeExited();
    uint16_t DrawEv();

    /** Run f on whichever core is in use (no allocation, O(1) dispatch). */
    template <class F>
    auto WithCore(F&& f)
    {
        return m_large ? f(*m_large) : f(m_small);
    }

    template <class F>
    auto WithCore(F&& f) const
    {
        return m_large ? f(*m_large) : f(m_small);
    }

    // attributes
    uint32_t m_bufferSize;
    uint32_t m_evSetSize;
    bool m_freezingEnabled;
    Time m_freezingTimeout;
    ExploreModeValue m_exploreMode;
    FrozenOrderValue m_frozenOrder;
    uint32_t m_explorePackets;
    bool m_resetBufferOnFreezeExit;
    double m_rttThreshold;
    double m_rttWindowRtoMult;
    Time m_idleInvalidateTime;
    uint32_t m_evReuseCount;

    // state
    bool m_configured{false};
    reps::RepsCore<kSmallCap> m_small;
    std::unique_ptr<reps::RepsCore<kLargeCap>> m_large;
    reps::RepsFailureDetector m_detector;
    int64_t m_lastActivityNs{0};
    uint64_t m_explored{0};
    uint64_t m_recycled{0};
    uint64_t m_freezes{0};

    TracedCallback<uint16_t> m_evExploredTrace;
    TracedCallback<uint16_t> m_evRecycledTrace;
    TracedCallback<Time> m_freezeEnteredTrace;
    TracedCallback<Time> m_freezeExitedTrace;
};

} // namespace ns3

#endif // DCN_REPS_PATH_SELECTOR_H
