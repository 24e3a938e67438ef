#include "model/nic/nic.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

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
      wakeup_(clock) {
  std::vector<SchedulerOp> program;
  program.reserve(params_.program.size());
  for (std::size_t i = 0; i < params_.program.size(); ++i) {
    const Op& op = env_.schedule->ops[static_cast<std::size_t>(params_.program[i])];
    program.push_back(
        SchedulerOp{op.id, params_.program_ports[i], op.step, op.deps, op.release_cycle});
  }
  scheduler_->load(program, params_.any_port ? 1 : params_.ports);
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
  // A port that drives a network link itself sends on the VCs of the route's first class; a
  // router's injection port has no dateline class, so every VC of it takes packets.
  const auto range = params_.drives_links ? env_.routing->vc_range(0, params_.tx_vcs)
                                          : std::make_pair(0, params_.tx_vcs);
  for (TxPort& port : tx_) {
    port.credits.assign(static_cast<std::size_t>(params_.tx_vcs), params_.tx_credits_per_vc);
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

void MessageRecord::start(int packet_count, std::uint64_t message_bytes) {
  packets = packet_count;
  bytes = message_bytes;
  bytes_received = 0;
  received = 0;
  bad_indices = 0;
  seen.assign(static_cast<std::size_t>(std::max(packet_count, 0)), 0);
}

bool MessageRecord::receive(int index, int payload_bytes) {
  bytes_received += static_cast<std::uint64_t>(std::max(payload_bytes, 0));
  if (index >= 0 && static_cast<std::size_t>(index) < seen.size()) {
    std::uint8_t& count = seen[static_cast<std::size_t>(index)];
    if (count < 255) ++count;  // saturates: only 0, 1 and "more than once" matter
  } else {
    ++bad_indices;
  }
  return ++received == packets;
}

std::string MessageRecord::check_complete(int id) const {
  std::ostringstream out;
  const auto separator = [&out]() {
    if (!out.str().empty()) out << "; ";
  };
  if (bytes_received != bytes) {
    out << "received " << bytes_received << " payload bytes of " << bytes;
  }
  int missing = 0;
  int first_missing = -1;
  int duplicated = 0;
  int first_duplicated = -1;
  for (std::size_t i = 0; i < seen.size(); ++i) {
    if (seen[i] == 0 && missing++ == 0) first_missing = static_cast<int>(i);
    if (seen[i] > 1 && duplicated++ == 0) first_duplicated = static_cast<int>(i);
  }
  if (missing > 0) {
    separator();
    out << missing << " packet index(es) missing (first " << first_missing << ")";
  }
  if (duplicated > 0) {
    separator();
    out << duplicated << " packet index(es) received more than once (first " << first_duplicated
        << ")";
  }
  if (bad_indices > 0) {
    separator();
    out << bad_indices << " packet(s) with an index outside 0.." << packets - 1;
  }
  if (out.str().empty()) return "";
  return "data error: message " + std::to_string(id) + " completed with " +
         std::to_string(packets) + " packets but " + out.str();
}

int Nic::packets_for(std::uint64_t bytes, int packet_bytes) {
  const auto per = static_cast<std::uint64_t>(packet_bytes);
  const std::uint64_t packets = bytes / per + (bytes % per != 0);
  // The loader keeps every size within 31-bit packet counts; this guards the conversion.
  if (packets > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
    throw SimTimeError("a message of " + std::to_string(bytes) + " bytes is " +
                       std::to_string(packets) + " packets: more than a 31-bit count");
  return std::max(1, static_cast<int>(packets));
}

int Nic::flits_for(int payload_bytes, int head_flit_bytes, int flit_bytes) {
  return (payload_bytes + head_flit_bytes + flit_bytes - 1) / flit_bytes;
}

std::uint64_t Nic::reduce_cycles(int elements, double elems_per_cycle) {
  if (elements <= 0) return 0;
  return static_cast<std::uint64_t>(std::ceil(elements / elems_per_cycle - 1e-9));
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
  const std::uint64_t cycle = clock_.now() + clock_.to_cycles(delay) + span;
  credits_.push_back(Timed{cycle, seq_++, nullptr, port, packet.credit_vc, packet.flits});
  std::push_heap(credits_.begin(), credits_.end(), std::greater<Timed>());
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
  int& occupancy = rx_flits_[static_cast<std::size_t>(port)];
  occupancy += packet.flits;
  if (occupancy > params_.rx_buffer_flits) {
    SC_REPORT_ERROR(name(), "receive buffer overflow: credit protocol violated (model bug)");
  }
  // The reduction unit takes packets in head-arrival order, each once its tail has arrived.
  const std::uint64_t tail = clock_.now() + clock_.to_cycles(delay) + packet.serialization_cycles;
  // A broadcast chunk is written by the DMA, not the reduction unit; under whole-message
  // reduction a reduce packet only lands in memory (its sum starts when the message is whole).
  const bool per_packet = packet.kind == OpKind::kReduce && !params_.reduce_whole_messages;
  const std::uint64_t cycles =
      per_packet ? reduce_cycles(packet.elements, params_.reduce_elems_per_cycle) : 0;
  // Packets leave the receive buffer in arrival order (the deque stays sorted by cycle).
  land_free_ = std::max(tail, land_free_) + cycles;
  if (per_packet) reduce_free_ = land_free_;
  reducing_.push_back(Timed{land_free_, seq_++, &payload, port, packet.vc, packet.flits});
  last_progress_ = std::max(last_progress_, land_free_);  // progress to come
  wakeup_.at(land_free_);
  return tlm::TLM_ACCEPTED;
}

void Nic::complete_packet(const Timed& item, std::uint64_t now) {
  tlm::tlm_generic_payload& payload = *item.payload;
  PacketExtension& packet = packet_of(payload);
  rx_flits_[static_cast<std::size_t>(item.port)] -= packet.flits;
  last_progress_ = std::max(last_progress_, now);
  // Free the receive buffer slot: the credit travels back over the ejection channel.
  packet.credit_vc = item.vc;
  packet.credit_span = 0;
  tlm::tlm_phase phase = tlm::BEGIN_RESP;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  rx_socket[static_cast<std::size_t>(item.port)]->nb_transport_bw(payload, phase, delay);

  MessageRecord& record = (*env_.messages)[static_cast<std::size_t>(packet.message)];
  if (record.receive(packet.index, packet.payload_bytes)) {
    // Packets carry no data: check the packetisation before the chunk is applied as a whole.
    const std::string problem = record.check_complete(packet.message);
    if (!problem.empty() && env_.data_error != nullptr && env_.data_error->empty()) {
      *env_.data_error = problem;
    }
    // Per-packet counts are needed only while the message is in flight: release them so memory
    // follows the messages in flight, not the data size.
    std::vector<std::uint8_t>().swap(record.seen);
    if (packet.kind == OpKind::kReduce && params_.reduce_whole_messages) {
      // The reduction unit sums whole messages one at a time, in the order they completed.
      const int elements = static_cast<int>((record.bytes + params_.element_bytes - 1) /
                                            static_cast<std::uint64_t>(params_.element_bytes));
      reduce_free_ =
          std::max(now, reduce_free_) + reduce_cycles(elements, params_.reduce_elems_per_cycle);
      aggregating_.push_back(Aggregation{reduce_free_, packet.message, packet.dst_counter});
      last_progress_ = std::max(last_progress_, reduce_free_);  // progress to come
    } else {
      message_arrived(packet.message, packet.dst_counter, now);
    }
  }
  env_.pool->release(&payload);
}

void Nic::message_arrived(int message, int counter, std::uint64_t now) {
  MessageRecord& record = (*env_.messages)[static_cast<std::size_t>(message)];
  const Op& op = env_.schedule->ops[static_cast<std::size_t>(message)];
  record.arrived = true;
  record.arrival_cycle = now;
  env_.data->apply(params_.node, op.chunk, op.kind, record.snapshot);
  record.snapshot = -1;
  ++arrivals_;
  scheduler_->on_arrival(message);
  scheduler_->on_counter_arrival(counter, now);
}

void Nic::start_message(int p, int index, std::uint64_t now) {
  TxPort& port = tx_[static_cast<std::size_t>(p)];
  scheduler_->pop(queue_of(p));
  const int message = params_.program[static_cast<std::size_t>(index)];
  const Op& op = env_.schedule->ops[static_cast<std::size_t>(message)];
  TxMessage m;
  m.index = index;
  m.message = message;
  const auto chunk = static_cast<std::size_t>(op.chunk);
  const std::uint64_t begin = env_.chunk_bounds[chunk];
  m.address = begin * static_cast<std::uint64_t>(params_.element_bytes);
  m.bytes =
      (env_.chunk_bounds[chunk + 1] - begin) * static_cast<std::uint64_t>(params_.element_bytes);
  m.packets = packets_for(m.bytes, params_.packet_bytes);
  m.start = std::max(now, host_free_) + params_.software_issue_cycles;
  host_free_ = m.start;
  last_progress_ = std::max(last_progress_, m.start);  // the host is busy issuing until then
  MessageRecord& record = (*env_.messages)[static_cast<std::size_t>(message)];
  record.start(m.packets, m.bytes);
  record.issued = true;
  record.issue_cycle = m.start;
  // The message carries the sender's chunk as it is when the operation issues.
  record.snapshot = env_.data->snapshot(params_.node, op.chunk);
  last_progress_ = std::max(last_progress_, now);
  port.unsent_packets += m.packets;
  port.dma_until = m.start + static_cast<std::uint64_t>(m.packets) / kDmaPacketsPerCycle;
  port.queue.push_back(m);
  if (params_.step_barrier) {
    barrier_step_ = std::max(op.step, 0);
    --left_in_step_[static_cast<std::size_t>(barrier_step_)];
    while (static_cast<std::size_t>(current_step_) < left_in_step_.size() &&
           left_in_step_[static_cast<std::size_t>(current_step_)] == 0) {
      ++current_step_;
    }
  }
}

bool Nic::send_packet(int p, std::uint64_t now) {
  TxPort& port = tx_[static_cast<std::size_t>(p)];
  if (port.queue.empty() || port.busy_until > now) return false;
  TxMessage& m = port.queue.front();
  if (m.start > now) return false;

  const Op& op = env_.schedule->ops[static_cast<std::size_t>(m.message)];
  const std::uint64_t offset =
      static_cast<std::uint64_t>(m.next_packet) * static_cast<std::uint64_t>(params_.packet_bytes);
  const int payload_bytes = static_cast<int>(
      std::min<std::uint64_t>(static_cast<std::uint64_t>(params_.packet_bytes), m.bytes - offset));
  const bool head = !params_.message_flow_control || m.next_packet == 0;
  const int flits =
      flits_for(payload_bytes, head ? params_.head_flit_bytes : 0, params_.flit_bytes);
  const int span = port.vc_last - port.vc_first;
  int vc = -1;
  if (!head) {
    // Body packets follow their head on its VC (they carry no header to demultiplex them by).
    if (port.credits[static_cast<std::size_t>(m.message_vc)] >= flits) vc = m.message_vc;
  } else {
    const int start = ((port.vc_next - port.vc_first) % span + span) % span;
    for (int k = 0; k < span; ++k) {
      const int candidate = port.vc_first + (start + k) % span;
      if (port.credits[static_cast<std::size_t>(candidate)] >= flits) {
        vc = candidate;
        break;
      }
    }
  }
  if (vc < 0) return false;  // wait for a credit
  port.credits[static_cast<std::size_t>(vc)] -= flits;
  port.vc_next = vc + 1;
  if (head) m.message_vc = vc;

  tlm::tlm_generic_payload* payload = env_.pool->acquire();
  // The payload describes the slice of the node buffer it carries (the data itself travels in the
  // message snapshot, see model/noc/packet.h).
  payload->set_address(m.address + offset);
  payload->set_data_length(static_cast<unsigned int>(payload_bytes));
  PacketExtension& packet = packet_of(*payload);
  packet.src = params_.node;
  packet.dst = op.peer;
  packet.flow = op.flow;
  packet.chunk = op.chunk;
  packet.message = op.id;
  packet.step = op.step;
  packet.kind = op.kind;
  packet.index = m.next_packet;
  packet.packets = m.packets;
  packet.payload_bytes = payload_bytes;
  packet.elements = (payload_bytes + params_.element_bytes - 1) / params_.element_bytes;
  packet.flits = flits;
  packet.path = env_.paths[static_cast<std::size_t>(op.id)];
  packet.vc = vc;
  packet.route = RouteState{};
  packet.hop = 0;
  packet.credit_vc = 0;
  packet.head = head;
  packet.message_flow = params_.message_flow_control;
  packet.rx_port = env_.rx_ports.empty() ? -1 : env_.rx_ports[static_cast<std::size_t>(op.id)];
  packet.dst_counter = params_.program_counters.empty()
                           ? 0
                           : params_.program_counters[static_cast<std::size_t>(m.index)];
  if (params_.drives_links) {
    // The port is the first link of the route: the packet has taken it once it is sent.
    packet.hop = 1;
    env_.routing->advance((*packet.path)[0], packet.route);
  }

  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  const tlm::tlm_sync_enum status =
      tx_socket[static_cast<std::size_t>(p)]->nb_transport_fw(*payload, phase, delay);
  const std::uint64_t serialization =
      (status == tlm::TLM_UPDATED && phase == tlm::END_REQ) ? clock_.to_cycles(delay) : 1;
  port.busy_until = now + serialization;
  ++packets_sent_;
  last_progress_ = std::max(last_progress_, now);
  --port.unsent_packets;
  if (++m.next_packet == m.packets) {
    port.queue.pop_front();
  }
  return true;
}

void Nic::process() {
  const std::uint64_t now = clock_.now();
  wakeup_.clear();
  while (!credits_.empty() && credits_.front().cycle <= now) {
    const Timed credit = credits_.front();
    std::pop_heap(credits_.begin(), credits_.end(), std::greater<Timed>());
    credits_.pop_back();
    tx_[static_cast<std::size_t>(credit.port)].credits[static_cast<std::size_t>(credit.vc)] +=
        credit.flits;
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
    for (const TxPort& port : tx_) {
      if (port.queue.empty() && port.busy_until > now) next = std::min(next, port.busy_until);
    }
  }
  if (scheduler_->issued() < scheduler_->size()) {
    // A port with a transmit queue frees when its DMA is done (and its queue has room).
    for (const TxPort& port : tx_) {
      if (port.dma_until > now) next = std::min(next, port.dma_until);
    }
  }
  for (int p = 0; p < params_.ports; ++p) {
    const TxPort& port = tx_[static_cast<std::size_t>(p)];
    if (port.queue.empty() && scheduler_->next_ready(queue_of(p), now) < 0) continue;
    if (port.busy_until > now) {
      next = std::min(next, port.busy_until);
    } else if (!port.queue.empty() && port.queue.front().start > now) {
      next = std::min(next, port.queue.front().start);
    } else {
      blocked_ = true;  // waiting for a credit
    }
  }
  if (blocked_ && !credits_.empty()) next = std::min(next, credits_.front().cycle);
  if (next != kNever) wakeup_.at(next);
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
  const TxPort& port = tx_[static_cast<std::size_t>(p)];
  if (params_.tx_queue_packets > 0) {
    return port.dma_until <= now && port.unsent_packets <= params_.tx_queue_packets;
  }
  return port.queue.empty() && port.busy_until <= now;
}

std::string Nic::describe_stall() const {
  if (finished_) return "";
  const Schedule& schedule = *env_.schedule;
  const std::vector<MessageRecord>& messages = *env_.messages;
  std::ostringstream out;
  const auto describe_message = [&](int id) {
    const Op& op = schedule.ops[static_cast<std::size_t>(id)];
    std::ostringstream s;
    s << "message " << id << " (chunk " << op.chunk << " from node " << op.node << ")";
    return s.str();
  };
  for (std::size_t i = 0; i < params_.program.size(); ++i) {
    if (scheduler_->is_issued(static_cast<int>(i))) continue;
    const std::vector<int> missing = scheduler_->missing_deps(static_cast<int>(i));
    out << "node " << params_.node;
    if (missing.empty()) {
      out << " has message " << params_.program[i] << " ready on port " << params_.program_ports[i];
    } else {
      out << " waits for " << describe_message(missing.front());
      if (missing.size() > 1) out << " and " << missing.size() - 1 << " more";
      out << " to issue message " << params_.program[i];
    }
    break;
  }
  for (int p = 0; p < params_.ports; ++p) {
    const TxPort& port = tx_[static_cast<std::size_t>(p)];
    if (port.queue.empty()) continue;
    const TxMessage& m = port.queue.front();
    if (!out.str().empty()) out << ", ";
    out << "node " << params_.node << " port " << p << " is sending message " << m.message
        << " to node " << schedule.ops[static_cast<std::size_t>(m.message)].peer << " ("
        << m.next_packet << " of " << m.packets << " packets sent, waiting for credits)";
  }
  if (out.str().empty()) {
    for (const int id : params_.incoming) {
      if (messages[static_cast<std::size_t>(id)].arrived) continue;
      out << "node " << params_.node << " waits for " << describe_message(id) << " to arrive";
      const MessageRecord& record = messages[static_cast<std::size_t>(id)];
      if (!record.issued) {
        out << " (not issued yet)";
      } else {
        out << " (" << record.received << " of " << record.packets << " packets received)";
      }
      break;
    }
  }
  return out.str();
}

}  // namespace mt
