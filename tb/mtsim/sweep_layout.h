#pragma once
// A sweep's output folder as `mtsim sweep` lays it out, the `mtsim run` command line of each
// point, and the record built from what a point's process left there (exit status, results JSON,
// log).

#include <cstddef>
#include <string>
#include <vector>

#include "model/params/sweep_config.h"
#include "model/run/sweep.h"

namespace mt::cli {

/// Output layout of a sweep folder.
struct SweepDir {
  std::string root;  ///< absolute (except for --list)
  std::string records() const { return root + "/results.jsonl"; }
  std::string point_json(std::size_t i) const {
    return root + "/points/" + std::to_string(i) + ".json";
  }
  std::string point_error(std::size_t i) const {
    return root + "/points/" + std::to_string(i) + ".error.json";
  }
  std::string point_status(std::size_t i) const {
    return root + "/points/" + std::to_string(i) + ".status";
  }
  std::string point_log(std::size_t i) const {
    return root + "/logs/" + std::to_string(i) + ".log";
  }
};

/// `path` made absolute with symbolic links resolved (UsageError when it does not exist).
std::string absolute_path(const std::string& path);
/// The running mtsim executable (/proc/self/exe).
std::string self_executable();
/// Creates `path` and its missing parents (UsageError naming the one that fails).
void make_dir(const std::string& path);
/// True when `path` exists.
bool file_exists(const std::string& path);

/// What a sweep folder's results belong to (DIR/sweep.manifest): the SHA-256 of the sweep file
/// and of its base scenario, one "name value" line each.
std::string sweep_manifest(const SweepConfig& sweep);
/// Checks the folder's manifest against `manifest` before `action` ("--resume", "--merge")
/// reuses its results: throws UsageError naming the file that changed; a folder without one
/// (an older mtsim's) passes with a note on stdout.
void check_sweep_manifest(const std::string& root, const std::string& manifest,
                          const std::string& action);

/// An exclusive lock on a sweep folder (DIR/.sweep.lock, flock) held while it lives, released at
/// exit or on a crash; point processes do not inherit it. Throws UsageError when another
/// mtsim sweep holds it, or when the lock file cannot be opened.
class SweepLock {
 public:
  explicit SweepLock(const std::string& root);
  ~SweepLock();
  SweepLock(const SweepLock&) = delete;
  SweepLock& operator=(const SweepLock&) = delete;

 private:
  int fd_ = -1;
};
/// Single-quoted for a POSIX shell.
std::string shell_quote(const std::string& s);

/// The `mtsim run` command line (argv) of one point, writing its results to the folder.
std::vector<std::string> point_command(const std::string& exe, const SweepConfig& sweep,
                                       const SweepPoint& point, const SweepDir& dir);
/// `argv` as one shell command line.
std::string command_line(const std::vector<std::string>& argv);
/// Writes `path`: one point's `mtsim run` command line per line, in point order.
void write_points_file(const std::string& path, const std::string& exe, const SweepConfig& sweep,
                       const std::vector<SweepPoint>& points, const SweepDir& dir);

/// The record of a point from what its `mtsim run` process left: its exit status, the results
/// JSON it wrote (`json_path`, may be missing) and the error report it wrote when an error stopped
/// it before its results (`error_path`, `mtsim run --error-json`: the error line and location
/// fields); `log_path` (its stdout and stderr) is named when a failure left neither.
SweepRecord collect_sweep_record(const SweepPoint& point, int exit_status,
                                 const std::string& json_path, const std::string& error_path,
                                 const std::string& log_path, double wall_seconds);

/// Records that did not pass.
std::size_t count_failed(const std::vector<SweepRecord>& records);
/// The summary of a sweep on stdout: counts, every failure, where the results are.
void print_summary(const SweepConfig& sweep, const std::vector<SweepPoint>& points,
                   const std::vector<SweepRecord>& records, const SweepDir& dir);

}  // namespace mt::cli
