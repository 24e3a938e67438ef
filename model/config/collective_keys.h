#pragma once
// The keys of a scenario's `collective:` section and of its algorithm entries, declared once
// (key_spec.h), with their readers (cross-key rules are the scenario loader's).

#include <string>
#include <vector>

#include "model/config/key_spec.h"
#include "model/config/yaml_reader.h"
#include "model/params/scenario_config.h"

namespace mt {

/// What an algorithm entry overrides of the scenario's sections, applied once the whole file is
/// read: its `nic:` mapping (undefined when it has none) and that key's path, and its `host:`.
struct EntryOverrides {
  YAML::Node nic;
  std::string nic_path;
  YAML::Node host;  ///< its `host:` mapping (undefined when it has none)
  std::string host_path;
};

/// `collective:` as it is read: the config, and per algorithm entry its overrides.
struct CollectiveSection {
  CollectiveConfig config;
  std::vector<EntryOverrides> overrides;
};

/// The keys of `collective:`.
const KeyTable<CollectiveSection>& collective_keys();
/// The docs rows of an algorithm entry's keys under `prefix` ("collective.algorithms[i].").
std::vector<KeyDoc> entry_key_docs(const std::string& prefix);

/// `collective:`.
void read_collective(const YamlReader& r, const YAML::Node& node, const std::string& path,
                     CollectiveSection& c);

}  // namespace mt
