/*
 * Spritz endpoint path selector (spritz spec 3, paper Sec. IV, Algorithms
 * 1-3) over the Spritz EV list of the connection's switch pair
 * (DcnSpritzInfo: entries sorted by latency, index 0 = shortest, Eq. 1
 * weights).  The logic is lbcore::SpritzCore (model/lb/core/spritz-core.h);
 * this class feeds it ACK / ECN / NACK / timeout feedback (the EV echoed in
 * the ACK, or recorded for a timed-out packet, names the path) and writes the
 * chosen entry's EV (EV1 << 8 | EV2) into the UDP source port.
 *
 * Modes (attribute Mode) and the schemes registered with them (--lb):
 *   scout  spritz-scout    Spritz-Scout (w)
 *   spray  spritz-spray    Spritz-Spray (w);  spritz-spray-u: uniform weights
 *   ops    ops-w, ops-u    per-packet gen(w) on Spritz routing (fine-grain baselines)
 *   ecmp   spritz-ecmp     one entry per connection from the flow hash (spec 4.2 ECMP)
 * Every scheme runs the "spritz" switch policy (spritz-forwarding-policy.h).
 * TypeId ns3::DcnSpritzPathSelector.
 */
#ifndef DCN_SPRITZ_PATH_SELECTOR_H
#define DCN_SPRITZ_PATH_SELECTOR_H

#include "dcn-spritz-info.h"

#include "ns3/nstime.h"
#include "ns3/path-selector.h"
#include "ns3/spritz-core.h"
#include "ns3/traced-callback.h"

namespace ns3
{

class DcnSpritzPathSelector : public PathSelector
{
  public:
    enum Mode
    {
        SCOUT,
        SPRAY,
        OPS,
        ECMP
    };

    static TypeId GetTypeId();
    DcnSpritzPathSelector();
    ~DcnSpritzPathSelector() override;

    void Setup(const PathSelectorSetup& setup) override;
    PathChoice Choose(const SendContext& ctx) override;
    void OnFeedback(const PathFeedback& fb) override;
    std::string Name() const override;
    int64_t AssignStreams(int64_t stream) override;

    std::string Validate() const override;

    /** The core (tests, traces). */
    const lbcore::SpritzCore& GetCore() const
    {
        return m_core;
    }

    /** Mode (attribute Mode). */
    Mode GetMode() const
    {
        return m_mode;
    }

    /** The pair's EV list (null before Setup or without a Spritz topology). */
    const DcnSpritzPairPaths* GetPaths() const
    {
        return m_paths;
    }

    /** Index of an EV in the pair's list (0xffffffff if not in it). */
    uint32_t IndexOfEv(uint16_t ev) const;

    typedef void (*EvTracedCallback)(uint16_t ev, uint32_t index, bool explored);
    typedef void (*BlockTracedCallback)(uint16_t ev, uint32_t index);

  private:
    Mode m_mode;
    bool m_weighted;
    double m_wScale;
    uint32_t m_bufferSize;
    uint32_t m_exploreThreshold;
    uint32_t m_ecnThreshold;
    double m_ecnRateTrigger;
    double m_minBias;
    uint32_t m_ecnWindow;
    Time m_reset;

    const DcnSpritzPairPaths* m_paths{nullptr};
    lbcore::SpritzCore m_core;
    bool m_ready{false};
    TracedCallback<uint16_t, uint32_t, bool> m_evTrace;
    TracedCallback<uint16_t, uint32_t> m_blockTrace;
};

} // namespace ns3

#endif // DCN_SPRITZ_PATH_SELECTOR_H
