#pragma once
// Preparing the points of a scenario (one algorithm x one size): every schedule built on its
// topology and verified before anything is simulated. Shared by runs, training and sweeps.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/collective/algorithm_config.h"
#include "model/collective/schedule.h"
#include "model/params/scenario_config.h"
#include "model/run/resolve.h"
#include "model/sched/scheduler_build.h"
#include "model/sim/run_result.h"
#include "model/sim/system.h"
#include "model/topology/topology.h"

namespace mt {

/// What a front end injects into the run layer: parts that only some builds have.
struct RunBackends {
  /// Builds every NIC's scheduler for `nic.scheduler: rtl` (the Verilated nic_sched); empty when
  /// the front end has no RTL co-simulation.
  SchedulerFactory rtl_scheduler;
  /// Why `rtl_scheduler` is empty, for the error a scenario asking for it gets (for example
  /// "built without Verilator").
  std::string rtl_unavailable_reason = "no RTL scheduler was given";
  /// Why a point's scheduler cannot run on the RTL build (its depth, window or decision latency
  /// differ from the Verilated parameters), or empty; checked before anything runs. Empty
  /// function: no check.
  std::function<std::string(const SchedulerSettings&)> rtl_config_mismatch;
  /// The RTL build's table capacity (SchedulerBuild::table_capacity of the linked build): a
  /// hardware-issue schedule whose table needs more is refused before any simulation (a
  /// planned table: what every order needs). Empty: no check.
  TableCounts rtl_table_capacity;
};

/// One algorithm of a scenario, its schedule built once before any simulation (once per trial
/// when its flow_control or scheduler_table_order is auto: see nic_trials, settle_trials).
struct PreparedAlgorithm {
  const AlgorithmRun* run = nullptr;   ///< the scenario's entry (label, params, nic)
  NicChoice choice;                    ///< issue and flow control (auto decided) and why
  PointConfig config;                  ///< everything the point runs with, every choice decided
  std::unique_ptr<Topology> topology;  ///< with this run's port count
  Schedule schedule;
  std::uint64_t only_bytes = 0;  ///< built for this size only (auto); 0 = every size
  /// Builds every NIC's scheduler (nic.scheduler rtl); empty = the C++ SchedulerModel.
  SchedulerFactory scheduler_factory;
};

/// The algorithm and typed parameters of `run` (algorithm_config() of its name and params), or
/// nothing for a schedule file's entry; ScenarioError naming the entry when they are invalid.
std::optional<AlgorithmConfig> entry_algorithm(const AlgorithmRun& run);

/// Builds `run`'s schedule from `algorithm` (entry_algorithm(run); empty: the entry's schedule
/// file is read) on the scenario's topology, for `only_bytes` per node when it is not 0
/// (BuildContext::bytes, with the scenario's cost parameters), for the entry's NIC run as `trial`
/// (one of nic_trials: its flow control and table order); the point's PointConfig carries
/// `algorithm` (ScenarioError
/// naming the entry on failure, also when the entry's nic.scheduler needs a backend `backends`
/// lacks).
PreparedAlgorithm prepare(const ScenarioConfig& scenario, const AlgorithmRun& run,
                          const std::optional<AlgorithmConfig>& algorithm, std::uint64_t only_bytes,
                          const RunBackends& backends, const NicTrial& trial);

/// One schedule per algorithm of the scenario, or one per size for algorithms that choose by
/// size (auto); each once per trial (nic_trials: message flow control first, step order first)
/// when the entry's flow_control or scheduler_table_order is auto.
/// Sets the message budget of the scenario's granularity first (set_message_budget()) and
/// counts each schedule built as held (set_messages_held()), so the next one gets the rest.
std::vector<PreparedAlgorithm> prepare_all(const ScenarioConfig& scenario,
                                           const RunBackends& backends = {});

/// Same as prepare_all for the sizes `sizes_bytes` instead of the scenario's.
std::vector<PreparedAlgorithm> prepare_for_sizes(const ScenarioConfig& scenario,
                                                 const std::vector<std::uint64_t>& sizes_bytes,
                                                 const RunBackends& backends = {});

/// A prepared schedule that failed verification.
struct VerifyFailure {
  std::string algorithm;      ///< the scenario entry's label
  std::string topology;       ///< topology name, e.g. "torus:4x4"
  std::string schedule_file;  ///< the entry's schedule file; empty for a built schedule
  std::string error;          ///< the verifier's first error
  ErrorLocation location;     ///< the scenario entry that named the schedule

  /// "FILE:LINE:COL: KEY: LABEL on TOPOLOGY (schedule file "F"): schedule verification failed:
  /// ERROR", the place being the scenario entry's (left out when it has none).
  std::string message() const;
};

/// Verifies every prepared schedule, and for a NIC that issues steps in order (hardware issue,
/// nic.step_barrier) that no message waits for a later step (issue_order()); the first failure,
/// or nothing when all pass.
std::optional<VerifyFailure> verify_prepared(const std::vector<PreparedAlgorithm>& prepared);

/// A simulation point: a prepared schedule and the all-reduce size, bytes.
using Point = std::pair<const PreparedAlgorithm*, std::uint64_t>;

/// The points to simulate: every size (outer) for every prepared schedule built for it (inner),
/// so a table groups by size.
std::vector<Point> points_for(const std::vector<PreparedAlgorithm>& prepared,
                              const std::vector<std::uint64_t>& sizes_bytes);

/// Simulated points and their results, in the same order.
struct PointResults {
  std::vector<Point> points;
  std::vector<RunResult> results;
};

/// `flow_control: auto` and `scheduler_table_order: auto` decided: of the trials of an entry at
/// one size (nic_trials' order) keeps the fastest (the first on a tie: message flow control,
/// step order) at the first one's place, and says in its nic_choice what the other value of
/// each auto key took (flow_trial_text, order_trial_text); a failed trial is kept instead (a
/// failure is reported, never hidden behind another run); a refused trial
/// (RunResult::trial_refused) is no candidate, its reason said instead. Other points pass
/// unchanged.
PointResults settle_trials(const std::vector<Point>& points, std::vector<RunResult> results);

}  // namespace mt
