#pragma once
// The all-reduce simulations of a training iteration: per algorithm of the scenario, every
// gradient bucket's all-reduce either in ONE shared run (concurrent, the default: the buckets'
// schedules merged, each released at its bucket's release cycle) or stand-alone per distinct
// size (serialised estimate). See model/workload/workload.h for the two models.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/params/scenario_config.h"
#include "model/run/prepare.h"
#include "model/run/run_point.h"
#include "model/sim/run_result.h"
#include "model/workload/workload.h"

namespace mt {

/// One algorithm's all-reduces, per bucket.
struct BucketRuns {
  std::string algorithm;                      ///< the scenario entry's label
  std::string schedule;                       ///< schedule(s) run, e.g. "ring" or "merged"
  std::vector<std::string> bucket_schedules;  ///< per bucket: the schedule built for it
  std::vector<std::uint64_t> cycles;          ///< per bucket: end cycle (concurrent) or duration
  DataMode data_mode = DataMode::kFull;       ///< data check of the run(s): the weakest of them
  std::uint64_t messages = 0;                 ///< schedule messages simulated (all runs), count
  double wall_seconds = 0;                    ///< host time simulating, seconds
};

/// The outcome of a training iteration's simulations.
struct TrainRuns {
  std::vector<BucketRuns> runs;  ///< per algorithm that ran without failure, in scenario order
  /// The first schedule that failed verification (nothing was simulated then).
  std::optional<VerifyFailure> verify_failure;
  std::vector<RunResult> failures;  ///< failed simulations (run_failed()), in point order

  /// True when every schedule verified and every simulation passed.
  bool ok() const { return !verify_failure && failures.empty(); }
};

/// The simulated size of a bucket, bytes: whole 4-byte elements (fp16 gradients rounded up).
std::uint64_t simulated_bytes(std::uint64_t bytes);

/// Concurrent model: per algorithm, one run of the merged schedule of every bucket (verified
/// first); `cycles` = per bucket, the cycle its last message arrived.
TrainRuns run_train_concurrent(const ScenarioConfig& scenario,
                               const std::vector<GradientBucket>& buckets,
                               const PointRunner& runner, const RunBackends& backends = {});

/// Serialised model: every distinct bucket size stand-alone per algorithm; `cycles` = per bucket,
/// the stand-alone completion cycles (no runs at all when one failed).
TrainRuns run_train_serialised(const ScenarioConfig& scenario,
                               const std::vector<GradientBucket>& buckets,
                               const PointRunner& runner, const RunBackends& backends = {});

}  // namespace mt
