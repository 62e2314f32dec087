/*
 * Egress queue of dcn-lb switch and host ports (DESIGN.md section 3.5,
 * REPS spec section 2.1).
 *
 * Two strict-priority bands:
 *  - band 0 (high): transport control (IPv4 proto 17, UDP dst port 4791,
 *    DcnHeader opcode != DATA), trimmed DATA headers, and TCP pure ACKs;
 *  - band 1 (low): everything else (data).
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
 */
#ifndef DCN_QUEUE_DISC_H
#define DCN_QUEUE_DISC_H

#include "ns3/queue-disc.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

namespace ns3
{

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

    /** Classification of a packet from its bytes (HIGH or LOW). */
    static Band Classify(Ptr<const QueueDiscItem> item);

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

    uint64_t GetNEnqueued() const
    {
        return m_nEnqueued;
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

    static constexpr const char* DROP_DATA_FULL = "Data band full";
    static constexpr const char* DROP_HIGH_FULL = "High band full";
    static constexpr const char* TRIMMED = "Trimmed (replaced by its header)";
    /** Reason of ECN marks in QueueDisc::GetStats(). */
    static constexpr const char* ECN_MARK = "ECN mark (Kmin..Kmax)";

  private:
    bool DoEnqueue(Ptr<QueueDiscItem> item) override;
    Ptr<QueueDiscItem> DoDequeue() override;
    bool CheckConfig() override;
    void InitializeParams() override;

    uint32_t DataOccupancy() const;
    bool FitsData(Ptr<const QueueDiscItem> item) const;
    bool FitsHigh(Ptr<const QueueDiscItem> item) const;
    void MaybeMark(Ptr<QueueDiscItem> item, uint32_t occupancy);
    Ptr<QueueDiscItem> Trim(Ptr<QueueDiscItem> item) const;

    QueueSize m_dataLimit;
    QueueSize m_highLimit;
    double m_kminFrac;
    double m_kmaxFrac;
    bool m_ecn;
    bool m_markAtDequeue;
    bool m_trim;
    double m_kmin{0};
    double m_kmax{0};
    Ptr<UniformRandomVariable> m_rng;
    /** The two internal queues (owned by QueueDisc), cached by CheckConfig() to avoid a
     *  Ptr copy per GetInternalQueue() call on the per-packet path. */
    InternalQueue* m_band[2]{nullptr, nullptr};

    uint64_t m_nEnqueued{0};
    uint64_t m_nMarked{0};
    uint64_t m_nTrimmed{0};
    uint64_t m_nDropped{0};

    TracedCallback<Ptr<const QueueDiscItem>, uint32_t> m_enqueueTrace; //!< item, band
    TracedCallback<Ptr<const QueueDiscItem>, double> m_markTrace;      //!< item, probability
    TracedCallback<Ptr<const QueueDiscItem>, Ptr<const QueueDiscItem>>
        m_trimTrace; //!< original, trimmed
    TracedCallback<Ptr<const QueueDiscItem>> m_dropTrace;
};

} // namespace ns3

#endif // DCN_QUEUE_DISC_H
