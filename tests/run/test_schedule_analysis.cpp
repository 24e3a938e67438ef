// Schedule analysis of the run layer: build, verify and analyse without simulating.
#include <catch2/catch.hpp>

#include "model/run/schedule_analysis.h"

namespace mt {
namespace {

TEST_CASE("a ring all-reduce on ring:4 is analysed step by step", "[run]") {
  const ScheduleStudy study = study_schedule(parse_topology_spec("ring:4"), "ring", {}, 1 << 20);
  CHECK(study.report.ok);
  CHECK(study.topology->name() == "ring:4");
  const ScheduleAnalysis& a = study.analysis;
  // N - 1 = 3 reduce-scatter steps, then 3 all-gather steps, 4 messages (one per node) each.
  CHECK(a.reduce_steps == 3);
  CHECK(a.broadcast_steps == 3);
  REQUIRE(a.messages_per_step.size() == 6);
  for (const auto& [step, counts] : a.messages_per_step) CHECK(counts.first + counts.second == 4);
  CHECK(a.messages_per_step.at(0) == std::make_pair(4, 0));
  CHECK(a.messages_per_step.at(5) == std::make_pair(0, 4));
  CHECK(a.diameter == 2);
  CHECK(a.bytes == 1u << 20);
  const nlohmann::json j = to_json(a, study.report);
  CHECK(j.at("verified") == true);
  CHECK(j.at("reduce_scatter_steps") == 3);
  CHECK(j.at("all_gather_steps") == 3);
  CHECK(j.at("steps") == 6);
}

TEST_CASE("estimate_cycles is the dataflow estimate mtsim run reports, the per-step one is named",
          "[run]") {
  // MultiTree-opt on the 4x4 torus at 1 MiB: the two models differ (the per-step sum cannot see
  // that trees overlap), so a swapped field would show.
  const ScheduleStudy study =
      study_schedule(parse_topology_spec("torus:4x4"), "multitree_opt", {}, 1 << 20);
  const Topology& t = *study.topology;
  const nlohmann::json j = to_json(study.analysis, study.report);
  const double dataflow = dataflow_estimate(study.schedule, t, 1 << 20, CostParams{});
  const CostEstimate per_step = estimate_cost(study.schedule, t, 1 << 20, CostParams{});
  CHECK(j.at("estimate_cycles").get<double>() == dataflow);
  CHECK(j.at("step_estimate_cycles").get<double>() == per_step.cycles);
  CHECK(j.at("step_estimate_latency_cycles").get<double>() == per_step.latency_cycles);
  CHECK(j.at("step_estimate_bandwidth_cycles").get<double>() == per_step.bandwidth_cycles);
  CHECK(dataflow != per_step.cycles);
}

TEST_CASE("an unknown algorithm is an AlgorithmError", "[run]") {
  CHECK_THROWS_AS(study_schedule(parse_topology_spec("ring:4"), "nosuch", {}, 1024),
                  AlgorithmError);
}

}  // namespace
}  // namespace mt
