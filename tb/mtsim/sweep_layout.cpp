#include "tb/mtsim/sweep_layout.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

#include "model/collective/byte_size.h"
#include "model/core/sha256.h"
#include "model/core/text_file.h"
#include "model/sim/results.h"
#include "tb/mtsim/cli.h"

namespace mt::cli {

namespace {

constexpr std::size_t kMaxErrorChars = 400;

std::string read_whole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

}  // namespace

std::string absolute_path(const std::string& path) {
  char* resolved = ::realpath(path.c_str(), nullptr);
  if (resolved == nullptr) throw UsageError(path + ": " + std::strerror(errno));
  std::string out = resolved;
  std::free(resolved);
  return out;
}

std::string self_executable() {
  char buf[4096];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) throw Error("cannot find the mtsim executable (/proc/self/exe)");
  return std::string(buf, static_cast<std::size_t>(n));
}

void make_dir(const std::string& path) {
  std::string partial;
  std::istringstream parts(path);
  if (!path.empty() && path.front() == '/') partial = "/";
  for (std::string part; std::getline(parts, part, '/');) {
    if (part.empty()) continue;
    partial += part;
    if (::mkdir(partial.c_str(), 0777) != 0 && errno != EEXIST)
      throw UsageError(partial + ": cannot create the folder: " + std::strerror(errno));
    partial += "/";
  }
}

bool file_exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

std::string sweep_manifest(const SweepConfig& sweep) {
  constexpr std::uint64_t kMaxBytes = 64u << 20;
  return "sweep_file_sha256 " +
         sha256_hex(read_text_file(sweep.source_file, "sweep file", kMaxBytes)) +
         "\nscenario_file_sha256 " +
         sha256_hex(read_text_file(sweep.scenario_file, "scenario file", kMaxBytes)) + "\n";
}

void check_sweep_manifest(const std::string& root, const std::string& manifest,
                          const std::string& action) {
  const std::string path = root + "/sweep.manifest";
  if (!file_exists(path)) {
    std::cout << "note: " << path << " is missing (a folder of an older mtsim): " << action
              << " cannot check that the sweep file and the base scenario are unchanged\n";
    return;
  }
  const std::string held = read_text_file(path, "sweep manifest", 1 << 16);
  if (held == manifest) return;
  const auto line_of = [](const std::string& text, const std::string& name) {
    const auto at = text.find(name + " ");
    return at == std::string::npos ? std::string() : text.substr(at, text.find('\n', at) - at);
  };
  std::string changed;
  for (const char* name : {"sweep_file_sha256", "scenario_file_sha256"}) {
    if (line_of(held, name) != line_of(manifest, name))
      changed +=
          std::string(changed.empty() ? "" : " and ") +
          (std::string(name) == "sweep_file_sha256" ? "the sweep file" : "the base scenario");
  }
  throw UsageError(root + " holds the results of another sweep: " +
                   (changed.empty() ? std::string("its manifest differs") : changed + " changed") +
                   " since they were written (" + path + "), so " + action +
                   " would mix them; restore the files, --overwrite, or give another --out");
}

SweepLock::SweepLock(const std::string& root) {
  const std::string path = root + "/.sweep.lock";
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd_ < 0)
    throw UsageError("cannot open the sweep folder's lock " + path + ": " + std::strerror(errno));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    ::close(fd_);
    fd_ = -1;
    if (error == EWOULDBLOCK)
      throw UsageError(root + " is being written by another mtsim sweep (it holds " + path +
                       "): wait for it to end, or give another --out");
    throw UsageError("cannot lock " + path + ": " + std::strerror(error));
  }
}

SweepLock::~SweepLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the lock
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += (c == '\'') ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::vector<std::string> point_command(const std::string& exe, const SweepConfig& sweep,
                                       const SweepPoint& point, const SweepDir& dir) {
  std::vector<std::string> argv = {exe, "run", sweep.scenario_file};
  for (const auto& s : point.set_args) {
    argv.push_back("--set");
    argv.push_back(s);
  }
  argv.push_back("--json");
  argv.push_back(dir.point_json(point.index));
  argv.push_back("--error-json");
  argv.push_back(dir.point_error(point.index));
  return argv;
}

