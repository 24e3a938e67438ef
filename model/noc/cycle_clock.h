#pragma once
// Conversion between SystemC time and integer cycles of the network clock. Every delay in the model
// is a whole number of cycles, so cycle counts read back from sc_time are exact.

#include <systemc>

#include <cstdint>

namespace mt {

/// The network clock: one period per cycle. All routers, links and NICs count this clock.
class CycleClock {
 public:
  /// `clock_ghz`: clock frequency, GHz (period = 1/clock_ghz ns, rounded to the time resolution).
  explicit CycleClock(double clock_ghz) : period_(1.0 / clock_ghz, sc_core::SC_NS) {}

  /// One clock period.
  const sc_core::sc_time& period() const { return period_; }
  /// Current simulated time, cycles.
  std::uint64_t now() const { return sc_core::sc_time_stamp().value() / period_.value(); }
  /// A delay of `cycles` cycles.
  sc_core::sc_time to_time(std::uint64_t cycles) const {
    return sc_core::sc_time::from_value(period_.value() * cycles);
  }
  /// A delay expressed in cycles (the delay must be a whole number of cycles).
  std::uint64_t to_cycles(const sc_core::sc_time& delay) const {
    return delay.value() / period_.value();
  }

 private:
  sc_core::sc_time period_;
};

}  // namespace mt
