#include "model/sched/schedule_table.h"

#include <algorithm>
#include <string>

namespace mt {

namespace {

// Field order of the packed layout (LSB first).
struct FieldRef {
  const char* name;
  int width;
};

// The layout comes from model/sched/table_layout.def, which the RTL's field header is made from.
#define MT_TABLE_WIDTH(member, rtl_name, count)

std::vector<FieldRef> fields(const TableFormat& f) {
  return {
      {"kind", f.kind_bits},
#define MT_TABLE_FIELD(field, width, rtl_lsb) {#field, f.width},
#include "model/sched/table_layout.def"
#undef MT_TABLE_FIELD
  };
}

std::vector<std::int64_t> values(const TableEntry& e) {
  return {
      e.kind == OpKind::kBroadcast ? 1 : 0,
#define MT_TABLE_FIELD(field, width, rtl_lsb) e.field,
#include "model/sched/table_layout.def"
#undef MT_TABLE_FIELD
  };
}

TableEntry entry_of(const std::vector<std::int64_t>& v) {
  TableEntry e;
  e.kind = v[0] != 0 ? OpKind::kBroadcast : OpKind::kReduce;
  std::size_t i = 1;
#define MT_TABLE_FIELD(field, width, rtl_lsb) e.field = static_cast<int>(v[i++]);
#include "model/sched/table_layout.def"
#undef MT_TABLE_FIELD
  return e;
}

#undef MT_TABLE_WIDTH

int width_for(int count) {
  return std::max(1, clog2(static_cast<std::uint64_t>(count)));
}

}  // namespace

bool TableEntry::operator==(const TableEntry& o) const {
  return kind == o.kind && port == o.port && peer == o.peer && chunk == o.chunk && flow == o.flow &&
         step == o.step && wait_counter == o.wait_counter && wait_count == o.wait_count &&
         dst_counter == o.dst_counter;
}

bool TableFormat::operator==(const TableFormat& o) const {
  return kind_bits == o.kind_bits
#define MT_TABLE_WIDTH(member, rtl_name, count) &&member == o.member
#define MT_TABLE_FIELD(field, width, rtl_lsb)
#include "model/sched/table_layout.def"
#undef MT_TABLE_FIELD
#undef MT_TABLE_WIDTH
      ;
}

int clog2(std::uint64_t n) {
  if (n == 0) throw TableError("clog2(0) is undefined");
  int b = 0;
  while (b < 64 && (std::uint64_t{1} << b) < n) ++b;
  return b;
}

TableFormat TableFormat::make(int nodes, int ports, int chunks, int flows, int steps, int counters,
                              int max_count) {
  const auto need = [](int v, const char* what) {
    if (v < 1)
      throw TableError(std::string("table format: ") + what + " must be >= 1, got " +
                       std::to_string(v));
  };
  need(nodes, "nodes");
  need(ports, "ports");
  need(chunks, "chunks");
  need(flows, "flows");
  need(steps, "steps");
  need(counters, "counters");
  if (max_count < 0)
    throw TableError("table format: max_count must be >= 0, got " + std::to_string(max_count));
  // The counts under the RTL's parameter names, as table_layout.def writes them.
  const int Nodes = nodes, Ports = ports, Chunks = chunks, Flows = flows, Steps = steps,
            Counters = counters, MaxCount = max_count;
  TableFormat f;
#define MT_TABLE_WIDTH(member, rtl_name, count) f.member = width_for(count);
#define MT_TABLE_FIELD(field, width, rtl_lsb)
#include "model/sched/table_layout.def"
#undef MT_TABLE_FIELD
#undef MT_TABLE_WIDTH
  for (const FieldRef& field : fields(f)) {
    if (field.width > 32) {
      throw TableError(std::string("table format: field ") + field.name + " would need " +
                       std::to_string(field.width) + " bits (limit 32)");
    }
  }
  return f;
}

int TableFormat::entry_bits() const {
  int bits = 0;
  for (const FieldRef& field : fields(*this)) bits += field.width;
  return bits;
}

std::vector<std::uint64_t> encode_entry(const TableEntry& entry, const TableFormat& format) {
  std::vector<std::uint64_t> words(static_cast<std::size_t>(format.entry_words()), 0);
  const std::vector<FieldRef> f = fields(format);
  const std::vector<std::int64_t> v = values(entry);
  int bit = 0;
  for (std::size_t i = 0; i < f.size(); ++i) {
    if (v[i] < 0 || (f[i].width < 63 && v[i] >= (std::int64_t{1} << f[i].width))) {
      throw TableFieldError(f[i].name, v[i], f[i].width);
    }
    for (int b = 0; b < f[i].width; ++b, ++bit) {
      if ((static_cast<std::uint64_t>(v[i]) >> b) & 1u) {
        words[static_cast<std::size_t>(bit / 64)] |= std::uint64_t{1} << (bit % 64);
      }
    }
  }
  return words;
}

TableEntry decode_entry(const std::vector<std::uint64_t>& words, const TableFormat& format) {
  if (static_cast<int>(words.size()) < format.entry_words()) {
    throw TableError("decode_entry: " + std::to_string(words.size()) + " words, an entry needs " +
                     std::to_string(format.entry_words()));
  }
  const std::vector<FieldRef> f = fields(format);
  std::vector<std::int64_t> v(f.size(), 0);
  int bit = 0;
  for (std::size_t i = 0; i < f.size(); ++i) {
    for (int b = 0; b < f[i].width; ++b, ++bit) {
      if ((words[static_cast<std::size_t>(bit / 64)] >> (bit % 64)) & 1u) {
        v[i] |= std::int64_t{1} << b;
      }
    }
  }
  return entry_of(v);
}

std::vector<std::uint64_t> encode_table(const std::vector<TableEntry>& table,
                                        const TableFormat& format) {
  std::vector<std::uint64_t> words;
  words.reserve(table.size() * static_cast<std::size_t>(format.entry_words()));
  for (std::size_t i = 0; i < table.size(); ++i) {
    std::vector<std::uint64_t> w;
    try {
      w = encode_entry(table[i], format);
    } catch (const TableError& e) {
      throw TableError("entry " + std::to_string(i) + ": " + e.what());
    }
    words.insert(words.end(), w.begin(), w.end());
  }
  return words;
}

std::vector<TableEntry> decode_table(const std::vector<std::uint64_t>& words, std::size_t entries,
                                     const TableFormat& format) {
  const auto per = static_cast<std::size_t>(format.entry_words());
  if (words.size() < entries * per) {
    throw TableError("decode_table: " + std::to_string(words.size()) + " words for " +
                     std::to_string(entries) + " entries of " + std::to_string(per) + " words");
  }
  std::vector<TableEntry> table;
  table.reserve(entries);
  for (std::size_t i = 0; i < entries; ++i) {
    const std::vector<std::uint64_t> w(words.begin() + static_cast<std::ptrdiff_t>(i * per),
                                       words.begin() + static_cast<std::ptrdiff_t>((i + 1) * per));
    table.push_back(decode_entry(w, format));
  }
  return table;
}

}  // namespace mt
