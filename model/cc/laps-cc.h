/*
 * LAPS rate control as a congestion control (laps spec 2.4, Alg. 2): the
 * delay-driven AIMD runs on the path table of the connection's
 * LapsPathSelector (it needs min realVal and max baseVal of the
 * destination's paths, which the selector updates from every ACK); this
 * class makes the connection pace at its curRate (gap = size / curRate) and,
 * with LapsPathSelector::InflightCap, caps the bytes in flight at 2 T
 * lineRate ([A]).  Without a LAPS selector it imposes nothing (line rate, no
 * window).  ECN is not used (spec 3).  TypeId ns3::LapsCc, short name "laps".
 */
#ifndef DCN_LAPS_CC_H
#define DCN_LAPS_CC_H

#include "ns3/congestion-control.h"

namespace ns3
{

class LapsPathSelector;

class LapsCc : public CongestionControl
{
  public:
    static TypeId GetTypeId();
    LapsCc();
    ~LapsCc() override;

    void Setup(const CcSetup& setup) override;
    void OnAck(const CcAckSample& s) override;
    void OnNack() override;
    void OnTimeout() override;
    uint64_t GetCwnd() const override;
    DataRate GetRate() const override;
    std::string Name() const override;

  protected:
    void DoDispose() override;

  private:
    Ptr<LapsPathSelector> m_sel;
};

} // namespace ns3

#endif // DCN_LAPS_CC_H
