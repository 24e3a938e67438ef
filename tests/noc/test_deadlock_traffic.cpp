// Traffic patterns that would deadlock without the routing's VC rules (dateline VCs on tori and
// rings, XY on meshes, hop classes on BiGraph, up/down routes on fat-trees), simulated with small
// buffers and 2 VCs: every run completes. The channel dependency graphs themselves:
// test_deadlock.cpp.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "model/collective/algorithm.h"
#include "model/sim/system.h"
#include "tests/support/sim_fixtures.h"

namespace mt {
namespace {

using test::base_scenario;
using test::empty_schedule;
using test::make_op;

/// The network `spec` with 2 VCs of one packet (17 flits) each: the least buffering there is.
ScenarioConfig small_buffers(const std::string& spec) {
  ScenarioConfig s = base_scenario();
  s.router.vcs = 2;
  s.router.buffer_flits = 17;
  s.topology = test::topology_config(spec, 5);
  s.collective.verify_data = false;
  return s;
}

/// All-to-all traffic (every node sends `chunks` messages to every other, no dependencies) with
/// small buffers and 2 VCs: completes without deadlock.
RunResult all_to_all(const std::string& spec) {
  const ScenarioConfig s = small_buffers(spec);
  const Topology topology(s.topology);
  const int n = topology.nodes();
  Schedule schedule = empty_schedule(n, n);
  for (int u = 0; u < n; ++u) {
    for (int k = 1; k < n; ++k) schedule.add(make_op(u, (u + k) % n, (u + k) % n, OpKind::kReduce));
  }
  return simulate(s, topology, schedule, 4096ull * n);
}

TEST_CASE("all-to-all on a 4x4 torus completes (dateline VCs)", "[noc][deadlock]") {
  const RunResult r = all_to_all("torus:4x4");
  INFO(r.error);
  CHECK(r.error.empty());
  CHECK(r.packets == 16 * 15 * 16);
  // Every node receives 15 messages of 16 packets through at most 4 ejection ports: a floor of
  // 1020 cycles; the measured figure (pinned) adds the contention of the all-to-all.
  CHECK(r.completion_cycles >= 15 * 16 * 17 / 4);
  CHECK(r.completion_cycles == 11313);
}

TEST_CASE("all-to-all on a 4x4 mesh completes (XY routing)", "[noc][deadlock]") {
  const RunResult r = all_to_all("mesh:4x4");
  INFO(r.error);
  CHECK(r.error.empty());
  CHECK(r.packets == 16 * 15 * 16);
}

TEST_CASE("all-to-all on a bigraph completes (hop classes)", "[noc][deadlock]") {
  const RunResult r = all_to_all("bigraph:m=2,n=8");
  INFO(r.error);
  CHECK(r.error.empty());
  CHECK(r.packets == 16 * 15 * 16);
}

TEST_CASE("halving-doubling on a bigraph completes (hop classes)", "[noc][deadlock]") {
  // Routes between two switches of one half turn through the other half (a -> b -> a'); with one
  // VC class the buffers of a -> b -> a' -> b' -> a close a dependency cycle, and this exchange
  // (every node streaming 128-packet messages to partners in both halves) stalled at cycle
  // 1061328 before the hop classes.
  ScenarioConfig s = base_scenario();
  s.topology = test::topology_config("bigraph:m=4,n=8", 150);
  s.watchdog_cycles = 1000000;
  const Topology topology(s.topology);
  const Schedule schedule = build_schedule("halving_doubling", topology);
  const std::uint64_t bytes = 1u << 20;
  const RunResult r = simulate(s, topology, schedule, bytes);
  INFO(r.error);
  REQUIRE(r.error.empty());
  CHECK(r.data_verified);
  CHECK(r.messages == schedule.ops.size());
}

TEST_CASE("all-to-all on a fat-tree completes (up/down routes)", "[noc][deadlock]") {
  const RunResult r = all_to_all("fattree:k=4,levels=2");  // 8 endpoints
  INFO(r.error);
  CHECK(r.error.empty());
  CHECK(r.packets == 8 * 7 * 16);
}

/// Tornado: every node sends `messages` messages to node u + N/2 (all in the same direction).
RunResult tornado(const std::string& spec, int messages) {
  const ScenarioConfig s = small_buffers(spec);
  const Topology topology(s.topology);
  const int n = topology.nodes();
  Schedule schedule = empty_schedule(n, messages);
  for (int u = 0; u < n; ++u) {
    for (int m = 0; m < messages; ++m)
      schedule.add(make_op(u, (u + n / 2) % n, m, OpKind::kReduce));
  }
  return simulate(s, topology, schedule, 256ull * 8 * messages);
}

TEST_CASE("tornado on a 4x4 torus completes (dateline VCs)", "[noc][deadlock]") {
  const RunResult r = tornado("torus:4x4", 4);
  INFO(r.error);
  REQUIRE(r.error.empty());
  // u -> u + 8 is (x, y) -> (x, y + 2): two hops +y (ties go +). Each +y link carries two flows of
  // 4 messages x 8 packets x 272 bytes; no other link carries anything.
  const Topology topology(test::topology_config("torus:4x4", 5));
  for (const LinkStat& link : r.links) {
    const std::vector<int> a = topology.coords(link.src);
    const std::vector<int> b = topology.coords(link.dst);
    const bool plus_y = a[0] == b[0] && (a[1] + 1) % 4 == b[1];
    CHECK(link.bytes == (plus_y ? 2ull * 4 * 8 * 272 : 0));
  }
  // Each +y link serialises 64 packets.
  CHECK(r.completion_cycles >= 64 * 17);
}

TEST_CASE("tornado on a 4x4 mesh completes", "[noc][deadlock]") {
  const RunResult r = tornado("mesh:4x4", 4);
  INFO(r.error);
  CHECK(r.error.empty());
  CHECK(r.packets == 16 * 4 * 8);
}

TEST_CASE("tornado on a 16-node ring completes (dateline VCs)", "[noc][deadlock]") {
  const RunResult r = tornado("ring:16", 2);
  INFO(r.error);
  CHECK(r.error.empty());
  CHECK(r.packets == 16 * 2 * 8);
}

}  // namespace
}  // namespace mt
