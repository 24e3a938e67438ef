#pragma once
// Reading and writing bit fields of Verilated SystemC port values (bool, uint32_t, uint64_t or
// sc_bv<N>) for nic_sched_tb.

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "tb/rtl_adapter/rtl_bits.h"

namespace nic_sched_tb {

// Value type of a Verilated SystemC port (bool, uint32_t, uint64_t or sc_bv<N>).
template <typename Port>
using PinType = typename std::remove_reference<Port>::type::data_type;

template <typename T>
std::uint64_t pin_get(const T& v, int lsb, int width) {
  if constexpr (std::is_integral<T>::value) {
    return mt::rtl_bits::get(v, lsb, width);
  } else {
    return v.range(lsb + width - 1, lsb).to_uint64();
  }
}

template <typename T>
void pin_put(T& v, int lsb, int width, std::uint64_t bits) {
  if constexpr (std::is_same<T, bool>::value) {
    v = (bits & 1u) != 0;
  } else if constexpr (std::is_integral<T>::value) {
    mt::rtl_bits::put(v, lsb, width, bits);
  } else {
    v.range(lsb + width - 1, lsb) = static_cast<sc_dt::uint64>(bits);
  }
}

template <typename T>
void pin_put_words(T& v, int lsb, int width, const std::vector<std::uint64_t>& words) {
  for (int k = 0; k * 64 < width; ++k) {
    pin_put(v, lsb + k * 64, std::min(64, width - k * 64), words.at(static_cast<std::size_t>(k)));
  }
}

template <typename T>
std::vector<std::uint64_t> pin_get_words(const T& v, int lsb, int width) {
  std::vector<std::uint64_t> words;
  for (int k = 0; k * 64 < width; ++k)
    words.push_back(pin_get(v, lsb + k * 64, std::min(64, width - k * 64)));
  return words;
}

}  // namespace nic_sched_tb
