#include "model/collective/schedule_io.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "model/core/json_text.h"
#include "model/core/output_files.h"

namespace mt {

namespace {

using Json = nlohmann::json;

// A release cycle is a delay the simulation schedules: keep it inside the simulated-time horizon
// at every clock a scenario accepts (4.6 * 10^12 cycles at the slowest, 1 MHz; time_limits.h).
constexpr std::uint64_t kMaxReleaseCycle = 1'000'000'000'000;

std::string join_path(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
}

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  ErrorLocation at;
  at.key_path = path;
  throw ScheduleError((path.empty() ? std::string("schedule") : path) + ": " + what, at);
}

const char* type_name(const Json& j) {
  return j.type_name();
}

// An integer too large for 64 bits is read as a floating-point number: say so, not "a number".
[[noreturn]] void not_an_integer(const Json& j, const std::string& path) {
  if (j.is_number_float() && std::abs(j.get<double>()) >= 9.2e18)
    fail(path, j.dump() + " is out of range for an integer");
  fail(path, std::string("expected integer, got ") + type_name(j));
}

int as_int(const Json& j, const std::string& path) {
  if (!j.is_number_integer()) not_an_integer(j, path);
  if (j.is_number_unsigned()) {
    const auto v = j.get<std::uint64_t>();
    if (v > static_cast<std::uint64_t>(std::numeric_limits<int>::max())) {
      fail(path, std::to_string(v) + " is out of range for an integer");
    }
    return static_cast<int>(v);
  }
  const auto v = j.get<std::int64_t>();
  if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max()) {
    fail(path, std::to_string(v) + " is out of range for an integer");
  }
  return static_cast<int>(v);
}

std::uint64_t as_uint64(const Json& j, const std::string& path) {
  if (!j.is_number_integer()) not_an_integer(j, path);
  if (!j.is_number_unsigned() && j.get<std::int64_t>() < 0) {
    fail(path, std::to_string(j.get<std::int64_t>()) + " is negative");
  }
  return j.get<std::uint64_t>();
}

std::string as_string(const Json& j, const std::string& path) {
  if (!j.is_string()) fail(path, std::string("expected string, got ") + type_name(j));
  return j.get<std::string>();
}

std::vector<int> as_int_list(const Json& j, const std::string& path) {
  if (!j.is_array()) fail(path, std::string("expected array of integers, got ") + type_name(j));
  std::vector<int> result;
  result.reserve(j.size());
  for (size_t i = 0; i < j.size(); ++i) {
    result.push_back(as_int(j[i], path + "[" + std::to_string(i) + "]"));
  }
  return result;
}

const Json& required(const Json& obj, const std::string& key, const std::string& path) {
  auto it = obj.find(key);
  if (it == obj.end()) fail(join_path(path, key), "missing");
  return *it;
}

void reject_unknown_keys(const Json& obj, const std::set<std::string>& known,
                         const std::string& path) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    if (known.count(it.key()) == 0) {
      std::string list;
      for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
      fail(path, "unknown key \"" + it.key() + "\" (known keys: " + list + ")");
    }
  }
}

Op op_from_json(const Json& j, int index) {
  const std::string path = "ops[" + std::to_string(index) + "]";
  if (!j.is_object()) fail(path, std::string("expected object, got ") + type_name(j));
  reject_unknown_keys(j,
                      {"id", "node", "peer", "chunk", "flow", "step", "port", "kind", "deps",
                       "path", "release_cycle", "apply_after", "src_buf", "dst_buf", "dst_chunk"},
                      path);
  Op op;
  op.id = as_int(required(j, "id", path), path + ".id");
  if (op.id != index) {
    fail(path + ".id",
         "is " + std::to_string(op.id) + " but must equal the op's index " + std::to_string(index));
  }
  op.node = as_int(required(j, "node", path), path + ".node");
  op.peer = as_int(required(j, "peer", path), path + ".peer");
  op.chunk = as_int(required(j, "chunk", path), path + ".chunk");
  op.flow = as_int(required(j, "flow", path), path + ".flow");
  op.step = as_int(required(j, "step", path), path + ".step");
  if (j.contains("port")) op.port = as_int(j["port"], path + ".port");
  const std::string kind = as_string(required(j, "kind", path), path + ".kind");
  try {
    op.kind = parse_op_kind(kind);
  } catch (const ScheduleError& e) {
    fail(path + ".kind", e.what());
  }
  if (j.contains("deps")) op.deps = as_int_list(j["deps"], path + ".deps");
  if (j.contains("path")) op.path = as_int_list(j["path"], path + ".path");
  if (j.contains("release_cycle")) {
    op.release_cycle = as_uint64(j["release_cycle"], path + ".release_cycle");
    if (op.release_cycle > kMaxReleaseCycle) {
      fail(path + ".release_cycle", "is " + std::to_string(op.release_cycle) + "; at most " +
                                        std::to_string(kMaxReleaseCycle) +
                                        " cycles (10^12), far past any run this simulator reaches");
    }
  }
  if (j.contains("apply_after")) op.apply_after = as_int(j["apply_after"], path + ".apply_after");
  for (const auto& [key, buffer] : {std::pair<const char*, Buffer*>{"src_buf", &op.src_buf},
                                    std::pair<const char*, Buffer*>{"dst_buf", &op.dst_buf}}) {
    if (!j.contains(key)) continue;
    const std::string text = as_string(j[key], path + "." + key);
    if (text != "data" && text != "scratch")
      fail(path + "." + key, "\"" + text + "\" is not a buffer (expected \"data\" or \"scratch\")");
    *buffer = text == "scratch" ? Buffer::kScratch : Buffer::kData;
  }
  if (j.contains("dst_chunk")) {
    op.dst_chunk = as_int(j["dst_chunk"], path + ".dst_chunk");
    if (op.dst_chunk < -1)
      fail(path + ".dst_chunk",
           std::to_string(op.dst_chunk) + " is neither -1 (the same slot) nor a slot index");
  }
  return op;
}

}  // namespace

