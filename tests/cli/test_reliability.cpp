// Issue 52 at the CLI: what can be known before a simulation is refused before any runs
// (schedules in-order issue would stall, tables too large for the Verilated scheduler, missing
// schedule files of a sweep), and bad option values and corrupt records are named in mtsim's own
// words, never a library's.

#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/cli_runner.h"

namespace {

using mt::test::CliResult;
using mt::test::exists;
using mt::test::mtsim;
using mt::test::read_json;
using mt::test::scratch_dir;
using mt::test::write_file;

// ring:4's built-in ring as a schedule file, with `edit` applied to every message.
template <typename Edit>
std::string ring4_file(const std::string& path, Edit edit) {
  const CliResult r = mtsim("schedule -t ring:4 -a ring --format json");
  REQUIRE(r.status == 0);
  nlohmann::json j = nlohmann::json::parse(r.output);
  j.erase("analysis");
  const int steps = j["num_steps"].get<int>();
  const int messages = static_cast<int>(j["ops"].size());
  for (auto& op : j["ops"]) edit(op, steps, messages);
  write_file(path, j.dump());
  return path;
}

std::string scenario(const std::string& dir, const std::string& file, const std::string& nic) {
  const std::string path = dir + "/s.yaml";
  write_file(path, "topology: ring:4\ncollective: {algorithms: [{name: file, path: " + file +
                       "}], sizes: [4KiB]}\nnic: {" + nic + "}\n");
  return path;
}

}  // namespace

TEST_CASE(
    "a verified schedule whose steps run backwards is refused before simulating where "
    "steps issue in order") {
  // It stalled at the watchdog under hardware issue or the step barrier (software issue runs it).
  const std::string dir = scratch_dir("backwards");
  const std::string file = ring4_file(dir + "/back.json", [](nlohmann::json& op, int steps, int) {
    op["step"] = steps - 1 - op["step"].get<int>();
  });
  const CliResult verified = mtsim("verify " + file);
  CHECK(verified.status == 0);
  CHECK_THAT(
      verified.output,
      Catch::Contains("runs with nic.issue software only (no step barrier): message 4 "
                      "(node 0, step 4) waits for message 3 (node 3, step 5), a later step"));
  CHECK(mtsim("run " + scenario(dir, file, "issue: software")).status == 0);
  for (const char* nic : {"issue: hardware", "step_barrier: true"}) {
    INFO(nic);
    const CliResult r = mtsim("run " + scenario(dir, file, nic) + " --json " + dir + "/r.json");
    CHECK(r.status == 1);
    CHECK_THAT(r.output,
               Catch::Contains(
                   "(schedule file \"" + file +
                   "\"): schedule verification failed: message 4 (node 0, step 4) waits for "
                   "message 3 (node 3, step 5), a later step: where a node issues its steps in "
                   "order (nic.issue hardware, nic.step_barrier) it would wait for ever"));
    CHECK_THAT(r.output, !Catch::Contains("cycles"));  // no table: nothing was simulated
    CHECK_FALSE(exists(dir + "/r.json"));
  }
}

TEST_CASE("messages of one step listed against their waits run under hardware issue") {
  // Every message in step 0 and listed in reverse: a program-order table put, at each node, the
  // messages waiting for arrivals ahead of those causing them (watchdog under hardware issue).
  const std::string dir = scratch_dir("flat");
  const std::string file =
      ring4_file(dir + "/flat.json", [](nlohmann::json& op, int, int messages) {
        op["step"] = 0;
        op["id"] = messages - 1 - op["id"].get<int>();
        for (auto& d : op["deps"]) d = messages - 1 - d.get<int>();
      });
  nlohmann::json j = read_json(file);
  j["num_steps"] = 1;
  std::sort(j["ops"].begin(), j["ops"].end(),
            [](const nlohmann::json& a, const nlohmann::json& b) { return a["id"] < b["id"]; });
  write_file(file, j.dump());
  for (const char* nic :
       {"issue: hardware", "issue: hardware, scheduler_window: 1", "step_barrier: true"}) {
    INFO(nic);
    const CliResult r = mtsim("run " + scenario(dir, file, nic) + " --json " + dir + "/r.json");
    CHECK(r.status == 0);
    CHECK(read_json(dir + "/r.json")["runs"][0]["data_verified"] == true);
  }
}
