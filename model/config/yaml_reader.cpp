#include "model/config/yaml_reader.h"

#include <yaml-cpp/depthguard.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <sstream>

#include "model/collective/byte_size.h"
#include "model/config/yaml_guard.h"
#include "model/core/parse_integer.h"
#include "model/core/text_file.h"

namespace mt {
namespace {

constexpr std::size_t kMaxFileBytes = 4u << 20;  // a config is a few KiB; refuse huge files

std::string range_text(const std::string& s, const std::string& lo, const std::string& hi) {
  return "\"" + s + "\" is out of range: must be between " + lo + " and " + hi;
}

// Byte offset of the line that starts a second YAML document, or npos. Found in the text because
// yaml-cpp's LoadAll loops forever on some malformed input (",key"): a "---" line (column 0,
// then a blank or the end of the line) after the document began, or content after "...".
std::size_t second_document(const std::string& text) {
  const auto marker = [&](std::size_t at, const char* three) {
    return text.compare(at, 3, three) == 0 &&
           (at + 3 >= text.size() || text[at + 3] == ' ' || text[at + 3] == '\t' ||
            text[at + 3] == '\r' || text[at + 3] == '\n');
  };
  bool begun = false, ended = false;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    const std::size_t first = text.find_first_not_of(" \t\r", at);
    const bool blank = first == std::string::npos || first >= end || text[first] == '#';
    if (marker(at, "---")) {
      if (begun || ended) return at;
      begun = true;
    } else if (marker(at, "...")) {
      ended = true;
    } else if (!blank && text[at] != '%') {
      if (ended) return at;
      begun = true;
    }
    at = end + 1;
  }
  return std::string::npos;
}

}  // namespace

std::size_t find_invalid_utf8(const std::string& s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    int extra = 0;
    if (c < 0x80)
      extra = 0;
    else if ((c & 0xE0) == 0xC0 && c >= 0xC2)
      extra = 1;
    else if ((c & 0xF0) == 0xE0)
      extra = 2;
    else if ((c & 0xF8) == 0xF0 && c <= 0xF4)
      extra = 3;
    else
      return i;
    if (i + static_cast<std::size_t>(extra) >= s.size()) return i;  // truncated sequence
    for (int k = 1; k <= extra; ++k)
      if ((static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]) & 0xC0) != 0x80) return i;
    // Overlong forms, UTF-16 surrogates (U+D800..DFFF) and code points past U+10FFFF are not
    // UTF-8 either (RFC 3629); the JSON writer rejects them, so the loader does first.
    const auto c1 = extra > 0 ? static_cast<unsigned char>(s[i + 1]) : 0;
    if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 >= 0xA0) || (c == 0xF0 && c1 < 0x90) ||
        (c == 0xF4 && c1 >= 0x90))
      return i;
    i += static_cast<std::size_t>(extra) + 1;
  }
  return std::string::npos;
}

void YamlReader::fail(const YAML::Node& node, const std::string& path,
                      const std::string& what) const {
  ErrorLocation at = location(node, path);
  const std::string place = at.where();
  throw ScenarioError(place + ": " + (path.empty() ? "" : path + ": ") + what, std::move(at));
}

void YamlReader::fail_at(const YAML::Node& root, const std::string& path,
                         const std::string& what) const {
  fail(locate(root, path, 0), path, what);
}

// yaml-cpp's Node assignment writes through, so the walk recurses instead of rebinding a Node.
YAML::Node YamlReader::locate(const YAML::Node& node, const std::string& path, std::size_t from) {
  if (from >= path.size()) return node;
  std::size_t end = path.find('.', from);
  if (end == std::string::npos) end = path.size();
  std::string part = path.substr(from, end - from);
  std::size_t index = std::string::npos;
  if (const auto open = part.find('['); open != std::string::npos) {
    index = static_cast<std::size_t>(std::strtoul(part.c_str() + open + 1, nullptr, 10));
    part.resize(open);
  }
  if (!node.IsMap() || !node[part].IsDefined()) return node;
  const YAML::Node child = node[part];
  if (index == std::string::npos) return locate(child, path, end + 1);
  if (!child.IsSequence() || index >= child.size()) return child;
  return locate(child[index], path, end + 1);
}

