#pragma once
// The calendar of the network clock's wake-ups: one SystemC process runs every router and NIC due
// in a cycle, instead of one kernel process and timed event per component. A component asks for
// a run at a cycle through its CycleWakeup; the calendar keeps one entry per request in a bucket
// of its cycle (a ring of buckets for the near future, a heap beyond it) and runs the due entries
// in the order they were asked for. Which order that is does not matter: results do not depend
// on the order of same-cycle runs, nor on extra runs (docs/timing_contract.md).

#include <systemc>

#include <cstdint>
#include <queue>
#include <utility>
#include <vector>

namespace mt {

class CycleClock;

/// Something the calendar runs: `run_due(cycle)` is called at `cycle` for each entry asked for it.
class CalendarClient {
 public:
  virtual void run_due(std::uint64_t cycle) = 0;

 protected:
  ~CalendarClient() = default;
};

/// One process running the wake-ups of every component of a System.
class WakeCalendar : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(WakeCalendar);
  WakeCalendar(const sc_core::sc_module_name& name, const CycleClock& clock);

  /// Runs `client` at `cycle` (at the current cycle, after the entries due now, when `cycle` is
  /// past).
  void add(CalendarClient* client, std::uint64_t cycle);
  /// Entries run so far (each a component run or a stale entry skipped by its client).
  std::uint64_t entries_run() const { return entries_run_; }

 private:
  static constexpr std::uint64_t kBuckets = 1024;  // cycles ahead held in the ring
  using Far = std::pair<std::uint64_t, CalendarClient*>;

  static constexpr std::uint64_t kNone = ~std::uint64_t{0};

  void process();
  std::vector<CalendarClient*>& bucket(std::uint64_t cycle) { return ring_[cycle % kBuckets]; }
  // Earliest cycle with an entry, kNone when none.
  std::uint64_t next_cycle() const;
  void notify_at(std::uint64_t cycle, std::uint64_t now);

  const CycleClock& clock_;
  sc_core::sc_event event_;
  std::vector<std::vector<CalendarClient*>> ring_;  // cycles [base_, base_ + kBuckets)
  std::priority_queue<Far, std::vector<Far>, std::greater<Far>> far_;  // later cycles
  // The cycles of the ring's non-empty buckets (one each; the current one may linger).
  std::priority_queue<std::uint64_t, std::vector<std::uint64_t>, std::greater<std::uint64_t>>
      cycles_;
  std::uint64_t base_ = 0;          // the ring's first cycle: no entry is earlier
  std::uint64_t notified_ = kNone;  // cycle the process is notified for
  bool running_ = false;            // process() runs the current cycle's entries
  std::uint64_t entries_run_ = 0;
};

}  // namespace mt
