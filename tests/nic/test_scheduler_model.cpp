// SchedulerModel, the golden cycle-level model of the NIC scheduler: exact decision latency,
// the post-issue port mask, lowest-index choice, step order (and its relaxation), errors, and a
// randomised co-simulation of every node of real schedules (random network delays and port busy
// times, thousands of cycles) asserting on every issued command that its dependencies had arrived
// L cycles before and that no earlier step of the node was still pending.
#include <catch2/catch.hpp>

#include <algorithm>
#include <climits>
#include <random>
#include <string>

#include "model/collective/algorithm.h"
#include "model/nic/hardware_scheduler.h"
#include "model/nic/schedule_table.h"
#include "model/nic/scheduler_model.h"
#include "model/topology/topology.h"

namespace mt {
namespace {

TableEntry entry(int port, int step, int wait_counter, int wait_count, int peer = 1) {
  TableEntry e;
  e.port = port;
  e.step = step;
  e.wait_counter = wait_counter;
  e.wait_count = wait_count;
  e.peer = peer;
  return e;
}

// Ticks until `cycles` ticks have run, returning the cycle of each issue (by table index).
std::vector<long> run(SchedulerModel& model, int cycles, const std::vector<std::pair<int, int>>&
                                                             arrivals /* (cycle, counter) */) {
  std::vector<long> when(64, -1);
  for (int c = 0; c < cycles; ++c) {
    for (const auto& [cycle, counter] : arrivals) {
      if (cycle == c) model.on_arrival(counter);
    }
    for (const IssueCommand& cmd : model.tick()) when[static_cast<std::size_t>(cmd.index)] = c;
  }
  return when;
}

TEST_CASE("an arrival enables its entry exactly L cycles later", "[nic][sched_model]") {
  for (const int latency : {1, 2, 3, 5}) {
    SchedulerModelConfig config;
    config.ports = 1;
    config.decision_latency_cycles = latency;
    config.counters = 2;
    SchedulerModel model(config);
    model.load({entry(0, 0, 1, 2)});
    model.set_port_ready(0, true);  // presented in cycle 0, seen from cycle L
    // Two arrivals on counter 1 in cycles 10 and 20: the entry issues in cycle 20 + L.
    const std::vector<long> when = run(model, 40, {{10, 1}, {20, 1}});
    INFO("L = " << latency);
    CHECK(when[0] == 20 + latency);
    CHECK(model.done());
    CHECK(model.counter_value(1) == 2);
    CHECK(model.cycle() == 40);
  }
}

TEST_CASE("ready level is seen L cycles late and an issue masks its port for L cycles",
          "[nic][sched_model]") {
  SchedulerModelConfig config;
  config.ports = 1;
  config.decision_latency_cycles = 2;
  SchedulerModel model(config);
  model.load({entry(0, 0, 0, 0), entry(0, 0, 0, 0), entry(0, 0, 0, 0)});
  model.set_port_ready(0, true);  // cycle 0 -> seen in cycle 2
  // Ready held high (a NIC that never drops it): issues at 2, then every L + 1 = 3 cycles.
  const std::vector<long> when = run(model, 20, {});
  CHECK(when[0] == 2);
  CHECK(when[1] == 5);
  CHECK(when[2] == 8);
}

TEST_CASE("a port that is not ready issues nothing and ports issue independently lowest index "
          "first", "[nic][sched_model]") {
  SchedulerModelConfig config;
  config.ports = 2;
  config.decision_latency_cycles = 1;
  SchedulerModel model(config);
  model.load({entry(1, 0, 0, 0), entry(0, 0, 0, 0), entry(1, 0, 0, 0)});
  model.set_port_ready(1, true);
  CHECK(model.tick().empty());  // cycle 0: nothing seen yet
  std::vector<IssueCommand> issues = model.tick();  // cycle 1: port 1 takes index 0
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].port == 1);
  CHECK(issues[0].index == 0);
  model.set_port_ready(1, false);
  model.set_port_ready(0, true);
  CHECK(model.tick().empty());  // cycle 2: port 1 masked, port 0 not seen ready yet
  issues = model.tick();        // cycle 3: port 0 takes index 1; port 1 seen not ready
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].port == 0);
  CHECK(issues[0].index == 1);
  CHECK(issues[0].entry == entry(0, 0, 0, 0));
  CHECK(!model.done());
  CHECK(model.issued_count() == 2);
}

