#include "model/sim/scenario_loader.h"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "model/collective/byte_size.h"
#include "model/core/parse_integer.h"
#include "model/core/text_file.h"
#include "model/noc/time_limits.h"

namespace mt {
namespace {

constexpr int kMaxEndpoints = 4096;
constexpr std::uint64_t kMaxBytes = 1ull << 40;  // 1 TiB per node buffer
constexpr std::size_t kMaxFileBytes = 4u << 20;  // a scenario is a few KiB; refuse huge files

// Byte offset of the first invalid UTF-8 sequence, or npos.
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

// Reads one YAML document into a ScenarioConfig, naming file:line:col and the key path of every
// problem. Overridden keys (from --set) are named by their --set text instead of a file position.
class Reader {
 public:
  Reader(std::string source, std::map<std::string, std::string> overridden)
      : source_(std::move(source)), overridden_(std::move(overridden)) {}

  [[noreturn]] void fail(const YAML::Node& node, const std::string& path,
                         const std::string& what) const {
    throw ScenarioError(where(node, path) + ": " + (path.empty() ? "" : path + ": ") + what);
  }

  /// The scenario file's path as given (relative schedule files are taken from its folder).
  const std::string& source() const { return source_; }

  // Fails at the node of `path` ("a.b[2].c") under `root` when it is there, else at its nearest
  // ancestor: cross-key rules name the key's own line.
  [[noreturn]] void fail_at(const YAML::Node& root, const std::string& path,
                            const std::string& what) const {
    fail(locate(root, path, 0), path, what);
  }

