/*
 * ConWeave cores (issue 14).  Song et al., "Network Load Balancing with
 * In-network Reordering Support for RDMA", ACM SIGCOMM 2023 (the issue names
 * it NSDI'23).  Header-only, no ns-3 dependency, no allocation per packet.
 *
 * Source ToR (ConWeaveTxCore), per flow (hash-indexed table):
 *  - the first packet of an epoch is an RTT_REQUEST; the destination ToR
 *    answers with an RTT_REPLY.  A timely reply (before theta_reply = base
 *    RTT + ReplyExtra) "stabilises" the flow: its next packet opens the next
 *    epoch with a new RTT_REQUEST on the same path;
 *  - a packet that finds the reply deadline passed (no reply) is the TAIL of
 *    the current path: it still leaves on the old path, the flow moves to a
 *    new path (two random samples, the first not busy) and every later packet
 *    of the epoch is marked REROUTED.  A CLEAR (the reply to the TAIL) or the
 *    flow's inactivity (theta_inactive) stabilises the flow again;
 *  - a flow idle for more than theta_inactive starts a new epoch on a freshly
 *    sampled path;
 *  - NOTIFY (the destination ToR saw a CE-marked packet) marks that path to
 *    that destination ToR busy for theta_path_busy.
 * Destination ToR (ConWeaveRxCore), per flow: epochs are compared with serial
 * arithmetic (8-bit numbers); a REROUTED packet of the current epoch that
 * arrives before the epoch's TAIL is held in a per-flow reorder queue (VOQ)
 * until the TAIL arrives (released right after the TAIL, in arrival order) or
 * the resume deadline theta_resume expires; packets of an older epoch pass.
 *
 * Parameters (ConWeaveConfig) are the authors' ns-3 settings for a 2-tier
 * leaf-spine (github.com/conweave-project/conweave-ns3, run.py): reply
 * deadline = base RTT + 4 us, path pause 16 us, VOQ waiting time 200 us plus
 * 16 us extra, TX expiry (inactivity) 300 us.  Our choices (doc/baselines.rst):
 * no timestamps travel in the packet (16 header bits), so the resume deadline
 * is the authors' "no RTT information" value (now + 200 us + 16 us at the first
 * held packet), extended to at least now + 16 us whenever an old-path packet
 * of the epoch still arrives; a reroute at reply timeout samples among the
 * other paths; a new epoch that finds the VOQ still holding packets releases
 * them first.  Flow tables are fixed, hash-indexed (the authors use exact
 * maps): a flow whose slot another flow used within theta_inactive does not
 * evict it but goes untracked (source: no tag, ECMP hash; destination: passes,
 * no reply), counted in GetTableConflicts().  A flow whose path is no longer
 * allowed (a withdrawn uplink) opens a new epoch on an allowed path.
 */
