/*
 * Hermes (Zhang et al., SIGCOMM'17, "Resilient Datacenter Load Balancing in the Wild"):
 * --lb=hermes over ns-3's TCP through the DcnTcpShim (issue 17; doc/hermes.rst; spec
 * /work/shared/specs/hermes.md).  The decision logic is the ns-3-free core
 * model/lb/core/hermes-core.h; this class wires it to the path-selector seam:
 *
 *  - paths: the minimal paths of the pair's DcnPathSet (leaf-spine: one per spine uplink);
 *    the EV of each path for this host pair comes from DiscoverPathEvs (once per pair);
 *  - sensing: every ACK echo (the shim echoes the data segment's path, CE and send time)
 *    updates the host's own signals of (destination rack, path) (SignalKeying=paper; =rack:
 *    the rack-shared ones) and the host's failure evidence of (destination host, path); TCP
 *    timeouts (the shim's TIMEOUT feedback) count per path; retransmissions are counted per
 *    path on send;
 *  - probing: the first host of a rack that runs Hermes is the rack's probe agent; every
 *    ProbeInterval it probes the previous best plus 2 random paths to every destination rack
 *    in use (64 B probes to that rack's agent through the shim); each reply is broadcast to
 *    the signals of every Hermes host of the rack (SignalKeying=paper, Sec. 3.1.3; =rack: it
 *    updates the rack-shared signals);
 *  - rerouting: Algorithm 2 on every packet (SYN, data, retransmissions, pure ACKs), with r_f
 *    and r_p from CONGA DREs (r_p local to the host).
 *
 * State is keyed in DcnLbSharedState: "hermes" of the host (r_p, failure evidence, EVs; its
 * own signals with SignalKeying=paper) and "hermes" of the rack object the TCP transport
 * stores under "dcn-rack" (probing, the hosts a probe reply is broadcast to, the agent's
 * probe-only signals; with SignalKeying=rack the signals every host uses).
 */
#ifndef DCN_HERMES_PATH_SELECTOR_H
#define DCN_HERMES_PATH_SELECTOR_H

#include "path-selector.h"

#include "ns3/hermes-core.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

class HermesRackState;
class HermesHostState;

class HermesPathSelector : public PathSelector
{
  public:
    /** Who owns the ECN / RTT signals of (destination rack, path) (attribute SignalKeying). */
    enum SignalKeying
    {
        KEY_PAPER, //!< per host, fed by its ACKs and by the rack agent's probe replies
        KEY_RACK,  //!< per sending rack, fed by every host's ACKs and the agent's probes
        KEY_HOST,  //!< per host, fed by its ACKs and by its own probes (its own agent)
    };

    /** Which 2 paths the probe agent adds to the previous best (attribute ProbeChoice). */
    enum ProbeChoice
    {
        PROBE_RANDOM,      //!< 2 distinct random paths per interval (Sec. 3.1.3)
        PROBE_ROUND_ROBIN, //!< the next 2 in cyclic order (review s44 H3)
    };

    /** Which host of the destination rack the agent probes (attribute ProbeHost). */
    enum ProbeHost
    {
        PROBE_HOST_FIRST,  //!< the rack's first host
        PROBE_HOST_ROTATE, //!< every probe to the next host in turn
    };

    /** What a host-NIC CE mark gives f_ECN (attribute HostCeSample). */
    enum HostCeSample
    {
        HOST_CE_UNMARKED, //!< an unmarked sample
        HOST_CE_NONE,     //!< no ECN sample (RTT only)
    };

    /** TraceSource "Reroute": old path (-1: new flow), new path, path type of the old one. */
    typedef void (*RerouteTracedCallback)(int32_t, int32_t, uint8_t);

    /**
     * TraceSource "PathFailed": a timeout made a (destination host, path) record FAILED
     * (Algorithm 1: N_TO timeouts with no ACK since the first).
     * \param dstHost destination host (UINT32_MAX: unknown, topology-free use)
     * \param path path index of the record
     */
    typedef void (*PathFailedTracedCallback)(uint32_t, int32_t);

