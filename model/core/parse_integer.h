#pragma once
// Decimal integer parsing: the one place the text readers (scenario YAML, MSCCL XML, options)
// turn a field into an integer, and messages' numbers are read back (integer_at).

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

/// The run of decimal digits starting at `at` in `text` as an integer (nothing when there is no
/// digit there or the run does not fit a long long); `end`, when given, receives the position
/// after the run.
inline std::optional<long long> integer_at(const std::string& text, std::size_t at,
                                           std::size_t* end = nullptr) {
  std::size_t stop = at;
  while (stop < text.size() && text[stop] >= '0' && text[stop] <= '9') ++stop;
  if (end != nullptr) *end = stop;
  if (stop == at) return std::nullopt;
  return parse_integer(text.substr(at, stop - at));
}

}  // namespace mt
