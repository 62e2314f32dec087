/*
 * Schemes by name (issue 8 item 7, DESIGN.md 3.8): `--lb=<name>` names a whole
 * load-balancing scheme, i.e. the parts that must go together:
 *   path selector + congestion control + loss recovery + switch forwarding
 *   policy + header options + the transport it needs,
 * and the topologies it can run on.  Every example resolves --lb through this
 * registry, refuses a scheme that cannot run on its topology or transport with
 * one line (CheckCompatible), and calls Validate() before the simulation.
 *
 * A path selector registered with DCNLB_REGISTER_PATH_SELECTOR alone is a
 * scheme too (an implicit one with the defaults below), so a new algorithm is
 * one class plus one registration; DCNLB_REGISTER_SCHEME adds the other parts.
 */
#ifndef DCN_SCHEME_H
#define DCN_SCHEME_H

#include "ns3/ptr.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class DcnTopology;

struct DcnScheme
{
    std::string name;                             //!< --lb name
    std::string description;                      //!< one line for --help / docs
    std::string pathSelector;                     //!< PathSelectorRegistry name ("" = name)
    std::string congestionControl{"dctcp"};       //!< CongestionControlRegistry name
    std::string lossRecovery{"selective-repeat"}; //!< DcnTransport loss-recovery strategy
    std::string switchPolicy{"ecmp"};             //!< forwarding policy the switches run
    uint8_t headerOptions{0};                     //!< DcnHeader::ExtOption bits the scheme uses
    std::string transport{"dcn"}; //!< transport(s) it runs over: "dcn", "tcp" or a list "dcn,tcp"
    /** Topology families it runs on (a topology name matches a family it starts
     *  with, e.g. "fat-tree" matches "fat-tree-2tier"); empty = any topology. */
    std::vector<std::string> topologies;
    /** Selector attributes the scheme sets (name, value), applied after creation. */
    std::vector<std::pair<std::string, std::string>> selectorAttributes;
    /** DcnTransport attributes the scheme runs with (name, value), e.g. LAPS's backstop
     *  Rto and selective repeat, ConWeave's go-back-N; drivers apply them after their own
     *  (--transport=roce's go-back-N) unless the user set the attribute
     *  (DcnTransportHelper::SetSchemeAttributes). */
    std::vector<std::pair<std::string, std::string>> transportAttributes;
};

class DcnSchemeRegistry
{
  public:
    /** Register (or replace) a scheme; returns true (for static initialisers). */
    static bool Register(const DcnScheme& s);
    /** Known scheme or path selector name. */
    static bool Has(const std::string& name);
    /** The scheme of a name (an implicit scheme for a bare path selector); Has() first. */
    static DcnScheme Get(const std::string& name);
    /** Every scheme name (explicit and implicit), sorted. */
    static std::vector<std::string> Names();
    /** "ecmp, ops, reps" */
    static std::string NamesString();
    /** Schemes that can run on a topology and transport. */
    static std::vector<std::string> NamesFor(const std::string& topology,
                                             const std::string& transport);
    /**
     * "" if scheme `name` can run on `topology` with `transport`, else one line:
     *   --lb=<name>: scheme '<name>' cannot run on topology '<t>' with transport
     *   '<tr>' (it needs topology <list> / transport <x>); allowed here: <names>
     */
    static std::string CheckCompatible(const std::string& name,
                                       const std::string& topology,
                                       const std::string& transport);
    /**
     * Create the scheme's path selector and congestion control with the current
     * attribute defaults (plus the scheme's selector attributes) and run their
     * Validate(): "" if fine, else the first one-line message (prefixed --lb=<name>).
     */
    static std::string Validate(const std::string& name);
    /**
     * "" if path selector `selector` has no attribute `attr` or its checker
     * accepts `value`; else "<TypeId>::<attr> allowed: <checker's range>".
     */
    /**
     * Everything an example checks before running scheme `name`: CheckCompatible,
     * the selector's EvSetSize checker against evs (skipped if evs == 0; the
     * message names --evs), Validate() and, when the run replaces the scheme's
     * congestion control by `cc` (e.g. DCQCN under --transport=roce), that one's
     * Validate() (the message names --cc).  "" if the scheme can run.
     */
    /**
     * The topology-free part of CheckForRun: Validate() and, when the run replaces the
     * scheme's congestion control by `cc`, that one's Validate() (a message that does not
     * name an option is prefixed by `ccSource`, default "--cc=<cc>").  For drivers that
     * refuse bad attribute values before they build a topology.  "" if fine.
     */
    static std::string CheckConfig(const std::string& name,
                                   const std::string& cc = "",
                                   const std::string& ccSource = "");

    /**
     * The congestion control scheme `name` runs over `transport` when the driver is given
     * none: its own (DcnScheme::congestionControl), with DCTCP replaced by DCQCN over
     * "roce" (lossless RoCE's); "dctcp" (ns-3's TcpDctcp) over "tcp".
     */
    static std::string DefaultCongestionControl(const std::string& name,
                                                const std::string& transport);

    static std::string CheckForRun(const std::string& name,
                                   const std::string& topology,
                                   const std::string& transport,
                                   uint64_t evs,
                                   const std::string& cc = "");

    static std::string CheckSelectorAttribute(const std::string& selector,
                                              const std::string& attr,
                                              uint64_t value);

    /**
     * "" if scheme `name`'s switch policy (if it has one other than the topology's
     * own) accepts the built `topology` (ForwardingPolicy::CheckTopology), else its one
     * line prefixed --lb=<name>.  Examples call it for every scheme before the first run,
     * so that no scheme simulates before another one is refused.
     */
    static std::string CheckSwitchPolicy(const std::string& name, const DcnTopology& topology);

    /** Whether scheme `name` installs a switch policy of its own (not "" or "ecmp", which
     * keep the topology's). */
    static bool HasSwitchPolicy(const std::string& name);

    /**
     * Install scheme `name`'s switch policy on every switch of a built
     * topology (issue 14: --lb=letflow|drill|conga in every example).  A
     * scheme whose switchPolicy is "ecmp" (the default) leaves the topology's
     * own policy untouched, so e.g. --ns3::FatTreeHelper::ForwardingPolicy
     * keeps working.  Otherwise every switch gets a fresh policy of that
     * short name (DcnForwardingPolicyTypeName): CheckTopology() first (its
     * line is returned if the topology is refused), then Attach(node),
     * DcnSwitchRouting::SetForwardingPolicy, AttachTopology(topology, index)
     * and AssignStreams(stream + k) unless stream < 0 (*streamsUsed receives
     * the count).
     * Called by WorkloadHelper::Install.  \return "" or one error line.
     */
    static std::string InstallSwitchPolicy(const std::string& name,
                                           Ptr<DcnTopology> topology,
                                           int64_t stream,
                                           int64_t* streamsUsed = nullptr);
};

} // namespace ns3

#define DCNLB_SCHEME_CONCAT2(a, b) a##b
#define DCNLB_SCHEME_CONCAT(a, b) DCNLB_SCHEME_CONCAT2(a, b)
/** Register a scheme from a .cc file: DCNLB_REGISTER_SCHEME(DcnScheme{...}). */
#define DCNLB_REGISTER_SCHEME(scheme)                                                              \
    static const bool DCNLB_SCHEME_CONCAT(g_dcnlbScheme, __LINE__) =                               \
        ns3::DcnSchemeRegistry::Register(scheme)

#endif // DCN_SCHEME_H
