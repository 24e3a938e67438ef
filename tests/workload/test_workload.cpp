// Training workloads: bucketing, the serialised and the concurrent overlap of all-reduces with
// backpropagation (exact cycles derived by hand from scenarios/workloads/mlp_small.yaml), launch
// costs, and the workload loader.

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "model/config/workload_loader.h"
#include "model/workload/workload.h"
#include "tests/support/source_dir.h"

using mt::GradientBucket;
using mt::IterationTimeline;
using mt::ScenarioError;
using mt::WorkloadConfig;

namespace {

using mt::test::kSource;

// mlp_small: forward 1000 + 2000 + 4000 = 7000 cycles; backprop fc3 2000 (ready at 9000),
// fc2 4000 (13000), fc1 8000 (21000); optimizer 1000; compute 7000 + 14000 + 1000 = 22000.
WorkloadConfig mlp() {
  return mt::load_workload_file(kSource + "/scenarios/workloads/mlp_small.yaml");
}

}  // namespace

TEST_CASE("mlp_small loads with its round figures") {
  const WorkloadConfig w = mlp();
  CHECK(w.name == "mlp_small");
  CHECK(w.dtype_bytes == 4);
  CHECK(w.optimizer_cycles == 1000);
  CHECK(w.bucket_bytes == 0);
  REQUIRE(w.layers.size() == 3);
  CHECK(w.layers[0].name == "fc3");
  CHECK(w.layers[0].params == 16384);
  CHECK(w.layers[2].backprop_cycles == 8000);
  CHECK(w.layers[1].forward_cycles == 2000);
}

TEST_CASE("one bucket per layer, ready when its backprop step ends") {
  const std::vector<GradientBucket> b = mt::make_buckets(mlp());
  REQUIRE(b.size() == 3);
  CHECK(b[0].bytes == 65536);
  CHECK(b[1].bytes == 262144);
  CHECK(b[2].bytes == 1048576);
  CHECK(b[0].ready_cycle == 9000);
  CHECK(b[1].ready_cycle == 13000);
  CHECK(b[2].ready_cycle == 21000);
}

TEST_CASE("buckets fuse consecutive layers until they reach bucket_bytes") {
  WorkloadConfig w = mlp();
  w.bucket_bytes = 300000;  // fc3 (65536) + fc2 (262144) = 327680 >= 300000; then fc1 alone
  std::vector<GradientBucket> b = mt::make_buckets(w);
  REQUIRE(b.size() == 2);
  CHECK(b[0].first_layer == 0);
  CHECK(b[0].last_layer == 1);
  CHECK(b[0].bytes == 327680);
  CHECK(b[0].ready_cycle == 13000);
  CHECK(b[1].first_layer == 2);
  CHECK(b[1].bytes == 1048576);
  CHECK(b[1].ready_cycle == 21000);

  w.bucket_bytes = 2u << 20;  // larger than the whole model: one bucket, ready at backprop's end
  b = mt::make_buckets(w);
  REQUIRE(b.size() == 1);
  CHECK(b[0].last_layer == 2);
  CHECK(b[0].bytes == 1376256);
  CHECK(b[0].ready_cycle == 21000);

  w.dtype_bytes = 2;  // fp16 halves every bucket
  CHECK(mt::make_buckets(w)[0].bytes == 688128);
}

TEST_CASE("all-reduces queue on the network in issue order") {
  const WorkloadConfig w = mlp();
  const auto buckets = mt::make_buckets(w);
  // fc3: 9000..14000; fc2 ready at 13000 waits for the network: 14000..17000;
  // fc1: 21000..22000; optimizer 22000..23000. Exposed: 23000 - 22000 = 1000.
  const IterationTimeline t = mt::overlap_iteration(w, buckets, {5000, 3000, 1000});
  CHECK(t.forward_cycles == 7000);
  CHECK(t.backprop_cycles == 14000);
  CHECK(t.optimizer_cycles == 1000);
  CHECK(t.compute_cycles == 22000);
  CHECK(t.allreduce_start_cycle == std::vector<std::uint64_t>{9000, 14000, 21000});
  CHECK(t.allreduce_end_cycle == std::vector<std::uint64_t>{14000, 17000, 22000});
  CHECK(t.iteration_cycles == 23000);
  CHECK(t.exposed_comm_cycles == 1000);
}