OpKind parse_op_kind(const std::string& text) {
  if (text == "reduce") return OpKind::kReduce;
  if (text == "broadcast") return OpKind::kBroadcast;
  throw ScheduleError("\"" + text + "\" is not an op kind (expected \"reduce\" or \"broadcast\")");
}

nlohmann::json to_json(const Schedule& schedule) {
  Json ops = Json::array();
  for (const Op& op : schedule.ops) {
    Json j = {{"id", op.id},
              {"node", op.node},
              {"peer", op.peer},
              {"chunk", op.chunk},
              {"flow", op.flow},
              {"step", op.step},
              {"kind", to_string(op.kind)},
              {"deps", op.deps}};
    if (op.port != -1) j["port"] = op.port;
    if (!op.path.empty()) j["path"] = op.path;
    if (op.release_cycle != 0) j["release_cycle"] = op.release_cycle;
    if (op.apply_after >= 0) j["apply_after"] = op.apply_after;
    if (op.src_buf == Buffer::kScratch) j["src_buf"] = "scratch";
    if (op.dst_buf == Buffer::kScratch) j["dst_buf"] = "scratch";
    if (op.dst_chunk >= 0) j["dst_chunk"] = op.dst_chunk;
    ops.push_back(std::move(j));
  }
  Json out{{"format", kScheduleFormat},
           {"version", kScheduleFormatVersion},
           {"algorithm", schedule.algorithm},
           {"topology", schedule.topology},
           {"nodes", schedule.nodes},
           {"num_chunks", schedule.num_chunks},
           {"num_flows", schedule.num_flows},
           {"num_steps", schedule.num_steps},
           {"ops", std::move(ops)}};
  if (!schedule.chunk_offsets.empty()) out["chunk_offsets"] = schedule.chunk_offsets;
  if (schedule.scratch_chunks > 0) out["scratch_chunks"] = schedule.scratch_chunks;
  return out;
}

