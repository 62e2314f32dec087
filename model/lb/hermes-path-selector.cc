// Over 600 lines: the TypeId with every Hermes parameter (Table 4 / sec. 3.3), the
// per-path EV discovery, the rack-shared probe agent and the feedback wiring of one
// selector; the decision logic itself is ns-3-free in core/hermes-core.h.
#include "hermes-path-selector.h"

#include "dcn-ev-path-discovery.h"
#include "dcn-scheme.h"

#include "ns3/boolean.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-queue-disc.h"
#include "ns3/dcn-tcp-shim-header.h"
#include "ns3/dcn-tcp-shim.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HermesPathSelector");
NS_OBJECT_ENSURE_REGISTERED(HermesPathSelector);
DCNLB_REGISTER_PATH_SELECTOR("hermes", HermesPathSelector);
DCNLB_REGISTER_SCHEME((DcnScheme{
    "hermes",
    "Hermes: per-path ECN/RTT sensing, failure sensing, rack-shared probing, cautious per-packet "
    "rerouting at the host (SIGCOMM'17), over ns-3 TCP/DCTCP through the TCP shim",
    "hermes",
    "dctcp",
    "selective-repeat",
    "ecmp",
    0,
    "tcp",
    {},
    {}}));

/** Probes stop for a destination rack this long after its last use ([NP]). */
static const int64_t kProbeIdleNs = 10000000;

/** Host-local Hermes state: r_p per destination rack, failure evidence and EVs per host. */
class HermesHostState : public Object
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::HermesHostState")
                                .SetParent<Object>()
                                .SetGroupName("DcnLb")
                                .AddConstructor<HermesHostState>();
        return tid;
    }

    struct HostDst
    {
        std::vector<hermes::PathFailure> fail;
        std::vector<uint16_t> evs;
    };

    std::map<uint32_t, std::vector<hermes::Dre>> rp; //!< by destination switch
    /** retransmission evidence by destination switch (RetxPerRack) */
    std::map<uint32_t, std::vector<hermes::PathFailure>> rackRetx;
    std::map<uint32_t, HostDst> dsts; //!< by destination host
    /** the host's own ECN / RTT signals by destination switch (SignalKeying=paper) */
    std::map<uint32_t, std::vector<hermes::PathSignals>> sig;
    bool inRack{false}; //!< registered with its rack's probe agent (SignalKeying=paper)

    /** where the retransmission evidence that classifies lives (GetFailureEvidence):
     *  the host records (dsts), the rack records (rackRetx, RetxPerRack), or the rack
     *  state (RetxSharedInRack) */
    enum RetxRecords : uint8_t
    {
        RETX_IN_DSTS,
        RETX_IN_RACK_RECORDS,
        RETX_SHARED,
    } retxRecords{RETX_IN_DSTS};

    int64_t ruleHopNs{-1}; //!< RttThresholdsFromRule: K / C of the host (-1: not yet known)

    std::vector<hermes::PathSignals>& GetSig(uint32_t dstSw, uint16_t n)
    {
        std::vector<hermes::PathSignals>& v = sig[dstSw];
        if (v.empty())
        {
            v.resize(n);
        }
        // paths are per (source switch, destination switch): every host of a rack has the
        // same n (selectors keep pointers into v, so it is never resized)
        NS_ABORT_MSG_IF(v.size() < n,
                        "HermesHostState: " << n << " paths to switch " << dstSw << ", table has "
                                            << v.size());
        return v;
    }
};

