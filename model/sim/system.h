#pragma once
// The SystemC design of one scenario point: a Router per topology vertex that forwards packets
// (every endpoint of a direct topology, every switch of a switched one), a Link per directed
// topology link (plus zero-latency local channels between each NIC port and its router on direct
// topologies), a Nic per endpoint loaded with its part of the schedule, and a Watchdog.

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/collective/schedule.h"
#include "model/core/error.h"
#include "model/params/point_config.h"
#include "model/sched/schedule_table.h"
#include "model/sched/scheduler.h"
#include "model/sched/scheduler_model.h"
#include "model/sim/run_result.h"
#include "model/topology/topology.h"

namespace mt {

/// Thrown for a configuration the simulator cannot run (bad router/NIC parameters, a schedule that
/// does not fit the topology, an invalid source route). Stalls and data mismatches are not
/// exceptions: they are reported in RunResult::error.
class SimulationConfigError : public Error {
 public:
  using Error::Error;
};

/// A planned table of `nic.scheduler_table_order: auto` does not fit the nic_sched build
/// (SchedulerSettings::table_capacity, planned_trial): that trial is not simulated, and the run
/// layer keeps the step table's (settle_trials).
class PlannedTableRefused : public SimulationConfigError {
 public:
  using SimulationConfigError::SimulationConfigError;
};

/// How a refused planned table's reason starts, before what the build lacks.
inline const std::string kPlannedMisfit = "its tables do not fit the nic_sched build: ";

/// Builds the scheduler of one NIC when nic.issue is "hardware": `node` is the endpoint, `table`
/// its packed schedule table (issue order; program index == table index), `config` the engine
/// parameters (ports, decision latency, step order from the scenario, counters and depth from the
/// packer) and `format` the field widths shared by every node. The default (an empty factory)
/// is make_model_scheduler(table, config): the C++ SchedulerModel. The RTL co-simulation returns
/// a HardwareScheduler around its Verilated engine.
using SchedulerFactory = std::function<std::unique_ptr<Scheduler>(
    int node, const std::vector<TableEntry>& table, const SchedulerModelConfig& config,
    const TableFormat& format)>;

/// Builds the SystemC design for one point (`config`, every choice decided: model/run/resolve.h
/// makes it), runs it to completion and returns the result. `bytes`: all-reduce size per node
/// buffer, bytes (4-byte elements). NIC ports per node are topology.ports_per_node(). `factory`
/// builds every NIC's scheduler under hardware issue (an empty one: the C++ SchedulerModel).
/// Elaborates SystemC: call at most once per process. The design it ran is kept until the
/// process ends (it is never torn down; see system.cpp).
RunResult simulate(const PointConfig& config, const Topology& topology, const Schedule& schedule,
                   std::uint64_t bytes, const SchedulerFactory& factory = SchedulerFactory());

/// The elaborated design. simulate() is the usual entry point; tests may build a System to look
/// at its parts before run().
class System {
 public:
  System(const PointConfig& config, const Topology& topology, const Schedule& schedule,
         std::uint64_t bytes, const SchedulerFactory& factory = SchedulerFactory());
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
