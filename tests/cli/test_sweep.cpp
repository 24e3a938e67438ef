// `mtsim sweep` runs: points in their own processes, result files, refusals, resume,
// Slurm job arrays and their merge, and a smoke test of scripts/plot.py on sweep results.

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "model/config/scenario_loader.h"
#include "model/config/sweep_loader.h"
#include "model/run/sweep.h"
#include "tests/support/cli_runner.h"

namespace {

using mt::test::CliResult;
using mt::test::exists;
using mt::test::kSource;
using mt::test::mtsim;
using mt::test::read_file;
using mt::test::read_json;
using mt::test::run_shell;
using mt::test::scratch_dir;
using mt::test::write_file;

const std::string kDefaultScenario = kSource + "/scenarios/default.yaml";

// The tiny sweep of these tests: 2 topologies x 2 algorithms x 2 sizes = 8 points.
const char* const kTinySweep =
    "name: tiny\n"
    "scenario: SCENARIO\n"
    "set:\n"
    "  collective.verify_data: true\n"
    "axes:\n"
    "  - key: topology\n"
    "    values: [ring:4, ring:8]\n"
    "  - key: collective.algorithms\n"
    "    values: [ring, {name: dbtree, label: dbt}]\n"
    "  - key: collective.sizes\n"
    "    values: [4KiB, 16KiB]\n";

std::string with_scenario(const std::string& text) {
  std::string out = text;
  out.replace(out.find("SCENARIO"), 8, kDefaultScenario);
  return out;
}

// A scratch folder `name` holding tiny.yaml (kTinySweep) and its finished sweep in out/.
std::string finished_tiny_sweep(const std::string& name) {
  const std::string dir = scratch_dir(name);
  write_file(dir + "/tiny.yaml", with_scenario(kTinySweep));
  REQUIRE(mtsim("sweep " + dir + "/tiny.yaml -j 2 --out " + dir + "/out").status == 0);
  return dir;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

// Splits one CSV line (fields with quotes hold "" for a quote).
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

// The CSV as rows of column name -> value.
std::vector<std::map<std::string, std::string>> read_csv(const std::string& path) {
  const auto lines = lines_of(read_file(path));
  REQUIRE_FALSE(lines.empty());
  const auto header = csv_fields(lines[0]);
  std::vector<std::map<std::string, std::string>> rows;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const auto fields = csv_fields(lines[i]);
    REQUIRE(fields.size() == header.size());
    std::map<std::string, std::string> row;
    for (std::size_t c = 0; c < header.size(); ++c) row[header[c]] = fields[c];
    rows.push_back(row);
  }
  return rows;
}

// The point key of the tiny sweep's point (topology, algorithm value, size).
std::string tiny_key(const std::string& topology, const std::string& algorithm,
                     const std::string& size) {
  return "topology=" + topology + "; collective.algorithms=" + algorithm +
         "; collective.sizes=" + size;
}

// Expected point order: the last axis varies fastest.
std::vector<std::string> tiny_keys() {
  std::vector<std::string> keys;
  for (const char* t : {"ring:4", "ring:8"})
    for (const char* a : {"ring", "[{name: dbtree, label: dbt}]"})
      for (const char* s : {"4KiB", "16KiB"}) keys.push_back(tiny_key(t, a, s));
  return keys;
}

// Checks a finished tiny sweep's result files: every point exactly once, with its own values.
void check_tiny_results(const std::string& dir) {
  const std::vector<std::string> keys = tiny_keys();
  const auto rows = read_csv(dir + "/results.csv");
  REQUIRE(rows.size() == 8);
  std::set<std::string> seen;
  std::map<std::string, std::uint64_t> csv_completion;  // point_key -> completion_cycles
  for (const auto& row : rows) {
    const int point = std::stoi(row.at("point"));
    REQUIRE(point >= 0);
    REQUIRE(point < 8);
    CHECK(row.at("point_key") == keys[static_cast<std::size_t>(point)]);
    CHECK(seen.insert(row.at("point_key")).second);
    CHECK(row.at("exit_status") == "0");
    CHECK(row.at("passed") == "true");
    const bool eight = point >= 4;
    const bool dbtree = point % 4 >= 2;
    const bool big = point % 2 == 1;
    CHECK(row.at("axis.topology") == (eight ? "ring:8" : "ring:4"));
    CHECK(row.at("axis.collective.sizes") == (big ? "16KiB" : "4KiB"));
    CHECK(row.at("topology") == row.at("axis.topology"));
    CHECK(row.at("algorithm") == (dbtree ? "dbt" : "ring"));
    CHECK(row.at("nodes") == (eight ? "8" : "4"));
    CHECK(row.at("bytes") == (big ? "16384" : "4096"));
    CHECK(row.at("data_verified") == "true");
    CHECK(row.at("data_mode") == "full");
    // Ring all-reduce: N-1 reduce-scatter plus N-1 all-gather steps.
    if (!dbtree) CHECK(row.at("steps") == (eight ? "14" : "6"));
    csv_completion[row.at("point_key")] = std::stoull(row.at("completion_cycles"));
  }
  const nlohmann::json doc = read_json(dir + "/results.json");
  CHECK(doc.at("sweep") == "tiny");
  CHECK(doc.at("points_total") == 8);
  CHECK(doc.at("points_finished") == 8);
  CHECK(doc.at("points_failed") == 0);
  REQUIRE(doc.at("runs").size() == 8);
  for (const auto& run : doc.at("runs")) {
    // The schema of `mtsim run --json`, plus the point's fields.
    for (const char* field :
         {"scenario",      "topology",     "algorithm",         "nodes",
          "ports",         "bytes",        "completion_cycles", "clock_ghz",
          "completion_ns", "bound_cycles", "efficiency",        "estimate_cycles",
          "steps",         "messages",     "packets",           "data_verified",
          "data_mode",     "error",        "wall_seconds",      "node_finish_cycles",
          "links",         "point",        "point_key",         "axes"})
      CHECK(run.contains(field));
    CHECK(run.at("node_finish_cycles").size() == run.at("nodes").get<std::size_t>());
    // Completion is the last node's finish, the same in the CSV and the JSON.
    std::uint64_t last_finish = 0;
    for (const auto& f : run.at("node_finish_cycles"))
      last_finish = std::max(last_finish, f.get<std::uint64_t>());
    CHECK(run.at("completion_cycles").get<std::uint64_t>() == last_finish);
    CHECK(csv_completion.at(run.at("point_key").get<std::string>()) == last_finish);
    CHECK(run.at("axes").at("topology") == run.at("topology"));
  }
  CHECK(lines_of(read_file(dir + "/results.jsonl")).size() == 8);
}

}  // namespace

