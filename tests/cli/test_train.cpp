// End-to-end test of `mtsim train`: a workload on a network scenario, two algorithms.

#include <catch2/catch.hpp>
#include <string>

#include "tests/support/cli_runner.h"

TEST_CASE("mtsim train runs the small MLP on the default scenario with ring and multitree") {
  const std::string src = MT_SOURCE_DIR;
  const mt::test::CliResult r =
      mt::test::mtsim("train " + src + "/scenarios/workloads/mlp_small.yaml --scenario " + src +
                      "/scenarios/default.yaml --algorithm ring --algorithm multitree");
  INFO(r.output);
  CHECK(r.status == 0);
  // 3 layers, 3 buckets of 64KiB, 256KiB and 1MiB; compute 7000 + 14000 + 1000 cycles.
  CHECK_THAT(r.output, Catch::Contains("3 layers, 3 all-reduce buckets, 1376256 gradient bytes"));
  CHECK_THAT(r.output,
             Catch::Contains("ring") && Catch::Contains("multitree") && Catch::Contains("22000"));
  CHECK(mt::test::mtsim("train " + src + "/scenarios/workloads/mlp_small.yaml").status == 2);
  const mt::test::CliResult help = mt::test::mtsim("train --help");
  CHECK(help.status == 0);
  CHECK_THAT(help.output, Catch::Contains("mtsim train WORKLOAD.yaml"));
}
