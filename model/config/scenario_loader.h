#pragma once
// The scenario loader: reads a scenario YAML file (plus `--set` overrides) into a ScenarioConfig
// and validates it completely (unknown keys, wrong types, impossible values) before anything
// runs. The schema is documented in scenarios/README.md.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/params/config_error.h"
#include "model/params/scenario_config.h"

namespace mt {

/// The option an override stands for, by the override's text, where the user did not type it as
/// `--set` (mtsim train's `--algorithm ring` is "collective.algorithms=[ring]"): an error about
/// the override names the option.
using OverrideOptions = std::map<std::string, std::string>;

/// Loads and validates a scenario file. `overrides` are "key.path=value" strings (from
/// `--set`, or standing for the options in `options`), applied before validation; value is
/// parsed as YAML (`4`, `fp32`, `[1MiB, 4MiB]`).
ScenarioConfig load_scenario_file(const std::string& path,
                                  const std::vector<std::string>& overrides = {},
                                  const OverrideOptions& options = {});

/// Same, from text; `source_name` stands for the file name in error messages.
ScenarioConfig load_scenario_text(const std::string& text, const std::string& source_name,
                                  const std::vector<std::string>& overrides = {},
                                  const OverrideOptions& options = {});

/// A value the model cannot represent: the key at fault and why.
struct ConfigProblem {
  std::string key_path;  ///< e.g. "collective.sizes[0]" or "topology.link_bytes_per_cycle"
  std::string what;
};

/// The first of `sizes_bytes` (all-reduce bytes per node; "collective.sizes[i]" names the i-th)
/// that scenario `s` cannot simulate: more packets than a message counts (31 bits), or one
/// buffer moved over a link or reduced by a NIC past the simulated-time horizon at its clock.
/// Nothing when all fit. The loader checks the scenario's sizes with it; `mtsim train` its
/// buckets'.
std::optional<ConfigProblem> unrepresentable(const ScenarioConfig& s,
                                             const std::vector<std::uint64_t>& sizes_bytes);

}  // namespace mt
