#pragma once
// Registry of all-reduce algorithms: CLI name -> builder producing a Schedule for a topology.
// Also the small helpers every builder shares (parameter parsing, dependency tracking).

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/collective/schedule.h"
#include "model/core/error.h"
#include "model/topology/topology.h"

namespace mt {

/// Algorithm parameters as key=value strings (from `--param` or the scenario's
/// collective.params). Each builder reads its own keys and rejects unknown ones.
using AlgorithmParams = std::map<std::string, std::string>;

/// Thrown for an unknown algorithm, an unknown/invalid parameter, or a topology the algorithm
/// does not support (message names which and why).
class AlgorithmError : public Error {
 public:
  using Error::Error;
};

/// Builds the schedule of algorithm `name` ("ring", "ring_bi", "ring2d", "dbtree",
/// "halving_doubling", "multitree", ...) on `topology`.
Schedule build_schedule(const std::string& name, const Topology& topology,
                        const AlgorithmParams& params = {});

/// CLI names of every registered algorithm, in presentation order.
std::vector<std::string> algorithm_names();

/// `params` with the all-reduce size set for algorithms whose schedule depends on it (`auto`
/// picks by size, `tree_packing` sizes its pipeline unless given one: param "bytes"), unless the
/// caller fixed it already; other algorithms' params are returned unchanged. Callers building one
/// schedule per size compare the result.
AlgorithmParams with_size(const std::string& name, AlgorithmParams params, std::uint64_t bytes);

/// One-line description of an algorithm and its parameters, for --help.
std::string algorithm_help(const std::string& name);

/// Throws AlgorithmError naming the first key of `params` that is not in `known`
/// (message: "<algorithm>: unknown parameter '<key>' (known: a, b)").
void check_params(const std::string& algorithm, const AlgorithmParams& params,
                  const std::vector<std::string>& known);

/// Integer parameter `key` (or `fallback` when absent). Throws AlgorithmError when the value is
/// not an integer or is below `min_value`.
int param_int(const std::string& algorithm, const AlgorithmParams& params, const std::string& key,
              int fallback, int min_value);

/// Size parameter `key` in bytes (or `fallback` when absent): an integer number of bytes or a
/// number with B, KiB, MiB, GiB, KB, MB, GB ("16MiB", "1.5 KiB"). Throws AlgorithmError
/// ("<algorithm>: parameter '<key>' must be a size such as 4096 or 16MiB, got '<text>'").
std::uint64_t param_bytes(const std::string& algorithm, const AlgorithmParams& params,
                          const std::string& key, std::uint64_t fallback);

/// Throws AlgorithmError unless the topology has at least two endpoints.
void require_min_nodes(const std::string& algorithm, const Topology& topology, int min_nodes = 2);

/// Derives dependencies for chunk-pipelined algorithms (ring, halving-doubling, 2D ring): every
/// send of chunk c by node u depends on the messages that delivered chunk c to u so far: every
/// reduce arrival since the last broadcast arrival, and that broadcast arrival (which is itself
/// ordered after the earlier ones). Arrivals recorded during a step become visible only after
/// commit(), so a node never depends on a message of the step it is sending in.
class ArrivalTracker {
 public:
  /// Tracker for `nodes` endpoints and `chunks` chunks, with no arrival yet.
  ArrivalTracker(int nodes, int chunks);
  /// Dependencies of a send of `chunk` by `node` (committed arrivals only).
  std::vector<int> deps(int node, int chunk) const;
  /// Records that message `id` of `kind` delivers `chunk` to `node` (visible after commit()).
  void record(int node, int chunk, int id, OpKind kind);
  /// Makes the arrivals recorded since the last commit visible.
  void commit();
  /// Adds `op` to `schedule` with deps from this tracker, records its arrival; returns its id.
  int send(Schedule& schedule, Op op);

 private:
  struct Pending {
    size_t slot;
    int id;
    OpKind kind;
  };
  int chunks_;
  std::vector<std::vector<int>> arrivals_;  // node * chunks + chunk -> message ids
  std::vector<Pending> pending_;
};

/// Returns `schedule` with its ops stably reordered by step (ids and deps renumbered), so that a
/// node's program lists its messages in step order.
Schedule sort_by_step(const Schedule& schedule);

}  // namespace mt
