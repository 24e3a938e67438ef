// The software issue policy (golden model): ready operations in program order per port, issue as
// soon as every dependency has arrived.
#include <catch2/catch.hpp>

#include <vector>

#include "model/sched/software_scheduler.h"

namespace mt {
namespace {

TEST_CASE("ops without dependencies are ready at once, in program order per port",
          "[nic][scheduler]") {
  SoftwareScheduler s;
  s.load({{10, 0, 0, {}}, {11, 1, 0, {}}, {12, 0, 0, {}}}, 2);
  CHECK(s.size() == 3);
  CHECK(s.next_ready(0, 0) == 0);
  CHECK(s.next_ready(1, 0) == 1);
  s.pop(0);
  CHECK(s.is_issued(0));
  CHECK(s.next_ready(0, 0) == 2);
  s.pop(0);
  CHECK(s.next_ready(0, 0) == -1);
  s.pop(1);
  CHECK(s.issued() == 3);
}

TEST_CASE("an op is not ready before its release cycle, even with its dependencies met",
          "[nic][scheduler]") {
  SoftwareScheduler s;
  // Op 0: released at 100; op 1: waits for message 5, released at 50; op 2: no constraint.
  s.load({{10, 0, 0, {}, 100}, {11, 0, 0, {5}, 50}, {12, 0, 0, {}, 0}}, 1);
  CHECK(s.next_ready(0, 0) == 2);
  CHECK(s.next_event_cycle(0) == 100);
  s.pop(0);
  s.on_arrival(5);  // at cycle 10: op 1 now waits for its release only
  CHECK(s.next_ready(0, 10) == -1);
  CHECK(s.next_event_cycle(10) == 50);
  CHECK(s.next_ready(0, 50) == 1);  // released first, and before op 0 in time
  s.pop(0);
  CHECK(s.next_ready(0, 99) == -1);
  CHECK(s.next_ready(0, 100) == 0);
  s.pop(0);
  CHECK(s.next_event_cycle(100) == Scheduler::kNoEvent);
  CHECK(s.issued() == 3);
}

TEST_CASE("an op becomes ready when its last dependency arrives", "[nic][scheduler]") {
  SoftwareScheduler s;
  // Program: op 0 needs messages 5 and 7 (7 listed twice), op 1 needs 5, op 2 has none.
  s.load({{20, 0, 1, {7, 5, 7}}, {21, 0, 1, {5}}, {22, 0, 2, {}}}, 1);
  CHECK(s.next_ready(0, 0) == 2);
  CHECK(s.missing_deps(0) == std::vector<int>{5, 7});
  s.on_arrival(5);
  // Both 1 and 2 are ready; program order puts op 1 first.
  CHECK(s.next_ready(0, 0) == 1);
  CHECK(s.missing_deps(0) == std::vector<int>{7});
  s.pop(0);
  CHECK(s.next_ready(0, 0) == 2);
  s.on_arrival(5);   // a repeated arrival changes nothing
  s.on_arrival(99);  // nobody waits for it
  s.on_arrival(7);
  // Op 0 is now ready and earlier in program order than op 2.
  CHECK(s.next_ready(0, 0) == 0);
  s.pop(0);
  CHECK(s.next_ready(0, 0) == 2);
  s.pop(0);
  CHECK(s.issued() == 3);
  CHECK(s.next_ready(0, 0) == -1);
  CHECK_THROWS_AS(s.pop(0), SchedulerError);
  CHECK_THROWS_WITH(s.pop(0), "SoftwareScheduler::pop: no ready operation");
}

TEST_CASE("a port number outside the NIC is rejected", "[nic][scheduler]") {
  SoftwareScheduler s;
  CHECK_THROWS_AS(s.load({{3, 2, 0, {}}}, 2), SchedulerError);
  CHECK_THROWS_WITH(s.load({{3, 2, 0, {}}}, 2), Catch::Contains("message 3 uses port 2 of 2"));
  CHECK_THROWS_AS(s.load({}, 0), SchedulerError);
}

}  // namespace
}  // namespace mt
