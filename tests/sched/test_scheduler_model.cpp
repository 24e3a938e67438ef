// SchedulerModel, the golden cycle-level model of the NIC scheduler v2: exact decision latency,
// the post-grant port mask, oldest-first choice, step order (and its relaxation), window refill
// from the ring in table order, errors, and a randomised co-simulation of every node of real
// schedules (random network delays and port busy times, thousands of cycles) asserting on every
// issued command that its dependencies had arrived L cycles before and that no earlier step of the
// node was still pending.
#include <catch2/catch.hpp>

#include <algorithm>
#include <climits>
#include <random>
#include <string>

#include "model/collective/algorithm.h"
#include "model/sched/hardware_scheduler.h"
#include "model/sched/scheduler_model.h"
#include "model/sched/table_packer.h"
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
std::vector<long> run(SchedulerModel& model, int cycles,
                      const std::vector<std::pair<int, int>>& arrivals /* (cycle, counter) */) {
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
  for (const int latency : {2, 3, 5}) {
    SchedulerModelConfig config;
    config.ports = 1;
    config.decision_latency_cycles = latency;
    config.counters = 2;
    SchedulerModel model(config);
    model.load({entry(0, 0, 1, 2)});
    model.set_port_ready(0, true);  // presented in cycle 0, seen by the decision of cycle L - 1
    // Two arrivals on counter 1 in cycles 10 and 20: the grant is visible in cycle 20 + L.
    const std::vector<long> when = run(model, 40, {{10, 1}, {20, 1}});
    INFO("L = " << latency);
    CHECK(when[0] == 20 + latency);
    CHECK(model.done());
    CHECK(model.counter_value(1) == 2);
    CHECK(model.cycle() == 40);
  }
}

TEST_CASE("ready level is seen L - 1 cycles late and a grant masks its port for L cycles",
          "[nic][sched_model]") {
  SchedulerModelConfig config;
  config.ports = 1;
  config.decision_latency_cycles = 2;
  SchedulerModel model(config);
  model.load({entry(0, 0, 0, 0), entry(0, 0, 0, 0), entry(0, 0, 0, 0)});
  model.set_port_ready(0, true);  // cycle 0 -> decided in cycle 1, visible in cycle 2
  // Ready held high (a NIC that never drops it): grants at 2, then every L + 1 = 3 cycles.
  const std::vector<long> when = run(model, 20, {});
  CHECK(when[0] == 2);
  CHECK(when[1] == 5);
  CHECK(when[2] == 8);
}

TEST_CASE("a grant is held until its DMA accepts it, and the port's mask counts from acceptance",
          "[nic][sched_model]") {
  SchedulerModelConfig config;
  config.ports = 2;
  config.decision_latency_cycles = 2;
  SchedulerModel model(config);
  model.load({entry(0, 0, 0, 0), entry(0, 0, 0, 0), entry(1, 0, 0, 0)});
  model.set_port_ready(0, true);  // cycle 0 -> decided in cycle 1, visible in cycle 2
  model.set_port_ready(1, true);
  model.set_grant_ack(0, false);  // port 0's DMA does not accept until cycle 5
  CHECK(model.tick().empty());
  CHECK(model.tick().empty());
  std::vector<long> seen0;  // cycles in which port 0 shows a grant, and of which entry
  std::vector<int> index0;
  for (int cycle = 2; cycle < 16; ++cycle) {
    if (cycle == 5) model.set_grant_ack(0, true);
    for (const IssueCommand& cmd : model.tick()) {
      if (cmd.port == 1) {
        CHECK(cycle == 2);  // port 1 accepts at once: one cycle
        continue;
      }
      seen0.push_back(cycle);
      index0.push_back(cmd.index);
    }
  }
  // Entry 0 is shown in cycles 2 to 5 (held, unchanged) and accepted at the end of cycle 5; the
  // mask (L = 2) runs from acceptance: the next decision in cycle 7, visible in cycle 8, where
  // a grant accepted at once would have given cycle 5 (the test above).
  CHECK(seen0 == std::vector<long>{2, 3, 4, 5, 8});
  CHECK(index0 == std::vector<int>{0, 0, 0, 0, 1});
  CHECK(model.issued_count() == 3);  // accepted grants only
  CHECK(model.done());
}

