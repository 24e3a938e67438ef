// The receive side alone (no System, no kernel run): packets leave the receive buffer after the
// reduction unit (per packet, or per whole message), their space goes back as a credit, a
// complete message is applied and reported once, a staged message waits for the node's own
// issue, and a packetisation error becomes a data error.
#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "model/nic/rx_reassembly.h"

namespace mt {
namespace {

// Where credits go: records (port, vc) of every credit.
struct CreditSink {
  std::vector<std::pair<int, int>> credits;
  tlm::tlm_sync_enum bw(int port, tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                        sc_core::sc_time&) {
    CHECK(phase == tlm::BEGIN_RESP);
    credits.emplace_back(port, packet_of(payload).credit_vc);
    return tlm::TLM_COMPLETED;
  }
};

struct RxBench {
  Schedule schedule;
  std::vector<MessageRecord> messages;
  std::unique_ptr<DataStore> data;
  PacketPool pool;
  std::string data_error;
  CreditSink sink;
  std::vector<std::pair<int, std::uint64_t>> arrived;  // (message, cycle)
  std::unique_ptr<RxReassembly> rx;

  // Node 1 receives message 0 (reduce) and 1 (broadcast) from node 0 and sends message 2, and
  // receives message 3 (reduce, chunk 0 again); every message is one chunk of `bytes` (256-byte
  // packets).
  RxBench(bool whole_messages, std::uint64_t bytes) {
    schedule.nodes = 2;
    schedule.num_chunks = 3;
    for (int m = 0; m < 4; ++m) {
      Op op;
      op.node = m == 2 ? 1 : 0;
      op.peer = m == 2 ? 0 : 1;
      op.chunk = m % 3;
      op.kind = m == 1 ? OpKind::kBroadcast : OpKind::kReduce;
      schedule.add(op);
    }
    messages.resize(4);
    for (auto& record : messages) record.start(static_cast<int>((bytes + 255) / 256), bytes);
    data = std::make_unique<DataStore>(DataMode::kOff, Dtype::kFp32, 2, 3, 3 * bytes / 4);
    RxParams params;
    params.node = 1;
    params.ports = 1;
    params.reduce_elems_per_cycle = 32;
    params.reduce_whole_messages = whole_messages;
    RxShared shared{&schedule, &messages, data.get(), &pool, &data_error};
    rx = std::make_unique<RxReassembly>(
        params, shared,
        [this](int message, int, std::uint64_t now) { arrived.emplace_back(message, now); });
    rx->attach_credit_path(0, CreditPath{PortEntry::method<CreditSink, &CreditSink::bw>(&sink, 0),
                                         sc_core::SC_ZERO_TIME});
  }

