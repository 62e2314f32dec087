/*
 * Egress queue of dcn-lb switch and host ports (DESIGN.md section 3.5,
 * REPS spec section 2.1).
 *
 * Two strict-priority bands:
 *  - band 0 (high): transport control (IPv4 proto 17, UDP dst port 4791,
 *    DcnHeader opcode != DATA, PROBE), trimmed DATA headers, and TCP pure ACKs;
 *  - band 1 (low): everything else (data, and PROBE packets, which measure
 *    the data queues: laps spec 1.4 [R]; only LAPS sends probes).
 * The data band has a limit (bytes or packets, DataLimit).  ECN: marking
 * probability rises linearly from 0 at Kmin to 1 at Kmax of the instantaneous
 * data-band occupancy; evaluated at dequeue (occupancy after removal, REPS
 * default) or at enqueue (occupancy before adding).  Marking goes through
 * QueueDisc::Mark(item, ECN_MARK), which sets CE only in ECT packets and
 * keeps ns-3's statistics (GetStats().nTotalMarkedPackets, per-reason counts
 * under ECN_MARK) and its "Mark" trace; GetNMarked() and the "DcnMark" trace
 * (with the marking probability) count the same marks.
 * Trimming (optional): a DATA packet that does not fit is cut to
 * IP + UDP + DcnHeader with FLAG_TRIMMED set and queued in the high band.
 *
 * Overflow policy (OverflowPolicy) when a data packet does not fit and is
 * not trimmed: DropArrival (default) drops the arriving packet; DropArrivalOrLast
 * (the REPS authors' htsim artifact, issue 10) drops, with probability 1/2, the
 * arrival, else the most recently enqueued data packet (tail of the data
 * band), after which the arrival is enqueued if it fits (else dropped too).
 *
 * Failure hooks (FailureHelper): a black hole (SetBlackhole) drops every
 * packet, or only data packets (our transport's DATA opcode read from the
 * packet bytes, or a TCP segment with payload), before enqueue; counted in
 * GetNBlackholed() and the "DcnBlackholeDrop" trace, not as congestion drops.
 * SetRateScale(f, frameBytes) scales DataLimit (and with it Kmin/Kmax, which
 * are fractions of it) to f times the configured limit, for a degraded port,
 * never below two frames (so a slow port still forwards).
 *
 * Host NIC (HostNic, set by the topology builders on host egress queues): a TCP-shim
 * packet with FLAG_NIC_STAMP (Hermes PathOnlySensing) gets the shim's send time rewritten
 * at dequeue, and FLAG_HOST_CE if it leaves CE-marked, so the sender's path signals leave
 * out its own NIC queue (review s44 H2); nothing else is read or written.
 *
 * INT (issue 12, dcn-int-stamper.h): every dequeued item is counted in the
 * port's transmitted bytes; on a switch port (SetIntIdentity, called by the
 * topology builders) with IntEnabled, DATA packets that carry the EXT_INT
 * option get one telemetry record at dequeue (doc/int-hpcc.rst).
 */
#ifndef DCN_QUEUE_DISC_H
#define DCN_QUEUE_DISC_H

#include "dcn-int-stamper.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/queue-disc.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <memory>

namespace ns3
{

class DcnBandQueue;

class DcnSwitchBuffer;

class DcnQueueDisc : public QueueDisc
{
  public:
    static TypeId GetTypeId();
    DcnQueueDisc();
    ~DcnQueueDisc() override;

    enum Band : uint32_t
    {
        HIGH = 0,
        LOW = 1
    };

    /** Signature of the "DcnEnqueue" trace: item, band (0 high, 1 low). */
    typedef void (*EnqueueTracedCallback)(Ptr<const QueueDiscItem> item, uint32_t band);
    /** Signature of the "DcnMark" trace: item, marking probability. */
    typedef void (*MarkTracedCallback)(Ptr<const QueueDiscItem> item, double probability);
    /** Signature of the "DcnTrim" trace: original item, trimmed item. */
    typedef void (*TrimTracedCallback)(Ptr<const QueueDiscItem> original,
                                       Ptr<const QueueDiscItem> trimmed);

