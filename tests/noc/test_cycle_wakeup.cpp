// CycleWakeup's livelock guard and guard_process(): a process woken again and again at one cycle
// stops the run with an error naming it (simulated time would never advance, so the watchdog could
// not fire), and an exception a guarded process throws reaches sc_start()'s caller as thrown.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <systemc>
#include <utility>
#include <vector>

#include "model/core/error.h"
#include "model/noc/cycle_clock.h"
#include "model/noc/cycle_wakeup.h"
#include "model/noc/process_fault.h"

namespace mt {
namespace {

// Runs `per_cycle` times at each of the cycles 0 .. cycles-1, each run but the last of a cycle
// asking for a wake-up at its own cycle (so `per_cycle` - 1 wake-ups per cycle: at cycle 0 the
// first run is the one asked for at construction, at later ones the wake-up asked for a cycle
// ahead, neither counted), or throws an mt::Error at its first run when `throw_error`.
struct Looper : sc_core::sc_module {
  Looper(const sc_core::sc_module_name& name, const CycleClock& clock, std::uint64_t per_cycle,
         std::uint64_t cycles, bool throw_error)
      : sc_core::sc_module(name),
        clock_(clock),
        wakeup_(clock, *this, [this] { process(); }),
        per_cycle_(per_cycle),
        cycles_(cycles),
        throw_error_(throw_error) {
    wakeup_.at(0);
  }

  void process() {
    guard_process([this] {
      wakeup_.clear();
      ++total_runs_;
      if (throw_error_) throw Error("looper: an error of the model's own kind");
      const std::uint64_t now = clock_.now();
      if (now >= cycles_) return;
      if (++runs_ < per_cycle_) {
        wakeup_.at(now);
      } else {
        runs_ = 0;
        wakeup_.at(now + 1);
      }
    });
  }

  const CycleClock& clock_;
  CycleWakeup wakeup_;
  std::uint64_t per_cycle_;
  std::uint64_t cycles_;
  bool throw_error_;
  std::uint64_t runs_ = 0;        // runs at this cycle
  std::uint64_t total_runs_ = 0;  // runs at every cycle
};

void run_to_end() {
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US), sc_core::SC_EXIT_ON_STARVATION);
  rethrow_process_fault();
}

TEST_CASE("a process woken more than the limit at one cycle is a livelock naming it",
          "[noc][wakeup]") {
  CycleClock clock{1.0};
  // Asks for a wake-up at cycle 0 without end.
  Looper looper("looper", clock, ~std::uint64_t{0}, 1, false);
  REQUIRE_THROWS_WITH(run_to_end(),
                      "livelock: looper was woken 1000000 times at cycle 0 without simulated "
                      "time advancing (a bug of the model)");
}

TEST_CASE("a process woken the limit at each of several cycles is no livelock", "[noc][wakeup]") {
  CycleClock clock{1.0};
  // kMaxWakeupsPerCycle wake-ups at cycle 0 and at cycle 1: at the limit, none beyond it.
  const std::uint64_t limit = CycleWakeup::kMaxWakeupsPerCycle;
  Looper looper("looper", clock, limit + 1, 2, false);
  REQUIRE_NOTHROW(run_to_end());
  // limit + 1 runs at cycles 0 and 1, and the run at cycle 2 that ends.
  REQUIRE(looper.total_runs_ == 2 * (limit + 1) + 1);
}

// Records the cycles it runs at; at its k-th run asks for the wake-ups asks[k].
struct Recorder : sc_core::sc_module {
  Recorder(const sc_core::sc_module_name& name, const CycleClock& clock,
           std::vector<std::vector<std::uint64_t>> asks)
      : sc_core::sc_module(name),
        clock_(clock),
        wakeup_(clock, *this, [this] { process(); }),
        asks_(std::move(asks)) {
    wakeup_.at(0);
  }
  void process() {
    wakeup_.clear();
    const std::size_t k = runs_.size();
    runs_.push_back(clock_.now());
    if (k < asks_.size()) {
      for (const std::uint64_t cycle : asks_[k]) wakeup_.at(cycle);
    }
  }
  const CycleClock& clock_;
  CycleWakeup wakeup_;
  std::vector<std::vector<std::uint64_t>> asks_;
  std::vector<std::uint64_t> runs_;
};

TEST_CASE("the calendar runs a component at the earliest cycle asked, within its ring and beyond",
          "[noc][wakeup]") {
  CycleClock clock{1.0};
  // Run 0 (cycle 0) asks for 5 then 3: it runs at 3 only (the entry at 5 is stale once the run
  // at 3 has asked for nothing there). Run 1 asks for 5000 (beyond the calendar's 1024-cycle
  // ring) and 2000: 2000 wins. Run 2 asks for 2000 + 1500 = 3500 (beyond the ring again) and
  // its own cycle (a re-run at 2000, after the entries due then).
  Recorder a("a", clock, {{5, 3}, {5000, 2000}, {3500, 2000}});
  // Another component at the same cycles, to show both run.
  Recorder b("b", clock, {{3}, {3500}});
  sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_US), sc_core::SC_EXIT_ON_STARVATION);
  rethrow_process_fault();
  CHECK(a.runs_ == std::vector<std::uint64_t>{0, 3, 2000, 2000});
  CHECK(b.runs_ == std::vector<std::uint64_t>{0, 3, 3500});
  // Entries: two at 0 and at 3; a's stale ones at 5, 3500 and 5000; a's two at 2000; b's at 3500.
  CHECK(clock.calendar().entries_run() == 2 + 2 + 3 + 2 + 1);
}

