#pragma once
// Plain configuration structs of a scenario. Filled and validated only by the scenario loader
// (model/config/scenario_loader); every constructor takes the `const ...Config&` it needs.

#include <cstdint>
#include <string>
#include <vector>

#include "model/collective/algorithm.h"
#include "model/collective/cost_model.h"
#include "model/core/enum_names.h"
#include "model/core/error.h"
#include "model/data/data_store.h"
#include "model/params/energy_config.h"
#include "model/params/host_config.h"
#include "model/topology/topology.h"

namespace mt {

/// Scope of router.step_priority (`router.step_priority_scope`).
enum class StepPriorityScope {
  kOutput,  ///< "output": older steps first among every packet requesting an output
  kInput,   ///< "input": only among the VCs of one input port (input ports take turns, iSLIP)
};
template <>
struct EnumNames<StepPriorityScope> {
  static constexpr std::array<const char*, 2> kNames{"output", "input"};
};

/// Ring and torus: the way a packet whose destination lies exactly half way around a dimension
/// (both ways shortest) goes (`router.tie_break`).
enum class TieBreak {
  kPlus,    ///< "plus": always the + way
  kRandom,  ///< "random": a way per packet, pseudo-randomly (BookSim's dimension-order torus
            ///< routing; under message flow control the whole message takes its head's way)
};
template <>
struct EnumNames<TieBreak> {
  static constexpr std::array<const char*, 2> kNames{"plus", "random"};
};

/// Which packets keep their turn at a free output while their input port is busy sending another
/// VC's packet (the output then waits for the port) (`router.turn_reservation`).
enum class TurnReservation {
  kMessage,  ///< "message": only packets of messages under message flow control
  kAll,      ///< "all": every packet, as a flit-level switch that interleaves VCs (BookSim)
};
template <>
struct EnumNames<TurnReservation> {
  static constexpr std::array<const char*, 2> kNames{"message", "all"};
};

/// Router (also used as the switch of switched topologies). Cycles are network clock cycles.
struct RouterConfig {
  int pipeline_cycles = 1;     ///< routing + switch allocation + traversal latency, cycles
  int vcs = 4;                 ///< virtual channels per input port (>= 2 on torus: dateline)
  int buffer_flits = 318;      ///< input buffer depth per VC, flits
  bool step_priority = false;  ///< arbitrate by schedule step (older step first) when true
  StepPriorityScope step_priority_scope = StepPriorityScope::kOutput;  ///< see the enum
  TieBreak tie_break = TieBreak::kPlus;                                ///< see the enum
  TurnReservation turn_reservation = TurnReservation::kMessage;        ///< see the enum
};

/// When the NIC's reduction unit works on received reduce data.
enum class ReduceGranularity {
  kPacket,   ///< each packet as soon as its tail has arrived (cut-through, pipelined)
  kMessage,  ///< a whole message once all its packets have arrived (store-and-forward)
};

/// Which NIC port a message leaves by (direct topologies).
enum class PortBinding {
  kRoute,  ///< the port of its route's first link (each port serves fixed directions)
  kAny,    ///< the lowest-numbered free port when it starts (one issue queue for all ports)
};

/// Which implementation makes the hardware-issue decisions (`nic.scheduler`).
enum class SchedulerImpl {
  kTlm,  ///< "tlm": the C++ golden scheduler model
  kRtl,  ///< "rtl": the Verilated nic_sched through the co-simulation adapter
};
template <>
struct EnumNames<SchedulerImpl> {
  static constexpr std::array<const char*, 2> kNames{"tlm", "rtl"};
};

/// Grants per decision of the hardware scheduler under `nic.port_binding: any`
/// (`nic.scheduler_any_port_grants`).
enum class AnyPortGrants {
  kOne,      ///< "one": one issue queue and one grant per decision, taken by a free port
  kPerPort,  ///< "per_port": the one queue's window grants up to one entry per requesting port
};
template <>
struct EnumNames<AnyPortGrants> {
  static constexpr std::array<const char*, 2> kNames{"one", "per_port"};
};

/// The order of each node's schedule table under hardware issue (`nic.scheduler_table_order`).
enum class TableOrder {
  kStep,     ///< "step": by step, then waits within a step, then program order
  kPlanned,  ///< "planned": the order a free host issues the schedule in a message-level run
  kAuto,  ///< "auto": both tried, the faster kept (planned only where it fits the nic_sched build)
};
template <>
struct EnumNames<TableOrder> {
  static constexpr std::array<const char*, 3> kNames{"step", "planned", "auto"};
};

/// The grain of simulated time (`granularity`).
enum class Granularity {
  kPacket,   ///< "packet": the SystemC packet/flit-level cycle model (the reference)
  kMessage,  ///< "message": messages move as units (model/flow/flow_sim.h)
};
template <>
struct EnumNames<Granularity> {
  static constexpr std::array<const char*, 2> kNames{"packet", "message"};
};

/// How packets of a message are admitted into the network, as a point runs it.
enum class FlowControl {
  kPacket,   ///< "packet": per-packet credits and arbitration (baseline)
  kMessage,  ///< "message": a message's buffer is reserved once, then its packets stream
};
template <>
struct EnumNames<FlowControl> {
  static constexpr std::array<const char*, 2> kNames{"packet", "message"};
};
/// `nic.flow_control`: a flow control, or auto.
enum class FlowControlChoice {
  kPacket,   ///< "packet"
  kMessage,  ///< "message"
  kAuto,     ///< "auto": each point run with both, the faster kept (model/run/resolve.h)
};
template <>
struct EnumNames<FlowControlChoice> {
  static constexpr std::array<const char*, 3> kNames{"packet", "message", "auto"};
};

/// Who issues a node's operations, as a point runs it.
enum class IssueMode {
  kSoftware,  ///< "software": the host issues each op once it knows its dependencies arrived
  kHardware,  ///< "hardware": the co-designed NIC scheduler issues from its table
};
template <>
struct EnumNames<IssueMode> {
  static constexpr std::array<const char*, 2> kNames{"software", "hardware"};
};
/// `nic.issue`: an issue mode, or auto.
enum class IssueChoice {
  kSoftware,  ///< "software"
  kHardware,  ///< "hardware"
  kAuto,      ///< "auto": chosen per point by resolve (model/run/resolve.h)
};
template <>
struct EnumNames<IssueChoice> {
  static constexpr std::array<const char*, 3> kNames{"software", "hardware", "auto"};
};

template <>
struct EnumNames<ReduceGranularity> {
  static constexpr std::array<const char*, 2> kNames{"packet", "message"};
};
template <>
struct EnumNames<PortBinding> {
  static constexpr std::array<const char*, 2> kNames{"route", "any"};
};

/// The order in which the System creates its routers, NICs and links (`elaboration_order`): a
/// test of order independence (issue 49). The SystemC kernel runs processes woken in the same
/// cycle in an order that follows their creation; results must not depend on it.
struct ElaborationOrder {
  enum class Kind {
    kForward,  ///< "forward": by vertex, node and link id (the default)
    kReverse,  ///< "reverse": the other way round
    kShuffle,  ///< "shuffle:SEED": a permutation drawn from SEED
    /// "every_cycle": forward, and every router and NIC runs in every cycle while it has work:
    /// the reference that the event-driven wake-ups must match exactly (slow; for tests).
    kEveryCycle,
  };
  Kind kind = Kind::kForward;
  std::uint64_t seed = 0;  ///< kShuffle's seed
};

/// `nic.step_order`: whether the hardware scheduler issues in step order.
enum class StepOrderChoice {
  kOn,    ///< "true": an entry of step s never goes before the node's entries of earlier steps
  kOff,   ///< "false": an entry goes as soon as its counter condition holds (within the window)
  kAuto,  ///< "auto": on when no directed link carries two messages of one step (MultiTree-like
          ///< schedules, where step order keeps messages apart) or under the step barrier, off
          ///< otherwise (pipelined ones)
};
template <>
struct EnumNames<StepOrderChoice> {
  static constexpr std::array<const char*, 3> kNames{"true", "false", "auto"};
};

/// Receiver port of a message on direct topologies (`nic.receive_port`).
enum class ReceivePort {
  kAny,         ///< "any": any free ejection port
  kPerMessage,  ///< "per_message": per receiver and step, the receiver's ports in turn in
                ///< schedule order (ejection ports bound per message)
};
template <>
struct EnumNames<ReceivePort> {
  static constexpr std::array<const char*, 2> kNames{"any", "per_message"};
};

/// Network interface of every endpoint.
struct NicConfig {
  /// NIC ports per node (the scenario's `nic.ports`; an algorithm entry's `ports` is its own):
  /// 0 = one per network link on direct topologies, 1 on switched ones.
  int ports = 0;
  SchedulerImpl scheduler = SchedulerImpl::kTlm;  ///< golden C++ model or Verilated RTL
  FlowControlChoice flow_control = FlowControlChoice::kPacket;  ///< per packet / message / auto
  IssueChoice issue = IssueChoice::kSoftware;  ///< host (software), NIC scheduler (hardware), auto
  double reduce_elems_per_cycle = 32;          ///< reduction unit throughput, elements per cycle
  /// Packet: reduce per packet as packets arrive; message: reduce a message once it has arrived
  /// whole (its dependent sends wait for the whole reduction).
  ReduceGranularity reduction = ReduceGranularity::kPacket;
  /// Route: a message leaves by the port of its route's first link; any: by the first free port.
  PortBinding port_binding = PortBinding::kRoute;
  ReceivePort receive_port = ReceivePort::kAny;  ///< receiver port of a message (see the enum)
  /// Transmit queue per port, packets: a port takes its next message once the unsent packets of
  /// its messages fit in it (0: once its last packet has left).
  int tx_queue_packets = 0;
  /// VCs of a receive port: its buffer (router.vcs x router.buffer_flits flits) split evenly
  /// among them; under message flow control a message holds one until its tail has passed, so
  /// this many messages share a port packet by packet; with 1 they are received one at a time
  /// (0: router.vcs, as a router input and the reference simulator's ejection channel).
  int receive_vcs = 1;
  /// Once every operation of its current step has started, a node starts no later step's
  /// operation until all its ports are free.
  bool step_barrier = false;
  int packet_bytes = 256;    ///< payload bytes per packet
  int head_flit_bytes = 16;  ///< header bytes added to every packet
  int flit_bytes = 16;       ///< flit size, bytes (buffers are counted in flits)
  StepOrderChoice step_order = StepOrderChoice::kAuto;  ///< hardware issue: step order (enum)
  int decision_latency_cycles = 2;      ///< hardware issue: input-to-grant latency, cycles (>= 2)
  int scheduler_depth = 32;             ///< hardware issue: table ring buffer, entries
  int scheduler_window = 4;             ///< hardware issue: issue window per port, entries
  bool scheduler_early_request = true;  ///< hardware issue: ports request decision_latency early
  /// Hardware issue under port_binding any: one grant per decision, or one per requesting port.
  AnyPortGrants scheduler_any_port_grants = AnyPortGrants::kOne;
  TableOrder scheduler_table_order = TableOrder::kAuto;  ///< hardware issue: table order (enum)
  double scheduler_clock_ghz = 0;    ///< hardware issue: the scheduler's clock, GHz (0: clock_ghz)
  int scheduler_watchdog_ticks = 0;  ///< hardware issue: watchdog limit, ticks (0: off)
  int scheduler_watchdog_tick_cycles = 1024;  ///< hardware issue: scheduler cycles per tick
};

/// One algorithm to run at every size.
struct AlgorithmRun {
  std::string name;   ///< CLI algorithm name, e.g. "multitree"
  std::string label;  ///< name shown in results (defaults to name, or a file's stem)
  /// Schedule file of a `{name: file, path: FILE}` entry (JSON or MSCCL XML), resolved against
  /// the scenario file's folder; empty for built-in algorithms.
  std::string schedule_file;
  AlgorithmParams params;  ///< algorithm parameters
  int ports = 0;           ///< NIC ports for this run; 0 = nic.ports
  /// The entry's place (file, line, column, key path; where() is "file:line:col"), for errors.
  ErrorLocation location;
  /// NIC of this run: the scenario's `nic` with the entry's optional `nic:` overrides applied
  /// (filled by the loader for every entry).
  NicConfig nic;
  /// Host of this run (software issue): the scenario's `host` with the entry's `host:` overrides.
  HostConfig host;
};

/// What to all-reduce.
struct CollectiveConfig {
  std::vector<AlgorithmRun> algorithms;
  std::vector<std::uint64_t> sizes_bytes = {1u << 20};  ///< bytes per node buffer
  Dtype dtype = Dtype::kFp32;                           ///< element type of the reduction
  bool verify_data = true;  ///< move and sum real data and check every node's result
  /// Above this buffer size data runs timing-only with sampled chunks still checked, bytes.
  std::uint64_t max_data_bytes = 64ull << 20;
};

/// Files written after the run (empty = not written). CLI flags override these.
struct OutputConfig {
  std::string json;
  std::string csv;
};

/// A whole scenario file.
struct ScenarioConfig {
  std::string name;         ///< scenario name (defaults to the file's stem)
  std::string description;  ///< free text shown above the results
  std::string source_file;  ///< path the scenario was loaded from
  double clock_ghz = 1.0;   ///< clock of links, routers and NICs; all cycles count this clock
  Granularity granularity = Granularity::kPacket;  ///< the packet-level or message model
  std::uint64_t watchdog_cycles = 1000000;         ///< no progress for this long -> error, cycles
  ElaborationOrder elaboration_order;              ///< creation order of the components (testing)
  TopologyConfig topology;
  RouterConfig router;
  NicConfig nic;
  HostConfig host;      ///< the host of software issue
  EnergyConfig energy;  ///< the prices of the events that cost energy
  CollectiveConfig collective;
  OutputConfig output;
};

}  // namespace mt