    /** Failure evidence of one of a sending host's records (GetFailureEvidence). */
    struct FailureEvidence
    {
        uint32_t dstHost;         //!< destination host (UINT32_MAX: a rack record, RetxPerRack)
        uint32_t dstSwitch;       //!< destination switch (UINT32_MAX: a host record)
        int32_t path;             //!< path index (DcnPathSet of the two switches)
        uint32_t timeoutFailures; //!< times N_TO timeouts made the record FAILED
        /** retransmission episodes: tau windows whose fraction rose above T_RETX after one
         *  at or below it (the path is FAILED then unless it is CONGESTED) */
        uint32_t retxFailures;
        Time firstTimeoutFailure; //!< when timeouts first made it FAILED (-1 ns: never)
        Time firstRetxFailure;    //!< when the first episode began (-1 ns: never)
    };

    /**
     * Failure evidence of one sending host at the time of the call (Sec. 3.1.2, Algorithm
     * 1): every record with a timeout failure or a retransmission episode.  Timeouts are
     * kept per destination host; retransmission episodes are listed from the records
     * whose fraction classifies paths: the host's rack records with RetxPerRack (the
     * default), its host records without it, none with RetxSharedInRack (shared by the
     * rack's hosts, not one host's evidence).  \p hostState is the host's shared
     * state (DcnTcpTransport::GetSharedState); empty if no Hermes flow ran there.
     */
    static std::vector<FailureEvidence> GetFailureEvidence(Ptr<DcnLbSharedState> hostState);

    static TypeId GetTypeId();
    HermesPathSelector();
    ~HermesPathSelector() override;

    void Setup(const PathSelectorSetup& setup) override;
    PathChoice Choose(const SendContext& ctx) override;
    void OnFeedback(const PathFeedback& fb) override;
    std::string Name() const override;
    int64_t AssignStreams(int64_t stream) override;
    std::string Validate() const override;

    /**
     * One-hop delay of Sec. 3.3's rule, K / C, for flows of \p host: K of the edge
     * switch's port toward the host (the middle of Kmin..Kmax), C the host link's rate;
     * zero if the topology does not say (RttThresholdsFromRule).
     */
    static Time RuleHopDelay(Ptr<DcnTopology> topo, uint32_t host);

    /** Attribute PathOnlySensing (Sec. 3.1.1): the shim stamps at the host NIC. */
    bool PathOnlySensing() const override
    {
        return m_pathOnlySensing;
    }

    /** Attribute HostCeSample=none (with PathOnlySensing). */
    bool HostCeNoSample() const override
    {
        return m_hostCeSample == HOST_CE_NONE;
    }

    /** Current path of the flow (-1 before the first packet). */
    int32_t GetCurrentPath() const
    {
        return m_cur;
    }

    /** Number of paths of the connection. */
    uint16_t GetNPaths() const
    {
        return m_n;
    }

    /** Type of path i as Algorithm 1 classifies it now (tests). */
    hermes::PathType GetPathType(uint16_t i) const;

    /** Reroutes of this flow (moves after the first placement). */
    uint32_t GetReroutes() const
    {
        return m_reroutes;
    }

    /** Test hook: as if the rack's probe agent got a probe reply from this flow's
     *  destination rack on path pathId (it reaches the hosts SignalKeying says). */
    void InjectProbeReply(uint16_t pathId, Time rtt, bool ce);

    /** Test hook: the path the rack's probe agent keeps as "previously best" toward this
     *  flow's destination rack (-1: none yet). */
    int32_t GetProbePrevBest() const;

    /** Retransmissions of segments first sent on a path the flow has left, not counted as
     *  evidence (RetxAfterMove false). */
    uint64_t GetRetxAfterMove() const
    {
        return m_retxAfterMoveCount;
    }

  protected:
    void DoDispose() override;

  private:
    hermes::PathView View(uint16_t i, int64_t now) const;
    /** Algorithm 1 for path i (EagerRetxWindow: close a window older than tau first). */
    hermes::PathType ClassifyPath(uint16_t i, int64_t now) const;
    /** Create Rng() and m_probeRng (together, in this order) unless they exist. */
    void CreateRngs();