/** Rack-shared Hermes state: per destination rack path signals, and the rack's probe agent. */
class HermesRackState : public Object
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::HermesRackState")
                                .SetParent<Object>()
                                .SetGroupName("DcnLb")
                                .AddConstructor<HermesRackState>();
        return tid;
    }

    /** How the agent picks what to probe (attributes ProbeChoice, ProbeBestFailed,
     *  ProbeLossLimit, ProbeHost, EagerRetxWindow). */
    struct ProbeOptions
    {
        bool roundRobin{false}; //!< ProbeChoice=roundrobin
        bool bestFailed{false}; //!< ProbeBestFailed
        uint32_t lossLimit{0};  //!< ProbeLossLimit (0: lost probes never count)
        bool rotateHost{false}; //!< ProbeHost=rotate
        bool eager{false};      //!< EagerRetxWindow
        bool ceNoSample{false}; //!< HostCeSample=none
    };

    struct Dst
    {
        std::vector<hermes::PathSignals> sig;
        int64_t lastUse{-1};
        int32_t prevBest{-1};
        uint32_t agentDstHost{UINT32_MAX};
        std::vector<int32_t> probeEvs;
        std::vector<uint32_t> rackHosts;           //!< the destination rack's hosts
        std::vector<std::vector<int32_t>> hostEvs; //!< probe EVs per rack host (ProbeHost)
        uint32_t hostCursor{0};                    //!< next rack host to probe (rotate)
        int32_t rrCursor{-1};                      //!< ProbeChoice=roundrobin (-1: not started)
        std::vector<uint8_t> pending;              //!< a probe on the path awaits its reply
        std::vector<uint32_t> lostRun;             //!< consecutive lost probes per path
        /** retransmission evidence shared by the rack's hosts (RetxSharedInRack) */
        std::vector<hermes::PathFailure> retx;
    };

    Dst& GetDst(uint32_t dstSw, uint16_t n)
    {
        Dst& d = m_dsts[dstSw];
        if (d.sig.empty())
        {
            d.sig.resize(n);
        }
        return d;
    }

    bool HasAgent() const
    {
        return m_shim != nullptr;
    }

    void SetAgent(Ptr<DcnTopology> topo,
                  uint32_t host,
                  Ptr<DcnTcpShim> shim,
                  const hermes::Params& p,
                  Time interval,
                  Ptr<UniformRandomVariable> rng,
                  bool nicStamp,
                  const ProbeOptions& opt,
                  Ptr<HermesHostState> agentState)
    {
        m_opt = opt;
        m_agentState = agentState;
        m_topo = topo;
        m_agentHost = host;
        m_agentNode = topo->GetHosts().Get(host)->GetId();
        m_shim = shim;
        m_p = p;
        m_interval = interval;
        m_rng = rng;
        m_nicStamp = nicStamp;
        m_shim->SetProbeReplyCallback(MakeCallback(&HermesRackState::OnProbeReply, this));
    }

    /** Start probing if an agent exists and the timer is idle. */
    void EnsureTimer()
    {
        if (m_shim && m_interval.IsStrictlyPositive() && !m_timerOn)
        {
            m_timerOn = true;
            // in the agent's context; the event holds a reference to this object
            Simulator::ScheduleWithContext(m_agentNode,
                                           m_interval,
                                           &HermesRackState::Probe,
                                           Ptr<HermesRackState>(this));
        }
    }

    uint64_t GetProbesSent() const
    {
        return m_probes;
    }

    /** SignalKeying=paper: the agent broadcasts its probe replies to this host's signals. */
    void AddHost(Ptr<HermesHostState> h)
    {
        if (!h->inRack)
        {
            h->inRack = true;
            m_hosts.push_back(h);
        }
    }

    /** A probe reply from destination switch dstSw on path pathId: the rack's signals
     *  (SignalKeying=rack / host; the agent's probe-only view with paper), and with paper
     *  every registered host's own signals (Sec. 3.1.3: the agent shares the probed
     *  information among all hypervisors of the rack; O(hosts of the rack)). */
    void ProbeSample(uint32_t dstSw,
                     uint16_t pathId,
                     int64_t rttNs,
                     bool ce,
                     const hermes::Params& p,
                     bool ecnSample = true)
    {
        auto it = m_dsts.find(dstSw);
        if (it == m_dsts.end() || pathId >= it->second.sig.size())
        {
            return;
        }
        const int64_t now = Simulator::Now().GetNanoSeconds();
        const uint16_t n = static_cast<uint16_t>(it->second.sig.size());
        it->second.sig[pathId].OnSample(ce, rttNs, now, p, ecnSample);

        for (const Ptr<HermesHostState>& h : m_hosts)
        {
            std::vector<hermes::PathSignals>& v = h->GetSig(dstSw, n);
            if (pathId < v.size())
            {
                v[pathId].OnSample(ce, rttNs, now, p, ecnSample);
            }
        }
    }

  protected:
    void DoDispose() override
    {
        if (m_shim)
        {
            m_shim->SetProbeReplyCallback(DcnTcpShim::ProbeReplyCallback());
        }
        m_shim = nullptr;
        m_topo = nullptr;
        m_rng = nullptr;
        m_agentState = nullptr;
        m_dsts.clear();
        m_hosts.clear();
        Object::DoDispose();
    }

  private:
    void Probe()
    {
        if (!m_shim)
        {
            m_timerOn = false;
            return; // disposed
        }
        const int64_t now = Simulator::Now().GetNanoSeconds();
        bool active = false;
        const hermes::PathFailure none;
        for (auto& kv : m_dsts)
        {
            Dst& d = kv.second;
            if (d.lastUse < 0 || now - d.lastUse > kProbeIdleNs || kv.first == SrcSwitch())
            {
                continue;
            }
            active = true;
            const uint16_t n = static_cast<uint16_t>(d.sig.size());
            if (d.agentDstHost == UINT32_MAX)
            {
                for (uint32_t h = 0; h < m_topo->GetNHosts(); ++h)
                {
                    if (m_topo->GetSwitchOfHost(h) == kv.first)
                    {
                        d.rackHosts.push_back(h);
                    }
                }
                d.agentDstHost = d.rackHosts.empty() ? 0 : d.rackHosts[0];
                d.probeEvs = DiscoverPathEvs(m_topo,
                                             m_agentHost,
                                             d.agentDstHost,
                                             DcnTcpShimHeader::UDP_PORT,
                                             n);
                d.hostEvs.resize(d.rackHosts.size());
                d.pending.assign(n, 0);
                d.lostRun.assign(n, 0);
            }
            hermes::PathView v[hermes::kMaxPaths];
            for (uint16_t i = 0; i < n; ++i)
            {
                v[i].type = hermes::Classify(d.sig[i], none, now, m_p);
                v[i].rttNs = d.sig[i].rttNs;
                if (AgentSeesFailure(kv.first, d, i, now))
                {
                    v[i].type = hermes::PathType::FAILED; // never the previous best
                }
            }
            uint16_t pick[3];
            auto draw = [this](uint32_t k) { return m_rng->GetInteger(0, k - 1); };
            uint16_t k = 0;
            if (m_opt.roundRobin)
            {
                if (d.rrCursor < 0)
                {
                    d.rrCursor = static_cast<int32_t>(draw(n)); // a random start per rack
                }
                uint16_t c = static_cast<uint16_t>(d.rrCursor);
                k = hermes::ChooseProbesRoundRobin(d.prevBest, n, c, pick);
                d.rrCursor = c;
            }
            else
            {
                k = hermes::ChooseProbes(d.prevBest, n, draw, pick);
            }
            for (uint16_t j = 0; j < k; ++j)
            {
                // ProbeHost=rotate: every probe to the next host of the destination rack
                uint32_t hi = 0;
                if (m_opt.rotateHost && !d.rackHosts.empty())
                {
                    hi = d.hostCursor++ % static_cast<uint32_t>(d.rackHosts.size());
                }
                const std::vector<int32_t>& evs = ProbeEvs(d, hi, n);
                if (evs[pick[j]] >= 0)
                {
                    const uint32_t dstHost = hi == 0 ? d.agentDstHost : d.rackHosts[hi];
                    // the path's previous probe got no reply before this one: lost
                    d.lostRun[pick[j]] = d.pending[pick[j]] ? d.lostRun[pick[j]] + 1 : 0;
                    d.pending[pick[j]] = 1;
                    m_shim->SendProbe(m_topo->GetHostAddress(dstHost),
                                      static_cast<uint16_t>(evs[pick[j]]),
                                      pick[j],
                                      m_nicStamp,
                                      m_opt.ceNoSample);
                    ++m_probes;
                }
            }
            const int32_t b = hermes::BestPath(v, n);
            // every path FAILED for the agent: no previous best, 3 random / round-robin
            d.prevBest = b >= 0 && v[b].type == hermes::PathType::FAILED ? -1 : b;
        }
        if (active)
        {
            Simulator::Schedule(m_interval, &HermesRackState::Probe, Ptr<HermesRackState>(this));
        }
        else
        {
            m_timerOn = false;
        }
    }

    /** Probe EVs from the agent to host d.rackHosts[hi] (index 0: the first host). */
    const std::vector<int32_t>& ProbeEvs(Dst& d, uint32_t hi, uint16_t n)
    {
        if (hi == 0 || hi >= d.rackHosts.size())
        {
            return d.probeEvs;
        }
        std::vector<int32_t>& e = d.hostEvs[hi];
        if (e.empty())
        {
            e = DiscoverPathEvs(m_topo,
                                m_agentHost,
                                d.rackHosts[hi],
                                DcnTcpShimHeader::UDP_PORT,
                                n);
        }
        return e;
    }

    /** May path i to destination switch dstSw not be the previous best?  ProbeLossLimit:
     *  that many consecutive probes on it got no reply; ProbeBestFailed: the agent host's
     *  own failure records (per destination host of the rack, per rack, or the rack's shared
     *  ones) classify it FAILED.  A lost probe is never failure evidence for the flows'
     *  Algorithm 1 (spec 2.4). */
    bool AgentSeesFailure(uint32_t dstSw, Dst& d, uint16_t i, int64_t now)
    {
        if (m_opt.lossLimit > 0 && i < d.lostRun.size() && d.lostRun[i] >= m_opt.lossLimit)
        {
            return true;
        }
        if (!m_opt.bestFailed || !m_agentState)
        {
            return false;
        }
        auto failed = [&](hermes::PathFailure& r) {
            if (m_opt.eager)
            {
                r.Roll(now, m_p);
            }
            return hermes::Classify(d.sig[i], r, r, now, m_p) == hermes::PathType::FAILED;
        };
        if (i < d.retx.size() && failed(d.retx[i]))
        {
            return true;
        }
        auto rr = m_agentState->rackRetx.find(dstSw);
        if (rr != m_agentState->rackRetx.end() && i < rr->second.size() && failed(rr->second[i]))
        {
            return true;
        }
        for (uint32_t h : d.rackHosts)
        {
            auto it = m_agentState->dsts.find(h);
            if (it != m_agentState->dsts.end() && i < it->second.fail.size() &&
                failed(it->second.fail[i]))
            {
                return true;
            }
        }
        return false;
    }

    uint32_t SrcSwitch() const
    {
        return m_topo->GetSwitchOfHost(m_agentHost);
    }

    void OnProbeReply(Ipv4Address from,
                      uint16_t ev,
                      uint16_t pathId,
                      Time rtt,
                      bool ce,
                      bool ecnSample)
    {
        const uint32_t host = m_topo->GetHostIndex(from);
        if (host >= m_topo->GetNHosts())
        {
            return;
        }
        const uint32_t dstSw = m_topo->GetSwitchOfHost(host);
        auto it = m_dsts.find(dstSw);
        if (it != m_dsts.end() && pathId < it->second.pending.size())
        {
            // a reply: the path's probes are not lost (ProbeLossLimit)
            it->second.pending[pathId] = 0;
            it->second.lostRun[pathId] = 0;
        }
        ProbeSample(dstSw, pathId, rtt.GetNanoSeconds(), ce, m_p, ecnSample);
    }

  public:
    /** The previous best path toward destination switch dstSw (-1: none). */
    int32_t GetPrevBest(uint32_t dstSw) const
    {
        auto it = m_dsts.find(dstSw);
        return it == m_dsts.end() ? -1 : it->second.prevBest;
    }

  private:
    std::map<uint32_t, Dst> m_dsts; //!< by destination switch
    Ptr<DcnTopology> m_topo;
    uint32_t m_agentHost{0};
    uint32_t m_agentNode{0};
    Ptr<DcnTcpShim> m_shim;
    hermes::Params m_p;
    Time m_interval{0};
    Ptr<UniformRandomVariable> m_rng;
    bool m_timerOn{false};
    bool m_nicStamp{false}; //!< probes sense the path only (PathOnlySensing)
    ProbeOptions m_opt;
    Ptr<HermesHostState> m_agentState; //!< the agent host's failure records (ProbeBestFailed)
    uint64_t m_probes{0};
    std::vector<Ptr<HermesHostState>> m_hosts; //!< SignalKeying=paper: the rack's Hermes hosts
};

