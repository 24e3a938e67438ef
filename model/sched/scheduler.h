#pragma once
// The NIC's issue policy, apart from the SystemC kernel: which of this node's schedule operations
// may be sent next on which port. Implementations: HostScheduler (software issue: the host,
// with its notification latency and issue costs) and HardwareScheduler (the co-designed NIC
// scheduler: a cycle-level CycleScheduler engine, the C++ SchedulerModel or the Verilated RTL,
// driven event-driven by the NIC; see model/sched/hardware_scheduler.h).

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "model/core/error.h"
#include "model/core/small_int_list.h"

namespace mt {

/// No step limit: every step may start (Scheduler::set_open_step without a step barrier).
constexpr int kAnyStep = 0x7fffffff;

/// A scheduler was misused: a program that does not fit the NIC (bad port, repeated or unknown
/// message) or an operation requested that is not there (pop with nothing ready).
class SchedulerError : public Error {
 public:
  using Error::Error;
};

/// One operation of a node's program as the scheduler sees it.
struct SchedulerOp {
  int message = 0;    ///< message (op) id in the schedule
  int port = 0;       ///< NIC port the message leaves by
  int step = 0;       ///< schedule time step
  SmallIntList deps;  ///< message ids that must have arrived at this node before issue
  std::uint64_t release_cycle = 0;  ///< not issued before this cycle (0 = no constraint), cycles
};

/// Issue control: decides the order in which a node's operations are issued. Indices are program
/// positions (0..size()-1, the order the scheduler was built with). Built with its program; the
/// NIC tells it arrivals and port levels and asks what each port issues.
class Scheduler {
 public:
  virtual ~Scheduler() = default;

  /// Message `message` has fully arrived at this node and been applied to its buffer at cycle
  /// `now`; `counter` is its packet header's arrival counter (hardware issue).
  virtual void on_arrival(int message, int counter, std::uint64_t now) = 0;
  /// Program index of the operation port `port` should issue now, or -1 when none is ready
  /// (cycles must not decrease between calls: the scheduler's state advances to `now_cycles`).
  virtual int next_ready(int port, std::uint64_t now_cycles) = 0;
  /// Marks the operation last returned by next_ready(port) as issued.
  virtual void pop(int port) = 0;

  /// Operations in the program.
  virtual std::size_t size() const = 0;
  /// Operations issued so far.
  virtual std::size_t issued() const = 0;
  /// True when operation `index` has been issued.
  virtual bool is_issued(int index) const = 0;

  /// No event pending (next_event_cycle).
  static constexpr std::uint64_t kNoEvent = ~std::uint64_t{0};
  /// Earliest cycle > now at which next_ready may change without any new input (the NIC must
  /// run then: a cycle-level decision, a host's post or notification, a release time), or
  /// kNoEvent.
  virtual std::uint64_t next_event_cycle(std::uint64_t now) = 0;

  // Cycle-level schedulers (hardware issue). Others ignore these (defaults).
  /// True for cycle-level schedulers: the NIC presents port levels and runs at next_event_cycle.
  virtual bool cycle_level() const { return false; }
  /// The host's doorbell at cycle `now`: one count on scheduler counter `counter` (the release
  /// counter of release times, PackedSchedule::release_counter).
  virtual void on_doorbell(int counter, std::uint64_t now) {
    (void)counter;
    (void)now;
  }
  /// Ready level of port `port` at cycle `now`: its DMA can take a new message. The NIC presents
  /// every port's level at every cycle it runs, before asking next_ready.
  virtual void set_port_ready(int port, bool ready, std::uint64_t now) {
    (void)port;
    (void)ready;
    (void)now;
  }
  /// The highest schedule step the NIC's step barrier lets start at cycle `now` (kAnyStep: no
  /// barrier, or none in force). The NIC presents it with the port levels; a cycle-level
  /// scheduler grants no entry of a later step (in step order) once it sees the value.
  virtual void set_open_step(int step, std::uint64_t now) {
    (void)step;
    (void)now;
  }
  /// Cycles its hardware has been clocked with work so far (a cycle-level engine's ticks; 0
  /// for a host, whose energy is not the NIC's).
  virtual std::uint64_t clocked_cycles() const { return 0; }
};

}  // namespace mt
