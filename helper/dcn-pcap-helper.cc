#include "dcn-pcap-helper.h"

#include "ns3/dcn-port-device.h"
#include "ns3/log.h"
#include "ns3/pcap-file-wrapper.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/simulator.h"
#include "ns3/trace-helper.h"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnPcapHelper");

std::string
DcnPcapHelper::EndName(const DcnLinkInfo& li, bool endA)
{
    const std::string name = li.EndsName(); // without a parallel link's "/k"
    const std::string::size_type dash = name.find('-');
    if (dash == std::string::npos)
    {
        return name + (endA ? ".a" : ".b");
    }
    return endA ? name.substr(0, dash) : name.substr(dash + 1);
}

std::string
DcnPcapHelper::FileName(const DcnTopology& topo, const DcnPcapPort& port, const std::string& prefix)
{
    const DcnLinkInfo& li = topo.GetLink(port.linkId);
    std::string link = li.name;
    std::replace(link.begin(), link.end(), '/', '_'); // a file name, not a directory
    return prefix + "-" + link + "-" + EndName(li, port.endA) + ".pcap";
}

std::string
DcnPcapHelper::ParsePortList(const DcnTopology& topo,
                             const std::string& list,
                             std::vector<DcnPcapPort>& ports)
{
    NS_LOG_FUNCTION(list);
    ports.clear();
    const std::vector<DcnLinkInfo>& links = topo.GetLinks();
    auto add = [&ports](uint32_t id, bool endA) {
        for (const DcnPcapPort& p : ports)
        {
            if (p.linkId == id && p.endA == endA)
            {
                return;
            }
        }
        ports.push_back({id, endA});
    };
    const std::string allowed =
        "allowed: link ids 0.." + std::to_string(links.size() - 1) + ", link names like '" +
        (links.empty() ? std::string("a-b") : links.front().name) + "', node names like '" +
        (links.empty() ? std::string("a") : EndName(links.front(), false)) +
        "', or 'all', comma-separated";
    std::stringstream ss(list);
    std::string item;
    bool any = false;
    while (std::getline(ss, item, ','))
    {
        item.erase(0, item.find_first_not_of(" \t"));
        item.erase(item.find_last_not_of(" \t") + 1);
        if (item.empty())
        {
            continue;
        }
        any = true;
        if (item == "all")
        {
            for (const DcnLinkInfo& li : links)
            {
                add(li.id, true);
                add(li.id, false);
            }
            continue;
        }
        if (std::all_of(item.begin(), item.end(), [](unsigned char c) { return std::isdigit(c); }))
        {
            const unsigned long id = item.size() <= 9 ? std::stoul(item) : links.size();
            if (id >= links.size())
            {
                return "--pcap: link id '" + item + "' does not exist; " + allowed;
            }
            add(static_cast<uint32_t>(id), true);
            add(static_cast<uint32_t>(id), false);
            continue;
        }
        bool found = false;
        for (const DcnLinkInfo& li : links)
        {
            if (li.name == item)
            {
                add(li.id, true);
                add(li.id, false);
                found = true;
                break;
            }
        }
        if (found)
        {
            continue;
        }
        for (const DcnLinkInfo& li : links)
        {
            for (bool endA : {true, false})
            {
                if (EndName(li, endA) == item)
                {
                    add(li.id, endA);
                    found = true;
                }
            }
        }
        if (!found)
        {
            return "--pcap: '" + item + "' is neither a link nor a node of the topology; " +
                   allowed;
        }
    }
    if (!any)
    {
        return "--pcap: empty port list; " + allowed;
    }
    return "";
}

std::vector<std::string>
DcnPcapHelper::Enable(const DcnTopology& topo,
                      const std::vector<DcnPcapPort>& ports,
                      const std::string& prefix)
{
    NS_LOG_FUNCTION(ports.size() << prefix);
    PcapHelper pcap;
    std::vector<std::string> files;
    files.reserve(ports.size());
    for (const DcnPcapPort& port : ports)
    {
        const DcnLinkInfo& li = topo.GetLink(port.linkId);
        const std::string f = FileName(topo, port, prefix);
        // What PointToPointHelper::EnablePcap does (PPP link type, the device's
        // PromiscSniffer trace), plus closing the file at Simulator::Destroy so that
        // it is complete even while the topology still holds the devices.
        Ptr<PcapFileWrapper> file = pcap.CreateFile(f, std::ios::out, PcapHelper::DLT_PPP);
        Ptr<PointToPointNetDevice> dev = port.endA ? li.devA : li.devB;
        pcap.HookDefaultSink<PointToPointNetDevice>(dev, "PromiscSniffer", file);
        if (DynamicCast<DcnPortDevice>(dev))
        {
            // A DcnPortDevice on its own transmit machine reports what it puts on
            // the line through PortTxBegin, and what it receives from such a peer
            // through PortRx, at the moments PointToPointNetDevice's sniffer
            // would; only one of each pair fires.
            pcap.HookDefaultSink<PointToPointNetDevice>(dev, "PortTxBegin", file);
            pcap.HookDefaultSink<PointToPointNetDevice>(dev, "PortRx", file);
        }
        Simulator::ScheduleDestroy(&PcapFileWrapper::Close, file);
        files.push_back(f);
    }
    return files;
}

} // namespace ns3
