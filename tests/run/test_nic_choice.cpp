// nic.issue / nic.flow_control auto (model/run/nic_choice.h): the rule at its threshold, and a
// point run with auto equal to the same point run with the modes it chose, to the cycle.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "model/config/scenario_loader.h"
#include "model/run/nic_choice.h"
#include "model/run/prepare.h"
#include "model/run/run_point.h"
#include "tests/support/cli_runner.h"

namespace mt {
namespace {

using test::scratch;
using test::write_file;

TEST_CASE("issue auto takes hardware issue once the host is slower than the scheduler") {
  NicConfig nic;
  nic.issue = IssueMode::kAuto;
  nic.flow_control = FlowControl::kAuto;
  nic.decision_latency_cycles = 2;
  nic.software_issue_cycles = 2;
  const NicChoice equal = choose_nic_mode(nic);
  CHECK(equal.nic.issue == IssueMode::kSoftware);
  CHECK(equal.nic.flow_control == FlowControl::kMessage);
  CHECK(equal.chosen ==
        "software issue (host 2 cycles per message <= scheduler 2), message flow control");
  nic.software_issue_cycles = 3;
  const NicChoice slower = choose_nic_mode(nic);
  CHECK(slower.nic.issue == IssueMode::kHardware);
  CHECK(slower.chosen ==
        "hardware issue (host 3 cycles per message > scheduler 2), message flow control");
  // The co-simulated RTL scheduler must issue, however fast the host.
  nic.software_issue_cycles = 0;
  nic.scheduler = SchedulerImpl::kRtl;
  nic.flow_control = FlowControl::kPacket;
  const NicChoice rtl = choose_nic_mode(nic);
  CHECK(rtl.nic.issue == IssueMode::kHardware);
  CHECK(rtl.nic.flow_control == FlowControl::kPacket);
  CHECK(rtl.chosen == "hardware issue (nic.scheduler rtl)");
}

TEST_CASE("a NIC without auto keys is left as it is and nothing is reported") {
  NicConfig nic;
  nic.issue = IssueMode::kHardware;
  nic.flow_control = FlowControl::kPacket;
  const NicChoice same = choose_nic_mode(nic);
  CHECK(same.nic.issue == IssueMode::kHardware);
  CHECK(same.nic.flow_control == FlowControl::kPacket);
  CHECK(same.chosen.empty());
}

TEST_CASE("tree_packing is sized for the flow control its run's NIC uses") {
  // 4x4 mesh, 8 trees, 1 MiB: 4 KiB messages (32 per tree) under packet flow control and on the
  // hardware scheduler (its counters bound the messages), sqrt(128 KiB / 8) = 128 per tree under
  // message flow control issued by the host; auto runs as message flow control, software issue.
  const std::string yaml = scratch("sized.yaml");
  write_file(
      yaml,
      "topology: mesh:4x4\n"
      "collective:\n"
      "  sizes: [1MiB]\n"
      "  algorithms:\n"
      "    - {name: tree_packing, label: packet}\n"
      "    - {name: tree_packing, label: message, nic: {flow_control: message}}\n"
      "    - {name: tree_packing, label: auto, nic: {flow_control: auto, issue: auto}}\n"
      "    - {name: tree_packing, label: hw, nic: {flow_control: message, issue: hardware}}\n");
  const std::vector<PreparedAlgorithm> prepared = prepare_all(load_scenario_file(yaml));
  REQUIRE(prepared.size() == 4);
  CHECK(prepared[0].schedule.num_chunks == 8 * 32);
  CHECK(prepared[1].schedule.num_chunks == 8 * 128);
  CHECK(prepared[2].schedule.num_chunks == 8 * 128);
  CHECK(prepared[3].schedule.num_chunks == 8 * 32);
}

// The 8-node ring at 8 KiB with auto (in this process) against mtsim run with the chosen modes
// written out; `host` is nic.software_issue_cycles.
void check_auto_equals_explicit(int host, const std::string& chosen_issue,
                                const std::string& chosen_text) {
  const std::string head =
      "topology: {kind: ring, dims: [8], link_latency_cycles: 50}\n"
      "collective: {algorithms: [ring], sizes: [8KiB], dtype: int32}\n"
      "nic: {software_issue_cycles: " +
      std::to_string(host) + ", ";
  const std::string auto_yaml = scratch("auto.yaml");
  write_file(auto_yaml, head + "issue: auto, flow_control: auto}\n");
  const std::string explicit_yaml = scratch("explicit.yaml");
  write_file(explicit_yaml, head + "issue: " + chosen_issue + ", flow_control: message}\n");

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
  CHECK_THAT(shown.output, Catch::Contains("at 8KiB ring chose " + chosen_text));
  CHECK(test::read_json(auto_json).at("runs")[0].at("nic_choice").get<std::string>() ==
        chosen_text);
}

TEST_CASE("auto NIC with a free host runs as software issue with message flow control") {
  check_auto_equals_explicit(
      0, "software",
      "software issue (host 0 cycles per message <= scheduler 2), message flow control");
}

TEST_CASE("auto NIC with a slow host runs as hardware issue with message flow control") {
  check_auto_equals_explicit(
      40, "hardware",
      "hardware issue (host 40 cycles per message > scheduler 2), message flow control");
}

TEST_CASE("a labelled auto entry names the schedule and the NIC mode it chose") {
  const std::string yaml = scratch("labelled.yaml");
  write_file(yaml,
             "topology: {kind: ring, dims: [8], link_latency_cycles: 50}\n"
             "collective: {algorithms: [{name: auto, label: pick, nic: {issue: auto}}], sizes: "
             "[8KiB], dtype: int32}\n");
  const test::CliResult shown = test::mtsim("run " + yaml);
  REQUIRE(shown.status == 0);
  CHECK_THAT(shown.output,
             Catch::Matches("(.|\\n)*\\nat 8KiB pick chose [a-z_]+(\\([^)]*\\))? on software "
                            "issue \\(host 0 cycles per message <= scheduler 2\\)\\n(.|\\n)*"));
}

}  // namespace
}  // namespace mt
