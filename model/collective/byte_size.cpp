#include "model/collective/byte_size.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <stdexcept>

namespace mt {

std::uint64_t parse_byte_size(const std::string& text) {
  std::size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.'))
    ++i;
  const std::string number = text.substr(0, i);
  std::string unit = text.substr(i);
  unit.erase(std::remove(unit.begin(), unit.end(), ' '), unit.end());
  if (number.empty() || std::count(number.begin(), number.end(), '.') > 1)
    throw std::invalid_argument("\"" + text +
                                "\" is not a size: expected a positive number of "
                                "bytes with an optional unit B, KiB, MiB, GiB, KB, MB, GB");
  static const std::map<std::string, double> kUnits = {
      {"", 1},     {"B", 1},    {"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0},
      {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}};
  const auto unit_it = kUnits.find(unit);
  if (unit_it == kUnits.end())
    throw std::invalid_argument("\"" + text + "\" has an unknown unit \"" + unit +
                                "\"; use B, KiB, MiB, GiB, KB, MB or GB");
  const double value = std::stod(number) * unit_it->second;
  if (value < 1) throw std::invalid_argument("\"" + text + "\" is not a positive size");
  if (value != std::floor(value))
    throw std::invalid_argument("\"" + text + "\" is not a whole number of bytes");
  if (value > 1e18) throw std::invalid_argument("\"" + text + "\" is too large");
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

}  // namespace mt
