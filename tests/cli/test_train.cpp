// End-to-end tests of `mtsim train`: a workload on a network scenario, concurrent (one shared run
// per algorithm, the default) and serialised, with figures derived from the exact ring timings of
// tests/sim/test_system.cpp: a snake ring on the default 4x4 torus takes 30 x (P x 17 + 152) +
// 15 x 2 cycles for P packets per chunk: 12750 (64 KiB), 37230 (256 KiB), 135150 (1 MiB).

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "tests/support/cli_runner.h"

namespace {

using mt::test::kSource;

std::string train(const std::string& options) {
  return "train " + kSource + "/scenarios/workloads/mlp_small.yaml --scenario " + kSource +
         "/scenarios/default.yaml " + options;
}

}  // namespace

TEST_CASE("mtsim train runs the small MLP on the default scenario with ring and multitree") {
  const mt::test::CliResult r = mt::test::mtsim(train("--algorithm ring --algorithm multitree"));
  INFO(r.output);
  CHECK(r.status == 0);
  // 3 layers, 3 buckets of 64KiB, 256KiB and 1MiB; compute 7000 + 14000 + 1000 cycles.
  CHECK_THAT(r.output, Catch::Contains("3 layers, 3 all-reduce buckets, 1376256 gradient bytes"));
  CHECK_THAT(r.output, Catch::Contains("model: concurrent"));
  CHECK_THAT(r.output, Catch::Contains("exposed_cycles: iteration - compute"));
  CHECK_THAT(r.output,
             Catch::Contains("ring") && Catch::Contains("multitree") && Catch::Contains("22000"));
  CHECK(mt::test::mtsim("train " + kSource + "/scenarios/workloads/mlp_small.yaml").status == 2);
  const mt::test::CliResult help = mt::test::mtsim("train --help");
  CHECK(help.status == 0);
  CHECK_THAT(help.output, Catch::Contains("mtsim train WORKLOAD.yaml"));
  CHECK(mt::test::mtsim(train("--launch-cycles -5")).status == 2);
  // A mistyped --algorithm is named as the user typed it.
  const mt::test::CliResult typo = mt::test::mtsim(train("-a multitre"));
  CHECK(typo.status == 2);
  CHECK_THAT(typo.output, Catch::Contains("--algorithm multitre: unknown algorithm (known: ring,"));
  // So is one the topology cannot take, and the builder's name is said once.
  const mt::test::CliResult mesh = mt::test::mtsim(train("-a swing --set topology=mesh:4x4"));
  CHECK(mesh.status == 2);
  CHECK_THAT(mesh.output, Catch::Contains("mtsim: --algorithm swing: collective.algorithms: "
                                          "swing: topology mesh:4x4 is not a ring or torus"));
  // Keys train does not take from the scenario are refused, not ignored.
  const mt::test::CliResult sizes = mt::test::mtsim(train("--set collective.sizes=[4KiB]"));
  CHECK(sizes.status == 2);
  CHECK_THAT(sizes.output, Catch::Contains("--set collective.sizes=[4KiB]: train takes its "
                                           "all-reduce sizes from the workload's buckets"));
  const mt::test::CliResult both =
      mt::test::mtsim(train("-a ring --set collective.algorithms=[multitree]"));
  CHECK(both.status == 2);
  CHECK_THAT(both.output, Catch::Contains("the algorithms are given by --algorithm"));
}

TEST_CASE("mtsim train --serialised queues stand-alone ring all-reduces in issue order") {
  const std::string json = mt::test::scratch("serialised.json");
  const mt::test::CliResult r = mt::test::mtsim(train("-a ring --serialised --json " + json));
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("model: serialised"));
  // fc3 9000..21750; fc2 21750..58980; fc1 58980..194130; optimizer to 195130.
  const auto j = nlohmann::json::parse(mt::test::read_file(json));
  // The network and the workload's sizing are in the file.
  CHECK(j["topology"] == "torus:4x4");
  CHECK(j["nodes"] == 16);
  CHECK(j["dtype_bytes"] == 4);
  CHECK(j["bucket_bytes"] == 0);
  const auto& run = j["runs"][0];
  CHECK(run["buckets"][0]["end_cycle"] == 21750);
  CHECK(run["buckets"][1]["start_cycle"] == 21750);
  CHECK(run["buckets"][1]["end_cycle"] == 58980);
  CHECK(run["buckets"][2]["allreduce_cycles"] == 135150);
  CHECK(run["iteration_cycles"] == 195130);
  CHECK(run["exposed_comm_cycles"] == 195130 - 22000);
}

