// SchedulerModel with a shared window (port binding any, nic.scheduler_any_port_grants:
// per_port): every entry on port 0, and one decision grants window 0's ready entries, oldest
// first, to the open ports, lowest port first. Exact grant sequences (cycle, port, entry).
#include <catch2/catch.hpp>

#include <memory>
#include <tuple>
#include <vector>

#include "model/sched/hardware_scheduler.h"
#include "model/sched/scheduler_model.h"

namespace mt {
namespace {

TableEntry entry(int wait_counter, int wait_count) {
  TableEntry e;
  e.port = 0;
  e.step = 0;
  e.wait_counter = wait_counter;
  e.wait_count = wait_count;
  e.peer = 1;
  return e;
}

using Grant = std::tuple<int, int, int>;  // (cycle, port, table index)

SchedulerModelConfig shared_config(int ports) {
  SchedulerModelConfig config;
  config.ports = ports;
  config.decision_latency_cycles = 2;
  config.counters = 2;
  config.window = 4;
  config.shared_window = true;
  return config;
}

TEST_CASE("a shared window grants its oldest ready entries to every open port in one decision",
          "[nic][sched_model]") {
  SchedulerModel model(shared_config(3));
  // Entry 0 waits for one arrival on counter 1; entries 1 to 5 are ready. Window: entries 0-3.
  model.load({entry(1, 1), entry(0, 0), entry(0, 0), entry(0, 0), entry(0, 0), entry(0, 0)});
  REQUIRE(model.window_fill(0) == 4);
  model.set_port_ready(0, true);  // seen by the decision of cycle 1, granted in cycle 2
  model.set_port_ready(2, true);  // port 1 never requests: it is given nothing
  std::vector<Grant> grants;
  for (int cycle = 0; cycle < 12; ++cycle) {
    if (cycle == 3) model.on_arrival(1);  // counted at the end of cycle 3: entry 0 ready at 4
    for (const IssueCommand& c : model.tick()) grants.emplace_back(cycle, c.port, c.index);
  }
  // Decision of cycle 1: the two oldest ready entries (1, 2) to ports 0 and 2. Both ports are
  // masked for L = 2 cycles; decision of cycle 4: entry 0 (ready now, the oldest) to port 0 and
  // entry 3 to port 2; decision of cycle 7: entries 4 and 5 (refilled in cycles 2 and 3).
  CHECK(grants ==
        std::vector<Grant>{{2, 0, 1}, {2, 2, 2}, {5, 0, 0}, {5, 2, 3}, {8, 0, 4}, {8, 2, 5}});
  CHECK(model.done());
}

TEST_CASE(
    "under the step barrier a shared window grants no entry of a step the barrier has not "
    "opened, whatever the ready levels it still sees",
    "[nic][sched_model]") {
  // The paper 4x4 torus at 1 MiB (nic.step_barrier, per_port): entry 0 is step 0, entries 1-3
  // step 1, all ready. Every port requests from cycle 0 and the barrier opens step 0. The NIC
  // starts entry 0 when its grant shows (cycle 2); that closes step 0 with port 0 busy, so from
  // cycle 3 on (it presents after the scheduler's cycle 2) every port is low and step 0 stays
  // the open step, until every port is free again in cycle 10: all ports high, open step 1.
  SchedulerModel model(shared_config(4));
  std::vector<TableEntry> table(4, entry(0, 0));
  for (int i = 1; i < 4; ++i) table[static_cast<std::size_t>(i)].step = 1;
  model.load(table);
  const auto present = [&](bool ready, int open_step) {
    for (int p = 0; p < 4; ++p) model.set_port_ready(p, ready);
    model.set_open_step(open_step);
  };
  present(true, 0);
  std::vector<Grant> grants;
  for (int cycle = 0; cycle < 16; ++cycle) {
    if (cycle == 3) present(false, 0);
    if (cycle == 10) present(true, 1);
    for (const IssueCommand& c : model.tick()) grants.emplace_back(cycle, c.port, c.index);
  }
  // Decision of cycle 1: entry 0 to port 0. Decision of cycle 3 (min_step 1 registered) still
  // sees ports 1-3 high (presented in cycle 2), but step 1 is not open: nothing. Without the
  // open step it granted entries 1-3 to ports 1-3 there (visible in cycle 4), which the NIC then
  // held until the barrier opened and started beside port 0's queued packets. Decision of cycle
  // 11 sees step 1 open: entries 1-3, oldest first, to ports 0, 1 and 2 (the lowest open ones).
  CHECK(grants == std::vector<Grant>{{2, 0, 0}, {12, 0, 1}, {12, 1, 2}, {12, 2, 3}});
  CHECK(model.done());
}

TEST_CASE(
    "a shared window gives a lone ready entry to the lowest open port, and a held grant "
    "closes its port",
    "[nic][sched_model]") {
  SchedulerModel model(shared_config(2));
  model.load({entry(0, 0), entry(1, 1), entry(0, 0), entry(0, 0)});
  model.set_port_ready(0, true);
  model.set_port_ready(1, true);
  model.set_grant_ack(0, false);  // port 0's DMA holds its grant until cycle 6
  std::vector<Grant> grants;
  for (int cycle = 0; cycle < 12; ++cycle) {
    if (cycle == 6) model.set_grant_ack(0, true);
    for (const IssueCommand& c : model.tick()) grants.emplace_back(cycle, c.port, c.index);
  }
  // Decision of cycle 1: entries 0 and 2 are ready (entry 1 waits), oldest first: 0 to port 0,
  // 2 to port 1. Port 0 shows entry 0 until it is accepted at the end of cycle 6; port 1 decides
  // again in cycle 4 (entry 3, the only ready one); entry 1 never gets its arrival.
  CHECK(grants == std::vector<Grant>{
                      {2, 0, 0}, {2, 1, 2}, {3, 0, 0}, {4, 0, 0}, {5, 0, 0}, {5, 1, 3}, {6, 0, 0}});
  CHECK(model.window_fill(0) == 1);
  CHECK_FALSE(model.done());
}

TEST_CASE("one grant per decision without a shared window: the same table on one port",
          "[nic][sched_model]") {
  SchedulerModelConfig config = shared_config(1);
  config.shared_window = false;
  SchedulerModel model(config);
  model.load({entry(1, 1), entry(0, 0), entry(0, 0), entry(0, 0), entry(0, 0), entry(0, 0)});
  model.set_port_ready(0, true);
  std::vector<Grant> grants;
  for (int cycle = 0; cycle < 12; ++cycle) {
    if (cycle == 3) model.on_arrival(1);
    for (const IssueCommand& c : model.tick()) grants.emplace_back(cycle, c.port, c.index);
  }
  // One entry every L + 1 = 3 cycles, oldest ready first (entry 0 once its arrival is counted).
  CHECK(grants == std::vector<Grant>{{2, 0, 1}, {5, 0, 0}, {8, 0, 2}, {11, 0, 3}});
}

TEST_CASE("HardwareScheduler refuses a shared window with an entry on another port",
          "[nic][sched_model]") {
  const SchedulerModelConfig config = shared_config(2);
  TableEntry other = entry(0, 0);
  other.port = 1;
  CHECK_THROWS_WITH(
      HardwareScheduler(std::make_unique<SchedulerModel>(config), {entry(0, 0), other}, config),
      "HardwareScheduler: table entry 1 uses port 1, but a shared window (port binding any) "
      "holds every entry on port 0");
}

}  // namespace
}  // namespace mt
