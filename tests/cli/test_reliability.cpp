// Issue 52 at the CLI: what can be known before a simulation is refused before any runs
// (schedules in-order issue would stall, tables too large for the Verilated scheduler, missing
// schedule files of a sweep), and bad option values and corrupt records are named in mtsim's own
// words, never a library's; the hardware scheduler's watchdog stops a stalled run.

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

TEST_CASE("the scheduler's watchdog stops a run naming the node, cycle and entry, RTL alike") {
  // MultiTree on the 4x4 torus under hardware issue: a limit of 2 ticks of one cycle is shorter
  // than the first wait for an arrival, so the watchdog stops the run (exit 1) with the stall's
  // node, cycle and entry, the same from the C++ model and the co-simulated RTL; a limit above
  // every wait (100 ticks of 64 cycles) leaves the cycles as they are without it.
  const std::string run = "run " + mt::test::kSource +
                          "/scenarios/default.yaml --set topology=torus:4x4 --set "
                          "collective.algorithms=[multitree] --set collective.sizes=[256KiB] "
                          "--set nic.issue=hardware ";
  const std::string tight =
      "--set nic.scheduler_watchdog_ticks=2 --set nic.scheduler_watchdog_tick_cycles=1 ";
  std::string first;
  for (const char* scheduler : {"tlm", "rtl"}) {
    INFO(scheduler);
    const CliResult r = mtsim(run + tight + "--set nic.scheduler=" + scheduler);
    CHECK(r.status == 1);
    const std::size_t at = r.output.find("FAILED: node ");
    REQUIRE(at != std::string::npos);
    const std::string message = r.output.substr(at, r.output.find('\n', at) - at);
    CHECK_THAT(message,
               Catch::Contains(": the NIC scheduler flagged an error at network cycle ") &&
                   Catch::Contains(": stalled: no progress for the watchdog's limit of "
                                   "ticks while a port waited for a grant (table entry ") &&
                   Catch::EndsWith("; it halted (rtl/README.md, Errors)"));
    if (first.empty()) first = message;
    CHECK(message == first);
  }
  const std::string dir = scratch_dir("watchdog");
  REQUIRE(mtsim(run + "--json " + dir + "/off.json").status == 0);
  REQUIRE(mtsim(run +
                "--set nic.scheduler_watchdog_ticks=100 --set "
                "nic.scheduler_watchdog_tick_cycles=64 --json " +
                dir + "/on.json")
              .status == 0);
  CHECK(read_json(dir + "/on.json")["runs"][0]["cycles"] ==
        read_json(dir + "/off.json")["runs"][0]["cycles"]);
}
