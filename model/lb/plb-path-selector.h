/*
 * PLB baseline (Qureshi et al., SIGCOMM'22 Sec. 3): one random EV per
 * connection, repathed (a new random EV) after N consecutive congested rounds
 * (ECN fraction >= 0.5; N = 12 as LAPS ran it), after fewer rounds when
 * nothing is in flight, and paused after an RTO.  Preset=reps-aggressive is
 * the REPS paper's setting (spec reps.md 3.4).  Wraps lbcore::PlbCore.
 * --lb=plb (LAPS defaults), --lb=plb-reps (the REPS preset).
 * TypeId ns3::DcnPlbPathSelector.
 */
#ifndef DCN_PLB_PATH_SELECTOR_H
#define DCN_PLB_PATH_SELECTOR_H

#include "path-selector.h"

#include "ns3/plb-core.h"
#include "ns3/traced-callback.h"

namespace ns3
{

class DcnPlbPathSelector : public PathSelector
{
  public:
    enum Preset
    {
        LAPS,           //!< the attributes as set (defaults = LAPS / PLB paper)
        REPS_AGGRESSIVE //!< PlbConfig::RepsAggressive(base RTT), ignores the round attributes
    };

    static TypeId GetTypeId();
    DcnPlbPathSelector();
    ~DcnPlbPathSelector() override;

    void Setup(const PathSelectorSetup& setup) override;
    PathChoice Choose(const SendContext& ctx) override;
    void OnFeedback(const PathFeedback& fb) override;
    std::string Name() const override;
    int64_t AssignStreams(int64_t stream) override;

    uint16_t GetEv() const
    {
        return m_ev;
    }

    uint64_t GetRepaths() const
    {
        return m_core.GetRepaths();
    }

    uint32_t GetConsecutiveCongestedRounds() const
    {
        return m_core.GetConsecutiveCongestedRounds();
    }

    const lbcore::PlbConfig& GetConfig() const
    {
        return m_core.GetConfig();
    }

  private:
    void Repath(lbcore::PlbAction a);
    /** Packets in flight: the feedback's exact count when the transport gives one,
     *  else the estimate (bytes in flight at the last send minus bytes acknowledged). */
    uint32_t InFlightPackets(const PathFeedback& fb);

    Preset m_preset{LAPS};
    double m_threshold{0.5};
    uint32_t m_rounds{12};
    uint32_t m_idleRounds{3};
    Time m_suspend;
    bool m_repathOnRto{true};
    bool m_nackIsCongestion{false};
    uint32_t m_evSetSize{65536};
    uint16_t m_ev{0};
    uint64_t m_sndNxt{0};
    int64_t m_inflightBytes{0};
    int64_t m_lastRtoNs{-1};
    lbcore::PlbCore m_core;
    TracedCallback<uint16_t, uint16_t, uint8_t> m_repath; //!< old EV, new EV, PlbAction
};

} // namespace ns3

#endif // DCN_PLB_PATH_SELECTOR_H
