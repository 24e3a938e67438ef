// The adapter's quiet edges (tb/rtl_adapter/rtl_scheduler.cpp: an edge with the design's busy_now
// low and no input changed is applied to the idle flag's two flops instead of evaluating the
// design) must change nothing a NIC sees. A pin trace turns them off (every clock is recorded), so
// the same stimulus runs on the Verilated scheduler with and without one and on the C++ model:
// the grants (cycle, port, entry) must be the same in all three and the adapter's idle() the same
// cycle by cycle in both RTL runs. The run without a trace must have taken quiet edges: a
// Verilator that no longer has the members the shortcut writes would silently lose it.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

#include "model/sched/scheduler_model.h"
#include "tb/rtl_adapter/rtl_scheduler.h"
#include "tests/support/rtl_build_config.h"

namespace mt {
namespace {
namespace quiet_edges {  // (the test files of an area may be compiled as one unit)

constexpr int kPorts = 3;
constexpr int kEntries = 48;
constexpr int kCounters = 5;

struct Grant {
  int cycle, port, index;
  bool operator==(const Grant& o) const {
    return cycle == o.cycle && port == o.port && index == o.index;
  }
};

struct Trace {
  std::vector<Grant> grants;
  std::vector<bool> idle;  // the engine's idle() after each cycle's tick
  int done_cycle = -1;
};

// Entry i leaves by port i % 3 once counter i % 5 has counted i / 5 + 1 arrivals (every seventh
// entry waits for nothing); with `steps`, entries are in steps of 8.
std::vector<TableEntry> table_of(bool steps) {
  std::vector<TableEntry> table;
  for (int i = 0; i < kEntries; ++i) {
    TableEntry e;
    e.port = i % kPorts;
    e.peer = 1;
    e.chunk = i;
    e.step = steps ? i / 8 : 0;
    e.wait_counter = i % kCounters;
    e.wait_count = i % 7 == 0 ? 0 : i / kCounters + 1;
    table.push_back(e);
  }
  return table;
}

// Arrivals one at a time 11 cycles apart (idle stretches between), then two in one cycle; a
// port's DMA is busy for 3-7 cycles after each grant (ready low), then ready again.
Trace drive(CycleScheduler& engine, const std::vector<TableEntry>& table) {
  engine.load(table);
  std::vector<int> ready_at(kPorts, -1);
  for (int p = 0; p < kPorts; ++p) engine.set_port_ready(p, true);
  const int arrivals = kCounters * (kEntries / kCounters + 1);
  Trace t;
  int cycle = 0;
  for (; cycle < 20 * arrivals && !engine.done(); ++cycle) {
    const int k = (cycle - 8) / 11;
    if (cycle >= 8 && (cycle - 8) % 11 == 0 && k < arrivals) {
      engine.on_arrival(k % kCounters);
      if (k % 4 == 3) engine.on_arrival((k + 2) % kCounters);
    }
    for (int p = 0; p < kPorts; ++p) {
      if (ready_at[static_cast<std::size_t>(p)] == cycle) engine.set_port_ready(p, true);
    }
    for (const IssueCommand& c : engine.tick()) {
      t.grants.push_back({cycle, c.port, c.index});
      engine.set_port_ready(c.port, false);
      ready_at[static_cast<std::size_t>(c.port)] = cycle + 3 + c.index % 5;
    }
    t.idle.push_back(engine.idle());
  }
  t.done_cycle = engine.done() ? cycle : -1;
  return t;
}

TEST_CASE("quiet edges change no grant and no idle flag of the co-simulated scheduler",
          "[rtl][cosim]") {
  const std::filesystem::path pins = std::filesystem::temp_directory_path() /
                                     ("mt_quiet_edges_" + std::to_string(::getpid()) + ".pins");
  for (const bool step_order : {false, true}) {
    INFO("step order " << step_order);
    SchedulerModelConfig c = test::rtl_build_config();
    c.ports = kPorts;
    c.step_order = step_order;
    const std::vector<TableEntry> table = table_of(step_order);
    SchedulerModel model(c);
    RtlCycleScheduler traced(c, pins.string());
    RtlCycleScheduler plain(c);
    const Trace expected = drive(model, table);
    const Trace full = drive(traced, table);
    const Trace quiet = drive(plain, table);
    REQUIRE(expected.grants.size() == table.size());
    REQUIRE(expected.done_cycle > 0);
    CHECK(full.grants == expected.grants);
    CHECK(quiet.grants == expected.grants);
    CHECK(quiet.idle == full.idle);
    CHECK(quiet.done_cycle == full.done_cycle);
    CHECK(traced.quiet_clocks() == 0);
    CHECK(quiet.done_cycle == expected.done_cycle);
    // The shortcut was taken (Verilator 5.006 keeps the idle flops as root members): at least
    // the two edges before idle_o rises after each of the idle stretches between arrivals.
    CHECK(plain.quiet_clocks() >= 20);
    CHECK(plain.clocks() == traced.clocks());
  }
  std::filesystem::remove(pins);
}

}  // namespace quiet_edges
}  // namespace
}  // namespace mt
