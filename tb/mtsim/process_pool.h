#pragma once
// The one process pool of mtsim: children forked to run a function (a simulation point, or an
// exec of `mtsim run`), each optionally answering through a pipe, reaped as they finish, killed
// at a wall-clock limit, and dying with their parent.

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mt::cli {

/// How a finished child ended.
struct ProcessOutcome {
  std::size_t task = 0;     ///< the caller's task index, as given to start()
  int wait_status = 0;      ///< status from waitpid()
  bool timed_out = false;   ///< killed at the pool's time limit
  std::string output;       ///< everything the child wrote to its answer pipe
  double wall_seconds = 0;  ///< from fork to reaping, seconds

  /// The exit status as a shell reports it: the exit code, or 128 + signal.
  int exit_code() const;
};

/// Runs tasks in forked children.
class ProcessPool {
 public:
  /// Settings of every child.
  struct Options {
    /// Wall-clock limit per child, seconds; 0 = none. A child still running then is killed
    /// (SIGKILL, its whole process group when it has one) and reported timed_out.
    double time_limit_seconds = 0;
    /// Put each child in its own process group (so a terminal's Ctrl-C reaches only the parent,
    /// and a time-limit kill reaches the child's own children).
    bool own_process_group = false;
    /// Give each child an answer pipe (the fd passed to its body; read until it closes).
    bool answer_pipe = false;
  };

  /// The code a child runs after fork(): `answer_fd` is the write end of its answer pipe (-1
  /// without one). It must not return: it ends with _exit() or exec.
  using ChildBody = std::function<void(int answer_fd)>;

  explicit ProcessPool(const Options& options);
  /// Kills (SIGKILL) and reaps every child still running.
  ~ProcessPool();
  ProcessPool(const ProcessPool&) = delete;
  ProcessPool& operator=(const ProcessPool&) = delete;

  /// Forks a child running `body` for the caller's task `task` (mt::Error when fork fails).
  void start(std::size_t task, const ChildBody& body);

  /// Children not yet reaped.
  std::size_t running() const { return children_.size(); }

  /// Waits at most `timeout` for a child to finish (reading answer pipes and enforcing the time
  /// limit meanwhile) and returns it; nothing when none finished in that time or a signal
  /// interrupted the wait.
  std::optional<ProcessOutcome> wait(std::chrono::milliseconds timeout);

  /// Sends `signal` to every running child (its process group when it has one) and reaps them.
  void stop_all(int signal);

 private:
  struct Child {
    pid_t pid = -1;
    int fd = -1;  ///< read end of the answer pipe; -1 once closed (or without one)
    std::size_t task = 0;
    std::chrono::steady_clock::time_point started;
    bool timed_out = false;
    std::string output;
  };

  void kill_child(const Child& child, int signal) const;
  void enforce_time_limit();
  std::optional<ProcessOutcome> reap_finished();

  Options options_;
  std::vector<Child> children_;  ///< in start order
};

/// Runs tasks 0..count-1, `jobs` children at a time, calling `body(task, answer_fd)` in each
/// child and `finished(outcome, running)` in the parent as each ends (in finishing order;
/// `running`: children still running). `tick()` (when set) runs about ten times a second.
void run_all(std::size_t count, int jobs, const ProcessPool::Options& options,
             const std::function<void(std::size_t task, int answer_fd)>& body,
             const std::function<void(ProcessOutcome&&, std::size_t running)>& finished,
             const std::function<void()>& tick = {});

}  // namespace mt::cli
