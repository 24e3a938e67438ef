#pragma once
// Conversion between SystemC time and integer cycles of the network clock. Every delay in the model
// is a whole number of cycles, so cycle counts read back from sc_time are exact.

#include <systemc>

#include <cstdint>
#include <memory>
#include <string>

#include "model/noc/wake_calendar.h"
#include "model/params/time_limits.h"

namespace mt {

/// The network clock: one period per cycle. All routers, links and NICs count this clock, and
/// run from its calendar of wake-ups (created with it: construct the clock while elaborating).
class CycleClock {
 public:
  /// `clock_ghz`: clock frequency, GHz (period = 1/clock_ghz ns, rounded to the time resolution).
  explicit CycleClock(double clock_ghz)
      : period_(1.0 / clock_ghz, sc_core::SC_NS), max_cycles_(kMaxSimTimePs / period_.value()) {
    for (std::uint64_t c = 0; c < kCachedDelays; ++c) {
      short_delays_[c] = sc_core::sc_time::from_value(period_.value() * c);
    }
    calendar_ = std::make_unique<WakeCalendar>(sc_core::sc_gen_unique_name("wake_calendar"), *this);
  }
  CycleClock(const CycleClock&) = delete;
  CycleClock& operator=(const CycleClock&) = delete;

  /// The calendar that runs the components of this clock in the cycles they ask for.
  WakeCalendar& calendar() const { return *calendar_; }

  /// One clock period.
  const sc_core::sc_time& period() const { return period_; }
  /// Cycles this clock can represent (the run's horizon, see time_limits.h).
  std::uint64_t max_cycles() const { return max_cycles_; }
  /// Current simulated time, cycles.
  std::uint64_t now() const {
    // The kernel's time read inline (sc_time_stamp() is an out-of-line library call), and the
    // division done once per time step: processes ask many times within one.
    const std::uint64_t ps = sc_core::sc_get_curr_simcontext()->time_stamp().value();
    if (ps != now_ps_) {
      now_ps_ = ps;
      now_cycles_ = ps / period_.value();
    }
    return now_cycles_;
  }
  /// A delay of `cycles` cycles; SimTimeError past the horizon (the loader's ranges keep every
  /// delay of a valid scenario inside it, so this is a guard, not a limit users meet).
  sc_core::sc_time to_time(std::uint64_t cycles) const {
    // Short delays (nearly all: wake-ups, hops, serialisation) from a table: from_value() is an
    // out-of-line library call with its own checks, about 3% of a run's instructions.
    if (cycles < kCachedDelays && cycles <= max_cycles_) return short_delays_[cycles];
    if (cycles > max_cycles_)
      throw SimTimeError("a delay of " + std::to_string(cycles) +
                         " cycles exceeds the simulated-time horizon of " +
                         std::to_string(max_cycles_) + " cycles at this clock");
    return sc_core::sc_time::from_value(period_.value() * cycles);
  }
  /// A delay expressed in cycles (the delay must be a whole number of cycles).
  std::uint64_t to_cycles(const sc_core::sc_time& delay) const {
    return delay.value() / period_.value();
  }

 private:
  static constexpr std::uint64_t kCachedDelays = 64;  // 0..63 cycles (far below the horizon)
  sc_core::sc_time period_;
  std::uint64_t max_cycles_;
  sc_core::sc_time short_delays_[kCachedDelays];
  std::unique_ptr<WakeCalendar> calendar_;
  mutable std::uint64_t now_ps_ = ~std::uint64_t{0};  // time of the last now(), ps
  mutable std::uint64_t now_cycles_ = 0;              // its cycle
};

}  // namespace mt
