#include "model/run/prepare.h"

#include <optional>
#include <stdexcept>

#include "model/collective/algorithm.h"
#include "model/collective/issue_order.h"
#include "model/collective/schedule_file.h"
#include "model/collective/verify.h"
#include "model/flow/flow_sim.h"
#include "model/params/config_error.h"
#include "model/run/table_dump.h"

namespace mt {

namespace {

// "file:line:col: collective.algorithms: LABEL: what", located at the entry.
ScenarioError entry_error(const AlgorithmRun& run, const std::string& what) {
  // A builder's error already starts with the algorithm's name ("swing: ..."): once is enough.
  const bool named = what.rfind(run.label + ": ", 0) == 0;
  return ScenarioError(
      run.location.where() + ": collective.algorithms: " + (named ? "" : run.label + ": ") + what,
      run.location);
}

// The schedule of a {name: file} entry, checked against the run's topology (ScenarioError naming
// the entry and the file when it cannot be read or does not fit).
Schedule load_file_entry(const AlgorithmRun& run, const Topology& topology) {
  Schedule schedule;
  try {
    schedule = load_any_schedule_file(run.schedule_file);
  } catch (const ScheduleError& e) {
    // The place is the schedule file's (its line, or its JSON key path) when the reader knows it.
    ScenarioError error = entry_error(run, e.what());
    if (e.location().file.empty()) throw error;
    throw ScenarioError(error.what(), e.location());
  }
  const std::string mismatch = topology_mismatch(schedule, topology);
  if (!mismatch.empty())
    throw entry_error(run, "schedule file \"" + run.schedule_file +
                               "\" does not fit the scenario's topology: " + mismatch);
  return schedule;
}

// The scheduler factory of the entry's NIC: nic.scheduler rtl puts the Verilated nic_sched
// behind every NIC (hardware issue); the C++ model otherwise.
SchedulerFactory scheduler_factory(const AlgorithmRun& run, const RunBackends& backends) {
  if (run.nic.scheduler != SchedulerImpl::kRtl) return SchedulerFactory();
  if (!backends.rtl_scheduler)
    throw entry_error(
        run, "nic.scheduler: rtl: co-simulation unavailable: " + backends.rtl_unavailable_reason);
  if (backends.rtl_config_mismatch && run.nic.issue != IssueChoice::kSoftware) {
    SchedulerSettings settings;
    settings.decision_latency_cycles = run.nic.decision_latency_cycles;
    settings.depth = run.nic.scheduler_depth;
    settings.window = run.nic.scheduler_window;
    const std::string mismatch = backends.rtl_config_mismatch(settings);
    if (!mismatch.empty()) throw entry_error(run, "nic.scheduler: rtl: " + mismatch);
  }
  return backends.rtl_scheduler;
}

// The Verilated scheduler must hold the hardware schedule's table (its counters, peers, chunks,
// flows, steps and counts): known once the schedule is built, so refused before any simulation.
// What the build lacks ("Counters 256 < 321"), or empty. A planned table is packed from its
// plan, at elaboration: here only what every order needs (schedule_needs) is checked, the rest
// by the System (RunResult::table_misfit) and the Verilated scheduler, which refuses to load a
// table that does not fit; an auto order's planned trial is refused by run_point instead.
std::string rtl_table_misfit(const PreparedAlgorithm& p, const RunBackends& backends) {
  const SchedulerSettings& scheduler = p.config.issue.scheduler;
  if (!p.scheduler_factory || backends.rtl_table_capacity.empty() ||
      p.config.issue.mode != IssueMode::kHardware || scheduler.planned_trial)
    return "";
  if (scheduler.planned_table_order)
    return schedule_misfit(p.schedule, p.topology->ports_per_node(), backends.rtl_table_capacity);
  try {
    return table_misfit(pack_for_hardware(p.schedule, *p.topology), p.schedule,
                        backends.rtl_table_capacity);
  } catch (const TableError&) {
    return "";  // a schedule that cannot be packed at all: the run says why, as without RTL
  }
}

}  // namespace

std::optional<AlgorithmConfig> entry_algorithm(const AlgorithmRun& run) {
  if (!run.schedule_file.empty()) return std::nullopt;
  try {
    return algorithm_config(run.name, run.params);
  } catch (const AlgorithmError& e) {
    throw entry_error(run, e.what());
  }
}

PreparedAlgorithm prepare(const ScenarioConfig& scenario, const AlgorithmRun& run,
                          const std::optional<AlgorithmConfig>& algorithm, std::uint64_t only_bytes,
                          const RunBackends& backends, const NicTrial& trial) {
  PreparedAlgorithm p;
  p.run = &run;
  p.choice = choose_nic_mode(run.nic, host_timing(run.host, scenario.clock_ghz), trial);
  p.only_bytes = only_bytes;
  p.scheduler_factory = scheduler_factory(run, backends);
  TopologyConfig config = scenario.topology;
  if (run.ports > 0) config.ports_per_node = run.ports;
  p.topology = std::make_unique<Topology>(config);
  if (!algorithm) {
    // A file's chunks are fractions of the all-reduce: unequal ones are scaled to each size.
    p.schedule = load_file_entry(run, *p.topology);
    if (only_bytes > 0) p.schedule = scaled_to(p.schedule, only_bytes / 4);
  } else {
    try {
      BuildContext context;  // the size (for schedules sized by it) and the scenario's network
      context.bytes = only_bytes;
      context.cost = cost_params_for(scenario, run.nic, run.host, p.choice);
      context.hardware_issue = p.choice.issue == IssueMode::kHardware;
      context.planned_table_order =
          context.hardware_issue && p.choice.table_order == TableOrder::kPlanned;
      // auto rank=message: each candidate timed by the message model on this point's network
      // and NIC (timing only: the winner's own run checks its data).
      context.simulate_messages = [&](const Schedule& candidate, std::uint64_t bytes) {
        try {
          PointConfig point =
              resolve(scenario, run.nic, run.host, p.choice, candidate, *p.topology);
          point.granularity = Granularity::kMessage;
          point.data.verify = false;
          return static_cast<double>(
              simulate_messages(point, *p.topology, candidate, bytes).completion_cycles);
        } catch (const Error& e) {  // e.g. a NIC key the message model does not model
          throw AlgorithmError("auto: rank=message cannot time the candidates (" +
                               std::string(e.what()) + "): rank them with rank=estimate");
        }
      };
      p.schedule = build_schedule(*algorithm, *p.topology, context);
    } catch (const AlgorithmError& e) {
      throw entry_error(run, e.what());
    } catch (const ScheduleTooLarge& e) {
      throw entry_error(run, e.what());
    }
  }
  p.config = resolve(scenario, run.nic, run.host, p.choice, p.schedule, *p.topology);
  p.config.algorithm = algorithm;
  const std::string lacks = rtl_table_misfit(p, backends);
  if (!lacks.empty())
    throw entry_error(run,
                      "nic.scheduler: rtl: the Verilated nic_sched cannot hold this "
                      "schedule's table: " +
                          lacks + " (build with larger values in a copy of " +
                          scheduler_build().path + " given as -DMT_RTL_PARAMS_FILE=FILE)");
  return p;
}

std::vector<PreparedAlgorithm> prepare_for_sizes(const ScenarioConfig& scenario,
                                                 const std::vector<std::uint64_t>& sizes_bytes,
                                                 const RunBackends& backends) {
  // The schedules are held by the model the scenario runs, which sets what a message may cost.
  set_message_budget(scenario.granularity == Granularity::kMessage ? kMessageModelBudget
                                                                   : kPacketModelBudget);
  std::vector<PreparedAlgorithm> prepared;
  // Every schedule is held until the points have run: each one built leaves the next room for
  // only what the machine has left.
  std::size_t held = 0;
  set_messages_held(held);
  const auto keep = [&](PreparedAlgorithm p) {
    held += p.schedule.ops.size();
    set_messages_held(held);
    prepared.push_back(std::move(p));
  };
  for (const auto& run : scenario.collective.algorithms) {
    const std::optional<AlgorithmConfig> algorithm = entry_algorithm(run);  // read once
    for (const NicTrial& trial : nic_trials(run.nic, host_timing(run.host, scenario.clock_ghz))) {
      if (!algorithm) {
        PreparedAlgorithm p = prepare(scenario, run, algorithm, 0, backends, trial);
        if (p.schedule.chunk_offsets.empty()) {
          keep(std::move(p));
        } else {
          for (const std::uint64_t bytes : sizes_bytes)
            keep(prepare(scenario, run, algorithm, bytes, backends, trial));
        }
        continue;
      }
      if (!depends_on_size(*algorithm)) {
        keep(prepare(scenario, run, algorithm, 0, backends, trial));
        continue;
      }
      for (const std::uint64_t bytes : sizes_bytes)
        keep(prepare(scenario, run, algorithm, bytes, backends, trial));
    }
  }
  return prepared;
}

std::vector<PreparedAlgorithm> prepare_all(const ScenarioConfig& scenario,
                                           const RunBackends& backends) {
  return prepare_for_sizes(scenario, scenario.collective.sizes_bytes, backends);
}

std::string VerifyFailure::message() const {
  const std::string where = location.where();
  return (where.empty() ? "" : where + ": " + location.key_path + ": ") + algorithm + " on " +
         topology + (schedule_file.empty() ? "" : " (schedule file \"" + schedule_file + "\")") +
         ": schedule verification failed: " + error;
}

std::optional<VerifyFailure> verify_prepared(const std::vector<PreparedAlgorithm>& prepared) {
  for (const auto& p : prepared) {
    const VerifyReport report = verify(p.schedule, *p.topology);
    std::string error = report.first_error;
    // Where a node issues its steps in order, no message may wait for a later step's.
    if (report.ok && (p.config.issue.mode == IssueMode::kHardware || p.config.nic.step_barrier))
      error = issue_order(p.schedule).violation.text;
    if (!report.ok || !error.empty())
      return VerifyFailure{p.run->label, p.topology->name(), p.run->schedule_file, error,
                           p.run->location};
  }
  return std::nullopt;
}

std::vector<Point> points_for(const std::vector<PreparedAlgorithm>& prepared,
                              const std::vector<std::uint64_t>& sizes_bytes) {
  std::vector<Point> points;
  for (const std::uint64_t bytes : sizes_bytes)
    for (const auto& p : prepared)
      if (p.only_bytes == 0 || p.only_bytes == bytes) points.emplace_back(&p, bytes);
  return points;
}

PointResults settle_trials(const std::vector<Point>& points, std::vector<RunResult> results) {
  PointResults out;
  std::vector<char> merged(points.size(), 0);
  const auto trial_of = [&points](std::size_t k) -> const NicChoice& {
    return points[k].first->choice;
  };
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (merged[i]) continue;
    std::size_t kept = i;
    if (trial_of(i).flow_trial || trial_of(i).order_trial) {
      // Every trial of this entry at this size, in the order they were prepared.
      std::vector<std::size_t> group{i};
      for (std::size_t k = i + 1; k < points.size(); ++k)
        if (!merged[k] && points[k].first->run == points[i].first->run &&
            points[k].second == points[i].second) {
          group.push_back(k);
          merged[k] = 1;
        }
      if (group.size() < 2)
        throw std::logic_error("settle_trials: " + points[i].first->run->label + " has one trial");
      // A failure is reported (a bug of mtsim before any other); otherwise the fastest, the
      // first on a tie (message flow control, step order). A refused trial is not a candidate.
      std::optional<std::size_t> failed;
      std::optional<std::size_t> fastest;
      for (const std::size_t k : group) {
        const RunResult& r = results[k];
        if (!r.trial_refused.empty()) continue;
        if (run_failed(r)) {
          if (!failed || (r.internal_error && !results[*failed].internal_error)) failed = k;
        } else if (!fastest || r.completion_cycles < results[*fastest].completion_cycles) {
          fastest = k;
        }
      }
      if (!failed && !fastest)
        throw std::logic_error("settle_trials: every trial of " + points[i].first->run->label +
                               " was refused");
      kept = failed ? *failed : *fastest;
      RunResult& r = results[kept];
      const NicChoice& choice = trial_of(kept);
      std::vector<std::string> parts;
      if (!r.nic_choice.empty()) parts.push_back(r.nic_choice);
      // Each auto key's part: the kept run against the best run of its other value.
      const auto best_other = [&](auto differs) {
        std::optional<std::size_t> best;
        for (const std::size_t k : group)
          if (differs(trial_of(k)) && results[k].trial_refused.empty() && !run_failed(results[k]) &&
              (!best || results[k].completion_cycles < results[*best].completion_cycles))
            best = k;
        return best;
      };
      if (!run_failed(r) && choice.flow_trial) {
        const auto other =
            best_other([&](const NicChoice& c) { return c.flow_control != choice.flow_control; });
        if (other)
          parts.push_back(flow_trial_text(choice.flow_control, r.completion_cycles,
                                          results[*other].completion_cycles));
      }
      if (!run_failed(r) && choice.order_trial) {
        std::string refused;
        for (const std::size_t k : group)
          if (trial_of(k).flow_control == choice.flow_control &&
              trial_of(k).table_order != choice.table_order)
            refused = results[k].trial_refused;
        const auto other = best_other([&](const NicChoice& c) {
          return c.flow_control == choice.flow_control && c.table_order != choice.table_order;
        });
        if (other || !refused.empty())
          parts.push_back(order_trial_text(choice.table_order, r.completion_cycles,
                                           other ? results[*other].completion_cycles : 0, refused));
      }
      r.nic_choice.clear();
      for (const std::string& part : parts)
        r.nic_choice += (r.nic_choice.empty() ? "" : ", ") + part;
    }
    out.points.push_back(points[kept]);
    out.results.push_back(std::move(results[kept]));
  }
  return out;
}

}  // namespace mt
