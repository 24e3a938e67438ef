// The NIC behaviours that the paper-compatible configuration switches on (see README, "Fidelity"):
// each with an exact completion time derived from its formula, and its scenario key loaded and
// validated. Every TEST_CASE elaborates SystemC at most once.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "model/nic/nic.h"
#include "model/sim/scenario_loader.h"
#include "model/sim/system.h"
#include "tests/support/sim_fixtures.h"

namespace mt {
namespace {

// One 1024-byte message is 4 packets of 256 bytes (64 fp32 elements each), 17 flits with their
// head flit. Over one hop of a ring with 50-cycle links the last packet's tail arrives
// 3 x 17 (the packets before it) + 2 (two router pipelines) + 50 (wire) + 17 cycles after issue.
constexpr std::uint64_t kHop = 3 * 17 + 2 + 50 + 17;

// Node 0 reduces chunk 0 into node 1, which then reduces it into node 2 (a two-level tree edge
// chain: the second send depends on the first message).
RunResult reduce_chain(ReduceGranularity reduction) {
  ScenarioConfig s = test::base_scenario();
  s.topology = test::topology_config("ring:8", 50);
  s.collective.verify_data = false;  // two messages are not an all-reduce
  s.nic.reduction = reduction;
  const Topology topology(s.topology);
  Schedule schedule = test::empty_schedule(8, 1);
  const int first = schedule.add(test::make_op(0, 1, 0, OpKind::kReduce));
  schedule.add(test::make_op(1, 2, 0, OpKind::kReduce, {first}, 1));
  return simulate(s, topology, schedule, 1024);
}

TEST_CASE("per-packet reduction: a dependent send waits only for the last packet's sum",
          "[sim][fidelity]") {
  const RunResult r = reduce_chain(ReduceGranularity::kPacket);
  INFO(r.error);
  REQUIRE(r.error.empty());
  // Each hop ends with the sum of its last packet: 64 elements at 32 per cycle.
  CHECK(Nic::reduce_cycles(64, 32) == 2);
  CHECK(r.completion_cycles == 2 * (kHop + 2));
}

TEST_CASE("whole-message reduction: a dependent send waits for the sum of the whole message",
          "[sim][fidelity]") {
  const RunResult r = reduce_chain(ReduceGranularity::kMessage);
  INFO(r.error);
  REQUIRE(r.error.empty());
  // The reduction unit starts when the message is whole: 256 elements at 32 per cycle.
  CHECK(Nic::reduce_cycles(256, 32) == 8);
  CHECK(r.completion_cycles == 2 * (kHop + 8));
}

TEST_CASE("the nic.reduction key is loaded per scenario and per algorithm, and validated",
          "[sim][fidelity][loader]") {
  const ScenarioConfig s = load_scenario_text(
      "topology: {kind: torus, dims: [4, 4]}\n"
      "nic: {reduction: message}\n"
      "collective:\n"
      "  algorithms:\n"
      "    - ring\n"
      "    - {name: ring, label: ring-cut, nic: {reduction: packet}}\n",
      "fidelity.yaml");
  CHECK(s.nic.reduction == ReduceGranularity::kMessage);
  CHECK(s.collective.algorithms[0].nic.reduction == ReduceGranularity::kMessage);
  CHECK(s.collective.algorithms[1].nic.reduction == ReduceGranularity::kPacket);
  CHECK_THROWS_WITH(load_scenario_text("topology: {kind: torus, dims: [4, 4]}\n"
                                       "nic:\n"
                                       "  reduction: whole\n"
                                       "collective: {algorithms: [ring]}\n",
                                       "bad.yaml"),
                    Catch::Contains("bad.yaml:3:14") && Catch::Contains("nic.reduction") &&
                        Catch::Contains("packet, message"));
}

}  // namespace
}  // namespace mt
