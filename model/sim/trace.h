#pragma once
// Activity traces of simulated runs in the Chrome trace-event JSON format, which Perfetto
// (ui.perfetto.dev) and chrome://tracing open: one process per run, one track per NIC and per
// directed link, one slice per message.

#include <nlohmann/json.hpp>
#include <vector>

#include "model/collective/schedule.h"
#include "model/sim/run_result.h"
#include "model/topology/topology.h"

namespace mt {

/// One simulated point and what it ran.
struct TraceRun {
  const RunResult* result = nullptr;   ///< needs message_issue_cycles / message_arrival_cycles
  const Schedule* schedule = nullptr;  ///< the schedule simulated
  const Topology* topology = nullptr;  ///< the topology it ran on (for routes)
};

/// The trace of `runs`: {"traceEvents": [...], "displayTimeUnit": "ns"}. Timestamps are
/// microseconds of simulated time (cycles / clock). A message's slice spans from the cycle its
/// sender issued it to the cycle it was fully applied at its receiver; it appears on the sender's
/// NIC track and on every directed link of its route. Where slices of one NIC or link overlap
/// (pipelined messages), they are spread over numbered lanes so each track stays well nested.
nlohmann::json chrome_trace(const std::vector<TraceRun>& runs);

}  // namespace mt
