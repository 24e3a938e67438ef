#pragma once
// Several all-reduces sharing the network in one run: their schedules merged into one Schedule
// over the concatenated buffer (e.g. the gradient buckets of one training iteration, each
// released when backpropagation has produced it). See model/collective/SCHEDULE_FORMAT.md.

#include <cstdint>
#include <vector>

#include "model/collective/schedule.h"

namespace mt {

/// One all-reduce of a concurrent set.
struct MergePart {
  const Schedule* schedule = nullptr;  ///< built for the same topology as every other part
  std::uint64_t elements = 0;          ///< its buffer, elements (4-byte)
  std::uint64_t release_cycle = 0;     ///< its messages are not issued before this cycle, cycles
};

/// The merged schedule and where each part landed in it.
struct MergedSchedule {
  Schedule schedule;
  /// parts + 1 values: part i's messages are ids [op_begin[i], op_begin[i + 1]).
  std::vector<int> op_begin;
  /// parts + 1 values: part i's chunks are [chunk_begin[i], chunk_begin[i + 1]).
  std::vector<int> chunk_begin;
};

/// Concatenates the parts in order: part i's buffer follows part i-1's (chunk_offsets filled from
/// each part's own chunk boundaries, mt::chunk_bounds), its chunk, flow and step numbers are
/// offset by the earlier parts' num_chunks, num_flows and num_steps (so step-order issue serves
/// the parts in order on each node), its message ids and deps by the earlier parts' message
/// counts, and its messages without deps get release_cycle = the part's release_cycle, or their own
/// when it is later (a schedule file's release times hold in every mode; the others wait on them,
/// so the whole part starts then). Throws ScheduleError for no parts, a null
/// schedule, parts for different node counts or topologies, or a part whose chunk_offsets do not
/// cover its elements.
MergedSchedule merge_schedules(const std::vector<MergePart>& parts);

}  // namespace mt
