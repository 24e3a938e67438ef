#pragma once
// Analysing one schedule without simulating it: built on its topology, verified, and set against
// the bounds and the analytical estimate, so users see how far from optimal it is.

#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "model/collective/algorithm.h"
#include "model/collective/cost_model.h"
#include "model/collective/schedule.h"
#include "model/collective/verify.h"
#include "model/topology/topology.h"

namespace mt {

/// Facts about a schedule on a topology. Cycles are cycles of the network clock.
struct ScheduleAnalysis {
  int reduce_steps = 0;      ///< distinct steps holding reduce messages (reduce-scatter phase)
  int broadcast_steps = 0;   ///< distinct steps holding broadcast messages (all-gather phase)
  int step_lower_bound = 0;  ///< per phase: ceil(N(N-1) / directed links usable per step)
  int diameter = 0;          ///< network diameter, hops
  std::uint64_t bytes = 0;   ///< all-reduce size per node of the estimate and bounds, bytes
  /// Both analytical estimates at `bytes` on the paper's network: cycles() (the dataflow one)
  /// is what `mtsim run` reports as estimate_cycles and `auto` ranks by.
  ScheduleEstimate estimate;
  double bound_cycles = 0;          ///< bandwidth lower bound at `bytes`, cycles
  double latency_bound_cycles = 0;  ///< latency lower bound at `bytes`, cycles
  /// Per step: (reduce messages, broadcast messages).
  std::map<int, std::pair<int, int>> messages_per_step;
};

/// The analysis of `schedule` on `topology` at `bytes` per node.
ScheduleAnalysis analyse_schedule(const Schedule& schedule, const Topology& topology,
                                  std::uint64_t bytes);

/// The analysis with the verifier's verdict, as the "analysis" object of a schedule JSON file.
nlohmann::json to_json(const ScheduleAnalysis& analysis, const VerifyReport& report);

/// A schedule built, verified and analysed.
struct ScheduleStudy {
  std::unique_ptr<Topology> topology;
  Schedule schedule;
  VerifyReport report;
  ScheduleAnalysis analysis;
};

/// Builds `algorithm` with `params` (the size added for algorithms that choose by size) on the
/// topology `config`, verifies and analyses it at `bytes`, with `context` (the size reaches the
/// builders through with_size()): e.g. hardware_issue and message flow control's cost
/// parameters to build a schedule as a run on the co-designed NIC does. TopologyError or
/// AlgorithmError on bad input; a schedule that fails verification is reported in `report`, not
/// thrown.
ScheduleStudy study_schedule(const TopologyConfig& config, const std::string& algorithm,
                             const AlgorithmParams& params, std::uint64_t bytes,
                             BuildContext context = {});

}  // namespace mt
