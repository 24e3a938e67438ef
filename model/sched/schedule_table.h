#pragma once
// The packed schedule table of the co-designed NIC scheduler: per node, one entry per message the
// node sends, in issue order (by step, then program order), with the dependency expressed as an
// arrival counter threshold instead of a list of message ids. One field layout (TableFormat) and
// ONE encode/decode pair (encode_entry / decode_entry) shared by the C++ golden model, the RTL
// testbench and the co-simulation adapter; the packer that fills the entries from a Schedule is
// model/sched/table_packer.h.
// Bit layout, widths and errors: model/sched/SCHEDULE_TABLE.md.

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

/// A value that does not fit its field of the table format (encode_entry): which field and what
/// value, so a caller can name the build parameter to raise.
class TableFieldError : public TableError {
 public:
  TableFieldError(const std::string& field, std::int64_t value, int width)
      : TableError("entry field " + field + " = " + std::to_string(value) + " does not fit " +
                   std::to_string(width) + " bits"),
        field_(field),
        value_(value) {}
  const std::string& field() const { return field_; }
  std::int64_t value() const { return value_; }

 private:
  std::string field_;
  std::int64_t value_;
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
/// dst_counter. Throws TableFieldError when a value is negative or does not fit.
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

}  // namespace mt