TEST_CASE("step order holds later steps back and nic.step_order false relaxes it",
          "[nic][sched_model]") {
  for (const bool step_order : {true, false}) {
    SchedulerModelConfig config;
    config.ports = 2;
    config.decision_latency_cycles = 1;
    config.step_order = step_order;
    SchedulerModel model(config);
    // Entry 0 (step 0, port 0) waits for an arrival in cycle 9; entry 1 (step 1, port 1) has none.
    model.load({entry(0, 0, 0, 1), entry(1, 1, 0, 0)});
    model.set_port_ready(0, true);
    model.set_port_ready(1, true);
    const std::vector<long> when = run(model, 20, {{9, 0}});
    INFO("step_order " << step_order);
    CHECK(when[0] == 10);
    // Step order: entry 1 goes the cycle after entry 0 has issued (its step is then the minimum).
    CHECK(when[1] == (step_order ? 11 : 1));
  }
}

TEST_CASE("wrong configuration and inputs are refused", "[nic][sched_model]") {
  SchedulerModelConfig config;
  config.ports = 0;
  CHECK_THROWS_AS(SchedulerModel(config), std::invalid_argument);
  config.ports = 2;
  config.decision_latency_cycles = 0;
  CHECK_THROWS_AS(SchedulerModel(config), std::invalid_argument);
  config.decision_latency_cycles = 1;
  config.depth = 1;
  SchedulerModel model(config);
  CHECK_THROWS_AS(model.load({entry(0, 0, 0, 0), entry(0, 0, 0, 0)}), std::invalid_argument);
  CHECK_THROWS_AS(model.load({entry(2, 0, 0, 0)}), std::invalid_argument);
  CHECK_THROWS_AS(model.load({entry(0, 0, 1, 0)}), std::invalid_argument);
  CHECK_THROWS_AS(model.on_arrival(1), std::invalid_argument);
  CHECK_THROWS_AS(model.set_port_ready(2, true), std::invalid_argument);
}

// Every node's SchedulerModel of a real schedule, connected by a random-delay "network".
void cosimulate(const std::string& algorithm, int latency, unsigned seed) {
  TopologyConfig tc = parse_topology_spec("torus:4x4");
  tc.ports_per_node = 4;
  const Topology topology(tc);
  const Schedule s = build_schedule(algorithm, topology);
  std::vector<int> ports;
  for (const Op& op : s.ops) ports.push_back(op.port >= 0 ? op.port : (op.id * 7) % 4);
  const PackedSchedule packed = pack_schedule(s, ports, 4);
  std::mt19937 rng(seed);
  const int n = s.nodes;
  std::vector<SchedulerModel> models;
  for (int u = 0; u < n; ++u) {
    SchedulerModelConfig config;
    config.ports = 4;
    config.decision_latency_cycles = latency;
    config.counters = packed.counters;
    config.depth = packed.depth;
    models.emplace_back(config);
    models.back().load(packed.tables[static_cast<std::size_t>(u)]);
  }
  std::vector<long> arrived(s.ops.size(), -1);       // cycle the arrival was presented
  std::vector<std::pair<long, int>> in_flight;       // (arrival cycle, message)
  std::vector<std::vector<long>> port_free(static_cast<std::size_t>(n), std::vector<long>(4, 0));
  std::vector<std::vector<char>> issued(static_cast<std::size_t>(n));
  for (int u = 0; u < n; ++u) issued[static_cast<std::size_t>(u)].assign(packed.tables[static_cast<std::size_t>(u)].size(), 0);
  long issues = 0;
  long cycle = 0;
  for (; cycle < 200000; ++cycle) {
    // Present this cycle's arrivals and port levels.
    for (auto it = in_flight.begin(); it != in_flight.end();) {
      if (it->first == cycle) {
        const Op& op = s.ops[static_cast<std::size_t>(it->second)];
        arrived[static_cast<std::size_t>(op.id)] = cycle;
        models[static_cast<std::size_t>(op.peer)].on_arrival(
            packed.message_counter[static_cast<std::size_t>(op.id)]);
        it = in_flight.erase(it);
      } else {
        ++it;
      }
    }
    bool all_done = true;
    for (int u = 0; u < n; ++u) {
      SchedulerModel& model = models[static_cast<std::size_t>(u)];
      for (int p = 0; p < 4; ++p) {
        model.set_port_ready(p, port_free[static_cast<std::size_t>(u)][static_cast<std::size_t>(p)] <= cycle);
      }
      // Smallest pending step before this cycle's issues.
      int min_step = INT_MAX;
      const auto& table = packed.tables[static_cast<std::size_t>(u)];
      for (std::size_t i = 0; i < table.size(); ++i) {
        if (!issued[static_cast<std::size_t>(u)][i]) min_step = std::min(min_step, table[i].step);
      }
      for (const IssueCommand& cmd : model.tick()) {
        ++issues;
        const int id = packed.messages[static_cast<std::size_t>(u)][static_cast<std::size_t>(cmd.index)];
        const Op& op = s.ops[static_cast<std::size_t>(id)];
        INFO(algorithm << " L=" << latency << " seed " << seed << " cycle " << cycle << " node "
                       << u << " message " << id);
        REQUIRE(!issued[static_cast<std::size_t>(u)][static_cast<std::size_t>(cmd.index)]);
        for (const int d : op.deps) {
          REQUIRE(arrived[static_cast<std::size_t>(d)] >= 0);
          REQUIRE(arrived[static_cast<std::size_t>(d)] <= cycle - latency);
        }
        REQUIRE(op.step == min_step);
        REQUIRE(cmd.port == ports[static_cast<std::size_t>(id)]);
        long& free_at = port_free[static_cast<std::size_t>(u)][static_cast<std::size_t>(cmd.port)];
        // The port had been ready (presented) since at least L cycles.
        REQUIRE(free_at <= cycle - latency);
        issued[static_cast<std::size_t>(u)][static_cast<std::size_t>(cmd.index)] = 1;
        free_at = cycle + 1 + static_cast<long>(rng() % 6);
        in_flight.emplace_back(cycle + 1 + static_cast<long>(rng() % 40), id);
      }
      all_done = all_done && model.done();
    }
    if (all_done && in_flight.empty()) break;
  }
  CHECK(issues == static_cast<long>(s.ops.size()));
  for (std::size_t i = 0; i < s.ops.size(); ++i) CHECK(arrived[i] >= 0);
  CHECK(cycle > 100);  // ran for many cycles
}