TEST_CASE(
    "a port that is not ready is granted nothing and ports are granted independently, "
    "oldest first",
    "[nic][sched_model]") {
  SchedulerModelConfig config;
  config.ports = 2;
  config.decision_latency_cycles = 2;
  SchedulerModel model(config);
  model.load({entry(1, 0, 0, 0), entry(0, 0, 0, 0), entry(1, 0, 0, 0)});
  CHECK(model.window_fill(0) == 1);  // the load cycles filled the windows
  CHECK(model.window_fill(1) == 2);
  model.set_port_ready(1, true);
  CHECK(model.tick().empty());                      // cycle 0: nothing seen yet
  CHECK(model.tick().empty());                      // cycle 1: port 1 decides index 0
  std::vector<IssueCommand> issues = model.tick();  // cycle 2: visible
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].port == 1);
  CHECK(issues[0].index == 0);
  model.set_port_ready(1, false);
  model.set_port_ready(0, true);  // cycle 3 -> decided in 4, visible in 5
  CHECK(model.tick().empty());
  CHECK(model.tick().empty());
  issues = model.tick();
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].port == 0);
  CHECK(issues[0].index == 1);
  CHECK(issues[0].entry == entry(0, 0, 0, 0));
  CHECK(!model.done());
  CHECK(model.issued_count() == 2);
}

TEST_CASE(
    "step order holds later steps back (registered minimum step) and nic.step_order false "
    "relaxes it",
    "[nic][sched_model]") {
  for (const bool step_order : {true, false}) {
    SchedulerModelConfig config;
    config.ports = 2;
    config.decision_latency_cycles = 2;
    config.step_order = step_order;
    SchedulerModel model(config);
    // Entry 0 (step 0, port 0) waits for an arrival in cycle 9; entry 1 (step 1, port 1) has none.
    model.load({entry(0, 0, 0, 1), entry(1, 1, 0, 0)});
    model.set_port_ready(0, true);
    model.set_port_ready(1, true);
    const std::vector<long> when = run(model, 20, {{9, 0}});
    INFO("step_order " << step_order);
    CHECK(when[0] == 11);
    // Step order: entry 0 leaves its window at the end of cycle 10, the minimum step register
    // moves to 1 at the end of cycle 11, entry 1 is decided in cycle 12 and visible in 13.
    CHECK(when[1] == (step_order ? 13 : 2));
  }
}

TEST_CASE(
    "windows refill in table order from the ring: a full window holds back the entries "
    "behind it",
    "[nic][sched_model]") {
  SchedulerModelConfig config;
  config.ports = 2;
  config.decision_latency_cycles = 2;
  config.window = 1;
  config.depth = 2;
  SchedulerModel model(config);
  // Three entries of port 0, then one of port 1: after loading, port 0's window holds entry 0,
  // the fetch register entry 1 (its window is full) and the ring entries 2 and 3.
  model.load({entry(0, 0, 0, 0), entry(0, 0, 0, 0), entry(0, 0, 0, 0), entry(1, 0, 0, 0)});
  CHECK(model.window_fill(0) == 1);
  CHECK(model.window_fill(1) == 0);
  model.set_port_ready(1, true);
  std::vector<long> when = run(model, 10, {});
  CHECK(when[3] == -1);           // port 1 is ready but its entry is behind port 0's
  model.set_port_ready(0, true);  // cycle 10
  for (int c = 10; c < 30; ++c) {
    for (const IssueCommand& cmd : model.tick()) when[static_cast<std::size_t>(cmd.index)] = c;
  }
  // Entry 0 decided in 11, visible in 12; entry 1 moves in at the end of 12 (the window was full
  // in 11), decided when the mask ends (14), visible in 15; entry 2 moves in at the end of 15 and
  // entry 3 reaches the fetch register then and its window at the end of 16; entry 2 decided in
  // 17 (mask), entry 3 in 17: both visible in 18.
  CHECK(when[0] == 12);
  CHECK(when[1] == 15);
  CHECK(when[2] == 18);
  CHECK(when[3] == 18);
  CHECK(model.done());
}

TEST_CASE("wrong configuration and inputs are refused", "[nic][sched_model]") {
  SchedulerModelConfig config;
  config.ports = 0;
  CHECK_THROWS_WITH(SchedulerModel(config), "SchedulerModel: ports must be >= 1, got 0");
  config.ports = 2;
  config.decision_latency_cycles = 1;
  CHECK_THROWS_WITH(SchedulerModel(config),
                    "SchedulerModel: decision_latency_cycles must be >= 2, got 1");
  config.decision_latency_cycles = 2;
  config.window = 0;
  CHECK_THROWS_WITH(SchedulerModel(config), "SchedulerModel: window must be >= 1, got 0");
  config.window = 4;
  config.depth = 0;
  CHECK_THROWS_WITH(SchedulerModel(config), "SchedulerModel: depth must be >= 1, got 0");
  config.depth = 1;
  SchedulerModel model(config);
  // (Entries and arrival counters out of range are flagged as the hardware does:
  // tests/sched/test_scheduler_errors.cpp.)
  CHECK_THROWS_AS(model.on_arrival(-1), mt::SchedulerError);
  CHECK_THROWS_AS(model.set_port_ready(2, true), mt::SchedulerError);
  model.on_doorbell(0);
  CHECK_THROWS_WITH(model.on_doorbell(0),
                    "SchedulerModel::on_doorbell: second doorbell in one cycle");
}

