#pragma once
// Simulating points (one algorithm x one size) of a scenario, each in its own forked process
// (SystemC elaborates once per process), shared by `mtsim run` and `mtsim train`.

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "model/collective/schedule.h"
#include "model/sim/run_result.h"
#include "model/config/scenario_config.h"
#include "model/topology/topology.h"

namespace mt::cli {

/// One algorithm of a scenario, its schedule built once before any simulation.
struct PreparedAlgorithm {
  const AlgorithmRun* run = nullptr;   ///< the scenario's entry (label, params, nic)
  std::unique_ptr<Topology> topology;  ///< with this run's port count
  Schedule schedule;
  std::uint64_t only_bytes = 0;  ///< built for this size only (auto); 0 = every size
};

/// A point simulating in a child process.
struct Child {
  pid_t pid = -1;
  int fd = -1;
  std::size_t index = 0;          ///< position in the caller's results vector
  double time_limit_seconds = 0;  ///< wall-clock limit of the process; 0 = none
};

/// Builds `run`'s schedule with `params` on the scenario's topology (ScenarioError on failure).
PreparedAlgorithm prepare(const ScenarioConfig& scenario, const AlgorithmRun& run,
                          const AlgorithmParams& params, std::uint64_t only_bytes);

/// One schedule per algorithm of the scenario, or one per size for algorithms that choose by
/// size (auto).
std::vector<PreparedAlgorithm> prepare_all(const ScenarioConfig& scenario);

/// Same as prepare_all for the sizes `sizes_bytes` instead of the scenario's.
std::vector<PreparedAlgorithm> prepare_for_sizes(const ScenarioConfig& scenario,
                                                 const std::vector<std::uint64_t>& sizes_bytes);

/// A simulation point: a prepared schedule and the all-reduce size, bytes.
using Point = std::pair<const PreparedAlgorithm*, std::uint64_t>;

/// Verifies every prepared schedule; prints the first failure to stderr and returns false.
bool verify_all(const std::vector<PreparedAlgorithm>& prepared);

/// The points to simulate: every size (outer) for every prepared schedule built for it (inner),
/// so a table groups by size.
std::vector<Point> points_for(const std::vector<PreparedAlgorithm>& prepared,
                              const std::vector<std::uint64_t>& sizes_bytes);

/// A result naming the point, carrying `error`.
RunResult failed_result(const ScenarioConfig& scenario, const PreparedAlgorithm& p,
                        std::uint64_t bytes, const std::string& error);

/// Forks a process that simulates `p` at `bytes` and sends its RunResult back through a pipe.
/// The process dies with its parent (parent-death signal) and, when `time_limit_seconds` > 0,
/// at that wall-clock limit (SIGALRM; finish_child reports it).
Child start_child(const ScenarioConfig& scenario, const PreparedAlgorithm& p, std::uint64_t bytes,
                  bool with_messages, std::size_t index, double time_limit_seconds = 0);

/// Reads the child's whole answer and reaps it; a crash becomes `placeholder` with an error.
RunResult finish_child(const Child& child, const RunResult& placeholder);

/// Simulates every (algorithm, bytes) point, `jobs` processes at a time; results in order. A point
/// still running after `time_limit_seconds` (> 0) of wall-clock time fails with that reason.
std::vector<RunResult> run_points(const ScenarioConfig& scenario, const std::vector<Point>& points,
                                  int jobs, bool with_messages, double time_limit_seconds = 0);

}  // namespace mt::cli
