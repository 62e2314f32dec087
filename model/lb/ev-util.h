/*
 * Entropy value (EV) conventions shared by every path selector (ECMP, OPS,
 * REPS, ...).
 *
 * Convention: an EV is a 16-bit value written unchanged into the UDP source
 * port of the transport's packets (UDP destination port 4791).  An EV set of
 * size n is the range [0, n); n may be 1..65536.  Ports below 1024 are valid
 * in ns-3 and on the wire, so no offset is applied.
 */
#ifndef DCN_EV_UTIL_H
#define DCN_EV_UTIL_H

#include "ns3/abort.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>

namespace ns3
{
namespace dcnev
{

/** Largest EV set (all 16-bit values). */
constexpr uint32_t MAX_EV_SET_SIZE = 65536;

/** UDP source port that carries an EV. */
inline uint16_t
ToUdpPort(uint16_t ev)
{
    return ev;
}

/** EV carried by a UDP source port. */
inline uint16_t
FromUdpPort(uint16_t port)
{
    return port;
}

/** Abort unless 1 <= n <= 65536; param names the attribute in the message. */
inline void
CheckEvSetSize(uint32_t n, const char* param)
{
    NS_ABORT_MSG_IF(n < 1 || n > MAX_EV_SET_SIZE,
                    param << " = " << n << " is invalid; allowed range is 1.." << MAX_EV_SET_SIZE);
}

/** Uniform random EV in [0, evSetSize). */
inline uint16_t
DrawUniform(UniformRandomVariable& rng, uint32_t evSetSize)
{
    return static_cast<uint16_t>(rng.GetInteger(0, evSetSize - 1));
}

/** Stateless 32-bit mixer (for EVs derived from a flow hash). */
inline uint32_t
Mix32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

} // namespace dcnev
} // namespace ns3

#endif // DCN_EV_UTIL_H
