#include "model/sim/run_result.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace mt {

bool run_failed(const RunResult& run) {
  return !run.error.empty() || (!run.data_verified && run.data_mode != DataMode::kOff);
}

std::vector<std::uint64_t> last_arrival_cycles(const RunResult& run,
                                               const std::vector<int>& op_begin) {
  std::vector<std::uint64_t> ends;
  const auto& arrivals = run.message_arrival_cycles;
  for (std::size_t i = 0; i + 1 < op_begin.size(); ++i) {
    const int begin = op_begin[i];
    const int end = op_begin[i + 1];
    if (begin < 0 || end < begin || static_cast<std::size_t>(end) > arrivals.size()) {
      throw std::out_of_range("last_arrival_cycles: part " + std::to_string(i) + " (messages " +
                              std::to_string(begin) + ".." + std::to_string(end) +
                              ") is outside the run's " + std::to_string(arrivals.size()) +
                              " messages");
    }
    ends.push_back(
        begin == end ? 0 : *std::max_element(arrivals.begin() + begin, arrivals.begin() + end));
  }
  return ends;
}

}  // namespace mt
