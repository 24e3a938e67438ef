#include "model/workload/workload.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace mt {

std::uint64_t compute_and_launch_cycles(const WorkloadConfig& workload) {
  std::uint64_t total = workload.optimizer_cycles;
  const auto add = [&total](std::uint64_t v) {
    if (__builtin_add_overflow(total, v, &total)) total = ~std::uint64_t{0};
  };
  for (const auto& l : workload.layers) {
    add(l.forward_cycles);
    add(l.backprop_cycles);
    add(workload.launch_cycles);
  }
  return total;
}

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
      open = GradientBucket{i, i, 0, 0, 0};
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
  // The host launches one collective at a time, each taking launch_cycles.
  std::uint64_t host_free = 0;
  for (GradientBucket& b : buckets) {
    b.release_cycle = std::max(b.ready_cycle, host_free) + workload.launch_cycles;
    host_free = b.release_cycle;
  }
  return buckets;
}

namespace {

// Compute figures of the workload, no all-reduce yet.
IterationTimeline compute_timeline(const WorkloadConfig& workload) {
  IterationTimeline t;
  for (const auto& l : workload.layers) {
    t.forward_cycles += l.forward_cycles;
    t.backprop_cycles += l.backprop_cycles;
  }
  t.optimizer_cycles = workload.optimizer_cycles;
  t.compute_cycles = t.forward_cycles + t.backprop_cycles + t.optimizer_cycles;
  return t;
}

// The optimizer starts when backprop and the last all-reduce have both ended.
void finish_timeline(IterationTimeline& t) {
  std::uint64_t last_end = 0;
  for (const std::uint64_t end : t.allreduce_end_cycle) last_end = std::max(last_end, end);
  const std::uint64_t backprop_end = t.forward_cycles + t.backprop_cycles;
  t.iteration_cycles = std::max(backprop_end, last_end) + t.optimizer_cycles;
  t.exposed_comm_cycles = t.iteration_cycles - t.compute_cycles;
}

void check_count(const char* what, std::size_t buckets, std::size_t values) {
  if (buckets != values)
    throw WorkloadError(std::string(what) + ": " + std::to_string(buckets) + " buckets but " +
                        std::to_string(values) + " all-reduce durations");
}

}  // namespace

IterationTimeline overlap_iteration(const WorkloadConfig& workload,
                                    const std::vector<GradientBucket>& buckets,
                                    const std::vector<std::uint64_t>& allreduce_cycles) {
  check_count("overlap_iteration", buckets.size(), allreduce_cycles.size());
  IterationTimeline t = compute_timeline(workload);
  std::uint64_t network_free = 0;  // the network is free from the start
  for (std::size_t i = 0; i < buckets.size(); ++i) {
    const std::uint64_t start = std::max(buckets[i].release_cycle, network_free);
    network_free = start + allreduce_cycles[i];
    t.allreduce_start_cycle.push_back(start);
    t.allreduce_end_cycle.push_back(network_free);
  }
  finish_timeline(t);
  return t;
}

IterationTimeline concurrent_iteration(const WorkloadConfig& workload,
                                       const std::vector<GradientBucket>& buckets,
                                       const std::vector<std::uint64_t>& allreduce_end_cycles) {
  check_count("concurrent_iteration", buckets.size(), allreduce_end_cycles.size());
  IterationTimeline t = compute_timeline(workload);
  for (std::size_t i = 0; i < buckets.size(); ++i) {
    if (allreduce_end_cycles[i] < buckets[i].release_cycle)
      throw WorkloadError("concurrent_iteration: bucket " + std::to_string(i) + " ends at cycle " +
                          std::to_string(allreduce_end_cycles[i]) + ", before its release at " +
                          std::to_string(buckets[i].release_cycle));
    t.allreduce_start_cycle.push_back(buckets[i].release_cycle);
    t.allreduce_end_cycle.push_back(allreduce_end_cycles[i]);
  }
  finish_timeline(t);
  return t;
}

}  // namespace mt
