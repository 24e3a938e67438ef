// Swing and the 3D-torus schedules simulated with real data (every node's result checked), and
// the latency bound deciding efficiency at small sizes. One simulate() per case.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <string>

#include "model/collective/algorithm.h"
#include "model/collective/cost_model.h"
#include "model/collective/verify.h"
#include "model/config/scenario_loader.h"
#include "model/run/resolve.h"
#include "model/sim/system.h"

namespace {

mt::RunResult run(const std::string& algorithm, const std::string& spec, std::uint64_t bytes,
                  const mt::AlgorithmParams& params = {}) {
  mt::ScenarioConfig s =
      mt::load_scenario_file(std::string(MT_SOURCE_DIR) + "/scenarios/beyond/torus4x4x4.yaml");
  const int link_latency = s.topology.link_latency_cycles;
  s.topology = mt::parse_topology_spec(spec);
  s.topology.link_latency_cycles = link_latency;
  s.collective.dtype = mt::Dtype::kInt32;
  const mt::Topology topology(s.topology);
  const mt::Schedule schedule =
      mt::build_schedule(algorithm, topology, mt::with_size(algorithm, params, bytes));
  REQUIRE(mt::verify(schedule, topology).ok);
  mt::RunResult r = mt::simulate(s, topology, schedule, bytes);
  INFO(algorithm << " on " << spec << ": " << r.error);
  REQUIRE(r.error.empty());
  CHECK(r.data_verified);
  CHECK(r.data_mode == mt::DataMode::kFull);
  CHECK(r.messages == schedule.ops.size());
  CHECK(static_cast<double>(r.completion_cycles) >=
        std::max(r.bound_cycles, r.latency_bound_cycles));
  return r;
}

}  // namespace

TEST_CASE("swing on ring:8 sums the data", "[sim][swing]") {
  const mt::RunResult r = run("swing", "ring:8", 64 * 1024);
  CHECK(r.steps == 6);
  CHECK(r.messages == 2u * 2 * 8 * 7);
}

TEST_CASE("swing on torus:4x4 sums the data", "[sim][swing]") {
  const mt::RunResult r = run("swing", "torus:4x4", 64 * 1024);
  CHECK(r.steps == 8);
  CHECK(r.messages == 2u * 4 * 16 * 15);
}

TEST_CASE("swing on torus:4x4x4 sums the data", "[sim][swing]") {
  const mt::RunResult r = run("swing", "torus:4x4x4", 24 * 1024);
  CHECK(r.steps == 12);
  CHECK(r.messages == 2u * 6 * 64 * 63);
}

TEST_CASE("disjoint_rings on torus:4x4x4 sums the data over six rings", "[sim][3d]") {
  const mt::RunResult r = run("disjoint_rings", "torus:4x4x4", 24 * 1024, {{"pipeline", "1"}});
  CHECK(r.steps == 2 * 63);
  // Every directed link carries one ring: all 384 links busy.
  CHECK(std::all_of(r.links.begin(), r.links.end(),
                    [](const mt::LinkStat& l) { return l.bytes > 0; }));
}

TEST_CASE("tree_packing on torus:4x4x4 sums the data", "[sim][3d]") {
  run("tree_packing", "torus:4x4x4", 16 * 1024, {{"pipeline", "2"}});
}

TEST_CASE("multitree_opt on torus:4x4x4 sums the data", "[sim][3d]") {
  const mt::RunResult r = run("multitree_opt", "torus:4x4x4", 16 * 1024);
  CHECK(r.steps == 22);
}

TEST_CASE("at 4 KiB on a 4x4 torus the latency bound sets the efficiency", "[sim][swing]") {
  const mt::RunResult r = run("swing", "torus:4x4", 4096);
  // Bandwidth bound 2 x 15/16 x 4096 / 64 = 120 cycles; latency bound 4 x 150 + 5 + 2 = 607.
  CHECK(r.bound_cycles == Approx(120));
  CHECK(r.latency_bound_cycles == Approx(607));
  CHECK(r.efficiency == Approx(607.0 / static_cast<double>(r.completion_cycles)));
  CHECK(r.efficiency <= 1.0);
}