    /** What to do when a data packet does not fit (OverflowPolicy). */
    /** What the PFC watchdog does when a pause has been held longer than PfcWatchdog. */
    enum PfcWatchdogAction : uint32_t
    {
        WATCHDOG_REPORT = 0,  //!< report only (warning line, counter, trace)
        WATCHDOG_FORWARD = 1, //!< report, resume the data band and ignore pauses for a while
    };

    enum OverflowPolicy : uint32_t
    {
        DROP_ARRIVAL = 0,         //!< drop the arriving packet (REPS spec 2.1)
        DROP_ARRIVAL_OR_LAST = 1, //!< p = 1/2 arrival, else the last enqueued data packet
    };

    /** Classification of a packet from its bytes (HIGH or LOW). */
    static Band Classify(Ptr<const QueueDiscItem> item);
    /**
     * True for a data packet, from its bytes: UDP to port 4791 whose DcnHeader
     * opcode (first byte after the UDP header) is DATA (trimmed ones included),
     * or a TCP segment with payload.
     */
    static bool IsData(Ptr<const QueueDiscItem> item);

    /**
     * Black hole at this egress (nested: several may overlap).
     * \param on start (true) or end (false) one black hole
     * \param dataOnly drop only data packets (IsData), else every packet
     */
    void SetBlackhole(bool on, bool dataOnly);

    bool IsBlackholed() const
    {
        return m_bhAll > 0 || m_bhData > 0;
    }

    uint64_t GetNBlackholed() const
    {
        return m_nBlackholed;
    }

    /**
     * Scale DataLimit (and Kmin/Kmax with it) to \p f times the limit this
     * queue had at the first call (the configured one); 1 restores it.  The
     * scaled limit is at least two frames - two packets, or 2 x \p frameBytes
     * bytes (the port's largest frame) - unless the configured limit is
     * smaller: a limit below one frame would drop every packet and turn a
     * slow port into a black hole.
     */
    void SetRateScale(double f, uint32_t frameBytes = 0);

    double GetRateScale() const
    {
        return m_rateScale;
    }

    /**
     * Transmit hook: called with every item leaving the queue disc for the
     * device (both bands), before its IPv4 header is serialised, so a switch
     * policy may update header fields at transmission (CONGA's CE update and
     * DRE).  One hook per queue; a null callback removes it.
     */
    void SetTransmitHook(Callback<void, Ptr<QueueDiscItem>> hook);

    /** The transmit hook (null if none). */
    Callback<void, Ptr<QueueDiscItem>> GetTransmitHook() const
    {
        return m_txHook;
    }

    /**
     * FabricMode=fast (DcnPortDevice): the device that owns this queue disc
     * pulls packets itself; where the queue disc restarts its output (PFC
     * resume, a PFC frame queued) it calls \p kick instead of QueueDisc::Run().
     */
    void SetKickCallback(Callback<void> kick);

    /**
     * Make this queue a switch egress for INT stamping (topology builders):
     * switch index, port (device ifIndex) and link rate written in each record.
     */
    void SetIntIdentity(uint16_t switchId, uint16_t port, DataRate rate);

    /** INT state of the port: identity, transmitted bytes, records stamped. */
    const DcnIntStamper& GetInt() const
    {
        return m_int;
    }

    /** Recompute Kmin / Kmax from the attributes: EcnKminPerGbps x the port's link rate
     *  (switch ports, DataLimit in bytes) or KminFraction x DataLimit.  Called by the
     *  DataLimit setter, SetIntIdentity and at initialisation; after a change of the ECN
     *  attributes on a built queue disc, to read GetKmin() before the simulation starts. */
    void UpdateThresholds();

