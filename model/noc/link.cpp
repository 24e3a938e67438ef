#include "model/noc/link.h"

#include <cmath>
#include <string>

#include "model/noc/packet.h"

namespace mt {

LinkChannel::LinkChannel(const sc_core::sc_module_name& name, const LinkParams& params,
                         const CycleClock& clock)
    : sc_core::sc_module(name),
      clock_(clock),
      latency_cycles_(params.latency_cycles),
      params_(params) {
  in_socket.bind(*this);
  out_socket.bind(*this);
}

PortEntry LinkChannel::attach_sender(tlm::tlm_fw_transport_if<>* target, const PortEntry& credits) {
  auto* channel = dynamic_cast<LinkChannel*>(target);
  if (channel == nullptr) return PortEntry::forward(target);
  channel->upstream_ = credits;
  PortEntry entry = PortEntry::method<LinkChannel, &LinkChannel::forward>(channel, 0);
  entry.first_line = &channel->downstream_;  // forward's line (see downstream_)
  return entry;
}

void LinkChannel::attach_receiver(tlm::tlm_bw_transport_if<>* initiator, const PortEntry& packets) {
  auto* channel = dynamic_cast<LinkChannel*>(initiator);
  if (channel != nullptr) channel->downstream_ = packets;
}

CreditPath LinkChannel::credit_path(tlm::tlm_bw_transport_if<>* initiator) {
  const auto* channel = dynamic_cast<const LinkChannel*>(initiator);
  if (channel == nullptr) return CreditPath{PortEntry::backward(initiator)};
  return CreditPath{channel->upstream_,
                    channel->clock_.to_time(static_cast<std::uint64_t>(channel->latency_cycles_))};
}

std::uint64_t LinkChannel::serialization_cycles(int flits, int flit_bytes, double bytes_per_cycle) {
  const double cycles = static_cast<double>(flits) * flit_bytes / bytes_per_cycle;
  // Checked before the conversion: past 2^62 it would be undefined (the loader's ranges keep a
  // valid scenario far below).
  if (!(cycles <= static_cast<double>(kMaxSimTimePs)))
    throw SimTimeError("a packet of " + std::to_string(flits) + " flits at " +
                       std::to_string(bytes_per_cycle) +
                       " bytes/cycle takes more cycles than simulated time can represent");
  // Tolerate rounding of an exact quotient (e.g. 272 / 16.0) before taking the ceiling.
  const auto whole = static_cast<std::uint64_t>(std::ceil(cycles - 1e-9));
  return whole == 0 ? 1 : whole;
}

tlm::tlm_sync_enum LinkChannel::nb_transport_fw(tlm::tlm_generic_payload& payload,
                                                tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  return forward(0, payload, phase, delay);
}

tlm::tlm_sync_enum LinkChannel::nb_transport_bw(tlm::tlm_generic_payload& payload,
                                                tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  if (phase != tlm::BEGIN_RESP) {
    SC_REPORT_ERROR(name(), "unexpected phase on a link's backward path");
    return tlm::TLM_COMPLETED;
  }
  delay += clock_.to_time(static_cast<std::uint64_t>(latency_cycles_));
  return upstream_(payload, phase, delay);
}

void LinkChannel::b_transport(tlm::tlm_generic_payload& /*payload*/, sc_core::sc_time& /*delay*/) {
  SC_REPORT_ERROR(name(), "b_transport on a link (packets use nb_transport)");
}

bool LinkChannel::get_direct_mem_ptr(tlm::tlm_generic_payload& /*payload*/, tlm::tlm_dmi& /*dmi*/) {
  return false;
}

unsigned int LinkChannel::transport_dbg(tlm::tlm_generic_payload& /*payload*/) {
  return 0;
}

void LinkChannel::invalidate_direct_mem_ptr(sc_dt::uint64 /*start*/, sc_dt::uint64 /*end*/) {}

tlm::tlm_sync_enum LinkChannel::forward(int /*port*/, tlm::tlm_generic_payload& payload,
                                        tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  if (phase != tlm::BEGIN_REQ) {
    SC_REPORT_ERROR(name(), "unexpected phase on a link's forward path");
    return tlm::TLM_COMPLETED;
  }
  PacketExtension& packet = packet_of(payload);
  const std::uint64_t start = clock_.now() + clock_.to_cycles(delay);
  if (start < busy_until_) {
    SC_REPORT_ERROR(name(), ("packet of message " + std::to_string(packet.message) +
                             " sent while the link is busy (model bug)")
                                .c_str());
  }
  if (packet.flits != last_flits_) {
    // A new run: its predecessor's packets go to the totals.
    bytes_before_ = bytes();
    busy_cycles_before_ = busy_cycles();
    packets_before_ = packets();
    run_packets_ = 0;
    last_flits_ = packet.flits;
    last_serialization_ =
        serialization_cycles(packet.flits, params_.flit_bytes, params_.bytes_per_cycle);
  }
  const std::uint64_t ser = last_serialization_;
  busy_until_ = start + ser;
  ++run_packets_;
  packet.serialization_cycles = ser;

  tlm::tlm_phase forward_phase = tlm::BEGIN_REQ;
  sc_core::sc_time forward_delay =
      delay + clock_.to_time(static_cast<std::uint64_t>(latency_cycles_));
  downstream_(payload, forward_phase, forward_delay);

  phase = tlm::END_REQ;
  delay += clock_.to_time(ser);
  return tlm::TLM_UPDATED;
}

void LinkChannel::end_of_elaboration() {
  if (!downstream_.bound()) downstream_ = PortEntry::forward(out_socket.operator->());
  if (!upstream_.bound()) upstream_ = PortEntry::backward(in_socket.operator->());
}

}  // namespace mt
