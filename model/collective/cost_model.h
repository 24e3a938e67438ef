#pragma once
// Analytical alpha-beta model: a fast estimate of a schedule's all-reduce time, and the bandwidth
// lower bound every result is compared against.

#include <cstdint>

#include "model/collective/schedule.h"
#include "model/topology/topology.h"

namespace mt {

/// Parameters of the alpha-beta estimate (cycles of the network clock).
struct CostParams {
  double per_hop_cycles = 1;  ///< router pipeline per hop, cycles
  int packet_bytes = 256;     ///< payload bytes per packet
  int head_flit_bytes = 16;   ///< header bytes per packet
};

/// Estimate of one schedule at one size.
struct CostEstimate {
  double cycles = 0;            ///< estimated completion, cycles
  double latency_cycles = 0;    ///< sum over steps of the step's worst path latency
  double bandwidth_cycles = 0;  ///< sum over steps of the step's most loaded link's bytes / bw
};

/// Per-step synchronous estimate (step s starts when step s-1 ended everywhere; steps add up):
/// each step costs its worst message latency (sum over the message's path of link wire latency +
/// per_hop_cycles) plus the serialisation of the most loaded directed link in that step: the sum
/// of the wire bytes of every message of the step crossing it (chunk bytes + ceil(chunk bytes /
/// packet_bytes) x head_flit_bytes) / the link's bytes_per_cycle (contention counted). Paths are
/// Op::path or the topology's route. A message's own serialisation is counted once (through its
/// links' load), not again in its latency. Throws ScheduleError for a negative step or a chunk
/// out of range.
CostEstimate estimate_cost(const Schedule& schedule, const Topology& topology, std::uint64_t bytes,
                           const CostParams& params = {});

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
/// holding it: a head of head_flit_bytes plus one 4-byte element, rounded up to `flit_bytes`
/// flits, at the fastest link's bandwidth (at least 1 cycle). Reductions, NIC issue and
/// queueing are not counted. 0 for fewer than two nodes or no bytes.
double latency_bound_cycles(const Topology& topology, std::uint64_t bytes,
                            const CostParams& params = {}, int flit_bytes = 16);

/// Lower bound on MultiTree time steps: ceil(N(N-1) / L), L = directed links endpoints can use
/// in one step = sum over endpoints of min(ports_per_node, out-links). On direct topologies with
/// the default ports this is every directed link; on switch topologies N x ports (endpoint
/// uplinks).
int step_lower_bound(const Topology& topology);

}  // namespace mt