    /** ECN Kmin / Kmax in use (DataLimit units: bytes or packets). */
    double GetKmin() const
    {
        return m_kmin;
    }

    double GetKmax() const
    {
        return m_kmax;
    }

    /** Marking probability for a data-band occupancy (in DataLimit units). */
    double MarkProbability(uint32_t occupancy) const;

    int64_t AssignStreams(int64_t stream);

    uint64_t GetNMarked() const
    {
        return m_nMarked;
    }

    uint64_t GetNTrimmed() const
    {
        return m_nTrimmed;
    }

    uint64_t GetNDropped() const
    {
        return m_nDropped;
    }

    /** Enqueued data packets dropped later by the DropArrivalOrLast policy (in GetNDropped()). */
    uint64_t GetNLastDropped() const
    {
        return m_nLastDropped;
    }

    uint64_t GetNEnqueued() const
    {
        return m_nEnqueued;
    }

    /** Packets whose shim send time this host NIC rewrote at dequeue (HostNic). */
    uint64_t GetNNicStamped() const
    {
        return m_nNicStamped;
    }

    /** Bytes currently in the data band / high band. */
    uint32_t GetDataBytes() const;
    uint32_t GetHighBytes() const;

    /** Data limit in bytes or packets (unit of DataLimit). */
    QueueSize GetDataLimit() const
    {
        return m_dataLimit;
    }

    void SetDataLimit(QueueSize s);

    /** High-band limit in bytes or packets (unit of HighLimit). */
    QueueSize GetHighLimit() const
    {
        return m_highLimit;
    }

    void SetHighLimit(QueueSize s);

    // ---- PFC and the shared switch buffer (issue 12; doc/roce.rst) ----

    /** Signature of the "PfcPause" / "PfcResume" traces: quanta of the frame (0 = resume). */
    typedef void (*PfcTracedCallback)(uint16_t quanta);
    /** Signature of the "PfcWatchdog" trace: how long the data band has been paused. */
    typedef void (*PfcWatchdogTracedCallback)(Time held);

    /**
     * Attach the switch's shared buffer: data packets are admitted by it
     * (DataLimit then only sets Kmin/Kmax) under the ingress port the switch
     * set for the packet; \p port is this queue's interface index.
     */
    void SetSwitchBuffer(Ptr<DcnSwitchBuffer> buffer, uint16_t port);

    /**
     * Make this queue a PFC port: PFC frames it sends carry \p self / \p peer
     * in their IPv4 envelope; \p rate converts pause quanta to time;
     * \p priority is the class of the data band (bit in the class-enable vector).
     */
    void SetPfcPort(Ipv4Address self, Ipv4Address peer, DataRate rate, uint8_t priority);

    /** The peer sent a PFC frame for our data priority: pause for \p quanta (0 = resume). */
    void ReceivePause(uint16_t quanta);

    /** Start (XOFF, 0xFFFF quanta, refreshed while on) or stop (XON, 0 quanta) pausing the peer. */
    void PausePeer(bool on);

    bool IsDataPaused() const
    {
        return m_dataPaused;
    }

    uint8_t GetPfcPriority() const
    {
        return m_pfcPriority;
    }

    bool IsPausingPeer() const
    {
        return m_pausingPeer;
    }

    /** PFC frames with non-zero quanta sent (XOFF and refreshes). */
    uint64_t GetNPauseFramesSent() const
    {
        return m_nPauseSent;
    }

    /** PFC frames with zero quanta sent (XON). */
    uint64_t GetNResumeFramesSent() const
    {
        return m_nResumeSent;
    }

    /** PFC frames with non-zero quanta received for the data priority. */
    uint64_t GetNPauseFramesReceived() const
    {
        return m_nPauseRx;
    }

    /** Total time the data band was paused (the current pause included). */
    Time GetPausedTime() const;

    /** Pauses held longer than PfcWatchdog (each reported once with a warning line). */
    uint64_t GetNWatchdogReports() const
    {
        return m_nWatchdog;
    }

