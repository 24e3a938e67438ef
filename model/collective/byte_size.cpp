#include "model/collective/byte_size.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <stdexcept>

namespace mt {

namespace {

constexpr std::uint64_t kMaxSize = 1000000000000000000ull;  // 1e18 bytes: far above any limit
// More significant digits are a typo, not a size; 24 digits x the largest unit (2^40) stay
// below 2^128, so the arithmetic below cannot overflow.
constexpr std::size_t kMaxDigits = 24;

std::string not_a_size(const std::string& text) {
  return "\"" + text +
         "\" is not a size: expected a positive number of bytes with an optional unit B, KiB, "
         "MiB, GiB, TiB, KB, MB, GB, TB";
}

}  // namespace

// Exact integer arithmetic: "1.5KiB" is 15 x 1024 / 10, never a rounded double.
std::uint64_t parse_byte_size(const std::string& text) {
  std::size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.'))
    ++i;
  const std::string number = text.substr(0, i);
  std::string unit = text.substr(i);
  unit.erase(std::remove(unit.begin(), unit.end(), ' '), unit.end());
  const auto dots = std::count(number.begin(), number.end(), '.');
  if (number.empty() || dots > 1 || number == ".") throw ByteSizeError(not_a_size(text));
  static const std::map<std::string, std::uint64_t> kUnits = {{"", 1},
                                                              {"B", 1},
                                                              {"KiB", 1ull << 10},
                                                              {"MiB", 1ull << 20},
                                                              {"GiB", 1ull << 30},
                                                              {"TiB", 1ull << 40},
                                                              {"KB", 1000ull},
                                                              {"MB", 1000000ull},
                                                              {"GB", 1000000000ull},
                                                              {"TB", 1000000000000ull}};
  const auto unit_it = kUnits.find(unit);
  if (unit_it == kUnits.end())
    throw ByteSizeError("\"" + text + "\" has an unknown unit \"" + unit +
                        "\"; use B, KiB, MiB, GiB, TiB, KB, MB, GB or TB");
  // Digits without the point and without leading zeros; `scale` = digits after the point.
  std::string digits;
  int scale = 0;
  bool after_point = false;
  for (const char c : number) {
    if (c == '.') {
      after_point = true;
      continue;
    }
    if (after_point) ++scale;
    if (!digits.empty() || c != '0') digits += c;
  }
  // Trailing zeros after the point do not change the value.
  std::size_t keep = digits.size();
  while (scale > 0 && keep > 0 && digits[keep - 1] == '0') {
    --keep;
    --scale;
  }
  digits.resize(keep);
  if (digits.empty()) throw ByteSizeError("\"" + text + "\" is not a positive size");
  if (digits.size() > kMaxDigits) throw ByteSizeError("\"" + text + "\" is too large");
  unsigned __int128 mantissa = 0;
  for (const char c : digits) mantissa = mantissa * 10 + static_cast<unsigned>(c - '0');
  unsigned __int128 value = mantissa * unit_it->second;
  unsigned __int128 divisor = 1;
  for (int k = 0; k < scale; ++k) divisor *= 10;  // scale <= kMaxDigits: fits
  if (value < divisor) throw ByteSizeError("\"" + text + "\" is not a positive size");
  if (value % divisor != 0) throw ByteSizeError("\"" + text + "\" is not a whole number of bytes");
  value /= divisor;
  if (value > kMaxSize) throw ByteSizeError("\"" + text + "\" is too large");
  return static_cast<std::uint64_t>(value);
}

std::string format_byte_size(std::uint64_t bytes) {
  static const char* kNames[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (unit < 4 && bytes != 0 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++unit;
  }
  return std::to_string(bytes) + kNames[unit];
}

std::string allreduce_size_problem(std::uint64_t bytes) {
  if (bytes % 4 != 0)
    return std::to_string(bytes) + " bytes is not a whole number of 4-byte elements";
  return "";
}

}  // namespace mt
