// The co-designed NIC in the system: exact one-message timing under packet and message flow
// control and under hardware issue (decision latency), data verified under hardware issue,
// inter-flow contention measured in the routers (zero for step-ordered MultiTree on a 4x4 torus,
// non-zero for the double binary tree whose two trees share links), and the per-algorithm `nic:`
// override of the scenario loader. Every TEST_CASE elaborates SystemC at most once.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "model/collective/algorithm.h"
#include "model/config/scenario_loader.h"
#include "model/sim/system.h"
#include "tests/support/sim_fixtures.h"

namespace mt {
namespace {

// One broadcast message of 1024 bytes (4 packets of 256 bytes) from node 0 to node 1 of an
// 8-node ring with 50-cycle links: one hop, no contention, no reduction.
RunResult one_message(FlowControlChoice flow_control, IssueChoice issue, int latency = 2) {
  ScenarioConfig s = test::base_scenario();
  s.nic.flow_control = flow_control;
  s.nic.issue = issue;
  s.nic.decision_latency_cycles = latency;
  return test::one_message_run(s, "ring:8", 0, 1, 1024);
}

TEST_CASE("one message under packet flow control: exact completion time", "[sim][codesign]") {
  // Every packet is 17 flits (256 + 16 header bytes) at 16 bytes/cycle: the last packet leaves 3
  // x 17 cycles after the first; the head pays 2 router pipelines and the 50-cycle wire; its tail
  // arrives 17 cycles after its head.
  const RunResult r = one_message(FlowControlChoice::kPacket, IssueChoice::kSoftware);
  INFO(r.error);
  REQUIRE(r.error.empty());
  CHECK(r.completion_cycles == 3 * 17 + 2 + 50 + 17);
  CHECK(r.packets == 4);
  CHECK(test::link_bytes(r, 0, 1) == 4 * 17 * 16);
  CHECK(r.cross_flow_waits == 0);
}

TEST_CASE("one message under message flow control: exact completion time", "[sim][codesign]") {
  // Only the first packet carries the head flit (17 flits) and is routed; the 3 body packets are
  // 16 flits each and stream behind it without router pipeline.
  const RunResult r = one_message(FlowControlChoice::kMessage, IssueChoice::kSoftware);
  INFO(r.error);
  REQUIRE(r.error.empty());
  CHECK(r.completion_cycles == 2 + 50 + 17 + 3 * 16);
  CHECK(r.packets == 4);
  CHECK(test::link_bytes(r, 0, 1) == (17 + 3 * 16) * 16);
}

TEST_CASE("one message under hardware issue: the decision latency is added once",
          "[sim][codesign]") {
  // The port's ready level presented in cycle 0 reaches the decision in cycle L - 1 = 2; the
  // registered grant is visible, and the message starts, in cycle L = 3.
  const RunResult r = one_message(FlowControlChoice::kMessage, IssueChoice::kHardware, 3);
  INFO(r.error);
  REQUIRE(r.error.empty());
  CHECK(r.completion_cycles == 3 + 2 + 50 + 17 + 3 * 16);
}

// Two broadcast messages of 1024 bytes (chunks 0 and 1 of 2048 bytes) from node 0 to node 1 of
// an 8-node ring with 50-cycle links, on one port, under packet flow control and hardware issue
// with decision latency 3.
RunResult two_messages(bool early_request) {
  ScenarioConfig s = test::base_scenario();
  s.nic.flow_control = FlowControlChoice::kPacket;
  s.nic.issue = IssueChoice::kHardware;
  s.nic.decision_latency_cycles = 3;
  s.nic.scheduler_early_request = early_request;
  s.topology = test::topology_config("ring:8", 50);
  s.collective.verify_data = false;
  const Topology topology(s.topology);
  Schedule schedule = test::empty_schedule(topology.nodes(), 2);
  schedule.add(test::make_op(0, 1, 0, OpKind::kBroadcast));
  schedule.add(test::make_op(0, 1, 1, OpKind::kBroadcast));
  return simulate(s, topology, schedule, 2048);
}

// The first message starts in cycle L = 3 (as above) and its 4 packets of 17 flits hold the port
// until 3 + 68 = 71; the second message's last packet arrives 3 x 17 + 2 + 50 + 17 = 120 cycles
// after its start.
TEST_CASE("a port requests its next message once it is free: the decision latency again",
          "[sim][codesign]") {
  // Ready presented in cycle 71, the grant visible L cycles later.
  const RunResult r = two_messages(false);
  INFO(r.error);
  REQUIRE(r.error.empty());
  CHECK(r.completion_cycles == 3 + 68 + 3 + 120);
}

TEST_CASE("an early request hides the decision latency behind the message before",
          "[sim][codesign]") {
  // Ready presented L cycles before the port frees (68), the grant visible at 71 and held by the
  // DMA: the second message starts back to back.
  const RunResult r = two_messages(true);
  INFO(r.error);
  REQUIRE(r.error.empty());
  CHECK(r.completion_cycles == 3 + 68 + 120);
  CHECK(test::link_bytes(r, 0, 1) == 8 * 17 * 16);
}

RunResult torus_run(const std::string& algorithm, IssueChoice issue, FlowControlChoice flow_control,
                    std::uint64_t bytes, int buffer_flits = 318) {
  ScenarioConfig s = test::base_scenario();
  s.router.buffer_flits = buffer_flits;
  s.topology = test::topology_config("torus:4x4", 150);
  s.topology.ports_per_node = 4;
  s.nic.issue = issue;
  s.nic.flow_control = flow_control;
  const Topology topology(s.topology);
  const Schedule schedule = build_schedule(algorithm, topology);
  return simulate(s, topology, schedule, bytes);
}

TEST_CASE("hardware issue with message flow control reproduces the verified all-reduce",
          "[sim][codesign]") {
  const RunResult r =
      torus_run("multitree", IssueChoice::kHardware, FlowControlChoice::kMessage, 64 << 10);
  INFO(r.error);
  REQUIRE(r.error.empty());
  CHECK(r.data_verified);
  CHECK(r.data_mode == DataMode::kFull);
  CHECK(r.messages == 16 * 15 * 2);  // 16 trees of 15 edges, reduce then broadcast
}

TEST_CASE("hardware issue runs the ring all-reduce with verified data", "[sim][codesign]") {
  const RunResult r =
      torus_run("ring", IssueChoice::kHardware, FlowControlChoice::kPacket, 32 << 10);
  INFO(r.error);
  REQUIRE(r.error.empty());
  CHECK(r.data_verified);
}

TEST_CASE("message flow control takes the disjoint rings past the packet-head ceiling",
          "[sim][codesign]") {
  // Packet flow control sends 272 wire bytes per 256 payload bytes, so no packet schedule beats
  // 272/256 x the bandwidth bound; with one head per message the disjoint rings (every directed
  // link carries one flow) must, on the co-designed NIC, with the data verified.
  const RunResult r =
      torus_run("disjoint_rings", IssueChoice::kHardware, FlowControlChoice::kMessage, 1 << 20);
  INFO(r.error);
  REQUIRE(r.error.empty());
  CHECK(r.data_verified);
  REQUIRE(r.bound_cycles == Approx(2.0 * 15 / 16 * (1 << 20) / (4 * 16)));  // 4 ports, 16 B/cycle
  CHECK(static_cast<double>(r.completion_cycles) * 256 < r.bound_cycles * 272);
}

TEST_CASE("step-ordered MultiTree on a 4x4 torus has no inter-tree contention", "[sim][codesign]") {
  // Message flow control keeps a whole message on one VC per hop, so one VC's buffer must cover
  // the credit round trip of a body packet (2 x 150 wire + 16 serialisation + 1 pipeline for the
  // head) plus a packet, or the stream lags its injection by a few cycles and the next step's
  // message (another tree) waits behind it at the same output: 2 x 318 flits per VC.
  const RunResult r = torus_run("multitree", IssueChoice::kHardware, FlowControlChoice::kMessage,
                                256 << 10, 2 * 318);
  INFO(r.error);
  REQUIRE(r.error.empty());
  CHECK(r.data_verified);
  CHECK(r.cross_flow_waits == 0);
}

TEST_CASE("the double binary tree's two trees contend: the counter sees it", "[sim][codesign]") {
  const RunResult r =
      torus_run("dbtree", IssueChoice::kSoftware, FlowControlChoice::kPacket, 256 << 10);
  INFO(r.error);
  REQUIRE(r.error.empty());
  CHECK(r.data_verified);
  // The measured count (software issue, packet flow control, default router): any change to the
  // arbitration, to the credit timing, to what counts as a wait or to the dbtree schedule moves it.
  CHECK(r.cross_flow_waits == 10021);
}

TEST_CASE("per-algorithm nic overrides and the step_order and decision latency keys are loaded",
          "[sim][codesign][loader]") {
  const std::string text =
      "topology: {kind: torus, dims: [4, 4]}\n"
      "nic: {issue: hardware, flow_control: message, decision_latency_cycles: 3,\n"
      "      scheduler_depth: 8, scheduler_window: 2}\n"
      "collective:\n"
      "  algorithms:\n"
      "    - {name: multitree, label: multitree-hw}\n"
      "    - {name: multitree, label: multitree-sw, nic: {issue: software, flow_control: packet}}\n"
      "    - {name: ring, label: ring-free, nic: {step_order: false}}\n";
  const ScenarioConfig s = load_scenario_text(text, "codesign.yaml");
  REQUIRE(s.collective.algorithms.size() == 3);
  const NicConfig& hw = s.collective.algorithms[0].nic;
  const NicConfig& sw = s.collective.algorithms[1].nic;
  const NicConfig& free = s.collective.algorithms[2].nic;
  CHECK(hw.issue == mt::IssueChoice::kHardware);
  CHECK(hw.flow_control == mt::FlowControlChoice::kMessage);
  CHECK(hw.decision_latency_cycles == 3);
  CHECK(hw.scheduler_depth == 8);
  CHECK(hw.scheduler_window == 2);
  CHECK(hw.step_order == StepOrderChoice::kAuto);
  CHECK(sw.issue == mt::IssueChoice::kSoftware);
  CHECK(sw.flow_control == mt::FlowControlChoice::kPacket);
  CHECK(sw.decision_latency_cycles == 3);  // not overridden: the scenario's
  CHECK(free.step_order == StepOrderChoice::kOff);
  CHECK(free.issue == mt::IssueChoice::kHardware);
  CHECK(s.nic.issue == mt::IssueChoice::kHardware);  // the scenario's own nic is unchanged

  CHECK_THROWS_WITH(load_scenario_text("topology: {kind: torus, dims: [4, 4]}\n"
                                       "collective:\n"
                                       "  algorithms:\n"
                                       "    - {name: ring, nic: {ports: 2}}\n",
                                       "bad.yaml"),
                    Catch::Contains("ports"));
  CHECK_THROWS_WITH(load_scenario_text("topology: {kind: torus, dims: [4, 4]}\n"
                                       "nic: {decision_latency_cycles: 1}\n"
                                       "collective: {algorithms: [ring]}\n",
                                       "bad.yaml"),
                    Catch::Contains("nic.decision_latency_cycles"));
}

}  // namespace
}  // namespace mt
