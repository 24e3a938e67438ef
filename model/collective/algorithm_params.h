#pragma once
// What algorithm parameters look like before and after they are read: the key=value strings of
// `--param` or a scenario's collective.params, the description of one parameter (ParamSpec: its
// name, type, range, choices, the default derived from its algorithm's struct, help) and the
// build context (what a builder may know about the run besides its parameters: the all-reduce
// size, the cost model's parameters). The typed parameters themselves, one struct per algorithm,
// and the one function that reads the strings into them are in algorithm_config.h.

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "model/collective/cost_model.h"
#include "model/collective/schedule.h"

namespace mt {

/// Algorithm parameters as key=value strings (from `--param` or the scenario's
/// collective.params), read into an algorithm's typed struct by algorithm_config().
using AlgorithmParams = std::map<std::string, std::string>;

/// The type of one algorithm parameter.
enum class ParamType {
  kInt,   ///< a whole number >= ParamSpec::min ("4")
  kSize,  ///< a byte size ("4096", "16MiB", "1.5 KiB"; see byte_size.h)
  kEnum,  ///< one of ParamSpec::choices
};

/// One parameter an algorithm accepts, as its struct (algorithm_config.h) declares it.
struct ParamSpec {
  std::string name;                  ///< key, e.g. "pipeline"
  ParamType type = ParamType::kInt;  ///< how its value is read
  long long min = 1;                 ///< kInt: smallest value accepted
  std::vector<std::string> choices;  ///< kEnum: the values accepted, in the order errors list them
  /// Value when the key is absent, as a user would write it: the text of the struct member's
  /// default ("8", "height"); empty = the builder computes it (std::optional member).
  std::string fallback;
  /// For --help: what the value is ("chunks per tree"); for kEnum what the other choices do.
  std::string help;
  /// For --help, when `fallback` is empty: how the builder computes the value.
  std::string computed;
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
  /// With hardware_issue: each node's table is in the order a free host issues the schedule
  /// (nic.scheduler_table_order planned), so the windows hold what becomes ready next and a
  /// builder may size messages as for the host.
  bool planned_table_order = false;
  /// Simulates a candidate schedule of `auto` at `bytes` per node on the run's network and NIC
  /// with the message-granularity model and returns its completion, cycles: set by the run layer
  /// (which owns the simulators) for `auto` with rank=message; empty elsewhere.
  std::function<double(const Schedule&, std::uint64_t bytes)> simulate_messages;
};

}  // namespace mt
