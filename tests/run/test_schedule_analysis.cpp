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

TEST_CASE("an unknown algorithm is an AlgorithmError", "[run]") {
  CHECK_THROWS_AS(study_schedule(parse_topology_spec("ring:4"), "nosuch", {}, 1024),
                  AlgorithmError);
}

}  // namespace
}  // namespace mt
