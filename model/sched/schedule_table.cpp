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

std::vector<FieldRef> fields(const TableFormat& f) {
  return {{"kind", f.kind_bits},
          {"port", f.port_bits},
          {"peer", f.peer_bits},
          {"chunk", f.chunk_bits},
          {"flow", f.flow_bits},
          {"step", f.step_bits},
          {"wait_counter", f.counter_bits},
          {"wait_count", f.count_bits},
          {"dst_counter", f.counter_bits}};
}

std::vector<std::int64_t> values(const TableEntry& e) {
  return {e.kind == OpKind::kBroadcast ? 1 : 0,
          e.port,
          e.peer,
          e.chunk,
          e.flow,
          e.step,
          e.wait_counter,
          e.wait_count,
          e.dst_counter};
}

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
  return kind_bits == o.kind_bits && port_bits == o.port_bits && peer_bits == o.peer_bits &&
         chunk_bits == o.chunk_bits && flow_bits == o.flow_bits && step_bits == o.step_bits &&
         counter_bits == o.counter_bits && count_bits == o.count_bits;
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
  TableFormat f;
  f.port_bits = width_for(ports);
  f.peer_bits = width_for(nodes);
  f.chunk_bits = width_for(chunks);
  f.flow_bits = width_for(flows);
  f.step_bits = width_for(steps);
  f.counter_bits = width_for(counters);
  f.count_bits = width_for(max_count + 1);
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
  TableEntry e;
  e.kind = v[0] != 0 ? OpKind::kBroadcast : OpKind::kReduce;
  e.port = static_cast<int>(v[1]);
  e.peer = static_cast<int>(v[2]);
  e.chunk = static_cast<int>(v[3]);
  e.flow = static_cast<int>(v[4]);
  e.step = static_cast<int>(v[5]);
  e.wait_counter = static_cast<int>(v[6]);
  e.wait_count = static_cast<int>(v[7]);
  e.dst_counter = static_cast<int>(v[8]);
  return e;
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
