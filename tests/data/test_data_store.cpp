// The data plane: initial values, snapshots, reduce/broadcast and the exact-sum check, in full and
// sampled modes. Packet and reduction-time arithmetic of the NIC.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "model/collective/schedule.h"
#include "model/data/data_store.h"
#include "model/data/packet_sizes.h"
#include "model/nic/nic.h"

namespace mt {
namespace {

/// Ring all-reduce on 2 nodes, 1 chunk: 0 -> 1 reduce, 1 -> 0 broadcast.
void two_node_allreduce(DataStore& data) {
  const int a = data.snapshot(0, 0);
  data.apply(1, 0, OpKind::kReduce, a);
  const int b = data.snapshot(1, 0);
  data.apply(0, 0, OpKind::kBroadcast, b);
}

TEST_CASE("full mode sums int32 exactly", "[nic][data]") {
  DataStore data(DataMode::kFull, Dtype::kInt32, 2, 1, 10);
  CHECK(data.tracked() == 10);
  const double v0 = DataStore::initial_value(Dtype::kInt32, 2, 0, 3);
  const double v1 = DataStore::initial_value(Dtype::kInt32, 2, 1, 3);
  CHECK(v0 == (1 * 1000003 + 3 * 7) % 1048573);
  CHECK(data.value(1, 3) == v1);
  CHECK_FALSE(data.check().empty());
  two_node_allreduce(data);
  CHECK(data.value(0, 3) == v0 + v1);
  CHECK(data.value(1, 3) == v0 + v1);
  CHECK(data.check().empty());
}

TEST_CASE("a missing broadcast is reported with node, element and chunk", "[nic][data]") {
  DataStore data(DataMode::kFull, Dtype::kFp32, 2, 2, 8);
  const int a = data.snapshot(0, 1);
  data.apply(1, 1, OpKind::kReduce, a);
  const double v0 = DataStore::initial_value(Dtype::kFp32, 2, 0, 0);
  const double v1 = DataStore::initial_value(Dtype::kFp32, 2, 1, 0);
  // Chunk 0 (elements 0..3) was never exchanged: node 0 element 0 is the first mismatch; chunk 1
  // of node 0 also differs: 4 + 4 + 4 = 12 elements.
  std::ostringstream expected;
  expected << "data mismatch: node 0 element 0 (chunk 0): got " << v0 << ", expected " << v0 + v1
           << "; 12 tracked elements differ";
  CHECK(data.check() == expected.str());
}

TEST_CASE("fp32 sums over 1024 and 4096 nodes stay exact", "[nic][data]") {
  // A chain reduce 0 -> 1 -> ... -> N-1 then a broadcast from N-1: every node must hold the
  // exact integer sum of the N initial values of each element, accumulated in fp32.
  for (const int nodes : {1024, 4096}) {
    constexpr std::uint64_t kElements = 256;
    DataStore data(DataMode::kFull, Dtype::kFp32, nodes, 1, kElements);
    for (int u = 0; u + 1 < nodes; ++u) data.apply(u + 1, 0, OpKind::kReduce, data.snapshot(u, 0));
    for (int u = 0; u + 1 < nodes; ++u)
      data.apply(u, 0, OpKind::kBroadcast, data.snapshot(nodes - 1, 0));
    CHECK(data.check().empty());
    std::int64_t largest = 0;
    for (std::uint64_t e = 0; e < kElements; ++e) {
      std::int64_t exact = 0;
      for (int u = 0; u < nodes; ++u)
        exact += static_cast<std::int64_t>(DataStore::initial_value(Dtype::kFp32, nodes, u, e));
      largest = std::max(largest, exact);
      CHECK(data.value(0, e) == static_cast<double>(exact));
      CHECK(data.value(nodes - 1, e) == static_cast<double>(exact));
    }
    // The sums need 23 or 24 of fp32's 24 significand bits: a lost bit would show above.
    CHECK(largest > (std::int64_t{1} << 22));
  }
}

TEST_CASE("sampled mode tracks a few elements per chunk and still checks them", "[nic][data]") {
  DataStore data(DataMode::kSampled, Dtype::kInt32, 2, 2, 1000, 4);
  // Chunk 0 is elements 0..499: samples 0, 166, 332, 499.
  CHECK(data.tracked() == 8);
  CHECK_NOTHROW(data.value(0, 166));
  CHECK_THROWS_AS(data.value(0, 1), std::out_of_range);
  // Chunk 0 exchanged, chunk 1 not: its samples 500, 666, 832, 999 differ on both nodes.
  data.apply(1, 0, OpKind::kReduce, data.snapshot(0, 0));
  data.apply(0, 0, OpKind::kBroadcast, data.snapshot(1, 0));
  const double v0 = DataStore::initial_value(Dtype::kInt32, 2, 0, 500);
  const double v1 = DataStore::initial_value(Dtype::kInt32, 2, 1, 500);
  std::ostringstream expected;
  expected.precision(10);
  expected << "data mismatch: node 0 element 500 (chunk 1): got " << v0 << ", expected " << v0 + v1
           << "; 8 tracked elements differ";
  CHECK(data.check() == expected.str());
  data.apply(1, 1, OpKind::kReduce, data.snapshot(0, 1));
  data.apply(0, 1, OpKind::kBroadcast, data.snapshot(1, 1));
  CHECK(data.check().empty());
}

TEST_CASE("a snapshot is the data at its issue, in small slots and in vectors alike",
          "[nic][data]") {
  // 4 chunks of 10 elements (slots of one array) and of 100 (vectors): node 0's chunks are taken,
  // then changed by node 1's, and the snapshots taken before still carry node 0's own values.
  for (const std::uint64_t elements : {40, 400}) {
    DataStore data(DataMode::kFull, Dtype::kInt32, 3, 4, elements);
    std::vector<int> before;
    for (int c = 0; c < 4; ++c) before.push_back(data.snapshot(0, c));
    for (int c = 0; c < 4; ++c) data.apply(0, c, OpKind::kReduce, data.snapshot(1, c));
    for (int c = 0; c < 4; ++c) data.apply(2, c, OpKind::kReduce, before[static_cast<size_t>(c)]);
    for (const std::uint64_t e : {std::uint64_t{0}, elements / 2, elements - 1}) {
      const double v0 = DataStore::initial_value(Dtype::kInt32, 3, 0, e);
      const double v1 = DataStore::initial_value(Dtype::kInt32, 3, 1, e);
      const double v2 = DataStore::initial_value(Dtype::kInt32, 3, 2, e);
      CHECK(data.value(0, e) == v0 + v1);
      CHECK(data.value(2, e) == v0 + v2);
    }
  }
}

TEST_CASE("a snapshot applied to a slot of another size is refused", "[nic][data]") {
  DataStore data(DataMode::kFull, Dtype::kInt32, 2, std::vector<std::uint64_t>{0, 3, 8});
  CHECK_THROWS_WITH(data.apply(0, 1, OpKind::kReduce, data.snapshot(1, 0)),
                    Catch::Contains("holds 5 tracked elements but the data written there has 3"));
}

TEST_CASE("every tracked element starts at its initial value, full and sampled, both types",
          "[nic][data]") {
  // The rows are filled from a precomputed element term (no division per element): check them
  // against the closed form (node 299's whole row: the sum of the terms wraps past the modulus).
  for (const Dtype dtype : {Dtype::kInt32, Dtype::kFp32}) {
    DataStore full(DataMode::kFull, dtype, 300, 3, 70000);
    DataStore sampled(DataMode::kSampled, dtype, 300, 3, 70000, 5);
    int sampled_checked = 0;
    for (const int node : {0, 1, 150, 299}) {
      for (std::uint64_t e = 0; e < 70000; e += node == 299 ? 1 : 997) {
        CHECK(full.value(node, e) == DataStore::initial_value(dtype, 300, node, e));
      }
      for (std::uint64_t e = 0; e < 70000; ++e) {
        try {
          const double v = sampled.value(node, e);
          CHECK(v == DataStore::initial_value(dtype, 300, node, e));
          ++sampled_checked;
        } catch (const std::out_of_range&) {
        }
      }
    }
    CHECK(sampled_checked == 4 * 15);  // 5 samples in each of 3 chunks
  }
}

TEST_CASE("off mode tracks nothing and checks nothing", "[nic][data]") {
  DataStore data(DataMode::kOff, Dtype::kFp32, 4, 4, 1 << 20);
  CHECK(data.tracked() == 0);
  CHECK(data.snapshot(0, 0) == -1);
  CHECK(data.check().empty());
  CHECK(std::string(to_string(DataMode::kOff)) == "off");
  CHECK_FALSE(parse_enum<Dtype>("bf16").has_value());
  CHECK(parse_enum<Dtype>("int32") == Dtype::kInt32);
  CHECK(std::string(to_string(Dtype::kFp32)) == "fp32");
}

TEST_CASE("packetisation and reduction arithmetic", "[nic][packet]") {
  CHECK(Nic::packets_for(0, 256) == 1);
  CHECK(Nic::packets_for(256, 256) == 1);
  CHECK(Nic::packets_for(257, 256) == 2);
  CHECK(flits_in(256, 16, 16) == 17);
  CHECK(flits_in(100, 16, 16) == 8);
  CHECK(flits_in(0, 16, 16) == 1);
  CHECK(reduce_cycles(64, 32) == 2);
  CHECK(reduce_cycles(65, 32) == 3);
  CHECK(reduce_cycles(128, 10) == 13);
  CHECK(reduce_cycles(0, 32) == 0);
  // A message of 8 GiB or more (2^31 elements and up) still costs its cycles.
  CHECK(reduce_cycles(std::uint64_t{1} << 33, 32) == std::uint64_t{1} << 28);
}

}  // namespace
}  // namespace mt
