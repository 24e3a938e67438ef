#pragma once
// Live progress of `mtsim sweep` on stderr: a redrawn bar on a terminal, else one line per
// finished point. The time left is the elapsed time scaled by the weight of the points not yet
// finished over that of the finished ones.

#include <chrono>
#include <cstddef>
#include <string>

#include "model/run/sweep.h"

namespace mt::cli {

/// "42s", "3m07s" or "1h05m".
std::string duration_text(double seconds);

/// The progress display of one sweep run.
class SweepProgress {
 public:
  /// `total` points of `total_weight` (relative cost) run with `jobs` processes.
  SweepProgress(std::size_t total, double total_weight, std::size_t jobs);

  /// Draws the empty bar (terminal only).
  void started();
  /// One point finished (`weight`: its cost); `running` points still run.
  void finished(const SweepRecord& r, double weight, std::size_t running);
  /// Redraws the bar on a terminal once a second while points run.
  void tick(std::size_t running);
  /// Erases the bar (terminal only).
  void clear();
  /// Seconds since the progress started.
  double elapsed() const;

 private:
  using Clock = std::chrono::steady_clock;

  std::string timing() const;
  void draw();

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

}  // namespace mt::cli
