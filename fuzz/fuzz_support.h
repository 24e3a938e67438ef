#pragma once
// Shared by the fuzz targets: every input either loads or fails with an mt::Error. Any other
// exception escapes LLVMFuzzerTestOneInput, which libFuzzer reports as a crash: library text
// (std::stod, nlohmann, yaml-cpp, basic_filebuf) must never reach a user.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model/collective/verify.h"
#include "model/topology/topology.h"

namespace mt::fuzz {

/// Verifies a loaded schedule on the topology it names; a refusal (an mt::Error) is an outcome,
/// anything else escapes as a crash.
inline void verify_on_its_topology(const Schedule& schedule) {
  try {
    const Topology topology(parse_topology_spec(schedule.topology));
    verify(schedule, topology);
  } catch (const Error&) {
  }
}

/// The input as text.
inline std::string text_of(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

/// Splits off leading "#set key=value" lines (YAML comments, so seeds stay valid files) as
/// `--set` overrides; returns them and leaves the whole text as the document.
inline std::vector<std::string> leading_overrides(const std::string& text) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (text.compare(at, 5, "#set ") == 0) {
    const std::size_t end = text.find('\n', at);
    out.push_back(text.substr(at + 5, end == std::string::npos ? std::string::npos : end - at - 5));
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return out;
}

}  // namespace mt::fuzz
