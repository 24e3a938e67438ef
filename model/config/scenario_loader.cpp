#include "model/config/scenario_loader.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <utility>

#include "model/collective/byte_size.h"
#include "model/config/host_keys.h"
#include "model/config/scenario_keys.h"
#include "model/config/scenario_overrides.h"
#include "model/config/yaml_reader.h"
#include "model/data/packet_sizes.h"
#include "model/params/nic_rules.h"
#include "model/params/time_limits.h"

namespace mt {
namespace {

// Whether `path` ("a.b") is given in the file or by an override (not left to its default).
bool given(const YAML::Node& root, const std::string& path) {
  YAML::Node node = root;  // a handle; reset() moves it (operator= would write into the tree)
  std::size_t from = 0;
  while (true) {
    const std::size_t dot = path.find('.', from);
    if (!node.IsMap()) return false;
    const YAML::Node child = static_cast<const YAML::Node&>(node)[path.substr(from, dot - from)];
    if (!child.IsDefined()) return false;  // (an invalid node: reset() would throw)
    node.reset(child);
    if (dot == std::string::npos) return true;
    from = dot + 1;
  }
}

// The key to blame when the scenario's packet does not fit the routers' buffers: a value a
// `--set` gave (a sweep's axis, say) before one of the file's, router.buffer_flits first.
std::string packet_fit_key(const YamlReader& r, const YAML::Node& root) {
  const char* const keys[] = {"router.buffer_flits", "nic.packet_bytes", "nic.head_flit_bytes",
                              "nic.flit_bytes"};
  for (const char* key : keys)
    if (given(root, key) && !r.location(root, key).override_key.empty()) return key;
  for (const char* key : keys)
    if (given(root, key)) return key;
  return keys[0];
}

// The key to blame when an algorithm entry's packet does not fit the scenario's routers: the
// entry's own override of the packet (it inherits the others).
std::string entry_packet_key(const NicConfig& c, const NicConfig& base) {
  return c.packet_bytes != base.packet_bytes         ? "nic.packet_bytes"
         : c.head_flit_bytes != base.head_flit_bytes ? "nic.head_flit_bytes"
                                                     : "nic.flit_bytes";
}

// A NIC packet key's value in `c` ("nic.packet_bytes" -> c.packet_bytes).
int packet_key_value(const NicConfig& c, const std::string& key) {
  return key == "nic.packet_bytes"      ? c.packet_bytes
         : key == "nic.head_flit_bytes" ? c.head_flit_bytes
                                        : c.flit_bytes;
}

// Fails at a NIC key: the scenario's own (`run` null, at the key's line) or an algorithm entry's
// (at the entry's place, the key inside it).
[[noreturn]] void fail_nic_key(const YamlReader& r, const YAML::Node& root, const AlgorithmRun* run,
                               const std::string& key, const std::string& message) {
  if (run == nullptr) r.fail_at(root, key, message);
  ErrorLocation at = run->location;
  at.key_path += "." + key;
  throw ScenarioError(at.where() + ": " + key + ": " + message, at);
}

// Cross-key rules of one NIC (nic_rules.h): the scenario's (`run` null) at its key, or an
// algorithm entry's with its overrides of the scenario's NIC `base` at the entry's own key.
void check_nic(const YamlReader& r, const YAML::Node& root, const AlgorithmRun* run,
               const NicConfig& c, const NicConfig& base, const RouterConfig& router,
               const Topology& topology) {
  const std::optional<NicRuleViolation> v = nic_rule_violation(c, router, topology);
  if (!v) return;
  std::string key = v->key;
  std::string message = v->message;
  if (key == "router.buffer_flits") {
    key = run == nullptr ? packet_fit_key(r, root) : entry_packet_key(c, base);
    if (key != "router.buffer_flits")
      message = std::to_string(packet_key_value(c, key)) + ": router.buffer_flits " + message;
  }
  fail_nic_key(r, root, run, key, message);
}

// The scheduler's clock is the network's or slower (a faster one would decide between the
// network's cycles, which the model does not represent).
void check_scheduler_clock(const YamlReader& r, const YAML::Node& root, const AlgorithmRun* run,
                           const NicConfig& c, double clock_ghz) {
  if (c.scheduler_clock_ghz <= clock_ghz) return;
  fail_nic_key(r, root, run, "nic.scheduler_clock_ghz",
               YamlReader::fmt(c.scheduler_clock_ghz) +
                   " GHz is faster than the network's clock_ghz " + YamlReader::fmt(clock_ghz) +
                   ": at most clock_ghz (0: the same)");
}

// " cycles, the simulated-time horizon at clock_ghz C (...)": what a limit at this clock is.
std::string horizon_text(double clock_ghz) {
  return " cycles, the simulated-time horizon at clock_ghz " + YamlReader::fmt(clock_ghz) +
         " (SystemC's 64-bit picosecond time, kept below 2^62 ps)";
}

// The watchdog's range at this clock (the sizes' ranges: unrepresentable()).
void check_representable(const YamlReader& r, const YAML::Node& root, const ScenarioConfig& s) {
  const std::uint64_t horizon = max_sim_cycles(s.clock_ghz);
  if (s.watchdog_cycles > horizon)
    r.fail_at(root, "watchdog_cycles",
              std::to_string(s.watchdog_cycles) + " is beyond " + std::to_string(horizon) +
                  horizon_text(s.clock_ghz));
  if (const auto problem = unrepresentable(s, s.collective.sizes_bytes))
    r.fail_at(root, problem->key_path, problem->what);
}

void read_scenario(const YamlReader& r, const YAML::Node& root, ScenarioConfig& s) {
  if (!root.IsDefined() || root.IsNull())
    r.fail(root, "",
           "the scenario is empty; expected a mapping with at least topology and collective");
  check_file_kind(r, root, FileKind::kScenario);
  ScenarioDraft draft;
  draft.scenario = std::move(s);  // (its source file)
  read_section(r, root, "", scenario_keys(), draft);
  s = std::move(draft.scenario);
  const YAML::Node& topology_node = draft.topology_node;
  CollectiveSection& collective = draft.collective;
  const bool has_topology = draft.has_topology;
  if (!has_topology) r.fail(root, "topology", "missing: every scenario needs a topology");
  s.collective = std::move(collective.config);
  // Every algorithm entry runs with the scenario's nic, plus its own `nic:` overrides.
  for (std::size_t i = 0; i < s.collective.algorithms.size(); ++i) {
    AlgorithmRun& a = s.collective.algorithms[i];
    a.nic = s.nic;
    a.host = s.host;
    const EntryOverrides& o = collective.overrides[i];
    if (o.nic.IsDefined() && !o.nic.IsNull()) read_nic(r, o.nic, o.nic_path, a.nic, true);
    if (o.host.IsDefined() && !o.host.IsNull()) read_host(r, o.host, o.host_path, a.host);
  }
  if (s.collective.algorithms.empty())
    r.fail_at(root, "collective.algorithms", "missing: list at least one algorithm");

  // Cross-key checks: the topology must exist with this port count and its routing's virtual
  // channels; every NIC (the scenario's, each entry's) must fit the routers and the topology.
  std::optional<Topology> topology;
  try {
    topology.emplace(s.topology);
    if (topology->kind() == TopologyKind::kTorus && s.router.vcs < 2)
      r.fail(root, "router.vcs",
             "a torus needs at least 2 virtual channels (dateline deadlock avoidance)");
    if (topology->kind() == TopologyKind::kRing && topology->nodes() >= 3 && s.router.vcs < 2)
      r.fail(root, "router.vcs",
             "a ring of 3 or more nodes needs at least 2 virtual channels (dateline deadlock "
             "avoidance on its wraparound link)");
    if (topology->kind() == TopologyKind::kBiGraph && s.router.vcs < 2)
      r.fail(root, "router.vcs",
             "a bigraph needs at least 2 virtual channels (hop classes: routes turn between the "
             "switch halves)");
    for (const auto& a : s.collective.algorithms) {
      if (a.ports == 0) continue;
      TopologyConfig with_ports = s.topology;
      with_ports.ports_per_node = a.ports;
      try {
        const Topology check(with_ports);
      } catch (const TopologyError& e) {  // the entry's ports, not the topology, are at fault
        ErrorLocation at = a.location;
        at.key_path += ".ports";
        throw ScenarioError(at.where() + ": " + at.key_path + ": " + e.what(), at);
      }
    }
  } catch (const TopologyError& e) {
    // A key under the topology (a custom edge) is named at its own line.
    if (!e.location().key_path.empty())
      r.fail_at(root, "topology." + e.location().key_path, e.what());
    r.fail(topology_node, "topology", e.what());
  }
  check_nic(r, root, nullptr, s.nic, s.nic, s.router, *topology);
  for (const auto& a : s.collective.algorithms)
    check_nic(r, root, &a, a.nic, s.nic, s.router, *topology);
  check_scheduler_clock(r, root, nullptr, s.nic, s.clock_ghz);
  for (const auto& a : s.collective.algorithms)
    check_scheduler_clock(r, root, &a, a.nic, s.clock_ghz);
  check_representable(r, root, s);
}

}  // namespace

// Ranges derived from what the model represents (model/params/time_limits.h): a message's packet
// count is a 31-bit integer, every delay and the whole run fit the simulated-time horizon
// (SystemC's 64-bit picosecond time at this clock), and a run can at least move one buffer over
// one link within it.
std::optional<ConfigProblem> unrepresentable(const ScenarioConfig& s,
                                             const std::vector<std::uint64_t>& sizes_bytes) {
  const std::uint64_t horizon = max_sim_cycles(s.clock_ghz);
  const std::string at_clock = horizon_text(s.clock_ghz);
  const double bpc = s.topology.link_bytes_per_cycle;
  std::vector<const NicConfig*> nics{&s.nic};
  for (const auto& a : s.collective.algorithms) nics.push_back(&a.nic);
  for (std::size_t i = 0; i < sizes_bytes.size(); ++i) {
    const std::uint64_t bytes = sizes_bytes[i];
    const std::string path = "collective.sizes[" + std::to_string(i) + "]";
    for (const NicConfig* nic : nics) {
      const std::uint64_t packets = packets_in(bytes, nic->packet_bytes);
      if (packets > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
        return ConfigProblem{
            path, format_byte_size(bytes) + " is " + std::to_string(packets) +
                      " packets of nic.packet_bytes " + std::to_string(nic->packet_bytes) +
                      "; the model counts a message's packets in 31 bits (at most " +
                      std::to_string(std::numeric_limits<int>::max()) +
                      "): use larger packets or a smaller size"};
      // One buffer (plus one packet's header) serialised over one link: a lower bound of any
      // all-reduce of this size, which must fit the horizon.
      const double wire = static_cast<double>(bytes) + nic->head_flit_bytes + nic->flit_bytes;
      if (wire / bpc > static_cast<double>(horizon))
        return ConfigProblem{"topology.link_bytes_per_cycle",
                             YamlReader::fmt(bpc) + " bytes/cycle: moving one " +
                                 format_byte_size(bytes) + " buffer over one link takes " +
                                 YamlReader::fmt(wire / bpc) + " cycles, beyond " +
                                 std::to_string(horizon) + at_clock};
      // Likewise reducing one buffer's 4-byte elements at the NIC's rate (a slower rate would
      // also overflow the reduction's delay).
      const double reduce =
          static_cast<double>(bytes) / kElementBytes / nic->reduce_elems_per_cycle;
      if (reduce > static_cast<double>(horizon))
        return ConfigProblem{"nic.reduce_elems_per_cycle",
                             YamlReader::fmt(nic->reduce_elems_per_cycle) +
                                 " elements/cycle: reducing one " + format_byte_size(bytes) +
                                 " buffer takes " + YamlReader::fmt(reduce) + " cycles, beyond " +
                                 std::to_string(horizon) + at_clock};
    }
  }
  return std::nullopt;
}

ScenarioConfig load_scenario_text(const std::string& text, const std::string& source_name,
                                  const std::vector<std::string>& overrides,
                                  const OverrideOptions& options) {
  YAML::Node root = parse_yaml(text, source_name);
  // A `--set topology.KEY=...` expands the file's spec string into a mapping: a bad string is
  // the file's error, said at its place before the override touches it (unless another
  // override replaces the whole topology first).
  const auto overridden_under = [&](const char* prefix) {
    return std::any_of(overrides.begin(), overrides.end(),
                       [&](const std::string& o) { return o.rfind(prefix, 0) == 0; });
  };
  const YAML::Node spec = root.IsMap() ? static_cast<const YAML::Node&>(root)["topology"]
                                       : YAML::Node();  // const: a lookup adds no key
  if (overridden_under("topology.") && !overridden_under("topology=") && spec.IsDefined() &&
      spec.IsScalar()) {
    try {
      parse_topology_spec(spec.Scalar());
    } catch (const TopologyError& e) {
      YamlReader(source_name, {}).fail(spec, "topology", e.what());
    }
  }
  std::map<std::string, std::string> overridden;
  try {
    for (const auto& o : overrides) {
      const auto option = options.find(o);
      apply_override(root, o, option == options.end() ? "" : option->second, overridden);
    }
  } catch (const TopologyError& e) {
    throw ScenarioError(std::string("--set: ") + e.what());
  }
  ScenarioConfig s;
  s.source_file = source_name;
  const YamlReader reader(source_name, overridden, options);
  read_scenario(reader, root, s);
  if (s.name.empty()) s.name = file_stem(source_name);
  return s;
}

ScenarioConfig load_scenario_file(const std::string& path,
                                  const std::vector<std::string>& overrides,
                                  const OverrideOptions& options) {
  return load_scenario_text(read_config_file(path, "scenario"), path, overrides, options);
}

}  // namespace mt
