#pragma once
// The keys of a scenario's `energy:` section (the prices of the events that cost energy),
// declared once (key_spec.h).

#include <string>

#include "model/config/key_spec.h"
#include "model/params/energy_config.h"

namespace mt {

/// The keys of `energy:`.
const KeyTable<EnergyConfig>& energy_keys();

/// `energy:` into `c` (a new preset drops the figures given with the old one in an earlier
/// mapping, as `host:` does; figures given in this mapping win).
void read_energy(const YamlReader& r, const YAML::Node& node, const std::string& path,
                 EnergyConfig& c);

}  // namespace mt
