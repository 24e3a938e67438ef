#pragma once
// Plain configuration of a parameter sweep: a base scenario file plus axes whose cross product
// gives the points. Filled and validated only by the sweep loader (model/config/sweep_loader.h);
// the schema is documented in scenarios/README.md ("Sweep files").

#include <string>
#include <vector>

#include "model/core/error.h"

namespace mt {

/// One scenario override of a sweep: `key=value` applied to the base scenario of a point.
struct SweepOverride {
  std::string key;    ///< scenario key path, e.g. "collective.sizes"
  std::string value;  ///< the value as one line of YAML, e.g. "1MiB" or "{name: ring, ports: 1}"
  /// The value's place in the sweep file (where() is "file:line:col"), for errors.
  ErrorLocation location;
  /// The key's place (an axis's `key:` value, a `set:` entry's key), for errors about the key.
  ErrorLocation key_location;
};

/// One axis of a sweep: a scenario key and the values it takes, in file order.
struct SweepAxis {
  std::string key;                    ///< scenario key path
  std::vector<SweepOverride> values;  ///< one override per value, each with `key` == this key
  ErrorLocation location;             ///< the axis entry's place in the sweep file
};

/// A whole sweep file.
struct SweepConfig {
  std::string name;                ///< sweep name (defaults to the file's stem)
  std::string description;         ///< free text
  std::string source_file;         ///< path the sweep was loaded from
  std::string scenario_file;       ///< base scenario, resolved relative to the sweep file's folder
  std::vector<SweepOverride> set;  ///< fixed overrides applied to every point, before the axes
  std::vector<SweepAxis> axes;     ///< the cross product of their values gives the points
  /// Combinations left out of the cross product: a point is dropped when it has every value of
  /// one entry (each entry a few axis values; keys and values are those of `axes`).
  std::vector<std::vector<SweepOverride>> exclude;
};

}  // namespace mt
