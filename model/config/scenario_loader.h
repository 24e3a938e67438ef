#pragma once
// The scenario loader: reads a scenario YAML file (plus `--set` overrides) into a ScenarioConfig
// and validates it completely (unknown keys, wrong types, impossible values) before anything
// runs. The schema is documented in scenarios/README.md.

#include <string>
#include <vector>

#include "model/config/config_error.h"
#include "model/config/scenario_config.h"

namespace mt {

/// Loads and validates a scenario file. `overrides` are "key.path=value" strings (from
/// `--set`), applied before validation; value is parsed as YAML (`4`, `fp32`, `[1MiB, 4MiB]`).
ScenarioConfig load_scenario_file(const std::string& path,
                                  const std::vector<std::string>& overrides = {});

/// Same, from text; `source_name` stands for the file name in error messages.
ScenarioConfig load_scenario_text(const std::string& text, const std::string& source_name,
                                  const std::vector<std::string>& overrides = {});

}  // namespace mt
