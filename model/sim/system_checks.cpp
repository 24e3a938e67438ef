// The inputs the simulator refuses before it elaborates anything (SimulationConfigError).

#include "model/sim/system_checks.h"

#include <optional>
#include <sstream>

#include "model/data/packet_sizes.h"
#include "model/params/nic_rules.h"
#include "model/params/time_limits.h"

namespace mt {

void sim_require(bool condition, const std::string& message) {
  if (!condition) throw SimulationConfigError(message);
}

double checked_clock_ghz(double clock_ghz) {
  // Checked before the clock period is built from it (1 ps time resolution); the loader's range.
  if (clock_ghz >= kMinClockGhz && clock_ghz <= kMaxClockGhz) return clock_ghz;
  std::ostringstream text;
  text << "clock_ghz must be in [" << kMinClockGhz << ", " << kMaxClockGhz << "], got "
       << clock_ghz;
  throw SimulationConfigError(text.str());
}

void validate_system_inputs(const PointConfig& config, const Topology& topology,
                            const Schedule& schedule, std::uint64_t bytes) {
  sim_require(bytes % kElementBytes == 0, "all-reduce size " + std::to_string(bytes) +
                                              " bytes is not a whole number of 4-byte "
                                              "elements");
  const RouterConfig& router = config.router;
  const NicSettings& nic = config.nic;
  sim_require(config.watchdog_cycles >= 1, "watchdog_cycles must be >= 1");
  sim_require(router.pipeline_cycles >= 0, "router.pipeline_cycles must be >= 0");
  sim_require(router.vcs >= 1, "router.vcs must be >= 1");
  sim_require(nic.flit_bytes >= 1, "nic.flit_bytes must be >= 1");
  sim_require(nic.head_flit_bytes >= 0, "nic.head_flit_bytes must be >= 0");
  sim_require(nic.packet_bytes >= kElementBytes,
              "nic.packet_bytes must be >= 4, got " + std::to_string(nic.packet_bytes));
  sim_require(nic.reduce_elems_per_cycle > 0, "nic.reduce_elems_per_cycle must be > 0");
  sim_require(nic.receive_vcs >= 1, "nic.receive_vcs must be >= 1");
  if (const std::optional<NicRuleViolation> v =
          packet_rule_violation(nic.packet_bytes, nic.head_flit_bytes, nic.flit_bytes,
                                nic.receive_vcs, nic.port_binding, router, topology))
    throw SimulationConfigError(v->key + ": " + v->message);
  for (const Link& link : topology.links()) {
    sim_require(link.bytes_per_cycle > 0, "link " + std::to_string(link.id) + " has no bandwidth");
    sim_require(link.latency_cycles >= 0,
                "link " + std::to_string(link.id) + " has negative latency");
  }
  sim_require(topology.ports_per_node() >= 1, "ports per node must be >= 1");
  sim_require(schedule.nodes == topology.nodes(),
              "schedule is for " + std::to_string(schedule.nodes) + " nodes, topology " +
                  topology.name() + " has " + std::to_string(topology.nodes()));
  sim_require(schedule.num_chunks >= 1, "schedule has no chunks");
  try {
    (void)chunk_bounds(schedule, bytes / kElementBytes);
  } catch (const ScheduleError& e) {
    throw SimulationConfigError(e.what());
  }
  // A chunk moved to another offset or a scratch slot must fit there: every slot one size.
  // Asked of the messages only when the slots differ (the answer scans them all: 33.5 M at
  // 4096 nodes).
  const std::uint64_t elements = bytes / kElementBytes;
  const bool equal_slots = schedule.chunk_offsets.empty() &&
                           elements % static_cast<std::uint64_t>(schedule.num_chunks) == 0;
  if (!equal_slots && schedule.uses_buffers()) {
    throw SimulationConfigError(
        "the schedule moves chunks between buffers or offsets, so its chunks must be of equal "
        "size: " +
        std::to_string(elements) + " elements do not split into " +
        std::to_string(schedule.num_chunks) + " equal chunks" +
        (schedule.chunk_offsets.empty() ? "" : " (chunk_offsets given)"));
  }
  // Per message: the text of a refusal is built only when one is made (4096 nodes: 33.5 M
  // messages, where building every text took 20 s).
  const int ports = topology.ports_per_node();
  const int ops = static_cast<int>(schedule.ops.size());
  for (int i = 0; i < ops; ++i) {
    const Op& op = schedule.ops[static_cast<std::size_t>(i)];
    const auto refuse = [i](const std::string& why) {
      throw SimulationConfigError("schedule message " + std::to_string(i) + why);
    };
    if (op.id != i) refuse(" has id " + std::to_string(op.id));
    if (op.node < 0 || op.node >= schedule.nodes) refuse(": node out of range");
    if (op.peer < 0 || op.peer >= schedule.nodes) refuse(": peer out of range");
    if (op.is_local() && !op.uses_buffers()) refuse(": node sends to itself");
    // Local steps (an MSCCL program's cpy and re) run on the NIC's reduction unit under
    // software issue; the co-designed scheduler's table has no entry for them.
    if (op.is_local() && config.issue.mode == IssueMode::kHardware) {
      refuse(" is a local step of node " + std::to_string(op.node) + " (" +
             (op.kind == OpKind::kReduce ? "reduce " : "copy ") + slot_text(op.src_buf, op.chunk) +
             " into " + slot_text(op.dst_buf, op.dst_slot()) +
             "): nic.issue hardware cannot run it (a table entry is a message to a peer, "
             "counted by the receiver's arrival counter; a local step has no receiver "
             "to count it); use nic.issue: software");
    }
    for (const auto& [buffer, slot] :
         {std::pair<Buffer, int>{op.src_buf, op.chunk}, {op.dst_buf, op.dst_slot()}}) {
      if (slot < 0 ||
          slot >= (buffer == Buffer::kScratch ? schedule.scratch_chunks : schedule.num_chunks))
        refuse(": " + slot_text(buffer, slot) + " out of range");
    }
    if (op.port >= ports) {
      refuse(": port " + std::to_string(op.port) + " but nodes have " + std::to_string(ports) +
             " ports");
    }
    for (const int dep : op.deps) {
      if (dep < 0 || dep >= ops) refuse(": dependency " + std::to_string(dep) + " out of range");
    }
  }
}

}  // namespace mt
