#pragma once
// The top level of a scenario file, declared once (key_spec.h): its scalar keys and its sections
// (topology, router, nic, collective, output), read into a ScenarioDraft; and every key of a
// scenario as the docs print it (`mtsim keys`, the key table of scenarios/README.md).

#include <string>
#include <vector>

#include "model/config/collective_keys.h"
#include "model/config/key_spec.h"
#include "model/config/network_keys.h"
#include "model/params/scenario_config.h"

namespace mt {

/// A scenario as its top level is read, before the cross-key rules (scenario_loader.cpp).
struct ScenarioDraft {
  ScenarioConfig scenario;
  YAML::Node topology_node;      ///< `topology:`, when given
  bool has_topology = false;     ///< `topology:` was given
  CollectiveSection collective;  ///< the collective and its entries' overrides
};

/// The keys of a scenario's top level.
const KeyTable<ScenarioDraft>& scenario_keys();

/// Every key of a scenario file, section rows first in each section, in file order.
std::vector<KeyDoc> scenario_key_docs();

/// `docs` as a Markdown table (key, type, default, unit, meaning), one row per key.
std::string key_docs_markdown(const std::vector<KeyDoc>& docs);
/// `docs` as plain text for a terminal: per key its path, type, default and unit on one line,
/// then its meaning indented.
std::string key_docs_text(const std::vector<KeyDoc>& docs);

}  // namespace mt
