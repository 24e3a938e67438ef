#pragma once
// Shared pieces of the mtsim command-line tool (the system testbench).

#include <boost/program_options.hpp>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "model/core/error.h"
#include "model/core/error_json.h"

namespace mt::cli {

/// `n` and the noun for it: "1 flow", "4 flows".
inline std::string counted(long long n, const std::string& singular, const std::string& plural) {
  return std::to_string(n) + " " + (n == 1 ? singular : plural);
}

/// Moves `value` where the process's exit, not the command, ends it, and returns it there: a
/// command need not free a schedule of millions of messages one by one before it exits (14 s of
/// a 4096-node MultiTree run went to that). It stays reachable, so a leak checker does not
/// report it.
template <class T>
std::decay_t<T>& keep_until_exit(T&& value) {
  static auto* const kept = new std::vector<std::shared_ptr<void>>;  // never destroyed
  auto held = std::make_shared<std::decay_t<T>>(std::forward<T>(value));
  kept->push_back(held);
  return *held;
}

/// Exit statuses of every mtsim command.
constexpr int kExitOk = 0;
constexpr int kExitCheckFailed = 1;  ///< data or schedule verification failed, or a run stalled
constexpr int kExitBadInput = 2;     ///< bad option, scenario, topology, algorithm or file
constexpr int kExitInternal = 3;     ///< a bug in mtsim: an error that is not an mt::Error

/// Bad input detected by the CLI itself (exit 2).
class UsageError : public Error {
 public:
  using Error::Error;
};

/// Parses a command's `args` against `options` (`positional`, when not null, names the option
/// that takes the one positional argument) and returns the parsed values. On --help prints
/// `options` and `help_footer` and returns nothing: the command then exits 0.
std::optional<boost::program_options::variables_map> parse_command(
    const std::vector<std::string>& args,
    const boost::program_options::options_description& options, const char* positional,
    const std::string& help_footer = "");

/// Inside a catch block: the exception being handled as mtsim `command` reports it: the line it
/// prints on stderr, the exit status (kExitBadInput for bad input and mt::Error, kExitInternal for
/// anything else: a bug) and the error's location fields.
ErrorReport report_current_error(const std::string& command);
/// Writes `report` to `path` as JSON (atomically), for the process that started this one.
void write_error_report(const std::string& path, const ErrorReport& report);

/// `mtsim run`: simulate every point of a scenario.
int run_command(const std::vector<std::string>& args);
/// `mtsim schedule`: build, verify and print a schedule without simulating it.
int schedule_command(const std::vector<std::string>& args);
/// `mtsim sweep`: run every point of a sweep file as its own process (or emit a Slurm array).
int sweep_command(const std::vector<std::string>& args);
/// `mtsim train`: one training iteration of a DNN workload with overlapped all-reduces.
int train_command(const std::vector<std::string>& args);
/// `mtsim import msccl`: an MSCCL XML all-reduce as a verified schedule JSON file.
int import_command(const std::vector<std::string>& args);
/// `mtsim verify`: verify a schedule JSON file written by anyone.
int verify_command(const std::vector<std::string>& args);
/// `mtsim keys`: every scenario key with its type, default, unit and meaning.
int keys_command(const std::vector<std::string>& args);

}  // namespace mt::cli
