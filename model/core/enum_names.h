#pragma once
// Names of closed-set enums (config choices such as the NIC's flow control or the topology
// family): the one place text turns into an enum and back. Each enum lists its names next to its
// declaration by specialising EnumNames; the config loader parses with them once, results and
// messages print with them.

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace mt {

/// Specialised for each named enum E, whose values are 0..N-1 in the order of their names:
///   template <> struct EnumNames<FlowControl> {
///     static constexpr std::array<const char*, 2> kNames{"packet", "message"};
///   };
template <typename E>
struct EnumNames;

/// The name of `value` ("message").
template <typename E, typename = decltype(EnumNames<E>::kNames)>
const char* to_string(E value) {
  return EnumNames<E>::kNames.at(static_cast<std::size_t>(value));
}

/// The value named `name`, or nothing when no value has that name.
template <typename E, typename = decltype(EnumNames<E>::kNames)>
std::optional<E> parse_enum(std::string_view name) {
  for (std::size_t i = 0; i < EnumNames<E>::kNames.size(); ++i)
    if (name == EnumNames<E>::kNames[i]) return static_cast<E>(i);
  return std::nullopt;
}

/// Every name, joined by `separator` ("packet, message"), for messages listing the choices.
template <typename E, typename = decltype(EnumNames<E>::kNames)>
std::string enum_names_joined(const std::string& separator = ", ") {
  std::string out;
  for (const char* name : EnumNames<E>::kNames) out += (out.empty() ? "" : separator) + name;
  return out;
}

}  // namespace mt