TEST_CASE("exposed communication: none when free, all when nothing overlaps") {
  const WorkloadConfig w = mlp();
  const auto buckets = mt::make_buckets(w);
  const IterationTimeline free = mt::overlap_iteration(w, buckets, {0, 0, 0});
  CHECK(free.iteration_cycles == 22000);
  CHECK(free.exposed_comm_cycles == 0);
  // fc3 9000..29000 hides behind nothing: fc2 29000..29100, fc1 29100..29200, optimizer to 30200.
  const IterationTimeline slow = mt::overlap_iteration(w, buckets, {20000, 100, 100});
  CHECK(slow.allreduce_end_cycle.back() == 29200);
  CHECK(slow.iteration_cycles == 30200);
  CHECK(slow.exposed_comm_cycles == 8200);
  // One fused bucket issued at 21000: nothing overlaps, all 4000 cycles are exposed.
  WorkloadConfig fused = w;
  fused.bucket_bytes = 2u << 20;
  const IterationTimeline one = mt::overlap_iteration(fused, mt::make_buckets(fused), {4000});
  CHECK(one.iteration_cycles == 26000);
  CHECK(one.exposed_comm_cycles == 4000);
  CHECK_THROWS_WITH(mt::overlap_iteration(w, buckets, {1, 2}),
                    "overlap_iteration: 3 buckets but 2 all-reduce durations");
}

TEST_CASE("concurrent all-reduces start at their release and end when the shared run says") {
  const WorkloadConfig w = mlp();
  const auto buckets = mt::make_buckets(w);
  // Released at 9000, 13000, 21000; ends from the shared run: fc2 overtaken by nothing, the
  // last ends at 22500 > backprop end 21000: optimizer 22500..23500, exposed 23500 - 22000.
  const IterationTimeline t = mt::concurrent_iteration(w, buckets, {15000, 16000, 22500});
  CHECK(t.allreduce_start_cycle == std::vector<std::uint64_t>{9000, 13000, 21000});
  CHECK(t.allreduce_end_cycle == std::vector<std::uint64_t>{15000, 16000, 22500});
  CHECK(t.iteration_cycles == 23500);
  CHECK(t.exposed_comm_cycles == 1500);
  // All hidden: every all-reduce ends by the end of backprop (21000).
  const IterationTimeline hidden = mt::concurrent_iteration(w, buckets, {9000, 13000, 21000});
  CHECK(hidden.iteration_cycles == 22000);
  CHECK(hidden.exposed_comm_cycles == 0);
  // The iteration waits for the LAST end, not the last bucket's (an earlier one may end later).
  CHECK(mt::concurrent_iteration(w, buckets, {30000, 16000, 22500}).iteration_cycles == 31000);
  CHECK_THROWS_WITH(
      mt::concurrent_iteration(w, buckets, {8999, 16000, 22500}),
      "concurrent_iteration: bucket 0 ends at cycle 8999, before its release at 9000");
  CHECK_THROWS_WITH(mt::concurrent_iteration(w, buckets, {1}),
                    "concurrent_iteration: 3 buckets but 1 all-reduce durations");
}

