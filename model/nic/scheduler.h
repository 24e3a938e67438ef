#pragma once
// The NIC's issue policy, apart from the SystemC kernel: which of this node's schedule operations
// may be sent next on which port. Implementations: SoftwareScheduler (host library issue, the
// C++ golden model) and, later, an adapter to the Verilated RTL scheduler.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mt {

/// One operation of a node's program as the scheduler sees it.
struct SchedulerOp {
  int message = 0;        ///< message (op) id in the schedule
  int port = 0;           ///< NIC port the message leaves by
  int step = 0;           ///< schedule time step
  std::vector<int> deps;  ///< message ids that must have arrived at this node before issue
};

/// Decides the order in which a node's operations are issued. Indices are program positions
/// (0..size()-1, the order of load()).
class Scheduler {
 public:
  virtual ~Scheduler() = default;

  /// Replaces the program with `program` (in program order) for a NIC with `ports` ports.
  virtual void load(const std::vector<SchedulerOp>& program, int ports) = 0;
  /// Message `message` has fully arrived at this node and been applied to its buffer.
  virtual void on_arrival(int message) = 0;
  /// Program index of the operation port `port` should issue now, or -1 when none is ready.
  virtual int next_ready(int port, std::uint64_t now_cycles) const = 0;
  /// Marks the operation last returned by next_ready(port) as issued.
  virtual void pop(int port) = 0;

  /// Operations in the program.
  virtual std::size_t size() const = 0;
  /// Operations issued so far.
  virtual std::size_t issued() const = 0;
  /// True when operation `index` has been issued.
  virtual bool is_issued(int index) const = 0;
  /// Dependencies of operation `index` that have not arrived yet (message ids, ascending).
  virtual std::vector<int> missing_deps(int index) const = 0;
};

}  // namespace mt