TEST_CASE("a component asking at each run for the same far cycle leaves one calendar entry",
          "[noc][wakeup]") {
  CycleClock clock{1.0};
  // Asks for 5000 at every run, and is woken at 1..100 in between (asked for after 5000: the
  // earlier wake-up wins): one entry at 5000 serves them all (there were 101).
  std::vector<std::vector<std::uint64_t>> asks;
  for (std::uint64_t cycle = 0; cycle < 100; ++cycle) asks.push_back({5000, cycle + 1});
  asks.push_back({5000});
  Recorder a("a", clock, asks);
  sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_US), sc_core::SC_EXIT_ON_STARVATION);
  rethrow_process_fault();
  REQUIRE(a.runs_.size() == 102);
  CHECK(a.runs_.back() == 5000);
  CHECK(clock.calendar().entries_run() == 102);
}

// Appends its index to a shared log at each run; asks for cycle 1 at its first run, then for 1500
// (beyond the calendar's ring): odd indices at their second run (cycle 1), even ones a run later
// (cycle 2), so the order asked for 1500 is not the order of creation (nor of addresses).
struct Logger : sc_core::sc_module {
  Logger(const sc_core::sc_module_name& name, const CycleClock& clock, int index,
         std::vector<int>& log)
      : sc_core::sc_module(name),
        wakeup_(clock, *this, [this] { process(); }),
        index_(index),
        log_(log) {
    wakeup_.at(0);
  }
  void process() {
    wakeup_.clear();
    log_.push_back(index_);
    ++runs_;
    if (runs_ == 1) wakeup_.at(1);
    if (runs_ == 2) wakeup_.at(index_ % 2 == 1 ? 1500 : 2);
    if (runs_ == 3 && index_ % 2 == 0) wakeup_.at(1500);
  }
  CycleWakeup wakeup_;
  int index_;
  std::vector<int>& log_;
  int runs_ = 0;
};

// The run order of four Loggers created 0..3 at cycles 0, 1, 2 and 1500 under `order`.
std::vector<int> calendar_run_order(const CalendarOrder& order) {
  CycleClock clock{1.0};
  clock.calendar().set_order(order);
  std::vector<int> log;
  Logger l0("l0", clock, 0, log), l1("l1", clock, 1, log), l2("l2", clock, 2, log),
      l3("l3", clock, 3, log);
  sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_US), sc_core::SC_EXIT_ON_STARVATION);
  rethrow_process_fault();
  return log;
}

TEST_CASE("the calendar runs a cycle's entries as asked, far ones by the order asked",
          "[noc][wakeup]") {
  // Cycles 0 and 1 in creation order; 2: the even ones; 1500 (beyond the ring): in the order
  // asked (1 and 3 at cycle 1, 0 and 2 at cycle 2), not by the components' addresses.
  CHECK(calendar_run_order({}) == std::vector<int>{0, 1, 2, 3, 0, 1, 2, 3, 0, 2, 1, 3, 0, 2});
}

TEST_CASE("the calendar runs a cycle's entries reversed", "[noc][wakeup]") {
  // Cycle 0 runs 3..0, so they ask for cycle 1 in that order, which runs 0..3; there 1 and 3 ask
  // for 1500, then 0 and 2 for cycle 2, which runs 2, 0; they ask for 1500 in that order:
  // asked 1, 3, 2, 0, run 0, 2, 3, 1.
  CHECK(calendar_run_order({CalendarOrder::Kind::kReversed, 0}) ==
        std::vector<int>{3, 2, 1, 0, 0, 1, 2, 3, 2, 0, 0, 2, 3, 1});
}

TEST_CASE("the calendar runs a cycle's entries shuffled afresh in each cycle", "[noc][wakeup]") {
  // Each cycle a permutation of its components drawn from the seed, not the order asked.
  const std::vector<int> log = calendar_run_order({CalendarOrder::Kind::kShuffled, 7});
  REQUIRE(log.size() == 14);
  const std::vector<std::vector<int>> members{{0, 1, 2, 3}, {0, 1, 2, 3}, {0, 2}, {0, 1, 2, 3}};
  std::size_t begin = 0;
  for (const std::vector<int>& expected : members) {
    std::vector<int> batch(log.begin() + static_cast<std::ptrdiff_t>(begin),
                           log.begin() + static_cast<std::ptrdiff_t>(begin + expected.size()));
    std::sort(batch.begin(), batch.end());
    CHECK(batch == expected);
    begin += expected.size();
  }
  CHECK(log != std::vector<int>{0, 1, 2, 3, 0, 1, 2, 3, 0, 2, 1, 3, 0, 2});
}

TEST_CASE("an mt::Error thrown in a guarded process reaches the caller of sc_start as thrown",
          "[noc][wakeup]") {
  CycleClock clock{1.0};
  Looper looper("looper", clock, 1, 1, true);
  REQUIRE_THROWS_MATCHES(run_to_end(), Error,
                         Catch::Message("looper: an error of the model's own kind"));
}

}  // namespace
}  // namespace mt
