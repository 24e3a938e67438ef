#pragma once
// What `mtsim --version` prints: the source it was built from and what the build links.

#include <string>

namespace mt::cli {

/// The source tree's git description at build time ("git 444a74c1d2e3-dirty, committed
/// 2026-12-01"), from the generated mtsim_version.cpp.
const char* source_version();

/// The whole --version text: mtsim's source, the SystemC kernel, the Verilated scheduler's build
/// parameters or why there is none, and the build type.
std::string version_text();

}  // namespace mt::cli