Schedule schedule_from_json(const nlohmann::json& json) {
  if (!json.is_object()) fail("", std::string("expected a JSON object, got ") + type_name(json));
  reject_unknown_keys(
      json,
      {"format", "version", "algorithm", "topology", "nodes", "num_chunks", "num_flows",
       "num_steps", "ops", "analysis", "chunk_offsets", "scratch_chunks"},
      "");
  // "analysis" is what `mtsim schedule --format json` adds (steps, bounds, estimate): output for
  // people, ignored when reading, so its files verify as they are.
  const std::string format = as_string(required(json, "format", ""), "format");
  if (format != kScheduleFormat) {
    fail("format", "is \"" + format + "\"; expected \"" + kScheduleFormat + "\"");
  }
  const int version = as_int(required(json, "version", ""), "version");
  if (version != kScheduleFormatVersion) {
    fail("version", "is " + std::to_string(version) + "; this build reads version " +
                        std::to_string(kScheduleFormatVersion));
  }
  Schedule s;
  s.algorithm = as_string(required(json, "algorithm", ""), "algorithm");
  s.topology = as_string(required(json, "topology", ""), "topology");
  s.nodes = as_int(required(json, "nodes", ""), "nodes");
  s.num_chunks = as_int(required(json, "num_chunks", ""), "num_chunks");
  s.num_flows = as_int(required(json, "num_flows", ""), "num_flows");
  s.num_steps = as_int(required(json, "num_steps", ""), "num_steps");
  if (json.contains("scratch_chunks")) {
    s.scratch_chunks = as_int(json["scratch_chunks"], "scratch_chunks");
    if (s.scratch_chunks < 0)
      fail("scratch_chunks", "is " + std::to_string(s.scratch_chunks) + "; it must be at least 0");
  }
  // Counts that cannot describe a schedule are malformed input; indices out of their range are
  // the verifier's (a well-formed but wrong schedule: "message 3: chunk 999 is out of range").
  for (const auto& [key, value, least] :
       {std::tuple{"nodes", s.nodes, 1}, std::tuple{"num_chunks", s.num_chunks, 1},
        std::tuple{"num_flows", s.num_flows, 0}, std::tuple{"num_steps", s.num_steps, 0}}) {
    if (value < least)
      fail(key, "is " + std::to_string(value) + "; it must be at least " + std::to_string(least));
  }
  if (json.contains("chunk_offsets")) {
    const Json& offsets = json["chunk_offsets"];
    if (!offsets.is_array()) {
      fail("chunk_offsets", std::string("expected array of integers, got ") + type_name(offsets));
    }
    for (size_t i = 0; i < offsets.size(); ++i) {
      s.chunk_offsets.push_back(as_uint64(offsets[i], "chunk_offsets[" + std::to_string(i) + "]"));
    }
    // Their form (count, start, order, a non-zero end) decides whether any buffer can be split
    // by them: malformed input, refused here by every command alike.
    const std::string problem = check_chunk_offsets(s);  // "chunk_offsets decreases at ..."
    const std::string named = "chunk_offsets ";
    if (!problem.empty())
      fail("chunk_offsets", problem.rfind(named, 0) == 0 ? problem.substr(named.size()) : problem);
  }
  const Json& ops = required(json, "ops", "");
  if (!ops.is_array()) fail("ops", std::string("expected array, got ") + type_name(ops));
  s.ops.reserve(ops.size());
  for (size_t i = 0; i < ops.size(); ++i) {
    s.ops.push_back(op_from_json(ops[i], static_cast<int>(i)));
  }
  return s;
}

