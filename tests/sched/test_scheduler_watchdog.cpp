// The progress watchdog, as the golden model mirrors rtl/nic_sched_watchdog (rtl/README.md,
// Errors): ticks count while a port's ready level is seen high and nothing moves; the stall is
// flagged at the edge after the count reached the limit; progress (an arrival counted, a grant
// accepted, nothing left) resets the count; HardwareScheduler presents the ticks of its
// timebase while the engine has work, idle cycles included. (The RTL against this model with
// random ticks and limits, and an injected stall: ctest rtl_tb_errors; co-simulated: tests/rtl.)
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "model/sched/hardware_scheduler.h"
#include "model/sched/scheduler_model.h"

namespace mt {
namespace {

// One port, latency 2; entry 0 waits for one arrival on counter 0, which never comes.
SchedulerModelConfig watched(int limit) {
  SchedulerModelConfig c;
  c.ports = 1;
  c.counters = 2;
  c.watchdog_limit = limit;
  return c;
}

TableEntry waiting_entry() {
  TableEntry e;
  e.wait_counter = 0;
  e.wait_count = 1;
  return e;
}

// Ticks the model with port 0 ready from cycle 0 and a watchdog tick every cycle; `arrive_at`
// presents an arrival on counter 1 in that cycle (-1: none). Returns the cycle whose edge
// flagged an error, -1 none within 100 cycles.
int stall_cycle(SchedulerModel& model, int arrive_at = -1, bool ready = true) {
  model.load({waiting_entry()});
  model.set_port_ready(0, ready);
  for (int cycle = 0; cycle < 100; ++cycle) {
    model.on_watchdog_tick();
    if (cycle == arrive_at) model.on_arrival(1);
    model.tick();
    if (model.fault()) return cycle;
  }
  return -1;
}

TEST_CASE("the watchdog flags a stall the edge after its limit of ticks while a port waited",
          "[sched][errors]") {
  // Ready presented in cycle 0 is seen from cycle 1 (L - 1 = 1 stage): ticks of cycles 1, 2, 3
  // count 1, 2, 3; the count reached the limit 3, so the edge of cycle 4 flags the stall.
  SchedulerModel model(watched(3));
  CHECK(stall_cycle(model) == 4);
  CHECK(model.fault().cause == SchedulerFaultCause::kStalled);
  CHECK(model.fault().info == 0);
  CHECK(describe(model.fault()) ==
        "stalled: no progress for the watchdog's limit of ticks while a port waited for a grant "
        "(table entry 0 is the oldest entry of the first port that holds one)");
  // An arrival counted in cycle 2 (another counter: progress all the same) resets the count at
  // that edge: cycles 3, 4, 5 count to 3, the edge of cycle 6 flags it.
  SchedulerModel reset(watched(3));
  CHECK(stall_cycle(reset, 2) == 6);
  // No port waiting, or the watchdog off: no stall.
  SchedulerModel nobody(watched(3));
  CHECK(stall_cycle(nobody, -1, false) == -1);
  SchedulerModel off(watched(0));
  CHECK(stall_cycle(off) == -1);
}

TEST_CASE("a watchdog limit past the RTL's 16-bit count is refused", "[sched][errors]") {
  CHECK_THROWS_WITH(SchedulerModel(watched(65536)),
                    "SchedulerModel: watchdog_limit must be <= 65535, got 65536");
  SchedulerModelConfig c = watched(1);
  c.watchdog_tick_cycles = 0;
  CHECK_THROWS_WITH(SchedulerModel(c), "SchedulerModel: watchdog_tick_cycles must be >= 1, got 0");
}

TEST_CASE("HardwareScheduler ticks the watchdog on its timebase through idle stretches",
          "[sched][errors]") {
  // Ticks every 10 engine cycles (0, 10, 20, ...), limit 2. Port 0 is ready from cycle 0, seen
  // from cycle 1: the engine idles but runs the cycles of the ticks, whose edges count 1 (cycle
  // 10) and 2 (cycle 20); the count at its limit, the engine is not idle and the edge of cycle
  // 21 flags the stall, reported at network cycle 21 by the first call that runs that edge.
  SchedulerModelConfig config = watched(2);
  config.watchdog_tick_cycles = 10;
  config.node = 7;
  std::unique_ptr<Scheduler> s = make_model_scheduler({waiting_entry()}, config);
  s->set_port_ready(0, true, 0);
  CHECK(s->next_ready(0, 0) < 0);
  CHECK(s->next_event_cycle(0) == 10);   // an idle engine still wakes for its ticks
  CHECK(s->next_ready(0, 20) < 0);       // runs cycles 1..20 (ticks at 10 and 20)
  CHECK(s->next_event_cycle(20) == 21);  // the count at its limit: the next edge flags it
  CHECK_THROWS_WITH(s->next_ready(0, 21),
                    "node 7: the NIC scheduler flagged an error at network cycle 21: stalled: no "
                    "progress for the watchdog's limit of ticks while a port waited for a grant "
                    "(table entry 0 is the oldest entry of the first port that holds one); it "
                    "halted (rtl/README.md, Errors)");
}

}  // namespace
}  // namespace mt
