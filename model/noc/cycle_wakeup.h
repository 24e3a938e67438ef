#pragma once
// The one pending wake-up of an event-driven SystemC process (Router, Nic): however many causes ask
// for one, the process is notified once, at the earliest cycle asked for.

#include <systemc>

#include <cstdint>

#include "model/noc/cycle_clock.h"

namespace mt {

/// Pending wake-up of one process, in cycles of the network clock.
class CycleWakeup {
 public:
  /// No wake-up pending.
  static constexpr std::uint64_t kNever = ~std::uint64_t{0};

  explicit CycleWakeup(const CycleClock& clock) : clock_(clock) {}

  /// The event the process is sensitive to.
  const sc_core::sc_event& event() const { return event_; }
  /// Requests a wake-up at `cycle` (now when it is in the past); an earlier pending one wins.
  void at(std::uint64_t cycle) {
    if (cycle >= cycle_) return;
    cycle_ = cycle;
    const std::uint64_t now = clock_.now();
    if (cycle <= now) {
      event_.notify(sc_core::SC_ZERO_TIME);
    } else {
      event_.notify(clock_.to_time(cycle - now));
    }
  }
  /// The process runs: the pending wake-up (if any) has happened.
  void clear() { cycle_ = kNever; }

 private:
  const CycleClock& clock_;
  sc_core::sc_event event_;
  std::uint64_t cycle_ = kNever;  // cycle of the pending notification
};

}  // namespace mt
