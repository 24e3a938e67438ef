// The training runs of the run layer with an injected point runner (no process, no SystemC).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "model/config/scenario_loader.h"
#include "model/run/train_run.h"

namespace mt {
namespace {

// Two algorithms on ring:4; three buckets of two distinct simulated sizes.
ScenarioConfig two_algorithms() {
  return load_scenario_text("topology: ring:4\ncollective: {algorithms: [ring, dbtree]}\n",
                            "s.yaml");
}

std::vector<GradientBucket> buckets() {
  std::vector<GradientBucket> b(3);
  b[0].bytes = 4096;
  b[1].bytes = 1022;  // rounded up to 1024 simulated bytes
  b[2].bytes = 4096;
  return b;
}

TEST_CASE("serialised training runs each distinct bucket size once per algorithm", "[run]") {
  std::vector<std::pair<std::string, std::uint64_t>> asked;
  const PointRunner runner = [&](const std::vector<Point>& points, bool with_messages) {
    CHECK_FALSE(with_messages);
    std::vector<RunResult> results;
    for (const auto& [p, bytes] : points) {
      asked.emplace_back(p->run->label, bytes);
      RunResult r;
      r.algorithm = p->run->label;
      r.schedule = p->schedule.algorithm;
      r.bytes = bytes;
      r.completion_cycles = bytes + (p->run->label == "ring" ? 0 : 7);
      r.data_verified = true;
      r.data_mode = DataMode::kFull;
      r.messages = 10;
      results.push_back(r);
    }
    return results;
  };
  const TrainRuns runs = run_train_serialised(two_algorithms(), buckets(), runner);
  REQUIRE(runs.ok());
  CHECK(asked == std::vector<std::pair<std::string, std::uint64_t>>{
                     {"ring", 1024}, {"dbtree", 1024}, {"ring", 4096}, {"dbtree", 4096}});
  REQUIRE(runs.runs.size() == 2);
  CHECK(runs.runs[0].algorithm == "ring");
  CHECK(runs.runs[0].cycles == std::vector<std::uint64_t>{4096, 1024, 4096});
  CHECK(runs.runs[0].messages == 20);  // two distinct sizes simulated
  CHECK(runs.runs[1].cycles == std::vector<std::uint64_t>{4103, 1031, 4103});
}

TEST_CASE("a failed simulation of a training run is returned, not printed", "[run]") {
  const PointRunner runner = [](const std::vector<Point>& points, bool with_messages) {
    CHECK(with_messages);  // the concurrent model needs every message's arrival
    std::vector<RunResult> results;
    for (const auto& [p, bytes] : points) {
      RunResult r;
      r.algorithm = p->run->label;
      r.bytes = bytes;
      r.data_mode = DataMode::kFull;
      r.data_verified = p->run->label == "ring";
      r.message_arrival_cycles.assign(p->schedule.ops.size(), 5);
      results.push_back(r);
    }
    return results;
  };
  const TrainRuns runs = run_train_concurrent(two_algorithms(), buckets(), runner);
  CHECK_FALSE(runs.ok());
  CHECK_FALSE(runs.verify_failure);
  REQUIRE(runs.failures.size() == 1);
  CHECK(runs.failures[0].algorithm == "dbtree");
  CHECK(runs.failures[0].bytes == 4096 + 1024 + 4096);  // the merged run of every bucket
  REQUIRE(runs.runs.size() == 1);
  CHECK(runs.runs[0].algorithm == "ring");
  CHECK(runs.runs[0].cycles == std::vector<std::uint64_t>{5, 5, 5});
}

}  // namespace
}  // namespace mt
