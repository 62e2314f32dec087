/*
 * OPS baseline (oblivious packet spraying): a uniformly random EV for every
 * packet, new data and retransmissions alike (REPS spec 1.1 "Exploring", 3.4).
 */
#ifndef DCN_OPS_PATH_SELECTOR_H
#define DCN_OPS_PATH_SELECTOR_H

#include "path-selector.h"

namespace ns3
{

class OpsPathSelector : public PathSelector
{
  public:
    static TypeId GetTypeId();
    OpsPathSelector();
    ~OpsPathSelector() override;

    void Setup(const PathSelectorSetup& setup) override;
    PathChoice Choose(const SendContext& ctx) override;
    std::string Name() const override;
    int64_t AssignStreams(int64_t stream) override;

  private:
    uint32_t m_evSetSize;
    bool m_checked{false};
};

} // namespace ns3

#endif // DCN_OPS_PATH_SELECTOR_H
