// What a table needs of a nic_sched build and what the build lacks (model/sched/scheduler_build.h):
// the rule `nic.scheduler_table_order: auto` keeps planned tables by and every hardware-issue
// result's table_misfit.

#include <catch2/catch.hpp>
#include <string>

#include "model/sched/scheduler_build.h"

namespace mt {
namespace {

TEST_CASE("a table's needs come from its schedule and its packing, in the RTL's order", "[table]") {
  Schedule schedule;
  schedule.nodes = 16;
  schedule.num_chunks = 0;  // none counted: the RTL still needs one id of each
  schedule.num_flows = 3;
  schedule.num_steps = 519;
  PackedSchedule packed;
  packed.ports = 4;
  packed.counters = 64;
  packed.max_count = 256;
  const TableCounts needs = table_needs(packed, schedule);
  REQUIRE(needs.size() == kTableParams.size());
  const TableCounts expected = {{"Nodes", 16},  {"Ports", 4},     {"Chunks", 1},    {"Flows", 3},
                                {"Steps", 519}, {"Counters", 64}, {"MaxCount", 256}};
  CHECK(needs == expected);
  // What every order needs: the first five (counters and thresholds are the packing's).
  CHECK(schedule_needs(schedule, 4) == TableCounts(expected.begin(), expected.begin() + 5));
}

TEST_CASE("a misfit names every parameter the build lacks, build then need", "[table]") {
  const TableCounts needs = {{"Nodes", 16},  {"Ports", 4},     {"Chunks", 8192}, {"Flows", 3},
                             {"Steps", 519}, {"Counters", 64}, {"MaxCount", 256}};
  const TableCounts build = {{"Nodes", 256}, {"Ports", 6},      {"Chunks", 4096}, {"Flows", 256},
                             {"Steps", 512}, {"Counters", 256}, {"MaxCount", 255}};
  CHECK(misfit(needs, build) == "Chunks 4096 < 8192, Steps 512 < 519, MaxCount 255 < 256");
  // Equal is a fit; a parameter the capacity does not name is not checked.
  CHECK(misfit(needs, {{"Steps", 519}, {"Nodes", 16}}).empty());
  CHECK(misfit(needs, {}).empty());
}

TEST_CASE("the configured build is the parameter file's, every table field at least 1", "[table]") {
  const SchedulerBuild b = scheduler_build();
  CHECK_FALSE(b.file.empty());
  CHECK(b.path.size() >= b.file.size());
  CHECK(b.path.compare(b.path.size() - b.file.size(), b.file.size(), b.file) == 0);
  const TableCounts capacity = b.table_capacity();
  REQUIRE(capacity.size() == kTableParams.size());
  for (std::size_t i = 0; i < capacity.size(); ++i) {
    CHECK(capacity[i].first == kTableParams[i]);
    CHECK(capacity[i].second >= 1);
  }
  CHECK(b.format() ==
        TableFormat::make(b.nodes, b.ports, b.chunks, b.flows, b.steps, b.counters, b.max_count));
}

}  // namespace
}  // namespace mt
