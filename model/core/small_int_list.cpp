#include "model/core/small_int_list.h"

#include <vector>

namespace mt {

void SmallIntList::push_back(int value) {
  resize_storage(size_ + 1);
  data()[size_ - 1] = value;
}

void SmallIntList::erase(const int* first, const int* last) {
  const auto from = static_cast<std::uint32_t>(first - begin());
  const auto count = static_cast<std::uint32_t>(last - first);
  int* d = data();
  std::copy(d + from + count, d + size_, d + from);
  resize_storage(size_ - count);
}

void SmallIntList::release() {
  if (on_heap()) delete[] heap();
  size_ = 0;
}

void SmallIntList::assign_values(const int* values, std::size_t n) {
  if (n > 0 && values >= begin() && values < end()) {  // its own: copied before they go
    const std::vector<int> own(values, values + n);
    assign_values(own.data(), own.size());
    return;
  }
  resize_storage(0);
  resize_storage(static_cast<std::uint32_t>(n));
  std::copy(values, values + n, data());
}

void SmallIntList::resize_storage(std::uint32_t n) {
  const bool was_heap = on_heap();
  const bool to_heap = n > kInline;
  if (!was_heap && !to_heap) {
    size_ = n;
    return;
  }
  if (was_heap && to_heap && capacity_for(n) == capacity_for(size_)) {
    size_ = n;
    return;
  }
  int* old = was_heap ? heap() : nullptr;
  int kept[kInline];
  const std::uint32_t keep = std::min(size_, n);
  if (!was_heap) std::copy(inline_, inline_ + keep, kept);
  const int* from = was_heap ? old : kept;
  if (to_heap) {
    int* fresh = new int[capacity_for(n)];
    std::copy(from, from + keep, fresh);
    set_heap(fresh);
  } else {
    std::copy(from, from + keep, inline_);
  }
  delete[] old;
  size_ = n;
}

}  // namespace mt