std::string YamlReader::where(const YAML::Node& node, const std::string& path) const {
  return location(node, path).where();
}

ErrorLocation YamlReader::location(const YAML::Node& node, const std::string& path) const {
  ErrorLocation at;
  at.file = source_;
  at.key_path = path;
  // The most specific override of `path`: one that set "nic.x" also created the mapping "nic"
  // when the file had none, and the key it set is the one to name.
  const std::pair<const std::string, std::string>* set_by = nullptr;
  for (const auto& entry : overridden_) {
    const std::string& key = entry.first;
    if ((path == key || path.rfind(key + ".", 0) == 0 || path.rfind(key + "[", 0) == 0) &&
        (set_by == nullptr || key.size() > set_by->first.size()))
      set_by = &entry;
  }
  if (set_by != nullptr) {
    at.override_key = set_by->first;
    at.override_text = set_by->second;
    const auto option = options_.find(set_by->second);
    if (option != options_.end()) at.override_option = option->second;
    return at;
  }
  const YAML::Mark m = node.Mark();
  if (m.line >= 0) {
    at.line = m.line + 1;
    at.column = m.column + 1;
  }
  return at;
}

void YamlReader::each_key(
    const YAML::Node& map, const std::string& path, const std::vector<std::string>& keys,
    const std::function<void(const std::string&, const YAML::Node&, const std::string&)>& handler)
    const {
  if (!map.IsMap()) fail(map, path, "expected a mapping of keys (" + join(keys) + ")");
  std::set<std::string> seen;
  for (const auto& entry : map) {
    if (!entry.first.IsScalar()) fail(entry.first, path, "keys must be plain names");
    const std::string key = entry.first.Scalar();
    const std::string sub = path.empty() ? key : path + "." + key;
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
      ErrorLocation at = location(entry.first, sub);
      at.key_unknown = true;
      const std::string place = at.where();  // before `at` moves into the error
      throw ScenarioError(place + ": " + sub + ": unknown key; expected one of: " + join(keys),
                          std::move(at));
    }
    if (!seen.insert(key).second) fail(entry.first, sub, "key given twice");
    handler(key, entry.second, sub);
  }
}

std::string YamlReader::scalar(const YAML::Node& n, const std::string& path,
                               const char* what) const {
  if (!n.IsScalar()) fail(n, path, std::string("expected ") + what + ", got " + kind_of(n));
  return n.Scalar();
}

long long YamlReader::integer(const YAML::Node& n, const std::string& path, long long lo,
                              long long hi) const {
  const std::string s = scalar(n, path, "an integer");
  const std::optional<long long> parsed = parse_integer(s);
  if (!parsed) fail(n, path, "expected an integer, got \"" + s + "\"");
  const long long v = *parsed;
  if (v < lo || v > hi) fail(n, path, range_text(s, std::to_string(lo), std::to_string(hi)));
  return v;
}

double YamlReader::real(const YAML::Node& n, const std::string& path, double lo, double hi,
                        bool lo_open) const {
  const std::string s = scalar(n, path, "a number");
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(v))
    fail(n, path, "expected a number, got \"" + s + "\"");
  if ((lo_open ? v <= lo : v < lo) || v > hi)
    fail(n, path,
         "\"" + s + "\" is out of range: must be " + (lo_open ? "> " : ">= ") + fmt(lo) +
             " and <= " + fmt(hi));
  return v;
}

