#pragma once
// `--set key.path=value` overrides of a scenario, applied to its YAML tree before it is read.

#include <map>
#include <string>

#include "model/config/yaml_reader.h"

namespace mt {

/// Splits "a.b.c=value" (value parsed as YAML) and sets that key in `root`, creating mappings on
/// the way (a spec-string topology is expanded into its mapping so single keys stay
/// replaceable). Records in `overridden` (key path -> `text`) every key the override set or
/// created, so messages about them name the override. Throws ScenarioError (or TopologyError for
/// a bad topology spec on the way), naming `option` when the override stands for one.
void apply_override(YAML::Node& root, const std::string& text, const std::string& option,
                    std::map<std::string, std::string>& overridden);

}  // namespace mt
