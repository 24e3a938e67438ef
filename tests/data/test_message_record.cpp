// Per-message packet accounting (MessageRecord): a message completes after `packets` packets, and
// its completion check requires the chunk's payload bytes and every packet index exactly once, so
// a packetisation bug cannot pass the data check (packets carry no data themselves).
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "model/nic/nic.h"

namespace mt {
namespace {

/// A record started like the NIC does for a chunk of `bytes` bytes in `packet_bytes` packets.
MessageRecord started(std::uint64_t bytes, int packet_bytes) {
  MessageRecord record;
  record.start(Nic::packets_for(bytes, packet_bytes), bytes);
  return record;
}

TEST_CASE("a message received whole passes the packet accounting", "[nic][data]") {
  // 700 bytes in 256-byte packets: 256 + 256 + 188, in any order.
  MessageRecord record = started(700, 256);
  REQUIRE(record.packets == 3);
  CHECK_FALSE(record.receive(2, 188));
  CHECK_FALSE(record.receive(0, 256));
  CHECK(record.receive(1, 256));
  CHECK(record.received == 3);
  CHECK(record.bytes_received == 700);
  CHECK(record.check_complete(7).empty());
}

TEST_CASE("a duplicated packet index is a data error even with the right byte count",
          "[nic][data]") {
  // Index 1 twice and index 2 never, but the byte count matches (three full packets of 256).
  MessageRecord record = started(768, 256);
  REQUIRE(record.packets == 3);
  CHECK_FALSE(record.receive(0, 256));
  CHECK_FALSE(record.receive(1, 256));
  CHECK(record.receive(1, 256));
  CHECK(record.bytes_received == 768);
  CHECK(record.check_complete(4) ==
        "data error: message 4 completed with 3 packets but 1 packet index(es) missing (first 2); "
        "1 packet index(es) received more than once (first 1)");
}

TEST_CASE("a short payload is a data error even with every index once", "[nic][data]") {
  MessageRecord record = started(700, 256);
  CHECK_FALSE(record.receive(0, 256));
  CHECK_FALSE(record.receive(1, 256));
  CHECK(record.receive(2, 100));  // the last packet should carry 700 - 512 = 188 bytes
  CHECK(record.check_complete(9) ==
        "data error: message 9 completed with 3 packets but received 612 payload bytes of 700");
}

TEST_CASE("a packet index outside the message is a data error", "[nic][data]") {
  MessageRecord record = started(512, 256);
  REQUIRE(record.packets == 2);
  CHECK_FALSE(record.receive(0, 256));
  CHECK(record.receive(2, 256));
  CHECK(record.check_complete(1) ==
        "data error: message 1 completed with 2 packets but 1 packet index(es) missing (first 1); "
        "1 packet(s) with an index outside 0..1");
}

TEST_CASE("start resets the accounting of a reused record", "[nic][data]") {
  MessageRecord record = started(256, 256);
  CHECK(record.receive(0, 256));
  record.start(2, 300);
  CHECK(record.received == 0);
  CHECK(record.bytes_received == 0);
  CHECK_FALSE(record.receive(1, 44));
  CHECK(record.receive(0, 256));
  CHECK(record.check_complete(0).empty());
}

// Up to 64 packets the indices are bits in the record, beyond that counts in a vector: the same
// accounting either way, including at the edges of the bit set.
TEST_CASE("missing and repeated indices are found in short and long messages alike",
          "[nic][data]") {
  for (const int packets : {64, 65, 100}) {
    CAPTURE(packets);
    MessageRecord record = started(static_cast<std::uint64_t>(packets) * 256, 256);
    REQUIRE(record.packets == packets);
    // Index 0 twice, the last index never; every other index once.
    bool done = false;
    for (int index = 0; index < packets - 1; ++index) done = record.receive(index, 256);
    CHECK_FALSE(done);
    CHECK(record.receive(0, 256));
    CHECK(record.check_complete(3) ==
          "data error: message 3 completed with " + std::to_string(packets) +
              " packets but 1 packet index(es) missing (first " + std::to_string(packets - 1) +
              "); 1 packet index(es) received more than once (first 0)");
    record.start(packets, static_cast<std::uint64_t>(packets) * 256);
    for (int index = packets - 1; index >= 0; --index) record.receive(index, 256);
    CHECK(record.check_complete(3).empty());
  }
}

}  // namespace
}  // namespace mt
