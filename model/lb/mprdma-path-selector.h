/*
 * MPRDMA-style ACK-clocked spraying (MP-RDMA NSDI'18 Sec. 3.2) as the REPS
 * paper ran it (spec reps.md 3.4): every ACK leaves a credit holding the EV
 * it echoes and the next packet reuses the EV of the oldest credit (the ACK
 * that opened the window); without a credit it takes a fresh random EV.
 * Wraps lbcore::MprdmaCore.  --lb=mprdma.  TypeId ns3::DcnMprdmaPathSelector.
 */
#ifndef DCN_MPRDMA_PATH_SELECTOR_H
#define DCN_MPRDMA_PATH_SELECTOR_H

#include "path-selector.h"

#include "ns3/mprdma-core.h"

namespace ns3
{

class DcnMprdmaPathSelector : public PathSelector
{
  public:
    static TypeId GetTypeId();
    DcnMprdmaPathSelector();
    ~DcnMprdmaPathSelector() override;

    void Setup(const PathSelectorSetup& setup) override;
    PathChoice Choose(const SendContext& ctx) override;
    void OnFeedback(const PathFeedback& fb) override;
    std::string Name() const override;
    int64_t AssignStreams(int64_t stream) override;

    uint16_t GetPendingCredits() const
    {
        return m_core.GetPendingCredits();
    }

    /** Packets sent on a reused (ACK-clocked) EV / on a fresh random EV. */
    uint64_t GetReused() const
    {
        return m_reused;
    }

    uint64_t GetFresh() const
    {
        return m_fresh;
    }

  private:
    uint32_t m_evSetSize{65536};
    bool m_recycleMarked{true};
    uint64_t m_reused{0};
    uint64_t m_fresh{0};
    lbcore::MprdmaCore<256> m_core;
};

} // namespace ns3

#endif // DCN_MPRDMA_PATH_SELECTOR_H
