#pragma once
// Co-simulation of the RTL NIC scheduler: a CycleScheduler engine that drives the Verilated
// rtl/nic_sched through its pins (clock, table write port, arrival lanes, port ready levels) and
// reads its grants back. HardwareScheduler runs it from the NIC exactly like the C++
// SchedulerModel, ticking it only in cycles where a decision can change, so `nic.scheduler: rtl`
// and `nic.scheduler: tlm` (with `nic.issue: hardware`) give identical cycle counts.
// Verilator stays behind a pimpl: including this header needs no Verilator include path.

#include <memory>
#include <vector>

#include "model/nic/schedule_table.h"
#include "model/nic/scheduler_model.h"
#include "model/sim/system.h"

namespace mt {

/// Parameters the Verilated nic_sched was built with (CMake MT_RTL_* cache variables).
struct RtlBuildParams {
  int nodes = 0;             ///< Nodes: peer ids
  int ports = 0;             ///< Ports: issue slots per cycle
  int depth = 0;             ///< Depth: table capacity, entries
  int chunks = 0;            ///< Chunks: chunk ids
  int flows = 0;             ///< Flows: flow ids
  int steps = 0;             ///< Steps: schedule steps
  int counters = 0;          ///< Counters: arrival counters
  int max_count = 0;         ///< MaxCount: largest counter threshold
  int arrival_lanes = 0;     ///< ArrivalLanes: arrivals accepted per cycle
  int decision_latency = 0;  ///< DecisionLatency, cycles
  /// Entry layout of the build (TableFormat::make of the parameters above).
  TableFormat format() const;
};

/// The parameters of the linked Verilated build.
RtlBuildParams rtl_build_params();

/// CycleScheduler over one instance of the Verilated nic_sched.
class RtlCycleScheduler : public CycleScheduler {
 public:
  /// Throws std::invalid_argument when `config` does not fit the build (more ports, counters or
  /// entries than the RTL was built with, or another decision latency); the message names the
  /// CMake variable to change.
  explicit RtlCycleScheduler(const SchedulerModelConfig& config);
  ~RtlCycleScheduler() override;
  RtlCycleScheduler(const RtlCycleScheduler&) = delete;
  RtlCycleScheduler& operator=(const RtlCycleScheduler&) = delete;

  /// Clears the RTL (clear_i for one cycle) and writes `table` through the write port, one entry
  /// per clock. Throws TableError when a field does not fit the build's widths and
  /// std::invalid_argument when the table is larger than the build's depth.
  void load(const std::vector<TableEntry>& table) override;
  /// Queued for the next tick() on one arrival lane; throws std::runtime_error from tick() when
  /// more arrivals than lanes are presented in one cycle.
  void on_arrival(int counter) override;
  void set_port_ready(int port, bool ready) override;
  /// One clock: presents the inputs, reads the grants (they depend on registers only), then
  /// applies the rising edge.
  std::vector<IssueCommand> tick() override;
  bool done() const override;
  int decision_latency_cycles() const override;

  /// Clock cycles the RTL has run (loading included).
  std::uint64_t clocks() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// SchedulerFactory for simulate(): every NIC gets a HardwareScheduler around an
/// RtlCycleScheduler (`nic.scheduler: rtl`).
SchedulerFactory make_rtl_scheduler_factory();

}  // namespace mt
