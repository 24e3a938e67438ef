#include "tb/mtsim/process_pool.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <iostream>

#include "model/core/error.h"

namespace mt::cli {

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::chrono::milliseconds kPollPeriod{100};

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

}  // namespace

int ProcessOutcome::exit_code() const {
  if (WIFSIGNALED(wait_status)) return 128 + WTERMSIG(wait_status);
  return WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : 125;
}

ProcessPool::ProcessPool(const Options& options) : options_(options) {}

ProcessPool::~ProcessPool() {
  stop_all(SIGKILL);
}

void ProcessPool::start(std::size_t task, const ChildBody& body) {
  int fds[2] = {-1, -1};
  if (options_.answer_pipe && ::pipe2(fds, O_CLOEXEC) != 0)
    throw Error(std::string("pipe: ") + std::strerror(errno));
  std::cout.flush();
  std::cerr.flush();
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int error = errno;
    if (fds[0] >= 0) {
      ::close(fds[0]);
      ::close(fds[1]);
    }
    throw Error(std::string("fork: ") + std::strerror(error));
  }
  if (pid == 0) {
    if (options_.own_process_group) ::setpgid(0, 0);
    // Die with the parent, whatever kills it (a killed mtsim leaves no child burning a core; the
    // signal survives exec), also when it died before this line ran.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    if (fds[0] >= 0) ::close(fds[0]);
    body(fds[1]);
    ::_exit(127);  // a body must not return
  }
  // Also here: no window in which a kill of the group misses the new child.
  if (options_.own_process_group) ::setpgid(pid, pid);
  if (fds[1] >= 0) ::close(fds[1]);
  children_.push_back({pid, fds[0], task, Clock::now(), false, {}});
}

void ProcessPool::kill_child(const Child& child, int signal) const {
  ::kill(options_.own_process_group ? -child.pid : child.pid, signal);
}

void ProcessPool::enforce_time_limit() {
  if (options_.time_limit_seconds <= 0) return;
  for (auto& child : children_) {
    if (child.timed_out || seconds_since(child.started) < options_.time_limit_seconds) continue;
    child.timed_out = true;
    kill_child(child, SIGKILL);
  }
}

std::optional<ProcessOutcome> ProcessPool::reap_finished() {
  for (auto it = children_.begin(); it != children_.end(); ++it) {
    if (it->fd >= 0) continue;  // still answering: it ends when the pipe closes
    int status = 0;
    // A child with an answer pipe closes it when it ends: wait for it; any other is polled.
    const pid_t pid = ::waitpid(it->pid, &status, options_.answer_pipe ? 0 : WNOHANG);
    if (pid != it->pid) continue;
    ProcessOutcome outcome{it->task, status, it->timed_out, std::move(it->output),
                           seconds_since(it->started)};
    children_.erase(it);
    return outcome;
  }
  return std::nullopt;
}

std::optional<ProcessOutcome> ProcessPool::wait(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    enforce_time_limit();
    if (auto outcome = reap_finished()) return outcome;
    std::vector<pollfd> fds;
    for (const auto& child : children_)
      if (child.fd >= 0) fds.push_back({child.fd, POLLIN, 0});
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    const int wait_ms = static_cast<int>(
        std::max<std::int64_t>(0, std::min<std::int64_t>(left.count(), kPollPeriod.count())));
    const int ready = ::poll(fds.data(), fds.size(), wait_ms);
    if (ready < 0) {
      if (errno == EINTR) return std::nullopt;  // a signal: the caller decides
      throw Error(std::string("poll: ") + std::strerror(errno));
    }
    for (auto& child : children_) {
      if (child.fd < 0) continue;
      const auto found =
          std::find_if(fds.begin(), fds.end(), [&](const pollfd& p) { return p.fd == child.fd; });
      if (found == fds.end() || found->revents == 0) continue;
      char buf[65536];
      const ssize_t n = ::read(child.fd, buf, sizeof buf);
      if (n > 0) {
        child.output.append(buf, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        ::close(child.fd);
        child.fd = -1;
      }
    }
    if (auto outcome = reap_finished()) return outcome;
    if (Clock::now() >= deadline) return std::nullopt;
  }
}

void ProcessPool::stop_all(int signal) {
  for (const auto& child : children_) kill_child(child, signal);
  for (auto& child : children_) {
    if (child.fd >= 0) ::close(child.fd);
    ::waitpid(child.pid, nullptr, 0);
  }
  children_.clear();
}

void run_all(std::size_t count, int jobs, const ProcessPool::Options& options,
             const std::function<void(std::size_t task, int answer_fd)>& body,
             const std::function<void(ProcessOutcome&&, std::size_t running)>& finished,
             const std::function<void()>& tick) {
  ProcessPool pool(options);
  std::size_t next = 0;
  while (next < count || pool.running() > 0) {
    while (next < count && static_cast<int>(pool.running()) < jobs) {
      const std::size_t task = next++;
      pool.start(task, [&](int fd) { body(task, fd); });
    }
    std::optional<ProcessOutcome> outcome = pool.wait(kPollPeriod);
    if (outcome) finished(std::move(*outcome), pool.running());
    if (tick) tick();
  }
}

}  // namespace mt::cli
