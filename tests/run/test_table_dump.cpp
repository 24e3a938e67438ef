// The packed-table dump (`mtsim schedule --format table|memh`): an entry's hex is the whole
// packed entry, also when it spans more than one 64-bit word.
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "model/run/table_dump.h"

namespace mt {
namespace {

// The entry's bits from bit 0 as a binary string (most significant first), built field by field
// from the format's widths in the documented order: an independent rendering of the layout.
std::string bits_of(const TableEntry& e, const TableFormat& f) {
  const std::vector<std::pair<long long, int>> fields = {
      {e.kind == OpKind::kBroadcast ? 1 : 0, f.kind_bits},
      {e.port, f.port_bits},
      {e.peer, f.peer_bits},
      {e.chunk, f.chunk_bits},
      {e.flow, f.flow_bits},
      {e.step, f.step_bits},
      {e.wait_counter, f.counter_bits},
      {e.wait_count, f.count_bits},
      {e.dst_counter, f.counter_bits}};
  std::string bits;  // least significant first while building
  for (const auto& [value, width] : fields)
    for (int b = 0; b < width; ++b) bits += ((value >> b) & 1) != 0 ? '1' : '0';
  return std::string(bits.rbegin(), bits.rend());
}

std::string hex_to_bits(const std::string& hex, int width) {
  std::string bits;
  for (const char c : hex) {
    const int v = c <= '9' ? c - '0' : c - 'a' + 10;
    for (int b = 3; b >= 0; --b) bits += ((v >> b) & 1) != 0 ? '1' : '0';
  }
  return bits.substr(bits.size() - static_cast<std::size_t>(width));
}

TEST_CASE("a packed entry wider than 64 bits is dumped as one hex number", "[run]") {
  PackedSchedule packed;
  // 2^20 nodes, 2^20 chunks and flows, 2^16 steps, 2^16 counters up to 65535: 127 bits.
  packed.format = TableFormat::make(1 << 20, 4, 1 << 20, 1 << 20, 1 << 16, 1 << 16, 65535);
  REQUIRE(packed.format.entry_bits() == 127);
  REQUIRE(packed.format.entry_words() == 2);
  TableEntry e;
  e.kind = OpKind::kBroadcast;
  e.port = 3;
  e.peer = 0xabcde;
  e.chunk = 0xfffff;
  e.flow = 0x12345;
  e.step = 0xbeef;
  e.wait_counter = 0x8001;
  e.wait_count = 0xffff;
  e.dst_counter = 0x7ffe;
  packed.tables = {{e}};
  packed.messages = {{7}};
  packed.counter_arrivals = {{1}};
  packed.release_counter = {-1};
  const nlohmann::json j = packed_tables_json(packed);
  const std::string hex = j.at("nodes").at(0).at("entries").at(0).at("hex");
  const int width = packed.format.entry_bits();
  CHECK(hex.size() == static_cast<std::size_t>((width + 3) / 4));
  CHECK(hex_to_bits(hex, width) == bits_of(e, packed.format));
  // memh holds the same number on its entry line.
  const std::string memh = packed_table_memh(packed, 0);
  CHECK_THAT(memh, Catch::EndsWith("\n" + hex + "\n"));
}

TEST_CASE("tables packed for an RTL build's parameters take its widths, refusing a smaller build",
          "[run]") {
  PackedSchedule packed;
  packed.ports = 2;
  packed.counters = 3;
  packed.max_count = 2;
  TableEntry e;
  e.port = 1;
  e.peer = 5;
  e.chunk = 6;
  e.flow = 1;
  e.step = 2;
  e.wait_counter = 2;
  e.wait_count = 2;
  e.dst_counter = 1;
  packed.tables = {{e}};
  packed.messages = {{0}};
  packed.counter_arrivals = {{1}};
  packed.release_counter = {-1};
  Schedule schedule;
  schedule.nodes = 8;
  schedule.num_chunks = 8;
  schedule.num_flows = 2;
  schedule.num_steps = 4;
  packed.format = TableFormat::make(8, 2, 8, 2, 4, 3, 2);
  // Chunks 4096 and Counters 256 (the co-simulated build's): 12 and 8 bits; the rest as before.
  const PackedSchedule wide =
      with_rtl_widths(packed, schedule, {{"Chunks", 4096}, {"Counters", 256}});
  CHECK(wide.format == TableFormat::make(8, 2, 4096, 2, 4, 256, 2));
  CHECK(wide.format.chunk_bits == 12);
  CHECK(wide.format.counter_bits == 8);
  CHECK(wide.format.peer_bits == packed.format.peer_bits);
  const std::string hex = packed_tables_json(wide).at("nodes").at(0).at("entries").at(0).at("hex");
  CHECK(hex_to_bits(hex, wide.format.entry_bits()) == bits_of(e, wide.format));
  // A build smaller than the table, or a parameter that sets no width: refused, naming it.
  const auto error = [&](const std::map<std::string, long long>& params) {
    try {
      with_rtl_widths(packed, schedule, params);
    } catch (const TableError& err) {
      return std::string(err.what());
    }
    return std::string("no error");
  };
  CHECK(error({{"Nodes", 4}}) == "RTL parameter Nodes = 4, but this schedule's table needs 8");
  CHECK(error({{"MaxCount", 1}}) ==
        "RTL parameter MaxCount = 1, but this schedule's table needs 2");
  CHECK(error({{"Depth", 64}}) ==
        "RTL parameter Depth does not set a table width (those are Nodes, Ports, Chunks, Flows, "
        "Steps, Counters, MaxCount)");
}

}  // namespace
}  // namespace mt
