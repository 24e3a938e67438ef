#pragma once
// Reading YAML for the config loaders (scenario, sweep, workload): one document per file, typed
// scalars with ranges, mappings with a closed key set; every problem is a ScenarioError at
// "file:line:col: key.path: what is wrong". Included only from model/config/ (it includes
// yaml-cpp, which nothing else in mtsim sees).

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/collective/byte_size.h"
#include "model/core/enum_names.h"
#include "model/params/config_error.h"

namespace mt {

/// Typed reads of YAML nodes of one source file. Keys set by `--set` overrides (`overridden`:
/// key path -> the override's text) are located by their `--set` text instead of a file position
/// (the most specific override of the key: the one that set it, not a mapping created on its
/// way), or by the option an override stands for (`options`: override text -> option text).
class YamlReader {
 public:
  YamlReader(std::string source, std::map<std::string, std::string> overridden,
             std::map<std::string, std::string> options = {})
      : source_(std::move(source)),
        overridden_(std::move(overridden)),
        options_(std::move(options)) {}

  /// Throws a ScenarioError at `node` (its file:line:col) naming key `path` (may be empty).
  [[noreturn]] void fail(const YAML::Node& node, const std::string& path,
                         const std::string& what) const;
  /// Fails at the node of `path` ("a.b[2].c") under `root` when it is there, else at its nearest
  /// ancestor: cross-key rules name the key's own line.
  [[noreturn]] void fail_at(const YAML::Node& root, const std::string& path,
                            const std::string& what) const;
  /// The node at path[from...] under `node`, or its nearest existing ancestor.
  static YAML::Node locate(const YAML::Node& node, const std::string& path, std::size_t from);
  /// "file:line:col" of `node`, or "--set key=value" when `path` was overridden.
  std::string where(const YAML::Node& node, const std::string& path) const;
  /// The same place as fields: file, line and column of `node` (none when `path` or a mapping
  /// above it was overridden: then the override's key and text), and key path `path`.
  ErrorLocation location(const YAML::Node& node, const std::string& path) const;

  /// The source file's path as given (relative file names in it are taken from its folder).
  const std::string& source() const { return source_; }

  /// Calls handler(key, value, path) for every entry of a mapping; rejects unknown and repeated
  /// keys.
  void each_key(
      const YAML::Node& map, const std::string& path, const std::vector<std::string>& keys,
      const std::function<void(const std::string&, const YAML::Node&, const std::string&)>& handler)
      const;

  std::string scalar(const YAML::Node& n, const std::string& path, const char* what) const;
  long long integer(const YAML::Node& n, const std::string& path, long long lo, long long hi) const;
  int integer32(const YAML::Node& n, const std::string& path, int lo, int hi) const {
    return static_cast<int>(integer(n, path, lo, hi));
  }
  /// A finite number in [lo, hi], or (lo, hi] when `lo_open`.
  double real(const YAML::Node& n, const std::string& path, double lo, double hi,
              bool lo_open) const;
  /// An unquoted YAML boolean; `expected` says what the key accepts in an error.
  bool boolean(const YAML::Node& n, const std::string& path,
               const std::string& expected = "true or false") const;
  /// One of `allowed`, else "\"x\" is not one of: a, b".
  std::string choice(const YAML::Node& n, const std::string& path,
                     const std::vector<std::string>& allowed) const;
  std::string text(const YAML::Node& n, const std::string& path) const {
    return scalar(n, path, "a string");
  }
  /// The value of enum E named by the scalar (EnumNames<E>), else "\"x\" is not one of: a, b".
  template <typename E>
  E choice_of(const YAML::Node& n, const std::string& path) const {
    const std::string s = scalar(n, path, "a name");
    if (const std::optional<E> value = parse_enum<E>(s)) return *value;
    fail(n, path, "\"" + s + "\" is not one of: " + enum_names_joined<E>());
  }
  /// A byte size ("4096", "64KiB", "1MiB"), at most 1 TiB.
  std::uint64_t bytes(const YAML::Node& n, const std::string& path) const;
  /// The items of a non-empty list of at most `max_items`; a lone scalar counts as a list of one
  /// when `allow_scalar`.
  std::vector<YAML::Node> list(const YAML::Node& n, const std::string& path, bool allow_scalar,
                               std::size_t max_items) const;

  /// "a mapping", "a list", "nothing (null)" or the quoted scalar.
  static std::string kind_of(const YAML::Node& n);
  static std::string join(const std::vector<std::string>& v);
  /// A number as the shortest stream text ("1", "0.5").
  static std::string fmt(double v);

 private:
  std::string source_;
  std::map<std::string, std::string> overridden_;
  std::map<std::string, std::string> options_;
};

/// Parses one YAML document, naming file:line:col of invalid UTF-8, a syntax error, excessive
/// nesting, a recursive alias, aliases that expand past a million values, or a second document.
/// A lone CR is a line break, as YAML says.
YAML::Node parse_yaml(const std::string& text, const std::string& source_name);

/// Reads a whole (small) config file; `what` names it in messages ("scenario", "sweep").
std::string read_config_file(const std::string& path, const std::string& what);

/// Byte offset of the first invalid UTF-8 sequence of `s`, or npos.
std::size_t find_invalid_utf8(const std::string& s);

/// "dir/name.yaml" -> "name".
std::string file_stem(const std::string& path);

/// `path` as named in the file `source`: relative paths are taken from `source`'s folder
/// ("dir/a.yaml", "b.json" -> "dir/b.json"); absolute ones are kept.
std::string beside(const std::string& source, const std::string& path);

/// The kinds of file mtsim's commands read (a schedule JSON file parses as YAML too).
enum class FileKind { kScenario, kSweep, kWorkload, kSchedule };

/// Refuses `root` when one of its top-level keys belongs only to another kind of file than
/// `expected` (e.g. `axes:` in what was given as a scenario): the error, at that key, names the
/// kind it looks like and the command that takes it, instead of an "unknown key".
void check_file_kind(const YamlReader& r, const YAML::Node& root, FileKind expected);

/// A YAML value as one line of flow-style YAML, the form `--set key=value` parses back.
std::string flow_text(const YAML::Node& node);

/// A scenario key path: dot-separated names of letters, digits and '_'.
bool is_key_path(const std::string& key);

}  // namespace mt
