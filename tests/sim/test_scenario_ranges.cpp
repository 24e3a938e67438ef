// Issue 19: the loader accepts only what the model can represent (SystemC's 64-bit picosecond
// time, 31-bit packet counts, 64-bit cycle sums) and rejects hostile text (surrogates, a second
// document, deep nesting, malformed --set keys) with file:line:col or the --set that caused it.

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "model/collective/byte_size.h"
#include "model/config/scenario_loader.h"
#include "model/config/workload_loader.h"
#include "model/params/time_limits.h"

using mt::ScenarioError;

namespace {

const char* const kBase =
    "topology: ring:2\n"
    "collective:\n"
    "  algorithms: [ring]\n"
    "  sizes: [1KiB]\n";

std::string range_error_of(const std::string& text,
                           const std::vector<std::string>& overrides = {}) {
  try {
    mt::load_scenario_text(text, "s.yaml", overrides);
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "";
}

std::string workload_error(const std::string& text) {
  try {
    mt::load_workload_text(text, "w.yaml");
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the simulated-time horizon is 2^62 ps in whole clock periods") {
  CHECK(mt::clock_period_ps(1.0) == 1000);
  CHECK(mt::clock_period_ps(3.0) == 333);
  CHECK(mt::clock_period_ps(0.001) == 1000000);
  CHECK(mt::max_sim_cycles(1.0) == (std::uint64_t{1} << 62) / 1000);
  CHECK(mt::max_sim_cycles(0.001) == (std::uint64_t{1} << 62) / 1000000);
}

TEST_CASE("a clock too slow for the time resolution's horizon is rejected at load") {
  CHECK(range_error_of(std::string(kBase) + "clock_ghz: 1e-13\n") ==
        "s.yaml:5:12: clock_ghz: \"1e-13\" is out of range: must be >= 0.001 and <= 100");
  CHECK(range_error_of(std::string(kBase) + "clock_ghz: 0.001\n").empty());
}

TEST_CASE("a link so slow that one buffer outlasts the horizon is rejected at load") {
  // 1KiB + 16-byte head + one flit at 1e-17 B/cycle: 1056e17 cycles > 2^62 / 1000.
  const std::string e = range_error_of(std::string(kBase), {"topology.link_bytes_per_cycle=1e-17"});
  CHECK(e ==
        "--set topology.link_bytes_per_cycle=1e-17: topology.link_bytes_per_cycle: 1e-17 "
        "bytes/cycle: moving one 1KiB buffer over one link takes 1.056e+20 cycles, beyond "
        "4611686018427387 cycles, the simulated-time horizon at clock_ghz 1 (SystemC's 64-bit "
        "picosecond time, kept below 2^62 ps)");
  CHECK_THAT(range_error_of(kBase, {"topology.link_bytes_per_cycle=1e-13"}),
             Catch::Contains("1.056e+16 cycles, beyond 4611686018427387"));
  // 1056 / 1e-12 = 1.056e15 cycles: inside the horizon.
  CHECK(range_error_of(kBase, {"topology.link_bytes_per_cycle=1e-12"}).empty());
}

TEST_CASE("watchdog_cycles beyond the horizon of a slow clock is rejected") {
  // At 1 MHz the horizon is 2^62 / 10^6 = 4611686018427 cycles.
  CHECK(range_error_of(std::string(kBase) +
                       "clock_ghz: 0.001\nwatchdog_cycles: 1125899906842624\n") ==
        "s.yaml:6:18: watchdog_cycles: 1125899906842624 is beyond 4611686018427 cycles, the "
        "simulated-time horizon at clock_ghz 0.001 (SystemC's 64-bit picosecond time, kept "
        "below 2^62 ps)");
}

TEST_CASE(
    "elaboration_order takes forward, reverse, shuffle:SEED or every_cycle and names a bad value") {
  const mt::ScenarioConfig shuffled =
      mt::load_scenario_text(std::string(kBase) + "elaboration_order: shuffle:42\n", "s.yaml");
  CHECK(shuffled.elaboration_order.kind == mt::ElaborationOrder::Kind::kShuffle);
  CHECK(shuffled.elaboration_order.seed == 42);
  CHECK(mt::load_scenario_text(kBase, "s.yaml").elaboration_order.kind ==
        mt::ElaborationOrder::Kind::kForward);
  CHECK(mt::load_scenario_text(std::string(kBase) + "elaboration_order: every_cycle\n", "s.yaml")
            .elaboration_order.kind == mt::ElaborationOrder::Kind::kEveryCycle);
  CHECK(range_error_of(std::string(kBase) + "elaboration_order: shuffle:x\n") ==
        "s.yaml:5:20: elaboration_order: expected forward, reverse, shuffle:SEED (SEED a whole "
        "number) or every_cycle, got \"shuffle:x\"");
}

TEST_CASE("sizes whose packet count overflows 31 bits are rejected but 1TiB is a size") {
  CHECK(mt::parse_byte_size("1TiB") == (std::uint64_t{1} << 40));
  CHECK(mt::parse_byte_size("1024GiB") == (std::uint64_t{1} << 40));
  CHECK(mt::parse_byte_size("2TB") == 2000000000000ull);
  // 2^40 / 256 = 2^32 packets.
  CHECK(range_error_of(kBase, {"collective.sizes=[1024GiB]"}) ==
        "--set collective.sizes=[1024GiB]: collective.sizes[0]: 1TiB is 4294967296 packets of "
        "nic.packet_bytes 256; the model counts a message's packets in 31 bits (at most "
        "2147483647): use larger packets or a smaller size");
  // With 1KiB packets 1TiB is 2^30 packets: accepted.
  const mt::ScenarioConfig s = mt::load_scenario_text(
      kBase, "s.yaml",
      {"collective.sizes=[1TiB]", "nic.packet_bytes=1024", "router.buffer_flits=128"});
  CHECK(s.collective.sizes_bytes == std::vector<std::uint64_t>{std::uint64_t{1} << 40});
  CHECK_THAT(range_error_of(kBase, {"collective.sizes=[2TiB]", "nic.packet_bytes=1024"}),
             Catch::Contains("\"2TiB\" is larger than the 1TiB limit"));
}

TEST_CASE("byte sizes are parsed exactly without library text in the errors") {
  CHECK(mt::parse_byte_size("1.5KiB") == 1536);
  CHECK(mt::parse_byte_size("0.5 MiB") == 524288);
  CHECK(mt::parse_byte_size("1.50KiB") == 1536);
  const auto error = [](const std::string& text) {
    try {
      mt::parse_byte_size(text);
    } catch (const mt::ByteSizeError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(error(".") ==
        "\".\" is not a size: expected a positive number of bytes with an optional "
        "unit B, KiB, MiB, GiB, TiB, KB, MB, GB, TB");
  CHECK(error(std::string(310, '9')) == "\"" + std::string(310, '9') + "\" is too large");
  CHECK(error("1.3B") == "\"1.3B\" is not a whole number of bytes");
  CHECK(error("0.0") == "\"0.0\" is not a positive size");
  CHECK(error("2000000TB") == "\"2000000TB\" is too large");  // 2e18 > 1e18
  CHECK_THAT(range_error_of(kBase, {"collective.sizes=[.]"}),
             Catch::EndsWith("is not a size: expected "
                             "a positive number of bytes "
                             "with an optional unit B, "
                             "KiB, MiB, GiB, TiB, KB, MB, "
                             "GB, TB"));
}

TEST_CASE("NIC values the simulator would refuse after simulating are rejected at load") {
  CHECK(range_error_of(std::string(kBase) + "nic:\n  packet_bytes: 6\n") ==
        "s.yaml:6:17: nic.packet_bytes: 6 is not a whole number of 4-byte elements (the reduction "
        "unit adds fp32/int32 elements; a packet carries whole ones)");
  CHECK(range_error_of(std::string(kBase) + "nic: {scheduler: rtl}\n") ==
        "s.yaml:5:18: nic.scheduler: rtl is the co-designed hardware scheduler: it needs "
        "nic.issue: hardware or auto (nic.issue is software)");
  CHECK(range_error_of(std::string(kBase) + "nic: {scheduler: rtl, issue: hardware}\n").empty());
  CHECK(range_error_of(std::string(kBase) + "nic: {scheduler: rtl, issue: auto}\n").empty());
  // The scheduler's clock is the network's or slower, at the top and in an entry.
  CHECK(range_error_of(std::string(kBase) + "clock_ghz: 1\nnic: {scheduler_clock_ghz: 1.5}\n") ==
        "s.yaml:6:28: nic.scheduler_clock_ghz: 1.5 GHz is faster than the network's clock_ghz 1: "
        "at most clock_ghz (0: the same)");
  CHECK(range_error_of("topology: ring:2\nclock_ghz: 0.5\ncollective:\n  algorithms:\n    - "
                       "{name: ring, nic: {scheduler_clock_ghz: 1}}\n") ==
        "s.yaml:5:7: nic.scheduler_clock_ghz: 1 GHz is faster than the network's clock_ghz 0.5: "
        "at most clock_ghz (0: the same)");
  CHECK(range_error_of(std::string(kBase) + "nic: {scheduler_clock_ghz: 0.25}\n").empty());
  // A per-algorithm nic override is checked the same way, named by its entry.
  CHECK(range_error_of("topology: ring:2\ncollective:\n  algorithms:\n    - {name: ring, nic: "
                       "{packet_bytes: 10}}\n") ==
        "s.yaml:4:7: nic.packet_bytes: 10 is not a whole number of 4-byte elements (the "
        "reduction unit adds fp32/int32 elements; a packet carries whole ones)");
  // The entry's place and the key inside it are fields of the error.
  try {
    mt::load_scenario_text(
        "topology: ring:2\ncollective:\n  algorithms:\n    - {name: ring, nic: {packet_bytes: "
        "10}}\n",
        "s.yaml");
    FAIL("loaded");
  } catch (const ScenarioError& e) {
    CHECK(e.location().file == "s.yaml");
    CHECK(e.location().line == 4);
    CHECK(e.location().column == 7);
    CHECK(e.location().key_path == "collective.algorithms[0].nic.packet_bytes");
  }
}

TEST_CASE("text the JSON writer cannot hold is rejected at load") {
  // U+D800 encoded in UTF-8 form (a surrogate), an overlong '/', and U+110000.
  CHECK(range_error_of("name: \"a\xed\xa0\x80\"\n" + std::string(kBase)) ==
        "s.yaml:1:9: the file is not valid UTF-8 (byte 8)");
  CHECK(range_error_of("name: \xc0\xaf\n" + std::string(kBase)) ==
        "s.yaml:1:7: the file is not valid UTF-8 (byte 6)");
  CHECK(range_error_of("name: \xf4\x90\x80\x80\n" + std::string(kBase)) ==
        "s.yaml:1:7: the file is not valid UTF-8 (byte 6)");
  CHECK(range_error_of(kBase, {"name=\xed\xa0\x80"}) == "--set: the override is not valid UTF-8");
  CHECK(range_error_of("name: \"\xe2\x82\xac\xf0\x9f\x98\x80\"\n" + std::string(kBase)).empty());
}

TEST_CASE("a second YAML document and deep nesting are reported as such") {
  CHECK(range_error_of(std::string(kBase) + "---\nname: other\n") ==
        "s.yaml:5:1: a second YAML document (after '---' or '...'): a file holds exactly one");
  CHECK(range_error_of(std::string(kBase) + "...\nname: other\n") ==
        "s.yaml:6:1: a second YAML document (after '---' or '...'): a file holds exactly one");
  CHECK(range_error_of("---\n" + std::string(kBase) + "...\n").empty());
  // Found by fuzzing: yaml-cpp's LoadAll never returns on this text (the loader once used it).
  CHECK(range_error_of(",key") ==
        "s.yaml:1:1: the scenario is empty; expected a mapping with at least topology and "
        "collective");
  const std::string deep =
      std::string(kBase) + "description: " + std::string(3000, '[') + std::string(3000, ']') + "\n";
  CHECK_THAT(range_error_of(deep), Catch::StartsWith("s.yaml:5:") &&
                                       Catch::Contains("the YAML nests deeper than") &&
                                       Catch::Contains("levels (the parser's limit)"));
}

TEST_CASE("malformed --set keys are blamed on the override and not the file") {
  CHECK(range_error_of(kBase, {"a.=1"}) ==
        "--set a.=1: \"a.\" is not a scenario key path (names of letters, digits and '_' joined "
        "by '.')");
  CHECK(range_error_of(kBase, {".a=1"}) ==
        "--set .a=1: \".a\" is not a scenario key path (names of letters, digits and '_' joined "
        "by '.')");
  // nic.ports is not in the file: the override created it as a mapping.
  CHECK(range_error_of(kBase, {"nic.ports.x=1"}) ==
        "--set nic.ports.x=1: nic.ports: expected an integer, got a mapping");
}

TEST_CASE("workload totals must fit the all-reduce size limit and 2^50 cycles") {
  const std::string head = "name: w\nlayers:\n";
  // Two layers of 2^40 parameters: 2^41 parameters x 4 bytes = 2^43 bytes > 1TiB.
  CHECK(workload_error(head + "  - {name: a, params: 1099511627776}\n"
                              "  - {name: b, params: 1099511627776}\n") ==
        "w.yaml:3:3: layers: 2199023255552 parameters are 8796093022208 gradient bytes, more "
        "than the 1TiB all-reduce limit");
  CHECK(workload_error("name: w\nlaunch_cycles: 1125899906842624\nlayers:\n"
                       "  - {name: a, params: 4}\n  - {name: b, params: 4}\n") ==
        "w.yaml:4:3: layers: forward + backprop cycles of all layers, one launch_cycles per "
        "layer and optimizer_cycles add up to 2251799813685248 cycles, more than the 2^50-cycle "
        "limit of one iteration (1125899906842624)");
  CHECK(workload_error(head + "  - {name: a, params: 268435456}\n").empty());
}
