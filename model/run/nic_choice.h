#pragma once
// `nic.issue: auto` and `nic.flow_control: auto`: the NIC mode a point runs with, chosen before it
// is simulated (the one place this policy lives).

#include <string>

#include "model/config/scenario_config.h"

namespace mt {

/// The NIC a point runs with and what auto chose.
struct NicChoice {
  NicConfig nic;  ///< the entry's NIC with issue and flow_control resolved (never kAuto)
  /// What auto chose and why, e.g. "software issue (host 0 cycles per message <= scheduler 2),
  /// message flow control"; empty when neither key was auto.
  std::string chosen;
};

/// Resolves `nic`'s auto keys (measured, README "Choosing the NIC mode"):
/// - flow_control auto -> message: 1.01-1.34x over packet flow control in 11 of 12 measured cases
///   (0.97x in the twelfth), and it lifts the 256/272 head-flit ceiling;
/// - issue auto -> hardware when nic.scheduler is rtl (the co-simulated scheduler must issue) or
///   the host takes longer per message than the scheduler's decision (software_issue_cycles >
///   decision_latency_cycles); software otherwise: with message flow control a host that issues
///   as soon as a message's dependencies arrive was as fast as the table-driven scheduler or
///   faster (0.97-1.03x) in every case measured but MultiTree at 32 KiB on the 4x4 torus (5%).
/// nic.step_order auto is resolved later, by the system, from the schedule's links.
NicChoice choose_nic_mode(const NicConfig& nic);

}  // namespace mt
