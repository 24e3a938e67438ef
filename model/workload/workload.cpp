#include "model/workload/workload.h"

#include <algorithm>
#include <stdexcept>

namespace mt {

std::vector<GradientBucket> make_buckets(const WorkloadConfig& workload) {
  std::uint64_t forward = 0;
  for (const auto& l : workload.layers) forward += l.forward_cycles;
  std::vector<GradientBucket> buckets;
  GradientBucket open;
  bool has_open = false;
  std::uint64_t now = forward;  // backprop starts after the forward pass
  for (std::size_t i = 0; i < workload.layers.size(); ++i) {
    const LayerConfig& l = workload.layers[i];
    now += l.backprop_cycles;
    if (!has_open) {
      open = GradientBucket{i, i, 0, 0};
      has_open = true;
    }
    open.last_layer = i;
    open.bytes += l.params * workload.dtype_bytes;
    open.ready_cycle = now;
    const bool full =
        workload.bucket_bytes == 0 ? open.bytes > 0 : open.bytes >= workload.bucket_bytes;
    if (full) {
      buckets.push_back(open);
      has_open = false;
    }
  }
  if (has_open) {
    if (open.bytes > 0 || buckets.empty()) {
      buckets.push_back(open);
    } else {  // trailing parameter-free layers: their end is not a gradient anyone waits for
      buckets.back().last_layer = open.last_layer;
    }
  }
  return buckets;
}

IterationTimeline overlap_iteration(const WorkloadConfig& workload,
                                    const std::vector<GradientBucket>& buckets,
                                    const std::vector<std::uint64_t>& allreduce_cycles) {
  if (buckets.size() != allreduce_cycles.size())
    throw std::invalid_argument("overlap_iteration: " + std::to_string(buckets.size()) +
                                " buckets but " + std::to_string(allreduce_cycles.size()) +
                                " all-reduce durations");
  IterationTimeline t;
  for (const auto& l : workload.layers) {
    t.forward_cycles += l.forward_cycles;
    t.backprop_cycles += l.backprop_cycles;
  }
  t.optimizer_cycles = workload.optimizer_cycles;
  t.compute_cycles = t.forward_cycles + t.backprop_cycles + t.optimizer_cycles;
  // The network is free from the start; communication ends no earlier than backprop.
  std::uint64_t network_free = 0;
  for (std::size_t i = 0; i < buckets.size(); ++i) {
    const std::uint64_t start = std::max(buckets[i].ready_cycle, network_free);
    network_free = start + allreduce_cycles[i];
    t.allreduce_start_cycle.push_back(start);
    t.allreduce_end_cycle.push_back(network_free);
  }
  const std::uint64_t backprop_end = t.forward_cycles + t.backprop_cycles;
  t.iteration_cycles = std::max(backprop_end, network_free) + t.optimizer_cycles;
  t.exposed_comm_cycles = t.iteration_cycles - t.compute_cycles;
  return t;
}

}  // namespace mt
