#include "model/config/scenario_sections.h"

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "model/collective/algorithm.h"
#include "model/collective/algorithm_params.h"

namespace mt {
namespace {

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
  if (run.label.empty()) run.label = file_stem(run.schedule_file);
}

// The topology kinds a key applies to; empty for the keys every kind takes (kind, the links').
std::vector<TopologyKind> kinds_taking(const std::string& key) {
  using K = TopologyKind;
  if (key == "dims") return {K::kRing, K::kTorus, K::kMesh};
  if (key == "k" || key == "levels") return {K::kFatTree};
  if (key == "m" || key == "n") return {K::kBiGraph};
  if (key == "nodes") return {K::kSwitch, K::kCustom};
  if (key == "switches" || key == "edges") return {K::kCustom};
  return {};
}

}  // namespace

void read_topology(const YamlReader& r, const YAML::Node& node, const std::string& path,
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
  std::vector<std::pair<std::string, YAML::Node>> shape_keys;  // keys that only some kinds take
  r.each_key(
      node, path,
      {"kind", "dims", "k", "levels", "m", "n", "nodes", "switches", "edges",
       "link_bytes_per_cycle", "link_latency_cycles", "nic_link_latency_cycles"},
      [&](const std::string& key, const YAML::Node& v, const std::string& p) {
        if (!kinds_taking(key).empty()) shape_keys.emplace_back(key, v);
        if (key == "kind") {
          t.kind = r.choice_of<TopologyKind>(v, p);
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
  // A key of another kind (dims of a fat-tree, k of a torus) would be ignored silently.
  for (const auto& [key, value] : shape_keys) {
    std::string takes;
    bool applies = false;
    for (const TopologyKind k : kinds_taking(key)) {
      applies = applies || k == t.kind;
      takes += std::string(takes.empty() ? "" : ", ") + to_string(k);
    }
    if (!applies) {
      // A --set of the kind alone keeps the file's other shape keys: say how to replace them.
      const bool kind_overridden = !r.location(value, path + ".kind").override_key.empty();
      r.fail(
          value, path + "." + key,
          std::string("does not apply to a ") + to_string(t.kind) + " topology (only to " + takes +
              ")" +
              (kind_overridden ? "; to change the kind from the command line, replace the topology "
                                 "mapping, e.g. --set 'topology={kind: fattree, k: 4, "
                                 "link_latency_cycles: 150}'"
                               : ""));
    }
  }
}

void read_router(const YamlReader& r, const YAML::Node& node, const std::string& path,
                 RouterConfig& c) {
  r.each_key(node, path,
             {"pipeline_cycles", "vcs", "buffer_flits", "step_priority", "step_priority_scope",
              "tie_break", "turn_reservation"},
             [&](const std::string& key, const YAML::Node& v, const std::string& p) {
               if (key == "pipeline_cycles") c.pipeline_cycles = r.integer32(v, p, 0, 1000);
               if (key == "vcs") c.vcs = r.integer32(v, p, 1, 16);
               if (key == "buffer_flits") c.buffer_flits = r.integer32(v, p, 1, 1 << 20);
               if (key == "step_priority") c.step_priority = r.boolean(v, p);
               if (key == "step_priority_scope")
                 c.step_priority_scope = r.choice_of<StepPriorityScope>(v, p);
               if (key == "tie_break") c.tie_break = r.choice_of<TieBreak>(v, p);
               if (key == "turn_reservation")
                 c.turn_reservation = r.choice_of<TurnReservation>(v, p);
             });
}

void read_nic(const YamlReader& r, const YAML::Node& node, const std::string& path, NicConfig& c,
              TopologyConfig* t) {
  std::vector<std::string> keys = {"scheduler",
                                   "flow_control",
                                   "issue",
                                   "reduce_elems_per_cycle",
                                   "reduction",
                                   "port_binding",
                                   "tx_queue_packets",
                                   "receive_vcs",
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
  r.each_key(node, path, keys,
             [&](const std::string& key, const YAML::Node& v, const std::string& p) {
               if (key == "ports" && t != nullptr) t->ports_per_node = r.integer32(v, p, 0, 64);
               if (key == "step_order") {
                 c.step_order = r.text(v, p) == "auto"                   ? StepOrderChoice::kAuto
                                : r.boolean(v, p, "auto, true or false") ? StepOrderChoice::kOn
                                                                         : StepOrderChoice::kOff;
               }
               if (key == "decision_latency_cycles")
                 c.decision_latency_cycles = r.integer32(v, p, 2, 1000);
               if (key == "scheduler_depth") c.scheduler_depth = r.integer32(v, p, 1, 1 << 16);
               if (key == "scheduler_window") c.scheduler_window = r.integer32(v, p, 1, 64);
               if (key == "scheduler") c.scheduler = r.choice_of<SchedulerImpl>(v, p);
               if (key == "flow_control") c.flow_control = r.choice_of<FlowControlChoice>(v, p);
               if (key == "issue") c.issue = r.choice_of<IssueChoice>(v, p);
               if (key == "reduce_elems_per_cycle")
                 c.reduce_elems_per_cycle = r.real(v, p, 0, 1e6, true);
               if (key == "reduction") c.reduction = r.choice_of<ReduceGranularity>(v, p);
               if (key == "tx_queue_packets") c.tx_queue_packets = r.integer32(v, p, 0, 1 << 20);
               if (key == "receive_vcs") c.receive_vcs = r.integer32(v, p, 0, 64);
               if (key == "step_barrier") c.step_barrier = r.boolean(v, p);
               if (key == "receive_port") c.receive_port = r.choice_of<ReceivePort>(v, p);
               if (key == "port_binding") c.port_binding = r.choice_of<PortBinding>(v, p);
               if (key == "packet_bytes") c.packet_bytes = r.integer32(v, p, 4, 1 << 20);
               if (key == "head_flit_bytes") c.head_flit_bytes = r.integer32(v, p, 0, 4096);
               if (key == "flit_bytes") c.flit_bytes = r.integer32(v, p, 1, 4096);
               if (key == "software_issue_cycles")
                 c.software_issue_cycles = r.integer32(v, p, 0, 1000000);
             });
}

static AlgorithmRun read_algorithm(const YamlReader& r, const YAML::Node& node,
                                   const std::string& path, YAML::Node& nic_override,
                                   std::string& nic_override_path) {
  AlgorithmRun run;
  std::vector<std::string> known = algorithm_names();
  known.push_back("file");  // {name: file, path: FILE}: a schedule file (schedule_file.h)
  YAML::Node file_node;     // the entry's `path:` value, when given
  bool has_path = false;
  YAML::Node params_node = node;  // where a parameter error points: `params:`, else the entry
  std::string params_path = path;
  if (node.IsScalar()) {
    // A bare name, or a schedule as results name it: "multitree_opt(pipeline=4)" (labelled so).
    std::string name;
    AlgorithmParams params;
    if (parse_schedule_label(node.Scalar(), name, params) &&
        std::find(known.begin(), known.end(), name) != known.end() && name != "file") {
      run.name = name;
      run.params = std::move(params);
      run.label = node.Scalar();
    } else if (node.Scalar().find('(') != std::string::npos) {
      r.fail(node, path,
             "\"" + node.Scalar() +
                 "\" is not an algorithm name or name(key=value,...) with one of: " +
                 YamlReader::join(algorithm_names()) +
                 " (inside [...] a name with several parameters must be quoted, or written "
                 "{name: NAME, params: {key: value, ...}})");
    } else {
      run.name = r.choice(node, path, known);
    }
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
                   params_node.reset(v);  // `=` would overwrite the entry node it refers to
                   params_path = p;
                   for (const auto& kv : v) {
                     const std::string name = r.text(kv.first, p);
                     if (run.params.count(name) != 0)
                       r.fail(kv.first, p + "." + name, "key given twice");
                     run.params[name] =
                         r.scalar(kv.second, p + "." + kv.first.Scalar(), "a scalar value");
                   }
                 }
               });
    if (run.name.empty()) r.fail(node, path, "missing key \"name\"");
  }
  read_schedule_file_entry(r, node, path, has_path ? &file_node : nullptr, run);
  if (run.name != "file") {
    // Parameters against the algorithm's schema (unknown keys, types, ranges) while the file is
    // read, so run, train and every sweep point refuse them before anything is built.
    try {
      TypedParams(run.name, algorithm_schema(run.name), run.params);
    } catch (const AlgorithmError& e) {
      r.fail(params_node, params_path, e.what());
    }
  }
  if (run.label.empty()) run.label = run.name;
  run.location = r.location(node, path);
  return run;
}

void read_collective(const YamlReader& r, const YAML::Node& node, const std::string& path,
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
            if (const std::string problem = allreduce_size_problem(b); !problem.empty())
              r.fail(s, sp, problem);
            const auto same = std::find(c.sizes_bytes.begin(), c.sizes_bytes.end(), b);
            if (same != c.sizes_bytes.end()) {
              r.fail(s, sp,
                     "the same size as " + p + "[" + std::to_string(same - c.sizes_bytes.begin()) +
                         "]; list each size once (every point would run twice)");
            }
            c.sizes_bytes.push_back(b);
          }
        } else if (key == "dtype") {
          c.dtype = r.choice_of<Dtype>(v, p);
        } else if (key == "verify_data") {
          c.verify_data = r.boolean(v, p);
        } else if (key == "max_data_bytes") {
          c.max_data_bytes = r.bytes(v, p);
        }
      });
}

}  // namespace mt
