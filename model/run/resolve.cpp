#include "model/run/resolve.h"

#include <optional>

#include "model/params/nic_rules.h"
#include "model/sched/scheduler_build.h"

namespace mt {

std::vector<FlowControl> flow_trials(const NicConfig& nic) {
  switch (nic.flow_control) {
    case FlowControlChoice::kAuto:
      return {FlowControl::kMessage, FlowControl::kPacket};
    case FlowControlChoice::kMessage:
      return {FlowControl::kMessage};
    case FlowControlChoice::kPacket:
      break;
  }
  return {FlowControl::kPacket};
}

std::vector<NicTrial> nic_trials(const NicConfig& nic, const HostTiming& host) {
  std::vector<NicTrial> trials;
  for (const FlowControl flow : flow_trials(nic)) {
    const NicChoice choice = choose_nic_mode(nic, host, flow);
    if (choice.order_trial) {
      trials.emplace_back(flow, TableOrder::kStep);
      trials.emplace_back(flow, TableOrder::kPlanned);
    } else {
      const bool planned =
          choice.issue == IssueMode::kHardware && nic.scheduler_table_order == TableOrder::kPlanned;
      trials.emplace_back(flow, planned ? TableOrder::kPlanned : TableOrder::kStep);
    }
  }
  return trials;
}

NicChoice choose_nic_mode(const NicConfig& nic, const HostTiming& host, const NicTrial& trial) {
  NicChoice choice;
  choice.flow_trial = nic.flow_control == FlowControlChoice::kAuto;
  choice.flow_control = choice.flow_trial ? trial.flow : flow_trials(nic).front();
  choice.table_order = trial.order;
  // Both table orders are tried where a planned table may run: under hardware issue, allowed.
  const auto with_order_trial = [&nic](NicChoice c) {
    c.order_trial = nic.scheduler_table_order == TableOrder::kAuto &&
                    c.issue == IssueMode::kHardware && planned_table_allowed(nic);
    return c;
  };
  if (nic.issue != IssueChoice::kAuto) {
    choice.issue =
        nic.issue == IssueChoice::kHardware ? IssueMode::kHardware : IssueMode::kSoftware;
    return with_order_trial(choice);
  }
  std::string why;
  if (nic.scheduler == SchedulerImpl::kRtl) {
    choice.issue = IssueMode::kHardware;
    why = "nic.scheduler rtl";
  } else {
    const std::uint64_t per_message =
        host.message_cycles +
        host.doorbell_cycles / static_cast<std::uint64_t>(host.doorbell_batch);
    const bool slow_host =
        per_message + host.notify_cycles > static_cast<std::uint64_t>(nic.decision_latency_cycles);
    choice.issue = slow_host ? IssueMode::kHardware : IssueMode::kSoftware;
    why = "host " + std::to_string(per_message) + " cycles per message + " +
          std::to_string(host.notify_cycles) + " to learn of an arrival " +
          (slow_host ? "> " : "<= ") + "scheduler " + std::to_string(nic.decision_latency_cycles);
  }
  choice.chosen = std::string(to_string(choice.issue)) + " issue (" + why + ")";
  return with_order_trial(choice);
}

std::string flow_trial_text(FlowControl kept, std::uint64_t kept_cycles,
                            std::uint64_t other_cycles) {
  const bool message = kept == FlowControl::kMessage;
  return std::string(to_string(kept)) +
         " flow control (tried both: " + std::to_string(kept_cycles) + " cycles against " +
         std::to_string(other_cycles) + " with " + (message ? "packet" : "message") + ")";
}

std::string order_trial_text(TableOrder kept, std::uint64_t kept_cycles, std::uint64_t other_cycles,
                             const std::string& refused) {
  if (!refused.empty())
    return std::string(to_string(kept)) + " table order (planned: " + refused + ")";
  const bool planned = kept == TableOrder::kPlanned;
  return std::string(to_string(kept)) + " table order (tried both: " + std::to_string(kept_cycles) +
         " cycles against " + std::to_string(other_cycles) + " with " +
         (planned ? "step" : "planned") + ")";
}

NicSettings nic_settings(const NicConfig& nic, const RouterConfig& router, FlowControl flow) {
  NicSettings s;
  s.flow_control = flow;
  s.reduce_elems_per_cycle = nic.reduce_elems_per_cycle;
  s.reduction = nic.reduction;
  s.port_binding = nic.port_binding;
  s.receive_port = nic.receive_port;
  s.tx_queue_packets = nic.tx_queue_packets;
  s.receive_vcs = nic.receive_vcs > 0 ? nic.receive_vcs : router.vcs;
  s.step_barrier = nic.step_barrier;
  s.packet_bytes = nic.packet_bytes;
  s.head_flit_bytes = nic.head_flit_bytes;
  s.flit_bytes = nic.flit_bytes;
  return s;
}

CostParams cost_params_for(const ScenarioConfig& scenario, const NicConfig& nic,
                           const HostConfig& host, const NicChoice& choice) {
  PointConfig point;  // the parts of the point the cost model reads
  point.router = scenario.router;
  point.nic = nic_settings(nic, scenario.router, choice.flow_control);
  point.issue.mode = choice.issue;
  point.issue.host = host_timing(host, scenario.clock_ghz);
  return cost_params_of(point);
}

PointConfig resolve(const ScenarioConfig& scenario, const NicConfig& nic, const HostConfig& host,
                    const NicChoice& choice, const Schedule& schedule, const Topology& topology) {
  // The loader refuses these at the file's key; a caller that builds the config itself meets
  // them here.
  if (const std::optional<NicRuleViolation> v = nic_rule_violation(nic, scenario.router, topology))
    throw SimulationConfigError(v->key + ": " + v->message);
  PointConfig point;
  point.scenario = scenario.name;
  point.clock_ghz = scenario.clock_ghz;
  point.watchdog_cycles = scenario.watchdog_cycles;
  point.elaboration_order = scenario.elaboration_order;
  point.granularity = scenario.granularity;
  point.router = scenario.router;
  point.nic = nic_settings(nic, scenario.router, choice.flow_control);
  point.issue.mode = choice.issue;
  point.issue.host = host_timing(host, scenario.clock_ghz);
  point.issue.host_preset = host.preset;
  SchedulerSettings& scheduler = point.issue.scheduler;
  scheduler.impl = nic.scheduler;
  // Step order where steps are link-disjoint and each flow sends one chunk (MultiTree: step
  // order keeps its trees apart; a flow of several chunks is ordered by its own dependencies,
  // and step order would only hold the others back), and always under the step barrier (which
  // starts steps strictly in order: it could not take a later step's grant).
  // A planned table is in issue-time order, not step order (nic_rule_violation refuses step
  // order on with it).
  scheduler.planned_table_order =
      choice.issue == IssueMode::kHardware && choice.table_order == TableOrder::kPlanned;
  // Tables are measured against the nic_sched build; an auto order's planned trial is refused
  // before it runs where its tables do not fit it (settle_trials keeps the step trial then).
  if (choice.issue == IssueMode::kHardware)
    scheduler.table_capacity = scheduler_build().table_capacity();
  scheduler.planned_trial = scheduler.planned_table_order && choice.order_trial;
  scheduler.step_order =
      nic.step_order == StepOrderChoice::kOn ||
      (nic.step_order == StepOrderChoice::kAuto && !scheduler.planned_table_order &&
       (nic.step_barrier ||
        (flows_send_one_chunk(schedule) && steps_share_no_link(schedule, topology))));
  scheduler.decision_latency_cycles = nic.decision_latency_cycles;
  scheduler.depth = nic.scheduler_depth;
  scheduler.window = nic.scheduler_window;
  scheduler.early_request = nic.scheduler_early_request;
  scheduler.per_port_grants = nic.port_binding == PortBinding::kAny &&
                              nic.scheduler_any_port_grants == AnyPortGrants::kPerPort;
  scheduler.network_cycles_per_tick =
      nic.scheduler_clock_ghz > 0 ? scenario.clock_ghz / nic.scheduler_clock_ghz : 1.0;
  scheduler.watchdog_limit = nic.scheduler_watchdog_ticks;
  scheduler.watchdog_tick_cycles = nic.scheduler_watchdog_tick_cycles;
  point.data.dtype = scenario.collective.dtype;
  point.data.verify = scenario.collective.verify_data;
  point.data.max_data_bytes = scenario.collective.max_data_bytes;
  point.energy = energy_params(scenario.energy);
  return point;
}

PointConfig resolve(const ScenarioConfig& scenario, const Schedule& schedule,
                    const Topology& topology) {
  if (scenario.nic.issue == IssueChoice::kAuto ||
      scenario.nic.flow_control == FlowControlChoice::kAuto)
    throw SimulationConfigError(
        "nic.issue and nic.flow_control auto are decided per point by the run layer "
        "(model/run/resolve.h, prepare.h); a point needs decided modes");
  // A table order of auto takes its first trial, step: trying both is the run layer's
  // (settle_trials), and a planned table needs run_point's plan.
  const HostTiming host = host_timing(scenario.host, scenario.clock_ghz);
  const NicChoice choice =
      choose_nic_mode(scenario.nic, host, nic_trials(scenario.nic, host).front());
  return resolve(scenario, scenario.nic, scenario.host, choice, schedule, topology);
}

RunResult simulate(const ScenarioConfig& scenario, const Topology& topology,
                   const Schedule& schedule, std::uint64_t bytes, const SchedulerFactory& factory) {
  return simulate(resolve(scenario, schedule, topology), topology, schedule, bytes, factory);
}

}  // namespace mt