namespace {

// A plain scalar's boolean spellings: YAML 1.2's true/false in its three spellings, and YAML
// 1.1's yes/no/on/off, which yaml-cpp and many files use.
constexpr const char* kTrueSpellings[] = {"true", "True", "TRUE", "yes", "on"};
constexpr const char* kFalseSpellings[] = {"false", "False", "FALSE", "no", "off"};

bool spells(const std::string& s, const char* const (&spellings)[5]) {
  for (const char* t : spellings)
    if (s == t) return true;
  return false;
}

// Writes `node` as flow YAML. The Emitter drops a scalar's quotes, which matters only where the
// plain text reads as something else: a quoted "true" would come back as a boolean, which the
// loader refuses quoted; such a scalar stays quoted.
void emit(YAML::Emitter& out, const YAML::Node& node) {
  if (node.IsScalar() && node.Tag() == "!" &&
      (spells(node.Scalar(), kTrueSpellings) || spells(node.Scalar(), kFalseSpellings))) {
    out << YAML::DoubleQuoted << node.Scalar();
  } else if (node.IsSequence()) {
    out << YAML::BeginSeq;
    for (const YAML::Node& item : node) emit(out, item);
    out << YAML::EndSeq;
  } else if (node.IsMap()) {
    out << YAML::BeginMap;
    for (const auto& kv : node) {
      out << YAML::Key;
      emit(out, kv.first);
      out << YAML::Value;
      emit(out, kv.second);
    }
    out << YAML::EndMap;
  } else {
    out << node;
  }
}

}  // namespace

bool YamlReader::boolean(const YAML::Node& n, const std::string& path,
                         const std::string& expected) const {
  const std::string s = scalar(n, path, expected.c_str());
  // A quoted scalar is a string in YAML, whatever it says ("false" would read as true in many
  // tools): refused.
  if (n.Tag() == "!")
    fail(n, path,
         "expected " + expected + ", got the quoted string \"" + s + "\" (write it unquoted)");
  if (spells(s, kTrueSpellings)) return true;
  if (spells(s, kFalseSpellings)) return false;
  fail(n, path, "expected " + expected + ", got \"" + s + "\"");
}

std::string YamlReader::choice(const YAML::Node& n, const std::string& path,
                               const std::vector<std::string>& allowed) const {
  const std::string s = scalar(n, path, "a name");
  if (std::find(allowed.begin(), allowed.end(), s) == allowed.end())
    fail(n, path, "\"" + s + "\" is not one of: " + join(allowed));
  return s;
}

std::uint64_t YamlReader::bytes(const YAML::Node& n, const std::string& path) const {
  const std::string s = scalar(n, path, "a size in bytes (e.g. 4096, 64KiB, 1MiB)");
  std::uint64_t v = 0;
  try {
    v = parse_byte_size(s);
  } catch (const ByteSizeError& e) {
    fail(n, path, e.what());
  }
  if (v > kMaxConfigBytes) fail(n, path, "\"" + s + "\" is larger than the 1TiB limit");
  return v;
}

std::vector<YAML::Node> YamlReader::list(const YAML::Node& n, const std::string& path,
                                         bool allow_scalar, std::size_t max_items) const {
  std::vector<YAML::Node> items;
  if (n.IsSequence()) {
    for (const auto& item : n) items.push_back(item);
  } else if (allow_scalar && n.IsScalar()) {
    items.push_back(n);
  } else {
    fail(n, path, "expected a list, got " + kind_of(n));
  }
  if (items.empty()) fail(n, path, "the list is empty");
  if (items.size() > max_items)
    fail(n, path,
         "the list has " + std::to_string(items.size()) + " entries; at most " +
             std::to_string(max_items) + " are allowed");
  return items;
}

std::string YamlReader::kind_of(const YAML::Node& n) {
  if (n.IsMap()) return "a mapping";
  if (n.IsSequence()) return "a list";
  if (n.IsNull()) return "nothing (null)";
  return "\"" + n.Scalar() + "\"";
}

std::string YamlReader::join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

std::string YamlReader::fmt(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

// Parses one YAML document, naming file:line:col of invalid UTF-8 or a syntax error.
YAML::Node parse_yaml(const std::string& file_text, const std::string& source_name) {
  const std::string text = lone_cr_as_lf(file_text);
  // "file:line:col: what", with the same place as fields.
  const auto error_at = [&](long line, long col, const std::string& what) {
    ErrorLocation at;
    at.file = source_name;
    at.line = static_cast<int>(line);
    at.column = static_cast<int>(col);
    return ScenarioError(at.where() + ": " + what, at);
  };
  if (const std::size_t bad = find_invalid_utf8(text); bad != std::string::npos) {
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<long>(bad), '\n');
    const auto line_start = text.rfind('\n', bad == 0 ? 0 : bad - 1);
    const auto col = bad - (line_start == std::string::npos ? 0 : line_start + 1) + 1;
    throw error_at(line, static_cast<long>(col),
                   "the file is not valid UTF-8 (byte " + std::to_string(bad) + ")");
  }
  if (const std::size_t second = second_document(text); second != std::string::npos) {
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<long>(second), '\n');
    throw error_at(line, 1,
                   "a second YAML document (after '---' or '...'): a file holds exactly one");
  }
  try {
    return load_yaml(text);
  } catch (const AliasError& e) {
    throw error_at(e.mark.line + 1, e.mark.column + 1, e.msg);
  } catch (const YAML::DeepRecursion& e) {
    throw error_at(e.mark.line + 1, e.mark.column + 1,
                   "the YAML nests deeper than " + std::to_string(e.depth()) +
                       " levels (the parser's limit); no mtsim file nests more than a few");
  } catch (const YAML::Exception& e) {
    throw error_at(e.mark.line + 1, e.mark.column + 1, "YAML syntax error: " + e.msg);
  }
}

