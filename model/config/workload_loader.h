#pragma once
// The workload loader: reads a training workload file (scenarios/workloads/*.yaml; schema in
// scenarios/README.md, "Workload files") into a WorkloadConfig.

#include <string>

#include "model/params/config_error.h"
#include "model/workload/workload.h"

namespace mt {

/// Loads and validates a workload file: unknown keys, wrong types and out-of-range values stop
/// it with "file:line:col: key.path: what".
WorkloadConfig load_workload_file(const std::string& path);

/// Same, from text; `source_name` stands for the file name in messages.
WorkloadConfig load_workload_text(const std::string& text, const std::string& source_name);

}  // namespace mt
