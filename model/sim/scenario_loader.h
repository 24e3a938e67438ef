#pragma once
// The scenario loader: the only code that reads YAML. It fills a ScenarioConfig and validates it
// completely (unknown keys, wrong types, impossible values) before anything runs.
// The schema is documented in scenarios/README.md.

#include <stdexcept>
#include <string>
#include <vector>

#include "model/core/error.h"
#include "model/sim/scenario_config.h"
#include "model/sim/sweep_config.h"
#include "model/workload/workload.h"

namespace mt {

/// Bad scenario input. what() reads "file:line:col: key.path: what is wrong".
class ScenarioError : public Error {
 public:
  using Error::Error;
};

/// Loads and validates a scenario file. `overrides` are "key.path=value" strings (from
/// `--set`), applied before validation; value is parsed as YAML (`4`, `fp32`, `[1MiB, 4MiB]`).
ScenarioConfig load_scenario_file(const std::string& path,
                                  const std::vector<std::string>& overrides = {});

/// Same, from text; `source_name` stands for the file name in error messages.
ScenarioConfig load_scenario_text(const std::string& text, const std::string& source_name,
                                  const std::vector<std::string>& overrides = {});

/// Loads and validates a sweep file (schema: scenarios/README.md, "Sweep files"): unknown keys,
/// wrong types, empty or repeated axes and values stop it with "file:line:col: key.path: what".
/// The base scenario path is resolved relative to the sweep file's folder and must be readable;
/// the points' scenarios themselves are validated by load_scenario_file with their overrides.
SweepConfig load_sweep_file(const std::string& path);

/// Same, from text; `source_name` stands for the file name in messages and locates the base
/// scenario (relative paths are taken from its folder).
SweepConfig load_sweep_text(const std::string& text, const std::string& source_name);

/// Loads and validates a training workload file (scenarios/workloads/*.yaml; schema in
/// scenarios/README.md, "Workload files"): unknown keys, wrong types and out-of-range values stop
/// it with "file:line:col: key.path: what".
WorkloadConfig load_workload_file(const std::string& path);

/// Same, from text; `source_name` stands for the file name in messages.
WorkloadConfig load_workload_text(const std::string& text, const std::string& source_name);

}  // namespace mt
