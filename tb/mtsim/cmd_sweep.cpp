// `mtsim sweep`: every point of a sweep file (the cross product of its axes over a base scenario)
// run as its own `mtsim run` process, `--jobs` at a time, with a progress bar; results appended
// as points finish so an interrupted sweep keeps what it finished (`--resume` continues it).
// `--emit-slurm` writes the same job list as a Slurm job array instead; `--merge` assembles the
// array's per-point results. Sweep file schema: scenarios/README.md ("Sweep files").

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "model/core/json_text.h"
#include "model/sim/results.h"
#include "model/config/scenario_loader.h"
#include "model/config/sweep_loader.h"
#include "model/sim/sweep.h"
#include "model/topology/topology.h"
#include "tb/mtsim/cli.h"

namespace po = boost::program_options;

namespace mt::cli {
namespace {

using Clock = std::chrono::steady_clock;

volatile std::sig_atomic_t g_interrupted = 0;  // set by SIGINT/SIGTERM while points run

extern "C" void on_interrupt(int) {
  g_interrupted = 1;
}

// A point's process while it runs.
struct Child {
  pid_t pid = -1;
  std::size_t point = 0;
  Clock::time_point started;
  bool timed_out = false;  // killed at --timeout
};

constexpr int kExitTimedOut = 124;  // as timeout(1)

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

// Single-quoted for a POSIX shell.
std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += (c == '\'') ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string duration_text(double seconds) {
  if (seconds < 0) seconds = 0;
  const long s = static_cast<long>(seconds + 0.5);
  std::ostringstream os;
  if (s >= 3600)
    os << s / 3600 << "h" << std::setw(2) << std::setfill('0') << (s % 3600) / 60 << "m";
  else if (s >= 60)
    os << s / 60 << "m" << std::setw(2) << std::setfill('0') << s % 60 << "s";
  else
    os << s << "s";
  return os.str();
}

// Output layout of a sweep folder.
struct SweepDir {
  std::string root;  // absolute
  std::string records() const { return root + "/results.jsonl"; }
  std::string point_json(std::size_t i) const {
    return root + "/points/" + std::to_string(i) + ".json";
  }
  std::string point_status(std::size_t i) const {
    return root + "/points/" + std::to_string(i) + ".status";
  }
  std::string point_log(std::size_t i) const {
    return root + "/logs/" + std::to_string(i) + ".log";
  }
};

// The `mtsim run` command line of one point.
std::vector<std::string> point_command(const std::string& exe, const SweepConfig& sweep,
                                       const SweepPoint& point, const SweepDir& dir) {
  std::vector<std::string> argv = {exe, "run", sweep.scenario_file};
  for (const auto& s : point.set_args) {
    argv.push_back("--set");
    argv.push_back(s);
  }
  argv.push_back("--json");
  argv.push_back(dir.point_json(point.index));
  return argv;
}

std::string command_line(const std::vector<std::string>& argv) {
  std::string line;
  for (const auto& a : argv) line += (line.empty() ? "" : " ") + shell_quote(a);
  return line;
}

// Relative cost of simulating a scenario, for the progress bar's estimate: the simulator's work
// grows with nodes x bytes (packets moved), plus a fixed start-up cost per run.
double scenario_weight(const ScenarioConfig& scenario) {
  const double nodes = Topology(scenario.topology).nodes();
  double weight = 0;
  for (const std::uint64_t bytes : scenario.collective.sizes_bytes)
    weight += nodes * static_cast<double>(bytes) / (1 << 20) + 0.5;
  return weight * static_cast<double>(scenario.collective.algorithms.size());
}

// Loads every point's scenario before anything runs; a bad point names the sweep file position
// of the value that broke it. Returns each point's scenario_weight().
std::vector<double> validate_points(const SweepConfig& sweep,
                                    const std::vector<SweepPoint>& points) {
  std::vector<double> weights;
  for (const auto& p : points) {
    try {
      weights.push_back(scenario_weight(load_scenario_file(sweep.scenario_file, p.set_args)));
    } catch (const ScenarioError& e) {
      const std::string message = e.what();
      std::string where;
      auto match = [&](const SweepOverride& o) {
        if (where.empty() && message.rfind("--set " + o.key + "=", 0) == 0) where = o.where;
      };
      for (const auto& o : p.values) match(o);
      for (const auto& o : sweep.set) match(o);
      const std::string point_text = "point " + std::to_string(p.index) + " (" + p.key + ")";
      if (where.empty()) throw ScenarioError(message + " [" + point_text + "]");
      throw ScenarioError(where + ": " + point_text + ": " + message);
    }
  }
  return weights;
}

// Live progress on stderr: a redrawn bar on a terminal, else one line per finished point. The
// time left is the elapsed time scaled by the weight (scenario_weight) of the points not yet
// finished over that of the finished ones.
class Progress {
 public:
  Progress(std::size_t total, double total_weight, std::size_t jobs)
      : total_(total),
        total_weight_(total_weight),
        jobs_(jobs),
        tty_(::isatty(STDERR_FILENO) == 1),
        start_(Clock::now()) {}

