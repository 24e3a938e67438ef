#pragma once
// The table packer: a Schedule's dependencies (lists of message ids) turned into per-node
// schedule-table entries that wait on arrival-counter thresholds (schedule_table.h), exact for
// every entry or refused with the node, entry and message that no threshold expresses.
// Bit layout, widths and errors: model/sched/SCHEDULE_TABLE.md.

#include <cstdint>
#include <vector>

#include "model/collective/issue_queue.h"
#include "model/collective/schedule.h"
#include "model/sched/schedule_table.h"

namespace mt {

/// The tables of every node of one schedule.
struct PackedSchedule {
  TableFormat format;  ///< widths shared by every node
  int ports = 1;       ///< NIC ports per node
  int depth = 0;       ///< largest table (entries of the busiest node)
  int counters = 0;    ///< arrival counters per node (largest over nodes, at least 1)
  int max_count = 0;  ///< largest counter threshold (arrivals of one counter): the widths' MaxCount
  /// Per node: its entries in issue order (step, then issue_order() rank, then program order; or
  /// planned: see pack_schedule).
  std::vector<std::vector<TableEntry>> tables;
  /// Per node, parallel to tables[node]: the schedule message id of each entry.
  std::vector<std::vector<int>> messages;
  /// Per message id: the counter of its receiver (`peer`) it increments (= its entry's
  /// dst_counter).
  std::vector<int> message_counter;
  /// Per node: arrival counter -> number of messages that increment it (the release counter:
  /// the number of distinct release cycles).
  std::vector<std::vector<int>> counter_arrivals;
  /// Per node: the counter the host rings at each release cycle (-1: no entry has one). An entry
  /// with release cycle r waits for it to count the distinct release cycles <= r.
  std::vector<int> release_counter;
  /// Per node: the distinct Op::release_cycle values of its entries, ascending, cycles.
  std::vector<std::vector<std::uint64_t>> release_cycles;
};

/// Builds every node's table from `schedule`. Entries are in issue order: step, then the rank of
/// issue_order() (messages that wait for others of their own step after those), then program
/// order; a message that waits for a later step's is a TableError (issue_order's text). `ports[id]`
/// is the NIC port of message id (the port the simulator sends it by, 0..num_ports-1). Counters:
/// per node, incoming messages that appear together in one op's deps share a counter (union-find
/// over the deps sets; messages no op waits for share one extra counter); then counters of the same
/// flow are merged while every threshold stays exact. For every entry with deps D (all in counter
/// c) the threshold is wait_count = |{m in c : m happens-before the entry's issue}| and every other
/// message of c must happen after the issue; entries without deps get wait_counter 0, wait_count 0,
/// unless they have a release_cycle: then they wait on the node's release counter (one extra
/// counter the host rings once at each distinct release cycle; see
/// PackedSchedule::release_counter); a message with both deps and a release_cycle cannot be packed.
/// Throws TableError naming the node, the entry (message id) and the offending message when a
/// schedule cannot be packed this way, or when ports/ids are out of range.
///
/// `planned_issue` (empty: step order): per message id, the cycle a run issued it (a free host's,
/// nic.scheduler_table_order planned); each node's entries are then in that order (ties by step,
/// rank, program order). It must be an order a run could issue in (every message after its
/// dependencies, at or after what they are staged behind), else TableError naming the message:
/// then a scheduler without step order that refills its windows in table order never stalls.
PackedSchedule pack_schedule(const Schedule& schedule, const std::vector<int>& ports, int num_ports,
                             const std::vector<std::uint64_t>& planned_issue = {});

/// Checks that `packed` fits a fixed `format` (e.g. an RTL build's parameters): throws TableError
/// naming the node, the entry and the field that does not fit.
void check_fits(const PackedSchedule& packed, const TableFormat& format);

}  // namespace mt
