#pragma once
// The packet: a tlm_generic_payload carrying a PacketExtension (PooledPayload) with the header
// fields, moved whole (virtual cut-through at packet granularity) from NIC through links and
// routers to the peer NIC.
//
// Hop protocol (approximately timed, nb_transport):
//   sender --BEGIN_REQ--> Link: the packet starts serialising now; the Link answers TLM_UPDATED
//     with END_REQ and a delay = serialisation cycles (the channel is busy until then) and forwards
//     BEGIN_REQ downstream with a delay = wire latency (the head arrives then).
//   receiver --BEGIN_RESP (backward)--> Link --> sender: credit return. The receiver's buffer slot
//     of PacketExtension::credit_vc with PacketExtension::flits flits is free after the annotated
//     delay (the Link adds its wire latency; a receiver attached to a LinkChannel adds it itself
//     and calls the sender directly, see CreditPath), or frees flit by flit from then on over
//     PacketExtension::credit_span cycles. The sender reads the extension during the call.
// The header rides in the payload object itself (PooledPayload), not as an attached extension.
// Packet data is not carried: the NIC snapshots the chunk at issue and applies it at the receiver
// when the whole message has arrived (see Nic).

#include <systemc>
#include <tlm>

#include <cstdint>
#include <memory>
#include <vector>

#include "model/collective/op_kind.h"
#include "model/noc/routing.h"

namespace mt {

/// Header fields of one packet (one per generic payload, set once and reused from the pool).
class PacketExtension : public tlm::tlm_extension<PacketExtension> {
 public:
  /// A copy of the header (TLM extension protocol).
  tlm::tlm_extension_base* clone() const override { return new PacketExtension(*this); }
  /// Copies every header field from `other` (TLM extension protocol).
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const PacketExtension&>(other);
  }

  // What a hop reads and writes (a router's intake and grant, a link, a credit return) comes
  // first: in a PooledPayload it fills the two cache lines after the payload's own fields, which
  // a router fetches ahead of its grants; what only the NICs read follows.
  int flits = 1;    ///< flits on the wire (payload + head flit bytes, rounded up)
  int message = 0;  ///< message (op) id in the schedule
  int flow = 0;     ///< tree / ring / flow id of the message
  /// Carries a head flit and is routed through each router's pipeline. Message flow control:
  /// only the first packet of a message (its body packets stream behind it); packet flow
  /// control: every packet.
  bool head = true;
  /// Message flow control: the head locks each (router output, VC) it takes until the message's
  /// last packet has passed, and the body packets follow on the VC the head locked.
  bool message_flow = false;
  int vc = 0;          ///< virtual channel of the buffer the packet is heading to / sits in
  int hop = 0;         ///< index in *path of the next link to take
  int hops = 0;        ///< path->size(), kept here with...
  int next_link = -1;  ///< ...(*path)[hop] (-1 past the end): a router reads no path memory
  int index = 0;       ///< packet index inside its message, 0..packets-1
  int packets = 1;     ///< packets in the message
  int credit_vc = 0;   ///< in a BEGIN_RESP credit return: VC whose buffer space is freed
  /// Receiver NIC port the message must be ejected to (-1: any free ejection port).
  int rx_port = -1;
  const std::vector<int>* path = nullptr;  ///< directed link ids from src to dst (source route)
  RouteState route;  ///< VC class state along the route (see RoutingTable::advance)
  /// In a BEGIN_RESP credit return: 0 when all `flits` are free after the annotated delay;
  /// otherwise the space frees flit by flit as the packet drains, evenly over this many cycles
  /// from the annotated delay on (the first flit's credit arrives then, the last span - 1 cycles
  /// later).
  std::uint64_t credit_span = 0;
  std::uint64_t serialization_cycles = 0;  ///< set by each Link: cycles the packet occupied it

  int src = 0;                    ///< sending endpoint
  int dst = 0;                    ///< receiving endpoint
  int chunk = 0;                  ///< chunk index of the message
  int step = 0;                   ///< schedule time step of the message
  OpKind kind = OpKind::kReduce;  ///< what the receiver does with the data
  int payload_bytes = 0;          ///< data bytes carried
  int elements = 0;               ///< data elements carried (for the reduction unit)
  int dst_counter = 0;  ///< receiver's arrival counter the message increments (hardware issue)

  /// Starts the packet at link `hop` of `path` (of `hops` links, the first `first_link`).
  void set_route(const std::vector<int>* route_path, int route_hops, int first_link, int at) {
    path = route_path;
    hops = route_hops;
    hop = 0;
    next_link = first_link;
    while (hop < at) take_hop();
  }
  /// The packet has taken next_link.
  void take_hop() {
    ++hop;
    next_link = hop < hops ? (*path)[static_cast<std::size_t>(hop)] : -1;
  }
};

/// A payload as PacketPool makes it: the header lives next to the payload, so reading it is one
/// address computation instead of a TLM extension lookup (a call into the SystemC library per read,
/// 11% of a run's time before; see docs/speed.md).
/// Aligned to a cache line, so the header's fields a hop reads lie in two known lines (see
/// PacketExtension; a router fetches them with prefetch_hop_lines()).
struct alignas(64) PooledPayload final : tlm::tlm_generic_payload {
  PacketExtension header;  ///< the packet's header fields
};

/// Reusable packets: no allocation per packet after warm-up. Owns every payload it hands out.
class PacketPool {
 public:
  /// An empty pool.
  PacketPool() = default;
  /// Not copyable: it owns the payloads it hands out.
  PacketPool(const PacketPool&) = delete;
  /// Not copyable.
  PacketPool& operator=(const PacketPool&) = delete;

  /// A PooledPayload (its header fields hold the previous user's values).
  tlm::tlm_generic_payload* acquire();
  /// Returns a payload obtained from acquire().
  void release(tlm::tlm_generic_payload* payload);
  /// Payloads ever created (the pool's high-water mark).
  std::size_t created() const { return all_.size(); }

 private:
  std::vector<std::unique_ptr<PooledPayload>> all_;
  std::vector<tlm::tlm_generic_payload*> free_;
};

/// The header of a payload made by PacketPool (every packet of the model comes from one).
inline PacketExtension& packet_of(tlm::tlm_generic_payload& payload) {
  return static_cast<PooledPayload&>(payload).header;
}

/// Starts fetching the lines of `payload`'s header that a hop reads (its first field to
/// serialization_cycles), ahead of a grant that may follow.
inline void prefetch_hop_lines(const tlm::tlm_generic_payload& payload) {
  const auto& header = static_cast<const PooledPayload&>(payload).header;
  __builtin_prefetch(&header.flits);
  __builtin_prefetch(&header.serialization_cycles);
}

}  // namespace mt
