#include "tb/mtsim/point_pool.h"

#include <malloc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <iostream>
#include <sstream>

#include "model/core/json_text.h"
#include "model/sim/results.h"
#include "tb/mtsim/cli.h"
#include "tb/mtsim/process_pool.h"

#ifdef MT_PROFILE_GENERATE
// The profile-collecting build of scripts/build.sh: a point process leaves by _exit, which skips
// libgcov's write of its profile, so it writes it first.
extern "C" void __gcov_dump();
#endif

namespace mt::cli {

namespace {

// Child side, last: `text` through the answer pipe, then leave without unwinding (SystemC).
[[noreturn]] void answer_and_exit(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n <= 0 && errno != EINTR) break;
    if (n > 0) done += static_cast<std::size_t>(n);
  }
  ::close(fd);
#ifdef MT_PROFILE_GENERATE
  __gcov_dump();
#endif
  ::_exit(0);
}

// Child side: simulate, send the result as JSON through the pipe, leave without unwinding SystemC.
[[noreturn]] void simulate_in_child(const ScenarioConfig& scenario, const PreparedAlgorithm& p,
                                    std::uint64_t bytes, bool with_messages, int fd) {
  std::string text;
  try {
    // The message cycles go out only with a trace (to_json): not made otherwise.
    text = json_text(
        to_json(run_point(scenario, p, bytes,
                          with_messages ? MessageCycles::kRecorded : MessageCycles::kNotRecorded),
                with_messages));
  } catch (const std::exception& e) {  // writing the result failed
    text = json_text(to_json(exception_result(scenario, p, bytes, e)));
  }
  std::cout.flush();
  answer_and_exit(fd, text);
}

// Whether a child that died of `sig` crashed: a bug of mtsim. A kill from outside (the OOM
// killer, a user) is not one.
bool crash_signal(int sig) {
  return sig == SIGSEGV || sig == SIGBUS || sig == SIGABRT || sig == SIGFPE || sig == SIGILL;
}

// The point's result from what its process left; a crash or a kill becomes `failed` with why.
RunResult point_result(const ProcessOutcome& outcome, RunResult failed, double time_limit_seconds) {
  if (outcome.timed_out) {
    std::ostringstream limit;
    limit << time_limit_seconds;
    failed.error = "stopped at the wall-clock limit of " + limit.str() + " s (--time-limit)";
    return failed;
  }
  if (WIFSIGNALED(outcome.wait_status)) {
    const int sig = WTERMSIG(outcome.wait_status);
    failed.internal_error = crash_signal(sig);
    failed.error = std::string("simulation process died: ") + ::strsignal(sig);
    return failed;
  }
  failed.internal_error = true;  // a process that returns says what happened, or it is a bug
  try {
    return run_result_from_json(nlohmann::json::parse(outcome.output));
  } catch (const std::exception& e) {
    failed.error = "simulation process returned no result (exit status " +
                   std::to_string(WEXITSTATUS(outcome.wait_status)) + ")";
    return failed;
  }
}

// How often the parent looks at its children while none finishes (the progress line's clock).
constexpr std::chrono::milliseconds kProgressPeriod{100};

// The check process's nice value (0 normal, 19 lowest).
constexpr int kCheckNice = 10;

// Child side of run_points_checked's check: its error report as JSON through the pipe (nothing
// when it passed).
[[noreturn]] void check_in_child(const InputCheck& check, int fd) {
  // Below the points in priority (its threads inherit it): a single point's simulation, the
  // longer of the two at pod scale, keeps its core; the check takes what the points leave.
  (void)::setpriority(PRIO_PROCESS, 0, kCheckNice);
  std::string text;
  try {
    if (const std::optional<ErrorReport> error = check()) text = json_text(to_json(*error));
  } catch (const std::exception& e) {  // a check that throws is a bug
    text = json_text(
        to_json(ErrorReport{std::string("mtsim: internal error: ") + e.what(), kExitInternal, {}}));
  } catch (...) {
    text = json_text(to_json(ErrorReport{"mtsim: internal error", kExitInternal, {}}));
  }
  answer_and_exit(fd, text);
}

