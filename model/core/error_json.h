#pragma once
// An error as one process hands it to another (`mtsim run --error-json` to `mtsim sweep`): the
// line the user was shown, the exit status and the ErrorLocation fields, so the reader takes the
// place of the error from fields instead of parsing it out of a log.

#include <nlohmann/json.hpp>
#include <string>

#include "model/core/error.h"

namespace mt {

/// An error reported by a process that stopped on it.
struct ErrorReport {
  std::string line;        ///< the error line the process printed (what the user saw)
  int exit_status = 0;     ///< the process's exit status
  ErrorLocation location;  ///< where the error is (fields unknown when not located)
};

/// `location` as a JSON object of its known fields only (keys: the member names).
nlohmann::json to_json(const ErrorLocation& location);
/// Inverse of to_json(const ErrorLocation&): keys not present stay unknown. Throws
/// nlohmann::json::exception on a field of the wrong type.
ErrorLocation error_location_from_json(const nlohmann::json& j);

/// {"error": line, "exit_status": N, "location": {...}}.
nlohmann::json to_json(const ErrorReport& report);
/// Inverse of to_json(const ErrorReport&). Throws nlohmann::json::exception when malformed.
ErrorReport error_report_from_json(const nlohmann::json& j);

}  // namespace mt
