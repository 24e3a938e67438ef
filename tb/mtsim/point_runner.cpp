#include "tb/mtsim/point_runner.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "model/collective/algorithm.h"
#include "model/collective/schedule_file.h"
#include "model/collective/verify.h"
#include "model/config/scenario_loader.h"
#include "model/core/json_text.h"
#include "model/sim/results.h"
#include "model/sim/system.h"
#include "tb/rtl_adapter/rtl_scheduler.h"

namespace mt::cli {

namespace {

// The schedule of a {name: file} entry, checked against the run's topology (ScenarioError naming
// the entry and the file when it cannot be read or does not fit).
Schedule load_file_entry(const AlgorithmRun& run, const Topology& topology) {
  const std::string where = run.where + ": collective.algorithms: " + run.label + ": ";
  Schedule schedule;
  try {
    schedule = load_any_schedule_file(run.schedule_file);
  } catch (const ScheduleError& e) {
    throw ScenarioError(where + e.what());
  }
  const std::string mismatch = topology_mismatch(schedule, topology);
  if (!mismatch.empty())
    throw ScenarioError(where + "schedule file \"" + run.schedule_file +
                        "\" does not fit the "
                        "scenario's topology: it " +
                        mismatch);
  return schedule;
}

}  // namespace

PreparedAlgorithm prepare(const ScenarioConfig& scenario, const AlgorithmRun& run,
                          const AlgorithmParams& params, std::uint64_t only_bytes) {
  PreparedAlgorithm p;
  p.run = &run;
  p.only_bytes = only_bytes;
  TopologyConfig config = scenario.topology;
  if (run.ports > 0) config.ports_per_node = run.ports;
  p.topology = std::make_unique<Topology>(config);
  if (!run.schedule_file.empty()) {
    // A file's chunks are fractions of the all-reduce: unequal ones are scaled to each size.
    p.schedule = load_file_entry(run, *p.topology);
    if (only_bytes > 0) p.schedule = scaled_to(p.schedule, only_bytes / 4);
    return p;
  }
  try {
    p.schedule = build_schedule(run.name, *p.topology, params);
  } catch (const AlgorithmError& e) {
    throw ScenarioError(run.where + ": collective.algorithms: " + run.label + ": " + e.what());
  }
  return p;
}

std::vector<PreparedAlgorithm> prepare_for_sizes(const ScenarioConfig& scenario,
                                                 const std::vector<std::uint64_t>& sizes_bytes) {
  std::vector<PreparedAlgorithm> prepared;
  for (const auto& run : scenario.collective.algorithms) {
    const std::uint64_t first = sizes_bytes.front();
    if (!run.schedule_file.empty()) {
      PreparedAlgorithm p = prepare(scenario, run, run.params, 0);
      if (p.schedule.chunk_offsets.empty()) {
        prepared.push_back(std::move(p));
      } else {
        for (const std::uint64_t bytes : sizes_bytes)
          prepared.push_back(prepare(scenario, run, run.params, bytes));
      }
      continue;
    }
    if (with_size(run.name, run.params, first) == run.params) {
      prepared.push_back(prepare(scenario, run, run.params, 0));
      continue;
    }
    for (const std::uint64_t bytes : sizes_bytes)
      prepared.push_back(prepare(scenario, run, with_size(run.name, run.params, bytes), bytes));
  }
  return prepared;
}

std::vector<PreparedAlgorithm> prepare_all(const ScenarioConfig& scenario) {
  return prepare_for_sizes(scenario, scenario.collective.sizes_bytes);
}

RunResult failed_result(const ScenarioConfig& scenario, const PreparedAlgorithm& p,
                        std::uint64_t bytes, const std::string& error) {
  RunResult r;
  r.scenario = scenario.name;
  r.topology = p.topology->name();
  r.algorithm = p.run->label;
  r.schedule = p.schedule.algorithm;
  r.nodes = p.topology->nodes();
  r.ports = p.topology->ports_per_node();
  r.bytes = bytes;
  r.clock_ghz = scenario.clock_ghz;
  r.steps = p.schedule.num_steps;
  r.error = error;
  return r;
}

namespace {

// Child side: simulate, send the result as JSON through the pipe, leave without unwinding SystemC.
[[noreturn]] void simulate_in_child(const ScenarioConfig& scenario, const PreparedAlgorithm& p,
                                    std::uint64_t bytes, bool with_messages, int fd) {
  std::string text;
  try {
    ScenarioConfig point = scenario;
    point.nic = p.run->nic;  // the entry's nic (scenario nic plus its `nic:` overrides)
    // nic.scheduler: rtl puts the Verilated nic_sched behind every NIC (hardware issue).
    const SchedulerFactory factory = point.nic.scheduler == SchedulerImpl::kRtl
                                         ? make_rtl_scheduler_factory()
                                         : SchedulerFactory();
    RunResult r = simulate(point, *p.topology, p.schedule, bytes, factory);
    r.algorithm = p.run->label;
    r.schedule = p.schedule.algorithm;
    text = json_text(to_json(r, with_messages));
  } catch (const std::exception& e) {
    text = json_text(to_json(failed_result(scenario, p, bytes, e.what())));
  }
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n <= 0 && errno != EINTR) break;
    if (n > 0) done += static_cast<std::size_t>(n);
  }
  ::close(fd);
  std::cout.flush();
  ::_exit(0);
}

}  // namespace

