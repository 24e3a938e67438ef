#pragma once
// Golden cycle-level model of the co-designed NIC scheduler (rtl/nic_sched must match it cycle
// for cycle). Plain C++, no SystemC. One tick() call is one clock cycle.
//
// Cycle semantics (n = number of tick() calls made before; "cycle n" is the n-th tick):
// - Inputs (on_arrival, set_port_ready) made before tick() of cycle n are "presented in cycle n".
//   They reach the decision logic L = decision_latency_cycles cycles later: the decision of cycle
//   n + L sees counters incremented by every arrival presented in cycles <= n, and the ready
//   level last presented in a cycle <= n. (In RTL: L register stages on the arrival and ready
//   inputs, counters updated at the clock edge ending the last stage.) Ready levels start false.
// - The decision of cycle n, per port p independently: issue the LOWEST table index i such that
//     not issued(i) (as of the start of cycle n: entries issued in cycle n-1 are already issued),
//     entry[i].port == p,
//     counter[entry[i].wait_counter] >= entry[i].wait_count (counters as seen at cycle n),
//     (step_order) entry[i].step <= min step over entries not issued at the start of cycle n,
//     port p's seen ready level is true, and port p was not issued to in cycles n-L .. n-1.
//   At most one issue per port per cycle. The NIC must present ready = false for port p from the
//   cycle after an issue on p until the port can take a new message (the L-cycle mask after an
//   issue covers the latency of that drop).
// - done(): every entry has been issued.
// Wrong inputs (counter or port out of range, a table entry with port >= ports or wait_counter
// >= counters) throw std::invalid_argument.

#include <cstdint>
#include <vector>

#include "model/nic/schedule_table.h"

namespace mt {

/// Parameters of the scheduler hardware.
struct SchedulerModelConfig {
  int ports = 1;                    ///< NIC ports (issue slots per cycle)
  int decision_latency_cycles = 1;  ///< L >= 1: input (arrival, ready) to decision, cycles
  bool step_order = true;           ///< never issue an entry before the node's earlier steps
  int counters = 1;                 ///< arrival counters (>= 1)
  int depth = 0;                    ///< table capacity, entries (0 = unbounded: the table size)
};

/// One issue: entry `index` of the table leaves by `port` in this cycle.
struct IssueCommand {
  int port = 0;       ///< NIC port
  int index = 0;      ///< table index
  TableEntry entry;   ///< the entry itself (for the DMA)
};

/// A cycle-level scheduler engine: the C++ golden model (SchedulerModel) or the Verilated RTL
/// (tb adapter). HardwareScheduler drives either one from the NIC.
class CycleScheduler {
 public:
  virtual ~CycleScheduler() = default;
  /// Replaces the table (entries in issue order); resets counters, ready levels and issue state.
  virtual void load(const std::vector<TableEntry>& table) = 0;
  /// One arrival for counter `counter`, presented in the current cycle (callable several times
  /// per cycle: each call counts once).
  virtual void on_arrival(int counter) = 0;
  /// Ready level of port `port`, presented in the current cycle (held until changed).
  virtual void set_port_ready(int port, bool ready) = 0;
  /// Runs one clock cycle: returns the issues of this cycle, by ascending port.
  virtual std::vector<IssueCommand> tick() = 0;
  /// Every table entry has been issued.
  virtual bool done() const = 0;
  /// Decision latency L of this engine, cycles (the adapter needs it to skip idle cycles).
  virtual int decision_latency_cycles() const = 0;
};

/// The golden model. Cost per tick: O(ports + arrivals of the oldest input stage + entries
/// scanned), where with step_order on a table sorted by step (the packer's order) the scan of a
/// port stops at its first entry of a later step; otherwise O(entries) in the worst case.
class SchedulerModel : public CycleScheduler {
 public:
  /// Throws std::invalid_argument when ports < 1, decision_latency_cycles < 1 or counters < 1.
  explicit SchedulerModel(const SchedulerModelConfig& config);

  /// Throws std::invalid_argument when the table exceeds config.depth (> 0) or an entry's port /
  /// wait_counter / dst_counter is out of range.
  void load(const std::vector<TableEntry>& table) override;
  void on_arrival(int counter) override;
  void set_port_ready(int port, bool ready) override;
  std::vector<IssueCommand> tick() override;
  bool done() const override { return issued_count_ == table_.size(); }
  int decision_latency_cycles() const override { return config_.decision_latency_cycles; }

  /// Configuration it was built with.
  const SchedulerModelConfig& config() const { return config_; }
  /// Cycles ticked since load().
  std::uint64_t cycle() const { return cycle_; }
  /// Entries issued so far.
  std::size_t issued_count() const { return issued_count_; }
  /// True when table entry `index` has been issued.
  bool is_issued(int index) const { return issued_.at(static_cast<std::size_t>(index)) != 0; }
  /// Counter value as seen by the decision logic now (arrivals presented >= L cycles ago).
  int counter_value(int counter) const { return seen_counts_.at(static_cast<std::size_t>(counter)); }
  /// Smallest step among entries not issued yet (INT32_MAX when done).
  int min_pending_step() const;

 private:
  std::size_t step_position(int step) const;  // index of `step` in steps_

  struct Stage {
    std::vector<int> arrivals;  // counter of each arrival presented in that cycle (repeats count)
    std::vector<char> ready;    // per port: ready level presented in that cycle
  };

  SchedulerModelConfig config_;
  std::vector<TableEntry> table_;
  std::vector<char> issued_;
  std::size_t issued_count_ = 0;
  std::uint64_t cycle_ = 0;
  // Input pipeline: a ring of L stages; stages_[head_] takes the inputs of the current cycle,
  // the L-1 others are older stages in flight (the next one after head_ is the oldest).
  std::vector<Stage> stages_;
  std::size_t head_ = 0;
  std::vector<char> presented_ready_;  // ready levels presented so far (levels hold)
  std::vector<int> seen_counts_; // counters as seen by the decision
  std::vector<char> seen_ready_; // ready levels as seen by the decision
  std::vector<int> mask_;        // per port: cycles the port stays masked after an issue
  // Speed only (the rule stays "lowest index"): per port its table indices in order, and the
  // position in that list of the lowest possibly-unissued one.
  std::vector<std::vector<int>> port_entries_;
  std::vector<std::size_t> first_pending_;
  // Unissued entries per distinct step (steps_ ascending, pending_ parallel), and the position
  // of the smallest step with unissued entries: min_pending_step() in O(1) amortised.
  std::vector<int> steps_;
  std::vector<int> pending_;
  std::size_t min_step_pos_ = 0;
  bool sorted_by_step_ = true;  // table steps non-decreasing: a port's scan may stop early
};

}  // namespace mt
