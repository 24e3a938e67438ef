#include "tb/mtsim/backends.h"

#include "tb/mtsim/cli.h"

// MT_WITH_RTL_ADAPTER comes with the mt_rtl_adapter library (rtl/CMakeLists.txt), which exists
// only when Verilator was found.
#ifdef MT_WITH_RTL_ADAPTER
#include "tb/rtl_adapter/rtl_scheduler.h"
#endif

namespace mt::cli {

RunBackends run_backends(const std::string& rtl_pin_trace_dir) {
  RunBackends backends;
#ifdef MT_WITH_RTL_ADAPTER
  backends.rtl_scheduler = make_rtl_scheduler_factory(rtl_pin_trace_dir);
  backends.rtl_config_mismatch = [](const SchedulerSettings& scheduler) {
    return rtl_build_mismatch(scheduler.depth, scheduler.window, scheduler.decision_latency_cycles);
  };
  backends.rtl_table_capacity = scheduler_build().table_capacity();
#else
  if (!rtl_pin_trace_dir.empty())
    throw UsageError("--rtl-pin-trace needs the RTL co-simulation: built without Verilator");
  backends.rtl_unavailable_reason = "built without Verilator";
#endif
  return backends;
}

}  // namespace mt::cli
