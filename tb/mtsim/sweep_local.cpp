#include "tb/mtsim/sweep_local.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "model/core/json_text.h"
#include "model/sim/results.h"
#include "tb/mtsim/cli.h"
#include "tb/mtsim/process_pool.h"
#include "tb/mtsim/sweep_progress.h"

namespace mt::cli {
namespace {

volatile std::sig_atomic_t g_interrupted = 0;  // set by SIGINT/SIGTERM while points run

extern "C" void on_interrupt(int) {
  g_interrupted = 1;
}

constexpr int kExitTimedOut = 124;  // as timeout(1)

// Child side: `mtsim run` of the point with stdout and stderr in `log`.
[[noreturn]] void exec_point(const std::vector<std::string>& argv, int log) {
  std::vector<char*> cargv;
  for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  ::dup2(log, STDOUT_FILENO);
  ::dup2(log, STDERR_FILENO);
  const int null_in = ::open("/dev/null", O_RDONLY);
  if (null_in >= 0) ::dup2(null_in, STDIN_FILENO);
  ::execv(cargv[0], cargv.data());
  const char msg[] = "mtsim sweep: cannot execute mtsim run\n";
  (void)!::write(STDERR_FILENO, msg, sizeof msg - 1);
  ::_exit(127);
}

// Records of earlier runs: kept and skipped with --resume (their points in `skip`), else none.
std::vector<SweepRecord> earlier_records(const std::vector<SweepPoint>& points, const SweepDir& dir,
                                         const LocalSweepOptions& options,
                                         std::set<std::size_t>& skip) {
  std::vector<SweepRecord> records;
  if (!options.resume) {
    if (file_exists(dir.records()))
      std::cout << "replacing the results of an earlier sweep in " << dir.root
                << " (--overwrite)\n";
    return records;
  }
  std::map<std::string, std::size_t> index_of;
  for (const auto& p : points) index_of[p.key] = p.index;
  std::size_t stale = 0;
  for (auto& r : read_sweep_records(dir.records())) {
    const auto found = index_of.find(r.key);
    if (found == index_of.end()) {
      ++stale;
      continue;
    }
    r.point = found->second;
    if (!r.passed() && options.retry_failed) continue;
    skip.insert(r.point);
    records.push_back(std::move(r));
  }
  std::cout << "resuming: skipping " << skip.size() << " finished points";
  if (stale > 0) std::cout << " (" << stale << " recorded points are no longer in the sweep)";
  std::cout << "\n";
  return records;
}

}  // namespace

int run_sweep_locally(const std::string& exe, const std::string& sweep_file,
                      const std::string& out_dir, const SweepConfig& sweep,
                      const std::vector<SweepPoint>& points, const std::vector<double>& weights,
                      const SweepDir& dir, const LocalSweepOptions& options) {
  std::set<std::size_t> skip;
  std::vector<SweepRecord> records = earlier_records(points, dir, options, skip);
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
            << sweep.scenario_file << "; running " << todo.size() << " with -j " << options.jobs
            << "; results in " << dir.root << "\n"
            << std::flush;

  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: the pool's wait returns early
  struct sigaction old_int {
  }, old_term{};
  ::sigaction(SIGINT, &action, &old_int);
  ::sigaction(SIGTERM, &action, &old_term);
  g_interrupted = 0;

  double todo_weight = 0;
  for (const std::size_t i : todo) todo_weight += weights[i];
  SweepProgress progress(todo.size(), todo_weight, static_cast<std::size_t>(options.jobs));
  progress.started();
  ProcessPool::Options pool_options;
  pool_options.time_limit_seconds = options.timeout_seconds;
  // Own process groups: a terminal's Ctrl-C reaches the sweep, which then stops its points.
  pool_options.own_process_group = true;
  ProcessPool pool(pool_options);
  std::size_t next = 0;
  std::size_t ran = 0;  // points finished by this invocation
  while ((next < todo.size() || pool.running() > 0) && !g_interrupted) {
    while (next < todo.size() && static_cast<int>(pool.running()) < options.jobs &&
           !g_interrupted) {
      const SweepPoint& p = points[todo[next++]];
      std::remove(dir.point_json(p.index).c_str());
      std::remove(dir.point_error(p.index).c_str());
      std::remove(dir.point_status(p.index).c_str());
      const std::string log_path = dir.point_log(p.index);
      const int log = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      if (log < 0)
        throw Error(log_path + ": cannot write the point's log: " + std::strerror(errno));
      const std::vector<std::string> argv = point_command(exe, sweep, p, dir);
      try {
        pool.start(p.index, [&](int) { exec_point(argv, log); });
      } catch (...) {
        ::close(log);
        throw;
      }
      ::close(log);
    }
    // Wake 10 times a second so the progress bar's clock moves while long points run.
    const std::optional<ProcessOutcome> outcome = pool.wait(std::chrono::milliseconds(100));
    if (!outcome) {
      progress.tick(pool.running());
      continue;
    }
    if (g_interrupted) break;
    const SweepPoint& p = points[outcome->task];
    const int code = outcome->timed_out ? kExitTimedOut : outcome->exit_code();
    std::ofstream(dir.point_status(p.index)) << code << "\n";
    SweepRecord r = collect_sweep_record(p, code, dir.point_json(p.index), dir.point_error(p.index),
                                         dir.point_log(p.index), outcome->wall_seconds);
    if (outcome->timed_out) {
      std::ostringstream limit;
      limit << options.timeout_seconds;
      r.error = "timed out: still running after " + limit.str() + " s (--timeout); killed";
    }
    append_sweep_record(dir.records(), r);
    ++ran;
    records.push_back(r);
    write_sweep_results(dir.root, sweep, points, records);
    progress.finished(r, weights[p.index], pool.running());
  }
  progress.clear();
  if (g_interrupted) pool.stop_all(SIGTERM);
  ::sigaction(SIGINT, &old_int, nullptr);
  ::sigaction(SIGTERM, &old_term, nullptr);

  std::sort(records.begin(), records.end(),
            [](const SweepRecord& a, const SweepRecord& b) { return a.point < b.point; });
  print_summary(sweep, points, records, dir);
  std::cout << "elapsed " << duration_text(progress.elapsed()) << " for " << ran
            << " points run with -j " << options.jobs << "\n";
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
