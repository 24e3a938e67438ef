#include "model/collective/schedule.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

#include "model/core/parse_integer.h"

namespace mt {

namespace {

MessageBudget message_budget = kPacketModelBudget;
std::size_t messages_held = 0;

/// This machine's physical memory, bytes (16 GiB when the system does not say).
std::size_t physical_memory_bytes() {
  static const std::size_t bytes = [] {
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page_bytes = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || page_bytes <= 0) return std::size_t{16} << 30;
    return static_cast<std::size_t>(pages) * static_cast<std::size_t>(page_bytes);
  }();
  return bytes;
}

/// MT_MAX_MESSAGES=N, when set (e.g. higher on a machine whose memory the guess undercounts).
std::optional<std::size_t> given_message_limit() {
  static const std::optional<std::size_t> given = []() -> std::optional<std::size_t> {
    const char* text = std::getenv("MT_MAX_MESSAGES");
    if (text == nullptr) return std::nullopt;
    const std::optional<long long> n = parse_integer(text);
    if (!n || *n < 1)
      throw Error(std::string("MT_MAX_MESSAGES=") + text +
                  ": expected a positive integer (the most messages a schedule may hold)");
    return static_cast<std::size_t>(*n);
  }();
  return given;
}

/// "one per 512 B of its 24 GiB of memory; <measured>": how a memory-based limit was set.
std::string memory_share_text(std::size_t bytes_each, const std::string& measured) {
  const std::size_t memory_gib = (physical_memory_bytes() + (std::size_t{1} << 29)) >> 30;
  return "one per " + std::to_string(bytes_each) + " B of its " + std::to_string(memory_gib) +
         " GiB of memory; " + measured;
}

}  // namespace

void set_message_budget(const MessageBudget& budget) {
  message_budget = budget;
}

void set_messages_held(std::size_t messages) {
  messages_held = messages;
}

std::size_t default_message_limit() {
  if (const std::optional<std::size_t> given = given_message_limit()) return *given;
  const std::size_t machine = physical_memory_bytes() / message_budget.bytes;
  return machine > messages_held ? machine - messages_held : 0;
}

void refuse_too_large(const std::string& what, std::size_t limit) {
  const std::string why =
      given_message_limit()
          ? "MT_MAX_MESSAGES"
          : memory_share_text(message_budget.bytes, message_budget.measured) +
                (messages_held == 0 ? ""
                                    : "; " + std::to_string(messages_held) +
                                          " are held by the scenario's other schedules");
  throw ScheduleTooLarge(what + ", more than this machine can " + message_budget.purpose +
                         " (at most " + std::to_string(limit) + ", " + why +
                         "): fewer chunks (a smaller pipeline) or a smaller network");
}

std::size_t default_dependency_limit() {
  return physical_memory_bytes() / kDependencyBudgetBytes;
}

int Schedule::add(Op op) {
  if (ops.size() >= message_limit) {
    refuse_too_large("the schedule passes " + std::to_string(message_limit) + " messages",
                     message_limit);
  }
  if (op.deps.size() > dependency_limit - std::min(dependencies, dependency_limit)) {
    throw ScheduleTooLarge(
        "the schedule's messages wait for more than " + std::to_string(dependency_limit) +
        " dependencies in all (message " + std::to_string(ops.size()) + " from node " +
        std::to_string(op.node) + " waits for " + std::to_string(op.deps.size()) +
        "), more than this machine can " + message_budget.purpose + " (at most " +
        memory_share_text(kDependencyBudgetBytes,
                          "a dependency costs about 14-17 B when the schedule is built and "
                          "checked") +
        "): a smaller network, or an algorithm whose messages wait for fewer others "
        "(e.g. multitree_opt's balanced trees rather than multitree's stars on a fat-tree)");
  }
  dependencies += op.deps.size();
  op.id = static_cast<int>(ops.size());
  num_steps = std::max(num_steps, op.step + 1);
  num_flows = std::max(num_flows, op.flow + 1);
  ops.push_back(std::move(op));
  return ops.back().id;
}

void Schedule::reserve(std::size_t messages) {
  if (messages <= message_limit) ops.reserve(messages);
}

