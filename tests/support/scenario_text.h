#pragma once
// Scenario text for the loader's tests: a valid scenario, and what loading a text gives (its
// error message or location).

#include <string>
#include <vector>

#include "model/config/scenario_loader.h"

namespace mt::test {

inline const char* const kValid = R"(name: demo
clock_ghz: 1.5
topology:
  kind: torus
  dims: [4, 4]
  link_bytes_per_cycle: 32
  link_latency_cycles: 10
router:
  pipeline_cycles: 3
  vcs: 2
  buffer_flits: 64
nic:
  ports: 2
  flow_control: message
  packet_bytes: 512
collective:
  algorithms: [ring, {name: multitree, label: mt}]
  sizes: [32KiB, 1MiB, 4096, 2 MB]
  dtype: int32
)";

/// Loads `text` and returns the error's location (all fields unset if it loaded).
inline mt::ErrorLocation location_of(const std::string& text,
                                     const std::vector<std::string>& overrides = {}) {
  try {
    mt::load_scenario_text(text, "bad.yaml", overrides);
  } catch (const mt::ScenarioError& e) {
    return e.location();
  }
  return {};
}

/// Loads `text` and returns the error message, or "" if it loaded.
inline std::string error_of(const std::string& text,
                            const std::vector<std::string>& overrides = {}) {
  try {
    mt::load_scenario_text(text, "bad.yaml", overrides);
  } catch (const mt::ScenarioError& e) {
    return e.what();
  }
  return "";
}

}  // namespace mt::test
