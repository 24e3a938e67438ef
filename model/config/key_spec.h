#pragma once
// Scenario keys declared once: a KeySpec names a key of a mapping section, says how it is read
// into the section's struct (type, range, unit) and what it means. The loader reads a section
// with its table (read_section: unknown, repeated and moved keys refused), and the key table of
// scenarios/README.md and `mtsim keys` are printed from the same tables (key_docs).

#include <cstdint>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "model/config/yaml_reader.h"
#include "model/core/enum_names.h"

namespace mt {

/// One key as the docs print it.
struct KeyDoc {
  std::string path;      ///< "nic.packet_bytes"; a section's own row has its name ("nic")
  std::string type;      ///< accepted values: "integer 4..1048576", "`packet`, `message`"
  std::string fallback;  ///< the value when the key is absent
  std::string unit;      ///< "cycles", "bytes", "ns", or empty
  std::string help;      ///< what it means
  bool section = false;  ///< a section's own row (a mapping of keys)
};

/// One key of a mapping section whose struct is S.
template <class S>
struct KeySpec {
  using Reader =
      std::function<void(const YamlReader&, const YAML::Node&, const std::string& path, S&)>;
  std::string name;  ///< key, e.g. "packet_bytes"
  std::string type;  ///< accepted values, as the docs print them
  std::string unit;  ///< unit of the value ("cycles", "bytes"; empty when none)
  std::string help;  ///< what it means (and how it interacts with other keys)
  Reader read;       ///< reads the value at `path` into the struct
  /// The default as the docs print it, from a default-built struct.
  std::function<std::string(const S&)> show;
  /// Non-empty for a key that no longer exists: the error says where its meaning went.
  std::string moved_to;
  /// A section's own key (its value a mapping of keys): a section row in the docs.
  bool section = false;
};

/// The keys of one section.
template <class S>
using KeyTable = std::vector<KeySpec<S>>;

/// Reads mapping `node` at `path` into `section` with `table`: every key must be one of the
/// table's (a moved key fails with its moved_to text), none twice. `skip` names table keys not
/// accepted here (e.g. an algorithm entry's `nic:` overrides take no `ports`).
template <class S>
void read_section(const YamlReader& r, const YAML::Node& node, const std::string& path,
                  const KeyTable<S>& table, S& section, const std::vector<std::string>& skip = {}) {
  std::vector<std::string> names;  // the keys accepted here (a moved key is not listed)
  for (const KeySpec<S>& k : table) {
    bool skipped = !k.moved_to.empty();
    for (const std::string& s : skip) skipped = skipped || s == k.name;
    if (!skipped) names.push_back(k.name);
  }
  if (node.IsMap()) {
    for (const auto& entry : node) {
      if (!entry.first.IsScalar()) continue;  // (each_key refuses it)
      for (const KeySpec<S>& k : table) {
        if (k.name == entry.first.Scalar() && !k.moved_to.empty()) {
          r.fail(entry.first, path.empty() ? k.name : path + "." + k.name,
                 "this key was replaced: " + k.moved_to);
        }
      }
    }
  }
  r.each_key(node, path, names,
             [&](const std::string& key, const YAML::Node& v, const std::string& p) {
               for (const KeySpec<S>& k : table) {
                 if (k.name == key && k.moved_to.empty()) {
                   k.read(r, v, p, section);
                   return;
                 }
               }
             });
}

/// The docs rows of `table` under `prefix` ("nic."), defaults from a default-built S.
template <class S>
std::vector<KeyDoc> key_docs(const KeyTable<S>& table, const std::string& prefix,
                             const S& defaults = S()) {
  std::vector<KeyDoc> docs;
  for (const KeySpec<S>& k : table) {
    if (!k.moved_to.empty()) continue;
    docs.push_back(
        KeyDoc{prefix + k.name, k.type, k.show ? k.show(defaults) : "", k.unit, k.help, k.section});
  }
  return docs;
}

/// "`a`, `b`, `c`": the names of enum E as the docs list them.
template <class E>
std::string enum_choices() {
  std::string out;
  for (const char* name : EnumNames<E>::kNames)
    out += (out.empty() ? "`" : ", `") + std::string(name) + "`";
  return out;
}

/// A number as the docs print it ("0.5", "32").
inline std::string show_number(double v) {
  return YamlReader::fmt(v);
}

/// An integer key in [lo, hi].
template <class S, class T>
KeySpec<S> integer_key(std::string name, T S::*member, long long lo, long long hi, std::string unit,
                       std::string help) {
  const std::string type = "integer " + std::to_string(lo) + ".." + std::to_string(hi);
  return KeySpec<S>{std::move(name),
                    type,
                    std::move(unit),
                    std::move(help),
                    [member, lo, hi](const YamlReader& r, const YAML::Node& v, const std::string& p,
                                     S& s) { s.*member = static_cast<T>(r.integer(v, p, lo, hi)); },
                    [member](const S& s) { return std::to_string(s.*member); },
                    ""};
}

/// A number key in [lo, hi] ((lo, hi] when `lo_open`).
template <class S>
KeySpec<S> real_key(std::string name, double S::*member, double lo, double hi, bool lo_open,
                    std::string unit, std::string help) {
  const std::string type = "number " + std::string(lo_open ? "> " : ">= ") + show_number(lo) +
                           (hi < 1e300 ? ", <= " + show_number(hi) : "");
  return KeySpec<S>{
      std::move(name),
      type,
      std::move(unit),
      std::move(help),
      [member, lo, hi, lo_open](const YamlReader& r, const YAML::Node& v, const std::string& p,
                                S& s) { s.*member = r.real(v, p, lo, hi, lo_open); },
      [member](const S& s) { return show_number(s.*member); },
      ""};
}

/// A boolean key.
template <class S>
KeySpec<S> bool_key(std::string name, bool S::*member, std::string help) {
  return KeySpec<S>{std::move(name),
                    "boolean",
                    "",
                    std::move(help),
                    [member](const YamlReader& r, const YAML::Node& v, const std::string& p, S& s) {
                      s.*member = r.boolean(v, p);
                    },
                    [member](const S& s) { return std::string(s.*member ? "true" : "false"); },
                    ""};
}

/// A key naming one value of enum E (EnumNames<E>).
template <class S, class E>
KeySpec<S> enum_key(std::string name, E S::*member, std::string help) {
  return KeySpec<S>{std::move(name),
                    enum_choices<E>(),
                    "",
                    std::move(help),
                    [member](const YamlReader& r, const YAML::Node& v, const std::string& p, S& s) {
                      s.*member = r.template choice_of<E>(v, p);
                    },
                    [member](const S& s) { return "`" + std::string(to_string(s.*member)) + "`"; },
                    ""};
}

/// A byte-size key ("4096", "64KiB").
template <class S>
KeySpec<S> bytes_key(std::string name, std::uint64_t S::*member, std::string help) {
  return KeySpec<S>{std::move(name),
                    "size",
                    "bytes",
                    std::move(help),
                    [member](const YamlReader& r, const YAML::Node& v, const std::string& p, S& s) {
                      s.*member = r.bytes(v, p);
                    },
                    [member](const S& s) { return format_byte_size(s.*member); },
                    ""};
}

/// A key read by `read`, its docs given as text (`fallback`: the default as the docs print it).
template <class S>
KeySpec<S> custom_key(std::string name, std::string type, std::string unit, std::string help,
                      typename KeySpec<S>::Reader read, std::string fallback) {
  return KeySpec<S>{std::move(name),
                    std::move(type),
                    std::move(unit),
                    std::move(help),
                    std::move(read),
                    [fallback = std::move(fallback)](const S&) { return fallback; },
                    ""};
}

/// A key that was replaced: refused with `moved_to` saying what replaces it.
template <class S>
KeySpec<S> moved_key(std::string name, std::string moved_to) {
  return KeySpec<S>{std::move(name), "", "", "", nullptr, nullptr, std::move(moved_to)};
}

}  // namespace mt
