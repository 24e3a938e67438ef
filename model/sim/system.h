#pragma once
// The SystemC design of one scenario point: a Router per topology vertex that forwards packets
// (every endpoint of a direct topology, every switch of a switched one), a Link per directed
// topology link (plus zero-latency local channels between each NIC port and its router on direct
// topologies), a Nic per endpoint loaded with its part of the schedule, and a Watchdog.

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/collective/schedule.h"
#include "model/sim/run_result.h"
#include "model/sim/scenario_config.h"
#include "model/topology/topology.h"

namespace mt {

/// Thrown for a configuration the simulator cannot run (bad router/NIC parameters, a schedule that
/// does not fit the topology, an invalid source route). Stalls and data mismatches are not
/// exceptions: they are reported in RunResult::error.
class SimulationConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Builds the SystemC design for one scenario point, runs it to completion and returns the result.
/// `bytes`: all-reduce size per node buffer, bytes (4-byte elements). NIC ports per node are
/// topology.ports_per_node(). Elaborates SystemC: call at most once per process.
RunResult simulate(const ScenarioConfig& scenario, const Topology& topology,
                   const Schedule& schedule, std::uint64_t bytes);

/// The elaborated design. simulate() is the usual entry point; tests may build a System to look
/// at its parts before run().
class System {
 public:
  System(const ScenarioConfig& scenario, const Topology& topology, const Schedule& schedule,
         std::uint64_t bytes);
  ~System();
  System(const System&) = delete;
  System& operator=(const System&) = delete;

  /// Runs sc_start() until every NIC has finished or the watchdog fires; call once.
  RunResult run();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mt
