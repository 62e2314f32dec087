/*
 * ECMP baseline: one EV per connection (DESIGN.md 3.1, REPS spec 3.4).
 * All packets of a connection carry the same UDP source port, so hash-based
 * switches keep the whole connection on one path.
 */
#ifndef DCN_ECMP_PATH_SELECTOR_H
#define DCN_ECMP_PATH_SELECTOR_H

#include "path-selector.h"

namespace ns3
{

class EcmpPathSelector : public PathSelector
{
  public:
    static TypeId GetTypeId();
    EcmpPathSelector();
    ~EcmpPathSelector() override;

    void Setup(const PathSelectorSetup& setup) override;
    PathChoice Choose(const SendContext& ctx) override;
    std::string Name() const override;
    int64_t AssignStreams(int64_t stream) override;

    /** The connection's EV (valid after Setup). */
    uint16_t GetEv() const
    {
        return m_ev;
    }

  private:
    uint32_t m_evSetSize;
    bool m_useFlowHash;
    uint16_t m_ev{0};
};

} // namespace ns3

#endif // DCN_ECMP_PATH_SELECTOR_H
