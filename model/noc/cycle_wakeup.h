#pragma once
// The one pending wake-up of an event-driven SystemC process (Router, Nic): however many causes ask
// for one, the process is notified once, at the earliest cycle asked for. A process woken again
// and again at one cycle (a livelock: simulated time stops, so the watchdog never fires) is
// stopped with an error naming it.

#include <systemc>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "model/noc/cycle_clock.h"

namespace mt {

/// Pending wake-up of one process, in cycles of the network clock.
class CycleWakeup {
 public:
  /// No wake-up pending.
  static constexpr std::uint64_t kNever = ~std::uint64_t{0};

  /// Wake-ups of one process at one cycle beyond which it is a livelock. A legitimate run wakes
  /// a process at most once per delta cycle, and each run settles everything due at its cycle:
  /// a few per cycle, bounded by the arrivals and grants at that cycle.
  static constexpr std::uint64_t kMaxWakeupsPerCycle = 1000000;

  /// `owner`: the process's module, named in a livelock's error.
  CycleWakeup(const CycleClock& clock, const sc_core::sc_object& owner)
      : clock_(clock), owner_(owner) {}

  /// The event the process is sensitive to.
  const sc_core::sc_event& event() const { return event_; }
  /// Requests a wake-up at `cycle` (now when it is in the past); an earlier pending one wins.
  void at(std::uint64_t cycle) {
    if (cycle >= cycle_) return;
    cycle_ = cycle;
    const std::uint64_t now = clock_.now();
    if (cycle <= now) {
      if (now != same_cycle_) {
        same_cycle_ = now;
        same_cycle_wakeups_ = 0;
      }
      if (++same_cycle_wakeups_ > kMaxWakeupsPerCycle) livelock(now);
      event_.notify(sc_core::SC_ZERO_TIME);
    } else {
      event_.notify(clock_.to_time(cycle - now));
    }
  }
  /// The process runs: the pending wake-up (if any) has happened.
  void clear() { cycle_ = kNever; }

 private:
  [[noreturn]] void livelock(std::uint64_t now) const {
    throw std::logic_error("livelock: " + std::string(owner_.name()) + " was woken " +
                           std::to_string(kMaxWakeupsPerCycle) + " times at cycle " +
                           std::to_string(now) +
                           " without simulated time advancing (a bug of the model)");
  }

  const CycleClock& clock_;
  const sc_core::sc_object& owner_;
  sc_core::sc_event event_;
  std::uint64_t cycle_ = kNever;          // cycle of the pending notification
  std::uint64_t same_cycle_ = kNever;     // cycle of the latest wake-up for now
  std::uint64_t same_cycle_wakeups_ = 0;  // wake-ups for now at same_cycle_
};

}  // namespace mt
