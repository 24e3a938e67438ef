// The run layer called directly (no CLI): prepare -> verify -> simulate one point in this process.
// Every TEST_CASE elaborates SystemC at most once.
#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>
#include <vector>

#include "model/collective/algorithm.h"
#include "model/collective/schedule_io.h"
#include "model/config/scenario_loader.h"
#include "model/run/prepare.h"
#include "model/run/run_point.h"
#include "model/sched/scheduler_build.h"
#include "tests/support/cli_runner.h"

namespace mt {
namespace {

using test::read_json;
using test::scratch;
using test::write_file;

// An 8-node ring with 50-cycle links, int32 data: the exact case of tests/sim/test_system.cpp.
const char* const kRing8 =
    "name: ring8\n"
    "topology: {kind: ring, dims: [8], link_latency_cycles: 50}\n"
    "collective: {algorithms: [ring], sizes: [8KiB], dtype: int32}\n";

TEST_CASE("a point run returns the completion cycles mtsim run prints", "[run]") {
  const std::string yaml = scratch("ring8.yaml");
  write_file(yaml, kRing8);
  const ScenarioConfig scenario = load_scenario_file(yaml);
  const std::vector<PreparedAlgorithm> prepared = prepare_all(scenario);
  REQUIRE(prepared.size() == 1);
  CHECK_FALSE(verify_prepared(prepared));
  const std::vector<Point> points = points_for(prepared, scenario.collective.sizes_bytes);
  REQUIRE(points.size() == 1);
  const RunResult r = run_point(scenario, *points[0].first, points[0].second);
  INFO(r.error);
  REQUIRE_FALSE(run_failed(r));
  CHECK(r.algorithm == "ring");
  CHECK(r.data_mode == DataMode::kFull);
  // 8 chunks of 4 packets: per step (4 - 1) x 17 + 2 pipelines + 50 wire + 17, plus the
  // reduction of the last packet (2 cycles) in the 7 reduce-scatter steps.
  const std::uint64_t step = 3 * 17 + 2 + 50 + 17;
  CHECK(r.completion_cycles == 7 * (step + 2) + 7 * step);

  const std::string json = scratch("ring8.json");
  const test::CliResult cli = test::mtsim("run " + yaml + " --json " + json);
  REQUIRE(cli.status == 0);
  const nlohmann::json runs = read_json(json).at("runs");
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].at("completion_cycles").get<std::uint64_t>() == r.completion_cycles);
  CHECK(runs[0].at("messages").get<std::uint64_t>() == r.messages);
  CHECK(runs[0].at("packets").get<std::uint64_t>() == r.packets);
}

TEST_CASE("a schedule that fails verification is a typed failure naming the file", "[run]") {
  // A correct ring:4 schedule less its last message: node 0 misses node 1's part of chunk 2.
  const Topology topology(parse_topology_spec("ring:4"));
  Schedule broken = build_schedule("ring", topology, {});
  broken.ops.pop_back();
  const std::string file = scratch("broken.json");
  save_schedule_file(broken, file);
  const ScenarioConfig scenario = load_scenario_text(
      "topology: ring:4\ncollective:\n  algorithms:\n    - {name: file, path: " + file + "}\n",
      "s.yaml");
  const std::optional<VerifyFailure> failure = verify_prepared(prepare_all(scenario));
  REQUIRE(failure);
  CHECK(failure->algorithm == "broken");
  CHECK(failure->topology == "ring:4");
  CHECK(failure->schedule_file == file);
  CHECK(failure->error == "node 0 chunk 2 ends without the contribution of node 1");
  CHECK(failure->message() ==
        "s.yaml:4:7: collective.algorithms[0]: broken on ring:4 (schedule "
        "file \"" +
            file +
            "\"): schedule verification failed: node 0 chunk 2 ends "
            "without the contribution of node 1");
}

TEST_CASE("nic.scheduler rtl without an RTL backend is refused before anything runs", "[run]") {
  const ScenarioConfig scenario = load_scenario_text(
      "topology: ring:4\n"
      "nic: {scheduler: rtl, issue: hardware}\n"
      "collective: {algorithms: [ring]}\n",
      "s.yaml");
  RunBackends none;
  none.rtl_unavailable_reason = "built without Verilator";
  CHECK_THROWS_WITH(prepare_all(scenario, none),
                    "s.yaml:3:27: collective.algorithms: ring: nic.scheduler: rtl: "
                    "co-simulation unavailable: built without Verilator");
  // With a backend the entry's NICs get its factory.
  RunBackends rtl;
  rtl.rtl_scheduler = [](int, const std::vector<TableEntry>&, const SchedulerModelConfig&,
                         const TableFormat&) { return std::unique_ptr<Scheduler>(); };
  // Twice: the default table order, auto, tries step and planned tables.
  const std::vector<PreparedAlgorithm> prepared = prepare_all(scenario, rtl);
  REQUIRE(prepared.size() == 2);
  CHECK(static_cast<bool>(prepared[0].scheduler_factory));
  CHECK(prepared[0].choice.table_order == TableOrder::kStep);
  CHECK(prepared[1].choice.table_order == TableOrder::kPlanned);
  // A table the RTL build cannot hold is refused here too, before any point simulates (not at
  // elaboration, point by point).
  rtl.rtl_table_capacity = {{"Counters", 1}};
  CHECK_THROWS_WITH(prepare_all(scenario, rtl),
                    Catch::StartsWith("s.yaml:3:27: collective.algorithms: ring: nic.scheduler: "
                                      "rtl: the Verilated nic_sched cannot hold this schedule's "
                                      "table: Counters 1 < "));
  CHECK_THROWS_WITH(
      prepare_all(scenario, rtl),
      Catch::EndsWith("(build with larger values in a copy of " + scheduler_build().path +
                      " given as -DMT_RTL_PARAMS_FILE=FILE)"));
  rtl.rtl_table_capacity = {{"Counters", 256}, {"Nodes", 4}};
  CHECK(prepare_all(scenario, rtl).size() == 2);
  // An explicit planned order: what every order needs is checked here (its counters once the
  // plan has packed it).
  const ScenarioConfig planned = load_scenario_text(
      "topology: ring:4\n"
      "nic: {scheduler: rtl, issue: hardware, scheduler_table_order: planned}\n"
      "collective: {algorithms: [ring]}\n",
      "s.yaml");
  rtl.rtl_table_capacity = {{"Counters", 1}, {"Steps", 2}};
  CHECK_THROWS_WITH(prepare_all(planned, rtl),
                    Catch::StartsWith("s.yaml:3:27: collective.algorithms: ring: nic.scheduler: "
                                      "rtl: the Verilated nic_sched cannot hold this schedule's "
                                      "table: Steps 2 < 6 (build with larger values"));
}