    // attributes
    double m_tEcn;
    Time m_rttLowOffset;
    Time m_rttHigh;
    bool m_rttHighOneWay{true};
    Time m_dRtt;
    double m_dEcn;
    double m_rFraction;
    uint64_t m_s;
    uint32_t m_nTimeout;
    double m_tRetx;
    Time m_tau;
    Time m_probeInterval;
    Time m_stale;
    double m_ecnGain;
    double m_rttGain;
    Time m_dreT;
    double m_dreAlpha;
    bool m_excludeCurrent;
    bool m_reroute;
    Time m_rerouteInterval;
    double m_rerouteSkip{0};
    bool m_sizeSinceMove{false};       //!< SizeSinceMove: S counts bytes since the flow's last move
    bool m_candidateNeedsSample{true}; //!< CandidateNeedsSample (Algorithm 2 lines 15 / 19)
    int32_t m_firstPath{-1};     //!< FirstPath: test hook, the first placement (-1: Algorithm 2)
    int64_t m_lastAttemptNs{-1}; //!< last reroute attempt of the flow (RerouteInterval)
    bool m_retxPerRack;
    bool m_retxShared;
    SignalKeying m_keying{KEY_PAPER}; //!< SignalKeying
    bool m_restartStale{true};        //!< RestartStaleSignals
    uint32_t m_dstSw{0};              //!< destination switch of the flow
    uint32_t m_dstHost{UINT32_MAX};   //!< destination host of the flow (UINT32_MAX: unknown)
    bool m_retxOnOriginal;
    bool m_retxAfterMove;
    bool m_retxAfterTimeoutMove; //!< count resends from a path left after a timeout
    uint64_t m_leftOnTimeout{0}; //!< bit p: the flow last left path p after a timeout
    uint32_t m_numPathsAttr;
    bool m_pathOnlySensing{true};                  //!< PathOnlySensing
    bool m_rttRule{false};                         //!< RttThresholdsFromRule
    ProbeChoice m_probeChoice{PROBE_RANDOM};       //!< ProbeChoice
    bool m_probeBestFailed{false};                 //!< ProbeBestFailed
    uint32_t m_probeLossLimit{0};                  //!< ProbeLossLimit
    ProbeHost m_probeHost{PROBE_HOST_FIRST};       //!< ProbeHost
    bool m_eagerWindow{true};                      //!< EagerRetxWindow
    HostCeSample m_hostCeSample{HOST_CE_UNMARKED}; //!< HostCeSample

    hermes::Params m_p;
    uint16_t m_n{0};
    std::vector<uint16_t> m_evs;
    hermes::PathSignals* m_sig{nullptr};  //!< host's or rack's (SignalKeying), n entries
    hermes::PathFailure* m_fail{nullptr}; //!< host, destination host, n entries
    hermes::PathFailure* m_retx{nullptr}; //!< retransmissions: destination rack or m_fail
    hermes::Dre* m_rp{nullptr};           //!< host, destination rack, n entries
    int64_t* m_rackLastUse{nullptr};
    Ptr<HermesRackState> m_rack;
    Ptr<HermesHostState> m_host;
    Ptr<DcnLbSharedState> m_ownShared;     //!< topology-free use only (no setup.shared)
    Ptr<UniformRandomVariable> m_probeRng; //!< the rack's probe agent (the flow draws from Rng())
    int32_t m_cur{-1};
    int32_t m_lastNewPath{-1};  //!< path of the latest non-retransmitted data segment
    uint32_t m_lastRetxSeq{0};  //!< sequence number of the latest retransmitted segment
    int32_t m_lastRetxPath{-1}; //!< and the path that copy took (-1: none yet)
    /** Paths of the flow's new data: the first sequence number sent on each of the last
     *  kSegHist paths (a ring; RetxOnOriginalPath charges a retransmission to its path). */
    static constexpr uint8_t kSegHist = 8;
    uint32_t m_segStart[kSegHist]{};
    int32_t m_segPath[kSegHist]{};
    uint8_t m_segN{0};    //!< valid entries
    uint8_t m_segHead{0}; //!< index of the newest entry
    /** RerouteInterval / RerouteSkip ([ART]): may this congested flow try lines 13-23 now? */
    bool RerouteAttempt(int64_t now);

    /** The flow size Algorithm 2 compares with S (SizeSinceMove). */
    uint64_t SizeForS() const
    {
        return m_sizeSinceMove ? m_sentOnPath : m_sent;
    }

    /** Path that carried the original transmission of sequence number seq. */
    int32_t OriginalPath(uint32_t seq) const;
    bool m_timedOut{false};
    uint64_t m_sent{0};
    uint64_t m_sentOnPath{0}; //!< bytes sent since the flow's last move (SizeSinceMove)
    hermes::Dre m_rate;
    uint32_t m_reroutes{0};
    uint64_t m_retxAfterMoveCount{0}; //!< retransmissions not counted (RetxAfterMove false)
    TracedCallback<int32_t, int32_t, uint8_t> m_rerouteTrace;
    TracedCallback<uint32_t, int32_t> m_pathFailedTrace;
};

} // namespace ns3

#endif // DCN_HERMES_PATH_SELECTOR_H
