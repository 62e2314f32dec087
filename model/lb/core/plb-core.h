/*
 * PLB (Protective Load Balancing) sender state.  Qureshi et al., "PLB:
 * Congestion Signals are Simple and Effective for Network Load Balancing",
 * SIGCOMM'22, Sec. 3: per round (one RTT) the fraction of ECN-marked
 * deliveries is compared with a threshold; a congested round increments a
 * counter of consecutive congested rounds, a clean round resets it.  The
 * flow repaths (new random flow label / EV)
 *   - when the counter reaches idleRehashRounds and nothing is in flight
 *     (no reordering), or
 *   - unconditionally when it reaches rehashRounds (forced repath),
 * An RTO draws a new EV (repathOnRto: Linux TCP rethinks its txhash on every
 * RTO, tcp_write_timeout -> sk_rethink_txhash), resets the counter and
 * suspends PLB's own repathing for a random time in [suspendRto,
 * 2 suspendRto) (Linux tcp_plb_update_state_upon_rto: "an RTO causes a
 * sk_rethink_txhash() call that may switch this connection to a path with
 * completely different congestion characteristics").  The counter restarts
 * at 0 after a repath.  A NACK (trimmed packet) is no delivery: unless
 * nackIsCongestion it neither counts in a round's fraction nor ends a round
 * (Linux PLB: CE fraction of the delivered packets).
 *
 * Defaults: LAPS (spec laps.md 3, [A]): ECN fraction >= 0.5, forced after
 * N = 12 congested rounds, idle repath after 3, 60 s suspension after an RTO.
 * Preset RepsAggressive(): spec reps.md 3.4 ([L] Sec. 4, FlowBender-like):
 * round = one base RTT, congested when strictly more than 25% of the
 * feedback is ECN-marked or NACKed, new EV after more than 1 congested round
 * (i.e. at 2), and a new EV on every RTO (no suspension).
 *
 * Rounds: by PSN (a round ends when an ACK covers a PSN sent at or after the
 * round's start: one packet later than Linux's snd_una >= round-end test; default) or
 * by time (roundTimeNs > 0).
 */
#ifndef DCN_PLB_CORE_H
#define DCN_PLB_CORE_H

#include <cstdint>

namespace ns3
{
namespace lbcore
{

struct PlbConfig
{
    double congThreshold{0.5};    //!< LAPS [A]: round congested if ECN fraction >= 0.5
    bool strictThreshold{false};  //!< false: >=, true: > (REPS preset)
    bool nackIsCongestion{false}; //!< count NACKs as congested feedback (REPS preset)
    uint32_t rehashRounds{12};    //!< LAPS paper (evaluation, PLB): forced repath after 12 rounds
    uint32_t idleRehashRounds{3}; //!< LAPS [A]: repath after 3 when nothing in flight; 0 = off
    int64_t roundTimeNs{0};       //!< 0: PSN-based rounds; > 0: fixed-time rounds (REPS: base RTT)
    bool repathOnRto{true};       //!< new EV on an RTO (Linux TCP's txhash rethink; REPS)
    int64_t suspendRtoNs{60'000'000'000}; //!< LAPS [A] / Linux PLB: 60 s after an RTO

    /** REPS paper's aggressive setting (spec reps.md 3.4). */
    static PlbConfig RepsAggressive(int64_t baseRttNs)
    {
        PlbConfig c;
        c.congThreshold = 0.25;
        c.strictThreshold = true;
        c.nackIsCongestion = true;
        c.rehashRounds = 2;
        c.idleRehashRounds = 0;
        c.roundTimeNs = baseRttNs;
        c.repathOnRto = true;
        c.suspendRtoNs = 0;
        return c;
    }
};

enum class PlbAction : uint8_t
{
    NONE,
    IDLE_REPATH,   //!< counter >= idleRehashRounds and nothing in flight
    FORCED_REPATH, //!< counter >= rehashRounds
    RTO_REPATH,    //!< repathOnRto
};

class PlbCore
{
  public:
    bool Configure(const PlbConfig& cfg)
    {
        m_cfg = cfg;
        bool ok = true;
        if (!(m_cfg.congThreshold >= 0 && m_cfg.congThreshold <= 1))
        {
            m_cfg.congThreshold = 0.5;
            ok = false;
        }
        if (m_cfg.rehashRounds < 1)
        {
            m_cfg.rehashRounds = 1;
            ok = false;
        }
        m_consec = 0;
        m_acked = 0;
        m_marked = 0;
        m_roundEndPsn = 0;
        m_roundStartNs = -1;
        m_pauseUntilNs = -1;
        m_repaths = 0;
        return ok;
    }

    /** Start the first round explicitly (optional; otherwise the first
     *  feedback starts it and counts in it). */
    void StartRound(uint64_t roundEndPsn, int64_t nowNs)
    {
        m_roundStartNs = nowNs;
        m_roundEndPsn = roundEndPsn;
        m_acked = 0;
        m_marked = 0;
    }