TEST_CASE("mtsim sweep runs every point in its own process and records one row each") {
  const std::string dir = scratch_dir("tiny");
  write_file(dir + "/tiny.yaml", with_scenario(kTinySweep));

  const CliResult help = mtsim("--help");
  CHECK_THAT(help.output, Catch::Contains("sweep SWEEP.yaml"));
  const CliResult sweep_help = mtsim("sweep --help");
  CHECK(sweep_help.status == 0);
  CHECK_THAT(sweep_help.output, Catch::Contains("mtsim sweep SWEEP.yaml") &&
                                    Catch::Contains("--resume") && Catch::Contains("--emit-slurm"));

  const CliResult listed = mtsim("sweep " + dir + "/tiny.yaml --list");
  CHECK(listed.status == 0);
  CHECK_THAT(listed.output,
             Catch::Contains("sweep tiny: 8 points") && Catch::Contains("7\t" + tiny_keys()[7]));
  CHECK_FALSE(exists(dir + "/out/results.csv"));

  const CliResult r = mtsim("sweep " + dir + "/tiny.yaml -j 2 --out " + dir + "/out");
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("running 8 with -j 2") &&
                           Catch::Contains("8 of 8 points finished, 8 passed, 0 failed"));
  // Not a terminal: one progress line per finished point.
  CHECK_THAT(r.output, Catch::Contains("[8/8] ok"));
  check_tiny_results(dir + "/out");
  // Each point ran as `mtsim run` with its overrides; its results stay in points/<i>.json.
  const nlohmann::json point5 = read_json(dir + "/out/points/5.json");
  REQUIRE(point5.at("runs").size() == 1);
  CHECK(point5.at("runs")[0].at("topology") == "ring:8");
  CHECK(point5.at("runs")[0].at("bytes") == 16384);
}

