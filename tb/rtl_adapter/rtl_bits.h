#pragma once
// Bit access to Verilated C++ / SystemC port values of any width: Verilator maps 1..64-bit ports
// to integers and wider ones to VlWide<N> (32-bit words) or sc_bv<N>. Fields are at most 64 bits.

#include <cstdint>
#include <type_traits>
#include <vector>

namespace mt {
namespace rtl_bits {

/// Mask of the `width` low bits (width 0..64).
inline std::uint64_t low_mask(int width) {
  return width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
}

/// Bits [lsb, lsb + width) of `value` (width <= 64). T: an integer or a word-indexed type whose
/// operator[] returns 32-bit words (VlWide).
template <typename T>
std::uint64_t get(const T& value, int lsb, int width) {
  if constexpr (std::is_integral<T>::value) {
    if (lsb >= 64) return 0;
    return (static_cast<std::uint64_t>(value) >> lsb) & low_mask(width);
  } else {
    std::uint64_t out = 0;
    for (int b = 0; b < width; ++b) {
      const int i = lsb + b;
      if ((value[static_cast<std::size_t>(i / 32)] >> (i % 32)) & 1u) out |= std::uint64_t{1} << b;
    }
    return out;
  }
}

/// Sets bits [lsb, lsb + width) of `value` to `bits` (width <= 64).
template <typename T>
void put(T& value, int lsb, int width, std::uint64_t bits) {
  if constexpr (std::is_integral<T>::value) {
    if (lsb >= 64) return;
    const std::uint64_t mask = low_mask(width) << lsb;
    const std::uint64_t v = (static_cast<std::uint64_t>(value) & ~mask) | ((bits << lsb) & mask);
    value = static_cast<T>(v);
  } else {
    for (int b = 0; b < width; ++b) {
      const int i = lsb + b;
      auto& word = value[static_cast<std::size_t>(i / 32)];
      const auto bit = static_cast<std::uint32_t>(1u) << (i % 32);
      if ((bits >> b) & 1u) {
        word |= bit;
      } else {
        word &= ~bit;
      }
    }
  }
}

/// Writes a multi-word field (64-bit words LSB first, `width` bits) at `lsb`.
template <typename T>
void put_words(T& value, int lsb, int width, const std::vector<std::uint64_t>& words) {
  for (int k = 0; k * 64 < width; ++k) {
    const int w = width - k * 64 < 64 ? width - k * 64 : 64;
    put(value, lsb + k * 64, w, words.at(static_cast<std::size_t>(k)));
  }
}

/// Reads a multi-word field of `width` bits at `lsb` into 64-bit words, LSB first.
template <typename T>
std::vector<std::uint64_t> get_words(const T& value, int lsb, int width) {
  std::vector<std::uint64_t> words;
  for (int k = 0; k * 64 < width; ++k) {
    const int w = width - k * 64 < 64 ? width - k * 64 : 64;
    words.push_back(get(value, lsb + k * 64, w));
  }
  return words;
}

}  // namespace rtl_bits
}  // namespace mt
