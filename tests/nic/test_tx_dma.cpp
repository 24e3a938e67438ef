// The transmit DMA alone (no System, no kernel run): a message cut into packets with their
// headers, one packet per serialisation, VCs chosen by credits, credits coming back at their
// cycle, and the transmit queue's rule for when a port takes its next message.
#include <catch2/catch.hpp>

#include <vector>

#include "model/nic/tx_dma.h"
#include "tests/support/tx_bench.h"

namespace mt {
namespace {

using test::message_of;
using test::TxBench;

TxDmaParams params_of(bool message_flow, int credits) {
  TxDmaParams p;
  p.ports = 1;
  p.tx_vcs = 2;
  p.tx_credits_per_vc = credits;
  p.message_flow_control = message_flow;
  return p;
}

TEST_CASE("packet flow control: every packet a head, one per serialisation", "[nic][tx]") {
  TxBench b(params_of(false, 1000));
  // 600 bytes: 256 + 256 + 88 payload, flits (256+16)/16 = 17, 17, (88+16)/16 -> 7.
  b.dma.start(0, message_of(600, 3, 10));
  CHECK_FALSE(b.dma.port_free(0, 10));
  CHECK_FALSE(b.dma.send(0, 9));  // not before its start
  CHECK(b.dma.send(0, 10));
  CHECK(b.dma.timing(0).busy_until == 27);
  CHECK_FALSE(b.dma.send(0, 26));
  CHECK(b.dma.send(0, 27));
  CHECK(b.dma.send(0, 44));
  CHECK(b.dma.timing(0).busy_until == 51);
  REQUIRE(b.sink.sent.size() == 3);
  CHECK(b.sink.sent[2].payload_bytes == 88);
  CHECK(b.sink.sent[2].flits == 7);
  CHECK(b.sink.sent[2].index == 2);
  CHECK(b.sink.sent[2].packets == 3);
  for (const auto& s : b.sink.sent) CHECK(s.head);
  // VCs in turn: 0, 1, 0.
  CHECK(b.sink.sent[0].vc == 0);
  CHECK(b.sink.sent[1].vc == 1);
  CHECK(b.sink.sent[2].vc == 0);
  CHECK(b.dma.front(0) == nullptr);
  CHECK(b.dma.port_free(0, 51));
  CHECK(b.dma.packets_sent() == 3);
}

TEST_CASE("message flow control: one head, body packets on the head's VC", "[nic][tx]") {
  TxBench b(params_of(true, 1000));
  b.dma.start(0, message_of(512, 2, 0));
  CHECK(b.dma.send(0, 0));
  CHECK(b.dma.send(0, 17));
  REQUIRE(b.sink.sent.size() == 2);
  CHECK(b.sink.sent[0].head);
  CHECK(b.sink.sent[0].flits == 17);
  CHECK_FALSE(b.sink.sent[1].head);
  CHECK(b.sink.sent[1].flits == 16);  // no head flit
  CHECK(b.sink.sent[1].vc == b.sink.sent[0].vc);
}

TEST_CASE("a packet waits for credits, which count from the cycle they come back", "[nic][tx]") {
  // 20 flits per VC: after a 17-flit packet on each VC neither has room for the next.
  TxBench b(params_of(false, 20));
  b.dma.start(0, message_of(768, 3, 0));
  CHECK(b.dma.send(0, 0));
  CHECK(b.dma.send(0, 17));
  CHECK_FALSE(b.dma.send(0, 34));
  b.dma.credit_at(40, 0, 1, 17);
  CHECK(b.dma.next_credit() == 40);
  b.dma.apply_credits(39);
  CHECK_FALSE(b.dma.send(0, 39));
  b.dma.apply_credits(40);
  CHECK(b.dma.next_credit() == TxDma::kNever);
  CHECK(b.dma.send(0, 40));
  CHECK(b.sink.sent.back().vc == 1);
}

TEST_CASE("with a transmit queue a port takes its next message once the DMA is done", "[nic][tx]") {
  TxDmaParams p = params_of(false, 1000);
  p.tx_queue_packets = 2;
  TxBench b(p);
  // 4 packets handed over at one per cycle: DMA done at 4; 4 unsent packets > 2.
  b.dma.start(0, message_of(1024, 4, 0));
  CHECK(b.dma.timing(0).dma_until == 4);
  CHECK_FALSE(b.dma.port_free(0, 3));
  CHECK(b.dma.send(0, 4));
  CHECK_FALSE(b.dma.port_free(0, 4));  // 3 unsent packets do not fit a queue of 2
  CHECK(b.dma.send(0, 21));
  CHECK(b.dma.timing(0).unsent_packets == 2);
  CHECK(b.dma.port_free(0, 21));  // 2 fit
}

TEST_CASE("a port frees by a cycle once its last packet is on the wire", "[nic][tx]") {
  // 600 bytes, packets of 17, 17 and 7 flits from cycle 10: the last leaves at 44 and its
  // serialisation ends at 51, so from 44 on the port is free by 51 whatever happens next.
  TxBench b(params_of(false, 1000));
  b.dma.start(0, message_of(600, 3, 10));
  CHECK(b.dma.send(0, 10));
  CHECK(b.dma.send(0, 27));
  CHECK_FALSE(b.dma.port_free_by(0, 27, 100));  // a packet still to send: not known
  CHECK(b.dma.send(0, 44));
  CHECK_FALSE(b.dma.port_free_by(0, 44, 6));
  CHECK(b.dma.port_free_by(0, 44, 7));
  CHECK_FALSE(b.dma.port_free(0, 50));
  CHECK(b.dma.port_free_by(0, 51, 0));
}

TEST_CASE("with a transmit queue a port frees by a cycle only when it is free", "[nic][tx]") {
  // As above: after the first packet 3 unsent packets do not fit the queue of 2. No lead makes
  // the port free: with a transmit queue it frees when its DMA is done and the queue has room.
  TxDmaParams p = params_of(false, 1000);
  p.tx_queue_packets = 2;
  TxBench b(p);
  b.dma.start(0, message_of(1024, 4, 0));
  CHECK(b.dma.send(0, 4));
  CHECK_FALSE(b.dma.port_free_by(0, 4, 1000));
  CHECK(b.dma.send(0, 21));
  CHECK(b.dma.port_free_by(0, 21, 0));
}

}  // namespace
}  // namespace mt