TEST_CASE("a failing point is recorded with its error and exit status and the others still run") {
  const std::string dir = scratch_dir("fail");
  // ring2d needs a 2D torus or mesh: on a ring its schedule cannot be built (exit 2 of the point).
  write_file(dir + "/fail.yaml", "scenario: " + kDefaultScenario +
                                     "\naxes:\n  - key: topology\n    values: [ring:4]\n"
                                     "  - key: collective.algorithms\n    values: [ring2d, ring]\n"
                                     "  - key: collective.sizes\n    values: [4KiB]\n");
  const CliResult r = mtsim("sweep " + dir + "/fail.yaml -j 2 --out " + dir + "/out");
  INFO(r.output);
  CHECK(r.status == 1);
  CHECK_THAT(r.output, Catch::Contains("2 of 2 points finished, 1 passed, 1 failed") &&
                           Catch::Contains("1 of 2 points failed") &&
                           Catch::Contains("FAILED point 0"));
  const auto rows = read_csv(dir + "/out/results.csv");
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].at("point") == "0");
  CHECK(rows[0].at("exit_status") == "2");
  CHECK(rows[0].at("passed") == "false");
  CHECK(rows[0].at("completion_cycles").empty());
  CHECK_THAT(rows[0].at("error"), Catch::Contains("ring2d"));
  // The error is the line the point printed, taken from its error report, not its log.
  const nlohmann::json report = read_json(dir + "/out/points/0.error.json");
  CHECK(report.at("exit_status") == 2);
  CHECK_THAT(read_file(dir + "/out/logs/0.log"),
             Catch::Contains(report.at("error").get<std::string>()));
  nlohmann::json record;  // point 0's line of results.jsonl (points finish in any order)
  for (const auto& line : lines_of(read_file(dir + "/out/results.jsonl"))) {
    const nlohmann::json j = nlohmann::json::parse(line);
    if (j.at("point") == 0) record = j;
  }
  REQUIRE(record.is_object());
  CHECK(record.at("error") == report.at("error"));
  CHECK(record.at("error_location") == report.at("location"));
  CHECK(rows[1].at("exit_status") == "0");
  CHECK(rows[1].at("algorithm") == "ring");
  const nlohmann::json doc = read_json(dir + "/out/results.json");
  CHECK(doc.at("points_failed") == 1);
  CHECK(doc.at("points")[0].at("exit_status") == 2);
  CHECK(doc.at("runs").size() == 1);
}

TEST_CASE("mtsim sweep refuses to replace an earlier sweep's results without --overwrite") {
  const std::string dir = finished_tiny_sweep("overwrite");
  const std::string out = dir + "/out";
  const std::string before = read_file(out + "/results.jsonl");
  const CliResult again = mtsim("sweep " + dir + "/tiny.yaml -j 2 --out " + out);
  CHECK(again.status == 2);
  CHECK_THAT(again.output,
             Catch::Contains(out + "/results.jsonl holds 8 recorded points of an "
                                   "earlier sweep: --resume continues it, --overwrite "
                                   "replaces it, or give another --out"));
  CHECK(read_file(out + "/results.jsonl") == before);
  CHECK(mtsim("sweep " + dir + "/tiny.yaml --overwrite --resume --out " + out).status == 2);
  const CliResult replaced = mtsim("sweep " + dir + "/tiny.yaml -j 2 --overwrite --out " + out);
  CHECK(replaced.status == 0);
  CHECK_THAT(replaced.output, Catch::Contains("replacing the results of an earlier sweep"));
  CHECK(lines_of(read_file(out + "/results.jsonl")).size() == 8);
}

