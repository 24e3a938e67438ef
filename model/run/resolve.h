#pragma once
// The one resolution step: a scenario and one of its algorithm entries become the PointConfig a
// point runs with (model/params/point_config.h), every `auto` decided here and nowhere else:
// - `nic.issue: auto` by rule, and `nic.flow_control: auto` and `nic.scheduler_table_order:
//   auto` by trial (the point is prepared and simulated with each flow control and table order
//   and the faster run is kept: settle_trials in prepare.h), before the schedule is built
//   (builders size their schedules by the NIC);
// - `nic.step_order: auto` from the built schedule's links;
// - `nic.receive_vcs: 0` as router.vcs, the host's times in cycles of the scenario's clock.

#include <cstdint>
#include <string>
#include <vector>

#include "model/collective/schedule.h"
#include "model/params/point_config.h"
#include "model/params/scenario_config.h"
#include "model/sim/run_result.h"
#include "model/sim/system.h"
#include "model/topology/topology.h"

namespace mt {

/// The issue mode and flow control a point runs with, and what auto chose.
struct NicChoice {
  IssueMode issue = IssueMode::kSoftware;           ///< never auto
  FlowControl flow_control = FlowControl::kPacket;  ///< never auto
  /// What auto chose and why, e.g. "software issue (host 0 cycles per message <= scheduler 2)";
  /// the flow control's part is added once its trials have run (see settle_trials). Empty
  /// when neither key was auto.
  std::string chosen;
  /// flow_control was auto: this is one of its trials (the point runs once per flow control).
  bool flow_trial = false;
  /// Hardware issue: the order of each node's table (never auto; step under software issue).
  TableOrder table_order = TableOrder::kStep;
  /// scheduler_table_order was auto: this is one of its two trials (step, planned).
  bool order_trial = false;
};

/// The flow controls a point of an entry with `nic` runs with: both (message first) when
/// flow_control is auto, otherwise the one it names.
std::vector<FlowControl> flow_trials(const NicConfig& nic);

/// One way a point of an entry is run: a flow control and a table order, neither auto.
struct NicTrial {
  NicTrial(FlowControl f, TableOrder o = TableOrder::kStep) : flow(f), order(o) {}
  FlowControl flow;
  TableOrder order;
  bool operator==(const NicTrial& o) const { return flow == o.flow && order == o.order; }
};

/// The trials a point of an entry with `nic` (its host's times `host`) runs: each of
/// flow_trials(nic), and with each, under hardware issue (choose_nic_mode), both table orders
/// (step first) when scheduler_table_order is auto and a planned table is allowed (no step
/// barrier, step_order not true), otherwise the order it names (step under software issue).
std::vector<NicTrial> nic_trials(const NicConfig& nic, const HostTiming& host);

/// Decides `nic`'s issue and flow control for a host with `host`'s times, with `trial` (one of
/// nic_trials(nic, host)) as the flow control and table order:
/// - issue auto -> hardware when nic.scheduler is rtl (the co-simulated scheduler must issue) or
///   the host is slower than the scheduler: its time per message (message plus doorbell cycles)
///   plus its time to learn of an arrival exceeds the scheduler's decision latency; software
///   otherwise (a free host: with message flow control a host that issues as soon as a message's
///   dependencies arrive was as fast as the table-driven scheduler or faster in docs/beyond.md
///   "Choosing the NIC mode");
/// - flow_control auto -> `trial`. No rule picks it: message flow control was 1.00-1.34x faster
///   in most measured cases and lifts the 256/272 head-flit ceiling, but lost 1.19x on BiGraph
///   at 64 KiB (whole messages wait at one-port nodes' receive ports), so each point tries both.
NicChoice choose_nic_mode(const NicConfig& nic, const HostTiming& host, const NicTrial& trial);

/// The flow-control part of a choice once both trials ran, `kept` (taking `kept_cycles`) against
/// the other flow control (`other_cycles`): "packet flow control (tried both: 9338 cycles against
/// 11013 with message)".
std::string flow_trial_text(FlowControl kept, std::uint64_t kept_cycles,
                            std::uint64_t other_cycles);

/// The table-order part of a choice once both trials ran: "planned table order (tried both: 2230
/// cycles against 2272 with step)"; with `refused` (why the planned trial was not run: its
/// tables do not fit the nic_sched build) "step table order (planned: REFUSED)".
std::string order_trial_text(TableOrder kept, std::uint64_t kept_cycles, std::uint64_t other_cycles,
                             const std::string& refused = "");

/// The NIC data path of `nic` beside `router` with flow control `flow` (receive_vcs 0 ->
/// router.vcs).
NicSettings nic_settings(const NicConfig& nic, const RouterConfig& router, FlowControl flow);

/// The cost model's parameters of an entry running `nic` and `host` as `choice` decided, before
/// its schedule is built (what `auto` ranks its candidates with): the network, the NIC and,
/// under software issue, the host.
CostParams cost_params_for(const ScenarioConfig& scenario, const NicConfig& nic,
                           const HostConfig& host, const NicChoice& choice);

/// The point of `scenario` running `nic` and `host` (an entry's: the scenario's with its
/// overrides) as `choice` decided, for `schedule` on `topology` (step order auto decided from
/// its links and flows).
PointConfig resolve(const ScenarioConfig& scenario, const NicConfig& nic, const HostConfig& host,
                    const NicChoice& choice, const Schedule& schedule, const Topology& topology);

/// The point of `scenario` with its own `nic`, for callers that build a ScenarioConfig and a
/// schedule themselves (tests, tools): issue and flow control must be decided (not auto), else
/// SimulationConfigError; a table order of auto runs its first trial, the step table.
PointConfig resolve(const ScenarioConfig& scenario, const Schedule& schedule,
                    const Topology& topology);

/// resolve(scenario, schedule, topology), then simulate() the point (see model/sim/system.h).
RunResult simulate(const ScenarioConfig& scenario, const Topology& topology,
                   const Schedule& schedule, std::uint64_t bytes,
                   const SchedulerFactory& factory = SchedulerFactory());

}  // namespace mt
