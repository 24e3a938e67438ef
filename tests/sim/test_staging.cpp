// Receive staging (Op::apply_after): an exchange in which both nodes send and receive the same
// chunk in one step. The NIC holds a message that arrives before the receiver has issued its own
// and reduces it only then; without staging the late sender would send data already holding its
// peer's. Every TEST_CASE elaborates SystemC at most once.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "model/collective/verify.h"
#include "model/sim/system.h"
#include "tests/support/sim_fixtures.h"

namespace mt {
namespace {

using test::base_scenario;
using test::empty_schedule;
using test::make_op;

// ring:2 with 10-cycle wires, one 256-byte chunk: op0 0->1 at once, op1 1->0 released at cycle
// 1000; with `staged` each names the other as apply_after.
Schedule exchange(bool staged) {
  Schedule schedule = empty_schedule(2, 1);
  Op first = make_op(0, 1, 0, OpKind::kReduce);
  Op second = make_op(1, 0, 0, OpKind::kReduce);
  second.release_cycle = 1000;
  if (staged) {
    first.apply_after = 1;
    second.apply_after = 0;
  }
  schedule.add(first);
  schedule.add(second);
  return schedule;
}

RunResult run_exchange(IssueChoice issue, bool staged) {
  ScenarioConfig s = base_scenario();
  s.nic.issue = issue;
  s.topology = test::topology_config("ring:2", 10);
  const Topology topology(s.topology);
  return simulate(s, topology, exchange(staged), 256);
}

TEST_CASE("the verifier accepts an exchange only with receive staging", "[staging][verify]") {
  const Topology topology(test::topology_config("ring:2", 10));
  const VerifyReport plain = verify(exchange(false), topology);
  CHECK_FALSE(plain.ok);
  CHECK(plain.first_error ==
        "node 0 chunk 0: arrival of message 1 and issue of message 0 are unordered: the value "
        "sent depends on timing");
  const VerifyReport staged = verify(exchange(true), topology);
  INFO(staged.first_error);
  CHECK(staged.ok);
}

TEST_CASE("a staged message is reduced when the receiver issues its own (software issue)",
          "[staging][sim]") {
  const RunResult r = run_exchange(IssueChoice::kSoftware, true);
  INFO(r.error);
  REQUIRE(r.error.empty());
  CHECK(r.data_verified);
  // One packet: 2 router pipelines + 10 wire + 17 flits = 29 cycles to land; node 1 issues its
  // own at its release (1000), then the held message takes the reduction unit: 64 elements at
  // 32 per cycle, 2 cycles.
  CHECK(r.message_issue_cycles.at(0) == 0);
  CHECK(r.message_arrival_cycles.at(0) == 1002);
  CHECK(r.message_issue_cycles.at(1) == 1000);
  CHECK(r.message_arrival_cycles.at(1) == 1031);  // node 0 had issued: reduced as it lands
  CHECK(r.completion_cycles == 1031);
  // Node 1 held message 0 (the whole 256-byte chunk); node 0 held nothing.
  CHECK(r.max_staged_bytes == 256);
  CHECK(r.table_counters == 0);  // software issue: no table
}

TEST_CASE("staging holds a message only until it is applied: two exchanges peak at one",
          "[staging][sim]") {
  // ring:2, two 256-byte chunks, each exchanged as above: chunk 0 by messages 0 (at once) and 1
  // (released at 1000), chunk 1 by messages 2 (released at 2000) and 3 (at 3000). Node 1 holds
  // message 0 from cycle 29 to 1000 and message 2 from 2029 to 3000: never both, so the peak is
  // one chunk; a buffer that were never given back would reach two.
  Schedule schedule = empty_schedule(2, 2);
  const std::uint64_t releases[] = {0, 1000, 2000, 3000};
  for (int m = 0; m < 4; ++m) {
    Op op = make_op(m % 2, 1 - m % 2, m / 2, OpKind::kReduce);
    op.release_cycle = releases[m];
    op.apply_after = m ^ 1;  // the other message of its exchange
    schedule.add(op);
  }
  ScenarioConfig s = base_scenario();
  s.topology = test::topology_config("ring:2", 10);
  const Topology topology(s.topology);
  REQUIRE(verify(schedule, topology).ok);
  const RunResult r = simulate(s, topology, schedule, 512);
  INFO(r.error);
  REQUIRE(r.error.empty());
  CHECK(r.data_verified);
  // Each held message is reduced (2 cycles) once node 1 issues its own; the other side lands
  // 29 cycles after its issue and is reduced at once.
  CHECK(r.message_arrival_cycles == std::vector<std::uint64_t>{1002, 1031, 3002, 3031});
  CHECK(r.max_staged_bytes == 256);
}

TEST_CASE("a staged message is reduced when the receiver issues its own (hardware issue)",
          "[staging][sim]") {
  const RunResult r = run_exchange(IssueChoice::kHardware, true);
  INFO(r.error);
  REQUIRE(r.error.empty());
  CHECK(r.data_verified);
  CHECK(r.message_arrival_cycles.at(0) == r.message_issue_cycles.at(1) + 2);
  CHECK(r.message_arrival_cycles.at(1) == r.message_issue_cycles.at(1) + 31);
  // One entry per node; node 1 counts message 0 (waited on by nobody) and its release cycle
  // (its entry is released at cycle 1000): two counters.
  CHECK(r.table_entries == 1);
  CHECK(r.table_counters == 2);
}

TEST_CASE("without staging the late sender sends its peer's data back: the check fails",
          "[staging][sim]") {
  ScenarioConfig s = base_scenario();
  s.topology = test::topology_config("ring:2", 10);
  // simulate() runs what the verifier refuses (mtsim verifies first), so the data shows it.
  const Topology topology(s.topology);
  const RunResult r = simulate(s, topology, exchange(false), 256);
  CHECK_FALSE(r.data_verified);
  CHECK_THAT(r.error, Catch::Contains("node 0"));
  CHECK(r.max_staged_bytes == 0);
}

}  // namespace
}  // namespace mt
