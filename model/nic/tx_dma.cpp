#include "model/nic/tx_dma.h"

#include <algorithm>
#include <functional>

#include "model/data/packet_sizes.h"

namespace mt {

TxDma::TxDma(const TxDmaParams& params, RoutingTable& routing, PacketPool& pool,
             const CycleClock& clock)
    : params_(params), routing_(routing), pool_(pool), clock_(clock) {
  const auto ports = static_cast<std::size_t>(params_.ports);
  ports_.resize(ports);
  timing_.resize(ports);
  fw_.resize(ports);
  // A port that drives a network link itself sends on the VCs of the route's first class; a
  // router's injection port has no dateline class, so every VC of it takes packets.
  const auto range = params_.drives_links ? routing_.vc_range(0, params_.tx_vcs)
                                          : std::make_pair(0, params_.tx_vcs);
  credit_space_.assign(ports * static_cast<std::size_t>(params_.tx_vcs), params_.tx_credits_per_vc);
  for (std::size_t p = 0; p < ports; ++p) {
    Port& port = ports_[p];
    port.credits = credit_space_.data() + p * static_cast<std::size_t>(params_.tx_vcs);
    port.vc_first = range.first;
    port.vc_last = range.second;
    port.vc_next = range.first;
  }
}

void TxDma::attach(int port, const PortEntry& entry) {
  fw_.at(static_cast<std::size_t>(port)) = entry;
}

bool TxDma::port_free(int p, std::uint64_t now) const {
  const PortTiming& port = timing_[static_cast<std::size_t>(p)];
  if (params_.tx_queue_packets > 0) {
    return port.dma_until <= now && port.unsent_packets <= params_.tx_queue_packets;
  }
  return port.front_start == kNever && port.busy_until <= now;
}

bool TxDma::port_free_by(int p, std::uint64_t now, std::uint64_t lead) const {
  const PortTiming& port = timing_[static_cast<std::size_t>(p)];
  return port_free(p, now) || (params_.tx_queue_packets == 0 && port.front_start == kNever &&
                               port.busy_until <= now + lead);
}

void TxDma::start(int p, const TxMessage& message) {
  PortTiming& timing = timing_[static_cast<std::size_t>(p)];
  timing.unsent_packets += message.packets;
  timing.dma_until =
      message.start + static_cast<std::uint64_t>(message.packets) / kDmaPacketsPerCycle;
  if (timing.front_start == kNever) timing.front_start = message.start;  // the queue was empty
  ports_[static_cast<std::size_t>(p)].queue.push_back(message);
}

const TxMessage* TxDma::front(int p) const {
  const Port& port = ports_[static_cast<std::size_t>(p)];
  return port.queue.empty() ? nullptr : &port.queue.front();
}

bool TxDma::send(int p, std::uint64_t now) {
  PortTiming& timing = timing_[static_cast<std::size_t>(p)];
  // (An empty queue's front_start is kNever.)
  if (timing.front_start > now || timing.busy_until > now) return false;
  Port& port = ports_[static_cast<std::size_t>(p)];
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
    const int first = ((port.vc_next - port.vc_first) % span + span) % span;
    for (int k = 0; k < span; ++k) {
      const int candidate = port.vc_first + (first + k) % span;
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

  tlm::tlm_generic_payload* payload = pool_.acquire();
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
        routing_.route(params_.node, m.peer, half_way_ways(m.message, draw) & m.half_way);
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
  if (params_.drives_links) routing_.advance((*packet.path)[0], packet.route);

  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  const tlm::tlm_sync_enum status = fw_[static_cast<std::size_t>(p)](*payload, phase, delay);
  const std::uint64_t serialization =
      (status == tlm::TLM_UPDATED && phase == tlm::END_REQ) ? clock_.to_cycles(delay) : 1;
  timing.busy_until = now + serialization;
  ++packets_sent_;
  memory_read_bytes_ += static_cast<std::uint64_t>(payload_bytes);
  --timing.unsent_packets;
  if (++m.next_packet == m.packets) {
    port.queue.pop_front();
    timing.front_start = port.queue.empty() ? kNever : port.queue.front().start;
  }
  return true;
}

void TxDma::credit_at(std::uint64_t cycle, int port, int vc, int flits) {
  credits_.push_back(Credit{cycle, seq_++, port, vc, flits});
  std::push_heap(credits_.begin(), credits_.end(), std::greater<Credit>());
}

void TxDma::apply_credits(std::uint64_t now) {
  while (!credits_.empty() && credits_.front().cycle <= now) {
    const Credit credit = credits_.front();
    std::pop_heap(credits_.begin(), credits_.end(), std::greater<Credit>());
    credits_.pop_back();
    ports_[static_cast<std::size_t>(credit.port)].credits[credit.vc] += credit.flits;
  }
}

}  // namespace mt
