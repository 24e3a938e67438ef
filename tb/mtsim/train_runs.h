#pragma once
// The all-reduce simulations behind `mtsim train`: per algorithm of the scenario, every gradient
// bucket's all-reduce either in ONE shared run (concurrent, the default: the buckets' schedules
// merged, each released at its bucket's release cycle) or stand-alone per distinct size
// (serialised estimate). See model/workload/workload.h for the two models.

#include <cstdint>
#include <string>
#include <vector>

#include "model/config/scenario_config.h"
#include "model/workload/workload.h"

namespace mt::cli {

/// One algorithm's all-reduces, per bucket.
struct BucketRuns {
  std::string algorithm;                      ///< the scenario entry's label
  std::string schedule;                       ///< schedule(s) run, e.g. "ring" or "merged"
  std::vector<std::string> bucket_schedules;  ///< per bucket: the schedule built for it
  std::vector<std::uint64_t> cycles;          ///< per bucket: end cycle (concurrent) or duration
  std::string data_mode;       ///< data check of the run(s): "full", "sampled" or "off"
  std::uint64_t messages = 0;  ///< schedule messages simulated (all runs), count
  double wall_seconds = 0;     ///< host time simulating, seconds
};

/// The simulated size of a bucket, bytes: whole 4-byte elements (fp16 gradients rounded up).
std::uint64_t simulated_bytes(std::uint64_t bytes);

/// Concurrent model: per algorithm, one run of the merged schedule of every bucket (verified
/// first); `cycles` = per bucket, the cycle its last message arrived. False (with the reason on
/// stderr) when a schedule fails verification or a run fails.
bool run_concurrent(const ScenarioConfig& scenario, const std::vector<GradientBucket>& buckets,
                    int jobs, std::vector<BucketRuns>& out);

/// Serialised model: every distinct bucket size stand-alone per algorithm; `cycles` = per bucket,
/// the stand-alone completion cycles. False (reason on stderr) on failure.
bool run_serialised(const ScenarioConfig& scenario, const std::vector<GradientBucket>& buckets,
                    int jobs, std::vector<BucketRuns>& out);

}  // namespace mt::cli
