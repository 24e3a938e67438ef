#pragma once
// Number and flag text shared by the results writers (results.cpp: CSV, JSON) and the result
// table (results_table.cpp).

#include <iomanip>
#include <sstream>
#include <string>

namespace mt::results_text {

/// `v` with `digits` decimals.
inline std::string fixed(double v, int digits) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(digits) << v;
  return os.str();
}

/// "true" / "false".
inline std::string text(bool b) {
  return b ? "true" : "false";
}

/// `v` as the stream writes it.
template <class Number>
std::string text(Number v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

}  // namespace mt::results_text