TEST_CASE(
    "hardware issue measures its tables against the nic_sched build, auto refuses a planned "
    "table that does not fit it",
    "[run]") {
  const ScenarioConfig scenario = load_scenario_text(
      "topology: ring:4\n"
      "nic: {issue: hardware, flow_control: message}\n"
      "collective: {algorithms: [ring], sizes: [8KiB]}\n",
      "s.yaml");
  // The default table order, auto: a step trial and a planned one, both measured against the
  // build CMake read (rtl/params/cosim.params), only the planned one refused where it misfits.
  std::vector<PreparedAlgorithm> prepared = prepare_all(scenario);
  REQUIRE(prepared.size() == 2);
  const SchedulerSettings& step = prepared[0].config.issue.scheduler;
  CHECK(step.table_capacity == scheduler_build().table_capacity());
  CHECK_FALSE(step.planned_trial);
  CHECK(prepared[1].config.issue.scheduler.planned_trial);
  // The planned trial with a build of two steps: refused before its plan is made (a ring of 4
  // nodes takes 6 steps whatever the order); with one counter: once packed, before anything is
  // elaborated.
  prepared[1].config.issue.scheduler.table_capacity = {{"Steps", 2}};
  CHECK(run_point(scenario, prepared[1], 8192).trial_refused ==
        "its tables do not fit the nic_sched build: Steps 2 < 6");
  prepared[1].config.issue.scheduler.table_capacity = {{"Counters", 1}};
  const RunResult refused = run_point(scenario, prepared[1], 8192);
  CHECK(refused.error.empty());
  CHECK_THAT(refused.trial_refused,
             Catch::StartsWith("its tables do not fit the nic_sched build: Counters 1 < "));
  // The step trial is simulated whatever it needs, and says what the build lacks: every field
  // short of the table's count, in the RTL's parameter order (a ring of 4 nodes takes 6 steps).
  prepared[0].config.issue.scheduler.table_capacity = {{"Counters", 1}, {"Steps", 2}, {"Nodes", 4}};
  const RunResult r = run_point(scenario, prepared[0], 8192);
  INFO(r.error);
  REQUIRE_FALSE(run_failed(r));
  CHECK(r.data_verified);
  REQUIRE(prepared[0].schedule.num_steps == 6);
  REQUIRE(r.table_counters > 1);
  CHECK(r.table_misfit == "Steps 2 < 6, Counters 1 < " + std::to_string(r.table_counters));
  // auto then keeps the step trial and says why the planned one did not run.
  const std::vector<Point> points = {{&prepared[0], 8192}, {&prepared[1], 8192}};
  const PointResults settled = settle_trials(points, {r, refused});
  REQUIRE(settled.results.size() == 1);
  CHECK(settled.results[0].completion_cycles == r.completion_cycles);
  CHECK(settled.results[0].nic_choice ==
        "step table order (planned: " + refused.trial_refused + ")");
}

TEST_CASE("an exception that is no mt::Error fails the point as an internal error", "[run]") {
  // Every input problem is an mt::Error; anything else is a bug of mtsim, which `mtsim run`
  // reports with exit status 3 rather than as a failed check (1).
  const ScenarioConfig scenario = load_scenario_text(
      std::string(kRing8) + "nic: {scheduler: rtl, issue: hardware, scheduler_table_order: step}\n",
      "s.yaml");
  RunBackends broken;
  broken.rtl_scheduler = [](int, const std::vector<TableEntry>&, const SchedulerModelConfig&,
                            const TableFormat&) -> std::unique_ptr<Scheduler> {
    throw std::logic_error("a broken scheduler factory");
  };
  const std::vector<PreparedAlgorithm> prepared = prepare_all(scenario, broken);
  REQUIRE(prepared.size() == 1);
  const RunResult r = run_point(scenario, prepared[0], 8192);
  CHECK(run_failed(r));
  CHECK(r.internal_error);
  CHECK(r.error == "internal error: a broken scheduler factory");
}

}  // namespace
}  // namespace mt
