// LinkChannel on its own: a Sender stub drives it, a Receiver stub takes what comes out. Figures
// are derived from the parameters: serialisation = ceil(F * flit_bytes / B) cycles, the head
// arrives `latency` cycles after it was sent, a credit comes back `latency` cycles after the
// receiver returned it.
#include <catch2/catch.hpp>

#include <systemc>

#include "model/noc/link.h"
#include "tests/support/noc_stubs.h"

namespace mt {
namespace {

using test::Receiver;
using test::Sender;

TEST_CASE("serialisation is ceil(flits * flit_bytes / bytes_per_cycle), at least one cycle",
          "[noc][link]") {
  CHECK(LinkChannel::serialization_cycles(17, 16, 16) == 17);    // 272 B at 16 B/cycle
  CHECK(LinkChannel::serialization_cycles(17, 16, 32) == 9);     // 272 / 32 = 8.5
  CHECK(LinkChannel::serialization_cycles(17, 16, 25) == 11);    // 272 / 25 = 10.88
  CHECK(LinkChannel::serialization_cycles(5, 16, 20) == 4);      // 80 / 20 exactly
  CHECK(LinkChannel::serialization_cycles(10, 16, 12.5) == 13);  // 160 / 12.5 = 12.8
  CHECK(LinkChannel::serialization_cycles(1, 16, 64) == 1);      // 0.25: a whole cycle
  CHECK_THROWS_AS(LinkChannel::serialization_cycles(1 << 30, 1 << 30, 1e-9), SimTimeError);
}

// Sender -> LinkChannel -> Receiver at 1 GHz.
struct LinkBench {
  static constexpr int kFlits = 17;
  static constexpr int kLatency = 10;
  static constexpr double kBytesPerCycle = 32;
  CycleClock clock{1.0};
  PacketPool pool;
  LinkChannel link{"link", LinkParams{0, kBytesPerCycle, kLatency, 16}, clock};
  Sender sender{"sender", clock};
  Receiver receiver;
  const std::uint64_t ser = LinkChannel::serialization_cycles(kFlits, 16, kBytesPerCycle);

  explicit LinkBench(int credit_after = -1) : receiver("receiver", clock, 1, credit_after) {
    sender.socket.bind(link.in_socket);
    link.out_socket.bind(receiver.socket);
  }
  void send(std::uint64_t cycle, int message) {
    sender.send_at(cycle, test::make_packet(pool, message, 0, 1, nullptr, 0, kFlits));
  }
  void run(std::uint64_t cycles) { sc_core::sc_start(clock.to_time(cycles)); }
};

TEST_CASE(
    "a packet's head arrives after the wire latency and the link is busy for its "
    "serialisation",
    "[noc][link]") {
  LinkBench b;
  REQUIRE(b.ser == 9);
  b.send(3, 7);
  b.run(100);
  REQUIRE(b.receiver.received.size() == 1);
  CHECK(b.receiver.received[0].cycle == 3 + LinkBench::kLatency);
  CHECK(b.receiver.received[0].message == 7);
  CHECK(b.sender.end_req_delays == std::vector<std::uint64_t>{b.ser});
  CHECK(b.link.bytes() == LinkBench::kFlits * 16);
  CHECK(b.link.busy_cycles() == b.ser);
  CHECK(b.link.packets() == 1);
}

TEST_CASE("packets sent back to back arrive one serialisation apart", "[noc][link]") {
  LinkBench b;
  for (int k = 0; k < 3; ++k) b.send(2 + k * b.ser, k);
  b.run(200);
  REQUIRE(b.receiver.received.size() == 3);
  for (std::size_t k = 0; k < 3; ++k) {
    CHECK(b.receiver.received[k].cycle == 2 + k * b.ser + LinkBench::kLatency);
    CHECK(b.receiver.received[k].message == static_cast<int>(k));
  }
  CHECK(b.link.bytes() == 3 * LinkBench::kFlits * 16);
  CHECK(b.link.busy_cycles() == 3 * b.ser);
  CHECK(b.link.packets() == 3);
}

TEST_CASE("packets of different sizes: each serialises for its own flits, the counts add up",
          "[noc][link]") {
  LinkBench b;
  // 17, 17, 5, 17 flits at 32 B/cycle: 9, 9, 3, 9 cycles, back to back from cycle 0.
  const std::uint64_t short_ser =
      LinkChannel::serialization_cycles(5, 16, LinkBench::kBytesPerCycle);
  REQUIRE(short_ser == 3);
  const int flits[] = {17, 17, 5, 17};
  std::uint64_t cycle = 0;
  for (int k = 0; k < 4; ++k) {
    b.sender.send_at(cycle, test::make_packet(b.pool, k, 0, 1, nullptr, 0, flits[k]));
    cycle += flits[k] == 5 ? short_ser : b.ser;
  }
  b.run(200);
  REQUIRE(b.receiver.received.size() == 4);
  CHECK(b.receiver.received[3].cycle == 2 * b.ser + short_ser + LinkBench::kLatency);
  CHECK(b.sender.end_req_delays == std::vector<std::uint64_t>{b.ser, b.ser, short_ser, b.ser});
  CHECK(b.link.bytes() == (17 + 17 + 5 + 17) * 16);
  CHECK(b.link.busy_cycles() == 3 * b.ser + short_ser);
  CHECK(b.link.packets() == 4);
}

TEST_CASE("a packet sent before the previous one has left is a model bug the link reports",
          "[noc][link]") {
  LinkBench b;
  b.send(0, 0);
  b.send(b.ser - 1, 1);  // one cycle early
  CHECK_THROWS_WITH(b.run(100), Catch::Contains("sent while the link is busy"));
}

TEST_CASE("a credit crosses the wire back: receiver's delay plus the link latency", "[noc][link]") {
  constexpr int kCreditAfter = 4;
  LinkBench b(kCreditAfter);
  b.send(3, 0);
  b.run(100);
  REQUIRE(b.sender.credits.size() == 1);
  // Head at 3 + 10, credit returned 4 cycles later, back across the 10-cycle wire.
  CHECK(b.sender.credits[0].cycle == 3 + LinkBench::kLatency + kCreditAfter + LinkBench::kLatency);
  CHECK(b.sender.credits[0].flits == LinkBench::kFlits);
}

}  // namespace
}  // namespace mt
