// The Nic's receive side: packets accepted into the receive buffer, reduced (per packet or per
// whole message), their buffer space credited back, and a message's arrival at the scheduler.
#include "model/nic/nic.h"

#include <algorithm>

namespace mt {

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
  // reduction a reduce packet only lands in memory (its sum starts when the message is whole),
  // and so does every packet of a message received into the staging buffer (its apply_after
  // not issued yet when a packet of it came).
  MessageRecord& record = (*env_.messages)[static_cast<std::size_t>(packet.message)];
  if (!record.staged && awaits_own_issue(packet.message)) {
    record.staged = true;  // the staging buffer holds the whole message from its first packet on
    staged_bytes_ += record.bytes;
    max_staged_bytes_ = std::max(max_staged_bytes_, staged_bytes_);
  }
  const bool per_packet =
      packet.kind == OpKind::kReduce && !params_.reduce_whole_messages && !record.staged;
  const std::uint64_t cycles = per_packet
                                   ? reduce_cycles(static_cast<std::uint64_t>(packet.elements),
                                                   params_.reduce_elems_per_cycle)
                                   : 0;
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
  rx_bw_[static_cast<std::size_t>(item.port)](payload, phase, delay);

  MessageRecord& record = (*env_.messages)[static_cast<std::size_t>(packet.message)];
  if (record.receive(packet.index, packet.payload_bytes)) {
    // Packets carry no data: check the packetisation before the chunk is applied as a whole.
    const std::string problem = record.check_complete(packet.message);
    if (!problem.empty() && env_.data_error != nullptr && env_.data_error->empty()) {
      *env_.data_error = problem;
    }
    record.release_indices();
    if (awaits_own_issue(packet.message)) {
      // Receive staging: held until this node has issued its own message of the chunk.
      held_[record.apply_after].push_back(Aggregation{now, packet.message, packet.dst_counter});
    } else if (record.staged || (packet.kind == OpKind::kReduce && params_.reduce_whole_messages)) {
      aggregate(packet.message, packet.dst_counter, now);
    } else {
      message_arrived(packet.message, packet.dst_counter, now);
    }
  }
  env_.pool->release(&payload);
}

bool Nic::awaits_own_issue(int message) const {
  const int own = (*env_.messages)[static_cast<std::size_t>(message)].apply_after;
  return own >= 0 && !(*env_.messages)[static_cast<std::size_t>(own)].issued;
}

void Nic::aggregate(int message, int counter, std::uint64_t now) {
  // The reduction unit sums whole messages one at a time, in the order they completed; a
  // broadcast's copy waits its turn but takes no reduction cycles.
  const MessageRecord& record = (*env_.messages)[static_cast<std::size_t>(message)];
  if (record.staged) staged_bytes_ -= record.bytes;  // the reduction unit takes it
  const bool reduce = env_.schedule->ops[static_cast<std::size_t>(message)].kind == OpKind::kReduce;
  const std::uint64_t elements = (record.bytes + params_.element_bytes - 1) /
                                 static_cast<std::uint64_t>(params_.element_bytes);
  reduce_free_ = std::max(now, reduce_free_) +
                 (reduce ? reduce_cycles(elements, params_.reduce_elems_per_cycle) : 0);
  aggregating_.push_back(Aggregation{reduce_free_, message, counter});
  last_progress_ = std::max(last_progress_, reduce_free_);  // progress to come
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

}  // namespace mt
