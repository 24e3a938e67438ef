#pragma once
// One simulation point's configuration with every choice decided: what a System, its routers and
// NICs are built from. model/run/resolve.h makes it from a scenario and one of its algorithm
// entries (the entry's `nic:` overrides applied, every `auto` decided); no field here can say
// "auto" or "use the default".

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/collective/algorithm_config.h"
#include "model/collective/cost_model.h"
#include "model/data/data_store.h"
#include "model/params/energy_config.h"
#include "model/params/scenario_config.h"
#include "model/sched/host_scheduler.h"

namespace mt {

/// The NIC's data path: how messages become packets, how they are admitted and received.
struct NicSettings {
  FlowControl flow_control = FlowControl::kPacket;  ///< per-packet or per-message admission
  double reduce_elems_per_cycle = 32;               ///< reduction unit throughput, elements/cycle
  ReduceGranularity reduction = ReduceGranularity::kPacket;  ///< per packet or whole message
  PortBinding port_binding = PortBinding::kRoute;  ///< route: a message leaves by its route's port
  ReceivePort receive_port = ReceivePort::kAny;    ///< ejection port of a message
  int tx_queue_packets = 0;                        ///< transmit queue per port, packets (0: none)
  int receive_vcs = 1;        ///< VCs of a receive port (>= 1), sharing its buffer evenly
  bool step_barrier = false;  ///< steps strictly in order, a new one once every port is free
  int packet_bytes = 256;     ///< payload bytes per packet
  int head_flit_bytes = 16;   ///< header bytes of a head packet
  int flit_bytes = 16;        ///< flit size, bytes
};

/// The co-designed NIC scheduler of hardware issue.
struct SchedulerSettings {
  SchedulerImpl impl = SchedulerImpl::kTlm;  ///< the C++ model or the Verilated RTL
  bool step_order = true;                    ///< an entry never goes before earlier steps' ones
  int decision_latency_cycles = 2;           ///< input-to-grant latency, cycles (>= 2)
  int depth = 32;                            ///< table ring buffer, entries
  int window = 4;                            ///< issue window per port, entries
  bool early_request = true;           ///< ports request decision_latency_cycles before they free
  double network_cycles_per_tick = 1;  ///< its clock period in network cycles (>= 1)
  int watchdog_limit = 0;              ///< watchdog ticks to a stall error (0: off)
  int watchdog_tick_cycles = 1024;     ///< its cycles per watchdog tick (>= 1)
  /// Port binding any: the one queue's window grants up to one entry per requesting port per
  /// decision, oldest first to the lowest port (false: one grant per decision).
  bool per_port_grants = false;
  /// Each node's table in the order a free host issues the schedule (planned by a
  /// message-granularity run of the point) instead of step order; step order is then off.
  bool planned_table_order = false;
  /// With planned_table_order: per message id, the cycle the planning run issued it (run_point
  /// fills it for the point's size before it simulates; pack_schedule's planned_issue).
  std::vector<std::uint64_t> planned_issue;
  /// What the nic_sched build's tables hold, in its parameter names (SchedulerBuild::
  /// table_capacity; resolve sets it): the run's tables are measured against it
  /// (RunResult::table_misfit). Empty: not measured.
  std::vector<std::pair<std::string, long long>> table_capacity;
  /// With planned_table_order: the planned table is a trial of `scheduler_table_order: auto`,
  /// refused before the point is simulated (PlannedTableRefused) where it does not fit
  /// table_capacity.
  bool planned_trial = false;
};

/// Issue control of a point: the host (software issue) or the NIC scheduler (hardware issue).
struct IssueSettings {
  IssueMode mode = IssueMode::kSoftware;       ///< who issues
  HostTiming host;                             ///< software issue: the host's times, cycles
  HostPreset host_preset = HostPreset::kFree;  ///< the preset `host` starts from (results)
  SchedulerSettings scheduler;                 ///< hardware issue: the scheduler
};

/// What data a point moves and checks.
struct DataSettings {
  Dtype dtype = Dtype::kFp32;  ///< element type of the reduction
  bool verify = true;          ///< move and sum real data and check every node's result
  /// Above this buffer size data runs timing-only with sampled chunks still checked, bytes.
  std::uint64_t max_data_bytes = 64ull << 20;
};

/// Elements tracked per chunk when a point's data is sampled (DataMode::kSampled).
constexpr int kDataSamplesPerChunk = 4;
/// Largest total of all nodes' buffers simulated with full data (nodes x size), bytes.
constexpr std::uint64_t kMaxFullDataTotalBytes = 2ull << 30;

/// The data a point of `nodes` nodes at `bytes` per node tracks: none without `verify`; full
/// data keeps every node's whole buffer (plus in-flight snapshots), so above max_data_bytes or
/// past kMaxFullDataTotalBytes in all the run is timing-only with sampled chunks.
inline DataMode data_mode_of(const DataSettings& data, int nodes, std::uint64_t bytes) {
  if (!data.verify) return DataMode::kOff;
  if (bytes > data.max_data_bytes ||
      bytes * static_cast<std::uint64_t>(nodes) > kMaxFullDataTotalBytes)
    return DataMode::kSampled;
  return DataMode::kFull;
}

/// Everything one point runs with besides its topology, schedule and size.
struct PointConfig {
  std::string scenario;  ///< scenario name (results)
  /// The algorithm and its typed parameters the schedule was built from (its entry's params,
  /// read once); empty for a schedule file's entry and a schedule its caller built.
  std::optional<AlgorithmConfig> algorithm;
  double clock_ghz = 1.0;                          ///< clock of links, routers and NICs, GHz
  Granularity granularity = Granularity::kPacket;  ///< the packet-level or message model
  std::uint64_t watchdog_cycles = 1000000;         ///< no progress for this long -> error, cycles
  ElaborationOrder elaboration_order;              ///< creation order of the components (testing)
  RouterConfig router;
  NicSettings nic;
  IssueSettings issue;
  DataSettings data;
  EnergyParams energy;  ///< the prices of the events that cost energy
};

/// The cost model's parameters of a network with `router` and a NIC with `nic` (packet, head
/// and flit bytes; message flow control: one head per message; port binding): what results'
/// estimate and bounds and `auto`'s ranking use.
inline CostParams cost_params_of(const RouterConfig& router, const NicSettings& nic) {
  CostParams cost;
  cost.per_hop_cycles = router.pipeline_cycles;
  cost.packet_bytes = nic.packet_bytes;
  cost.head_flit_bytes = nic.head_flit_bytes;
  cost.flit_bytes = nic.flit_bytes;
  cost.head_per_message = nic.flow_control == FlowControl::kMessage;
  cost.any_port = nic.port_binding == PortBinding::kAny;
  return cost;
}

/// The cost model's parameters of a point: its network and NIC, and under software issue its
/// host (notification latency, time per message with its doorbell share, issue contexts).
inline CostParams cost_params_of(const PointConfig& point) {
  CostParams cost = cost_params_of(point.router, point.nic);
  if (point.issue.mode == IssueMode::kSoftware) {
    const HostTiming& h = point.issue.host;
    cost.host_notify_cycles = static_cast<double>(h.notify_cycles);
    cost.host_message_cycles = static_cast<double>(h.message_cycles) +
                               static_cast<double>(h.doorbell_cycles) / h.doorbell_batch;
    cost.host_contexts = h.contexts;
  }
  return cost;
}

}  // namespace mt