TEST_CASE("mtsim train concurrent: far-apart releases give stand-alone times, close ones share") {
  // A launch cost of 200000 cycles per all-reduce, one launch at a time: released at 209000,
  // 409000 and 609000, each alone on the network: ends 221750, 446230, 744150; optimizer to
  // 745150.
  const std::string far = mt::test::scratch("far.json");
  mt::test::CliResult r = mt::test::mtsim(train("-a ring --launch-cycles 200000 --json " + far));
  INFO(r.output);
  REQUIRE(r.status == 0);
  auto j = nlohmann::json::parse(mt::test::read_file(far));
  CHECK(j["launch_cycles"] == 200000);
  const auto& run = j["runs"][0];
  CHECK(run["data_mode"] == "full");
  CHECK(run["buckets"][0]["release_cycle"] == 209000);
  CHECK(run["buckets"][1]["release_cycle"] == 409000);
  CHECK(run["buckets"][2]["release_cycle"] == 609000);
  CHECK(run["buckets"][0]["end_cycle"] == 221750);
  CHECK(run["buckets"][1]["end_cycle"] == 446230);
  CHECK(run["buckets"][2]["end_cycle"] == 744150);
  CHECK(run["iteration_cycles"] == 745150);
  // No launch cost: fc2 (released at 13000) shares the ring's links with fc3 (9000..): fc3 takes
  // longer than alone, and the iteration ends at the last all-reduce plus the optimizer.
  const std::string close = mt::test::scratch("close.json");
  r = mt::test::mtsim(train("-a ring --json " + close));
  REQUIRE(r.status == 0);
  j = nlohmann::json::parse(mt::test::read_file(close));
  const auto& shared = j["runs"][0];
  CHECK(shared["buckets"][0]["start_cycle"] == 9000);
  CHECK(shared["buckets"][0]["allreduce_cycles"].get<long long>() > 12750);
  std::uint64_t last = 0;
  for (const auto& b : shared["buckets"])
    last = std::max(last, b["end_cycle"].get<std::uint64_t>());
  CHECK(shared["iteration_cycles"] == last + 1000);
}

TEST_CASE("mtsim train names the schedule auto built for each bucket") {
  const std::string json = mt::test::scratch("train_auto.json");
  const mt::test::CliResult r = mt::test::mtsim(train("--algorithm auto --json " + json));
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("auto ran: auto:"));
  const nlohmann::json run = mt::test::read_json(json)["runs"][0];
  REQUIRE(run["buckets"].size() == 3);
  // Each bucket's schedule is the one `mtsim schedule -a auto` picks for that size.
  for (const auto& bucket : run["buckets"]) {
    const std::string bytes = std::to_string(bucket["simulated_bytes"].get<long long>());
    const mt::test::CliResult pick =
        mt::test::mtsim("schedule --topology torus:4x4 --algorithm auto --bytes " + bytes);
    REQUIRE(pick.status == 0);
    const std::string name = bucket["schedule"].get<std::string>();
    CHECK_THAT(pick.output, Catch::StartsWith("schedule " + name + " on torus:4x4"));
  }
}

TEST_CASE("mtsim train widens its table's columns for iterations of 10^14 cycles and more") {
  const std::string workload = mt::test::scratch("long_layer.yaml");
  mt::test::write_file(workload,
                       "name: long_layer\ndtype: fp32\noptimizer_cycles: 1000\nbucket_bytes: 0\n"
                       "layers:\n  - {name: fc, params: 1024, backprop_cycles: 100000000000000, "
                       "forward_cycles: 100000000000000}\n");
  const mt::test::CliResult r = mt::test::mtsim("train " + workload + " --scenario " + kSource +
                                                "/scenarios/default.yaml -a ring");
  INFO(r.output);
  REQUIRE(r.status == 0);
  std::string header, row;
  std::istringstream lines(r.output);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("algorithm ", 0) == 0) header = line;
    if (line.rfind("ring ", 0) == 0) row = line;
  }
  // 2 x 10^14 compute cycles, the optimizer's 1000 and the exposed all-reduce: 15 digits, one
  // more than the column's usual 14; every column still ends where its header does.
  std::istringstream cells(row);
  std::string name, iteration;
  cells >> name >> iteration;
  CHECK(iteration.size() == 15);
  CHECK(iteration.rfind("2000000000", 0) == 0);
  CHECK(header.size() == row.size());
  const std::size_t header_end = header.find("iter_cycles") + std::string("iter_cycles").size();
  CHECK(row.find(iteration) + iteration.size() == header_end);
}

TEST_CASE("mtsim train -a takes a schedule with parameters as results name it") {
  const mt::test::CliResult bad =
      mt::test::mtsim(train("-a ring -a 'dbtree(pipeline=2)' -a 'bogus(x=1)'"));
  CHECK(bad.status == 2);
  CHECK_THAT(bad.output, Catch::Contains("--algorithm bogus(x=1): unknown algorithm"));
  const mt::test::CliResult ok = mt::test::mtsim(train("-a ring -a 'dbtree(pipeline=2)'"));
  INFO(ok.output);
  CHECK(ok.status == 0);
  CHECK_THAT(ok.output, Catch::Contains("\ndbtree(pipeline=2) "));
}
