/*
 * The path of one packet, as the sender chose it and as it travels on the wire
 * (DESIGN.md 3.1): the 16-bit entropy value (EV) written into the UDP source
 * port, plus optionally an explicit path id (an index into the topology's
 * DcnPathSet of the switch pair) and/or an explicit source route (switch ids),
 * carried in the DcnHeader extension (dcn-header.h) in real bytes.  The
 * receiver echoes the whole choice in its ACK, so feedback names the path.
 */
#ifndef DCN_PATH_CHOICE_H
#define DCN_PATH_CHOICE_H

#include <array>
#include <cstdint>

namespace ns3
{

struct PathChoice
{
    /** Maximum switches of an explicit source route (Dragonfly non-minimal: 6). */
    static constexpr uint8_t MAX_ROUTE = 8;

    uint16_t ev{0};      //!< entropy value (UDP source port on the wire)
    int32_t pathId{-1};  //!< explicit path id (DcnPath::id); -1 = none (not on the wire)
    uint8_t routeLen{0}; //!< switches in route (0 = no source route on the wire)
    std::array<uint16_t, MAX_ROUTE> route{}; //!< explicit source route: switch indices
    /** Ask the receiver to stamp its arrival time, giving a one-way delay sample. */
    bool requestTimestamp{false};

    bool HasPathId() const
    {
        return pathId >= 0;
    }

    bool HasRoute() const
    {
        return routeLen > 0;
    }
};

} // namespace ns3

#endif // DCN_PATH_CHOICE_H
