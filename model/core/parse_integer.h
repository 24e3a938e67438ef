#pragma once
// Decimal integer parsing: the one place the text readers (scenario YAML, MSCCL XML, options)
// turn a field into an integer.

#include <exception>
#include <optional>
#include <string>

namespace mt {

/// `text` as a decimal integer when the whole string is one that fits a long long; else nothing.
inline std::optional<long long> parse_integer(const std::string& text) {
  std::size_t used = 0;
  long long value = 0;
  try {
    value = std::stoll(text, &used, 10);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (used == 0 || used != text.size()) return std::nullopt;
  return value;
}

}  // namespace mt
