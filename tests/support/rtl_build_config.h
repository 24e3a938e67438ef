#pragma once
// The golden model's configuration of the Verilated nic_sched build (its ports, counters, depth,
// window, decision latency and field limits), for tests that run both engines side by side.

#include "model/sched/scheduler_model.h"
#include "tb/rtl_adapter/rtl_scheduler.h"

namespace mt::test {

/// SchedulerModelConfig with the build's parameters (scheduler_build()); node -1, step order.
inline SchedulerModelConfig rtl_build_config() {
  const SchedulerBuild b = scheduler_build();
  SchedulerModelConfig c;
  c.ports = b.ports;
  c.counters = b.counters;
  c.depth = b.depth;
  c.window = b.window;
  c.decision_latency_cycles = b.decision_latency;
  c.nodes = b.nodes;
  c.chunks = b.chunks;
  c.flows = b.flows;
  c.steps = b.steps;
  c.max_count = b.max_count;
  return c;
}

}  // namespace mt::test