TEST_CASE("a launch cost delays every release, launches queue, and fusion pays it once") {
  WorkloadConfig w = mlp();
  w.launch_cycles = 500;
  const auto buckets = mt::make_buckets(w);
  REQUIRE(buckets.size() == 3);
  CHECK(buckets[0].ready_cycle == 9000);
  CHECK(buckets[0].release_cycle == 9500);
  CHECK(buckets[2].release_cycle == 21500);
  // Serialised: 9500..14500, 14500..17500, 21500..22500; optimizer to 23500.
  const IterationTimeline t = mt::overlap_iteration(w, buckets, {5000, 3000, 1000});
  CHECK(t.allreduce_start_cycle == std::vector<std::uint64_t>{9500, 14500, 21500});
  CHECK(t.iteration_cycles == 23500);
  // Backprop of 100 cycles per layer: ready at 7100, 7200, 7300. Launches of 1000 cycles queue
  // on the host: released at 8100, 9100, 10100; fused into one bucket: 7300 + 1000 = 8300.
  for (auto& l : w.layers) l.backprop_cycles = 100;
  w.launch_cycles = 1000;
  const auto per_layer = mt::make_buckets(w);
  REQUIRE(per_layer.size() == 3);
  CHECK(per_layer[1].release_cycle == 9100);
  CHECK(per_layer[2].release_cycle == 10100);
  // 500-cycle all-reduces: per layer the last ends 10600, optimizer to 11600; fused: 8800, 9800.
  CHECK(mt::concurrent_iteration(w, per_layer, {8600, 9600, 10600}).iteration_cycles == 11600);
  w.bucket_bytes = 2u << 20;
  const auto fused = mt::make_buckets(w);
  REQUIRE(fused.size() == 1);
  CHECK(fused[0].release_cycle == 8300);
  CHECK(mt::concurrent_iteration(w, fused, {8800}).iteration_cycles == 9800);
  CHECK(mt::load_workload_text("launch_cycles: 250\nlayers: [{name: a, params: 1}]\n", "w.yaml")
            .launch_cycles == 250);
}

TEST_CASE("workload loader rejects bad input with file:line:col and key path") {
  CHECK_THROWS_WITH(
      mt::load_workload_text("layers:\n  - {name: a, params: 10, backward_cycles: 5}\n", "w.yaml"),
      "w.yaml:2:27: layers[0].backward_cycles: unknown key; expected one of: name, params, "
      "backprop_cycles, forward_cycles");
  CHECK_THROWS_WITH(mt::load_workload_text("layers:\n  - {name: a, params: -5}\n", "w.yaml"),
                    "w.yaml:2:23: layers[0].params: \"-5\" is out of range: must be between 0 "
                    "and 1099511627776");
  CHECK_THROWS_WITH(mt::load_workload_text("name: x\nlayer: []\n", "w.yaml"),
                    "w.yaml:2:1: layer: unknown key; expected one of: name, description, source, "
                    "dtype, optimizer_cycles, bucket_bytes, launch_cycles, layers");
  CHECK_THROWS_WITH(
      mt::load_workload_text("dtype: bf16\nlayers: [{name: a, params: 1}]\n", "w.yaml"),
      "w.yaml:1:8: dtype: \"bf16\" is not one of: fp32, fp16");
  CHECK_THROWS_WITH(mt::load_workload_text("name: x\n", "w.yaml"),
                    "w.yaml:1:1: missing key \"layers\"");
  CHECK_THROWS_WITH(
      mt::load_workload_file("/nonexistent/w.yaml"),
      "/nonexistent/w.yaml: cannot open the workload file: No such file or directory");
}

TEST_CASE("every shipped workload loads") {
  int loaded = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kSource + "/scenarios/workloads")) {
    if (entry.path().extension() != ".yaml") continue;
    INFO(entry.path().string());
    CHECK_NOTHROW(mt::load_workload_file(entry.path().string()));
    ++loaded;
  }
  CHECK(loaded == 6);
  // Published parameter counts of the layer shapes (see each file's header).
  auto total = [](const std::string& name) {
    std::uint64_t sum = 0;
    for (const auto& l : mt::load_workload_file(kSource + "/scenarios/workloads/" + name).layers)
      sum += l.params;
    return sum;
  };
  CHECK(total("alexnet.yaml") == 60965224);
  CHECK(total("vgg16.yaml") == 138357544);
  CHECK(total("resnet50.yaml") == 25557032);
}
