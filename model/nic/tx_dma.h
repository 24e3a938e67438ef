#pragma once
// The NIC's transmit DMA: per port, a queue of started messages, each split into packets (payload
// plus a head flit; under message flow control only the first packet carries one) and injected
// under credit flow control into the buffer the port feeds (a router's injection port, or a
// switch's input for a NIC that drives its link). The DMA hands a message's packets to the
// port's transmit queue at one per cycle; a port serialises one packet at a time. No SystemC
// process of its own: the Nic calls it at the cycles it runs (tests/nic/test_tx_dma.cpp benches
// it alone).

#include <cstdint>
#include <string>
#include <vector>

#include "model/collective/op_kind.h"
#include "model/core/ring_queue.h"
#include "model/noc/cycle_clock.h"
#include "model/noc/packet.h"
#include "model/noc/port_entry.h"
#include "model/noc/routing.h"

namespace mt {

/// Parameters of one NIC's transmit side.
struct TxDmaParams {
  int node = 0;                       ///< endpoint id (the packets' source)
  int ports = 1;                      ///< NIC ports
  bool drives_links = false;          ///< ports drive topology links (switched topologies)
  int packet_bytes = 256;             ///< payload bytes per packet
  int head_flit_bytes = 16;           ///< header bytes of a head packet
  int flit_bytes = 16;                ///< flit size, bytes
  int element_bytes = 4;              ///< bytes per data element
  int tx_vcs = 1;                     ///< VCs of the buffer each port injects into
  int tx_credits_per_vc = 1;          ///< depth of that buffer per VC, flits
  bool message_flow_control = false;  ///< only a message's first packet carries a head flit
  int tx_queue_packets = 0;           ///< transmit queue per port, packets (0: none)
};

/// A started message with what each of its packets' headers needs, so sending a packet reads no
/// schedule or routing record (they are out of cache by the next packet at scale).
struct TxMessage {
  int index = -1;    ///< program index at the sender
  int message = -1;  ///< message (op) id
  int next_packet = 0;
  int packets = 0;
  std::uint64_t address = 0;  ///< byte offset of the chunk in the node buffer
  std::uint64_t bytes = 0;    ///< payload bytes
  std::uint64_t start = 0;    ///< cycle the DMA may start on it
  int message_vc = -1;        ///< VC the message's head took (message flow control)
  int peer = 0;               ///< the operation's receiver, flow, chunk, step and kind
  int flow = 0;
  int chunk = 0;
  int step = 0;
  OpKind kind = OpKind::kReduce;
  int rx_port = -1;                        ///< receiver port it must be ejected to (-1: any)
  int dst_counter = 0;                     ///< receiver's arrival counter (hardware issue)
  unsigned half_way = 0;                   ///< dimensions where both ways are shortest
  const std::vector<int>* path = nullptr;  ///< its route (when half_way is 0)...
  int hops = 0;                            ///< ...its length...
  int first_link = -1;                     ///< ...and first link
};

/// One NIC's transmit ports.
class TxDma {
 public:
  /// No cycle: a port's queue is empty, or nothing is pending.
  static constexpr std::uint64_t kNever = ~std::uint64_t{0};
  /// The DMA hands a message's packets to a port's transmit queue at one per cycle.
  static constexpr std::uint64_t kDmaPacketsPerCycle = 1;

  /// What every NIC run asks of a port (free? a packet to send? when next?).
  struct PortTiming {
    std::uint64_t busy_until = 0;  ///< cycle the last packet's serialisation ends
    std::uint64_t dma_until = 0;   ///< cycle the DMA has handed the last message's packets over
    std::uint64_t front_start = kNever;  ///< the queue's first message may start (kNever: empty)
    int unsent_packets = 0;              ///< packets of the queued messages not yet injected
  };

  /// The transmit side of a NIC with `params`; routes (and their VC classes) from `routing`,
  /// packets from `pool`, serialisation delays in cycles of `clock`.
  TxDma(const TxDmaParams& params, RoutingTable& routing, PacketPool& pool,
        const CycleClock& clock);

  /// Port `port`'s packets go to `entry` (its link, or the router input it feeds).
  void attach(int port, const PortEntry& entry);
  /// True when port `port` can take a new message at `now`.
  bool port_free(int port, std::uint64_t now) const;
  /// True when port `port` is free at `now`, or (without a transmit queue) every packet of its
  /// messages is on the wire and their serialisation ends by `now + lead`: the port frees by
  /// then whatever happens in the network.
  bool port_free_by(int port, std::uint64_t now, std::uint64_t lead) const;
  /// Queues `message` on port `port` (it sends from message.start on).
  void start(int port, const TxMessage& message);
  /// Sends port `port`'s next packet at `now` if the port is idle, its front message has started
  /// and the buffer it feeds has room; true when a packet left.
  bool send(int port, std::uint64_t now);
  /// `flits` of VC `vc`'s space come back to port `port` at `cycle`.
  void credit_at(std::uint64_t cycle, int port, int vc, int flits);
  /// Applies the credits that have come back by `now`.
  void apply_credits(std::uint64_t now);
  /// Cycle of the next credit coming back, kNever when none.
  std::uint64_t next_credit() const { return credits_.empty() ? kNever : credits_.front().cycle; }

  /// Port `port`'s timing (see PortTiming).
  const PortTiming& timing(int port) const { return timing_[static_cast<std::size_t>(port)]; }
  /// The message port `port` is sending, or null.
  const TxMessage* front(int port) const;
  /// Packets injected so far.
  std::uint64_t packets_sent() const { return packets_sent_; }
  /// Payload bytes the DMA has read from local memory for the packets it sent so far.
  std::uint64_t memory_read_bytes() const { return memory_read_bytes_; }

 private:
  // A port's queue and VC state, read when it starts a message or sends a packet.
  struct Port {
    RingQueue<TxMessage> queue;  // messages started on this port, sent in order
    int vc_next = 0;
    int vc_first = 0;
    int vc_last = 1;
    int* credits = nullptr;  // per VC of the downstream buffer, flits (in credit_space_)
  };
  struct Credit {
    std::uint64_t cycle;
    std::uint64_t seq;
    int port;
    int vc;
    int flits;
    bool operator>(const Credit& other) const {
      return cycle != other.cycle ? cycle > other.cycle : seq > other.seq;
    }
  };

  TxDmaParams params_;
  RoutingTable& routing_;
  PacketPool& pool_;
  const CycleClock& clock_;
  std::vector<Port> ports_;
  std::vector<PortTiming> timing_;  // per port, side by side (read every run)
  std::vector<int> credit_space_;   // every port's credits, port by port
  std::vector<PortEntry> fw_;       // where each port's packets go
  std::vector<Credit> credits_;     // min-heap: credits coming back
  std::uint64_t seq_ = 0;
  std::uint64_t packets_sent_ = 0;
  std::uint64_t memory_read_bytes_ = 0;
};

}  // namespace mt
