#pragma once
// A FIFO in one ring buffer that only grows (doubling when full): no allocation per element once
// it has reached its working size, and its elements stay where they were put (a std::deque
// allocates and frees a block every few elements as a queue cycles, scattering a hot queue over
// the heap; see README "Speed").

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mt {

/// First-in first-out queue of `T` (default-constructible, copyable) in a growing ring buffer.
template <typename T>
class RingQueue {
 public:
  /// An empty queue with room for at least `capacity` elements before it grows.
  explicit RingQueue(std::size_t capacity = 4) {
    std::size_t slots = 1;
    while (slots < capacity) slots *= 2;
    slots_.resize(slots);
  }

  /// True when it holds no element.
  bool empty() const { return size_ == 0; }
  /// Elements held.
  std::size_t size() const { return size_; }
  /// The oldest element (the queue must not be empty).
  T& front() { return slots_[head_]; }
  /// The oldest element (the queue must not be empty).
  const T& front() const { return slots_[head_]; }
  /// The `i`-th element from the front, i < size().
  const T& operator[](std::size_t i) const { return slots_[(head_ + i) & mask()]; }
  /// Appends `value` at the back.
  void push_back(const T& value) {
    if (size_ == slots_.size()) grow();
    slots_[(head_ + size_) & mask()] = value;
    ++size_;
  }
  /// Removes the front element (the queue must not be empty).
  void pop_front() {
    head_ = (head_ + 1) & mask();
    --size_;
  }

 private:
  std::size_t mask() const { return slots_.size() - 1; }
  void grow() {
    std::vector<T> bigger(slots_.size() * 2);
    for (std::size_t i = 0; i < size_; ++i) bigger[i] = (*this)[i];
    slots_.swap(bigger);
    head_ = 0;
  }

  std::vector<T> slots_;  // a power of two of them
  std::size_t head_ = 0;  // slot of the front element
  std::size_t size_ = 0;
};

}  // namespace mt
