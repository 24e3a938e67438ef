#pragma once
// Simulating points of a scenario in the process pool: each point in its own forked process
// (SystemC elaborates once per process), its RunResult sent back as JSON through a pipe. Shared
// by `mtsim run` and `mtsim train`.

#include <vector>

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

/// run_points with `jobs` and no time limit, as the run layer's PointRunner.
PointRunner point_runner(const ScenarioConfig& scenario, int jobs);

}  // namespace mt::cli
