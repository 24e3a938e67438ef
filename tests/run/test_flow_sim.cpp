// The message-granularity model (model/flow/flow_sim.h): exact figures from its formula, and a few
// points held within stated bounds of the packet-level cycle model. A TEST_CASE elaborates SystemC
// at most once (the cycle model's run).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "model/config/scenario_loader.h"
#include "model/flow/flow_sim.h"
#include "model/run/prepare.h"
#include "model/run/resolve.h"
#include "model/run/run_point.h"
#include "model/sim/results.h"
#include "model/sim/system.h"
#include "tests/support/sim_fixtures.h"

namespace mt {
namespace {

// One broadcast of `bytes` from node 0 to `peer` on an 8-node ring with 150-cycle links.
RunResult one_message(int peer, std::uint64_t bytes, FlowControl flow_control) {
  const Topology topology(test::topology_config("ring:8", 150));
  Schedule schedule = test::empty_schedule(8, 1);
  schedule.add(test::make_op(0, peer, 0, OpKind::kBroadcast));
  PointConfig config;
  config.data.verify = false;  // one message is no all-reduce
  config.nic.flow_control = flow_control;
  return simulate_messages(config, topology, schedule, bytes);
}

TEST_CASE("flow: one message over k hops takes its wire time plus k links and k + 1 routers",
          "[flow]") {
  // 1 KiB = 4 packets of 256 bytes + a 16-byte head each = 4 x 17 flits = 68 cycles at 16 bytes
  // per cycle; the head crosses k links of 150 cycles and k + 1 router pipelines of 1 cycle.
  for (int k = 1; k <= 4; ++k) {
    const RunResult r = one_message(k, 1024, FlowControl::kPacket);
    INFO("hops " << k);
    CHECK(r.completion_cycles == static_cast<std::uint64_t>(68 + 150 * k + (k + 1)));
    CHECK(r.packets == 4);
    CHECK(r.granularity == Granularity::kMessage);
  }
  // Results name the model that made them; a JSON without the field is the packet model's.
  const RunResult m = one_message(1, 1024, FlowControl::kPacket);
  nlohmann::json j = to_json(m);
  CHECK(j.at("granularity") == "message");
  CHECK(run_result_from_json(j).granularity == Granularity::kMessage);
  j.erase("granularity");
  CHECK(run_result_from_json(j).granularity == Granularity::kPacket);
  // Message flow control: one head for the message: 4 x 16 + 1 flits = 65 cycles.
  CHECK(one_message(2, 1024, FlowControl::kMessage).completion_cycles == 65 + 300 + 3);
  // 1 MiB over 3 hops: 4096 packets x 17 flits.
  CHECK(one_message(3, 1 << 20, FlowControl::kPacket).completion_cycles == 4096u * 17 + 450 + 4);
}

TEST_CASE("flow: a message into scratch, then a local sum on the reduction unit", "[flow]") {
  // Node 0 sends its chunk 0 (1 KiB) to node 1's scratch slot 0 (one hop: 68 + 150 + 2 = 220
  // cycles, as above); node 1's local step, once it has arrived, adds the slot into its chunk
  // 0 on the reduction unit: 256 elements at 32 per cycle, 8 cycles.
  const Topology topology(test::topology_config("ring:8", 150));
  Schedule schedule = test::empty_schedule(8, 1);
  schedule.scratch_chunks = 1;
  Op send = test::make_op(0, 1, 0, OpKind::kBroadcast);
  send.dst_buf = Buffer::kScratch;
  const int sent = schedule.add(send);
  Op local = test::make_op(1, 1, 0, OpKind::kReduce, {sent});
  local.src_buf = Buffer::kScratch;
  schedule.add(local);
  PointConfig config;
  config.data.verify = false;  // two messages are no all-reduce
  const RunResult r = simulate_messages(config, topology, schedule, 1024);
  CHECK(r.error.empty());
  CHECK(r.completion_cycles == 220 + 8);
  CHECK(r.packets == 4);  // the local step sends none
}

// A hand-built schedule run by both models (the cycle model elaborates once): software issue
// with the free host, no data check (a few messages are no all-reduce).
struct BothModels {
  RunResult packet, message;
};
BothModels run_both(const std::string& spec, int latency, const Schedule& schedule,
                    std::uint64_t bytes, double reduce_elems_per_cycle = 32,
                    FlowControlChoice flow_control = FlowControlChoice::kPacket) {
  ScenarioConfig s = test::base_scenario();
  s.nic.issue = IssueChoice::kSoftware;
  s.nic.flow_control = flow_control;
  s.nic.reduce_elems_per_cycle = reduce_elems_per_cycle;
  s.topology = test::topology_config(spec, latency);
  s.collective.verify_data = false;
  const Topology topology(s.topology);
  const PointConfig point = resolve(s, schedule, topology);
  BothModels r{simulate(point, topology, schedule, bytes),
               simulate_messages(point, topology, schedule, bytes)};
  INFO(r.packet.error << r.message.error);
  REQUIRE(r.packet.error.empty());
  REQUIRE(r.message.error.empty());
  return r;
}

TEST_CASE("flow: a switched NIC port takes its next message once the last one is on its link",
          "[flow]") {
  // Node 0 of a 4-node switch sends two 1 KiB broadcasts, both ready at once, to nodes 1 and 2
  // over its one port, which is its link to the switch: 4 packets x 17 flits = 68 cycles on it.
  // The second issues when the first is on the wire (the transmit DMA's port_free), at 68; each
  // arrives 10 + 1 (switch) + 68 + 10 cycles after its issue.
  Schedule schedule = test::empty_schedule(4, 2);
  schedule.add(test::make_op(0, 1, 0, OpKind::kBroadcast));
  schedule.add(test::make_op(0, 2, 1, OpKind::kBroadcast));
  const BothModels r = run_both("switch:nodes=4", 10, schedule, 2 * 1024);
  const std::vector<std::uint64_t> issue{0, 68};
  const std::vector<std::uint64_t> arrival{89, 68 + 89};
  CHECK(r.packet.message_issue_cycles == issue);
  CHECK(r.message.message_issue_cycles == issue);
  CHECK(r.packet.message_arrival_cycles == arrival);
  CHECK(r.message.message_arrival_cycles == arrival);
  CHECK(r.message.completion_cycles == 68 + 89);
}

TEST_CASE(
    "flow: under message flow control a hop whose credit loop exceeds its VC's buffer "
    "paces the message, as in the cycle model",
    "[flow]") {
  // Node 0 of a 4-node switch sends 64 KiB to node 1 as one message (one head flit: 4097 flits,
  // 4097 cycles at 16 bytes per cycle). The worm holds one VC of the switch's input, 318 flits,
  // which node 0's transmit DMA regains packet by packet: 19 packets of 16 flits, 304 flits in
  // flight. A flit's credit comes back 2 x 150 + 16 = 316 cycles after it left (the wire both
  // ways and a packet's serialisation): the first 304 flits leave in 304 cycles, every further
  // 304 one loop after the ones before them: ceil((4097 - 304) x 316 / 304 + 304) = 4247 cycles
  // on the first link. The last link (into node 1's NIC) follows its tail: it starts at
  // 4247 + 150 - 4097 and ends 4097 + 150 later.
  Schedule schedule = test::empty_schedule(4, 1);
  schedule.add(test::make_op(0, 1, 0, OpKind::kBroadcast));
  const BothModels r =
      run_both("switch:nodes=4", 150, schedule, 64 * 1024, 32, FlowControlChoice::kMessage);
  CHECK(r.message.completion_cycles == 4247 + 150 + 150);
  // The cycle model's own pacing: within 0.5% (it sends whole windows of 19 packets).
  CHECK(std::abs(static_cast<double>(r.message.completion_cycles) /
                     static_cast<double>(r.packet.completion_cycles) -
                 1) < 0.005);
  // Its loop against one flit per cycle: 4097 + 300 + 1 + 1 cycles if the VC covered the loop,
  // which it does not: the cycle model takes at least 100 cycles more.
  CHECK(r.packet.completion_cycles > 4097 + 302 + 100);
}

TEST_CASE("flow: under message flow control a credit loop within the VC's buffer paces nothing",
          "[flow]") {
  // As above with 10-cycle links: the loop (36 cycles) fits the 304 flits, so the message takes
  // its wire time, the two links and the switch in both models.
  Schedule schedule = test::empty_schedule(4, 1);
  schedule.add(test::make_op(0, 1, 0, OpKind::kBroadcast));
  const BothModels r =
      run_both("switch:nodes=4", 10, schedule, 64 * 1024, 32, FlowControlChoice::kMessage);
  CHECK(r.message.completion_cycles == 4097 + 10 + 10 + 1);
  CHECK(r.packet.completion_cycles == r.message.completion_cycles);
}

// Nodes 0 and 1 exchange chunk 0 (reduce, each staged behind the other's message); node 1's is
// released at cycle 1000. `nodes` nodes, `chunks` chunks.
Schedule staged_exchange(int nodes, int chunks) {
  Schedule schedule = test::empty_schedule(nodes, chunks);
  Op first = test::make_op(0, 1, 0, OpKind::kReduce);
  Op second = test::make_op(1, 0, 0, OpKind::kReduce);
  second.release_cycle = 1000;
  first.apply_after = 1;
  second.apply_after = 0;
  schedule.add(first);
  schedule.add(second);
  return schedule;
}

TEST_CASE("flow: a message's arrival cycle is when it is applied, after staging", "[flow]") {
  // ring:2 with 10-cycle links, one 256-byte chunk exchanged (tests/sim/test_staging.cpp):
  // message 0 lands at 2 + 10 + 17 = 29 while node 1 has not issued message 1 (released at
  // 1000), so it is staged and summed on node 1's reduction unit from 1000 (64 elements at 32
  // per cycle); message 1 is summed as it lands: 1000 + 29 + 2.
  const BothModels r = run_both("ring:2", 10, staged_exchange(2, 1), 256);
  const std::vector<std::uint64_t> arrival{1002, 1031};
  CHECK(r.packet.message_arrival_cycles == arrival);
  CHECK(r.message.message_arrival_cycles == arrival);
}

// ring:3 with 10-cycle links, 1 KiB chunks (4 packets of 17 flits: 68 cycles of wire; a one-hop
// message issued at t has its packets' tails in at t + 29 + 17 k, k = 0..3), a reduction unit
// of 4 elements per cycle (16 cycles a packet, 64 a chunk). Node 0 sends chunk 0 to node 1 at
// once; it is staged there (its apply_after, node 1's message 1 of chunk 0 to node 0, is
// released at 1000), so node 1's unit sums it over [1000, 1064). Message 2 is the third.
Schedule staged_exchange_and(Op third) {
  Schedule schedule = staged_exchange(3, 2);
  schedule.add(third);
  return schedule;
}

TEST_CASE("flow: a packet summed on landing waits while the reduction unit sums a staged message",
          "[flow]") {
  // Message 2, node 0 -> 1, chunk 1, reduced per packet, released at 990: its first head is in
  // after 1000 (the cycle model orders the unit's work by head arrival), its tails at 1019,
  // 1036, 1053, 1070, all while the unit sums the staged message 0 (to 1064); each then waits
  // for the one before: 1064 + 4 x 16 = 1128. Message 1 lands at node 0 per packet (tails
  // 1029 + 17 k), the last summed at 1080 + 16.
  Op third = test::make_op(0, 1, 1, OpKind::kReduce);
  third.release_cycle = 990;
  const BothModels r = run_both("ring:3", 10, staged_exchange_and(third), 2 * 1024, 4);
  const std::vector<std::uint64_t> arrival{1064, 1096, 1064 + 4 * 16};
  CHECK(r.packet.message_arrival_cycles == arrival);
  CHECK(r.message.message_arrival_cycles == arrival);
  CHECK(r.message.completion_cycles == 1128);
}

TEST_CASE("flow: a staged broadcast is applied in its turn on the reduction unit", "[flow]") {
  // Message 2, node 0 -> 1, chunk 1, a broadcast staged behind message 1 too (sent at 0, it is in
  // before 1000): released with message 0 at 1000, it is copied once the unit has summed
  // message 0, at 1064 (no cycles of its own). Message 3 (node 1 -> 2, chunk 1) waits for it and
  // lands at 1064 + 29 + 51 (a broadcast: nothing to sum).
  Op third = test::make_op(0, 1, 1, OpKind::kBroadcast);
  third.apply_after = 1;
  Schedule schedule = staged_exchange_and(third);
  schedule.add(test::make_op(1, 2, 1, OpKind::kBroadcast, {2}));
  const BothModels r = run_both("ring:3", 10, schedule, 2 * 1024, 4);
  const std::vector<std::uint64_t> arrival{1064, 1096, 1064, 1064 + 80};
  CHECK(r.packet.message_arrival_cycles == arrival);
  CHECK(r.message.message_arrival_cycles == arrival);
  CHECK(r.message.completion_cycles == 1144);
}

TEST_CASE("flow: what the message model leaves out is refused, not ignored", "[flow]") {
  const Topology topology(test::topology_config("ring:8", 150));
  Schedule schedule = test::empty_schedule(8, 1);
  schedule.add(test::make_op(0, 1, 0, OpKind::kBroadcast));
  PointConfig config;
  config.data.verify = false;
  config.nic.step_barrier = true;
  REQUIRE_THROWS_MATCHES(simulate_messages(config, topology, schedule, 1024), FlowConfigError,
                         Catch::Message("nic.step_barrier: not modelled at message granularity "
                                        "(docs/granularity.md); run it with granularity: packet"));
  // The packet model's checks apply: a schedule for another node count.
  config.nic.step_barrier = false;
  Schedule other = test::empty_schedule(4, 1);
  other.add(test::make_op(0, 1, 0, OpKind::kBroadcast));
  REQUIRE_THROWS_MATCHES(simulate_messages(config, topology, other, 1024), SimulationConfigError,
                         Catch::Message("schedule is for 4 nodes, topology ring:8 has 8"));
}

TEST_CASE("flow: the 8-node ring all-reduce matches the cycle model's formula, data checked",
          "[flow]") {
  const ScenarioConfig scenario = load_scenario_text(
      "topology: {kind: ring, dims: [8], link_latency_cycles: 50}\n"
      "granularity: message\n"
      "collective: {algorithms: [ring], sizes: [8KiB], dtype: int32}\n",
      "ring8.yaml");
  const std::vector<PreparedAlgorithm> prepared = prepare_all(scenario);
  REQUIRE(prepared.size() == 1);
  const RunResult r = run_point(scenario, prepared[0], 8192);
  INFO(r.error);
  REQUIRE_FALSE(run_failed(r));
  CHECK(r.data_verified);
  CHECK(r.data_mode == DataMode::kFull);
  // The cycle model's figure (tests/run/test_run_point.cpp): per step 3 x 17 + 2 + 50 + 17,
  // plus the last packet's reduction (2 cycles) in the 7 reduce-scatter steps.
  const std::uint64_t step = 3 * 17 + 2 + 50 + 17;
  CHECK(r.completion_cycles == 7 * (step + 2) + 7 * step);
  // Every message's cycles, kept unless they are not wanted (mtsim run without --trace); the
  // run is the same either way.
  const std::size_t messages = prepared[0].schedule.ops.size();
  CHECK(r.message_arrival_cycles.size() == messages);
  CHECK(r.message_issue_cycles.size() == messages);
  CHECK(*std::max_element(r.message_arrival_cycles.begin(), r.message_arrival_cycles.end()) ==
        r.completion_cycles);
  const RunResult bare = run_point(scenario, prepared[0], 8192, MessageCycles::kNotRecorded);
  CHECK(bare.message_arrival_cycles.empty());
  CHECK(bare.message_issue_cycles.empty());
  CHECK(bare.completion_cycles == r.completion_cycles);
  CHECK(bare.node_finish_cycles == r.node_finish_cycles);
  CHECK(bare.data_verified);
}

// The relative error of message mode against the cycle model at one point of the default
// network (150-cycle links; the 4x4 torus unless `topology` and `nic` say otherwise), in one
// process: the cycle model elaborates once.
double relative_error(const std::string& algorithm, const std::string& size,
                      const std::string& topology = "{kind: torus, dims: [4, 4]}",
                      const std::string& nic = "{}") {
  const std::string yaml = "topology: " + topology + "\nnic: " + nic +
                           "\ncollective: {algorithms: [" + algorithm + "], sizes: [" + size +
                           "]}\n";
  const ScenarioConfig packet = load_scenario_text(yaml, "p.yaml");
  const ScenarioConfig message = load_scenario_text(yaml + "granularity: message\n", "m.yaml");
  const std::vector<PreparedAlgorithm> pp = prepare_all(packet);
  const std::vector<PreparedAlgorithm> pm = prepare_all(message);
  const std::uint64_t bytes = packet.collective.sizes_bytes.at(0);
  const RunResult rp = run_point(packet, pp.at(0), bytes);
  const RunResult rm = run_point(message, pm.at(0), bytes);
  REQUIRE_FALSE(run_failed(rp));
  REQUIRE_FALSE(run_failed(rm));
  CHECK(rm.data_verified);
  CHECK(rp.granularity == Granularity::kPacket);
  return (static_cast<double>(rm.completion_cycles) - static_cast<double>(rp.completion_cycles)) /
         static_cast<double>(rp.completion_cycles);
}

// Bounds as docs/granularity.md states them: 3% at 1 MiB and above, 10% from 32 KiB to 256 KiB.
TEST_CASE("flow: torus 4x4 ring 1 MiB within 3% of the cycle model", "[flow]") {
  CHECK(std::abs(relative_error("ring", "1MiB")) < 0.03);
}
TEST_CASE("flow: torus 4x4 multitree_opt 1 MiB within 3% of the cycle model", "[flow]") {
  CHECK(std::abs(relative_error("{name: multitree_opt, params: {pipeline: 4}}", "1MiB")) < 0.03);
}
TEST_CASE("flow: torus 4x4 disjoint_rings 64 KiB within 10% of the cycle model", "[flow]") {
  CHECK(std::abs(relative_error("disjoint_rings", "64KiB")) < 0.10);
}
TEST_CASE("flow: torus 4x4 dbtree 1 MiB within 10% of the cycle model (links shared)", "[flow]") {
  CHECK(std::abs(relative_error("dbtree", "1MiB")) < 0.10);
}
TEST_CASE("flow: fat-tree k=4 ring 1 MiB under message flow control within 3% of the cycle model",
          "[flow]") {
  // The NIC links' credit loop paces the worms (3.5% fast without it).
  CHECK(std::abs(relative_error("ring", "1MiB", "{kind: fattree, k: 4, levels: 2}",
                                "{flow_control: message}")) < 0.03);
}

}  // namespace
}  // namespace mt
