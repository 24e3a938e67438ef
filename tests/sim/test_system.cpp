// System-level runs of hand-built schedules: ring all-reduce timing and data on several topologies,
// backpressure from a slow receiver, broken schedules (data mismatch, stall) and config errors.
// Every TEST_CASE elaborates SystemC once (one simulate() call).
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <sstream>
#include <string>

#include "model/data/packet_sizes.h"
#include "model/nic/nic.h"
#include "model/sim/system.h"
#include "tests/support/sim_fixtures.h"

namespace mt {
namespace {

using test::base_scenario;
using test::empty_schedule;
using test::make_op;

RunResult run_ring(const std::string& spec, int latency, const std::vector<int>& order,
                   std::uint64_t bytes, Dtype dtype = Dtype::kFp32) {
  ScenarioConfig s = base_scenario();
  s.topology = test::topology_config(spec, latency);
  s.collective.dtype = dtype;
  const Topology topology(s.topology);
  const Schedule schedule = test::ring_allreduce(order);
  return simulate(s, topology, schedule, bytes);
}

TEST_CASE("ring all-reduce on an 8-node ring: exact time and data", "[sim][ring]") {
  // 8 chunks of 4 packets each (1024 bytes). Every step is one hop with no contention and waits
  // for the previous step: per step (4 - 1) * 17 + 2 pipelines + 50 wire + 17, plus the reduction
  // of the last packet (2 cycles) in the 7 reduce-scatter steps.
  const RunResult r = run_ring("ring:8", 50, test::identity_order(8), 8 * 1024, Dtype::kInt32);
  INFO(r.error);
  REQUIRE(r.error.empty());
  CHECK(r.data_verified);
  CHECK(r.data_mode == DataMode::kFull);
  const std::uint64_t step = 3 * 17 + 2 + 50 + 17;
  CHECK(r.completion_cycles == 7 * (step + 2) + 7 * step);
  CHECK(r.messages == 8 * 14);
  CHECK(r.packets == 8 * 14 * 4);
  CHECK(r.steps == 14);
  for (const std::uint64_t finish : r.node_finish_cycles) CHECK(finish == r.completion_cycles);
  // Bandwidth bound: 2(N-1) buffers of 8 KiB over the 8 nodes' injection bandwidth (a ring
  // node has 2 ports, one per link, of 16 B/cycle each).
  CHECK(r.ports == 2);
  CHECK(r.bound_cycles == Approx(2.0 * 7 * 8 * 1024 / (8.0 * 2 * 16)));
  // Latency bound: the diameter (4 hops of 50 wire cycles), 5 router pipelines of 1 cycle and
  // one 2-flit packet at 16 B/cycle: 207 cycles, below the bandwidth bound (896), which rules.
  CHECK(r.latency_bound_cycles == Approx(4 * 50 + 5 + 2));
  CHECK(r.efficiency == Approx(r.bound_cycles / static_cast<double>(r.completion_cycles)));
  CHECK(r.completion_ns == Approx(static_cast<double>(r.completion_cycles)));
}

/// Ring all-reduce over the snake order of a 4x4 torus (every ring neighbour one hop away, the
/// last to the first over a wraparound link): 2(N-1) steps, each the chunk's P packets back to
/// back (17 cycles each) plus two router pipelines and the 150-cycle wire, plus the reduction of
/// the last packet (ceil(64 elements / 32) = 2 cycles) in the N-1 reduce-scatter steps.
std::uint64_t torus_ring_cycles(std::uint64_t bytes) {
  const ScenarioConfig s = base_scenario();
  const Topology topology(test::topology_config("torus:4x4", 150));
  const std::vector<int> order = test::snake_4x4();
  for (std::size_t i = 0; i < order.size(); ++i) {
    REQUIRE(topology.route(order[i], order[(i + 1) % order.size()]).size() == 1);
  }
  const std::uint64_t n = 16;
  const std::uint64_t chunk = bytes / n;
  const auto packets = static_cast<std::uint64_t>(Nic::packets_for(chunk, s.nic.packet_bytes));
  const std::uint64_t flits = static_cast<std::uint64_t>(
      flits_in(s.nic.packet_bytes, s.nic.head_flit_bytes, s.nic.flit_bytes));
  const std::uint64_t step = packets * flits + 2 * s.router.pipeline_cycles + 150;
  const std::uint64_t reduce = reduce_cycles(s.nic.packet_bytes / 4, s.nic.reduce_elems_per_cycle);
  return 2 * (n - 1) * step + (n - 1) * reduce;
}

TEST_CASE("ring all-reduce on a 4x4 torus: exact time and data", "[sim][ring]") {
  const RunResult r = run_ring("torus:4x4", 150, test::snake_4x4(), 1 << 16);
  INFO(r.error);
  CHECK(r.error.empty());
  CHECK(r.data_verified);
  // 64 KiB: 16 packets per chunk, 30 x (16 x 17 + 152) + 15 x 2.
  CHECK(torus_ring_cycles(1 << 16) == 12750);
  CHECK(r.completion_cycles == 12750);
}

TEST_CASE("ring all-reduce of 1 MiB on a 4x4 torus: exact time", "[sim][ring]") {
  const RunResult r = run_ring("torus:4x4", 150, test::snake_4x4(), 1 << 20);
  INFO(r.error);
  CHECK(r.error.empty());
  CHECK(r.data_verified);
  // 256 packets per chunk: 30 x (256 x 17 + 152) + 15 x 2.
  CHECK(torus_ring_cycles(1 << 20) == 135150);
  CHECK(r.completion_cycles == 135150);
}

TEST_CASE("ring all-reduce on a 4x4 mesh verifies the data", "[sim][ring]") {
  const RunResult r = run_ring("mesh:4x4", 150, test::snake_4x4(), 1 << 16, Dtype::kInt32);
  INFO(r.error);
  CHECK(r.error.empty());
  CHECK(r.data_verified);
}

TEST_CASE("ring all-reduce across a 16-node switch verifies the data", "[sim][ring]") {
  const RunResult r = run_ring("switch:nodes=16", 150, test::identity_order(16), 1 << 16);
  INFO(r.error);
  CHECK(r.error.empty());
  CHECK(r.data_verified);
}

TEST_CASE("ring all-reduce in a non-neighbour order on a torus verifies the data", "[sim][ring]") {
  // Multi-hop messages that share links inside a step.
  const RunResult r =
      run_ring("torus:4x4", 20, {0, 5, 10, 15, 3, 6, 9, 12, 1, 7, 11, 13, 2, 4, 8, 14}, 16 * 1000);
  INFO(r.error);
  CHECK(r.error.empty());
  CHECK(r.data_verified);
}

TEST_CASE("sampled data mode above max_data_bytes", "[sim][data]") {
  ScenarioConfig s = base_scenario();
  s.topology = test::topology_config("ring:4", 10);
  s.collective.max_data_bytes = 1024;
  const Topology topology(s.topology);
  const RunResult r = simulate(s, topology, test::ring_allreduce(test::identity_order(4)), 1 << 16);
  INFO(r.error);
  CHECK(r.error.empty());
  CHECK(r.data_mode == DataMode::kSampled);
  CHECK(r.data_verified);
}

TEST_CASE("verify_data off runs timing only", "[sim][data]") {
  ScenarioConfig s = base_scenario();
  s.topology = test::topology_config("ring:4", 10);
  s.collective.verify_data = false;
  const Topology topology(s.topology);
  Schedule schedule = test::ring_allreduce(test::identity_order(4));
  schedule.ops.pop_back();  // would be a mismatch, but nothing is checked
  const RunResult r = simulate(s, topology, schedule, 1 << 12);
  CHECK(r.error.empty());
  CHECK(r.data_mode == DataMode::kOff);
  CHECK_FALSE(r.data_verified);
}

TEST_CASE("software issue overhead serialises the host's issues", "[sim][issue]") {
  ScenarioConfig s = base_scenario();
  s.host.message = HostTime{100, true};  // a host that takes 100 cycles to post a message
  s.topology = test::topology_config("ring:4", 10);
  s.collective.verify_data = false;
  const Topology topology(s.topology);
  REQUIRE(topology.ports_per_node() == 2);
  Schedule schedule = empty_schedule(4, 2);
  schedule.add(make_op(0, 1, 0, OpKind::kReduce));  // one port
  schedule.add(make_op(0, 3, 1, OpKind::kReduce));  // the other port
  const RunResult r = simulate(s, topology, schedule, 2 * 256);
  INFO(r.error);
  REQUIRE(r.error.empty());
  // One packet each: 2 pipelines + 10 wire + 17 flits + 2 reduction after the host issued it.
  CHECK(r.message_arrival_cycles.at(0) == 100 + 2 + 10 + 17 + 2);
  CHECK(r.message_arrival_cycles.at(1) == 200 + 2 + 10 + 17 + 2);
}

TEST_CASE("backpressure: a slow reduction stalls the sender without loss", "[sim][backpressure]") {
  // Two nodes, one chunk of 8 packets: 0 -> 1 reduce, then 1 -> 0 broadcast. Buffers hold one
  // packet per VC (2 VCs) and the reduction takes 64 cycles per packet (1 element per cycle), so
  // the reduction sets the pace of the first message and the path backs up to node 0.
  ScenarioConfig s = base_scenario();
  s.router.vcs = 2;
  s.router.buffer_flits = 17;
  s.nic.reduce_elems_per_cycle = 1;
  s.topology = test::topology_config("ring:2", 2);
  s.collective.dtype = mt::Dtype::kInt32;
  const Topology topology(s.topology);
  Schedule schedule = empty_schedule(2, 1);
  const int first = schedule.add(make_op(0, 1, 0, OpKind::kReduce));
  schedule.add(make_op(1, 0, 0, OpKind::kBroadcast, {first}, 1));
  const int packets = 8;
  const RunResult r = simulate(s, topology, schedule, 256ull * packets);
  INFO(r.error);
  REQUIRE(r.error.empty());
  CHECK(r.data_verified);
  // First tail at node 1 after 2 pipelines + 2 wire + 17; then one packet per 64 cycles.
  const std::uint64_t reduced = 2 + 2 + 17 + 64ull * packets;
  CHECK(r.message_arrival_cycles.at(0) == reduced);
  // The broadcast streams at link rate (no reduction).
  CHECK(r.message_arrival_cycles.at(1) == reduced + 17ull * packets + 2 + 2);
  CHECK(r.completion_cycles == reduced + 17ull * packets + 2 + 2);
}

TEST_CASE("backpressure: ring all-reduce with tiny buffers and a slow reduction",
          "[sim][backpressure]") {
  ScenarioConfig s = base_scenario();
  s.router.vcs = 2;
  s.router.buffer_flits = 17;
  s.nic.reduce_elems_per_cycle = 2;
  s.topology = test::topology_config("torus:4x4", 30);
  const Topology topology(s.topology);
  const RunResult r = simulate(
      s, topology, test::ring_allreduce({0, 5, 10, 15, 3, 6, 9, 12, 1, 7, 11, 13, 2, 4, 8, 14}),
      16 * 4096);
  INFO(r.error);
  CHECK(r.error.empty());
  CHECK(r.data_verified);
  // 15 reduce-scatter steps of 16 packets, each reduced at 32 cycles per packet, is a floor; the
  // tiny buffers' credit round trips make the measured figure (pinned) about ten times that.
  CHECK(r.completion_cycles >= 15ull * 16 * 32);
  CHECK(r.completion_cycles == 74882);
}

TEST_CASE("backpressure: one-packet buffers pace a torus ring by the credit round trip",
          "[sim][backpressure]") {
  ScenarioConfig s = base_scenario();
  s.router.vcs = 2;            // one VC per dateline class
  s.router.buffer_flits = 17;  // one packet per VC
  s.nic.reduce_elems_per_cycle = 2;
  const std::uint64_t latency = 30;
  s.topology = test::topology_config("torus:4x4", static_cast<int>(latency));
  const Topology topology(s.topology);
  const RunResult r = simulate(s, topology, test::ring_allreduce(test::snake_4x4()), 16 * 4096);
  INFO(r.error);
  REQUIRE(r.error.empty());
  CHECK(r.data_verified);
  // Every step is one hop. The sending router holds one packet's credit for the receiving
  // router: a packet forwarded at t frees it at t + 30 (wire) + 1 (pipeline) + 17 (ejection)
  // + 30 (credit back) = t + 78, so packet k leaves at 1 + 78k, its tail reaches the NIC 30 + 1
  // + 17 = 48 later and its reduction takes 64 / 2 = 32 cycles (less than 78: no queue). A step
  // of 16 packets: 1 + 78 x 15 + 48, plus 32 for the reduction in the 15 reduce-scatter steps.
  // The next step's first packet leaves the router when both it (issued at the arrival, + 1
  // pipeline) and the credit of the previous step's last packet (78 after it left) are there:
  // after a reduce step the packet is later (48 + 32 + 1 = 81 > 78); after a broadcast step the
  // credit is (49 < 78): the 14 broadcast steps after the first wait 78 - 49 = 29 cycles more.
  const std::uint64_t round_trip = 2 * latency + 1 + 17;
  REQUIRE(round_trip == 78);
  const std::uint64_t tail = latency + 1 + 17;
  const std::uint64_t step = 1 + round_trip * 15 + tail;
  const std::uint64_t reduce = reduce_cycles(64, s.nic.reduce_elems_per_cycle);
  REQUIRE(reduce == 32);
  const std::uint64_t credit_wait = round_trip - (tail + 1);
  CHECK(r.completion_cycles == 15 * (step + reduce) + step + 14 * (step + credit_wait));
  CHECK(r.completion_cycles == 37456);
  CHECK(r.message_arrival_cycles.at(0) == step + reduce);
}

TEST_CASE("a missing all-gather message is a data mismatch", "[sim][broken]") {
  ScenarioConfig s = base_scenario();
  s.topology = test::topology_config("ring:4", 10);
  s.collective.dtype = mt::Dtype::kInt32;
  const Topology topology(s.topology);
  Schedule schedule = test::ring_allreduce(test::identity_order(4));
  // The last message: position 3 -> 0, chunk (3 + 1 - 2) % 4 = 2 (no op depends on it).
  const Op last = schedule.ops.back();
  REQUIRE(last.node == 3);
  REQUIRE(last.peer == 0);
  REQUIRE(last.chunk == 2);
  schedule.ops.pop_back();
  const RunResult r = simulate(s, topology, schedule, 4 * 64);
  CHECK_FALSE(r.data_verified);
  // Node 0 still holds its partial sum of chunk 2 (elements 32..47).
  CHECK(r.error.rfind("data mismatch: node 0 element 32 (chunk 2)", 0) == 0);
  CHECK(r.error.find("; 16 tracked elements differ") != std::string::npos);
}

TEST_CASE("a duplicated reduce is a data mismatch", "[sim][broken]") {
  ScenarioConfig s = base_scenario();
  s.topology = test::topology_config("ring:4", 10);
  const Topology topology(s.topology);
  Schedule schedule = test::ring_allreduce(test::identity_order(4));
  // The last reduce-scatter message into node 1 (0 -> 1, chunk 2, step 2), sent twice: node 1's
  // chunk 2 counts node 0's partial sum twice and is never overwritten by the all-gather.
  Op again = schedule.ops.at(8);
  REQUIRE(again.node == 0);
  REQUIRE(again.peer == 1);
  REQUIRE(again.chunk == 2);
  REQUIRE(again.kind == OpKind::kReduce);
  schedule.add(again);
  const RunResult r = simulate(s, topology, schedule, 4 * 64);
  CHECK_FALSE(r.data_verified);
  CHECK(r.error.rfind("data mismatch: node ", 0) == 0);
  CHECK(r.error.find("(chunk 2)") != std::string::npos);
}

TEST_CASE("a dependency cycle stalls and the watchdog names it", "[sim][broken]") {
  ScenarioConfig s = base_scenario();
  s.watchdog_cycles = 1000;
  s.topology = test::topology_config("ring:4", 10);
  const Topology topology(s.topology);
  Schedule schedule = empty_schedule(4, 4);
  schedule.add(make_op(0, 1, 2, OpKind::kReduce, {1}));
  schedule.add(make_op(1, 0, 3, OpKind::kReduce, {0}));
  const RunResult r = simulate(s, topology, schedule, 4 * 64);
  CHECK_FALSE(r.data_verified);
  CHECK(r.error ==
        "stall at cycle 1000: node 0 waits for message 1 (chunk 3 from node 1) to issue message 0; "
        "node 1 waits for message 0 (chunk 2 from node 0) to issue message 1");
  CHECK(r.completion_cycles == 1000);
}

TEST_CASE("a stall after traffic reports the cycle of the last progress plus the limit",
          "[sim][broken]") {
  ScenarioConfig s = base_scenario();
  s.watchdog_cycles = 500;
  s.topology = test::topology_config("ring:4", 10);
  const Topology topology(s.topology);
  Schedule schedule = empty_schedule(4, 4);
  // Chunks of 64 bytes: 5 flits, 16 elements reduced in 1 cycle. Message 0 arrives at 2 + 10 + 5
  // + 1.
  schedule.add(make_op(0, 1, 0, OpKind::kReduce));
  schedule.add(make_op(2, 3, 1, OpKind::kReduce, {0}));  // waits for a message node 2 never gets
  const RunResult r = simulate(s, topology, schedule, 4 * 64);
  CHECK(r.message_arrival_cycles.at(0) == 18);
  // Last progress: the credit of message 0's packet reaches router 0 at cycle 27 (router 1
  // forwards it at 1 + 10 + 1 = 12, its 5-flit tail leaves at 17, the credit crosses the 10-cycle
  // wire back), after the reduction at 18. Credits in flight count as progress.
  CHECK(r.error ==
        "stall at cycle 527: node 2 waits for message 0 (chunk 0 from node 0) to issue message 1; "
        "node 3 waits for message 1 (chunk 1 from node 2) to arrive (not issued yet)");
}

TEST_CASE("a watchdog shorter than a wire or a reduction does not fire while data moves",
          "[sim][broken]") {
  ScenarioConfig s = base_scenario();
  s.watchdog_cycles = 100;
  s.nic.reduce_elems_per_cycle = 0.25;  // 64 elements: 256 cycles per packet
  s.host.message = HostTime{300, true};
  s.topology = test::topology_config("ring:4", 500);
  s.collective.verify_data = false;
  const Topology topology(s.topology);
  Schedule schedule = empty_schedule(4, 1);
  schedule.add(make_op(0, 1, 0, OpKind::kReduce));
  const RunResult r = simulate(s, topology, schedule, 256);
  INFO(r.error);
  CHECK(r.error.empty());
  CHECK(r.completion_cycles == 300 + 2 + 500 + 17 + 256);
}

TEST_CASE("source routes that cross the dateline twice are refused with the dependency cycle",
          "[sim][broken]") {
  // Every node sends around the ring 1.5 times (6 hops on ring:4, + direction): packets cross the
  // wraparound link twice, so the dateline classes no longer break the cyclic dependency. This
  // used to run into the watchdog; the channel dependency check now refuses it before
  // simulating, naming the cycle (all four + links in VC class 1, after the first wraparound).
  ScenarioConfig s = base_scenario();
  s.watchdog_cycles = 2000;
  s.router.vcs = 2;
  s.router.buffer_flits = 17;
  s.topology = test::topology_config("ring:4", 5);
  s.collective.verify_data = false;
  const Topology topology(s.topology);
  Schedule schedule = empty_schedule(4, 4);
  for (int u = 0; u < 4; ++u) {
    for (int m = 0; m < 4; ++m) {
      Op op = make_op(u, (u + 2) % 4, m, OpKind::kReduce);
      for (int h = 0; h < 6; ++h)
        op.path.push_back(topology.link_between((u + h) % 4, (u + h + 1) % 4));
      schedule.add(op);
    }
  }
  std::string cycle;
  for (int u = 0; u < 4; ++u) {
    const int link = topology.link_between(u, (u + 1) % 4);
    cycle += "link " + std::to_string(link) + " (" + std::to_string(u) + "->" +
             std::to_string((u + 1) % 4) + ", VC class 1) -> ";
  }
  try {
    simulate(s, topology, schedule, 4 * 8 * 256);
    FAIL("a deadlocking configuration was simulated");
  } catch (const SimulationConfigError& e) {
    const std::string what = e.what();
    INFO(what);
    CHECK(what.rfind("the routes of this schedule can deadlock on ring:4 with router.vcs 2: "
                     "channel dependency cycle link ",
                     0) == 0);
    // The cycle may start at any of its four links: compare it doubled.
    const std::string listed = what.substr(what.find("cycle ") + 6);
    CHECK((cycle + cycle).find(listed.substr(0, listed.rfind(" -> ") + 4)) != std::string::npos);
  }
}

/// Everything timing-related of a result, as text.
std::string timing_summary(const RunResult& r) {
  std::ostringstream out;
  out << r.completion_cycles << " " << r.packets;
  for (const std::uint64_t cycle : r.message_arrival_cycles) out << " " << cycle;
  for (const std::uint64_t cycle : r.node_finish_cycles) out << " " << cycle;
  for (const LinkStat& link : r.links) out << " " << link.bytes;
  return out.str();
}

TEST_CASE("two independent elaborations of one scenario give identical timing",
          "[sim][determinism]") {
  // A forked child elaborates and simulates the same point as this process; every arrival cycle
  // and link byte count must match. A multi-hop ring plus crossing traffic makes contention.
  ScenarioConfig s = base_scenario();
  s.topology = parse_topology_spec("torus:4x4");
  const Topology topology(s.topology);
  Schedule schedule = test::ring_allreduce({0, 5, 10, 15, 3, 6, 9, 12, 1, 7, 11, 13, 2, 4, 8, 14});
  // Add crossing traffic that contends with the ring.
  for (int u = 0; u < 16; ++u) schedule.add(make_op(u, (u + 8) % 16, u, OpKind::kReduce));
  s.collective.verify_data = false;
  int fds[2] = {-1, -1};
  REQUIRE(pipe(fds) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    close(fds[0]);
    const std::string text = timing_summary(simulate(s, topology, schedule, 16 * 4096));
    const ssize_t written = write(fds[1], text.data(), text.size());
    close(fds[1]);
    _exit(written == static_cast<ssize_t>(text.size()) ? 0 : 1);
  }
  close(fds[1]);
  const RunResult r = simulate(s, topology, schedule, 16 * 4096);
  std::string child;
  char buffer[4096];
  ssize_t n = 0;
  while ((n = read(fds[0], buffer, sizeof(buffer))) > 0)
    child.append(buffer, static_cast<std::size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(r.error.empty());
  CHECK(child == timing_summary(r));
}

TEST_CASE("invalid configurations throw SimulationConfigError", "[sim][config]") {
  ScenarioConfig s = base_scenario();
  s.topology = test::topology_config("torus:4x4", 10);
  s.router.vcs = 1;
  const Topology topology(s.topology);
  const Schedule schedule = test::ring_allreduce(test::snake_4x4());
  // No elaboration happens before validation fails, so several checks fit in one process.
  CHECK_THROWS_WITH(simulate(s, topology, schedule, 1024),
                    Catch::Contains("router.vcs must be >= 2"));
  s.router.vcs = 2;
  s.router.buffer_flits = 8;
  CHECK_THROWS_AS(simulate(s, topology, schedule, 1024), SimulationConfigError);
  s.router.buffer_flits = 318;
  Schedule bad = schedule;
  bad.ops[3].path = {0};
  CHECK_THROWS_WITH(simulate(s, topology, bad, 1024), Catch::Contains("schedule message 3: path"));
  Schedule small = empty_schedule(4, 1);
  CHECK_THROWS_WITH(simulate(s, topology, small, 1024), Catch::Contains("schedule is for 4 nodes"));
  CHECK_THROWS_WITH(simulate(s, topology, schedule, 1026), Catch::Contains("4-byte elements"));
  s.nic.issue = IssueChoice::kHardware;
  s.nic.step_barrier = true;
  s.nic.step_order = StepOrderChoice::kOff;
  CHECK_THROWS_WITH(simulate(s, topology, schedule, 1024),
                    Catch::Equals("nic.step_order: false contradicts nic.step_barrier true, which "
                                  "starts steps strictly in order (use auto or true)"));
  s.nic.step_order = StepOrderChoice::kAuto;
  s.clock_ghz = 0;  // the loader's range, from time_limits.h
  CHECK_THROWS_WITH(simulate(s, topology, schedule, 1024),
                    Catch::Equals("clock_ghz must be in [0.001, 100], got 0"));
  s.clock_ghz = 101;
  CHECK_THROWS_WITH(simulate(s, topology, schedule, 1024),
                    Catch::Equals("clock_ghz must be in [0.001, 100], got 101"));
}

}  // namespace
}  // namespace mt
