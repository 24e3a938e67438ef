#pragma once
// Golden cycle-level model of the co-designed NIC scheduler, second generation (rtl/nic_sched
// must match it cycle for cycle). Plain C++, no SystemC. One tick() call is one clock cycle. It
// models the RTL's registers one for one (rtl/README.md has the block diagram):
//
//   host table DMA -> ring (depth entries) -> fetch register -> window of its port (window slots)
//
// Cycle semantics (n = number of tick() calls made since load(); "cycle n" is the n-th tick):
// - Inputs (on_arrival, on_doorbell, set_port_ready) made before tick() of cycle n are "presented
//   in cycle n". With L = decision_latency_cycles (>= 2): arrivals presented in cycle n are
//   counted at the end of cycle n + L - 2 (L - 2 input register stages), ready levels presented
//   in cycle n are seen by the decision of cycle n + L - 1 (L - 1 stages). Ready levels start low.
//   The open step (set_open_step: the highest step the NIC's step barrier lets start) passes the
//   same L - 1 stages; it is kAnyStep after load() until set.
// - tick() returns the grants visible in cycle n: the registered decisions of cycle n - 1, and
//   grants visible in cycle n - 1 that were not accepted. A grant is accepted at the end of a
//   cycle in which it is visible and its port's acknowledge level (set_grant_ack, presented like
//   the other inputs; high unless set low) is high; until then it stays visible, unchanged.
// - The decision of cycle n, per port p: the lowest slot of p's window (slots in table order)
//   whose remaining count is 0 and, with step order, whose step is <= min_step <= open_step,
//   where min_step is the smallest step over the window heads and the fetch register at the
//   start of cycle n - 1 (registered) and open_step the open step seen; taken only when p is open:
//   its seen ready level is high, it holds no unaccepted grant and its last grant was accepted
//   before cycle n - L + 1 (taken before cycle n - L when accepted at once). The taken entry leaves
//   the window; it is visible as a grant in cycle n + 1. So an arrival presented in cycle n can
//   enable a grant in cycle n + L. With shared_window, window 0 serves every port: the k-th lowest
//   open port takes window 0's k-th lowest such slot (up to one grant per open port in one
//   decision).
// - Remaining count: an entry entering a window gets max(0, wait_count - counter) from the
//   counter at that edge; every arrival counted on its counter while it waits decrements it.
// - Refill, at the same edge: the fetch register's entry moves to its port's window when that
//   window held fewer than `window` entries at the start of the cycle; the fetch register loads
//   the ring's next entry when it is empty or moves on; the host writes the next table entry
//   into the ring when the ring held fewer than `depth` entries at the start of the cycle.
// - load() replaces the table and runs the load cycles (ports not ready, no arrivals) until the
//   engine is idle: ring and windows as full as table order allows. Cycle 0 follows.
// - done(): ring, fetch register, windows and grant registers are empty (every entry granted,
//   the last grant seen).
// The NIC must present ready = false for port p from the cycle after it accepted a grant on p
// until the port can take a new message (the L-cycle mask after a grant covers the latency of
// that drop).
// Errors, as the RTL checks them in hardware (rtl/README.md, Errors): an entry written to the
// ring with a field out of range (the limits of the config; 0 or -1: unchecked) or, with step
// order, a step below the previous entry's; a counted arrival naming no counter; arrivals past
// max_count on a counter (it saturates; flagged three cycles after they were counted); the
// watchdog's limit of ticks without progress while a port waited (watchdog_limit). The first
// error is registered at the edge (fault() after that tick) and the engine halts: no decision
// takes an entry until load(). Caller errors (a negative counter or port, a second doorbell in
// one cycle, a bad configuration) throw SchedulerError.

#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "model/sched/schedule_table.h"
#include "model/sched/scheduler.h"