NS_OBJECT_ENSURE_REGISTERED(HermesRackState);
NS_OBJECT_ENSURE_REGISTERED(HermesHostState);

TypeId
HermesPathSelector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::HermesPathSelector")
            .SetParent<PathSelector>()
            .SetGroupName("DcnLb")
            .AddConstructor<HermesPathSelector>()
            .AddAttribute("EcnThreshold",
                          "T_ECN: ECN fraction threshold (Table 4 / Sec. 3.3: 40%); allowed [0, 1]",
                          DoubleValue(0.4),
                          MakeDoubleAccessor(&HermesPathSelector::m_tEcn),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("RttLowOffset",
                          "T_RTT_low = the pair's base RTT + this (Sec. 3.3: 20-40 us, default "
                          "20 us); allowed >= 0",
                          TimeValue(MicroSeconds(20)),
                          MakeTimeAccessor(&HermesPathSelector::m_rttLowOffset),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("RttHigh",
                          "T_RTT_high (Sec. 3.3 (simulation): 180 us, calibrated for a ~60 us "
                          "base RTT; testbed 300 us; Table 4 gives only the rule base RTT + 1.5 "
                          "x one-hop delay, attribute RttThresholdsFromRule); allowed > 0",
                          TimeValue(MicroSeconds(180)),
                          MakeTimeAccessor(&HermesPathSelector::m_rttHigh),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("RttHighOneWay",
                          "T_RTT_high is one-way, as the paper's forward delays (spec 2.1): "
                          "each pair adds its reverse base delay, since the RTT sample is a "
                          "round trip (1 us links: +4 us, 10 us links: +40 us); false: the "
                          "round trip is compared with RttHigh itself (before 2026-11-28)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&HermesPathSelector::m_rttHighOneWay),
                          MakeBooleanChecker())
            .AddAttribute("DeltaRtt",
                          "delta RTT of a notably better path (Sec. 3.3 (simulation): one hop "
                          "delay, 80 us, calibrated for a ~60 us base RTT; testbed 120 us; "
                          "attribute RttThresholdsFromRule derives it); allowed >= 0",
                          TimeValue(MicroSeconds(80)),
                          MakeTimeAccessor(&HermesPathSelector::m_dRtt),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("DeltaEcn",
                          "delta ECN of a notably better path (Sec. 3.3: 5%; Table 4: 3-10%); "
                          "allowed [0, 1]",
                          DoubleValue(0.05),
                          MakeDoubleAccessor(&HermesPathSelector::m_dEcn),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("RateThreshold",
                          "R as a fraction of the host link rate: flows at or above it are "
                          "never rerouted (Sec. 3.3: 30%; Table 4: 20-40%); allowed [0, 10]",
                          DoubleValue(0.3),
                          MakeDoubleAccessor(&HermesPathSelector::m_rFraction),
                          MakeDoubleChecker<double>(0, 10))
            .AddAttribute("SizeThreshold",
                          "S: flows that sent <= S bytes are never rerouted (Sec. 3.3: 600 KB; "
                          "Table 4: 100-800 KB); allowed any",
                          UintegerValue(600000),
                          MakeUintegerAccessor(&HermesPathSelector::m_s),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("TimeoutThreshold",
                          "N_TO: timeouts with no ACK that mark a path failed (Sec. 3.1.2: 3; "
                          "spec: >= 3); allowed 1..1000",
                          UintegerValue(3),
                          MakeUintegerAccessor(&HermesPathSelector::m_nTimeout),
                          MakeUintegerChecker<uint32_t>(1, 1000))
            .AddAttribute("RetxThreshold",
                          "T_RETX: retransmission fraction of a failed path (Sec. 3.1.2: 1%); "
                          "allowed [0, 1]",
                          DoubleValue(0.01),
                          MakeDoubleAccessor(&HermesPathSelector::m_tRetx),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("RetxWindow",
                          "tau: retransmission window (Sec. 3.1.2: 10 ms); allowed > 0",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&HermesPathSelector::m_tau),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute(
                "ProbeInterval",
                "Probe interval of the rack agent (Sec. 3.3 / Table 4: 500 us, range 100-500 "
                "us); 0 = no probing (breakdown); allowed 0 or >= 1 us",
                TimeValue(MicroSeconds(500)),
                MakeTimeAccessor(&HermesPathSelector::m_probeInterval),
                MakeTimeChecker(Time(0)))
            .AddAttribute("StaleTime",
                          "A path with no sample this long is gray (spec 2.1 [NP]: 4 probe "
                          "intervals = 2 ms); must exceed ProbeInterval",
                          TimeValue(MilliSeconds(2)),
                          MakeTimeAccessor(&HermesPathSelector::m_stale),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("EcnGain",
                          "EWMA gain of f_ECN per ACK or probe reply (spec 2.1 [NP]: 1/8); "
                          "allowed (0, 1]",
                          DoubleValue(1.0 / 8),
                          MakeDoubleAccessor(&HermesPathSelector::m_ecnGain),
                          MakeDoubleChecker<double>(1e-9, 1))
            .AddAttribute("RttGain",
                          "EWMA gain of t_RTT per sample (spec 2.1 [ART]: 0.5); allowed (0, 1]",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&HermesPathSelector::m_rttGain),
                          MakeDoubleChecker<double>(1e-9, 1))
            .AddAttribute("DreInterval",
                          "T_dre of the CONGA DRE rate estimators (spec 2.1 [ART/NP]: 30 us); "
                          "allowed > 0",
                          TimeValue(MicroSeconds(30)),
                          MakeTimeAccessor(&HermesPathSelector::m_dreT),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("DreAlpha",
                          "alpha of the DRE (spec 2.1 [ART/NP]: 0.2); allowed (0, 1)",
                          DoubleValue(0.2),
                          MakeDoubleAccessor(&HermesPathSelector::m_dreAlpha),
                          MakeDoubleChecker<double>(1e-6, 1 - 1e-6))
            .AddAttribute("ExcludeCurrentOnTimeout",
                          "After a timeout, leave out the current path (spec 3: the literal "
                          "rule does not; false)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&HermesPathSelector::m_excludeCurrent),
                          MakeBooleanChecker())
            .AddAttribute("Reroute",
                          "Cautious rerouting of congested flows (Algorithm 2 lines 13-23); "
                          "false = breakdown 'no rerouting' (Sec. 5.4)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&HermesPathSelector::m_reroute),
                          MakeBooleanChecker())
            .AddAttribute("CandidateNeedsSample",
                          "A congested flow moves only to a path whose signals are fresh (a "
                          "sample within StaleTime) and notably better (Algorithm 2 lines "
                          "15 / 19; Sec. 3.2: Hermes reroutes only when it finds a path with "
                          "notably better condition, and an unsampled or stale path's RTT / "
                          "ECN are no measurement; our resolution, review s53 H1).  false: "
                          "stale values count and a never-sampled path counts as RTT 0, ECN 0, "
                          "always notably better (before 2026-12-01)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&HermesPathSelector::m_candidateNeedsSample),
                          MakeBooleanChecker())
            .AddAttribute(
                "RerouteInterval",
                "A flow on a congested path tries lines 13-23 at most once per this "
                "interval (0 = at every packet, the paper's Algorithm 2; spec 8 [ART]: 100 "
                "us); allowed >= 0",
                TimeValue(Time(0)),
                MakeTimeAccessor(&HermesPathSelector::m_rerouteInterval),
                MakeTimeChecker(Time(0)))
            .AddAttribute("RerouteSkip",
                          "Probability that a reroute attempt is skipped at random (0 = the "
                          "paper; spec 8 [ART]: 0.5); allowed [0, 1)",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&HermesPathSelector::m_rerouteSkip),
                          MakeDoubleChecker<double>(0, 0.999))
            .AddAttribute("SizeSinceMove",
                          "S counts the bytes a flow sent since its last move instead of all "
                          "its bytes (spec 2 [NP]: s_sent carries over a move, false).  The "
                          "authors' code ([ART], spec 8) resets the count at every move (acked "
                          "bytes there, sent bytes here), so a moved flow must send S more on "
                          "its new path before the next move; with RerouteInterval / "
                          "RerouteSkip it is [ART]'s gating (doc/hermes.rst \"[ART]'s "
                          "rerouting gates\")",
                          BooleanValue(false),
                          MakeBooleanAccessor(&HermesPathSelector::m_sizeSinceMove),
                          MakeBooleanChecker())
            .AddAttribute("RetxPerRack",
                          "Count retransmissions per (destination rack, path) at each host, the "
                          "paper's path (Sec. 3.1.2: a path's retransmission fraction every tau; "
                          "Table 3: path-level variable; paths are rack-to-rack as probing, "
                          "Sec. 3.1.3); false = per (destination host, path) like the timeouts "
                          "(spec 2.3 [NP])",
                          BooleanValue(true),
                          MakeBooleanAccessor(&HermesPathSelector::m_retxPerRack),
                          MakeBooleanChecker())
            .AddAttribute("RetxSharedInRack",
                          "Share the retransmission evidence of (destination rack, path) among "
                          "all Hermes hosts of the sending rack, as probe results are (Sec. "
                          "3.1.3).  Not in the paper nor the spec (spec 2.3: failure evidence "
                          "is local to each host), so false; an exploration option "
                          "(doc/hermes.rst, \"Lossy spine at 128 hosts\").  Needs "
                          "RetxPerRack; timeouts stay per destination host",
                          BooleanValue(false),
                          MakeBooleanAccessor(&HermesPathSelector::m_retxShared),
                          MakeBooleanChecker())
            .AddAttribute(
                "SignalKeying",
                "Who keeps the ECN / RTT signals of (destination rack, path).  paper (default, "
                "Sec. 3.1.3 and the authors' code): every host keeps its own, fed by its own "
                "ACKs; the rack's probe agent (its first Hermes host) shares each probe reply "
                "with every Hermes host of the rack.  rack (before 2026-11-30; spec 1 keying "
                "[NP]): one table per sending rack, fed by every host's ACKs and the agent's "
                "probes.  host (the former SignalsSharedInRack=false): every host keeps its own "
                "and is its own probe agent (one agent per host).  doc/hermes.rst \"Signal "
                "keying\"",
                EnumValue(HermesPathSelector::KEY_PAPER),
                DCNLB_ENUM_ACCESSOR(SignalKeying, &HermesPathSelector::m_keying),
                MakeEnumChecker(HermesPathSelector::KEY_PAPER,
                                "paper",
                                HermesPathSelector::KEY_RACK,
                                "rack",
                                HermesPathSelector::KEY_HOST,
                                "host"))
            .AddAttribute("RestartStaleSignals",
                          "Restart a path's f_ECN and t_RTT averages on its first sample after "
                          "StaleTime without one (f_ECN = that sample's mark, t_RTT = its RTT), "
                          "instead of blending into the stale values.  Our resolution: the "
                          "paper and the authors' code count ECN per window (Sec. 3.1.1, Table "
                          "3), the spec's EWMA 1/8 says nothing of stale paths; false = the "
                          "EWMAs continue (before 2026-11-30)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&HermesPathSelector::m_restartStale),
                          MakeBooleanChecker())
            .AddAttribute("RetxOnOriginalPath",
                          "Charge a retransmitted segment to the path that carried its original "
                          "transmission (the path whose loss it repairs, Sec. 3.1.2: drops show "
                          "up as retransmissions), found by sequence number among the flow's "
                          "last 8 paths (our choice; doc/hermes.rst 'Lossy spine at 128 "
                          "hosts'); a timeout likewise counts against the timed-out segment's "
                          "path; false = the path of the flow's latest new data (timeouts: "
                          "the path of the flow's latest segment)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&HermesPathSelector::m_retxOnOriginal),
                          MakeBooleanChecker())
            .AddAttribute("RetxAfterMove",
                          "With RetxOnOriginalPath: also count a retransmission whose original "
                          "went on a path the flow has left since (false, our choice: after a "
                          "move ns-3 3.37's SACK recovery marks the old path's in-flight "
                          "segments lost as soon as the new path's are SACKed, so these are "
                          "reordering, not loss; doc/hermes.rst 'Lossy spine at 128 hosts')",
                          BooleanValue(false),
                          MakeBooleanAccessor(&HermesPathSelector::m_retxAfterMove),
                          MakeBooleanChecker())
            .AddAttribute("RetxAfterTimeoutMove",
                          "With RetxOnOriginalPath and RetxAfterMove false: still count a "
                          "retransmission whose original went on a path the flow left after a "
                          "TCP timeout (true, our choice, review s44 H5: after a timeout the "
                          "unacknowledged segments were lost, so their resends are loss "
                          "evidence of the old path, Sec. 3.1.2 / spec 2.3; after a move for "
                          "congestion or a FAILED path they are mostly reordering); false = "
                          "every resend after a move skipped, as before 2026-11-30",
                          BooleanValue(true),
                          MakeBooleanAccessor(&HermesPathSelector::m_retxAfterTimeoutMove),
                          MakeBooleanChecker())
            .AddAttribute("PathOnlySensing",
                          "RTT and ECN samples sense the path only (Sec. 3.1.1: they are meant "
                          "to show path congestion; the prototype sits above the host's qdisc, "
                          "which marks no ECN; spec 2.1): the send time of data segments and "
                          "probes is taken when they leave the sender's host NIC, and a CE mark "
                          "set by that NIC is not counted as a path mark (TCP still sees it). "
                          "false = the send time is taken in the stack, before the host NIC "
                          "queue, and every CE counts (before 2026-11-30; review s44 H2)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&HermesPathSelector::m_pathOnlySensing),
                          MakeBooleanChecker())
            .AddAttribute("RttThresholdsFromRule",
                          "Derive T_RTT_high = the pair's base RTT + 1.5 x K / C and delta RTT "
                          "= K / C from the fabric (Sec. 3.3 / Table 4 rule: one-hop delay = "
                          "ECN threshold / link capacity; K from the edge switch's port toward "
                          "the sender, the middle of Kmin..Kmax; C the sender's link rate); "
                          "RttHigh, RttHighOneWay and DeltaRtt are then unused.  false = the "
                          "paper's simulation values RttHigh / DeltaRtt, calibrated for its ~60 "
                          "us base RTT (review s44 H6)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&HermesPathSelector::m_rttRule),
                          MakeBooleanChecker())
            .AddAttribute(
                "ProbeChoice",
                "How the rack agent picks the 2 paths it probes besides the previous best "
                "(Sec. 3.1.3: '2 random + previously best').  random: 2 distinct random "
                "paths every interval (the paper's words; at n = 8 a path misses 4 intervals "
                "in a row with p = 26%, so it reads stale, review s44 H3).  roundrobin (our "
                "resolution): the next 2 other paths in cyclic order from a random start, "
                "so every path is probed once in ceil((n - 1) / 2) intervals",
                EnumValue(HermesPathSelector::PROBE_RANDOM),
                DCNLB_ENUM_ACCESSOR(ProbeChoice, &HermesPathSelector::m_probeChoice),
                MakeEnumChecker(HermesPathSelector::PROBE_RANDOM,
                                "random",
                                HermesPathSelector::PROBE_ROUND_ROBIN,
                                "roundrobin"))
            .AddAttribute("ProbeBestFailed",
                          "The rack agent never keeps a path as the 'previously best' it "
                          "probes every interval (Sec. 3.1.3) while the agent host's own "
                          "failure records (Algorithm 1's timeout and retransmission "
                          "evidence, Sec. 3.1.2) classify it FAILED (our resolution, review "
                          "s44 H3; the paper does not say how 'best' is ranked); false = "
                          "probe-only signals rank it, as before 2026-11-30",
                          BooleanValue(false),
                          MakeBooleanAccessor(&HermesPathSelector::m_probeBestFailed),
                          MakeBooleanChecker())
            .AddAttribute("ProbeLossLimit",
                          "After this many consecutive probes on a path got no reply (before "
                          "the next probe on it), the rack agent drops it as the previously "
                          "best path (our resolution, review s44 H3); a lost probe is still "
                          "no failure evidence for classification (spec 2.4).  0 = never; "
                          "allowed 0..1000",
                          UintegerValue(0),
                          MakeUintegerAccessor(&HermesPathSelector::m_probeLossLimit),
                          MakeUintegerChecker<uint32_t>(0, 1000))
            .AddAttribute(
                "ProbeHost",
                "Which host of the destination rack the agent probes.  first: always its "
                "first host (before 2026-11-30), so the probes also measure that host's "
                "downlink queue.  rotate: every probe goes to the next host of the rack in "
                "turn (our resolution; Sec. 3.1.3 says rack-level probing is inaccurate when "
                "last-hop delays differ, review s44 H2)",
                EnumValue(HermesPathSelector::PROBE_HOST_FIRST),
                DCNLB_ENUM_ACCESSOR(ProbeHost, &HermesPathSelector::m_probeHost),
                MakeEnumChecker(HermesPathSelector::PROBE_HOST_FIRST,
                                "first",
                                HermesPathSelector::PROBE_HOST_ROTATE,
                                "rotate"))
            .AddAttribute("EagerRetxWindow",
                          "Close a path's retransmission window as soon as tau has passed "
                          "when the path is classified (Sec. 3.1.2: the fraction is computed "
                          "'every tau'; review s44 H9(a)), so a new flow sees the last full "
                          "window (default: the paper's wording; at small scale within seed "
                          "noise, doc/hermes.rst \"Probe choice and eager windows\"); false = "
                          "the window closes at the record's next send, ACK or timeout "
                          "(before 2026-11-30)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&HermesPathSelector::m_eagerWindow),
                          MakeBooleanChecker())
            .AddAttribute(
                "HostCeSample",
                "With PathOnlySensing: what a data segment or probe that left the sender's "
                "own NIC CE-marked gives the path's f_ECN (Sec. 3.1.1: ECN senses path "
                "congestion; the prototype's host qdisc marks nothing).  unmarked: an "
                "unmarked sample (before 2026-11-30; its CE bit cannot say whether a switch "
                "would also have marked it); none: no ECN sample, the echo or probe reply "
                "carries its RTT only (our resolution, s45 'Not done')",
                EnumValue(HermesPathSelector::HOST_CE_UNMARKED),
                DCNLB_ENUM_ACCESSOR(HostCeSample, &HermesPathSelector::m_hostCeSample),
                MakeEnumChecker(HermesPathSelector::HOST_CE_UNMARKED,
                                "unmarked",
                                HermesPathSelector::HOST_CE_NONE,
                                "none"))
            .AddAttribute("FirstPath",
                          "Test hook of the paper's Examples 1 and 2 (Sec. 2.2.2, spec section 9 "
                          "tests 21-22: 'a DCTCP flow whose first path a test hook forces'): "
                          "a connection's first placement is this path index of its pair's path "
                          "set (leaf-spine: the spine) instead of Algorithm 2's choice, when the "
                          "pair has more paths than the index (a pair with fewer, e.g. inside a "
                          "rack, is placed by Algorithm 2); later moves are Algorithm 2's, and a "
                          "reused connection's next flow stays where the connection is (one "
                          "flow per connection: ConnectionPolicy=NewPerMessage).  -1 (default): "
                          "Algorithm 2 places every flow; allowed -1..63",
                          IntegerValue(-1),
                          MakeIntegerAccessor(&HermesPathSelector::m_firstPath),
                          MakeIntegerChecker<int32_t>(-1, hermes::kMaxPaths - 1))
            .AddAttribute("NumPaths",
                          "Paths per connection; 0 = the pair's minimal paths (leaf-spine: the "
                          "spine uplinks; 8 without a topology); allowed 0..64",
                          UintegerValue(0),
                          MakeUintegerAccessor(&HermesPathSelector::m_numPathsAttr),
                          MakeUintegerChecker<uint32_t>(0, hermes::kMaxPaths))
            .AddTraceSource("Reroute",
                            "A flow was placed or moved (old path, -1 = new; new path; type of "
                            "the old path)",
                            MakeTraceSourceAccessor(&HermesPathSelector::m_rerouteTrace),
                            "ns3::HermesPathSelector::RerouteTracedCallback")
            .AddTraceSource("PathFailed",
                            "A timeout made a (destination host, path) failure record FAILED "
                            "(Sec. 3.1.2 / Algorithm 1: N_TO timeouts, no ACK since the first): "
                            "destination host (UINT32_MAX: unknown), path",
                            MakeTraceSourceAccessor(&HermesPathSelector::m_pathFailedTrace),
                            "ns3::HermesPathSelector::PathFailedTracedCallback");
    return tid;
}

HermesPathSelector::HermesPathSelector()
{
    NS_LOG_FUNCTION(this);
}

HermesPathSelector::~HermesPathSelector() = default;

void
HermesPathSelector::DoDispose()
{
    m_rack = nullptr;
    m_host = nullptr;
    m_ownShared = nullptr;
    m_sig = nullptr;
    m_fail = nullptr;
    m_retx = nullptr;
    m_rp = nullptr;
    m_rackLastUse = nullptr;
    PathSelector::DoDispose();
}

std::vector<HermesPathSelector::FailureEvidence>
HermesPathSelector::GetFailureEvidence(Ptr<DcnLbSharedState> hostState)
{
    std::vector<FailureEvidence> out;
    Ptr<HermesHostState> h =
        hostState ? DynamicCast<HermesHostState>(hostState->Get("hermes")) : nullptr;
    if (!h)
    {
        return out;
    }
    // a record's retransmission episodes count only where that evidence classifies paths
    // (with RetxPerRack the host records' own fractions only gate clearing)
    auto add = [&out](uint32_t dstHost,
                      uint32_t dstSw,
                      const std::vector<hermes::PathFailure>& v,
                      bool retx) {
        for (std::size_t i = 0; i < v.size(); ++i)
        {
            const uint32_t r = retx ? v[i].retxFailures : 0;
            if (v[i].timeoutFailures > 0 || r > 0)
            {
                out.push_back({dstHost,
                               dstSw,
                               static_cast<int32_t>(i),
                               v[i].timeoutFailures,
                               r,
                               NanoSeconds(v[i].firstTimeoutFailureNs),
                               NanoSeconds(retx ? v[i].firstRetxFailureNs : -1)});
            }
        }
    };
    for (const auto& [dst, hd] : h->dsts)
    {
        add(dst, UINT32_MAX, hd.fail, h->retxRecords == HermesHostState::RETX_IN_DSTS);
    }
    for (const auto& [sw, v] : h->rackRetx)
    {
        add(UINT32_MAX, sw, v, h->retxRecords == HermesHostState::RETX_IN_RACK_RECORDS);
    }
    return out;
}

Time
HermesPathSelector::RuleHopDelay(Ptr<DcnTopology> topo, uint32_t host)
{
    NS_LOG_FUNCTION(topo << host);
    if (!topo || host >= topo->GetNHosts())
    {
        return Time(0);
    }
    Ptr<Node> node = topo->GetHosts().Get(host);
    const std::vector<uint32_t>& links = topo->GetLinksOfNode(node);
    if (links.empty())
    {
        return Time(0);
    }
    // the edge switch's port toward the host: a switch port, with the fabric's K
    const DcnLinkInfo& l = topo->GetLink(links[0]);
    Ptr<DcnQueueDisc> q = topo->GetQueueDisc(l.a == node ? l.devB : l.devA);
    if (!q || l.rate.GetBitRate() == 0)
    {
        return Time(0);
    }
    // the thresholds in use (fractions of DataLimit or EcnKminPerGbps x rate)
    q->UpdateThresholds();
    const QueueSize limit = q->GetDataLimit();
    // K: the step threshold (Kmin = Kmax); with a ramp its middle (our resolution);
    // a limit in packets counts 1500-byte frames
    const double unit = limit.GetUnit() == QueueSizeUnit::BYTES ? 1.0 : 1500.0;
    const double kBytes = 0.5 * (q->GetKmin() + q->GetKmax()) * unit;
    return NanoSeconds(static_cast<int64_t>(
        std::llround(kBytes * 8e9 / static_cast<double>(l.rate.GetBitRate()))));
}

std::string
HermesPathSelector::Name() const
{
    return "hermes";
}

std::string
HermesPathSelector::Validate() const
{
    if (m_retxShared && !m_retxPerRack)
    {
        return "option --ns3::HermesPathSelector::RetxSharedInRack: value 'true' needs "
               "RetxPerRack=true (evidence per destination rack); allowed: false, or with "
               "RetxPerRack=true";
    }
    if (m_retxShared && m_keying == KEY_HOST)
    {
        return "option --ns3::HermesPathSelector::RetxSharedInRack: value 'true' needs "
               "SignalKeying=paper or rack (with SignalKeying=host there is no rack state to "
               "share); allowed: false, or with SignalKeying=paper or rack";
    }
    if (m_probeInterval.IsStrictlyPositive() && m_probeInterval < MicroSeconds(1))
    {
        // a probe round per rack agent every few ns would stall the run
        return "option --ns3::HermesPathSelector::ProbeInterval: value '" +
               std::to_string(m_probeInterval.GetNanoSeconds()) +
               "ns'; allowed: 0 (no probing) or >= 1us";
    }
    // settings that would do nothing (review s46 H4): refused rather than ignored
    if (m_hostCeSample == HOST_CE_NONE && !m_pathOnlySensing)
    {
        return "option --ns3::HermesPathSelector::HostCeSample: value 'none' needs "
               "PathOnlySensing=true (only then is a host-NIC CE told apart); allowed: "
               "unmarked, or none with PathOnlySensing=true";
    }
    if (m_probeInterval.IsZero())
    {
        const char* idle = m_probeChoice != PROBE_RANDOM     ? "ProbeChoice"
                           : m_probeHost != PROBE_HOST_FIRST ? "ProbeHost"
                           : m_probeLossLimit > 0            ? "ProbeLossLimit"
                           : m_probeBestFailed               ? "ProbeBestFailed"
                                                             : nullptr;
        if (idle)
        {
            return std::string("option --ns3::HermesPathSelector::") + idle +
                   ": set without probing (ProbeInterval=0: no probe agent); allowed: its "
                   "default, or with ProbeInterval > 0";
        }
    }
    if (m_probeInterval.IsStrictlyPositive() && m_stale <= m_probeInterval)
    {
        return "option --ns3::HermesPathSelector::StaleTime: value '" +
               std::to_string(m_stale.GetMicroSeconds()) + "us'; allowed: > ProbeInterval (" +
               std::to_string(m_probeInterval.GetMicroSeconds()) +
               "us; spec 2.1: probe results would expire before use)";
    }
    return "";
}

void
HermesPathSelector::CreateRngs()
{
    if (!m_probeRng)
    {
        Rng();
        m_probeRng = CreateObject<UniformRandomVariable>();
    }
}

int64_t
HermesPathSelector::AssignStreams(int64_t stream)
{
    CreateRngs();
    const int64_t n = AssignRngStream(stream);
    m_probeRng->SetStream(stream + n);
    return n + 1;
}

void
HermesPathSelector::Setup(const PathSelectorSetup& setup)
{
    NS_LOG_FUNCTION(this);
    PathSelector::Setup(setup);
    CreateRngs();
    hermes::Params& p = m_p;
    p.tEcn = m_tEcn;
    p.tRttLowNs = (setup.baseRtt + m_rttLowOffset).GetNanoSeconds();
    // the RTT sample is a round trip (data out, ACK or probe reply back in the high band):
    // T_RTT_high is the paper's one-way value, so add the pair's reverse base delay (spec
    // 2.1 "with a true round trip, add the reverse base delay to T_RTT_low and T_RTT_high";
    // T_RTT_low's base is already the round trip); the unloaded one-way delay of a small
    // packet is half the base RTT of an empty data packet and its ACK
    Time reverse(0);
    if (m_rttHighOneWay && setup.topology && setup.srcHost != UINT32_MAX &&
        setup.dstHost != UINT32_MAX)
    {
        reverse = setup.topology->GetBaseRtt(setup.srcHost, setup.dstHost, 0) / 2;
    }
    p.tRttHighNs = (m_rttHigh + reverse).GetNanoSeconds();
    p.dRttNs = m_dRtt.GetNanoSeconds();
    p.dEcn = m_dEcn;
    const double line =
        setup.topology ? static_cast<double>(setup.topology->GetHostLinkRate().GetBitRate()) : 10e9;
    p.rBps = m_rFraction * line;
    p.sBytes = m_s;
    p.nTimeout = m_nTimeout;
    p.tRetx = m_tRetx;
    p.tauNs = m_tau.GetNanoSeconds();
    p.staleNs = m_stale.GetNanoSeconds();
    p.ecnGain = m_ecnGain;
    p.rttGain = m_rttGain;
    p.restartStale = m_restartStale;
    p.dreTNs = m_dreT.GetNanoSeconds();
    p.dreAlpha = m_dreAlpha;
    p.excludeCurrentOnTimeout = m_excludeCurrent;
    p.reroute = m_reroute;
    p.betterNeedsSample = m_candidateNeedsSample;

    const DcnPathSet* ps = setup.GetPaths();
    uint32_t n = m_numPathsAttr;
    if (n == 0)
    {
        n = ps ? (ps->nMinimal > 0 ? ps->nMinimal : static_cast<uint32_t>(ps->paths.size())) : 8;
    }
    m_n = static_cast<uint16_t>(std::max<uint32_t>(1, std::min<uint32_t>(n, hermes::kMaxPaths)));
    // topology-free use: a host object of our own, kept alive with the selector (the rack
    // and host states it hands out are disposed with it)
    m_ownShared = setup.shared ? nullptr : CreateObject<DcnLbSharedState>();
    Ptr<DcnLbSharedState> shared = setup.shared ? setup.shared : m_ownShared;
    m_host = shared->GetOrCreate<HermesHostState>("hermes");
    if (m_rttRule && setup.topology && setup.srcHost != UINT32_MAX)
    {
        // Sec. 3.3 / Table 4: T_RTT_high = base RTT + 1.5 one-hop delays, delta RTT = one
        // hop, one hop = K / C; the base is the pair's round trip, as the sample's
        if (m_host->ruleHopNs < 0)
        {
            m_host->ruleHopNs = RuleHopDelay(setup.topology, setup.srcHost).GetNanoSeconds();
        }
        if (m_host->ruleHopNs > 0)
        {
            p.tRttHighNs = setup.baseRtt.GetNanoSeconds() + 3 * m_host->ruleHopNs / 2;
            p.dRttNs = m_host->ruleHopNs;
        }
    }
    Ptr<DcnLbSharedState> rackSs = DynamicCast<DcnLbSharedState>(shared->Get("dcn-rack"));
    // without a rack object (topology-free use) or with SignalKeying=host the host's own
    // object holds the rack state, under its own key (the host state already uses
    // "hermes"); the host is then its own probe agent
    m_rack = rackSs && m_keying != KEY_HOST ? rackSs->GetOrCreate<HermesRackState>("hermes")
                                            : shared->GetOrCreate<HermesRackState>("hermes-rack");

    const uint32_t dstSw = setup.dstSwitch;
    m_dstSw = dstSw;
    m_dstHost = setup.dstHost;
    HermesHostState::HostDst& hd = m_host->dsts[setup.dstHost];
    if (hd.fail.empty())
    {
        hd.fail.resize(m_n);
        hd.evs.resize(m_n);
        if (setup.topology && setup.srcHost != UINT32_MAX && setup.dstHost != UINT32_MAX)
        {
            std::vector<int32_t> evs = DiscoverPathEvs(setup.topology,
                                                       setup.srcHost,
                                                       setup.dstHost,
                                                       DcnTcpShimHeader::UDP_PORT,
                                                       m_n);
            for (uint16_t i = 0; i < m_n; ++i)
            {
                hd.evs[i] = static_cast<uint16_t>(std::max(evs[i], 0));
                if (evs[i] < 0)
                {
                    // no EV reaches this path: never choose it (failed for good)
                    hd.fail[i].Fail(INT64_MAX / 2);
                }
            }
        }
        else
        {
            const uint16_t base = static_cast<uint16_t>(Rng().GetInteger(0, 65535));
            for (uint16_t i = 0; i < m_n; ++i)
            {
                hd.evs[i] = static_cast<uint16_t>(base + i);
            }
        }
    }
    m_evs = hd.evs;
    m_fail = hd.fail.data();
    m_retx = m_fail;
    m_host->retxRecords = !m_retxPerRack ? HermesHostState::RETX_IN_DSTS
                          : m_retxShared ? HermesHostState::RETX_SHARED
                                         : HermesHostState::RETX_IN_RACK_RECORDS;
    if (m_retxPerRack)
    {
        std::vector<hermes::PathFailure>& rr = m_host->rackRetx[dstSw];
        if (rr.empty())
        {
            rr.resize(m_n);
        }
        m_retx = rr.data();
    }
    if (m_retxShared && m_retxPerRack)
    {
        HermesRackState::Dst& rd = m_rack->GetDst(dstSw, m_n);
        if (rd.retx.empty())
        {
            rd.retx.resize(m_n);
        }
        m_retx = rd.retx.data();
    }
    std::vector<hermes::Dre>& rp = m_host->rp[dstSw];
    if (rp.empty())
    {
        rp.resize(m_n);
    }
    m_rp = rp.data();
    HermesRackState::Dst& d = m_rack->GetDst(dstSw, m_n);
    m_sig = d.sig.data();
    if (m_keying == KEY_PAPER)
    {
        // the host's own signals (Sec. 3.1.3); the rack's table is then the agent's
        // probe-only view, which picks the previous best path to probe
        m_sig = m_host->GetSig(dstSw, m_n).data();
        m_rack->AddHost(m_host);
    }
    m_rackLastUse = &d.lastUse;
    if (!m_rack->HasAgent() && setup.topology && setup.srcHost != UINT32_MAX &&
        m_probeInterval.IsStrictlyPositive())
    {
        Ptr<DcnTcpShim> shim =
            setup.topology->GetHosts().Get(setup.srcHost)->GetObject<DcnTcpShim>();
        if (shim)
        {
            HermesRackState::ProbeOptions opt;
            opt.roundRobin = m_probeChoice == PROBE_ROUND_ROBIN;
            opt.bestFailed = m_probeBestFailed;
            opt.lossLimit = m_probeLossLimit;
            opt.rotateHost = m_probeHost == PROBE_HOST_ROTATE;
            opt.eager = m_eagerWindow;
            opt.ceNoSample = HostCeNoSample();
            m_rack->SetAgent(setup.topology,
                             setup.srcHost,
                             shim,
                             p,
                             m_probeInterval,
                             m_probeRng,
                             m_pathOnlySensing,
                             opt,
                             m_host);
        }
    }
}

int32_t
HermesPathSelector::GetProbePrevBest() const
{
    return m_rack ? m_rack->GetPrevBest(m_dstSw) : -1;
}

void
HermesPathSelector::InjectProbeReply(uint16_t pathId, Time rtt, bool ce)
{
    NS_LOG_FUNCTION(this << pathId << rtt << ce);
    if (m_rack)
    {
        m_rack->ProbeSample(m_dstSw, pathId, rtt.GetNanoSeconds(), ce, m_p);
    }
}

hermes::PathType
HermesPathSelector::ClassifyPath(uint16_t i, int64_t now) const
{
    if (m_eagerWindow)
    {
        // EagerRetxWindow: a window older than tau closes now, not at the next send
        m_fail[i].Roll(now, m_p);
        if (m_retx != m_fail)
        {
            m_retx[i].Roll(now, m_p);
        }
    }
    return hermes::Classify(m_sig[i], m_fail[i], m_retx[i], now, m_p);
}

hermes::PathView
HermesPathSelector::View(uint16_t i, int64_t now) const
{
    hermes::PathView v;
    v.type = ClassifyPath(i, now);
    v.fEcn = m_sig[i].fEcn;
    v.rttNs = m_sig[i].rttNs;
    v.rpBps = m_rp[i].Rate(now, m_p);
    v.fresh = m_sig[i].Fresh(now, m_p);
    return v;
}

hermes::PathType
HermesPathSelector::GetPathType(uint16_t i) const
{
    const int64_t now = Simulator::Now().GetNanoSeconds();
    if (i >= m_n)
    {
        return hermes::PathType::FAILED;
    }
    // an observation: classify on copies, so looking at a path never closes its (host- or
    // rack-shared) windows (review s46 H2); Choose and View roll the records themselves
    hermes::PathFailure f = m_fail[i];
    hermes::PathFailure r = m_retx[i];
    if (m_eagerWindow)
    {
        f.Roll(now, m_p);
        r.Roll(now, m_p);
    }
    return hermes::Classify(m_sig[i], f, m_retx == m_fail ? f : r, now, m_p);
}

PathChoice
HermesPathSelector::Choose(const SendContext& ctx)
{
    NS_LOG_FUNCTION(this << ctx.psn);
    const int64_t now = Simulator::Now().GetNanoSeconds();
    const uint32_t bytes = ctx.bytesInFlight; // the shim passes the segment's payload
    int32_t next = m_cur;
    bool full = m_cur < 0 || m_timedOut;
    hermes::PathType curType = hermes::PathType::GRAY;
    if (!full)
    {
        curType = ClassifyPath(static_cast<uint16_t>(m_cur), now);
        full = curType == hermes::PathType::FAILED ||
               (curType == hermes::PathType::CONGESTED && m_p.reroute && SizeForS() > m_p.sBytes &&
                m_rate.Rate(now, m_p) < m_p.rBps && RerouteAttempt(now));
    }
    if (full)
    {
        hermes::PathView v[hermes::kMaxPaths];
        for (uint16_t i = 0; i < m_n; ++i)
        {
            v[i] = View(i, now);
        }
        hermes::FlowView f;
        f.cur = m_cur;
        f.timedOut = m_timedOut;
        f.sentBytes = SizeForS();
        f.rateBps = m_rate.Rate(now, m_p);
        auto draw = [this](uint32_t k) { return Rng().GetInteger(0, k - 1); };
        next = m_cur < 0 && m_firstPath >= 0 && m_firstPath < m_n
                   ? m_firstPath // the FirstPath test hook (Examples 1 and 2)
                   : hermes::Decide(f, v, m_n, m_p, draw);
        if (next != m_cur)
        {
            NS_LOG_LOGIC("flow moves " << m_cur << " -> " << next);
            m_rerouteTrace(m_cur, next, static_cast<uint8_t>(m_cur >= 0 ? v[m_cur].type : curType));
            if (m_cur >= 0)
            {
                // the flow leaves m_cur after a timeout: its unacknowledged segments were lost
                const uint64_t bit = uint64_t(1) << m_cur;
                m_leftOnTimeout = m_timedOut ? (m_leftOnTimeout | bit) : (m_leftOnTimeout & ~bit);
                ++m_reroutes;
                m_rate.Decay(now, m_p);
                m_rp[m_cur].Decay(now, m_p);
                m_rp[m_cur].x = std::max(0.0, m_rp[m_cur].x - m_rate.x);
                m_rp[next].Decay(now, m_p);
                m_rp[next].x += m_rate.x;
                m_sentOnPath = 0;
            }
            m_cur = next;
        }
    }
    m_timedOut = false;
    if (bytes > 0)
    {
        m_rate.Add(bytes, now, m_p);
        m_rp[m_cur].Add(bytes, now, m_p);
        // a retransmission repairs a loss on the path the original took: charge it to that
        // path (RetxOnOriginalPath, by sequence number), but only while the flow is still
        // on it (RetxAfterMove false): after a move the old path's in-flight segments are
        // resent by ns-3's SACK recovery because the new path's overtake them (reordering,
        // not loss; doc/hermes.rst "Lossy spine at 128 hosts").  RetxOnOriginalPath false:
        // the path of the flow's latest new data, as before
        const uint32_t seq = static_cast<uint32_t>(ctx.psn);
        if (!ctx.retransmission || m_lastNewPath < 0)
        {
            if (m_segN == 0 || m_segPath[m_segHead] != m_cur)
            {
                m_segHead = m_segN == 0 ? 0 : static_cast<uint8_t>((m_segHead + 1) % kSegHist);
                m_segN = static_cast<uint8_t>(std::min<uint32_t>(m_segN + 1u, kSegHist));
                m_segStart[m_segHead] = seq;
                m_segPath[m_segHead] = m_cur;
            }
            m_lastNewPath = m_cur;
        }
        if (ctx.retransmission)
        {
            // a later timeout of this segment is its resent copy's (it took m_cur)
            m_lastRetxSeq = seq;
            m_lastRetxPath = m_cur;
        }
        const int32_t charged =
            ctx.retransmission && m_retxOnOriginal ? OriginalPath(seq) : m_lastNewPath;
        const bool leftOnTimeout =
            m_retxAfterTimeoutMove && charged >= 0 && ((m_leftOnTimeout >> charged) & 1u);
        if (!ctx.retransmission || !m_retxOnOriginal || m_retxAfterMove || charged == m_cur ||
            leftOnTimeout)
        {
            m_retx[charged].OnSend(ctx.retransmission, now, m_p);
            if (m_retx != m_fail)
            {
                // the timeout record needs its data count too: a path FAILED by timeouts
                // clears only after a window with data (spec 2.3), also with RetxPerRack
                m_fail[charged].OnSend(ctx.retransmission, now, m_p);
            }
        }
        else
        {
            ++m_retxAfterMoveCount;
        }
        m_sent += bytes;
        m_sentOnPath += bytes;
    }
    *m_rackLastUse = now;
    m_rack->EnsureTimer();
    PathChoice c;
    c.ev = m_evs[m_cur];
    c.pathId = m_cur;
    return c;
}

bool
HermesPathSelector::RerouteAttempt(int64_t now)
{
    // [ART]'s gating of lines 13-23 (off by default: the paper tries at every packet)
    if (m_rerouteInterval.IsStrictlyPositive())
    {
        if (m_lastAttemptNs >= 0 && now - m_lastAttemptNs < m_rerouteInterval.GetNanoSeconds())
        {
            return false;
        }
        m_lastAttemptNs = now;
    }
    return m_rerouteSkip <= 0 || Rng().GetValue() >= m_rerouteSkip;
}

int32_t
HermesPathSelector::OriginalPath(uint32_t seq) const
{
    // newest first: the latest path whose first new segment is at or below seq (sequence
    // arithmetic modulo 2^32); older than the ring: its oldest path
    uint8_t i = m_segHead;
    for (uint8_t k = 0; k < m_segN; ++k)
    {
        if (static_cast<int32_t>(seq - m_segStart[i]) >= 0)
        {
            return m_segPath[i];
        }
        if (k + 1 < m_segN)
        {
            i = static_cast<uint8_t>((i + kSegHist - 1) % kSegHist);
        }
    }
    return m_segN > 0 ? m_segPath[i] : m_lastNewPath;
}

void
HermesPathSelector::OnFeedback(const PathFeedback& fb)
{
    NS_LOG_FUNCTION(this << static_cast<int>(fb.signal) << fb.path.pathId);
    if (m_n == 0 || !m_sig)
    {
        return;
    }
    int32_t p = fb.path.pathId;
    if (p < 0 || p >= m_n)
    {
        p = -1;
        for (uint16_t i = 0; i < m_n; ++i)
        {
            if (m_evs[i] == fb.path.ev)
            {
                p = i;
                break;
            }
        }
        if (p < 0)
        {
            return;
        }
    }
    const int64_t now = Simulator::Now().GetNanoSeconds();
    switch (fb.signal)
    {
    case FeedbackSignal::TIMEOUT:
        if (m_retxOnOriginal && m_lastRetxPath >= 0 &&
            static_cast<uint32_t>(fb.psn) == m_lastRetxSeq)
        {
            // a resent segment timed out again: its latest copy's path (TCP resends the
            // oldest unacknowledged segment, whose original path the first timeout had)
            p = m_lastRetxPath;
        }
        else if (m_retxOnOriginal && m_segN > 0)
        {
            // the timed-out segment's own path (spec 2.3: timeouts per path), not the
            // flow's current one: they differ after a move
            p = OriginalPath(static_cast<uint32_t>(fb.psn));
        }
        {
            // the record counts its own timeout failures; the trace follows that count
            const uint32_t failuresBefore = m_fail[p].timeoutFailures;
            m_fail[p].OnTimeout(now, m_p);
            if (m_fail[p].timeoutFailures != failuresBefore)
            {
                NS_LOG_LOGIC("path " << p << " to host " << m_dstHost << " FAILED after "
                                     << m_fail[p].nTimeout << " timeouts");
                m_pathFailedTrace(m_dstHost, p);
            }
        }
        if (m_retx != m_fail)
        {
            m_retx[p].NoteTimeout(now, m_p);
        }
        m_timedOut = true;
        break;
    case FeedbackSignal::ACK:
    case FeedbackSignal::ECN_ACK: {
        // one RTT sample per echo: the echo's further packets carry only their marks
        // (review s44 H9(c))
        const int64_t rttNs =
            fb.rtt.IsStrictlyPositive() && fb.echoIndex == 0 ? fb.rtt.GetNanoSeconds() : -1;
        m_sig[p].OnSample(fb.signal == FeedbackSignal::ECN_ACK, rttNs, now, m_p, fb.ecnSample);
        m_fail[p].OnAck(now, m_p);
        if (m_retx != m_fail)
        {
            m_retx[p].OnAck(now, m_p);
        }
        break;
    }
    default:
        break;
    }
}

} // namespace ns3
