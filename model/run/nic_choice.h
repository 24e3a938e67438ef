#pragma once
// `nic.issue: auto` and `nic.flow_control: auto`: the NIC mode a point runs with, chosen from its
// schedule and size before it is simulated (the one place this policy lives).

#include <cstdint>
#include <string>

#include "model/collective/schedule.h"
#include "model/config/scenario_config.h"

namespace mt {

/// Smallest mean message size at which `nic.issue: auto` takes hardware issue, bytes. Measured
/// (README, "The co-designed NIC on the bandwidth-optimal schedules"): from 1 KiB messages on the
/// co-designed NIC wins; below, its per-message decision and grant mask cost more than a host that
/// issues the moment a dependency arrives (disjoint_rings on the 4x4 torus at 256 KiB: 8192
/// against 8312 cycles at 1 KiB messages, 8552 against 8312 at 512 B).
constexpr std::uint64_t kHardwareIssueMinMessageBytes = 1024;

/// The NIC a point runs with and what auto chose.
struct NicChoice {
  NicConfig nic;  ///< the entry's NIC with issue and flow_control resolved (never kAuto)
  /// What auto chose and why, e.g. "hardware issue (mean message 2KiB >= 1KiB), message flow
  /// control"; empty when neither key was auto.
  std::string chosen;
};

/// Mean payload of `schedule`'s messages at `bytes` per node, bytes (0 without messages).
std::uint64_t mean_message_bytes(const Schedule& schedule, std::uint64_t bytes);

/// Resolves `nic`'s auto keys for `schedule` at `bytes` per node:
/// - flow_control auto -> message: with the issue mode fixed, message flow control was never
///   slower than packet flow control beyond noise (1.00-1.07x, README "Beyond MultiTree"), and it
///   lifts the 256/272 head ceiling;
/// - issue auto -> hardware when nic.scheduler is rtl (the co-simulated scheduler must issue) or
///   the mean message is at least kHardwareIssueMinMessageBytes, software otherwise.
/// nic.step_order auto is resolved later, by the system, from the schedule's links.
NicChoice choose_nic_mode(const NicConfig& nic, const Schedule& schedule, std::uint64_t bytes);

}  // namespace mt
