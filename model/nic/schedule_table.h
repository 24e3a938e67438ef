#pragma once
// The packed schedule table of the co-designed NIC scheduler: per node, one entry per message the
// node sends, in issue order (by step, then program order), with the dependency expressed as an
// arrival counter threshold instead of a list of message ids. One packer (pack_schedule), one
// field layout (TableFormat) and ONE encode/decode pair (encode_entry / decode_entry) shared by
// the C++ golden model, the RTL testbench and the co-simulation adapter.
// Bit layout, widths and errors: model/nic/SCHEDULE_TABLE.md.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/collective/schedule.h"
#include "model/core/error.h"

namespace mt {

/// Thrown when a schedule cannot be packed (a dependency that no counter threshold expresses
/// exactly) or a value does not fit its field. The message names the node and the entry.
class TableError : public Error {
 public:
  using Error::Error;
};

/// One schedule-table entry: a message this node sends.
struct TableEntry {
  OpKind kind = OpKind::kReduce;  ///< what the receiver does with the data
  int port = 0;                   ///< NIC port the message leaves by, 0..ports-1
  int peer = 0;                   ///< receiving endpoint, 0..nodes-1
  int chunk = 0;                  ///< chunk index (the DMA derives address and length from it)
  int flow = 0;                   ///< tree / ring id (statistics only)
  int step = 0;                   ///< schedule step (step-order issue)
  int wait_counter = 0;           ///< this node's arrival counter the entry waits on
  int wait_count = 0;             ///< ready when counter wait_counter has counted >= wait_count
  int dst_counter = 0;            ///< the receiver's counter this message increments on arrival
  bool operator==(const TableEntry& other) const;
  bool operator!=(const TableEntry& other) const { return !(*this == other); }
};

/// Field widths of a packed entry (bits), the same for every node of one table. Derived by
/// TableFormat::make() from the table's shape; the RTL takes them as parameters.
struct TableFormat {
  int kind_bits = 1;     ///< always 1: 0 = reduce, 1 = broadcast
  int port_bits = 1;     ///< max(1, clog2(ports))
  int peer_bits = 1;     ///< max(1, clog2(nodes))
  int chunk_bits = 1;    ///< max(1, clog2(chunks))
  int flow_bits = 1;     ///< max(1, clog2(flows))
  int step_bits = 1;     ///< max(1, clog2(steps))
  int counter_bits = 1;  ///< max(1, clog2(counters)), used by wait_counter and dst_counter
  int count_bits = 1;    ///< max(1, clog2(max_count + 1)), used by wait_count

  /// Widths for a table of `nodes` endpoints with `ports` NIC ports, `chunks` chunks, `flows`
  /// flows, `steps` steps, `counters` arrival counters per node and thresholds up to `max_count`.
  /// Throws TableError when a count is < 1 (max_count < 0) or a width would exceed 32 bits.
  static TableFormat make(int nodes, int ports, int chunks, int flows, int steps, int counters,
                          int max_count);
  /// Bits of one packed entry: the sum of all field widths.
  int entry_bits() const;
  /// 64-bit words of one packed entry: ceil(entry_bits() / 64).
  int entry_words() const { return (entry_bits() + 63) / 64; }
  bool operator==(const TableFormat& other) const;
};

/// Smallest b with 2^b >= n (clog2(1) = 0, clog2(2) = 1, clog2(5) = 3). n must be >= 1.
int clog2(std::uint64_t n);

/// Packs `entry` LSB-first into entry_words() 64-bit words (bit i of the entry is bit i % 64 of
/// word i / 64), fields in the order kind, port, peer, chunk, flow, step, wait_counter, wait_count,
/// dst_counter. Throws TableError naming the field when a value is negative or does not fit.
std::vector<std::uint64_t> encode_entry(const TableEntry& entry, const TableFormat& format);
/// Inverse of encode_entry. Throws TableError when `words` has fewer than entry_words() words.
TableEntry decode_entry(const std::vector<std::uint64_t>& words, const TableFormat& format);

/// Packs a node's table into one word vector: entry i occupies words
/// [i * entry_words(), (i + 1) * entry_words()).
std::vector<std::uint64_t> encode_table(const std::vector<TableEntry>& table,
                                        const TableFormat& format);
/// Inverse of encode_table (`entries` entries).
std::vector<TableEntry> decode_table(const std::vector<std::uint64_t>& words, std::size_t entries,
                                     const TableFormat& format);

/// The tables of every node of one schedule.
struct PackedSchedule {
  TableFormat format;  ///< widths shared by every node
  int ports = 1;       ///< NIC ports per node
  int depth = 0;       ///< largest table (entries of the busiest node)
  int counters = 0;    ///< arrival counters per node (largest over nodes, at least 1)
  /// Per node: its entries in issue order (step, then program order = Schedule::ops_of order).
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

/// Builds every node's table from `schedule`. `ports[id]` is the NIC port of message id (the port
/// the simulator sends it by, 0..num_ports-1). Counters: per node, incoming messages that appear
/// together in one op's deps share a counter (union-find over the deps sets; messages no op
/// waits for share one extra counter); then counters of the same flow are merged while every
/// threshold stays exact. For every entry with deps D (all in counter c) the threshold is
/// wait_count = |{m in c : m happens-before the entry's issue}| and every other message of c must
/// happen after the issue; entries without deps get wait_counter 0, wait_count 0, unless they
/// have a release_cycle: then they wait on the node's release counter (one extra counter the host
/// rings once at each distinct release cycle; see PackedSchedule::release_counter); a message with
/// both deps and a release_cycle cannot be packed. Throws
/// TableError naming the node, the entry (message id) and the offending message when a schedule
/// cannot be packed this way, or when ports/ids are out of range.
PackedSchedule pack_schedule(const Schedule& schedule, const std::vector<int>& ports,
                             int num_ports);

/// Checks that `packed` fits a fixed `format` (e.g. an RTL build's parameters): throws TableError
/// naming the node, the entry and the field that does not fit.
void check_fits(const PackedSchedule& packed, const TableFormat& format);

}  // namespace mt
