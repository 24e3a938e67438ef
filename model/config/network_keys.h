#pragma once
// The keys of a scenario's network sections, declared once (key_spec.h): `topology:`, `router:`
// and `nic:`, with their readers (cross-key rules are the scenario loader's).

#include <string>

#include "model/config/key_spec.h"
#include "model/params/scenario_config.h"

namespace mt {

/// The keys of `topology:` (each kind takes only its shape keys: read_topology checks).
const KeyTable<TopologyConfig>& topology_keys();
/// The keys of `router:`.
const KeyTable<RouterConfig>& router_keys();
/// The keys of `nic:` (an algorithm entry's `nic:` takes all but `ports`).
const KeyTable<NicConfig>& nic_keys();

/// `topology:` as a mapping, or the shorthand spec string ("torus:4x4").
void read_topology(const YamlReader& r, const YAML::Node& node, const std::string& path,
                   TopologyConfig& t);
/// `router:`.
void read_router(const YamlReader& r, const YAML::Node& node, const std::string& path,
                 RouterConfig& c);
/// `nic:`, or an algorithm entry's `nic:` overrides (`entry_overrides`: no `ports`, the entry
/// has its own `ports:` key).
void read_nic(const YamlReader& r, const YAML::Node& node, const std::string& path, NicConfig& c,
              bool entry_overrides);

}  // namespace mt