TEST_CASE("a sweep folder another mtsim sweep is writing is refused before anything is touched") {
  const std::string dir = finished_tiny_sweep("locked");
  const std::string out = dir + "/out";
  const std::string before = read_file(out + "/results.jsonl");
  // This process stands for a running sweep: it holds the folder's lock.
  const int fd = ::open((out + "/.sweep.lock").c_str(), O_RDWR | O_CLOEXEC);
  REQUIRE(fd >= 0);
  REQUIRE(::flock(fd, LOCK_EX | LOCK_NB) == 0);
  for (const char* mode : {"--resume", "--overwrite", "--merge"}) {
    const CliResult r = mtsim("sweep " + dir + "/tiny.yaml " + mode + " --out " + out);
    INFO(mode);
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Catch::Contains(out +
                                         " is being written by another mtsim sweep (it "
                                         "holds " +
                                         out +
                                         "/.sweep.lock): wait for it to end, or give "
                                         "another --out"));
  }
  CHECK(read_file(out + "/results.jsonl") == before);
  ::close(fd);  // the other sweep ends: the folder is free again
  CHECK(mtsim("sweep " + dir + "/tiny.yaml --resume --out " + out).status == 0);
}

TEST_CASE("a folder whose sweep file or base scenario changed is refused by --resume and --merge") {
  const std::string dir = finished_tiny_sweep("manifest");
  const std::string out = dir + "/out";
  CHECK_THAT(read_file(out + "/sweep.manifest"), Catch::StartsWith("sweep_file_sha256 "));
  CHECK(mtsim("sweep " + dir + "/tiny.yaml --resume --out " + out).status == 0);
  // The same sweep file with another `set:` value: its old results are not this sweep's.
  std::string edited = with_scenario(kTinySweep);
  edited.replace(edited.find("verify_data: true"), 17, "verify_data: false");
  write_file(dir + "/tiny.yaml", edited);
  for (const char* mode : {"--resume", "--merge"}) {
    const CliResult r = mtsim("sweep " + dir + "/tiny.yaml " + mode + " --out " + out);
    INFO(mode);
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Catch::Contains(out +
                                         " holds the results of another sweep: the sweep "
                                         "file changed since they were written (" +
                                         out + "/sweep.manifest), so " + mode +
                                         " would mix them; restore the files, --overwrite, or "
                                         "give another --out"));
  }
  CHECK(mtsim("sweep " + dir + "/tiny.yaml --overwrite -j 2 --out " + out).status == 0);
  CHECK(mtsim("sweep " + dir + "/tiny.yaml --resume --out " + out).status == 0);
}

TEST_CASE("mtsim sweep --resume runs only the points missing from results.jsonl") {
  const std::string dir = finished_tiny_sweep("resume");
  const std::string out = dir + "/out";
  const auto records = lines_of(read_file(out + "/results.jsonl"));
  REQUIRE(records.size() == 8);

  // An interrupted sweep: three points recorded, the fourth record cut short mid-write.
  std::map<std::string, std::string> by_key;
  for (const auto& line : records)
    by_key[nlohmann::json::parse(line).at("key").get<std::string>()] = line;
  const auto keys = tiny_keys();
  write_file(out + "/results.jsonl", by_key[keys[0]] + "\n" + by_key[keys[5]] + "\n" +
                                         by_key[keys[6]] + "\n" + by_key[keys[2]].substr(0, 40));
  for (int i = 0; i < 8; ++i) std::remove((out + "/points/" + std::to_string(i) + ".json").c_str());

  const CliResult r = mtsim("sweep " + dir + "/tiny.yaml -j 2 --resume --out " + out);
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("skipping 3 finished points") &&
                           Catch::Contains("running 5 with -j 2") &&
                           Catch::Contains("8 of 8 points finished, 8 passed, 0 failed"));
  // Only the missing points ran again.
  for (int i = 0; i < 8; ++i) {
    const bool skipped = i == 0 || i == 5 || i == 6;
    CHECK(exists(out + "/points/" + std::to_string(i) + ".json") == !skipped);
  }
  check_tiny_results(out);

  // Nothing left: a second resume runs nothing.
  const CliResult again = mtsim("sweep " + dir + "/tiny.yaml --resume --out " + out);
  CHECK(again.status == 0);
  CHECK_THAT(again.output, Catch::Contains("skipping 8 finished points") &&
                               Catch::Contains("running 0 with -j 1"));
  check_tiny_results(out);
}

