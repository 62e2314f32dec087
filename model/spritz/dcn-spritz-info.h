/*
 * Spritz state shared by the switches and the endpoints of one topology
 * (spritz spec 2.2-2.7), aggregated to the DcnTopology like DcnRouteInfo:
 *  - the per-switch ECMP tables T1_inter / T1_intra / T2, role detection and
 *    the forwarding decision (dcn::SpritzTables over the graph's static
 *    MinimalRouting: Spritz tables never change after a failure, spec 4.3.7);
 *  - per switch, graph port index -> ns-3 interface index;
 *  - the endpoint EV lists per (source switch, destination switch): entries
 *    sorted by latency (index 0 = shortest), Eq. 1 weights (w variant, x3)
 *    and uniform weights, and an EV -> index map (binary search over the
 *    sorted EVs).  Built at the first connection of a pair and shared by every
 *    connection of that pair (static compression, spec 2.6).
 * Only a DcnGraphTopology of the dragonfly or slimfly family has Spritz
 * tables; Get() returns null (and a one-line reason) otherwise.
 */
#ifndef DCN_SPRITZ_INFO_H
#define DCN_SPRITZ_INFO_H

#include "ns3/dcn-spritz-tables.h"
#include "ns3/object.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace ns3
{

class DcnTopology;

/** The EV list of one switch pair (spritz spec 2.6-2.7). */
struct DcnSpritzPairPaths
{
    std::vector<uint16_t> evs;       //!< EV (EV1 << 8 | EV2) of entry i
    std::vector<uint32_t> latencyPs; //!< latency of entry i (spec 1.3 model)
    std::vector<uint8_t> minimal;    //!< 1 if entry i is a minimal path
    std::vector<double> weighted;    //!< Eq. 1 with WScale (the "(w)" variants)
    std::vector<uint32_t> evSorted;  //!< (ev << 16 | index), ascending, for Find()

    uint32_t Size() const
    {
        return static_cast<uint32_t>(evs.size());
    }

    /** Index of an EV in this list, or 0xffffffff.  O(log n). */
    uint32_t Find(uint16_t ev) const;
};

class DcnSpritzInfo : public Object
{
  public:
    static TypeId GetTypeId();
    DcnSpritzInfo();
    ~DcnSpritzInfo() override;

    /**
     * The Spritz info of a topology (built and aggregated at the first call), or
     * null when the topology has no Spritz tables (\p why, if given, gets one line).
     */
    static Ptr<DcnSpritzInfo> Get(const DcnTopology& topology, std::string* why = nullptr);

    /** Preset name prefixes of the topologies with Spritz tables (Dragonfly, Slim Fly). */
    static const std::vector<std::string>& TopologyFamilies();

    const dcn::SpritzTables& Tables() const
    {
        return *m_tables;
    }

    /** ns-3 interface of graph port \p port of switch \p sw. */
    uint32_t Iface(uint32_t sw, uint32_t port) const
    {
        return m_iface[m_first[sw] + port];
    }

    /** Switch of a topology host index (0xffffffff if out of range). */
    uint32_t SwitchOfHost(uint32_t host) const
    {
        return host < m_hostSwitch.size() ? m_hostSwitch[host] : 0xffffffffU;
    }

    uint32_t NSwitches() const
    {
        return static_cast<uint32_t>(m_first.size() - 1);
    }

    /** The EV list of a pair (src != dst), with weights scaled by \p wScale (spec 2.7). */
    const DcnSpritzPairPaths& Paths(uint32_t src, uint32_t dst, double wScale = 3.0);

    /** Largest EV list seen so far, and the memory of the lists built (3 B per entry, spec 2.1). */
    uint32_t MaxPathsSeen() const
    {
        return m_maxSeen;
    }

  private:
    bool Init(const DcnTopology& topology, std::string* why);

    std::unique_ptr<dcn::SpritzTables> m_tables;
    std::vector<uint32_t> m_first; //!< per switch, offset into m_iface
    std::vector<uint32_t> m_iface;
    std::vector<uint32_t> m_hostSwitch;
    /** (source switch, destination switch, WScale) -> the pair's list; a node-based map,
     *  so the references Paths() hands out stay valid as entries are added */
    std::map<std::tuple<uint32_t, uint32_t, double>, DcnSpritzPairPaths> m_pairs;
    uint32_t m_maxSeen{0};
};

} // namespace ns3

#endif // DCN_SPRITZ_INFO_H
