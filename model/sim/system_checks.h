#pragma once
// The inputs a simulation refuses before it runs anything (SimulationConfigError naming the first
// router/NIC parameter, link or schedule message it cannot run): one set of checks for the
// packet-level System and the message-granularity model (model/flow/).

#include <cstdint>
#include <string>

#include "model/collective/schedule.h"
#include "model/params/point_config.h"
#include "model/sim/system.h"
#include "model/topology/topology.h"

namespace mt {

/// SimulationConfigError(message) unless `condition`.
void sim_require(bool condition, const std::string& message);
/// `clock_ghz` when it is in the loader's [kMinClockGhz, kMaxClockGhz], else
/// SimulationConfigError (checked before the clock period is built from it).
double checked_clock_ghz(double clock_ghz);
/// SimulationConfigError naming the first router/NIC parameter, link or schedule message the
/// simulator cannot run.
void validate_system_inputs(const PointConfig& config, const Topology& topology,
                            const Schedule& schedule, std::uint64_t bytes);

}  // namespace mt
