// nic.issue / nic.flow_control auto (model/run/nic_choice.h): the rule at its threshold, and a
// point run with auto equal to the same point run with the modes it chose, to the cycle.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "model/collective/algorithm.h"
#include "model/config/scenario_loader.h"
#include "model/run/nic_choice.h"
#include "model/run/prepare.h"
#include "model/run/run_point.h"
#include "tests/support/cli_runner.h"

namespace mt {
namespace {

using test::scratch;
using test::write_file;

// The ring all-reduce on 8 nodes has 8 chunks: messages of size / 8 bytes.
Schedule ring8() {
  const Topology topology(parse_topology_spec("ring:8"));
  return build_schedule("ring", topology, {});
}

TEST_CASE("mean message bytes is the chunk a message carries, averaged over messages") {
  const Schedule ring = ring8();
  CHECK(mean_message_bytes(ring, 8192) == 1024);
  CHECK(mean_message_bytes(ring, 8160) == 1020);
  CHECK(mean_message_bytes(Schedule{}, 8192) == 0);
}

TEST_CASE("issue auto takes hardware issue from 1 KiB messages on, flow control auto message") {
  const Schedule ring = ring8();
  NicConfig nic;
  nic.issue = IssueMode::kAuto;
  nic.flow_control = FlowControl::kAuto;
  const NicChoice at_1k = choose_nic_mode(nic, ring, 8192);
  CHECK(at_1k.nic.issue == IssueMode::kHardware);
  CHECK(at_1k.nic.flow_control == FlowControl::kMessage);
  CHECK(at_1k.chosen == "hardware issue (mean message 1KiB >= 1KiB), message flow control");
  const NicChoice below = choose_nic_mode(nic, ring, 8160);
  CHECK(below.nic.issue == IssueMode::kSoftware);
  CHECK(below.chosen == "software issue (mean message 1020B < 1KiB), message flow control");
  // The co-simulated RTL scheduler must issue, whatever the message size.
  nic.scheduler = SchedulerImpl::kRtl;
  nic.flow_control = FlowControl::kPacket;
  const NicChoice rtl = choose_nic_mode(nic, ring, 64);
  CHECK(rtl.nic.issue == IssueMode::kHardware);
  CHECK(rtl.nic.flow_control == FlowControl::kPacket);
  CHECK(rtl.chosen == "hardware issue (nic.scheduler rtl)");
}

TEST_CASE("a NIC without auto keys is left as it is and nothing is reported") {
  NicConfig nic;
  nic.issue = IssueMode::kHardware;
  nic.flow_control = FlowControl::kPacket;
  const NicChoice same = choose_nic_mode(nic, ring8(), 8192);
  CHECK(same.nic.issue == IssueMode::kHardware);
  CHECK(same.nic.flow_control == FlowControl::kPacket);
  CHECK(same.chosen.empty());
}

// The point with auto (in this process) against mtsim run with the chosen modes written out.
void check_auto_equals_explicit(const std::string& size, const std::string& chosen_issue,
                                const std::string& chosen_text) {
  const std::string head =
      "topology: {kind: ring, dims: [8], link_latency_cycles: 50}\n"
      "collective: {algorithms: [ring], sizes: [" +
      size + "], dtype: int32}\n";
  const std::string auto_yaml = scratch("auto.yaml");
  write_file(auto_yaml, head + "nic: {issue: auto, flow_control: auto}\n");
  const std::string explicit_yaml = scratch("explicit.yaml");
  write_file(explicit_yaml, head + "nic: {issue: " + chosen_issue + ", flow_control: message}\n");

  const ScenarioConfig scenario = load_scenario_file(auto_yaml);
  const std::vector<PreparedAlgorithm> prepared = prepare_all(scenario);
  REQUIRE(prepared.size() == 1);
  const RunResult r = run_point(scenario, prepared[0], scenario.collective.sizes_bytes[0]);
  INFO(r.error);
  REQUIRE_FALSE(run_failed(r));
  CHECK(r.nic_choice == chosen_text);

  const std::string json = scratch("explicit.json");
  const test::CliResult cli = test::mtsim("run " + explicit_yaml + " --json " + json);
  REQUIRE(cli.status == 0);
  const nlohmann::json runs = test::read_json(json).at("runs");
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].at("completion_cycles").get<std::uint64_t>() == r.completion_cycles);
  CHECK(runs[0].at("nic_choice").get<std::string>().empty());

  // mtsim run says what auto chose under the table and in the JSON.
  const std::string auto_json = scratch("auto.json");
  const test::CliResult shown = test::mtsim("run " + auto_yaml + " --json " + auto_json);
  REQUIRE(shown.status == 0);
  CHECK_THAT(shown.output, Catch::Contains("at " + size + " ring chose " + chosen_text));
  CHECK(test::read_json(auto_json).at("runs")[0].at("nic_choice").get<std::string>() ==
        chosen_text);
}

TEST_CASE("auto NIC at 1 KiB messages runs as hardware issue with message flow control") {
  check_auto_equals_explicit("8KiB", "hardware",
                             "hardware issue (mean message 1KiB >= 1KiB), message flow control");
}

TEST_CASE("auto NIC at 512-byte messages runs as software issue with message flow control") {
  check_auto_equals_explicit("4KiB", "software",
                             "software issue (mean message 512B < 1KiB), message flow control");
}

}  // namespace
}  // namespace mt