    /** Times the watchdog's Forward action resumed the data band (PfcWatchdogAction). */
    uint64_t GetNWatchdogForwards() const
    {
        return m_nWatchdogForward;
    }

    /** Pause frames ignored because the watchdog's Forward action was in force. */
    uint64_t GetNPausesIgnored() const
    {
        return m_nPauseIgnored;
    }

    /** Data packets refused by the shared switch buffer (in GetNDropped()). */
    uint64_t GetNBufferDropped() const
    {
        return m_nBufferDropped;
    }

    static constexpr const char* DROP_DATA_FULL = "Data band full";
    static constexpr const char* DROP_BUFFER = "Shared buffer threshold";
    static constexpr const char* DROP_HIGH_FULL = "High band full";
    static constexpr const char* TRIMMED = "Trimmed (replaced by its header)";
    static constexpr const char* DROP_BLACKHOLE = "Black hole (injected failure)";
    static constexpr const char* DROP_LAST_ENQUEUED = "Data band full: last enqueued dropped";
    /** Reason of ECN marks in QueueDisc::GetStats(). */
    static constexpr const char* ECN_MARK = "ECN mark (Kmin..Kmax)";

  protected:
    void DoDispose() override;

  private:
    bool DoEnqueue(Ptr<QueueDiscItem> item) override;
    Ptr<QueueDiscItem> DoDequeue() override;
    bool CheckConfig() override;
    void InitializeParams() override;

    uint32_t DataOccupancy() const;
    bool FitsData(Ptr<const QueueDiscItem> item) const;
    bool FitsHigh(Ptr<const QueueDiscItem> item) const;
    void MaybeMark(Ptr<QueueDiscItem> item, uint32_t occupancy);
    /** HostNic: a leaving TCP-shim packet with FLAG_NIC_STAMP gets the send time now
     *  and FLAG_HOST_CE if it carries CE (set by this queue). */
    void NicStamp(Ptr<QueueDiscItem> item);
    Ptr<QueueDiscItem> Trim(Ptr<QueueDiscItem> item) const;
    /** Overflow of a data packet that is not trimmed. \return true if enqueued. */
    bool Overflow(Ptr<QueueDiscItem> item);
    void DropCongestion(Ptr<QueueDiscItem> item, const char* reason);
    /** Enqueue a data item in the low band (admission already decided). */
    void EnqueueData(Ptr<QueueDiscItem> item, uint16_t bufIdx);
    /** Release the shared-buffer bytes of the data item leaving (front or back) the band. */
    void ReleaseData(Ptr<const QueueDiscItem> item, bool front);
    void SendPfcFrame(uint16_t quanta);
    void PfcRefresh();
    void PfcResume();
    void PfcWatchdogFire();
    void PfcWatchdogRestore();
    /** Restart the output: the owning port device's kick, else QueueDisc::Run(). */
    void Kick();

