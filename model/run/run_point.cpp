#include "model/run/run_point.h"

#include <exception>
#include <new>

#include "model/collective/algorithm.h"
#include "model/flow/flow_sim.h"
#include "model/sched/scheduler_build.h"
#include "model/sim/system.h"

namespace mt {

namespace {

// The NIC a point ran on, as its result names it (RunResult::nic_issue and the next two).
void describe_nic(const PointConfig& config, RunResult& r) {
  r.nic_issue = config.issue.mode;
  r.nic_flow_control = config.nic.flow_control;
  r.nic_scheduler = config.issue.mode == IssueMode::kSoftware            ? Issuer::kHost
                    : config.issue.scheduler.impl == SchedulerImpl::kRtl ? Issuer::kRtl
                                                                         : Issuer::kTlm;
}

}  // namespace

PointConfig with_planned_tables(const PointConfig& config, const Topology& topology,
                                const Schedule& schedule, std::uint64_t bytes) {
  PointConfig point = config;
  if (config.issue.mode != IssueMode::kHardware || !config.issue.scheduler.planned_table_order ||
      config.granularity == Granularity::kMessage)
    return point;
  PointConfig host = config;
  host.granularity = Granularity::kMessage;
  host.issue.mode = IssueMode::kSoftware;
  host.issue.host = HostTiming{};
  host.issue.host_preset = HostPreset::kFree;
  host.data.verify = false;
  const std::string failed =
      "nic.scheduler_table_order planned: the free host's message-granularity run that plans "
      "the tables failed: ";
  RunResult plan;
  try {
    plan = simulate_messages(host, topology, schedule, bytes);
  } catch (const Error& e) {
    throw SimulationConfigError(failed + e.what());
  }
  if (!plan.error.empty()) throw SimulationConfigError(failed + plan.error);
  point.issue.scheduler.planned_issue = plan.message_issue_cycles;
  return point;
}

std::string schedule_name(const PreparedAlgorithm& p) {
  return p.schedule.algorithm == p.run->name ? schedule_label(p.run->name, p.run->params)
                                             : p.schedule.algorithm;
}

RunResult run_point(const ScenarioConfig& scenario, const PreparedAlgorithm& p, std::uint64_t bytes,
                    MessageCycles cycles) {
  const auto refused = [&](const std::string& why) {
    RunResult r = failed_result(scenario, p, bytes, "");
    r.trial_refused = why;
    return r;
  };
  // An auto order's planned trial whose schedule does not fit the build whatever its order
  // (chunks, steps, ...) is refused before its plan is made; its counters are known once packed.
  const SchedulerSettings& scheduler = p.config.issue.scheduler;
  if (scheduler.planned_trial && p.config.granularity == Granularity::kPacket) {
    const std::string lacks =
        schedule_misfit(p.schedule, p.topology->ports_per_node(), scheduler.table_capacity);
    if (!lacks.empty()) return refused(kPlannedMisfit + lacks);
  }
  try {
    RunResult r = p.config.granularity == Granularity::kMessage
                      ? simulate_messages(p.config, *p.topology, p.schedule, bytes, cycles)
                      : simulate(with_planned_tables(p.config, *p.topology, p.schedule, bytes),
                                 *p.topology, p.schedule, bytes, p.scheduler_factory);
    r.algorithm = p.run->label;
    r.schedule = schedule_name(p);
    r.nic_choice = p.choice.chosen;
    describe_nic(p.config, r);
    return r;
  } catch (const PlannedTableRefused& e) {  // an auto order's planned trial: the step one stays
    return refused(e.what());
  } catch (const std::exception& e) {
    return exception_result(scenario, p, bytes, e);
  }
}

RunResult exception_result(const ScenarioConfig& scenario, const PreparedAlgorithm& p,
                           std::uint64_t bytes, const std::exception& e) {
  if (dynamic_cast<const Error*>(&e) != nullptr) return failed_result(scenario, p, bytes, e.what());
  if (dynamic_cast<const std::bad_alloc*>(&e) != nullptr)  // too large for this machine
    return failed_result(scenario, p, bytes, "out of memory");
  // Every input error is an mt::Error: anything else is a bug of mtsim.
  RunResult r = failed_result(scenario, p, bytes, std::string("internal error: ") + e.what());
  r.internal_error = true;
  return r;
}

RunResult failed_result(const ScenarioConfig& scenario, const PreparedAlgorithm& p,
                        std::uint64_t bytes, const std::string& error) {
  RunResult r;
  r.scenario = scenario.name;
  r.topology = p.topology->name();
  r.algorithm = p.run->label;
  r.schedule = schedule_name(p);
  r.nodes = p.topology->nodes();
  r.ports = p.topology->ports_per_node();
  r.bytes = bytes;
  r.clock_ghz = scenario.clock_ghz;
  r.steps = p.schedule.num_steps;
  r.error = error;
  describe_nic(p.config, r);
  return r;
}

}  // namespace mt
