#pragma once
// `mtsim sweep` on this machine: every point as its own `mtsim run` process in the process pool,
// `jobs` at a time, with a progress bar; records appended as points finish so an interrupted sweep
// keeps what it finished (`--resume` continues it).

#include <string>
#include <vector>

#include "model/params/sweep_config.h"
#include "model/run/sweep.h"
#include "tb/mtsim/sweep_layout.h"

namespace mt::cli {

/// How to run a sweep locally.
struct LocalSweepOptions {
  int jobs = 1;                ///< points run at once (processes)
  double timeout_seconds = 0;  ///< wall-clock limit per point, seconds; 0 = none
  bool resume = false;         ///< skip the points already recorded in DIR/results.jsonl
  bool retry_failed = false;   ///< with resume: run recorded points that failed again
};

/// Runs the points (`weights`: each one's relative cost, for the time-left estimate) and returns
/// the exit status of the command: 0 all passed, 1 some failed, 130 interrupted.
int run_sweep_locally(const std::string& exe, const std::string& sweep_file,
                      const std::string& out_dir, const SweepConfig& sweep,
                      const std::vector<SweepPoint>& points, const std::vector<double>& weights,
                      const SweepDir& dir, const LocalSweepOptions& options);

}  // namespace mt::cli
