#pragma once
// Simulating points of a scenario in the process pool: each point in its own forked process
// (SystemC elaborates once per process), its RunResult sent back as JSON through a pipe. Shared
// by `mtsim run` and `mtsim train`.

#include <functional>
#include <optional>
#include <vector>

#include "model/core/error_json.h"
#include "model/params/scenario_config.h"
#include "model/run/prepare.h"
#include "model/run/run_point.h"
#include "model/sim/run_result.h"

namespace mt::cli {

/// Simulates every point, `jobs` processes at a time; results in the points' order. A point
/// still running after `time_limit_seconds` (> 0) of wall-clock time is stopped and fails with
/// that reason; a crashed process fails with its signal.
std::vector<RunResult> run_points(const ScenarioConfig& scenario, const std::vector<Point>& points,
                                  int jobs, bool with_messages, double time_limit_seconds = 0);

/// A check of the points' inputs (the schedules' verification): nothing when they passed, else
/// the error as the command reports it (its line, exit status and location). It must not throw.
using InputCheck = std::function<std::optional<ErrorReport>()>;

/// The points' results, or the error of the check run beside them (then no results).
struct CheckedResults {
  std::optional<ErrorReport> error;
  std::vector<RunResult> results;
};

/// run_points with `check` run at the same time in a process of its own (forked first, exempt
/// from the time limit, not counted in `jobs`, at a lower priority than the points): a run pays
/// for the longer of the two instead of both (the 4096-node MultiTree's verification takes tens
/// of seconds). The results are given
/// only when the check passed; when it fails (or its process dies) the points are killed and
/// the error is given instead. Only for points that write nothing themselves: their work is
/// thrown away when the check fails.
CheckedResults run_points_checked(const ScenarioConfig& scenario, const std::vector<Point>& points,
                                  int jobs, bool with_messages, double time_limit_seconds,
                                  const InputCheck& check);

/// run_points with `jobs` and no time limit, as the run layer's PointRunner.
PointRunner point_runner(const ScenarioConfig& scenario, int jobs);

}  // namespace mt::cli
