// The host of software issue in a whole system, one parameter at a time, each cycle derived by
// formula: on a 4-node ring (2 ports per node, 10-cycle wires), a one-packet message of 256 bytes
// arrives 2 router pipelines + 10 wire + 17 flits + 2 reduction cycles = 31 cycles after its
// issue, and occupies its port for 17 cycles.
#include <catch2/catch.hpp>

#include "tests/support/sim_fixtures.h"

namespace mt {
namespace {

using test::base_scenario;
using test::empty_schedule;
using test::make_op;

constexpr std::uint64_t kFlight = 2 + 10 + 17 + 2;  // issue -> arrival of one packet
constexpr std::uint64_t kPortBusy = 17;             // a 17-flit packet on a 16 B/cycle port

RunResult run_host(const HostConfig& host, const Schedule& schedule) {
  ScenarioConfig s = base_scenario();
  s.host = host;
  s.topology = test::topology_config("ring:4", 10);
  s.collective.verify_data = false;
  const Topology topology(s.topology);
  REQUIRE(topology.ports_per_node() == 2);
  const RunResult r = simulate(s, topology, schedule, schedule.num_chunks * 256);
  INFO(r.error);
  REQUIRE(r.error.empty());
  return r;
}

HostConfig cycles_host() {
  HostConfig h;
  h.preset = HostPreset::kFree;
  return h;
}

TEST_CASE(
    "the host posts a message after message + doorbell cycles and learns of arrivals "
    "notify cycles late",
    "[sim][host]") {
  HostConfig h = cycles_host();
  h.notify = HostTime{40, true};
  h.message = HostTime{30, true};
  h.doorbell = HostTime{20, true};
  Schedule schedule = empty_schedule(4, 1);
  schedule.add(make_op(0, 1, 0, OpKind::kReduce));
  schedule.add(make_op(1, 0, 0, OpKind::kBroadcast, {0}));
  const RunResult r = run_host(h, schedule);
  CHECK(r.message_issue_cycles.at(0) == 30 + 20);
  CHECK(r.message_arrival_cycles.at(0) == 50 + kFlight);
  // Node 1 knows message 0 arrived 40 cycles late, then posts message 1 in 50.
  CHECK(r.message_issue_cycles.at(1) == 50 + kFlight + 40 + 50);
}

// Two messages from node 0 to node 1 (the same port); 10 cycles per message, 100 per doorbell.
RunResult two_on_one_port(int batch) {
  Schedule schedule = empty_schedule(4, 2);
  schedule.add(make_op(0, 1, 0, OpKind::kReduce));
  schedule.add(make_op(0, 1, 1, OpKind::kReduce));
  HostConfig h = cycles_host();
  h.message = HostTime{10, true};
  h.doorbell = HostTime{100, true};
  h.doorbell_batch = batch;
  return run_host(h, schedule);
}

TEST_CASE("without batching each message rings its own doorbell", "[sim][host]") {
  const RunResult r = two_on_one_port(1);
  CHECK(r.message_issue_cycles.at(0) == 110);
  CHECK(r.message_issue_cycles.at(1) == 220);
}

TEST_CASE("doorbell batching posts a port's ready messages under one doorbell", "[sim][host]") {
  const RunResult r = two_on_one_port(2);
  CHECK(r.message_issue_cycles.at(0) == 120);              // both posted at 2 x 10 + 100
  CHECK(r.message_issue_cycles.at(1) == 120 + kPortBusy);  // once the port is free
}

// Two messages from node 0 on its two ports (to 1 and to 3), 100 cycles to post each.
RunResult two_ports(int contexts) {
  Schedule schedule = empty_schedule(4, 2);
  schedule.add(make_op(0, 1, 0, OpKind::kReduce));
  schedule.add(make_op(0, 3, 1, OpKind::kReduce));
  HostConfig h = cycles_host();
  h.message = HostTime{100, true};
  h.contexts = contexts;
  return run_host(h, schedule);
}

TEST_CASE("one issue context posts one message at a time", "[sim][host]") {
  const RunResult r = two_ports(1);
  CHECK(r.message_issue_cycles.at(0) == 100);
  CHECK(r.message_issue_cycles.at(1) == 200);
}

TEST_CASE("issue contexts post in parallel", "[sim][host]") {
  const RunResult r = two_ports(2);
  CHECK(r.message_issue_cycles.at(0) == 100);
  CHECK(r.message_issue_cycles.at(1) == 100);
}

TEST_CASE("a later step waits for the host's step synchronisation", "[sim][host]") {
  Schedule schedule = empty_schedule(4, 2);
  schedule.add(make_op(0, 1, 0, OpKind::kReduce, {}, 0));
  schedule.add(make_op(0, 3, 1, OpKind::kReduce, {}, 1));
  HostConfig h = cycles_host();
  h.message = HostTime{10, true};
  h.step = HostTime{500, true};
  const RunResult r = run_host(h, schedule);
  CHECK(r.message_issue_cycles.at(0) == 10);
  CHECK(r.message_issue_cycles.at(1) == 10 + 500 + 10);
}

TEST_CASE("host times in ns are converted with the scenario's clock", "[sim][host]") {
  Schedule schedule = empty_schedule(4, 1);
  schedule.add(make_op(0, 1, 0, OpKind::kReduce));
  HostConfig h = cycles_host();
  h.message = HostTime{25, false};  // 25 ns at 2 GHz: 50 cycles
  ScenarioConfig s = base_scenario();
  s.clock_ghz = 2.0;
  s.host = h;
  s.topology = test::topology_config("ring:4", 10);
  const Topology topology(s.topology);
  const RunResult r = simulate(s, topology, schedule, 256);
  CHECK(r.message_issue_cycles.at(0) == 50);
}

TEST_CASE("hardware issue ignores the host", "[sim][host]") {
  Schedule schedule = empty_schedule(4, 1);
  schedule.add(make_op(0, 1, 0, OpKind::kReduce));
  ScenarioConfig s = base_scenario();
  s.host.preset = HostPreset::kFree;
  s.host.message = HostTime{1000, true};
  s.nic.issue = IssueChoice::kHardware;
  s.topology = test::topology_config("ring:4", 10);
  const Topology topology(s.topology);
  const RunResult r = simulate(s, topology, schedule, 256);
  INFO(r.error);
  CHECK(r.message_issue_cycles.at(0) < 10);  // the scheduler's decision, not 1000
}

TEST_CASE("a preset's figures apply unless overridden, converted with the clock", "[sim][host]") {
  // cpu_proxy (docs/host.md): notify 1000 ns, message 200 ns, doorbell 400 ns per 4 messages,
  // one context. At 2 GHz every ns is 2 cycles; an override replaces its figure only.
  HostConfig h;
  h.preset = HostPreset::kCpuProxy;
  h.message = HostTime{50, false};
  const HostTiming t = host_timing(h, 2.0);
  CHECK(t.notify_cycles == 2000);
  CHECK(t.message_cycles == 100);
  CHECK(t.doorbell_cycles == 800);
  CHECK(t.doorbell_batch == 4);
  CHECK(t.contexts == 1);
  CHECK(t.step_cycles == 0);
  h.preset = HostPreset::kGpuInitiated;
  h.message.reset();
  CHECK(host_timing(h, 1.0).contexts == 32);
  // In a run: node 0 posts its one message after 200 + 400 cycles at 1 GHz; node 1 learns of
  // the arrival 1000 cycles later and posts the broadcast the same way.
  Schedule schedule = empty_schedule(4, 1);
  schedule.add(make_op(0, 1, 0, OpKind::kReduce));
  schedule.add(make_op(1, 0, 0, OpKind::kBroadcast, {0}));
  HostConfig proxy;
  proxy.preset = HostPreset::kCpuProxy;
  const RunResult r = run_host(proxy, schedule);
  CHECK(r.message_issue_cycles.at(0) == 600);
  CHECK(r.message_issue_cycles.at(1) == 600 + kFlight + 1000 + 600);
  CHECK(r.host_preset == HostPreset::kCpuProxy);
}

}  // namespace
}  // namespace mt
