#include "model/run/train_report.h"

#include "model/topology/topology.h"

namespace mt {

std::vector<TrainRow> train_rows(const WorkloadConfig& workload,
                                 const std::vector<GradientBucket>& buckets,
                                 const std::vector<BucketRuns>& runs, bool serialised) {
  std::vector<TrainRow> rows;
  for (const auto& r : runs) {
    TrainRow row{r, {}};
    row.timeline = serialised ? overlap_iteration(workload, buckets, r.cycles)
                              : concurrent_iteration(workload, buckets, r.cycles);
    rows.push_back(row);
  }
  return rows;
}

nlohmann::json to_json(const WorkloadConfig& workload, const ScenarioConfig& scenario,
                       const std::vector<GradientBucket>& buckets,
                       const std::vector<TrainRow>& rows, bool serialised) {
  nlohmann::json out;
  out["workload"] = workload.name;
  out["scenario"] = scenario.name;
  const Topology topology(scenario.topology);  // the network the iteration ran on
  out["topology"] = topology.name();
  out["nodes"] = topology.nodes();
  out["clock_ghz"] = scenario.clock_ghz;
  out["dtype_bytes"] = workload.dtype_bytes;
  out["bucket_bytes"] = workload.bucket_bytes;
  out["launch_cycles"] = workload.launch_cycles;
  out["model"] = serialised ? "serialised: stand-alone all-reduces queued in issue order"
                            : "concurrent: all-reduces released into one shared simulation";
  for (const auto& row : rows) {
    nlohmann::json j;
    const auto& t = row.timeline;
    j["algorithm"] = row.runs.algorithm;
    j["schedule"] = row.runs.schedule;
    j["data_mode"] = to_string(row.runs.data_mode);
    j["messages"] = row.runs.messages;
    j["iteration_cycles"] = t.iteration_cycles;
    j["forward_cycles"] = t.forward_cycles;
    j["backprop_cycles"] = t.backprop_cycles;
    j["optimizer_cycles"] = t.optimizer_cycles;
    j["compute_cycles"] = t.compute_cycles;
    j["exposed_comm_cycles"] = t.exposed_comm_cycles;
    for (std::size_t i = 0; i < buckets.size(); ++i) {
      const auto& b = buckets[i];
      j["buckets"].push_back(
          {{"first_layer", workload.layers[b.first_layer].name},
           {"last_layer", workload.layers[b.last_layer].name},
           {"bytes", b.bytes},
           {"simulated_bytes", simulated_bytes(b.bytes)},
           {"schedule", row.runs.bucket_schedules.at(i)},
           {"ready_cycle", b.ready_cycle},
           {"release_cycle", b.release_cycle},
           {"allreduce_cycles", t.allreduce_end_cycle[i] - t.allreduce_start_cycle[i]},
           {"start_cycle", t.allreduce_start_cycle[i]},
           {"end_cycle", t.allreduce_end_cycle[i]}});
    }
    out["runs"].push_back(j);
  }
  return out;
}

}  // namespace mt
