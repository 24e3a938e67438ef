#pragma once
// Readers of the sections of a scenario file (topology, router, nic, collective), each filling
// its ...Config; cross-key rules are the scenario loader's (scenario_loader.cpp).

#include <string>
#include <utility>
#include <vector>

#include "model/config/yaml_reader.h"
#include "model/params/scenario_config.h"

namespace mt {

/// `topology:` as a mapping, or the shorthand spec string ("torus:4x4").
void read_topology(const YamlReader& r, const YAML::Node& node, const std::string& path,
                   TopologyConfig& t);

/// `router:`.
void read_router(const YamlReader& r, const YAML::Node& node, const std::string& path,
                 RouterConfig& c);

/// `nic:`, or an algorithm entry's `nic:` overrides. `t` is null for the overrides (ports are the
/// entry's own `ports:` key); otherwise `nic.ports` goes to t->ports_per_node.
void read_nic(const YamlReader& r, const YAML::Node& node, const std::string& path, NicConfig& c,
              TopologyConfig* t);

/// `collective:`. `nics` gets, per algorithm entry, its `nic:` overrides node and key path
/// (an undefined node when it has none), to be applied over the scenario's nic once the whole
/// file is read.
void read_collective(const YamlReader& r, const YAML::Node& node, const std::string& path,
                     CollectiveConfig& c, std::vector<std::pair<YAML::Node, std::string>>& nics);

}  // namespace mt
