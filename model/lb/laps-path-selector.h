/*
 * LAPS: latency-aware packet spraying at the sender NIC (laps spec section 2;
 * Wan et al., IEEE/ACM ToN).  One object per flow (connection):
 *  - PST/PIT per host (LapsHostTable, shared state key "laps"), pids from the
 *    topology's LAPS path enumeration;
 *  - per packet (Choose): staleness check and probes on idle paths (Alg. 1,
 *    spec 2.2), softmax over the measured one-way delays (spec 2.3), the
 *    path's route (every switch; the source-route policy follows it), its
 *    16-bit pid, and a send timestamp in the header extension; LossOnSend;
 *  - per ACK (OnFeedback): PIT[pid].realVal = the echoed one-way delay,
 *    the delay-driven AIMD (Alg. 2, spec 2.4; LapsCc paces at GetCurRate()),
 *    LossOnAck with the per-path FIFO (Alg. 3, spec 2.5) and per-(flow, pid)
 *    timers of 2 realVal; losses go to the transport (declareLost);
 *  - probe replies update the PIT only.
 * Everything per packet is O(paths of the destination) <= 8.
 */
#ifndef DCN_LAPS_PATH_SELECTOR_H
#define DCN_LAPS_PATH_SELECTOR_H

#include "laps-path-table.h"
#include "path-selector.h"

#include "ns3/event-id.h"
#include "ns3/laps-core.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

class LapsPathSelector : public PathSelector
{
  public:
    /** Probing mode (spec 2.7 item 9). */
    enum ProbeMode
    {
        PROBE_ALL,       //!< probe every stale path (Alg. 1)
        PROBE_ONE_RANDOM //!< prototype: one random stale path
    };

    /** Congestion predicate of Alg. 2 (spec 2.7 item 3). */
    enum CongestionTest
    {
        CONGESTED_ALG2,    //!< min realVal > max baseVal (Alg. 2 line 6; default)
        CONGESTED_PER_PATH //!< every valid path above its own baseVal (Sec. III-E text)
    };

    /** Guard of Alg. 2 (spec 2.7 item 2). */
    enum GuardMode
    {
        GUARD_2t,
        GUARD_2T,
        GUARD_ARTIFACT
    };

    /** Candidate paths per destination. */
    enum PathSet
    {
        PATHS_PAPER,  //!< the evaluation's waypoint set (spec 1.2; default)
        PATHS_MINIMAL //!< only the topology's minimal paths of that set (diagnostic)
    };

    /** Normaliser of Alg. 1's softmax, beta = Alpha / norm (review s44 L11). */
    enum SoftmaxNorm
    {
        NORM_BASEVAL, //!< T = max baseVal, the 5-packet margin included (laps spec 2.1)
        NORM_UNLOADED //!< max unloaded delay of the valid paths ([A])
    };

    /** Delay of the in-flight cap 2 x delay x lineRate (review s44 L12). */
    enum InflightCapBasis
    {
        CAP_T,       //!< T = max baseVal (laps spec 2.7 item 12)
        CAP_UNLOADED //!< max unloaded delay of the valid paths ([A])
    };

    typedef void (*RateTracedCallback)(double oldBps, double newBps);
    typedef void (*PathDelayTracedCallback)(uint32_t pid, int64_t delayNs);
    typedef void (*PidTracedCallback)(uint32_t pid);
    typedef void (*LossTracedCallback)(uint32_t psn, uint32_t pid, bool timer);

    static TypeId GetTypeId();
    LapsPathSelector();
    ~LapsPathSelector() override;

    void Setup(const PathSelectorSetup& setup) override;
    PathChoice Choose(const SendContext& ctx) override;
    void OnFeedback(const PathFeedback& fb) override;
    std::string Name() const override;
    int64_t AssignStreams(int64_t stream) override;

    std::string Validate() const override;

    /** Current pacing rate (bit/s), Alg. 2's curRate. */
    double GetCurRate() const;
    /** In-flight cap in bytes (spec 2.7 item 12; [A] 2 T lineRate), or 0 if off. */
    uint64_t GetInflightCap() const;

    Ptr<LapsHostTable> GetHostTable() const
    {
        return m_table;
    }

    const lapscore::LapsRateCore& GetRateCore() const
    {
        return m_rate;
    }

