#include "model/run/schedule_analysis.h"

#include <set>

namespace mt {

ScheduleAnalysis analyse_schedule(const Schedule& s, const Topology& t, std::uint64_t bytes) {
  ScheduleAnalysis a;
  std::set<int> reduce_steps, broadcast_steps;
  for (const auto& op : s.ops) {
    const bool reduce = op.kind == OpKind::kReduce;
    (reduce ? reduce_steps : broadcast_steps).insert(op.step);
    auto& counts = a.messages_per_step[op.step];
    ++(reduce ? counts.first : counts.second);
  }
  a.reduce_steps = static_cast<int>(reduce_steps.size());
  a.broadcast_steps = static_cast<int>(broadcast_steps.size());
  a.step_lower_bound = step_lower_bound(t);
  a.diameter = t.diameter();
  a.bytes = bytes;
  a.estimate = estimate_schedule(s, t, bytes);
  a.bound_cycles = bandwidth_bound_cycles(t, t.ports_per_node(), bytes);
  a.latency_bound_cycles = latency_bound_cycles(t, bytes);
  return a;
}

nlohmann::json to_json(const ScheduleAnalysis& a, const VerifyReport& v) {
  return {{"verified", v.ok},
          {"error", v.first_error},
          {"contended_link_steps", v.contention.size()},
          {"steps", v.num_steps},
          {"reduce_scatter_steps", a.reduce_steps},
          {"all_gather_steps", a.broadcast_steps},
          {"step_lower_bound", a.step_lower_bound},
          {"diameter", a.diameter},
          {"estimate_bytes", a.bytes},
          {"estimate_cycles", a.estimate.cycles()},
          {"step_estimate_cycles", a.estimate.per_step.cycles},
          {"step_estimate_latency_cycles", a.estimate.per_step.latency_cycles},
          {"step_estimate_bandwidth_cycles", a.estimate.per_step.bandwidth_cycles},
          {"bound_cycles", a.bound_cycles},
          {"latency_bound_cycles", a.latency_bound_cycles}};
}

ScheduleStudy study_schedule(const TopologyConfig& config, const std::string& algorithm,
                             const AlgorithmParams& params, std::uint64_t bytes,
                             BuildContext context) {
  ScheduleStudy study;
  study.topology = std::make_unique<Topology>(config);
  study.schedule = build_schedule(with_size(algorithm_config(algorithm, params), bytes),
                                  *study.topology, context);
  study.report = verify(study.schedule, *study.topology);
  study.analysis = analyse_schedule(study.schedule, *study.topology, bytes);
  return study;
}

}  // namespace mt
