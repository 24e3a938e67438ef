// Co-simulated errors: the Verilated nic_sched behind HardwareScheduler flags an unsorted table,
// a counter past MaxCount and a stall (the watchdog) at the cycle the C++ model does, and the
// run's error names the
// node, the cycle, the entry or counter and the cause alike (rtl/README.md, Errors; every cause
// against the model cycle by cycle: ctest rtl_tb_errors).
#include <catch2/catch.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "model/sched/hardware_scheduler.h"
#include "tb/rtl_adapter/rtl_scheduler.h"
#include "tests/support/rtl_build_config.h"

namespace mt {
namespace {

TableEntry waiting(int step, int counter, int count) {
  TableEntry e;
  e.step = step;
  e.wait_counter = counter;
  e.wait_count = count;
  return e;
}

// The model with the Verilated build's parameters and limits, serving node 3.
SchedulerModelConfig build_config() {
  SchedulerModelConfig c = test::rtl_build_config();
  c.node = 3;
  return c;
}

// What `run` throws with the C++ model and with the RTL as the engine (each must throw).
std::vector<std::string> errors_of(const std::vector<TableEntry>& table,
                                   const std::function<void(Scheduler&)>& run,
                                   const SchedulerModelConfig& config = build_config()) {
  std::vector<std::string> messages;
  for (const bool rtl : {false, true}) {
    std::unique_ptr<CycleScheduler> engine;
    if (rtl) {
      engine = std::make_unique<RtlCycleScheduler>(config);
    } else {
      engine = std::make_unique<SchedulerModel>(config);
    }
    try {
      HardwareScheduler s(std::move(engine), table, config);
      run(s);
      messages.push_back("no error");
    } catch (const SchedulerError& e) {
      messages.push_back(e.what());
    }
  }
  return messages;
}

TEST_CASE("co-simulated, an unsorted table is flagged while it loads, as by the model",
          "[rtl][errors]") {
  const auto m =
      errors_of({waiting(2, 0, 0), waiting(3, 0, 0), waiting(1, 0, 0)}, [](Scheduler&) {});
  CHECK(m[0] ==
        "node 3: the NIC scheduler flagged an error while its table was loaded: table "
        "entry 2: its step is below the previous entry's (the table is not sorted by "
        "step); it halted (rtl/README.md, Errors)");
  CHECK(m[1] == m[0]);
}

TEST_CASE("co-simulated, a counter past MaxCount is flagged at the model's cycle",
          "[rtl][errors]") {
  const int max_count = scheduler_build().max_count;
  // One arrival per cycle on counter 2 from cycle 10: the one past MaxCount arrives in cycle
  // 10 + MaxCount, is counted there and flagged three edges later.
  const auto m = errors_of({waiting(0, 2, 1)}, [max_count](Scheduler& s) {
    for (int k = 0; k <= max_count; ++k) s.on_arrival(k, 2, static_cast<std::uint64_t>(10 + k));
    s.next_ready(0, static_cast<std::uint64_t>(max_count + 40));
  });
  CHECK(m[0] == "node 3: the NIC scheduler flagged an error at network cycle " +
                    std::to_string(13 + max_count) +
                    ": counter 2 counted more arrivals than MaxCount; it halted (rtl/README.md, "
                    "Errors)");
  CHECK(m[1] == m[0]);
}

TEST_CASE("co-simulated, of counters past MaxCount at one edge the lowest is reported",
          "[rtl][errors]") {
  const int max_count = scheduler_build().max_count;
  // Counters 37 and 3 (different groups of 16 in the encoder) overflow at the same edge.
  const auto m = errors_of({waiting(0, 2, 1)}, [max_count](Scheduler& s) {
    for (int k = 0; k <= max_count; ++k) {
      s.on_arrival(2 * k, 37, static_cast<std::uint64_t>(10 + k));
      s.on_arrival(2 * k + 1, 3, static_cast<std::uint64_t>(10 + k));
    }
    s.next_ready(0, static_cast<std::uint64_t>(max_count + 40));
  });
  CHECK(m[0] == "node 3: the NIC scheduler flagged an error at network cycle " +
                    std::to_string(13 + max_count) +
                    ": counter 3 counted more arrivals than MaxCount; it halted (rtl/README.md, "
                    "Errors)");
  CHECK(m[1] == m[0]);
}

TEST_CASE("co-simulated, the watchdog flags a stall at the model's cycle, through idle cycles",
          "[rtl][errors]") {
  // Entry 0 waits for an arrival that never comes; port 0 ready from cycle 5; a tick every 64
  // engine cycles, limit 3: the ticks of cycles 64, 128 and 192 count, the edge of 193 flags.
  SchedulerModelConfig config = build_config();
  config.watchdog_limit = 3;
  config.watchdog_tick_cycles = 64;
  const auto m = errors_of(
      {waiting(0, 2, 1)},
      [](Scheduler& s) {
        s.set_port_ready(0, true, 5);
        s.next_ready(0, 1000);
      },
      config);
  CHECK(m[0] ==
        "node 3: the NIC scheduler flagged an error at network cycle 193: stalled: no progress "
        "for the watchdog's limit of ticks while a port waited for a grant (table entry 0 is the "
        "oldest entry of the first port that holds one); it halted (rtl/README.md, Errors)");
  CHECK(m[1] == m[0]);
}

}  // namespace
}  // namespace mt
