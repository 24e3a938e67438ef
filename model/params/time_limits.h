#pragma once
// What simulated time the model can represent. SystemC counts time in a 64-bit integer of its
// resolution (1 ps, SystemC's default); every delay is a whole number of clock periods.
// A run stops at kMaxSimTimePs, and no single delay may exceed it, so a time plus a delay never
// wraps (2 x 2^62 < 2^64). The scenario loader derives its accepted ranges from these limits.

#include <cmath>
#include <cstdint>

#include "model/core/error.h"

namespace mt {

/// Latest simulated time a run may reach, picoseconds (2^62 ps, about 53 days).
constexpr std::uint64_t kMaxSimTimePs = std::uint64_t{1} << 62;

/// Slowest accepted clock, GHz (1 MHz: a period of 10^6 ps leaves 4.6e12 cycles of horizon).
constexpr double kMinClockGhz = 0.001;
/// Fastest accepted clock, GHz (a period of 10 ps: whole picoseconds stay within 5% of it).
constexpr double kMaxClockGhz = 100;

/// A simulated time or delay beyond kMaxSimTimePs.
class SimTimeError : public Error {
 public:
  using Error::Error;
};

/// Clock period of `clock_ghz`, picoseconds, rounded as SystemC rounds it (>= 1).
inline std::uint64_t clock_period_ps(double clock_ghz) {
  const double ps = std::floor(1000.0 / clock_ghz + 0.5);
  return ps < 1 ? 1 : static_cast<std::uint64_t>(ps);
}

/// Cycles of a `clock_ghz` clock a run can simulate (its horizon).
inline std::uint64_t max_sim_cycles(double clock_ghz) {
  return kMaxSimTimePs / clock_period_ps(clock_ghz);
}

}  // namespace mt
