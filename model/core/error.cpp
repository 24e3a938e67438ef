#include "model/core/error.h"

namespace mt {

std::string ErrorLocation::where() const {
  if (!override_option.empty()) return override_option;
  if (!override_text.empty()) return "--set " + override_text;
  if (line < 0) return file;
  std::string text = file + ":" + std::to_string(line);
  if (column >= 0) text += ":" + std::to_string(column);
  return text;
}

}  // namespace mt
