#include "model/sim/watchdog.h"

#include <utility>

#include "model/noc/process_fault.h"

namespace mt {

Watchdog::Watchdog(const sc_core::sc_module_name& name, std::uint64_t limit_cycles,
                   const CycleClock& clock, std::function<std::uint64_t()> last_progress,
                   std::function<bool()> done, std::function<void(std::uint64_t cycle)> on_stall)
    : sc_core::sc_module(name),
      limit_cycles_(limit_cycles),
      clock_(clock),
      last_progress_(std::move(last_progress)),
      done_(std::move(done)),
      on_stall_(std::move(on_stall)) {
  // Runs once at cycle 0 (initialisation), then re-arms itself with next_trigger.
  SC_METHOD(check);
}

void Watchdog::check() {
  if (fired_ || done_()) return;  // no next_trigger: the method never runs again
  const std::uint64_t now = clock_.now();
  const std::uint64_t last = last_progress_();
  // `last` may lie in the future (a packet on a long wire, a reduction in progress).
  if (now > last && now - last >= limit_cycles_) {
    fired_ = true;
    fired_cycle_ = now;
    on_stall_(now);
    stop_simulation();  // the stall is reported by on_stall
    return;
  }
  next_trigger(clock_.to_time(last + limit_cycles_ - now));
}

}  // namespace mt
