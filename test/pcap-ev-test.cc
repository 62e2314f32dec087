/*
 * dcn-lb-pcap: pcap capture on our nodes (DcnPcapHelper) writes files that ns-3's
 * PcapFile and tcpdump read, and the bytes on the wire carry the path selector's
 * choice: the UDP source port of every captured data packet equals the EV that the
 * selector chose for that (connection, PSN), as reported by the transport's
 * PathChosen trace source.
 *
 * Setup: 8-host 2-tier fat-tree (2 ToRs x 4 hosts, 4 uplinks each) at 100 Gb/s;
 * host0 sends one message to each of two remote hosts (two connections), the
 * other hosts run a shifted permutation so the fabric is loaded; pcap on host0's
 * port (item "host0") and on both ends of one ToR uplink (a link id).
 */
#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/dcn-header.h"
#include "ns3/dcn-lb-compat.h"
#include "ns3/dcn-pcap-helper.h"
#include "ns3/dcn-transport-helper.h"
#include "ns3/dcn-transport.h"
#include "ns3/dctcp-cc.h"
#include "ns3/ev-util.h"
#include "ns3/failure-helper.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/graph-topology-helper.h"
#include "ns3/ipv4-header.h"
#include "ns3/path-selector.h"
#include "ns3/pcap-file.h"
#include "ns3/ppp-header.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/trace-helper.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace ns3
{
namespace dcntest
{

/** Records the EVs chosen by one transport, per (connection, PSN), in order. */
struct EvRecorder
{
    std::map<std::pair<uint32_t, uint32_t>, std::vector<uint16_t>> chosen;
    uint32_t n{0};

    void PathChosen(uint32_t connId, uint32_t psn, uint16_t ev)
    {
        chosen[{connId, psn}].push_back(ev);
        n++;
    }
};

/** What a capture file holds, parsed with ns-3's headers. */
struct PcapContents
{
    uint32_t linkType{0};
    uint32_t records{0};
    uint32_t truncated{0};
    uint32_t nonIpv4{0};
    std::vector<std::pair<Ipv4Header, std::pair<UdpHeader, DcnHeader>>> udp;
};

static PcapContents
ReadCapture(const std::string& file)
{
    PcapContents c;
    PcapFile f;
    f.Open(file, std::ios::in);
    if (f.Fail())
    {
        return c;
    }
    c.linkType = f.GetDataLinkType();
    std::vector<uint8_t> buf(65536);
    while (true)
    {
        uint32_t sec = 0;
        uint32_t usec = 0;
        uint32_t incl = 0;
        uint32_t orig = 0;
        uint32_t read = 0;
        f.Read(buf.data(), buf.size(), sec, usec, incl, orig, read);
        if (f.Eof() || f.Fail())
        {
            break;
        }
        c.records++;
        if (incl != orig)
        {
            c.truncated++;
        }
        Ptr<Packet> p = Create<Packet>(buf.data(), read);
        PppHeader ppp;
        p->RemoveHeader(ppp);
        if (ppp.GetProtocol() != 0x0021) // PPP protocol number of IPv4
        {
            c.nonIpv4++;
            continue;
        }
        Ipv4Header ip;
        p->RemoveHeader(ip);
        if (ip.GetProtocol() != 17)
        {
            continue;
        }
        UdpHeader udp;
        DcnHeader dcn;
        p->RemoveHeader(udp);
        p->RemoveHeader(dcn);
        c.udp.push_back({ip, {udp, dcn}});
    }
    f.Close();
    return c;
}

/** A path as one single-quoted shell word. */
static std::string
ShellQuote(const std::string& s)
{
    std::string q = "'";
    for (char c : s)
    {
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return q + "'";
}

class PcapEvTestCase : public TestCase
{
  public:
    explicit PcapEvTestCase(const std::string& lb)
        : TestCase("pcap of the port of host0: UDP source port == EV chosen, lb=" + lb),
          m_lb(lb)
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(5);
        RngSeedManager::SetRun(1);
        Ptr<FatTreeHelper> ft = FatTreeHelper::TwoTier(2, 4, 4);
        ft->SetAttribute("HostLinkRate", DataRateValue(DataRate("100Gbps")));
        ft->SetAttribute("FabricLinkRate", DataRateValue(DataRate("100Gbps")));
        ft->Build();
        int64_t stream = 20;
        stream += ft->AssignStreams(stream);
        const uint32_t n = ft->GetNHosts();

        // Bad port lists are refused with one line naming the item.
        std::vector<DcnPcapPort> ports;
        std::string err = DcnPcapHelper::ParsePortList(*ft, "host0,nosuchswitch", ports);
        NS_TEST_ASSERT_MSG_NE(err.find("'nosuchswitch'"), std::string::npos, err);
        err = DcnPcapHelper::ParsePortList(*ft, "99999", ports);
        NS_TEST_ASSERT_MSG_NE(err.find("link id '99999'"), std::string::npos, err);
        // Host0's port plus both ends of one ToR uplink (by id).
        uint32_t uplink = 0;
        for (const DcnLinkInfo& li : ft->GetLinks())
        {
            if (li.tierA >= 0 && li.tierB >= 0)
            {
                uplink = li.id;
                break;
            }
        }
        err = DcnPcapHelper::ParsePortList(*ft, "host0, " + std::to_string(uplink), ports);
        NS_TEST_ASSERT_MSG_EQ(err, "", "valid port list");
        NS_TEST_ASSERT_MSG_EQ(ports.size(), 3u, "host0's port + both ends of the uplink");
        const std::string prefix = CreateTempDirFilename("dcn-pcap-" + m_lb);
        std::vector<std::string> files = DcnPcapHelper::Enable(*ft, ports, prefix);
        const DcnLinkInfo& hl = ft->GetLink(ports[0].linkId);
        NS_TEST_ASSERT_MSG_EQ(DcnPcapHelper::EndName(hl, ports[0].endA), "host0", "host0's end");

        DcnTransportHelper th;
        th.Install(ft->GetHosts());
        EvRecorder rec;
        Ptr<DcnTransport> t0 = DcnTransportHelper::Get(ft->GetHosts().Get(0));
        t0->TraceConnectWithoutContext("PathChosen", MakeCallback(&EvRecorder::PathChosen, &rec));
        const uint32_t mtu = t0->GetMtu();
        const uint64_t msgBytes = 64 * 1024;
        uint32_t completed = 0;
        std::vector<std::pair<uint32_t, uint32_t>> pairs = {{0, 5}, {0, 6}};
        for (uint32_t i = 1; i < n; ++i)
        {
            pairs.emplace_back(i, (i + 4) % n == 0 ? 7 : (i + 4) % n);
        }
        for (auto& pr : pairs)
        {
            Ptr<DcnTransport> t = DcnTransportHelper::Get(ft->GetHosts().Get(pr.first));
            Ptr<PathSelector> ps = PathSelectorRegistry::Create(m_lb);
            stream += ps->AssignStreams(stream);
            DcnConnectionParams p;
            p.lineRate = ft->GetHostLinkRate();
            p.baseRtt = ft->GetBaseRtt(pr.first, pr.second, mtu);
            Ptr<DcnConnection> c =
                t->Connect(ft->GetHostAddress(pr.second), ps, CreateObject<DctcpCc>(), p);
            c->SendMessage(msgBytes,
                           DcnConnection::CompletionCallback(
                               MakeBoundCallback(&PcapEvTestCase::Completed, &completed)));
        }
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        const DcnTransportStats st0 = t0->GetStats();
        const Ipv4Address a0 = ft->GetHostAddress(0);
        Simulator::Destroy(); // closes the pcap files

        NS_TEST_ASSERT_MSG_EQ(completed, pairs.size(), "every message completes");
        PcapContents c = ReadCapture(files[0]);
        NS_TEST_ASSERT_MSG_EQ(c.linkType, PcapHelper::DLT_PPP, "PPP link type");
        NS_TEST_ASSERT_MSG_GT(c.records, 0u, "host0's capture has packets");
        NS_TEST_ASSERT_MSG_EQ(c.truncated, 0u, "whole packets captured");
        NS_TEST_ASSERT_MSG_EQ(c.nonIpv4, 0u, "only IPv4 on the wire");

        // Data packets sent by host0, in wire order, against the EVs chosen.
        std::map<std::pair<uint32_t, uint32_t>, uint32_t> used;
        std::set<uint16_t> ports0;
        uint32_t data = 0;
        uint32_t acks = 0;
        uint32_t mismatches = 0;
        uint32_t unknown = 0;
        for (auto& rcd : c.udp)
        {
            const Ipv4Header& ip = rcd.first;
            const UdpHeader& udp = rcd.second.first;
            const DcnHeader& h = rcd.second.second;
            NS_TEST_ASSERT_MSG_EQ(udp.GetDestinationPort(), DcnHeader::UDP_PORT, "RoCEv2 port");
            if (h.opcode != DcnHeader::DATA || ip.GetSource() != a0)
            {
                acks += (h.opcode == DcnHeader::ACK && ip.GetDestination() == a0) ? 1 : 0;
                continue;
            }
            data++;
            ports0.insert(udp.GetSourcePort());
            auto it = rec.chosen.find({h.connId, h.psn});
            uint32_t& k = used[{h.connId, h.psn}];
            if (it == rec.chosen.end() || k >= it->second.size())
            {
                unknown++;
                continue;
            }
            const uint16_t ev = it->second[k++];
            // a DATA header has no evEcho field since issue 10: the EV is the UDP port
            if (udp.GetSourcePort() != dcnev::ToUdpPort(ev) ||
                dcnev::FromUdpPort(udp.GetSourcePort()) != ev)
            {
                mismatches++;
            }
        }
        NS_TEST_ASSERT_MSG_EQ(data, rec.n, "every chosen EV's packet is in the capture");
        NS_TEST_ASSERT_MSG_EQ(data, st0.dataPacketsSent, "every data packet sent is captured");
        NS_TEST_ASSERT_MSG_EQ(data, 2 * ((msgBytes + mtu - 1) / mtu), "two messages of data");
        NS_TEST_ASSERT_MSG_EQ(unknown,
                              0u,
                              "every captured data packet was announced by PathChosen");
        NS_TEST_ASSERT_MSG_EQ(mismatches, 0u, "UDP source port == EV chosen, for every packet");
        NS_TEST_ASSERT_MSG_GT(acks, 0u, "ACKs to host0 captured too (receive direction)");
        if (m_lb == "ecmp")
        {
            NS_TEST_ASSERT_MSG_LT_OR_EQ(ports0.size(), 2u, "ECMP: one EV per connection");
        }
        else
        {
            NS_TEST_ASSERT_MSG_GT(ports0.size(), 2u, "per-packet spraying: many EVs on the wire");
        }

        // The uplink capture sees the same packets at both ends (no loss on the link).
        PcapContents ua = ReadCapture(files[1]);
        PcapContents ub = ReadCapture(files[2]);
        NS_TEST_ASSERT_MSG_EQ(ua.records, ub.records, "both ends of a healthy link agree");

        // tcpdump (if installed) reads the file: one output line per record.
        const char* tcpdump = "/usr/bin/tcpdump";
        if (std::ifstream(tcpdump).good())
        {
            const std::string out = files[0] + ".txt";
            const std::string err = files[0] + ".err";
            const std::string cmd = std::string(tcpdump) + " -nn -r " + ShellQuote(files[0]) +
                                    " >" + ShellQuote(out) + " 2>" + ShellQuote(err);
            const int rc = std::system(cmd.c_str());
            std::string line;
            std::string errText;
            for (std::ifstream e(err); std::getline(e, line);)
            {
                errText += line + "; ";
            }
            NS_TEST_ASSERT_MSG_EQ(rc, 0, "tcpdump -r reads the file: " << errText);
            std::ifstream in(out);
            uint32_t lines = 0;
            uint32_t udpLines = 0;
            while (std::getline(in, line))
            {
                lines++;
                udpLines += line.find(".4791: UDP") != std::string::npos ? 1 : 0;
            }
            std::remove(err.c_str());
            NS_TEST_ASSERT_MSG_EQ(lines, c.records, "tcpdump prints every record");
            NS_TEST_ASSERT_MSG_EQ(udpLines, c.records, "tcpdump decodes IPv4/UDP to port 4791");
            std::remove(out.c_str());
        }
        for (const std::string& f : files)
        {
            std::remove(f.c_str());
        }
    }

    static void Completed(uint32_t* n, const DcnMessageRecord&)
    {
        (*n)++;
    }

    std::string m_lb;
};

class PcapParallelLinkTestCase : public TestCase
{
  public:
    PcapParallelLinkTestCase()
        : TestCase(
              "parallel links (hermes-testbed 'leaf0-spine0' link k=1): pcap file names without "
              "a slash, node names without the suffix, in --pcap and --failures")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<DcnGraphTopology> t = DcnTopologyPresets::Create("hermes-testbed", {}, "minimal");
        const uint32_t id = t->FindLink("leaf0-spine0/1");
        NS_TEST_ASSERT_MSG_LT(id, t->GetLinks().size(), "the preset has parallel links");
        std::vector<DcnPcapPort> ports;
        NS_TEST_ASSERT_MSG_EQ(DcnPcapHelper::ParsePortList(*t, "leaf0-spine0/1", ports),
                              "",
                              "the name --PrintLinks prints is accepted");
        NS_TEST_ASSERT_MSG_EQ(ports.size(), 2u, "both ends");
        std::set<std::string> names;
        for (const DcnPcapPort& p : ports)
        {
            names.insert(DcnPcapHelper::FileName(*t, p, "x"));
        }
        NS_TEST_EXPECT_MSG_EQ((names == std::set<std::string>{"x-leaf0-spine0_1-leaf0.pcap",
                                                              "x-leaf0-spine0_1-spine0.pcap"}),
                              true,
                              "one file per end, in this directory");
        // a node name selects its ends of the parallel links too
        ports.clear();
        NS_TEST_ASSERT_MSG_EQ(DcnPcapHelper::ParsePortList(*t, "spine0", ports), "", "node");
        uint32_t parallel = 0;
        for (const DcnPcapPort& p : ports)
        {
            parallel += p.linkId == id ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_EQ(parallel, 1u, "spine0's end of leaf0-spine0/1");
        // the failure specs take the same names (the switch's name comes from its links)
        Ptr<FailureHelper> fh = CreateObject<FailureHelper>(t);
        Ptr<Node> spine0 = fh->FindSwitch("spine0");
        NS_TEST_ASSERT_MSG_NE(spine0, nullptr, "switch spine0 by name");
        NS_TEST_EXPECT_MSG_EQ(spine0, t->GetLink(id).b, "the far end of leaf0-spine0/1");
        NS_TEST_EXPECT_MSG_EQ(fh->AddFromSpec("failures", "drop:switch=spine0:prob=0.02"),
                              "",
                              "switch spec");
        NS_TEST_EXPECT_MSG_EQ(fh->AddFromSpec("failures", "silent:link=leaf0-spine0/1"),
                              "",
                              "link spec");
        Simulator::Destroy();
    }
};

class PcapEvTestSuite : public TestSuite
{
  public:
    PcapEvTestSuite()
        : TestSuite("dcn-lb-pcap", DCNLB_TEST_SYSTEM)
    {
        AddTestCase(new PcapEvTestCase("reps"), DCNLB_TEST_QUICK);
        AddTestCase(new PcapEvTestCase("ecmp"), DCNLB_TEST_QUICK);
        AddTestCase(new PcapParallelLinkTestCase(), DCNLB_TEST_QUICK);
    }
};

static PcapEvTestSuite g_pcapEvTestSuite;

} // namespace dcntest
} // namespace ns3
