#pragma once
// `mtsim sweep --emit-slurm`: a sweep as a Slurm job array (one task per point, each an `mtsim
// run` line of points.txt), and `--merge`: the array's per-point results assembled into the
// sweep's result files.

#include <string>
#include <vector>

#include "model/params/sweep_config.h"
#include "model/run/sweep.h"
#include "tb/mtsim/sweep_layout.h"

namespace mt::cli {

/// Writes DIR/sweep.slurm and DIR/points.txt and says how to submit and merge. `jobs` > 0 limits
/// the tasks running at once; `slurm_options` become extra #SBATCH lines.
void emit_slurm(const std::string& exe, const std::string& sweep_file, const SweepConfig& sweep,
                const std::vector<SweepPoint>& points, const SweepDir& dir, int jobs,
                const std::vector<std::string>& slurm_options);

/// Assembles DIR/points/<i>.json and .status into DIR/results.*; the exit status of the command
/// (1 when a point failed or has no results yet).
int merge_slurm_results(const SweepConfig& sweep, const std::vector<SweepPoint>& points,
                        const SweepDir& dir);

}  // namespace mt::cli