    /** Packets this flow sent on each of its paths (index = pid - first pid). */
    const std::vector<uint64_t>& GetPathSent() const
    {
        return m_sent;
    }

    uint32_t GetFirstPid() const
    {
        return m_first;
    }

    uint64_t GetProbesSent() const
    {
        return m_probes;
    }

    uint64_t GetInferredLosses() const
    {
        return m_inferred;
    }

    uint64_t GetTimerLosses() const
    {
        return m_timerLosses;
    }

    uint64_t GetRateDecreases() const
    {
        return m_decreases;
    }

    uint64_t GetRateIncreases() const
    {
        return m_increases;
    }

    /** Decreases whose t (min realVal) was a value doubled by the staleness rule, not a
     * measurement (diagnostic; doc/laps.rst validation). */
    uint64_t GetStaleDecreases() const
    {
        return m_staleDecreases;
    }

    /** T of Alg. 2: max baseVal over the destination's valid paths (ns; 0 before use). */
    int64_t GetT() const
    {
        return m_T;
    }

    /** Max unloaded delay (baseVal without the margin) over the valid paths (ns; 0 before use). */
    int64_t GetMaxUnloaded() const
    {
        return m_U;
    }

    /** The softmax's normaliser (SoftmaxNorm: T or GetMaxUnloaded(); ns). */
    int64_t GetSoftmaxNormNs() const
    {
        return m_softmaxNorm == NORM_UNLOADED ? m_U : m_T;
    }

    /** The softmax weights of the last Choose (index = pid - first pid, unnormalised). */
    const std::vector<double>& GetWeights() const
    {
        return m_w;
    }

  protected:
    void DoDispose() override;

  private:
    bool Ready();
    void Probe(uint32_t k);
    void ArmTimer(uint32_t k, int64_t nowNs);
    void TimerFired(uint32_t k);
    void DeclareLost(bool timer, uint32_t k);

    // attributes
    double m_alpha;
    uint32_t m_stages;
    double m_margin;
    uint32_t m_frameBytes;
    DataRate m_minRate;
    DataRate m_incStep; //!< least increase per step (0 = paper)
    DataRate m_lineRate;
    GuardMode m_guard;
    CongestionTest m_congTest;
    ProbeMode m_probeMode;
    bool m_refreshOnFirstUse;
    bool m_inflightCap;
    double m_timeoutFactor;
    Time m_fixedTimeout; //!< 0: m_timeoutFactor x realVal (Alg. 3); > 0: fixed ([A] 8 ms)
    PathSet m_pathSet;
    SoftmaxNorm m_softmaxNorm;
    InflightCapBasis m_capBasis;

    // state
    Ptr<LapsHostTable> m_table;
    uint32_t m_dst{0};
    uint32_t m_first{0};
    uint32_t m_n{0};
    bool m_ready{false};
    bool m_used{false};
    int64_t m_T{0}; //!< max baseVal over the valid paths
    int64_t m_U{0}; //!< max unloaded delay over the valid paths
    double m_lineBps{100e9};
    lapscore::LapsRateCore m_rate;
    lapscore::LapsLossCore m_loss;
    std::vector<lapscore::LapsPathEntry*> m_entries;
    std::vector<double> m_w;
    lapscore::LapsWeightCache m_wCache; //!< what each m_w[k] was computed from
    std::vector<uint32_t> m_stale;
    std::vector<uint32_t> m_lost;
    std::vector<int64_t> m_deadline;
    std::vector<EventId> m_timer;
    std::vector<int64_t> m_timerAt; //!< when m_timer[k] fires (ns), max if none pending
    std::vector<uint64_t> m_sent;
    uint64_t m_probes{0};
    uint64_t m_inferred{0};
    uint64_t m_timerLosses{0};
    uint64_t m_decreases{0};
    uint64_t m_increases{0};
    uint64_t m_staleDecreases{0};
    std::vector<uint8_t> m_doubled; //!< realVal doubled by staleness since the last sample

    TracedCallback<double, double> m_rateTrace;
    TracedCallback<uint32_t, int64_t> m_delayTrace;
    TracedCallback<uint32_t> m_probeTrace;
    TracedCallback<uint32_t, uint32_t, bool> m_lossTrace;
};

} // namespace ns3

#endif // DCN_LAPS_PATH_SELECTOR_H