std::string command_line(const std::vector<std::string>& argv) {
  std::string line;
  for (const auto& a : argv) line += (line.empty() ? "" : " ") + shell_quote(a);
  return line;
}

void write_points_file(const std::string& path, const std::string& exe, const SweepConfig& sweep,
                       const std::vector<SweepPoint>& points, const SweepDir& dir) {
  std::string text;
  for (const auto& p : points) text += command_line(point_command(exe, sweep, p, dir)) + "\n";
  write_text_atomically(path, text);
}

SweepRecord collect_sweep_record(const SweepPoint& point, int exit_status,
                                 const std::string& json_path, const std::string& error_path,
                                 const std::string& log_path, double wall_seconds) {
  SweepRecord r;
  r.point = point.index;
  r.key = point.key;
  r.values = point.values;
  for (auto& v : r.values) v.location = ErrorLocation();
  r.exit_status = exit_status;
  r.wall_seconds = wall_seconds;
  std::string json_problem;
  if (std::ifstream(json_path).good()) {
    try {
      const nlohmann::json doc = nlohmann::json::parse(read_whole(json_path));
      for (const auto& run : doc.at("runs")) r.runs.push_back(run_result_from_json(run));
    } catch (const std::exception& e) {
      r.runs.clear();
      json_problem = json_path + ": unreadable results: " + e.what();
    }
  }
  if (exit_status > 128) {
    r.error = "mtsim run was killed by signal " + std::to_string(exit_status - 128) + " (" +
              ::strsignal(exit_status - 128) + ")";
    return r;
  }
  for (const auto& run : r.runs) {
    if (run_failed(run)) {
      r.error = run.algorithm + " at " + format_byte_size(run.bytes) + ": " +
                (run.error.empty() ? "the data check failed" : run.error);
      return r;
    }
  }
  if (exit_status != 0) {
    // The error that stopped the point, as it reported it (line and location fields).
    std::string report_problem;
    if (std::ifstream(error_path).good()) {
      try {
        const ErrorReport report =
            error_report_from_json(nlohmann::json::parse(read_whole(error_path)));
        r.error = report.line;
        r.error_location = report.location;
      } catch (const std::exception& e) {
        report_problem = error_path + ": unreadable error report: " + e.what() + "; ";
      }
    }
    if (r.error.size() > kMaxErrorChars) r.error = r.error.substr(0, kMaxErrorChars) + "...";
    if (r.error.empty()) {
      r.error = report_problem + "mtsim run exited with status " + std::to_string(exit_status) +
                " (log: " + log_path + ")";
    }
  } else if (r.runs.empty()) {
    r.error =
        json_problem.empty() ? "mtsim run wrote no results (" + json_path + ")" : json_problem;
  }
  return r;
}

std::size_t count_failed(const std::vector<SweepRecord>& records) {
  std::size_t n = 0;
  for (const auto& r : records)
    if (!r.passed()) ++n;
  return n;
}

void print_summary(const SweepConfig& sweep, const std::vector<SweepPoint>& points,
                   const std::vector<SweepRecord>& records, const SweepDir& dir) {
  const std::size_t failed = count_failed(records);
  std::cout << "sweep " << sweep.name << ": " << records.size() << " of " << points.size()
            << " points finished, " << records.size() - failed << " passed, " << failed
            << " failed\n";
  for (const auto& r : records)
    if (!r.passed())
      std::cout << "  FAILED point " << r.point << " (" << r.key << "), exit " << r.exit_status
                << ": " << r.error << "\n";
  std::cout << "results: " << dir.root << "/results.csv, " << dir.root << "/results.json ("
            << dir.root << "/results.jsonl: one record per point)\n";
}

}  // namespace mt::cli
