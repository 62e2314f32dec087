#include "reps-profile.h"

#include "ns3/boolean.h"
#include "ns3/dcn-queue-disc.h"
#include "ns3/dcn-transport-helper.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/log.h"
#include "ns3/queue-size.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"
#include "ns3/workload-helper.h"

#include <iomanip>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RepsArtifactProfile");

void
RepsArtifactProfile::ApplyFabric(Ptr<FatTreeHelper> ft, DataRate fabricRate)
{
    NS_LOG_FUNCTION(ft << fabricRate);
    ft->SetAttribute("LinkDelay", TimeValue(MicroSeconds(1)));
    ft->SetAttribute("SwitchLatency", TimeValue(Seconds(0)));
    // -q 100 packets of 4150 B at 400G; the artifact sizes queues per link rate
    const double scale = fabricRate.GetBitRate() / 400e9;
    const uint64_t bytes =
        static_cast<uint64_t>(QUEUE_PACKETS * DATA_FRAME * (scale > 0 ? scale : 1.0));
    ft->SetAttribute("QueueLimit", QueueSizeValue(QueueSize(QueueSizeUnit::BYTES, bytes)));
    ft->SetAttribute("KminFraction", DoubleValue(double(KMIN_PACKETS) / QUEUE_PACKETS));
    ft->SetAttribute("KmaxFraction", DoubleValue(double(KMAX_PACKETS) / QUEUE_PACKETS));
}

void
RepsArtifactProfile::ApplyQueues(Ptr<FatTreeHelper> ft)
{
    NS_LOG_FUNCTION(ft);
    for (const DcnLinkInfo& li : ft->GetLinks())
    {
        for (Ptr<NetDevice> d : {Ptr<NetDevice>(li.devA), Ptr<NetDevice>(li.devB)})
        {
            Ptr<DcnQueueDisc> q = ft->GetQueueDisc(d);
            if (q)
            {
                q->SetAttribute("OverflowPolicy", StringValue("DropArrivalOrLast"));
            }
        }
    }
}

Time
RepsArtifactProfile::Rto(Ptr<FatTreeHelper> ft, DataRate fabricRate)
{
    const uint32_t hpt = ft->GetNHosts() / ft->GetNTors();
    const uint32_t far = ft->GetNTors() > 1 ? hpt : 1;
    const Time rtt = ft->GetBaseRtt(0, far % ft->GetNHosts(), 4096);
    const double rate = fabricRate.GetBitRate() > 0 ? fabricRate.GetBitRate() : 400e9;
    const double drain = QUEUE_PACKETS * DATA_FRAME * (rate / 400e9) * 8.0 / rate;
    return rtt + Seconds(4 * drain);
}

void
RepsArtifactProfile::ApplyTransport(DcnTransportHelper& th,
                                    Ptr<FatTreeHelper> ft,
                                    DataRate fabricRate)
{
    NS_LOG_FUNCTION(ft);
    th.SetTransportAttribute("DataFrameSize", UintegerValue(DATA_FRAME));
    th.SetTransportAttribute("ControlFrameSize", UintegerValue(CONTROL_FRAME));
    th.SetTransportAttribute("Rto", TimeValue(Rto(ft, fabricRate)));
}

void
RepsArtifactProfile::ApplySelector(Ptr<WorkloadHelper> wl)
{
    wl->AddSelectorAttribute("FrozenOrder", StringValue("RoundRobin"), false);
    wl->AddSelectorAttribute("ExploreMode", StringValue("AllRandom"), false);
    wl->AddSelectorAttribute("ResetBufferOnFreezeExit", BooleanValue(true), false);
}

std::vector<RepsProfileEntry>
RepsArtifactProfile::Table()
{
    return {
        {"FatTreeHelper::LinkDelay", "1us", "500ns", "spec 2.4: [A] 1 us links"},
        {"FatTreeHelper::SwitchLatency", "0", "500ns", "spec 2.4: [A] no switch latency"},
        {"FatTreeHelper::QueueLimit",
         "100 x 4150 B x rate/400G (415000 B at 400G)",
         "415000 B",
         "spec 3.1/2.4: [A] -q 100, 4150 B per packet"},
        {"FatTreeHelper::KminFraction/KmaxFraction",
         "0.2/0.8 (20/80 packets)",
         "0.2/0.8",
         "spec A12: [A] micro scripts -ecn 20 80"},
        {"FailureHelper::DegradeScalesQueue",
         "true (queue and ECN halved at 200G)",
         "true",
         "issue 10: [A] sizes queues per link rate"},
        {"DcnQueueDisc::OverflowPolicy",
         "DropArrivalOrLast",
         "DropArrival",
         "[A] CompositeQueue: drop arrival or last-enqueued, p = 1/2"},
        {"DcnTransport::DataFrameSize", "4150", "0 (natural 4150)", "spec 2.4: [A] 4150 B"},
        {"DcnTransport::ControlFrameSize", "64", "0 (natural 59)", "[A] 64 B ACK/NACK"},
        {"DcnTransport::Rto",
         "unloaded RTT + 4 x queue drain (~41 us at 400G, 2 tiers)",
         "70us",
         "spec A12: [A] RTO formula"},
        {"DctcpCc::InitialWindowBdp", "1.5 (= -cwnd 151 packets)", "1.5", "spec 2.3"},
        {"RepsPathSelector::FrozenOrder", "RoundRobin", "OldestValid", "spec A5: [A]"},
        {"RepsPathSelector::ExploreMode", "AllRandom", "EveryNth", "spec A1: [A]"},
        {"RepsPathSelector::ResetBufferOnFreezeExit", "true", "false", "spec A7: [A]"},
    };
}

void
RepsArtifactProfile::Print(std::ostream& os)
{
    os << "profile reps-artifact (parameter: artifact value | our default | source)\n";
    for (const auto& e : Table())
    {
        os << "  " << std::left << std::setw(44) << e.parameter << e.artifact << " | " << e.ours
           << " | " << e.source << "\n";
    }
}

} // namespace ns3
