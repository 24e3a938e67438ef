// The Nic's transmit side: a message started on a port (host issue, DMA), its packets injected
// under credit flow control, and the credits coming back.
#include "model/nic/nic.h"

#include <algorithm>

#include "model/data/packet_sizes.h"

namespace mt {

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
  m.peer = op.peer;
  m.flow = op.flow;
  m.chunk = op.chunk;
  m.step = op.step;
  m.kind = op.kind;
  m.rx_port = env_.rx_ports.empty() ? -1 : env_.rx_ports[static_cast<std::size_t>(message)];
  m.dst_counter = params_.program_counters.empty()
                      ? 0
                      : params_.program_counters[static_cast<std::size_t>(index)];
  m.half_way = env_.half_way.empty() ? 0 : env_.half_way[static_cast<std::size_t>(message)];
  m.path = env_.paths[static_cast<std::size_t>(message)];
  if (m.path != nullptr && !m.path->empty()) {
    m.hops = static_cast<int>(m.path->size());
    m.first_link = m.path->front();
  }
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
  // Messages held in the staging buffer for this one can now be reduced into the buffer.
  if (!held_.empty()) {
    const auto held = held_.find(message);
    if (held != held_.end()) {
      for (const Aggregation& h : held->second) aggregate(h.message, h.counter, now);
      held_.erase(held);
    }
  }
  last_progress_ = std::max(last_progress_, now);
  PortTiming& timing = timing_[static_cast<std::size_t>(p)];
  timing.unsent_packets += m.packets;
  timing.dma_until = m.start + static_cast<std::uint64_t>(m.packets) / kDmaPacketsPerCycle;
  if (timing.front_start == kNever) timing.front_start = m.start;  // the queue was empty
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
  PortTiming& timing = timing_[static_cast<std::size_t>(p)];
  // (An empty queue's front_start is kNever.)
  if (timing.front_start > now || timing.busy_until > now) return false;
  TxPort& port = tx_[static_cast<std::size_t>(p)];
  TxMessage& m = port.queue.front();

  const std::uint64_t offset =
      static_cast<std::uint64_t>(m.next_packet) * static_cast<std::uint64_t>(params_.packet_bytes);
  const int payload_bytes = static_cast<int>(
      std::min<std::uint64_t>(static_cast<std::uint64_t>(params_.packet_bytes), m.bytes - offset));
  const bool head = !params_.message_flow_control || m.next_packet == 0;
  const int flits = flits_in(payload_bytes, head ? params_.head_flit_bytes : 0, params_.flit_bytes);
  const int span = port.vc_last - port.vc_first;
  int vc = -1;
  if (!head) {
    // Body packets follow their head on its VC (they carry no header to demultiplex them by).
    if (port.credits[m.message_vc] >= flits) vc = m.message_vc;
  } else {
    const int start = ((port.vc_next - port.vc_first) % span + span) % span;
    for (int k = 0; k < span; ++k) {
      const int candidate = port.vc_first + (start + k) % span;
      if (port.credits[candidate] >= flits) {
        vc = candidate;
        break;
      }
    }
  }
  if (vc < 0) return false;  // wait for a credit
  port.credits[vc] -= flits;
  port.vc_next = vc + 1;
  if (head) m.message_vc = vc;

  tlm::tlm_generic_payload* payload = env_.pool->acquire();
  // The payload describes the slice of the node buffer it carries (the data itself travels in the
  // message snapshot, see model/noc/packet.h).
  payload->set_address(m.address + offset);
  payload->set_data_length(static_cast<unsigned int>(payload_bytes));
  PacketExtension& packet = packet_of(*payload);
  packet.src = params_.node;
  packet.dst = m.peer;
  packet.flow = m.flow;
  packet.chunk = m.chunk;
  packet.message = m.message;
  packet.step = m.step;
  packet.kind = m.kind;
  packet.index = m.next_packet;
  packet.packets = m.packets;
  packet.payload_bytes = payload_bytes;
  packet.elements = (payload_bytes + params_.element_bytes - 1) / params_.element_bytes;
  packet.flits = flits;
  // The port is the first link of the route when the NIC drives links: the packet has taken it
  // once it is sent.
  const int taken = params_.drives_links ? 1 : 0;
  if (m.half_way != 0) {
    // Each packet picks its ways where both are shortest; under message flow control the body
    // packets follow their head, so the message picks once.
    const int draw = params_.message_flow_control ? 0 : m.next_packet;
    const std::vector<int>& path =
        env_.routing->route(params_.node, m.peer, half_way_ways(m.message, draw) & m.half_way);
    packet.set_route(&path, static_cast<int>(path.size()), path.front(), taken);
  } else {
    packet.set_route(m.path, m.hops, m.first_link, taken);
  }
  packet.vc = vc;
  packet.route = RouteState{};
  packet.credit_vc = 0;
  packet.head = head;
  packet.message_flow = params_.message_flow_control;
  packet.rx_port = m.rx_port;
  packet.dst_counter = m.dst_counter;
  if (params_.drives_links) env_.routing->advance((*packet.path)[0], packet.route);

  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  const tlm::tlm_sync_enum status = tx_fw_[static_cast<std::size_t>(p)](*payload, phase, delay);
  const std::uint64_t serialization =
      (status == tlm::TLM_UPDATED && phase == tlm::END_REQ) ? clock_.to_cycles(delay) : 1;
  timing.busy_until = now + serialization;
  ++packets_sent_;
  last_progress_ = std::max(last_progress_, now);
  --timing.unsent_packets;
  if (++m.next_packet == m.packets) {
    port.queue.pop_front();
    timing.front_start = port.queue.empty() ? kNever : port.queue.front().start;
  }
  return true;
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

}  // namespace mt