Child start_child(const ScenarioConfig& scenario, const PreparedAlgorithm& p, std::uint64_t bytes,
                  bool with_messages, std::size_t index, double time_limit_seconds) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw Error(std::string("pipe: ") + std::strerror(errno));
  std::cout.flush();
  std::cerr.flush();
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) throw Error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    // Die with the parent (a killed `mtsim run` leaves no point burning a core), also when it
    // died before this line ran.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(1);
    ::close(fds[0]);
    if (time_limit_seconds > 0) {
      ::signal(SIGALRM, SIG_DFL);
      struct itimerval limit {};
      limit.it_value.tv_sec = static_cast<time_t>(time_limit_seconds);
      limit.it_value.tv_usec = static_cast<suseconds_t>(
          (time_limit_seconds - static_cast<double>(limit.it_value.tv_sec)) * 1e6);
      if (limit.it_value.tv_sec == 0 && limit.it_value.tv_usec == 0) limit.it_value.tv_usec = 1;
      ::setitimer(ITIMER_REAL, &limit, nullptr);
    }
    simulate_in_child(scenario, p, bytes, with_messages, fds[1]);
  }
  ::close(fds[1]);
  return {pid, fds[0], index, time_limit_seconds};
}

// Reads the child's whole answer and reaps it; a crash becomes a failed result.
RunResult finish_child(const Child& child, const RunResult& placeholder) {
  std::string text;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(child.fd, buf, sizeof buf);
    if (n > 0)
      text.append(buf, static_cast<std::size_t>(n));
    else if (n == 0 || errno != EINTR)
      break;
  }
  ::close(child.fd);
  int status = 0;
  ::waitpid(child.pid, &status, 0);
  RunResult failed = placeholder;
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM && child.time_limit_seconds > 0) {
    std::ostringstream limit;
    limit << child.time_limit_seconds;
    failed.error = "stopped at the wall-clock limit of " + limit.str() + " s (--time-limit)";
    return failed;
  }
  if (WIFSIGNALED(status)) {
    failed.error = std::string("simulation process died: ") + ::strsignal(WTERMSIG(status));
    return failed;
  }
  try {
    return run_result_from_json(nlohmann::json::parse(text));
  } catch (const std::exception& e) {
    failed.error = "simulation process returned no result (exit status " +
                   std::to_string(WEXITSTATUS(status)) + ")";
    return failed;
  }
}

bool verify_all(const std::vector<PreparedAlgorithm>& prepared) {
  for (const auto& p : prepared) {
    const VerifyReport report = verify(p.schedule, *p.topology);
    if (!report.ok) {
      std::cerr << "mtsim: " << p.run->label << " on " << p.topology->name()
                << (p.run->schedule_file.empty()
                        ? ""
                        : " (schedule file \"" + p.run->schedule_file + "\")")
                << ": schedule verification failed: " << report.first_error << "\n";
      return false;
    }
  }
  return true;
}

std::vector<Point> points_for(const std::vector<PreparedAlgorithm>& prepared,
                              const std::vector<std::uint64_t>& sizes_bytes) {
  std::vector<Point> points;
  for (const std::uint64_t bytes : sizes_bytes)
    for (const auto& p : prepared)
      if (p.only_bytes == 0 || p.only_bytes == bytes) points.emplace_back(&p, bytes);
  return points;
}

std::vector<RunResult> run_points(const ScenarioConfig& scenario, const std::vector<Point>& points,
                                  int jobs, bool with_messages, double time_limit_seconds) {
  std::vector<RunResult> results(points.size());
  std::vector<Child> running;
  std::size_t next = 0;
  // Progress on a terminal only (a redrawn line on stderr; pipes and files stay clean).
  const bool tty = ::isatty(STDERR_FILENO) == 1 && points.size() > 1;
  const auto started = std::chrono::steady_clock::now();
  std::size_t done = 0;
  while (next < points.size() || !running.empty()) {
    while (next < points.size() && static_cast<int>(running.size()) < jobs) {
      running.push_back(start_child(scenario, *points[next].first, points[next].second,
                                    with_messages, next, time_limit_seconds));
      ++next;
    }
    // Reap the oldest child first: results keep their order and no pipe can fill up unread
    // for long (each child writes once, at its end).
    const Child child = running.front();
    running.erase(running.begin());
    const auto& [p, bytes] = points[child.index];
    results[child.index] = finish_child(child, failed_result(scenario, *p, bytes, ""));
    ++done;
    if (tty) {
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      std::cerr << "\r\033[Kmtsim: " << done << "/" << points.size() << " points done, "
                << running.size() << " running, " << static_cast<long>(seconds) << " s elapsed"
                << std::flush;
    }
  }
  if (tty) std::cerr << "\r\033[K" << std::flush;
  return results;
}

}  // namespace mt::cli