#ifndef DCN_CONWEAVE_CORE_H
#define DCN_CONWEAVE_CORE_H

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ns3
{
namespace lbcore
{

/** Kind of a ConWeave data packet (2 bits in the tag). */
enum class CwFlag : uint8_t
{
    DATA = 0,        //!< an ordinary packet of the flow
    RTT_REQUEST = 1, //!< first packet of an epoch: asks the destination ToR for an RTT_REPLY
    TAIL = 2,        //!< last packet on the old path (asks for a CLEAR)
};

/**
 * The ConWeave fields of a data packet in 16 bits (the IPv4 Identification
 * field in the ns-3 wrapper): bit 0 = 1 (ConWeave tag present), bits 1-2 =
 * flag, bit 3 = REROUTED (phase 1), bits 4-7 = path (source ToR uplink),
 * bits 8-15 = epoch.
 */
struct ConWeaveTag
{
    static constexpr uint16_t MARK = 0x1;
    CwFlag flag{CwFlag::DATA};
    bool rerouted{false};
    uint8_t path{0};
    uint8_t epoch{0};

    uint16_t Pack() const
    {
        return static_cast<uint16_t>(MARK | ((static_cast<uint16_t>(flag) & 0x3) << 1) |
                                     (rerouted ? 0x8 : 0) | ((path & 0xF) << 4) | (epoch << 8));
    }

    static bool IsTagged(uint16_t id)
    {
        return (id & MARK) != 0;
    }

    static ConWeaveTag Unpack(uint16_t id)
    {
        ConWeaveTag t;
        t.flag = static_cast<CwFlag>((id >> 1) & 0x3);
        t.rerouted = (id & 0x8) != 0;
        t.path = static_cast<uint8_t>((id >> 4) & 0xF);
        t.epoch = static_cast<uint8_t>(id >> 8);
        return t;
    }
};

/** Serial-number difference of two 8-bit epochs (> 0: a is newer). */
inline int
EpochDiff(uint8_t a, uint8_t b)
{
    return static_cast<int8_t>(static_cast<uint8_t>(a - b));
}

struct ConWeaveConfig
{
    int64_t replyExtraNs{4'000};   //!< theta_reply = base RTT + this (authors: 4 us)
    int64_t inactiveNs{300'000};   //!< theta_inactive (authors' TX expiry, leaf-spine: 300 us)
    int64_t pathBusyNs{16'000};    //!< theta_path_busy after a NOTIFY (authors: 16 us)
    int64_t resumeNs{200'000};     //!< theta_resume without RTT info (authors: 200 us)
    int64_t resumeExtraNs{16'000}; //!< extra VOQ flush time (authors, leaf-spine: 16 us)
    uint16_t numPaths{2};          //!< paths (uplinks) per destination ToR, <= 16
    uint16_t numDst{1};            //!< destination ToRs (rows of the busy table)
    uint32_t tableSize{4096};      //!< flow-table entries, a power of two (our choice)
    uint16_t numVoqs{64};          //!< reorder queues per destination ToR (our choice)
    uint32_t voqCapacity{256};     //!< packets per reorder queue (our choice)
};

/** Source-ToR flow state. */
struct CwTxEntry
{
    uint64_t key{0};
    int64_t activeNs{0};
    int64_t replyDeadlineNs{0};
    uint8_t epoch{0};
    uint8_t path{0};
    bool phase1{false};     //!< REROUTED: the packets after the TAIL of this epoch
    bool stabilized{false}; //!< reply (or CLEAR) received: the next packet opens an epoch
    bool valid{false};
};

/** What the source ToR does with one data packet. */
struct CwTxDecision
{
    ConWeaveTag tag; //!< the fields to write (tag.path = egress path of this packet)
    bool newEpoch{false};
    bool replyTimeout{false}; //!< this packet is the TAIL of the old path
    bool rerouted{false};     //!< the flow moved to another path after this packet
    /** The flow's table slot is held by another live flow (active within theta_inactive):
     *  the packet is not tracked (no tag, forwarded by the ECMP hash; tag is unset). */
    bool untracked{false};
};

class ConWeaveTxCore
{
  public:
    static constexpr int64_t NEVER = INT64_MAX;

    /** Allocate the tables (once). */
    void Configure(const ConWeaveConfig& cfg)
    {
        m_cfg = cfg;
        uint32_t n = 1;
        while (n < cfg.tableSize)
        {
            n <<= 1;
        }
        m_table.assign(n, CwTxEntry());
        m_busy.assign(static_cast<size_t>(cfg.numDst) * cfg.numPaths, INT64_MIN);
    }

    const ConWeaveConfig& GetConfig() const
    {
        return m_cfg;
    }

    /** Whether \p path toward destination ToR \p dst is busy at \p nowNs (after a NOTIFY). */
    bool IsBusy(uint16_t dst, uint8_t path, int64_t nowNs) const
    {
        const size_t i = static_cast<size_t>(dst) * m_cfg.numPaths + path;
        return i < m_busy.size() && m_busy[i] > nowNs;
    }

    /** NOTIFY from destination ToR \p dst: \p path is congested. */
    void OnNotify(uint16_t dst, uint8_t path, int64_t nowNs)
    {
        const size_t i = static_cast<size_t>(dst) * m_cfg.numPaths + path;
        if (i < m_busy.size())
        {
            m_busy[i] = nowNs + m_cfg.pathBusyNs;
            ++m_notifies;
        }
    }

    /**
     * One data packet of flow \p key toward destination ToR \p dst.
     * \param baseRttNs unloaded RTT toward \p dst (theta_reply = it + ReplyExtra)
     * \param draw callable draw(n) -> uniform integer in [0, n)
     * \param allowed paths (bit p = path p) the flow may take: all in a leaf-spine; the
     *        destination's minimal next hops in the AnyTopology generalisation (an empty
     *        intersection counts as all)
     */
    template <class Draw>
    CwTxDecision OnData(uint64_t key,
                        uint16_t dst,
                        int64_t nowNs,
                        int64_t baseRttNs,
                        Draw&& draw,
                        uint32_t allowed = 0xFFFFFFFFu)
    {
        CwTxDecision d;
        CwTxEntry& e = m_table[Slot(key)];
        const bool newConn = !e.valid || e.key != key;
        if (newConn && e.valid && e.activeNs + m_cfg.inactiveNs >= nowNs)
        {
            // another flow is live in this slot: never evict it (until 2026-11-30 the two
            // evicted each other, every packet a new epoch on a random path)
            d.untracked = true;
            ++m_tableConflicts;
            return d;
        }
        if (newConn)
        {
            e = CwTxEntry();
            e.valid = true;
            e.key = key;
        }
        // the flow's path is no longer a candidate (withdrawn): a new epoch on an allowed one
        const uint32_t all = m_cfg.numPaths >= 32 ? 0xFFFFFFFFu : ((1u << m_cfg.numPaths) - 1u);
        const bool pathGone = !newConn && (allowed & all) != 0 && ((allowed >> e.path) & 1u) == 0;
        const bool expired = newConn || pathGone || e.activeNs + m_cfg.inactiveNs < nowNs;
        const bool stabilized = !expired && e.stabilized;
        e.stabilized = false;
        e.activeNs = nowNs;
        if (expired || stabilized)
        {
            e.replyDeadlineNs = nowNs + baseRttNs + m_cfg.replyExtraNs;
            ++e.epoch;
            e.phase1 = false;
            d.newEpoch = true;
            d.tag.flag = CwFlag::RTT_REQUEST;
            d.tag.rerouted = false;
            ++m_requests;
        }
        else if (e.replyDeadlineNs < nowNs)
        {
            e.replyDeadlineNs = NEVER;
            d.replyTimeout = true;
            e.phase1 = true; // later packets of the epoch: REROUTED
            d.tag.flag = CwFlag::TAIL;
            d.tag.rerouted = false;
            ++m_timeouts;
        }
        else
        {
            d.tag.flag = CwFlag::DATA;
            d.tag.rerouted = e.phase1;
        }
        d.tag.epoch = e.epoch;
        if (expired)
        {
            uint8_t p = 0;
            const bool found = PickPath(dst, nowNs, -1, p, draw, allowed);
            if (newConn || found || pathGone)
            {
                if (!newConn && p != e.path)
                {
                    ++m_reroutes;
                    d.rerouted = true;
                }
                e.path = p;
            }
        }
        d.tag.path = e.path; // a TAIL still leaves on the old path
        if (d.replyTimeout)
        {
            uint8_t p = 0;
            if (PickPath(dst, nowNs, e.path, p, draw, allowed) && p != e.path)
            {
                e.path = p;
                ++m_reroutes;
                d.rerouted = true;
            }
        }
        return d;
    }

    /**
     * A reply from the destination ToR for flow \p key: RTT_REPLY (clear =
     * false, answers the epoch's RTT_REQUEST) or CLEAR (answers its TAIL).
     * \return true if it matched the flow's epoch and phase and was in time.
     */
    bool OnReply(uint64_t key, uint8_t epoch, bool clear, int64_t nowNs)
    {
        CwTxEntry& e = m_table[Slot(key)];
        if (!e.valid || e.key != key || e.epoch != epoch || e.phase1 != clear)
        {
            return false;
        }
        if (!clear && (e.replyDeadlineNs == NEVER || nowNs >= e.replyDeadlineNs))
        {
            return false; // late RTT_REPLY: ignored (the TAIL is already out)
        }
        e.stabilized = true;
        e.replyDeadlineNs = NEVER;
        ++(clear ? m_clears : m_timelyReplies);
        return true;
    }

    /** The flow's entry, or nullptr. */
    const CwTxEntry* Find(uint64_t key) const
    {
        const CwTxEntry& e = m_table[Slot(key)];
        return e.valid && e.key == key ? &e : nullptr;
    }

    uint64_t GetReroutes() const
    {
        return m_reroutes;
    }

    uint64_t GetRequests() const
    {
        return m_requests;
    }

    uint64_t GetReplyTimeouts() const
    {
        return m_timeouts;
    }

    uint64_t GetTimelyReplies() const
    {
        return m_timelyReplies;
    }

    uint64_t GetClears() const
    {
        return m_clears;
    }

    uint64_t GetNotifies() const
    {
        return m_notifies;
    }

    /** Packets forwarded untracked: their slot was held by another live flow. */
    uint64_t GetTableConflicts() const
    {
        return m_tableConflicts;
    }

  private:
    size_t Slot(uint64_t key) const
    {
        return static_cast<size_t>(key & (m_table.size() - 1));
    }

    /**
     * Sample two paths (among the allowed ones, all but \p exclude when it is
     * >= 0 and there are >= 2 of them); the first that is not busy wins.
     * \return false if both are busy (then \p out = the first sample).
     */
    template <class Draw>
    bool PickPath(uint16_t dst,
                  int64_t nowNs,
                  int exclude,
                  uint8_t& out,
                  Draw&& draw,
                  uint32_t allowed = 0xFFFFFFFFu)
    {
        const uint32_t all = m_cfg.numPaths >= 32 ? 0xFFFFFFFFu : ((1u << m_cfg.numPaths) - 1u);
        if ((allowed & all) == 0 || (allowed & all) == all)
        {
            return PickAmongAll(dst, nowNs, exclude, out, draw);
        }
        uint8_t list[32];
        uint32_t n = 0;
        for (uint32_t p = 0; p < m_cfg.numPaths; ++p)
        {
            if (((allowed >> p) & 1u) && !(static_cast<int>(p) == exclude))
            {
                list[n++] = static_cast<uint8_t>(p);
            }
        }
        if (n == 0) // the only allowed path is the excluded one
        {
            out = static_cast<uint8_t>(exclude);
            return !IsBusy(dst, out, nowNs);
        }
        const uint8_t a = list[draw(n)];
        const uint8_t b = list[draw(n)];
        out = !IsBusy(dst, a, nowNs) || IsBusy(dst, b, nowNs) ? a : b;
        return !IsBusy(dst, out, nowNs);
    }

    /** PickPath among all paths (a leaf-spine): the published sampling, unchanged. */
    template <class Draw>
    bool PickAmongAll(uint16_t dst, int64_t nowNs, int exclude, uint8_t& out, Draw&& draw)
    {
        const uint32_t n = m_cfg.numPaths;
        const bool ex = exclude >= 0 && n >= 2;
        auto sample = [&]() {
            uint32_t p = static_cast<uint32_t>(draw(ex ? n - 1 : n));
            if (ex && p >= static_cast<uint32_t>(exclude))
            {
                ++p;
            }
            return static_cast<uint8_t>(p);
        };
        const uint8_t a = sample();
        const uint8_t b = sample();
        if (!IsBusy(dst, a, nowNs))
        {
            out = a;
            return true;
        }
        if (!IsBusy(dst, b, nowNs))
        {
            out = b;
            return true;
        }
        out = a;
        return false;
    }

    ConWeaveConfig m_cfg;
    std::vector<CwTxEntry> m_table{1};
    std::vector<int64_t> m_busy;
    uint64_t m_reroutes{0};
    uint64_t m_requests{0};
    uint64_t m_timeouts{0};
    uint64_t m_timelyReplies{0};
    uint64_t m_clears{0};
    uint64_t m_notifies{0};
    uint64_t m_tableConflicts{0};
};

/** Destination-ToR flow state. */
struct CwRxEntry
{
    uint64_t key{0};
    int64_t activeNs{0}; //!< the flow's last packet (an entry live within theta_inactive stays)
    uint8_t epoch{0};
    bool phase1{false};     //!< the epoch's TAIL has arrived (REROUTED packets are in order)
    bool reordering{false}; //!< REROUTED packets are held in voq
    bool valid{false};
    uint16_t voq{0};
};

/** What the destination ToR does with one ConWeave data packet. */
struct CwRxDecision
{
    static constexpr uint16_t NO_VOQ = 0xffff;
    bool hold{false};               //!< append the packet to VOQ voq (Hold())
    uint16_t voq{NO_VOQ};           //!< the flow's VOQ (hold, releaseAfter, deadline)
    uint16_t releaseBefore{NO_VOQ}; //!< release this VOQ before forwarding the packet
    bool releaseAfter{false};       //!< forward the packet (a TAIL), then release voq
    bool setDeadline{false};        //!< (re)arm voq's resume timer at deadlineNs
    int64_t deadlineNs{0};
    bool reply{false}; //!< send an RTT_REPLY (RTT_REQUEST) or CLEAR (TAIL)
    bool clear{false};
    bool stale{false}; //!< packet of an older epoch: forwarded at once
    bool noVoq{false}; //!< should be held but no VOQ (or no room): see Hold()
    /** The flow's slot is held by another live flow: forwarded untracked (no reply, no
     *  hold), counted in GetTableConflicts(). */
    bool untracked{false};
};

/**
 * Destination-ToR reorder logic with a fixed pool of bounded reorder queues
 * (VOQs) of Items (allocated once in Configure(); the ns-3 wrapper stores a
 * packet, its IPv4 header and its egress interface).
 */
template <class Item>
class ConWeaveRxCore
{
  public:
    void Configure(const ConWeaveConfig& cfg)
    {
        m_cfg = cfg;
        uint32_t n = 1;
        while (n < cfg.tableSize)
        {
            n <<= 1;
        }
        m_table.assign(n, CwRxEntry());
        m_voqs.assign(cfg.numVoqs, Voq());
        m_items.assign(static_cast<size_t>(cfg.numVoqs) * cfg.voqCapacity, Item());
        m_free.clear();
        for (uint16_t i = cfg.numVoqs; i > 0; --i)
        {
            m_free.push_back(static_cast<uint16_t>(i - 1));
        }
    }

    const ConWeaveConfig& GetConfig() const
    {
        return m_cfg;
    }

    /** Classify one data packet of flow \p key carrying \p tag. */
    CwRxDecision OnData(uint64_t key, const ConWeaveTag& tag, int64_t nowNs)
    {
        CwRxDecision d;
        CwRxEntry& e = m_table[Slot(key)];
        bool newEpoch = false;
        if (!e.valid || e.key != key)
        {
            if (e.valid && e.activeNs + m_cfg.inactiveNs >= nowNs)
            {
                // another flow is live in this slot: never evict it (our fixed table; the
                // authors' exact map has no collisions; until 2026-11-30 it was evicted)
                d.untracked = true;
                ++m_tableConflicts;
                return d;
            }
            if (e.valid && e.reordering)
            {
                d.releaseBefore = e.voq; // the slot's previous flow: release its packets
                Detach(e);
            }
            e = CwRxEntry();
            e.valid = true;
            e.key = key;
            e.activeNs = nowNs;
            newEpoch = true;
        }
        else
        {
            e.activeNs = nowNs;
            const int diff = EpochDiff(tag.epoch, e.epoch);
            if (diff < 0)
            {
                d.stale = true;
                ++m_stale;
                return d;
            }
            newEpoch = diff > 0;
        }
        d.reply = tag.flag != CwFlag::DATA;
        d.clear = tag.flag == CwFlag::TAIL;
        bool ooo = false;
        if (newEpoch)
        {
            if (e.reordering)
            {
                d.releaseBefore = e.voq; // earlier epoch still held: release first
                Detach(e);
            }
            e.epoch = tag.epoch;
            e.phase1 = tag.flag == CwFlag::TAIL;
            ooo = tag.rerouted && !e.phase1;
        }
        else if (tag.flag == CwFlag::TAIL)
        {
            if (e.reordering)
            {
                d.releaseAfter = true; // the TAIL, then the held packets
                d.voq = e.voq;
                ++m_releasedByTail;
            }
            else
            {
                e.phase1 = true;
            }
            return d;
        }
        else if (tag.rerouted && !e.phase1)
        {
            ooo = true;
        }
        if (!tag.rerouted)
        {
            if (e.reordering)
            {
                // the old path still delivers: wait at least resumeExtra after it
                Voq& q = m_voqs[e.voq];
                if (q.deadlineNs < nowNs + m_cfg.resumeExtraNs)
                {
                    q.deadlineNs = nowNs + m_cfg.resumeExtraNs;
                    d.setDeadline = true;
                    d.deadlineNs = q.deadlineNs;
                    d.voq = e.voq;
                }
            }
            return d;
        }
        if (!ooo)
        {
            return d;
        }
        if (!e.reordering)
        {
            if (m_free.empty())
            {
                d.noVoq = true;
                ++m_noVoq;
                return d;
            }
            e.voq = m_free.back();
            m_free.pop_back();
            e.reordering = true;
            Voq& q = m_voqs[e.voq];
            q = Voq();
            q.used = true;
            q.owner = key;
            q.deadlineNs = nowNs + m_cfg.resumeNs + m_cfg.resumeExtraNs;
            d.setDeadline = true;
            d.deadlineNs = q.deadlineNs;
        }
        d.hold = true;
        d.voq = e.voq;
        return d;
    }

    /** Append \p item to VOQ \p voq. \return false if full (the caller drops it). */
    bool Hold(uint16_t voq, Item item)
    {
        Voq& q = m_voqs[voq];
        if (q.count >= m_cfg.voqCapacity)
        {
            ++m_holdDrops;
            return false;
        }
        const size_t base = static_cast<size_t>(voq) * m_cfg.voqCapacity;
        m_items[base + (q.head + q.count) % m_cfg.voqCapacity] = std::move(item);
        ++q.count;
        ++m_held;
        if (q.count > m_maxDepth)
        {
            m_maxDepth = q.count;
        }
        return true;
    }

    /**
     * Release VOQ \p voq: send(item) for every held item in arrival order;
     * the flow's TAIL counts as arrived (later REROUTED packets pass) and the
     * VOQ returns to the pool.  \p byTimeout counts a resume-timer release.
     * \return the number of items released.
     */
    template <class Send>
    uint32_t Release(uint16_t voq, bool byTimeout, Send&& send)
    {
        if (voq >= m_voqs.size() || !m_voqs[voq].used)
        {
            return 0;
        }
        Voq& q = m_voqs[voq];
        const uint64_t owner = q.owner;
        const size_t base = static_cast<size_t>(voq) * m_cfg.voqCapacity;
        const uint32_t n = q.count;
        for (uint32_t i = 0; i < n; ++i)
        {
            Item& it = m_items[base + (q.head + i) % m_cfg.voqCapacity];
            send(it);
            it = Item();
        }
        q = Voq();
        m_free.push_back(voq);
        CwRxEntry& e = m_table[Slot(owner)];
        if (e.valid && e.key == owner && e.reordering && e.voq == voq)
        {
            e.reordering = false;
            e.phase1 = true;
        }
        ++(byTimeout ? m_releasedByTimeout : m_releases);
        m_releasedPackets += n;
        return n;
    }

    /** Deadline of VOQ \p voq (INT64_MAX if unused). */
    int64_t GetDeadline(uint16_t voq) const
    {
        return voq < m_voqs.size() && m_voqs[voq].used ? m_voqs[voq].deadlineNs : INT64_MAX;
    }

    uint32_t GetDepth(uint16_t voq) const
    {
        return voq < m_voqs.size() ? m_voqs[voq].count : 0;
    }

    /** The flow's entry, or nullptr. */
    const CwRxEntry* Find(uint64_t key) const
    {
        const CwRxEntry& e = m_table[Slot(key)];
        return e.valid && e.key == key ? &e : nullptr;
    }

    uint32_t GetVoqsInUse() const
    {
        return static_cast<uint32_t>(m_voqs.size() - m_free.size());
    }

    uint64_t GetHeld() const
    {
        return m_held;
    }

    uint64_t GetHoldDrops() const
    {
        return m_holdDrops;
    }

    uint64_t GetReleasedByTail() const
    {
        return m_releasedByTail;
    }

    uint64_t GetReleasedByTimeout() const
    {
        return m_releasedByTimeout;
    }

    uint64_t GetReleasedPackets() const
    {
        return m_releasedPackets;
    }

    uint64_t GetNoVoq() const
    {
        return m_noVoq;
    }

    uint64_t GetStale() const
    {
        return m_stale;
    }

    /** Packets passed untracked: their slot was held by another live flow. */
    uint64_t GetTableConflicts() const
    {
        return m_tableConflicts;
    }

    uint32_t GetMaxDepth() const
    {
        return m_maxDepth;
    }

  private:
    struct Voq
    {
        uint64_t owner{0};
        int64_t deadlineNs{INT64_MAX};
        uint32_t head{0};
        uint32_t count{0};
        bool used{false};
    };

    size_t Slot(uint64_t key) const
    {
        return static_cast<size_t>(key & (m_table.size() - 1));
    }

    /** Forget that \p e holds a VOQ (the caller releases it). */
    static void Detach(CwRxEntry& e)
    {
        e.reordering = false;
    }

    ConWeaveConfig m_cfg;
    std::vector<CwRxEntry> m_table{1};
    std::vector<Voq> m_voqs;
    std::vector<Item> m_items;
    std::vector<uint16_t> m_free;
    uint64_t m_held{0};
    uint64_t m_holdDrops{0};
    uint64_t m_releases{0};
    uint64_t m_releasedByTail{0};
    uint64_t m_releasedByTimeout{0};
    uint64_t m_releasedPackets{0};
    uint64_t m_noVoq{0};
    uint64_t m_stale{0};
    uint64_t m_tableConflicts{0};
    uint32_t m_maxDepth{0};
};

} // namespace lbcore
} // namespace ns3

#endif // DCN_CONWEAVE_CORE_H
