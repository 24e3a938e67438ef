// Property tests of sweeps interrupted at random moments (issue 52, class 4): a sweep killed
// again and again (the whole process group, as a node failure or Ctrl-C does, or the sweep alone,
// orphaning its running points) and resumed, and a Slurm-style run whose point processes are
// killed and rerun, then merged, must end with every point recorded exactly once, under its own
// key, with the results an uninterrupted sweep gives. The kill times come from a fixed seed, so a
// failure replays.

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/cli_runner.h"

namespace {

using mt::test::exists;
using mt::test::kSource;
using mt::test::mtsim;
using mt::test::read_file;
using mt::test::run_shell;
using mt::test::scratch_dir;
using mt::test::write_file;

// 3 topologies x 2 algorithms x 3 sizes = 18 points of about 0.1 s each.
std::string interrupt_sweep() {
  return "name: interrupted\n"
         "scenario: " +
         kSource +
         "/scenarios/default.yaml\n"
         "set:\n"
         "  collective.verify_data: true\n"
         "axes:\n"
         "  - key: topology\n"
         "    values: [ring:4, ring:8, torus:2x4]\n"
         "  - key: collective.algorithms\n"
         "    values: [ring, {name: dbtree, label: dbt}]\n"
         "  - key: collective.sizes\n"
         "    values: [4KiB, 16KiB, 64KiB]\n";
}

constexpr std::size_t kPoints = 18;

// Whether a results.jsonl may end in a record whose write a kill cut short. Linux can end a write
// to a file early (between pages) when the writer gets SIGKILL, so a sweep killed while appending
// can leave part of a line (CI saw one cut at column 496); `--resume` ignores such a last line
// (read_sweep_records) and rewrites the file without it before appending, so only a file read right
// after a kill may hold one.
enum class LastLine { kComplete, kMayBeCut };

// Point key -> "label@bytes=cycles;..." of its runs, from a results.jsonl; every key once.
std::map<std::string, std::string> records(const std::string& jsonl,
                                           LastLine last = LastLine::kComplete) {
  std::map<std::string, std::string> by_key;
  std::vector<std::string> lines;
  {
    std::istringstream in(read_file(jsonl));
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) lines.push_back(line);
  }
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const bool may_be_cut = last == LastLine::kMayBeCut && i + 1 == lines.size();
    const nlohmann::json r = nlohmann::json::parse(lines[i], nullptr, !may_be_cut);
    if (r.is_discarded()) break;  // the cut last line: a later --resume drops it
    std::string runs;
    for (const auto& run : r.at("runs")) {
      runs += run.at("algorithm").get<std::string>() + "@" +
              std::to_string(run.at("bytes").get<long>()) + "=" +
              std::to_string(run.at("completion_cycles").get<long>()) + ";";
    }
    const std::string key = r.at("key").get<std::string>();
    INFO(jsonl << ": point key recorded twice: " << key);
    REQUIRE(by_key.count(key) == 0);
    by_key[key] = runs;
  }
  return by_key;
}

// A scratch folder `name` holding the sweep file and the records of its uninterrupted run.
struct Reference {
  std::string dir;
  std::string sweep;
  std::map<std::string, std::string> records;
};

Reference reference_sweep(const std::string& name) {
  Reference r;
  r.dir = scratch_dir(name);
  r.sweep = r.dir + "/interrupted.yaml";
  write_file(r.sweep, interrupt_sweep());
  REQUIRE(mtsim("sweep " + r.sweep + " -j 2 --out " + r.dir + "/reference").status == 0);
  r.records = records(r.dir + "/reference/results.jsonl");
  REQUIRE(r.records.size() == kPoints);
  return r;
}

// Runs `command` in its own process group and kills it after `ms` milliseconds: the whole
// group, or the command's own process alone (its children orphaned).
void run_and_kill(const std::string& command, int ms, bool whole_group) {
  std::ostringstream s;
  s << "bash -c 'set -m; " << command << " >/dev/null 2>&1 & sleep " << ms / 1000.0
    << "; kill -KILL " << (whole_group ? "-- -$!" : "$!") << " 2>/dev/null; wait; sleep 0.3'";
  run_shell(s.str());
}

TEST_CASE(
    "a sweep killed at random moments and resumed records every point once, as an "
    "uninterrupted run",
    "[cli][sweep][interrupt]") {
  const Reference ref = reference_sweep("sweep_interrupt");
  const std::string& sweep = ref.sweep;
  const auto& reference = ref.records;

  std::mt19937 rng(20261204);
  for (int trial = 0; trial < 3; ++trial) {
    const std::string out = ref.dir + "/trial" + std::to_string(trial);
    for (int round = 0; round < 5; ++round) {
      const int ms = std::uniform_int_distribution<int>(30, 500)(rng);
      run_and_kill(std::string(MT_MTSIM_BIN) + " sweep " + sweep + " -j 2 --resume --out " + out,
                   ms, round % 2 == 0);
      // Whatever was recorded so far is right: no key twice, each with its own results.
      if (exists(out + "/results.jsonl")) {
        for (const auto& [key, runs] : records(out + "/results.jsonl", LastLine::kMayBeCut)) {
          INFO("trial " << trial << " round " << round << ": " << key);
          REQUIRE(reference.count(key) == 1);
          CHECK(runs == reference.at(key));
        }
      }
    }
    const auto finish = mtsim("sweep " + sweep + " -j 2 --resume --out " + out);
    INFO(finish.output);
    REQUIRE(finish.status == 0);
    CHECK(records(out + "/results.jsonl") == reference);
  }
}

TEST_CASE(
    "a Slurm-style sweep whose point processes are killed and rerun merges to the "
    "uninterrupted results",
    "[cli][sweep][interrupt]") {
  const Reference ref = reference_sweep("sweep_interrupt_merge");
  const std::string& sweep = ref.sweep;
  const auto& reference = ref.records;
  const std::string out = ref.dir + "/array";
  REQUIRE(mtsim("sweep " + sweep + " --emit-slurm --out " + out).status == 0);
  std::vector<std::string> commands;
  {
    std::istringstream in(read_file(out + "/points.txt"));
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) commands.push_back(line);
  }
  REQUIRE(commands.size() == kPoints);

  std::mt19937 rng(4);
  // Every task once, a third of them killed early; merge; rerun the tasks with no result.
  for (std::size_t i = 0; i < commands.size(); ++i) {
    if (std::uniform_int_distribution<int>(0, 2)(rng) == 0) {
      run_and_kill(commands[i], std::uniform_int_distribution<int>(0, 60)(rng), true);
    } else {
      REQUIRE(run_shell(commands[i]).status == 0);
    }
  }
  const auto partial = mtsim("sweep " + sweep + " --merge --out " + out);
  if (exists(out + "/results.jsonl")) {
    for (const auto& [key, runs] : records(out + "/results.jsonl")) {
      INFO(key);
      REQUIRE(reference.count(key) == 1);
      CHECK(runs == reference.at(key));
    }
  }
  for (std::size_t i = 0; i < commands.size(); ++i) {
    if (!exists(out + "/points/" + std::to_string(i) + ".json"))
      REQUIRE(run_shell(commands[i]).status == 0);
  }
  const auto merged = mtsim("sweep " + sweep + " --merge --out " + out);
  INFO(partial.output << merged.output);
  REQUIRE(merged.status == 0);
  CHECK(records(out + "/results.jsonl") == reference);
}

}  // namespace
