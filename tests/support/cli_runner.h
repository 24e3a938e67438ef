#pragma once
// Helpers of the end-to-end CLI tests: run mtsim (or any command) through the shell and capture
// its output and exit status; small file helpers.

#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace mt::test {

/// Exit status and output of one command.
struct CliResult {
  int status = -1;     ///< exit status; -1 when the command was killed by a signal
  std::string output;  ///< stdout and stderr together
};

/// Runs `command` through the shell (stderr merged into stdout) and captures it.
inline CliResult run_shell(const std::string& command) {
  CliResult r;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) r.output.append(buf, n);
  const int status = ::pclose(pipe);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

/// Runs `mtsim ARGS` (the CLI under test, MT_MTSIM_BIN).
inline CliResult mtsim(const std::string& args) {
  return run_shell(std::string(MT_MTSIM_BIN) + " " + args);
}

/// Writes `text` to `path`, replacing it.
inline void write_file(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

/// The whole content of `path` (empty when it cannot be read).
inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

/// True when `path` can be opened for reading.
inline bool exists(const std::string& path) {
  return std::ifstream(path).good();
}

/// `path` parsed as JSON.
inline nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

}  // namespace mt::test