namespace mt {

/// Why a scheduler engine halted (rtl/nic_sched err_cause_o; the values are the RTL's codes).
enum class SchedulerFaultCause {
  kNone = 0,
  kPort = 1,              ///< an entry's port >= ports
  kPeer = 2,              ///< an entry's peer >= nodes
  kChunk = 3,             ///< an entry's chunk >= chunks
  kFlow = 4,              ///< an entry's flow >= flows
  kStep = 5,              ///< an entry's step >= steps
  kWaitCounter = 6,       ///< an entry's wait_counter >= counters
  kWaitCount = 7,         ///< an entry's wait_count > max_count
  kDstCounter = 8,        ///< an entry's dst_counter >= counters
  kUnsorted = 9,          ///< step order: an entry's step below the previous entry's
  kArrivalCounter = 10,   ///< an arrival or doorbell names no counter
  kCounterOverflow = 11,  ///< more arrivals on a counter than max_count
  kStalled = 12,          ///< the progress watchdog's limit passed (SchedulerModelConfig)
};

/// The first error an engine flagged: its cause and the table index of the entry (causes up to
/// kUnsorted, and kStalled: the oldest entry of the lowest port whose window holds one, 0 when
/// none does; the RTL reports it modulo 2^IndexBits) or the counter id (kArrivalCounter,
/// kCounterOverflow).
struct SchedulerFault {
  SchedulerFaultCause cause = SchedulerFaultCause::kNone;
  int info = 0;
  explicit operator bool() const { return cause != SchedulerFaultCause::kNone; }
};

/// "table entry 7: port out of range" (what and where), for messages.
std::string describe(const SchedulerFault& fault);

/// Largest watchdog limit: the RTL's watchdog count is 16 bits wide (nic_sched WdogBits).
constexpr int kSchedulerWatchdogMax = 65535;

/// Parameters of the scheduler hardware (rtl/nic_sched parameters in brackets).
struct SchedulerModelConfig {
  int ports = 1;                    ///< NIC ports, grants per cycle [Ports]
  int decision_latency_cycles = 2;  ///< L >= 2: input (arrival, ready) to grant, cycles
                                    ///< [DecisionLatency]
  bool step_order = true;           ///< never issue an entry before the node's earlier steps
  int counters = 1;                 ///< arrival counters (>= 1) [Counters]
  int depth = 32;                   ///< table ring buffer capacity, entries (>= 1) [Depth]
  int window = 4;                   ///< issue window per port, entries (>= 1) [Window]
  /// Port binding any, one grant per requesting port [shared_window_i]: every entry is on port 0
  /// (the one issue queue) and window 0 feeds every port's grant register; a decision grants
  /// window 0's ready entries, oldest first, to the ports that can take one, lowest port first
  /// (the k-th oldest ready entry to the k-th such port). false: each port's own window.
  bool shared_window = false;
  /// Field limits the entries are checked against (0: unchecked) [Nodes, Chunks, Flows, Steps].
  int nodes = 0, chunks = 0, flows = 0, steps = 0;
  int max_count = -1;  ///< counters saturate here, thresholds above it are errors (-1: none)
                       ///< [MaxCount]
  int node = -1;       ///< the node it serves (named in error messages; -1: none)
  /// Progress watchdog: watchdog ticks without progress, while a port's ready level is seen
  /// high, after which the engine flags kStalled (0: off; at most 65535) [wdog_limit_i].
  /// Progress: a table entry written, an arrival or doorbell counted, a grant accepted, or
  /// nothing left to issue (done()).
  int watchdog_limit = 0;
  /// Engine cycles per watchdog tick (>= 1): HardwareScheduler presents a tick in every engine
  /// cycle k with k mod watchdog_tick_cycles = 0 while the engine has work (not an RTL
  /// parameter: the tick is an input, wdog_tick_i, from the integrator's timebase).
  int watchdog_tick_cycles = 1024;
  /// The clock it is given: network cycles per scheduler cycle (>= 1; HardwareScheduler
  /// ticks the engine on its edges; not an RTL parameter).
  double network_cycles_per_tick = 1.0;
};

/// One issue: entry `index` of the table leaves by `port` in this cycle.
struct IssueCommand {
  int port = 0;      ///< NIC port
  int index = 0;     ///< table index
  TableEntry entry;  ///< the entry itself (for the DMA)
};

/// A cycle-level scheduler engine: the C++ golden model (SchedulerModel) or the Verilated RTL
/// (tb adapter). HardwareScheduler drives either one from the NIC.
class CycleScheduler {
 public:
  virtual ~CycleScheduler() = default;
  /// Replaces the table (entries in issue order); resets counters, ready levels and issue state
  /// and runs the load cycles.
  virtual void load(const std::vector<TableEntry>& table) = 0;
  /// One message arrival for counter `counter`, presented in the current cycle (callable several
  /// times per cycle: each call counts once).
  virtual void on_arrival(int counter) = 0;
  /// The host's doorbell: one count on `counter` (release times), presented in the current
  /// cycle; at most one per cycle.
  virtual void on_doorbell(int counter) = 0;
  /// Ready level of port `port`, presented in the current cycle (held until changed).
  virtual void set_port_ready(int port, bool ready) = 0;
  /// The highest step the NIC's step barrier lets start (>= 0; kAnyStep: no limit), presented in
  /// the current cycle, held until changed; kAnyStep after load(). Under step order no entry is
  /// granted while the smallest pending step is above the value seen.
  virtual void set_open_step(int step) = 0;
  /// Acknowledge level of port `port` (its DMA accepts a visible grant at the end of a cycle
  /// where it is high), presented in the current cycle, held until changed; high after load().
  virtual void set_grant_ack(int port, bool ack) = 0;
  /// One tick of the progress watchdog's timebase, presented in the current cycle (at most one
  /// counts per cycle).
  virtual void on_watchdog_tick() = 0;
  /// Runs one clock cycle: returns the grants visible in this cycle, by ascending port.
  virtual std::vector<IssueCommand> tick() = 0;
  /// True when the next tick() would change nothing and grant nothing (inputs presented since
  /// the last tick count as a change). May be conservative (false) but never wrongly true.
  virtual bool idle() const = 0;
  /// Every table entry has been granted (and the last grant seen).
  virtual bool done() const = 0;
  /// The first error flagged since load() (none: cause kNone); the engine grants nothing after.
  virtual SchedulerFault fault() const = 0;
};

/// The golden model. Cost per tick: O(ports x window + arrivals).
class SchedulerModel : public CycleScheduler {
 public:
  /// Throws SchedulerError when ports, counters, depth, window or watchdog_tick_cycles < 1,
  /// decision_latency_cycles < 2 or watchdog_limit is outside 0..65535.
  explicit SchedulerModel(const SchedulerModelConfig& config);

