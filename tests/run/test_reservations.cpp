// The message model's link and port reservations (model/flow/reservations.h): the first gap long
// enough at or after the requested cycle, whether the request waited behind another flow, and
// the free cycle, exactly as a plain list of every interval ever reserved gives them, whatever
// the mix of requests after every interval (the shortcut) and into gaps.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <vector>

#include "model/flow/reservations.h"

namespace mt {
namespace {

// Every interval ever reserved, searched in full at every call.
struct PlainReservations {
  struct Busy {
    Cycle begin, end;
    std::int64_t flow;
  };
  std::vector<Busy> busy;

  Cycle reserve(Cycle at, Cycle length, std::int64_t flow, bool& other_flow) {
    other_flow = false;
    for (const Busy& b : busy) {
      if (b.end <= at) continue;
      if (at + length <= b.begin) break;
      at = std::max(at, b.end);
      other_flow = other_flow || b.flow != flow;
    }
    const auto place = std::upper_bound(busy.begin(), busy.end(), at,
                                        [](Cycle c, const Busy& b) { return c < b.begin; });
    busy.insert(place, Busy{at, at + length, flow});  // kept sorted by begin
    return at;
  }
  Cycle free_from(Cycle at) const {
    for (const Busy& b : busy)
      if (b.begin <= at && at < b.end) at = b.end;
    return at;
  }
};

// One request to both: the free cycle before it, its start and whether it waited behind another
// flow must agree; returns the start and sets `other_flow`.
Cycle reserve_both(Reservations& res, PlainReservations& plain, Cycle at, Cycle length, Cycle now,
                   std::int64_t flow, bool& other_flow) {
  REQUIRE(res.free_from(at) == plain.free_from(at));
  bool other_plain = false;
  const Cycle start = res.reserve(at, length, now, flow, other_flow);
  REQUIRE(start == plain.reserve(at, length, flow, other_plain));
  REQUIRE(other_flow == other_plain);
  return start;
}

TEST_CASE("reservations take the first gap as a list of every interval does", "[flow]") {
  // As the engine asks: the current cycle moves on; a request starts at or after it, now at
  // once (a port), now some way ahead (a later hop), sometimes after every interval.
  std::mt19937 random(11);
  Reservations res;
  PlainReservations plain;
  Cycle now = 0;
  Cycle busy = 0;
  Cycle last_end = 0;
  int gaps = 0;
  int waits = 0;
  int after_all = 0;
  for (int i = 0; i < 6000; ++i) {
    now += random() % 50;  // a load of about 0.85: queues form and drain
    const Cycle at = now + (random() % 3 == 0 ? 0 : random() % 100);
    const Cycle length = 1 + random() % 40;
    const std::int64_t flow = random() % 3;
    bool other = false;
    const Cycle start = reserve_both(res, plain, at, length, now, flow, other);
    busy += length;
    after_all += at >= last_end ? 1 : 0;
    last_end = std::max(last_end, start + length);
    gaps += start == at ? 0 : 1;
    waits += other ? 1 : 0;
  }
  CHECK(res.busy_cycles() == busy);
  CHECK(gaps > 300);  // the search ran, not only the shortcut
  CHECK(waits > 300);
  CHECK(after_all > 300);  // and the shortcut (a request after every interval)
}

TEST_CASE("reservations booked far ahead stay those of a list of every interval", "[flow]") {
  // A resource booked thousands of cycles ahead: hundreds of intervals at once, new ones into
  // gaps near the front and behind the last, old ones over as the current cycle moves on. (The
  // 2048-node MultiTree's links and ports hold 2 on average and 5 at most, counted 2026-12-07;
  // the list must stay exact however long it grows.)
  std::mt19937 random(5);
  Reservations res;
  PlainReservations plain;
  Cycle now = 0;
  std::size_t most_pending = 0;
  for (int i = 0; i < 20000; ++i) {
    now += random() % 8;
    const Cycle at = now + (random() % 4 == 0 ? random() % 4000 : random() % 20);
    const Cycle length = 1 + random() % 12;
    const std::int64_t flow = random() % 5;
    bool other = false;
    reserve_both(res, plain, at, length, now, flow, other);
    if (i % 64 != 0) continue;  // the count below scans the whole list: now and then is enough
    most_pending = std::max<std::size_t>(
        most_pending, static_cast<std::size_t>(std::count_if(
                          plain.busy.begin(), plain.busy.end(),
                          [now](const PlainReservations::Busy& b) { return b.end > now; })));
  }
  CHECK(most_pending > 500);  // long lists, filled near the front and behind the last
}

TEST_CASE("a reservation behind another fits the gap it leaves", "[flow]") {
  Reservations res;
  bool other = false;
  CHECK(res.reserve(10, 5, 0, 1, other) == 10);  // [10, 15)
  CHECK_FALSE(other);
  CHECK(res.reserve(30, 5, 0, 1, other) == 30);   // [30, 35)
  CHECK(res.reserve(12, 10, 0, 2, other) == 15);  // [15, 25): behind flow 1
  CHECK(other);
  CHECK(res.reserve(12, 6, 0, 1, other) == 35);  // no gap of 6 before 35
  CHECK(other);                                  // it passed flow 2's interval
  CHECK(res.free_from(14) == 25);
  CHECK(res.free_from(25) == 25);
  CHECK(res.reserve(45, 1, 41, 1, other) == 45);  // every interval over by cycle 41
  CHECK_FALSE(other);
  CHECK(res.free_from(45) == 46);
  CHECK(res.busy_cycles() == 5 + 5 + 10 + 6 + 1);
}

}  // namespace
}  // namespace mt
