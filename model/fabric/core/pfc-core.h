/*
 * PFC (IEEE 802.1Qbb priority flow control) ingress accounting and pause
 * arithmetic, ns-3-free.  Issue 12 item 3/4 and spec laps.md 3/4.1 (PFC on,
 * dynamic threshold, 32 MB shared buffer per switch).
 *
 * Per (ingress port, priority) the switch counts the bytes it buffers that
 * arrived on that port, in three parts filled in this order:
 *   reserved  - guaranteed bytes per (port, priority) (default 0);
 *   shared    - from the switch-wide shared pool, admitted while the queue's
 *               shared bytes stay below the XOFF threshold: static
 *               (staticXoffBytes) or dynamic alpha x (free shared pool), the
 *               classic shared-buffer dynamic threshold;
 *   headroom  - per (port, priority) bytes that absorb what is still in
 *               flight after XOFF was sent, so a paused lossless class loses
 *               nothing if the headroom is sized for the link.
 * XOFF is signalled when the shared bytes reach the threshold (or a packet
 * does not fit below it); XON when the headroom is empty and the shared
 * bytes are at most threshold - xonOffsetBytes (hysteresis) or none are left.  Released bytes
 * leave headroom first, then shared, then reserved.  Without PFC (pfcEnabled
 * false) or for a lossy priority the same thresholds decide drops instead.
 *
 * Our choices (no paper value; doc/roce.rst): alpha = 1/8, XON offset
 * two MTUs, headroom = 2 x (cable delay x rate) + 2 MTU + rate x response
 * time (the pause frame's trip, the data in flight, a frame in progress at
 * each end, the receiver's reaction time), reserved = 0.
 */
#ifndef DCN_PFC_CORE_H
#define DCN_PFC_CORE_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{
namespace fabcore
{

/** 802.1Qbb: one pause quantum is 512 bit times at the link speed. */
constexpr uint32_t kPauseQuantumBits = 512;

/** Duration of `quanta` pause quanta on a link of rateBps, in ns (rounded up). */
inline int64_t
PauseQuantaToNs(uint16_t quanta, double rateBps)
{
    const double ns = static_cast<double>(quanta) * kPauseQuantumBits * 1e9 / rateBps;
    const int64_t f = static_cast<int64_t>(ns);
    return static_cast<double>(f) < ns ? f + 1 : f;
}

/** Smallest number of quanta covering durationNs (saturating at 0xFFFF). */
inline uint16_t
PauseNsToQuanta(int64_t durationNs, double rateBps)
{
    if (durationNs <= 0)
    {
        return 0;
    }
    const double q = static_cast<double>(durationNs) * 1e-9 * rateBps / kPauseQuantumBits;
    uint64_t n = static_cast<uint64_t>(q);
    if (static_cast<double>(n) < q)
    {
        ++n;
    }
    return static_cast<uint16_t>(n > 0xFFFF ? 0xFFFF : n);
}

/** Headroom needed after XOFF (our formula, see the file comment). */
inline uint64_t
PfcHeadroomBytes(double rateBps, int64_t cableDelayNs, uint32_t mtuBytes, int64_t responseNs)
{
    const double inFlight = 2.0 * static_cast<double>(cableDelayNs) * 1e-9 * rateBps / 8.0;
    const double react = static_cast<double>(responseNs) * 1e-9 * rateBps / 8.0;
    return static_cast<uint64_t>(inFlight + react + 0.999999) + 2ull * mtuBytes;
}

/**
 * PFC frame body (MAC Control, EtherType 0x8808): opcode 0x0101, class-enable
 * vector (low byte: bit i = priority i), then 8 pause times in quanta; all
 * big-endian, 20 bytes (the wrapper pads the frame to the Ethernet minimum).
 */
struct PfcFrame
{
    static constexpr uint16_t kOpcode = 0x0101;
    static constexpr uint32_t kSize = 20;
    uint8_t classEnable{0};
    uint16_t quanta[8]{};

    void Serialize(uint8_t* b) const
    {
        b[0] = kOpcode >> 8;
        b[1] = kOpcode & 0xFF;
        b[2] = 0;
        b[3] = classEnable;
        for (int i = 0; i < 8; ++i)
        {
            b[4 + 2 * i] = static_cast<uint8_t>(quanta[i] >> 8);
            b[5 + 2 * i] = static_cast<uint8_t>(quanta[i] & 0xFF);
        }
    }