std::string read_config_file(const std::string& path, const std::string& what) {
  try {
    return read_text_file(path, what + " file", kMaxFileBytes);
  } catch (const FileError& e) {
    ErrorLocation at;
    at.file = path;
    throw ScenarioError(e.what(), at);
  }
}

// A YAML value as one line of flow-style YAML, the form `--set key=value` parses back.
std::string flow_text(const YAML::Node& node) {
  YAML::Emitter out;
  out.SetMapFormat(YAML::Flow);
  out.SetSeqFormat(YAML::Flow);
  emit(out, node);
  return out.c_str();
}

// A scenario key path: dot-separated names of letters, digits and '_'.
bool is_key_path(const std::string& key) {
  if (key.empty() || key.front() == '.' || key.back() == '.') return false;
  for (std::size_t i = 0; i < key.size(); ++i) {
    const char c = key[i];
    if (c == '.' && key[i - 1] == '.') return false;
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.')) return false;
  }
  return true;
}

// "dir/name.yaml" -> "name".
std::string file_stem(const std::string& path) {
  const auto slash = path.find_last_of('/');
  std::string stem = path.substr(slash == std::string::npos ? 0 : slash + 1);
  if (const auto dot = stem.rfind('.'); dot != std::string::npos && dot > 0) stem.resize(dot);
  return stem;
}

void check_file_kind(const YamlReader& r, const YAML::Node& root, FileKind expected) {
  struct Kind {
    FileKind kind;
    const char* name;
    const char* use;
    std::vector<std::string> keys;  // top-level keys no other kind has
  };
  static const std::vector<Kind> kinds = {
      {FileKind::kScenario,
       "a scenario",
       "mtsim run FILE",
       {"topology", "collective", "router", "nic", "host", "clock_ghz", "output"}},
      {FileKind::kSweep,
       "a sweep file",
       "mtsim sweep FILE",
       {"axes", "exclude", "scenario", "set"}},
      {FileKind::kWorkload,
       "a workload",
       "mtsim train FILE --scenario NETWORK.yaml",
       {"layers", "optimizer_cycles", "bucket_bytes", "launch_cycles"}},
      {FileKind::kSchedule,
       "a schedule file",
       "mtsim verify FILE, or {name: file, path: FILE} in a scenario's algorithms",
       {"ops", "num_chunks", "num_flows", "num_steps", "chunk_offsets"}},
  };
  if (!root.IsMap()) return;
  const Kind* wanted = nullptr;
  for (const Kind& k : kinds)
    if (k.kind == expected) wanted = &k;
  for (const auto& entry : root) {
    if (!entry.first.IsScalar()) continue;
    const std::string key = entry.first.Scalar();
    for (const Kind& k : kinds) {
      if (k.kind == expected || std::find(k.keys.begin(), k.keys.end(), key) == k.keys.end())
        continue;
      r.fail(entry.first, key,
             std::string("this looks like ") + k.name + " (it has " + key + ":), not " +
                 wanted->name + ": use " + k.use);
    }
  }
}

std::string beside(const std::string& source, const std::string& path) {
  const auto slash = source.find_last_of('/');
  if (path.empty() || path.front() == '/' || slash == std::string::npos) return path;
  return source.substr(0, slash + 1) + path;
}

}  // namespace mt
