#pragma once
// Stall detection: when nothing has moved (no packet forwarded, no operation issued, no credit
// returned; packets and credits in flight count at their arrival cycle) for
// watchdog_cycles, the run stops and the System reports what every unfinished NIC waits for.
// Wakes only once per watchdog period, never per cycle.

#include <systemc>

#include <cstdint>
#include <functional>

#include "model/noc/cycle_clock.h"

namespace mt {

/// Stops the simulation when progress stops.
class Watchdog : public sc_core::sc_module {
 public:
  /// `limit_cycles`: cycles without progress that count as a stall.
  /// `last_progress`: last cycle anything moved. `done`: the run has completed (stop watching).
  /// `on_stall`: called once with the stall cycle, before sc_stop().
  SC_HAS_PROCESS(Watchdog);
  Watchdog(const sc_core::sc_module_name& name, std::uint64_t limit_cycles, const CycleClock& clock,
           std::function<std::uint64_t()> last_progress, std::function<bool()> done,
           std::function<void(std::uint64_t cycle)> on_stall);

  /// True once a stall was detected.
  bool fired() const { return fired_; }
  /// Cycle the stall was detected.
  std::uint64_t fired_cycle() const { return fired_cycle_; }

 private:
  void check();

  std::uint64_t limit_cycles_;
  const CycleClock& clock_;
  std::function<std::uint64_t()> last_progress_;
  std::function<bool()> done_;
  std::function<void(std::uint64_t)> on_stall_;
  bool fired_ = false;
  std::uint64_t fired_cycle_ = 0;
};

}  // namespace mt
