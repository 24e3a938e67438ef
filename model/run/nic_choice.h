#pragma once
// `nic.issue: auto` and `nic.flow_control: auto`: the NIC mode a point runs with (the one place
// this policy lives). The issue mode is chosen by rule before simulation; the flow control by
// trial: the point is prepared and simulated with each flow control and the faster run is kept.

#include <cstdint>
#include <string>
#include <vector>

#include "model/params/scenario_config.h"

namespace mt {

/// The NIC a point runs with and what auto chose.
struct NicChoice {
  NicConfig nic;  ///< the entry's NIC with issue and flow_control resolved (never kAuto)
  /// What auto chose and why, e.g. "software issue (host 0 cycles per message <= scheduler 2)";
  /// the flow control's part is added once its trials have run (see settle_flow_trials). Empty
  /// when neither key was auto.
  std::string chosen;
  /// flow_control was auto: this is one of its trials (the point runs once per flow control).
  bool flow_trial = false;
};

/// The flow controls a point of an entry with `nic` runs with: both (message first) when
/// flow_control is auto, otherwise the one it names.
std::vector<FlowControl> flow_trials(const NicConfig& nic);

/// Resolves `nic`'s auto keys, with `trial` (one of flow_trials(nic)) as the flow control:
/// - issue auto -> hardware when nic.scheduler is rtl (the co-simulated scheduler must issue) or
///   the host takes longer per message than the scheduler's decision (software_issue_cycles >
///   decision_latency_cycles); software otherwise: with message flow control a host that issues
///   as soon as a message's dependencies arrive was as fast as the table-driven scheduler or
///   faster (0.97-1.03x) in every case measured but MultiTree at 32 KiB on the 4x4 torus (5%)
///   (docs/beyond.md "Choosing the NIC mode");
/// - flow_control auto -> `trial`. No rule picks it: message flow control was 1.00-1.34x faster
///   in most measured cases and lifts the 256/272 head-flit ceiling, but lost 1.19x on BiGraph
///   at 64 KiB (whole messages wait at one-port nodes' receive ports), so each point tries both.
/// nic.step_order auto is resolved later, by the system, from the schedule's links.
NicChoice choose_nic_mode(const NicConfig& nic, FlowControl trial);

/// The flow-control part of a choice once both trials ran, `kept` (taking `kept_cycles`) against
/// the other flow control (`other_cycles`): "packet flow control (tried both: 9338 cycles against
/// 11013 with message)".
std::string flow_trial_text(FlowControl kept, std::uint64_t kept_cycles,
                            std::uint64_t other_cycles);

}  // namespace mt