    QueueSize m_dataLimit;
    QueueSize m_highLimit;
    double m_kminFrac{0};
    double m_kmaxFrac{0};
    uint64_t m_kminPerGbps{0}; //!< EcnKminPerGbps (0: fractions of DataLimit)
    uint64_t m_kmaxPerGbps{0}; //!< EcnKmaxPerGbps
    double m_pmax{1.0};        //!< EcnPmax
    double m_portBps{0};       //!< link rate of a switch port (SetIntIdentity), 0 on hosts
    bool m_ecn;
    bool m_markAtDequeue;
    bool m_trim;
    bool m_hostNic{false}; //!< HostNic: restamp path-only-sensing shim packets at dequeue
    uint64_t m_nNicStamped{0};
    OverflowPolicy m_overflow{DROP_ARRIVAL};
    Callback<void, Ptr<QueueDiscItem>> m_txHook;
    Callback<void> m_kick;
    bool m_intEnabled{true};
    DcnIntStamper m_int;
    int32_t m_bhAll{0};
    int32_t m_bhData{0};
    double m_rateScale{1.0};
    bool m_baseLimitSet{false};
    QueueSize m_baseLimit;
    uint64_t m_nBlackholed{0};
    uint64_t m_nLastDropped{0};
    double m_kmin{0};
    double m_kmax{0};
    Ptr<UniformRandomVariable> m_rng;
    /** The two internal queues (owned by QueueDisc), cached by CheckConfig() to avoid a
     *  Ptr copy per GetInternalQueue() call on the per-packet path. */
    InternalQueue* m_band[2]{nullptr, nullptr};
    /** m_band[b] if it is a DcnBandQueue (its counts are read inline, no call into
     *  ns-3's QueueBase per packet), else nullptr (user-added internal queues). */
    DcnBandQueue* m_ownBand[2]{nullptr, nullptr};
    /** Bytes / packets of band b (what its internal queue's GetNBytes / GetNPackets return). */
    uint32_t BandBytes(int b) const;
    uint32_t BandPackets(int b) const;
    /** DataLimit and HighLimit as plain values (set with the attributes). */
    bool m_dataInBytes{true};
    uint32_t m_dataLimitValue{0};
    bool m_highInBytes{true};
    uint32_t m_highLimitValue{0};

    // PFC / shared buffer
    Ptr<DcnSwitchBuffer> m_buffer;
    uint16_t m_port{0};
    /** Buffer accounting index of each data-band item, FIFO; created by SetSwitchBuffer
     *  only (an empty std::deque allocates 576 bytes: 0.3 MB over a 128-host fat tree
     *  whose ports have no shared buffer). */
    std::unique_ptr<std::deque<uint16_t>> m_bufIdx;
    bool m_lossless;
    Time m_watchdog;
    PfcWatchdogAction m_watchdogAction{WATCHDOG_REPORT};
    Time m_watchdogRestore;
    bool m_watchdogForwarding{false}; //!< Forward action in force: pause frames are ignored
    EventId m_watchdogRestoreEvent;
    uint64_t m_nWatchdogForward{0};
    uint64_t m_nPauseIgnored{0};
    double m_refreshFraction;
    bool m_pfcPort{false};
    Ipv4Address m_pfcSelf;
    Ipv4Address m_pfcPeer;
    double m_pfcRateBps{0};
    uint8_t m_pfcPriority{3};
    bool m_dataPaused{false};
    bool m_pausingPeer{false};
    Time m_pauseStart;
    Time m_pausedTotal;
    EventId m_pauseExpiry;
    EventId m_refreshEvent;
    EventId m_watchdogEvent;
    uint64_t m_nPauseSent{0};
    uint64_t m_nResumeSent{0};
    uint64_t m_nPauseRx{0};
    uint64_t m_nWatchdog{0};
    uint64_t m_nBufferDropped{0};
    TracedCallback<uint16_t> m_pfcPauseTrace;
    TracedCallback<uint16_t> m_pfcResumeTrace;
    TracedCallback<uint16_t> m_pfcSentTrace;
    TracedCallback<Time> m_pfcWatchdogTrace;

    uint64_t m_nEnqueued{0};
    uint64_t m_nMarked{0};
    uint64_t m_nTrimmed{0};
    uint64_t m_nDropped{0};

    TracedCallback<Ptr<const QueueDiscItem>, uint32_t> m_enqueueTrace; //!< item, band
    TracedCallback<Ptr<const QueueDiscItem>, double> m_markTrace;      //!< item, probability
    TracedCallback<Ptr<const QueueDiscItem>, Ptr<const QueueDiscItem>>
        m_trimTrace; //!< original, trimmed
    TracedCallback<Ptr<const QueueDiscItem>> m_dropTrace;
    TracedCallback<Ptr<const QueueDiscItem>> m_blackholeTrace;
};

} // namespace ns3

#endif // DCN_QUEUE_DISC_H
