#pragma once
// The data every node all-reduces: initial values, message snapshots, element-wise reduction and
// the final check against the exact sum. Plain C++ (no SystemC). In sampled mode only a few
// elements per chunk are tracked, so memory does not grow with the buffer size.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "model/collective/schedule.h"
#include "model/core/bulk_allocator.h"
#include "model/core/enum_names.h"
#include "model/core/error.h"

namespace mt {

/// Thrown for a DataStore built without chunks.
class DataStoreError : public Error {
 public:
  using Error::Error;
};

/// Which elements are tracked.
enum class DataMode {
  kFull,     ///< every element of every node's buffer
  kSampled,  ///< `samples_per_chunk` evenly spaced elements of every chunk (first and last
             ///< included)
  kOff,      ///< none: timing only
};

template <>
struct EnumNames<DataMode> {
  static constexpr std::array<const char*, 3> kNames{"full", "sampled", "off"};
};

/// Element type of the all-reduce (`collective.dtype`).
enum class Dtype { kFp32, kInt32 };
template <>
struct EnumNames<Dtype> {
  static constexpr std::array<const char*, 2> kNames{"fp32", "int32"};
};

/// Per-node buffers of tracked elements (4-byte int32 or fp32, stored as bit patterns).
class DataStore {
 public:
  /// `bounds`: chunk boundaries in elements (num_chunks + 1 values, see mt::chunk_bounds); the
  /// last one is the elements per node buffer.
  DataStore(DataMode mode, Dtype dtype, int nodes, const std::vector<std::uint64_t>& bounds,
            int samples_per_chunk = 4);
  /// Equal split of `elements` elements into `num_chunks` chunks (chunk_begin/chunk_end).
  DataStore(DataMode mode, Dtype dtype, int nodes, int num_chunks, std::uint64_t elements,
            int samples_per_chunk = 4);

  /// Which elements are tracked.
  DataMode mode() const { return mode_; }
  /// Element type.
  Dtype dtype() const { return dtype_; }
  /// Elements tracked per node.
  std::uint64_t tracked() const { return index_.size(); }

  /// Initial value of element `element` of node `node` of `nodes`: small integers, so that the
  /// sum over all nodes is exact in int32 and in fp32 (any node count up to kMaxEndpoints).
  static double initial_value(Dtype dtype, int nodes, int node, std::uint64_t element);

  /// Copies node's tracked elements of slot `chunk` of `buffer`; returns a handle for apply()
  /// (-1 in off mode).
  int snapshot(int node, int chunk, Buffer buffer = Buffer::kData);
  /// Adds (kReduce) or copies (kBroadcast) snapshot `handle` into node's slot `chunk` of
  /// `buffer`, then frees it. A scratch slot holds whatever chunk was last copied there (a
  /// reduction into an empty one copies). Throws DataStoreError when the snapshot's size is not
  /// the slot's (chunks of unequal sizes moved to another offset).
  void apply(int node, int chunk, OpKind kind, int handle, Buffer buffer = Buffer::kData);
  /// Current value of a tracked element of `node` (throws std::out_of_range if not tracked).
  double value(int node, std::uint64_t element) const;
  /// Empty when every node holds the exact reduction of all inputs, else the first mismatch
  /// ("node 3 element 17 (chunk 2): got 5, expected 9; 12 elements differ"). Off mode: empty.
  std::string check() const;

 private:
  std::uint32_t bits_of(double value) const;
  // Node's initial values of every tracked element (index_ order) into `row`, as the element
  // type's bits (`as_integers`: as plain integers, for exact sums): one addition per element to
  // element_term_ (no division, no branch on the element type inside the loop).
  void initial_row(int node, BulkVector<std::uint32_t>& row, bool as_integers = false) const;
  std::uint32_t add(std::uint32_t a, std::uint32_t b) const;
  // Keeps a copy of [first, first + n) until apply(); returns its handle.
  int store_snapshot(const std::uint32_t* first, std::size_t n);
  // Snapshot `handle`'s elements and their count.
  std::pair<const std::uint32_t*, std::size_t> snapshot_data(int handle) const;
  double to_double(std::uint32_t bits) const;

  DataMode mode_;
  Dtype dtype_;
  int nodes_;
  int num_chunks_;
  std::uint64_t elements_;
  // Full data: 4 bytes per element and node (buffers), the snapshots in flight and 12 bytes per
  // element: in BulkVectors (4 KiB pages, see BulkAllocator).
  BulkVector<std::uint64_t> index_;          // tracked position -> element index
  std::vector<std::uint64_t> chunk_offset_;  // chunk -> first tracked position (num_chunks + 1)
  BulkVector<std::uint32_t> element_term_;   // tracked position -> element's term of the pattern
  std::vector<BulkVector<std::uint32_t>> buffers_;  // per node
  // Message snapshots. Where every chunk tracks at most kFlatSnapshot elements (sampled data,
  // small chunks), slot h of one array of `flat_stride_`-element slots, most of them in the
  // caches (a 4096-node MultiTree's simulation spent a fifth of its time on separately
  // allocated small vectors); else a pool of vectors (flat_stride_ 0).
  static constexpr std::size_t kFlatSnapshot = 16;
  std::size_t flat_stride_ = 0;
  std::vector<std::uint32_t> flat_;       // slot h at h * flat_stride_
  std::vector<std::uint32_t> flat_size_;  // per slot: elements held
  std::vector<BulkVector<std::uint32_t>> snapshots_;
  // Scratch slots per node, created when first written (schedules with a scratch buffer only).
  std::vector<std::vector<BulkVector<std::uint32_t>>> scratch_;
  std::vector<int> free_snapshots_;
};

}  // namespace mt
