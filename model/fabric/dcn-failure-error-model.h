/*
 * Receive-side ErrorModel used by FailureHelper to inject losses on a
 * PointToPointNetDevice (DESIGN.md section 3.7).  Decisions use the packet's
 * real bytes (PPP + IPv4 header): black holes match source/destination
 * prefixes read from the IPv4 header.  Every injected loss is counted by
 * reason and reported through the "InjectedDrop" trace, separately from
 * congestion drops (which happen in DcnQueueDisc).
 */
#ifndef DCN_FAILURE_ERROR_MODEL_H
#define DCN_FAILURE_ERROR_MODEL_H

#include "ns3/error-model.h"
#include "ns3/ipv4-address.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

class DcnFailureErrorModel : public ErrorModel
{
  public:
    enum Reason : uint32_t
    {
        LINK_DOWN = 0, //!< link or switch failed (silently)
        RANDOM = 1,    //!< random drop probability
        BLACKHOLE = 2, //!< matched a black-hole rule
        N_REASONS = 3
    };

    static TypeId GetTypeId();
    DcnFailureErrorModel();

    /** Nested down/up (several failures may cover the same device). */
    void SetDown(bool down);

    bool IsDown() const
    {
        return m_down > 0;
    }

    void SetDropProbability(double p);

    double GetDropProbability() const
    {
        return m_prob;
    }

    /** \return rule id */
    uint32_t AddBlackhole(Ipv4Address src, Ipv4Mask srcMask, Ipv4Address dst, Ipv4Mask dstMask);
    void RemoveBlackhole(uint32_t id);

    uint64_t GetDrops(Reason r) const
    {
        return m_drops[r];
    }

    uint64_t GetTotalDrops() const;
    int64_t AssignStreams(int64_t stream);

    /** Identifier reported in the trace (FailureHelper: the link id). */
    void SetTag(uint32_t tag)
    {
        m_tag = tag;
    }

    /** Signature: (packet with PPP header, tag = link id, reason). */
    typedef void (*InjectedDropCallback)(Ptr<const Packet>, uint32_t, uint32_t);

  private:
    bool DoCorrupt(Ptr<Packet> p) override;
    void DoReset() override;

    struct Rule
    {
        uint32_t id;
        uint32_t src, srcMask, dst, dstMask;
        bool active;
    };

    int32_t m_down{0};
    double m_prob{0};
    std::vector<Rule> m_rules;
    uint32_t m_activeRules{0};
    Ptr<UniformRandomVariable> m_rng;
    uint64_t m_drops[N_REASONS]{0, 0, 0};
    uint32_t m_tag{0};
    TracedCallback<Ptr<const Packet>, uint32_t, uint32_t> m_dropTrace;
};

} // namespace ns3

#endif // DCN_FAILURE_ERROR_MODEL_H