    /** \return false if the opcode is not PFC's. */
    bool Deserialize(const uint8_t* b)
    {
        if ((static_cast<uint16_t>(b[0]) << 8 | b[1]) != kOpcode)
        {
            return false;
        }
        classEnable = b[3];
        for (int i = 0; i < 8; ++i)
        {
            quanta[i] = static_cast<uint16_t>(b[4 + 2 * i] << 8 | b[5 + 2 * i]);
        }
        return true;
    }
};

struct PfcConfig
{
    uint64_t bufferBytes{32ull << 20}; //!< spec laps.md 4.1: 32 MB shared buffer per switch
    uint16_t numPorts{1};
    uint8_t numPriorities{8};   //!< 802.1Qbb: 8 classes
    uint8_t losslessMask{0xFF}; //!< priorities under PFC (bit i = priority i)
    bool pfcEnabled{true};
    bool dynamicThreshold{true};       //!< spec laps.md 3 [A]: dynamic threshold
    double alpha{1.0 / 8};             //!< our choice
    uint64_t staticXoffBytes{256'000}; //!< our choice, used when !dynamicThreshold
    uint64_t xonOffsetBytes{3000};     //!< our choice: two 1500-B MTUs
    uint64_t reservedBytes{0};         //!< our choice
    uint64_t headroomBytes{0};         //!< 0: PfcHeadroomBytes(link, cable, mtu, response)
    double linkRateBps{100e9};         //!< for the headroom formula
    int64_t cableDelayNs{1000};        //!< for the headroom formula
    uint32_t mtuBytes{1500};           //!< for the headroom formula
    int64_t responseNs{1000};          //!< for the headroom formula (our choice)
};

enum class PfcSignal : uint8_t
{
    NONE,
    XOFF, //!< send a pause (non-zero quanta) upstream on the ingress port
    XON,  //!< send a resume (zero quanta)
};

struct PfcAdmit
{
    bool admitted{false};
    PfcSignal signal{PfcSignal::NONE};
};

class PfcIngressCore
{
  public:
    /** \return false if the buffer cannot hold the reserved and headroom parts. */
    bool Configure(const PfcConfig& cfg)
    {
        m_cfg = cfg;
        if (m_cfg.numPriorities < 1 || m_cfg.numPriorities > 8)
        {
            m_cfg.numPriorities = 8;
        }
        if (m_cfg.headroomBytes == 0)
        {
            m_cfg.headroomBytes = PfcHeadroomBytes(m_cfg.linkRateBps,
                                                   m_cfg.cableDelayNs,
                                                   m_cfg.mtuBytes,
                                                   m_cfg.responseNs);
        }
        uint32_t lossless = 0;
        for (uint8_t c = 0; c < m_cfg.numPriorities; ++c)
        {
            lossless += IsLossless(c) ? 1 : 0;
        }
        const uint64_t fixed =
            static_cast<uint64_t>(m_cfg.numPorts) *
            (m_cfg.numPriorities * m_cfg.reservedBytes + lossless * m_cfg.headroomBytes);
        const bool ok = m_cfg.numPorts > 0 && fixed < m_cfg.bufferBytes && m_cfg.alpha > 0;
        m_sharedPool = fixed < m_cfg.bufferBytes ? m_cfg.bufferBytes - fixed : 0;
        m_q.assign(static_cast<size_t>(m_cfg.numPorts) * m_cfg.numPriorities, Queue{});
        m_sharedUsed = 0;
        m_drops = 0;
        m_headroomDrops = 0;
        return ok;
    }

    /** Current XOFF threshold of a queue's shared bytes. */
    uint64_t Threshold() const
    {
        if (!m_cfg.dynamicThreshold)
        {
            return m_cfg.staticXoffBytes;
        }
        const uint64_t free = m_sharedPool > m_sharedUsed ? m_sharedPool - m_sharedUsed : 0;
        return static_cast<uint64_t>(m_cfg.alpha * static_cast<double>(free));
    }