TEST_CASE(
    "mtsim sweep --emit-slurm writes a job array of the points and --merge assembles their "
    "results") {
  const std::string dir = scratch_dir("slurm");
  write_file(dir + "/tiny.yaml", with_scenario(kTinySweep));
  const CliResult r = mtsim("sweep " + dir + "/tiny.yaml --emit-slurm -j 3 --out " + dir +
                            "/out --slurm-option=--partition=cpu");
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_FALSE(exists(dir + "/out/results.csv"));  // nothing ran
  const std::string root = run_shell("cd " + dir + "/out && pwd -P").output;
  const std::string abs = root.substr(0, root.find('\n'));
  const std::string script = read_file(dir + "/out/sweep.slurm");
  CHECK_THAT(script, Catch::StartsWith("#!/bin/bash\n"));
  CHECK_THAT(script, Catch::Contains("\n#SBATCH --array=0-7%3\n") &&
                         Catch::Contains("\n#SBATCH --output=" + abs + "/logs/%a.log\n") &&
                         Catch::Contains("\n#SBATCH --partition=cpu\n") &&
                         Catch::Contains("SLURM_ARRAY_TASK_ID") && Catch::Contains("sweep ") &&
                         Catch::Contains(" --merge --out " + abs));
  const auto commands = lines_of(read_file(dir + "/out/points.txt"));
  REQUIRE(commands.size() == 8);
  const auto keys = tiny_keys();
  for (std::size_t i = 0; i < commands.size(); ++i) {
    INFO(commands[i]);
    const std::string point = abs + "/points/" + std::to_string(i);
    CHECK_THAT(commands[i], Catch::EndsWith("'--json' '" + point + ".json' '--error-json' '" +
                                            point + ".error.json'"));
    CHECK_THAT(commands[i],
               Catch::Contains("' 'run' '" + kDefaultScenario +
                               "' '--set' 'collective.verify_data=true' '--set' 'topology=" +
                               std::string(i < 4 ? "ring:4" : "ring:8") + "'"));
    CHECK_THAT(commands[i], Catch::Contains(std::string("'collective.sizes=") +
                                            (i % 2 ? "16KiB" : "4KiB") + "'"));
  }

  // Run the array by hand (no cluster here): every task but 6, then merge.
  for (int task = 0; task < 8; ++task) {
    if (task == 6) continue;
    const std::string t = std::to_string(task);
    REQUIRE(std::system(("SLURM_ARRAY_TASK_ID=" + t + " bash " + dir + "/out/sweep.slurm > " + dir +
                         "/out/logs/" + t + ".log 2>&1")
                            .c_str()) == 0);
    CHECK(read_file(dir + "/out/points/" + t + ".status") == "0\n");
  }
  const CliResult partial = mtsim("sweep " + dir + "/tiny.yaml --merge --out " + dir + "/out");
  CHECK(partial.status == 1);
  CHECK_THAT(partial.output, Catch::Contains("7 of 8 points finished, 7 passed, 0 failed") &&
                                 Catch::Contains("1 points have no results yet"));
  CHECK(read_csv(dir + "/out/results.csv").size() == 7);
  REQUIRE(std::system(("SLURM_ARRAY_TASK_ID=6 bash " + dir + "/out/sweep.slurm > /dev/null 2>&1")
                          .c_str()) == 0);
  const CliResult merged = mtsim("sweep " + dir + "/tiny.yaml --merge --out " + dir + "/out");
  CHECK(merged.status == 0);
  CHECK_THAT(merged.output, Catch::Contains("8 of 8 points finished, 8 passed, 0 failed"));
  check_tiny_results(dir + "/out");
}

