#pragma once
// The message-granularity model (`granularity: message`): a plain C++ event engine, no SystemC,
// that moves each schedule message as one unit over the same routes as the packet-level model
// (RoutingTable, or the message's own source route), with the same NIC issue control (the host
// of software issue: HostScheduler), the same ports and the same data check (DataStore).
//
// Link sharing: each directed link, each NIC injection port and each ejection port is a resource
// that a message holds for its whole wire time (its packets' flits, heads included, at the
// link's bandwidth), in the first gap of the resource's reservations at or after the message's
// head gets there; a NIC port (on switched topologies: the endpoint's link) takes a message
// when it is free, as the cycle model's transmit DMA does (whole-message queues with cut-through
// pipelining across hops). The head advances a hop's wire latency plus the router pipeline per
// router; the tail leaves the last resource at its reservation's end. docs/granularity.md measures
// this against the cycle model.

#include <cstdint>

#include "model/collective/schedule.h"
#include "model/core/error.h"
#include "model/params/point_config.h"
#include "model/sim/run_result.h"
#include "model/topology/topology.h"

namespace mt {

/// A configuration the message-granularity model cannot run (a bad source route).
class FlowConfigError : public Error {
 public:
  using Error::Error;
};

/// Simulates `schedule` on `topology` at `bytes` per node with message granularity and returns
/// the result (RunResult::granularity kMessage; packets counted as the cycle model cuts them;
/// per-link bytes and busy share; cross_flow_waits counts, once per message and resource, the
/// messages that waited for a port or link held by a message between another pair of nodes: two
/// flows sharing a link at the same time). Hardware issue runs
/// with a free host that learns of an arrival `decision_latency_cycles` late (the scheduler's
/// table order and step order are not modelled). Throws FlowConfigError for a source route that
/// does not fit the topology. With MessageCycles::kNotRecorded the per-message cycles are left
/// empty.
RunResult simulate_messages(const PointConfig& config, const Topology& topology,
                            const Schedule& schedule, std::uint64_t bytes,
                            MessageCycles cycles = MessageCycles::kRecorded);

}  // namespace mt
