#pragma once
// A list of ints that holds up to three in place and more in one heap block: 16 bytes where a
// std::vector takes 24 and a heap block of at least 32 for even one value. For lists that are
// short for nearly every element of a large array (Op::deps: a schedule of 4096 nodes has 33.5 M
// messages, each waiting for 0 to 3 others as a rule: 1.6 GB less than vectors).

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <vector>

#include "model/core/flat_lists.h"

namespace mt {

class SmallIntList {
 public:
  using value_type = int;
  using iterator = int*;
  using const_iterator = const int*;

  SmallIntList() = default;
  SmallIntList(std::initializer_list<int> values) { assign(values.begin(), values.end()); }
  // Implicit: a list is assigned and compared from vectors throughout the schedule builders.
  SmallIntList(const std::vector<int>& values) {  // NOLINT(google-explicit-constructor)
    assign_values(values.data(), values.size());  // no copy on the way (assign(It, It) makes one)
  }
  template <class It>
  SmallIntList(It first, It last) {
    assign(first, last);
  }
  SmallIntList(const SmallIntList& other) { assign(other.begin(), other.end()); }
  SmallIntList(SmallIntList&& other) noexcept { take(other); }
  SmallIntList& operator=(const SmallIntList& other) {
    if (this != &other) assign(other.begin(), other.end());
    return *this;
  }
  SmallIntList& operator=(SmallIntList&& other) noexcept {
    if (this != &other) {
      release();
      take(other);
    }
    return *this;
  }
  ~SmallIntList() { release(); }

  template <class It>
  void assign(It first, It last) {
    const std::vector<int> values(first, last);
    assign_values(values.data(), values.size());
  }
  void assign(const int* first, const int* last) {
    assign_values(first, static_cast<std::size_t>(last - first));
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  int* data() { return on_heap() ? heap() : inline_; }
  const int* data() const { return on_heap() ? heap() : inline_; }
  int* begin() { return data(); }
  int* end() { return data() + size_; }
  const int* begin() const { return data(); }
  const int* end() const { return data() + size_; }
  int& operator[](std::size_t i) { return data()[i]; }
  int operator[](std::size_t i) const { return data()[i]; }
  int front() const { return data()[0]; }
  int back() const { return data()[size_ - 1]; }
  operator IntSpan() const { return {begin(), end()}; }  // NOLINT(google-explicit-constructor)
  std::vector<int> to_vector() const { return {begin(), end()}; }

  void push_back(int value);
  void clear() { resize_storage(0); }
  /// Inserts [first, last) before `pos`.
  template <class It>
  void insert(const int* pos, It first, It last) {
    std::vector<int> values(begin(), end());
    values.insert(values.begin() + (pos - begin()), first, last);
    assign_values(values.data(), values.size());
  }
  /// Removes [first, last).
  void erase(const int* first, const int* last);

  friend bool operator==(const SmallIntList& a, const SmallIntList& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  friend bool operator!=(const SmallIntList& a, const SmallIntList& b) { return !(a == b); }

 private:
  static constexpr std::uint32_t kInline = 3;
  // Heap capacity for n values (n > kInline): the next power of two, so growth by push_back
  // reallocates log2 times and the capacity needs no field of its own.
  static std::uint32_t capacity_for(std::uint32_t n) {
    std::uint32_t c = 4;
    while (c < n) c *= 2;
    return c;
  }
  bool on_heap() const { return size_ > kInline; }
  int* heap() const {
    int* p = nullptr;
    std::memcpy(&p, &inline_[1], sizeof p);
    return p;
  }
  void set_heap(int* p) { std::memcpy(&inline_[1], &p, sizeof p); }
  void release();
  void take(SmallIntList& other) {
    size_ = other.size_;
    std::memcpy(inline_, other.inline_, sizeof inline_);
    other.size_ = 0;
  }
  // The changes of size live in small_int_list.cpp: inlined where a size is a known constant,
  // GCC 12 warns about the branch for the other storage (dead there) overflowing.
  // Sets the size to n, keeping the first min(size, n) values (the rest undefined).
  void resize_storage(std::uint32_t n);
  // Sets the values (which may be this list's own).
  void assign_values(const int* values, std::size_t n);

  std::uint32_t size_ = 0;
  // In place: up to kInline values; on the heap: the block's pointer in inline_[1..2].
  int inline_[kInline] = {0, 0, 0};
};

}  // namespace mt