    /**
     * Feedback for one delivered (or NACKed) packet.
     * \param ackedPsn highest PSN this feedback covers
     * \param congested ECN-echo (or a NACK when nackIsCongestion)
     * \param sndNxt next PSN the sender will use (end of the next round)
     * \param inFlight packets still in flight after this feedback
     * \return the action; on a repath the caller draws a new random EV
     */
    PlbAction OnFeedback(uint64_t ackedPsn,
                         bool congested,
                         uint64_t sndNxt,
                         uint32_t inFlight,
                         int64_t nowNs)
    {
        Count(congested, sndNxt, nowNs);
        bool roundEnd;
        if (m_cfg.roundTimeNs > 0)
        {
            roundEnd = nowNs - m_roundStartNs >= m_cfg.roundTimeNs;
        }
        else
        {
            roundEnd = ackedPsn >= m_roundEndPsn;
        }
        if (!roundEnd)
        {
            return PlbAction::NONE;
        }
        const double frac = static_cast<double>(m_marked) / static_cast<double>(m_acked);
        const bool cong =
            m_cfg.strictThreshold ? frac > m_cfg.congThreshold : frac >= m_cfg.congThreshold;
        m_consec = cong ? m_consec + 1 : 0;
        m_acked = 0;
        m_marked = 0;
        m_roundStartNs = nowNs;
        m_roundEndPsn = sndNxt;
        ++m_rounds;
        return CheckRehash(inFlight, nowNs);
    }

    /** A NACK (of a trimmed packet, or a go-back-N NACK naming the first PSN not
     *  received) counts as congested feedback if nackIsCongestion; otherwise it was not
     *  delivered and changes nothing (Linux PLB's fraction is of the delivered packets).
     *  \param psn the NACKed PSN, not delivered: for a PSN round's end the NACK covers
     *  up to psn - 1 (an ACK covers its own PSN), so a NACK of PSN 0 ends no round.  For a
     *  go-back-N NACK every PSN below psn was delivered; a trimmed packet's NACK (selective
     *  repeat) says nothing of the PSNs below it, so the same rule is a choice there (no
     *  preset counts NACKs with PSN rounds and trimming).
     *  With nothing left in flight (a go-back-N sender has marked its window lost, as
     *  [A]'s snd_nxt = snd_una after RecoverQueue) three such rounds repath as idle. */
    PlbAction OnNack(uint64_t psn, uint64_t sndNxt, uint32_t inFlight, int64_t nowNs)
    {
        if (!m_cfg.nackIsCongestion)
        {
            return PlbAction::NONE;
        }
        if (psn == 0 && m_cfg.roundTimeNs <= 0)
        {
            Count(true, sndNxt, nowNs); // covers no PSN: ends no round
            return PlbAction::NONE;
        }
        return OnFeedback(psn > 0 ? psn - 1 : 0, true, sndNxt, inFlight, nowNs);
    }

    /**
     * Retransmission timeout.  \param suspendDrawNs uniform draw in
     * [0, suspendRtoNs) (Linux PLB: suspend for suspendRto + random).
     */
    PlbAction OnRto(int64_t nowNs, int64_t suspendDrawNs)
    {
        // Linux tcp_plb_update_state_upon_rto: suspend PLB's repathing, reset its count
        m_consec = 0;
        if (m_cfg.suspendRtoNs > 0)
        {
            m_pauseUntilNs = nowNs + m_cfg.suspendRtoNs + suspendDrawNs;
        }
        if (m_cfg.repathOnRto)
        {
            ++m_repaths;
            return PlbAction::RTO_REPATH;
        }
        return PlbAction::NONE;
    }

    uint32_t GetConsecutiveCongestedRounds() const
    {
        return m_consec;
    }

    uint64_t GetRepaths() const
    {
        return m_repaths;
    }

    uint64_t GetRounds() const
    {
        return m_rounds;
    }

    bool IsSuspended(int64_t nowNs) const
    {
        return m_pauseUntilNs >= 0 && nowNs < m_pauseUntilNs;
    }

    const PlbConfig& GetConfig() const
    {
        return m_cfg;
    }

  private:
    /** One feedback into the round's counts (the first one opens the round). */
    void Count(bool congested, uint64_t sndNxt, int64_t nowNs)
    {
        if (m_roundStartNs < 0)
        {
            m_roundStartNs = nowNs;
            m_roundEndPsn = sndNxt;
        }
        ++m_acked;
        m_marked += congested ? 1 : 0;
    }

    PlbAction CheckRehash(uint32_t inFlight, int64_t nowNs)
    {
        const bool idle =
            m_cfg.idleRehashRounds > 0 && inFlight == 0 && m_consec >= m_cfg.idleRehashRounds;
        const bool forced = m_consec >= m_cfg.rehashRounds;
        if (!idle && !forced)
        {
            return PlbAction::NONE;
        }
        if (IsSuspended(nowNs))
        {
            // Linux PLB: while suspended after an RTO, a forced repath is held back
            // but the counter keeps saturating so it fires when the pause ends.
            return PlbAction::NONE;
        }
        m_pauseUntilNs = -1;
        m_consec = 0;
        ++m_repaths;
        return forced ? PlbAction::FORCED_REPATH : PlbAction::IDLE_REPATH;
    }

    PlbConfig m_cfg;
    uint64_t m_roundEndPsn{0};
    int64_t m_roundStartNs{-1};
    int64_t m_pauseUntilNs{-1};
    uint64_t m_repaths{0};
    uint64_t m_rounds{0};
    uint32_t m_consec{0};
    uint32_t m_acked{0};
    uint32_t m_marked{0};
};

} // namespace lbcore
} // namespace ns3

#endif // DCN_PLB_CORE_H
