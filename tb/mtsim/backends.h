#pragma once
// What this build of mtsim injects into the run layer.

#include <string>

#include "model/run/prepare.h"

namespace mt::cli {

/// The run layer's backends in this build: the RTL co-simulation (nic.scheduler rtl) when mtsim
/// links tb/rtl_adapter (built with Verilator), else none, saying why. With `rtl_pin_trace_dir`,
/// every NIC's Verilated scheduler writes its pin trace there (UsageError without the RTL).
RunBackends run_backends(const std::string& rtl_pin_trace_dir = std::string());

}  // namespace mt::cli
