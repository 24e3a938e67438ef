#pragma once
// JSON to text for every file and pipe mtsim writes. Strings from outside (file names, paths
// quoted in messages) may hold bytes that are not UTF-8; nlohmann's dump() would throw on them,
// so they are written as U+FFFD instead.

#include <nlohmann/json.hpp>
#include <string>

namespace mt {

/// `json` as text; `indent` < 0 writes one line.
inline std::string json_text(const nlohmann::json& json, int indent = -1) {
  return json.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace mt
