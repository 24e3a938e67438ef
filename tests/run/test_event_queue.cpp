// The message model's event queue (model/flow/event_queue.h) pops in exactly the order of one
// min-priority queue of every event, whatever the mix of same-cycle, near and far events.
#include <catch2/catch.hpp>

#include <functional>
#include <queue>
#include <random>
#include <string>
#include <vector>

#include "model/flow/event_queue.h"

namespace mt {
namespace {

using Event = EventQueue::Event;
using Reference = std::priority_queue<Event, std::vector<Event>, std::greater<Event>>;

TEST_CASE("the event queue pops as one priority queue of every event", "[flow]") {
  // As the engine uses it: each pop may push events at its own cycle (a node woken now), a few
  // hundred cycles on (a message's tail) or past the 4096-cycle window (a long message), and
  // long idle stretches leave only far events.
  std::mt19937 random(7);
  EventQueue queue;
  Reference reference;
  const auto both = [&](const Event& e) {
    queue.push(e);
    reference.push(e);
  };
  for (int i = 0; i < 50; ++i) both({0, i % 3, 50 - i});
  std::size_t popped = 0;
  while (!reference.empty()) {
    REQUIRE_FALSE(queue.empty());
    const Event expected = reference.top();
    REQUIRE(queue.top() == expected);
    queue.pop();
    reference.pop();
    ++popped;
    if (popped > 20000) continue;  // then drain
    const Cycle now = std::get<0>(expected);
    const int pushes = static_cast<int>(random() % 4);  // 1.5 a pop: it grows until the drain
    for (int k = 0; k < pushes; ++k) {
      const unsigned pick = random() % 10;
      const Cycle at = pick < 3   ? now
                       : pick < 8 ? now + 1 + random() % 600
                                  : now + 4000 + random() % 9000;
      both({at, static_cast<int>(random() % 3), static_cast<int>(random() % 1000)});
    }
  }
  CHECK(queue.empty());
  CHECK(popped > 20000);
}

TEST_CASE("the event queue refuses an event before the current cycle", "[flow]") {
  EventQueue queue;
  queue.push({100, 0, 1});
  queue.pop();
  CHECK_THROWS_WITH(queue.push({99, 0, 2}), "EventQueue: an event before the current cycle");
}

}  // namespace
}  // namespace mt