// The check's error from what its process left: nothing when it passed; a process that died
// without answering is an error too (the inputs were not checked).
std::optional<ErrorReport> check_result(const ProcessOutcome& outcome) {
  if (WIFEXITED(outcome.wait_status) && WEXITSTATUS(outcome.wait_status) == 0) {
    if (outcome.output.empty()) return std::nullopt;
    try {
      return error_report_from_json(nlohmann::json::parse(outcome.output));
    } catch (const std::exception&) {  // falls through to the report below
    }
  }
  std::string why = "exit status " + std::to_string(outcome.exit_code());
  bool crashed = false;
  if (WIFSIGNALED(outcome.wait_status)) {
    const int sig = WTERMSIG(outcome.wait_status);
    crashed = crash_signal(sig);
    why = ::strsignal(sig);
  }
  return ErrorReport{"mtsim: the schedules were not verified: their verification process died (" +
                         why + "); no result is given",
                     crashed ? kExitInternal : kExitCheckFailed,
                     {}};
}

}  // namespace

CheckedResults run_points_checked(const ScenarioConfig& scenario, const std::vector<Point>& points,
                                  int jobs, bool with_messages, double time_limit_seconds,
                                  const InputCheck& check) {
  CheckedResults out;
  out.results.resize(points.size());
  // Progress on a terminal only (a line on stderr redrawn every second and as each point ends;
  // pipes and files stay clean). The pool refills to `jobs` children as each ends, so
  // min(jobs, points left) are running.
  const bool tty = ::isatty(STDERR_FILENO) == 1;
  const auto started = std::chrono::steady_clock::now();
  std::size_t done = 0;
  long shown_seconds = -1;
  const auto show = [&](bool force) {
    const auto seconds = static_cast<long>(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    if (!tty || (!force && seconds == shown_seconds)) return;
    shown_seconds = seconds;
    const std::size_t running =
        std::min(static_cast<std::size_t>(std::max(jobs, 1)), points.size() - done);
    std::cerr << "\r\033[Kmtsim: " << done << "/" << points.size() << " points done, " << running
              << " running, " << seconds << " s elapsed" << std::flush;
  };
  show(true);
  // The heap the schedules' construction and verification freed goes back to the system before
  // the point processes fork: kept, it stays resident in this process while they run (4096-node
  // MultiTree: GBs).
  ::malloc_trim(0);
  ProcessPool::Options options;
  options.time_limit_seconds = time_limit_seconds;
  options.answer_pipe = true;
  ProcessPool pool(options);
  const std::size_t check_task = points.size();  // the check's task index
  bool checking = static_cast<bool>(check);
  if (checking) {
    const ProcessPool::ChildBody checker = [&](int fd) { check_in_child(check, fd); };
    const bool time_limited = false;  // the limit is per point
    pool.start(check_task, checker, time_limited);
  }
  std::size_t next = 0;
  while (next < points.size() || pool.running() > 0) {
    while (next < points.size() &&
           pool.running() - (checking ? 1 : 0) < static_cast<std::size_t>(std::max(jobs, 1))) {
      const std::size_t i = next++;
      pool.start(i, [&](int fd) {
        simulate_in_child(scenario, *points[i].first, points[i].second, with_messages, fd);
      });
    }
    std::optional<ProcessOutcome> outcome = pool.wait(kProgressPeriod);
    if (outcome && outcome->task == check_task) {
      checking = false;
      out.error = check_result(*outcome);
      if (out.error) {
        pool.stop_all(SIGKILL);
        out.results.clear();
        break;
      }
    } else if (outcome) {
      const auto& [p, bytes] = points[outcome->task];
      out.results[outcome->task] =
          point_result(*outcome, failed_result(scenario, *p, bytes, ""), time_limit_seconds);
      ++done;
      show(true);
    }
    show(false);
  }
  if (tty) std::cerr << "\r\033[K" << std::flush;
  return out;
}

std::vector<RunResult> run_points(const ScenarioConfig& scenario, const std::vector<Point>& points,
                                  int jobs, bool with_messages, double time_limit_seconds) {
  return run_points_checked(scenario, points, jobs, with_messages, time_limit_seconds, {}).results;
}

PointRunner point_runner(const ScenarioConfig& scenario, int jobs) {
  return [&scenario, jobs](const std::vector<Point>& points, bool with_messages) {
    return run_points(scenario, points, jobs, with_messages);
  };
}

}  // namespace mt::cli