  /// Entries are checked as the ring takes them (fault()), not here.
  void load(const std::vector<TableEntry>& table) override;
  void on_arrival(int counter) override;
  void on_doorbell(int counter) override;
  void set_port_ready(int port, bool ready) override;
  void set_grant_ack(int port, bool ack) override;
  void set_open_step(int step) override;
  void on_watchdog_tick() override {
    watchdog_tick_ = true;
    idle_known_ = false;
  }
  std::vector<IssueCommand> tick() override;
  bool idle() const override;
  bool done() const override;
  SchedulerFault fault() const override { return fault_; }

  /// Configuration it was built with.
  const SchedulerModelConfig& config() const { return config_; }
  /// Cycles ticked since load() (load cycles not counted).
  std::uint64_t cycle() const { return cycle_; }
  /// Grants accepted so far.
  std::size_t issued_count() const { return issued_count_; }
  /// Counter value (arrivals counted so far).
  int counter_value(int counter) const { return counts_.at(static_cast<std::size_t>(counter)); }
  /// Entries in port `port`'s window now.
  int window_fill(int port) const {
    return static_cast<int>(windows_.at(static_cast<std::size_t>(port)).size());
  }

 private:
  struct Slot {
    int index = 0;      // table index
    int remaining = 0;  // arrivals its counter still lacks
  };
  // The decisions of the current cycle (slot per port, -1 none) and the refill moves.
  struct Moves {
    std::vector<int> take;
    bool insert = false;
    bool load = false;
    bool push = false;
    int min_step = 0;
  };
  // The decision of this cycle, in moves_ (reused: no allocation per cycle).
  const Moves& decide() const;
  // idle()'s answer computed afresh (idle() keeps it until the state or an input changes).
  bool evaluate_idle() const;
  int hits(const std::vector<int>& lanes, int counter) const;
  SchedulerFaultCause decode(const TableEntry& e) const;  // kNone when the entry is legal
  void count(const std::vector<int>& lanes);              // counters, range and overflow checks
  const std::vector<int>& lanes_now() const;

  SchedulerModelConfig config_;
  std::vector<TableEntry> table_;                // host memory
  std::size_t pushed_ = 0;                       // entries the host has written to the ring
  std::deque<int> ring_;                         // table indices in the ring
  int fetch_ = -1;                               // table index in the fetch register, -1 none
  std::vector<std::vector<Slot>> windows_;       // per port, oldest first
  std::vector<int> counts_;                      // counters
  std::vector<int> presented_arrivals_;          // counters presented this cycle
  std::deque<std::vector<int>> arrival_stages_;  // L - 2 stages, oldest last
  std::vector<char> presented_ready_;            // ready levels presented (held)
  std::vector<char> presented_ack_;              // acknowledge levels presented (held)
  std::deque<std::vector<char>> ready_stages_;   // L - 1 stages, oldest last
  int presented_open_ = kAnyStep;                // open step presented (held)
  std::deque<int> open_stages_;                  // L - 1 stages, oldest last
  mutable Moves moves_;                          // decide()'s result (scratch, speed only)
  mutable bool moves_fresh_ = false;             // moves_ holds the decision of this state
  // idle()'s answer for the current state and inputs (the NIC asks several times per cycle):
  // every call that changes either clears idle_known_.
  mutable bool idle_known_ = false;
  mutable bool idle_ = false;
  int min_step_ = 0;                  // registered smallest pending step
  std::vector<int> mask_;             // per port: cycles masked after a grant
  std::vector<IssueCommand> grants_;  // registered grants, by port (held ones too)
  std::uint64_t cycle_ = 0;
  std::size_t issued_count_ = 0;
  bool doorbell_rung_ = false;  // on_doorbell called this cycle
  // Errors: the registered one, the previous pushed entry's step, the lowest overflowing counter
  // of the lanes counted one, two and three edges ago (flagged three edges after counting, as
  // the RTL's lane_q sums, its registered overflow bits and its per-group encoder), -1 none.
  SchedulerFault fault_;
  int last_step_ = -1;
  std::array<int, 3> overflow_pending_ = {-1, -1, -1};
  SchedulerFault new_fault_;  // the error found at this edge (lowest cause)
  // Watchdog: ticks counted without progress (saturating at kWatchdogMax), a tick presented.
  int watchdog_count_ = 0;
  bool watchdog_tick_ = false;
  bool stalled() const {
    return config_.watchdog_limit > 0 && watchdog_count_ >= config_.watchdog_limit;
  }
  int stalled_entry() const;  // the entry a stall names
};

}  // namespace mt