  void started() {
    if (tty_) draw();
  }

  void finished(const SweepRecord& r, double weight, std::size_t running) {
    running_ = running;
    ++done_;
    done_weight_ += weight;
    if (!r.passed()) ++failed_;
    const std::string status = r.passed() ? "ok    " : "FAILED";
    std::ostringstream line;
    line << "[" << done_ << "/" << total_ << "] " << status << " " << std::fixed
         << std::setprecision(1) << std::setw(6) << r.wall_seconds << "s  point " << r.point << ": "
         << r.key;
    if (!r.passed()) line << "\n    error (exit " << r.exit_status << "): " << r.error;
    if (tty_) {
      if (!r.passed()) std::cerr << "\r\033[K" << line.str() << "\n";
      draw();
    } else {
      std::cerr << line.str() << "  (" << timing() << ")\n";
    }
  }

  /// Redraws the bar on a terminal once a second while points run.
  void tick(std::size_t running) {
    running_ = running;
    if (!tty_) return;
    const auto now = Clock::now();
    if (now - last_draw_ < std::chrono::seconds(1)) return;
    draw();
  }

  void clear() {
    if (tty_) std::cerr << "\r\033[K" << std::flush;
  }

  double elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

 private:
  std::string timing() const {
    std::string text = duration_text(elapsed()) + " elapsed";
    if (done_ > 0 && done_ < total_ && done_weight_ > 0)
      text +=
          ", ~" +
          duration_text(elapsed() / done_weight_ * std::max(0.0, total_weight_ - done_weight_)) +
          " left";
    return text;
  }

  void draw() {
    constexpr std::size_t kWidth = 30;
    const std::size_t filled = total_ == 0 ? kWidth : kWidth * done_ / total_;
    std::cerr << "\r\033[K[" << std::string(filled, '#') << std::string(kWidth - filled, '.')
              << "] " << done_ << "/" << total_ << " points, " << failed_ << " failed, " << running_
              << " running (-j " << jobs_ << "), " << timing() << std::flush;
    last_draw_ = Clock::now();
  }

