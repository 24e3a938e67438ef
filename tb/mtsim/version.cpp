#include "tb/mtsim/version.h"

#include <sstream>
#include <systemc>

#ifdef MT_WITH_RTL_ADAPTER
#include "tb/rtl_adapter/rtl_scheduler.h"
#endif

namespace mt::cli {

std::string version_text() {
  std::ostringstream out;
  out << "mtsim " << source_version() << " (" << MT_BUILD_TYPE << " build)\n"
      << "SystemC " << sc_core::sc_release() << " with TLM-2.0\n";
#ifdef MT_WITH_RTL_ADAPTER
  const RtlBuildParams p = rtl_build_params();
  out << "RTL co-simulation (nic.scheduler: rtl): Verilated nic_sched of " << p.file
      << " (the signed-off set: rtl/params/cosim.params) with Nodes " << p.nodes << ", Ports "
      << p.ports << ", Depth " << p.depth << ", Window " << p.window << ", Chunks " << p.chunks
      << ", Flows " << p.flows << ", Steps " << p.steps << ", Counters " << p.counters
      << ", MaxCount " << p.max_count << ", ArrivalLanes " << p.arrival_lanes
      << ", DecisionLatency " << p.decision_latency << ", IndexBits " << p.index_bits << "\n";
#else
  out << "RTL co-simulation (nic.scheduler: rtl): not in this build (built without Verilator)\n";
#endif
  return out.str();
}

}  // namespace mt::cli