  // The node at path[from...] under `node` (yaml-cpp's Node assignment writes through, so the
  // walk recurses instead of rebinding a Node).
  static YAML::Node locate(const YAML::Node& node, const std::string& path, std::size_t from) {
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

  std::string where(const YAML::Node& node, const std::string& path) const {
    for (const auto& [key, text] : overridden_)
      if (path == key || path.rfind(key + ".", 0) == 0 || path.rfind(key + "[", 0) == 0)
        return "--set " + text;
    const YAML::Mark m = node.Mark();
    if (m.line < 0) return source_;
    return source_ + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
  }

  // Calls handler(key, value, path) for every entry of a mapping; rejects unknown and repeated
  // keys.
  void each_key(
      const YAML::Node& map, const std::string& path, const std::vector<std::string>& keys,
      const std::function<void(const std::string&, const YAML::Node&, const std::string&)>& handler)
      const {
    if (!map.IsMap()) fail(map, path, "expected a mapping of keys (" + join(keys) + ")");
    std::set<std::string> seen;
    for (const auto& entry : map) {
      if (!entry.first.IsScalar()) fail(entry.first, path, "keys must be plain names");
      const std::string key = entry.first.Scalar();
      const std::string sub = path.empty() ? key : path + "." + key;
      if (std::find(keys.begin(), keys.end(), key) == keys.end())
        fail(entry.first, sub, "unknown key; expected one of: " + join(keys));
      if (!seen.insert(key).second) fail(entry.first, sub, "key given twice");
      handler(key, entry.second, sub);
    }
  }

  std::string scalar(const YAML::Node& n, const std::string& path, const char* what) const {
    if (!n.IsScalar()) fail(n, path, std::string("expected ") + what + ", got " + kind_of(n));
    return n.Scalar();
  }

  long long integer(const YAML::Node& n, const std::string& path, long long lo,
                    long long hi) const {
    const std::string s = scalar(n, path, "an integer");
    const std::optional<long long> parsed = parse_integer(s);
    if (!parsed) fail(n, path, "expected an integer, got \"" + s + "\"");
    const long long v = *parsed;
    if (v < lo || v > hi) fail(n, path, range_text(s, std::to_string(lo), std::to_string(hi)));
    return v;
  }

  int integer32(const YAML::Node& n, const std::string& path, int lo, int hi) const {
    return static_cast<int>(integer(n, path, lo, hi));
  }

  double real(const YAML::Node& n, const std::string& path, double lo, double hi,
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

  bool boolean(const YAML::Node& n, const std::string& path) const {
    const std::string s = scalar(n, path, "true or false");
    if (s == "true" || s == "yes" || s == "on") return true;
    if (s == "false" || s == "no" || s == "off") return false;
    fail(n, path, "expected true or false, got \"" + s + "\"");
  }

  std::string choice(const YAML::Node& n, const std::string& path,
                     const std::vector<std::string>& allowed) const {
    const std::string s = scalar(n, path, "a name");
    if (std::find(allowed.begin(), allowed.end(), s) == allowed.end())
      fail(n, path, "\"" + s + "\" is not one of: " + join(allowed));
    return s;
  }

  std::string text(const YAML::Node& n, const std::string& path) const {
    return scalar(n, path, "a string");
  }

  std::uint64_t bytes(const YAML::Node& n, const std::string& path) const {
    const std::string s = scalar(n, path, "a size in bytes (e.g. 4096, 64KiB, 1MiB)");
    std::uint64_t v = 0;
    try {
      v = parse_byte_size(s);
    } catch (const std::invalid_argument& e) {
      fail(n, path, e.what());
    }
    if (v > kMaxBytes) fail(n, path, "\"" + s + "\" is larger than the 1TiB limit");
    return v;
  }

  std::vector<YAML::Node> list(const YAML::Node& n, const std::string& path, bool allow_scalar,
                               std::size_t max_items) const {
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

  static std::string kind_of(const YAML::Node& n) {
    if (n.IsMap()) return "a mapping";
    if (n.IsSequence()) return "a list";
    if (n.IsNull()) return "nothing (null)";
    return "\"" + n.Scalar() + "\"";
  }
  static std::string join(const std::vector<std::string>& v) {
    std::string out;
    for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
    return out;
  }
  static std::string fmt(double v) {
    std::ostringstream os;
    os << v;
    return os.str();
  }
  static std::string range_text(const std::string& s, const std::string& lo,
                                const std::string& hi) {
    return "\"" + s + "\" is out of range: must be between " + lo + " and " + hi;
  }

 private:
  std::string source_;
  std::map<std::string, std::string> overridden_;
};

void read_topology(const Reader& r, const YAML::Node& node, const std::string& path,
                   TopologyConfig& t) {
  if (node.IsScalar()) {  // shorthand: a CLI spec string such as "torus:4x4"
    try {
      const TopologyConfig parsed = parse_topology_spec(node.Scalar());
      t.kind = parsed.kind;
      t.dims = parsed.dims;
      t.fattree_k = parsed.fattree_k;
      t.fattree_levels = parsed.fattree_levels;
      t.bigraph_m = parsed.bigraph_m;
      t.bigraph_n = parsed.bigraph_n;
      t.switch_nodes = parsed.switch_nodes;
    } catch (const TopologyError& e) {
      r.fail(node, path, e.what());
    }
    return;
  }
  r.each_key(
      node, path,
      {"kind", "dims", "k", "levels", "m", "n", "nodes", "switches", "edges",
       "link_bytes_per_cycle", "link_latency_cycles", "nic_link_latency_cycles"},
      [&](const std::string& key, const YAML::Node& v, const std::string& p) {
        if (key == "kind") {
          t.kind =
              r.choice(v, p, {"ring", "torus", "mesh", "fattree", "bigraph", "switch", "custom"});
        } else if (key == "dims") {
          t.dims.clear();
          std::size_t i = 0;
          for (const auto& d : r.list(v, p, true, 3))
            t.dims.push_back(r.integer32(d, p + "[" + std::to_string(i++) + "]", 1, kMaxEndpoints));
        } else if (key == "k") {
          t.fattree_k = r.integer32(v, p, 2, 256);
        } else if (key == "levels") {
          t.fattree_levels = r.integer32(v, p, 2, 2);
        } else if (key == "m") {
          t.bigraph_m = r.integer32(v, p, 1, kMaxEndpoints);
        } else if (key == "n") {
          t.bigraph_n = r.integer32(v, p, 2, kMaxEndpoints);
        } else if (key == "nodes") {
          t.switch_nodes = t.custom_nodes = r.integer32(v, p, 1, kMaxEndpoints);
        } else if (key == "switches") {
          t.custom_switches = r.integer32(v, p, 0, kMaxEndpoints);
        } else if (key == "edges") {
          t.custom_edges.clear();
          std::size_t i = 0;
          for (const auto& e : r.list(v, p, false, 1u << 20)) {
            const std::string ep = p + "[" + std::to_string(i++) + "]";
            if (!e.IsSequence() || e.size() != 2)
              r.fail(e, ep, "expected a pair [a, b] of vertex ids");
            t.custom_edges.push_back({r.integer32(e[0], ep + "[0]", 0, 2 * kMaxEndpoints),
                                      r.integer32(e[1], ep + "[1]", 0, 2 * kMaxEndpoints)});
          }
        } else if (key == "link_bytes_per_cycle") {
          t.link_bytes_per_cycle = r.real(v, p, 0, 1e6, true);
        } else if (key == "link_latency_cycles") {
          t.link_latency_cycles = r.integer32(v, p, 0, 1000000);
        } else if (key == "nic_link_latency_cycles") {
          t.nic_link_latency_cycles = r.integer32(v, p, 0, 1000000);
        }
      });
}

void read_router(const Reader& r, const YAML::Node& node, const std::string& path,
                 RouterConfig& c) {
  r.each_key(node, path,
             {"pipeline_cycles", "vcs", "buffer_flits", "step_priority", "step_priority_scope"},
             [&](const std::string& key, const YAML::Node& v, const std::string& p) {
               if (key == "pipeline_cycles") c.pipeline_cycles = r.integer32(v, p, 0, 1000);
               if (key == "vcs") c.vcs = r.integer32(v, p, 1, 16);
               if (key == "buffer_flits") c.buffer_flits = r.integer32(v, p, 1, 1 << 20);
               if (key == "step_priority") c.step_priority = r.boolean(v, p);
               if (key == "step_priority_scope")
                 c.step_priority_per_input = r.choice(v, p, {"output", "input"}) == "input";
             });
}

// `t` is null for a per-algorithm `nic:` override (ports are the entry's own `ports:` key).
void read_nic(const Reader& r, const YAML::Node& node, const std::string& path, NicConfig& c,
              TopologyConfig* t) {
  std::vector<std::string> keys = {"scheduler",
                                   "flow_control",
                                   "issue",
                                   "reduce_elems_per_cycle",
                                   "reduction",
                                   "port_binding",
                                   "tx_queue_packets",
                                   "step_barrier",
                                   "receive_port",
                                   "packet_bytes",
                                   "head_flit_bytes",
                                   "flit_bytes",
                                   "software_issue_cycles",
                                   "step_order",
                                   "decision_latency_cycles",
                                   "scheduler_depth",
                                   "scheduler_window"};
  if (t != nullptr) keys.insert(keys.begin(), "ports");
  r.each_key(
      node, path, keys, [&](const std::string& key, const YAML::Node& v, const std::string& p) {
        if (key == "ports" && t != nullptr) t->ports_per_node = r.integer32(v, p, 0, 64);
        if (key == "step_order") c.step_order = r.boolean(v, p);
        if (key == "decision_latency_cycles")
          c.decision_latency_cycles = r.integer32(v, p, 2, 1000);
        if (key == "scheduler_depth") c.scheduler_depth = r.integer32(v, p, 1, 1 << 16);
        if (key == "scheduler_window") c.scheduler_window = r.integer32(v, p, 1, 64);
        if (key == "scheduler") c.scheduler = r.choice(v, p, {"tlm", "rtl"});
        if (key == "flow_control") c.flow_control = r.choice(v, p, {"packet", "message"});
        if (key == "issue") c.issue = r.choice(v, p, {"software", "hardware"});
        if (key == "reduce_elems_per_cycle") c.reduce_elems_per_cycle = r.real(v, p, 0, 1e6, true);
        if (key == "reduction") {
          c.reduction = r.choice(v, p, {"packet", "message"}) == "message"
                            ? ReduceGranularity::kMessage
                            : ReduceGranularity::kPacket;
        }
        if (key == "tx_queue_packets") c.tx_queue_packets = r.integer32(v, p, 0, 1 << 20);
        if (key == "step_barrier") c.step_barrier = r.boolean(v, p);
        if (key == "receive_port")
          c.rx_port_per_message = r.choice(v, p, {"any", "per_message"}) == "per_message";
        if (key == "port_binding") {
          c.port_binding =
              r.choice(v, p, {"route", "any"}) == "any" ? PortBinding::kAny : PortBinding::kRoute;
        }
        if (key == "packet_bytes") c.packet_bytes = r.integer32(v, p, 4, 1 << 20);
        if (key == "head_flit_bytes") c.head_flit_bytes = r.integer32(v, p, 0, 4096);
        if (key == "flit_bytes") c.flit_bytes = r.integer32(v, p, 1, 4096);
        if (key == "software_issue_cycles") c.software_issue_cycles = r.integer32(v, p, 0, 1000000);
      });
}

// {name: file, path: FILE}: FILE is taken from the scenario file's folder unless absolute; the
// label defaults to the file's stem.
void read_schedule_file_entry(const Reader& r, const YAML::Node& node, const std::string& path,
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
  const std::string& source = r.source();
  const auto slash = source.rfind('/');
  if (run.schedule_file.front() != '/' && slash != std::string::npos)
    run.schedule_file = source.substr(0, slash + 1) + run.schedule_file;
  if (run.label.empty()) {
    const auto base = run.schedule_file.rfind('/');
    std::string stem = run.schedule_file.substr(base == std::string::npos ? 0 : base + 1);
    const auto dot = stem.rfind('.');
    if (dot != std::string::npos && dot > 0) stem = stem.substr(0, dot);
    run.label = stem;
  }
}

AlgorithmRun read_algorithm(const Reader& r, const YAML::Node& node, const std::string& path,
                            YAML::Node& nic_override, std::string& nic_override_path) {
  AlgorithmRun run;
  std::vector<std::string> known = algorithm_names();
  known.push_back("file");  // {name: file, path: FILE}: a schedule file (schedule_file.h)
  YAML::Node file_node;     // the entry's `path:` value, when given
  bool has_path = false;
  if (node.IsScalar()) {
    run.name = r.choice(node, path, known);
  } else {
    r.each_key(node, path, {"name", "label", "params", "ports", "nic", "path"},
               [&](const std::string& key, const YAML::Node& v, const std::string& p) {
                 if (key == "nic") {
                   // Applied over the scenario's nic once the whole file is read.
                   nic_override = v;
                   nic_override_path = p;
                 }
                 if (key == "name") run.name = r.choice(v, p, known);
                 if (key == "label") run.label = r.text(v, p);
                 if (key == "path") {
                   file_node = v;
                   has_path = true;
                   run.schedule_file = r.text(v, p);
                 }
                 if (key == "ports") run.ports = r.integer32(v, p, 1, 64);
                 if (key == "params") {
                   if (!v.IsMap()) r.fail(v, p, "expected a mapping of parameter: value");
                   for (const auto& kv : v)
                     run.params[r.text(kv.first, p)] =
                         r.scalar(kv.second, p + "." + kv.first.Scalar(), "a scalar value");
                 }
               });
    if (run.name.empty()) r.fail(node, path, "missing key \"name\"");
  }
  read_schedule_file_entry(r, node, path, has_path ? &file_node : nullptr, run);
  if (run.label.empty()) run.label = run.name;
  run.where = r.where(node, path);
  return run;
}

void read_collective(const Reader& r, const YAML::Node& node, const std::string& path,
                     CollectiveConfig& c, std::vector<std::pair<YAML::Node, std::string>>& nics) {
  r.each_key(
      node, path, {"algorithms", "sizes", "dtype", "verify_data", "max_data_bytes"},
      [&](const std::string& key, const YAML::Node& v, const std::string& p) {
        if (key == "algorithms") {
          c.algorithms.clear();
          nics.clear();
          std::size_t i = 0;
          for (const auto& a : r.list(v, p, true, 64)) {
            YAML::Node nic;
            std::string nic_path;
            c.algorithms.push_back(
                read_algorithm(r, a, p + "[" + std::to_string(i++) + "]", nic, nic_path));
            nics.emplace_back(nic, nic_path);
          }
          std::set<std::string> labels;
          for (const auto& a : c.algorithms)
            if (!labels.insert(a.label).second)
              r.fail(v, p,
                     "two entries are labelled \"" + a.label + "\"; give each a distinct label");
        } else if (key == "sizes") {
          c.sizes_bytes.clear();
          std::size_t i = 0;
          for (const auto& s : r.list(v, p, true, 1024)) {
            const std::string sp = p + "[" + std::to_string(i++) + "]";
            const std::uint64_t b = r.bytes(s, sp);
            if (b % 4 != 0)
              r.fail(s, sp, std::to_string(b) + " bytes is not a whole number of 4-byte elements");
            c.sizes_bytes.push_back(b);
          }
        } else if (key == "dtype") {
          c.dtype = r.choice(v, p, {"fp32", "int32"});
        } else if (key == "verify_data") {
          c.verify_data = r.boolean(v, p);
        } else if (key == "max_data_bytes") {
          c.max_data_bytes = r.bytes(v, p);
        }
      });
}

// Cross-key rules of one NIC (the scenario's, or an algorithm entry's with its overrides).
// `where` is "nic" or the entry's "file:line:col".
void check_nic(const Reader& r, const YAML::Node& root, const std::string& where,
               const NicConfig& c) {
  const auto fail = [&](const std::string& key, const std::string& what) {
    if (where == "nic") r.fail_at(root, "nic." + key, what);
    throw ScenarioError(where + ": nic." + key + ": " + what);
  };
  if (c.packet_bytes % 4 != 0)
    fail("packet_bytes", std::to_string(c.packet_bytes) +
                             " is not a whole number of 4-byte elements (the reduction unit adds "
                             "fp32/int32 elements; a packet carries whole ones)");
  if (c.scheduler == "rtl" && c.issue != "hardware")
    fail("scheduler",
         "rtl is the co-designed hardware scheduler: it needs nic.issue: hardware "
         "(nic.issue is " +
             c.issue + ")");
}

// Ranges derived from what the model represents (model/noc/time_limits.h): a message's packet
// count is a 31-bit integer, every delay and the whole run fit the simulated-time horizon
// (SystemC's 64-bit picosecond time at this clock), and a run can at least move one buffer over
// one link within it.
void check_representable(const Reader& r, const YAML::Node& root, const ScenarioConfig& s) {
  const std::uint64_t horizon = max_sim_cycles(s.clock_ghz);
  const std::string at_clock = " cycles, the simulated-time horizon at clock_ghz " +
                               Reader::fmt(s.clock_ghz) +
                               " (SystemC's 64-bit picosecond time, kept below 2^62 ps)";
  if (s.watchdog_cycles > horizon)
    r.fail_at(
        root, "watchdog_cycles",
        std::to_string(s.watchdog_cycles) + " is beyond " + std::to_string(horizon) + at_clock);
  const double bpc = s.topology.link_bytes_per_cycle;
  std::vector<const NicConfig*> nics{&s.nic};
  for (const auto& a : s.collective.algorithms) nics.push_back(&a.nic);
  for (std::size_t i = 0; i < s.collective.sizes_bytes.size(); ++i) {
    const std::uint64_t bytes = s.collective.sizes_bytes[i];
    const std::string path = "collective.sizes[" + std::to_string(i) + "]";
    for (const NicConfig* nic : nics) {
      const auto per = static_cast<std::uint64_t>(nic->packet_bytes);
      const std::uint64_t packets = bytes / per + (bytes % per != 0);
      if (packets > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
        r.fail_at(root, path,
                  format_byte_size(bytes) + " is " + std::to_string(packets) +
                      " packets of nic.packet_bytes " + std::to_string(nic->packet_bytes) +
                      "; the model counts a message's packets in 31 bits (at most " +
                      std::to_string(std::numeric_limits<int>::max()) +
                      "): use larger packets or a smaller size");
      // One buffer (plus one packet's header) serialised over one link: a lower bound of any
      // all-reduce of this size, which must fit the horizon.
      const double wire = static_cast<double>(bytes) + nic->head_flit_bytes + nic->flit_bytes;
      if (wire / bpc > static_cast<double>(horizon))
        r.fail_at(root, "topology.link_bytes_per_cycle",
                  Reader::fmt(bpc) + " bytes/cycle: moving one " + format_byte_size(bytes) +
                      " buffer over one link takes " + Reader::fmt(wire / bpc) +
                      " cycles, beyond " + std::to_string(horizon) + at_clock);
    }
  }
}

void read_scenario(const Reader& r, const YAML::Node& root, ScenarioConfig& s) {
  if (!root.IsDefined() || root.IsNull())
    r.fail(root, "",
           "the scenario is empty; expected a mapping with at least topology and collective");
  YAML::Node topology_node;
  bool has_topology = false;
  std::vector<std::pair<YAML::Node, std::string>> nic_overrides;  // per algorithm entry
  r.each_key(root, "",
             {"name", "description", "clock_ghz", "watchdog_cycles", "topology", "router", "nic",
              "collective", "output"},
             [&](const std::string& key, const YAML::Node& v, const std::string& p) {
               if (key == "name") s.name = r.text(v, p);
               if (key == "description") s.description = r.text(v, p);
               if (key == "clock_ghz") s.clock_ghz = r.real(v, p, kMinClockGhz, 100, false);
               if (key == "watchdog_cycles")
                 s.watchdog_cycles = static_cast<std::uint64_t>(r.integer(v, p, 100, 1ll << 50));
               if (key == "topology") {
                 topology_node = v;
                 has_topology = true;
                 read_topology(r, v, p, s.topology);
               }
               if (key == "router") read_router(r, v, p, s.router);
               if (key == "nic") read_nic(r, v, p, s.nic, &s.topology);
               if (key == "collective") read_collective(r, v, p, s.collective, nic_overrides);
               if (key == "output")
                 r.each_key(v, p, {"json", "csv"},
                            [&](const std::string& k, const YAML::Node& o, const std::string& op) {
                              (k == "json" ? s.output.json : s.output.csv) = r.text(o, op);
                            });
             });
  if (!has_topology) r.fail(root, "topology", "missing: every scenario needs a topology");
  // Every algorithm entry runs with the scenario's nic, plus its own `nic:` overrides.
  for (std::size_t i = 0; i < s.collective.algorithms.size(); ++i) {
    AlgorithmRun& a = s.collective.algorithms[i];
    a.nic = s.nic;
    if (i < nic_overrides.size() && nic_overrides[i].first.IsDefined() &&
        !nic_overrides[i].first.IsNull()) {
      read_nic(r, nic_overrides[i].first, nic_overrides[i].second, a.nic, nullptr);
    }
  }
  if (s.collective.algorithms.empty())
    r.fail(root, "collective.algorithms", "missing: list at least one algorithm");

  // Cross-key checks: the topology must exist with this port count, and buffers must hold a
  // whole packet (virtual cut-through moves whole packets).
  try {
    const Topology topology(s.topology);
    if (topology.kind() == "torus" && s.router.vcs < 2)
      r.fail(root, "router.vcs",
             "a torus needs at least 2 virtual channels (dateline deadlock avoidance)");
    if (topology.kind() == "bigraph" && s.router.vcs < 2)
      r.fail(root, "router.vcs",
             "a bigraph needs at least 2 virtual channels (hop classes: routes turn between the "
             "switch halves)");
    for (const auto& a : s.collective.algorithms) {
      if (a.ports == 0) continue;
      TopologyConfig with_ports = s.topology;
      with_ports.ports_per_node = a.ports;
      const Topology check(with_ports);
    }
  } catch (const TopologyError& e) {
    r.fail(topology_node, "topology", e.what());
  }
  const int packet_flits =
      (s.nic.packet_bytes + s.nic.head_flit_bytes + s.nic.flit_bytes - 1) / s.nic.flit_bytes;
  if (packet_flits > s.router.buffer_flits)
    r.fail(root, "router.buffer_flits",
           std::to_string(s.router.buffer_flits) + " flits cannot hold one packet of " +
               std::to_string(packet_flits) + " flits (nic.packet_bytes + nic.head_flit_bytes)");
  check_nic(r, root, "nic", s.nic);
  for (const auto& a : s.collective.algorithms) check_nic(r, root, a.where, a.nic);
  check_representable(r, root, s);
}

// The mapping form of a spec-string topology ("torus:4x4" -> {kind: torus, dims: [4, 4]}).
YAML::Node topology_spec_as_map(const TopologyConfig& spec) {
  YAML::Node m(YAML::NodeType::Map);
  m["kind"] = spec.kind;
  if (spec.kind == "fattree") {
    m["k"] = spec.fattree_k;
    m["levels"] = spec.fattree_levels;
  } else if (spec.kind == "bigraph") {
    m["m"] = spec.bigraph_m;
    m["n"] = spec.bigraph_n;
  } else if (spec.kind == "switch") {
    m["nodes"] = spec.switch_nodes;
  } else {
    for (const int d : spec.dims) m["dims"].push_back(d);
  }
  return m;
}

bool is_key_path(const std::string& key);

// Splits "a.b.c=value" and sets that key in `root`, creating mappings on the way.
void apply_override(YAML::Node& root, const std::string& text,
                    std::map<std::string, std::string>& overridden) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ScenarioError("--set " + text + ": expected key.path=value");
  const std::string key = text.substr(0, eq);
  const std::string value = text.substr(eq + 1);
  if (find_invalid_utf8(text) != std::string::npos)
    throw ScenarioError("--set: the override is not valid UTF-8");
  YAML::Node parsed;
  try {
    parsed = YAML::Load(value);
  } catch (const YAML::Exception& e) {
    throw ScenarioError("--set " + text + ": value is not valid YAML: " + e.msg);
  }
  if (!is_key_path(key))
    throw ScenarioError("--set " + text + ": \"" + key +
                        "\" is not a scenario key path (names of letters, digits and '_' joined "
                        "by '.')");
  std::vector<std::string> parts;
  std::stringstream ss(key);
  for (std::string part; std::getline(ss, part, '.');) parts.push_back(part);
  if (!root.IsDefined() || root.IsNull()) root = YAML::Node(YAML::NodeType::Map);
  std::vector<YAML::Node> chain{root};
  std::string walked;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    walked += (walked.empty() ? "" : ".") + parts[i];
    YAML::Node& parent = chain.back();
    if (!parent.IsMap())
      throw ScenarioError("--set " + text + ": \"" + walked +
                          "\" is inside a value that is not a mapping");
    YAML::Node child = parent[parts[i]];
    if (!child.IsDefined() || child.IsNull()) {
      parent[parts[i]] = YAML::Node(YAML::NodeType::Map);
      child = parent[parts[i]];
      // The override created this mapping: problems with it are the override's.
      overridden.emplace(walked, text);
    } else if (child.IsScalar() && parts[i] == "topology") {
      // A spec-string topology stays replaceable key by key: expand it into a mapping.
      parent[parts[i]] = topology_spec_as_map(parse_topology_spec(child.Scalar()));
      child = parent[parts[i]];
    }
    chain.push_back(child);
  }
  if (!chain.back().IsMap())
    throw ScenarioError("--set " + text + ": \"" + walked + "\" is not a mapping");
  chain.back()[parts.back()] = parsed;
  overridden[key] = text;
}

// "dir/name.yaml" -> "name".
std::string file_stem(const std::string& path) {
  const auto slash = path.find_last_of('/');
  std::string stem = path.substr(slash == std::string::npos ? 0 : slash + 1);
  if (const auto dot = stem.rfind('.'); dot != std::string::npos && dot > 0) stem.resize(dot);
  return stem;
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

// Parses one YAML document, naming file:line:col of invalid UTF-8 or a syntax error.
YAML::Node parse_yaml(const std::string& text, const std::string& source_name) {
  if (const std::size_t bad = find_invalid_utf8(text); bad != std::string::npos) {
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<long>(bad), '\n');
    const auto line_start = text.rfind('\n', bad == 0 ? 0 : bad - 1);
    const auto col = bad - (line_start == std::string::npos ? 0 : line_start + 1) + 1;
    throw ScenarioError(source_name + ":" + std::to_string(line) + ":" + std::to_string(col) +
                        ": the file is not valid UTF-8 (byte " + std::to_string(bad) + ")");
  }
  const auto at = [&](const YAML::Mark& m) {
    return source_name + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
  };
  if (const std::size_t second = second_document(text); second != std::string::npos) {
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<long>(second), '\n');
    throw ScenarioError(source_name + ":" + std::to_string(line) +
                        ":1: a second YAML document (after '---' or '...'): a file holds exactly "
                        "one");
  }
  try {
    return YAML::Load(text);
  } catch (const YAML::DeepRecursion& e) {
    throw ScenarioError(at(e.mark) + ": the YAML nests deeper than " + std::to_string(e.depth()) +
                        " levels (the parser's limit); no mtsim file nests more than a few");
  } catch (const YAML::Exception& e) {
    throw ScenarioError(at(e.mark) + ": YAML syntax error: " + e.msg);
  }
}

// Reads a whole (small) file; `what` names it in messages ("scenario", "sweep").
std::string read_small_file(const std::string& path, const std::string& what) {
  try {
    return read_text_file(path, what + " file", kMaxFileBytes);
  } catch (const FileError& e) {
    throw ScenarioError(e.what());
  }
}

// A YAML value as one line of flow-style YAML, the form `--set key=value` parses back.
std::string flow_text(const YAML::Node& node) {
  YAML::Emitter out;
  out.SetMapFormat(YAML::Flow);
  out.SetSeqFormat(YAML::Flow);
  out << node;
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

constexpr std::size_t kMaxSweepPoints = 100000;

void read_sweep(const Reader& r, const YAML::Node& root, SweepConfig& s) {
  if (!root.IsDefined() || root.IsNull())
    r.fail(root, "", "the sweep is empty; expected a mapping with at least scenario and axes");
  YAML::Node scenario_node, axes_node, exclude_node;
  bool has_scenario = false, has_axes = false;
  r.each_key(root, "", {"name", "description", "scenario", "set", "axes", "exclude"},
             [&](const std::string& key, const YAML::Node& v, const std::string& p) {
               if (key == "name") s.name = r.text(v, p);
               if (key == "description") s.description = r.text(v, p);
               if (key == "scenario") {
                 scenario_node = v;
                 has_scenario = true;
                 s.scenario_file = r.text(v, p);
                 if (s.scenario_file.empty()) r.fail(v, p, "expected the path of a scenario file");
               }
               if (key == "set") {
                 if (!v.IsMap())
                   r.fail(v, p, "expected a mapping of key.path: value, got " + Reader::kind_of(v));
                 for (const auto& kv : v) {
                   const std::string k = r.scalar(kv.first, p, "a key path");
                   const std::string kp = p + "." + k;
                   if (!is_key_path(k))
                     r.fail(kv.first, kp, "not a scenario key path (names joined by '.')");
                   for (const auto& o : s.set)
                     if (o.key == k) r.fail(kv.first, kp, "key given twice");
                   s.set.push_back({k, flow_text(kv.second), r.where(kv.second, kp)});
                 }
               }
               if (key == "exclude") exclude_node = v;
               if (key == "axes") {
                 axes_node = v;
                 has_axes = true;
                 std::size_t i = 0;
                 for (const auto& a : r.list(v, p, false, 32)) {
                   const std::string ap = p + "[" + std::to_string(i++) + "]";
                   SweepAxis axis;
                   axis.where = r.where(a, ap);
                   YAML::Node values_node;
                   bool has_values = false;
                   r.each_key(
                       a, ap, {"key", "values"},
                       [&](const std::string& k, const YAML::Node& av, const std::string& kp) {
                         if (k == "key") {
                           axis.key = r.text(av, kp);
                           if (!is_key_path(axis.key))
                             r.fail(av, kp,
                                    "\"" + axis.key +
                                        "\" is not a scenario key path (names joined by '.')");
                           for (const auto& other : s.axes)
                             if (other.key == axis.key)
                               r.fail(av, kp, "\"" + axis.key + "\" is already an axis");
                         } else {
                           values_node = av;
                           has_values = true;
                         }
                       });
                   if (axis.key.empty()) r.fail(a, ap, "missing key \"key\"");
                   if (!has_values) r.fail(a, ap, "missing key \"values\"");
                   std::size_t j = 0;
                   for (const auto& value : r.list(values_node, ap + ".values", false, 10000)) {
                     const std::string vp = ap + ".values[" + std::to_string(j++) + "]";
                     if (value.IsNull()) r.fail(value, vp, "expected a value, got nothing (null)");
                     std::string text = flow_text(value);
                     // An algorithm given as a mapping is one entry of the collective.algorithms
                     // list.
                     if (axis.key == "collective.algorithms" && value.IsMap())
                       text = "[" + text + "]";
                     for (const auto& earlier : axis.values)
                       if (earlier.value == text)
                         r.fail(value, vp, "the value " + text + " is listed twice");
                     axis.values.push_back({axis.key, text, r.where(value, vp)});
                   }
                   s.axes.push_back(std::move(axis));
                 }
               }
             });
  // Exclusions name axis values: a typo would silently exclude nothing, so it is an error.
  if (exclude_node.IsDefined() && !exclude_node.IsNull()) {
    std::size_t i = 0;
    for (const auto& entry : r.list(exclude_node, "exclude", false, 10000)) {
      const std::string ep = "exclude[" + std::to_string(i++) + "]";
      if (!entry.IsMap() || entry.size() == 0)
        r.fail(entry, ep, "expected a mapping of axis key: value, got " + Reader::kind_of(entry));
      std::vector<SweepOverride> combination;
      for (const auto& kv : entry) {
        const std::string k = r.scalar(kv.first, ep, "an axis key");
        const std::string kp = ep + "." + k;
        const auto axis = std::find_if(s.axes.begin(), s.axes.end(),
                                       [&](const SweepAxis& a) { return a.key == k; });
        if (axis == s.axes.end()) r.fail(kv.first, kp, "\"" + k + "\" is not an axis key");
        std::string text = flow_text(kv.second);
        if (k == "collective.algorithms" && kv.second.IsMap()) text = "[" + text + "]";
        const bool known = std::any_of(axis->values.begin(), axis->values.end(),
                                       [&](const SweepOverride& v) { return v.value == text; });
        if (!known) r.fail(kv.second, kp, text + " is not one of the values of axis " + k);
        combination.push_back({k, text, r.where(kv.second, kp)});
      }
      s.exclude.push_back(std::move(combination));
    }
  }
  if (!has_scenario)
    r.fail(root, "scenario", "missing: the base scenario file every point starts from");
  if (!has_axes) r.fail(root, "axes", "missing: list at least one axis");
  for (const auto& o : s.set)
    for (const auto& a : s.axes)
      if (o.key == a.key)
        throw ScenarioError(o.where + ": set." + o.key + ": this key is also an axis (" + a.where +
                            ")");
  std::size_t points = 1;
  for (const auto& a : s.axes) {
    points *= a.values.size();
    if (points > kMaxSweepPoints)
      r.fail(axes_node, "axes",
             "the axes give more than " + std::to_string(kMaxSweepPoints) + " points");
  }
  // The base scenario is relative to the sweep file.
  if (s.scenario_file.front() != '/') {
    const auto slash = s.source_file.find_last_of('/');
    if (slash != std::string::npos)
      s.scenario_file = s.source_file.substr(0, slash + 1) + s.scenario_file;
  }
  if (!std::ifstream(s.scenario_file).good())
    r.fail(scenario_node, "scenario", "cannot open the scenario file \"" + s.scenario_file + "\"");
}

constexpr long long kMaxLayerParams = 1ll << 40;
constexpr long long kMaxCycles = 1ll << 50;

LayerConfig read_layer(const Reader& r, const YAML::Node& node, const std::string& path) {
  LayerConfig l;
  bool has_params = false;
  r.each_key(node, path, {"name", "params", "backprop_cycles", "forward_cycles"},
             [&](const std::string& key, const YAML::Node& v, const std::string& sub) {
               if (key == "name") l.name = r.text(v, sub);
               if (key == "params") {
                 l.params = static_cast<std::uint64_t>(r.integer(v, sub, 0, kMaxLayerParams));
                 has_params = true;
               }
               if (key == "backprop_cycles")
                 l.backprop_cycles = static_cast<std::uint64_t>(r.integer(v, sub, 0, kMaxCycles));
               if (key == "forward_cycles")
                 l.forward_cycles = static_cast<std::uint64_t>(r.integer(v, sub, 0, kMaxCycles));
             });
  if (l.name.empty()) r.fail(node, path, "missing key \"name\"");
  if (!has_params) r.fail(node, path, "missing key \"params\"");
  return l;
}

void read_workload(const Reader& r, const YAML::Node& root, WorkloadConfig& w) {
  std::optional<YAML::Node> layers_node;  // copies share the node: a handle for messages
  r.each_key(root, "",
             {"name", "description", "source", "dtype", "optimizer_cycles", "bucket_bytes",
              "launch_cycles", "layers"},
             [&](const std::string& key, const YAML::Node& v, const std::string& sub) {
               if (key == "name") w.name = r.text(v, sub);
               if (key == "description") w.description = r.text(v, sub);
               if (key == "source") w.source = r.text(v, sub);
               if (key == "dtype")
                 w.dtype_bytes = r.choice(v, sub, {"fp32", "fp16"}) == "fp32" ? 4 : 2;
               if (key == "optimizer_cycles")
                 w.optimizer_cycles = static_cast<std::uint64_t>(r.integer(v, sub, 0, kMaxCycles));
               if (key == "launch_cycles")
                 w.launch_cycles = static_cast<std::uint64_t>(r.integer(v, sub, 0, kMaxCycles));
               if (key == "bucket_bytes")  // 0: one all-reduce per layer
                 w.bucket_bytes = v.IsScalar() && v.Scalar() == "0" ? 0 : r.bytes(v, sub);
               if (key == "layers") {
                 const auto items = r.list(v, sub, false, 100000);
                 std::set<std::string> names;
                 for (std::size_t i = 0; i < items.size(); ++i) {
                   const std::string item_path = sub + "[" + std::to_string(i) + "]";
                   w.layers.push_back(read_layer(r, items[i], item_path));
                   if (!names.insert(w.layers.back().name).second)
                     r.fail(items[i], item_path + ".name",
                            "layer \"" + w.layers.back().name + "\" given twice");
                 }
                 layers_node.emplace(v);
               }
             });
  if (!layers_node) r.fail(root, "", "missing key \"layers\"");
  std::uint64_t total = 0;  // each term < 2^40 and at most 10^5 layers: no overflow
  for (const auto& l : w.layers) total += l.params;
  const std::uint64_t cycles = compute_and_launch_cycles(w);
  if (total == 0) r.fail(*layers_node, "layers", "no layer has parameters: nothing to all-reduce");
  // One bucket may fuse every layer: the whole gradient must be an all-reduce size.
  if (total * w.dtype_bytes > kMaxBytes)
    r.fail(*layers_node, "layers",
           std::to_string(total) + " parameters are " + std::to_string(total * w.dtype_bytes) +
               " gradient bytes, more than the 1TiB all-reduce limit");
  if (cycles > static_cast<std::uint64_t>(kMaxCycles))
    r.fail(*layers_node, "layers",
           "forward + backprop cycles of all layers, one launch_cycles per layer and "
           "optimizer_cycles add up to " +
               std::to_string(cycles) +
               " cycles, more than the 2^50-cycle limit of one iteration (" +
               std::to_string(kMaxCycles) + ")");
}

}  // namespace

WorkloadConfig load_workload_text(const std::string& text, const std::string& source_name) {
  const YAML::Node root = parse_yaml(text, source_name);
  WorkloadConfig w;
  w.source_file = source_name;
  const Reader reader(source_name, {});
  read_workload(reader, root, w);
  if (w.name.empty()) w.name = file_stem(source_name);
  return w;
}

WorkloadConfig load_workload_file(const std::string& path) {
  return load_workload_text(read_small_file(path, "workload"), path);
}

ScenarioConfig load_scenario_text(const std::string& text, const std::string& source_name,
                                  const std::vector<std::string>& overrides) {
  YAML::Node root = parse_yaml(text, source_name);
  std::map<std::string, std::string> overridden;
  try {
    for (const auto& o : overrides) apply_override(root, o, overridden);
  } catch (const TopologyError& e) {
    throw ScenarioError(std::string("--set: ") + e.what());
  }
  ScenarioConfig s;
  s.source_file = source_name;
  const Reader reader(source_name, overridden);
  read_scenario(reader, root, s);
  if (s.name.empty()) s.name = file_stem(source_name);
  return s;
}

ScenarioConfig load_scenario_file(const std::string& path,
                                  const std::vector<std::string>& overrides) {
  return load_scenario_text(read_small_file(path, "scenario"), path, overrides);
}

SweepConfig load_sweep_text(const std::string& text, const std::string& source_name) {
  const YAML::Node root = parse_yaml(text, source_name);
  SweepConfig s;
  s.source_file = source_name;
  const Reader reader(source_name, {});
  read_sweep(reader, root, s);
  if (s.name.empty()) s.name = file_stem(source_name);
  return s;
}

SweepConfig load_sweep_file(const std::string& path) {
  return load_sweep_text(read_small_file(path, "sweep"), path);
}

}  // namespace mt
