/*
 * BitMap (STrack-like) EV selection, as the REPS paper ran it (spec reps.md
 * 3.4, [L] Sec. 4, exact rules from the authors' simulator [A]):
 *   - a set of 256 EVs, each with a 4-bit penalty;
 *   - ECN-marked ACK: penalty += 1; NACK: penalty += 4; timeout: penalty = 15
 *     (all saturating at 15);
 *   - the sender scans the EVs in an XOR-permuted order; a penalised EV is
 *     skipped and its penalty decremented, the first EV with penalty 0 is used.
 * A marked EV is therefore never reused until the scan has cleared it: an
 * EV with penalty p is skipped on its next p visits (about p x 256 packets)
 * and used on the visit after.  Our choice where [A] is not in the spec: the
 * XOR key is redrawn at the start of every pass over the 256 EVs, and EV =
 * (evBase + index) mod evSetSize (the wrapper picks evBase).  With an EV space of
 * fewer than 256 EVs (evSetSize < 256, e.g. REPS's --evs=16) the set is numEvs =
 * evSetSize EVs and the scan skips indices >= numEvs (our choice; [L] runs 256).
 * The worst case of one Next() is bounded (256 x 15 visits, all EVs
 * penalised); it is O(1) amortised as every skip removes one penalty unit.
 */
#ifndef DCN_BITMAP_CORE_H
#define DCN_BITMAP_CORE_H

#include <cstdint>

namespace ns3
{
namespace lbcore
{

struct BitmapConfig
{
    uint16_t evBase{0};        //!< EV of index 0; the set is evBase .. evBase+numEvs-1
    uint16_t numEvs{256};      //!< EVs in the set, 1..256 ([L]: 256)
    uint32_t evSetSize{65536}; //!< EVs wrap modulo this (1..65536)
    uint8_t ecnPenalty{1};     //!< spec reps.md 3.4
    uint8_t nackPenalty{4};    //!< spec reps.md 3.4
    uint8_t maxPenalty{15};    //!< spec reps.md 3.4 (timeout sets this)
};

class BitmapCore
{
  public:
    static constexpr uint16_t kEvs = 256;

    /** \param key0 uniform draw in [0, 256): XOR key of the first pass. */
    bool Configure(const BitmapConfig& cfg, uint8_t key0 = 0)
    {
        m_cfg = cfg;
        bool ok = true;
        if (m_cfg.maxPenalty < 1 || m_cfg.maxPenalty > 15)
        {
            m_cfg.maxPenalty = 15;
            ok = false;
        }
        if (m_cfg.numEvs < 1 || m_cfg.numEvs > kEvs)
        {
            m_cfg.numEvs = kEvs;
            ok = false;
        }
        if (m_cfg.evSetSize < 1 || m_cfg.evSetSize > 65536)
        {
            m_cfg.evSetSize = 65536;
            ok = false;
        }
        for (uint16_t i = 0; i < kEvs; ++i)
        {
            m_pen[i] = 0;
        }
        m_pos = 0;
        m_key = key0;
        return ok;
    }

    /** EV of the next packet. \param draw callable: uniform integer in [0, n). */
    template <class Draw>
    uint16_t Next(Draw&& draw)
    {
        for (;;)
        {
            if (m_pos == kEvs)
            {
                m_pos = 0;
                m_key = static_cast<uint8_t>(draw(kEvs));
            }
            const uint8_t idx = static_cast<uint8_t>(m_pos ^ m_key);
            ++m_pos;
            if (idx >= m_cfg.numEvs)
            {
                continue; // not in a set of fewer than 256 EVs
            }
            if (m_pen[idx] == 0)
            {
                return static_cast<uint16_t>((m_cfg.evBase + idx) % m_cfg.evSetSize);
            }
            --m_pen[idx];
            ++m_skips;
        }
    }

    /** Feedback for a packet sent on `ev` (EVs outside the set are ignored). */
    void OnAck(uint16_t ev, bool ecn)
    {
        if (ecn)
        {
            Add(ev, m_cfg.ecnPenalty);
        }
    }

    void OnNack(uint16_t ev)
    {
        Add(ev, m_cfg.nackPenalty);
    }

    void OnTimeout(uint16_t ev)
    {
        int32_t i;
        if (Index(ev, i))
        {
            m_pen[i] = m_cfg.maxPenalty;
        }
    }

    uint8_t GetPenalty(uint16_t ev) const
    {
        int32_t i;
        return Index(ev, i) ? m_pen[i] : 0;
    }

    uint64_t GetSkips() const
    {
        return m_skips;
    }

  private:
    bool Index(uint16_t ev, int32_t& i) const
    {
        const uint32_t off =
            (static_cast<uint32_t>(ev) + m_cfg.evSetSize - m_cfg.evBase % m_cfg.evSetSize) %
            m_cfg.evSetSize;
        i = static_cast<int32_t>(off);
        return ev < m_cfg.evSetSize && off < m_cfg.numEvs;
    }

    void Add(uint16_t ev, uint8_t p)
    {
        int32_t i;
        if (Index(ev, i))
        {
            const uint32_t v = m_pen[i] + p;
            m_pen[i] = static_cast<uint8_t>(v > m_cfg.maxPenalty ? m_cfg.maxPenalty : v);
        }
    }

    BitmapConfig m_cfg;
    uint8_t m_pen[kEvs]{};
    uint16_t m_pos{0};
    uint8_t m_key{0};
    uint64_t m_skips{0};
};

} // namespace lbcore
} // namespace ns3

#endif // DCN_BITMAP_CORE_H
