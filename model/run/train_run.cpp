#include "model/run/train_run.h"

#include <map>
#include <memory>
#include <set>
#include <stdexcept>

#include "model/collective/schedule_merge.h"

namespace mt {

namespace {

std::vector<std::uint64_t> distinct_sizes(const std::vector<GradientBucket>& buckets) {
  std::set<std::uint64_t> sizes;
  for (const auto& b : buckets) sizes.insert(simulated_bytes(b.bytes));
  return {sizes.begin(), sizes.end()};
}

}  // namespace

std::uint64_t simulated_bytes(std::uint64_t bytes) {
  return (bytes + 3) / 4 * 4;
}

namespace {

/// Every algorithm prepared at every distinct bucket size and verified; a failure lands in `out`.
std::vector<PreparedAlgorithm> prepare_buckets(const ScenarioConfig& scenario,
                                               const std::vector<GradientBucket>& buckets,
                                               const RunBackends& backends, TrainRuns& out) {
  std::vector<PreparedAlgorithm> prepared =
      prepare_for_sizes(scenario, distinct_sizes(buckets), backends);
  out.verify_failure = verify_prepared(prepared);
  return prepared;
}

}  // namespace

TrainRuns run_train_serialised(const ScenarioConfig& scenario,
                               const std::vector<GradientBucket>& buckets,
                               const PointRunner& runner, const RunBackends& backends) {
  TrainRuns out;
  const std::vector<std::uint64_t> sizes = distinct_sizes(buckets);
  const std::vector<PreparedAlgorithm> prepared = prepare_buckets(scenario, buckets, backends, out);
  if (out.verify_failure) return out;
  const std::vector<Point> points = points_for(prepared, sizes);
  const std::vector<RunResult> results = settle_trials(points, runner(points, false)).results;
  std::map<std::string, std::map<std::uint64_t, const RunResult*>> by_size;
  for (const auto& r : results) {
    if (run_failed(r)) out.failures.push_back(r);
    by_size[r.algorithm][r.bytes] = &r;
  }
  if (!out.failures.empty()) return out;
  for (const auto& run : scenario.collective.algorithms) {
    BucketRuns runs;
    runs.algorithm = run.label;
    std::set<std::string> schedules;
    for (const auto& b : buckets) {
      const RunResult& r = *by_size[run.label][simulated_bytes(b.bytes)];
      runs.cycles.push_back(r.completion_cycles);
      runs.bucket_schedules.push_back(r.schedule);
      schedules.insert(r.schedule);
    }
    for (const auto& [bytes, r] : by_size[run.label]) {
      runs.messages += r->messages;
      runs.wall_seconds += r->wall_seconds;
      if (r->data_mode != DataMode::kFull) runs.data_mode = r->data_mode;
    }
    runs.schedule = schedules.size() == 1 ? *schedules.begin() : "merged";
    out.runs.push_back(runs);
  }
  return out;
}

TrainRuns run_train_concurrent(const ScenarioConfig& scenario,
                               const std::vector<GradientBucket>& buckets,
                               const PointRunner& runner, const RunBackends& backends) {
  TrainRuns out;
  const std::vector<std::uint64_t> sizes = distinct_sizes(buckets);
  const std::vector<PreparedAlgorithm> prepared = prepare_buckets(scenario, buckets, backends, out);
  if (out.verify_failure) return out;
  // One merged schedule per algorithm: bucket i's schedule (built for its size when the algorithm
  // chooses by size), released at its bucket's release cycle.
  std::vector<PreparedAlgorithm> merged;
  std::vector<std::vector<int>> op_begin;
  std::vector<std::vector<std::string>> bucket_schedules;
  std::uint64_t total_bytes = 0;
  for (const auto& b : buckets) total_bytes += simulated_bytes(b.bytes);
  for (const auto& run : scenario.collective.algorithms) {
    // Once per trial (both flow controls, both table orders where their keys are auto).
    for (const NicTrial& trial : nic_trials(run.nic, host_timing(run.host, scenario.clock_ghz))) {
      std::vector<MergePart> parts;
      std::vector<std::string> names;  // what each bucket's schedule is called in results
      const PreparedAlgorithm* any = nullptr;
      for (const auto& b : buckets) {
        const std::uint64_t bytes = simulated_bytes(b.bytes);
        for (const auto& p : prepared) {
          if (p.run != &run || (p.only_bytes != 0 && p.only_bytes != bytes) ||
              p.choice.flow_control != trial.flow || p.choice.table_order != trial.order)
            continue;
          parts.push_back(MergePart{&p.schedule, bytes / 4, b.release_cycle});
          names.push_back(schedule_name(p));
          any = &p;
          break;
        }
      }
      if (any == nullptr || parts.size() != buckets.size())
        throw std::logic_error("train: no schedule of " + run.label + " for every bucket size");
      PreparedAlgorithm m;
      m.run = &run;
      m.choice = any->choice;
      m.topology = std::make_unique<Topology>(any->topology->config());
      m.scheduler_factory = any->scheduler_factory;
      bucket_schedules.push_back(names);
      MergedSchedule ms = merge_schedules(parts);
      m.schedule = std::move(ms.schedule);
      m.config = resolve(scenario, run.nic, run.host, m.choice, m.schedule, *m.topology);
      m.config.algorithm = any->config.algorithm;
      op_begin.push_back(std::move(ms.op_begin));
      merged.push_back(std::move(m));
    }
  }
  out.verify_failure = verify_prepared(merged);
  if (out.verify_failure) return out;
  std::vector<Point> points;
  for (const auto& m : merged) points.emplace_back(&m, total_bytes);
  const PointResults run = settle_trials(points, runner(points, true));
  for (std::size_t k = 0; k < run.results.size(); ++k) {
    const RunResult& r = run.results[k];
    const auto a = static_cast<std::size_t>(run.points[k].first - merged.data());
    if (run_failed(r)) {
      out.failures.push_back(r);
      continue;
    }
    BucketRuns runs;
    runs.algorithm = r.algorithm;
    runs.schedule = r.schedule;
    runs.data_mode = r.data_mode;
    runs.messages = r.messages;
    runs.wall_seconds = r.wall_seconds;
    runs.cycles = last_arrival_cycles(r, op_begin[a]);
    runs.bucket_schedules = bucket_schedules[a];
    out.runs.push_back(runs);
  }
  return out;
}

}  // namespace mt
