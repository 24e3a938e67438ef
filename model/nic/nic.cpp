// The Nic: its parts wired to the sockets, and the event-driven process() that moves every part
// in a fixed order each time something can happen. Stall reports: nic_stall.cpp.
#include "model/nic/nic.h"

#include <algorithm>
#include <limits>
#include <string>

#include "model/data/packet_sizes.h"
#include "model/noc/link.h"
#include "model/noc/process_fault.h"

namespace mt {

namespace {

// Each program entry's schedule step, for the step barrier.
std::vector<int> program_steps(const NicParams& params, const Schedule& schedule) {
  std::vector<int> steps;
  if (!params.step_barrier) return steps;
  steps.reserve(params.program.size());
  for (const int message : params.program)
    steps.push_back(schedule.ops[static_cast<std::size_t>(message)].step);
  return steps;
}

}  // namespace

Nic::Nic(const sc_core::sc_module_name& name, const NicParams& params, NicShared& shared,
         std::unique_ptr<Scheduler> issue, const CycleClock& clock)
    : sc_core::sc_module(name),
      tx_socket("tx_socket", static_cast<std::size_t>(params.ports)),
      rx_socket("rx_socket", static_cast<std::size_t>(params.ports)),
      params_(params),
      shared_(shared),
      issue_(std::move(issue)),
      clock_(clock),
      tx_(params.tx, *shared.routing, *shared.rx.pool, clock),
      rx_(params.rx, shared.rx,
          [this](int message, int counter, std::uint64_t now) {
            message_arrived(message, counter, now);
          }),
      barrier_(params.step_barrier, program_steps(params, *shared.rx.schedule)),
      control_(IssueControlParams{params.ports, params.any_port, params.request_lead_cycles},
               *issue_, tx_, barrier_, program_steps(params, *shared.rx.schedule)),
      wakeup_(clock, *this, [this] { process(); }) {
  for (int p = 0; p < params_.ports; ++p) {
    tx_socket[static_cast<std::size_t>(p)].register_nb_transport_bw(this, &Nic::tx_bw, p);
    rx_socket[static_cast<std::size_t>(p)].register_nb_transport_fw(this, &Nic::rx_fw, p);
  }
  wakeup_.at(0);  // a first run at cycle 0
}

int Nic::packets_for(std::uint64_t bytes, int packet_bytes) {
  const std::uint64_t packets = packets_in(bytes, packet_bytes);
  // The loader keeps every size within 31-bit packet counts; this guards the conversion.
  if (packets > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
    throw SimTimeError("a message of " + std::to_string(bytes) + " bytes is " +
                       std::to_string(packets) + " packets: more than a 31-bit count");
  return static_cast<int>(packets);
}

void Nic::process() {
  guard_process([this] { step(); });
}

void Nic::step() {
  const std::uint64_t now = clock_.now();
  wakeup_.clear();
  tx_.apply_credits(now);
  rx_.advance(now);
  // Release times under hardware issue: the host rings the release counter when each comes.
  while (releases_rung_ < params_.release_cycles.size() &&
         params_.release_cycles[releases_rung_] <= now) {
    issue_->on_doorbell(params_.release_counter, now);
    ++releases_rung_;
    last_progress_ = std::max(last_progress_, now);
  }
  // Cycle-level (hardware) schedulers see every issue queue's request; free ports take their
  // next ready operation, in program order across ports.
  control_.present_requests(now);
  control_.issue(now, [&](int port, int index) { start_message(port, index, now); });
  // Local steps need no port: every ready one starts (the reduction unit queues them).
  if (params_.local_queue >= 0) {
    for (int index = issue_->next_ready(params_.local_queue, now);
         index >= 0 && control_.allows(index, now);
         index = issue_->next_ready(params_.local_queue, now)) {
      issue_->pop(params_.local_queue);
      start_message(-1, index, now);
    }
  }
  freed_by_send_ = false;
  for (int p = 0; p < params_.ports; ++p) {
    const bool was_free = tx_.port_free(p, now);
    if (tx_.send(p, now)) last_progress_ = std::max(last_progress_, now);
    // (a transmit queue that gained room): the next cycle's issue may use it.
    if (!was_free && tx_.port_free(p, now)) freed_by_send_ = true;
  }
  // The requests as this cycle leaves them (a port that took a message drops its own; one whose
  // last packet went out may raise its early request) are what the next decision sees, whether
  // or not the NIC runs in the next cycle: results must not depend on which cycles it runs in.
  if (issue_->cycle_level()) control_.present_requests(now);

  if (!finished_ && issue_->issued() == issue_->size() &&
      rx_.arrivals() == params_.incoming.size()) {
    finished_ = true;
    finish_cycle_ = now;
    if (shared_.on_finished) shared_.on_finished(params_.node, now);
  }
  std::uint64_t next = next_run(now);
  if (params_.every_cycle && (!finished_ || next != kNever)) next = std::min(next, now + 1);
  if (next != kNever) wakeup_.at(next);
}

std::uint64_t Nic::next_run(std::uint64_t now) {
  std::uint64_t next = rx_.next_event();
  blocked_ = false;
  if (releases_rung_ < params_.release_cycles.size()) {
    const std::uint64_t release = params_.release_cycles[releases_rung_];
    next = std::min(next, release);
    last_progress_ = std::max(last_progress_, release);  // progress to come: not a stall
  }
  const bool issuing = issue_->issued() < issue_->size();
  if (issuing) {
    // A cycle-level decision, or a host's notification, post or release time.
    const std::uint64_t event = issue_->next_event_cycle(now);
    if (event != Scheduler::kNoEvent) {
      next = std::min(next, event);
      if (!issue_->cycle_level()) last_progress_ = std::max(last_progress_, event);
    }
  }
  // A cycle-level scheduler sees its ports' requests change at their cycles even once all is
  // issued (its cycles worked must not depend on which cycles the NIC runs in).
  if (issuing || issue_->cycle_level()) next = std::min(next, control_.next_port_event(now));
  for (int p = 0; p < params_.ports; ++p) {
    const TxDma::PortTiming& port = tx_.timing(p);
    const bool empty = port.front_start == kNever;
    if (empty && issue_->next_ready(control_.queue_of(p), now) < 0) continue;
    if (port.busy_until > now) {
      next = std::min(next, port.busy_until);
    } else if (!empty && port.front_start > now) {
      next = std::min(next, port.front_start);
    } else {
      blocked_ = true;  // waiting for a credit
    }
  }
  if (blocked_) next = std::min(next, tx_.next_credit());
  // A port freed by this run's sends issues in the next cycle, whether or not another event
  // would run the NIC then: results must not depend on which cycles it runs in.
  if (freed_by_send_ && issuing) next = std::min(next, now + 1);
  return next;
}

void Nic::start_message(int p, int index, std::uint64_t now) {
  const int message = params_.program[static_cast<std::size_t>(index)];
  const Op& op = shared_.rx.schedule->ops[static_cast<std::size_t>(message)];
  TxMessage m;
  m.index = index;
  m.message = message;
  const auto chunk = static_cast<std::size_t>(op.size_chunk());
  const std::uint64_t begin = shared_.chunk_bounds[chunk];
  const auto element_bytes = static_cast<std::uint64_t>(params_.tx.element_bytes);
  m.address = begin * element_bytes;
  m.bytes = (shared_.chunk_bounds[chunk + 1] - begin) * element_bytes;
  m.peer = op.peer;
  m.flow = op.flow;
  m.chunk = op.chunk;
  m.step = op.step;
  m.kind = op.kind;
  m.rx_port = shared_.rx_ports.empty() ? -1 : shared_.rx_ports[static_cast<std::size_t>(message)];
  m.dst_counter = params_.program_counters.empty()
                      ? 0
                      : params_.program_counters[static_cast<std::size_t>(index)];
  m.half_way = shared_.half_way.empty() ? 0 : shared_.half_way[static_cast<std::size_t>(message)];
  m.path = shared_.paths[static_cast<std::size_t>(message)];
  if (m.path != nullptr && !m.path->empty()) {
    m.hops = static_cast<int>(m.path->size());
    m.first_link = m.path->front();
  }
  const bool local = op.is_local();  // runs on the reduction unit, not a port (run_local)
  m.packets = local ? 0 : packets_for(m.bytes, params_.tx.packet_bytes);
  m.start = now;
  MessageRecord& record = (*shared_.rx.messages)[static_cast<std::size_t>(message)];
  record.start(m.packets, m.bytes);
  record.issued = true;
  record.issue_cycle = m.start;
  // The message carries the sender's chunk as it is when the operation issues.
  record.snapshot = shared_.rx.data->snapshot(params_.node, op.chunk, op.src_buf);
  // Messages held in the staging buffer for this one can now be reduced into the buffer.
  rx_.own_issued(message, now);
  last_progress_ = std::max(last_progress_, now);
  if (local) {
    rx_.run_local(message, now);
  } else {
    tx_.start(p, m);
  }
  barrier_.started(op.step);
}

void Nic::message_arrived(int message, int counter, std::uint64_t now) {
  issue_->on_arrival(message, counter, now);
}

tlm::tlm_sync_enum Nic::tx_bw(int port, tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                              sc_core::sc_time& delay) {
  if (phase != tlm::BEGIN_RESP) {
    SC_REPORT_ERROR(name(), "unexpected phase on a NIC port's backward path");
    return tlm::TLM_COMPLETED;
  }
  const PacketExtension& packet = packet_of(payload);
  // A switch input returns space flit by flit; the NIC port counts it once the last flit's is back.
  const std::uint64_t span = packet.credit_span > 0 ? packet.credit_span - 1 : 0;
  const std::uint64_t now = clock_.now();
  const std::uint64_t cycle = std::max(now + 1, now + clock_.to_cycles(delay) + span);
  tx_.credit_at(cycle, port, packet.credit_vc, packet.flits);
  // A credit on its way back is progress to come: a port waiting for it is not stalled.
  last_progress_ = std::max(last_progress_, cycle);
  // Credits are applied lazily; they only need a wake-up when a port waits for them.
  if (blocked_) wakeup_.at(cycle);
  return tlm::TLM_COMPLETED;
}

tlm::tlm_sync_enum Nic::rx_fw(int port, tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                              sc_core::sc_time& delay) {
  if (phase != tlm::BEGIN_REQ) {
    SC_REPORT_ERROR(name(), "unexpected phase on a NIC receive port");
    return tlm::TLM_COMPLETED;
  }
  const PacketExtension& packet = packet_of(payload);
  if (packet.dst != params_.node) {
    SC_REPORT_ERROR(name(), ("packet of message " + std::to_string(packet.message) + " for node " +
                             std::to_string(packet.dst) + " delivered here")
                                .c_str());
  }
  // The router's process delivers; the NIC's own process takes the packet in the next cycle.
  const std::uint64_t head = clock_.now() + clock_.to_cycles(delay);
  const std::uint64_t take = rx_.deliver(port, payload, head, head + packet.serialization_cycles);
  if (rx_.occupancy(port) > params_.rx_buffer_flits) {
    SC_REPORT_ERROR(name(), "receive buffer overflow: credit protocol violated (model bug)");
  }
  wakeup_.at(take);
  return tlm::TLM_ACCEPTED;
}

void Nic::end_of_elaboration() {
  for (int p = 0; p < params_.ports; ++p) {
    tx_.attach(p, LinkChannel::attach_sender(tx_socket[static_cast<std::size_t>(p)].operator->(),
                                             PortEntry::method<Nic, &Nic::tx_bw>(this, p)));
    LinkChannel::attach_receiver(rx_socket[static_cast<std::size_t>(p)].operator->(),
                                 PortEntry::method<Nic, &Nic::rx_fw>(this, p));
  }
}

void Nic::start_of_simulation() {
  for (int p = 0; p < params_.ports; ++p) {
    rx_.attach_credit_path(
        p, LinkChannel::credit_path(rx_socket[static_cast<std::size_t>(p)].operator->()));
  }
}

}  // namespace mt
