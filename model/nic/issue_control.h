#pragma once
// The NIC's issue control: between its transmit ports (TxDma), its issue policy (a Scheduler:
// the host under software issue, the co-designed scheduler under hardware issue) and its step
// barrier. Each run of the NIC it presents every issue queue's request (a cycle-level
// scheduler's ready levels), starts the operations the free ports take, and says when the
// ports next need it. Plain C++, no SystemC (tests/nic/test_issue_control.cpp).

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "model/nic/step_barrier.h"
#include "model/nic/tx_dma.h"
#include "model/sched/scheduler.h"

namespace mt {

/// How a NIC's ports take operations.
struct IssueControlParams {
  int ports = 1;  ///< transmit ports
  /// Ports not bound to a direction: one issue queue (0) that every port serves, in port
  /// order; false: issue queue p is port p's.
  bool any_port = false;
  /// Cycle-level schedulers: a port requests its next operation this many cycles before it frees
  /// (TxDma::port_free_by; nic.scheduler_early_request); 0: once it is free.
  std::uint64_t request_lead_cycles = 0;
};

/// One NIC's issue control (references its parts; it owns nothing).
class IssueControl {
 public:
  /// `steps`: the schedule step of each program entry (for the barrier; may be empty when the
  /// barrier is off).
  IssueControl(const IssueControlParams& params, Scheduler& issue, const TxDma& tx,
               StepBarrier& barrier, std::vector<int> steps);

  /// Presents every issue queue's request at `now` (ignored by schedulers that are not cycle
  /// level): a port that is free or frees within the lead, while the step barrier lets the node
  /// start its current step's operations; with any_port, queue 0 while any port does.
  void present_requests(std::uint64_t now);

  /// Starts what the free ports take at `now`: each free port its queue's next ready operation
  /// (any_port: the one queue's, port by port), in program order across ports, each checked
  /// against the step barrier after the starts before it. `start(port, index)` starts program
  /// entry `index` on `port` (the transmit DMA and the barrier learn of it there); the
  /// operation has been popped from its queue before.
  template <class Start>
  void issue(std::uint64_t now, Start start);

  /// Earliest cycle after `now` at which a port's request or freedom changes by itself: a port
  /// whose request must rise (its busy end, or the lead before it; cycle-level schedulers only)
  /// or whose DMA finishes handing its packets over; kNever when none.
  std::uint64_t next_port_event(std::uint64_t now) const;

  /// Every port is free at `now`.
  bool all_ports_free(std::uint64_t now) const;
  /// The step barrier allows program entry `index` to start at `now`.
  bool allows(int index, std::uint64_t now) const;
  /// The issue queue of port `port`.
  int queue_of(int port) const { return params_.any_port ? 0 : port; }

  static constexpr std::uint64_t kNever = TxDma::kNever;

 private:
  /// The step barrier allows an operation of `step` to start at `now`.
  bool step_allowed(int step, std::uint64_t now) const;

  IssueControlParams params_;
  Scheduler& issue_;
  const TxDma& tx_;
  StepBarrier& barrier_;
  std::vector<int> steps_;
  std::vector<std::pair<int, int>> order_;  // (program index, port) to start now
};

template <class Start>
void IssueControl::issue(std::uint64_t now, Start start) {
  order_.clear();
  if (params_.any_port) {
    // One queue: its ready operations go to the free ports in port order.
    for (int p = 0; p < params_.ports; ++p) {
      if (!tx_.port_free(p, now)) continue;
      const int index = issue_.next_ready(0, now);
      if (index < 0 || !allows(index, now)) break;
      issue_.pop(0);
      start(p, index);
    }
    return;
  }
  for (int p = 0; p < params_.ports; ++p) {
    if (!tx_.port_free(p, now)) continue;
    const int index = issue_.next_ready(p, now);
    if (index >= 0 && allows(index, now)) order_.emplace_back(index, p);
  }
  std::sort(order_.begin(), order_.end());
  for (const auto& [index, p] : order_) {
    // Several ports in one cycle: the barrier is checked again after each start.
    if (!allows(index, now)) continue;
    issue_.pop(p);
    start(p, index);
  }
}

}  // namespace mt
