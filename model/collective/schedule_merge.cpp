#include "model/collective/schedule_merge.h"

#include <algorithm>
#include <string>

namespace mt {

MergedSchedule merge_schedules(const std::vector<MergePart>& parts) {
  if (parts.empty()) throw ScheduleError("merge_schedules: no schedules to merge");
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].schedule == nullptr) {
      throw ScheduleError("merge_schedules: part " + std::to_string(i) + " has no schedule");
    }
  }
  const Schedule& first = *parts.front().schedule;
  MergedSchedule merged;
  Schedule& out = merged.schedule;
  out.algorithm = first.algorithm;
  out.topology = first.topology;
  out.nodes = first.nodes;
  out.chunk_offsets.push_back(0);
  int flow_base = 0;
  int step_base = 0;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const Schedule& part = *parts[i].schedule;
    const std::string what = "merge_schedules: part " + std::to_string(i) + " (" + part.algorithm +
                             " on " + part.topology + ")";
    if (part.nodes != first.nodes || part.topology != first.topology) {
      throw ScheduleError(what + " is for " + std::to_string(part.nodes) + " nodes, part 0 for " +
                          std::to_string(first.nodes) + " nodes on " + first.topology);
    }
    if (part.algorithm != first.algorithm) out.algorithm = "merged";  // e.g. auto by size
    std::vector<std::uint64_t> bounds;
    try {
      bounds = chunk_bounds(part, parts[i].elements);
    } catch (const ScheduleError& e) {
      throw ScheduleError(what + ": " + e.what());
    }
    const std::uint64_t base = out.chunk_offsets.back();
    for (std::size_t c = 1; c < bounds.size(); ++c) out.chunk_offsets.push_back(base + bounds[c]);
    const int id_base = static_cast<int>(out.ops.size());
    merged.op_begin.push_back(id_base);
    merged.chunk_begin.push_back(out.num_chunks);
    for (Op op : part.ops) {
      op.chunk += out.num_chunks;
      op.flow += flow_base;
      op.step += step_base;
      for (int& dep : op.deps) dep += id_base;
      if (op.apply_after >= 0) op.apply_after += id_base;
      // A message's own release time (a schedule file's) stays when it is later than the part's.
      if (op.deps.empty()) op.release_cycle = std::max(op.release_cycle, parts[i].release_cycle);
      out.add(std::move(op));
    }
    out.num_chunks += part.num_chunks;
    flow_base += part.num_flows;
    step_base += part.num_steps;
    out.num_flows = flow_base;
    out.num_steps = step_base;
  }
  merged.op_begin.push_back(static_cast<int>(out.ops.size()));
  merged.chunk_begin.push_back(out.num_chunks);
  return merged;
}

}  // namespace mt
