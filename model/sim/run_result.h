#pragma once
// The outcome of simulating one scenario point (one algorithm at one size).

#include <cstdint>
#include <string>
#include <vector>

#include "model/data/data_store.h"
#include "model/params/scenario_config.h"
#include "model/sim/energy.h"

namespace mt {

/// Traffic on one directed link during a run.
struct LinkStat {
  int link = 0;             ///< directed link id
  int src = 0;              ///< vertex the link leaves
  int dst = 0;              ///< vertex the link enters
  std::uint64_t bytes = 0;  ///< bytes serialised (payload + headers)
  double utilization = 0;   ///< busy cycles / completion cycles, 0..1
};

/// Who issued a point's messages (`nic_scheduler` in results).
enum class Issuer {
  kHost,  ///< "host": software issue
  kTlm,   ///< "tlm": hardware issue by the C++ scheduler model
  kRtl,   ///< "rtl": hardware issue by the Verilated nic_sched
};
template <>
struct EnumNames<Issuer> {
  static constexpr std::array<const char*, 3> kNames{"host", "tlm", "rtl"};
};

/// One scenario point. Cycles are cycles of the clock named by clock_ghz.
struct RunResult {
  std::string scenario;
  std::string topology;   ///< topology spec, e.g. "torus:4x4"
  std::string algorithm;  ///< label of the algorithm run
  std::string schedule;   ///< schedule actually built, e.g. "auto:disjoint_rings(pipeline=2)"
  /// What nic.issue / nic.flow_control auto chose for this point (model/run/resolve.h), e.g.
  /// "software issue (host 0 cycles per message <= scheduler 2), message flow control (tried
  /// both: 2233 cycles against 2301 with packet)"; empty when not auto.
  std::string nic_choice;
  /// The NIC the point ran on (the entry's, auto modes decided): software or hardware issue,
  /// packet or message flow control, and who issued (the host, the C++ scheduler model or the
  /// Verilated nic_sched).
  IssueMode nic_issue = IssueMode::kSoftware;
  FlowControl nic_flow_control = FlowControl::kPacket;
  Issuer nic_scheduler = Issuer::kHost;
  /// Software issue: the host that issued (its preset and its times in cycles, overrides
  /// applied; `host` in results JSON, absent under hardware issue).
  HostPreset host_preset = HostPreset::kFree;
  HostTiming host;
  /// Hardware issue: the NIC scheduler's clock, GHz (nic.scheduler_clock_ghz resolved: the
  /// network's clock_ghz unless slower; `scheduler_clock_ghz` in results JSON).
  double scheduler_clock_ghz = 0;
  /// Hardware issue: whether the scheduler issued each node's table in step order
  /// (nic.step_order with `auto` decided for this schedule; false at message granularity,
  /// which does not model it; `scheduler_step_order` in results JSON).
  bool scheduler_step_order = false;
  /// Hardware issue: whether each node's table was in the order a free host issues the schedule
  /// (nic.scheduler_table_order planned; false at message granularity, which has no tables;
  /// `scheduler_table_order` "planned" or "step" in results JSON).
  bool scheduler_planned_table = false;
  int nodes = 0;
  int ports = 0;            ///< NIC ports per node used by this run
  std::uint64_t bytes = 0;  ///< all-reduce size per node, bytes
  std::uint64_t completion_cycles = 0;
  double clock_ghz = 1.0;
  /// The model that produced it: the packet-level cycle model or the message-granularity one.
  Granularity granularity = Granularity::kPacket;
  double completion_ns = 0;
  double bound_cycles = 0;          ///< bandwidth lower bound, cycles
  double latency_bound_cycles = 0;  ///< latency lower bound (latency_bound_cycles()), cycles
  /// max(bound_cycles, latency_bound_cycles) / completion_cycles
  double efficiency = 0;
  double estimate_cycles = 0;  ///< the cost model's estimate (ScheduleEstimate::cycles()), cycles
  int steps = 0;               ///< schedule time steps
  std::uint64_t messages = 0;  ///< schedule messages executed
  std::uint64_t packets = 0;   ///< packets injected
  /// Packets that waited in a router behind a packet of another flow (tree / ring) for the same
  /// output: inter-flow contention, counted once per packet per router (Router::cross_flow_waits).
  std::uint64_t cross_flow_waits = 0;
  /// Receive staging (Op::apply_after): the most bytes of staged messages one NIC held at once,
  /// over all NICs (Nic::max_staged_bytes); 0 when the schedule stages nothing.
  std::uint64_t max_staged_bytes = 0;
  /// Hardware issue: what the packed tables need per node (the largest node's): arrival counters
  /// and table entries, to compare with an RTL build's Counters (rtl/README.md); 0 otherwise.
  int table_counters = 0;
  int table_entries = 0;
  /// Hardware issue: what of the nic_sched build (SchedulerBuild, rtl/params/cosim.params) the
  /// tables need more of, as "Steps 512 < 519" (build, need); empty when they fit it.
  std::string table_misfit;
  /// A trial of `nic.scheduler_table_order: auto` that was not simulated, and why (its planned
  /// tables do not fit the nic_sched build); settle_trials drops such a result.
  std::string trial_refused;
  bool data_verified = false;            ///< every node's final buffer equals the exact reduction
  DataMode data_mode = DataMode::kFull;  ///< full, sampled (timing-only, sampled chunks) or off
  std::string error;                     ///< non-empty when the run failed (data mismatch, stall)
  /// The failure is a bug in mtsim, not in the input (an exception that is no mt::Error, a point
  /// process that died by a signal or returned no result): mtsim run then exits 3, not 1.
  bool internal_error = false;
  /// Energy of the all-reduce: what it did that costs energy, and its price by component with
  /// the scenario's `energy:` figures (docs/energy.md).
  EnergyCounts energy_counts;
  EnergyBreakdown energy;
  EnergyPreset energy_preset =
      EnergyPreset::kBoard;                       ///< `energy.preset` (figures may be overridden)
  std::vector<std::uint64_t> node_finish_cycles;  ///< per endpoint, cycle its last chunk was final
  std::vector<LinkStat> links;
  /// Per schedule message (index = message id): cycle its last packet was applied at the peer
  /// (0 when it never arrived).
  std::vector<std::uint64_t> message_arrival_cycles;
  /// Per schedule message: cycle its sender issued it (0 when it never was).
  std::vector<std::uint64_t> message_issue_cycles;
  double wall_seconds = 0;  ///< host time spent simulating
};

/// Whether a run fills RunResult::message_arrival_cycles and message_issue_cycles (traces,
/// planned tables, the parts of merged schedules read them): 16 bytes a message, 0.5 GB at
/// 4096-node MultiTree. The message-granularity model leaves them empty when they are not
/// wanted; the packet-level model fills them always.
enum class MessageCycles { kRecorded, kNotRecorded };

/// True when the run failed: it carries an error (stall, refused configuration, crashed process)
/// or its data check did not pass (a run without data check, data_mode "off", passes).
bool run_failed(const RunResult& run);

/// Completion of each part of a merged schedule (several all-reduces in one run): `op_begin` has
/// parts + 1 message ids (MergedSchedule::op_begin); part i's completion is the largest
/// message_arrival_cycles over ids [op_begin[i], op_begin[i+1]), cycles (0 for a part without
/// messages). Throws std::out_of_range when the result does not hold those messages (a failed
/// run, or one returned without its per-message cycles).
std::vector<std::uint64_t> last_arrival_cycles(const RunResult& run,
                                               const std::vector<int>& op_begin);

}  // namespace mt
