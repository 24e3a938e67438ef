// Training iteration timelines and their JSON, from given all-reduce runs (no simulation).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "model/run/train_report.h"

namespace mt {
namespace {

// Two layers in backprop order: fc2 (256 params) then fc1 (1024 params), fp32 gradients.
WorkloadConfig two_layers() {
  WorkloadConfig w;
  w.name = "two";
  w.layers = {{"fc2", 256, 1000, 500}, {"fc1", 1024, 2000, 700}};
  w.optimizer_cycles = 300;
  return w;
}

TEST_CASE("a concurrent training row overlaps each bucket's all-reduce with backprop", "[run]") {
  const WorkloadConfig workload = two_layers();
  const std::vector<GradientBucket> buckets = make_buckets(workload);
  REQUIRE(buckets.size() == 2);
  // Forward 500 + 700 = 1200; fc2's gradients are ready after its backprop (1000), fc1's after
  // both (3000).
  CHECK(buckets[0].release_cycle == 1200 + 1000);
  CHECK(buckets[1].release_cycle == 1200 + 3000);
  BucketRuns runs;
  runs.algorithm = "ring";
  runs.schedule = "ring";
  runs.bucket_schedules = {"ring", "ring"};
  runs.data_mode = DataMode::kFull;
  runs.cycles = {2200 + 100, 4200 + 50};  // end cycles in the shared run
  const std::vector<TrainRow> rows = train_rows(workload, buckets, {runs}, false);
  REQUIRE(rows.size() == 1);
  // The optimizer starts when backprop (4200) and the last all-reduce (4250) have ended.
  CHECK(rows[0].timeline.iteration_cycles == 4250 + 300);
  CHECK(rows[0].timeline.exposed_comm_cycles == 4550 - (1200 + 3000 + 300));

  ScenarioConfig scenario;
  scenario.name = "net";
  const nlohmann::json j = to_json(workload, scenario, buckets, rows, false);
  CHECK(j.at("model") == "concurrent: all-reduces released into one shared simulation");
  const nlohmann::json& bucket = j.at("runs").at(0).at("buckets").at(1);
  CHECK(bucket.at("first_layer") == "fc1");
  CHECK(bucket.at("bytes") == 4096);
  CHECK(bucket.at("simulated_bytes") == 4096);
  CHECK(bucket.at("start_cycle") == 4200);
  CHECK(bucket.at("allreduce_cycles") == 50);
  CHECK(j.at("runs").at(0).at("iteration_cycles") == 4550);
}

}  // namespace
}  // namespace mt
