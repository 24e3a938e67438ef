#pragma once
// The one pending wake-up of an event-driven component (Router, Nic): however many causes ask for
// one, the component runs once, at the earliest cycle asked for, from its clock's calendar of
// wake-ups (model/noc/wake_calendar.h). A component woken again and again at one cycle (a
// livelock: simulated time stops, so the watchdog never fires) is stopped with an error naming it.

#include <systemc>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>

#include "model/noc/cycle_clock.h"
#include "model/noc/wake_calendar.h"

namespace mt {

/// Pending wake-up of one component, in cycles of the network clock.
class CycleWakeup : public CalendarClient {
 public:
  /// No wake-up pending.
  static constexpr std::uint64_t kNever = ~std::uint64_t{0};

  /// Wake-ups of one component at one cycle beyond which it is a livelock. A legitimate run
  /// settles everything due at its cycle: a component asks for its own cycle again only in rare
  /// cases (a zero-cycle sum of a NIC), a few times at most.
  static constexpr std::uint64_t kMaxWakeupsPerCycle = 1000000;

  /// `owner`: the component, named in a livelock's error; `run`: its body, run at each wake-up.
  CycleWakeup(const CycleClock& clock, const sc_core::sc_object& owner, std::function<void()> run)
      : clock_(clock), owner_(owner), run_(std::move(run)) {}
  CycleWakeup(const CycleWakeup&) = delete;
  CycleWakeup& operator=(const CycleWakeup&) = delete;

  /// Requests a wake-up at `cycle` (now when it is in the past); an earlier pending one wins.
  void at(std::uint64_t cycle) {
    if (cycle >= cycle_) return;
    const std::uint64_t now = clock_.now();
    if (cycle <= now) {
      cycle = now;
      // A run asked for at the current cycle (the first one, asked for while elaborating, is
      // no re-run).
      if (sc_core::sc_is_running()) count_same_cycle(now);
    }
    cycle_ = cycle;
    // Asked again for the latest cycle it has a calendar entry at, not run yet (a component
    // woken in between asking for the same far cycle at each of its runs): that entry serves.
    if (cycle == latest_listed_ && latest_listed_ > now) return;
    latest_listed_ = latest_listed_ > now ? std::max(latest_listed_, cycle) : cycle;
    clock_.calendar().add(this, cycle);
  }
  /// The component runs: the pending wake-up (if any) has happened.
  void clear() { cycle_ = kNever; }
  /// The calendar's entry for `cycle`: runs the component unless a run since has served it.
  void run_due(std::uint64_t cycle) override {
    if (cycle_ == cycle) run_();
  }

 private:
  void count_same_cycle(std::uint64_t now) {
    if (now != same_cycle_) {
      same_cycle_ = now;
      same_cycle_wakeups_ = 0;
    }
    if (++same_cycle_wakeups_ > kMaxWakeupsPerCycle) livelock(now);
  }
  [[noreturn]] void livelock(std::uint64_t now) const {
    throw std::logic_error("livelock: " + std::string(owner_.name()) + " was woken " +
                           std::to_string(kMaxWakeupsPerCycle) + " times at cycle " +
                           std::to_string(now) +
                           " without simulated time advancing (a bug of the model)");
  }

  const CycleClock& clock_;
  const sc_core::sc_object& owner_;
  std::function<void()> run_;
  std::uint64_t cycle_ = kNever;          // cycle of the pending wake-up
  std::uint64_t latest_listed_ = 0;       // latest cycle of an entry put in the calendar
  std::uint64_t same_cycle_ = kNever;     // cycle of the latest wake-up for now
  std::uint64_t same_cycle_wakeups_ = 0;  // wake-ups for now at same_cycle_
};

}  // namespace mt