namespace {

// A SAX pass over the text that finds a key written twice in one object (the parsed tree would
// keep only the last value, silently) and says where: "ops[3].chunk". (A callback on the DOM
// parser would do it in the same pass, but nlohmann 3.11's callback parser rescans an array at
// the end of each of its objects: quadratic in the number of ops.)
class DuplicateKeys {
 public:
  using String = Json::string_t;
  bool null() { return element_done(); }
  bool boolean(bool) { return element_done(); }
  bool number_integer(Json::number_integer_t) { return element_done(); }
  bool number_unsigned(Json::number_unsigned_t) { return element_done(); }
  bool number_float(Json::number_float_t, const String&) { return element_done(); }
  bool string(String&) { return element_done(); }
  bool binary(Json::binary_t&) { return element_done(); }
  bool start_object(std::size_t) {
    frames_.push_back(Frame{true, {}, {}, 0});
    return true;
  }
  bool key(String& name) {
    Frame& f = frames_.back();
    f.key = name;
    if (f.keys.insert(name).second) return true;
    duplicate_ = path();
    return false;  // stop: the first one is reported
  }
  bool end_object() {
    frames_.pop_back();
    return element_done();
  }
  bool start_array(std::size_t) {
    frames_.push_back(Frame{false, {}, {}, 0});
    return true;
  }
  bool end_array() { return end_object(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) {
    return false;  // the DOM parse, which ran first, reports syntax errors
  }
  /// The path of the first key written twice, or nullopt when there is none.
  const std::optional<std::string>& duplicate() const { return duplicate_; }

 private:
  struct Frame {
    bool object;
    std::set<String> keys;  // an object's keys so far
    String key;             // an object's current key
    std::size_t index;      // an array's current element
  };
  bool element_done() {
    if (!frames_.empty() && !frames_.back().object) ++frames_.back().index;
    return true;
  }
  std::string path() const {
    std::string p;
    for (const Frame& f : frames_) {
      if (f.object)
        p = join_path(p, f.key);
      else
        p += "[" + std::to_string(f.index) + "]";
    }
    return p;
  }
  std::vector<Frame> frames_;
  std::optional<std::string> duplicate_;
};

// `at` (a key path, or a line and column) placed in schedule file `path`.
ErrorLocation in_file(const std::string& path, ErrorLocation at) {
  at.file = path;
  return at;
}

}  // namespace

Schedule load_schedule_text(const std::string& text, const std::string& path) {
  const std::string where = "schedule file \"" + path + "\": ";
  Json json;
  try {
    json = Json::parse(text);
  } catch (const Json::exception& e) {
    // Every nlohmann error (syntax, invalid UTF-8, a number out of range such as 1e400): drop
    // its "[json.exception.parse_error.101] " prefix, keep "parse error at line L, column C".
    std::string what = e.what();
    const auto bracket = what.find("] ");
    if (what.rfind("[json.exception", 0) == 0 && bracket != std::string::npos) {
      what = what.substr(bracket + 2);
    }
    // A syntax error's place as fields, as nlohmann's message gives it: `byte` counts the
    // characters read when it stopped (one past the end at the end of the input), the column
    // those read since the last newline.
    ErrorLocation at;
    if (const auto* parse = dynamic_cast<const Json::parse_error*>(&e)) {
      const std::size_t read = std::min<std::size_t>(parse->byte, text.size());
      const auto begin = text.begin();
      const auto line_start = std::find(std::make_reverse_iterator(begin + read),
                                        std::make_reverse_iterator(begin), '\n')
                                  .base();  // after the last newline read, or the text's start
      at.line = 1 + static_cast<int>(std::count(begin, begin + read, '\n'));
      at.column = static_cast<int>(parse->byte - static_cast<std::size_t>(line_start - begin));
    }
    throw ScheduleError(where + "invalid JSON: " + what, in_file(path, at));
  }
  DuplicateKeys keys;
  Json::sax_parse(text, &keys);
  try {
    if (keys.duplicate())
      fail(*keys.duplicate(), "duplicate key (each key may appear once in an object)");
    return schedule_from_json(json);
  } catch (const ScheduleError& e) {
    throw ScheduleError(where + e.what(), in_file(path, e.location()));
  }
}

Schedule load_schedule_file(const std::string& path) {
  std::string text;
  try {
    text = read_text_file(path, "schedule file", kMaxScheduleFileBytes);
  } catch (const FileError& e) {
    throw ScheduleError(e.what(), in_file(path, {}));
  }
  return load_schedule_text(text, path);
}

std::string schedule_file_text(const Schedule& schedule) {
  return json_text(to_json(schedule), 2) + "\n";
}

void save_schedule_file(const Schedule& schedule, const std::string& path) {
  try {
    write_text_atomically(path, schedule_file_text(schedule));
  } catch (const FileError& e) {
    throw ScheduleError(std::string("cannot write the schedule file: ") + e.what());
  }
}

std::string to_dot(const Schedule& schedule, const Topology& topology) {
  static const char* const kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                         "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
  constexpr int kColors = sizeof(kPalette) / sizeof(kPalette[0]);
  std::ostringstream dot;
  dot << "digraph schedule {\n";
  dot << "  graph [label=\"" << schedule.algorithm << " on " << schedule.topology << ": "
      << schedule.nodes << " nodes, " << schedule.num_chunks << " chunks, " << schedule.num_flows
      << " flows, " << schedule.num_steps << " steps\", labelloc=t];\n";
  dot << "  node [shape=circle, fontsize=10];\n";
  dot << "  edge [fontsize=8];\n";
  const auto& dims = topology.dims();
  const int nodes = std::min(schedule.nodes, topology.nodes());
  for (int u = 0; u < nodes; ++u) {
    dot << "  n" << u << " [label=\"" << u << "\"";
    if (dims.size() >= 2) {
      // Grid layout; z layers are shifted diagonally so they do not overlap.
      const auto c = topology.coords(u);
      const double z = dims.size() == 3 ? c[2] : 0;
      const double x = 1.5 * c[0] + z * (1.5 * dims[0] + 1.0);
      const double y = -1.5 * c[1] - z * 0.5;
      dot << ", pos=\"" << x << "," << y << "!\"";
    } else if (dims.size() == 1 && dims[0] > 1) {
      const double angle = 2.0 * M_PI * u / dims[0];
      const double r = std::max(1.5, 0.4 * dims[0]);
      dot << ", pos=\"" << r * std::sin(angle) << "," << r * std::cos(angle) << "!\"";
    }
    dot << "];\n";
  }
  for (const Op& op : schedule.ops) {
    const int flow = op.flow < 0 ? 0 : op.flow;
    dot << "  n" << op.node << " -> n" << op.peer << " [label=\"s" << op.step << " c" << op.chunk
        << "\", color=\"" << kPalette[flow % kColors] << "\", fontcolor=\""
        << kPalette[flow % kColors] << "\"";
    if (op.kind == OpKind::kBroadcast) dot << ", style=dashed";
    dot << "];\n";
  }
  dot << "}\n";
  return dot.str();
}

}  // namespace mt
