// The Nic: construction, the event-driven process() that moves everything each time something can
// happen, and the port and step-barrier rules it applies. Transmit side: nic_tx.cpp; receive side:
// nic_rx.cpp; stall reports: nic_stall.cpp.
#include "model/nic/nic.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "model/data/packet_sizes.h"
#include "model/noc/link.h"
#include "model/noc/process_fault.h"
#include "model/sched/schedule_table.h"

namespace mt {

Nic::Nic(const sc_core::sc_module_name& name, const NicParams& params, NicEnvironment& env,
         std::unique_ptr<Scheduler> scheduler, const CycleClock& clock)
    : sc_core::sc_module(name),
      tx_socket("tx_socket", static_cast<std::size_t>(params.ports)),
      rx_socket("rx_socket", static_cast<std::size_t>(params.ports)),
      params_(params),
      env_(env),
      scheduler_(std::move(scheduler)),
      clock_(clock),
      wakeup_(clock, *this) {
  std::vector<SchedulerOp> program;
  program.reserve(params_.program.size());
  for (std::size_t i = 0; i < params_.program.size(); ++i) {
    const Op& op = env_.schedule->ops[static_cast<std::size_t>(params_.program[i])];
    program.push_back(
        SchedulerOp{op.id, params_.program_ports[i], op.step, op.deps, op.release_cycle});
  }
  try {
    scheduler_->load(program, params_.any_port ? 1 : params_.ports);
  } catch (const TableError& e) {  // e.g. a table too large for the Verilated scheduler
    throw TableError("node " + std::to_string(params_.node) + ": " + e.what(), e.location());
  }
  if (params_.step_barrier) {
    for (const SchedulerOp& op : program) {
      const auto step = static_cast<std::size_t>(std::max(op.step, 0));
      if (left_in_step_.size() <= step) left_in_step_.resize(step + 1, 0);
      ++left_in_step_[step];
    }
    while (static_cast<std::size_t>(current_step_) < left_in_step_.size() &&
           left_in_step_[static_cast<std::size_t>(current_step_)] == 0) {
      ++current_step_;
    }
  }

  tx_.resize(static_cast<std::size_t>(params_.ports));
  timing_.resize(static_cast<std::size_t>(params_.ports));
  // A port that drives a network link itself sends on the VCs of the route's first class; a
  // router's injection port has no dateline class, so every VC of it takes packets.
  const auto range = params_.drives_links ? env_.routing->vc_range(0, params_.tx_vcs)
                                          : std::make_pair(0, params_.tx_vcs);
  tx_credits_.assign(static_cast<std::size_t>(params_.ports * params_.tx_vcs),
                     params_.tx_credits_per_vc);
  for (std::size_t p = 0; p < tx_.size(); ++p) {
    TxPort& port = tx_[p];
    port.credits = tx_credits_.data() + p * static_cast<std::size_t>(params_.tx_vcs);
    port.vc_first = range.first;
    port.vc_last = range.second;
    port.vc_next = range.first;
  }
  rx_flits_.assign(static_cast<std::size_t>(params_.ports), 0);
  for (int p = 0; p < params_.ports; ++p) {
    tx_socket[static_cast<std::size_t>(p)].register_nb_transport_bw(this, &Nic::tx_bw, p);
    rx_socket[static_cast<std::size_t>(p)].register_nb_transport_fw(this, &Nic::rx_fw, p);
  }
  SC_METHOD(process);
  sensitive << wakeup_.event();
}

int Nic::packets_for(std::uint64_t bytes, int packet_bytes) {
  const std::uint64_t packets = packets_in(bytes, packet_bytes);
  // The loader keeps every size within 31-bit packet counts; this guards the conversion.
  if (packets > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
    throw SimTimeError("a message of " + std::to_string(bytes) + " bytes is " +
                       std::to_string(packets) + " packets: more than a 31-bit count");
  return static_cast<int>(packets);
}

std::uint64_t Nic::reduce_cycles(std::uint64_t elements, double elems_per_cycle) {
  if (elements == 0) return 0;
  return static_cast<std::uint64_t>(
      std::ceil(static_cast<double>(elements) / elems_per_cycle - 1e-9));
}

void Nic::process() {
  guard_process([this] { step(); });
}

void Nic::step() {
  const std::uint64_t now = clock_.now();
  wakeup_.clear();
  while (!credits_.empty() && credits_.front().cycle <= now) {
    const Timed credit = credits_.front();
    std::pop_heap(credits_.begin(), credits_.end(), std::greater<Timed>());
    credits_.pop_back();
    tx_[static_cast<std::size_t>(credit.port)].credits[credit.vc] += credit.flits;
  }
  while (!reducing_.empty() && reducing_.front().cycle <= now) {
    const Timed item = reducing_.front();
    reducing_.pop_front();
    complete_packet(item, now);
  }
  while (!aggregating_.empty() && aggregating_.front().cycle <= now) {
    const Aggregation done = aggregating_.front();
    aggregating_.pop_front();
    message_arrived(done.message, done.counter, now);
  }
  // Release times under hardware issue: the host rings the release counter when each comes.
  while (releases_rung_ < params_.release_cycles.size() &&
         params_.release_cycles[releases_rung_] <= now) {
    scheduler_->on_doorbell(params_.release_counter, now);
    ++releases_rung_;
    last_progress_ = std::max(last_progress_, now);
  }
  // Cycle-level (hardware) schedulers see every port's ready level (software ones ignore it);
  // with ports not bound to a direction their one queue is ready while any port is free.
  // Under the step barrier a port is not ready while the node waits to leave its step (a
  // cycle-level scheduler's next grant may be the next step's).
  const bool gate = barrier_allows(current_step_, now);
  if (params_.any_port) {
    bool any_free = false;
    for (int p = 0; p < params_.ports; ++p) any_free = any_free || port_free(p, now);
    scheduler_->set_port_ready(0, any_free && gate, now);
  } else {
    for (int p = 0; p < params_.ports; ++p) {
      scheduler_->set_port_ready(p, port_free(p, now) && gate, now);
    }
  }
  // Free ports take their next ready operation; the host issues them in program order.
  issue_order_.clear();
  if (params_.any_port) {
    // One queue: its ready operations go to the free ports in port order.
    for (int p = 0; p < params_.ports; ++p) {
      if (!port_free(p, now)) continue;
      const int index = scheduler_->next_ready(0, now);
      if (index < 0 || !barrier_allows(step_of(index), now)) break;
      start_message(p, index, now);
    }
  } else {
    for (int p = 0; p < params_.ports; ++p) {
      if (!port_free(p, now)) continue;
      const int index = scheduler_->next_ready(p, now);
      if (index >= 0 && barrier_allows(step_of(index), now)) issue_order_.emplace_back(index, p);
    }
  }
  std::sort(issue_order_.begin(), issue_order_.end());
  for (const auto& [index, p] : issue_order_) {
    // Several ports in one cycle: the barrier is checked again after each start.
    if (barrier_allows(step_of(index), now)) start_message(p, index, now);
  }
  for (int p = 0; p < params_.ports; ++p) send_packet(p, now);

  if (!finished_ && scheduler_->issued() == scheduler_->size() &&
      arrivals_ == params_.incoming.size()) {
    finished_ = true;
    finish_cycle_ = now;
    if (env_.on_finished) env_.on_finished(params_.node, now);
  }

  std::uint64_t next = kNever;
  blocked_ = false;
  if (!reducing_.empty()) next = std::min(next, reducing_.front().cycle);
  if (!aggregating_.empty()) next = std::min(next, aggregating_.front().cycle);
  if (releases_rung_ < params_.release_cycles.size()) {
    const std::uint64_t release = params_.release_cycles[releases_rung_];
    next = std::min(next, release);
    last_progress_ = std::max(last_progress_, release);  // progress to come: not a stall
  }
  if (scheduler_->issued() < scheduler_->size()) {
    // A cycle-level decision, or a software operation's release time.
    const std::uint64_t event = scheduler_->next_event_cycle(now);
    if (event != Scheduler::kNoEvent) {
      next = std::min(next, event);
      if (!scheduler_->cycle_level()) last_progress_ = std::max(last_progress_, event);
    }
  }
  if (scheduler_->cycle_level() && scheduler_->issued() < scheduler_->size()) {
    // The scheduler must see a port's ready level rise when the port frees.
    for (const PortTiming& port : timing_) {
      if (port.front_start == kNever && port.busy_until > now) {
        next = std::min(next, port.busy_until);
      }
    }
  }
  if (scheduler_->issued() < scheduler_->size()) {
    // A port with a transmit queue frees when its DMA is done (and its queue has room).
    for (const PortTiming& port : timing_) {
      if (port.dma_until > now) next = std::min(next, port.dma_until);
    }
  }
  for (int p = 0; p < params_.ports; ++p) {
    const PortTiming& port = timing_[static_cast<std::size_t>(p)];
    const bool empty = port.front_start == kNever;
    if (empty && scheduler_->next_ready(queue_of(p), now) < 0) continue;
    if (port.busy_until > now) {
      next = std::min(next, port.busy_until);
    } else if (!empty && port.front_start > now) {
      next = std::min(next, port.front_start);
    } else {
      blocked_ = true;  // waiting for a credit
    }
  }
  if (blocked_ && !credits_.empty()) next = std::min(next, credits_.front().cycle);
  if (next != kNever) wakeup_.at(next);
}

void Nic::end_of_elaboration() {
  for (int p = 0; p < params_.ports; ++p) {
    tx_fw_.push_back(LinkChannel::attach_sender(tx_socket[static_cast<std::size_t>(p)].operator->(),
                                                PortEntry::method<Nic, &Nic::tx_bw>(this, p)));
    LinkChannel::attach_receiver(rx_socket[static_cast<std::size_t>(p)].operator->(),
                                 PortEntry::method<Nic, &Nic::rx_fw>(this, p));
  }
}

void Nic::start_of_simulation() {
  for (auto& socket : rx_socket) rx_bw_.push_back(LinkChannel::credit_path(socket.operator->()));
}

bool Nic::barrier_allows(int step, std::uint64_t now) const {
  if (!params_.step_barrier) return true;
  // Steps strictly in order: only the lowest step with operations left, and when that is a new
  // step only once every port is free.
  if (step != current_step_) return false;
  if (step == barrier_step_) return true;
  for (int p = 0; p < params_.ports; ++p) {
    if (!port_free(p, now)) return false;
  }
  return true;
}

bool Nic::port_free(int p, std::uint64_t now) const {
  const PortTiming& port = timing_[static_cast<std::size_t>(p)];
  if (params_.tx_queue_packets > 0) {
    return port.dma_until <= now && port.unsent_packets <= params_.tx_queue_packets;
  }
  return port.front_start == kNever && port.busy_until <= now;
}

}  // namespace mt
