#include "model/collective/algorithm_params.h"

#include <stdexcept>

#include "model/collective/algorithm.h"
#include "model/collective/byte_size.h"

namespace mt {

namespace {

// "'a' or 'b'", "'a', 'b' or 'c'".
std::string quoted_choices(const std::vector<std::string>& choices) {
  std::string out;
  for (std::size_t i = 0; i < choices.size(); ++i) {
    if (i > 0) out += i + 1 == choices.size() ? " or " : ", ";
    out += "'" + choices[i] + "'";
  }
  return out;
}

}  // namespace

TypedParams::TypedParams(const std::string& algorithm, const std::vector<ParamSpec>& schema,
                         const AlgorithmParams& raw)
    : algorithm_(algorithm), schema_(schema) {
  for (const auto& kv : raw) {
    bool known = false;
    for (const ParamSpec& s : schema) known = known || s.name == kv.first;
    if (known) continue;
    std::string list;
    for (const ParamSpec& s : schema) list += (list.empty() ? "" : ", ") + s.name;
    throw AlgorithmError(algorithm + ": unknown parameter '" + kv.first +
                         "' (known: " + (list.empty() ? std::string("none") : list) + ")");
  }
  for (const ParamSpec& s : schema) {
    const auto it = raw.find(s.name);
    const bool present = it != raw.end();
    if (!present && s.fallback.empty()) continue;
    const std::string& text = present ? it->second : s.fallback;
    const std::string what = algorithm + ": parameter '" + s.name + "' must be ";
    if (present) given_.insert(s.name);
    switch (s.type) {
      case ParamType::kInt: {
        std::size_t used = 0;
        int value = 0;
        try {
          value = std::stoi(text, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used == 0 || used != text.size())
          throw AlgorithmError(what + "an integer, got '" + text + "'");
        if (value < s.min)
          throw AlgorithmError(what + ">= " + std::to_string(s.min) + ", got " + text);
        numbers_[s.name] = value;
        break;
      }
      case ParamType::kSize:
        try {
          numbers_[s.name] = static_cast<long long>(parse_byte_size(text));
        } catch (const std::exception&) {  // whatever parse_byte_size throws for bad text
          throw AlgorithmError(what + "a size such as 4096 or 16MiB, got '" + text + "'");
        }
        break;
      case ParamType::kEnum: {
        bool ok = false;
        for (const std::string& c : s.choices) ok = ok || c == text;
        if (!ok) throw AlgorithmError(what + quoted_choices(s.choices) + ", got '" + text + "'");
        texts_[s.name] = text;
        break;
      }
    }
  }
}

const ParamSpec& TypedParams::spec(const std::string& key) const {
  for (const ParamSpec& s : schema_) {
    if (s.name == key) return s;
  }
  throw std::logic_error(algorithm_ + ": builder reads parameter '" + key +
                         "', which its schema does not declare");
}

int TypedParams::integer(const std::string& key) const {
  if (spec(key).fallback.empty())
    throw std::logic_error(algorithm_ + ": parameter '" + key + "' has no default");
  return static_cast<int>(numbers_.at(key));
}

int TypedParams::integer_or(const std::string& key, int computed) const {
  spec(key);
  const auto it = numbers_.find(key);
  return it == numbers_.end() ? computed : static_cast<int>(it->second);
}

std::uint64_t TypedParams::size_or(const std::string& key, std::uint64_t computed) const {
  spec(key);
  const auto it = numbers_.find(key);
  return it == numbers_.end() ? computed : static_cast<std::uint64_t>(it->second);
}

const std::string& TypedParams::choice(const std::string& key) const {
  if (spec(key).fallback.empty())
    throw std::logic_error(algorithm_ + ": parameter '" + key + "' has no default");
  return texts_.at(key);
}

}  // namespace mt
