/*
 * Small compatibility layer over ns-3 API differences between the versions we
 * support (3.37 as in Debian bookworm, 3.43 as in Debian trixie, 3.48 as in Debian
 * sid; 3.31, waf era, as far as documented in wscript-compat/README.md).
 * 3.48 needs nothing beyond the ">= 42" macros below; its build-level difference
 * (C++23 <stacktrace> in ns-3's fatal-error headers) is handled in CMakeLists.txt.
 *
 * DCNLB_NS3_MINOR is defined by the build (CMakeLists.txt / wscript).
 */
#ifndef DCN_LB_COMPAT_H
#define DCN_LB_COMPAT_H

#ifndef DCNLB_NS3_MINOR
#define DCNLB_NS3_MINOR 37
#endif

#if DCNLB_NS3_MINOR >= 42
// TestSuite::Type and TestCase::Duration became scoped enums.
#define DCNLB_TEST_UNIT ns3::TestSuite::Type::UNIT
#define DCNLB_TEST_SYSTEM ns3::TestSuite::Type::SYSTEM
#define DCNLB_TEST_QUICK ns3::TestCase::Duration::QUICK
#define DCNLB_TEST_EXTENSIVE ns3::TestCase::Duration::EXTENSIVE
#else
#define DCNLB_TEST_UNIT ns3::TestSuite::UNIT
#define DCNLB_TEST_SYSTEM ns3::TestSuite::SYSTEM
#define DCNLB_TEST_QUICK ns3::TestCase::QUICK
#define DCNLB_TEST_EXTENSIVE ns3::TestCase::EXTENSIVE
#endif

#if DCNLB_NS3_MINOR >= 42
// Ipv4RoutingProtocol::RouteInput takes its callbacks by const reference.
#define DCNLB_ROUTE_CB(T) const T&
#else
#define DCNLB_ROUTE_CB(T) T
#endif

#if DCNLB_NS3_MINOR >= 42
// EnumValue became a template: the accessor needs the enum type explicitly.
#define DCNLB_ENUM_ACCESSOR(EnumType, memberPtr) ns3::MakeEnumAccessor<EnumType>(memberPtr)
#else
#define DCNLB_ENUM_ACCESSOR(EnumType, memberPtr) ns3::MakeEnumAccessor(memberPtr)
#endif

// TracedCallback::IsEmpty (3.36 on); before it, assume a sink may be connected.
#if DCNLB_NS3_MINOR >= 36
#define DCNLB_TRACE_EMPTY(tc) (tc).IsEmpty()
#else
#define DCNLB_TRACE_EMPTY(tc) false
#endif

#if DCNLB_NS3_MINOR >= 36
// Queue<Item, Container> (3.36+) exposes its list through GetContainer(); before,
// Queue<Item> had protected begin()/end().  Use inside a Queue subclass.
#define DCNLB_QUEUE_BEGIN() GetContainer().begin()
#define DCNLB_QUEUE_END() GetContainer().end()
#else
#define DCNLB_QUEUE_BEGIN() begin()
#define DCNLB_QUEUE_END() end()
#endif

#endif // DCN_LB_COMPAT_H
