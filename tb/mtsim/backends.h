#pragma once
// What this build of mtsim injects into the run layer.

#include "model/run/prepare.h"

namespace mt::cli {

/// The run layer's backends in this build: the RTL co-simulation (nic.scheduler rtl) when mtsim
/// links tb/rtl_adapter (built with Verilator), else none, saying why.
RunBackends run_backends();

}  // namespace mt::cli
