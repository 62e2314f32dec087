/*
 * Congestion control by name ("dctcp", ...), the counterpart of
 * PathSelectorRegistry for the CongestionControl seam.
 *
 * No central list: every registered ns-3 TypeId that is a concrete subclass of
 * ns3::DcnCongestionControl is found through the TypeId system, and its Name()
 * is its short name.  A full TypeId name ("ns3::DctcpCc") is accepted too.
 * The table is built once (one construction per CC class) and cached.
 */
#ifndef DCN_CC_REGISTRY_H
#define DCN_CC_REGISTRY_H

#include "ns3/congestion-control.h"
#include "ns3/ptr.h"

#include <string>
#include <vector>

namespace ns3
{

class CongestionControlRegistry
{
  public:
    /** True if name is a short name or the TypeId name of a congestion control. */
    static bool Has(const std::string& name);
    /** Create by name; null if unknown (check Has() first). */
    static Ptr<CongestionControl> Create(const std::string& name);
    /** TypeId name for a short name ("" if unknown). */
    static std::string TypeIdName(const std::string& name);
    /** Known short names, sorted. */
    static std::vector<std::string> Names();
    /** "dctcp, ..." */
    static std::string NamesString();
};

} // namespace ns3

#endif // DCN_CC_REGISTRY_H
