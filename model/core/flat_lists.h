#pragma once
// Lists of ints held flat: one array of values and one offset per list, where a vector per list
// costs a heap block each (33.5 M lists at 4096 nodes: gigabytes and seconds of malloc).

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "model/core/error.h"

namespace mt {

/// A read-only view of one list.
struct IntSpan {
  const int* first = nullptr;
  const int* last = nullptr;

  IntSpan() = default;
  IntSpan(const int* begin, const int* end) : first(begin), last(end) {}
  // Implicit: a vector's values are such a view.
  IntSpan(const std::vector<int>& values)  // NOLINT(google-explicit-constructor)
      : first(values.data()), last(values.data() + values.size()) {}

  const int* begin() const { return first; }
  const int* end() const { return last; }
  std::size_t size() const { return static_cast<std::size_t>(last - first); }
  bool empty() const { return first == last; }
  int front() const { return *first; }
  int operator[](std::size_t i) const { return first[i]; }
};

class FlatLists {
 public:
  FlatLists() : begin_(1, 0) {}

  /// `lists` lists filled from the (list, value) pairs `emit_all(emit)` passes to `emit`, which it
  /// is called twice to pass in the same order (counting, then filling): each list keeps its
  /// values in that order. Every list index must be in 0..lists-1.
  template <class EmitAll>
  static FlatLists gather(std::size_t lists, const EmitAll& emit_all) {
    FlatLists result;
    result.begin_.assign(lists + 1, 0);
    emit_all([&result](int list, int) { ++result.begin_[static_cast<std::size_t>(list) + 1]; });
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < lists; ++i) {
      total += result.begin_[i + 1];
      check_total(total);
      result.begin_[i + 1] = static_cast<Offset>(total);
    }
    result.values_.resize(result.begin_[lists]);
    std::vector<Offset> next(result.begin_.begin(), result.begin_.end() - 1);
    emit_all([&result, &next](int list, int value) {
      result.values_[next[static_cast<std::size_t>(list)]++] = value;
    });
    return result;
  }

  /// Appends one list at the end.
  template <class It>
  void append(It first, It last) {
    values_.insert(values_.end(), first, last);
    check_total(values_.size());
    begin_.push_back(static_cast<Offset>(values_.size()));
  }

  std::size_t size() const { return begin_.size() - 1; }
  IntSpan operator[](int list) const {
    const auto i = static_cast<std::size_t>(list);
    return {values_.data() + begin_[i], values_.data() + begin_[i + 1]};
  }

 private:
  // 32-bit offsets: 4 bytes a list (134 MB less for 33.5 M lists than 64-bit ones).
  using Offset = std::uint32_t;
  static void check_total(std::uint64_t total) {
    if (total > std::numeric_limits<Offset>::max())
      throw Error("more than 4 G values in one set of lists (FlatLists): too large to hold");
  }

  std::vector<Offset> begin_;
  std::vector<int> values_;
};

}  // namespace mt