TEST_CASE("scripts/plot.py draws the sweep figures and a link heatmap as PNG and SVG") {
  std::string python;
  for (const char* candidate : {"python3", "/usr/bin/python3"})
    if (python.empty() && run_shell(std::string(candidate) + " -c 'import matplotlib'").status == 0)
      python = candidate;
  // scripts/setup.sh installs python3-matplotlib: without it the environment is broken.
  REQUIRE_FALSE(python.empty());
  const std::string dir = scratch_dir("plot");
  write_file(dir + "/plot.yaml",
             "scenario: " + kDefaultScenario +
                 "\naxes:\n  - key: topology\n    values: [torus:4x4, ring:4]\n"
                 "  - key: collective.algorithms\n    values: [ring, multitree]\n"
                 "  - key: collective.sizes\n    values: [4KiB, 8KiB]\n");
  REQUIRE(mtsim("sweep " + dir + "/plot.yaml -j 2 --out " + dir + "/out").status == 0);
  const std::string plot = python + " " + kSource + "/scripts/plot.py ";
  const CliResult r = run_shell(plot + dir + "/out --out " + dir + "/plots --heatmap " + dir +
                                "/out/results.json --run 1");
  INFO(r.output);
  REQUIRE(r.status == 0);
  for (const char* stem :
       {"allreduce_time", "algbw", "speedup", "efficiency", "link_heatmap_torus4x4_ring_8KiB"}) {
    for (const char* ext : {"png", "svg"}) {
      const std::string path = dir + "/plots/" + stem + "." + ext;
      INFO(path);
      const std::string data = read_file(path);
      CHECK(data.size() > 5000);
      if (std::string(ext) == "png")
        CHECK(data.substr(0, 8) == "\x89PNG\r\n\x1a\n");
      else
        CHECK_THAT(data, Catch::Contains("<svg"));
    }
  }
  // The CSV works too; bad input is exit 2.
  CHECK(run_shell(plot + dir + "/out/results.csv --out " + dir + "/plots_csv").status == 0);
  CHECK(exists(dir + "/plots_csv/speedup.png"));
  const CliResult bad =
      run_shell(plot + "--heatmap " + dir + "/out/results.json --run 99 --out " + dir + "/plots");
  CHECK(bad.status == 2);
  CHECK_THAT(bad.output, Catch::Contains("--run 99: ") && Catch::Contains("has 8 runs"));
  CHECK(run_shell(plot + dir + "/nothing.json").status == 2);
  // With another axis the speedup is over the ring of the same values of it, whatever the ring
  // entry's label ("ring-1port" in the paper files).
  write_file(dir + "/latency.yaml",
             "scenario: " + kDefaultScenario +
                 "\naxes:\n  - key: topology.link_latency_cycles\n    values: [10, 150]\n"
                 "  - key: collective.algorithms\n    values: [{name: ring, label: ring-1port}, "
                 "multitree]\n  - key: collective.sizes\n    values: [4KiB]\n");
  REQUIRE(mtsim("sweep " + dir + "/latency.yaml -j 2 --out " + dir + "/latency").status == 0);
  const CliResult axis = run_shell(plot + dir + "/latency --out " + dir + "/plots_latency");
  INFO(axis.output);
  CHECK(axis.status == 0);
  CHECK_THAT(axis.output, !Catch::Contains("no speedup figure"));
  CHECK(exists(dir + "/plots_latency/speedup.png"));
}
