#include "tb/mtsim/sweep_progress.h"

#include <unistd.h>

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <sstream>

namespace mt::cli {

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

SweepProgress::SweepProgress(std::size_t total, double total_weight, std::size_t jobs)
    : total_(total),
      total_weight_(total_weight),
      jobs_(jobs),
      tty_(::isatty(STDERR_FILENO) == 1),
      start_(Clock::now()) {}

void SweepProgress::started() {
  if (tty_) draw();
}

void SweepProgress::finished(const SweepRecord& r, double weight, std::size_t running) {
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

void SweepProgress::tick(std::size_t running) {
  running_ = running;
  if (!tty_) return;
  if (Clock::now() - last_draw_ < std::chrono::seconds(1)) return;
  draw();
}

void SweepProgress::clear() {
  if (tty_) std::cerr << "\r\033[K" << std::flush;
}

double SweepProgress::elapsed() const {
  return std::chrono::duration<double>(Clock::now() - start_).count();
}

std::string SweepProgress::timing() const {
  std::string text = duration_text(elapsed()) + " elapsed";
  if (done_ > 0 && done_ < total_ && done_weight_ > 0)
    text += ", ~" +
            duration_text(elapsed() / done_weight_ * std::max(0.0, total_weight_ - done_weight_)) +
            " left";
  return text;
}

void SweepProgress::draw() {
  constexpr std::size_t kWidth = 30;
  const std::size_t filled = total_ == 0 ? kWidth : kWidth * done_ / total_;
  std::cerr << "\r\033[K[" << std::string(filled, '#') << std::string(kWidth - filled, '.') << "] "
            << done_ << "/" << total_ << " points, " << failed_ << " failed, " << running_
            << " running (-j " << jobs_ << "), " << timing() << std::flush;
  last_draw_ = Clock::now();
}

}  // namespace mt::cli
