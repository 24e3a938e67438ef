// Errors in hardware, as the golden model mirrors rtl/nic_sched (rtl/README.md, Errors): each
// cause flagged at the edge the RTL registers it, the first one kept, the engine halted (no new
// grant, the grants already decided complete), load() clearing it; HardwareScheduler turning a
// flag into an error naming the node, the cycle, the entry or counter and the cause. (The RTL
// against this model, every cause injected: ctest rtl_tb_errors; co-simulated: tests/rtl.)
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "model/sched/hardware_scheduler.h"
#include "model/sched/scheduler_model.h"

namespace mt {
namespace {

using C = SchedulerFaultCause;

TableEntry sched_entry(int port, int step, int wait_counter, int wait_count) {
  TableEntry e;
  e.port = port;
  e.step = step;
  e.wait_counter = wait_counter;
  e.wait_count = wait_count;
  return e;
}

// Two ports, latency 2, 4 counters, MaxCount 3, the field limits of a small build.
SchedulerModelConfig small_build() {
  SchedulerModelConfig c;
  c.ports = 2;
  c.counters = 4;
  c.depth = 4;
  c.window = 2;
  c.nodes = 4;
  c.chunks = 8;
  c.flows = 2;
  c.steps = 8;
  c.max_count = 3;
  return c;
}

TEST_CASE("each bad entry field is flagged with its cause and the entry's table index",
          "[sched][errors]") {
  struct Bad {
    C cause;
    void (*spoil)(TableEntry&);
  };
  const Bad bad[] = {
      {C::kPort, [](TableEntry& e) { e.port = 2; }},
      {C::kPeer, [](TableEntry& e) { e.peer = 4; }},
      {C::kChunk, [](TableEntry& e) { e.chunk = 8; }},
      {C::kFlow, [](TableEntry& e) { e.flow = 2; }},
      {C::kStep, [](TableEntry& e) { e.step = 8; }},
      {C::kWaitCounter, [](TableEntry& e) { e.wait_counter = 4; }},
      {C::kWaitCount, [](TableEntry& e) { e.wait_count = 4; }},
      {C::kDstCounter, [](TableEntry& e) { e.dst_counter = 4; }},
  };
  for (const Bad& b : bad) {
    std::vector<TableEntry> table = {sched_entry(0, 1, 0, 0), sched_entry(1, 1, 0, 0),
                                     sched_entry(0, 2, 0, 0)};
    b.spoil(table[1]);
    SchedulerModel model(small_build());
    model.load(table);  // the ring takes entry 1 in the second load cycle
    INFO("cause " << static_cast<int>(b.cause));
    CHECK(model.fault().cause == b.cause);
    CHECK(model.fault().info == 1);
    CHECK(describe(model.fault()).rfind("table entry 1: its ", 0) == 0);
  }
  // Step order: a step below the previous entry's; without step order the same table is legal.
  const std::vector<TableEntry> unsorted = {sched_entry(0, 2, 0, 0), sched_entry(1, 3, 0, 0),
                                            sched_entry(0, 1, 0, 0)};
  SchedulerModel ordered(small_build());
  ordered.load(unsorted);
  CHECK(ordered.fault().cause == C::kUnsorted);
  CHECK(ordered.fault().info == 2);
  CHECK(describe(ordered.fault()) ==
        "table entry 2: its step is below the previous entry's (the table is not sorted by step)");
  SchedulerModelConfig free_order = small_build();
  free_order.step_order = false;
  SchedulerModel unordered(free_order);
  unordered.load(unsorted);
  CHECK_FALSE(unordered.fault());
}

TEST_CASE("the first error is kept, the engine halts and load() clears it", "[sched][errors]") {
  SchedulerModel model(small_build());
  // Entry 0 waits for nothing on port 0; entry 1 waits for one arrival on counter 1 (port 1).
  model.load({sched_entry(0, 0, 0, 0), sched_entry(1, 0, 1, 1)});
  model.set_port_ready(0, true);
  model.set_port_ready(1, true);
  std::vector<int> granted_at(2, -1);
  for (int cycle = 0; cycle < 30; ++cycle) {
    if (cycle == 3) model.on_arrival(7);  // names no counter: flagged at this cycle's edge
    if (cycle == 4) model.on_arrival(9);  // a second error: not kept
    if (cycle == 5) model.on_arrival(1);  // entry 1's dependency, after the halt
    for (const IssueCommand& g : model.tick())
      granted_at[static_cast<std::size_t>(g.index)] = cycle;
    if (cycle == 2) CHECK_FALSE(model.fault());
    if (cycle == 3) CHECK(model.fault().cause == C::kArrivalCounter);
  }
  // Ready presented in cycle 0 is seen by the decision of cycle 1 (L - 1 stages): entry 0 is
  // granted then and visible in cycle 2. Entry 1 never is: its arrival came after the halt.
  CHECK(granted_at[0] == 2);
  CHECK(granted_at[1] == -1);
  CHECK_FALSE(model.done());
  CHECK(model.fault().info == 7);
  CHECK(describe(model.fault()) == "an arrival names counter 7, which does not exist");
  model.load({sched_entry(0, 0, 0, 0)});
  CHECK_FALSE(model.fault());
}

TEST_CASE("a counter saturates at MaxCount and flags the arrivals past it three edges later",
          "[sched][errors]") {
  SchedulerModel model(small_build());  // MaxCount 3
  model.load({sched_entry(0, 0, 2, 3)});
  model.set_port_ready(0, true);
  std::vector<int> granted;
  for (int cycle = 0; cycle < 20; ++cycle) {
    if (cycle == 10) {
      for (int k = 0; k < 4; ++k) model.on_arrival(2);  // four lanes: one past MaxCount
    }
    if (!model.tick().empty()) granted.push_back(cycle);
    if (cycle == 10) CHECK(model.counter_value(2) == 3);  // saturated
    // The RTL sums the counted lanes at the next edge and registers the overflow bits there,
    // then the lowest overflowing counter of each group of 16.
    if (cycle == 12) CHECK_FALSE(model.fault());
    if (cycle == 13) CHECK(model.fault().cause == C::kCounterOverflow);
  }
  // The grant decided in cycle 11, before the error was registered, completes (cycle 12 = the
  // arrival's cycle + L).
  CHECK(granted == std::vector<int>{12});
  CHECK(model.fault().info == 2);
  CHECK(describe(model.fault()) == "counter 2 counted more arrivals than MaxCount");
}

TEST_CASE("HardwareScheduler reports an engine's error with the node, cycle, entry and cause",
          "[sched][errors]") {
  SchedulerModelConfig config = small_build();
  config.node = 5;
  TableEntry far = sched_entry(1, 1, 0, 0);
  far.peer = 4;
  CHECK_THROWS_WITH(make_model_scheduler({sched_entry(0, 1, 0, 0), far}, config),
                    "node 5: the NIC scheduler flagged an error while its table was loaded: table "
                    "entry 1: its peer is out of range (>= Nodes); it halted (rtl/README.md, "
                    "Errors)");
  // During the run: four arrivals on counter 2 at cycle 10, flagged at the edge of cycle 13 and
  // reported by the first call that ticks it.
  std::unique_ptr<Scheduler> s = make_model_scheduler({sched_entry(0, 0, 2, 3)}, config);
  for (int k = 0; k < 4; ++k) s->on_arrival(k, 2, 10);
  CHECK_THROWS_WITH(s->next_ready(0, 13),
                    "node 5: the NIC scheduler flagged an error at network cycle 13: counter 2 "
                    "counted more arrivals than MaxCount; it halted (rtl/README.md, Errors)");
}

}  // namespace
}  // namespace mt
