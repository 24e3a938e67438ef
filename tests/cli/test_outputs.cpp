// Issue 52 (class 3) at the CLI: every command writes through the one output writer. An output
// that is a link, FIFO or device, or one of the run's inputs, is refused before anything runs
// (exit 2) and left as it was; a planted PATH.tmp link is not followed; "-" is stdout where
// documented.

#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/cli_runner.h"

namespace {

namespace fs = std::filesystem;
using mt::test::CliResult;
using mt::test::mtsim;
using mt::test::read_file;
using mt::test::scratch_dir;
using mt::test::write_file;

const char* const kTwoNodeScenario =
    "topology: ring:2\ncollective: {algorithms: [ring], sizes: [1KiB]}\n";

}  // namespace

TEST_CASE("an output that is a link, a FIFO or a device is refused and left as it was") {
  const std::string dir = scratch_dir("out_kinds");
  write_file(dir + "/s.yaml", kTwoNodeScenario);
  write_file(dir + "/target", "keep");
  fs::create_symlink(dir + "/target", dir + "/link.json");
  REQUIRE(::mkfifo((dir + "/fifo.csv").c_str(), 0644) == 0);
  const CliResult link = mtsim("run " + dir + "/s.yaml --json " + dir + "/link.json");
  CHECK(link.status == 2);
  CHECK(link.output == "mtsim run: " + dir +
                           "/link.json: cannot write the results JSON: it is a symbolic link, and "
                           "mtsim writes only regular files (it never replaces or follows one)\n");
  CHECK(fs::is_symlink(dir + "/link.json"));
  CHECK(read_file(dir + "/target") == "keep");
  const CliResult fifo = mtsim("run " + dir + "/s.yaml --csv " + dir + "/fifo.csv");
  CHECK(fifo.status == 2);
  CHECK_THAT(fifo.output, Catch::Contains("fifo.csv: cannot write the results CSV: it is a FIFO"));
  CHECK(fs::is_fifo(dir + "/fifo.csv"));
  const CliResult device = mtsim("run " + dir + "/s.yaml --trace /dev/null");
  CHECK(device.status == 2);
  CHECK_THAT(device.output,
             Catch::Contains("/dev/null: cannot write the trace: it is a character device"));
}

TEST_CASE("an output that resolves to one of the run's inputs is refused") {
  const std::string dir = scratch_dir("out_inputs");
  write_file(dir + "/s.yaml", kTwoNodeScenario);
  // The scenario, by another spelling.
  const CliResult scenario = mtsim("run " + dir + "/s.yaml --csv " + dir + "/../out_inputs/s.yaml");
  CHECK(scenario.status == 2);
  CHECK_THAT(scenario.output, Catch::Contains("cannot write the results CSV: it is the input " +
                                              dir + "/s.yaml of this run"));
  CHECK(read_file(dir + "/s.yaml") == kTwoNodeScenario);
  // A schedule file the scenario names.
  REQUIRE(mt::test::run_shell(std::string(MT_MTSIM_BIN) + " schedule -t ring:2 -a ring -f json > " +
                              dir + "/ring.json")
              .status == 0);
  const std::string schedule = read_file(dir + "/ring.json");
  write_file(dir + "/f.yaml",
             "topology: ring:2\ncollective: {algorithms: [{name: file, path: ring.json}], "
             "sizes: [1KiB]}\n");
  const CliResult file = mtsim("run " + dir + "/f.yaml --json " + dir + "/ring.json");
  CHECK(file.status == 2);
  CHECK(read_file(dir + "/ring.json") == schedule);
  // mtsim import's XML and mtsim train's workload.
  const std::string xml = dir + "/ring4.xml";
  fs::copy_file(std::string(MT_SOURCE_DIR) + "/tests/data/msccl/ring4.xml", xml);
  const std::string before = read_file(xml);
  const CliResult import = mtsim("import msccl " + xml + " -o " + xml);
  CHECK(import.status == 2);
  CHECK_THAT(import.output, Catch::Contains("cannot write the schedule file: it is an input"));
  CHECK(read_file(xml) == before);
  const std::string workload = std::string(MT_SOURCE_DIR) + "/scenarios/workloads/mlp_small.yaml";
  fs::copy_file(workload, dir + "/w.yaml");
  const CliResult train =
      mtsim("train " + dir + "/w.yaml --scenario " + dir + "/s.yaml --json " + dir + "/w.yaml");
  CHECK(train.status == 2);
  CHECK(read_file(dir + "/w.yaml") == read_file(workload));
}

TEST_CASE("a planted PATH.tmp link is not followed and - writes to stdout") {
  const std::string dir = scratch_dir("out_tmp");
  write_file(dir + "/s.yaml", kTwoNodeScenario);
  write_file(dir + "/victim", "keep");
  fs::create_symlink(dir + "/victim", dir + "/r.json.tmp");
  REQUIRE(mtsim("run " + dir + "/s.yaml --json " + dir + "/r.json").status == 0);
  CHECK(read_file(dir + "/victim") == "keep");
  CHECK(nlohmann::json::parse(read_file(dir + "/r.json"))["runs"].size() == 1);
  // "-": the results on stdout, the table on stderr.
  const CliResult dash = mt::test::run_shell("{ " + std::string(MT_MTSIM_BIN) + " run " + dir +
                                             "/s.yaml --json - 2>/dev/null; }");
  CHECK(dash.status == 0);
  CHECK(nlohmann::json::parse(dash.output)["runs"][0]["completion_cycles"].get<int>() > 0);
  CHECK_FALSE(fs::exists(dir + "/-"));
  const CliResult both = mtsim("run " + dir + "/s.yaml --json - --csv -");
  CHECK(both.status == 2);
  CHECK(both.output == "mtsim run: --json and --csv name the same stdout (-)\n");
}