TEST_CASE("randomised co-simulation: no issue before its dependencies and never out of step order",
          "[nic][sched_model]") {
  for (const char* algorithm : {"multitree", "ring", "ring2d", "dbtree"}) {
    for (const int latency : {1, 3}) {
      for (const unsigned seed : {1u, 2u, 3u}) cosimulate(algorithm, latency, seed);
    }
  }
}

TEST_CASE("HardwareScheduler ticks only while a decision can change", "[nic][sched_model]") {
  SchedulerModelConfig config;
  config.ports = 1;
  config.decision_latency_cycles = 2;
  config.counters = 1;
  std::vector<TableEntry> table = {entry(0, 0, 0, 1)};
  HardwareScheduler hw(std::make_unique<SchedulerModel>(config), table);
  SchedulerOp op;
  op.message = 7;
  op.port = 0;
  op.deps = {3};
  hw.load({op}, 1);
  hw.set_port_ready(0, true, 0);
  CHECK(hw.next_ready(0, 0) == -1);
  CHECK(hw.next_event_cycle(0) == 1);
  CHECK(hw.missing_deps(0) == std::vector<int>{3});
  // Nothing happens until cycle 1000: the engine settles by cycle 3 and is not ticked after.
  CHECK(hw.next_ready(0, 3) == -1);
  CHECK(hw.next_event_cycle(3) == Scheduler::kNoEvent);
  const std::uint64_t ticks_settled = hw.ticks();
  hw.on_arrival(3);
  hw.on_counter_arrival(0, 1000);
  CHECK(ticks_settled == 4);              // cycles 0..3
  CHECK(hw.ticks() == ticks_settled);     // idle cycles 4..999 skipped
  CHECK(hw.next_ready(0, 1000) == -1);
  CHECK(hw.next_event_cycle(1000) == 1001);
  CHECK(hw.next_ready(0, 1001) == -1);
  CHECK(hw.next_ready(0, 1002) == 0);  // arrival presented at 1000, seen at 1000 + L
  hw.pop(0);
  CHECK(hw.issued() == 1);
  CHECK(hw.is_issued(0));
  CHECK(hw.missing_deps(0).empty());
  CHECK(hw.next_event_cycle(1002) == Scheduler::kNoEvent);
}

}  // namespace
}  // namespace mt
