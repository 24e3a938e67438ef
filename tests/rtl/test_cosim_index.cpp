// The table index of a co-simulated grant: the Verilated nic_sched reports it modulo
// 2^IndexBits, and the adapter makes it whole again. An entry may wait in its window while far
// more than 2^IndexBits later entries of other ports pass it (no step order); its grant must
// still name it, as the C++ model's does.
#include <catch2/catch.hpp>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "model/sched/scheduler_model.h"
#include "tb/rtl_adapter/rtl_scheduler.h"
#include "tests/support/rtl_build_config.h"

namespace mt {
namespace {

// (cycle, port, table index) of every grant.
struct Grant {
  int cycle, port, index;
  bool operator==(const Grant& o) const {
    return cycle == o.cycle && port == o.port && index == o.index;
  }
};

std::vector<Grant> grants_of(CycleScheduler& engine, const std::vector<TableEntry>& table,
                             int arrival_cycle) {
  engine.load(table);
  engine.set_port_ready(0, true);
  engine.set_port_ready(1, true);
  std::vector<Grant> grants;
  for (int cycle = 0; cycle < 4 * static_cast<int>(table.size()) + 64 && !engine.done(); ++cycle) {
    if (cycle == arrival_cycle) engine.on_arrival(1);
    for (const IssueCommand& c : engine.tick()) grants.push_back({cycle, c.port, c.index});
  }
  return grants;
}

// Entry 0 on port 0 waits for one arrival on counter 1; then 1.5 x 2^IndexBits entries on port 1
// (distinct chunks) that wait for nothing.
std::vector<TableEntry> passed_table() {
  const SchedulerBuild b = scheduler_build();
  std::vector<TableEntry> table(1);
  table[0].wait_counter = 1;
  table[0].wait_count = 1;
  const int passing = 3 << (b.index_bits - 1);
  for (int i = 0; i < passing; ++i) {
    TableEntry e;
    e.port = 1;
    e.chunk = i % b.chunks;
    e.peer = 1;
    table.push_back(e);
  }
  return table;
}

TEST_CASE("a grant names its entry after more than 2^IndexBits later entries passed it",
          "[rtl][cosim]") {
  SchedulerModelConfig c = test::rtl_build_config();
  c.step_order = false;
  // Entry 0 (port 0) waits for one arrival on counter 1; the next 1.5 x 2^IndexBits entries
  // (port 1) wait for nothing and are granted meanwhile.
  const std::vector<TableEntry> table = passed_table();
  const int passing = static_cast<int>(table.size()) - 1;
  const int arrival = 4 * passing;  // after every port-1 entry has gone
  SchedulerModel model(c);
  RtlCycleScheduler rtl(c);
  const std::vector<Grant> expected = grants_of(model, table, arrival);
  const std::vector<Grant> got = grants_of(rtl, table, arrival);
  REQUIRE(expected.size() == table.size());
  CHECK(expected.back().port == 0);
  CHECK(expected.back().index == 0);
  REQUIRE(got.size() == expected.size());
  CHECK(got.back().index == 0);
  CHECK(got == expected);
}

TEST_CASE("a grant held until accepted names the same entry every cycle it shows", "[rtl][cosim]") {
  // Three entries on port 0 that wait for nothing; the DMA does not accept until cycle 6, so
  // the first grant shows from the cycle it is made until then, and the next two follow.
  const SchedulerModelConfig c = test::rtl_build_config();
  std::vector<TableEntry> table(3);
  for (int i = 0; i < 3; ++i) table[static_cast<std::size_t>(i)].chunk = i;
  const auto run = [&](CycleScheduler& engine) {
    engine.load(table);
    engine.set_port_ready(0, true);
    engine.set_grant_ack(0, false);
    std::vector<Grant> grants;
    for (int cycle = 0; cycle < 40 && !engine.done(); ++cycle) {
      if (cycle == 6) engine.set_grant_ack(0, true);
      for (const IssueCommand& g : engine.tick()) grants.push_back({cycle, g.port, g.index});
    }
    return grants;
  };
  SchedulerModel model(c);
  RtlCycleScheduler rtl(c);
  const std::vector<Grant> expected = run(model);
  const std::vector<Grant> got = run(rtl);
  REQUIRE(expected.size() > 3);  // the first grant shows in several cycles
  CHECK(expected.front().index == 0);
  CHECK(expected[1].index == 0);
  CHECK(expected.back().index == 2);
  CHECK(got == expected);
}

// Runs `table` on the C++ model and on the RTL (no step order) with ports 0..ports-1 ready and,
// from cycle `ticks_from`, a watchdog tick every cycle (limit 8): both must flag a stall that
// names entry 0.
void check_stall_names_entry_0(const std::vector<TableEntry>& table, int ports, int ticks_from) {
  SchedulerModelConfig c = test::rtl_build_config();
  c.step_order = false;
  c.watchdog_limit = 8;
  const auto stall = [&](CycleScheduler& engine) {
    engine.load(table);
    for (int p = 0; p < ports; ++p) engine.set_port_ready(p, true);
    for (int cycle = 0; cycle < 2 * ticks_from + 64 && !engine.fault(); ++cycle) {
      if (cycle > ticks_from) engine.on_watchdog_tick();
      engine.tick();
    }
    return engine.fault();
  };
  SchedulerModel model(c);
  RtlCycleScheduler rtl(c);
  const SchedulerFault expected = stall(model);
  const SchedulerFault got = stall(rtl);
  REQUIRE(expected.cause == SchedulerFaultCause::kStalled);
  CHECK(expected.info == 0);
  CHECK(got.cause == expected.cause);
  CHECK(got.info == expected.info);
}

TEST_CASE("a stall names its entry after more than 2^IndexBits later entries passed it",
          "[rtl][cosim][errors]") {
  // As above, but the arrival never comes: once port 1's entries have gone, the watchdog flags
  // the stall and names entry 0, the oldest entry of the lowest port whose window holds one; the
  // RTL gives its index modulo 2^IndexBits (0), which entry 256, streamed later, shares.
  const std::vector<TableEntry> table = passed_table();
  check_stall_names_entry_0(table, 2, 2 * static_cast<int>(table.size()));
}

TEST_CASE("a stall names the entry of the lowest port whose window holds one, not of the ring",
          "[rtl][cosim][errors]") {
  // Entry 0 (port 1) waits forever; entries 1..2^IndexBits - 7 (port 0) wait for nothing and
  // go; the last six entries below 2^IndexBits (port 2) wait forever: four fill port 2's
  // window and the fifth blocks the fetch register, so entry 2^IndexBits (port 0, behind it in
  // the ring) never reaches port 0's window. The stall names entry 0 (port 1, the lowest port
  // whose window holds an entry), whose low bits entry 2^IndexBits, the oldest waiting entry of
  // the lower port 0, shares.
  const SchedulerBuild b = scheduler_build();
  REQUIRE(b.window == 4);
  const int wrap = 1 << b.index_bits;
  std::vector<TableEntry> table;
  for (int i = 0; i <= wrap; ++i) {
    TableEntry e;
    e.chunk = i % b.chunks;
    e.peer = 1;
    e.port = i == 0 ? 1 : i < wrap - 6 || i == wrap ? 0 : 2;
    if (e.port != 0) {
      e.wait_counter = 1;
      e.wait_count = 1;  // never arrives
    }
    table.push_back(e);
  }
  check_stall_names_entry_0(table, 3, 2 * wrap);
}

TEST_CASE("a pin trace that cannot be written stops the co-simulation", "[rtl][cosim]") {
  // /dev/full takes the header into its buffer and refuses the first clock's line. (Where it
  // is missing, opening it would make a regular file there: refused first.)
  REQUIRE(std::filesystem::is_character_file("/dev/full"));
  const SchedulerModelConfig c = test::rtl_build_config();
  RtlCycleScheduler rtl(c, "/dev/full");
  CHECK_THROWS_WITH(rtl.load(std::vector<TableEntry>(2)),
                    "RTL scheduler: writing the pin trace /dev/full failed");
}

}  // namespace
}  // namespace mt
