/*
 * BitMap (STrack-like) as the REPS paper ran it (spec reps.md 3.4): 256 EVs
 * with a 4-bit penalty each (+1 ECN, +4 NACK, 15 on a timeout); the sender
 * scans them in XOR-permuted order, skipping (and decrementing) penalised
 * ones.  Wraps lbcore::BitmapCore; the set is EvBase .. EvBase+255 with
 * EvBase drawn per connection.  --lb=bitmap.  TypeId ns3::DcnBitmapPathSelector.
 */
#ifndef DCN_BITMAP_PATH_SELECTOR_H
#define DCN_BITMAP_PATH_SELECTOR_H

#include "path-selector.h"

#include "ns3/bitmap-core.h"

namespace ns3
{

class DcnBitmapPathSelector : public PathSelector
{
  public:
    static TypeId GetTypeId();
    DcnBitmapPathSelector();
    ~DcnBitmapPathSelector() override;

    void Setup(const PathSelectorSetup& setup) override;
    PathChoice Choose(const SendContext& ctx) override;
    void OnFeedback(const PathFeedback& fb) override;
    std::string Name() const override;
    int64_t AssignStreams(int64_t stream) override;

    uint8_t GetPenalty(uint16_t ev) const
    {
        return m_core.GetPenalty(ev);
    }

    uint16_t GetEvBase() const
    {
        return m_base;
    }

  private:
    uint32_t m_ecnPenalty{1};
    uint32_t m_nackPenalty{4};
    uint32_t m_maxPenalty{15};
    uint32_t m_evSetSize{65536};
    uint16_t m_base{0};
    lbcore::BitmapCore m_core;
};

} // namespace ns3

#endif // DCN_BITMAP_PATH_SELECTOR_H