  std::size_t total_;
  double total_weight_;
  std::size_t jobs_;
  bool tty_;
  Clock::time_point start_;
  std::size_t done_ = 0;
  double done_weight_ = 0;
  std::size_t failed_ = 0;
  std::size_t running_ = 0;
  Clock::time_point last_draw_;
};

pid_t start_point(const std::vector<std::string>& argv, const std::string& log_path) {
  const int log = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log < 0) throw Error(log_path + ": cannot write the point's log: " + std::strerror(errno));
  std::vector<char*> cargv;
  for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  std::cout.flush();
  std::cerr.flush();
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(log);
    throw Error(std::string("fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    // Own process group: a terminal's Ctrl-C reaches the sweep, which then stops its points.
    ::setpgid(0, 0);
    // Die with the sweep, whatever kills it (the signal survives exec; `mtsim run` passes the
    // same to its own children).
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    ::dup2(log, STDOUT_FILENO);
    ::dup2(log, STDERR_FILENO);
    const int null_in = ::open("/dev/null", O_RDONLY);
    if (null_in >= 0) ::dup2(null_in, STDIN_FILENO);
    ::execv(cargv[0], cargv.data());
    const char msg[] = "mtsim sweep: cannot execute mtsim run\n";
    (void)!::write(STDERR_FILENO, msg, sizeof msg - 1);
    ::_exit(127);
  }
  ::setpgid(pid, pid);  // also here: no window where an interrupt misses the new group
  ::close(log);
  return pid;
}

int exit_code_of(int status) {
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 125;
}

void write_points_file(const std::string& path, const std::string& exe, const SweepConfig& sweep,
                       const std::vector<SweepPoint>& points, const SweepDir& dir) {
  std::string text;
  for (const auto& p : points) text += command_line(point_command(exe, sweep, p, dir)) + "\n";
  write_text_atomically(path, text);
}

void emit_slurm(const std::string& exe, const std::string& sweep_file, const SweepConfig& sweep,
                const std::vector<SweepPoint>& points, const SweepDir& dir, int jobs,
                const std::vector<std::string>& slurm_options) {
  write_points_file(dir.root + "/points.txt", exe, sweep, points, dir);
  for (const auto& p : points) {  // results of an earlier run must not be merged as this one's
    std::remove(dir.point_json(p.index).c_str());
    std::remove(dir.point_status(p.index).c_str());
  }
  const std::string root = shell_quote(dir.root);
  std::ostringstream s;
  s << "#!/bin/bash\n"
    << "# Slurm job array of sweep " << sweep.name << ": " << points.size()
    << " points, one array task each.\n"
    << "# Written by: mtsim sweep " << sweep_file << " --emit-slurm --out " << dir.root << "\n"
    << "# Task i runs line i+1 of points.txt (an `mtsim run` of one point) and leaves\n"
    << "# points/i.json (results), points/i.status (exit status) and logs/i.log.\n"
    << "# Submit:  sbatch " << dir.root << "/sweep.slurm\n"
    << "# Merge:   " << exe << " sweep " << absolute_path(sweep_file) << " --merge --out "
    << dir.root << "\n"
    << "# The folder must be on a file system the compute nodes share.\n"
    << "#SBATCH --job-name=mtsim-" << sweep.name << "\n"
    << "#SBATCH --array=0-" << points.size() - 1;
  if (jobs > 0) s << "%" << jobs;
  s << "\n#SBATCH --output=" << dir.root << "/logs/%a.log\n"
    << "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n";
  for (const auto& o : slurm_options) s << "#SBATCH " << o << "\n";
  s << "set -u\n"
    << "dir=" << root << "\n"
    << "task=${SLURM_ARRAY_TASK_ID:?run this script with sbatch (a job array)}\n"
    << "cmd=$(sed -n \"$((task + 1))p\" \"$dir/points.txt\")\n"
    << "if [ -z \"$cmd\" ]; then echo \"no point $task in $dir/points.txt\" >&2; exit 2; fi\n"
    << "rm -f \"$dir/points/$task.json\" \"$dir/points/$task.status\"\n"
    << "eval \"$cmd\"\n"
    << "status=$?\n"
    << "echo \"$status\" > \"$dir/points/$task.status\"\n"
    << "exit \"$status\"\n";
  const std::string script = dir.root + "/sweep.slurm";
  write_text_atomically(script, s.str());
  ::chmod(script.c_str(), 0755);
  std::cout << "sweep " << sweep.name << ": " << points.size() << " points\n"
            << "wrote " << script << " (Slurm job array 0-" << points.size() - 1 << ")\n"
            << "wrote " << dir.root << "/points.txt (one `mtsim run` per line)\n"
            << (points.size() > 1000 ? "note: more than 1000 array tasks; Slurm's default "
                                       "MaxArraySize is 1001\n"
                                     : "")
            << "submit: sbatch " << script << "\n"
            << "merge:  mtsim sweep " << sweep_file << " --merge --out " << dir.root << "\n";
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

int merge(const SweepConfig& sweep, const std::vector<SweepPoint>& points, const SweepDir& dir) {
  // The job list was written from the same sweep file: a changed file would mislabel the points.
  std::ifstream list(dir.root + "/points.txt");
  if (list) {
    std::size_t lines = 0;
    for (std::string line; std::getline(list, line);) ++lines;
    if (lines != points.size())
      throw UsageError(dir.root + "/points.txt lists " + std::to_string(lines) +
                       " points but the sweep file gives " + std::to_string(points.size()) +
                       ": merge with the sweep file the job array was emitted from");
  }
  std::vector<SweepRecord> records;
  std::size_t missing = 0;
  for (const auto& p : points) {
    const bool has_json = file_exists(dir.point_json(p.index));
    const bool has_status = file_exists(dir.point_status(p.index));
    if (!has_json && !has_status) {
      ++missing;
      continue;
    }
    int status = 0;
    if (has_status) {
      std::ifstream in(dir.point_status(p.index));
      if (!(in >> status)) status = 125;
    }
    records.push_back(
        collect_sweep_record(p, status, dir.point_json(p.index), dir.point_log(p.index), 0.0));
  }
  std::string text;
  for (const auto& r : records) text += json_text(to_json(r)) + "\n";
  write_text_atomically(dir.records(), text);
  write_sweep_results(dir.root, sweep, points, records);
  print_summary(sweep, points, records, dir);
  if (missing > 0)
    std::cout << missing << " points have no results yet (no points/<i>.json or .status)\n";
  return (missing > 0 || count_failed(records) > 0) ? kExitCheckFailed : kExitOk;
}

}  // namespace

int sweep_command(const std::vector<std::string>& args) {
  po::options_description opts(
      "mtsim sweep SWEEP.yaml [options]\n\n"
      "Runs every point of a sweep (the cross product of its axes over a base scenario, see\n"
      "scenarios/README.md) as its own `mtsim run` process, --jobs at a time. Every point is\n"
      "validated first. Results are appended as points finish to DIR/results.jsonl and rewritten\n"
      "to DIR/results.csv and DIR/results.json; an interrupted sweep continues with --resume.\n"
      "Exit status: 0 every point passed, 1 some failed, 2 bad input.\n\n"
      "options");
  std::string sweep_file, out_dir;
  int jobs = 1;
  std::vector<std::string> slurm_options;
  double timeout_seconds = 0;
  opts.add_options()("help,h", "show this help")("jobs,j", po::value(&jobs),
                                                 "points run in parallel (processes; default 1)")(
      "out,o", po::value(&out_dir), "output folder (default out/<sweep name>)")(
      "resume", "skip the points already recorded in DIR/results.jsonl")(
      "retry-failed", "with --resume: run recorded points that failed again")(
      "list", "validate and print the points and their `mtsim run` commands; run nothing")(
      "emit-slurm",
      "write DIR/sweep.slurm (a Slurm job array, one task per point) and "
      "DIR/points.txt instead of running")(
      "slurm-option", po::value(&slurm_options)->composing(),
      "extra #SBATCH line for --emit-slurm, e.g. --slurm-option=--partition=cpu (repeatable)")(
      "merge", "assemble DIR/points/<i>.json of a Slurm run into DIR/results.*")(
      "timeout", po::value(&timeout_seconds),
      "wall-clock limit per point, seconds (default: none): a point still running then is "
      "killed and recorded as failed (exit 124), and the sweep goes on")(
      "sweep", po::value(&sweep_file), "sweep YAML file");
  const auto vm = parse_command(args, opts, "sweep");
  if (!vm) return kExitOk;
  if (sweep_file.empty()) throw UsageError("missing SWEEP.yaml (mtsim sweep --help)");
  if (jobs < 1 || jobs > 256)
    throw UsageError("--jobs " + std::to_string(jobs) + ": expected 1..256");
  const bool resume = vm->count("resume") > 0;
  const bool emit = vm->count("emit-slurm") > 0;
  const bool merging = vm->count("merge") > 0;
  const bool list = vm->count("list") > 0;
  if (static_cast<int>(emit) + static_cast<int>(merging) + static_cast<int>(list) +
          static_cast<int>(resume) >
      1)
    throw UsageError("--resume, --list, --emit-slurm and --merge exclude each other");
  if (vm->count("retry-failed") && !resume) throw UsageError("--retry-failed needs --resume");
  if (!slurm_options.empty() && !emit) throw UsageError("--slurm-option needs --emit-slurm");
  if (!(timeout_seconds >= 0 && timeout_seconds <= 1e7))
    throw UsageError("--timeout: expected 0 (none) to 10000000 seconds");

  SweepConfig sweep = load_sweep_file(sweep_file);
  sweep.scenario_file = absolute_path(sweep.scenario_file);
  const std::vector<SweepPoint> points = expand_sweep(sweep);
  if (points.empty())
    throw UsageError(sweep_file + ": exclude leaves no points of the cross product to run");
  const std::vector<double> weights = validate_points(sweep, points);

  if (out_dir.empty()) out_dir = "out/" + sweep.name;
  const std::string exe = self_executable();
  if (list) {
    SweepDir dir{out_dir};
    std::cout << "sweep " << sweep.name << ": " << points.size() << " points over "
              << sweep.scenario_file << "\n";
    for (const auto& p : points)
      std::cout << p.index << "\t" << p.key << "\n\t"
                << command_line(point_command(exe, sweep, p, dir)) << "\n";
    return kExitOk;
  }
  make_dir(out_dir + "/points");
  make_dir(out_dir + "/logs");
  const SweepDir dir{absolute_path(out_dir)};
  if (emit) {
    emit_slurm(exe, sweep_file, sweep, points, dir, vm->count("jobs") ? jobs : 0, slurm_options);
    return kExitOk;
  }
  if (merging) return merge(sweep, points, dir);

  // Records of earlier runs: kept and skipped with --resume, else replaced.
  std::map<std::string, std::size_t> index_of;
  for (const auto& p : points) index_of[p.key] = p.index;
  std::vector<SweepRecord> records;
  std::set<std::size_t> skip;
  if (resume) {
    std::size_t stale = 0;
    for (auto& r : read_sweep_records(dir.records())) {
      const auto found = index_of.find(r.key);
      if (found == index_of.end()) {
        ++stale;
        continue;
      }
      r.point = found->second;
      if (!r.passed() && vm->count("retry-failed")) continue;
      skip.insert(r.point);
      records.push_back(std::move(r));
    }
    std::cout << "resuming: skipping " << skip.size() << " finished points";
    if (stale > 0) std::cout << " (" << stale << " recorded points are no longer in the sweep)";
    std::cout << "\n";
  } else if (file_exists(dir.records())) {
    std::cout << "replacing the results of an earlier sweep in " << dir.root
              << " (--resume continues them instead)\n";
  }
  // The record file holds exactly the kept records before new ones are appended.
  {
    std::string text;
    for (const auto& r : records) text += json_text(to_json(r)) + "\n";
    write_text_atomically(dir.records(), text);
  }
  write_sweep_results(dir.root, sweep, points, records);
  write_points_file(dir.root + "/points.txt", exe, sweep, points, dir);

  std::vector<std::size_t> todo;
  for (const auto& p : points)
    if (!skip.count(p.index)) todo.push_back(p.index);
  std::cout << "sweep " << sweep.name << ": " << points.size() << " points over "
            << sweep.scenario_file << "; running " << todo.size() << " with -j " << jobs
            << "; results in " << dir.root << "\n"
            << std::flush;

  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: waitpid returns EINTR
  struct sigaction old_int {
  }, old_term{};
  ::sigaction(SIGINT, &action, &old_int);
  ::sigaction(SIGTERM, &action, &old_term);
  g_interrupted = 0;

  double todo_weight = 0;
  for (const std::size_t i : todo) todo_weight += weights[i];
  Progress progress(todo.size(), todo_weight, static_cast<std::size_t>(jobs));
  progress.started();
  std::map<pid_t, Child> running;
  std::size_t next = 0;
  std::size_t ran = 0;  // points finished by this invocation
  while ((next < todo.size() || !running.empty()) && !g_interrupted) {
    while (next < todo.size() && static_cast<int>(running.size()) < jobs && !g_interrupted) {
      const SweepPoint& p = points[todo[next++]];
      std::remove(dir.point_json(p.index).c_str());
      std::remove(dir.point_status(p.index).c_str());
      const pid_t pid = start_point(point_command(exe, sweep, p, dir), dir.point_log(p.index));
      running[pid] = {pid, p.index, Clock::now()};
    }
    // Poll (10 times a second) so the progress bar's clock moves while long points run.
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, WNOHANG);
    if (pid < 0 && errno != EINTR) throw Error(std::string("waitpid: ") + std::strerror(errno));
    if (pid <= 0) {
      struct timespec pause {
        0, 100 * 1000 * 1000
      };
      ::nanosleep(&pause, nullptr);
      progress.tick(running.size());
      if (timeout_seconds > 0) {
        for (auto& [running_pid, c] : running) {
          if (c.timed_out ||
              std::chrono::duration<double>(Clock::now() - c.started).count() < timeout_seconds)
            continue;
          c.timed_out = true;
          ::kill(-running_pid, SIGKILL);  // the point's whole process group
        }
      }
      continue;
    }
    const auto it = running.find(pid);
    if (it == running.end()) continue;
    const Child child = it->second;
    running.erase(it);
    if (g_interrupted) break;
    const SweepPoint& p = points[child.point];
    const int code = child.timed_out ? kExitTimedOut : exit_code_of(status);
    std::ofstream(dir.point_status(p.index)) << code << "\n";
    SweepRecord r =
        collect_sweep_record(p, code, dir.point_json(p.index), dir.point_log(p.index),
                             std::chrono::duration<double>(Clock::now() - child.started).count());
    if (child.timed_out) {
      std::ostringstream limit;
      limit << timeout_seconds;
      r.error = "timed out: still running after " + limit.str() + " s (--timeout); killed";
    }
    append_sweep_record(dir.records(), r);
    ++ran;
    records.push_back(r);
    write_sweep_results(dir.root, sweep, points, records);
    progress.finished(r, weights[p.index], running.size());
  }
  progress.clear();
  if (g_interrupted) {
    for (const auto& [pid, child] : running) ::kill(-pid, SIGTERM);
    for (const auto& [pid, child] : running) ::waitpid(pid, nullptr, 0);
  }
  ::sigaction(SIGINT, &old_int, nullptr);
  ::sigaction(SIGTERM, &old_term, nullptr);

  std::sort(records.begin(), records.end(),
            [](const SweepRecord& a, const SweepRecord& b) { return a.point < b.point; });
  print_summary(sweep, points, records, dir);
  std::cout << "elapsed " << duration_text(progress.elapsed()) << " for " << ran
            << " points run with -j " << jobs << "\n";
  if (g_interrupted) {
    std::cout << "interrupted: " << points.size() - records.size() << " points left; `mtsim sweep "
              << sweep_file << " --resume --out " << out_dir << "` continues\n";
    return 130;
  }
  const std::size_t failed = count_failed(records);
  if (failed > 0) {
    std::cout << failed << " of " << points.size() << " points failed\n";
    return kExitCheckFailed;
  }
  return kExitOk;
}

}  // namespace mt::cli
