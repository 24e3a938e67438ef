// parse_topology_spec: the CLI's topology spec strings ("torus:4x4", "fattree:k=8,levels=2").

#include <algorithm>
#include <charconv>
#include <optional>
#include <utility>

#include "model/topology/topology.h"
#include "model/topology/topology_family.h"

namespace mt {
namespace {

[[noreturn]] void spec_error(const std::string& spec, const std::string& what) {
  throw TopologyError("topology spec \"" + spec + "\": " + what);
}

int parse_positive(const std::string& spec, const std::string& text, const std::string& what) {
  int value = 0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(first, last, value);
  if (text.empty() || ec == std::errc::invalid_argument || ptr != last || value <= 0) {
    if (ec == std::errc::result_out_of_range) {
      spec_error(spec, what + " \"" + text + "\" is too large");
    }
    spec_error(spec, what + " \"" + text + "\" is not a positive integer");
  }
  if (ec == std::errc::result_out_of_range)
    spec_error(spec, what + " \"" + text + "\" is too large");
  return value;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::string cur;
  for (char ch : s) {
    if (ch == sep) {
      parts.push_back(cur);
      cur.clear();
    } else {
      cur += ch;
    }
  }
  parts.push_back(cur);
  return parts;
}

// Parses "k=8,levels=2" into a map, checking every key is in `allowed`.
std::vector<std::pair<std::string, int>> parse_keys(const std::string& spec,
                                                    const std::string& params,
                                                    const std::vector<std::string>& allowed) {
  std::vector<std::pair<std::string, int>> result;
  std::string allowed_list;
  for (size_t i = 0; i < allowed.size(); ++i) {
    allowed_list += (i ? ", " : "") + allowed[i];
  }
  for (const std::string& item : split(params, ',')) {
    const auto eq = item.find('=');
    if (eq == std::string::npos) {
      spec_error(spec, "parameter \"" + item + "\" is not key=value (keys: " + allowed_list + ")");
    }
    const std::string key = item.substr(0, eq);
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      spec_error(spec, "unknown parameter \"" + key + "\" (keys: " + allowed_list + ")");
    }
    for (const auto& kv : result) {
      if (kv.first == key) spec_error(spec, "parameter \"" + key + "\" is given twice");
    }
    result.emplace_back(key,
                        parse_positive(spec, item.substr(eq + 1), "parameter " + key + " value"));
  }
  return result;
}

int required_key(const std::string& spec, const std::vector<std::pair<std::string, int>>& kv,
                 const std::string& key, const std::string& example) {
  for (const auto& p : kv) {
    if (p.first == key) return p.second;
  }
  spec_error(spec, "missing parameter \"" + key + "\", e.g. \"" + example + "\"");
}

}  // namespace

TopologyConfig parse_topology_spec(const std::string& spec) {
  const auto colon = spec.find(':');
  if (colon == std::string::npos) {
    spec_error(spec,
               "expected <kind>:<parameters>, e.g. \"torus:4x4\" or \"fattree:k=8,levels=2\"");
  }
  const std::string kind = spec.substr(0, colon);
  const std::string params = spec.substr(colon + 1);
  TopologyConfig config;
  const std::optional<TopologyKind> parsed = parse_enum<TopologyKind>(kind);
  if (!parsed || *parsed == TopologyKind::kCustom) {
    spec_error(spec, "unknown kind \"" + kind +
                         "\" (expected ring, torus, mesh, fattree, bigraph or switch)");
  }
  config.kind = *parsed;
  if (is_direct_kind(config.kind)) {
    config.dims.clear();
    for (const std::string& part : split(params, 'x')) {
      config.dims.push_back(parse_positive(spec, part, "dimension"));
    }
    const size_t n = config.dims.size();
    if (config.kind == TopologyKind::kRing && n != 1) {
      spec_error(spec, "ring takes one size, e.g. \"ring:16\"");
    }
    if (config.kind != TopologyKind::kRing && n != 2 && n != 3) {
      spec_error(spec, kind + " takes 2 or 3 dimensions, e.g. \"" + kind + ":4x4\" or \"" + kind +
                           ":4x4x4\"");
    }
  } else if (config.kind == TopologyKind::kFatTree) {
    config.dims.clear();
    const auto kv = parse_keys(spec, params, {"k", "levels"});
    config.fattree_k = required_key(spec, kv, "k", "fattree:k=8,levels=2");
    config.fattree_levels = 2;
    for (const auto& p : kv) {
      if (p.first == "levels") config.fattree_levels = p.second;
    }
  } else if (config.kind == TopologyKind::kBiGraph) {
    config.dims.clear();
    const auto kv = parse_keys(spec, params, {"m", "n"});
    config.bigraph_m = required_key(spec, kv, "m", "bigraph:m=4,n=8");
    config.bigraph_n = required_key(spec, kv, "n", "bigraph:m=4,n=8");
  } else {
    config.dims.clear();
    if (params.find('=') == std::string::npos) {
      config.switch_nodes = parse_positive(spec, params, "node count");
    } else {
      const auto kv = parse_keys(spec, params, {"nodes"});
      config.switch_nodes = required_key(spec, kv, "nodes", "switch:nodes=16");
    }
  }
  return config;
}

}  // namespace mt
