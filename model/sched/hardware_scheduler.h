#pragma once
// The NIC side of the co-designed scheduler: adapts a cycle-level CycleScheduler engine (the C++
// SchedulerModel, or the Verilated RTL through a tb adapter) to the NIC's Scheduler interface,
// event-driven: the engine is ticked only while it is not idle (CycleScheduler::idle: an input
// presented, a grant, a refill or a count still moving); idle stretches are skipped, which is
// exact because an idle engine changes nothing until its next input. Program index == table
// index (the NIC loads its program in table order).
//
// The scheduler's own clock: with `network_cycles_per_tick` r >= 1 the engine's cycle k starts at
// network cycle ceil(k x r) (r = 1: every network cycle). Inputs presented between two of its
// edges are seen at the next; its grants are visible from the edge that produces them. The
// engine takes at most one doorbell per cycle: a second waits for the next.
//
// The progress watchdog (SchedulerModelConfig::watchdog_limit > 0): a watchdog tick is presented
// in every engine cycle k with k mod watchdog_tick_cycles = 0 while the engine is not done; the
// engine is ticked in those cycles even when idle (one evaluation per tick period; ticks while
// done are skipped, exactly: done resets the count).

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "model/sched/schedule_table.h"
#include "model/sched/scheduler.h"
#include "model/sched/scheduler_model.h"

namespace mt {

/// Scheduler interface over a cycle-level engine loaded with one node's table.
class HardwareScheduler : public Scheduler {
 public:
  /// Drives `engine`, loaded here with `table`, as `config` says: a NIC with config.ports issue
  /// queues, the engine clocked once every config.network_cycles_per_tick network cycles, its
  /// watchdog ticked every config.watchdog_tick_cycles engine cycles when config.watchdog_limit
  /// > 0, errors naming config.node when >= 0. Throws SchedulerError for no engine, ports < 1,
  /// an entry on a port >= ports (on a port other than 0 with config.shared_window),
  /// network_cycles_per_tick < 1 or (watchdog on)
  /// watchdog_tick_cycles < 1, and whenever the engine flags an error (CycleScheduler::fault:
  /// the message names the node, the cycle, the entry or counter and the cause).
  HardwareScheduler(std::unique_ptr<CycleScheduler> engine, std::vector<TableEntry> table,
                    const SchedulerModelConfig& config);

  /// Arrival counter `counter` counts one more message arrived at cycle `now` (issue follows
  /// the counters, not message ids).
  void on_arrival(int message, int counter, std::uint64_t now) override;
  /// The host rings counter `counter` (a release time) at cycle `now`.
  void on_doorbell(int counter, std::uint64_t now) override;
  /// Port `port`'s ready level at cycle `now`.
  void set_port_ready(int port, bool ready, std::uint64_t now) override;
  /// The step barrier's open step at cycle `now` (CycleScheduler::set_open_step).
  void set_open_step(int step, std::uint64_t now) override;
  /// Table entry the engine has decided to issue on `port` by `now_cycles`, -1 if none.
  int next_ready(int port, std::uint64_t now_cycles) override;
  /// Issues next_ready(port); throws SchedulerError when no issue is pending on it.
  void pop(int port) override;
  /// Next cycle after `now` at which the engine can decide something, or kNoEvent.
  std::uint64_t next_event_cycle(std::uint64_t now) override;
  /// Always true: the NIC presents port ready levels every cycle it runs.
  bool cycle_level() const override { return true; }

  /// Entries in the table.
  std::size_t size() const override { return table_.size(); }
  /// Entries issued so far.
  std::size_t issued() const override { return issued_count_; }
  /// True once table entry `index` has been issued.
  bool is_issued(int index) const override {
    return issued_.at(static_cast<std::size_t>(index)) != 0;
  }

  /// The network cycle at which the engine's cycle `k` starts.
  std::uint64_t tick_cycle(std::uint64_t k) const;

  /// Engine ticks run so far (idle cycles skipped are not counted).
  std::uint64_t ticks() const { return ticks_; }
  /// The engine's ticks: the cycles it worked.
  std::uint64_t clocked_cycles() const override { return ticks_; }

 private:
  bool quiet() const;  // no tick would change anything: engine idle, no doorbell queued
                       // and no watchdog tick due in the engine's next cycle
  std::uint64_t next_watchdog_index() const;  // engine cycle of the next watchdog tick, or none
  void sync(std::uint64_t now);               // ticks every needed cycle before `now`
  void skip_to(std::uint64_t now);  // idle: the engine's next cycle is its first at or after now
  void tick_once();
  [[noreturn]] void throw_fault(const std::string& when) const;  // the engine's error, `when`

  std::unique_ptr<CycleScheduler> engine_;
  std::vector<TableEntry> table_;
  std::vector<char> issued_;
  std::size_t issued_count_ = 0;
  std::vector<char> port_level_;  // ready level last presented per port
  int open_step_ = kAnyStep;      // open step last presented
  // The engine's clock runs lazily behind the NIC's.
  std::vector<int> pending_;      // per port: table index issued, not yet popped
  double period_ = 1.0;           // network cycles per engine cycle
  std::uint64_t next_index_ = 0;  // the engine's next cycle
  std::uint64_t next_tick_ = 0;   // NIC cycle it starts at: tick_cycle(next_index_)
  std::uint64_t ticks_ = 0;
  std::deque<int> doorbells_;        // doorbells waiting for an engine cycle of their own
  bool doorbell_presented_ = false;  // one presented for the engine's next cycle
  int node_ = -1;                    // the node it serves (error messages)
  int watchdog_period_ = 0;          // engine cycles per watchdog tick, 0: no watchdog
};

/// The default engine: SchedulerModel with `config`, loaded with `table`, behind a
/// HardwareScheduler clocked every config.network_cycles_per_tick network cycles.
std::unique_ptr<Scheduler> make_model_scheduler(const std::vector<TableEntry>& table,
                                                const SchedulerModelConfig& config);

}  // namespace mt
