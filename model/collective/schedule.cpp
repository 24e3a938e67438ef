#include "model/collective/schedule.h"

#include <algorithm>
#include <string>
#include <utility>

namespace mt {

int Schedule::add(Op op) {
  op.id = static_cast<int>(ops.size());
  num_steps = std::max(num_steps, op.step + 1);
  num_flows = std::max(num_flows, op.flow + 1);
  ops.push_back(std::move(op));
  return ops.back().id;
}

std::vector<int> Schedule::ops_of(int node) const {
  std::vector<int> ids;
  for (const Op& op : ops) {
    if (op.node == node) ids.push_back(op.id);
  }
  return ids;
}

std::uint64_t chunk_begin(int chunk, int num_chunks, std::uint64_t elements) {
  if (num_chunks < 1) {
    throw ScheduleError("chunk_begin: num_chunks is " + std::to_string(num_chunks) +
                        "; must be >= 1");
  }
  if (chunk < 0 || chunk > num_chunks) {
    throw ScheduleError("chunk_begin: chunk " + std::to_string(chunk) + " is out of range 0.." +
                        std::to_string(num_chunks));
  }
  // floor(c*E/n) without overflowing: c*E = c*n*(E/n) + c*(E%n), and c*(E%n) < n*n fits.
  const auto c = static_cast<std::uint64_t>(chunk);
  const auto n = static_cast<std::uint64_t>(num_chunks);
  return c * (elements / n) + c * (elements % n) / n;
}

std::uint64_t chunk_end(int chunk, int num_chunks, std::uint64_t elements) {
  if (chunk < 0 || chunk >= num_chunks) {
    throw ScheduleError("chunk_end: chunk " + std::to_string(chunk) + " is out of range 0.." +
                        std::to_string(num_chunks - 1));
  }
  return chunk_begin(chunk + 1, num_chunks, elements);
}

const char* to_string(OpKind kind) {
  switch (kind) {
    case OpKind::kReduce:
      return "reduce";
    case OpKind::kBroadcast:
      return "broadcast";
  }
  return "unknown";
}

}  // namespace mt
