#pragma once
// The result of a training iteration: per algorithm, its all-reduce runs set on the iteration's
// timeline (model/workload/workload.h), and that result as JSON.

#include <nlohmann/json.hpp>
#include <vector>

#include "model/params/scenario_config.h"
#include "model/run/train_run.h"
#include "model/workload/workload.h"

namespace mt {

/// One algorithm's training iteration.
struct TrainRow {
  BucketRuns runs;             ///< its all-reduces, per bucket
  IterationTimeline timeline;  ///< the iteration with those all-reduces overlapped
};

/// The iteration of every algorithm of `runs` (the runs of `buckets` of `workload`): the
/// serialised model queues the stand-alone durations in issue order, the concurrent one takes
/// each bucket's end cycle in the shared run.
std::vector<TrainRow> train_rows(const WorkloadConfig& workload,
                                 const std::vector<GradientBucket>& buckets,
                                 const std::vector<BucketRuns>& runs, bool serialised);

/// The iterations as JSON: workload, scenario, clock, model, and per algorithm its timeline and
/// every bucket's all-reduce.
nlohmann::json to_json(const WorkloadConfig& workload, const ScenarioConfig& scenario,
                       const std::vector<GradientBucket>& buckets,
                       const std::vector<TrainRow>& rows, bool serialised);

}  // namespace mt