std::vector<int> Schedule::ops_of(int node) const {
  std::vector<int> ids;
  for (const Op& op : ops) {
    if (op.node == node) ids.push_back(op.id);
  }
  return ids;
}

bool Schedule::uses_buffers() const {
  return scratch_chunks > 0 ||
         std::any_of(ops.begin(), ops.end(), [](const Op& op) { return op.uses_buffers(); });
}

bool Schedule::has_local_steps() const {
  return std::any_of(ops.begin(), ops.end(), [](const Op& op) { return op.is_local(); });
}

std::string slot_text(Buffer buffer, int slot) {
  return (buffer == Buffer::kScratch ? "scratch slot " : "chunk ") + std::to_string(slot);
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

std::string check_chunk_offsets(const Schedule& schedule) {
  const auto& offsets = schedule.chunk_offsets;
  if (offsets.empty()) return "";
  const auto needed = static_cast<std::size_t>(std::max(schedule.num_chunks, 0)) + 1;
  if (offsets.size() != needed) {
    return "chunk_offsets has " + std::to_string(offsets.size()) + " values; num_chunks " +
           std::to_string(schedule.num_chunks) + " needs " + std::to_string(needed);
  }
  if (offsets.front() != 0) {
    return "chunk_offsets starts at " + std::to_string(offsets.front()) + "; it must start at 0";
  }
  if (offsets.size() > 1 && offsets.back() == 0) {
    return "chunk_offsets ends at 0: its chunks cover no elements, so they cannot be scaled to a "
           "buffer";
  }
  for (std::size_t i = 1; i < offsets.size(); ++i) {
    if (offsets[i] < offsets[i - 1]) {
      return "chunk_offsets decreases at chunk " + std::to_string(i - 1) + " (" +
             std::to_string(offsets[i - 1]) + " then " + std::to_string(offsets[i]) + ")";
    }
  }
  return "";
}

std::vector<std::uint64_t> chunk_bounds(const Schedule& schedule, std::uint64_t elements) {
  if (schedule.chunk_offsets.empty()) {
    std::vector<std::uint64_t> bounds;
    bounds.reserve(static_cast<std::size_t>(std::max(schedule.num_chunks, 0)) + 1);
    for (int c = 0; c <= schedule.num_chunks; ++c)
      bounds.push_back(chunk_begin(c, schedule.num_chunks, elements));
    return bounds;
  }
  const std::string problem = check_chunk_offsets(schedule);
  if (!problem.empty()) throw ScheduleError("schedule " + problem);
  if (schedule.chunk_offsets.back() != elements) {
    throw ScheduleError("schedule chunk_offsets cover " +
                        std::to_string(schedule.chunk_offsets.back()) +
                        " elements but the buffer holds " + std::to_string(elements) + " elements");
  }
  return schedule.chunk_offsets;
}

std::vector<std::uint64_t> chunk_byte_sizes(const Schedule& schedule, std::uint64_t bytes) {
  std::vector<std::uint64_t> sizes;
  if (!schedule.chunk_offsets.empty()) {
    const std::vector<std::uint64_t> bounds = chunk_bounds(schedule, bytes / 4);
    for (std::size_t c = 0; c + 1 < bounds.size(); ++c)
      sizes.push_back((bounds[c + 1] - bounds[c]) * 4);
    return sizes;
  }
  const auto n = static_cast<std::uint64_t>(std::max(schedule.num_chunks, 1));
  for (std::uint64_t i = 0; i < static_cast<std::uint64_t>(std::max(schedule.num_chunks, 0)); ++i)
    sizes.push_back((i + 1) * bytes / n - i * bytes / n);
  return sizes;
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

std::vector<std::vector<int>> staged_issue_predecessors(const Schedule& schedule) {
  std::vector<std::vector<int>> preds;
  for (const Op& op : schedule.ops) {
    for (const int d : op.deps) {
      if (d < 0 || static_cast<std::size_t>(d) >= schedule.ops.size()) continue;
      const int k = schedule.ops[static_cast<std::size_t>(d)].apply_after;
      if (k < 0 || static_cast<std::size_t>(k) >= schedule.ops.size()) continue;
      if (preds.empty()) preds.resize(schedule.ops.size());
      preds[static_cast<std::size_t>(op.id)].push_back(k);
    }
  }
  return preds;
}

}  // namespace mt
