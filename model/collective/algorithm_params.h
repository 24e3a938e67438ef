#pragma once
// Typed algorithm parameters: every algorithm declares its parameters (name, type, smallest
// value, choices, default) once; the key=value strings of `--param` or a scenario's
// collective.params are validated against that schema in one place, with errors naming the
// algorithm and the key, and builders read typed values. Also the build context: what a builder
// may know about the run besides its parameters (the all-reduce size, the cost model's
// parameters).

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "model/collective/cost_model.h"

namespace mt {

/// Algorithm parameters as key=value strings (from `--param` or the scenario's
/// collective.params), validated by TypedParams against the algorithm's schema.
using AlgorithmParams = std::map<std::string, std::string>;

/// The type of one algorithm parameter.
enum class ParamType {
  kInt,   ///< a whole number >= ParamSpec::min ("4")
  kSize,  ///< a byte size ("4096", "16MiB", "1.5 KiB"; see byte_size.h)
  kEnum,  ///< one of ParamSpec::choices
};

/// One parameter an algorithm accepts.
struct ParamSpec {
  std::string name;                  ///< key, e.g. "pipeline"
  ParamType type = ParamType::kInt;  ///< how its value is read
  long long min = 1;                 ///< kInt: smallest value accepted
  std::vector<std::string> choices;  ///< kEnum: the values accepted, in the order errors list them
  /// Value when the key is absent, as a user would write it; empty = the builder computes it
  /// (e.g. from the topology) and reads the parameter with a *_or() accessor.
  std::string fallback;
};

/// Validated, typed values of one algorithm's parameters.
class TypedParams {
 public:
  /// Validates `raw` against `schema`: first unknown keys ("dbtree: unknown parameter 'pipe'
  /// (known: pipeline)"), then every given value in schema order ("dbtree: parameter 'pipeline'
  /// must be >= 1, got 0", "... must be an integer, got '4x'", "... must be a size such as 4096 or
  /// 16MiB, got 'lots'", "... must be 'opt' or 'published', got 'best'"). Throws AlgorithmError.
  TypedParams(const std::string& algorithm, const std::vector<ParamSpec>& schema,
              const AlgorithmParams& raw);

  /// True when the user gave `key`.
  bool given(const std::string& key) const { return given_.count(key) != 0; }
  /// kInt value of `key`: the given one, else the schema's fallback.
  int integer(const std::string& key) const;
  /// kInt value of `key` when given, else `computed`.
  int integer_or(const std::string& key, int computed) const;
  /// kSize value of `key` in bytes when given, else `computed`.
  std::uint64_t size_or(const std::string& key, std::uint64_t computed) const;
  /// kEnum value of `key`: the given one, else the schema's fallback.
  const std::string& choice(const std::string& key) const;

 private:
  const ParamSpec& spec(const std::string& key) const;

  std::string algorithm_;
  std::vector<ParamSpec> schema_;
  std::map<std::string, long long> numbers_;  // kInt and kSize values (given or fallback)
  std::map<std::string, std::string> texts_;  // kEnum values (given or fallback)
  std::set<std::string> given_;
};

/// What a builder may know about the run besides its parameters.
struct BuildContext {
  /// All-reduce size per node the schedule is built for, bytes; 0 = not known (builders that
  /// size by it, `auto` and `tree_packing`, then use a `bytes` parameter or their default).
  std::uint64_t bytes = 0;
  /// Parameters of the cost model `auto` ranks its candidates with (defaults: the paper's
  /// network; the run layer fills them from the scenario).
  CostParams cost;
  /// The run's NIC issues from the hardware scheduler's table (nic.issue hardware, or auto when
  /// it resolves so), whose arrival counters and table bound how many messages a node may have.
  bool hardware_issue = false;
};

}  // namespace mt