// Every node's SchedulerModel of a real schedule, connected by a random-delay "network".
void cosimulate(const std::string& algorithm, int latency, int window, unsigned seed) {
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
    config.window = window;
    config.depth = 1 + static_cast<int>(seed % 3) * 8;
    models.emplace_back(config);
    models.back().load(packed.tables[static_cast<std::size_t>(u)]);
  }
  std::vector<long> arrived(s.ops.size(), -1);  // cycle the arrival was presented
  std::vector<std::pair<long, int>> in_flight;  // (arrival cycle, message)
  std::vector<std::vector<long>> port_free(static_cast<std::size_t>(n), std::vector<long>(4, 0));
  std::vector<std::vector<char>> issued(static_cast<std::size_t>(n));
  for (int u = 0; u < n; ++u)
    issued[static_cast<std::size_t>(u)].assign(packed.tables[static_cast<std::size_t>(u)].size(),
                                               0);
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
        model.set_port_ready(
            p, port_free[static_cast<std::size_t>(u)][static_cast<std::size_t>(p)] <= cycle);
      }
      // Smallest pending step before this cycle's issues.
      int min_step = INT_MAX;
      const auto& table = packed.tables[static_cast<std::size_t>(u)];
      for (std::size_t i = 0; i < table.size(); ++i) {
        if (!issued[static_cast<std::size_t>(u)][i]) min_step = std::min(min_step, table[i].step);
      }
      for (const IssueCommand& cmd : model.tick()) {
        ++issues;
        const int id =
            packed.messages[static_cast<std::size_t>(u)][static_cast<std::size_t>(cmd.index)];
        const Op& op = s.ops[static_cast<std::size_t>(id)];
        INFO(algorithm << " L=" << latency << " W=" << window << " seed " << seed << " cycle "
                       << cycle << " node " << u << " message " << id);
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
    for (const int latency : {2, 3}) {
      // Window 1 (every refill on the critical path) with seed 2, the default 4 otherwise.
      for (const unsigned seed : {1u, 2u, 3u}) {
        cosimulate(algorithm, latency, seed == 2 ? 1 : 4, seed);
      }
    }
  }
}

TEST_CASE("idle() answers for the inputs presented since it was last asked", "[nic][sched_model]") {
  // idle() keeps its answer until an input or a tick changes the state: a model asked after
  // every input must answer as one asked only once before each tick, over random inputs.
  SchedulerModelConfig config;
  config.ports = 2;
  config.decision_latency_cycles = 3;
  config.counters = 3;
  config.watchdog_limit = 4;
  config.watchdog_tick_cycles = 5;
  std::vector<TableEntry> table;
  for (int k = 0; k < 24; ++k) table.push_back(entry(k % 2, k / 4, k % 3, k / 6));
  SchedulerModel asked_often(config);
  SchedulerModel asked_once(config);
  asked_often.load(table);
  asked_once.load(table);
  std::mt19937 random(11);
  int idle_answers = 0;
  for (int cycle = 0; cycle < 400; ++cycle) {
    const auto both = [&](auto&& input) {
      input(asked_often);
      (void)asked_often.idle();
      input(asked_once);
    };
    if (random() % 3 == 0) {
      const int counter = static_cast<int>(random() % 3);
      both([&](SchedulerModel& m) { m.on_arrival(counter); });
    }
    if (random() % 4 == 0) {
      const int port = static_cast<int>(random() % 2);
      const bool ready = random() % 2 == 0;
      both([&](SchedulerModel& m) { m.set_port_ready(port, ready); });
    }
    if (random() % 6 == 0) {
      const int port = static_cast<int>(random() % 2);
      const bool ack = random() % 3 != 0;
      both([&](SchedulerModel& m) { m.set_grant_ack(port, ack); });
    }
    if (random() % 5 == 0) {
      const int step = static_cast<int>(random() % 7);
      both([&](SchedulerModel& m) { m.set_open_step(step); });
    }
    if (cycle % 5 == 0) both([](SchedulerModel& m) { m.on_watchdog_tick(); });
    if (cycle % 9 == 0) both([](SchedulerModel& m) { m.on_doorbell(0); });
    INFO("cycle " << cycle);
    const bool idle = asked_once.idle();
    REQUIRE(asked_often.idle() == idle);
    idle_answers += idle ? 1 : 0;
    const std::vector<IssueCommand> often = asked_often.tick();
    const std::vector<IssueCommand> once = asked_once.tick();
    (void)asked_often.idle();
    REQUIRE(often.size() == once.size());
    for (std::size_t k = 0; k < once.size(); ++k) REQUIRE(often[k].index == once[k].index);
  }
  // Both answers occurred, so the comparison covered a change each way.
  CHECK(idle_answers > 0);
  CHECK(idle_answers < 400);
}

