#pragma once
// The keys of a scenario's `host:` section (the host of software issue), declared once
// (key_spec.h), and of an algorithm entry's `host:` overrides.

#include <string>

#include "model/config/key_spec.h"
#include "model/params/host_config.h"

namespace mt {

/// The keys of `host:`.
const KeyTable<HostConfig>& host_keys();

/// `host:` into `c`, or an algorithm entry's `host:` overrides applied over the scenario's (the
/// entry's figures win; a figure given in ns and in cycles in one mapping is refused).
void read_host(const YamlReader& r, const YAML::Node& node, const std::string& path, HostConfig& c);

}  // namespace mt
