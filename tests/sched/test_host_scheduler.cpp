// Software issue (HostScheduler), the golden model of a host that issues a node's messages:
// program order per port, a message ready once every dependency is known to the host, and the
// host's times (notification, per message, per doorbell, per step) exact to the cycle.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "model/sched/host_scheduler.h"

namespace mt {
namespace {

HostTiming free_host() {
  return HostTiming{};
}

TEST_CASE("a free host: ops without dependencies are ready at once, in program order per port",
          "[sched][host]") {
  HostScheduler s({{10, 0, 0, {}}, {11, 1, 0, {}}, {12, 0, 0, {}}}, 2, free_host());
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
  CHECK(s.doorbells() == 3);  // one doorbell per message (doorbell_batch 1)
}

TEST_CASE("an op is not ready before its release cycle, even with its dependencies met",
          "[sched][host]") {
  // Op 0: released at 100; op 1: waits for message 5, released at 50; op 2: no constraint.
  HostScheduler s({{10, 0, 0, {}, 100}, {11, 0, 0, {5}, 50}, {12, 0, 0, {}, 0}}, 1, free_host());
  CHECK(s.next_ready(0, 0) == 2);
  CHECK(s.next_event_cycle(0) == 100);
  s.pop(0);
  s.on_arrival(5, 0, 10);  // op 1 now waits for its release only
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

TEST_CASE("an op becomes ready when its last dependency arrives", "[sched][host]") {
  // Op 0 needs messages 5 and 7 (7 listed twice), op 1 needs 5, op 2 has none.
  HostScheduler s({{20, 0, 1, {7, 5, 7}}, {21, 0, 1, {5}}, {22, 0, 2, {}}}, 1, free_host());
  CHECK(s.next_ready(0, 0) == 2);
  s.on_arrival(5, 0, 0);
  CHECK(s.next_ready(0, 0) == 1);  // both 1 and 2 ready: program order puts op 1 first
  s.pop(0);
  CHECK(s.next_ready(0, 0) == 2);
  s.on_arrival(5, 0, 0);  // a repeated arrival changes nothing
  s.pop(0);
  CHECK(s.next_ready(0, 0) == -1);
  s.on_arrival(7, 0, 3);
  CHECK(s.next_ready(0, 3) == 0);
}

TEST_CASE("the host learns of an arrival notify_cycles late", "[sched][host]") {
  HostTiming t;
  t.notify_cycles = 40;
  HostScheduler s({{20, 0, 1, {5}}}, 1, t);
  s.on_arrival(5, 0, 100);
  CHECK(s.next_ready(0, 139) == -1);
  CHECK(s.next_event_cycle(100) == 140);
  CHECK(s.next_ready(0, 140) == 0);
}

TEST_CASE("one context posts one message at a time: message + doorbell cycles each",
          "[sched][host]") {
  HostTiming t;
  t.message_cycles = 30;
  t.doorbell_cycles = 20;
  // Three ready messages on two ports: posted at 50, 100, 150 in program order.
  HostScheduler s({{1, 0, 0, {}}, {2, 1, 0, {}}, {3, 0, 0, {}}}, 2, t);
  CHECK(s.next_ready(0, 49) == -1);
  CHECK(s.next_event_cycle(49) == 50);
  CHECK(s.next_ready(0, 50) == 0);
  CHECK(s.next_ready(1, 99) == -1);
  CHECK(s.next_ready(1, 100) == 1);
  s.pop(0);
  CHECK(s.next_ready(0, 149) == -1);
  CHECK(s.next_ready(0, 150) == 2);
  CHECK(s.doorbells() == 3);
}

TEST_CASE("doorbell batching posts up to k ready messages of one port under one doorbell",
          "[sched][host]") {
  HostTiming t;
  t.message_cycles = 10;
  t.doorbell_cycles = 100;
  t.doorbell_batch = 2;
  // Port 0: ops 0, 1, 3; port 1: op 2. Batches: {0, 1} at 2x10+100 = 120, {2} at 120+110 =
  // 230, {3} at 230+110 = 340.
  HostScheduler s({{1, 0, 0, {}}, {2, 0, 0, {}}, {3, 1, 0, {}}, {4, 0, 0, {}}}, 2, t);
  CHECK(s.next_ready(0, 119) == -1);
  CHECK(s.next_ready(0, 120) == 0);
  s.pop(0);
  CHECK(s.next_ready(0, 120) == 1);
  s.pop(0);
  CHECK(s.next_ready(1, 229) == -1);
  CHECK(s.next_ready(1, 230) == 2);
  CHECK(s.next_ready(0, 339) == -1);
  CHECK(s.next_ready(0, 340) == 3);
  CHECK(s.doorbells() == 3);
}

TEST_CASE("issue contexts post in parallel", "[sched][host]") {
  HostTiming t;
  t.message_cycles = 50;
  t.contexts = 2;
  // Two contexts: ops 0 and 1 both at 50, op 2 at 100.
  HostScheduler s({{1, 0, 0, {}}, {2, 1, 0, {}}, {3, 1, 0, {}}}, 2, t);
  CHECK(s.next_ready(0, 50) == 0);
  CHECK(s.next_ready(1, 50) == 1);
  s.pop(1);
  CHECK(s.next_ready(1, 99) == -1);
  CHECK(s.next_ready(1, 100) == 2);
}

TEST_CASE("a later step pays step_cycles once, the first step none", "[sched][host]") {
  HostTiming t;
  t.message_cycles = 10;
  t.step_cycles = 1000;
  // Steps 0, 0, 1: posted at 10, 20, then 20 + 1000 + 10 = 1030.
  HostScheduler s({{1, 0, 0, {}}, {2, 0, 0, {}}, {3, 0, 1, {}}}, 1, t);
  CHECK(s.next_ready(0, 10) == 0);
  s.pop(0);
  CHECK(s.next_ready(0, 20) == 1);
  s.pop(0);
  CHECK(s.next_ready(0, 1029) == -1);
  CHECK(s.next_ready(0, 1030) == 2);
}

TEST_CASE("a dependency learned while the context is busy waits for it", "[sched][host]") {
  HostTiming t;
  t.message_cycles = 100;
  t.notify_cycles = 5;
  // Op 0 (no deps) posts 0..100; op 1's dependency is known at 15, but the context is busy
  // until 100: op 1 is posted at 200.
  HostScheduler s({{1, 0, 0, {}}, {2, 0, 0, {9}}}, 1, t);
  s.on_arrival(9, 0, 10);
  CHECK(s.next_ready(0, 100) == 0);
  s.pop(0);
  CHECK(s.next_ready(0, 199) == -1);
  CHECK(s.next_event_cycle(100) == 200);
  CHECK(s.next_ready(0, 200) == 1);
}

TEST_CASE("a port number outside the NIC or a zero batch is refused", "[sched][host]") {
  CHECK_THROWS_WITH(HostScheduler({{10, 2, 0, {}}}, 2, free_host()),
                    "host: message 10 uses port 2 of 2");
  HostTiming t;
  t.doorbell_batch = 0;
  CHECK_THROWS_WITH(HostScheduler({{10, 0, 0, {}}}, 1, t),
                    "host: doorbell_batch and contexts must be >= 1");
  HostScheduler s({{10, 0, 0, {5}}}, 1, free_host());
  CHECK_THROWS_WITH(s.pop(0), "host: pop with no message posted on port 0");
}

TEST_CASE("an arrival told by its slot is the arrival of that message", "[sched][host]") {
  // waited() lists 5, 7, 9: slot 1 is message 7. A notified host (10 cycles) learns it at 30.
  HostTiming t;
  t.notify_cycles = 10;
  HostScheduler s({{20, 0, 0, {9, 7}}, {21, 1, 0, {7}}, {22, 1, 0, {5}}}, 2, t);
  REQUIRE(s.waited() == std::vector<int>{5, 7, 9});
  s.on_arrival_at(1, 20);
  CHECK(s.next_ready(1, 29) == -1);
  CHECK(s.next_event_cycle(29) == 30);
  CHECK(s.next_ready(1, 30) == 1);   // op 1 waited for 7 only
  CHECK(s.next_ready(0, 30) == -1);  // op 0 waits for 9 too
  s.on_arrival_at(-1, 31);           // a message nobody waits for: only the time moves
  s.on_arrival(9, 0, 40);            // by id, as before
  CHECK(s.next_ready(0, 50) == 0);
  CHECK_THROWS_WITH(s.on_arrival_at(3, 50), "host: arrival slot 3 of 3");
  CHECK_THROWS_WITH(s.next_ready(2, 50), "host: next_ready on port 2 of 2");
}

TEST_CASE("a free host answers as a host whose posting costs nothing but batches does",
          "[sched][host]") {
  // The free host takes a shortcut (known at once, posted at once); a host posting at zero cost
  // in batches of two takes advance()'s general path. Both post every ready message in the
  // cycle it becomes ready, so every answer must agree: random programs with dependencies on
  // arriving messages and release cycles, random arrivals and issues.
  HostTiming batched;
  batched.doorbell_batch = 2;
  std::mt19937 random(7);
  int issued = 0;
  int released_late = 0;
  for (int round = 0; round < 40; ++round) {
    std::vector<SchedulerOp> program;
    for (int i = 0; i < 12; ++i) {
      SchedulerOp op{1000 + i, static_cast<int>(random() % 2), i / 4, {}, 0};
      for (int d = 0; d < static_cast<int>(random() % 3); ++d)
        op.deps.push_back(static_cast<int>(random() % 10));
      if (random() % 3 == 0) op.release_cycle = random() % 120;
      program.push_back(op);
    }
    HostScheduler fast(program, 2, free_host());
    HostScheduler general(program, 2, batched);
    for (std::uint64_t now = 0; now < 160; now += 1 + random() % 6) {
      for (int a = 0; a < static_cast<int>(random() % 3); ++a) {
        const int message = static_cast<int>(random() % 12);  // 10 and 11: nobody waits
        fast.on_arrival(message, 0, now);
        general.on_arrival(message, 0, now);
      }
      for (int port = 0; port < 2; ++port) {
        while (true) {
          const int next = fast.next_ready(port, now);
          REQUIRE(next == general.next_ready(port, now));
          if (next < 0 || random() % 4 == 0) break;
          released_late += program[static_cast<std::size_t>(next)].release_cycle > 0 ? 1 : 0;
          fast.pop(port);
          general.pop(port);
          ++issued;
        }
      }
      REQUIRE(fast.next_event_cycle(now) == general.next_event_cycle(now));
    }
  }
  CHECK(issued > 200);
  CHECK(released_late > 20);
}

}  // namespace
}  // namespace mt
