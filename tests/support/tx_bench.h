#pragma once
// A NIC's transmit DMA on its own, for unit benches (tests/nic): its ports feed a sink that
// records every packet and answers like a link (END_REQ after one cycle per flit).

#include <cstdint>
#include <vector>

#include "model/nic/tx_dma.h"
#include "model/topology/topology.h"

namespace mt::test {

/// What the ports feed: records every packet and answers like a link, END_REQ after one cycle
/// per flit.
struct TxSink {
  struct Sent {
    int index, packets, payload_bytes, flits, vc;
    bool head;
  };
  std::vector<Sent> sent;
  tlm::tlm_sync_enum fw(int, tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                        sc_core::sc_time& delay) {
    const PacketExtension& p = packet_of(payload);
    sent.push_back(Sent{p.index, p.packets, p.payload_bytes, p.flits, p.vc, p.head});
    phase = tlm::END_REQ;
    delay = sc_core::sc_time(static_cast<double>(p.flits), sc_core::SC_NS);
    return tlm::TLM_UPDATED;
  }
};

/// A TxDma with `params` on a 4-node ring, every port into the sink.
struct TxBench {
  Topology topology{parse_topology_spec("ring:4")};
  RoutingTable routing{topology};
  PacketPool pool;
  CycleClock clock{1.0};
  TxSink sink;
  TxDma dma;
  explicit TxBench(const TxDmaParams& params) : dma(params, routing, pool, clock) {
    for (int p = 0; p < params.ports; ++p)
      dma.attach(p, PortEntry::method<TxSink, &TxSink::fw>(&sink, p));
  }
};

/// A message of `bytes` in `packets` packets to node 1 over link 0, starting at `start`.
inline TxMessage message_of(std::uint64_t bytes, int packets, std::uint64_t start) {
  TxMessage m;
  m.message = 7;
  m.peer = 1;
  m.bytes = bytes;
  m.packets = packets;
  m.start = start;
  static const std::vector<int> path = {0};
  m.path = &path;
  m.hops = 1;
  m.first_link = 0;
  return m;
}

}  // namespace mt::test
