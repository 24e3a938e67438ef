#include "model/nic/rx_reassembly.h"

#include "model/data/packet_sizes.h"

#include <algorithm>
#include <utility>

namespace mt {

RxReassembly::RxReassembly(const RxParams& params, const RxShared& shared, Arrived arrived)
    : params_(params), shared_(shared), arrived_(std::move(arrived)) {
  credit_paths_.resize(static_cast<std::size_t>(params_.ports));
  occupancy_.assign(static_cast<std::size_t>(params_.ports), 0);
}

void RxReassembly::attach_credit_path(int port, const CreditPath& path) {
  credit_paths_.at(static_cast<std::size_t>(port)) = path;
}

std::uint64_t RxReassembly::deliver(int port, tlm::tlm_generic_payload& payload, std::uint64_t head,
                                    std::uint64_t tail) {
  occupancy_[static_cast<std::size_t>(port)] += packet_of(payload).flits;
  // Deliveries come nearly in order: find the place from the back.
  auto at = inbox_.end();
  while (at != inbox_.begin()) {
    const Delivered& before = *(at - 1);
    if (before.head < head || (before.head == head && before.port <= port)) break;
    --at;
  }
  const auto item = inbox_.insert(at, Delivered{head, tail, &payload, port});
  last_progress_ = std::max(last_progress_, tail);  // progress to come
  return item->intake();
}

void RxReassembly::accept(int port, tlm::tlm_generic_payload& payload, std::uint64_t tail) {
  const PacketExtension& packet = packet_of(payload);
  // A broadcast chunk is written by the DMA, not the reduction unit; under whole-message
  // reduction a reduce packet only lands in memory (its sum starts when the message is whole),
  // and so does every packet of a message received into the staging buffer (its apply_after
  // not issued yet when a packet of it came).
  MessageRecord& record = (*shared_.messages)[static_cast<std::size_t>(packet.message)];
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
  // Packets leave the receive buffer in arrival order (the queue stays sorted by cycle), the
  // reduction unit taking them in head-arrival order, each once its tail has arrived.
  const auto payload_bytes = static_cast<std::uint64_t>(packet.payload_bytes);
  activity_.buffer_writes += static_cast<std::uint64_t>(packet.flits);
  activity_.memory_write_bytes += payload_bytes;
  if (per_packet) {
    activity_.memory_read_bytes += payload_bytes;  // the node's operand
    activity_.adds += static_cast<std::uint64_t>(packet.elements);
  }
  // A packet summed on landing waits for the reduction unit too, which may still be summing a
  // whole message (a staged one, or a broadcast's copy in its turn).
  land_free_ = std::max({tail, land_free_, per_packet ? reduce_free_ : 0}) + cycles;
  if (per_packet) reduce_free_ = land_free_;
  landing_.push_back(Landing{land_free_, &payload, port, packet.vc});
  last_progress_ = std::max(last_progress_, land_free_);  // progress to come
}

void RxReassembly::advance(std::uint64_t now) {
  while (!inbox_.empty() && inbox_.front().head < now) {
    const Delivered item = inbox_.front();
    inbox_.pop_front();
    accept(item.port, *item.payload, item.tail);
  }
  while (!landing_.empty() && landing_.front().cycle <= now) {
    const Landing item = landing_.front();
    landing_.pop_front();
    complete_packet(item, now);
  }
  while (!aggregating_.empty() && aggregating_.front().cycle <= now) {
    const Aggregation done = aggregating_.front();
    aggregating_.pop_front();
    message_arrived(done.message, done.counter, now);
  }
}

std::uint64_t RxReassembly::next_event() const {
  std::uint64_t next = kNever;
  for (const Delivered& d : inbox_) next = std::min(next, d.intake());
  if (!landing_.empty()) next = std::min(next, landing_.front().cycle);
  if (!aggregating_.empty()) next = std::min(next, aggregating_.front().cycle);
  return next;
}

void RxReassembly::complete_packet(const Landing& item, std::uint64_t now) {
  tlm::tlm_generic_payload& payload = *item.payload;
  PacketExtension& packet = packet_of(payload);
  occupancy_[static_cast<std::size_t>(item.port)] -= packet.flits;
  activity_.buffer_reads += static_cast<std::uint64_t>(packet.flits);
  if (params_.ports_on_links)
    activity_.link_credit_flits += static_cast<std::uint64_t>(packet.flits);
  last_progress_ = std::max(last_progress_, now);
  // Free the receive buffer slot: the credit travels back over the ejection channel.
  packet.credit_vc = item.vc;
  packet.credit_span = 0;
  tlm::tlm_phase phase = tlm::BEGIN_RESP;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  credit_paths_[static_cast<std::size_t>(item.port)](payload, phase, delay);

  MessageRecord& record = (*shared_.messages)[static_cast<std::size_t>(packet.message)];
  if (record.receive(packet.index, packet.payload_bytes)) {
    // Packets carry no data: check the packetisation before the chunk is applied as a whole.
    const std::string problem = record.check_complete(packet.message);
    if (!problem.empty() && shared_.data_error != nullptr && shared_.data_error->empty()) {
      *shared_.data_error = problem;
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
  shared_.pool->release(&payload);
}

bool RxReassembly::awaits_own_issue(int message) const {
  const int own = (*shared_.messages)[static_cast<std::size_t>(message)].apply_after;
  return own >= 0 && !(*shared_.messages)[static_cast<std::size_t>(own)].issued;
}

void RxReassembly::own_issued(int message, std::uint64_t now) {
  if (held_.empty()) return;
  const auto held = held_.find(message);
  if (held == held_.end()) return;
  for (const Aggregation& h : held->second) aggregate(h.message, h.counter, now);
  held_.erase(held);
}

void RxReassembly::run_local(int message, std::uint64_t now) {
  // A step that overwrites a slot one of the node's messages still has to read waits for its
  // issue (no staging buffer: the step's source stays where it is).
  if (awaits_own_issue(message)) {
    held_[(*shared_.messages)[static_cast<std::size_t>(message)].apply_after].push_back(
        Aggregation{now, message, 0});
    return;
  }
  aggregate(message, 0, now);
}

void RxReassembly::aggregate(int message, int counter, std::uint64_t now) {
  // The reduction unit sums whole messages one at a time, in the order they completed; a
  // broadcast's copy waits its turn but takes no reduction cycles; a local copy passes through
  // the unit at its rate.
  const MessageRecord& record = (*shared_.messages)[static_cast<std::size_t>(message)];
  if (record.staged) staged_bytes_ -= record.bytes;  // the reduction unit takes it
  const Op& op = shared_.schedule->ops[static_cast<std::size_t>(message)];
  const bool reduce = op.kind == OpKind::kReduce;
  const bool copy_on_unit = op.is_local();
  const std::uint64_t elements = (record.bytes + params_.element_bytes - 1) /
                                 static_cast<std::uint64_t>(params_.element_bytes);
  // The landed message is read back with the node's operand (a broadcast only copied) and the
  // result written.
  activity_.memory_read_bytes += (reduce ? 2 : 1) * record.bytes;
  activity_.memory_write_bytes += record.bytes;
  activity_.adds += reduce ? elements : 0;
  reduce_free_ =
      std::max(now, reduce_free_) +
      (reduce || copy_on_unit ? reduce_cycles(elements, params_.reduce_elems_per_cycle) : 0);
  aggregating_.push_back(Aggregation{reduce_free_, message, counter});
  last_progress_ = std::max(last_progress_, reduce_free_);  // progress to come
}

void RxReassembly::message_arrived(int message, int counter, std::uint64_t now) {
  MessageRecord& record = (*shared_.messages)[static_cast<std::size_t>(message)];
  const Op& op = shared_.schedule->ops[static_cast<std::size_t>(message)];
  record.arrived = true;
  record.arrival_cycle = now;
  shared_.data->apply(params_.node, op.dst_slot(), op.kind, record.snapshot, op.dst_buf);
  record.snapshot = -1;
  ++arrivals_;
  arrived_(message, counter, now);
}

}  // namespace mt