  // Packet `index` of `message` (256 bytes = 64 elements, 17 flits) on VC `vc`, head at
  // `tail` - 1 and tail at `tail`, delivered and taken in (advance at `tail`). Returns the cycle
  // it leaves the buffer.
  std::uint64_t deliver(int message, int index, int vc, std::uint64_t tail) {
    tlm::tlm_generic_payload* payload = pool.acquire();
    PacketExtension& p = packet_of(*payload);
    p.message = message;
    p.kind = schedule.ops[static_cast<std::size_t>(message)].kind;
    p.index = index;
    p.packets = messages[static_cast<std::size_t>(message)].packets;
    p.payload_bytes = 256;
    p.elements = 64;
    p.flits = 17;
    p.vc = vc;
    CHECK(rx->deliver(0, *payload, tail - 1, tail) == tail);
    rx->advance(tail);
    return rx->last_leaving();
  }
};

TEST_CASE("per packet: each packet is reduced once its tail is in, the message on the last",
          "[nic][rx]") {
  RxBench b(false, 512);
  CHECK(b.deliver(0, 0, 1, 10) == 12);  // 64 elements at 32 per cycle
  CHECK(b.rx->occupancy(0) == 17);
  CHECK(b.deliver(0, 1, 1, 11) == 14);  // waits for the reduction unit
  CHECK(b.rx->next_event() == 12);
  b.rx->advance(12);
  CHECK(b.sink.credits == std::vector<std::pair<int, int>>{{0, 1}});
  CHECK(b.arrived.empty());
  b.rx->advance(14);
  CHECK(b.arrived == std::vector<std::pair<int, std::uint64_t>>{{0, 14}});
  CHECK(b.rx->occupancy(0) == 0);
  CHECK(b.rx->arrivals() == 1);
  CHECK(b.messages[0].arrived);
  CHECK(b.data_error.empty());
}

TEST_CASE("whole messages: packets land unreduced, the sum runs once the message is in",
          "[nic][rx]") {
  RxBench b(true, 512);
  CHECK(b.deliver(0, 0, 0, 10) == 10);
  CHECK(b.deliver(0, 1, 0, 27) == 27);
  b.rx->advance(27);
  CHECK(b.arrived.empty());
  CHECK(b.rx->next_event() == 31);  // 128 elements at 32 per cycle
  b.rx->advance(31);
  CHECK(b.arrived == std::vector<std::pair<int, std::uint64_t>>{{0, 31}});
}

TEST_CASE("a broadcast takes no reduction cycles", "[nic][rx]") {
  RxBench b(false, 256);
  CHECK(b.deliver(1, 0, 0, 40) == 40);
  b.rx->advance(40);
  CHECK(b.arrived == std::vector<std::pair<int, std::uint64_t>>{{1, 40}});
}

TEST_CASE("a staged message waits for the node's own issue, then is summed", "[nic][rx]") {
  RxBench b(false, 256);
  b.messages[0].apply_after = 2;        // node 1 must issue message 2 first
  CHECK(b.deliver(0, 0, 0, 10) == 10);  // lands unreduced
  b.rx->advance(10);
  CHECK(b.arrived.empty());
  CHECK(b.rx->max_staged_bytes() == 256);
  b.messages[2].issued = true;
  b.rx->own_issued(2, 50);
  b.rx->advance(51);
  CHECK(b.arrived.empty());
  b.rx->advance(52);  // 64 elements: 2 cycles from 50
  CHECK(b.arrived == std::vector<std::pair<int, std::uint64_t>>{{0, 52}});
}

// The node issues message 2 (message 0's apply_after) at cycle 50, the cycle message 0's only
// packet is delivered with its head (tail at 60), in either order of the two calls: the packet is
// taken in at the NIC's first run after 50 (deliver asks for one by 60, its tail) with the node's
// state at the end of cycle 50, so it is not staged but reduced as it lands: 64 elements at 32
// per cycle from its tail, 60 + 2 = 62, whether that run is at 51 or at 60.
std::uint64_t arrival_when_issued_in_delivery_cycle(bool issue_first, std::uint64_t intake) {
  RxBench b(false, 256);
  b.messages[0].apply_after = 2;
  tlm::tlm_generic_payload* payload = b.pool.acquire();
  PacketExtension& p = packet_of(*payload);
  p.message = 0;
  p.kind = OpKind::kReduce;
  p.packets = 1;
  p.payload_bytes = 256;
  p.elements = 64;
  p.flits = 17;
  const auto issue = [&b] {
    b.messages[2].issued = true;
    b.rx->own_issued(2, 50);
  };
  if (issue_first) issue();
  CHECK(b.rx->deliver(0, *payload, 50, 60) == 60);
  if (!issue_first) issue();
  CHECK(b.rx->next_event() == 60);
  b.rx->advance(intake);
  CHECK(b.rx->max_staged_bytes() == 0);
  b.rx->advance(62);
  REQUIRE(b.arrived.size() == 1);
  return b.arrived[0].second;
}

TEST_CASE("a packet delivered in the cycle its apply_after issues: same result in either order",
          "[nic][rx]") {
  for (const std::uint64_t intake : {51, 60}) {
    CHECK(arrival_when_issued_in_delivery_cycle(true, intake) == 62);
    CHECK(arrival_when_issued_in_delivery_cycle(false, intake) == 62);
  }
}

TEST_CASE("a packet summed on landing waits while the reduction unit sums a staged message",
          "[nic][rx]") {
  RxBench b(false, 2048);
  b.messages[0].apply_after = 2;
  for (int index = 0; index < 8; ++index) b.deliver(0, index, 0, 10 + index);  // lands, staged
  b.messages[2].issued = true;
  b.rx->own_issued(2, 50);  // message 0's 512 elements: the unit sums it in [50, 66)
  // Message 3's packet (64 elements, 2 cycles) is in at 55; it starts once the unit is free.
  CHECK(b.deliver(3, 0, 0, 55) == 68);
  b.rx->advance(66);
  CHECK(b.arrived == std::vector<std::pair<int, std::uint64_t>>{{0, 66}});
}

TEST_CASE("a packet received twice is a data error naming the message", "[nic][rx]") {
  RxBench b(false, 512);
  b.deliver(0, 0, 0, 10);
  b.deliver(0, 0, 0, 30);
  b.rx->advance(100);
  CHECK(b.arrived.size() == 1);
  CHECK_THAT(b.data_error, Catch::Contains("message 0"));
}

}  // namespace
}  // namespace mt