TEST_CASE("HardwareScheduler ticks only while the engine is not idle", "[nic][sched_model]") {
  SchedulerModelConfig config;
  config.ports = 1;
  config.decision_latency_cycles = 2;
  config.counters = 1;
  std::vector<TableEntry> table = {entry(0, 0, 0, 1)};
  HardwareScheduler hw(std::make_unique<SchedulerModel>(config), table, config);
  hw.set_port_ready(0, true, 0);
  CHECK(hw.next_ready(0, 0) == -1);
  // After cycle 0 the ready level is in its register and the entry waits: idle until an input.
  CHECK(hw.next_event_cycle(0) == Scheduler::kNoEvent);
  CHECK(hw.ticks() == 1);
  hw.on_arrival(3, 0, 1000);
  CHECK(hw.ticks() == 1);               // idle cycles 1..999 skipped
  CHECK(hw.next_ready(0, 1000) == -1);  // counted at the end of cycle 1000
  CHECK(hw.next_event_cycle(1000) == 1001);
  CHECK(hw.next_ready(0, 1001) == -1);  // decided in 1001
  CHECK(hw.next_ready(0, 1002) == 0);   // visible in 1000 + L
  hw.pop(0);
  CHECK(hw.issued() == 1);
  CHECK(hw.is_issued(0));
  CHECK(hw.next_event_cycle(1002) == Scheduler::kNoEvent);
  CHECK(hw.ticks() == 4);
}

TEST_CASE("a scheduler on a slower clock sees inputs at its next edge and decides in its cycles",
          "[nic][sched_model]") {
  // 2.5 network cycles per scheduler cycle: its cycle k starts at network cycle ceil(2.5 k):
  // 0, 3, 5, 8, 10, ..., 400 -> 1000, 401 -> 1003, 402 -> 1005, 403 -> 1008, 404 -> 1010.
  SchedulerModelConfig config;
  config.ports = 1;
  config.decision_latency_cycles = 2;
  config.counters = 1;
  config.network_cycles_per_tick = 2.5;
  HardwareScheduler hw(std::make_unique<SchedulerModel>(config), {entry(0, 0, 0, 1)}, config);
  CHECK(hw.tick_cycle(401) == 1003);
  hw.set_port_ready(0, true, 0);
  CHECK(hw.next_ready(0, 0) == -1);
  // An arrival at network cycle 999 is presented in scheduler cycle 400 (network 1000), so its
  // grant is visible in scheduler cycle 400 + L = 402: network cycle 1005.
  hw.on_arrival(7, 0, 999);
  CHECK(hw.next_ready(0, 1000) == -1);
  CHECK(hw.next_event_cycle(1000) == 1003);  // the next edge, not the next network cycle
  CHECK(hw.next_ready(0, 1003) == -1);
  CHECK(hw.next_ready(0, 1004) == -1);  // no edge at 1004
  CHECK(hw.next_ready(0, 1005) == 0);
  CHECK(hw.ticks() == 4);

  // Two doorbells between two edges (network 1001 and 1002): the first is presented in
  // scheduler cycle 401, the second waits for cycle 402 (the engine takes one per cycle); an
  // entry waiting for both is visible in cycle 402 + L = 404: network cycle 1010.
  HardwareScheduler bells(std::make_unique<SchedulerModel>(config), {entry(0, 0, 0, 2)}, config);
  bells.set_port_ready(0, true, 0);
  CHECK(bells.next_ready(0, 0) == -1);
  bells.on_doorbell(0, 1001);
  bells.on_doorbell(0, 1002);
  CHECK(bells.next_ready(0, 1009) == -1);
  CHECK(bells.next_ready(0, 1010) == 0);

  config.network_cycles_per_tick = 0.5;
  CHECK_THROWS_WITH(
      HardwareScheduler(std::make_unique<SchedulerModel>(config), {entry(0, 0, 0, 1)}, config),
      Catch::Contains("faster than the network's"));
}

}  // namespace
}  // namespace mt
