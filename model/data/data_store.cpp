#include "model/data/data_store.h"

#include <algorithm>
#include <cstring>
#include <sstream>

namespace mt {

namespace {

// out[j] = (term[j] + node_term) % modulus (both terms below the modulus; min() picks the
// difference when it did not wrap), as float bits for fp32: values are integers below 2^24, exact
// as float, as in bits_of(). Restrict pointers and no branch: the loops vectorise.
void fill_row(const std::uint32_t* __restrict term, std::uint32_t* __restrict out, std::size_t n,
              std::uint32_t node_term, std::uint32_t modulus, bool fp32) {
  if (!fp32) {
    for (std::size_t j = 0; j < n; ++j) {
      const std::uint32_t v = term[j] + node_term;
      out[j] = std::min(v, v - modulus);
    }
    return;
  }
  for (std::size_t j = 0; j < n; ++j) {
    const std::uint32_t v = term[j] + node_term;
    const auto f = static_cast<float>(static_cast<std::int32_t>(std::min(v, v - modulus)));
    std::memcpy(&out[j], &f, sizeof(f));
  }
}

// sum[j] += row[j] (int32: two's complement; fp32: one float addition per element, as add()).
void add_row(const std::uint32_t* __restrict row, std::uint32_t* __restrict sum, std::size_t n,
             bool fp32) {
  if (!fp32) {
    for (std::size_t j = 0; j < n; ++j) sum[j] += row[j];
    return;
  }
  for (std::size_t j = 0; j < n; ++j) {
    float a = 0;
    float b = 0;
    std::memcpy(&a, &sum[j], sizeof(a));
    std::memcpy(&b, &row[j], sizeof(b));
    a += b;
    std::memcpy(&sum[j], &a, sizeof(a));
  }
}

std::vector<std::uint64_t> equal_bounds(int num_chunks, std::uint64_t elements) {
  std::vector<std::uint64_t> bounds;
  for (int c = 0; c <= num_chunks; ++c) bounds.push_back(chunk_begin(c, num_chunks, elements));
  return bounds;
}

/// Initial values: ((node + 1) * node_mul + element * element_mul) % modulus.
struct Pattern {
  std::uint64_t node_mul;
  std::uint64_t element_mul;  // < modulus
  std::uint64_t modulus;
};

Pattern pattern_of(Dtype dtype, int nodes) {
  // int32: below 2^20; its sums wrap modulo 2^32 as the expected ones do, exact in any order.
  // fp32: every partial sum must be an integer below 2^24, exact in fp32 in any order: values
  // below 2^14 up to 1024 nodes, below 2^24 / nodes beyond (4096 at 4096 nodes, 1024 at
  // 16384: a sum's magnitude stays within 2^24).
  if (dtype == Dtype::kInt32) return Pattern{1000003u, 7u, 1048573u};
  const auto modulus = nodes <= 1024 ? 16381u : (1u << 24) / static_cast<std::uint32_t>(nodes);
  return Pattern{7919u, 13u, modulus};
}

}  // namespace

DataStore::DataStore(DataMode mode, Dtype dtype, int nodes, int num_chunks, std::uint64_t elements,
                     int samples_per_chunk)
    : DataStore(mode, dtype, nodes, equal_bounds(num_chunks, elements), samples_per_chunk) {}

DataStore::DataStore(DataMode mode, Dtype dtype, int nodes,
                     const std::vector<std::uint64_t>& bounds, int samples_per_chunk)
    : mode_(mode),
      dtype_(dtype),
      nodes_(nodes),
      num_chunks_(static_cast<int>(bounds.size()) - 1),
      elements_(bounds.empty() ? 0 : bounds.back()) {
  if (bounds.empty()) throw DataStoreError("DataStore: no chunk boundaries");
  const int num_chunks = num_chunks_;
  chunk_offset_.assign(static_cast<std::size_t>(num_chunks) + 1, 0);
  if (mode_ == DataMode::kOff) return;
  const auto samples = static_cast<std::uint64_t>(std::max(samples_per_chunk, 2));
  // Chunk c tracks all its elements (full data, or no more than `samples`) or `samples` of them.
  const auto tracked = [&](int c) {
    const std::uint64_t n =
        bounds[static_cast<std::size_t>(c) + 1] - bounds[static_cast<std::size_t>(c)];
    return mode_ == DataMode::kFull ? n : std::min(n, samples);
  };
  std::uint64_t total = 0;
  for (int c = 0; c < num_chunks; ++c) total += tracked(c);
  index_.reserve(total);  // one block, not a doubling series of copies (128 MiB at 64 MiB)
  for (int c = 0; c < num_chunks; ++c) {
    chunk_offset_[static_cast<std::size_t>(c)] = index_.size();
    const std::uint64_t begin = bounds[static_cast<std::size_t>(c)];
    const std::uint64_t end = bounds[static_cast<std::size_t>(c) + 1];
    const std::uint64_t n = end - begin;
    if (tracked(c) == n) {
      for (std::uint64_t e = begin; e < end; ++e) index_.push_back(e);
    } else {
      for (std::uint64_t k = 0; k < samples; ++k)
        index_.push_back(begin + k * (n - 1) / (samples - 1));
    }
  }
  chunk_offset_[static_cast<std::size_t>(num_chunks)] = index_.size();
  std::size_t widest = 1;
  for (std::size_t c = 0; c < static_cast<std::size_t>(num_chunks); ++c)
    widest = std::max<std::size_t>(widest, chunk_offset_[c + 1] - chunk_offset_[c]);
  if (widest <= kFlatSnapshot) flat_stride_ = widest;
  // The pattern's element term (element * element_mul) % modulus, one step of the pattern per
  // element over runs of consecutive elements.
  const Pattern p = pattern_of(dtype_, nodes_);
  element_term_.resize(index_.size());
  std::uint64_t t = 0;
  for (std::size_t j = 0; j < index_.size(); ++j) {
    if (j > 0 && index_[j] == index_[j - 1] + 1) {
      t += p.element_mul;
      if (t >= p.modulus) t -= p.modulus;
    } else {
      t = index_[j] * p.element_mul % p.modulus;
    }
    element_term_[j] = static_cast<std::uint32_t>(t);
  }
  buffers_.resize(static_cast<std::size_t>(nodes));
  scratch_.resize(static_cast<std::size_t>(nodes));
  for (int u = 0; u < nodes; ++u) {
    initial_row(u, buffers_[static_cast<std::size_t>(u)]);
  }
}

double DataStore::initial_value(Dtype dtype, int nodes, int node, std::uint64_t element) {
  const Pattern p = pattern_of(dtype, nodes);
  const auto u = static_cast<std::uint64_t>(node) + 1;
  return static_cast<double>((u * p.node_mul + element * p.element_mul) % p.modulus);
}

void DataStore::initial_row(int node, BulkVector<std::uint32_t>& row, bool as_integers) const {
  // (u * node_mul + element * element_mul) % modulus = (node term + element term) % modulus.
  const Pattern p = pattern_of(dtype_, nodes_);
  const auto node_term =
      static_cast<std::uint32_t>((static_cast<std::uint64_t>(node) + 1) * p.node_mul % p.modulus);
  const auto modulus = static_cast<std::uint32_t>(p.modulus);
  const std::size_t n = element_term_.size();
  row.resize(n);
  fill_row(element_term_.data(), row.data(), n, node_term, modulus,
           !as_integers && dtype_ == Dtype::kFp32);
}

std::uint32_t DataStore::bits_of(double value) const {
  if (dtype_ == Dtype::kInt32) return static_cast<std::uint32_t>(static_cast<std::int32_t>(value));
  const auto f = static_cast<float>(value);
  std::uint32_t bits = 0;
  std::memcpy(&bits, &f, sizeof(bits));
  return bits;
}

std::uint32_t DataStore::add(std::uint32_t a, std::uint32_t b) const {
  if (dtype_ == Dtype::kInt32) return a + b;  // two's complement int32 addition
  float fa = 0;
  float fb = 0;
  std::memcpy(&fa, &a, sizeof(fa));
  std::memcpy(&fb, &b, sizeof(fb));
  const float sum = fa + fb;
  std::uint32_t bits = 0;
  std::memcpy(&bits, &sum, sizeof(bits));
  return bits;
}

double DataStore::to_double(std::uint32_t bits) const {
  if (dtype_ == Dtype::kInt32) return static_cast<double>(static_cast<std::int32_t>(bits));
  float f = 0;
  std::memcpy(&f, &bits, sizeof(f));
  return static_cast<double>(f);
}

int DataStore::snapshot(int node, int chunk, Buffer buffer) {
  if (mode_ == DataMode::kOff) return -1;
  if (buffer == Buffer::kScratch) {
    const auto& slots = scratch_.at(static_cast<std::size_t>(node));
    const auto at = static_cast<std::size_t>(chunk);
    if (at < slots.size()) return store_snapshot(slots[at].data(), slots[at].size());
    return store_snapshot(nullptr, 0);  // never written: the verifier refuses reading it
  }
  const BulkVector<std::uint32_t>& data = buffers_.at(static_cast<std::size_t>(node));
  const std::size_t first = chunk_offset_.at(static_cast<std::size_t>(chunk));
  const std::size_t last = chunk_offset_.at(static_cast<std::size_t>(chunk) + 1);
  return store_snapshot(data.data() + first, last - first);
}

int DataStore::store_snapshot(const std::uint32_t* first, std::size_t n) {
  int handle = 0;
  if (!free_snapshots_.empty()) {
    handle = free_snapshots_.back();
    free_snapshots_.pop_back();
  } else if (flat_stride_ > 0) {
    handle = static_cast<int>(flat_size_.size());
    flat_size_.push_back(0);
    flat_.resize(flat_.size() + flat_stride_);
  } else {
    handle = static_cast<int>(snapshots_.size());
    snapshots_.emplace_back();
  }
  const auto h = static_cast<std::size_t>(handle);
  if (flat_stride_ > 0) {
    if (n > flat_stride_)  // a scratch slot holds a chunk's tracked elements, so never
      throw DataStoreError("DataStore: a snapshot of " + std::to_string(n) +
                           " elements (slots of " + std::to_string(flat_stride_) + ")");
    std::copy(first, first + n, flat_.data() + h * flat_stride_);
    flat_size_[h] = static_cast<std::uint32_t>(n);
  } else {
    snapshots_[h].assign(first, first + n);
  }
  return handle;
}

std::pair<const std::uint32_t*, std::size_t> DataStore::snapshot_data(int handle) const {
  const auto h = static_cast<std::size_t>(handle);
  if (flat_stride_ > 0) return {flat_.data() + h * flat_stride_, flat_size_.at(h)};
  const BulkVector<std::uint32_t>& data = snapshots_.at(h);
  return {data.data(), data.size()};
}

void DataStore::apply(int node, int chunk, OpKind kind, int handle, Buffer buffer) {
  if (mode_ == DataMode::kOff || handle < 0) return;
  const auto [data, data_size] = snapshot_data(handle);
  std::uint32_t* out = nullptr;
  std::size_t size = 0;
  if (buffer == Buffer::kScratch) {
    auto& slots = scratch_.at(static_cast<std::size_t>(node));
    const auto at = static_cast<std::size_t>(chunk);
    if (at >= slots.size()) slots.resize(at + 1);
    if (kind == OpKind::kBroadcast || slots[at].empty()) {
      slots[at].assign(data, data + data_size);
      free_snapshots_.push_back(handle);
      return;
    }
    out = slots[at].data();
    size = slots[at].size();
  } else {
    const std::size_t first = chunk_offset_.at(static_cast<std::size_t>(chunk));
    out = buffers_.at(static_cast<std::size_t>(node)).data() + first;
    size = chunk_offset_.at(static_cast<std::size_t>(chunk) + 1) - first;
  }
  if (data_size != size)
    throw DataStoreError("node " + std::to_string(node) + " " + slot_text(buffer, chunk) +
                         " holds " + std::to_string(size) + " tracked elements but the data " +
                         "written there has " + std::to_string(data_size) +
                         ": chunks moved to another offset must be of equal size");
  if (kind == OpKind::kReduce) {
    add_row(data, out, size, dtype_ == Dtype::kFp32);
  } else {
    std::copy(data, data + data_size, out);
  }
  free_snapshots_.push_back(handle);
}

double DataStore::value(int node, std::uint64_t element) const {
  const auto it = std::lower_bound(index_.begin(), index_.end(), element);
  if (it == index_.end() || *it != element) throw std::out_of_range("element not tracked");
  return to_double(
      buffers_.at(static_cast<std::size_t>(node))[static_cast<std::size_t>(it - index_.begin())]);
}

std::string DataStore::check() const {
  if (mode_ == DataMode::kOff) return "";
  // The exact sums, by integer addition of the initial values (not the reduction's add_row, so a
  // wrong reduction cannot agree with itself): int32 wraps as two's complement does; fp32's
  // sums are integers below 2^24 (pattern_of), exact as floats.
  const std::size_t n = index_.size();
  BulkVector<std::uint32_t> expected(n, 0);
  BulkVector<std::uint32_t> row;
  for (int u = 0; u < nodes_; ++u) {
    initial_row(u, row, true);
    for (std::size_t j = 0; j < n; ++j) expected[j] += row[j];
  }
  if (dtype_ == Dtype::kFp32) {
    for (std::size_t j = 0; j < n; ++j) {
      const auto f = static_cast<float>(expected[j]);
      std::memcpy(&expected[j], &f, sizeof(f));
    }
  }
  std::uint64_t differ = 0;
  std::ostringstream first;
  first.precision(10);  // fp32's integers below 2^24 in full, so a mismatch shows its digits
  for (int u = 0; u < nodes_; ++u) {
    const BulkVector<std::uint32_t>& buffer = buffers_[static_cast<std::size_t>(u)];
    for (std::size_t j = 0; j < index_.size(); ++j) {
      if (buffer[j] == expected[j]) continue;
      if (differ++ == 0) {
        const auto chunk = std::upper_bound(chunk_offset_.begin(), chunk_offset_.end(), j) -
                           chunk_offset_.begin() - 1;
        first << "data mismatch: node " << u << " element " << index_[j] << " (chunk " << chunk
              << "): got " << to_double(buffer[j]) << ", expected " << to_double(expected[j]);
      }
    }
  }
  if (differ == 0) return "";
  first << "; " << differ << " tracked element" << (differ == 1 ? "" : "s") << " differ";
  return first.str();
}

}  // namespace mt
