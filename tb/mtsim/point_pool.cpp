#include "tb/mtsim/point_pool.h"

#include <malloc.h>
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
#include "tb/mtsim/process_pool.h"

#ifdef MT_PROFILE_GENERATE
// The profile-collecting build of scripts/build.sh: a point process leaves by _exit, which skips
// libgcov's write of its profile, so it writes it first.
extern "C" void __gcov_dump();
#endif

namespace mt::cli {

namespace {

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
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n <= 0 && errno != EINTR) break;
    if (n > 0) done += static_cast<std::size_t>(n);
  }
  ::close(fd);
  std::cout.flush();
#ifdef MT_PROFILE_GENERATE
  __gcov_dump();
#endif
  ::_exit(0);
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
    // A crash is a bug of mtsim; a kill from outside (the OOM killer, a user) is not.
    const int sig = WTERMSIG(outcome.wait_status);
    failed.internal_error =
        sig == SIGSEGV || sig == SIGBUS || sig == SIGABRT || sig == SIGFPE || sig == SIGILL;
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

}  // namespace

std::vector<RunResult> run_points(const ScenarioConfig& scenario, const std::vector<Point>& points,
                                  int jobs, bool with_messages, double time_limit_seconds) {
  std::vector<RunResult> results(points.size());
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
  run_all(
      points.size(), jobs, options,
      [&](std::size_t i, int fd) {
        simulate_in_child(scenario, *points[i].first, points[i].second, with_messages, fd);
      },
      [&](ProcessOutcome&& outcome, std::size_t /*running*/) {
        const auto& [p, bytes] = points[outcome.task];
        results[outcome.task] =
            point_result(outcome, failed_result(scenario, *p, bytes, ""), time_limit_seconds);
        ++done;
        show(true);
      },
      [&] { show(false); });
  if (tty) std::cerr << "\r\033[K" << std::flush;
  return results;
}

PointRunner point_runner(const ScenarioConfig& scenario, int jobs) {
  return [&scenario, jobs](const std::vector<Point>& points, bool with_messages) {
    return run_points(scenario, points, jobs, with_messages);
  };
}

}  // namespace mt::cli
