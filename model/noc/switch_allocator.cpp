#include "model/noc/switch_allocator.h"

namespace mt {

SwitchAllocator::SwitchAllocator(int outputs) : outputs_(outputs < 0 ? 0 : outputs) {}

std::vector<int> SwitchAllocator::order() const {
  std::vector<int> result;
  result.reserve(static_cast<std::size_t>(outputs_));
  for (int k = 0; k < outputs_; ++k) result.push_back(output_at(k));
  return result;
}

void SwitchAllocator::granted(int out) {
  if (first_granted_ < 0 && out >= 0 && out < outputs_) first_granted_ = out;
}

void SwitchAllocator::end_round() {
  if (first_granted_ >= 0) start_ = (first_granted_ + 1) % outputs_;
  first_granted_ = -1;
}

}  // namespace mt
