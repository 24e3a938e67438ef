// Concurrent all-reduces in one run: release times (software and hardware issue), merged
// schedules with explicit chunk boundaries, and the errors for mismatched boundaries or release
// times with the RTL scheduler. Every TEST_CASE elaborates SystemC at most once.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "model/collective/schedule_merge.h"
#include "model/sim/system.h"
#include "tests/support/sim_fixtures.h"

namespace mt {
namespace {

using test::base_scenario;
using test::empty_schedule;
using test::make_op;

// Ring:4 with 10-cycle wires: op0 0->1 unreleased, op1 2->3 released at `release`, op2 1->0
// waits for op0 and is released at cycle 10 (before op0 arrives), op3 1->2 waits for op0 and is
// released at 500 (after it arrives). One packet each.
RunResult run_released(IssueChoice issue, std::uint64_t release) {
  ScenarioConfig s = base_scenario();
  s.nic.issue = issue;
  s.topology = test::topology_config("ring:4", 10);
  s.collective.verify_data = false;
  const Topology topology(s.topology);
  Schedule schedule = empty_schedule(4, 4);
  schedule.add(make_op(0, 1, 0, OpKind::kReduce));
  Op late = make_op(2, 3, 1, OpKind::kReduce);
  late.release_cycle = release;
  schedule.add(late);
  if (issue ==
      IssueChoice::kSoftware) {  // hardware tables cannot hold both deps and a release time
    Op early = make_op(1, 0, 2, OpKind::kReduce, {0});
    early.release_cycle = 10;
    schedule.add(early);
    Op gated = make_op(1, 2, 3, OpKind::kReduce, {0});
    gated.release_cycle = 500;
    schedule.add(gated);
  }
  return simulate(s, topology, schedule, 4 * 256);
}

TEST_CASE("a release time delays an op by exactly the release, software issue", "[sim][release]") {
  const RunResult r = run_released(IssueChoice::kSoftware, 1000);
  INFO(r.error);
  REQUIRE(r.error.empty());
  // One packet: 2 router pipelines + 10 wire + 17 flits + 2 reduction = 31 cycles after issue
  // (the "software issue overhead" test's figure without the host overhead).
  CHECK(r.message_issue_cycles.at(0) == 0);
  CHECK(r.message_arrival_cycles.at(0) == 31);
  CHECK(r.message_issue_cycles.at(1) == 1000);
  CHECK(r.message_arrival_cycles.at(1) == 1031);
  CHECK(r.message_issue_cycles.at(2) == 31);  // its release (10) came before its dependency
  CHECK(r.message_arrival_cycles.at(2) == 62);
  CHECK(r.message_issue_cycles.at(3) == 500);  // its dependency came before its release
  CHECK(r.message_arrival_cycles.at(3) == 531);
  CHECK(r.completion_cycles == 1031);
}

TEST_CASE("a release beyond the watchdog bound is not a stall", "[sim][release]") {
  const RunResult r = run_released(IssueChoice::kSoftware, 300000);  // watchdog_cycles is 100000
  INFO(r.error);
  REQUIRE(r.error.empty());
  CHECK(r.message_arrival_cycles.at(1) == 300031);
}

TEST_CASE("a release time delays an op by exactly the release, hardware issue", "[sim][release]") {
  const RunResult r = run_released(IssueChoice::kHardware, 1000);
  INFO(r.error);
  REQUIRE(r.error.empty());
  // The release counter is rung at cycle 1000 and reaches the decision like an arrival, so the
  // released op issues exactly 1000 cycles after its mirror image without a release.
  CHECK(r.message_issue_cycles.at(1) == r.message_issue_cycles.at(0) + 1000);
  CHECK(r.message_arrival_cycles.at(1) == r.message_arrival_cycles.at(0) + 1000);
}

// Two 64 KiB snake rings on a 4x4 torus (150-cycle wires) merged into one schedule; bucket 1 is
// released at `release`. Returns (end of bucket 0, end of bucket 1) as last arrival cycles.
std::pair<std::uint64_t, std::uint64_t> two_rings(std::uint64_t release) {
  ScenarioConfig s = base_scenario();
  s.topology = test::topology_config("torus:4x4", 150);
  const Topology topology(s.topology);
  const Schedule ring = test::ring_allreduce(test::snake_4x4());
  const std::uint64_t elements = (1 << 16) / 4;
  const MergedSchedule merged = merge_schedules({{&ring, elements, 0}, {&ring, elements, release}});
  const RunResult r = simulate(s, topology, merged.schedule, 2 * (1 << 16));
  INFO(r.error);
  REQUIRE(r.error.empty());
  CHECK(r.data_verified);
  CHECK(r.data_mode == DataMode::kFull);
  const std::vector<std::uint64_t> ends = last_arrival_cycles(r, merged.op_begin);
  REQUIRE(ends.size() == 2);
  CHECK_THROWS_AS(last_arrival_cycles(r, {0, static_cast<int>(r.messages) + 1}), std::out_of_range);
  return {ends[0], ends[1]};
}

TEST_CASE("two buckets released far apart each take their stand-alone time", "[sim][merge]") {
  // Stand-alone: 12750 cycles ("ring all-reduce on a 4x4 torus: exact time and data").
  const auto [end0, end1] = two_rings(20000);
  CHECK(end0 == 12750);
  CHECK(end1 == 20000 + 12750);
}

TEST_CASE("two buckets released together share the links and take longer", "[sim][merge]") {
  const auto [end0, end1] = two_rings(0);
  CHECK(std::max(end0, end1) > 12750);
  CHECK(std::max(end0, end1) <= 2 * 12750);
}

TEST_CASE("chunk_offsets that do not match the buffer are a configuration error", "[sim][merge]") {
  ScenarioConfig s = base_scenario();
  s.topology = test::topology_config("ring:4", 10);
  const Topology topology(s.topology);
  const Schedule ring = test::ring_allreduce(test::identity_order(4));
  const MergedSchedule merged = merge_schedules({{&ring, 100, 0}, {&ring, 28, 0}});
  CHECK_THROWS_WITH(simulate(s, topology, merged.schedule, 4 * 256),
                    "schedule chunk_offsets cover 128 elements but the buffer holds 256 elements");
  // Release times are no longer refused with the RTL scheduler (its host doorbell rings them;
  // ctest rtl_cosim_train_mlp_small): without the co-simulation linked, only that is missing.
  s.nic.issue = mt::IssueChoice::kHardware;
  s.nic.scheduler = mt::SchedulerImpl::kRtl;
  Schedule released = ring;
  released.ops[1].release_cycle = 1000;
  CHECK_THROWS_WITH(simulate(s, topology, released, 4 * 256),
                    Catch::Contains("nic.scheduler rtl needs the RTL co-simulation"));
}

}  // namespace
}  // namespace mt
