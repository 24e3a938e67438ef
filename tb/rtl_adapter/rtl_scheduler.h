#pragma once
// Co-simulation of the RTL NIC scheduler: a CycleScheduler engine that drives the Verilated
// rtl/nic_sched through its pins (clock, the table DMA stream, arrival lanes, the host doorbell,
// port ready levels) and reads its grants back. It plays the host: it holds the node's whole
// table and streams it into the RTL's ring buffer whenever tbl_ready_o allows. HardwareScheduler
// runs it from the NIC exactly like the C++ SchedulerModel, ticking it only while it is not idle
// (idle_o), so `nic.scheduler: rtl` and `nic.scheduler: tlm` (with `nic.issue: hardware`) give
// identical cycle counts. A tick whose edge would change only the idle flag's two flops (the
// design's busy term low, inputs held, the minimum step settled) is applied to those flops without
// evaluating the design; without a pin trace only.
// Verilator stays behind a pimpl: including this header needs no Verilator include path.

#include <memory>
#include <string>
#include <vector>

#include "model/sched/schedule_table.h"
#include "model/sched/scheduler_build.h"
#include "model/sched/scheduler_model.h"
#include "model/sim/system.h"

namespace mt {

/// Why a NIC with this table `depth`, `window` and `decision_latency` cannot run on the linked
/// build ("nic.scheduler_depth 16 but the Verilated nic_sched has Depth 32 (set ..., or build
/// with Depth=16 in a copy of rtl/params/cosim.params ...)"), or empty when it can.
std::string rtl_build_mismatch(int depth, int window, int decision_latency);

/// CycleScheduler over one instance of the Verilated nic_sched.
class RtlCycleScheduler : public CycleScheduler {
 public:
  /// Throws SchedulerError when `config` does not fit the build (more ports or counters
  /// than the RTL was built with, or another depth, window or decision latency); the message
  /// names the CMake variable to change.
  /// With `pin_trace`, writes every clock's pins there (tb/rtl_adapter/rtl_pin_trace.h).
  explicit RtlCycleScheduler(const SchedulerModelConfig& config,
                             const std::string& pin_trace = std::string());
  ~RtlCycleScheduler() override;
  RtlCycleScheduler(const RtlCycleScheduler&) = delete;
  RtlCycleScheduler& operator=(const RtlCycleScheduler&) = delete;

  /// Clears the RTL (clear_i for one cycle) and streams `table` into it until it is idle (the load
  /// cycles of SchedulerModel::load). Throws TableError when a field does not fit the build's
  /// widths.
  void load(const std::vector<TableEntry>& table) override;
  /// Queued for the next tick() on one arrival lane; throws SchedulerError from tick() when
  /// more arrivals than lanes are presented in one cycle.
  void on_arrival(int counter) override;
  /// Presented on the host doorbell lane in the next tick().
  void on_doorbell(int counter) override;
  void set_port_ready(int port, bool ready) override;
  void set_grant_ack(int port, bool ack) override;
  /// Presented on open_step_i (all ones for kAnyStep), held.
  void set_open_step(int step) override;
  void on_watchdog_tick() override;
  /// One clock: presents the inputs (and the next table entry), reads the registered grants,
  /// then applies the rising edge.
  std::vector<IssueCommand> tick() override;
  /// No input presented since the last tick, idle_o high and no table entry waiting for room.
  bool idle() const override;
  bool done() const override;
  /// err_o's cause and information (an entry index made whole again, or a counter id).
  SchedulerFault fault() const override;

  /// Clock cycles the RTL has run (loading included).
  std::uint64_t clocks() const;
  /// Of those, the quiet edges applied to the idle flag's flops without evaluating the design
  /// (0 with a pin trace, or where the Verilated model lacks the members the shortcut needs).
  std::uint64_t quiet_clocks() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// SchedulerFactory for simulate(): every NIC gets a HardwareScheduler around an
/// RtlCycleScheduler (`nic.scheduler: rtl`). With `pin_trace_dir`, node N's scheduler writes
/// its pin trace to `pin_trace_dir`/nodeN.pins (the folder must exist).
SchedulerFactory make_rtl_scheduler_factory(const std::string& pin_trace_dir = std::string());

}  // namespace mt