    /** A packet of `bytes` arrived on (port, prio): admit or drop, maybe XOFF. */
    PfcAdmit OnEnqueue(uint16_t port, uint8_t prio, uint32_t bytes)
    {
        PfcAdmit r;
        if (port >= m_cfg.numPorts || prio >= m_cfg.numPriorities)
        {
            ++m_drops;
            return r;
        }
        Queue& q = Q(port, prio);
        const bool pfc = m_cfg.pfcEnabled && IsLossless(prio);
        if (q.reserved + bytes <= m_cfg.reservedBytes)
        {
            q.reserved += bytes;
            r.admitted = true;
            return r;
        }
        if (!q.paused)
        {
            const uint64_t t = Threshold();
            if (q.shared + bytes <= t && m_sharedUsed + bytes <= m_sharedPool)
            {
                q.shared += bytes;
                m_sharedUsed += bytes;
                r.admitted = true;
                if (pfc && q.shared >= Threshold())
                {
                    q.paused = true;
                    ++q.pauses;
                    r.signal = PfcSignal::XOFF;
                }
                return r;
            }
            if (!pfc)
            {
                ++m_drops; // lossy: the threshold decides
                return r;
            }
            q.paused = true; // does not fit below the threshold: pause, use headroom
            ++q.pauses;
            r.signal = PfcSignal::XOFF;
        }
        if (pfc && q.headroom + bytes <= m_cfg.headroomBytes)
        {
            q.headroom += bytes;
            r.admitted = true;
            return r;
        }
        ++m_drops;
        ++m_headroomDrops; // headroom too small for the link: reported, never silent
        return r;
    }

    /** `bytes` of a packet that arrived on (port, prio) left the switch. */
    PfcSignal OnDequeue(uint16_t port, uint8_t prio, uint32_t bytes)
    {
        if (port >= m_cfg.numPorts || prio >= m_cfg.numPriorities)
        {
            return PfcSignal::NONE;
        }
        Queue& q = Q(port, prio);
        uint64_t left = bytes;
        const uint64_t h = left < q.headroom ? left : q.headroom;
        q.headroom -= h;
        left -= h;
        const uint64_t s = left < q.shared ? left : q.shared;
        q.shared -= s;
        m_sharedUsed -= s;
        left -= s;
        q.reserved -= left < q.reserved ? left : q.reserved;
        if (q.paused && q.headroom == 0)
        {
            // An emptied queue resumes whatever the threshold: no byte of it is left to
            // leave and check again, so with the shared pool nearly full (a dynamic
            // threshold below the XON offset) its upstream would stay paused for good.
            const uint64_t t = Threshold();
            if (q.shared == 0 || q.shared + m_cfg.xonOffsetBytes <= t)
            {
                q.paused = false;
                return PfcSignal::XON;
            }
        }
        return PfcSignal::NONE;
    }

    bool IsPaused(uint16_t port, uint8_t prio) const
    {
        return CQ(port, prio).paused;
    }

    uint64_t GetBytes(uint16_t port, uint8_t prio) const
    {
        const Queue& q = CQ(port, prio);
        return q.reserved + q.shared + q.headroom;
    }

    uint64_t GetHeadroomUsed(uint16_t port, uint8_t prio) const
    {
        return CQ(port, prio).headroom;
    }

    uint64_t GetSharedUsed(uint16_t port, uint8_t prio) const
    {
        return CQ(port, prio).shared;
    }

    uint64_t GetPauseCount(uint16_t port, uint8_t prio) const
    {
        return CQ(port, prio).pauses;
    }

    uint64_t GetSharedPool() const
    {
        return m_sharedPool;
    }

    uint64_t GetSharedUsedTotal() const
    {
        return m_sharedUsed;
    }

    uint64_t GetDrops() const
    {
        return m_drops;
    }

    uint64_t GetHeadroomDrops() const
    {
        return m_headroomDrops;
    }

    const PfcConfig& GetConfig() const
    {
        return m_cfg;
    }

  private:
    struct Queue
    {
        uint64_t reserved{0};
        uint64_t shared{0};
        uint64_t headroom{0};
        uint64_t pauses{0};
        bool paused{false};
    };

    bool IsLossless(uint8_t prio) const
    {
        return (m_cfg.losslessMask >> prio) & 1;
    }

    Queue& Q(uint16_t port, uint8_t prio)
    {
        return m_q[static_cast<size_t>(port) * m_cfg.numPriorities + prio];
    }

    const Queue& CQ(uint16_t port, uint8_t prio) const
    {
        return m_q[static_cast<size_t>(port) * m_cfg.numPriorities + prio];
    }

    PfcConfig m_cfg;
    std::vector<Queue> m_q;
    uint64_t m_sharedPool{0};
    uint64_t m_sharedUsed{0};
    uint64_t m_drops{0};
    uint64_t m_headroomDrops{0};
};

} // namespace fabcore
} // namespace ns3

#endif // DCN_PFC_CORE_H
