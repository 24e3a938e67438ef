// Packet timing through links and routers: one packet over h hops, a long stream reaching the link
// bandwidth, two streams sharing a link, deadlock freedom under all-to-all and tornado traffic.
// Every TEST_CASE elaborates SystemC once (one simulate() call).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "model/collective/algorithm.h"
#include "model/data/packet_sizes.h"
#include "model/nic/nic.h"
#include "model/noc/link.h"
#include "model/sim/system.h"
#include "tests/support/sim_fixtures.h"

namespace mt {
namespace {

using test::base_scenario;
using test::empty_schedule;
using test::make_op;

/// Wire cycles of a packet with `payload` bytes at the scenario's flit size and link bandwidth.
std::uint64_t packet_cycles(const ScenarioConfig& s, int payload, double bytes_per_cycle) {
  const int flits = flits_in(payload, s.nic.head_flit_bytes, s.nic.flit_bytes);
  return LinkChannel::serialization_cycles(flits, s.nic.flit_bytes, bytes_per_cycle);
}

/// Sends one message of `bytes` bytes (one chunk) from src to dst and returns the result.
RunResult one_message(ScenarioConfig scenario, const std::string& spec, int latency, int src,
                      int dst, std::uint64_t bytes, OpKind kind) {
  scenario.topology = test::topology_config(spec, latency);
  scenario.collective.verify_data = false;
  const Topology topology(scenario.topology);
  Schedule schedule = empty_schedule(topology.nodes(), 1);
  schedule.add(make_op(src, dst, 0, kind));
  return simulate(scenario, topology, schedule, bytes);
}

// Direct topology, h network hops: h+1 router pipelines, h wires, one serialisation (cut-through),
// then the reduction of the last packet: ceil(elements / reduce_elems_per_cycle).
std::uint64_t direct_one_packet(const ScenarioConfig& s, int hops, int latency, int payload,
                                bool reduce) {
  const std::uint64_t reducing =
      reduce ? mt::reduce_cycles(payload / 4, s.nic.reduce_elems_per_cycle) : 0;
  return static_cast<std::uint64_t>((hops + 1) * s.router.pipeline_cycles + hops * latency) +
         packet_cycles(s, payload, 16.0) + reducing;
}

TEST_CASE("one packet over 3 hops of a ring", "[noc][timing]") {
  ScenarioConfig s = base_scenario();
  s.router.pipeline_cycles = 3;
  const RunResult r = one_message(s, "ring:8", 10, 0, 3, 256, OpKind::kReduce);
  INFO(r.error);
  REQUIRE(r.error.empty());
  // 4 pipelines * 3 + 3 wires * 10 + 17 flits + ceil(64 / 32) = 12 + 30 + 17 + 2.
  CHECK(r.completion_cycles == 61);
  CHECK(r.completion_cycles == direct_one_packet(s, 3, 10, 256, true));
  CHECK(r.packets == 1);
  CHECK(r.message_arrival_cycles.at(0) == 61);
  CHECK(r.node_finish_cycles.at(3) == 61);
}

TEST_CASE("cycle counts are exact at a clock whose period is not a whole number of ps",
          "[noc][timing]") {
  ScenarioConfig s = base_scenario();
  s.router.pipeline_cycles = 3;
  s.clock_ghz = 1.5;  // 666.67 ps, rounded to 667 ps
  const RunResult r = one_message(s, "ring:8", 10, 0, 3, 256, OpKind::kReduce);
  INFO(r.error);
  REQUIRE(r.error.empty());
  CHECK(r.completion_cycles == 61);
  CHECK(r.clock_ghz == 1.5);
  CHECK(r.completion_ns == Approx(61 / 1.5));
}

TEST_CASE("one broadcast packet with a partial payload over 1 hop of a ring", "[noc][timing]") {
  ScenarioConfig s = base_scenario();
  // 100 bytes: ceil((100 + 16) / 16) = 8 flits; a broadcast skips the reduction unit.
  const RunResult r = one_message(s, "ring:4", 150, 1, 2, 100, OpKind::kBroadcast);
  INFO(r.error);
  REQUIRE(r.error.empty());
  CHECK(r.completion_cycles == 2 * 1 + 150 + 8);
  CHECK(r.completion_cycles == direct_one_packet(s, 1, 150, 100, false));
}

TEST_CASE("one packet over 3 hops of a torus including a wraparound link", "[noc][timing]") {
  ScenarioConfig s = base_scenario();
  s.router.pipeline_cycles = 2;
  s.nic.packet_bytes = 512;
  s.nic.reduce_elems_per_cycle = 10;
  // Node 0 (0,0) -> node 14 (2,3): 2 hops +x, then 1 hop -y over the wraparound link.
  REQUIRE(Topology(test::topology_config("torus:4x4", 20)).route(0, 14).size() == 3);
  const RunResult r = one_message(s, "torus:4x4", 20, 0, 14, 512, OpKind::kReduce);
  INFO(r.error);
  REQUIRE(r.error.empty());
  // 4 pipelines * 2 + 3 wires * 20 + 33 flits + ceil(128 / 10).
  CHECK(r.completion_cycles == 8 + 60 + 33 + 13);
  CHECK(r.completion_cycles == direct_one_packet(s, 3, 20, 512, true));
}

TEST_CASE("one packet across a crossbar switch", "[noc][timing]") {
  ScenarioConfig s = base_scenario();
  s.router.pipeline_cycles = 5;
  // NIC -> switch -> NIC: two endpoint links of 40 cycles, one switch pipeline.
  const RunResult r = one_message(s, "switch:nodes=8", 40, 2, 6, 256, OpKind::kReduce);
  INFO(r.error);
  REQUIRE(r.error.empty());
  CHECK(r.completion_cycles == 5 + 2 * 40 + 17 + 2);
}

TEST_CASE("one packet across a 2-level fat-tree", "[noc][timing]") {
  ScenarioConfig s = base_scenario();
  s.router.pipeline_cycles = 4;
  s.topology = test::topology_config("fattree:k=4,levels=2", 30);
  s.topology.nic_link_latency_cycles = 7;
  s.collective.verify_data = false;
  const Topology topology(s.topology);
  // Endpoint 0 (leaf 0) -> endpoint 7 (leaf 3): up to a spine and down, 3 switches, 4 links.
  REQUIRE(topology.route(0, 7).size() == 4);
  Schedule schedule = empty_schedule(topology.nodes(), 1);
  schedule.add(make_op(0, 7, 0, OpKind::kReduce));
  const RunResult r = simulate(s, topology, schedule, 256);
  INFO(r.error);
  REQUIRE(r.error.empty());
  CHECK(r.completion_cycles == 3 * 4 + 2 * 7 + 2 * 30 + 17 + 2);
}

TEST_CASE("a long stream on one link reaches the link bandwidth", "[noc][bandwidth]") {
  ScenarioConfig s = base_scenario();
  const int packets = 200;
  const RunResult r = one_message(s, "ring:4", 150, 0, 1, 256ull * packets, OpKind::kReduce);
  INFO(r.error);
  REQUIRE(r.error.empty());
  // Packets leave back to back every 17 cycles; the last one pays the one-packet latency.
  CHECK(r.completion_cycles == static_cast<std::uint64_t>(packets - 1) * 17 + 2 + 150 + 17 + 2);
  CHECK(r.packets == packets);
  bool found = false;
  for (const LinkStat& link : r.links) {
    if (link.src == 0 && link.dst == 1) {
      found = true;
      CHECK(link.bytes == 272ull * packets);
      CHECK(link.utilization == Approx(17.0 * packets / static_cast<double>(r.completion_cycles)));
    } else {
      CHECK(link.bytes == 0);
    }
  }
  CHECK(found);
}

TEST_CASE("a stream limited by credits sends two packets per credit round trip",
          "[noc][bandwidth][credits]") {
  ScenarioConfig s = base_scenario();
  s.router.vcs = 2;            // one VC per dateline class: the stream uses one VC
  s.router.buffer_flits = 34;  // two 17-flit packets per VC
  const int latency = 150;
  const int packets = 40;
  const RunResult r = one_message(s, "ring:4", latency, 0, 1, 256ull * packets, OpKind::kReduce);
  INFO(r.error);
  REQUIRE(r.error.empty());
  const std::uint64_t ser = packet_cycles(s, 256, 16.0);
  REQUIRE(ser == 17);
  const auto pipeline = static_cast<std::uint64_t>(s.router.pipeline_cycles);
  // A credit leaves router 1 when the packet's tail has left its buffer (forwarded at head
  // arrival + pipeline, serialised in 17 cycles) and crosses the wire back: a packet sent by
  // router 0 at t frees its slot there at t + latency + pipeline + ser + latency = t + 318.
  const std::uint64_t round_trip = 2 * latency + pipeline + ser;
  REQUIRE(round_trip == 318);
  // Router 0 sends packets 2k and 2k+1 at 1 + 318k and 18 + 318k (the first ones after the
  // injection pipeline); the last packet reaches node 1 after the wire, the pipeline, its
  // serialisation and its reduction (2 cycles).
  const std::uint64_t last_sent = pipeline + ser + round_trip * (packets / 2 - 1);
  const std::uint64_t reduce = reduce_cycles(64, s.nic.reduce_elems_per_cycle);
  const std::uint64_t expected = last_sent + latency + pipeline + ser + reduce;
  CHECK(expected == 6230);
  CHECK(r.completion_cycles == expected);
  CHECK(r.packets == packets);
}

TEST_CASE("a watchdog shorter than the credit round trip does not fire while credits travel",
          "[noc][credits][watchdog]") {
  ScenarioConfig s = base_scenario();
  s.router.vcs = 2;
  s.router.buffer_flits = 34;
  // Router 0 forwards packet 1 at cycle 18, node 1 has reduced it by 18 + 151 + 17 + 2 = 188,
  // and nothing else moves until packet 0's credit returns at 1 + 318 = 319: 131 cycles with
  // only a credit in flight, more than the 100-cycle limit.
  s.watchdog_cycles = 100;
  const RunResult r = one_message(s, "ring:4", 150, 0, 1, 256ull * 40, OpKind::kReduce);
  INFO(r.error);
  CHECK(r.error.empty());
  CHECK(r.completion_cycles == 6230);  // as in the credit-limited stream above
}

TEST_CASE("two streams sharing a link each get half of it", "[noc][bandwidth]") {
  ScenarioConfig s = base_scenario();
  s.topology = test::topology_config("switch:nodes=4", 150);
  s.collective.verify_data = false;
  const Topology topology(s.topology);
  const int packets = 100;
  Schedule schedule = empty_schedule(4, 2);
  schedule.add(make_op(0, 2, 0, OpKind::kReduce));
  schedule.add(make_op(1, 2, 1, OpKind::kReduce));
  // Two chunks of `packets` packets each.
  const RunResult r = simulate(s, topology, schedule, 2ull * 256 * packets);
  INFO(r.error);
  REQUIRE(r.error.empty());
  // The switch->2 link is busy from the first head (150 + pipeline 1) for 2 * packets * 17 cycles.
  const std::uint64_t expected = 150 + 1 + 2ull * packets * 17 + 150 + 2;
  CHECK(r.completion_cycles == expected);
  // Round robin: the streams alternate, so they finish one packet time apart.
  const std::uint64_t a = r.message_arrival_cycles.at(0);
  const std::uint64_t b = r.message_arrival_cycles.at(1);
  CHECK((a > b ? a - b : b - a) == 17);
  CHECK(std::max(a, b) == expected);
}

namespace {

// Two 10-packet messages (nodes 0 and 1) into node 2 across a switch under message flow control,
// node 2's receive port split into `receive_vcs` VCs (its 4 x 318 flits); returns the run.
RunResult two_messages_into_one_port(int receive_vcs) {
  ScenarioConfig s = base_scenario();
  s.nic.flow_control = mt::FlowControlChoice::kMessage;
  s.nic.receive_vcs = receive_vcs;
  s.topology = test::topology_config("switch:nodes=4", 150);
  s.collective.verify_data = false;
  const Topology topology(s.topology);
  Schedule schedule = empty_schedule(4, 2);
  schedule.add(make_op(0, 2, 0, OpKind::kReduce));
  schedule.add(make_op(1, 2, 1, OpKind::kReduce));
  return simulate(s, topology, schedule, 2ull * 256 * 10);
}

// The head packet has 17 flits, the 9 body packets 16 (no head flit): a message occupies the
// switch->2 link for 17 + 9 * 16 = 161 cycles; its last packet reaches node 2 after the wire
// and is reduced (64 elements, 2 cycles).
constexpr std::uint64_t kBodyCycles = 16;
constexpr std::uint64_t kMessageCycles = 17 + 9 * kBodyCycles;
constexpr std::uint64_t kWireAndReduce = 150 + 2;

}  // namespace

TEST_CASE("message flow control: two messages into a one-VC receive port pass a message apart",
          "[noc][bandwidth][message]") {
  const ScenarioConfig s = base_scenario();
  REQUIRE(packet_cycles(s, 256, 16.0) == 17);
  REQUIRE(LinkChannel::serialization_cycles(flits_in(256, 0, s.nic.flit_bytes), s.nic.flit_bytes,
                                            16.0) == kBodyCycles);
  REQUIRE(reduce_cycles(64, s.nic.reduce_elems_per_cycle) == 2);
  const RunResult r = two_messages_into_one_port(1);
  INFO(r.error);
  REQUIRE(r.error.empty());
  // The first message holds the receive port's only VC until its last packet has passed; the
  // second waits in the switch's input buffer and streams right behind it: they arrive exactly
  // one message time apart.
  const std::uint64_t first = 150 + 1 + kMessageCycles + kWireAndReduce;
  const std::uint64_t a = r.message_arrival_cycles.at(0);
  const std::uint64_t b = r.message_arrival_cycles.at(1);
  CHECK(std::min(a, b) == first);
  CHECK(std::max(a, b) == first + kMessageCycles);
  CHECK(r.completion_cycles == first + kMessageCycles);
  CHECK(r.packets == 20);
}

TEST_CASE("message flow control: two messages into one port share it packet by packet",
          "[noc][bandwidth][message]") {
  // The receive port has a VC per message (4): the link alternates between the two messages'
  // packets from the first head (150 + pipeline 1) for 2 x 161 cycles, and the message whose last
  // packet goes first arrives one body packet earlier.
  const RunResult r = two_messages_into_one_port(0);  // router.vcs: 4
  INFO(r.error);
  REQUIRE(r.error.empty());
  const std::uint64_t last = 150 + 1 + 2 * kMessageCycles + kWireAndReduce;
  const std::uint64_t a = r.message_arrival_cycles.at(0);
  const std::uint64_t b = r.message_arrival_cycles.at(1);
  CHECK(std::max(a, b) == last);
  CHECK(std::min(a, b) == last - kBodyCycles);
  CHECK(r.completion_cycles == last);
  CHECK(r.packets == 20);
}

TEST_CASE("message flow control: ring all-reduce across a switch verifies the data",
          "[noc][message]") {
  ScenarioConfig s = base_scenario();
  s.nic.flow_control = mt::FlowControlChoice::kMessage;
  s.topology = test::topology_config("switch:nodes=8", 20);
  const Topology topology(s.topology);
  const Schedule schedule = test::ring_allreduce({0, 1, 2, 3, 4, 5, 6, 7});
  const RunResult r = simulate(s, topology, schedule, 8ull * 4096);
  INFO(r.error);
  REQUIRE(r.error.empty());
  CHECK(r.data_verified);
  CHECK(r.messages == 8 * 14);
  CHECK(r.packets == 8 * 14 * 16);
}

TEST_CASE("packets for the NIC take any free ejection port", "[noc][ejection]") {
  ScenarioConfig s = base_scenario();
  s.topology = test::topology_config("torus:4x4", 20);
  s.topology.ports_per_node = 2;
  s.collective.verify_data = false;
  const Topology topology(s.topology);
  // Two neighbours of node 5 entering by router inputs 0 and 2: the same ejection port under a
  // fixed "input mod ports" mapping, two different ones when any free port may take a packet.
  const int x = 5;
  const std::vector<int>& in = topology.in_links(x);
  REQUIRE(in.size() == 4);
  const int a = topology.link(in[0]).src;
  const int b = topology.link(in[2]).src;
  REQUIRE(topology.route(a, x) == std::vector<int>{in[0]});
  REQUIRE(topology.route(b, x) == std::vector<int>{in[2]});
  const int packets = 8;
  Schedule schedule = empty_schedule(16, 2);
  schedule.add(make_op(a, x, 0, OpKind::kReduce));
  schedule.add(make_op(b, x, 1, OpKind::kReduce));
  const RunResult r = simulate(s, topology, schedule, 2ull * 256 * packets);
  INFO(r.error);
  REQUIRE(r.error.empty());
  // Both streams eject in parallel, packet for packet: each message takes the one-hop time of a
  // single stream; the NIC's one reduction unit sums the two packets of a pair one after the
  // other, so the second message completes one packet reduction (2 cycles) later.
  const std::uint64_t reduce = reduce_cycles(64, s.nic.reduce_elems_per_cycle);
  const std::uint64_t one = (packets - 1) * 17ull + direct_one_packet(s, 1, 20, 256, true);
  const std::uint64_t ta = r.message_arrival_cycles.at(0);
  const std::uint64_t tb = r.message_arrival_cycles.at(1);
  CHECK(std::min(ta, tb) == one);
  CHECK(std::max(ta, tb) == one + reduce);
  CHECK(r.completion_cycles == one + reduce);
}

/// Two 10-packet streams into node 2 of a 4-node switch (150-cycle links), from node 0 at step
/// 5 and from node 1 at step 0, with router.step_priority (`per_input`: step_priority_scope
/// input).
RunResult step_priority_run(bool per_input) {
  ScenarioConfig s = base_scenario();
  s.router.step_priority = true;
  s.router.step_priority_scope = per_input ? StepPriorityScope::kInput : StepPriorityScope::kOutput;
  s.topology = test::topology_config("switch:nodes=4", 150);
  s.collective.verify_data = false;
  const Topology topology(s.topology);
  Schedule schedule = empty_schedule(4, 2);
  schedule.add(make_op(0, 2, 0, OpKind::kReduce, {}, 5));
  schedule.add(make_op(1, 2, 1, OpKind::kReduce, {}, 0));
  return simulate(s, topology, schedule, 2ull * 256 * 10);
}

TEST_CASE("step priority lets the older step's stream go first", "[noc][arbitration]") {
  const RunResult r = step_priority_run(false);
  INFO(r.error);
  REQUIRE(r.error.empty());
  // Step 0 takes the switch->2 link for all its packets, then step 5 follows.
  const std::uint64_t first = 150 + 1 + 10 * 17ull + 150 + 2;
  CHECK(r.message_arrival_cycles.at(1) == first);
  CHECK(r.message_arrival_cycles.at(0) == first + 10 * 17ull);
}

TEST_CASE("step priority per input leaves streams of different inputs taking turns",
          "[noc][arbitration]") {
  // With step_priority_scope input the step decides only among one input's VCs, so the two
  // inputs alternate packet by packet on the switch->2 link and the older step no longer goes
  // first: one message ends a packet before the other, both late.
  const RunResult r = step_priority_run(true);
  INFO(r.error);
  REQUIRE(r.error.empty());
  const std::uint64_t last = 150 + 1 + 2 * 10 * 17ull + 150 + 2;
  const std::uint64_t ta = r.message_arrival_cycles.at(0);
  const std::uint64_t tb = r.message_arrival_cycles.at(1);
  CHECK(std::max(ta, tb) == last);
  CHECK(std::min(ta, tb) == last - 17);
}

}  // namespace
}  // namespace mt
