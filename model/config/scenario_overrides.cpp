#include "model/config/scenario_overrides.h"

#include <sstream>

#include "model/config/yaml_guard.h"
#include "model/topology/topology.h"

namespace mt {
namespace {

// The mapping form of a spec-string topology ("torus:4x4" -> {kind: torus, dims: [4, 4]}).
YAML::Node topology_spec_as_map(const TopologyConfig& spec) {
  YAML::Node m(YAML::NodeType::Map);
  m["kind"] = to_string(spec.kind);
  if (spec.kind == TopologyKind::kFatTree) {
    m["k"] = spec.fattree_k;
    m["levels"] = spec.fattree_levels;
  } else if (spec.kind == TopologyKind::kBiGraph) {
    m["m"] = spec.bigraph_m;
    m["n"] = spec.bigraph_n;
  } else if (spec.kind == TopologyKind::kSwitch) {
    m["nodes"] = spec.switch_nodes;
  } else {
    for (const int d : spec.dims) m["dims"].push_back(d);
  }
  return m;
}

}  // namespace

void apply_override(YAML::Node& root, const std::string& text, const std::string& option,
                    std::map<std::string, std::string>& overridden) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ScenarioError("--set " + text + ": expected key.path=value");
  const std::string key = text.substr(0, eq);
  const std::string value = text.substr(eq + 1);
  if (find_invalid_utf8(text) != std::string::npos)
    throw ScenarioError("--set: the override is not valid UTF-8");
  ErrorLocation at;  // the override itself
  at.key_path = at.override_key = key;
  at.override_text = text;
  at.override_option = option;
  const auto fail = [&](const std::string& what) {
    throw ScenarioError(at.where() + ": " + what, at);
  };
  YAML::Node parsed;
  try {
    parsed = load_yaml(value);
  } catch (const YAML::Exception& e) {
    fail("value is not valid YAML: " + e.msg);
  }
  if (!is_key_path(key))
    fail("\"" + key +
         "\" is not a scenario key path (names of letters, digits and '_' joined by '.')");
  std::vector<std::string> parts;
  std::stringstream ss(key);
  for (std::string part; std::getline(ss, part, '.');) parts.push_back(part);
  if (!root.IsDefined() || root.IsNull()) root = YAML::Node(YAML::NodeType::Map);
  std::vector<YAML::Node> chain{root};
  std::string walked;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    walked += (walked.empty() ? "" : ".") + parts[i];
    YAML::Node& parent = chain.back();
    if (!parent.IsMap()) fail("\"" + walked + "\" is inside a value that is not a mapping");
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
  if (!chain.back().IsMap()) fail("\"" + walked + "\" is not a mapping");
  chain.back()[parts.back()] = parsed;
  // Keys below `key` that earlier overrides set are gone with the value they were in.
  for (auto it = overridden.lower_bound(key); it != overridden.end();) {
    const std::string& below = it->first;
    if (below.size() > key.size() && below.compare(0, key.size(), key) == 0 &&
        (below[key.size()] == '.' || below[key.size()] == '[')) {
      it = overridden.erase(it);
    } else if (below.compare(0, key.size(), key) == 0) {
      ++it;  // a longer name sharing the prefix ("nic.ports_x"): keep looking
    } else {
      break;
    }
  }
  overridden[key] = text;
}

}  // namespace mt
