#pragma once
// The one cost model: two analytical estimates of a schedule's all-reduce time (the per-step
// alpha-beta sum and the event-driven dataflow estimate `auto` ranks by), both from one CostParams,
// and the lower bounds every result is compared against.

#include <cstdint>

#include "model/collective/schedule.h"
#include "model/topology/topology.h"

namespace mt {

/// Parameters of every estimate and bound (cycles of the network clock). Plain data the caller
/// fills from the scenario (router.pipeline_cycles, nic.packet_bytes, nic.head_flit_bytes,
/// nic.flit_bytes); the
/// defaults are the paper's network, for callers without a scenario. Link bandwidth and latency
/// come from the topology's links.
struct CostParams {
  double per_hop_cycles = 1;  ///< router pipeline per hop, cycles
  int packet_bytes = 256;     ///< payload bytes per packet
  int head_flit_bytes = 16;   ///< header bytes per packet
  int flit_bytes = 16;        ///< flit size, bytes (latency_bound_cycles() rounds to flits)
  /// Message flow control: a message carries one head, not one per packet.
  bool head_per_message = false;
  /// nic.port_binding any: a node's messages wait in one issue queue that every NIC port serves
  /// (false: each waits at the port issue_queue() binds it to). The ports are the topology's
  /// ports_per_node().
  bool any_port = false;
  /// Software issue by a host that costs something (dataflow_estimate only): it learns of an
  /// arrival this many cycles late...
  double host_notify_cycles = 0;
  /// ...and posts each ready message in this many cycles (its per-message time plus its share
  /// of a doorbell), on one of `host_contexts` issue contexts, before the message waits at its
  /// port. 0 and 0: the free host (or hardware issue).
  double host_message_cycles = 0;
  int host_contexts = 1;  ///< issue contexts of the host, each posting one message at a time
};

/// Estimate of one schedule at one size.
struct CostEstimate {
  double cycles = 0;            ///< estimated completion, cycles
  double latency_cycles = 0;    ///< sum over steps of the step's worst path latency
  double bandwidth_cycles = 0;  ///< sum over steps of the step's most loaded link's bytes / bw
};

/// Per-step synchronous estimate (step s starts when step s-1 ended everywhere; steps add up):
/// each step costs its worst message latency (sum over the message's path of link wire latency +
/// per_hop_cycles) plus the serialisation of the most loaded directed link or NIC issue queue in
/// that step: the sum of the wire bytes of every message of the step crossing it (chunk bytes +
/// ceil(chunk bytes / packet_bytes) x head_flit_bytes) / the link's bytes_per_cycle (contention
/// counted; a queue sends at its messages' first links' rate, over all ports with
/// CostParams::any_port). Paths are
/// Op::path or the topology's route. A message's own serialisation is counted once (through its
/// links' load), not again in its latency. Throws ScheduleError for a negative step or a chunk
/// out of range.
CostEstimate estimate_cost(const Schedule& schedule, const Topology& topology, std::uint64_t bytes,
                           const CostParams& params = {});

/// Event-driven estimate of a schedule executed the way the simulator's NICs do it (software
/// issue): a message becomes ready once all its dependencies have arrived (and, with a host
/// that costs something, once the host has learnt of them and posted it on its first free issue
/// context: CostParams::host_*) and waits in the NIC
/// issue queue the simulator binds it to (issue_queue(): the port of its first link, modulo the
/// topology's ports_per_node(), or one queue for all ports with CostParams::any_port); a port
/// sends one message at a time, the ready one listed first (lowest id). A message holds each
/// directed link of its path for its wire time (payload + packet heads) / link bandwidth, in the
/// first gap of that link's reservations at or after its head gets there; the head advances one
/// link's latency + per_hop_cycles per hop (cut-through) and the message arrives when its tail has
/// crossed the last link. Returns the arrival of the last message, cycles. Captures pipelining,
/// tree depth and link sharing between flows that the per-step estimate_cost() cannot see. Throws
/// ScheduleError for a dependency out of range.
double dataflow_estimate(const Schedule& schedule, const Topology& topology, std::uint64_t bytes,
                         const CostParams& params = {});

/// True when no directed link carries two messages of the same step (paths: Op::path or the
/// topology's route). MultiTree is built so (each link goes to one tree per step); then a NIC that
/// issues in step order keeps every step's messages apart. Pipelined schedules (tree_packing,
/// dbtree) put several messages of a step on one link, and step order only delays them.
bool steps_share_no_link(const Schedule& schedule, const Topology& topology);

/// True when every flow (Op::flow) sends one chunk, as MultiTree's trees do; false when some
/// flow sends two different chunks (a ring, a tree that pipelines sub-chunks: tree_packing,
/// dbtree, multitree_opt with a pipeline). Such a flow's own dependencies order its messages, so
/// step order gains it nothing and only holds other flows' ready messages back (nic.step_order
/// auto).
bool flows_send_one_chunk(const Schedule& schedule);

/// Both estimates of one schedule at one size, from the same parameters.
struct ScheduleEstimate {
  CostEstimate per_step;       ///< estimate_cost()
  double dataflow_cycles = 0;  ///< dataflow_estimate()
  /// The estimate to report and rank by: the dataflow one, the closer to the simulated
  /// completion (README "What the numbers mean" lists the comparison).
  double cycles() const { return dataflow_cycles; }
};

/// estimate_cost() and dataflow_estimate() of `schedule` at `bytes` per node.
ScheduleEstimate estimate_schedule(const Schedule& schedule, const Topology& topology,
                                   std::uint64_t bytes, const CostParams& params = {});

/// Bandwidth lower bound of an all-reduce of `bytes` per node, cycles: 2(N-1) * bytes over the
/// total bandwidth endpoints can send with (sum over endpoints of their `ports` fastest
/// out-links), or over the total they can receive with (in-links), whichever is larger (ports <= 0:
/// the topology's ports_per_node()). Every chunk needs 2(N-1) endpoint-to-endpoint transmissions,
/// so this holds for any schedule; with equal nodes it is 2(N-1)/N * bytes over one node's
/// injection bandwidth. Packet headers are not counted: with 256-byte packets and a 16-byte head
/// flit no schedule exceeds an efficiency of 256/272 = 0.941.
double bandwidth_bound_cycles(const Topology& topology, int ports, std::uint64_t bytes);

/// Latency lower bound of an all-reduce of `bytes` (> 0) per node, cycles, for any algorithm:
/// every node's result depends on every other node's data, so some data must travel from u to v
/// for the farthest pair. It crosses at least the cheapest path's links (each its wire latency)
/// and routers (params.per_hop_cycles each: the source's and every later one on direct
/// topologies, the switches on switched ones), and its last link serialises at least one packet
/// holding it: a head of head_flit_bytes plus one 4-byte element, rounded up to flit_bytes
/// flits, at the fastest link's bandwidth (at least 1 cycle). Reductions, NIC issue and
/// queueing are not counted. 0 for fewer than two nodes or no bytes.
double latency_bound_cycles(const Topology& topology, std::uint64_t bytes,
                            const CostParams& params = {});

/// Lower bound on MultiTree time steps: ceil(N(N-1) / L), L = directed links endpoints can use
/// in one step = sum over endpoints of min(ports_per_node, out-links). On direct topologies with
/// the default ports this is every directed link; on switch topologies N x ports (endpoint
/// uplinks).
int step_lower_bound(const Topology& topology);

}  // namespace mt
