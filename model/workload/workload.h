#pragma once
// DNN training workloads: the layers of a network in backpropagation order, and the overlap of
// each layer's (or bucket's) gradient all-reduce with the rest of backpropagation.
//
// Model of one data-parallel training iteration (all times in cycles of the scenario clock from
// the start of the forward pass):
//   forward pass (sum of forward_cycles), then backpropagation layer by layer in the order given;
//   a bucket's gradients are ready when its last layer's backprop step ends; the host then
//   launches its all-reduce, one launch at a time, each taking launch_cycles (the per-collective
//   launch cost, default 0): release = max(ready, previous release) + launch_cycles. With a
//   launch cost, fusing layers into fewer buckets can win.
//   - concurrent (the default; model/run's run_train_concurrent): every bucket's all-reduce runs
//     from its release in ONE SystemC run of the merged schedule (collective/schedule_merge.h),
//     so all-reduces in flight at the same time share the network; a bucket ends when its last
//     message arrives. concurrent_iteration() takes those end cycles.
//   - serialised (run_train_serialised, a cheaper estimate): all-reduces queue in issue
//     order: a bucket's starts at max(its release, the previous one's end) and lasts a stand-alone
//     simulation of its size. overlap_iteration() takes those durations.
//   Either way the optimizer step starts when backprop and the last all-reduce have both ended:
//   iteration = max(backprop end, last all-reduce end) + optimizer_cycles, and the exposed
//   communication is iteration - (forward + backprop + optimizer): the communication time not
//   hidden behind compute.
// The arithmetic is plain C++ (no SystemC); durations and end cycles come from the caller.

#include <cstdint>
#include <string>
#include <vector>

#include "model/core/error.h"

namespace mt {

/// Timeline inputs that do not fit the workload (a duration per bucket missing, an all-reduce
/// ending before its release).
class WorkloadError : public Error {
 public:
  using Error::Error;
};

/// One layer (or a group of layers) of a DNN.
struct LayerConfig {
  std::string name;                   ///< layer name, e.g. "conv1"
  std::uint64_t params = 0;           ///< trainable parameters (gradient elements)
  std::uint64_t backprop_cycles = 0;  ///< compute cycles of this layer's backward pass
  std::uint64_t forward_cycles = 0;   ///< compute cycles of this layer's forward pass
};

/// A training workload: layers in backpropagation order (output layer first).
struct WorkloadConfig {
  std::string name;                    ///< workload name (file stem when not given)
  std::string description;             ///< one line for humans
  std::string source;                  ///< where the layer shapes come from
  std::string source_file;             ///< the file loaded, for messages
  std::uint64_t dtype_bytes = 4;       ///< bytes per gradient element (fp32 4, fp16 2)
  std::vector<LayerConfig> layers;     ///< in backprop order
  std::uint64_t optimizer_cycles = 0;  ///< cycles of the optimizer step after the last all-reduce
  std::uint64_t bucket_bytes = 0;      ///< fuse layers into buckets of at least this; 0 = per layer
  /// Per-collective launch cost, cycles: the host launches one all-reduce at a time, each taking
  /// this long before it is released to the network (runtime overhead per collective; 0 = none).
  std::uint64_t launch_cycles = 0;
};

/// Consecutive layers (in backprop order) whose gradients are all-reduced together.
struct GradientBucket {
  std::size_t first_layer = 0;    ///< index into WorkloadConfig::layers
  std::size_t last_layer = 0;     ///< inclusive
  std::uint64_t bytes = 0;        ///< gradient bytes (params x dtype_bytes)
  std::uint64_t ready_cycle = 0;  ///< cycle (from iteration start) its last gradient is ready
  /// Cycle its all-reduce is released to the network: max(ready_cycle, previous bucket's
  /// release) + launch_cycles.
  std::uint64_t release_cycle = 0;
};

/// Most cycles an iteration's compute and launches can take: forward and backprop of every
/// layer, one launch per layer (the most buckets) and the optimizer step. Saturates at 2^64 - 1
/// instead of wrapping.
std::uint64_t compute_and_launch_cycles(const WorkloadConfig& workload);

/// Splits the layers into buckets: consecutive layers are fused until a bucket holds at least
/// bucket_bytes (the last bucket may hold less); bucket_bytes 0 gives one bucket per layer.
/// Layers with no parameters join the next bucket (or end the last one).
std::vector<GradientBucket> make_buckets(const WorkloadConfig& workload);

/// One iteration's timeline. All times in cycles from the start of the forward pass.
struct IterationTimeline {
  std::uint64_t forward_cycles = 0;       ///< sum of forward_cycles
  std::uint64_t backprop_cycles = 0;      ///< sum of backprop_cycles
  std::uint64_t optimizer_cycles = 0;     ///< the optimizer step
  std::uint64_t compute_cycles = 0;       ///< forward + backprop + optimizer
  std::uint64_t iteration_cycles = 0;     ///< end of the optimizer step
  std::uint64_t exposed_comm_cycles = 0;  ///< iteration - compute: communication not hidden
  std::vector<std::uint64_t> allreduce_start_cycle;  ///< per bucket
  std::vector<std::uint64_t> allreduce_end_cycle;    ///< per bucket
};

/// Applies the serialised model above. `allreduce_cycles[i]` is the duration of bucket i's
/// all-reduce, cycles; throws WorkloadError when the counts differ.
IterationTimeline overlap_iteration(const WorkloadConfig& workload,
                                    const std::vector<GradientBucket>& buckets,
                                    const std::vector<std::uint64_t>& allreduce_cycles);

/// Applies the concurrent model above. `allreduce_end_cycles[i]` is the cycle (from iteration
/// start) bucket i's all-reduce ended in the shared run; it starts at its release_cycle. Throws
/// WorkloadError when the counts differ or an end precedes its release.
IterationTimeline concurrent_iteration(const WorkloadConfig& workload,
                                       const std::vector<GradientBucket>& buckets,
                                       const std::vector<std::uint64_t>& allreduce_end_cycles);

}  // namespace mt
