// Every registered all-reduce algorithm simulated on the reference topologies: the run completes
// and every node ends with the exact reduction. One TEST_CASE (one SystemC elaboration) per pair.
#include <catch2/catch.hpp>

#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "model/collective/algorithm.h"
#include "model/sim/system.h"
#include "tests/support/sim_fixtures.h"

namespace mt {
namespace {

void run_algorithm(const std::string& algorithm, const std::string& spec) {
  ScenarioConfig s = test::base_scenario();
  s.topology = parse_topology_spec(spec);
  s.collective.dtype = "int32";
  const Topology topology(s.topology);
  Schedule schedule;
  try {
    schedule = build_schedule(algorithm, topology);
  } catch (const AlgorithmError& e) {
    WARN(algorithm << " does not support " << spec << ": " << e.what());
    return;
  }
  const RunResult r = simulate(s, topology, schedule, 64 * 1024);
  INFO(algorithm << " on " << spec << ": " << r.error);
  CHECK(r.error.empty());
  CHECK(r.data_verified);
  CHECK(r.data_mode == "full");
  CHECK(r.messages == schedule.ops.size());
  CHECK(r.completion_cycles > 0);
  // No schedule beats the bandwidth bound.
  CHECK(static_cast<double>(r.completion_cycles) >= r.bound_cycles);
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
const bool registered = [] {
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

TEST_CASE("the algorithm cases are registered", "[sim][algorithms]") {
  CHECK(registered);
  CHECK(algorithm_names().size() >= 6);
}

}  // namespace
}  // namespace mt
