#include "model/config/collective_keys.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "model/collective/algorithm.h"
#include "model/collective/algorithm_params.h"

namespace mt {
namespace {

// One algorithm entry as it is read: the run, and what is applied once the whole file is read.
struct EntryDraft {
  AlgorithmRun run;
  EntryOverrides overrides;  // its `nic:` (applied over the scenario's once the file is read)
  YAML::Node file_node;      // the entry's `path:` value, when given
  bool has_path = false;
  YAML::Node params_node;  // where a parameter error points: `params:`, else the entry
  std::string params_path;
};

// The algorithms an entry may name: every built-in and `file` (a schedule file).
std::vector<std::string> entry_names() {
  std::vector<std::string> known = algorithm_names();
  known.push_back("file");  // {name: file, path: FILE}: a schedule file (schedule_file.h)
  return known;
}

// An entry's `params:` mapping, each value a scalar kept as text (checked against the
// algorithm's schema once the entry is read).
void read_params(const YamlReader& r, const YAML::Node& v, const std::string& p, EntryDraft& e) {
  if (!v.IsMap()) r.fail(v, p, "expected a mapping of parameter: value");
  e.params_node.reset(v);  // `=` would overwrite the entry node it refers to
  e.params_path = p;
  for (const auto& kv : v) {
    const std::string name = r.text(kv.first, p);
    if (e.run.params.count(name) != 0) r.fail(kv.first, p + "." + name, "key given twice");
    e.run.params[name] = r.scalar(kv.second, p + "." + kv.first.Scalar(), "a scalar value");
  }
}

const KeyTable<EntryDraft>& entry_keys() {
  using E = EntryDraft;
  using Node = YAML::Node;
  using Reader = const YamlReader&;
  static const KeyTable<E> table{
      custom_key<E>(
          "name", "an algorithm name (`mtsim schedule --help`) or `file`", "",
          "the algorithm, or `file` for a schedule file",
          [](Reader r, const Node& v, const std::string& p, E& e) {
            e.run.name = r.choice(v, p, entry_names());
          },
          "required"),
      custom_key<E>(
          "label", "string", "", "name in results (labels must be distinct)",
          [](Reader r, const Node& v, const std::string& p, E& e) { e.run.label = r.text(v, p); },
          "the name (a file entry: the file's stem)"),
      custom_key<E>("params", "mapping", "",
                    "algorithm parameters, e.g. `{pipeline: 16}` for `dbtree`; names, types and "
                    "ranges checked when the file is read",
                    read_params, "empty"),
      custom_key<E>(
          "ports", "integer 1..64", "",
          "NIC ports for this algorithm only (e.g. the paper's 1-port ring vs 4-port MultiTree)",
          [](Reader r, const Node& v, const std::string& p, E& e) {
            e.run.ports = r.integer32(v, p, 1, 64);
          },
          "`nic.ports`"),
      custom_key<E>(
          "nic", "mapping", "",
          "NIC overrides for this algorithm only: any `nic` key except `ports` (use the entry's "
          "`ports`), applied over the scenario's `nic`, e.g. `{name: multitree, label: "
          "multitree-sw, nic: {issue: software, flow_control: packet}}`",
          [](Reader, const Node& v, const std::string& p, E& e) {
            e.overrides.nic = v;  // applied over the scenario's nic once the whole file is read
            e.overrides.nic_path = p;
          },
          "`nic`"),
      custom_key<E>(
          "host", "mapping", "",
          "host overrides for this algorithm only (software issue): any `host` key, applied over "
          "the scenario's `host`, e.g. `{name: multitree, label: multitree-gpu, nic: {issue: "
          "software}, host: {preset: gpu_initiated}}`",
          [](Reader, const Node& v, const std::string& p, E& e) {
            e.overrides.host = v;  // applied over the scenario's host once the file is read
            e.overrides.host_path = p;
          },
          "`host`"),
      custom_key<E>(
          "path", "path", "",
          "schedule file of a `{name: file}` entry: `.json` (mtsim schedule, "
          "[SCHEDULE_FORMAT.md](../model/collective/SCHEDULE_FORMAT.md)) or `.xml` (MSCCL "
          "all-reduce XML); relative to this scenario file's folder unless absolute (also when "
          "given with `--set` or as a sweep axis value: the base scenario's folder). Checked "
          "against the topology (nodes, NIC ports, explicit paths: exit 2 naming the file), "
          "verified (exit 1 with the verifier's message), then simulated at every size: its "
          "chunks are fractions of the buffer (unequal `chunk_offsets` are scaled to each size)",
          [](Reader r, const Node& v, const std::string& p, E& e) {
            e.file_node = v;
            e.has_path = true;
            e.run.schedule_file = r.text(v, p);
          },
          "required for `name: file`"),
  };
  return table;
}

// {name: file, path: FILE}: FILE is taken from the scenario file's folder unless absolute; the
// label defaults to the file's stem.
void read_schedule_file_entry(const YamlReader& r, const YAML::Node& node, const std::string& path,
                              const YAML::Node* file_node, AlgorithmRun& run) {
  if (run.name != "file") {
    if (file_node != nullptr)
      r.fail(*file_node, path + ".path", "only a {name: file} entry takes a path");
    return;
  }
  if (file_node == nullptr)
    r.fail(node, path,
           "missing key \"path\": a file entry names its schedule file "
           "({name: file, path: FILE.json or FILE.xml})");
  if (run.schedule_file.empty()) r.fail(*file_node, path + ".path", "empty path");
  if (!run.params.empty()) r.fail(node, path + ".params", "a schedule file takes no parameters");
  run.schedule_file = beside(r.source(), run.schedule_file);
  // Known before any point runs (a sweep's --list validates every point with this).
  std::error_code ec;
  if (!std::filesystem::is_regular_file(run.schedule_file, ec))
    r.fail(*file_node, path + ".path",
           run.schedule_file + (std::filesystem::exists(run.schedule_file, ec)
                                    ? ": not a regular file"
                                    : ": no such schedule file"));
  if (run.label.empty()) run.label = file_stem(run.schedule_file);
}

EntryDraft read_algorithm(const YamlReader& r, const YAML::Node& node, const std::string& path) {
  EntryDraft e;
  e.params_node = node;
  e.params_path = path;
  const std::vector<std::string> known = entry_names();
  if (node.IsScalar()) {
    // A bare name, or a schedule as results name it: "multitree_opt(pipeline=4)" (labelled so).
    std::string name;
    AlgorithmParams params;
    if (parse_schedule_label(node.Scalar(), name, params) &&
        std::find(known.begin(), known.end(), name) != known.end() && name != "file") {
      e.run.name = name;
      e.run.params = std::move(params);
      e.run.label = node.Scalar();
    } else if (node.Scalar().find('(') != std::string::npos) {
      r.fail(node, path,
             "\"" + node.Scalar() +
                 "\" is not an algorithm name or name(key=value,...) with one of: " +
                 YamlReader::join(algorithm_names()) +
                 " (inside [...] a name with several parameters must be quoted, or written "
                 "{name: NAME, params: {key: value, ...}})");
    } else {
      e.run.name = r.choice(node, path, known);
    }
  } else {
    read_section(r, node, path, entry_keys(), e);
    if (e.run.name.empty()) r.fail(node, path, "missing key \"name\"");
  }
  read_schedule_file_entry(r, node, path, e.has_path ? &e.file_node : nullptr, e.run);
  if (e.run.name != "file") {
    // Parameters read into the algorithm's struct (unknown keys, types, ranges refused) while the
    // file is read, so run, train and every sweep point refuse them before anything is built.
    try {
      algorithm_config(e.run.name, e.run.params);
    } catch (const AlgorithmError& error) {
      r.fail(e.params_node, e.params_path, error.what());
    }
  }
  if (e.run.label.empty()) e.run.label = e.run.name;
  e.run.location = r.location(node, path);
  return e;
}

void read_algorithms(const YamlReader& r, const YAML::Node& v, const std::string& p,
                     CollectiveSection& c) {
  c.config.algorithms.clear();
  c.overrides.clear();
  std::size_t i = 0;
  for (const auto& a : r.list(v, p, true, 64)) {
    EntryDraft e = read_algorithm(r, a, p + "[" + std::to_string(i++) + "]");
    c.config.algorithms.push_back(std::move(e.run));
    c.overrides.push_back(std::move(e.overrides));
  }
  std::set<std::string> labels;
  for (const auto& a : c.config.algorithms)
    if (!labels.insert(a.label).second)
      r.fail(v, p, "two entries are labelled \"" + a.label + "\"; give each a distinct label");
}

void read_sizes(const YamlReader& r, const YAML::Node& v, const std::string& p,
                CollectiveSection& c) {
  std::vector<std::uint64_t>& sizes = c.config.sizes_bytes;
  sizes.clear();
  std::size_t i = 0;
  for (const auto& s : r.list(v, p, true, 1024)) {
    const std::string sp = p + "[" + std::to_string(i++) + "]";
    const std::uint64_t b = r.bytes(s, sp);
    if (const std::string problem = allreduce_size_problem(b); !problem.empty())
      r.fail(s, sp, problem);
    const auto same = std::find(sizes.begin(), sizes.end(), b);
    if (same != sizes.end()) {
      r.fail(s, sp,
             "the same size as " + p + "[" + std::to_string(same - sizes.begin()) +
                 "]; list each size once (every point would run twice)");
    }
    sizes.push_back(b);
  }
}

}  // namespace

const KeyTable<CollectiveSection>& collective_keys() {
  using C = CollectiveSection;
  using Node = YAML::Node;
  using Reader = const YamlReader&;
  static const KeyTable<C> table{
      custom_key<C>("algorithms", "list", "",
                    "each entry a name (`ring`) or a mapping `{name, label, params, ports, "
                    "nic}`; see `mtsim schedule --help` for names and parameters; `{name: file, "
                    "path: FILE}` runs a schedule file",
                    read_algorithms, "required"),
      custom_key<C>("sizes", "list of sizes", "bytes",
                    "all-reduce bytes per node; whole 4-byte "
                    "elements, each size once",
                    read_sizes, "`[1MiB]`"),
      custom_key<C>(
          "dtype", enum_choices<Dtype>(), "", "element type that is summed",
          [](Reader r, const Node& v, const std::string& p, C& c) {
            c.config.dtype = r.choice_of<Dtype>(v, p);
          },
          "`fp32`"),
      custom_key<C>(
          "verify_data", "boolean", "",
          "move and sum real data and check every node's final buffer",
          [](Reader r, const Node& v, const std::string& p, C& c) {
            c.config.verify_data = r.boolean(v, p);
          },
          "true"),
      custom_key<C>(
          "max_data_bytes", "size", "bytes",
          "above this size per node (or above 2GiB for all nodes together), runs are timing-only "
          "with 4 sampled elements per chunk still summed and checked (`data_mode: sampled`)",
          [](Reader r, const Node& v, const std::string& p, C& c) {
            c.config.max_data_bytes = r.bytes(v, p);
          },
          "64MiB"),
  };
  return table;
}

std::vector<KeyDoc> entry_key_docs(const std::string& prefix) {
  return key_docs(entry_keys(), prefix);
}

void read_collective(const YamlReader& r, const YAML::Node& node, const std::string& path,
                     CollectiveSection& c) {
  read_section(r, node, path, collective_keys(), c);
}

}  // namespace mt
