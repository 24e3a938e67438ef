#pragma once
// Helpers of the end-to-end CLI tests: run mtsim (or any command) through the shell and capture
// its output and exit status; small file helpers.

#include <sys/wait.h>

#include <unistd.h>
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "tests/support/source_dir.h"

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

/// This test process's scratch folder under the system temp dir, removed when the process ends,
/// so tests run from anywhere leave nothing behind.
inline const std::filesystem::path& scratch_root() {
  struct Root {
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("mtsim-test-" + std::to_string(::getpid()));
    Root() { std::filesystem::create_directories(path); }
    ~Root() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  };
  static const Root root;
  return root.path;
}

/// A scratch file path named `name` (removed first if it exists).
inline std::string scratch(const std::string& name) {
  const std::filesystem::path path = scratch_root() / name;
  std::filesystem::remove(path);
  return path.string();
}

/// An empty scratch folder named `name`.
inline std::string scratch_dir(const std::string& name) {
  const std::filesystem::path path = scratch_root() / name;
  std::filesystem::remove_all(path);
  std::filesystem::create_directories(path);
  return path.string();
}

/// `path` parsed as JSON.
inline nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

}  // namespace mt::test
