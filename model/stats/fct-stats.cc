#include "fct-stats.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace ns3
{

namespace
{
/** Restores a stream's flags and precision when it goes out of scope. */
class StreamStateGuard
{
  public:
    explicit StreamStateGuard(std::ostream& os)
        : m_os(os),
          m_flags(os.flags()),
          m_precision(os.precision())
    {
    }

    ~StreamStateGuard()
    {
        m_os.flags(m_flags);
        m_os.precision(m_precision);
    }

  private:
    std::ostream& m_os;
    std::ios_base::fmtflags m_flags;
    std::streamsize m_precision;
};
} // namespace

NS_LOG_COMPONENT_DEFINE("DcnFctStats");

void
FctStats::Add(const FctRecord& r)
{
    NS_LOG_FUNCTION(r.src << r.dst << r.bytes);
    m_records.push_back(r);
}

void
FctStats::Clear()
{
    m_records.clear();
    m_runEnd = Time(-1);
}

FctRecord
FctStats::Unfinished(uint32_t src,
                     uint32_t dst,
                     uint64_t bytes,
                     Time start,
                     Time ideal,
                     const FctProgress& progress)
{
    NS_ABORT_MSG_IF(progress.bytesAcked > bytes,
                    "FctStats::Unfinished: " << progress.bytesAcked << " bytes acked of a " << bytes
                                             << "-byte flow");
    FctRecord r;
    r.src = src;
    r.dst = dst;
    r.bytes = bytes;
    r.start = start;
    r.finish = start;
    r.ideal = ideal;
    r.completed = false;
    r.retransmissions = progress.retransmissions;
    r.outOfOrder = progress.outOfOrder;
    r.timeouts = progress.timeouts;
    r.trimmed = progress.trimmed;
    r.bytesAcked = progress.bytesAcked;
    return r;
}

void
FctStats::SetRunEnd(Time end)
{
    m_runEnd = end;
}

Time
FctStats::GetRunEnd() const
{
    return m_runEnd;
}

uint32_t
FctStats::CountUnfinished() const
{
    uint32_t n = 0;
    for (const auto& r : m_records)
    {
        n += r.completed ? 0 : 1;
    }
    return n;
}

bool
FctStats::AllFinished() const
{
    return CountUnfinished() == 0;
}

std::vector<FctRecord>
FctStats::GetUnfinished() const
{
    std::vector<FctRecord> out;
    for (const auto& r : m_records)
    {
        if (!r.completed)
        {
            out.push_back(r);
        }
    }
    return out;
}

void
FctStats::WriteUnfinishedCsv(std::ostream& os) const
{
    os << "src,dst,size_bytes,start_us,run_end_us,elapsed_us,ideal_fct_us,acked_bytes,"
          "retransmissions,out_of_order,timeouts,trimmed\n";
    std::ostringstream line;
    line << std::setprecision(10);
    for (const auto& r : GetUnfinished())
    {
        line.str("");
        line << r.src << ',' << r.dst << ',' << r.bytes << ',' << r.start.GetSeconds() * 1e6 << ',';
        if (!m_runEnd.IsNegative())
        {
            line << m_runEnd.GetSeconds() * 1e6 << ',' << (m_runEnd - r.start).GetSeconds() * 1e6;
        }
        else
        {
            line << ',';
        }
        line << ',';
        if (r.ideal.IsStrictlyPositive())
        {
            line << r.ideal.GetSeconds() * 1e6;
        }
        line << ',' << r.bytesAcked << ',' << r.retransmissions << ',' << r.outOfOrder << ','
             << r.timeouts << ',' << r.trimmed << '\n';
        os << line.str();
    }
}

void
FctStats::PrintUnfinished(std::ostream& os, size_t maxLines) const
{
    StreamStateGuard keep(os);
    auto unf = GetUnfinished();
    if (unf.empty())
    {
        return;
    }
    os << "unfinished flows: " << unf.size() << " of " << m_records.size();
    if (!m_runEnd.IsNegative())
    {
        os << " (run ended at " << std::fixed << std::setprecision(2) << m_runEnd.GetSeconds() * 1e6
           << " us)" << std::defaultfloat;
    }
    os << '\n';
    for (size_t i = 0; i < unf.size() && i < maxLines; ++i)
    {
        const auto& r = unf[i];
        os << "  " << r.src << " -> " << r.dst << ": " << r.bytesAcked << " of " << r.bytes
           << " bytes acked, " << r.retransmissions << " retransmissions, " << r.timeouts
           << " timeouts\n";
    }
    if (unf.size() > maxLines)
    {
        os << "  ... " << (unf.size() - maxLines) << " more\n";
    }
}

double
FctStats::Percentile(std::vector<double> values, double p)
{
    NS_ABORT_MSG_IF(p < 0 || p > 100, "Percentile: p = " << p << " not in [0, 100]");
    if (values.empty())
    {
        return 0.0;
    }
    std::sort(values.begin(), values.end());
    double n = static_cast<double>(values.size());
    // ceil(p * n / 100); p * n first keeps integer products exact.
    auto rank = static_cast<size_t>(std::ceil(p * n / 100.0 - 1e-9));
    rank = std::max<size_t>(rank, 1);
    rank = std::min(rank, values.size());
    return values[rank - 1];
}

uint32_t
FctStats::FirstPacketPayload(uint64_t bytes, uint32_t mtu)
{
    return static_cast<uint32_t>(std::min<uint64_t>(bytes, mtu));
}

uint64_t
FctStats::WireBytes(uint64_t bytes, uint32_t mtu, uint32_t headerBytes)
{
    NS_ABORT_MSG_IF(mtu == 0, "WireBytes: mtu = 0, allowed: >= 1");
    uint64_t packets = (bytes + mtu - 1) / mtu;
    return bytes + packets * headerBytes;
}

Time
FctStats::IdealFct(Time baseRttFirstPacket,
                   uint64_t bytes,
                   uint32_t mtu,
                   uint32_t headerBytes,
                   DataRate lineRate)
{
    NS_ABORT_MSG_IF(lineRate.GetBitRate() == 0, "IdealFct: line rate 0 bps, allowed: > 0");
    NS_ABORT_MSG_IF(mtu == 0, "IdealFct: mtu = 0, allowed: >= 1");
    // Packets 2..n follow the first one back to back; each takes the device's
    // serialisation time of its wire size (DataRate::CalculateBytesTxTime, i.e.
    // rounded to the time resolution exactly as the simulated devices do).
    uint64_t packets = (bytes + mtu - 1) / mtu;
    Time ideal = baseRttFirstPacket;
    if (packets > 1)
    {
        // packets 2..n-1 are full, packet n carries the rest (1..mtu bytes)
        uint64_t last = bytes - (packets - 1) * mtu;
        Time full = lineRate.CalculateBytesTxTime(mtu + headerBytes);
        ideal += TimeStep(full.GetTimeStep() * static_cast<int64_t>(packets - 2));
        ideal += lineRate.CalculateBytesTxTime(static_cast<uint32_t>(last + headerBytes));
    }
    return ideal;
}

std::vector<SizeBin>
FctStats::DefaultBins()
{
    const uint64_t inf = std::numeric_limits<uint64_t>::max();
    return {{"<100KB", 0, 100000},
            {"100KB-1MB", 100000, 1000000},
            {"1MB-10MB", 1000000, 10000000},
            {">10MB", 10000000, inf}};
}

FctSummary
FctStats::SummarizeIf(uint64_t lo, uint64_t hi) const
{
    FctSummary s;
    std::vector<double> fct;
    std::vector<double> slow;
    double sumFct = 0;
    double sumSlow = 0;
    Time firstStart = Time::Max();
    Time lastFinish = Time::Min();
    Time firstStartAll = Time::Max();
    for (const auto& r : m_records)
    {
        if (r.bytes < lo || r.bytes >= hi)
        {
            continue;
        }
        s.retransmissions += r.retransmissions;
        s.outOfOrder += r.outOfOrder;
        s.timeouts += r.timeouts;
        s.trimmed += r.trimmed;
        firstStartAll = std::min(firstStartAll, r.start);
        if (!r.completed)
        {
            s.unfinished++;
            s.unfinishedBytes += r.bytes;
            s.unfinishedBytesAcked += r.bytesAcked;
            s.unfinishedRetransmissions += r.retransmissions;
            s.unfinishedTimeouts += r.timeouts;
            continue;
        }
        s.count++;
        s.bytes += r.bytes;
        firstStart = std::min(firstStart, r.start);
        lastFinish = std::max(lastFinish, r.finish);
        double us = r.Fct().GetSeconds() * 1e6;
        fct.push_back(us);
        sumFct += us;
        double sd = r.Slowdown();
        slow.push_back(sd);
        sumSlow += sd;
    }
    if (s.count > 0)
    {
        s.meanUs = sumFct / s.count;
        s.p50Us = Percentile(fct, 50);
        s.p99Us = Percentile(fct, 99);
        s.maxUs = *std::max_element(fct.begin(), fct.end());
        s.completionUs = (lastFinish - firstStart).GetSeconds() * 1e6;
        s.meanSlowdown = sumSlow / s.count;
        s.p50Slowdown = Percentile(slow, 50);
        s.p99Slowdown = Percentile(slow, 99);
    }
    if (!m_runEnd.IsNegative())
    {
        s.runEndUs = m_runEnd.GetSeconds() * 1e6;
        if (s.unfinished > 0)
        {
            // The run did not complete: it lasted at least until the run end.
            s.completionUs = (m_runEnd - firstStartAll).GetSeconds() * 1e6;
            s.completionLowerBound = true;
        }
    }
    return s;
}

FctSummary
FctStats::Summarize() const
{
    return SummarizeIf(0, std::numeric_limits<uint64_t>::max());
}

FctSummary
FctStats::Summarize(uint64_t lo, uint64_t hi) const
{
    return SummarizeIf(lo, hi);
}

void
FctStats::WriteCsv(std::ostream& os) const
{
    os << "src,dst,size_bytes,start_us,finish_us,fct_us,ideal_fct_us,slowdown,completed,"
          "retransmissions,out_of_order,timeouts,trimmed\n";
    std::ostringstream line;
    line << std::setprecision(10);
    for (const auto& r : m_records)
    {
        line.str("");
        line << r.src << ',' << r.dst << ',' << r.bytes << ',' << r.start.GetSeconds() * 1e6 << ',';
        if (r.completed)
        {
            line << r.finish.GetSeconds() * 1e6 << ',' << r.Fct().GetSeconds() * 1e6 << ',';
        }
        else
        {
            line << ",,";
        }
        if (r.ideal.IsStrictlyPositive())
        {
            line << r.ideal.GetSeconds() * 1e6;
        }
        line << ',';
        if (r.completed && r.ideal.IsStrictlyPositive())
        {
            line << r.Slowdown();
        }
        line << ',' << (r.completed ? 1 : 0) << ',' << r.retransmissions << ',' << r.outOfOrder
             << ',' << r.timeouts << ',' << r.trimmed << '\n';
        os << line.str();
    }
}

static void
PrintRow(std::ostream& os, const std::string& label, const FctSummary& s)
{
    os << std::left << std::setw(12) << label << std::right << std::setw(8) << s.count
       << std::setw(7) << s.unfinished << std::fixed << std::setprecision(2) << std::setw(12)
       << s.meanUs << std::setw(12) << s.p50Us << std::setw(12) << s.p99Us << std::setw(12)
       << s.maxUs << std::setw(9) << s.meanSlowdown << std::setw(9) << s.p99Slowdown
       << std::defaultfloat << '\n';
}

void
FctStats::Print(std::ostream& os, const std::string& title, bool byBins) const
{
    StreamStateGuard keep(os); // the caller's precision and flags (was left at 2 digits)
    os << "== " << title << " (FCT in us; slowdown = FCT / ideal FCT)\n";
    os << std::left << std::setw(12) << "flows" << std::right << std::setw(8) << "count"
       << std::setw(7) << "unfin" << std::setw(12) << "mean" << std::setw(12) << "p50"
       << std::setw(12) << "p99" << std::setw(12) << "max" << std::setw(9) << "sd-mean"
       << std::setw(9) << "sd-p99" << '\n';
    PrintRow(os, "all", Summarize());
    if (byBins)
    {
        for (const auto& b : DefaultBins())
        {
            PrintRow(os, b.label, Summarize(b.lo, b.hi));
        }
    }
}

void
FctStats::WriteSummaryJson(std::ostream& os, const FctSummary& s)
{
    os << std::setprecision(10) << "{\"count\":" << s.count << ",\"unfinished\":" << s.unfinished
       << ",\"bytes\":" << s.bytes << ",\"mean_fct_us\":" << s.meanUs
       << ",\"p50_fct_us\":" << s.p50Us << ",\"p99_fct_us\":" << s.p99Us
       << ",\"max_fct_us\":" << s.maxUs << ",\"completion_us\":" << s.completionUs
       << ",\"mean_slowdown\":" << s.meanSlowdown << ",\"p50_slowdown\":" << s.p50Slowdown
       << ",\"p99_slowdown\":" << s.p99Slowdown << ",\"retransmissions\":" << s.retransmissions
       << ",\"out_of_order\":" << s.outOfOrder << ",\"timeouts\":" << s.timeouts
       << ",\"trimmed\":" << s.trimmed << ",\"run_end_us\":" << s.runEndUs
       << ",\"completion_lower_bound\":" << (s.completionLowerBound ? "true" : "false")
       << ",\"unfinished_bytes\":" << s.unfinishedBytes
       << ",\"unfinished_bytes_acked\":" << s.unfinishedBytesAcked
       << ",\"unfinished_retransmissions\":" << s.unfinishedRetransmissions
       << ",\"unfinished_timeouts\":" << s.unfinishedTimeouts << "}";
}

void
FctStats::WriteJson(std::ostream& os,
                    const std::string& label,
                    const FabricCounters& f,
                    bool byBins) const
{
    os << "{\"lb\":\"" << label << "\",\"all\":";
    WriteSummaryJson(os, Summarize());
    if (byBins)
    {
        os << ",\"bins\":[";
        bool first = true;
        for (const auto& b : DefaultBins())
        {
            os << (first ? "" : ",") << "{\"bin\":\"" << b.label << "\",\"summary\":";
            WriteSummaryJson(os, Summarize(b.lo, b.hi));
            os << "}";
            first = false;
        }
        os << "]";
    }
    os << ",\"fabric\":{\"drops\":" << f.drops << ",\"failure_drops\":" << f.failureDrops
       << ",\"marks\":" << f.marks << ",\"trims\":" << f.trims
       << ",\"packet_hops\":" << f.packetHops << "}}";
}

std::string
FctStats::SummaryCsvHeader()
{
    return "lb,count,unfinished,mean_fct_us,p50_fct_us,p99_fct_us,max_fct_us,completion_us,mean_"
           "slowdown,"
           "p99_slowdown,retransmissions,out_of_order,timeouts,trimmed,drops,failure_drops,marks,"
           "fabric_trims,packet_hops";
}

std::string
FctStats::SummaryCsvLine(const std::string& label, const FctSummary& s, const FabricCounters& f)
{
    std::ostringstream os;
    os << std::setprecision(10) << label << ',' << s.count << ',' << s.unfinished << ',' << s.meanUs
       << ',' << s.p50Us << ',' << s.p99Us << ',' << s.maxUs << ',' << s.completionUs << ','
       << s.meanSlowdown << ',' << s.p99Slowdown << ',' << s.retransmissions << ',' << s.outOfOrder
       << ',' << s.timeouts << ',' << s.trimmed << ',' << f.drops << ',' << f.failureDrops << ','
       << f.marks << ',' << f.trims << ',' << f.packetHops;
    return os.str();
}

std::string
FctStats::FormatComparison(const std::vector<std::string>& labels,
                           const std::vector<FctSummary>& sums,
                           const std::vector<FabricCounters>& ctr)
{
    NS_ABORT_MSG_IF(labels.size() != sums.size() || labels.size() != ctr.size(),
                    "FormatComparison: " << labels.size() << " labels, " << sums.size()
                                         << " summaries, " << ctr.size() << " counter sets");
    std::ostringstream os;
    const int w0 = 22;
    const int w = 14;
    auto fmt = [](double v) {
        std::ostringstream o;
        o << std::fixed << std::setprecision(2) << v;
        return o.str();
    };
    os << std::left << std::setw(w0) << "metric" << std::right;
    for (const auto& l : labels)
    {
        os << ' ' << std::setw(w - 1) << l; // a long cell keeps one space before it
    }
    os << '\n';
    auto row = [&](const std::string& name, auto get) {
        os << std::left << std::setw(w0) << name << std::right;
        for (size_t i = 0; i < labels.size(); ++i)
        {
            os << ' ' << std::setw(w - 1) << get(i);
        }
        os << '\n';
    };
    row("flows completed", [&](size_t i) { return std::to_string(sums[i].count); });
    row("flows unfinished", [&](size_t i) { return std::to_string(sums[i].unfinished); });
    row("mean FCT (us)", [&](size_t i) { return fmt(sums[i].meanUs); });
    row("p50 FCT (us)", [&](size_t i) { return fmt(sums[i].p50Us); });
    row("p99 FCT (us)", [&](size_t i) { return fmt(sums[i].p99Us); });
    row("max FCT (us)", [&](size_t i) { return fmt(sums[i].maxUs); });
    row("completion time (us)", [&](size_t i) {
        return (sums[i].completionLowerBound ? ">=" : "") + fmt(sums[i].completionUs);
    });
    row("mean slowdown", [&](size_t i) { return fmt(sums[i].meanSlowdown); });
    row("p99 slowdown", [&](size_t i) { return fmt(sums[i].p99Slowdown); });
    row("retransmissions", [&](size_t i) { return std::to_string(sums[i].retransmissions); });
    row("timeouts", [&](size_t i) { return std::to_string(sums[i].timeouts); });
    row("out-of-order pkts", [&](size_t i) { return std::to_string(sums[i].outOfOrder); });
    row("NACKed (trimmed) pkts", [&](size_t i) { return std::to_string(sums[i].trimmed); });
    row("fabric drops", [&](size_t i) { return std::to_string(ctr[i].drops); });
    row("failure drops", [&](size_t i) { return std::to_string(ctr[i].failureDrops); });
    row("fabric ECN marks", [&](size_t i) { return std::to_string(ctr[i].marks); });
    row("fabric trims", [&](size_t i) { return std::to_string(ctr[i].trims); });
    row("packet hops", [&](size_t i) { return std::to_string(ctr[i].packetHops); });
    bool anyPfc = false;
    for (const auto& c : ctr)
    {
        anyPfc |= c.pfc;
    }
    if (anyPfc) // only with PFC on: the default table stays as it was
    {
        row("PFC pause frames", [&](size_t i) { return std::to_string(ctr[i].pfcPauses); });
        row("PFC paused (us)", [&](size_t i) { return fmt(ctr[i].pausedUs); });
        row("PFC watchdog reports", [&](size_t i) { return std::to_string(ctr[i].pfcWatchdog); });
    }
    bool anyGoBackN = false;
    for (const auto& c : ctr)
    {
        anyGoBackN |= c.goBackN;
    }
    if (anyGoBackN) // only with go-back-N receivers: the default table stays as it was
    {
        // resends of out-of-order arrivals (e.g. sprayed packets) are counted here, not as
        // out-of-order packets, which counts those accepted
        row("go-back-N discards",
            [&](size_t i) { return std::to_string(ctr[i].outOfSequenceDropped); });
    }
    bool anyUnfinished = false;
    for (const auto& s : sums)
    {
        anyUnfinished |= s.unfinished > 0;
    }
    if (anyUnfinished) // only then: the all-finished table stays as it was
    {
        row("run end (us)", [&](size_t i) { return fmt(sums[i].runEndUs); });
        row("unfinished bytes acked", [&](size_t i) {
            return std::to_string(sums[i].unfinishedBytesAcked) + "/" +
                   std::to_string(sums[i].unfinishedBytes);
        });
        row("unfinished retx",
            [&](size_t i) { return std::to_string(sums[i].unfinishedRetransmissions); });
        row("unfinished timeouts",
            [&](size_t i) { return std::to_string(sums[i].unfinishedTimeouts); });
    }
    return os.str();
}

} // namespace ns3
