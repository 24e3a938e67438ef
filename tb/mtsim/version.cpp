#include "tb/mtsim/version.h"

#include <sstream>
#include <systemc>

#include "model/sched/scheduler_build.h"

namespace mt::cli {

std::string version_text() {
  std::ostringstream out;
  out << "mtsim " << source_version() << " (" << MT_BUILD_TYPE << " build)\n"
      << "SystemC " << sc_core::sc_release() << " with TLM-2.0\n";
  // Known with or without Verilator: hardware-issue tables are measured against it.
  const SchedulerBuild p = scheduler_build();
  out << "nic_sched build (what hardware-issue tables must fit): " << p.file
      << " (the signed-off set: rtl/params/cosim.params) with Nodes " << p.nodes << ", Ports "
      << p.ports << ", Depth " << p.depth << ", Window " << p.window << ", Chunks " << p.chunks
      << ", Flows " << p.flows << ", Steps " << p.steps << ", Counters " << p.counters
      << ", MaxCount " << p.max_count << ", ArrivalLanes " << p.arrival_lanes
      << ", DecisionLatency " << p.decision_latency << ", IndexBits " << p.index_bits << "\n";
#ifdef MT_WITH_RTL_ADAPTER
  out << "RTL co-simulation (nic.scheduler: rtl): this build, Verilated\n";
#else
  out << "RTL co-simulation (nic.scheduler: rtl): not in this build (built without Verilator)\n";
#endif
  return out.str();
}

}  // namespace mt::cli
