// nic.issue / nic.flow_control / nic.scheduler_table_order auto (model/run/resolve.h): the issue
// rule at its threshold, the trials of flow control and table order reduced to the fastest, and a
// point run with auto equal to the same point run with the modes it chose, to the cycle.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "model/config/scenario_loader.h"
#include "model/run/prepare.h"
#include "model/run/resolve.h"
#include "tests/support/cli_runner.h"
#include "tests/support/sim_fixtures.h"

namespace mt {
namespace {

using test::scratch;
using test::write_file;

TEST_CASE("issue auto takes hardware issue once the host is slower than the scheduler") {
  NicConfig nic;
  nic.issue = IssueChoice::kAuto;
  nic.flow_control = FlowControlChoice::kAuto;
  nic.decision_latency_cycles = 2;
  HostTiming host;
  host.message_cycles = 1;
  host.notify_cycles = 1;
  const NicChoice equal = choose_nic_mode(nic, host, FlowControl::kPacket);
  CHECK(equal.issue == IssueMode::kSoftware);
  CHECK(equal.flow_control == FlowControl::kPacket);  // the trial asked for
  CHECK(equal.flow_trial);
  CHECK(equal.chosen ==
        "software issue (host 1 cycles per message + 1 to learn of an arrival <= scheduler 2)");
  // A doorbell shared by a batch of 4 counts a quarter per message: 1 + 8 / 4 + 1 > 2.
  host.doorbell_cycles = 8;
  host.doorbell_batch = 4;
  const NicChoice slower = choose_nic_mode(nic, host, FlowControl::kMessage);
  CHECK(slower.issue == IssueMode::kHardware);
  CHECK(slower.flow_control == FlowControl::kMessage);
  CHECK(slower.chosen ==
        "hardware issue (host 3 cycles per message + 1 to learn of an arrival > scheduler 2)");
  // The co-simulated RTL scheduler must issue, however fast the host.
  nic.scheduler = SchedulerImpl::kRtl;
  nic.flow_control = FlowControlChoice::kPacket;
  const NicChoice rtl = choose_nic_mode(nic, HostTiming(), FlowControl::kMessage);
  CHECK_FALSE(rtl.flow_trial);
  CHECK(rtl.issue == IssueMode::kHardware);
  CHECK(rtl.flow_control == FlowControl::kPacket);
  CHECK(rtl.chosen == "hardware issue (nic.scheduler rtl)");
}

TEST_CASE("step order auto: on where each flow sends one chunk over link-disjoint steps") {
  // Node 0 sends two messages to node 1 over the one directed link 0 -> 1 of ring:4, steps 0 and
  // 1. As two flows of one chunk each (MultiTree's shape) step order keeps them apart; as one
  // flow of two chunks (a sub-chunk pipeline) the flow orders itself and step order is off.
  const ScenarioConfig scenario = test::base_scenario();
  NicConfig nic;
  nic.issue = IssueChoice::kHardware;
  nic.flow_control = FlowControlChoice::kMessage;
  const NicChoice choice{IssueMode::kHardware, FlowControl::kMessage, "", false};
  const Topology ring(test::topology_config("ring:4", 1));
  Schedule schedule = test::empty_schedule(4, 2);
  schedule.add(test::make_op(0, 1, 0, OpKind::kBroadcast, {}, 0));
  schedule.add(test::make_op(0, 1, 1, OpKind::kBroadcast, {}, 1));
  const auto step_order = [&] {
    return resolve(scenario, nic, HostConfig(), choice, schedule, ring).issue.scheduler.step_order;
  };
  CHECK_FALSE(step_order());  // one flow (0), chunks 0 and 1
  schedule.ops[1].flow = 1;
  schedule.num_flows = 2;
  CHECK(step_order());
  schedule.ops[1].step = 0;  // both on 0 -> 1 in step 0: the steps share a link
  CHECK_FALSE(step_order());
  nic.step_barrier = true;  // the barrier starts steps in order: always on
  CHECK(step_order());
  nic.step_barrier = false;
  nic.step_order = StepOrderChoice::kOn;
  CHECK(step_order());
  schedule.ops[1].step = 1;
  nic.step_order = StepOrderChoice::kOff;
  CHECK_FALSE(step_order());
}

TEST_CASE("a NIC without auto keys is left as it is and nothing is reported") {
  NicConfig nic;
  nic.issue = IssueChoice::kHardware;
  nic.flow_control = FlowControlChoice::kPacket;
  CHECK(flow_trials(nic) == std::vector<FlowControl>{FlowControl::kPacket});
  const NicChoice same = choose_nic_mode(nic, HostTiming(), FlowControl::kPacket);
  CHECK(same.issue == IssueMode::kHardware);
  CHECK(same.flow_control == FlowControl::kPacket);
  CHECK_FALSE(same.flow_trial);
  CHECK(same.chosen.empty());
  nic.flow_control = FlowControlChoice::kAuto;
  CHECK(flow_trials(nic) == std::vector<FlowControl>{FlowControl::kMessage, FlowControl::kPacket});
}

// Two points of one auto entry at one size (message, then packet flow control) and a point of
// another entry between them, with the given cycles (0: the trial failed).
PointResults settle(std::uint64_t message_cycles, std::uint64_t packet_cycles) {
  static AlgorithmRun auto_run;
  static AlgorithmRun other_run;
  auto_run.label = "a";
  other_run.label = "b";
  static std::vector<PreparedAlgorithm> prepared(3);
  prepared[0].run = &auto_run;
  prepared[0].choice = {IssueMode::kSoftware, FlowControl::kMessage, "software issue (why)", true};
  prepared[1].run = &other_run;
  prepared[2].run = &auto_run;
  prepared[2].choice = prepared[0].choice;
  prepared[2].choice.flow_control = FlowControl::kPacket;
  const std::vector<Point> points{{&prepared[0], 4096}, {&prepared[1], 4096}, {&prepared[2], 4096}};
  std::vector<RunResult> results(3);
  const std::uint64_t cycles[3] = {message_cycles, 777, packet_cycles};
  for (int i = 0; i < 3; ++i) {
    results[i].completion_cycles = cycles[i];
    results[i].nic_choice = prepared[i].choice.chosen;
    results[i].schedule = "s" + std::to_string(i);
    results[i].data_verified = true;
    if (cycles[i] == 0) results[i].error = "stalled";
  }
  return settle_trials(points, results);
}

TEST_CASE("flow control auto keeps the faster of its two trials and says what both took") {
  const PointResults packet_wins = settle(11013, 9338);
  REQUIRE(packet_wins.results.size() == 2);
  CHECK(packet_wins.results[0].schedule == "s2");  // the kept trial, where the first one was
  CHECK(packet_wins.points[0].first->choice.flow_control == FlowControl::kPacket);
  CHECK(packet_wins.results[0].completion_cycles == 9338);
  CHECK(packet_wins.results[0].nic_choice ==
        "software issue (why), packet flow control (tried both: 9338 cycles against 11013 with "
        "message)");
  CHECK(packet_wins.results[1].schedule == "s1");  // the other entry, untouched
  CHECK(packet_wins.results[1].nic_choice.empty());

  const PointResults tie = settle(500, 500);
  CHECK(tie.results[0].schedule == "s0");
  CHECK(tie.results[0].nic_choice ==
        "software issue (why), message flow control (tried both: 500 cycles against 500 with "
        "packet)");

  // A failed trial is what the point reports, whichever was faster.
  const PointResults failed = settle(800, 0);
  CHECK(failed.results[0].schedule == "s2");
  CHECK(failed.results[0].error == "stalled");
  CHECK(settle(0, 800).results[0].schedule == "s0");
}

TEST_CASE("table order auto tries both orders only where hardware issue may run a planned table") {
  NicConfig nic;
  nic.issue = IssueChoice::kHardware;
  nic.flow_control = FlowControlChoice::kAuto;
  nic.scheduler_table_order = TableOrder::kAuto;
  const std::vector<NicTrial> four{{FlowControl::kMessage, TableOrder::kStep},
                                   {FlowControl::kMessage, TableOrder::kPlanned},
                                   {FlowControl::kPacket, TableOrder::kStep},
                                   {FlowControl::kPacket, TableOrder::kPlanned}};
  CHECK(nic_trials(nic, HostTiming()) == four);
  const NicChoice planned = choose_nic_mode(nic, HostTiming(), four[1]);
  CHECK(planned.order_trial);
  CHECK(planned.table_order == TableOrder::kPlanned);
  nic.flow_control = FlowControlChoice::kPacket;
  const std::vector<NicTrial> two{{FlowControl::kPacket, TableOrder::kStep},
                                  {FlowControl::kPacket, TableOrder::kPlanned}};
  CHECK(nic_trials(nic, HostTiming()) == two);
  // Step order forced on, or the barrier: a planned table cannot run, step only.
  const std::vector<NicTrial> step{{FlowControl::kPacket, TableOrder::kStep}};
  nic.step_order = StepOrderChoice::kOn;
  CHECK(nic_trials(nic, HostTiming()) == step);
  CHECK_FALSE(choose_nic_mode(nic, HostTiming(), step[0]).order_trial);
  nic.step_order = StepOrderChoice::kAuto;
  nic.step_barrier = true;
  CHECK(nic_trials(nic, HostTiming()) == step);
  nic.step_barrier = false;
  // Software issue has no table; a free host under issue auto issues in software.
  nic.issue = IssueChoice::kSoftware;
  CHECK(nic_trials(nic, HostTiming()) == step);
  nic.issue = IssueChoice::kAuto;
  CHECK(nic_trials(nic, HostTiming()) == step);
  nic.scheduler_table_order = TableOrder::kPlanned;  // named: one trial, planned under hardware
  nic.issue = IssueChoice::kHardware;
  CHECK(nic_trials(nic, HostTiming()) ==
        std::vector<NicTrial>{{FlowControl::kPacket, TableOrder::kPlanned}});
}

// The four trials of an entry with flow_control and scheduler_table_order auto at one size
// (message/step, message/planned, packet/step, packet/planned), with the given cycles (0: the
// trial failed; refused: the message/planned trial was not run, for that reason).
PointResults settle_four(const std::vector<std::uint64_t>& cycles, const std::string& refused) {
  static AlgorithmRun run;
  run.label = "a";
  static std::vector<PreparedAlgorithm> prepared(4);
  const FlowControl flows[4] = {FlowControl::kMessage, FlowControl::kMessage, FlowControl::kPacket,
                                FlowControl::kPacket};
  std::vector<Point> points;
  std::vector<RunResult> results(4);
  for (std::size_t i = 0; i < 4; ++i) {
    prepared[i].run = &run;
    prepared[i].choice = {IssueMode::kHardware, flows[i], "", true};
    prepared[i].choice.table_order = i % 2 == 0 ? TableOrder::kStep : TableOrder::kPlanned;
    prepared[i].choice.order_trial = true;
    points.emplace_back(&prepared[i], 4096);
    results[i].completion_cycles = cycles[i];
    results[i].schedule = "s" + std::to_string(i);
    results[i].data_verified = true;
    if (cycles[i] == 0) results[i].error = "stalled";
  }
  if (!refused.empty()) {
    results[1] = RunResult();
    results[1].trial_refused = refused;
  }
  return settle_trials(points, results);
}

TEST_CASE("table order auto keeps the fastest trial, a refused planned table never") {
  const PointResults planned = settle_four({3000, 2800, 2900, 2950}, "");
  REQUIRE(planned.results.size() == 1);
  CHECK(planned.results[0].schedule == "s1");
  CHECK(planned.results[0].nic_choice ==
        "message flow control (tried both: 2800 cycles against 2900 with packet), planned table "
        "order (tried both: 2800 cycles against 3000 with step)");
  // A tie keeps step order (the first trial).
  CHECK(settle_four({2800, 2800, 2900, 2900}, "").results[0].schedule == "s0");
  // The planned trial refused: the best of the rest, its reason said.
  const PointResults refused = settle_four({3000, 1, 3100, 2950}, "its tables need 300 counters");
  CHECK(refused.results[0].schedule == "s3");
  CHECK(refused.results[0].nic_choice ==
        "packet flow control (tried both: 2950 cycles against 3000 with message), planned table "
        "order (tried both: 2950 cycles against 3100 with step)");
  const PointResults step_kept = settle_four({2000, 1, 3100, 2950}, "its tables need 300 counters");
  CHECK(step_kept.results[0].schedule == "s0");
  CHECK(step_kept.results[0].nic_choice ==
        "message flow control (tried both: 2000 cycles against 2950 with packet), step table "
        "order (planned: its tables need 300 counters)");
  // A failed trial is reported, whichever was fastest.
  CHECK(settle_four({3000, 2800, 0, 2950}, "").results[0].error == "stalled");
}

TEST_CASE("auto ranks its candidates with its own entry's NIC, not the scenario's") {
  // 64-byte packets with 1 KiB heads: the head dominates, so auto's choice at 64 KiB differs
  // from the default NIC's. Set for the scenario or on the entry, it is the same NIC and the
  // same choice.
  const std::string nic = "{packet_bytes: 64, head_flit_bytes: 1024}";
  const std::string common = "topology: torus:4x4\nrouter: {buffer_flits: 2000}\n";
  const std::string sizes = "  sizes: [64KiB]\n";
  const std::string scenario_wide = scratch("auto_scenario_nic.yaml");
  write_file(scenario_wide,
             common + "nic: " + nic + "\ncollective:\n  algorithms: [auto]\n" + sizes);
  const std::string on_entry = scratch("auto_entry_nic.yaml");
  write_file(on_entry,
             common + "collective:\n  algorithms: [{name: auto, nic: " + nic + "}]\n" + sizes);
  const std::string plain = scratch("auto_default_nic.yaml");
  write_file(plain, common + "collective:\n  algorithms: [auto]\n" + sizes);
  const auto chosen = [](const std::string& file) {
    const std::vector<PreparedAlgorithm> prepared = prepare_all(load_scenario_file(file));
    REQUIRE(prepared.size() == 1);
    return prepared[0].schedule.algorithm;
  };
  const std::string wide = chosen(scenario_wide);
  CHECK(wide != chosen(plain));
  CHECK(chosen(on_entry) == wide);
}

TEST_CASE("a point carries its entry's typed parameters, read once") {
  const std::string yaml = scratch("typed.yaml");
  write_file(yaml,
             "topology: mesh:4x4\n"
             "collective:\n"
             "  sizes: [64KiB, 1MiB]\n"
             "  algorithms:\n"
             "    - \"dbtree(pipeline=2,steps=colored)\"\n"
             "    - {name: tree_packing, params: {trees: 4}}\n");
  const std::vector<PreparedAlgorithm> prepared = prepare_all(load_scenario_file(yaml));
  REQUIRE(prepared.size() == 3);  // tree_packing sizes its pipeline: one schedule per size
  REQUIRE(prepared[0].config.algorithm.has_value());
  const auto& dbtree = std::get<DbtreeParams>(*prepared[0].config.algorithm);
  CHECK(dbtree.pipeline == 2);
  CHECK(dbtree.steps == DbtreeSteps::kColored);
  CHECK(dbtree.phases == DbtreePhases::kOverlapped);
  CHECK(prepared[0].schedule.num_chunks == 2 * 2);
  for (int i : {1, 2}) {
    const auto& packing = std::get<TreePackingParams>(*prepared[i].config.algorithm);
    CHECK(packing.trees == 4);
    CHECK_FALSE(packing.pipeline.has_value());  // computed per size, not written back
  }
  CHECK(prepared[1].only_bytes == 64u << 10);
  CHECK(prepared[2].schedule.num_chunks > prepared[1].schedule.num_chunks);
}

TEST_CASE("a scenario's schedules are budgeted together, by the model that runs them") {
  const std::size_t memory = static_cast<std::size_t>(sysconf(_SC_PHYS_PAGES)) *
                             static_cast<std::size_t>(sysconf(_SC_PAGE_SIZE));
  const std::string yaml = scratch("budget.yaml");
  write_file(yaml,
             "topology: torus:4x4\n"
             "collective:\n"
             "  sizes: [64KiB]\n"
             "  algorithms: [ring, multitree]\n");
  std::vector<PreparedAlgorithm> prepared = prepare_all(load_scenario_file(yaml));
  REQUIRE(prepared.size() == 2);
  const std::size_t held = prepared[0].schedule.ops.size() + prepared[1].schedule.ops.size();
  CHECK(held == 2 * (2 * 16 * 15));  // each: a reduce and a broadcast per node, chunk and hop
  CHECK(default_message_limit() == memory / 2048 - held);
  prepared = prepare_all(load_scenario_file(yaml, {"granularity=message"}));
  CHECK(default_message_limit() == memory / 512 - held);  // counted afresh, not added to
  prepared = prepare_all(load_scenario_file(yaml));       // the packet model's budget again
  CHECK(default_message_limit() == memory / 2048 - held);
}

TEST_CASE("tree_packing is sized for the flow control its run's NIC uses") {
  // 4x4 mesh, 8 trees of height 4, 1 MiB: 4 KiB messages (32 per tree) under packet flow control
  // and on the hardware scheduler (its windows stall on short ones, tree_packing.h), sqrt(128 KiB x
  // 4 / 32) = 128 per tree under message flow control issued by the host; auto tries both. On the
  // hardware scheduler the reduces wait a window of sub-chunks behind the broadcasts (its
  // counters are reused every window): 1.5 x 8 hops x (150 + 1 + 256 cycles of a 4 KiB message)
  // / (40960 bound cycles / 32 sub-chunks) = 3.8, so 2 x 4 = 8; issued by the host they do not
  // wait.
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
  // auto is prepared for both of its flow-control trials, hw (table order auto) for its step
  // and planned tables: a planned table takes the host's short messages.
  const std::vector<PreparedAlgorithm> prepared = prepare_all(load_scenario_file(yaml));
  REQUIRE(prepared.size() == 6);
  CHECK(prepared[0].schedule.num_chunks == 8 * 32);
  CHECK(prepared[1].schedule.num_chunks == 8 * 128);
  CHECK(prepared[2].choice.flow_control == FlowControl::kMessage);
  CHECK(prepared[2].schedule.num_chunks == 8 * 128);
  CHECK(prepared[3].choice.flow_control == FlowControl::kPacket);
  CHECK(prepared[3].schedule.num_chunks == 8 * 32);
  CHECK(prepared[4].choice.table_order == TableOrder::kStep);
  CHECK(prepared[4].schedule.num_chunks == 8 * 32);
  CHECK(prepared[5].choice.table_order == TableOrder::kPlanned);
  CHECK(prepared[5].schedule.num_chunks == 8 * 128);
  // Reduces that wait for a broadcast: the window's, only on the hardware scheduler; there every
  // reduce of a sub-chunk k >= 8 waits for one (the broadcast of k - 8 into its sender).
  const auto windowed = [](const Schedule& s) {
    int n = 0;
    for (const Op& op : s.ops) {
      if (op.kind != OpKind::kReduce) continue;
      for (const int d : op.deps)
        n += s.ops[static_cast<std::size_t>(d)].kind == OpKind::kBroadcast;
    }
    return n;
  };
  CHECK(windowed(prepared[1].schedule) == 0);
  CHECK(windowed(prepared[4].schedule) == 8 * 15 * (32 - 8));
}

// Cycles of the one run of `yaml` (mtsim run), and its nic_choice.
std::pair<std::uint64_t, std::string> run_once(const std::string& yaml) {
  const std::string json = yaml + ".json";
  const test::CliResult cli = test::mtsim("run " + yaml + " --json " + json);
  INFO(cli.output);
  REQUIRE(cli.status == 0);
  const nlohmann::json runs = test::read_json(json).at("runs");
  REQUIRE(runs.size() == 1);
  return {runs[0].at("completion_cycles").get<std::uint64_t>(),
          runs[0].at("nic_choice").get<std::string>()};
}

// The 8-node ring at 8 KiB with auto against mtsim run with each flow control written out and
// the issue mode auto should choose; `host` is host.message_cycles. Auto takes the faster
// flow control's cycles and says what both took.
void check_auto_equals_explicit(int host, const std::string& chosen_issue,
                                const std::string& issue_text) {
  const std::string head =
      "topology: {kind: ring, dims: [8], link_latency_cycles: 50}\n"
      "collective: {algorithms: [ring], sizes: [8KiB], dtype: int32}\n"
      "host: {message_cycles: " +
      std::to_string(host) + "}\nnic: {scheduler_table_order: step, ";
  const std::string auto_yaml = scratch("auto.yaml");
  write_file(auto_yaml, head + "issue: auto, flow_control: auto}\n");
  const std::string message_yaml = scratch("message.yaml");
  write_file(message_yaml, head + "issue: " + chosen_issue + ", flow_control: message}\n");
  const std::string packet_yaml = scratch("packet.yaml");
  write_file(packet_yaml, head + "issue: " + chosen_issue + ", flow_control: packet}\n");

  const auto [message, message_choice] = run_once(message_yaml);
  const auto [packet, packet_choice] = run_once(packet_yaml);
  CHECK(message_choice.empty());
  CHECK(packet_choice.empty());
  const bool packet_wins = packet < message;
  const std::string chosen_text =
      issue_text + ", " + (packet_wins ? "packet" : "message") +
      " flow control (tried both: " + std::to_string(std::min(message, packet)) +
      " cycles against " + std::to_string(packet_wins ? message : packet) + " with " +
      (packet_wins ? "message" : "packet") + ")";
  const auto [chosen, choice] = run_once(auto_yaml);
  CHECK(chosen == std::min(message, packet));
  CHECK(choice == chosen_text);

  // mtsim run says what auto chose under the table.
  const test::CliResult shown = test::mtsim("run " + auto_yaml);
  REQUIRE(shown.status == 0);
  CHECK_THAT(shown.output, Catch::Contains("at 8KiB ring chose " + chosen_text));
}

TEST_CASE("auto NIC with a free host runs as software issue with the faster flow control") {
  check_auto_equals_explicit(0, "software",
                             "software issue (host 0 cycles per message + 0 to learn of an "
                             "arrival <= scheduler 2)");
}

TEST_CASE("auto NIC with a slow host runs as hardware issue with the faster flow control") {
  check_auto_equals_explicit(40, "hardware",
                             "hardware issue (host 40 cycles per message + 0 to learn of an "
                             "arrival > scheduler 2)");
}

TEST_CASE("a labelled auto entry names the schedule and the NIC mode it chose") {
  const std::string yaml = scratch("labelled.yaml");
  write_file(yaml,
             "topology: {kind: ring, dims: [8], link_latency_cycles: 50}\n"
             "collective: {algorithms: [{name: auto, label: pick, nic: {issue: auto}}], sizes: "
             "[8KiB], dtype: int32}\n");
  const test::CliResult shown = test::mtsim("run " + yaml);
  REQUIRE(shown.status == 0);
  CHECK_THAT(
      shown.output,
      Catch::Matches("(.|\\n)*\\nat 8KiB pick chose [a-z_]+(\\([^)]*\\))? on software "
                     "issue \\(host 0 cycles per message \\+ 0 to learn of an arrival <= scheduler "
                     "2\\)\\n(.|\\n)*"));
}

}  // namespace
}  // namespace mt
