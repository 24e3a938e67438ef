// Every registered all-reduce algorithm simulated on the reference topologies: the run completes
// and every node ends with the exact reduction. One TEST_CASE (one SystemC elaboration) per pair.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "model/collective/algorithm.h"
#include "model/data/packet_sizes.h"
#include "model/nic/nic.h"
#include "model/noc/link.h"
#include "model/sim/system.h"
#include "tests/support/sim_fixtures.h"

namespace mt {
namespace {

/// Wire cycles of one packet of `payload` bytes at the scenario's sizes over a 16 B/cycle link.
std::uint64_t wire_cycles(const ScenarioConfig& s, std::uint64_t payload) {
  const int flits = flits_in(static_cast<int>(payload), s.nic.head_flit_bytes, s.nic.flit_bytes);
  return LinkChannel::serialization_cycles(flits, s.nic.flit_bytes, 16.0);
}

void run_algorithm(const std::string& algorithm, const std::string& spec) {
  ScenarioConfig s = test::base_scenario();
  s.topology = parse_topology_spec(spec);
  s.collective.dtype = mt::Dtype::kInt32;
  const Topology topology(s.topology);
  // The two combinations allowed not to run: ring2d needs a 2D grid of routers, tree_packing
  // trees of endpoints linked to each other.
  if (algorithm == "ring2d" && !topology.is_direct()) {
    CHECK_THROWS_WITH(build_schedule(algorithm, topology),
                      "ring2d needs a 2D torus or mesh, got " + topology.name());
    return;
  }
  if (algorithm == "tree_packing" && !topology.is_direct()) {
    CHECK_THROWS_WITH(build_schedule(algorithm, topology),
                      "tree_packing needs a direct topology (endpoints linked to each other), "
                      "got " +
                          topology.name() +
                          " with switches; use multitree_opt or disjoint_rings there");
    return;
  }
  if (algorithm == "swing" && topology.kind() != mt::TopologyKind::kTorus &&
      topology.kind() != mt::TopologyKind::kRing) {
    CHECK_THROWS_WITH(build_schedule(algorithm, topology),
                      "swing: topology " + topology.name() +
                          " is not a ring or torus (Swing's peers wrap around every dimension)");
    return;
  }
  // Any other AlgorithmError fails the test case.
  const std::uint64_t bytes = 64 * 1024;
  const Schedule schedule = build_schedule(algorithm, topology, with_size(algorithm, {}, bytes));
  const RunResult r = simulate(s, topology, schedule, bytes);
  INFO(algorithm << " on " << spec << ": " << r.error);
  REQUIRE(r.error.empty());
  CHECK(r.data_verified);
  CHECK(r.data_mode == DataMode::kFull);
  CHECK(r.messages == schedule.ops.size());
  // Exact packet count: every message is its chunk split into packet_bytes packets.
  const std::uint64_t elements = bytes / 4;
  std::uint64_t packets = 0;
  // Generous upper bound: every message alone on the network, one after another (its packets
  // back to back at one link's bandwidth, every hop's wire and pipeline, every packet reduced).
  std::uint64_t serial = 0;
  for (const Op& op : schedule.ops) {
    const std::uint64_t chunk_bytes = (chunk_end(op.chunk, schedule.num_chunks, elements) -
                                       chunk_begin(op.chunk, schedule.num_chunks, elements)) *
                                      4;
    const int n = Nic::packets_for(chunk_bytes, s.nic.packet_bytes);
    packets += static_cast<std::uint64_t>(n);
    const std::uint64_t hops = topology.route(op.node, op.peer).size();
    const std::uint64_t wire = static_cast<std::uint64_t>(
        std::max(s.topology.link_latency_cycles, s.topology.nic_link_latency_cycles));
    serial += static_cast<std::uint64_t>(n) *
                  (wire_cycles(s, static_cast<std::uint64_t>(s.nic.packet_bytes)) +
                   reduce_cycles(s.nic.packet_bytes / 4, s.nic.reduce_elems_per_cycle)) +
              (hops + 1) * (wire + static_cast<std::uint64_t>(s.router.pipeline_cycles));
  }
  CHECK(r.packets == packets);
  // No schedule beats the bandwidth bound, and none is slower than running serially.
  CHECK(static_cast<double>(r.completion_cycles) >= r.bound_cycles);
  CHECK(static_cast<double>(r.completion_cycles) >= r.latency_bound_cycles);
  CHECK(r.completion_cycles <= serial);
  CHECK(r.efficiency == Approx(std::max(r.bound_cycles, r.latency_bound_cycles) /
                               static_cast<double>(r.completion_cycles)));
}

/// Runs one algorithm on one topology as its own test case.
class AlgorithmCase : public Catch::ITestInvoker {
 public:
  AlgorithmCase(std::string algorithm, std::string spec)
      : algorithm_(std::move(algorithm)), spec_(std::move(spec)) {}
  void invoke() const override { run_algorithm(algorithm_, spec_); }

 private:
  std::string algorithm_;
  std::string spec_;
};

/// One test case per registered algorithm and reference topology, so that a new algorithm is
/// covered without editing this file. Test names carry no commas (Catch splits filters at them).
[[maybe_unused]] const bool registered = [] {
  const std::vector<std::pair<std::string, std::string>> topologies = {
      {"torus:4x4", "torus:4x4"},
      {"mesh:4x4", "mesh:4x4"},
      {"fattree:k=4,levels=2", "fattree:k=4 levels=2"},
      {"bigraph:m=4,n=4", "bigraph:m=4 n=4"},
      {"switch:nodes=16", "switch:nodes=16"}};
  static std::deque<std::string> names;  // Catch keeps StringRefs to registration strings
  for (const auto& [spec, label] : topologies) {
    for (const std::string& algorithm : algorithm_names()) {
      names.push_back(algorithm + " on " + label + " verifies the data");
      Catch::AutoReg(new AlgorithmCase(algorithm, spec), CATCH_INTERNAL_LINEINFO,
                     Catch::StringRef(), Catch::NameAndTags{names.back(), "[sim][algorithms]"});
    }
  }
  return true;
}();

}  // namespace
}  // namespace mt
