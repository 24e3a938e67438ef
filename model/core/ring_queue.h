#pragma once
// A FIFO in one ring buffer that only grows (doubling when full): no allocation per element once
// it has reached its working size, and its elements stay where they were put (a std::deque
// allocates and frees a block every few elements as a queue cycles, scattering a hot queue over
// the heap; see docs/speed.md).

#include <cstddef>
#include <cstdint>
#include <memory>

namespace mt {

/// First-in first-out queue of `T` (default-constructible, copyable) in a growing ring buffer.
template <typename T>
class RingQueue {
 public:
  /// An empty queue with room for at least `capacity` elements before it grows.
  explicit RingQueue(std::uint32_t capacity = 4) {
    std::uint32_t slots = 1;
    while (slots < capacity) slots *= 2;
    slots_ = std::make_unique<T[]>(slots);
    mask_ = slots - 1;
  }
  /// A copy holding the same elements.
  RingQueue(const RingQueue& other) : RingQueue(other.mask_ + 1) {
    for (std::size_t i = 0; i < other.size(); ++i) push_back(other[i]);
  }
  /// Moves `other`'s elements here (`other` is left empty with one slot).
  RingQueue(RingQueue&& other) noexcept
      : slots_(std::move(other.slots_)),
        mask_(other.mask_),
        head_(other.head_),
        size_(other.size_) {
    other.slots_ = std::make_unique<T[]>(1);
    other.mask_ = other.head_ = other.size_ = 0;
  }
  /// Not assignable (not needed).
  RingQueue& operator=(const RingQueue&) = delete;

  /// True when it holds no element.
  bool empty() const { return size_ == 0; }
  /// Elements held.
  std::size_t size() const { return size_; }
  /// The oldest element (the queue must not be empty).
  T& front() { return slots_[head_]; }
  /// The oldest element (the queue must not be empty).
  const T& front() const { return slots_[head_]; }
  /// The `i`-th element from the front, i < size().
  const T& operator[](std::size_t i) const { return slots_[(head_ + i) & mask_]; }
  /// The `i`-th element from the front, i < size().
  T& operator[](std::size_t i) { return slots_[(head_ + i) & mask_]; }
  /// Appends `value` at the back.
  void push_back(const T& value) {
    if (size_ == mask_ + 1) grow();
    slots_[(head_ + size_) & mask_] = value;
    ++size_;
  }
  /// Removes the front element (the queue must not be empty).
  void pop_front() {
    head_ = (head_ + 1) & mask_;
    --size_;
  }

 private:
  void grow() {
    const std::uint32_t slots = (mask_ + 1) * 2;
    auto bigger = std::make_unique<T[]>(slots);
    for (std::uint32_t i = 0; i < size_; ++i) bigger[i] = (*this)[i];
    slots_ = std::move(bigger);
    mask_ = slots - 1;
    head_ = 0;
  }

  // 24 bytes: the queues of a router or NIC sit close together.
  std::unique_ptr<T[]> slots_;  // mask_ + 1 of them, a power of two
  std::uint32_t mask_ = 0;
  std::uint32_t head_ = 0;  // slot of the front element
  std::uint32_t size_ = 0;
};

}  // namespace mt
