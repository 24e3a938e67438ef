#pragma once
// The sweep loader: reads a sweep file (schema: scenarios/README.md, "Sweep files") into a
// SweepConfig.

#include <string>

#include "model/params/config_error.h"
#include "model/params/sweep_config.h"

namespace mt {

/// Loads and validates a sweep file: unknown keys, wrong types, empty or repeated axes and values
/// stop it with "file:line:col: key.path: what". The base scenario path is resolved relative to
/// the sweep file's folder and must be readable; the points' scenarios themselves are validated
/// by load_scenario_file with their overrides.
SweepConfig load_sweep_file(const std::string& path);

/// Same, from text; `source_name` stands for the file name in messages and locates the base
/// scenario (relative paths are taken from its folder).
SweepConfig load_sweep_text(const std::string& text, const std::string& source_name);

}  // namespace mt
