#include "model/nic/issue_control.h"

#include <algorithm>

namespace mt {

IssueControl::IssueControl(const IssueControlParams& params, Scheduler& issue, const TxDma& tx,
                           StepBarrier& barrier, std::vector<int> steps)
    : params_(params), issue_(issue), tx_(tx), barrier_(barrier), steps_(std::move(steps)) {}

bool IssueControl::all_ports_free(std::uint64_t now) const {
  for (int p = 0; p < params_.ports; ++p) {
    if (!tx_.port_free(p, now)) return false;
  }
  return true;
}

bool IssueControl::step_allowed(int step, std::uint64_t now) const {
  return barrier_.allows(step, [&] { return all_ports_free(now); });
}

bool IssueControl::allows(int index, std::uint64_t now) const {
  return step_allowed(steps_.empty() ? 0 : std::max(0, steps_[static_cast<std::size_t>(index)]),
                      now);
}

void IssueControl::present_requests(std::uint64_t now) {
  // Under the step barrier a port requests nothing while the node waits to leave its step (a
  // cycle-level scheduler's next grant may be the next step's).
  const bool gate = step_allowed(barrier_.current(), now);
  // And the step it lets start: a decision made from requests presented before the node closed
  // its step (the last operation of the step started) grants no entry of the next one. Without
  // it, ports whose requests the scheduler still saw high took grants of the next step, held
  // them until the barrier opened and then started them beside the port whose queued packets
  // had kept it closed (nic.scheduler_any_port_grants per_port, 4x4 paper torus at 1 MiB).
  issue_.set_open_step(barrier_.open_step([&] { return all_ports_free(now); }, kAnyStep), now);
  const std::uint64_t lead = params_.request_lead_cycles;
  if (params_.any_port) {
    bool any_free = false;
    for (int p = 0; p < params_.ports; ++p) any_free = any_free || tx_.port_free_by(p, now, lead);
    issue_.set_port_ready(0, any_free && gate, now);
    return;
  }
  for (int p = 0; p < params_.ports; ++p)
    issue_.set_port_ready(p, tx_.port_free_by(p, now, lead) && gate, now);
}

std::uint64_t IssueControl::next_port_event(std::uint64_t now) const {
  std::uint64_t next = kNever;
  const std::uint64_t lead = params_.request_lead_cycles;
  const bool cycle_level = issue_.cycle_level();
  for (int p = 0; p < params_.ports; ++p) {
    const TxDma::PortTiming& port = tx_.timing(p);
    // A cycle-level scheduler must see a port's request rise when the port frees, or its
    // request lead before that.
    if (cycle_level && port.front_start == kNever && port.busy_until > now)
      next =
          std::min(next, port.busy_until > now + lead ? port.busy_until - lead : port.busy_until);
    // A port with a transmit queue frees when its DMA is done (and its queue has room).
    if (port.dma_until > now) next = std::min(next, port.dma_until);
  }
  return next;
}

}  // namespace mt
