#pragma once
// The calendar of the network clock's wake-ups: one SystemC process runs every router and NIC due
// in a cycle, instead of one kernel process and timed event per component. A component asks for
// a run at a cycle through its CycleWakeup; the calendar keeps one entry per request in a bucket
// of its cycle (a ring of buckets for the near future, a heap beyond it) and runs the due entries
// in the order they were asked for, or (a test of that claim, set from `elaboration_order`) in
// that order reversed or shuffled. Which order it is does not matter: results do not depend on the
// order of same-cycle runs, nor on extra runs (docs/timing_contract.md).

#include <systemc>

#include <cstdint>
#include <queue>
#include <random>
#include <tuple>
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

/// The order in which the calendar runs the entries due in one cycle (each batch: the entries
/// due when the cycle starts, then those its runs add for the same cycle, and so on).
struct CalendarOrder {
  enum class Kind {
    kAsAsked,   ///< in the order they were asked for (the default)
    kReversed,  ///< the other way round
    kShuffled,  ///< a permutation drawn, batch by batch, from `seed`
  };
  Kind kind = Kind::kAsAsked;
  std::uint64_t seed = 0;  ///< kShuffled's seed
};

/// One process running the wake-ups of every component of a System.
class WakeCalendar : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(WakeCalendar);
  WakeCalendar(const sc_core::sc_module_name& name, const CycleClock& clock);

  /// Runs `client` at `cycle` (at the current cycle, after the entries due now, when `cycle` is
  /// past).
  void add(CalendarClient* client, std::uint64_t cycle);
  /// Sets the order of same-cycle runs (before the simulation starts).
  void set_order(const CalendarOrder& order);
  /// Entries run so far (each a component run or a stale entry skipped by its client).
  std::uint64_t entries_run() const { return entries_run_; }

 private:
  static constexpr std::uint64_t kBuckets = 1024;  // cycles ahead held in the ring
  // A later cycle's entry: cycle, then the order it was asked in (never the client's address,
  // which would make same-cycle order depend on memory layout).
  using Far = std::tuple<std::uint64_t, std::uint64_t, CalendarClient*>;

  static constexpr std::uint64_t kNone = ~std::uint64_t{0};

  void process();
  void run_cycle();
  // Puts the not yet run entries [begin, end) of `due` in the order of order_.
  void arrange(std::vector<CalendarClient*>& due, std::size_t begin, std::size_t end);
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
  std::uint64_t far_asked_ = 0;  // entries ever put in far_ (their tie-break)
  CalendarOrder order_;
  std::mt19937_64 shuffle_rng_;
};

}  // namespace mt
